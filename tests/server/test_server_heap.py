"""The server's heap keeper (rummoli.server.heap): what survives is frozen out of the collector's way every
``every`` seconds, a sweep still finds cyclic garbage among frozen objects, and stopping puts the collector back
as it was (a test's server may run in the test's own process)."""

from __future__ import annotations

import asyncio
import gc

from rummoli.server.heap import GC_THRESHOLDS, HeapKeeper


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_survivors_are_frozen_each_interval_and_a_sweep_finds_frozen_cycles() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[int, int, int, tuple[int, int, int]]:
        keeper = HeapKeeper(every=0.1, sweep_every=0)
        keeper.start()
        try:
            thresholds = gc.get_threshold()
            frozen_at_start = gc.get_freeze_count()
            kept = [Node() for _ in range(5000)]  # long-lived objects made after the start (tracked by the collector)
            await asyncio.sleep(0.35)  # three intervals
            frozen_later = gc.get_freeze_count()
            # A cycle that is garbage only once frozen: no collection of the young finds it, a sweep does.
            a, b = Node(), Node()
            a.other, b.other = b, a
            await asyncio.sleep(0.25)
            del a, b
            found = keeper.sweep()
            assert len(kept) == 5000
            return frozen_at_start, frozen_later, found, thresholds
        finally:
            await keeper.stop()

    frozen_at_start, frozen_later, found, thresholds = asyncio.run(scenario())
    assert thresholds == GC_THRESHOLDS
    assert frozen_later >= frozen_at_start + 5000, (frozen_at_start, frozen_later)
    assert found >= 2, found
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
