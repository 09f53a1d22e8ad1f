"""The coach (issue 37): how long a review takes, and whether it tells an easy player from a hard one.

    python -m bench.coach [--hands N] [--rulesets rummoli,gin-rummy] [--budget S | --samples K]
                          [--play-samples K] [--workers W] [--seed S] [--json]

For each ruleset, ``N`` hands are dealt and played by easy and hard bots sitting alternately (Rummoli: hard,
easy, hard, easy; Gin: the seats swap every other hand), the hard ones searching ``--play-samples`` worlds a
decision.  Every seat's decisions are then reviewed by the coach from that seat's view alone, as
``rummoli review`` would, at the default budget (or ``--budget`` / ``--samples``).  It prints:

* **review time**: CPU seconds of one core per hand reviewed (one seat's review, the figure the issue bounds
  at 10 s), mean, p95 and max, and the decisions per review;
* **cost per decision**: for each level, the mean of (value of the coach's preferred choice - value of the
  choice taken) over its decisions, in chips (stops) or points (Rummy), with a 95% interval clustered by
  hand (each hand's decisions are not independent), how many decisions and how many were marked mistakes;
  and the difference easy - hard with its interval (paired by hand: both levels played the same deal).

The coach is not told who played: if its costs did not separate the levels they would be noise.  The hard
bot's own cost is not zero: the coach samples other worlds than the player did, so near-ties go either way.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummoli.bots.driver import play_out
from rummoli.coach import review
from rummoli.games import family_of
from rummoli.rummy import hand_from_record as rummy_hand
from rummoli.stops import hand_from_record as stops_hand

SEATS = {"rummoli": 4, "gin-rummy": 2, "michigan": 4, "rummy": 2, "knock-rummy": 2}


def played_record(ruleset: str, index: int, seed: str, play_samples: int) -> tuple[dict[str, Any], list[str]]:
    """Hand ``index``: dealt from the seed, played by easy and hard bots; its record and each seat's level."""
    family = family_of(ruleset)
    players = SEATS.get(ruleset, 4)
    base = family.random_hand_record(ruleset, players, f"{seed}:{ruleset}:{index}")
    base["actions"] = []
    hand: Any = stops_hand(base, auto=True) if family.unit == "chips" else rummy_hand(base)
    levels = [("hard", "easy")[(seat + index) % 2] for seat in range(players)]
    bots = [family.make_bot(level, f"{seed}:{index}:{seat}", samples=play_samples if level == "hard" else None)
            for seat, level in enumerate(levels)]
    play_out(hand, bots)
    return hand.record(), levels


def one_hand(args: tuple[str, int, str, int, float | None, int | None]) -> dict[str, Any]:
    ruleset, index, seed, play_samples, budget, samples = args
    record, levels = played_record(ruleset, index, seed, play_samples)
    out: dict[str, Any] = {"ruleset": ruleset, "index": index, "seats": []}
    for seat, level in enumerate(levels):
        started = time.process_time()
        result = review(record, seat, budget, samples, seed=f"{seed}:{index}")
        cpu = time.process_time() - started
        costs = [d["cost"] or 0.0 for d in result["decisions"]]
        out["seats"].append({"level": level, "cpu": cpu, "decisions": len(costs), "cost": sum(costs),
                             "mistakes": result["mistakes"], "unit": result["unit"]})
    return out


def clustered(hands: list[tuple[float, int]]) -> tuple[float, float]:
    """The ratio mean (sum of costs / sum of decisions) over hands and the half-width of its 95% interval
    (the delta method, each hand one cluster)."""
    total = sum(n for _, n in hands)
    if total == 0:
        return 0.0, math.inf
    mean = sum(c for c, _ in hands) / total
    k = len(hands)
    if k < 2:
        return mean, math.inf
    nbar = total / k
    var = sum((c - mean * n) ** 2 for c, n in hands) / (k * (k - 1) * nbar * nbar)
    return mean, 1.96 * math.sqrt(var)


