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


class BotWorkers:
    """A pool of worker processes that make bot decisions.

    ``spawn`` start-up, so a worker never inherits a server's sockets, threads or event loop."""

    def __init__(self, workers: int = 1) -> None:
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))

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
