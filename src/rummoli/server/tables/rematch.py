"""Play again: at the evening's end one of its people makes a new table with the same seats, bots and
options, and everyone else at the table is invited to take their seat there with one click.

Each person's seat at the new table is held for them by a token of its own, made here. The table keeps those
tokens in memory only, and gives each one to nobody but the clients of that seat (the ``rematch`` message
its own connection receives, or the answer to its own ``POST /api/tables/{id}/rematch``); a spectator, and
every other seat, learns only where the new table is. A seat whose person left the evening, and an open
one, is a bot's at the new table. With every person's seat held, the new evening starts at once: a person
who does not come is played by a bot after the grace period, as at any table.

The process that drives the old table makes the new one (a follower forwards the request to it, as it does an
action) and tells the other processes that show the old table, through its placement, so that their clients
are invited too, each with its own seat's token only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummoli.server.storage.rows import SeatRow, token_hash
from rummoli.server.tables.errors import ServerError
from rummoli.server.tables.host import Host
from rummoli.server.tables.names import bot_name, new_token

if TYPE_CHECKING:
    from rummoli.server.tables.room import Room


@dataclass
class Again:
    """The rematch of a table: the new table's id, who made it, and each person's token there."""

    table: str
    by: str
    tokens: dict[int, str] = field(default_factory=dict)


def invitation(room: Room, seat: int | None) -> dict[str, Any] | None:
    """The ``rematch`` message for a client of ``seat`` (None: a spectator), or None when there is none."""
    again: Again | None = room.again
    if again is None:
        return None
    token = again.tokens.get(seat) if seat is not None else None
    return {"type": "rematch", "table": again.table, "by": again.by, "seat": seat if token else None,
            "token": token}


def new_seats(room: Room, level: str) -> tuple[list[SeatRow], dict[int, str]]:
    """The seats of the new table, and the token that holds each person's."""
    seats: list[SeatRow] = []
    tokens: dict[int, str] = {}
    for seat, state in enumerate(room.seats):
        if state.bot is not None:
            seats.append(SeatRow(state.name, state.bot, None))
        elif state.left or state.token_hash is None:
            seats.append(SeatRow(bot_name(seat, level), level, None))
        else:
            tokens[seat] = new_token()
            seats.append(SeatRow(state.name, None, token_hash(tokens[seat])))
    return seats, tokens


async def play_again(room: Room, seat: int) -> tuple[str, str]:
    """``seat`` asks for a rematch of the finished evening: the new table's id and that seat's token there (the
    same table for everyone who asks)."""
    registry = room.registry
    keeper = room.keeper
    if not isinstance(keeper, Host):
        forward = getattr(keeper, "forward_rematch", None)
        if forward is None:
            raise ServerError("unavailable", "this table cannot be reached from here now; try again", status=503)
        made_elsewhere: tuple[str, str] = await forward(seat)
        return made_elsewhere
    async with room.lock:
        made = room.again is None
        if made:
            if not room.over:
                raise ServerError("unavailable", "play again once the evening is over", status=409)
            level = registry.settings.takeover_level
            seats, tokens = new_seats(room, level)
            options = dict(room.options)
            options["seats"] = [s.bot for s in seats]
            if options.get("seed"):
                options["seed"] = f"{str(options['seed'])[:56]}/again"
            new_room = await registry.open_table(options, seat, seats)
            room.again = Again(new_room.id, room.seats[seat].name, tokens)
        again: Again = room.again
    token = again.tokens.get(seat)
    if token is None:
        raise ServerError("unavailable", "your seat has no place at the new table", status=409)
    if made:
        invite(room)
        registry.placement.publish_news(room.id, {"kind": "rematch", "again": {
            "table": again.table, "by": again.by, "tokens": {str(k): v for k, v in again.tokens.items()}}})
    return again.table, token


def invite(room: Room) -> None:
    """Every client of the table in this process is told of the rematch (a seat's own token to its clients)."""
    for listener in room.registry.hub.listeners(room.id):
        told = invitation(room, listener.seat)
        if told is not None:
            listener.send(told)


def heard(room: Room, again: dict[str, Any]) -> None:
    """The process that drives the table made its rematch: this process's clients of it are invited."""
    tokens = again.get("tokens")
    if room.again is not None or not isinstance(tokens, dict):
        return
    room.again = Again(str(again.get("table")), str(again.get("by")), {int(k): str(v) for k, v in tokens.items()})
    invite(room)