def summarize(results: list[dict[str, Any]], ruleset: str) -> dict[str, Any]:
    rows = [r for r in results if r["ruleset"] == ruleset]
    seats = [s for r in rows for s in r["seats"]]
    cpus = sorted(s["cpu"] for s in seats)
    out: dict[str, Any] = {
        "ruleset": ruleset, "hands": len(rows), "unit": seats[0]["unit"] if seats else "",
        "review_cpu_mean": statistics.fmean(cpus) if cpus else 0.0,
        "review_cpu_p95": cpus[min(len(cpus) - 1, int(0.95 * len(cpus)))] if cpus else 0.0,
        "review_cpu_max": cpus[-1] if cpus else 0.0,
        "decisions_per_review": statistics.fmean(s["decisions"] for s in seats) if seats else 0.0,
    }
    for level in ("easy", "hard"):
        per_hand = []
        for r in rows:
            mine = [s for s in r["seats"] if s["level"] == level]
            per_hand.append((sum(s["cost"] for s in mine), sum(s["decisions"] for s in mine)))
        mean, half = clustered(per_hand)
        out[level] = {"cost_per_decision": mean, "half": half, "decisions": sum(n for _, n in per_hand),
                      "mistakes": sum(s["mistakes"] for r in rows for s in r["seats"] if s["level"] == level)}
    # easy - hard, hand by hand (the same deal): each hand's difference of means, then their mean
    diffs = []
    for r in rows:
        by = {lv: [s for s in r["seats"] if s["level"] == lv] for lv in ("easy", "hard")}
        n_e, n_h = sum(s["decisions"] for s in by["easy"]), sum(s["decisions"] for s in by["hard"])
        if n_e and n_h:
            diffs.append(sum(s["cost"] for s in by["easy"]) / n_e - sum(s["cost"] for s in by["hard"]) / n_h)
    if len(diffs) > 1:
        out["easy_minus_hard"] = statistics.fmean(diffs)
        out["easy_minus_hard_half"] = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.coach", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--rulesets", default="rummoli,gin-rummy")
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision (the coach's default)")
    parser.add_argument("--samples", type=int, default=None, help="worlds per decision instead of a budget")
    parser.add_argument("--play-samples", type=int, default=16, help="worlds per decision of the hard players")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="bench-coach")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rulesets = [r for r in args.rulesets.split(",") if r]
    jobs = [(r, i, args.seed, args.play_samples, args.budget, args.samples)
            for r in rulesets for i in range(args.hands)]
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(one_hand, jobs))
    else:
        results = [one_hand(job) for job in jobs]
    report = [summarize(results, r) for r in rulesets]
    if args.json:
        print(json.dumps(report, indent=1))
        return
    what = f"{args.samples} worlds" if args.samples else f"{args.budget or 'default'} s"
    print(f"coach review, {what} a decision; {args.hands} hands a ruleset of easy and hard bots "
          f"(hard playing {args.play_samples} worlds); {time.perf_counter() - started:.0f} s wall")
    for s in report:
        print(f"{s['ruleset']:<10} review CPU per hand: mean {s['review_cpu_mean']:.2f} s, "
              f"p95 {s['review_cpu_p95']:.2f}, max {s['review_cpu_max']:.2f}; "
              f"{s['decisions_per_review']:.1f} decisions a review")
        for level in ("easy", "hard"):
            x = s[level]
            print(f"{'':<10} {level}: {x['cost_per_decision']:.2f} ± {x['half']:.2f} {s['unit']} a decision "
                  f"({x['decisions']} decisions, {x['mistakes']} mistakes)")
        if "easy_minus_hard" in s:
            print(f"{'':<10} easy - hard, by hand: {s['easy_minus_hard']:.2f} ± {s['easy_minus_hard_half']:.2f} "
                  f"{s['unit']} a decision")


if __name__ == "__main__":
    main()
