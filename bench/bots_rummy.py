"""Rummy bots: decision times per level, and 2-player straight Rummy games between levels.

    python -m bench.bots_rummy [--pairs N] [--workers W] [--hard-budget S | --hard-samples K]
                               [--matchups hard-easy,normal-easy,easy-random] [--ruleset rummy]
                               [--timing-hands H] [--seed S]

* **decision time**: p50 / p95 / max milliseconds per ``choose`` call for each level, over ``H`` hands of
  2-player straight Rummy with every seat played by that level (hard: one seat, against easy).
* **games**: for each matchup ``A-B``, ``N`` pairs of duplicate games to 100 points: the same deals twice,
  the seats swapped.  It prints A's win rate (a tie counts half) with a 95% confidence interval taken over
  the pairs (each pair's mean is one observation, so the luck of the deal cancels), and the mean final
  points of each side.  Worker processes share the pairs out.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummoli.bots import make_bot
from rummoli.bots import rummy_bots as _rummy_bots  # noqa: F401  (registers the Rummy levels)
from rummoli.bots.base import Bot
from rummoli.bots.driver import play_out
from rummoli.rummy import RummyGame

MAX_HANDS = 200


def make(level: str, seed: int, hard_budget: float, hard_samples: int | None) -> Bot:
    bot = make_bot("rummy", level, seed=seed, budget=hard_budget)
    if level == "hard" and hard_samples:
        bot.samples = hard_samples  # type: ignore[attr-defined]
    return bot


def play_game(
    ruleset: str, levels: tuple[str, str], seed: int, hard_budget: float, hard_samples: int | None
) -> list[Any]:
    """One game to the target; returns [win share of seat 0, seat 0 points, seat 1 points]."""
    bots = [make(level, seed * 2 + seat, hard_budget, hard_samples) for seat, level in enumerate(levels)]
    game = RummyGame(ruleset, ["A", "B"], seed=seed)
    while not game.over and game.hands_played < MAX_HANDS:
        hand = game.deal()
        play_out(hand, bots)
        game.finish_hand()
    winners = game.winners() or [s for s in (0, 1) if game.scores[s] == max(game.scores)]
    share = 1.0 / len(winners) if 0 in winners else 0.0
    return [share, game.scores[0], game.scores[1]]


def play_pair(args: tuple[str, str, str, int, float, int | None]) -> list[float]:
    """Duplicate games: A in seat 0, then A in seat 1, on the same deals; returns A's [wins, points, their points]."""
    ruleset, a, b, seed, budget, samples = args
    first = play_game(ruleset, (a, b), seed, budget, samples)
    second = play_game(ruleset, (b, a), seed, budget, samples)
    return [(first[0] + 1 - second[0]) / 2, (first[1] + second[2]) / 2, (first[2] + second[1]) / 2]


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan"), float("nan")
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


class Timed(Bot):
    """A bot wrapper that keeps each decision's time."""

    game = "rummy"
    level = "timed"

    def __init__(self, inner: Bot, times: list[float]) -> None:
        self.inner, self.times = inner, times

    def choose(self, view: Any) -> dict[str, Any]:
        start = time.perf_counter()
        out = self.inner.choose(view)
        self.times.append(time.perf_counter() - start)
        return out


def timing(level: str, hands: int, budget: float, samples: int | None, seed: int) -> list[float]:
    times: list[float] = []
    for k in range(hands):
        game = RummyGame("rummy", ["A", "B"], seed=seed + k)
        hand = game.deal()
        if level == "hard":
            bots: list[Bot | None] = [Timed(make("hard", k, budget, samples), times), make("easy", k, budget, None)]
        else:
            bots = [Timed(make(level, k * 2 + s, budget, None), times) for s in range(2)]
        play_out(hand, bots)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hard-budget", type=float, default=1.0)
    parser.add_argument("--hard-samples", type=int, default=0, help="fixed worlds per decision (overrides budget)")
    parser.add_argument("--matchups", default="hard-easy,normal-easy,easy-random")
    parser.add_argument("--ruleset", default="rummy")
    parser.add_argument("--levels", default="random,easy,normal,hard", help="levels to time")
    parser.add_argument("--timing-hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", action="store_true", help="a line on stderr after each pair")
    args = parser.parse_args()
    samples = args.hard_samples or None
    hard_note = f"{samples} worlds/decision" if samples else f"budget {args.hard_budget:g} s"
    print(f"decision time, 2-player {args.ruleset} hands (hard: {hard_note})")
    print(f"{'level':8} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for level in args.levels.split(","):
        hands = max(1, args.timing_hands // (5 if level == "hard" else 1))
        times = timing(level, hands, args.hard_budget, samples, args.seed)
        print(
            f"{level:8} {len(times):6d} {percentile(times, 0.5) * 1e3:8.2f} {percentile(times, 0.95) * 1e3:8.2f}"
            f" {max(times) * 1e3:8.2f}",
            flush=True,
        )
    print()
    print(f"games to the target, {args.ruleset}, 2 players, {args.pairs} duplicate pairs each, hard: {hard_note}")
    for matchup in args.matchups.split(","):
        a, b = matchup.split("-")
        jobs = [(args.ruleset, a, b, args.seed * 100_000 + k, args.hard_budget, samples) for k in range(args.pairs)]
        start = time.perf_counter()
        results: list[list[float]] = []
        with ProcessPoolExecutor(max(1, args.workers)) as pool:
            for result in pool.map(play_pair, jobs):
                results.append(result)
                if args.progress:
                    share = statistics.fmean(r[0] for r in results)
                    print(f"  {len(results)}/{len(jobs)} pairs: {a} {share:.1%}", file=sys.stderr, flush=True)
        wins, low, high = interval([r[0] for r in results])
        mine = statistics.fmean(r[1] for r in results)
        theirs = statistics.fmean(r[2] for r in results)
        print(
            f"{a} vs {b}: {a} wins {wins:.1%} (95% CI {low:.1%} .. {high:.1%}) of {2 * len(results)} games;"
            f" mean final points {mine:.1f} vs {theirs:.1f}; {time.perf_counter() - start:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
