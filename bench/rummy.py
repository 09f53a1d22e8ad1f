"""Rummy play-out speed: random-decision two-player games, ours beside OpenSpiel and RLCard, same run.

    python -m bench.rummy [--seconds S]

Every decision is drawn uniformly from the legal actions (seeded).  Figures, each on one core:

* ``rummoli hands``       -- straight Rummy deals played to their end (out or blocked), with the
  engine's fast path (``RummyHand.random_playout``: raw moves, no state marks, as search bots play too);
* ``rummoli games``       -- straight Rummy games to 100 points, deal rotating (many hands each: with
  random play most hands block and score nothing);
* ``rummoli public API``  -- hands through ``legal_actions()`` / ``apply()`` (Action objects, checks, events);
* ``rummoli gin hands``   -- our Gin Rummy deals (knock legality needs the least deadwood on every turn):
  the like-for-like game beside OpenSpiel's and RLCard's;
* ``openspiel gin_rummy`` -- OpenSpiel's C++ game driven from Python; one game is one deal;
* ``rlcard gin-rummy``    -- RLCard's game with its random agents; one game is one deal.

Actions count every applied step (OpenSpiel's chance steps, the deal, included).  A deal of ours is the
unit that matches one OpenSpiel or RLCard game; the ratios are printed for both hands and games.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rummoli.cards import CARDS
from rummoli.rummy import Ruleset, RummyHand, deal_cards, load_ruleset, random_hand
from rummoli.rummy.replay import NAMES

RULES = load_ruleset("rummy")
GIN = load_ruleset("gin-rummy")


def measure(run_one: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(runs per second, actions per second) repeating ``run_one`` (returns its actions) for ``seconds``."""
    runs = actions = 0
    start = time.perf_counter()
    while True:
        actions += run_one()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return runs / elapsed, actions / elapsed


def ours_hand(rng: random.Random, rules: Ruleset = RULES) -> Callable[[], int]:
    def run() -> int:
        return len(random_hand(rules, 2, rng).log)

    return run


def ours_game(rng: random.Random) -> Callable[[], int]:
    def run() -> int:
        scores, dealer, actions = [0, 0], 0, 0
        while max(scores) < RULES.target:
            hand = random_hand(RULES, 2, rng, scores, dealer)
            actions += len(hand.log)
            scores = [s + d for s, d in zip(scores, hand.deltas, strict=True)]
            dealer ^= 1
        return actions

    return run


def ours_public(rng: random.Random) -> Callable[[], int]:
    deck = list(CARDS)

    def run() -> int:
        rng.shuffle(deck)
        hands, stock = deal_cards(RULES, 2, 0, deck)
        hand = RummyHand(RULES, NAMES[:2], [0, 0], 0, hands, stock)
        while not hand.over:
            actions = hand.legal_actions()
            hand.apply(actions[rng.randrange(len(actions))])
        return len(hand.log)

    return run


def openspiel(rng: random.Random) -> Callable[[], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")

    def run() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return run


def rlcard_gin() -> Callable[[], int] | None:
    try:
        import rlcard  # type: ignore[import-not-found]
        from rlcard.agents import RandomAgent  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])

    def run() -> int:
        trajectories, _ = env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    seconds = parser.parse_args().seconds
    rows: dict[str, tuple[float, float] | None] = {}
    rows["rummoli hands"] = measure(ours_hand(random.Random(1)), seconds)
    rows["rummoli games (to 100)"] = measure(ours_game(random.Random(2)), seconds)
    rows["rummoli public API hands"] = measure(ours_public(random.Random(3)), seconds)
    rows["rummoli gin hands"] = measure(ours_hand(random.Random(5), GIN), seconds)
    spiel = openspiel(random.Random(4))
    rows["openspiel gin_rummy"] = measure(spiel, seconds) if spiel else None
    rl = rlcard_gin()
    rows["rlcard gin-rummy"] = measure(rl, seconds) if rl else None
    print(f"{'random two-player play':<26} {'per second':>12} {'actions/s':>12}")
    for name, row in rows.items():
        if row is None:
            print(f"{name:<26} {'not installed':>12}")
        else:
            print(f"{name:<26} {row[0]:>12,.1f} {row[1]:>12,.0f}")
    hands, games, gin = rows["rummoli hands"], rows["rummoli games (to 100)"], rows["rummoli gin hands"]
    assert hands is not None and games is not None and gin is not None
    for other in ("openspiel gin_rummy", "rlcard gin-rummy"):
        base = rows[other]
        if base is not None:
            print(
                f"vs {other}: gin hands {gin[0] / base[0]:.2f}x, rummy hands {hands[0] / base[0]:.2f}x, "
                f"rummy games to 100 {games[0] / base[0]:.2f}x, rummy actions {hands[1] / base[1]:.2f}x"
            )


if __name__ == "__main__":
    main()
