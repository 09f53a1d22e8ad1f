"""Seats over time: reconnecting gets back the view and the missed events, an absent player is played by a
bot after the grace period and gets the seat back on return, and the turn timer plays a safe default."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import Server, play


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose grace period is one second."""
    running = Server(tmp_path_factory.mktemp("quick"), "--grace", "1").start()
    try:
        yield running
    finally:
        running.stop()


def two_people(server: Server, ruleset: str = "rummy", **options: object) -> tuple[str, str, str]:
    created = server.create(ruleset=ruleset, seats=[{}, {}], seed="seats", **options)
    bob = server.post(f"/api/tables/{created['id']}/seats", {"name": "Bob"}).json()
    return created["id"], created["token"], bob["token"]


def test_reconnecting_gets_the_view_and_exactly_the_events_missed(server: Server) -> None:
    table, ann_token, bob_token = two_people(server)
    ann = server.client(table, ann_token)
    bob = server.client(table, bob_token)
    mover, other, other_token = (ann, bob, bob_token) if ann.my_turn() else (bob, ann, ann_token)
    seen = other.seq
    other.close()
    mover.act(mover.view["hand"]["legal_actions"][0])  # a draw: the drawer's card is not the other's to see
    mover.until(lambda m: m["type"] == "update")
    back = server.client(table, other_token, since=seen)
    events = back.welcome["events"]
    assert [e["seq"] for e in events] == list(range(seen + 1, back.welcome["seq"] + 1)) and events
    assert back.welcome["view"] == server.client(table, other_token).view  # the whole view, as a fresh client
    drawn = [e for e in events if e.get("action") == "draw"]
    assert drawn and all("card" not in e for e in drawn if e.get("from") == "stock")
    assert back.welcome["view"]["hand"]["hand"] and back.welcome["view"]["you"] == other.seat
    # a reconnect with no `since` (or a future one) gets the view and no events
    assert server.client(table, other_token, since=10_000).welcome["events"] == []
    for client in (ann, back, mover):
        client.close()


def test_an_absent_player_is_played_by_a_bot_until_they_return(quick: Server) -> None:
    table, ann_token, bob_token = two_people(quick)
    ann = quick.client(table, ann_token)  # Bob never comes
    deadline = time.monotonic() + 20
    while not any(e["type"] == "seat" and e["bot"] == "easy" for e in ann.events):
        if ann.my_turn():
            ann.act(ann.view["hand"]["legal_actions"][0])
        ann.recv(max(0.1, deadline - time.monotonic()))
    bob_seat = 1 - ann.seat  # type: ignore[operator]
    assert ann.view["seats"][bob_seat]["bot"] == "easy"
    bob_hand_seat = ann.view["hand_seats"].index(bob_seat)
    while not any(e.get("type") == "action" and e["seat"] == bob_hand_seat and e["seq"] > ann.welcome["seq"]
                  for e in ann.events):  # the bot plays Bob's turns
        if ann.my_turn():
            ann.act(ann.view["hand"]["legal_actions"][0])
        ann.recv(10)
    summary = quick.get(f"/api/tables/{table}").json()
    assert summary["seats"][bob_seat]["bot"] == "easy" and summary["seats"][bob_seat]["person"]
    bob = quick.client(table, bob_token)  # Bob returns: his seat is his again
    ann.until(lambda m: m["type"] == "update" and any(e["type"] == "seat" and e["bot"] is None for e in m["events"]))
    bob.until(lambda m: m["type"] == "update" and m["view"]["seats"][bob_seat]["bot"] is None)
    assert bob.view["seats"][bob_seat]["bot"] is None
    for client in (ann, bob):
        client.close()


def test_the_turn_timer_plays_a_safe_default(server: Server) -> None:
    created = server.create(ruleset="rummy", seats=[{}, {"bot": "random"}], seed="timer", turn_timer=5)
    ann = server.client(created["id"], created["token"])
    if not ann.my_turn():
        ann.until(lambda m: ann.my_turn())
    assert ann.view["hand"]["phase"] == "draw"
    clock = ann.messages[-1]["clock"] if ann.messages[-1]["type"] != "seats" else ann.welcome["clock"]
    assert clock is None or (clock["seat"] == ann.seat and 0 < clock["seconds"] <= 5)
    started = time.monotonic()
    seq = ann.seq
    ann.until(lambda m: m["type"] == "update" and m["seq"] > seq, timeout=15)
    waited = time.monotonic() - started
    made = next(e for e in ann.events if e["seq"] > seq and e.get("type") == "action")
    assert made["seat"] == ann.view["hand"]["seat"] and made["action"] == "draw" and made["from"] == "stock"
    assert 3.5 <= waited <= 10, waited
    ann.close()


def test_the_grace_period_also_runs_after_a_restart(tmp_path: Path) -> None:
    server = Server(tmp_path, "--grace", "1").start()
    try:
        table, ann_token, _bob_token = two_people(server)
        server.kill()
        server.start()
        watcher = server.client(table)
        watcher.until(lambda m: m["type"] == "update" and sum(
            s["bot"] == "easy" for s in m["view"]["seats"]) == 2, timeout=20)
        ann = server.client(table, ann_token)
        ann.until(lambda m: m["type"] == "update" and m["view"]["seats"][0]["bot"] is None)
        watcher.close()
        ann.close()
    finally:
        server.stop()


def test_a_finished_evening_leaves_memory_and_comes_back_from_the_store(tmp_path: Path) -> None:
    server = Server(tmp_path, RUMMOLI_OVER_KEEP="1", RUMMOLI_RATE="1000", RUMMOLI_BURST="1000").start()
    try:
        created = server.create(ruleset="michigan", seats=[{}, {"bot": "random"}, {"bot": "random"}], hands=1,
                                chips=40, seed="evict")
        table = created["id"]
        ann = server.client(table, created["token"], since=0)
        play([ann], random.Random(5), until=lambda: bool(ann.view.get("over")), timeout=90)
        history = server.get(f"/api/tables/{table}/history", token=created["token"]).json()
        record = server.get(f"/api/tables/{table}/record", token=created["token"]).json()
        assert server.get("/healthz").json()["tables"] == 1  # watched: it stays
        ann.close()
        deadline = time.monotonic() + 15
        while server.get("/healthz").json()["tables"] != 0:  # over, unwatched for a second: dropped
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.2)
        # Asked for again, it is loaded from the store, the same as it was (and, unwatched, may leave again).
        assert server.get(f"/api/tables/{table}").json()["over"] is True
        assert server.get(f"/api/tables/{table}/history", token=created["token"]).json() == history
        assert server.get(f"/api/tables/{table}/record", token=created["token"]).json() == record
        again = server.client(table, created["token"])
        assert again.welcome["view"]["over"] and again.welcome["seq"] == history["seq"]
        time.sleep(1.5)
        assert server.get("/healthz").json()["tables"] == 1  # watched again: it stays
        again.close()
    finally:
        server.stop()
