"""`rummoli play --ruleset poch`: a whole hand at the terminal table, at 80x24, with no card shown that the
player may not see."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

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


def random_move(hand: Any, rng: random.Random) -> None:
    """One legal move of the seat to act, at random (an amount at its least)."""
    from rummoli.poch import Action

    seat = hand.to_act()[0]
    choice = dict(rng.choice(hand.view(seat)["legal_actions"]))
    if "min" in choice:
        choice["amount"] = choice.pop("min")
        choice.pop("max")
    hand.apply(Action.from_json(choice))


@pytest.mark.parametrize("ruleset", ["poch", "poch-hoyle"])
def test_the_table_lines_fit_the_terminals_column_at_every_step(ruleset: str) -> None:
    """The table's two lines (trumps and pools, then the run) fit the 53 cells beside the side panel at 80x24: a
    long run lost its last cards past the edge, what the player plays on."""
    from rummoli.poch import load_ruleset
    from rummoli.table import Seat, Table
    from rummoli.tui.poch_screen import PochScreen

    rng = random.Random(5)
    for deal in range(6):
        table = Table(ruleset, [Seat(name) for name in ("You", "Bob", "Cy", "Dee")], seed=f"lines-{deal}", hands=1)
        hand = table.hand
        screen = PochScreen(False, load_ruleset(ruleset))
        longest = 0
        while not hand.over:
            view = dict(hand.view(0, history=True))
            for line in screen.table_text(view).split("\n"):
                assert line.cell_len <= 53, (line.plain, line.cell_len)
                if line.plain.startswith("Run:"):
                    longest = max(longest, line.plain.count(" · ") + 1)
                    assert line.plain.rstrip().split(" ")[-1] in ("You", "Bob", "Cy", "Dee"), line.plain
            random_move(hand, rng)
        assert longest >= 2


def test_the_trump_line_says_when_its_holder_has_laid_it() -> None:
    """A QA pass read "Trumps: 8♠ (Bob)" as Bob still holding the 8♠ long after he had laid it."""
    from rummoli.poch import load_ruleset
    from rummoli.table import Seat, Table
    from rummoli.tui.poch_screen import PochScreen

    rng = random.Random(2)
    seen = set()
    for deal in range(12):
        table = Table("poch", [Seat(name) for name in ("You", "Bob", "Cy", "Dee")], seed=f"trump-{deal}", hands=1)
        hand = table.hand
        screen = PochScreen(False, load_ruleset("poch"))
        while not hand.over:
            view = dict(hand.view(0, history=True))
            trump = view["trump"]
            if trump["holder"] is not None:
                first = screen.table_text(view).plain.split("\n")[0]
                laid = any(p["card"] == trump["card"] for p in view["played"])
                assert trump["laid"] == laid  # the view's own word, which the line reads
                assert (f"(laid by {view['players'][trump['holder']]})" in first) == laid, first
                seen.add(laid)
            random_move(hand, rng)
    assert seen == {False, True}  # both cases were met


def test_the_players_panel_names_its_column_of_chips_put_in_during_the_vying() -> None:
    """A QA pass read the vying's "+0 +6 +16", under no heading, as gains: the column is headed "in"."""
    from rummoli.poch import load_ruleset
    from rummoli.table import Seat, Table
    from rummoli.tui.poch_screen import PochScreen

    table = Table("poch", [Seat(name) for name in ("You", "Bob", "Cy", "Dee")], seed="panel-1", hands=1)
    hand, screen, rng = table.hand, PochScreen(False, load_ruleset("poch")), random.Random(4)
    checked = 0
    while not hand.over:
        view = dict(hand.view(0, history=True))
        lines = screen.side_text(view).plain.split("\n")
        header = next(line for line in lines if line.startswith("Players"))
        assert header.endswith("  in") == bool(view.get("vie")), header
        assert len(header) <= 25  # the side panel's width
        if view.get("vie"):
            rows = lines[lines.index(header) + 1:lines.index(header) + 5]
            for s, row in enumerate(rows):
                put = view["vie"]["put"][s]
                assert "+" not in row and (row.endswith("fold") or row.endswith(f" {put}")), row
            checked += 1
        random_move(hand, rng)
    assert checked
