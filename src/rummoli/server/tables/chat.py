"""A table's chat: its people write lines to each other (or send one of a few quick reactions), kept with the
table in the store, so a client that reconnects, or a server that restarts, shows them again.

A line is plain text, one line of at most :data:`MAX_LINE` characters (checked where the message is read,
rummoli.server.api.protocol); each seat may write :attr:`Settings.chat_rate` lines a second on average
(``chat_burst`` at once). A line names its writer by seat number; the name shown is read from the table's
seats when the line is sent out, never from the message. Spectators read the chat but do not write.

The process that drives the table takes every line: it checks the writer's rate, stores the line and sends it
to its own clients and, through its placement, to the other processes that show the table
(rummoli.server.cluster), which send it to theirs. A line written on another process is forwarded to it, as an
action is.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from rummoli.seating import open_name
from rummoli.server.buckets import RateLimit
from rummoli.server.tables.errors import ServerError
from rummoli.server.tables.host import Host

if TYPE_CHECKING:
    from rummoli.server.tables.room import Room

#: The quick reactions, by key, and their words.
REACTIONS = {"thumbs_up": "👍", "good_hand": "Good hand", "well_played": "Well played", "oops": "Oops"}
#: The longest line, in characters.
MAX_LINE = 200
#: The lines a client is shown when it connects (the store keeps them all).
SHOWN = 100


class Talk:
    """One table's chat in this process: its last lines as stored, and each seat's rate."""

    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self.lines: deque[dict[str, Any]] = deque(lines, maxlen=SHOWN)
        self.last = lines[-1]["n"] if lines else 0
        self.buckets: dict[int, RateLimit] = {}
        self.lock = asyncio.Lock()


async def talk_of(room: Room) -> Talk:
    """The room's chat, read from the store the first time."""
    if room.talk is None:
        lines = await asyncio.to_thread(room.registry.store.chat_lines, room.id, SHOWN)
        if room.talk is None:
            room.talk = Talk(lines)
    talk: Talk = room.talk
    return talk


def shown(room: Room, line: dict[str, Any]) -> dict[str, Any]:
    """A stored line as clients see it: its writer's seat and the name that seat has now."""
    seat = int(line["seat"])
    name = room.seats[seat].name if 0 <= seat < len(room.seats) else open_name(seat)
    reaction = line["text"] if line["kind"] == "reaction" else None
    return {"n": line["n"], "seat": seat, "name": name, "reaction": reaction,
            "text": REACTIONS.get(line["text"], "") if reaction else line["text"], "at": line["at"]}


async def history(room: Room) -> list[dict[str, Any]]:
    """The lines a client is shown when it connects (an empty list if the store does not answer)."""
    try:
        talk = await talk_of(room)
    except Exception:
        return []
    return [shown(room, line) for line in talk.lines]


async def say(room: Room, seat: int, text: str | None, reaction: str | None) -> None:
    """A seat writes ``text`` (already checked) or sends ``reaction``: kept by the process that drives the table
    (:func:`keep`), forwarded to it from another one. :class:`ServerError` when it is refused."""
    keeper = room.keeper
    if isinstance(keeper, Host):
        await keep(room, seat, text, reaction)
        return
    forward = getattr(keeper, "forward_chat", None)
    if forward is None:
        raise ServerError("unavailable", "this table's chat cannot be reached from here now; nothing was sent")
    await forward(seat, text, reaction)


async def keep(room: Room, seat: int, text: str | None, reaction: str | None) -> None:
    """In the process that drives the table: check the seat's rate, store the line, then send it to every client
    of the table, here and (through the placement) elsewhere. :class:`ServerError` (nothing kept) when it writes
    too fast or the store does not answer."""
    settings = room.registry.settings
    if reaction is not None and reaction not in REACTIONS:
        raise ServerError("malformed", f"reaction: one of {', '.join(REACTIONS)}")
    if reaction is None and not text:
        raise ServerError("malformed", "a chat message needs a text or a reaction")
    if reaction is not None and text:  # one would be lost: say which, rather than drop the words unsaid
        raise ServerError("malformed", "a chat message is a text or a reaction, not both: nothing was sent")
    try:
        talk = await talk_of(room)
    except Exception:
        raise ServerError("unavailable", "the database does not answer; nothing was sent, try again") from None
    bucket = talk.buckets.setdefault(seat, RateLimit(settings.chat_rate, settings.chat_burst))
    if not bucket.allow(time.monotonic()):
        raise ServerError("rate_limited", f"you are writing too fast: {settings.chat_burst} lines at once, then "
                                          f"one every {1 / settings.chat_rate:g} s; that line was not sent")
    kind, body = ("reaction", reaction) if reaction is not None else ("line", str(text))
    async with talk.lock:
        n, at = talk.last + 1, time.time()
        try:
            await asyncio.to_thread(room.registry.store.add_chat, room.id, n, seat, kind, body, at)
        except Exception:
            room.talk = None  # read again next time (another process may have numbered a line meanwhile)
            raise ServerError("unavailable", "the line could not be stored; nothing was sent, try again") from None
        line = {"n": n, "seat": seat, "kind": kind, "text": body, "at": at}
        talk.last = n
        talk.lines.append(line)
    message = {"type": "chat", "line": shown(room, line)}
    tell(room, message)
    room.registry.placement.publish_news(room.id, {"kind": "chat", "message": message})


def tell(room: Room, message: dict[str, Any]) -> None:
    """Send a chat message to every client of the table in this process."""
    for listener in room.registry.hub.listeners(room.id):
        listener.send(message)


def heard(room: Room, message: dict[str, Any]) -> None:
    """Another process stored a line of this table: its clients here get it, and the lines a client is shown
    when it connects are read from the store again."""
    room.talk = None
    tell(room, message)
