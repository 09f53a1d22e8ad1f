"""Bot decisions in worker processes, so that a thinking bot never holds up a server's other tables.

A bot is plain data (its level, its random generator, what it has learnt of its opponents), so it travels
to a worker by pickling and comes back the same way after deciding.  The table keeps the bot that comes
back (:meth:`rummoli.table.Table.apply_bot_choice`), so its generator and memory go on from where the
decision left them, exactly as if it had decided in-process.

Strength under load is set in worlds, not seconds: a ``hard`` bot made with ``samples`` searches that many
worlds whatever else the machine is doing.  A ``deadline`` (seconds from the request) still bounds the
wait: past it the search stops and the bot answers with its best so far (at least one world searched).

>>> from rummoli.bots.base import make_bot
>>> choice, bot = decide(make_bot("stops", "random", 1), {"legal_actions": [{"seat": 0, "action": "keep"}]})
>>> choice
{'seat': 0, 'action': 'keep'}
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from rummoli.bots.base import ActionJSON, Bot


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


class BotWorkers:
    """A pool of worker processes that make bot decisions.

    ``spawn`` start-up, so a worker never inherits a server's sockets, threads or event loop; each worker ends
    by itself if its parent dies."""

    def __init__(self, workers: int = 1) -> None:
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_watch_parent, initargs=(os.getpid(),))

    def submit(self, bot: Bot, view: dict[str, Any], seconds: float | None = None) -> Future[tuple[ActionJSON, Bot]]:
        """Start a decision; with ``seconds`` the bot answers its best so far once that much time has passed."""
        deadline = None if seconds is None else time.time() + seconds
        return self.pool.submit(decide, bot, view, deadline)

    async def decide(self, bot: Bot, view: dict[str, Any], seconds: float | None = None) -> tuple[ActionJSON, Bot]:
        """:meth:`submit` for an event loop: awaits the decision without blocking the loop."""
        return await asyncio.wrap_future(self.submit(bot, view, seconds))

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> BotWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
