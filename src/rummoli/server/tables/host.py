"""Tables in play: each a :class:`~rummoli.table.Table` with its seats, its clients, its bots and its clock.

The rule every change follows (docs/ARCHITECTURE.md): under the table's lock, hand the
change to the table (which checks it and changes nothing on error), store what it added to the table's
journal in one transaction that moves the stored ``seq`` from the value seen before to the new one, and only
then tell the hub, whose listeners each fetch what their own seat may see. If the store refuses, the table is
rebuilt from the store and the change is reported as not made.

What is stored per change (``actions.payload``) is the journal entries the change added (the deck of a deal,
a decision, a bot taking a seat over...) and the state of each bot that changed (its generator and
memory). A restart restores the latest snapshot, appends those journal entries and bot states, and lets
:meth:`Table.restore` replay them: the same views, legal actions, chips and cards to come.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rummoli.bots.worker import BotWorkers, decide
from rummoli.errors import IllegalAction, MalformedInput, RummoliError
from rummoli.server.cluster.bus import Bus, BusDown
from rummoli.server.cluster.deaths import DeathWatch, connector
from rummoli.server.jsontext import dumps, loads
from rummoli.server.rulesets import ruleset_title
from rummoli.server.settings import Settings
from rummoli.server.storage.rows import Recovery, SeatRow, StoreConflict, TableRow, token_hash
from rummoli.server.storage.store import LIVENESS_KEY, Liveness, Store
from rummoli.server.storage.writer import StoreWriter
from rummoli.server.tables import schedule as pacing
from rummoli.server.tables.defaults import safe_default
from rummoli.server.tables.eviction import over_to_drop
from rummoli.server.tables.hub import Hub
from rummoli.server.tables.updates import Updates

log = logging.getLogger("rummoli.server")


class ServerError(Exception):
    """A refusal the client should read: ``code`` as in the protocol, ``rule`` when a rule forbids it."""

    def __init__(self, code: str, message: str, rule: str | None = None, seq: int | None = None,
                 status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.rule, self.seq, self.status = code, message, rule, seq, status


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def merge_snapshot(snapshot: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The snapshot of a table after ``actions`` (stored changes, in order) on top of ``snapshot``.

    >>> snap = {"journal": [["deal", []]], "bots": [None, {"rng": 1}]}
    >>> merge_snapshot(snap, [{"payload": {"journal": [["act", 0, {}]], "bots": {"1": {"rng": 2}}}}])
    {'journal': [['deal', []], ['act', 0, {}]], 'bots': [None, {'rng': 2}]}
    """
    journal = list(snapshot["journal"])
    bots = list(snapshot["bots"])
    for action in actions:
        journal.extend(action["payload"].get("journal", []))
        for seat, state in action["payload"].get("bots", {}).items():
            bots[int(seat)] = state
    return {**snapshot, "journal": journal, "bots": bots}


def _change_parts(message: dict[str, Any]) -> tuple[int, str, int, int] | None:
    """Of an owner's "change" message (TableManager.tell_change): where its journal entries start, their JSON
    text, how many there are and the seq they lead to; None for a message that lacks one of them.

    >>> _change_parts({"at": 4, "entries": 1, "seq": 9, "texts": {"journal": '[["act",0,{}]]', "1": "{}"}})
    (4, '[["act",0,{}]]', 1, 9)
    >>> _change_parts({"at": 4, "entries": 1, "seq": 9, "texts": {}}) is None
    True
    """
    at, count, seq, texts = message.get("at"), message.get("entries"), message.get("seq"), message.get("texts")
    journal = texts.get("journal") if isinstance(texts, dict) else None
    if (not isinstance(at, int) or not isinstance(count, int) or count < 0 or not isinstance(seq, int)
            or not isinstance(journal, str)):
        return None
    return at, journal, count, seq


@dataclass
class Clock:
    seat: int
    seq: int
    deadline: float  # loop time


