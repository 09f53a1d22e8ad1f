"""Measuring several kinds of work fairly on a busy machine: interleaved rounds of thread CPU time.

Timing one contender after another with the wall clock lets the machine's other load, a CPU's clock and the
order decide the ratios (issue 34 found a printed 1.71x that was 1.05x measured this way). Here every round runs
each contender once, in a new order, for about the same thread CPU time, and a contender's figure is its units
of work per CPU second; the median of the rounds is reported with their range, and a ratio against a reference
measured in the same rounds.

Where even that moves too much (this machine's speed changes by half from one hour to the next), a run's
instructions are counted instead (:func:`count_instructions`): the same code counts the same within a few
tenths of a percent.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

#: a contender: one call does some work and returns how many units (hands, games, calls) it did
Work = Callable[[], int]


def rate_once(work: Work, seconds: float) -> float:
    """Units per thread-CPU second, calling ``work`` until ``seconds`` of this thread's CPU time have passed."""
    units = 0
    start = time.thread_time()
    while True:
        units += work()
        spent = time.thread_time() - start
        if spent >= seconds:
            return units / spent


def interleaved(works: dict[str, Work], rounds: int, seconds: float, seed: int = 0) -> dict[str, list[float]]:
    """Each contender's rate (units per CPU second) in every round, the order shuffled each round."""
    order = list(works)
    rng = random.Random(seed)
    rates: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            rates[name].append(rate_once(works[name], seconds))
    return rates


def report(rates: dict[str, list[float]], unit: str, reference: str | None = None) -> None:
    """One line per contender: the median rate with the rounds' range, and its ratio to ``reference``."""
    base = statistics.median(rates[reference]) if reference in rates else None
    for name, values in rates.items():
        median = statistics.median(values)
        ratio = f"  {median / base:6.2f}x {reference}" if base else ""
        print(f"  {name:34} {median:12,.1f} {unit}/CPU-s  [{min(values):,.1f}-{max(values):,.1f}]{ratio}")


def count_instructions(argv: list[str], env: dict[str, str]) -> tuple[int, str]:
    """The instructions a Python run (``python`` and ``argv``) executes, counted by valgrind (cachegrind, no cache
    simulation) with Python's hash seed fixed, and what it printed. ``env`` is added to this process's
    environment; the run starts in the temporary folder. A benchmark counts a run twice, whole and stopped before
    its measured part, and takes the difference: imports and warm-up cancel out."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           sys.executable, *argv], env={**os.environ, "PYTHONHASHSEED": "0", **env},
                          capture_output=True, text=True, cwd=tempfile.gettempdir())
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}")
    return int(found.group(1).replace(",", "")), done.stdout
