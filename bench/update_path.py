"""The game server's update path, counted in instructions: this tree against a baseline commit.

    python -m bench.update_path [--baseline COMMIT] [--hands N] [--rulesets NAME,NAME,...] [--rounds R]

What a server does for each action on its event loop, apart from the sockets: the table applies the action,
and every seat's ``update`` text is built (:class:`rummoli.server.tables.updates.Updates`, the same object and
calls the server's hub makes). Here four people (two at Gin) play random legal actions at a table made as the
server makes it (``auto=False``, a person's forced lead asked of them), in one process, without a network.

Why this bench: the server's CPU per action (``bench.server``) is measured on a machine whose speed moves by half
from one hour to the next, and changes to the update path worth a few percent vanish in it. Counted by valgrind
(cachegrind, no cache simulation) with Python's hash seed fixed, the same code counts the same within a few tenths
of a percent (the same tree against itself: 0.0-0.3%). The count is the child's whole run less a run that stops
before the first action (imports, the table's making). Process CPU time per action is printed beside it, median of
``--rounds`` runs of each tree taken in turn (which goes first alternating): it moves with the machine, the count
does not.

The baseline (default ``HEAD``: what the working tree's changes do) is unpacked with ``git archive`` and its
compiled module built, as ``bench.bots_speed`` does; both trees are compiled to bytecode before they are run.
A ruleset the baseline does not know is reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bots_speed import ROOT, baseline_tree
from bench.interleave import count_instructions

_CHILD = r"""
import inspect, json, os, random, sys, time
from rummoli.bots.base import RandomBot
from rummoli.server.tables.updates import Updates
from rummoli.table import Seat, Table

ruleset, hands = sys.argv[1], int(sys.argv[2])
players = 2 if ruleset == "gin-rummy" else 4
options = {"auto": False, "hands": hands, "seed": "update-path"}
if "ask_forced" in inspect.signature(Table).parameters:
    options["ask_forced"] = True  # as the server makes its tables
table = Table(ruleset, [Seat(n) for n in ("Ann", "Bob", "Cy", "Dee")[:players]], **options)
updates, sent, chooser = Updates(), [0] * players, RandomBot(7)
if os.environ.get("UPDATE_PATH_UNTIMED"):
    sys.exit(0)
actions = 0
start = time.process_time()
while not table.over:
    if table.hand_over:
        table.next_hand()
    elif table.forced_due():
        table.step()
    else:
        seat = table.to_act()[0]
        legal = table.hand.legal_actions(table.hand_seats.index(seat))  # the person's choice: client work, cheap
        table.act(seat, chooser.pick([a.to_json() for a in legal]))
    actions += 1
    for seat in range(players):
        updates.text(table, seat, sent[seat], None, None)
        sent[seat] = table.seq
print(json.dumps({"actions": actions, "cpu": time.process_time() - start}))
"""


def run(src: Path, ruleset: str, hands: int) -> str:
    """What the child printed (its actions and their CPU time)."""
    done = subprocess.run([sys.executable, "-c", _CHILD, ruleset, str(hands)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(src)), cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}")
    return done.stdout


def instructions(src: Path, ruleset: str, hands: int) -> tuple[float, int]:
    """Instructions per action of the update path, and the number of actions."""
    def count(untimed: bool) -> tuple[int, str]:
        env = {"PYTHONPATH": str(src), "UPDATE_PATH_UNTIMED": "1" if untimed else ""}
        return count_instructions(["-c", _CHILD, ruleset, str(hands)], env)

    total, out = count(False)
    actions = int(json.loads(out.strip().splitlines()[-1])["actions"])
    return (total - count(True)[0]) / actions, actions


def cpu_per_action(src: Path, ruleset: str, hands: int) -> float:
    out = run(src, ruleset, hands)
    data = json.loads(out.strip().splitlines()[-1])
    return float(data["cpu"]) / int(data["actions"])


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.update_path")
    parser.add_argument("--baseline", default="HEAD", help="the commit to compare with (default: HEAD)")
    parser.add_argument("--hands", type=int, default=6, help="hands of each ruleset's evening")
    parser.add_argument("--rulesets", default="rummoli,gin-rummy,poch")
    parser.add_argument("--rounds", type=int, default=3, help="CPU-time runs of each tree, taken in turn")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench.update_path needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as folder:
        trees = {"this tree": ROOT / "src", "baseline": baseline_tree(args.baseline, Path(folder))}
        for src in trees.values():
            # Both trees compiled to bytecode first: a module first imported during the actions (the words of a
            # family) was otherwise compiled from source in a tree without its __pycache__, and counted.
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
        print(f"the server's update path per action, this tree against {args.baseline}: instructions (valgrind)"
              f" and process CPU (median of {args.rounds} runs each)")
        for ruleset in args.rulesets.split(","):
            counted: dict[str, tuple[float, int]] = {}
            cpu: dict[str, list[float]] = {name: [] for name in trees}
            try:
                for name, src in trees.items():
                    counted[name] = instructions(src, ruleset, args.hands)
                for r in range(args.rounds):  # the trees take turns, and which goes first alternates
                    for name, src in sorted(trees.items(), reverse=r % 2 == 1):
                        cpu[name].append(cpu_per_action(src, ruleset, args.hands))
            except RuntimeError as error:
                print(f"  {ruleset:10} not measured: {error}")
                continue
            new, old = counted["this tree"][0], counted["baseline"][0]
            new_cpu, old_cpu = (statistics.median(cpu[name]) for name in ("this tree", "baseline"))
            print(f"  {ruleset:10} {new / 1e3:8.1f} k against {old / 1e3:8.1f} k instructions = {old / new:.3f}x"
                  f" fewer ({counted['this tree'][1]} actions); CPU {new_cpu * 1e3:.3f} against"
                  f" {old_cpu * 1e3:.3f} ms = {old_cpu / new_cpu:.2f}x")


if __name__ == "__main__":
    main()
