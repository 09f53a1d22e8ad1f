"""Gin knock settlement speed (R-GIN-4): the knocker's best arrangement against the defender's best answer, compiled
and in Python, beside the old least-deadwood-only settlement, all measured in the same interleaved rounds.

    python -m bench.gin_settle [--seconds S] [--rounds R] [--hands N]

Knocking hands are dealt at random (seeded) and kept when the first ten cards arrange with 10 or less
deadwood; the other ten are the defender's.  Each figure is settlements per thread-CPU second
(:mod:`bench.interleave`: every round runs each contender once, in a new order), the median of the rounds with
their range:

* ``least deadwood only`` -- the baseline: one least-deadwood arrangement, the defender's lay-offs on it;
* ``best for the knocker, pure`` -- :func:`rummoli.rummy.settle.gin_knock_pure`, every arrangement the knock
  allows, in Python (the reference, and what ``RUMMOLI_PURE=1`` plays);
* ``best for the knocker`` -- :func:`rummoli.rummy.settle.gin_knock`, the same answer compiled (every hand a
  searching Gin bot plays out ends here).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from bench.interleave import interleaved, report
from rummoli.rummy.melds import MeldTable, meld_table
from rummoli.rummy.settle import gin_knock, gin_knock_pure


def knocking_hands(count: int, rng: random.Random, table: MeldTable) -> list[tuple[int, int]]:
    hands = []
    while len(hands) < count:
        cards = rng.sample(range(52), 20)
        knocker = sum(1 << c for c in cards[:10])
        if table.deadwood(knocker) <= 10:
            hands.append((knocker, sum(1 << c for c in cards[10:])))
    return hands


def least_deadwood_only(table: MeldTable, knocker: int, defender: int) -> int:
    melded, melds = table.best_arrangement(knocker)
    mine = table.card_value(knocker) - melded
    theirs = table.deadwood_with_layoffs(defender, melds)[0] if mine else table.deadwood(defender)
    return theirs - mine


def best_for_the_knocker(table: MeldTable, knocker: int, defender: int) -> int:
    settled = gin_knock(table, knocker, defender, 10)
    return settled.defender - settled.knocker


def best_for_the_knocker_pure(table: MeldTable, knocker: int, defender: int) -> int:
    settled = gin_knock_pure(table, knocker, defender, 10)
    return settled.defender - settled.knocker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per contender per round (default 1)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--hands", type=int, default=2000, help="knocking hands dealt (default 2000)")
    args = parser.parse_args()
    table = meld_table("low", 1)
    hands = knocking_hands(args.hands, random.Random(17), table)
    changed = sum(least_deadwood_only(table, k, d) != best_for_the_knocker(table, k, d) for k, d in hands)
    differ = sum(gin_knock(table, k, d, 10) != gin_knock_pure(table, k, d, 10) for k, d in hands)

    def contender(settle: Callable[[MeldTable, int, int], int]) -> Callable[[], int]:
        def work() -> int:
            for knocker, defender in hands:
                settle(table, knocker, defender)
            return len(hands)
        return work

    rates = interleaved({"least deadwood only": contender(least_deadwood_only),
                         "best for the knocker, pure": contender(best_for_the_knocker_pure),
                         "best for the knocker": contender(best_for_the_knocker)}, args.rounds, args.seconds)
    print(f"gin knock settlement, {len(hands)} knocking hands, {args.rounds} interleaved rounds")
    report(rates, "settlements", reference="best for the knocker, pure")
    print(f"knocks the best arrangement settles differently from the least deadwood: {changed} of {len(hands)}; "
          f"compiled and pure answers that differ: {differ}")


if __name__ == "__main__":
    main()
