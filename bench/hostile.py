"""Hostile clients at length (issue 33): many evenings of every built-in ruleset on a real ``rummoli serve``,
each with 2 to 4 scripted people who pick random legal actions from their own view, bots and a spectator; every
frame and REST answer each client got is checked against the evening as the server stored it (SQLite, replayed
entry by entry): no card a seat may not know, no forced mark of hidden origin, no other seat's legal actions.

Then the bot attack of issue 38 (bench/hostile_bots.py): tables at the ruleset limits with seven hard bots beside an
ordinary one, every table's bot decision times printed.

``python -m bench.hostile [--evenings N] [--hands H] [--rulesets NAME ...] [--bot-attack SECONDS]``; the short form
runs in the tests (tests/server/test_server_hostile.py), the machinery is tests/server/hostile_check.py. Exits 1 on a
leak, or on a bot move past the server's deadline.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))  # the tests' server helpers

from hostile_check import Evening, figures, hostile_server, play_evening, rulesets

from bench.hostile_bots import bot_attack


def main() -> int:
    known = rulesets()
    parser = argparse.ArgumentParser(prog="python -m bench.hostile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--evenings", type=int, default=4, help="evenings per ruleset (default 4)")
    parser.add_argument("--hands", type=int, default=3, help="hands per stops evening (Rummy ones play one)")
    parser.add_argument("--rulesets", nargs="+", default=known, metavar="NAME", help="default: every built-in")
    parser.add_argument("--bot-attack", type=float, default=60, metavar="SECONDS",
                        help="seconds of the bot attack after the evenings (default 60; 0: none)")
    args = parser.parse_args()
    unknown = [r for r in args.rulesets if r not in known]
    if unknown or args.evenings < 1 or args.hands < 1 or args.bot_attack < 0:
        parser.error(f"no such ruleset: {', '.join(unknown)}" if unknown
                     else "--evenings and --hands are at least 1, --bot-attack at least 0")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the server is stopped, not left behind
    started = time.monotonic()
    played: list[Evening] = []
    with tempfile.TemporaryDirectory(prefix="rummoli-hostile-") as folder:
        server = hostile_server(Path(folder)).start()
        try:
            for k in range(args.evenings):
                for ruleset in args.rulesets:
                    evening = play_evening(server, ruleset, k, args.hands, timeout=300)
                    played.append(evening)
                    print(f"  {ruleset} evening {k + 1}: {evening.tally.frames} frames, {evening.tally.cards} cards, "
                          f"{len(evening.tally.leaks)} leaks, {evening.seconds:.1f} s", flush=True)
        finally:
            server.stop()
    print(figures(played))
    leaks = sum(len(e.tally.leaks) for e in played)
    print(f"{len(played)} evenings in {time.monotonic() - started:.0f} s; leaks {leaks}", flush=True)
    bounded = bot_attack(args.bot_attack) if args.bot_attack > 0 else True
    return 1 if leaks or not bounded else 0


if __name__ == "__main__":
    sys.exit(main())
