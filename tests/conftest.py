"""Settings for the whole suite."""

from __future__ import annotations

import os

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the cores. A quarter of the suite's time is spent waiting (on a table's
    pace, a turn timer, a server starting, a browser's frame), and an extra worker fills it: on two cores, two
    workers kept the machine 76% busy (8:08 for the suite) and three 90% (6:25), with no more CPU in all."""
    return len(os.sched_getaffinity(0)) + 1
