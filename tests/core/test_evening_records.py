"""An evening record's start (R-NOTE-5): the starting chips or scores and how the first dealer was chosen, the
high-card cut's rounds as they were drawn (R-MI-1) or a plain word that there was none; `rummoli replay` checks
them against the hands and refuses an inconsistent or hostile record in one line (docs/records.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummoli.cards import Card
from rummoli.errors import MalformedInput
from rummoli.games import replay
from rummoli.table import Seat, Table

NAMES = ["Ann", "Bob", "Cy"]


def evening(ruleset: str, *, dealer: int | None = None, chips: int | None = 40, hands: int = 2,
            players: int = 3) -> Table:
    """A seeded evening played out by random bots."""
    table = Table(ruleset, [Seat(n, bot="random") for n in NAMES[:players]], seed=f"start-{ruleset}", hands=hands,
                  chips=chips, dealer=dealer)
    while not table.over:
        if table.hand_over:
            table.next_hand()
        else:
            table.step()
    return table


def record_of(table: Table) -> dict[str, Any]:
    return json.loads(json.dumps(table.evening_record()))  # type: ignore[no-any-return]


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
