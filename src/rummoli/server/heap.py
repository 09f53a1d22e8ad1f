"""Short garbage-collector pauses for a server whose memory is mostly tables in play.

The tables' state (hands, journals, event logs) is hundreds of thousands of Python objects that live for
an evening. Python's cyclic collector examines all of them in each full collection, and with the heap
growing as the evenings go on it runs one every few seconds: at 200 tables such a pause was measured at
100 to 500 ms, during which no table answered (most of the p99 of ``bench.server``). The server makes
almost no cyclic garbage (the objects a running server drops are freed as soon as nothing refers to
them), so the collector has little to find among old objects.

:class:`HeapKeeper` therefore, every ``every`` seconds, collects the young generations (cheap: only what is
new) and freezes what survives (:func:`gc.freeze`): frozen objects are never examined again, so every
collection stays short. Cyclic garbage made of frozen objects is only found by a *sweep*, a full
collection of everything, which it runs every ``sweep_every`` seconds (one pause of the old length, rarely).

How often to freeze: the collection before each freeze examines everything that survived since the last, so
its pause grows with the interval and the load. At 2,000 people-paced tables (``python -m bench.server
--tables 2000 --think 3 5``, about 500 actions a second) freezing every 10 s paused every table for 100-250
ms each time (a p99 of 140 ms); every second, for 20-70 ms (p99 38 ms, the slowest update 80 ms). At 200
tables the CPU per action was the same either way (1.56-1.69 against 1.59-1.67 ms, two runs each) and the
slowest update went from 62-66 to 14-16 ms. Hence the server's default of one second.

It also lets the youngest generation grow to 10,000 objects (:data:`GC_THRESHOLDS`) before it is
collected (Python's default is 700). Most of what a change allocates (the messages read and written, the
update texts' pieces) is freed by reference counting within the same turn of the loop; with the default, many
such objects were still alive when a collection came and were examined, then examined again one generation
up. Measured with two copies of a 2-process site playing at the same time (``bench.cluster``'s load, 100
tables each, 3 rounds): 0.99 times the server CPU per action of the default.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger("rummoli.server")

# The generations' thresholds: the youngest is collected after 10,000 new objects, the middle one after 20 of
# those collections, the oldest as Python does it (Python's defaults: 700, 10, 10).
GC_THRESHOLDS = (10_000, 20, 10)


class HeapKeeper:
    """Freeze what survives every ``every`` seconds; sweep everything every ``sweep_every`` (0: never)."""

    def __init__(self, every: float, sweep_every: float) -> None:
        self.every = every
        self.sweep_every = sweep_every
        self.swept = time.monotonic()
        self.found = 0  # cyclic garbage found by sweeps (frozen objects that were no longer used)
        self._task: asyncio.Task[None] | None = None
        self._threshold = gc.get_threshold()  # put back by stop (a test's server runs in the test's process)

    def start(self) -> None:
        if self.every > 0 and self._task is None:
            gc.set_threshold(*GC_THRESHOLDS)
            self.freeze()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()
        gc.set_threshold(*self._threshold)

    def freeze(self) -> None:
        gc.collect(1)
        gc.freeze()

    def sweep(self) -> int:
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.swept = time.monotonic()
        self.found += found
        return found

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self.sweep_every > 0 and time.monotonic() - self.swept >= self.sweep_every:
                started = time.perf_counter()
                found = self.sweep()
                log.info("heap sweep: %d unreachable objects, %.0f ms", found, (time.perf_counter() - started) * 1e3)
            else:
                self.freeze()
