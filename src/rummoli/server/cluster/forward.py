"""Commands go to the owner: a follower's copy forwards each command of its clients to the process that drives
the table (:meth:`Forwarding.forward`), and the owner runs what it is sent (:meth:`Forwarding.on_command`).

An action that is done needs no answer of its own: the change it made, which the asking process follows,
names it. Refusals come back as the owner words them. A dead owner never answers; an action is safe to send
again since it carries its seq, so it stops waiting as soon as the table has another owner: this process
(``Cluster.take``), one the copy was told of (``Cluster.on_table``), or one the store names when the answer is
late (:meth:`Forwarding._check_ask`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from rummoli.server.cluster.bus import BusDown
from rummoli.server.cluster.copy import Copy
from rummoli.server.tables import chat, rematch
from rummoli.server.tables.errors import Moved, ServerError
from rummoli.server.tables.host import Host
from rummoli.server.tables.room import Room

if TYPE_CHECKING:
    from rummoli.server.cluster.placement import Cluster

log = logging.getLogger("rummoli.server")

#: The commands a follower may send its owner again when no answer comes: each carries the seq it was meant for,
#: so it cannot be applied twice.
RESENDABLE = ("act", "next")

#: Seconds a forwarded action waits for its answer before this process looks whether its table changed owner
#: (see Forwarding._check_ask).
ASK_CHECK = 0.25

Asked = asyncio.Future[dict[str, Any]]


class OwnerChanged(Exception):
    """The table changed owner while a forwarded action waited for the old one's answer."""


