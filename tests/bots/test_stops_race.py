"""The hard stops bot's search races its candidates: one clearly behind stops being rolled out, so more
worlds fit a decision's budget; the fallback always runs, and a dropped candidate is never chosen."""

from __future__ import annotations

import random

from test_stops_bots import at_the_poker_round

from rummoli.bots.driver import view_for
from rummoli.bots.stops_bots import HardStopsBot, Options, candidates
from rummoli.bots.stops_search import RACE_FROM, _race, choose_best, evaluate


def test_a_candidate_clearly_behind_drops_out_and_the_fallback_stays() -> None:
    rng = random.Random(1)
    worlds = 40
    results = [[10 + rng.gauss(0, 1) for _ in range(worlds)],  # the leader
               [rng.gauss(0, 1) for _ in range(worlds)],  # ten chips behind: out
               [9.8 + rng.gauss(0, 1) for _ in range(worlds)],  # within the noise: stays
               [-5 + rng.gauss(0, 1) for _ in range(worlds)]]  # far behind, but the fallback: stays
    assert _race(results, [1.0] * worlds, [0, 1, 2, 3], keep=3) == [0, 2, 3]


def test_choose_best_never_picks_a_candidate_the_race_dropped() -> None:
    weights = [1.0] * 20
    results = [[1.0] * 20, [50.0] * 10, [0.0] * 20]  # candidate 1 stopped short at 10 worlds
    assert choose_best(results, weights, default=2) == 0


def test_a_search_with_a_clear_loser_rolls_it_out_less_and_chooses_as_before() -> None:
    hand = at_the_poker_round("As Ah Ad Ac Ks Kh 2d 3c 9s 4h")  # four aces: betting the most is clear
    view = view_for(hand, 1)
    bot = HardStopsBot(5, samples=64)
    k = bot.known(view)
    cands = candidates(Options(view["legal_actions"]))
    results, weights = evaluate(k, view, cands, random.Random(2), 1.0, 64, keep=0)
    assert len(weights) > RACE_FROM
    assert len(results[0]) == len(weights)  # the fallback ran in every world
    assert any(len(r) < len(weights) for r in results)  # some candidate dropped out
    assert bot.choose(view)["action"] == "bet"
