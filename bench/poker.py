"""Poker evaluation speed: ours, compiled and pure, beside the fastest published evaluators, in one run.

    python -m bench.poker [--rounds R] [--hands H]

For N = 7, 10, 17 and 26 cards every contender evaluates the same random hands (fixed seed). Rounds are
interleaved (each round times every contender once, in a new order) and each figure is thread CPU time per call,
so another process on the machine does not tilt the comparison; the median of the rounds is printed with their
range. The contenders, each called the way its authors mean it to be called from Python:

* ``rummoli C``      -- ``rummoli.poker.evaluate_mask`` on a 52-bit mask: the compiled twin (src/rummoli/_speedups.c)
* ``rummoli pure``   -- ``evaluate_mask_pure``, the same steps in Python (RUMMOLI_PURE=1)
* ``eval7``          -- ``eval7.evaluate`` on its own Card objects (any N; its shortcut misranks some hands over seven)
* ``phevaluator C``  -- phevaluator's native seven-card function on card ids (N = 7 only: it stops there)
* ``treys``          -- treys' seven-card evaluation (N = 7) or the best of every five-card subset (N > 7)

The ratio columns divide eval7's time by ours (above 1: ours is faster), as issue 34's targets are stated.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

from rummoli.cards import CARDS, mask_of
from rummoli.poker import COMPILED, evaluate_mask, evaluate_mask_pure

SIZES = (7, 10, 17, 26)
Work = tuple[Callable[[Any], object], list[Any]]


def cpu_per_call(work: Callable[[Any], object], items: list[Any]) -> float:
    """Thread CPU nanoseconds per call over one pass of ``items``."""
    start = time.thread_time_ns()
    for item in items:
        work(item)
    return (time.thread_time_ns() - start) / len(items)


def contenders(hands: list[list[Any]], n: int) -> dict[str, Work]:
    """Each contender's function and the hands in its own form (made before any timing)."""
    out: dict[str, Work] = {}
    masks = [mask_of(h) for h in hands]
    if COMPILED:
        out["rummoli C"] = (evaluate_mask, masks)
    out["rummoli pure"] = (evaluate_mask_pure, masks)
    try:
        import eval7

        out["eval7"] = (eval7.evaluate, [[eval7.Card(str(c)) for c in h] for h in hands])
    except ImportError:
        pass
    if n == 7:
        try:
            from phevaluator import _pheval  # the native call its evaluate_cards wraps

            seven = _pheval.evaluate_7cards
            out["phevaluator C"] = (lambda ids: seven(*ids), [[CARDS.index(c) for c in h] for h in hands])
        except ImportError:
            pass
    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        converted = [[int(TreysCard.new(str(c))) for c in h] for h in hands]
        if n == 7:
            out["treys"] = (lambda cards: evaluator.evaluate(cards[:2], cards[2:]), converted)
        else:
            five = evaluator._five  # the table lookup treys uses for each five-card subset
            few = converted[: max(3, 4000 // n**2)]  # brute force is slow at large N: fewer hands
            out["treys"] = (lambda cards: min(five(list(c)) for c in combinations(cards, 5)), few)
    except ImportError:
        pass
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (default 9)")
    parser.add_argument("--hands", type=int, default=20000, help="hands per round and size (default 20000)")
    args = parser.parse_args()
    rng = random.Random(7)
    if not COMPILED:
        print("the compiled evaluator is not built (or RUMMOLI_PURE=1): 'rummoli C' is left out")
    print("ns of thread CPU per call: median [min-max] over interleaved rounds; ratio = eval7 / contender")
    for n in SIZES:
        hands = [rng.sample(CARDS, n) for _ in range(args.hands)]
        works = contenders(hands, n)
        times: dict[str, list[float]] = {name: [] for name in works}
        names = list(works)
        for _ in range(args.rounds):
            rng.shuffle(names)
            for name in names:
                work, items = works[name]
                times[name].append(cpu_per_call(work, items))
        reference = statistics.median(times["eval7"]) if "eval7" in times else float("nan")
        print(f"\n{n} cards")
        for name in works:
            median = statistics.median(times[name])
            print(f"  {name:14} {median:9,.0f} ns  [{min(times[name]):,.0f}-{max(times[name]):,.0f}]"
                  f"  ratio {reference / median:6.2f}")


if __name__ == "__main__":
    main()
