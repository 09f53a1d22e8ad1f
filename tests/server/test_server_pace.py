"""The server sets the pace of a table (issue 30) against real server processes: forced plays one per update at
the table's pace, the countdown between hands and the ``next`` message, the turn timer's mark, and what the
join page reads of a table (its title and pace)."""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from server_helpers import Client, Server, choose

from rummoli.server.api.protocol import ServerMessage

SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)
PAUSE = 30.0  # the countdown of the module's server: long enough that a deal before it is the next's doing


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose tables (without a pace of their own) pace forced plays at 0.2 s and count 30 s down."""
    running = Server(tmp_path_factory.mktemp("paced"), "--play-pace", "0.2", "--hand-pause", str(PAUSE)).start()
    try:
        yield running
    finally:
        running.stop()


def forced_in(message: dict[str, Any]) -> int:
    """How many forced plays in a run (the forced moves the table makes for a person) an update or a welcome
    holds."""
    return sum(1 for e in message.get("events", []) if e["type"] == "action" and e.get("forced")
               and e["action"] == "play")


def chooses(client: Client) -> bool:
    """Whether the client's seat has a choice to make now: its turn, with legal actions listed (a forced play in
    a run that the server is about to make lists none; a forced lead, pass or keep is asked as a choice is)."""
    return client.my_turn()


def play_until(client: Client, done: Any, rng: random.Random, timeout: float = 90,
               stamps: list[tuple[float, dict[str, Any]]] | None = None) -> None:
    """The client's person decides at random whenever it has a choice, until ``done()``; every message it
    receives is kept in ``stamps`` with the time it arrived."""
    deadline = time.monotonic() + timeout
    while not done():
        if chooses(client):
            client.act(choose(client.view, rng))
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"not done in {timeout} s; last messages {client.messages[-3:]}")
        seq = client.seq
        while client.seq == seq and not done():  # wait for the table to move (or the error of a refusal)
            message = client.recv(max(0.01, deadline - time.monotonic()))
            if stamps is not None:
                stamps.append((time.monotonic(), message))
            if message["type"] == "error":
                raise AssertionError(f"refused: {message}")


def check_forced_pacing(server: Server, spacing: float, **table: Any) -> None:
    created = server.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1, **table)
    ann = server.client(created["id"], created["token"])
    stamps: list[tuple[float, dict[str, Any]]] = []
    play_until(ann, lambda: bool(ann.view.get("over")), random.Random(5), stamps=stamps)
    forced = [(at, m) for at, m in stamps if m["type"] == "update" and forced_in(m)]
    assert len(forced) >= 5, [forced_in(m) for _at, m in stamps]
    assert all(forced_in(m) == 1 for _at, m in forced), [forced_in(m) for _at, m in forced]
    assert sum(forced_in(m) for _at, m in stamps) + forced_in(ann.welcome) == sum(
        1 for e in ann.events if e["type"] == "action" and e.get("forced") and e["action"] == "play")
    gaps = [b - a for (a, _m), (b, _n) in itertools.pairwise(forced)]
    # Lower bounds only, on the whole span and the median gap: a busy machine makes gaps longer, but a test
    # process held up for a moment reads two updates at once (one gap short, the one before it long).
    assert forced[-1][0] - forced[0][0] >= 0.8 * spacing * len(gaps), gaps
    assert statistics.median(gaps) >= 0.8 * spacing, gaps
    for message in ann.messages:
        SERVER_MESSAGE.validate_python(message)
    ann.close()


def test_forced_plays_arrive_one_per_update_at_the_servers_pace(paced: Server) -> None:
    check_forced_pacing(paced, 0.2, seed="pace-server")


def test_a_table_paced_fast_spaces_its_forced_plays_on_a_server_without_pace(server: Server) -> None:
    check_forced_pacing(server, 0.3, seed="pace-fast", pace="fast")


def test_an_instant_table_sends_a_runs_forced_plays_with_the_move_that_started_them(paced: Server) -> None:
    """At pace 0 a run's forced plays, which every seat is told were forced, are made in the change of the move that
    started them (one write, one update a seat: Host.run_at_once); any other move still comes in an update of its
    own (issue 33: a forced lead, pass or keep must look chosen)."""
    created = paced.create(ruleset="michigan", seats=[{}, {"bot": "random"}, {"bot": "random"}], hands=1,
                           seed="pace-instant", pace="instant")
    ann = paced.client(created["id"], created["token"])
    assert ann.welcome["pace"] == {"bot": 0.0, "play": 0.0, "name": "instant"}
    play_until(ann, lambda: bool(ann.view.get("over")), random.Random(2))
    updates = [m for m in ann.messages if m["type"] == "update"]
    assert max(forced_in(m) for m in updates) >= 2  # a run's plays together
    for m in updates:
        moves = [e for e in m["events"] if e["type"] == "action"]
        assert len([e for e in moves if not e.get("forced")]) <= 1, moves
    assert sum(forced_in(m) for m in ann.messages) + forced_in(ann.welcome) == sum(
        1 for e in ann.events if e["type"] == "action" and e.get("forced") and e["action"] == "play")
    for message in ann.messages:
        SERVER_MESSAGE.validate_python(message)
    ann.close()


def test_the_summary_and_welcome_tell_the_title_and_the_pace(paced: Server) -> None:
    waiting = paced.create(ruleset="gin-rummy", seats=[{}, {}], pace="slow")
    summary = paced.get(f"/api/tables/{waiting['id']}").json()
    assert summary["title"] == "Gin Rummy" and summary["open_seats"] == 1  # no Table yet: loaded from the options
    assert summary["pace"] == {"bot": 2.0, "play": 1.2, "name": "slow"}
    started = paced.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}])
    summary = paced.get(f"/api/tables/{started['id']}").json()
    assert summary["title"] == "Michigan" and summary["pace"] == {"bot": 0.0, "play": 0.2, "name": None}
    listed = {t["id"]: t for t in paced.get("/api/tables").json()["tables"]}
    assert listed[waiting["id"]]["title"] == "Gin Rummy"
    welcome = paced.client(started["id"]).welcome
    assert welcome["pace"] == summary["pace"] and welcome["next_hand"] is None  # a hand is in play
    bad = paced.post("/api/tables", {"name": "Ann", "pace": "ludicrous"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "malformed"
    assert "pace" in bad.json()["error"]["message"]


def to_hand_end(clients: list[Client], rng: random.Random) -> dict[str, Any]:
    """Play an instant table's hand to its end through ``clients`` (all its people); the countdown every client
    was shown with it (the same for all), once all are at the same seq."""
    first = clients[0]
    deadline = time.monotonic() + 90
    while not first.view.get("hand_over"):
        assert time.monotonic() < deadline, first.messages[-3:]
        for client in clients:
            while client.poll() is not None:
                pass
            if client.my_turn():
                seq = client.seq
                client.act(choose(client.view, rng))
                client.until(lambda m, s=seq: m["type"] == "error" or (m["type"] == "update" and m["seq"] > s))
        if not any(c.my_turn() for c in clients) and not first.view.get("hand_over"):
            first.recv(20)
    for client in clients:
        while client.seq < first.seq:
            client.recv(10)
    shown = [c.messages[-1]["next_hand"] for c in clients]
    assert len({(tuple(s["ready"]), tuple(s["waiting"])) for s in shown}) == 1, shown
    assert not first.view.get("over") and shown[0] is not None
    return dict(shown[0])


def dealt(client: Client, timeout: float) -> float:
    """Wait for the next hand's hand_start; the seconds it took."""
    started = time.monotonic()
    client.until(lambda m: m["type"] == "update" and any(e["type"] == "hand_start" for e in m["events"]), timeout)
    return time.monotonic() - started


