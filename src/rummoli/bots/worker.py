"""Bot decisions in worker processes, so that a thinking bot never holds up a server's other tables.

A bot is plain data (its level, its random generator, what it has learnt of its opponents), so it travels
to a worker by pickling and comes back the same way after deciding.  The table keeps the bot that comes
back (:meth:`rummoli.table.Table.apply_bot_choice`), so its generator and memory go on from where the
decision left them, exactly as if it had decided in-process.

Strength under load is set in worlds, not seconds: a ``hard`` bot made with ``samples`` searches that many
worlds whatever else the machine is doing.  A ``deadline`` (seconds from the request) still bounds the
wait: past it the search stops and the bot answers with its best so far (the search reads the clock inside
its rollouts too).  A worker that still gives no answer a little later (:data:`GRACE`) is ended and replaced
(:class:`NoAnswer` tells the caller, who plays a safe default): each worker is a pool of its own, so
replacing one never disturbs the decisions the others are making.

A worker starts when first needed, and a replacement at once: a new process that imports the bots
(:func:`_warm_up`, a quarter of a second on a quiet machine, several times that on a loaded one).  A decision
given to a starting worker waits for it first (:data:`STARTUP_WAIT` at most) and its time begins after: the
start-up is not counted against the bot's deadline, or the worker taken for stuck.

>>> from rummoli.bots.base import make_bot
>>> choice, bot = decide(make_bot("stops", "random", 1), {"legal_actions": [{"seat": 0, "action": "keep"}]})
>>> choice
{'seat': 0, 'action': 'keep'}
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.queues import SimpleQueue
from typing import Any, TypeVar

from rummoli.bots.base import ActionJSON, Bot

T = TypeVar("T")


def decide(bot: Bot, view: dict[str, Any], deadline: float | None = None) -> tuple[ActionJSON, Bot]:
    """The bot's choice for ``view`` and the bot as it is afterwards (run in a worker, or here)."""
    bot.deadline = deadline
    try:
        choice = bot.choose(view)
    finally:
        bot.deadline = None
    return choice, bot