class Forwarding:
    """The commands this process forwards, and those it is forwarded (see the module's docstring)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        # forwarded actions whose change was published as their answer (see on_command)
        self.answered: set[str] = set()
        # actions forwarded: the copy that sent them, the owner asked, when
        self._asking: dict[Asked, tuple[Copy, str, float]] = {}
        # their timers (see _check_ask), and those whose table's owner is being looked up in the store
        self._checks: dict[Asked, asyncio.TimerHandle] = {}
        self._store_asked: dict[Asked, asyncio.Task[None]] = {}

    # ------------------------------------------------------------------------------------- asking
    async def forward(self, copy: Copy, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Have the owner run ``op`` and return its result. :class:`Moved` if this process has taken the table
        over meanwhile (the room then runs it here); refusals come back as :class:`ServerError`."""
        cluster = self.cluster
        table_id = copy.room.id
        for _attempt in range(3):
            if copy.retired:
                raise Moved()
            owner = copy.owner or await cluster.owner_name(table_id)
            if owner is None or owner == cluster.name:
                if await cluster.take(table_id) or copy.retired:
                    raise Moved()
                await asyncio.sleep(0.2)
                continue
            try:
                answer = await self.ask(copy, owner, op, args)
            except OwnerChanged:
                continue  # an action only (see ask): sent again to the new owner, or run here
            except BusDown:
                raise ServerError("unavailable", "another server process drives this table and cannot be reached "
                                                 "now (the message bus is down); try again soon", status=503) from None
            except TimeoutError:
                log.warning("table %s: %s forwarded to %s got no answer in time", table_id, op, owner)
                copy.owner = None
                if op in RESENDABLE:
                    continue  # safe to send again: it carries its seq, so it cannot be applied twice
                # A seat taken or left may have been done without its answer arriving: not sent twice.
                raise ServerError("unavailable", "the server process that drives this table did not answer in "
                                                 "time; look at the table before trying again", status=503) from None
            error = answer.get("error")
            if isinstance(error, dict) and error.get("code") == "moved":
                log.warning("table %s: %s forwarded to %s, which no longer drives it", table_id, op, owner)
                copy.owner = None
                await asyncio.sleep(0.1)
                continue
            if isinstance(error, dict):
                raise ServerError(str(error.get("code")), str(error.get("message")), error.get("rule"),
                                  error.get("seq"), int(error.get("status", 400)))
            result = answer.get("result")
            return result if isinstance(result, dict) else {}
        raise ServerError("unavailable", "the server process that drives this table did not answer; try again",
                          status=503)

    async def ask(self, copy: Copy, owner: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Send a command to ``owner`` and wait for its answer; an action stops waiting (:class:`OwnerChanged`)
        as soon as the table has another owner (see the module's docstring)."""
        bus = self.cluster.bus
        assert bus is not None
        asked = bus.ask(owner, {"kind": "cmd", "op": op, "table": copy.room.id, "args": args},
                        timeout=max(5.0, self.cluster.settings.lease_seconds))
        if op in RESENDABLE:
            self._asking[asked] = (copy, owner, time.monotonic())
            self._checks[asked] = asyncio.get_running_loop().call_later(ASK_CHECK, self._check_ask, asked)
            asked.add_done_callback(self._answered_ask)
        try:
            return await asked
        finally:
            self._asking.pop(asked, None)
            asked.cancel()  # cancelled here: nobody waits any more (a no-op once answered)

    def _answered_ask(self, asked: Asked) -> None:
        check = self._checks.pop(asked, None)
        if check is not None:
            check.cancel()  # nothing looks at an action once it is answered (or given up)

    def owner_moved(self, room: Room) -> None:
        """The actions forwarded for ``room`` to an owner it no longer has stop waiting (sent again by
        :meth:`forward`)."""
        for asked, (copy, owner, _since) in list(self._asking.items()):
            if (copy.room is room and not asked.done()
                    and (room.keeper is not copy or copy.owner not in (None, owner))):
                asked.set_exception(OwnerChanged())

    def _check_ask(self, asked: Asked) -> None:
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
        copy, owner, since = entry
        self.owner_moved(copy.room)
        if asked.done():
            return
        loop = asyncio.get_running_loop()
        self._checks[asked] = loop.call_later(ASK_CHECK, self._check_ask, asked)
        if time.monotonic() - since > 2 * ASK_CHECK and asked not in self._store_asked:
            self._store_asked[asked] = loop.create_task(self._ask_store_owner(asked, copy, owner))

    async def _ask_store_owner(self, asked: Asked, copy: Copy, owner: str) -> None:
        cluster = self.cluster
        try:
            found = await asyncio.to_thread(cluster.store.owner, copy.room.id)
        except Exception:
            return
        finally:
            self._store_asked.pop(asked, None)
        if found is not None and found[0] not in (None, owner) and not asked.done():
            copy.owner = found[0] if found[0] != cluster.name else None
            asked.set_exception(OwnerChanged())

    # ------------------------------------------------------------------------------------- answering
    async def on_command(self, message: dict[str, Any]) -> None:
        """Owner: a command another process forwarded (an action, a seat taken...), answered on the bus."""
        bus = self.cluster.bus
        assert bus is not None
        room = self.cluster.registry.rooms.get(str(message.get("table")))
        host = room.keeper if room is not None else None
        op, args = message.get("op"), message.get("args")
        if not isinstance(args, dict):
            return
        if op == "presence":
            if isinstance(host, Host):
                await host.presence_elsewhere(str(message.get("process")), {int(k): int(v) for k, v in args.items()})
            return
        moved = {"error": {"code": "moved", "message": "this process does not drive the table"}}
        if not isinstance(host, Host):
            bus.answer(message, moved)
            return
        result: dict[str, Any] = {}
        ask = message.get("ask")
        try:
            if op == "act":
                await host.act(int(args["seat"]), args["action"], args["seq"],
                               answers=ask if isinstance(ask, str) else None)
                if ask in self.answered:  # its change, told to the followers, was the answer
                    self.answered.discard(ask)
                    return
            elif op == "next":
                await host.next_ready(int(args["seat"]), int(args["seq"]))
            elif op == "join":
                seat, token = await host.join(str(args["name"]), args.get("seat"))
                result = {"seat": seat, "token": token}
            elif op == "leave":
                await host.leave(int(args["seat"]))
            elif op == "start":
                await host.start_now()
            elif op == "end":
                await host.end()
            elif op == "resume":
                await host.resume()
            elif op == "chat":
                text, reaction = args.get("text"), args.get("reaction")
                await chat.keep(host.room, int(args["seat"]), text if isinstance(text, str) else None,
                                reaction if isinstance(reaction, str) else None)
            elif op == "rematch":
                made, token = await rematch.play_again(host.room, int(args["seat"]))
                result = {"table": made, "token": token}
            else:
                raise ServerError("malformed", f"unknown command {str(op)[:40]!r}")
        except Moved:  # this process lost the table while the command waited: the asker finds the new owner
            bus.answer(message, moved)
            return
        except ServerError as error:
            bus.answer(message, {"error": {"code": error.code, "message": error.message, "rule": error.rule,
                                           "seq": error.seq, "status": error.status}})
            return
        except Exception:
            log.exception("table %s: a forwarded %s failed", host.room.id, op)
            bus.answer(message, {"error": {"code": "internal", "message": "the server could not do that; "
                                           "nothing changed", "status": 500}})
            return
        bus.answer(message, {"result": result})
