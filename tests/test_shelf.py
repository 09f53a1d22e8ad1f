"""A long evening stays small (issue 34's soak): each finished hand, with its record, result, events and
commands, is packed onto the shelf's file once the next is dealt (rummoli.shelf), and read back exactly as it
was."""

from __future__ import annotations

import errno
import gc
import os
import tempfile
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummoli.shelf import Blocks, HandShelf, Journal
from rummoli.table import Seat, Table


def play_hands(table: Table, hands: int) -> None:
    for _ in range(hands):
        while not table.hand_over:
            assert table.step()
        table.next_hand()


def ours(snapshot: tracemalloc.Snapshot) -> int:
    """The bytes held by blocks allocated with the table's code on the stack (the engines, the table, its shelf,
    and what they call), not what another thread of the worker allocates meanwhile: a full run once read 7.4 kB
    a hand against the 0.5 this test reads alone, most likely another test's thread (not reproduced)."""
    own = snapshot.filter_traces([tracemalloc.Filter(True, "*/rummoli/*", all_frames=True),
                                  tracemalloc.Filter(False, "*/rummoli/server/*", all_frames=True)])
    return sum(stat.size for stat in own.statistics("filename"))


def test_a_long_evening_keeps_each_finished_hand_small() -> None:
    table = Table("rummoli", [Seat(f"P{i}", "random") for i in range(4)], seed="shelf", chips=10**6)
    play_hands(table, 5)  # the caches that fill once (the evaluator's tables, imports) are full
    gc.collect()
    tracemalloc.start(4)  # what the table calls (the standard library, the compiled core) lies within 4 frames
    try:
        play_hands(table, 20)  # what a shelf makes once (its file's arrays, the hands it holds live)
        gc.collect()
        start = ours(tracemalloc.take_snapshot())
        play_hands(table, 40)
        gc.collect()
        grown = (ours(tracemalloc.take_snapshot()) - start) / 40 / 1024
    finally:
        tracemalloc.stop()
    print(f"{grown:.1f} kB a finished hand")
    # Each hand kept live took 58 kB a hand on this measure; packed in memory, 20.3 kB with its result, record,
    # events and commands beside it; on the shelf's file, 0.5 kB (the blocks that number its events, its number
    # in the ledger, where it is on file).
    assert grown < 4, f"{grown:.1f} kB a finished hand"
    assert table.finished_count() == 65 and all(table._hands.on_file(k) for k in range(64))
    assert not table._hands.on_file(64)  # the hand just over stays live until the next deal


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


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_finished_hands_and_their_commands_live_on_the_shelfs_file_and_leave_with_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The shelf makes its file in the temporary folder: a folder of this test's own, which the tests running beside
    # it in other workers do not write to (in the machine's /tmp they did, and this test saw their files appear).
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = set(os.listdir(tempfile.gettempdir()))
    files = open_files()
    table = Table("gin-rummy", [Seat("A", "random"), Seat("B", "random")], seed="shelf-file", hands=30)
    play_hands(table, 6)
    kept = table._hands
    assert all(kept.on_file(k) for k in range(5)) and not kept.on_file(5)
    assert 0 < table.journal._sealed == len(table.journal) - len(table.journal._tail)  # only the hand in play's
    assert open_files() == files + 1  # one file for the evening, not one a hand
    assert set(os.listdir(tempfile.gettempdir())) <= before  # unlinked as it was made: nothing to clean up
    again = Table.restore(table.snapshot())  # the whole journal read back from the file
    assert list(again.journal) == list(table.journal) and again.view(0) == table.view(0)
    assert [r["deal"] for r in again.records] == [r["deal"] for r in table.records]
    assert table.results[-6:] == [table.results[k] for k in range(6)] == again.results[:6]
    del table, kept, again
    gc.collect()
    assert open_files() == files


def test_a_full_disk_keeps_finished_hands_in_memory_and_play_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    table = Table("rummoli", [Seat(f"P{i}", "random") for i in range(4)], seed="shelf-full", chips=10**6)
    play_hands(table, 2)
    monkeypatch.setattr(os, "pwrite", full)
    play_hands(table, 3)
    monkeypatch.undo()
    assert [table._hands.on_file(k) for k in range(5)] == [True, False, False, False, False]
    assert all(table._hands.packed(k) for k in range(4)) and not table._hands.packed(4)
    assert Table.restore(table.snapshot()).view(None) == table.view(None)
    assert [n for n, _, _ in table.finished_hands()] == [1, 2, 3, 4, 5]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 9), st.just("seal")), max_size=40), st.integers(-12, 45),
       st.integers(-12, 45), st.sampled_from([1, 2, -1]))
def test_the_journal_reads_as_the_list_of_its_commands(steps: list[object], start: int, stop: int, step: int) -> None:
    journal, plain = Journal(HandShelf()), []
    for k, what in enumerate(steps):
        if what == "seal":
            journal.seal()
        else:
            journal.append(["act", k, what])
            plain.append(["act", k, what])
    assert len(journal) == len(plain) and list(journal) == plain
    assert journal[start:stop:step] == plain[start:stop:step]
    for index in (start, stop, -1, 0):
        if -len(plain) <= index < len(plain):
            assert journal[index] == plain[index]
        else:
            with pytest.raises(IndexError):
                journal[index]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["event", "start", "end", "hand"]), max_size=30), st.integers(-35, 35))
def test_the_blocks_read_as_the_list_of_their_tuples(kinds: list[str], index: int) -> None:
    blocks, plain = Blocks(), []
    for k, kind in enumerate(kinds):
        payload = {"type": "seat", "seat": k} if kind == "event" else (k, 2 * k) if kind == "hand" else k
        blocks.append((3 * k, kind, payload))
        plain.append((3 * k, kind, payload))
    assert len(blocks) == len(plain) and list(blocks) == plain and blocks[index:] == plain[index:]
    assert list(blocks.bases) == [base for base, _, _ in plain]
    if -len(plain) <= index < len(plain):
        assert blocks[index] == plain[index]
