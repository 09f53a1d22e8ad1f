"""Gin knock settlement speed (R-GIN-4): the knocker's best arrangement against the defender's best answer,
beside the old least-deadwood-only settlement measured in the same run.

    python -m bench.gin_settle [--seconds S] [--hands N]

Knocking hands are dealt at random (seeded) and kept when the first ten cards arrange with 10 or less
deadwood; the other ten are the defender's.  Each figure is settlements per second on one core:

* ``least deadwood only`` -- the baseline: one least-deadwood arrangement, the defender's lay-offs on it;
* ``best for the knocker`` -- :func:`rummoli.rummy.settle.gin_knock`, every arrangement the knock allows.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rummoli.rummy.melds import MeldTable, meld_table
from rummoli.rummy.settle import gin_knock


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


def measure(settle: Callable[[MeldTable, int, int], int], hands: list[tuple[int, int]], seconds: float) -> float:
    table = meld_table("low", 1)
    runs = 0
    start = time.perf_counter()
    while True:
        for knocker, defender in hands:
            settle(table, knocker, defender)
        runs += len(hands)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return runs / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--hands", type=int, default=2000, help="knocking hands dealt (default 2000)")
    args = parser.parse_args()
    table = meld_table("low", 1)
    hands = knocking_hands(args.hands, random.Random(17), table)
    changed = sum(least_deadwood_only(table, k, d) != best_for_the_knocker(table, k, d) for k, d in hands)
    base = measure(least_deadwood_only, hands, args.seconds)
    ours = measure(best_for_the_knocker, hands, args.seconds)
    print(f"{'gin knock settlement':<24} {'per second':>12}")
    print(f"{'least deadwood only':<24} {base:>12,.0f}")
    print(f"{'best for the knocker':<24} {ours:>12,.0f}")
    print(
        f"best for the knocker / least deadwood only: {ours / base:.2f}x; knocks settled differently: "
        f"{changed} of {len(hands)}"
    )


if __name__ == "__main__":
    main()
