"""No two seats of one table have names that read alike (rummoli.seating): the table refuses them, a record holding
them is refused by every command that reads it, and the names the terminal gives its players are all different."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.errors import MalformedInput
from rummoli.seating import alike, name_key
from rummoli.table import Seat, Table
from rummoli.tui.tables import NAMES, PlayOptions, open_table

runner = CliRunner()


@pytest.mark.parametrize("second", ["Ann", "ann", "  ANN ", "\uff21nn", "An\u200dn"])
def test_a_table_refuses_two_seats_whose_names_read_alike(second: str) -> None:
    with pytest.raises(MalformedInput) as refused:
        Table("rummy", [Seat("Ann"), Seat("Bob", bot="random"), Seat(second, bot="random")])
    assert str(refused.value) == ('seats 0 and 2 are both called "Ann": each player needs a name of their own '
                                  "(case and spaces aside)")


def test_a_bot_may_not_share_a_persons_name_and_different_names_are_kept() -> None:
    with pytest.raises(MalformedInput, match="seats 0 and 1 are both called"):
        Table("michigan", [Seat("Bot 2 (easy)"), Seat("bot 2 (EASY)", bot="easy"), Seat("Cy", bot="easy")])
    table = Table("michigan", [Seat("Ann"), Seat("Anne", bot="easy"), Seat("Ann Lee", bot="easy")])
    assert table.names == ["Ann", "Anne", "Ann Lee"]


def test_the_terminals_players_have_names_of_their_own_at_every_size(tmp_path: Path) -> None:
    assert alike(list(NAMES)) is None and len({name_key(n) for n in NAMES}) == len(NAMES) == 8
    for players in (2, 8):
        table = open_table(PlayOptions(players=players, bots=["random"], hands=1, pace=0.0, save=tmp_path,
                                       ruleset="rummy" if players == 2 else "rummoli"))
        assert alike(table.table.names) is None


def hand_record(tmp_path: Path, players: list[str]) -> Path:
    table = Table("rummy", [Seat(n, bot="random") for n in ("Ann", "Bob", "Cy")], seed="names", hands=1)
    while not table.hand_over:
        table.play_bot()
    record = {**table.records[0], "players": players}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["replay"], ["replay", "--summary"], ["review"]])
def test_R_NOTE_6_a_record_whose_players_read_alike_is_refused_in_one_line(tmp_path: Path, command: list[str]) -> None:
    path = hand_record(tmp_path, ["Ann", "Bob", "ann "])
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.rstrip().endswith('R-NOTE-6: players: seats 0 and 2 are both called "Ann"'), result.stderr
    ok = runner.invoke(app, ["replay", str(hand_record(tmp_path, ["Ann", "Bob", "Cy"]))])
    assert ok.exit_code == 0, ok.output
