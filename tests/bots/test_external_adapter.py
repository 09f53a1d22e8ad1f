"""The adapter of ``bench/bots_external.py`` that lets our Gin bots play on OpenSpiel's and RLCard's
engines, on a few short seeded games per engine.

OpenSpiel and RLCard are the ``bench`` extra of pyproject, which the README's test command installs with the
test one: these tests fail (never skip) if either is missing.  Every action
the adapter sends is checked against that engine's legal list before it is applied (the games raise
otherwise), and the referee counts every card a view named that the engine hides from our seat.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for ``bench``

from bench import bots_external as ext

from rummoli.bots import rummy_bots, rummy_search, rummy_view

_missing = [name for name in ("pyspiel", "rlcard") if importlib.util.find_spec(name) is None]
if _missing:
    _why = f"{' and '.join(_missing)} not installed: pip install -e '.[test,bench]' (the README's test command does)"
    # A collection error: the run fails, as with a missing browser or service (never a skip: a skipped
    # comparison reads as a passed one).
    pytest.fail(_why, pytrace=False)


@pytest.fixture
def strict_worlds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every world the hard bot samples from an adapter's view must replay in our engine."""
    monkeypatch.setattr(rummy_view, "STRICT", True)
    sampled = [0]
    real = rummy_search.sample_world

    def checked(k: Any, rng: Any, reader: Any = None) -> Any:
        world = real(k, rng, reader)
        assert world is not None, "a view the search cannot rebuild a world from"
        sampled[0] += 1
        return world

    monkeypatch.setattr(rummy_search, "sample_world", checked)
    return sampled


def run(engine: str, level: str, seed: int, samples: int | None) -> dict[str, Any]:
    """Both games of one deal, every view checked for our seat's own hand and actions."""
    deal = ext.openspiel_deal if engine == "openspiel" else ext.rlcard_deal
    original = ext.Seat.ask

    def ask(seat: ext.Seat, phase: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        choice = original(seat, phase, legal)
        assert all(a["seat"] == seat.me for a in legal)
        assert "hand" in seat.view(phase, legal) and len(seat.hand) in (10, 11)
        return choice

    ext.Seat.ask = ask  # type: ignore[method-assign]
    try:
        result = deal((level, seed, samples))
    finally:
        ext.Seat.ask = original  # type: ignore[method-assign]
    return result


@pytest.mark.parametrize("engine", ["openspiel", "rlcard"])
@pytest.mark.parametrize("seed", [1, 2])
def test_normal_plays_legal_games_on_their_engine_without_reading_a_hidden_card(engine: str, seed: int) -> None:
    result = run(engine, "normal", seed, None)
    assert len(result["points"]) == 2  # the deal twice, seats swapped, each scored by their code
    assert result["decisions"] > 4
    assert result["leaks"] == 0


@pytest.mark.parametrize("engine", ["openspiel", "rlcard"])
def test_hard_rebuilds_every_world_from_the_adapters_view(engine: str, strict_worlds: list[int]) -> None:
    result = run(engine, "hard", 3, 2)
    assert result["leaks"] == 0
    assert strict_worlds[0] > 0


def test_the_hidden_card_check_sees_a_hidden_card() -> None:
    """The referee's check is not empty-handed: a view that names the opponent's unseen card is caught."""
    engine = ext._engine("openspiel")
    assert isinstance(engine, ext.OpenSpielGin)
    caught: list[int] = []

    def check(seat: ext.Seat, state: Any) -> int:
        hidden = engine.hidden(state, seat.me)
        seat.named.add(sorted(hidden)[0])  # as if the view had named it
        caught.append(len(seat.named & hidden))
        return caught[-1]

    engine.play(list(range(52)), ext.our_bot("easy", 1, None), 0, check)
    assert caught and all(n >= 1 for n in caught)


def test_after_openspiels_knock_the_lay_offs_are_our_bots_and_are_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """In one of seed 13's two games OpenSpiel's bot knocks and our seat can lay 3d off on its 4d-5d-6d: the adapter
    asks our bot (it has no reckoning of its own), and the bot's answer is what OpenSpiel scores: a bot
    that keeps the three loses 3 points more."""
    asked: list[tuple[list[list[str]], set[str]]] = []
    real = ext.Seat.lay_off

    def spy(seat: ext.Seat, knocker: list[list[str]]) -> set[str]:
        chosen = real(seat, knocker)
        asked.append((knocker, chosen))
        return chosen

    monkeypatch.setattr(ext.Seat, "lay_off", spy)
    laid = ext.openspiel_deal(("normal", 13, None))
    assert laid["leaks"] == 0
    assert len(asked) == 1 and asked[0][1] == {"3d"} and ["4d", "5d", "6d"] in asked[0][0]
    monkeypatch.setattr(rummy_bots.NormalRummyBot, "lay_off", lambda self, view, knocker: [])
    kept = ext.openspiel_deal(("normal", 13, None))
    assert len(asked) == 2 and asked[1][1] == set()
    # the game with the lay-off scores 3 points less for our seat without it, the other game the same
    assert sorted(k - w for k, w in zip(kept["points"], laid["points"], strict=True)) == [-3, 0]
