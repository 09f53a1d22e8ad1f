"""Bot speed against the code before issue 16, both measured in one run.

    python -m bench.bots_speed [--baseline COMMIT] [--rounds R] [--games G] [--hard-hands H] [--budget S]
                               [--decide-hands D] [--gin-hands N] [--straight-hands N]
                               [--only easy,normal,hard,decide,rummy-hard] [--instructions]

The baseline is the tree of ``--baseline`` (default ``47582e5``, the last commit before the work of issue 16),
taken with ``git archive`` into a temporary folder.  Each measurement runs in a fresh process whose
``PYTHONPATH`` points at one tree or the other, the two trees taking turns round after round, so a machine
shared with other work slows both alike.  Times are CPU seconds of that process (``time.process_time``),
not the wall clock.

* **sim**: ``rummoli sim`` on Rummoli (4 seats, ``--games`` deal sequences x 4 seatings of 20 hands, one
  worker, a fixed seed, after a short untimed run for the imports) with four easy bots, then four normal
  bots: hands per CPU second.  With ``--instructions``, also the instructions per hand of the same runs in
  each tree, counted once by valgrind: a figure the machine's changing speed does not move.
* **hard**: the hard stops bot in seat 0 of ``--hard-hands`` 4-player Rummoli hands (normal bots in the other
  seats), with its time budget (``--budget`` seconds, wall clock): worlds searched per CPU second, and per
  decision.
* **rummy-hard** (only when asked for: ``--only rummy-hard``): the hard Rummy-family bot in seat 0 of
  ``--gin-hands`` two-player Gin hands and then ``--straight-hands`` straight Rummy hands against a normal bot,
  the same seeded deals in both trees, at its time budget (``--budget``): the worlds it samples (each
  ``rummy_search.sample_world`` that returns one, counted by wrapping that function, whose name both trees
  share) per CPU second of its decisions that sampled any, and per such decision; then the same over its
  draw decisions alone, where both trees roll every candidate out in every world (this tree's Gin discard
  weighs up to 48 worlds without rollouts, which the older tree rolled out like a draw).

* **decide**: normal's decisions (those with a choice) over ``--decide-hands`` 4-player Rummoli hands of four
  normal bots, the same deals in both trees: CPU time per decision, p50 and p95 over all rounds (issue 16:
  p95 at most half the baseline's).

It prints each round's figures and the ratio of the sums (this tree over the baseline), with the median and range of
the rounds' own ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from bench.interleave import count_instructions

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "47582e5"

_CHILD = r"""
import contextlib, io, json, os, sys, time
mode = sys.argv[1]
if mode == "sim":
    bots, games = sys.argv[2], sys.argv[3]
    sys.argv = ["rummoli", "sim", "-r", "rummoli", "-b", bots, "-g", games, "-w", "1", "--json", "-s", "16"]
    from rummoli.cli import main
    warm = sys.argv[:]
    warm[warm.index("-g") + 1] = "1"
    sys.argv, argv = warm, sys.argv
    with contextlib.redirect_stdout(io.StringIO()):  # a first short run: the imports are not timed
        try:
            main()
        except SystemExit:
            pass
    sys.argv = argv
    if os.environ.get("BOTS_SPEED_UNTIMED"):  # only what comes before the timed part (see instructions)
        sys.exit(0)
    out = io.StringIO()
    start = time.process_time()
    with contextlib.redirect_stdout(out):
        try:
            main()
        except SystemExit:
            pass
    cpu = time.process_time() - start
    print(json.dumps({"hands": json.loads(out.getvalue())["hands"], "cpu": cpu}))
elif mode == "rummy-hard":
    import functools
    from rummoli.bots import make_bot, rummy_search
    from rummoli.bots.driver import play_out
    from rummoli.rummy import RummyGame
    sample = rummy_search.sample_world
    sampled = [0]
    def counted(*args, **kwargs):
        world = sample(*args, **kwargs)
        sampled[0] += world is not None
        return world
    rummy_search.sample_world = counted  # the bot looks the name up in its module at each world
    out = dict.fromkeys(("worlds", "decisions", "cpu", "draw worlds", "draw decisions", "draw cpu"), 0.0)
    def timed(view, choose):
        before, start = sampled[0], time.process_time()
        choice = choose(view)
        spent, worlds = time.process_time() - start, sampled[0] - before
        if worlds:  # as in hard: only the decisions that sampled a world
            for prefix in ("", "draw ") if view["phase"] == "draw" else ("",):
                out[prefix + "worlds"] += worlds
                out[prefix + "decisions"] += 1
                out[prefix + "cpu"] += spent
        return choice
    gin, straight, budget = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    for ruleset, i in [("gin-rummy", i) for i in range(gin)] + [("rummy", i) for i in range(straight)]:
        hard = make_bot("rummy", "hard", seed=i, budget=budget)
        hard.choose = functools.partial(timed, choose=hard.choose)
        hand = RummyGame(ruleset, ["Ann", "Bob"], seed=f"speed-{ruleset}-{i}").deal()
        play_out(hand, [hard, make_bot("rummy", "normal", seed=i)])
    print(json.dumps(out))