def test_next_from_the_only_person_connected_deals_at_once(paced: Server) -> None:
    created = paced.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=3,
                           seed="pace-next", pace="instant")
    ann = paced.client(created["id"], created["token"])
    shown = to_hand_end([ann], random.Random(1))
    assert shown["ready"] == [] and shown["waiting"] == [0] and PAUSE - 5 < shown["seconds"] <= PAUSE
    ann.send({"type": "next", "seq": ann.seq})
    assert dealt(ann, 20) < PAUSE - 10  # the next, not the countdown
    assert ann.messages[-1]["next_hand"] is None and not ann.errors
    ann.close()


def test_two_people_one_ready_is_not_enough_both_deal_and_everyone_sees_who(paced: Server) -> None:
    created = paced.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], hands=3, seed="pace-two",
                           pace="instant")
    table = created["id"]
    bob_seat = paced.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    ann = paced.client(table, created["token"])
    bob = paced.client(table, bob_seat["token"])
    watcher = paced.client(table)
    shown = to_hand_end([ann, bob, watcher], random.Random(4))
    assert shown["ready"] == [] and shown["waiting"] == [0, 1]
    seq = ann.seq
    ann.send({"type": "next", "seq": seq})
    for client in (ann, bob, watcher):
        told = client.until(lambda m: m["type"] == "next_hand")
        assert told["ready"] == [0] and told["waiting"] == [1] and 0 < told["seconds"] <= PAUSE
    ann.send({"type": "ping"})  # answered after the next above: had it dealt, the update would come first
    assert ann.until(lambda m: m["type"] in ("pong", "update"))["type"] == "pong"
    assert paced.get(f"/api/tables/{table}").json()["seq"] == seq  # one of two is not enough
    # A reconnecting client is shown who is ready in its welcome.
    again = paced.client(table, bob_seat["token"], since=seq)
    assert again.welcome["next_hand"]["ready"] == [0] and again.welcome["next_hand"]["waiting"] == [1]
    again.close()
    bob.send({"type": "next", "seq": seq})
    for client in (bob, ann, watcher):
        assert dealt(client, 20) < PAUSE - 10
        assert client.messages[-1]["next_hand"] is None
    for client in (ann, bob, watcher):
        assert not client.errors
        for message in client.messages:
            SERVER_MESSAGE.validate_python(message)
        client.close()


