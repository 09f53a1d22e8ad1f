"""An evening record's start (R-NOTE-5): the starting chips or scores and how the first dealer was chosen, the
high-card cut's rounds as they were drawn (R-MI-1) or a plain word that there was none; `rummoli replay` checks
them against the hands and refuses an inconsistent or hostile record in one line (docs/records.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummoli.cards import Card
from rummoli.cli import app
from rummoli.errors import MalformedInput
from rummoli.games import replay
from rummoli.table import Seat, Table

runner = CliRunner()
NAMES = ["Ann", "Bob", "Cy"]


def evening(ruleset: str, *, dealer: int | None = None, chips: int | None = 40, hands: int = 2,
            players: int = 3) -> Table:
    """A seeded evening played out by random bots."""
    table = Table(ruleset, [Seat(n, bot="random") for n in NAMES[:players]], seed=f"start-{ruleset}", hands=hands,
                  chips=chips, dealer=dealer)
    while not table.over:
        if not table.step():  # every seat is a bot's: nothing to step is a hand over
            table.next_hand()
    return table


def record_of(table: Table) -> dict[str, Any]:
    return json.loads(json.dumps(table.evening_record()))  # type: ignore[no-any-return]


def refused_line(record: dict[str, Any], tmp_path: Path) -> str:
    """`rummoli replay` of ``record``: a non-zero exit and one line on stderr, never a traceback."""
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and len(result.stderr) < 400, result.stderr
    return result.stderr


def top_holder(round_: dict[str, str]) -> str:
    return max(round_, key=lambda name: Card.parse(round_[name]).rank)


def test_R_NOTE_5_a_stops_evening_record_holds_its_starting_chips_and_the_cut() -> None:
    table = evening("michigan")
    record = record_of(table)
    assert record["chips"] == [40, 40, 40] == record["hands"][0]["chips"]
    assert record["dealer_by"] == "cut"
    assert record["cut"] == table.evening.session.cut and record["cut"]  # type: ignore[attr-defined]
    assert set(record["cut"][0]) == set(NAMES)  # everyone cuts
    assert top_holder(record["cut"][-1]) == NAMES[record["dealer"]]
    first = record["hands"][0]
    assert first["players"][first["dealer"]] == NAMES[record["dealer"]]
    assert replay(record)["hands"] == 2


@pytest.mark.parametrize(("ruleset", "players", "start"), [("rummy", 3, 0), ("gin-rummy", 2, 0), ("poch", 3, 40)])
def test_R_NOTE_5_an_evening_drawn_by_lot_says_so_and_holds_what_it_starts_with(
        ruleset: str, players: int, start: int) -> None:
    record = record_of(evening(ruleset, players=players, hands=1))
    assert record["chips"] == [start] * players == record["hands"][0]["chips"]
    assert record["dealer_by"] == "lot" and record["cut"] is None
    replay(record)


@pytest.mark.parametrize("ruleset", ["rummoli", "rummy", "poch"])
def test_R_NOTE_5_a_first_dealer_given_to_the_table_is_recorded_as_given(ruleset: str) -> None:
    record = record_of(evening(ruleset, dealer=1, hands=1))
    assert (record["dealer"], record["dealer_by"], record["cut"]) == (1, "given", None)
    replay(record)


def test_R_NOTE_5_a_restored_table_keeps_the_cut_it_drew() -> None:
    """The server restores a table from its snapshot with the first dealer given: the cut goes with it."""
    table = evening("rummoli", hands=1)
    again = Table.restore(table.snapshot())
    assert record_of(again) == record_of(table) and record_of(again)["dealer_by"] == "cut"
    older = {k: v for k, v in table.snapshot().items() if k not in ("cut", "dealer_by")}
    before = record_of(Table.restore(older))  # a snapshot written before the cut was kept in it
    assert (before["dealer_by"], before["cut"]) == ("unrecorded", None)
    replay(before)
    tampered = table.snapshot()
    tampered["cut"] = [{"Ann": "2c", "Bob": "2d", "Cy": "2h"}]  # a tie: the cut is not over
    with pytest.raises(MalformedInput, match=r"snapshot does not replay: .*R-MI-1") as info:
        Table.restore(tampered)
    assert "\n" not in str(info.value)


def test_R_NOTE_5_an_older_record_without_the_start_replays_as_before() -> None:
    record = record_of(evening("michigan"))
    older = {k: v for k, v in record.items() if k not in ("chips", "dealer_by", "cut")}
    assert replay(older) == replay(record)


def test_R_MI_1_a_hand_made_cut_with_a_tie_names_the_dealer(tmp_path: Path) -> None:
    record = record_of(evening("michigan"))
    dealer = NAMES[record["dealer"]]
    other, third = (n for n in NAMES if n != dealer)
    record["cut"] = [{dealer: "Qs", other: "Qh", third: "3c"}, {other: "7d", dealer: "Jc"}]
    replay(record)
    record["cut"][1] = {other: "Ac", dealer: "Jc"}
    assert refused_line(record, tmp_path).endswith(
        f"R-MI-1: cut: {other} cut the highest card, but the record's first dealer is {dealer}\n")


def bad_records(record: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """Each way a record's start can be wrong, and the words its one line must hold."""
    dealer = NAMES[record["dealer"]]
    other, third = (n for n in NAMES if n != dealer)
    tie = {dealer: "Qs", other: "Qh", third: "3c"}
    tied = " and ".join(n for n in NAMES if n in (dealer, other))
    cases: list[tuple[str, Any, str]] = [
        ("cut", "Qs", '"cut" is a list of rounds'),
        ("cut", [], '"cut" holds 0 rounds (1 to 16 are read)'),
        ("cut", [tie] * 5000, '"cut" holds 5000 rounds (1 to 16 are read)'),
        ("cut", [["Ann", "Qs"]], "cut: round 1 is an object of player names and the cards they cut"),
        ("cut", [{dealer: 7}], "cut: round 1 is an object of player names and the cards they cut"),
        ("cut", [{**tie, "Zed": "2d"}], 'cut: round 1 names "Zed", who is not among the players'),
        ("cut", [{**tie, third: "Zz"}], 'R-NOTE-1: cut: round 1: not a card: "Zz"'),
        ("cut", [{**tie, third: "x" * 100_000}], "R-NOTE-1: cut: round 1: not a card"),
        ("cut", [{dealer: "Ks", other: "Ks", third: "2c"}], "R-MI-1: cut: round 1 draws Ks twice"),
        ("cut", [{dealer: "Ks", other: "2c"}], f"R-MI-1: cut: round 1 leaves out {third} (every player cuts)"),
        ("cut", [tie, {dealer: "Ks", third: "2c"}],
         f"R-MI-1: cut: round 2 is for {tied}, who tied for the highest card in round 1"),
        ("cut", [tie], "R-MI-1: cut: the last round ends in a tie for the highest card (ties cut again)"),
        ("cut", [{dealer: "2s", other: "Ah", third: "3c"}],
         f"R-MI-1: cut: {other} cut the highest card, but the record's first dealer is {dealer}"),
        ("dealer_by", "dice", '"dealer_by" is "cut", "lot", "given" or "unrecorded", not "dice"'),
        ("dealer_by", "lot", 'a cut is recorded, but "dealer_by" is "lot"'),
        ("dealer", 7, '"dealer" is the first dealer\'s seat, from 0 to 2, not 7'),
        ("dealer", True, '"dealer" is the first dealer\'s seat, from 0 to 2, not true'),
        ("chips", "40", '"chips" is one whole number per player'),
        ("chips", [40] * 100_000, '"chips" is one whole number per player'),
        ("chips", [40, 40, True], '"chips" is one whole number per player'),
        ("chips", [40, 40, 4.5], '"chips" is one whole number per player'),
        ("chips", [40, 40, 10**12], '"chips" is one whole number per player'),
        ("chips", [40, 40, 41], "hand 1: R-NOTE-5: its players' chips are not the evening's starting chips"),
        ("players", "Ann", '"players" is a list of names'),
        ("players", ["Ann", "Ann", "Cy"], 'R-NOTE-6: players: seats 0 and 1 are both called "Ann"'),
        ("players", ["Ann", " ANN", "Cy"], 'R-NOTE-6: players: seats 0 and 1 are both called "Ann"'),
    ]
    out = []
    for key, value, words in cases:
        bad = copy.deepcopy(record)
        bad[key] = value
        out.append((f"{key}={json.dumps(value)[:30]}", bad, words))
    no_cut = copy.deepcopy(record)
    no_cut["cut"] = None
    out.append(("cut=null with dealer_by=cut", no_cut, '"dealer_by" is "cut" but no cut is recorded'))
    moved = copy.deepcopy(record)  # another first dealer, and a cut that names them: hand 1 still says otherwise
    moved["dealer"] = (record["dealer"] + 1) % 3
    new = NAMES[moved["dealer"]]
    rest = next(n for n in NAMES if n not in (new, dealer))
    moved["cut"] = [{new: "As", dealer: "2s", rest: "3s"}]
    out.append(("dealer moved with its cut", moved,
                f"hand 1: R-NOTE-5: it is dealt by {dealer}, but the record's first dealer is {new}"))
    return out


