"""The Gin bots' race reckoning compiled against its pure-Python twin, both measured in one run.

    python -m bench.gin_race [--rounds 5] [--deals 30] [--hard-deals 6] [--samples 16]

The normal and hard Gin bots judge each discard by racing the hand over sampled futures
(rummoli/bots/rummy_race.py), and nearly all of a normal Gin bot's time is the best arrangement of the
cards at each step (``keep_best``), which ``pip install -e .`` also compiles (src/rummoli/_speedups.c).
Each measurement is a fresh process playing the same deals on our engine (``bench.bots_external.ours_deal``:
each deal twice, seats swapped), once with the compiled code and once with ``RUMMOLI_PURE=1``, the two taking
turns round after round so a busy machine slows both alike:

* **normal**: our normal Gin bot against our normal bot, ``--deals`` deals: games per CPU second;
* **hard**: our hard Gin bot at a fixed ``--samples`` worlds a decision (no clock, so both do the same work)
  against normal, ``--hard-deals`` deals: games per CPU second.

Times are the CPU seconds of the measuring process (``time.process_time``) for the play alone, after the
imports. Both twins choose the same moves (tests/core/test_speedups.py holds keep_best to the same answer on
every hand), so the games are the same games: the check below compares their points.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

MEASURE = """
import json, sys, time
from bench.bots_external import ours_deal
level, deals, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ours_deal((level, 10**6, samples, None))  # warm: imports, meld tables
start = time.process_time()
points = [p for d in range(deals) for p in ours_deal((level, 7_100_000 + d, samples, None))["points"]]
print(json.dumps({"cpu": time.process_time() - start, "games": len(points), "points": points}))
"""


def measure(level: str, deals: int, samples: int, pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "RUMMOLI_PURE"}
    if pure:
        env["RUMMOLI_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", MEASURE, level, str(deals), str(samples)], env=env,
                          capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):8.2f}  range {min(values):.2f}-{max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=30, help="deals a normal measurement plays (2 games each)")
    parser.add_argument("--hard-deals", type=int, default=6, help="deals a hard measurement plays (2 games each)")
    parser.add_argument("--samples", type=int, default=16, help="the hard bot's worlds a decision")
    args = parser.parse_args()
    from rummoli.bots import rummy_race

    if rummy_race._compiled_keep_best is None:
        raise SystemExit("the compiled keep_best is not built (pip install -e . compiles it) or RUMMOLI_PURE=1 is set")
    for level, deals in (("normal", args.deals), ("hard", args.hard_deals)):
        rates: dict[bool, list[float]] = {True: [], False: []}
        points: dict[bool, list[object]] = {}
        for round_no in range(args.rounds):
            for pure in (round_no % 2 == 1, round_no % 2 == 0):  # alternate which goes first
                got = measure(level, deals, args.samples, pure)
                rates[pure].append(float(got["games"]) / float(got["cpu"]))  # type: ignore[arg-type]
                points[pure] = got["points"]  # type: ignore[assignment]
        same = "the same points in every game" if points[True] == points[False] else "POINTS DIFFER"
        print(f"{level:6} games per CPU s  compiled {spread(rates[False])}   pure {spread(rates[True])}   "
              f"ratio of medians {statistics.median(rates[False]) / statistics.median(rates[True]):.2f}x   ({same})")


if __name__ == "__main__":
    main()