def test_a_stale_next_changes_nothing_and_a_spectators_is_refused(paced: Server) -> None:
    created = paced.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=3,
                           seed="pace-stale", pace="instant")
    table = created["id"]
    ann = paced.client(table, created["token"])
    watcher = paced.client(table)
    mid_hand = ann.seq
    to_hand_end([ann, watcher], random.Random(7))
    for seq in (mid_hand, ann.seq - 1, ann.seq + 5):
        ann.send({"type": "next", "seq": seq})
    ann.send({"type": "ping"})
    assert ann.until(lambda m: m["type"] in ("pong", "next_hand", "update", "error"))["type"] == "pong"
    again = paced.client(table, created["token"], since=ann.seq)
    assert again.welcome["next_hand"]["ready"] == [] and again.welcome["seq"] == ann.seq
    again.close()
    watcher.send({"type": "next", "seq": watcher.seq})
    refused = watcher.until(lambda m: m["type"] == "error")
    assert refused["code"] == "unauthorized" and "\n" not in refused["message"]
    ann.send({"type": "next", "seq": ann.seq, "extra": 1})
    assert ann.until(lambda m: m["type"] == "error")["code"] == "malformed"
    ann.drain(0.3)
    assert ann.seq == watcher.seq == paced.get(f"/api/tables/{table}").json()["seq"]  # nothing dealt
    ann.close()
    watcher.close()


def test_the_countdown_deals_by_itself_and_again_after_a_restart(tmp_path: Path) -> None:
    pause = 4.0
    server = Server(tmp_path, "--hand-pause", str(pause)).start()
    try:
        created = server.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=4,
                                seed="pace-count", pace="instant")
        table = created["id"]
        ann = server.client(table, created["token"])
        # The person says nothing: the countdown deals.
        rng = random.Random(3)
        play_until(ann, lambda: bool(ann.view.get("hand_over")), rng)
        shown = ann.messages[-1]["next_hand"]
        assert shown["waiting"] == [0] and pause - 1 < shown["seconds"] <= pause
        assert dealt(ann, 20) >= 0.7 * pause
        # A restart between hands: the countdown starts again (it is not stored), and the pace is kept.
        play_until(ann, lambda: bool(ann.view.get("hand_over")), rng)
        ann.close()
        server.kill()
        server.start()
        back = server.client(table, created["token"], since=ann.seq)
        assert back.welcome["seq"] == ann.seq and back.welcome["pace"]["name"] == "instant"
        shown = back.welcome["next_hand"]
        assert shown is not None and shown["waiting"] == [0] and pause - 2 < shown["seconds"] <= pause
        assert dealt(back, 20) >= shown["seconds"] - 1  # the countdown shown is the one that deals
        assert server.get(f"/api/tables/{table}").json()["pace"] == {"bot": 0.0, "play": 0.0, "name": "instant"}
        back.close()
        assert "Traceback" not in server.log()
    finally:
        server.stop()


def test_a_choice_the_turn_timer_made_is_marked_for_every_seat(server: Server) -> None:
    created = server.create(ruleset="rummy", seats=[{}, {}], seed="pace-timer", turn_timer=5, pace="instant")
    table = created["id"]
    bob_seat = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    ann = server.client(table, created["token"])
    bob = server.client(table, bob_seat["token"])
    late = ann if ann.my_turn() else bob
    seat = late.seat
    for client in (ann, bob):
        update = client.until(lambda m: m["type"] == "update" and any(e["type"] == "timeout" for e in m["events"]),
                              timeout=30)
        kinds = [(e["type"], e.get("seat")) for e in update["events"]]
        timeout = kinds.index(("timeout", seat))
        # The timeout comes just before the action it made (the hand's seat numbers are the evening's here).
        assert update["events"][timeout + 1]["type"] == "action" and update["events"][timeout + 1]["seat"] == seat
    ann.close()
    bob.close()