def test_R_NOTE_5_replay_refuses_an_inconsistent_or_hostile_start_in_one_line(tmp_path: Path) -> None:
    record = record_of(evening("michigan"))
    dealer = NAMES[record["dealer"]]
    others = [n for n in NAMES if n != dealer]
    record["cut"] = [{dealer: "Ks", others[0]: "9h", others[1]: "2c"}]  # a cut of one round, for the cases
    replay(record)
    for name, bad, words in bad_records(record):
        line = refused_line(bad, tmp_path)
        assert words in line, (name, line)
        assert len(line) < 300, (name, line)
    assert replay(record)  # nothing was changed by the refusals


def test_R_NOTE_5_the_start_holds_no_card_but_the_cuts() -> None:
    """What the record gained beside its hands: the starting chips (the ruleset's, 100, when the table names none),
    the first dealer, a word, and the cut's cards, which are cut face up in front of everyone (R-VIEW-1); the hands
    and the settlement were in the record already, and it is sent to the table's players once the evening is over."""
    record = record_of(evening("rummoli", chips=None))
    before = {"format", "ruleset", "players", "dealer", "hands", "ledger", "settlement", "standings", "over"}
    assert set(record) - before == {"chips", "dealer_by", "cut"}
    assert record["chips"] == [100, 100, 100] and record["dealer_by"] == "cut"
    shown = [Card.parse(c) for round_ in record["cut"] for c in round_.values()]
    assert len(shown) == sum(len(round_) for round_ in record["cut"]) >= 3


