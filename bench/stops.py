"""Stops engine speed: complete random-decision hands per CPU second, beside OpenSpiel's Hearts.

    python -m bench.stops [--rounds R] [--seconds S]

Each hand is shuffled, dealt, anted and played to its end with uniformly random legal decisions
(the dealer's widow choice, the auction, the poker betting round, every lead), forced plays made
by the engine and logged, exactly as ``rummoli hand`` does (the engine's fast path, ``random_hand``).
The references are OpenSpiel's Hearts at its strongest, its own C++ loop (``pyspiel.evaluate_bots`` with
uniform random bots: no Python between moves), and driven move by move from Python as a player's program
would. Rounds are interleaved and timed in thread CPU (bench/interleave.py); ratios are against the C++ loop.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from bench.interleave import interleaved, report
from rummoli.stops import load_ruleset, random_hand

LINEUPS = (("rummoli", 4), ("rummoli", 7), ("michigan", 4))


def ours(ruleset: str, players: int, seed: int) -> Callable[[], int]:
    """Fifty random hands of ``ruleset`` a call."""
    rules = load_ruleset(ruleset)
    rng = random.Random(seed)

    def run() -> int:
        for _ in range(50):
            random_hand(rules, players, rng)
        return 50

    return run


def hand_shape(ruleset: str, players: int) -> dict[str, float]:
    """How much happens in a hand: auctions, betting rounds and decisions (so the work is stated)."""
    rules, rng = load_ruleset(ruleset), random.Random(2026)
    auctions = bettings = decisions = 0
    for _ in range(500):
        kinds = [e[2] for e in random_hand(rules, players, rng).log if e[0] == "act" and not e[5]]
        decisions += len(kinds)
        auctions += "bid" in kinds or "pass" in kinds
        bettings += any(k in ("bet", "check", "call", "raise", "fold") for k in kinds)
    return {"auction": auctions / 500, "betting": bettings / 500, "decisions": decisions / 500}


def hearts() -> dict[str, Callable[[], int]]:
    """OpenSpiel's Hearts, its C++ loop and from Python; empty when pyspiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return {}
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(4)]
    rng = random.Random(2026)
    seeds = iter(range(10**9))

    def cxx() -> int:
        for _ in range(20):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
        return 20

    def from_python() -> int:
        for _ in range(5):
            state = game.new_initial_state()
            while not state.is_terminal():
                chance = state.is_chance_node()
                actions = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        return 5

    return {"OpenSpiel Hearts, C++ loop": cxx, "OpenSpiel Hearts, from Python": from_python}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stops", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per contender a round (default 1)")
    args = parser.parse_args()
    works: dict[str, Callable[[], int]] = {}
    for ruleset, players in LINEUPS:
        shape = hand_shape(ruleset, players)
        print(f"{ruleset} {players} players: auction in {shape['auction']:.0%}, betting in {shape['betting']:.0%} "
              f"of hands, {shape['decisions']:.1f} decisions a hand")
        works[f"{ruleset} {players}p, engine fast path"] = ours(ruleset, players, players)
    references = hearts()
    if not references:
        print("OpenSpiel Hearts: pyspiel is not installed (pip install -e '.[bench]') -- no reference")
    works.update(references)
    rates = interleaved(works, args.rounds, args.seconds)
    print(f"hands (ours) or games (Hearts) per CPU second, median [range] of {args.rounds} interleaved rounds:")
    report(rates, "hands", "OpenSpiel Hearts, C++ loop" if references else None)


if __name__ == "__main__":
    main()
