"""The pieces behind the server's speed, checked on their own: the per-seat update built from one shared
view is exactly the table's own view of that seat, and the store's writer groups many tables' changes in one
transaction while keeping each table's compare-and-set (on a real SQLite file)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from rummoli.server.storage.rows import SeatRow, StoreConflict
from rummoli.server.storage.store import Store
from rummoli.server.storage.writer import StoreWriter
from rummoli.server.tables.updates import Updates, seat_view
from rummoli.table import Seat, Table

RULESETS = ["rummoli", "michigan", "rummy", "gin-rummy", "500-rum"]


def same(a: Any, b: Any) -> bool:
    """The same JSON text: the same keys in the same order and the same values (orjson: the checks below write
    every seat's whole view at every step, and the standard library took most of this module's time)."""
    return orjson.dumps(a) == orjson.dumps(b)


def pick(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    action = dict(rng.choice(view["hand"]["legal_actions"]))
    if "min" in action:
        action["amount"] = rng.randint(action.pop("min"), action.pop("max"))
    return action


def advance(table: Table, rng: random.Random) -> None:
    """One move of the evening: the next deal, a forced play or a bot's, else a random person's choice."""
    if table.hand_over:
        table.next_hand()
    elif not table.step():
        seat = table.to_act()[0]
        table.act(seat, pick(table.view(seat), rng), seq=table.seq)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_seat_view_made_from_the_shared_view_is_the_tables_own(ruleset: str) -> None:
    players = 2 if ruleset == "gin-rummy" else 4
    # One seat is a bot (its level shows in every view), the rest people; the evening is played to its end.
    table = Table(ruleset, [Seat(f"P{i}", "random" if i == 1 else None) for i in range(players)], hands=6,
                  seed="updates")
    rng = random.Random(3)
    updates = Updates()
    checked = 0
    while not table.over and checked < 600:
        base = table.view(None)
        for seat in [*range(players), None]:
            mine = seat_view(table, base, seat)
            assert same(mine, table.view(seat))  # same keys, same order, same values
            text = json.loads(updates.text(table, seat, max(0, table.seq - 3), None, None))
            assert text["view"] == table.view(seat)
            assert text["events"] == table.events_since(max(0, table.seq - 3), seat)
        checked += 1
        advance(table, rng)
        if checked == 10:
            table.set_bot(0, "random")  # a change that moves no seq: the shared view must follow it
    assert checked > 20


def _store(path: Path, tables: int) -> Store:
    store = Store(f"sqlite:///{path / 'rummoli.sqlite3'}")
    store.migrate()
    for k in range(tables):
        store.create_table(f"t{k}", "stops", "rummoli", {}, 0, [SeatRow("A", None, None)])
        store.start_table(f"t{k}", 1, {"journal": [], "bots": [None]})
    return store


def test_many_tables_changes_in_one_transaction_each_keep_their_compare_and_set(tmp_path: Path) -> None:
    store = _store(tmp_path, 3)
    outcomes = store.append_many([
        ("t0", 1, 2, "act", 0, {"journal": [["a"]]}, None, "playing"),
        ("t1", 5, 6, "act", 0, {"journal": [["b"]]}, None, "playing"),  # stale: t1 is at seq 1
        ("t2", 1, 3, "act", 0, {"journal": [["c"]]}, None, None),
        ("t0", 2, 3, "end", None, {"journal": [["d"]]}, {"journal": [], "bots": [None]}, "over"),
    ])
    assert [type(o) for o in outcomes] == [type(None), StoreConflict, type(None), type(None)]
    assert [store.table(f"t{k}").seq for k in range(3)] == [3, 1, 3]  # type: ignore[union-attr]
    assert store.table("t0").status == "over"  # type: ignore[union-attr]
    t0 = store.recover("t0")
    assert t0 is not None and t0.snapshot_seq == 3 and t0.actions == []
    t2 = store.recover("t2")
    assert t2 is not None and [a["payload"] for a in t2.actions] == [{"journal": [["c"]]}]
    t1 = store.recover("t1")
    assert t1 is not None and t1.actions == []  # the refused change wrote nothing
    store.close()


def test_the_writer_answers_each_change_only_once_it_is_committed(tmp_path: Path) -> None:
    store = _store(tmp_path, 50)
    writer = StoreWriter(store, batch=16)

    async def play() -> list[BaseException | None]:
        async def table(k: int) -> BaseException | None:
            seq = 1
            for _ in range(10):
                await writer.append(f"t{k}", seq, seq + 1, "act", 0, {"journal": [["x", k, seq]]}, None, "playing")
                # Told only after the commit: another connection already reads it.
                row = await asyncio.to_thread(store.table, f"t{k}")
                assert row is not None and row.seq == seq + 1
                seq += 1
            try:
                await writer.append(f"t{k}", 1, 2, "act", 0, {}, None, None)  # stale
            except StoreConflict as conflict:
                return conflict
            return None

        return list(await asyncio.gather(*(table(k) for k in range(50))))

    refused = asyncio.run(play())
    writer.later(int, "not a number")  # a failing chore is only logged
    writer.later(store.prune_snapshots, "t1", 5)  # run in the writer's thread; close() waits for it
    writer.close()
    assert store.recover("t1") is None  # its only snapshot (seq 1) is gone
    assert all(isinstance(r, StoreConflict) for r in refused)
    assert writer.changes == 550 and writer.transactions < 550  # several tables per transaction
    for k in (0, 49):
        recovery = store.recover(f"t{k}")
        assert recovery is not None and [a["seq"] for a in recovery.actions] == list(range(2, 12))
    store.close()


SHARED_RULESETS = [*RULESETS, "poch", "poch-hoyle", "tripoley", "rummoli-tripoley", "knock-rummy", "boathouse-rummy",
                   "block-rummy", "rummy-aces-high"]


@pytest.mark.parametrize("ruleset", SHARED_RULESETS)
def test_a_view_made_from_what_the_seats_share_is_the_seats_own(ruleset: str) -> None:
    """``view(..., shared=True)`` (the server's updates) makes what every seat sees alike once per state: each
    seat's view is still exactly its own (same keys in the same order, same values, nobody else's cards), and
    the part they share is one object, made again when the state moves."""
    players = 2 if ruleset == "gin-rummy" else 4
    table = Table(ruleset, [Seat(f"P{i}", "random" if i == 1 else None) for i in range(players)], hands=4,
                  seed=f"shared {ruleset}")
    rng = random.Random(7)
    checked = 0
    before: Any = None
    while not table.over and checked < 200:
        for seat in [None, *range(players)]:
            assert same(table.view(seat, shared=True), table.view(seat))
            if table.hand is not None:
                hand_seat = table.hand_seats.index(seat) if seat in table.hand_seats else None
                assert same(table.hand.view(hand_seat, history=True, guide=True, shared=True),
                            table.hand.view(hand_seat, history=True, guide=True))
        if table.hand is not None:
            mine, theirs = table.hand_view(0, shared=True), table.hand_view(players - 1, shared=True)
            assert mine is not None and theirs is not None
            assert mine["hand_sizes"] is theirs["hand_sizes"]  # one object, made once for every seat
            assert mine["hand"] != theirs["hand"] or mine["hand"] == []
            if before is not None and before["seq"] != mine["seq"]:
                assert before["hand_sizes"] is not mine["hand_sizes"]  # a new state: made again
            before = mine
        checked += 1
        advance(table, rng)
    assert checked > 20


def test_a_spectators_hand_is_made_only_for_a_spectator() -> None:
    """The seats' updates share the table's view without a spectator's hand (each puts its own in): a spectator's
    hand view is made only when a spectator's update is, and then it is a spectator's own."""
    table = Table("rummoli", [Seat(f"P{i}") for i in range(4)], seed="spectator")
    asked: list[int | None] = []
    own = table.hand_view

    def hand_view(seat: int | None, shared: bool = False) -> Any:
        asked.append(seat)
        return own(seat, shared)

    table.hand_view = hand_view  # type: ignore[method-assign]
    rng = random.Random(5)
    updates = Updates()
    for _ in range(30):
        since = table.seq
        seat = table.to_act()[0]
        table.act(seat, pick(table.view(seat), rng), seq=table.seq)
        asked.clear()
        texts = [json.loads(updates.text(table, s, since, None, None)) for s in range(4)]
        assert asked == [0, 1, 2, 3]
        assert [t["view"] for t in texts] == [table.view(s) for s in range(4)]
        asked.clear()
        spectator = json.loads(updates.text(table, None, since, None, None))
        assert asked == [None] and spectator["view"] == table.view(None) and spectator["view"]["hand"]["hand"] is None
        if table.hand_over:
            table.next_hand()
