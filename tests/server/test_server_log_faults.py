"""Every test server's log is checked at its stop for Python's words for dropped asyncio work
(server_helpers.LOG_FAULTS). This holds the check to the words CPython really writes: a program that makes each
fault once, its output read by the same function."""

from __future__ import annotations

import subprocess
import sys

from server_helpers import LOG_FAULTS, log_faults

DROPS = r"""
import asyncio, gc

async def move():
    await asyncio.sleep(0)

async def fails():
    raise ValueError("nobody reads this")

async def forever():
    await asyncio.Event().wait()

async def main():
    move()  # a coroutine made and never awaited
    task = asyncio.get_running_loop().create_task(fails())
    await asyncio.sleep(0.01)
    del task  # its error never retrieved
    gc.collect()

asyncio.run(main())
loop = asyncio.new_event_loop()
loop.create_task(forever())  # a task still pending when its loop is thrown away
loop.run_until_complete(asyncio.sleep(0.01))
loop.close()
del loop
gc.collect()
"""


def test_the_log_check_finds_each_dropped_piece_of_work_in_pythons_own_words() -> None:
    done = subprocess.run([sys.executable, "-c", DROPS], capture_output=True, text=True, timeout=60)
    found = log_faults(done.stderr)
    assert all(any(fault in line for line in found) for fault in LOG_FAULTS), (LOG_FAULTS, done.stderr[-2000:])
    assert log_faults("INFO: table abc: hand 3 dealt\nWARNING: a move was refused") == []
