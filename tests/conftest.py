"""Settings for the whole suite."""

from __future__ import annotations

import os

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers more than the cores. Part of the suite's time is spent waiting (on a table's pace,
    a turn timer, a server starting, a browser's frame), and extra workers fill it: on two cores, two workers
    kept the machine 76% busy (8:08 for the suite), three 84-90%, four 94% (the same tree: 224.7 s against
    242.2 s, 280.5 s against 299.7 s on a slower day, 283.6 s against 290.4 s for a later tree). The tests
    that time bots and servers against their deadlines allow for a shared machine: they passed with three
    workers beside two benchmarks (a load of 5)."""
    return len(os.sched_getaffinity(0)) + 2
