"""``rummoli rules``: a text in our own words for every built-in ruleset, naming each of its phases
and each pot of its board (issue 15)."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from typer.testing import CliRunner

from rummoli import rules_texts
from rummoli.cli import app
from rummoli.rummy import load_ruleset as load_rummy
from rummoli.stops import load_ruleset as load_stops

runner = CliRunner()
BUILT_IN = sorted(entry.name.removesuffix(".toml") for entry in (resources.files("rummoli") / "rulesets").iterdir()
                  if entry.name.endswith(".toml"))


def headings(text: str) -> str:
    return "\n".join(line.lower() for line in text.splitlines() if line.startswith("## "))


def phases(name: str) -> list[str]:
    """The decision phases a hand of ``name`` goes through, as the engines name them."""
    if name in ("rummoli", "rummoli-tripoley", "tripoley", "michigan"):
        rules = load_stops(name)
        out = ["widow", "auction"] if rules.widow == "swap_or_auction" else []
        return [*out, *(["poker"] if rules.poker == "before_play" else []), "play"]
    if name.startswith("poch"):
        return ["pools", "vying", "play", "going out"]
    load_rummy(name)
    return ["draw", "play"]


def test_every_built_in_ruleset_has_a_text_and_nothing_else_does() -> None:
    assert sorted(rules_texts.names()) == BUILT_IN


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_text_has_a_goal_a_deal_each_phase_and_an_example(name: str) -> None:
    text = rules_texts.text(name)
    heads = headings(text)
    for part in ("goal", "deal", "example", *phases(name)):
        assert part in heads, f"{name}: no section on {part!r}"
    assert rules_texts.summary(name) and len(rules_texts.summary(name)) <= 62


@pytest.mark.parametrize("name", ["rummoli", "rummoli-tripoley", "tripoley", "michigan"])
def test_a_stops_text_says_what_each_pot_of_its_board_pays(name: str) -> None:
    text = rules_texts.text(name)
    pays = text[text.index("## What each pot pays"):text.index("## A short worked example")]
    for pot in load_stops(name).board.pots:
        assert pot.name in pays, f"{name}: pot {pot.name!r} is not explained"


def test_michigan_says_it_has_no_poker_round_and_no_auction() -> None:
    heads = headings(rules_texts.text("michigan"))
    assert "poker round" not in heads and "auction" not in heads


def test_rules_with_no_name_lists_every_ruleset_on_one_line() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    for name in BUILT_IN:
        assert len([line for line in result.output.splitlines() if re.match(rf"{name}  ", line)]) == 1
    assert all(len(line) <= 80 for line in result.output.splitlines())


def test_rules_name_prints_the_text_and_an_unknown_name_lists_the_names() -> None:
    result = runner.invoke(app, ["rules", "gin-rummy"])
    assert result.exit_code == 0 and result.output == rules_texts.text("gin-rummy")
    bad = runner.invoke(app, ["rules", "ginn"])
    assert bad.exit_code == 2 and "gin-rummy" in bad.output and "Traceback" not in bad.output
