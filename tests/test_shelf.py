"""A long evening stays small (issue 34's soak): each finished hand is packed away once the next is dealt
(rummoli.shelf), and read back exactly as it was."""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from rummoli.table import Seat, Table


def play_hands(table: Table, hands: int) -> None:
    for _ in range(hands):
        while not table.hand_over:
            assert table.step()
        table.next_hand()


def test_a_long_evening_keeps_each_finished_hand_small() -> None:
    table = Table("rummoli", [Seat(f"P{i}", "random") for i in range(4)], seed="shelf", chips=10**6)
    play_hands(table, 5)  # the caches that fill once (the evaluator's tables, imports) are full
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        play_hands(table, 40)
        gc.collect()
        grown = (tracemalloc.get_traced_memory()[0] - start) / 40 / 1024
    finally:
        tracemalloc.stop()
    print(f"{grown:.1f} kB a finished hand")
    # Each hand kept live, and every card named anew in its records, took 58 kB a hand on this measure; packed,
    # the hand is under 1 kB, and its result, record and journal are the rest.
    assert grown < 30, f"{grown:.1f} kB a finished hand"
    assert table.finished_count() == 45 and all(table._hands.packed(k) for k in range(45))


@pytest.mark.parametrize(("ruleset", "players"), [("rummoli", 4), ("rummy-aces-high", 4), ("michigan", 5)])
def test_packed_hands_read_back_as_they_were_live(ruleset: str, players: int) -> None:
    table = Table(ruleset, [Seat(f"P{i}", "random") for i in range(players)], seed="shelf-back", chips=10**6)
    play_hands(table, 1)
    views, events = [], {}
    for _ in range(7):  # each hand's final views and every seat's events, read while the hand is still live
        while not table.hand_over:
            assert table.step()
        views.append([table.hand.view(s) for s in (None, *range(players))])
        events = {seat: table.events_since(0, seat) for seat in (None, *range(players))}
        table.next_hand()
    assert table._hands.packed(6) and not table._hands.packed(8)
    assert [[hand.view(s) for s in (None, *range(players))] for _, hand, _ in table.finished_hands(2, 8)] == views
    assert {seat: table.events_since(0, seat)[:len(events[seat])] for seat in events} == events
    assert table.finished_count() == 8 and [n for n, _, _ in table.finished_hands(7)] == [7, 8]
