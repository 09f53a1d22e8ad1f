"""Stops bots: decision times per level, and strength over duplicate deals.

``python -m bench.bots_stops [--deals N] [--hard-samples S] [--rulesets a,b] [--timing-hands N] [--quick]``

* **Time**: p50 and p95 of ``choose`` per level over the decisions that offer a choice (hard with its
  default 1 s budget, on a few decisions only).
* **Strength**: 4 seats, one bot of each level (hard, normal, easy, random); every deal is played four
  times with the line-up rotated one seat each time, so every level sits in every seat with the same
  cards (luck cancels).  Each rotation keeps its bots for the whole run, as at a real table, so what
  they learn of each other's betting carries from hand to hand; the rotations run in parallel.
  Per deal, each level's mean chip change over its four seats is one sample:
  mean chips per hand with a 95% confidence interval, and the paired gap between adjacent levels with
  its 95% interval.  The hard bot searches a fixed number of worlds per decision (``--hard-samples``),
  which makes the run reproducible.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import os
import random
import statistics
import time
from typing import Any

from rummoli.bots.base import Bot, RandomBot
from rummoli.bots.driver import play_out, view_for
from rummoli.bots.stops_bots import EasyStopsBot, HardStopsBot, NormalStopsBot
from rummoli.bots.stops_memory import believed
from rummoli.bots.stops_policy import poker_percentile
from rummoli.bots.stops_search import sigmoid
from rummoli.cards import CARDS
from rummoli.dealing import deal_with_widow
from rummoli.poker import evaluate_mask
from rummoli.stops import Action, Hand, load_ruleset
from rummoli.stops.replay import NAMES

LEVELS = ("hard", "normal", "easy", "random")
WORLDS: list[int] = []  # worlds searched per timed hard decision
HARD_CPU: list[float] = []  # CPU seconds per timed hard decision


class OldNormalStopsBot(NormalStopsBot):
    """``normal`` with its win chance as it was before issue 16 (kept here only, as the baseline of the
    decision-time figures): a whole shuffle of the unseen cards per sample, every other hand dealt,
    always ``poker_samples`` samples."""

    def win_chance(self, view: dict[str, Any], thresholds: tuple[float, ...] = ()) -> float:
        k, active, unseen = self.contest(view)
        if not active or k.hand.bit_count() < 5:
            return 1.0 if not active else 0.0
        mine = evaluate_mask(k.hand)
        others = [s for s in range(k.n) if s != k.me]
        wins = weight_sum = 0.0
        for _ in range(self.poker_samples):
            self.rng.shuffle(unseen)
            pos, weight, best_other = 0, 1.0, -1
            for s in others:
                size = k.sizes[s]
                m = 0
                for c in unseen[pos:pos + size]:
                    m |= 1 << c
                pos += size
                if s in active and size >= 5:
                    best_other = max(best_other, evaluate_mask(m))
                    if k.aggression[s]:
                        q = poker_percentile(m) ** (k.n - 1)
                        strong = max(0.05, sigmoid((q - 0.6) / 0.07))
                        weight *= believed(k.credibility[s], strong) ** k.aggression[s]
            weight_sum += weight
            if mine > best_other:
                wins += weight
            elif mine == best_other:
                wins += weight / 2
        return wins / weight_sum if weight_sum else 0.0


def make(level: str, seed: int, hard_samples: int | None, budget: float | None = None) -> Bot:
    if level == "hard":
        return HardStopsBot(seed, budget, samples=hard_samples)
    return {"normal": NormalStopsBot, "easy": EasyStopsBot, "random": RandomBot}[level](seed)


def deal(ruleset: str, players: int, seed: int) -> tuple[list[Any], list[Any], int]:
    rng = random.Random(f"bench-{ruleset}-{seed}")
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    hands, widow = deal_with_widow(deck, players, dealer)
    return hands, widow, dealer


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


OLD_NORMAL = "normal, old win chance"


def timing(ruleset: str, hands: int, hard_decisions: int) -> dict[str, tuple[float, float, int]]:
    """CPU time (``time.process_time``: the machine's other load does not count) per decision; the
    old normal bot decides beside the normal one on the very same views, its answer unused."""
    times: dict[str, list[float]] = {level: [] for level in (*LEVELS, OLD_NORMAL)}
    players = 4
    for i in range(hands):
        cards, widow, dealer = deal(ruleset, players, 10_000 + i)
        hand = Hand(ruleset, NAMES[:players], [100] * players, {}, dealer, cards, widow)
        order = [LEVELS[(s + i) % 4] for s in range(players)]
        bots = [make(level, i, None, 1.0) for level in order]
        old = OldNormalStopsBot(i)
        while not hand.over:
            seat = hand.to_act()[0]
            view = view_for(hand, seat)
            level = order[seat]
            if level == "hard" and len(times["hard"]) >= hard_decisions:
                bots[seat] = make("normal", i, None)
                order[seat] = level = "normal*"
            start = time.process_time()
            choice = bots[seat].choose(view)
            spent = time.process_time() - start
            if len(view["legal_actions"]) > 1 and level in times:
                times[level].append(spent)
                if level == "hard":
                    WORLDS.append(getattr(bots[seat], "last_worlds", 0))
                    HARD_CPU.append(spent)
                if level == "normal":
                    start = time.process_time()
                    old.choose(view_for(hand, seat))
                    times[OLD_NORMAL].append(time.process_time() - start)
            hand.apply(Action.from_json(choice))
    return {level: (percentile(t, 0.5), percentile(t, 0.95), len(t)) for level, t in times.items() if t}


def mean_ci(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
    return m, half


def _rotation(ruleset: str, levels: tuple[str, ...], rotation: int, deals: int,
              hard_samples: int) -> list[dict[str, float]]:
    """One rotation of the line-up over every deal in turn, with the same bots all evening (so what
    they remember of each other counts): per deal, each level's chip change per seat it holds."""
    rules = load_ruleset(ruleset)
    players = 4
    order = [levels[(s + rotation) % len(levels)] for s in range(players)]
    bots = [make(level, rotation * 10 + s, hard_samples) for s, level in enumerate(order)]
    out = []
    for d in range(deals):
        cards, widow, dealer = deal(ruleset, players, d)
        # Common random numbers: in every rotation a level starts the deal from the same draws, so a
        # random bot's wild bids and bets fall alike whichever seat it has (its luck cancels too).
        for level, bot in zip(order, bots, strict=True):
            bot.rng.seed(f"{level}-{d}")
        hand = Hand(rules, NAMES[:players], [100] * players, {}, dealer, cards, widow)
        play_out(hand, bots)
        gains = dict.fromkeys(order, 0.0)
        for s, level in enumerate(order):
            gains[level] += (hand.chips[s] - 100) / (players * order.count(level))
        out.append(gains)
    return out


def strength(ruleset: str, deals: int, hard_samples: int, levels: tuple[str, ...] = LEVELS,
             workers: int = 1) -> dict[str, Any]:
    players = 4
    unique = tuple(dict.fromkeys(levels))
    jobs = [(ruleset, levels, r, deals, hard_samples) for r in range(players)]
    if workers > 1:
        with multiprocessing.Pool(min(workers, players)) as pool:
            rotations = pool.starmap(_rotation, jobs)
    else:
        rotations = [_rotation(*job) for job in jobs]
    per_deal = {level: [sum(rot[d][level] for rot in rotations) for d in range(deals)] for level in unique}
    out: dict[str, Any] = {"levels": {}, "gaps": {}}
    for level in unique:
        out["levels"][level] = mean_ci(per_deal[level])
    for a, b in itertools.pairwise(unique):
        out["gaps"][f"{a}-{b}"] = mean_ci([x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots_stops")
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals per ruleset (x4 rotations)")
    parser.add_argument("--hard-samples", type=int, default=32, help="worlds per hard decision in the strength runs")
    parser.add_argument("--rulesets", default="rummoli,rummoli-tripoley,tripoley,michigan")
    parser.add_argument("--timing-hands", type=int, default=30)
    parser.add_argument("--hard-decisions", type=int, default=10, help="hard decisions timed at the 1 s budget")
    parser.add_argument("--quick", action="store_true", help="tiny run (a smoke test)")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (one rotation each)")
    parser.add_argument("--pairs", action="store_true",
                        help="also seat each adjacent pair of levels alone, two against two (less noise)")
    parser.add_argument("--only-pairs", action="store_true", help="the two-against-two tables only")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.timing_hands, args.hard_decisions, args.hard_samples = 6, 4, 2, 3
    rulesets = args.rulesets.split(",")
    if not args.no_timing:
        print(f"decision CPU time (4 players, {args.timing_hands} hands, decisions with a choice; "
              "hard: 1 s budget, wall clock)")
        for rs in rulesets:
            result = timing(rs, args.timing_hands, args.hard_decisions)
            for level, (p50, p95, count) in result.items():
                print(f"  {rs:17} {level:22} p50 {1000 * p50:8.2f} ms   p95 {1000 * p95:8.2f} ms"
                      f"   ({count} decisions)")
            if "normal" in result and OLD_NORMAL in result:
                print(f"  {rs:17} normal's p95 is {result['normal'][1] / result[OLD_NORMAL][1]:.2f} of the old one's")
            if WORLDS:
                print(f"  {rs:17} hard searched {statistics.fmean(WORLDS):.0f} worlds per decision on average,"
                      f" {sum(WORLDS) / sum(HARD_CPU):.0f} per CPU second")
                WORLDS.clear()
                HARD_CPU.clear()
    if args.deals <= 0:
        return
    print(f"strength: 4-player duplicate deals ({args.deals} deals x 4 rotations); hard searches "
          f"{args.hard_samples} worlds per decision; mean chips per hand and per-deal paired gaps, 95% CI")
    for rs in rulesets:
        if not args.only_pairs:
            start = time.perf_counter()
            result = strength(rs, args.deals, args.hard_samples, workers=args.workers)
            print(f"  {rs}: one table, line-up {', '.join(LEVELS)}  ({time.perf_counter() - start:.0f} s)")
            for level, (m, half) in result["levels"].items():
                print(f"    {level:7} {m:+7.2f} ± {half:5.2f} chips per hand")
            report_gaps(result["gaps"])
        if args.pairs or args.only_pairs:
            for upper, lower in itertools.pairwise(LEVELS):
                start = time.perf_counter()
                pair = strength(rs, args.deals, args.hard_samples, (upper, lower, upper, lower), args.workers)
                print(f"  {rs}: two {upper} against two {lower}  ({time.perf_counter() - start:.0f} s)")
                report_gaps({f"{upper}-{lower}": pair["gaps"][f"{upper}-{lower}"]})


def report_gaps(gaps: dict[str, tuple[float, float]]) -> None:
    for gap, (m, half) in gaps.items():
        verdict = "excludes 0" if abs(m) > half else "includes 0"
        print(f"    gap {gap:14} {m:+7.2f} ± {half:5.2f}  ({verdict})", flush=True)


if __name__ == "__main__":
    main()