else:
    import random
    from rummoli.bots.driver import view_for
    from rummoli.bots.stops_bots import HardStopsBot, NormalStopsBot
    from rummoli.cards import CARDS
    from rummoli.dealing import deal_with_widow
    from rummoli.stops import Action, Hand
    from rummoli.stops.replay import NAMES
    hands, budget = int(sys.argv[2]), float(sys.argv[3])
    worlds = decisions = 0
    cpu = 0.0
    times = []
    for i in range(hands):
        rng = random.Random(f"speed-{i}")
        deck = list(CARDS)
        rng.shuffle(deck)
        dealer = rng.randrange(4)
        cards, widow = deal_with_widow(deck, 4, dealer)
        hand = Hand("rummoli", NAMES[:4], [100] * 4, {}, dealer, cards, widow)
        # hard: the hard bot in seat 0 among normal ones; decide: four normal bots
        bots = [HardStopsBot(i, budget) if s == 0 and mode == "hard" else NormalStopsBot(4 * i + s) for s in range(4)]
        while not hand.over:
            seat = hand.to_act()[0]
            view = view_for(hand, seat)
            start = time.process_time()
            choice = bots[seat].choose(view)
            spent = time.process_time() - start
            if mode == "decide" and len(view["legal_actions"]) > 1:
                times.append(spent)
            if mode == "hard" and seat == 0 and bots[0].last_worlds:
                worlds, decisions, cpu = worlds + bots[0].last_worlds, decisions + 1, cpu + spent
                bots[0].last_worlds = 0
            hand.apply(Action.from_json(choice))
    print(json.dumps({"worlds": worlds, "decisions": decisions, "cpu": cpu, "times": times}))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def baseline_tree(commit: str, into: Path) -> Path:
    """The ``src`` folder of ``commit``, unpacked under ``into``, with its compiled module built where it has one
    (as ``pip install -e .`` builds it: gcc, -O2). Without it a baseline from after the compiled core ran its
    pure-Python twins and the ratio overstated this tree."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    source = into / "src" / "rummoli" / "_speedups.c"
    if source.exists():
        built = source.with_name("_speedups" + sysconfig.get_config_var("EXT_SUFFIX"))
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}", str(source),
                        "-o", str(built)], check=True)
    return into / "src"


def child(src: Path, *args: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", _CHILD, *args], env=env, check=True, capture_output=True,
                          text=True, cwd=tempfile.gettempdir())
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def instructions(src: Path, *args: str) -> float:
    """The instructions per hand the child's timed sim runs (:func:`bench.interleave.count_instructions`): within a
    few tenths of a percent on every run, however fast the machine is that hour (its speed moves by half from one
    hour to the next here, and the sim's ratio with it). The child's whole run less a run that stops where the
    timing would start (imports and the short warm-up counted in both)."""
    def count(untimed: bool) -> tuple[int, str]:
        env = {"PYTHONPATH": str(src), "BOTS_SPEED_UNTIMED": "1" if untimed else ""}
        return count_instructions(["-c", _CHILD, *args], env)

    timed, out = count(False)
    hands = json.loads(out.strip().splitlines()[-1])["hands"]
    return (timed - count(True)[0]) / hands


def round_ratios(per_round: dict[tuple[str, str], list[float]], kind: str) -> str:
    """Each round's ratio (this tree's rate over the baseline's in that round): their median and range."""
    ratios = [n / o for n, o in zip(per_round[(kind, "this tree")], per_round[(kind, "baseline")], strict=True)]
    return f"each round's ratio: median {statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]"


def worlds_round(sums: dict[tuple[str, str], list[float]], per_round: dict[tuple[str, str], list[float]],
                 kind: str, name: str, out: dict[str, float], r: int, prefix: str = "") -> None:
    """One round's worlds of a hard bot (``prefix`` picks a subset of the child's figures): added to the sums and
    printed."""
    worlds, cpu, decisions = out[prefix + "worlds"], out[prefix + "cpu"], out[prefix + "decisions"]
    acc = sums.setdefault((kind, name), [0.0, 0.0, 0.0])
    acc[0] += worlds
    acc[1] += cpu
    acc[2] += decisions
    per_round.setdefault((kind, name), []).append(worlds / cpu)
    print(f"  round {r + 1} {kind} {name:9}: {worlds / cpu:7.0f} worlds per CPU s, {worlds / max(1, decisions):5.0f}"
          f" per decision ({decisions:.0f} decisions, {cpu:.1f} s)", flush=True)


def worlds_ratio(sums: dict[tuple[str, str], list[float]], per_round: dict[tuple[str, str], list[float]],
                 kind: str) -> None:
    new, old = sums[(kind, "this tree")], sums[(kind, "baseline")]
    print(f"  {kind} worlds: {new[0] / new[1]:7.0f} against {old[0] / old[1]:7.0f} per CPU s"
          f" = {(new[0] / new[1]) / (old[0] / old[1]):.2f}x; per decision {new[0] / new[2]:.0f}"
          f" against {old[0] / old[2]:.0f} = {(new[0] / new[2]) / (old[0] / old[2]):.2f}x;"
          f" {round_ratios(per_round, kind)}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots_speed")
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=3, help="deal sequences per sim run (x 4 seatings x 20 hands)")
    parser.add_argument("--hard-hands", type=int, default=3, help="hands per hard run")
    parser.add_argument("--budget", type=float, default=1.0, help="hard's seconds per decision")
    parser.add_argument("--decide-hands", type=int, default=100,
                        help="4-player Rummoli hands of four normal bots per decision-time run")
    parser.add_argument("--gin-hands", type=int, default=4, help="Gin hands per rummy-hard run")
    parser.add_argument("--straight-hands", type=int, default=2, help="straight Rummy hands per rummy-hard run")
    parser.add_argument("--only", default="easy,normal,hard,decide",
                        help="which measurements (easy, normal, hard, decide; rummy-hard only when named)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the sim's instructions per hand in each tree under valgrind (one run each)")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as folder:
        trees = {"baseline": baseline_tree(args.baseline, Path(folder)), "this tree": ROOT / "src"}
        print(f"baseline {args.baseline} against this tree; CPU seconds, {args.rounds} rounds, trees taking turns")
        sums: dict[tuple[str, str], list[float]] = {}
        per_round: dict[tuple[str, str], list[float]] = {}  # each round's rate: the rounds' ratios, median and range
        for r in range(args.rounds):
            for level in ("easy", "normal"):
                if level not in only:
                    continue
                for name, src in trees.items():
                    out = child(src, "sim", ",".join([level] * 4), str(args.games))
                    acc = sums.setdefault((level, name), [0.0, 0.0])
                    acc[0] += out["hands"]
                    acc[1] += out["cpu"]
                    per_round.setdefault((level, name), []).append(out["hands"] / out["cpu"])
                    print(f"  round {r + 1} sim {level:6} {name:9}: {out['hands'] / out['cpu']:7.1f} hands per CPU s"
                          f" ({out['hands']:.0f} hands, {out['cpu']:.2f} s)", flush=True)
            if "decide" in only:
                for name, src in trees.items():
                    out = child(src, "decide", str(args.decide_hands), "0")
                    got = sums.setdefault(("decide", name), [])
                    got.extend(out["times"])
                    p95 = 1000 * percentile(out["times"], 0.95)
                    sums.setdefault(("decide p95", name), []).append(p95)
                    print(f"  round {r + 1} normal's decisions {name:9}: p95 {p95:.2f} ms"
                          f" ({len(out['times'])} decisions with a choice)", flush=True)
            if "hard" in only:
                for name, src in trees.items():
                    out = child(src, "hard", str(args.hard_hands), str(args.budget))
                    worlds_round(sums, per_round, "hard", name, out, r)
            if "rummy-hard" in only:
                for name, src in trees.items():
                    out = child(src, "rummy-hard", str(args.gin_hands), str(args.straight_hands), str(args.budget))
                    worlds_round(sums, per_round, "rummy-hard", name, out, r)
                    worlds_round(sums, per_round, "rummy-hard draws", name, out, r, "draw ")
        if args.instructions:
            for level in ("easy", "normal"):
                if level in only:
                    counted = {name: instructions(src, "sim", ",".join([level] * 4), str(args.games))
                               for name, src in trees.items()}
                    new, old = counted["this tree"], counted["baseline"]
                    print(f"  sim {level:6} instructions per hand (valgrind): {new / 1e6:.2f} M against"
                          f" {old / 1e6:.2f} M = {old / new:.2f}x fewer", flush=True)
        print("ratios (this tree / baseline, sums over the rounds)")
        for level in ("easy", "normal"):
            if level in only:
                new, old = sums[(level, "this tree")], sums[(level, "baseline")]
                print(f"  sim {level:6}: {new[0] / new[1]:7.1f} against {old[0] / old[1]:7.1f} hands per CPU s"
                      f" = {(new[0] / new[1]) / (old[0] / old[1]):.2f}x; {round_ratios(per_round, level)}")
        if "decide" in only:
            new_t, old_t = sums[("decide", "this tree")], sums[("decide", "baseline")]
            for q, label in ((0.5, "p50"), (0.95, "p95")):
                a, b = percentile(new_t, q), percentile(old_t, q)
                print(f"  normal's decision {label} on 4-player Rummoli: {1000 * a:.2f} against {1000 * b:.2f} ms"
                      f" = {a / b:.2f}x (all rounds' decisions together)")
            # one round the machine was busier for (both trees take turns, but not at once) moves the pooled
            # tail; each round's own ratio does not depend on the others
            ratios = sorted(n / o for n, o in zip(sums[("decide p95", "this tree")], sums[("decide p95", "baseline")],
                                                  strict=True))
            print(f"  normal's decision p95, each round's ratio: {', '.join(f'{r:.2f}' for r in ratios)}; median"
                  f" {ratios[len(ratios) // 2]:.2f}x")
        if "hard" in only:
            worlds_ratio(sums, per_round, "hard")
        if "rummy-hard" in only:
            worlds_ratio(sums, per_round, "rummy-hard")
            worlds_ratio(sums, per_round, "rummy-hard draws")


if __name__ == "__main__":
    main()
