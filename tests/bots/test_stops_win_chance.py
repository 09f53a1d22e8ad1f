"""Normal's win chance, made faster (only the hands that count are dealt, and it stops once the decision
is clear), still estimates what the old one did: the old estimator is kept here as the reference."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from test_stops_bots import at_the_poker_round, made_hand

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for ``bench``
from bench.bots_stops import OldNormalStopsBot

from rummoli.bots.driver import view_for
from rummoli.bots.stops_bots import NormalStopsBot
from rummoli.stops import Action


def old_win_chance(view: dict, samples: int, seed: int) -> float:
    """The estimator as it was before (the bench keeps it as its baseline): a whole shuffle of the
    unseen cards per sample, every other hand dealt."""
    old = OldNormalStopsBot(seed)
    old.poker_samples = samples
    return old.win_chance(view)


def facing_a_bet(cards: str) -> dict:
    """Seat 2 holds ``cards`` and faces seat 1's bet (so the bettor's hands are weighted)."""
    hand = made_hand("rummoli", 4, 0, {2: cards})
    hand.apply(Action(0, "keep"))
    while hand.phase == "auction":
        hand.apply(Action(hand.to_act()[0], "pass"))
    hand.apply(Action(1, "bet", amount=5))
    return view_for(hand, 2)


POSITIONS = [
    ("first to act, a pair", lambda: view_for(at_the_poker_round("9d 9h 4s 6h Kd Qs 7d 3c 2d 8s"), 1)),
    ("first to act, trips", lambda: view_for(at_the_poker_round("Qd Qh Qs 6h Kd 5s 7d 3c 2d 8s"), 1)),
    ("facing a bet, two pairs", lambda: facing_a_bet("9d 9h 4s 4h Kd Qs 7d 3c 2d 8s")),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "position"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_the_faster_win_chance_agrees_with_the_old_within_sampling_error(name: str, position) -> None:
    view = position()
    samples = 1500
    bot = NormalStopsBot(11)
    bot.poker_samples = samples
    new = bot.win_chance(dict(view))  # no thresholds: every sample is drawn
    assert bot.last_poker_samples == samples
    old = old_win_chance(dict(view), samples, 5)
    p = (new + old) / 2
    # two independent estimates (weighted ones vary a little more than plain proportions)
    error = math.sqrt(2 * max(p * (1 - p), 0.01) / samples)
    assert abs(new - old) < 4 * error, (name, new, old)


@pytest.mark.parametrize(("name", "position"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_it_stops_early_only_when_the_decision_is_clear(name: str, position) -> None:
    view = position()
    full = NormalStopsBot(3)
    full.poker_samples = 2000
    p = full.win_chance(dict(view))
    for threshold in (0.05, 0.45, 0.95):
        bot = NormalStopsBot(4)
        quick = bot.win_chance(dict(view), (threshold,))
        if abs(p - threshold) > 0.2:  # far off: the same side of it, and fewer samples than the most
            assert (quick > threshold) == (p > threshold)
            assert bot.last_poker_samples < bot.poker_samples
    bot = NormalStopsBot(4)
    bot.win_chance(dict(view), (p,))  # right on the threshold: it never thinks it clear
    assert bot.last_poker_samples == bot.poker_samples
