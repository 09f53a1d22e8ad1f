"""The pace of a table (issue 30): how long a bot's move and each forced play wait before they are shown, and
the countdown between hands.

A page that received a whole run of forced plays in one update had to replay them itself, one by one, and fell
seconds behind the game. So the server sets the pace: a table whose forced plays are paced is a
``Table(auto=False)``, and each forced play is a change of its own, made after the pace by the table's owner
like a bot's move (re-checked against the table's ``seq``, dropped when the table moved on). At pace 0 the
forced plays stay inside the action that caused them (``auto=True``), as before.

Between hands the owner counts down ``Settings.hand_pause`` seconds; the next hand is dealt when the count ends
or as soon as every person connected to a seat they play themselves has said ``next``, whichever is first.
Bots never hold it up, nor does a player out of the evening (a stops player who could not ante), and with
nobody connected the countdown alone decides. The countdown lives in memory
only: after a restart, or when another process takes the table over, it starts again. Followers (other
processes showing the table) are told the owner's countdown with each change and whenever who is ready
changes, as they are told the turn clock.

>>> from pathlib import Path
>>> settings = Settings(data_dir=Path("."), bot_pace=1.5)
>>> pace_of("fast", settings)
Pace(bot=0.5, play=0.3, name='fast')
>>> pace_of(None, settings)
Pace(bot=1.5, play=0.6, name=None)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummoli.server.settings import Settings

if TYPE_CHECKING:
    from rummoli.server.tables.host import LiveTable

log = logging.getLogger("rummoli.server")

#: The paces a table's creator may choose: seconds before a bot's move is shown, seconds between forced plays.
PACES: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0), "fast": (0.5, 0.3), "normal": (1.0, 0.6), "slow": (2.0, 1.2),
}


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


@dataclass
class Countdown:
    """The owner's countdown to the next deal."""

    hand_no: int  # the hand whose end it follows (a seat change between hands moves the seq, not this)
    deadline: float  # loop time at which the next hand is dealt by itself
    ready: set[int] = field(default_factory=set)  # the seats that said next


@dataclass(frozen=True)
class Told:
    """A follower's copy of the owner's countdown, valid while the follower's copy is at ``seq``."""

    seq: int
    deadline: float  # this process's loop time
    ready: tuple[int, ...]
    waiting: tuple[int, ...]


# ---------------------------------------------------------------------------------------------- reading
def awaited(live: LiveTable, also: int | None = None) -> list[int]:
    """Owner: the seats whose next the deal waits for: people playing their own seat (no bot), still in the
    evening, with a client connected (``also``: a seat whose client is arriving, counted already)."""
    t = live.table
    seated = t.evening.seated()
    return [s for s in range(len(live.seats))
            if t.bots[s] is None and seated[s] and (live.connected(s) > 0 or s == also)]


def _running(live: LiveTable) -> Countdown | None:
    cd, t = live.countdown, live.table
    if cd is None or t is None or not t.hand_over or t.over or t.hand_no != cd.hand_no:
        return None
    return cd


def info(live: LiveTable, also: int | None = None) -> dict[str, Any] | None:
    """What clients are shown between hands: ``{"seconds", "ready", "waiting"}``; None during a hand."""
    now = asyncio.get_running_loop().time()
    if live.role == "follower":
        told = live.remote_next
        if told is None or told.seq != live.seq:
            return None
        waiting = list(told.waiting)
        if (also is not None and also not in told.ready and also not in waiting and live.table is not None
                and live.table.bots[also] is None):
            waiting = sorted([*waiting, also])
        return {"seconds": round(max(0.0, told.deadline - now), 2), "ready": list(told.ready), "waiting": waiting}
    cd = _running(live)
    if cd is None:
        return None
    return {"seconds": round(max(0.0, cd.deadline - now), 2), "ready": sorted(cd.ready),
            "waiting": [s for s in awaited(live, also) if s not in cd.ready]}


def key(shown: dict[str, Any] | None) -> tuple[Any, ...] | None:
    """What names a countdown as shown, for the cache of update texts (rummoli.server.tables.updates): a text made a
    tenth of a second ago may be sent again, not one made seconds ago."""
    if shown is None:
        return None
    return tuple(shown["ready"]), tuple(shown["waiting"]), round(shown["seconds"], 1)


