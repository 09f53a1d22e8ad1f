"""Poker evaluation speed: ours beside treys, measured in the same run.

    python -m bench.poker [--seconds S]

For N = 7, 10, 17 and 26 cards it prints evaluations per second of

* ``rummoli mask``   -- ``evaluate_mask`` on a 52-bit mask (what the engines call),
* ``rummoli cards``  -- ``evaluate`` on a list of cards (checks, object creation),
* ``treys 7``        -- treys' own seven-card evaluation (N = 7 only),
* ``treys subsets``  -- the best of all five-card subsets, each scored by treys,

and the ratios the targets speak of: ours against treys at seven cards, ours against brute force.
Every figure comes from the same random hands (fixed seed) and the same process.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

from rummoli.cards import CARDS, Card, mask_of
from rummoli.poker import evaluate, evaluate_mask

SIZES = (7, 10, 17, 26)


def rate(work: Callable[[Any], object], items: list[Any], seconds: float) -> float:
    """Items per second, repeating the list until ``seconds`` have passed (at least once)."""
    done, start = 0, time.perf_counter()
    while True:
        for item in items:
            work(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


TreysFunctions = tuple[Callable[[list[int]], int], Callable[[list[int]], int], Callable[[Card], int]]


def treys_functions() -> TreysFunctions | None:
    try:
        from treys import Card as TreysCard
        from treys import Evaluator
    except ImportError:
        return None
    evaluator = Evaluator()

    def seven(cards: list[int]) -> int:
        return int(evaluator.evaluate(cards[:2], cards[2:]))

    five = evaluator._five  # the table lookup treys uses for each five-card subset

    def subsets(cards: list[int]) -> int:
        return min(five(list(combo)) for combo in combinations(cards, 5))

    def convert(card: Card) -> int:
        return int(TreysCard.new(str(card)))

    return seven, subsets, convert


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    args = parser.parse_args()
    rng = random.Random(7)
    treys = treys_functions()
    print(f"{'N':>3} {'rummoli mask':>14} {'rummoli cards':>14} {'treys 7':>10} {'treys subsets':>14}"
          f" {'mask/treys7':>12} {'cards/treys7':>13} {'mask/subsets':>13}")
    for n in SIZES:
        hands = [rng.sample(CARDS, n) for _ in range(2000)]
        masks = [mask_of(h) for h in hands]
        ours_mask = rate(evaluate_mask, masks, args.seconds)
        ours_cards = rate(evaluate, hands, args.seconds)
        seven = subsets = float("nan")
        if treys is not None:
            treys_seven, treys_subsets, convert = treys
            converted = [[convert(c) for c in h] for h in hands]
            if n == 7:
                seven = rate(treys_seven, converted, args.seconds)
            # Brute force is slow at large N: a few hands are enough for a steady figure.
            subsets = rate(treys_subsets, converted[: max(3, 20000 // n**3)], args.seconds)
        print(f"{n:>3} {ours_mask:>14,.0f} {ours_cards:>14,.0f} {seven:>10,.0f} {subsets:>14,.1f}"
              f" {ours_mask / seven:>12.2f} {ours_cards / seven:>13.2f} {ours_mask / subsets:>13,.0f}")
    if treys is None:
        print("treys is not installed: pip install -e '.[bench]' for the comparison columns")


if __name__ == "__main__":
    main()
