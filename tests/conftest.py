"""Settings for the whole suite."""

from __future__ import annotations

import gc
import os
import sys

import pytest

# Python's compiled bytecode kept for the suite's processes (in __pycache__, which git ignores). Where
# PYTHONDONTWRITEBYTECODE is set (this machine sets it), every process the suite starts compiled each module it
# imported from source: the four test workers (the tests, rewritten by pytest, and the whole program), some sixty
# bot workers, the command-line runs. Importing the table and the bots of the three families took 0.24 CPU-s
# instead of 0.15. Set here, when pytest reads this file and before xdist starts its workers, so that they and
# every process they start inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers more than the cores. Part of the suite's time is spent waiting (on a table's pace,
    a turn timer, a server starting, a browser's frame), and extra workers fill it: on two cores, two workers
    kept the machine 76% busy (8:08 for the suite), three 84-90%, four 94% (the same tree: 224.7 s against
    242.2 s, 280.5 s against 299.7 s on a slower day, 283.6 s against 290.4 s for a later tree). The tests
    that time bots and servers against their deadlines allow for a shared machine: they passed with three
    workers beside two benchmarks (a load of 5)."""
    return len(os.sched_getaffinity(0)) + 2


def pytest_collection_finish(session: pytest.Session) -> None:
    """Each test process's garbage collector, once the tests are collected: what collection built (every test
    module, the program, pytest's own objects) is frozen out of the collector's sight, and the youngest generation
    is collected after 10,000 allocations instead of 700. The in-process tests allocate heavily (engines, bots,
    hypothesis), and each full collection walked all those long-lived objects again: in the engines' tests
    (tests/stops, tests/rummy, tests/poch, one process) collections took 2.25 of 28 CPU seconds, 0.6 with this.
    Cycles are still collected, a little later; a test that needs them gone at once calls ``gc.collect()``.
    Only the test processes: servers and bot workers are separate interpreters with their own settings."""
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