def _watch_parent(parent: int) -> None:
    """In a worker: end when the process that started it is gone (killed with ``kill -9``, say).

    A pool's worker waits on a queue it also holds the writing end of, so it would otherwise wait forever.
    The worker ends as a killed process does, at once and without clean-up (nothing of it is wanted any more):
    it sends itself SIGTERM, which no worker handles (on Windows ``os.kill`` terminates the process)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _start_worker(parent: int, pids: SimpleQueue[int], nice: int = 0) -> None:
    """In a worker, first: tell the parent which process it is (so a stuck one can be ended), lower its
    priority by ``nice`` steps, then watch the parent."""
    pids.put(os.getpid())
    if nice:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(nice)
    _watch_parent(parent)


#: the levels that decide in milliseconds (no search): they have a worker of their own
QUICK = frozenset({"random", "easy", "normal"})

#: how many steps below the server's priority the aside worker runs (a coach's review: work beside the play,
#: which the play's own processes should always outrun)
ASIDE_NICE = 5

#: seconds past its deadline that a decision may still take (handing the answer back) before its worker is
#: taken for stuck and replaced
GRACE = 0.4


class NoAnswer(Exception):
    """A worker gave no answer in time (or broke): it has been replaced; nothing came back of the bot."""


def _no_answer(error: BaseException, wait: float | None) -> NoAnswer:
    return NoAnswer(f"no answer within {wait} s" if isinstance(error, TimeoutError) else "its worker process broke")


#: what a worker imports before its first decision: every family's bots and their searches
WARM_MODULES = ("rummoli.bots.stops_bots", "rummoli.bots.rummy_bots", "rummoli.bots.poch_bots")

#: seconds a decision waits for its worker to start (a new process importing the bots) before the worker is
#: taken for broken; a start-up is not counted against a bot's deadline
STARTUP_WAIT = 20.0


def _warm_up() -> list[str]:
    """In a new worker, before any decision: import the bots (a spawned process starts empty), and say which of
    our modules it holds."""
    for name in WARM_MODULES:
        importlib.import_module(name)
    return sorted(name for name in sys.modules if name.startswith("rummoli."))


class _Slot:
    """One worker process, in a pool of its own, and the decisions it has been given."""

    def __init__(self, nice: int = 0) -> None:
        context = multiprocessing.get_context("spawn")
        self.nice = nice
        self.pids: SimpleQueue[int] = context.SimpleQueue()
        self.pool = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_start_worker,
                                        initargs=(os.getpid(), self.pids, nice))
        self.busy = 0
        self.warm: Future[list[str]] | None = None  # the start-up, once asked for (a slot starts when first needed)

    def started(self) -> Future[list[str]]:
        """The worker's start-up (:func:`_warm_up`), begun now if it was not yet: the process is spawned and
        imports the bots while the caller waits, or does something else."""
        if self.warm is None:
            self.warm = self.pool.submit(_warm_up)
        return self.warm

    def end(self) -> None:
        """End the worker at once, whatever it is doing, and its pool."""
        while not self.pids.empty():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pids.get(), signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
        self.pool.shutdown(wait=False, cancel_futures=True)


def _shut_down(slots: list[_Slot], aside: _Slot | None) -> None:
    """Wait for the slots' decisions to end, and end the aside's job at once (a review is not waited for).  A
    function of its own so that no loop variable keeps a slot alive once :meth:`BotWorkers.close` lets go."""
    for slot in slots:
        slot.pool.shutdown(wait=True, cancel_futures=True)
    if aside is not None:
        aside.end()


class BotWorkers:
    """Worker processes that make bot decisions.

    ``spawn`` start-up, so a worker never inherits a server's sockets, threads or event loop; each worker ends
    by itself if its parent dies.  A decision goes to the least busy worker; a quick one (a level that does
    not search) to a worker of its own, started when first needed, so that it never waits behind searches
    that take seconds (a table of easy bots keeps its pace beside tables of hard ones)."""

    def __init__(self, workers: int = 1) -> None:
        self.slots = [_Slot() for _ in range(max(1, workers))]
        self.quick: _Slot | None = None
        self.aside: _Slot | None = None
        #: workers replaced because they gave no answer in time
        self.replaced = 0
        self.closed = False

    def _slot(self, quick: bool = False) -> _Slot:
        self._check_open()
        if quick:
            if self.quick is None:
                self.quick = _Slot()
            return self.quick
        return min(self.slots, key=lambda slot: slot.busy)

    def submit(self, bot: Bot, view: dict[str, Any], seconds: float | None = None) -> Future[tuple[ActionJSON, Bot]]:
        """Start a decision; with ``seconds`` the bot answers its best so far once that much time has passed."""
        return self._start(self._slot(), bot, view, seconds)

    def _start(self, slot: _Slot, bot: Bot, view: dict[str, Any],
               seconds: float | None) -> Future[tuple[ActionJSON, Bot]]:
        deadline = None if seconds is None else time.time() + seconds
        slot.busy += 1
        future = slot.pool.submit(decide, bot, view, deadline)

        def done(_: object) -> None:
            slot.busy -= 1

        future.add_done_callback(done)
        return future

    async def decide(self, bot: Bot, view: dict[str, Any], seconds: float | None = None,
                     wait: float | None = None) -> tuple[ActionJSON, Bot]:
        """:meth:`submit` for an event loop: awaits the decision without blocking the loop.  Past ``wait``
        seconds (by default ``seconds`` and :data:`GRACE`) the worker is replaced and :class:`NoAnswer` raised;
        likewise if the worker broke."""
        slot = self._slot(quick=bot.level in QUICK)
        warm = slot.started()
        if not warm.done():
            # A worker starting (the first decision it is given, or the first after a stuck one was replaced)
            # is not stuck: the decision's time starts once it can think. Counted against the deadline, a
            # start-up on a loaded machine gave no answer in time, and so did the replacement's, until the
            # table was paused for its bots' failures (seen in CI: seven hard bots, a 0.5 s deadline).
            try:
                # shielded: another decision may be waiting for the same start-up
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(warm)), STARTUP_WAIT)
            except (TimeoutError, BrokenProcessPool) as error:
                self.replace(slot)
                raise _no_answer(error, STARTUP_WAIT) from None
        future = self._start(slot, bot, view, seconds)
        if wait is None and seconds is not None:
            wait = seconds + GRACE
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), wait)
        except (TimeoutError, BrokenProcessPool) as error:
            self.replace(slot)
            raise _no_answer(error, wait) from None

    async def run_aside(self, job: Callable[..., T], *args: Any, wait: float) -> T:
        """``job(*args)`` in the aside worker: one of these workers kept for long jobs beside the play (a
        coach's review takes seconds), started when first needed and :data:`ASIDE_NICE` steps below the
        server, so that a table's bot never waits behind such a job.  Jobs wait their turn there.  Past
        ``wait`` seconds (the wait in line included) the worker is ended, whatever it was doing, and replaced:
        :class:`NoAnswer` tells the caller, as it does when the worker broke."""
        self._check_open()
        if self.aside is None:
            self.aside = _Slot(nice=ASIDE_NICE)
        slot = self.aside
        future = slot.pool.submit(job, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), wait)
        except (TimeoutError, BrokenProcessPool) as error:
            if slot is self.aside:  # not replaced already by a job before this one
                self.replace(slot)
            raise _no_answer(error, wait) from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if future.cancelled() and task is not None and not task.cancelling():
                # this job waited in line when a job before it ended the worker: not this caller's cancelling
                raise NoAnswer("its worker process was replaced") from None
            raise

    def replace(self, slot: _Slot) -> None:
        """End a worker (stuck, or broken) and start another in its place (none once closed)."""
        if not self.closed:
            fresh = _Slot(nice=slot.nice)
            if slot is self.quick:
                self.quick = fresh
            elif slot is self.aside:
                self.aside = fresh
            elif slot in self.slots:
                self.slots[self.slots.index(slot)] = fresh
            fresh.started()  # its start-up begins now, not when the next decision comes
        self.replaced += 1
        slot.end()

    def close(self) -> None:
        _shut_down([*self.slots, *([] if self.quick is None else [self.quick])], self.aside)
        # Let go of every slot and collect now, so that their queues' semaphores are released: a server stopped by
        # a signal ends without running finalizers, and multiprocessing's tracker then reported them as leaked.
        self.slots, self.quick, self.aside, self.closed = [], None, None, True
        gc.collect()

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("the bot workers are closed: no more decisions")

    def __enter__(self) -> BotWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
