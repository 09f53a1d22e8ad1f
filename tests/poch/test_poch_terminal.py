"""`rummoli play --ruleset poch`: a whole hand at the terminal table, at 80x24, with no card shown that the
player may not see."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.tui.test_play import first_of, options, play_hand

from rummoli.games import replay
from rummoli.records import read_record
from rummoli.tui.app import PlayApp
from rummoli.tui.tables import open_table


@pytest.mark.parametrize("ruleset", ["poch", "poch-hoyle"])
def test_a_hand_of_poch_at_the_terminal(tmp_path: Path, ruleset: str) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset=ruleset, seed="36")), pace=0)
    screens: list[str] = []
    joined = asyncio.run(play_hand(app, first_of("Knock", "Hold", "Lead"), screens)) + "\n".join(screens)
    assert "Trumps:" in screens[0] and "Board" in screens[0] and "Your hand (" in screens[0]
    assert "Sequence" in screens[0] and "Marriage" in screens[0]
    assert " leads " in joined or "You lead" in joined
    assert "End of hand 1" in screens[-1] or "The evening is over" in screens[-1]
    result = replay(read_record(app.table.saved[0]))
    assert sum(result["chips"]) + sum(result["pots"].values()) == 400
