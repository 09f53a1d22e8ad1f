"""The cards out of play in an open replay (a Rummoli hand's widow, and the hand a seat gave up for it): the
open frames of a finished evening hold them exactly as the record's deal and actions make them; a spectator's
replay and a seat's replay without ``open`` never hold a card of them that its viewer could not know."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from server_helpers import Server, choose

from rummoli.server.api.web import whole_views

DECK = frozenset(r + s for r in "23456789TJQKA" for s in "shdc")


def finished_rummoli(server: Server, seed: str, bots: tuple[str, ...] = ("hard", "normal", "easy")) -> dict[str, Any]:
    """A one-hand Rummoli evening with three bots, its person's seat played at random to the end, never taking
    the widow (so the seat that takes it is a bot, whose given-up hand the person never sees)."""
    created = server.create(ruleset="rummoli", seats=[{}, *({"bot": b} for b in bots)], hands=1, pace="instant",
                            seed=seed)
    ann = server.client(created["id"], created["token"])
    rng = random.Random(5)
    deadline = time.monotonic() + 60
    while not ann.view.get("over"):
        assert time.monotonic() < deadline, ann.view
        if ann.my_turn():
            legal = [a for a in ann.view["hand"]["legal_actions"] if a["action"] not in ("bid", "swap")]
            seq = ann.seq
            ann.act(choose({"hand": {"legal_actions": legal}}, rng))
            ann.until(lambda m, s=seq: m["type"] == "error" or (m["type"] == "update" and m["seq"] > s))
        else:
            ann.recv(20)
    ann.close()
    return created




def cards_named(value: Any) -> set[str]:
    """Every string in a frame's JSON (its values, at any depth) that names a card, the board's pots aside (a
    Rummoli pot is named after its card: "As" there is the ace of spades' pot, known to all)."""
    if isinstance(value, dict):
        return {c for k, v in value.items() if k != "board" for c in cards_named(v)}
    if isinstance(value, list):
        return {c for v in value for c in cards_named(v)}
    return {value} if isinstance(value, str) and value in DECK else set()


def test_open_frames_hold_the_widow_then_the_hand_given_up_and_no_one_else_sees_them(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        created = finished_rummoli(server, "widow-out-of-play-2")
        table, token = created["id"], created["token"]
        path = f"/api/tables/{table}/hands/1/replay"
        record = server.get(f"/api/tables/{table}/record", token=token).json()["hands"][0]
        widow = sorted(record["deal"]["widow"])
        dealt = [sorted(hand) for hand in record["deal"]["hands"]]
        opened = server.get(path + "?open=1", token=token).json()
        views = whole_views(opened["frames"])
        # Before any swap: the widow exactly as dealt, given up by nobody.
        assert sorted(views[0]["out_of_play"]["cards"]) == widow and views[0]["out_of_play"]["given_up_by"] is None
        # The swap, if any: the step where a seat's hand became the dealt widow; from then on its dealt hand is
        # what is out of play, said to be given up by that seat.
        took = [(k, s) for k, v in enumerate(views) for s, hand in enumerate(v["open_hands"])
                if k and sorted(hand) == widow and sorted(views[k - 1]["open_hands"][s]) != widow]
        assert len(took) == 1, took  # this seed's hand has a bot's swap (the case the page must explain)
        at, swapper = took[0]
        assert swapper != 0
        for k, view in enumerate(views):
            spare = view["out_of_play"]
            if k < at:
                assert sorted(spare["cards"]) == widow and spare["given_up_by"] is None, k
            else:
                assert sorted(spare["cards"]) == dealt[swapper] and spare["given_up_by"] == swapper, k
            held = {c for hand in view["open_hands"] for c in hand}
            assert not held & set(spare["cards"]), k  # out of play: in no seat's hand
        # Nobody else learns them: not a spectator, not a seat that did not swap (the swapper knows its own
        # given-up hand, and the widow it took), not even a seat without ``open``.
        given_up = set(record["deal"]["hands"][swapper])
        watched = server.get(path).json()
        assert watched["can_open"] is False
        assert "out_of_play" not in json.dumps(watched)
        for frame in watched["frames"]:
            assert not cards_named(frame) & given_up, frame
        plain = server.get(path, token=token).json()
        assert "out_of_play" not in json.dumps(plain) and "open_hands" not in json.dumps(plain)
        for frame in plain["frames"]:
            assert not cards_named(frame) & given_up, frame
        # Before the swap the widow is in no frame of the seat's or the spectator's replay.
        for frames in (watched["frames"][:at], plain["frames"][:at]):
            assert not cards_named(frames) & set(widow)

        # A hand nobody swapped: the widow is out of play at every step, and never played, never seen.
        kept = finished_rummoli(server, "widow-out-of-play-1")
        path = f"/api/tables/{kept['id']}/hands/1/replay"
        record = server.get(f"/api/tables/{kept['id']}/record", token=kept["token"]).json()["hands"][0]
        views = whole_views(server.get(path + "?open=1", token=kept["token"]).json()["frames"])
        assert all(v["out_of_play"] == {"kind": "widow", "cards": record["deal"]["widow"], "given_up_by": None}
                   for v in views)
        for replay in (server.get(path).json(), server.get(path, token=kept["token"]).json()):
            assert "out_of_play" not in json.dumps(replay) and not cards_named(replay) & set(record["deal"]["widow"])
    finally:
        server.stop()