@dataclass
class LiveTable:
    """One table in this process (see the module's docstring)."""

    id: str
    options: dict[str, Any]
    creator_seat: int
    seats: list[SeatRow]
    manager: TableManager
    status: str = "waiting"  # waiting | playing | over
    _table: Any = None  # rummoli.table.Table once the evening has started (read it as ``table``)
    created_at: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    present: dict[int, int] = field(default_factory=dict)
    clock: Clock | None = None
    countdown: pacing.Countdown | None = None  # owner: between hands, the count to the next deal
    _task: asyncio.Task[None] | None = None
    _away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    _bot_states: list[Any] = field(default_factory=list)
    _updates: Updates = field(default_factory=Updates)
    # Several processes (docs/deploy.md). The owner drives the table; a follower keeps a copy that replays
    # the owner's stored changes, shows it to its own clients and forwards their commands to the owner.
    role: str = "owner"  # owner | follower
    fence: int | None = None  # the owner's fencing number (None: a single process, no leases)
    owner: str | None = None  # a follower's idea of which process owns the table (None: ask the database)
    stale: bool = False  # the table in memory may differ from the store: rebuild it before anything else
    remote: dict[str, dict[int, int]] = field(default_factory=dict)  # owner: other processes' clients per seat
    owner_infos: list[dict[str, Any]] | None = None  # follower: the seats as the owner last described them
    remote_clock: tuple[int, int, float] | None = None  # follower: the owner's turn clock (seat, seq, deadline)
    remote_next: pacing.Told | None = None  # follower: the owner's countdown between hands
    idle_since: float | None = None  # follower: when its last client left (it is dropped after a while)
    _change: dict[str, Any] | None = None  # owner: the stored change its followers are told of next
    # Follower: the owner's changes not replayed on the copy yet (each change's journal entries as the JSON text
    # they came in), how many entries they hold, the seq they lead to, and the update texts the owner made for
    # the last of them (see follow_change).
    _unplayed: list[str] = field(default_factory=list)
    _unplayed_count: int = 0
    _unplayed_seq: int = 0
    _told: dict[str, Any] | None = None

    # ------------------------------------------------------------------------------------- reading
    @property
    def table(self) -> Any:
        """The table; a follower's copy first replays the owner's changes it has not needed yet."""
        if self._unplayed:
            self._catch_up_copy()
        return self._table

    @table.setter
    def table(self, value: Any) -> None:
        self._table, self._unplayed, self._unplayed_count, self._told = value, [], 0, None

    @property
    def seq(self) -> int:
        if self._unplayed:
            return self._unplayed_seq
        return 0 if self._table is None else int(self._table.seq)

    @property
    def game(self) -> str:
        return str(self.options["game"])

    def seat_of_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for seat, state in enumerate(self.seats):
            if state.token_hash is not None and secrets.compare_digest(state.token_hash, hashed):
                return seat
        return None

    def connected(self, seat: int) -> int:
        """How many clients of ``seat`` are connected, to this process and (for an owner) to the others."""
        return self.present.get(seat, 0) + sum(counts.get(seat, 0) for counts in self.remote.values())

    def seat_infos(self) -> list[dict[str, Any]]:
        bots = self.table.bots if self.table is not None else [None] * len(self.seats)
        told = self.owner_infos if self.role == "follower" else None
        out = []
        for seat, state in enumerate(self.seats):
            playing_bot = bots[seat].level if bots[seat] is not None else state.bot
            here = self.connected(seat) > 0
            if told is not None and seat < len(told):
                here = here or bool(told[seat].get("connected"))
            out.append({"seat": seat, "name": state.name, "bot": playing_bot, "person": state.person,
                        "open": state.person and state.token_hash is None and not state.left,
                        "connected": here})
        return out

    @property
    def pace(self) -> pacing.Pace:
        """The table's pace (rummoli.server.tables.schedule): its creator's choice, else the server's settings. A table
        made with forced plays inside the actions (``auto``) keeps them there, whatever the settings say now."""
        chosen = pacing.pace_of(self.options.get("pace"), self.manager.settings)
        if self._table is not None and self._table.auto and chosen.play > 0:
            return pacing.Pace(chosen.bot, 0.0, chosen.name)
        return chosen

    def summary(self, base_url: str, stored: TableRow | None = None) -> dict[str, Any]:
        """What anyone may see of the table; ``stored``: a table this process does not hold, as stored."""
        infos = self.seat_infos()
        hand_no = self.table.hand_no if self.table is not None else stored.hand_no if stored is not None else 0
        return {
            "id": self.id, "game": self.game, "ruleset": self.options["ruleset_name"],
            "title": ruleset_title(self.options["ruleset"], self._table), "seats": infos,
            "open_seats": sum(1 for s in infos if s["open"]) if self.status == "waiting" else 0,
            "hand_no": hand_no, "seq": self.seq if stored is None else stored.seq,
            "over": self.status == "over", "turn_timer": self.options.get("turn_timer"), "pace": self.pace.info(),
            "created_at": self.created_at, "invite": invite_link(base_url, self.id),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        if self.table is None:
            return {"seq": 0, "waiting": True, "over": self.status == "over", "you": seat}
        view: dict[str, Any] = self.table.view(seat)
        return view

    def events_since(self, seq: int, seat: int | None) -> list[dict[str, Any]]:
        if self.table is None or seq >= self.table.seq:
            return []
        events: list[dict[str, Any]] = self.table.events_since(max(0, seq), seat)
        return events

    def update_text(self, seat: int | None, since: int) -> str:
        """The update message for a client of ``seat`` that was last sent ``since`` (rummoli.server.tables.updates)."""
        if self._table is None:
            return dumps({"type": "update", "seq": 0, "events": [], "view": self.view(seat), "clock": None})
        told = self._told
        if told is not None and told["seq"] == self.seq and told["since"] == since:
            text = told["texts"].get("s" if seat is None else str(seat))
            if isinstance(text, str):
                return text
        next_hand = self.next_hand_info()
        key = (None if self.clock is None else (self.clock.seat, self.clock.seq, self.clock.deadline),
               self.remote_clock, pacing.key(next_hand))
        return self._updates.text(self.table, seat, since, self.clock_info(), key, next_hand)

    def texts_for_followers(self, since: int) -> dict[str, str]:
        """Owner: the update texts, after the change just stored, for the seats other processes show (they
        send them as they are instead of replaying the change and working the views out again)."""
        seats = {seat for counts in self.remote.values() for seat, n in counts.items() if n > 0}
        return {str(seat): self.update_text(seat, since) for seat in sorted(seats)}

    def next_hand_info(self, also: int | None = None) -> dict[str, Any] | None:
        """Between hands: the countdown and who is ready (``also``: a seat whose client is arriving)."""
        return pacing.info(self, also)

    def clock_info(self) -> dict[str, Any] | None:
        now = asyncio.get_running_loop().time()
        if self.role == "follower":
            if self.remote_clock is None or self.remote_clock[1] != self.seq:
                return None
            return {"seat": self.remote_clock[0], "seconds": round(max(0.0, self.remote_clock[2] - now), 2)}
        if self.clock is None:
            return None
        return {"seat": self.clock.seat, "seconds": round(max(0.0, self.clock.deadline - now), 2)}

    # ------------------------------------------------------------------------------------- storing
    def _changed_bots(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for seat, bot in enumerate(self.table.bots):
            state = None if bot is None else bot.state()
            if state != self._bot_states[seat]:
                out[str(seat)] = state
                self._bot_states[seat] = state
        return out

    async def _commit(self, kind: str, seat: int | None, seen_seq: int, journal_from: int,
                      extra: dict[str, Any] | None = None, full: bool = False, answers: str | None = None) -> None:
        """Store the change the table just made (see the module's docstring), then tell the listeners."""
        t = self.table
        payload = {"journal": t.journal[journal_from:], "bots": self._changed_bots(), **(extra or {})}
        new_seq = int(t.seq)
        snapshot = t.snapshot() if full or new_seq == seen_seq else None
        status = "over" if t.over else "playing"
        fence = self.fence  # the lease upkeep may demote the table while the change is being stored
        try:
            await self.manager.writer.append(self.id, seen_seq, new_seq, kind, seat, payload, snapshot, status,
                                             fence, t.hand_no)
        except StoreConflict:
            if fence is None:
                # Nothing else writes this table in a single process: the store is not what this process
                # thinks. Believe the store.
                log.error("table %s: the store is no longer at seq %s; rebuilding the table from it", self.id,
                          seen_seq)
                await self._rebuild()
                raise ServerError("unavailable", "the table was not where this server thought; nothing changed, "
                                                 "try again", seq=self.seq, status=503) from None
            # Another process took the table over (this one's lease ran out): it may write nothing more.
            log.warning("table %s: fenced off (fence %s); another process drives it now", self.id, fence)
            self.manager.demote(self)
            raise ServerError("unavailable", "another server process drives this table now; nothing changed, "
                                             "try again", status=503) from None
        except Exception as error:
            log.error("table %s: storing a %s failed (%s); rebuilding it from the store", self.id, kind,
                      type(error).__name__)
            await self._rebuild()
            raise ServerError("unavailable", "the change could not be stored (the database does not answer); "
                                             "nothing changed, try again", seq=self.seq, status=503) from None
        self.status = status
        if snapshot is not None and kind == "deal":
            with contextlib.suppress(Exception):  # old snapshots only cost space
                self.manager.writer.later(self.manager.store.prune_snapshots, self.id, new_seq)
        self.manager.hub.publish(self.id)
        self._change = {"at": journal_from, "journal": payload["journal"], "seq": new_seq, "status": status,
                        "since": seen_seq}
        if answers is not None:
            self._change["answers"] = answers

    async def _rebuild(self) -> None:
        """The table as stored; if the store does not answer, the table is marked stale (nothing reads it
        until a rebuild succeeds)."""
        self.stale = True
        try:
            recovery = await asyncio.to_thread(self.manager.store.recover, self.id)
        except Exception as error:
            log.warning("table %s: cannot rebuild from the store yet (%s)", self.id, type(error).__name__)
            return
        if recovery is not None:
            self._restore(recovery)
        self.stale = False

    async def _fresh(self) -> None:
        """Under the lock, before a change: a stale table is rebuilt first, or the change is refused."""
        if self.stale:
            await self._rebuild()
            if self.stale:
                raise ServerError("unavailable", "the database does not answer; nothing changed, try again",
                                  seq=self.seq, status=503)

    def _restore(self, recovery: Recovery) -> None:
        from rummoli.table import Table

        self.table = Table.restore(merge_snapshot(recovery.snapshot, recovery.actions))
        self._bot_states = [None if b is None else b.state() for b in self.table.bots]
        if self.table.seq != recovery.table.seq:
            raise RuntimeError(f"table {self.id} restored at seq {self.table.seq}, stored at {recovery.table.seq}")
        self.status = recovery.table.status

    # ------------------------------------------------------------------------------------- changes
    async def act(self, seat: int, action: Any, seq: int, kind: str = "act", answers: str | None = None,
                  timed_out: bool = False) -> None:
        """A person's decision at ``seat``, chosen from the view at ``seq``; ``answers``: the id of the forwarded
        command it is (its change, told to the followers, answers it); ``timed_out``: the turn timer's choice
        (every seat is told so by a timeout event before it)."""
        from rummoli.errors import StaleAction

        if self.role == "follower" and await self.manager.forward(self, "act", {"seat": seat, "action": action,
                                                                               "seq": seq}) is not None:
            return
        async with self.lock:
            await self._fresh()
            t = self.table
            if t is None:
                raise ServerError("not_your_turn", "the evening has not started: seats are still open")
            if t.over:
                raise ServerError("over", "the evening is over")
            seen, mark = int(t.seq), len(t.journal)
            try:
                t.act(seat, action, seq=seq, timed_out=timed_out)
            except StaleAction:
                raise ServerError("stale", f"stale action: sent for seq {seq}, the table is at seq {t.seq}",
                                  seq=int(t.seq)) from None
            except IllegalAction as error:
                code = "not_your_turn" if seat not in t.to_act() else "illegal"
                raise ServerError(code, str(error), rule=error.rule, seq=int(t.seq)) from None
            except MalformedInput as error:
                raise ServerError("malformed", str(error), seq=int(t.seq)) from None
            except Exception:
                log.exception("table %s: an action raised", self.id)
                await self._rebuild()
                raise ServerError("internal", "the server could not apply that action; nothing changed") from None
            self.clock = None
            await self._commit(kind, seat, seen, mark, answers=answers)
            self._plan()

    async def _bot_move(self, seat: int, seq: int) -> None:
        started = asyncio.get_running_loop().time()
        async with self.lock:
            t = self.table
            if t is None or self.stale or self.role != "owner" or t.seq != seq or t.bot_due() != seat:
                return
            view, bot = t.bot_view(seat), t.bots[seat]
        choice, bot = await self.manager.decide(bot, view)
        rest = self.pace.bot - (asyncio.get_running_loop().time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        async with self.lock:
            t = self.table
            if self.stale or self.role != "owner" or t.seq != seq or t.bot_due() != seat:
                return
            mark = len(t.journal)
            try:
                t.apply_bot_choice(seat, choice, bot)
            except RummoliError as error:
                # A bot's choice is checked like anyone's; a refused one is a bug to log, not to apply.
                log.error("table %s: bot at seat %s chose %s: %s", self.id, seat, choice, error)
                return
            await self._commit("bot", seat, seq, mark)
            self._plan()

    async def next_ready(self, seat: int, seq: int) -> None:
        """A person says next between hands (rummoli.server.tables.schedule.mark_ready; ignored at another seq)."""
        if self.role == "follower" and await self.manager.forward(self, "next", {"seat": seat, "seq": seq}) is not None:
            return
        await pacing.mark_ready(self, seat, seq)

    async def _timeout(self, seat: int, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            t = self.table
            if t is None or self.stale or t.seq != seq or seat not in t.to_act() or t.bots[seat] is not None:
                return
            hand_view = t.view(seat)["hand"]
            action = safe_default(hand_view)
        if action is not None:
            with contextlib.suppress(ServerError):
                await self.act(seat, action, seq, kind="timer", timed_out=True)

    def _plan(self) -> None:
        """After a change: schedule what the table does next by itself (a forced play, a bot's move, the next
        deal, a clock)."""
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        if self.role != "owner":
            return
        try:
            self._plan_next()
        finally:
            self.manager.tell_change(self)

    def _plan_next(self) -> None:
        t = self.table
        if t is None or t.over:
            self.clock, self.countdown = None, None
            return
        work: Awaitable[None] | None = pacing.plan(self)  # the countdown between hands, or a forced play
        if work is not None:
            self.clock = None
        elif (seat := t.bot_due()) is not None:
            self.clock = None
            work = self._bot_move(seat, int(t.seq))
        else:
            timer = self.options.get("turn_timer")
            people = [s for s in t.to_act() if t.bots[s] is None]
            if timer and people:
                now = asyncio.get_running_loop().time()
                if self.clock is None or self.clock.seq != t.seq or self.clock.seat != people[0]:
                    self.clock = Clock(people[0], int(t.seq), now + float(timer))
                work = self._timeout(self.clock.seat, self.clock.seq, max(0.0, self.clock.deadline - now))
        if work is not None:
            self._task = asyncio.get_running_loop().create_task(self._guard(work))

    async def _guard(self, work: Awaitable[None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except ServerError as error:
            log.warning("table %s: %s", self.id, error.message)
        except Exception:
            log.exception("table %s: its own move failed", self.id)

    async def set_bot(self, seat: int, level: str | None) -> bool:
        """A bot takes a person's seat over (``level``) or hands it back (``None``); True if it changed."""
        async with self.lock:
            t = self.table
            if t is None or t.over or self.role != "owner":
                return False
            await self._fresh()
            current = t.bots[seat]
            if (current.level if current is not None else None) == level:
                return False
            seen, mark = int(t.seq), len(t.journal)
            t.set_bot(seat, level)
            await self._commit("seat", seat, seen, mark)
            self._plan()
        self.manager.seats_changed(self)
        return True

    async def end(self) -> None:
        if self.role == "follower" and await self.manager.forward(self, "end", {}) is not None:
            return
        async with self.lock:
            await self._fresh()
            t = self.table
            if t is None:
                self.status = "over"
                await asyncio.to_thread(self.manager.store.set_status, self.id, "over")
            elif not t.over:
                seen, mark = int(t.seq), len(t.journal)
                t.end()
                await self._commit("end", None, seen, mark, full=True)
                self._plan()
        if t is None:
            self._change = {"at": None, "seq": 0, "status": "over"}  # followers read it from the store
            self.manager.tell_change(self)
        self.manager.hub.publish(self.id)

    # ------------------------------------------------------------------------------------- presence
    async def arrive(self, seat: int | None) -> None:
        if seat is None:
            return
        self.present[seat] = self.present.get(seat, 0) + 1
        await self._presence_changed(seat)

    async def depart(self, seat: int | None) -> None:
        if seat is None:
            return
        self.present[seat] = max(0, self.present.get(seat, 0) - 1)
        await self._presence_changed(seat)

    async def remote_presence(self, process: str, counts: dict[int, int]) -> None:
        """Owner: the clients another process holds, per seat (it sends all of them at each change)."""
        before = {seat: self.connected(seat) for seat in range(len(self.seats))}
        if counts:
            self.remote[process] = counts
        else:
            self.remote.pop(process, None)
        for seat in range(len(self.seats)):
            if (self.connected(seat) > 0) != (before[seat] > 0):
                await self._presence_changed(seat)

    async def _presence_changed(self, seat: int) -> None:
        """A seat's first client came or its last one went: hand the seat back from its bot, or start the
        grace period after which a bot plays it. A follower only tells the owner, which decides."""
        if self.role == "follower":
            await self.manager.share_presence(self)
            self.manager.hub.publish_seats(self.id)
            return
        if self.connected(seat) > 0:
            task = self._away.pop(seat, None)
            if task is not None:
                task.cancel()
            state = self.seats[seat]
            if state.person and not state.left and self.table is not None and self.table.bots[seat] is not None:
                await self.set_bot(seat, None)
        else:
            self._start_away(seat)
        self.manager.seats_changed(self)
        await pacing.presence_changed(self)  # between hands, the only person awaited may have gone

    def _start_away(self, seat: int) -> None:
        old = self._away.pop(seat, None)
        if old is not None:
            old.cancel()
        self._away[seat] = asyncio.get_running_loop().create_task(self._guard(self._away_after(seat)))

    async def _away_after(self, seat: int) -> None:
        await asyncio.sleep(self.manager.settings.grace)
        self._away.pop(seat, None)
        if self.connected(seat) == 0 and self.table is not None and self.role == "owner":
            await self.set_bot(seat, self.manager.settings.takeover_level)

    def start_clocks(self) -> None:
        """At the start of the evening or after a restart: every person's seat with nobody connected starts
        its grace period; then the table makes its next move by itself if it has one."""
        for seat, state in enumerate(self.seats):
            if state.person and self.connected(seat) == 0 and seat not in self._away:
                self._start_away(seat)
        self._plan()

    def _cancel_tasks(self) -> list[asyncio.Task[None]]:
        current = asyncio.current_task()
        tasks = [t for t in (self._task, *self._away.values()) if t is not None and t is not current]
        for task in tasks:
            task.cancel()
        self._task, self._away = None, {}
        return tasks

    async def stop(self) -> None:
        for task in self._cancel_tasks():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------------------------- several processes
    async def recover_stale(self) -> None:
        """A stale table (a write failed, or its copy could not be read): rebuild it and, for an owner,
        go on with its next move by itself."""
        async with self.lock:
            if not self.stale:
                return
            await self._reload()
            if self.stale:
                return
            if self.role == "owner":
                self._plan()
        self.manager.hub.publish(self.id)
        self.manager.hub.publish_seats(self.id)

    async def refresh(self) -> None:
        """Follower: rebuild the copy from the store (after a gap, a new owner, or Redis coming back)."""
        async with self.lock:
            await self._reload()
        self.manager.hub.publish(self.id)
        self.manager.hub.publish_seats(self.id)

    async def _reload(self) -> None:
        """Under the lock: seats, status and table as stored (stale if the store does not answer)."""
        try:
            row = await asyncio.to_thread(self.manager.store.table, self.id)
        except Exception:
            self.stale = True
            return
        if row is None:
            return
        self.seats, self.status = row.seats, row.status
        if row.seq > 0 or row.status != "waiting":
            await self._rebuild()
        else:
            self.stale = False

    async def follow_change(self, message: dict[str, Any]) -> None:
        """Follower: the owner stored a change; keep its journal entries for the copy (or, after a gap,
        rebuild the copy from the store), then tell this process's clients."""
        async with self.lock:
            if self.role != "follower":
                return
            self.owner = str(message.get("owner") or self.owner)
            t, change = self._table, _change_parts(message)
            have = -1 if t is None else len(t.journal) + self._unplayed_count
            if self.stale or t is None or change is None or change[0] > have:
                await self._reload()
            elif change[0] == have:
                self._keep_change(message, *change[1:])
            elif change[0] + change[2] > have:  # partly applied already: cannot happen in order; start over
                await self._reload()
            self._note_clock(message)
        self.manager.hub.publish(self.id)

    def follow_change_now(self, message: dict[str, Any]) -> bool:
        """Follower: :meth:`follow_change` at once, without its lock, for a change that comes in order (nothing
        here waits, so nothing can run in between); False, having done nothing, for any other (the lock is
        held, the copy is stale or behind, the message is odd)."""
        t, change = self._table, _change_parts(message)
        if (self.lock.locked() or self.role != "follower" or self.stale or t is None or change is None
                or change[0] != len(t.journal) + self._unplayed_count):
            return False
        self.owner = str(message.get("owner") or self.owner)
        self._keep_change(message, *change[1:])
        self._note_clock(message)
        self.manager.hub.publish(self.id)
        return True

    def _keep_change(self, message: dict[str, Any], journal: str, count: int, seq: int) -> None:
        # The entries are kept, not replayed, until something needs the copy (a client that is not at the
        # change's start, a newcomer, the seats): the owner sends the texts of the seats this process shows,
        # so most changes are never worked out twice. They are kept as the text they came in and read only
        # then: a text is one object the garbage collector never looks at, where the entries read at once were
        # dozens per change, which lived long enough to be examined again and again (the collector's time
        # per process was about twice that of a process whose tables have no followers).
        self._unplayed.append(journal)
        self._unplayed_count += count
        self._unplayed_seq = seq
        self.status = str(message.get("status", self.status))
        texts = message.get("texts")
        since = message.get("since")
        self._told = ({"seq": seq, "since": since, "texts": texts}
                      if isinstance(texts, dict) and isinstance(since, int) and since < seq else None)

    def _note_clock(self, message: dict[str, Any]) -> None:
        clock = message.get("clock")
        self.remote_clock = None if not clock else (
            int(clock["seat"]), int(clock["seq"]), asyncio.get_running_loop().time() + float(clock["seconds"]))
        self.remote_next = pacing.told_from(message.get("next_hand"))

    def follow_next_hand(self, message: dict[str, Any]) -> None:
        """Follower: who is ready for the next hand changed (the owner says so without a change)."""
        if self.role == "follower":
            self.remote_next = pacing.told_from(message.get("next_hand"))
            self.manager.hub.publish_next(self.id)

    def _catch_up_copy(self) -> None:
        """Follower: replay the changes kept unplayed (see follow_change). If they do not replay, the copy is
        marked stale: nothing reads it until the upkeep has rebuilt it from the store."""
        from rummoli.snapshot import replay_journal

        texts, count, seq = self._unplayed, self._unplayed_count, self._unplayed_seq
        self._unplayed, self._unplayed_count = [], 0
        try:
            entries = [entry for text in texts for entry in loads(text)]
            if len(entries) != count:
                raise RuntimeError(f"the owner's changes held {len(entries)} journal entries, not {count}")
            replay_journal(self._table, entries)
            if int(self._table.seq) != seq:
                raise RuntimeError(f"the copy is at seq {self._table.seq} after replaying, the owner at {seq}")
        except Exception:
            log.exception("table %s: the owner's changes did not replay; rebuilding the copy", self.id)
            self.stale = True

    async def follow_seats(self, message: dict[str, Any]) -> None:
        """Follower: who sits where changed (a seat taken or left, a bot, who is connected)."""
        if self.role != "follower":
            return
        with contextlib.suppress(Exception):
            row = await asyncio.to_thread(self.manager.store.table, self.id)
            if row is not None:
                self.seats = row.seats
        infos = message.get("infos")
        self.owner_infos = infos if isinstance(infos, list) else None
        self.manager.hub.publish_seats(self.id)

    async def promote(self, fence: int) -> None:
        """This process took the table over: rebuild it from the store (bots' memory included) and drive it."""
        async with self.lock:
            self.role, self.fence, self.owner = "owner", fence, None
            self.remote, self.owner_infos, self.remote_clock, self.remote_next = {}, None, None, None
            if self.manager.bus is not None:
                self.manager.bus.unfollow(self.id)
            await self._reload()
            self.start_clocks()
            self.manager.announce(self)
        self.manager.hub.publish(self.id)
        self.manager.seats_changed(self)

    def demote(self) -> None:
        """This process lost the table (its lease was taken over): stop driving it; it becomes a follower,
        rebuilt from the store before anything reads it."""
        self.role, self.fence, self.owner, self.stale = "follower", None, None, True
        self.clock, self.remote, self.countdown = None, {}, None
        self._cancel_tasks()


def invite_link(base_url: str, table_id: str) -> str:
    return f"{base_url.rstrip('/')}/tables/{table_id}"


def bot_name(seat: int, level: str) -> str:
    return f"Bot {seat + 1} ({level})"


class _Upkeep:
    """A repeated chore's health in the log: one line when it starts failing, one when it works again (not
    one per attempt, every second, while the database is down)."""

    def __init__(self, what: str, retry: str) -> None:
        self.what, self.retry, self.failing = what, retry, False

    def failed(self, error: BaseException) -> None:
        if not self.failing:
            log.warning("%s failed (%s, the database?); trying again %s", self.what, type(error).__name__,
                        self.retry)
        self.failing = True

    def works(self) -> None:
        if self.failing:
            log.warning("%s works again", self.what)
        self.failing = False


#: The commands a follower may send its owner again when no answer comes: each carries the seq it was meant for,
#: so it cannot be applied twice.
RESENDABLE = ("act", "next")

#: Seconds a forwarded action waits for its answer before this process looks whether its table changed owner
#: (see TableManager._check_ask).
ASK_CHECK = 0.25


class _OwnerChanged(Exception):
    """The table changed owner while a forwarded action waited for the old one's answer."""


class TableManager:
    """Every table of this process, the store, the hub and the bots' worker pool."""

    def __init__(self, settings: Settings, store: Store, hub: Hub, workers: BotWorkers | None) -> None:
        self.settings = settings
        self.store = store
        self.hub = hub
        self.workers = workers
        self.writer = StoreWriter(store)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.name = settings.process_name
        self.bus: Bus | None = None
        self._maintainer: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._lease_thread: ThreadPoolExecutor | None = None
        self._line: Any = None  # the lease thread's way to the database (Store.line)
        self.liveness: Liveness | None = None
        self.deaths: DeathWatch | None = None  # PostgreSQL: tells at once that another process died
        self._death = asyncio.Event()  # set by self.deaths: look for free tables now
        # forwarded actions whose change was published as their answer (see _on_command)
        self._answered: set[str] = set()
        # actions forwarded: the table, the owner asked, when
        self._asking: dict[asyncio.Future[dict[str, Any]], tuple[LiveTable, str, float]] = {}
        # their timers (see _check_ask), and those whose table's owner is being looked up in the store
        self._checks: dict[asyncio.Future[dict[str, Any]], asyncio.TimerHandle] = {}
        self._store_asked: dict[asyncio.Future[dict[str, Any]], asyncio.Task[None]] = {}

    # ------------------------------------------------------------------------------------- several processes
    def start_cluster(self) -> None:
        """Start the upkeep (:meth:`_maintain`); with a Redis URL, first join the other processes (the bus)
        and keep leases (see docs/deploy.md)."""
        if self.settings.redis_url:
            self.bus = Bus(self.settings.redis_url, self.settings.redis_prefix, self.name, self._on_table,
                           self._on_command, self._on_bus_back, self._on_table_now)
            self.bus.start()
            # Renewals have a loop and a thread of their own: queued behind takeovers (each a rebuild from the
            # database) or behind other database work in the shared threads, a busy process's renewals came
            # late, its leases ran out, and the tables went back and forth between processes.
            self._lease_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummoli-leases")
            # The upkeep's frequent polls (free tables, renewals, stored seqs) run in that thread too, on a
            # connection of its own (rummoli.server.storage.pgline: through the pool each cost milliseconds of CPU)
            self._line = self.store.line()
            self.liveness = Liveness(self.store.engine, self.name)
            if self.store.engine.dialect.name == "postgresql":
                loop = asyncio.get_running_loop()

                def heard(_name: str) -> None:  # in a watching thread
                    with contextlib.suppress(RuntimeError):  # the loop closed: this process is stopping
                        loop.call_soon_threadsafe(self._death.set)

                self.deaths = DeathWatch(connector(self.store.engine), LIVENESS_KEY, heard)
            self._renewer = asyncio.get_running_loop().create_task(self._renew_leases())
        self._maintainer = asyncio.get_running_loop().create_task(self._maintain())

    async def _upkeep(self, call: Any, *args: Any) -> Any:
        """``call(*args)`` in the lease thread (see :meth:`start_cluster`)."""
        return await asyncio.get_running_loop().run_in_executor(self._lease_thread, call, *args)

    def owned(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.role == "owner" and t.fence is not None and t.status != "over"]

    def tell_change(self, live: LiveTable) -> None:
        """Owner: tell the followers of ``live`` the change just stored (and the turn clock after it)."""
        change, live._change = live._change, None
        if self.bus is None or change is None or live.role != "owner":
            return
        clock = None
        if live.clock is not None:
            left = max(0.0, live.clock.deadline - asyncio.get_running_loop().time())
            clock = {"seat": live.clock.seat, "seq": live.clock.seq, "seconds": round(left, 3)}
        since = change.get("since")
        texts = live.texts_for_followers(since) if isinstance(since, int) and change["seq"] > since else {}
        journal = change.pop("journal", None)  # None: the followers read the change from the store
        if journal is not None:
            # The journal entries travel as one more text beside the seats' (see LiveTable._keep_change).
            texts["journal"] = dumps(journal)
            change["entries"] = len(journal)
        self.bus.publish(live.id, {"kind": "change", "table": live.id, "owner": self.name, "fence": live.fence,
                                   **change, "clock": clock, "next_hand": pacing.for_followers(live)}, texts)
        if "answers" in change:
            self._answered.add(change["answers"])

    def announce(self, live: LiveTable) -> None:
        """Owner (just now): followers learn who to forward to, and check they are not behind."""
        if self.bus is not None:
            self.bus.publish(live.id, {"kind": "owner", "table": live.id, "owner": self.name, "fence": live.fence,
                                       "seq": live.seq})

    def next_hand_changed(self, live: LiveTable) -> None:
        """Owner: who is ready for the next hand (or awaited) changed, with no new seq: every client is told."""
        self.hub.publish_next(live.id)
        if self.bus is not None and live.role == "owner":
            self.bus.publish(live.id, {"kind": "next_hand", "table": live.id, "next_hand": pacing.for_followers(live)})

    def seats_changed(self, live: LiveTable) -> None:
        self.hub.publish_seats(live.id)
        if self.bus is not None and live.role == "owner":
            self.bus.publish(live.id, {"kind": "seats", "table": live.id, "infos": live.seat_infos()})

    async def share_presence(self, live: LiveTable) -> None:
        """Follower: tell the owner how many clients of each seat this process holds."""
        if self.bus is None:
            return
        owner = live.owner or await self._owner_name(live.id)
        if owner is not None and owner != self.name:
            live.owner = owner
            self.bus.tell(owner, {"kind": "cmd", "op": "presence", "table": live.id, "process": self.name,
                                  "args": {str(k): v for k, v in live.present.items() if v > 0}})

    async def _owner_name(self, table_id: str) -> str | None:
        with contextlib.suppress(Exception):
            found = await asyncio.to_thread(self.store.owner, table_id)
            if found is not None and found[0] is not None and found[2] > 0:
                return found[0]
        return None

    def demote(self, live: LiveTable) -> None:
        if live.role == "follower":
            return  # already (the lease upkeep and a refused write can both find out)
        live.demote()
        asyncio.get_running_loop().create_task(self._follow_again(live))

    async def _follow_again(self, live: LiveTable) -> None:
        if self.bus is not None:
            await self.bus.follow(live.id)
        await live.refresh()

    async def listing(self, base_url: str) -> list[dict[str, Any]]:
        """Summaries of the tables waiting or in play, newest first; with several processes the newest 100,
        as stored for the tables other processes hold."""
        if self.bus is None:
            lives = sorted((t for t in self.tables.values() if t.status != "over"), key=lambda t: -t.created_at)
            return [t.summary(base_url) for t in lives]
        out = []
        for row in await asyncio.to_thread(self.store.listing, 100):
            live = self.tables.get(row.id)
            if live is not None:
                out.append(live.summary(base_url))
            else:
                out.append(LiveTable(row.id, row.options, row.creator_seat, row.seats, self, status=row.status,
                                     created_at=row.created_at).summary(base_url, stored=row))
        return out

    def _sees_deaths(self) -> bool:
        """Whether a table whose owner holds no liveness lock may be taken before its lease runs out: while
        this process holds its own (the store also waits until the database has run for a lease)."""
        return self.liveness is not None and self.liveness.held

    async def take(self, table_id: str, early: bool = False) -> bool:
        """Claim a table whose lease is free or has run out (``early``: or whose owner died, see
        :class:`rummoli.server.storage.store.Liveness`); True if this process drives it now."""
        try:
            fence = await asyncio.to_thread(self.store.claim, table_id, self.name, self.settings.lease_seconds,
                                            early)
        except Exception:
            return False
        if fence is None:
            return False
        live = self.tables.get(table_id)
        if live is None:
            # Loaded as claimed; but a load already under way (a client of this process arriving) finishes
            # first and returns its copy, a follower's: promoted below. Left a follower, it was this process's
            # table in the store and driven by nobody (forwarded actions refused as "moved") until the lease
            # ran out, about 4.4 s after a kill instead of 1.5 (3 kills in 20 in bench.cluster).
            live = await self.get(table_id, fence=fence)
            if live is None:
                return False
        if live.role != "owner" or live.fence != fence:
            log.warning("table %s: taken over (fence %s)", table_id, fence)
            await live.promote(fence)
        self._owner_moved(live)  # this process's own forwarded actions for it are run here now
        return True

    async def forward(self, live: LiveTable, op: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Follower: have the owner run ``op`` and return its result; ``None`` if this process has become
        the owner meanwhile (the caller then runs it here). Refusals come back as :class:`ServerError`."""
        if self.bus is None:
            return None
        for _attempt in range(3):
            if live.role == "owner":
                return None
            owner = live.owner or await self._owner_name(live.id)
            if owner is None or owner == self.name:
                if await self.take(live.id) or live.role == "owner":
                    return None
                await asyncio.sleep(0.2)
                continue
            try:
                answer = await self._ask(live, owner, op, args)
            except _OwnerChanged:
                continue  # an action only (see _ask): sent again to the new owner, or run here
            except BusDown:
                raise ServerError("unavailable", "another server process drives this table and cannot be reached "
                                                 "now (the message bus is down); try again soon", status=503) from None
            except TimeoutError:
                log.warning("table %s: %s forwarded to %s got no answer in time", live.id, op, owner)
                live.owner = None
                if op in RESENDABLE:
                    continue  # safe to send again: it carries its seq, so it cannot be applied twice
                # A seat taken or left may have been done without its answer arriving: not sent twice.
                raise ServerError("unavailable", "the server process that drives this table did not answer in "
                                                 "time; look at the table before trying again", status=503) from None
            error = answer.get("error")
            if isinstance(error, dict) and error.get("code") == "moved":
                log.warning("table %s: %s forwarded to %s, which no longer drives it", live.id, op, owner)
                live.owner = None
                await asyncio.sleep(0.1)
                continue
            if isinstance(error, dict):
                raise ServerError(str(error.get("code")), str(error.get("message")), error.get("rule"),
                                  error.get("seq"), int(error.get("status", 400)))
            result = answer.get("result")
            return result if isinstance(result, dict) else {}
        raise ServerError("unavailable", "the server process that drives this table did not answer; try again",
                          status=503)

    async def _ask(self, live: LiveTable, owner: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Send a command to ``owner`` and wait for its answer. An action stops waiting as soon as the table
        has another owner: this process (:meth:`take`), or one a follower was told of (:meth:`_on_table`), or
        one the store names when the answer is late (:meth:`_check_ask`). A dead owner never answers, and the
        action is safe to send again since it carries its seq."""
        assert self.bus is not None
        asked = self.bus.ask(owner, {"kind": "cmd", "op": op, "table": live.id, "args": args},
                             timeout=max(5.0, self.settings.lease_seconds))
        if op in RESENDABLE:
            self._asking[asked] = (live, owner, time.monotonic())
            self._checks[asked] = asyncio.get_running_loop().call_later(ASK_CHECK, self._check_ask, asked)
            asked.add_done_callback(self._answered_ask)
        try:
            return await asked
        finally:
            self._asking.pop(asked, None)
            asked.cancel()  # cancelled here: nobody waits any more (a no-op once answered)

    def _answered_ask(self, asked: asyncio.Future[dict[str, Any]]) -> None:
        check = self._checks.pop(asked, None)
        if check is not None:
            check.cancel()  # nothing looks at an action once it is answered (or given up)

    def _owner_moved(self, live: LiveTable) -> None:
        """The actions forwarded for ``live`` to an owner it no longer has stop waiting (sent again by
        :meth:`forward`)."""
        for asked, (table, owner, _since) in list(self._asking.items()):
            if table is live and not asked.done() and (live.role == "owner" or live.owner not in (None, owner)):
                asked.set_exception(_OwnerChanged())

    def _check_ask(self, asked: asyncio.Future[dict[str, Any]]) -> None:
        """A forwarded action still unanswered after :data:`ASK_CHECK` seconds, and again as often after that.

        A timer per action, cancelled by its answer, rather than one watcher looking four times a second: an
        action is answered within milliseconds, so the timer almost never runs, where the watcher woke the
        process four times a second whenever any action was on its way (nearly always, under load).

        This process learns of a new owner from its announcement on the bus, but a copy loaded just after that
        was published never hears it, and its action, sent to the dead owner, waited out the whole timeout
        (about one failover in thirty in bench.cluster took 4.4 s). So an action unanswered for half a second
        also asks the store who owns its table now."""
        entry = self._asking.get(asked)
        if entry is None or asked.done():
            return
        live, owner, since = entry
        self._owner_moved(live)
        if asked.done():
            return
        loop = asyncio.get_running_loop()
        self._checks[asked] = loop.call_later(ASK_CHECK, self._check_ask, asked)
        if time.monotonic() - since > 2 * ASK_CHECK and asked not in self._store_asked:
            self._store_asked[asked] = loop.create_task(self._ask_store_owner(asked, live, owner))

    async def _ask_store_owner(self, asked: asyncio.Future[dict[str, Any]], live: LiveTable, owner: str) -> None:
        try:
            found = await asyncio.to_thread(self.store.owner, live.id)
        except Exception:
            return
        finally:
            self._store_asked.pop(asked, None)
        if found is not None and found[0] not in (None, owner) and not asked.done():
            live.owner = found[0] if found[0] != self.name else None
            asked.set_exception(_OwnerChanged())

    async def _on_command(self, message: dict[str, Any]) -> None:
        """Owner: a command another process forwarded (an action, a seat taken...), answered on the bus."""
        assert self.bus is not None
        live = self.tables.get(str(message.get("table")))
        op, args = message.get("op"), message.get("args")
        if not isinstance(args, dict):
            return
        if op == "presence":
            if live is not None and live.role == "owner":
                await live.remote_presence(str(message.get("process")), {int(k): int(v) for k, v in args.items()})
            return
        if live is None or live.role != "owner":
            self.bus.answer(message, {"error": {"code": "moved", "message": "this process does not drive the table"}})
            return
        result: dict[str, Any] = {}
        ask = message.get("ask")
        try:
            if op == "act":
                await live.act(int(args["seat"]), args["action"], args["seq"],
                               answers=ask if isinstance(ask, str) else None)
                if ask in self._answered:  # its change, told to the followers, was the answer
                    self._answered.discard(ask)
                    return
            elif op == "next":
                await live.next_ready(int(args["seat"]), int(args["seq"]))
            elif op == "join":
                seat, token = await self.join(live, str(args["name"]), args.get("seat"))
                result = {"seat": seat, "token": token}
            elif op == "leave":
                await self.leave(live, int(args["seat"]))
            elif op == "start":
                await self.start_now(live)
            elif op == "end":
                await live.end()
            else:
                raise ServerError("malformed", f"unknown command {str(op)[:40]!r}")
        except ServerError as error:
            self.bus.answer(message, {"error": {"code": error.code, "message": error.message, "rule": error.rule,
                                                "seq": error.seq, "status": error.status}})
            return
        except Exception:
            log.exception("table %s: a forwarded %s failed", live.id, op)
            self.bus.answer(message, {"error": {"code": "internal", "message": "the server could not do that; "
                                                "nothing changed", "status": 500}})
            return
        self.bus.answer(message, {"result": result})

    def _on_table_now(self, message: dict[str, Any]) -> bool:
        """Follower: what a table's owner published, handled as it is read when that needs no waiting (a
        change in order, the usual case); False: :meth:`_on_table` must handle it."""
        live = self.tables.get(str(message.get("table")))
        if live is None or live.role != "follower":
            return True  # nothing to do (as in _on_table)
        return message.get("kind") == "change" and live.follow_change_now(message)

    async def _on_table(self, message: dict[str, Any]) -> None:
        """Follower: what a table's owner published."""
        live = self.tables.get(str(message.get("table")))
        if live is None or live.role != "follower":
            return
        kind = message.get("kind")
        if kind == "change":
            await live.follow_change(message)
        elif kind == "seats":
            await live.follow_seats(message)
        elif kind == "next_hand":
            live.follow_next_hand(message)
        elif kind == "owner":
            live.owner = str(message.get("owner"))
            self._owner_moved(live)
            if message.get("seq") != live.seq:
                await live.refresh()
            await self.share_presence(live)

    async def _on_bus_back(self) -> None:
        """Redis is back (or reached for the first time): followers may have missed changes."""
        for live in list(self.tables.values()):
            if live.role == "follower":
                live.owner = None
                await live.refresh()
                await self.share_presence(live)
            elif live.fence is not None:
                self.announce(live)

    async def _maintain(self) -> None:
        """Every second: rebuild the tables a failed write left stale (once the database answers again) and
        go on with them; with several processes also take over tables whose lease ran out (the leases are
        renewed by :meth:`_renew_leases`), and at once those of a process that died (:attr:`deaths` tells);
        every two seconds forget the clients of processes that died, catch up copies that missed a change
        and drop copies nobody here watches any more."""
        last_alive = 0.0
        health = _Upkeep("lease upkeep", "every second")
        behind: dict[str, int] = {}  # followers found behind the store at the last check, and by how much
        while True:
            # How soon a lease that ran out is noticed. It was a quarter of a second, when this look was also
            # how a death was noticed; each look wakes the process, and they were most of what an idle one
            # cost (python -m bench.cluster --idle).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._death.wait(), 1.0)
            self._death.clear()
            now = time.monotonic()
            try:
                for live in list(self.tables.values()):
                    if live.stale:
                        await live.recover_stale()
                self._drop_over(now)
                if self.bus is None:
                    continue
                early = self._sees_deaths()
                free = await self._upkeep(self._line.unowned, 0.0, 200,
                                          self.settings.lease_seconds if early else 0.0)
                # tables this process shows first (its clients are waiting), then a share of the rest
                free.sort(key=lambda table_id: table_id not in self.tables)
                # Together, not one after another: each takeover rebuilds its table from the database, and a
                # dead process's last table waited for all the others (about a second with a dozen tables).
                await asyncio.gather(*(self.take(table_id, early) for table_id in free[:50]), return_exceptions=True)
                if now - last_alive >= 2.0:
                    last_alive = now
                    if self.bus.up:
                        await self._forget_dead_processes()
                    behind = await self._catch_up(behind)
                    for live in list(self.tables.values()):
                        if live.role == "follower" or live.status == "over":
                            self._drop_if_idle(live, now)
                health.works()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                health.failed(error)

    async def _renew_leases(self) -> None:
        """Every third of a lease: extend this process's leases; a table whose lease another process took is
        dropped to a follower's copy."""
        lease = self.settings.lease_seconds
        health = _Upkeep("renewing leases", "every third of a lease")
        while True:
            started = time.monotonic()
            try:
                owned = self.owned()
                kept, others = await self._upkeep(self._renewal, [t.id for t in owned], lease)
                if self.deaths is not None:
                    self.deaths.watch(others)
                for live in owned:
                    if live.id not in kept and live.role == "owner" and live.status != "over":
                        log.warning("table %s: lease lost to another process", live.id)
                        self.demote(live)
                health.works()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                health.failed(error)
            await asyncio.sleep(max(0.05, lease / 3 - (time.monotonic() - started)))

    def _renewal(self, table_ids: list[str], lease: float) -> tuple[set[str], set[str]]:
        """In the lease thread, in one go (one hop there and back, not three): this process's liveness lock
        first, then its leases (:meth:`rummoli.server.storage.pgline.PgLine.renew`), then the other processes that own
        tables (whose deaths :attr:`deaths` listens for). A failure of the lock (the database is down) shows
        in the renewal after it."""
        assert self.liveness is not None
        with contextlib.suppress(Exception):
            self.liveness.keep()
        kept: set[str] = self._line.renew(self.name, table_ids, lease)
        others: set[str] = self._line.owners(self.name) if self.deaths is not None else set()
        return kept, others

    async def _catch_up(self, behind: dict[str, int]) -> dict[str, int]:
        """A safety net under the bus: a follower whose copy is still behind what was stored two seconds
        ago missed a change (which pub/sub does not redeliver) and is rebuilt from the store."""
        followers = {t.id: t for t in self.tables.values() if t.role == "follower" and t.status != "over"}
        stored = await self._upkeep(self._line.seqs, list(followers))
        for table_id, seq in behind.items():
            live = followers.get(table_id)
            if live is not None and live.seq < seq:
                log.warning("table %s: its copy missed a change; rebuilding it from the store", table_id)
                await live.refresh()
        return {table_id: seq for table_id, seq in stored.items() if followers[table_id].seq < seq}

    async def _forget_dead_processes(self) -> None:
        assert self.bus is not None
        names = {name for live in self.owned() for name in live.remote}
        alive = await self.bus.alive(names)
        for live in self.owned():
            for name in list(live.remote):
                if name not in alive:
                    await live.remote_presence(name, {})

    def _drop_over(self, now: float) -> None:
        """Finished evenings nobody watches leave memory (rummoli.server.tables.eviction); the store keeps them."""
        settings = self.settings
        for live in over_to_drop(list(self.tables.values()), lambda i: bool(self.hub.listeners(i)), now,
                                 settings.over_keep, settings.over_cap):
            self.tables.pop(live.id, None)
            live._cancel_tasks()
            if self.bus is not None:
                self.bus.unfollow(live.id)

    def _drop_if_idle(self, live: LiveTable, now: float) -> None:
        if self.hub.listeners(live.id):
            live.idle_since = None
        elif live.idle_since is None:
            live.idle_since = now
        elif now - live.idle_since > 30.0 and not live.lock.locked():
            self.tables.pop(live.id, None)
            if self.bus is not None:
                self.bus.unfollow(live.id)

    async def decide(self, bot: Any, view: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """A bot's decision, made in a worker process (in a thread when the server has no workers)."""
        seconds = self.settings.bot_deadline
        if self.workers is None:
            return await asyncio.to_thread(decide, bot, view, time.time() + seconds)
        return await self.workers.decide(bot, view, seconds)

    # ------------------------------------------------------------------------------------- loading
    async def recover_all(self) -> int:
        """Bring back every table still waiting or in play (after a start or a crash). With several
        processes the lease upkeep does this instead: each table goes to one process."""
        if self.bus is not None:
            return 0
        ids = await asyncio.to_thread(self.store.table_ids, None)
        count = 0
        for table_id in ids:
            live = await self.get(table_id, active_only=True)
            if live is not None and live.status != "over":
                live.start_clocks()
                count += 1
        return count

    async def get(self, table_id: str, active_only: bool = False, fence: int | None = None) -> LiveTable | None:
        """The table, loaded from the store if this process does not hold it yet. With several processes,
        loading claims it if no live process owns it (``fence``: already claimed), else follows it."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if len(table_id) > 32:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self.tables.get(table_id)
            if live is not None:
                return live
            row = await asyncio.to_thread(self.store.table, table_id)
            if row is None or (active_only and row.status == "over"):
                return None
            seats = row.seats
            live = LiveTable(row.id, row.options, row.creator_seat, seats, self, status=row.status,
                             created_at=row.created_at)
            if self.bus is not None and row.status != "over":
                if fence is None:
                    fence = await asyncio.to_thread(self.store.claim, table_id, self.name, self.settings.lease_seconds)
                if fence is None:
                    live.role = "follower"
                    await self.bus.follow(table_id)  # before reading the store: no change can fall in between
                live.fence = fence
            if row.seq > 0 or row.status != "waiting":
                recovery = await asyncio.to_thread(self.store.recover, table_id)
                if recovery is not None:
                    live._restore(recovery)
            self.tables[table_id] = live
            if live.fence is not None:
                live.start_clocks()
                self.announce(live)
        self._loading.pop(table_id, None)
        return live

    # ------------------------------------------------------------------------------------- creating
    def _new_table(self, options: dict[str, Any], names: list[str], levels: list[str | None]) -> Any:
        from rummoli.table import Seat, Table

        # Paced forced plays are each a step of their own (rummoli.server.tables.schedule); at pace 0 they stay inside
        # the action that caused them.
        auto = pacing.pace_of(options.get("pace"), self.settings).play <= 0
        return Table(options["ruleset"], [Seat(n, b) for n, b in zip(names, levels, strict=True)],
                     chips=options.get("chips"), hands=options.get("hands"), seed=options.get("seed"),
                     samples=self.settings.bot_samples, auto=auto)

    async def create(self, request: dict[str, Any]) -> tuple[LiveTable, int, str]:
        """A new table from a validated :class:`~rummoli.server.api.protocol.CreateTable` (as a dict)."""
        from rummoli.records import game_of

        if len(self.tables) >= self.settings.max_tables:
            raise ServerError("unavailable", "the server has as many tables as it can hold; try later", status=503)
        if request.get("seed") is not None and not self.settings.allow_seeds:
            raise ServerError("malformed", "this server does not allow fixed seeds (start it with --allow-seeds)")
        specs = request["seats"]
        creator = request["creator_seat"]
        if creator >= len(specs) or specs[creator].get("bot") is not None:
            raise ServerError("malformed", f"creator_seat {creator} must be one of the people's seats")
        ruleset = request["ruleset"]
        try:
            game = game_of(ruleset)
        except MalformedInput as error:
            raise ServerError("malformed", f"ruleset: {error}") from None
        ruleset_name = ruleset if isinstance(ruleset, str) else str(ruleset.get("name", "custom"))[:64]
        options = {"ruleset": ruleset, "ruleset_name": ruleset_name, "game": game, "chips": request.get("chips"),
                   "hands": request.get("hands"), "turn_timer": request.get("turn_timer"),
                   "seed": request.get("seed"), "seats": [s.get("bot") for s in specs], "pace": request.get("pace")}
        token = new_token()
        seats: list[SeatRow] = []
        for seat, spec in enumerate(specs):
            level = spec.get("bot")
            if level is not None:
                seats.append(SeatRow(bot_name(seat, level), level, None))
            elif seat == creator:
                seats.append(SeatRow(request["name"], None, token_hash(token)))
            else:
                seats.append(SeatRow(f"Seat {seat + 1}", None, None))
        try:
            trial = self._new_table(options, [s.name for s in seats], [s.bot for s in seats])
        except (MalformedInput, IllegalAction, ValueError) as error:
            raise ServerError("malformed", str(error)) from None
        live = LiveTable(new_table_id(), options, creator, seats, self)
        full = all(s.token_hash is not None for s in seats if s.person)
        owner = self.name if self.bus is not None else None
        live.fence = await asyncio.to_thread(self.store.create_table, live.id, game, ruleset_name, options, creator,
                                             seats, owner, self.settings.lease_seconds)
        self.tables[live.id] = live
        if full:
            await self._start(live, trial)
        return live, creator, token

    async def _start(self, live: LiveTable, table: Any = None) -> None:
        """Deal the first hand: every seat has its player (or bot)."""
        async with live.lock:
            if live.table is not None:
                return
            if table is None:
                table = self._new_table(live.options, [s.name for s in live.seats], [s.bot for s in live.seats])
            await asyncio.to_thread(self.store.start_table, live.id, int(table.seq), table.snapshot(), live.fence)
            live.table = table
            live._bot_states = [None if b is None else b.state() for b in table.bots]
            live.status = "playing"
            live._change = {"at": None, "seq": int(table.seq), "status": "playing"}  # followers: read the store
            live.start_clocks()  # a person who never comes is played by a bot after the grace period
        self.hub.publish(live.id)
        self.seats_changed(live)

    async def join(self, live: LiveTable, name: str, seat: int | None) -> tuple[int, str]:
        """Give a person an open seat and its token; start the evening when no seat is left open."""
        if live.role == "follower":
            result = await self.forward(live, "join", {"name": name, "seat": seat})
            if result is not None:
                with contextlib.suppress(Exception):  # so the new token works here at once
                    row = await asyncio.to_thread(self.store.table, live.id)
                    if row is not None:
                        live.seats = row.seats
                return int(result["seat"]), str(result["token"])
        async with live.lock:
            if live.status != "waiting":
                raise ServerError("over" if live.status == "over" else "unavailable",
                                  "this table has no open seat: its evening has started" if live.status == "playing"
                                  else "this table's evening is over", status=409)
            open_seats = [i for i, s in enumerate(live.seats) if s.person and s.token_hash is None]
            if seat is None:
                if not open_seats:
                    raise ServerError("unavailable", "this table has no open seat", status=409)
                seat = open_seats[0]
            elif seat not in open_seats:
                raise ServerError("unavailable", f"seat {seat} is not open", status=409)
            if any(s.name.casefold() == name.casefold() for i, s in enumerate(live.seats) if i not in open_seats):
                raise ServerError("malformed", f"someone at this table is already called {name!r}", status=409)
            token = new_token()
            hashed = token_hash(token)
            if not await asyncio.to_thread(self.store.take_seat, live.id, seat, name, hashed):
                raise ServerError("unavailable", f"seat {seat} was just taken", status=409)
            live.seats[seat] = SeatRow(name, None, hashed)
            full = all(s.token_hash is not None for s in live.seats if s.person)
        self.seats_changed(live)
        if full:
            await self._start(live)
        return seat, token

    async def start_now(self, live: LiveTable) -> None:
        """The creator starts without waiting: bots take the seats still open."""
        if live.role == "follower" and await self.forward(live, "start", {}) is not None:
            return
        async with live.lock:
            if live.status != "waiting":
                raise ServerError("unavailable", "this table's evening has already started", status=409)
            level = self.settings.takeover_level
            for seat, state in enumerate(live.seats):
                if state.person and state.token_hash is None:
                    live.seats[seat] = SeatRow(bot_name(seat, level), level, None)
                    await asyncio.to_thread(self.store.make_bot_seat, live.id, seat, live.seats[seat].name, level)
        await self._start(live)

    async def leave(self, live: LiveTable, seat: int) -> None:
        """A person leaves: their token stops working; a bot plays the seat for the rest of the evening
        (before the evening starts the seat simply opens again)."""
        if live.role == "follower" and await self.forward(live, "leave", {"seat": seat}) is not None:
            for listener in self.hub.listeners(live.id):
                if getattr(listener, "seat", None) == seat:
                    listener.close(4001, "you left this seat")
            return
        async with live.lock:
            state = live.seats[seat]
            await asyncio.to_thread(self.store.leave_seat, live.id, seat, live.status != "waiting")
            if live.status == "waiting":
                live.seats[seat] = SeatRow(f"Seat {seat + 1}", None, None)
            else:
                state.token_hash, state.left = None, True
        for listener in self.hub.listeners(live.id):
            if getattr(listener, "seat", None) == seat:
                listener.close(4001, "you left this seat")
        if live.status == "playing":
            await live.set_bot(seat, self.settings.takeover_level)
        self.seats_changed(live)

    async def close(self) -> None:
        for task in (self._maintainer, self._renewer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for live in list(self.tables.values()):
            await live.stop()
        await asyncio.to_thread(self.writer.close)
        if self.bus is not None:
            # a clean stop hands the tables on at once instead of after their leases run out
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.release, self.name, [t.id for t in self.owned()])
            await self.bus.close()
        if self.deaths is not None:
            await asyncio.to_thread(self.deaths.close)
        if self._lease_thread is not None:
            # Last: with the lock gone, the other processes may take this one's tables at once.
            if self.liveness is not None:  # in its own thread, the only one that uses its connection
                with contextlib.suppress(Exception):
                    await self._upkeep(self.liveness.drop)
            if self._line is not None:
                with contextlib.suppress(Exception):
                    await self._upkeep(self.store.close_line, self._line)
            self._lease_thread.shutdown(wait=False)