def for_followers(live: LiveTable) -> dict[str, Any] | None:
    """Owner: the countdown as the followers are told it (with the change messages, and on its own)."""
    shown = info(live)
    return None if shown is None else {"seq": live.seq, **shown}


def told_from(message: object) -> Told | None:
    """Follower: the owner's countdown read from a bus message's ``next_hand`` (None if absent or odd)."""
    if not isinstance(message, dict):
        return None
    try:
        deadline = asyncio.get_running_loop().time() + float(message["seconds"])
        return Told(int(message["seq"]), deadline, tuple(int(s) for s in message["ready"]),
                    tuple(int(s) for s in message["waiting"]))
    except (KeyError, TypeError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------- doing
def plan(live: LiveTable) -> Awaitable[None] | None:
    """Owner, from LiveTable._plan_next: between hands, the countdown (started if this hand's end has none
    yet); during a hand, a forced play that is due, after the pace. None: neither (a bot or a person is due)."""
    t = live.table
    loop = asyncio.get_running_loop()
    if t.hand_over:
        cd = live.countdown
        if cd is None or cd.hand_no != t.hand_no:
            cd = live.countdown = Countdown(t.hand_no, loop.time() + live.manager.settings.hand_pause)
        return _deal_at(live, cd.hand_no, max(0.0, cd.deadline - loop.time()))
    live.countdown = None
    if t.forced_due():
        return _forced_step(live, int(t.seq), live.pace.play)
    return None


async def _forced_step(live: LiveTable, seq: int, delay: float) -> None:
    """One forced play, stored as its own change (kind "forced") and shown on its own."""
    await asyncio.sleep(delay)
    async with live.lock:
        t = live.table
        if t is None or live.stale or live.role != "owner" or t.seq != seq or not t.forced_due():
            return
        mark = len(t.journal)
        try:
            t.step()
        except Exception:
            log.exception("table %s: a forced play raised", live.id)
            await live._rebuild()
            return
        await live._commit("forced", None, seq, mark)
        live._plan()


async def _deal_at(live: LiveTable, hand_no: int, delay: float) -> None:
    await asyncio.sleep(delay)
    async with live.lock:
        await _deal_now(live, hand_no)


async def _deal_now(live: LiveTable, hand_no: int) -> None:
    """Under the lock: deal the hand after ``hand_no``, unless the table moved on (it was dealt already)."""
    await live._fresh()
    t = live.table
    if t is None or live.role != "owner" or not t.hand_over or t.over or t.hand_no != hand_no:
        return
    seen, mark = int(t.seq), len(t.journal)
    t.next_hand()
    live.countdown = None
    await live._commit("deal", None, seen, mark, full=True)
    live._plan()


def _all_ready(live: LiveTable, cd: Countdown) -> bool:
    people = awaited(live)
    return bool(people) and all(s in cd.ready for s in people)


async def mark_ready(live: LiveTable, seat: int, seq: int) -> None:
    """Owner: ``seat`` said next from the view at ``seq``; ignored unless the table is still there, between
    hands. Deals at once when every person awaited is ready; otherwise everyone is told who is."""
    async with live.lock:
        t, cd = live.table, _running(live)
        if cd is None or live.stale or live.role != "owner" or t.seq != seq or seat in cd.ready:
            return
        cd.ready.add(seat)
        if _all_ready(live, cd):
            await _deal_now(live, cd.hand_no)
            return
    live.manager.next_hand_changed(live)


async def presence_changed(live: LiveTable) -> None:
    """Owner: a client came or went between hands: the one still awaited may have gone, so deal if everyone
    left is ready; otherwise tell everyone who is awaited now."""
    if live.countdown is None or live.role != "owner":
        return
    async with live.lock:
        cd = _running(live)
        if cd is None or live.stale or live.role != "owner":
            return
        if _all_ready(live, cd):
            await _deal_now(live, cd.hand_no)
            return
    live.manager.next_hand_changed(live)
