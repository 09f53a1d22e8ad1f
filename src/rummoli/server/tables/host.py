"""The host of a table: what drives one room's table in this process.

The rule every change follows (docs/ARCHITECTURE.md): under the room's lock, hand the change to the table
(which checks it and changes nothing on error), store what it added to the table's journal in one transaction
that moves the stored ``seq`` from the value seen before to the new one, and only then tell the hub, whose
listeners each fetch what their own seat may see, and the placement, which tells other processes that show the
table (none on a single process). If the store refuses, the table is rebuilt from the store and the change is
reported as not made.

What is stored per change (``actions.payload``) is the journal entries the change added (the deck of a deal,
a decision, a bot taking a seat over...) and the state of each bot that changed (its generator and
memory). A restart restores the latest snapshot, appends those journal entries and bot states, and lets
:meth:`Table.restore` replay them: the same views, legal actions, chips and cards to come.

A host drives its table until it is replaced (:meth:`Host.retire`: another process took the table over): from
then on every command that reaches it raises :class:`~rummoli.server.tables.errors.Moved` and its room runs the
command again with the keeper it has now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, NoReturn

from rummoli.errors import IllegalAction, MalformedInput, StaleAction, quote
from rummoli.server.storage.rows import SeatRow, StoreConflict, token_hash
from rummoli.server.tables.errors import Moved, ServerError
from rummoli.server.tables.names import bot_name, clash, new_token, open_name
from rummoli.server.tables.room import Room
from rummoli.server.tables.schedule import Schedule
from rummoli.wording import names_listed


def waiting_for(table: Any) -> str:
    """What a seat that acted out of turn is told: whom the table waits for (every seat sees that). The move's
    own rule said what the phase allowed, and listed the legal moves of the seat whose turn it was."""
    names = [table.names[s] for s in table.to_act()]
    if names:
        return f"it is not your turn: the table is waiting for {names_listed(names)}"
    if table.hand_over:
        return "it is not your turn: the hand is over and the next one is not dealt yet"
    return "it is not your turn: a forced play is being made"

log = logging.getLogger("rummoli.server")


class Host:
    """Drives one room's table in this process (see the module's docstring). ``fence``: the fencing number of
    this process's lease on the table (None: a single process, where nothing else writes it)."""

    ahead = 0  # a host plays every change as it makes it

    def __init__(self, room: Room, fence: int | None = None) -> None:
        self.room = room
        self.fence = fence
        self.retired = False
        self.schedule = Schedule(self)
        # Other processes' clients of this table, per process and seat (they report them: rummoli.server.cluster).
        self.elsewhere: dict[str, dict[int, int]] = {}
        self._bot_states: list[Any] = []
        self._change: dict[str, Any] | None = None  # the stored change the placement is told of next
        self._snapshot_size = 0  # the journal's length at the last snapshot stored (or the table's when loaded)
        if room.held is not None:
            self.loaded()

    # ------------------------------------------------------------------------------------- reading
    def catch_up(self) -> None:
        return

    def loaded(self) -> None:
        self._bot_states = [None if b is None else b.state() for b in self.room.held.bots]
        self._snapshot_size = len(self.room.held.journal)

    def _snapshot_due(self, kind: str, full: bool, stored_nothing: bool) -> bool:
        """Whether this change also stores the whole table. A change that stores no action (a seat handed to a
        bot) is kept only as a snapshot, and the evening's end always takes one. A deal takes one only once the
        journal has doubled since the last: each snapshot is the whole journal (half a megabyte and 27 ms after
        400 hands of Rummoli), so one at every deal made a long evening's every hand slower than the one before;
        doubling keeps the cost per action constant on average. A restart reads the actions after the latest
        snapshot, fewer than the journal it replays anyway."""
        if stored_nothing:
            return True
        if not full:
            return False
        return kind != "deal" or len(self.room.held.journal) >= 2 * self._snapshot_size

    def connected(self, seat: int) -> int:
        """How many clients of ``seat`` are connected, to this process and to the others."""
        return self.room.present.get(seat, 0) + sum(counts.get(seat, 0) for counts in self.elsewhere.values())

    def clock_info(self) -> dict[str, Any] | None:
        return self.schedule.clock_info()

    def clock_key(self) -> tuple[Any, ...] | None:
        return self.schedule.clock_key()

    def next_hand_info(self, also: int | None = None) -> dict[str, Any] | None:
        return self.schedule.next_hand_info(also)

    def told_text(self, seat: int | None, since: int) -> str | None:
        return None

    def check_driving(self) -> None:
        """Under the lock, before a command: a host that was replaced while the command waited hands it back."""
        if self.retired:
            raise Moved()

    # ------------------------------------------------------------------------------------- storing
    def _changed_bots(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for seat, bot in enumerate(self.room.held.bots):
            state = None if bot is None else bot.state()
            if state != self._bot_states[seat]:
                out[str(seat)] = state
                self._bot_states[seat] = state
        return out

    async def commit(self, kind: str, seat: int | None, seen_seq: int, journal_from: int,
                     extra: dict[str, Any] | None = None, full: bool = False, answers: str | None = None) -> None:
        """Under the lock: store the change the table just made (see the module's docstring), then tell the
        listeners; the placement is told by :meth:`plan`, which comes next. ``answers``: the id of the command
        another process forwarded, which this change answers."""
        room = self.room
        registry = room.registry
        t = room.held
        payload = {"journal": t.journal[journal_from:], "bots": self._changed_bots(), **(extra or {})}
        new_seq = int(t.seq)
        snapshot = t.snapshot() if self._snapshot_due(kind, full, new_seq == seen_seq) else None
        status = "over" if t.over else "paused" if room.status == "paused" else "playing"
        try:
            await registry.writer.append(room.id, seen_seq, new_seq, kind, seat, payload, snapshot, status,
                                         self.fence, t.hand_no)
        except StoreConflict:
            await self._store_moved_on(seen_seq)
        except Exception as error:
            log.error("table %s: storing a %s failed (%s); rebuilding it from the store", room.id, kind,
                      type(error).__name__)
            await room.rebuild()
            raise ServerError("unavailable", "the change could not be stored (the database does not answer); "
                                             "nothing changed, try again", seq=room.seq, status=503) from None
        room.status = status
        if snapshot is not None:
            self._snapshot_size = len(t.journal)
        if snapshot is not None and kind == "deal":
            with contextlib.suppress(Exception):  # old snapshots only cost space
                registry.writer.later(registry.store.prune_snapshots, room.id, new_seq)
        registry.hub.publish(room.id)
        self._change = {"at": journal_from, "journal": payload["journal"], "seq": new_seq, "status": status,
                        "since": seen_seq}
        if answers is not None:
            self._change["answers"] = answers

    def plan(self) -> None:
        """After a change: schedule what the table does next by itself, then tell the placement of the change
        (with the clock that goes with it)."""
        self.schedule.cancel_next()
        if self.retired:
            return
        try:
            self.schedule.plan_next()
        finally:
            self.tell()

    def tell(self) -> None:
        change, self._change = self._change, None
        if change is not None and not self.retired:
            self.room.registry.placement.publish_change(self, change)

    def seats_changed(self) -> None:
        self.room.registry.hub.publish_seats(self.room.id)
        if not self.retired:
            self.room.registry.placement.publish_seats(self)

    def next_hand_changed(self) -> None:
        """Who is ready for the next hand (or awaited) changed, with no new seq: every client is told."""
        self.room.registry.hub.publish_next(self.room.id)
        if not self.retired:
            self.room.registry.placement.publish_next_hand(self)

    # ------------------------------------------------------------------------------------- changes
    async def act(self, seat: int, action: Any, seq: int, kind: str = "act", answers: str | None = None,
                  timed_out: bool = False) -> None:
        """A person's decision at ``seat``, chosen from the view at ``seq``; ``answers``: the id of the forwarded
        command it is; ``timed_out``: the turn timer's choice (every seat is told so by a timeout event)."""
        room = self.room
        async with room.lock:
            self.check_driving()
            await room.fresh()
            t = room.table
            if t is None:
                raise ServerError("not_your_turn", "the evening has not started: seats are still open")
            if t.over:
                raise ServerError("over", "the evening is over")
            seen, mark = int(t.seq), len(t.journal)
            try:
                t.act(seat, action, seq=seq, timed_out=timed_out)
            except StaleAction:
                raise ServerError("stale", f"stale action: sent for seq {quote(seq)}, the table is at seq {t.seq}",
                                  seq=int(t.seq)) from None
            except IllegalAction as error:
                if seat not in t.to_act():  # the rules of a move that was not this seat's to make say little
                    raise ServerError("not_your_turn", waiting_for(t), rule="R-TURN", seq=int(t.seq)) from None
                raise ServerError("illegal", str(error), rule=error.rule, seq=int(t.seq)) from None
            except MalformedInput as error:
                raise ServerError("malformed", str(error), rule=error.rule, seq=int(t.seq)) from None
            except Exception:
                log.exception("table %s: an action raised", room.id)
                await room.rebuild()
                raise ServerError("internal", "the server could not apply that action; nothing changed") from None
            self.schedule.clock = None
            if not await self.run_at_once():
                raise ServerError("internal", "the server could not apply that action; nothing changed")
            await self.commit(kind, seat, seen, mark, answers=answers)
            self.plan()

    async def run_at_once(self) -> bool:
        """Under the lock, after a move: the forced plays of a run that follow it, made in the same change where the
        table's pace gives them no time (``instant``). Each was a change of its own, stored and sent to every seat
        the same moment: twice the writes and updates for nothing a player could tell apart. Only plays that every
        seat is told were forced (a run's, ``forced_shown``); a forced lead, pass or keep, which must reach the
        others as a chosen move would (R-VIEW-1), stays a change of its own, paced as the schedule paces it.
        False when a forced play raised: the table is then rebuilt from the store (the move is undone with it)."""
        room = self.room
        t = room.table
        if t is None or room.pace.play > 0:
            return True
        try:
            while t.forced_due() and t.in_play().forced_shown():
                t.step()
        except Exception:
            log.exception("table %s: a forced play raised", room.id)
            await room.rebuild()
            return False
        return True

    async def next_ready(self, seat: int, seq: int) -> None:
        await self.schedule.mark_ready(seat, seq)

    async def set_bot(self, seat: int, level: str | None) -> bool:
        """A bot takes a person's seat over (``level``) or hands it back (``None``); True if it changed."""
        room = self.room
        async with room.lock:
            t = room.table
            if t is None or t.over or self.retired:
                return False
            await room.fresh()
            current = t.bots[seat]
            if (current.level if current is not None else None) == level:
                return False
            seen, mark = int(t.seq), len(t.journal)
            t.set_bot(seat, level)
            await self.commit("seat", seat, seen, mark)
            self.plan()
        self.seats_changed()
        return True

    async def end(self) -> None:
        room = self.room
        registry = room.registry
        async with room.lock:
            self.check_driving()
            await room.fresh()
            t = room.table
            if room.over:  # it answered 200, doing nothing
                raise ServerError("over", "this table's evening is already over: there is nothing to end", status=409)
            if t is None:  # stored first: the status says what the store holds (Room.over)
                # fenced: an owner whose lease ran out may hold a table another process has dealt since
                await self.store_fenced(registry.store.end_waiting, room.id)
                room.status = "over"
            else:
                seen, mark = int(t.seq), len(t.journal)
                t.end()
                await self.commit("end", None, seen, mark, full=True)
                self.plan()
        if t is None:
            self._change = {"at": None, "seq": 0, "status": "over"}  # other processes read it from the store
            self.tell()
        registry.hub.publish(room.id)

    async def store_fenced(self, write: Callable[..., None], *args: Any) -> None:
        """Under the lock: ``write(*args, fence)``, a write of this table's row in the store that is fenced as every
        change is (a compare-and-set raising :class:`StoreConflict` when the store moved on; then as
        :meth:`_store_moved_on`)."""
        try:
            await asyncio.to_thread(write, *args, self.fence)
        except StoreConflict:
            await self._store_moved_on(self.room.seq)

    async def _store_moved_on(self, seen_seq: int) -> NoReturn:
        """Under the lock: a write refused by its compare-and-set, so the store is not where this process thought.
        With several processes another one took the table over (this one's lease ran out): it may write nothing
        more. A single process believes the store and rebuilds the table from it. Either way a 503: nothing
        changed."""
        room = self.room
        if self.fence is None:
            log.error("table %s: the store is no longer at seq %s; rebuilding the table from it", room.id, seen_seq)
            await room.rebuild()
            raise ServerError("unavailable", "the table was not where this server thought; nothing changed, try again",
                              seq=room.seq, status=503)
        log.warning("table %s: fenced off (fence %s); another process drives it now", room.id, self.fence)
        room.registry.placement.lost(self)
        raise ServerError("unavailable", "another server process drives this table now; nothing changed, try again",
                          status=503)

    async def resume(self) -> None:
        """A paused table (its bots kept failing) is played again: its bots are asked once more."""
        async with self.room.lock:
            self.check_driving()
            await self.schedule.resume()
            self.plan()
        self.seats_changed()

    # ------------------------------------------------------------------------------------- seats
    async def start(self, table: Any = None) -> None:
        """Deal the first hand: every seat has its player (or bot). ``table``: one made already."""
        async with self.room.lock:
            self.check_driving()
            dealt = await self._deal(table)
        if dealt:
            self._dealt()

    async def _deal(self, table: Any) -> bool:
        """Under the lock: deal the first hand unless it is dealt already, or the evening was ended before it (an
        end that came in while the last seat was being taken); True if it was dealt now."""
        room = self.room
        registry = room.registry
        if room.held is not None or room.over:
            return False
        if table is None:
            table = registry.new_table(room.options, [s.name for s in room.seats], [s.bot for s in room.seats])
        await asyncio.to_thread(registry.store.start_table, room.id, int(table.seq), table.snapshot(), self.fence)
        room.load(table)
        room.status = "playing"
        self._change = {"at": None, "seq": int(table.seq), "status": "playing"}  # followers: read the store
        self.start_clocks()  # a person who never comes is played by a bot after the grace period
        return True

    def _dealt(self) -> None:
        self.room.registry.hub.publish(self.room.id)
        self.seats_changed()

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        room = self.room
        async with room.lock:
            self.check_driving()
            if room.status != "waiting":
                raise ServerError("over" if room.over else "unavailable",
                                  "this table has no open seat: its evening has started" if room.status == "playing"
                                  else "this table's evening is over", status=409)
            open_seats = [i for i, s in enumerate(room.seats) if s.person and s.token_hash is None]
            if seat is None:
                if not open_seats:
                    raise ServerError("unavailable", "this table has no open seat", status=409)
                seat = open_seats[0]
            elif seat not in open_seats:
                raise ServerError("unavailable", f"seat {seat} is not open", status=409)
            problem = clash(name, [s.name for i, s in enumerate(room.seats) if i not in open_seats])
            if problem is not None:
                raise ServerError("malformed", problem, status=409)
            token = new_token()
            hashed = token_hash(token)
            if not await asyncio.to_thread(room.registry.store.take_seat, room.id, seat, name, hashed):
                raise ServerError("unavailable", f"seat {seat} was just taken", status=409)
            room.seats[seat] = SeatRow(name, None, hashed)
            full = all(s.token_hash is not None for s in room.seats if s.person)
        self.seats_changed()
        if full:
            try:
                await self.start()
            except Moved:  # the seat is taken and stored; the table's new keeper deals
                with contextlib.suppress(ServerError):
                    await room.start_now()
        return seat, token

    async def start_now(self) -> None:
        room = self.room
        registry = room.registry
        async with room.lock:
            # The checks and the deal under one lock: of several starts at once, the first deals and the
            # others find the evening started (409), however their requests interleave.
            self.check_driving()
            if room.status != "waiting" or room.held is not None:
                raise ServerError("unavailable", "this table's evening has already started", status=409)
            level = registry.settings.takeover_level
            for seat, state in enumerate(room.seats):
                if state.person and state.token_hash is None:
                    room.seats[seat] = SeatRow(bot_name(seat, level), level, None)
                    await asyncio.to_thread(registry.store.make_bot_seat, room.id, seat, room.seats[seat].name, level)
            await self._deal(None)
        self._dealt()

    async def leave(self, seat: int) -> None:
        room = self.room
        async with room.lock:
            self.check_driving()
            if room.over:
                # Nobody plays on, so no bot takes the seat; and a seat given up here would lose its own
                # evening: the record, the open replays and "Play again" ask for its token.
                raise ServerError("over", "this table's evening is over: there is no seat to leave (yours keeps "
                                  "its record, its replays and Play again)", status=409)
            state = room.seats[seat]
            await asyncio.to_thread(room.registry.store.leave_seat, room.id, seat, room.status != "waiting")
            if room.status == "waiting":
                room.seats[seat] = SeatRow(open_name(seat), None, None)
            else:
                state.token_hash, state.left = None, True
        room.close_clients(seat)
        if room.status == "playing":
            await self.set_bot(seat, room.registry.settings.takeover_level)
        self.seats_changed()

    # ------------------------------------------------------------------------------------- presence
    async def presence_changed(self, seat: int) -> None:
        """A seat's first client came or its last one went (here or elsewhere): hand the seat back from its
        bot, or start the grace period after which a bot plays it."""
        room = self.room
        if self.connected(seat) > 0:
            self.schedule.back(seat)
            state = room.seats[seat]
            if state.person and not state.left and room.table is not None and room.table.bots[seat] is not None:
                await self.set_bot(seat, None)
        else:
            self.schedule.start_away(seat)
        self.seats_changed()
        await self.schedule.presence_changed()  # between hands, the only person awaited may have gone

    async def presence_elsewhere(self, process: str, counts: dict[int, int]) -> None:
        """The clients another process holds, per seat (it sends all of them at each change; none: forget it)."""
        before = {seat: self.connected(seat) for seat in range(len(self.room.seats))}
        if counts:
            self.elsewhere[process] = counts
        else:
            self.elsewhere.pop(process, None)
        for seat in range(len(self.room.seats)):
            if (self.connected(seat) > 0) != (before[seat] > 0):
                await self.presence_changed(seat)

    # ------------------------------------------------------------------------------------- life
    async def ready_for(self, since: int | None) -> None:
        await self.room.fresh()

    async def recheck_seats(self) -> bool:
        return False  # a host's seats are the table's

    def start_clocks(self) -> None:
        """At the start of the evening, after a restart or a takeover: the grace periods of the seats nobody
        plays, then the table's next move of its own, if it has one."""
        self.schedule.start_clocks()
        self.plan()

    def begin(self) -> None:
        """Just loaded: a table waiting or in play goes on (its clocks), and other processes learn who drives it."""
        if not self.room.over:
            self.start_clocks()
            self.room.registry.placement.announce(self)

    def resumed(self) -> None:
        self.plan()

    def halt(self) -> list[asyncio.Task[None]]:
        return self.schedule.cancel()

    def retire(self) -> None:
        self.retired = True
        self.schedule.cancel()
