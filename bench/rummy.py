"""Rummy play-out speed: random-decision two-player deals, ours beside OpenSpiel and RLCard, same run.

    python -m bench.rummy [--rounds R] [--seconds S]

Every decision is drawn uniformly from the legal actions (seeded). Figures are deals (one OpenSpiel or RLCard
game is one deal) per thread-CPU second, median [range] of interleaved rounds (bench/interleave.py):

* ``rummoli gin, fast path``     -- our Gin Rummy deals (knock legality needs the least deadwood on every turn)
  with the engine's fast path (``random_hand``: raw moves, as the search bots play): like for like;
* ``rummoli gin, public API``    -- the same deals through ``legal_actions()`` / ``apply()`` (what a server does);
* ``rummoli rummy, fast path``   -- straight Rummy deals played to their end (out or blocked);
* ``rummoli rummy, public API``  -- the same through ``legal_actions()`` / ``apply()`` (objects, checks, events);
* ``rummoli rummy games to 100`` -- whole games, deal rotating (games, not deals);
* ``OpenSpiel gin_rummy, C++ loop``  -- its own loop (``pyspiel.evaluate_bots``, uniform random bots);
* ``OpenSpiel gin_rummy, from Python`` -- the C++ game driven move by move from Python;
* ``RLCard gin-rummy, game core`` -- its ``GinRummyGame`` stepped directly (no observation encoding);
* ``RLCard gin-rummy, env.run``  -- through its environment and random agents (numpy observations).

The ratios are against OpenSpiel's C++ loop, the strongest reference.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from bench.interleave import interleaved, report
from rummoli.cards import CARDS
from rummoli.rummy import Ruleset, RummyHand, deal_cards, load_ruleset, random_hand
from rummoli.rummy.replay import NAMES

RULES = load_ruleset("rummy")
GIN = load_ruleset("gin-rummy")


def ours_hand(rng: random.Random, rules: Ruleset = RULES) -> Callable[[], int]:
    def run() -> int:
        for _ in range(5):
            random_hand(rules, 2, rng)
        return 5

    return run


def ours_game(rng: random.Random) -> Callable[[], int]:
    def run() -> int:
        scores, dealer = [0, 0], 0
        while max(scores) < RULES.target:
            hand = random_hand(RULES, 2, rng, scores, dealer)
            scores = [s + d for s, d in zip(scores, hand.deltas, strict=True)]
            dealer ^= 1
        return 1

    return run


def ours_public(rng: random.Random, rules: Ruleset = RULES) -> Callable[[], int]:
    deck = list(CARDS)

    def run() -> int:
        rng.shuffle(deck)
        hands, stock = deal_cards(rules, 2, 0, deck)
        hand = RummyHand(rules, NAMES[:2], [0, 0], 0, hands, stock)
        while not hand.over:
            actions = hand.legal_actions()
            hand.apply(actions[rng.randrange(len(actions))])
        return 1

    return run


def openspiel(rng: random.Random) -> dict[str, Callable[[], int]]:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return {}
    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(2)]
    seeds = iter(range(10**9))

    def cxx() -> int:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
        return 1

    def from_python() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        return 1

    return {"OpenSpiel gin_rummy, C++ loop": cxx, "OpenSpiel gin_rummy, from Python": from_python}


def rlcard_gin(rng: random.Random) -> dict[str, Callable[[], int]]:
    try:
        import rlcard  # type: ignore[import-not-found]
        from rlcard.agents import RandomAgent  # type: ignore[import-not-found]
        from rlcard.games.gin_rummy.game import GinRummyGame  # type: ignore[import-not-found]
    except ImportError:
        return {}
    env = rlcard.make("gin-rummy", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])
    game = GinRummyGame()

    def core() -> int:
        game.init_game()
        while not game.is_over():
            legal = game.judge.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        return 1

    def through_env() -> int:
        env.run(is_training=False)
        return 1

    return {"RLCard gin-rummy, game core": core, "RLCard gin-rummy, env.run": through_env}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per contender a round (default 1)")
    args = parser.parse_args()
    works: dict[str, Callable[[], int]] = {
        "rummoli gin, fast path": ours_hand(random.Random(5), GIN),
        "rummoli gin, public API": ours_public(random.Random(7), GIN),
        "rummoli rummy, fast path": ours_hand(random.Random(1)),
        "rummoli rummy, public API": ours_public(random.Random(3)),
        "rummoli rummy games to 100": ours_game(random.Random(2)),
    }
    references = {**openspiel(random.Random(4)), **rlcard_gin(random.Random(6))}
    if not references:
        print("neither OpenSpiel nor RLCard is installed (pip install -e '.[bench]'): no reference")
    works.update(references)
    rates = interleaved(works, args.rounds, args.seconds)
    print(f"deals (games for 'games to 100') per CPU second, median [range] of {args.rounds} interleaved rounds:")
    report(rates, "deals", "OpenSpiel gin_rummy, C++ loop" if "OpenSpiel gin_rummy, C++ loop" in rates else None)


if __name__ == "__main__":
    main()