def test_R_MI_1_the_first_hand_opens_with_the_cut_for_the_deal_told_to_every_seat() -> None:
    """The cut is made face up, so the first hand's opening line tells every card of it, to each seat and to a
    spectator alike; a Rummy game's first dealer is drawn by lot, and a table given its dealer says so. Later hands
    open as they did."""
    from rummoli.wording import card_word

    table = Table("rummoli", [Seat(n, bot="random") for n in ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]],
                  seed="x1", hands=2)
    assert table.dealer_by == "cut" and len(table.cut) == 2, "choose a seed whose cut is tied in its first round"
    openings = {seat: [e["text"] for e in table.events_since(0, seat) if e["type"] == "hand_start"]
                for seat in (None, 0, 5)}
    assert len({tuple(texts) for texts in openings.values()}) == 1  # the same words for everyone
    first = openings[None][0]
    dealer = table.names[table.first_dealer]
    assert first.startswith(f"Hand 1: {dealer} deals. The cut for the first deal: ")
    told = first.split("The cut for the first deal: ", 1)[1]
    for number, held in enumerate(table.cut):
        if number:
            assert f"{' and '.join(held)} cut again: " in told
        assert ", ".join(f"{name} {card_word(card)}" for name, card in held.items()) in told
    assert told.endswith(f"{dealer}'s {card_word(table.cut[-1][dealer])} was the highest.")
    while not table.hand_over:
        table.play_bot()
    table.next_hand()
    second = [e["text"] for e in table.events_since(0, None) if e["type"] == "hand_start"][1]
    assert second.startswith("Hand 2: ") and "cut" not in second and "first dealer" not in second, second
    by_lot = Table("rummy", [Seat("Ann", bot="random"), Seat("Bob", bot="random")], seed="lot")
    assert by_lot.events_since(0, 0)[0]["text"].endswith("deals. The first dealer was chosen by lot.")
    given = Table("rummy", [Seat("Ann", bot="random"), Seat("Bob", bot="random")], seed="lot", dealer=1)
    assert given.events_since(0, 0)[0]["text"] == (
        "Hand 1: Bob deals. The first dealer was set when the table was made.")


def test_R_MI_1_replay_summary_opens_with_the_cut_for_the_deal(tmp_path: Path) -> None:
    table = evening("michigan")
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(record_of(table)), encoding="utf-8")
    told = runner.invoke(app, ["replay", "--summary", str(path)])
    assert told.exit_code == 0, told.output
    first, rest = told.stdout.split("\n\n", 1)
    opening = next(e["text"] for e in table.events_since(0, None) if e["type"] == "hand_start")
    assert first.startswith("The cut for the first deal: ") and opening.endswith(first), (first, opening)
    assert rest.startswith("Hand 1. ")
    unrecorded = record_of(table)
    for key in ("dealer_by", "cut", "chips"):  # a record written before the start was kept: told as before
        del unrecorded[key]
    path.write_text(json.dumps(unrecorded), encoding="utf-8")
    assert runner.invoke(app, ["replay", "--summary", str(path)]).stdout.startswith("Hand 1. ")
