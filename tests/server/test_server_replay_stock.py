"""The cards out of play in an open replay of the Rummy family and of Poch: a Rummy hand's stock (top card first, as
the record's deal and draws make it at every step) and the cards Hoyle's Poch leaves undealt. Only a seat of a
finished evening that asks with ``open`` gets them: while the evening goes on ``open`` is refused, and no replay
without it (a seat's, a spectator's) names a card of the stock left at the hand's end, or of Poch's undealt cards."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from server_helpers import Server, play, play_until
from test_server_replay_widow import DECK, cards_named

from rummoli.server.api.web import whole_views


def seated(server: Server, ruleset: str, bots: list[str], hands: int, seed: str) -> tuple[dict[str, Any], Any]:
    created = server.create(ruleset=ruleset, seats=[{}, *({"bot": b} for b in bots)], hands=hands, pace="instant",
                            seed=seed)
    return created, server.client(created["id"], created["token"])


def hands_finished(server: Server, table: str, token: str) -> int:
    return len(server.get(f"/api/tables/{table}/history", token=token).json()["hands"])


def laid(view: dict[str, Any]) -> list[str]:
    """The cards on the table in a Rummy view: the discard pile and every meld."""
    return [*view["discard"], *(c for meld in view["melds"] for c in meld["cards"])]


def test_a_rummy_stock_is_out_of_play_only_in_the_open_replay_of_a_finished_evening(tmp_path: Path) -> None:
    server = Server(tmp_path, RUMMOLI_RATE="1000", RUMMOLI_BURST="1000").start()
    try:
        created, ann = seated(server, "rummy", ["easy"], 3, "stock-out-of-play-1")
        table, token = created["id"], created["token"]
        rng = random.Random(3)
        play([ann], rng, lambda: hands_finished(server, table, token) >= 1, eager=True)  # the evening goes on
        path = f"/api/tables/{table}/hands/1/replay"
        refused = server.get(path + "?open=1", token=token)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "unavailable", refused.text
        plain, watched = server.get(path, token=token).json(), server.get(path).json()
        assert plain["can_open"] is False and watched["can_open"] is False
        assert server.post(f"/api/tables/{table}/end", token=token).status_code == 200
        play([ann], rng, lambda: server.get(f"/api/tables/{table}").json()["over"], eager=True)
        record = server.get(f"/api/tables/{table}/record", token=token).json()["hands"][0]
        opened = server.get(path + "?open=1", token=token).json()
        views = whole_views(opened["frames"])
        assert views[0]["out_of_play"] == {"kind": "stock", "cards": record["deal"]["stock"][1:]}  # [0]: the upcard
        drew = 0
        for k, (view, frame) in enumerate(zip(views, opened["frames"], strict=True)):
            stock = view["out_of_play"]["cards"]
            held = [c for hand in view["open_hands"] for c in hand]
            assert len(stock) == view["stock"], k  # what every seat is told: how many
            assert sorted([*stock, *held, *laid(view)]) == sorted(DECK), k  # each card in one place
            taken = [e for e in frame["events"] if e.get("action") == "draw" and e.get("from") == "stock"]
            if k and taken and not any(e["type"] == "flip" for e in frame["events"]):
                before = views[k - 1]["out_of_play"]["cards"]
                assert stock == before[len(taken):], k  # drawn from the top
                assert before[0] in view["open_hands"][taken[0]["seat"]], k
                drew += 1
        assert drew >= 2
        left = set(views[-1]["out_of_play"]["cards"])
        assert left, "a seed whose hand ends with cards in the stock"
        # Without ``open`` (read while the evening went on, and after it): no stock card left at the end is named.
        for replay in (plain, watched, server.get(path, token=token).json(), server.get(path).json()):
            assert "out_of_play" not in json.dumps(replay) and not cards_named(replay) & left
    finally:
        server.stop()


def test_hoyles_poch_leaves_its_undealt_cards_out_of_play_and_out_of_every_plain_replay(tmp_path: Path) -> None:
    server = Server(tmp_path, RUMMOLI_RATE="1000", RUMMOLI_BURST="1000").start()
    try:
        created, ann = seated(server, "poch-hoyle", ["easy", "easy", "easy"], 1, "undealt-out-of-play-1")
        table, token = created["id"], created["token"]
        rng = random.Random(4)
        path = f"/api/tables/{table}/hands/1/replay"
        play_until(ann, lambda c: bool(c.view.get("over")), rng)
        record = server.get(f"/api/tables/{table}/record", token=token).json()["hands"][0]
        undealt = record["deal"]["stock"]
        assert undealt and record["deal"]["turned"] not in undealt
        views = whole_views(server.get(path + "?open=1", token=token).json()["frames"])
        for k, view in enumerate(views):
            assert view["out_of_play"] == {"kind": "undealt", "cards": undealt}, k
            assert not {c for hand in view["open_hands"] for c in hand} & set(undealt), k
        for replay in (server.get(path, token=token).json(), server.get(path).json()):
            assert "out_of_play" not in json.dumps(replay) and not cards_named(replay) & set(undealt)

        # The modern deal deals every card: nothing is out of play, and the open frames say nothing of it.
        created, ann = seated(server, "poch", ["easy", "easy", "easy"], 1, "undealt-out-of-play-2")
        play_until(ann, lambda c: bool(c.view.get("over")), rng)
        opened = server.get(f"/api/tables/{created['id']}/hands/1/replay?open=1", token=created["token"]).json()
        assert "out_of_play" not in json.dumps(opened) and "open_hands" in json.dumps(opened)
    finally:
        server.stop()
