"""What a hosted table does by itself (a host's :class:`Schedule`), and at what pace.

After every change the host plans the table's next move of its own: a forced play, a bot's move, the deal
after the countdown between hands, or, for a person with a turn timer, the safe default when the clock runs
out. Each is a task that waits, then re-checks the table's ``seq`` under the lock, and is dropped when the table
moved on. A person's seat with nobody connected is played by a bot after the grace period, and handed back
when they return.

The server sets the pace, so a page shows the game as it goes instead of replaying a batch: a table is a
``Table(auto=False)``, and each forced play is a change of its own, at every pace. A forced play must not show
that it was forced (issue 33): it is never batched with the action that caused it, and a bot's forced lead, pass
or keep (which the other seats are not told was forced) waits the bots' pace, as its chosen moves do, and a
person's is asked of them as a choice is (``Table(ask_forced=True)``); a play in a run, forced for everyone
alike, waits the forced plays' pace. Tables stored before this, made with ``auto=True`` at pace 0, keep their
forced plays inside the actions.

A bot's decision is bounded: past the server's ``bot_deadline`` (and a little more) its worker is replaced and
the seat plays the safe default, which the log says. A table whose bots fail ``BOT_FAILURES`` decisions in a row
is paused: its status "paused" is stored, so a restart brings it back paused instead of asking its bots again;
no bot move is planned for it (people may still act).

Between hands the host counts down ``Settings.hand_pause`` seconds; the next hand is dealt when the count ends
or as soon as every person connected to a seat they play themselves has said ``next``, whichever is first.
Bots never hold it up, nor does a player out of the evening (a stops player who could not ante), and with
nobody connected the countdown alone decides. The countdown and the turn clock live in memory only: after a
restart, or when another process takes the table over, they start again.

>>> from pathlib import Path
>>> settings = Settings(data_dir=Path("."), bot_pace=1.5)
>>> pace_of("fast", settings)
Pace(bot=0.5, play=0.3, name='fast')
>>> pace_of(None, settings)
Pace(bot=1.5, play=0.6, name=None)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from rummoli.errors import RummoliError
from rummoli.server.settings import Settings
from rummoli.server.tables.defaults import safe_default
from rummoli.server.tables.errors import ServerError

if TYPE_CHECKING:
    from rummoli.server.tables.host import Host

log = logging.getLogger("rummoli.server")

#: The paces a table's creator may choose: seconds before a bot's move is shown, seconds between forced plays.
PACES: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0), "fast": (0.5, 0.3), "normal": (1.0, 0.6), "slow": (2.0, 1.2),
}

#: bot decisions failed in a row (no answer in time, a broken worker, a refused choice) that pause a table
BOT_FAILURES = 3


@dataclass(frozen=True)
class Pace:
    bot: float  # seconds before a bot's move is shown
    play: float  # seconds between forced plays (0: made inside the action that caused them)
    name: str | None  # the creator's choice; None: the server's settings

    def info(self) -> dict[str, Any]:
        return {"bot": self.bot, "play": self.play, "name": self.name}


def pace_of(name: object, settings: Settings) -> Pace:
    """The pace named ``name`` (a table's stored option), or the server's for ``None`` (or a name this server
    does not know: the option comes from the store, which an older or newer server may have written)."""
    if isinstance(name, str) and name in PACES:
        bot, play = PACES[name]
        return Pace(bot, play, name)
    return Pace(settings.bot_pace, settings.play_pace, None)


def key(shown: dict[str, Any] | None) -> tuple[Any, ...] | None:
    """What names a countdown as shown, for the cache of update texts (rummoli.server.tables.updates): a text
    made a tenth of a second ago may be sent again, not one made seconds ago."""
    if shown is None:
        return None
    return tuple(shown["ready"]), tuple(shown["waiting"]), round(shown["seconds"], 1)


@dataclass
class Clock:
    """A person's turn timer."""

    seat: int
    seq: int
    deadline: float  # loop time


@dataclass
class Countdown:
    """The count to the next deal."""

    hand_no: int  # the hand whose end it follows (a seat change between hands moves the seq, not this)
    deadline: float  # loop time at which the next hand is dealt by itself
    ready: set[int] = field(default_factory=set)  # the seats that said next


class Schedule:
    """A host's moves of its own, its turn clock and its countdown (see the module's docstring)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.clock: Clock | None = None
        self.countdown: Countdown | None = None
        self._task: asyncio.Task[None] | None = None  # the table's next move of its own
        self._away: dict[int, asyncio.Task[None]] = {}  # seats nobody plays, until a bot takes them
        self.bot_failures = 0  # bot decisions failed in a row

    # ------------------------------------------------------------------------------------- reading
    def clock_info(self) -> dict[str, Any] | None:
        if self.clock is None:
            return None
        left = self.clock.deadline - asyncio.get_running_loop().time()
        return {"seat": self.clock.seat, "seconds": round(max(0.0, left), 2)}

    def clock_key(self) -> tuple[Any, ...] | None:
        return None if self.clock is None else (self.clock.seat, self.clock.seq, self.clock.deadline)

    def awaited(self, also: int | None = None) -> list[int]:
        """The seats whose next the deal waits for: people playing their own seat (no bot), still in the
        evening, with a client connected (``also``: a seat whose client is arriving, counted already)."""
        host = self.host
        t = host.room.table
        seated = t.evening.seated()
        return [s for s in range(len(host.room.seats))
                if t.bots[s] is None and seated[s] and (host.connected(s) > 0 or s == also)]

    def _running(self) -> Countdown | None:
        cd, t = self.countdown, self.host.room.table
        if cd is None or t is None or not t.hand_over or t.over or t.hand_no != cd.hand_no:
            return None
        return cd

    def next_hand_info(self, also: int | None = None) -> dict[str, Any] | None:
        """What clients are shown between hands: ``{"seconds", "ready", "waiting"}``; None during a hand."""
        cd = self._running()
        if cd is None:
            return None
        left = cd.deadline - asyncio.get_running_loop().time()
        return {"seconds": round(max(0.0, left), 2), "ready": sorted(cd.ready),
                "waiting": [s for s in self.awaited(also) if s not in cd.ready]}

    # ------------------------------------------------------------------------------------- planning
    def cancel_next(self) -> None:
        """Drop the move planned after the last change (unless it is the one running now)."""
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None

    def plan_next(self) -> None:
        """After a change: plan what the table does next by itself (the countdown between hands, a forced play,
        a bot's move, a person's clock)."""
        host = self.host
        t = host.room.table
        if t is None or t.over:
            self.clock, self.countdown = None, None
            return
        loop = asyncio.get_running_loop()
        # The move to make, as a function that makes its coroutine once the task runs: a coroutine made here and
        # cancelled with its task before the task started was never awaited (Python warns of it at collection).
        work: Callable[[], Awaitable[None]] | None = None
        if t.hand_over:
            cd = self.countdown
            if cd is None or cd.hand_no != t.hand_no:
                cd = self.countdown = Countdown(t.hand_no, loop.time() + host.room.registry.settings.hand_pause)
            work = partial(self._deal_at, cd.hand_no, max(0.0, cd.deadline - loop.time()))
        else:
            self.countdown = None
            if t.forced_due():
                pace = host.room.pace
                bot = any(t.bots[s] is not None for s in t.to_act())
                work = partial(self._forced_step, int(t.seq), pace.bot if bot and t.forced_hidden() else pace.play)
        if work is not None:
            self.clock = None
        elif (seat := t.bot_due()) is not None and host.room.status != "paused":
            self.clock = None
            work = partial(self._bot_move, seat, int(t.seq))
        else:
            timer = host.room.options.get("turn_timer")
            people = [s for s in t.to_act() if t.bots[s] is None]
            if timer and people:
                now = loop.time()
                if self.clock is None or self.clock.seq != t.seq or self.clock.seat != people[0]:
                    self.clock = Clock(people[0], int(t.seq), now + float(timer))
                work = partial(self._timeout, self.clock.seat, self.clock.seq, max(0.0, self.clock.deadline - now))
        if work is not None:
            self._task = loop.create_task(self._guard(work))

    async def _guard(self, work: Callable[[], Awaitable[None]]) -> None:
        try:
            await work()
        except asyncio.CancelledError:
            raise
        except ServerError as error:
            log.warning("table %s: %s", self.host.room.id, error.message)
        except Exception:
            log.exception("table %s: its own move failed", self.host.room.id)

    # ------------------------------------------------------------------------------------- moves
    async def _bot_move(self, seat: int, seq: int) -> None:
        host, room = self.host, self.host.room
        loop = asyncio.get_running_loop()
        started = loop.time()
        async with room.lock:
            t = room.table
            if t is None or room.stale or host.retired or t.seq != seq or t.bot_due() != seat:
                return
            view, bot = t.bot_view(seat), t.bots[seat]
        try:
            choice, bot = await room.registry.decide(bot, view)
            failed = None
        except Exception as error:  # no answer in time, a broken worker, a bug in the bot
            failed = f"{type(error).__name__}: {error}"
            choice = safe_default(view)
            log.warning("table %s: the bot at seat %s gave no answer (%s); it plays the safe default %s",
                        room.id, seat, failed, choice)
        rest = room.pace.bot - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        async with room.lock:
            t = room.table
            if room.stale or host.retired or t.seq != seq or t.bot_due() != seat:
                return
            mark = len(t.journal)
            try:
                t.apply_bot_choice(seat, choice or {}, bot)
            except RummoliError as error:
                # A bot's choice is checked like anyone's; a refused one is a bug to log, not to apply.
                log.error("table %s: bot at seat %s chose %s: %s", room.id, seat, choice, error)
                await self._bot_failed()
                return
            if not await host.run_at_once():
                return
            await host.commit("bot", seat, seq, mark)
            if failed is None:
                self.bot_failures = 0
            else:
                await self._bot_failed()
            host.plan()

    async def _bot_failed(self) -> None:
        """Under the lock: one more bot decision failed; the table pauses at :data:`BOT_FAILURES` in a row."""
        room = self.host.room
        self.bot_failures += 1
        if self.bot_failures >= BOT_FAILURES and room.status == "playing":
            log.error("table %s: its bots failed %s decisions in a row; the table is paused", room.id,
                      self.bot_failures)
            await self.host.store_fenced(room.registry.store.set_status, room.id, "paused", int(room.seq))
            room.status = "paused"
            self.host.seats_changed()  # every client (here and in other processes) is told the table paused

    async def resume(self) -> None:
        """Under the lock: the creator asks a paused table's bots again (their failures counted afresh)."""
        room = self.host.room
        if room.status != "paused":
            raise ServerError("unavailable", "this table is not paused", status=409)
        await self.host.store_fenced(room.registry.store.set_status, room.id, "playing", int(room.seq))
        room.status = "playing"
        self.bot_failures = 0
        log.warning("table %s: its creator resumed it; its bots are asked again", room.id)

    async def _forced_step(self, seq: int, delay: float) -> None:
        """One forced play, stored as its own change (kind "forced") and shown on its own."""
        await asyncio.sleep(delay)
        host, room = self.host, self.host.room
        async with room.lock:
            t = room.table
            if t is None or room.stale or host.retired or t.seq != seq or not t.forced_due():
                return
            mark = len(t.journal)
            try:
                t.step()
            except Exception:
                log.exception("table %s: a forced play raised", room.id)
                await room.rebuild()
                return
            if not await host.run_at_once():
                return
            await host.commit("forced", None, seq, mark)
            host.plan()

    async def _timeout(self, seat: int, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        room = self.host.room
        async with room.lock:
            t = room.table
            if t is None or room.stale or t.seq != seq or seat not in t.to_act() or t.bots[seat] is not None:
                return
            action = safe_default(t.view(seat)["hand"])
        if action is not None:
            with contextlib.suppress(ServerError):
                await self.host.act(seat, action, seq, kind="timer", timed_out=True)

    async def _deal_at(self, hand_no: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.host.room.lock:
            await self._deal_now(hand_no)

    async def _deal_now(self, hand_no: int) -> None:
        """Under the lock: deal the hand after ``hand_no``, unless the table moved on (it was dealt already)."""
        host, room = self.host, self.host.room
        await room.fresh()
        t = room.table
        if t is None or host.retired or not t.hand_over or t.over or t.hand_no != hand_no:
            return
        seen, mark = int(t.seq), len(t.journal)
        t.next_hand()
        self.countdown = None
        await host.commit("deal", None, seen, mark, full=True)
        host.plan()

    # ------------------------------------------------------------------------------------- between hands
    def _all_ready(self, cd: Countdown) -> bool:
        people = self.awaited()
        return bool(people) and all(s in cd.ready for s in people)

    async def mark_ready(self, seat: int, seq: int) -> None:
        """``seat`` said next from the view at ``seq``; ignored unless the table is still there, between
        hands. Deals at once when every person awaited is ready; otherwise everyone is told who is."""
        host, room = self.host, self.host.room
        async with room.lock:
            host.check_driving()
            t, cd = room.table, self._running()
            if cd is None or room.stale or t.seq != seq or seat in cd.ready:
                return
            cd.ready.add(seat)
            if self._all_ready(cd):
                await self._deal_now(cd.hand_no)
                return
        host.next_hand_changed()

    async def presence_changed(self) -> None:
        """A client came or went between hands: the one still awaited may have gone, so deal if everyone
        left is ready; otherwise tell everyone who is awaited now."""
        host, room = self.host, self.host.room
        if self.countdown is None or host.retired:
            return
        async with room.lock:
            cd = self._running()
            if cd is None or room.stale or host.retired:
                return
            if self._all_ready(cd):
                await self._deal_now(cd.hand_no)
                return
        host.next_hand_changed()

    # ------------------------------------------------------------------------------------- seats nobody plays
    def start_away(self, seat: int) -> None:
        """Nobody is connected to ``seat``: after the grace period a bot plays it."""
        self.back(seat)
        self._away[seat] = asyncio.get_running_loop().create_task(self._guard(partial(self._away_after, seat)))

    def back(self, seat: int) -> None:
        """Someone is connected to ``seat`` again: no bot will take it."""
        task = self._away.pop(seat, None)
        if task is not None:
            task.cancel()

    async def _away_after(self, seat: int) -> None:
        host = self.host
        settings = host.room.registry.settings
        await asyncio.sleep(settings.grace)
        self._away.pop(seat, None)
        if host.connected(seat) == 0 and host.room.table is not None and not host.retired:
            await host.set_bot(seat, settings.takeover_level)

    def start_clocks(self) -> None:
        """At the start of the evening, after a restart or a takeover: every person's seat with nobody
        connected starts its grace period."""
        host = self.host
        for seat, state in enumerate(host.room.seats):
            if state.person and host.connected(seat) == 0 and seat not in self._away:
                self.start_away(seat)

    def cancel(self) -> list[asyncio.Task[None]]:
        """Stop every task of the schedule (but the one running this): those cancelled."""
        current = asyncio.current_task()
        tasks = [t for t in (self._task, *self._away.values()) if t is not None and t is not current]
        for task in tasks:
            task.cancel()
        self._task, self._away = None, {}
        self.clock, self.countdown = None, None
        return tasks
