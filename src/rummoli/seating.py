"""The seats of a table and their names, checked before an evening starts (:class:`rummoli.table.Table`).

The players' names are all that tells the seats apart in the sentences, the records, the standings and a cut for
the deal (R-MI-1, which names who cut what), so no two seats of one table may have names that read alike. Two names
read alike when their :func:`name_key` is the same: Unicode-normalised (NFKC), case-folded, without the joiners
(which draw nothing) and with their spaces collapsed, so "Ann", " ANN " and "An\u200dn" are one name. The server
compares the names a person asks for in the same way (:mod:`rummoli.server.tables.names`), and so does a record's
reader (:func:`rummoli.records.check_names`).

>>> name_key("  Ｂｏｔ  1 (EASY) ") == name_key("bot 1 (easy)"), name_key("An\u200dn") == name_key("Ann")
(True, True)
>>> alike(["Ann", "Bob", " ann"]), alike(["Ann", "Bob"])
((0, 2), None)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Protocol

from rummoli.errors import MalformedInput, quote
from rummoli.limits import JOINERS

MAX_SEATS = 8
MAX_NAME = 40

_UNDRAWN = dict.fromkeys(map(ord, JOINERS))  # the joiners draw nothing: "An\u200dn" reads as "Ann"


class Seated(Protocol):
    """A seat as a table is given it (:class:`rummoli.table.Seat`): a name, and a bot level or None."""

    @property
    def name(self) -> str: ...

    @property
    def bot(self) -> str | None: ...


def open_name(seat: int) -> str:
    """What an open seat is called until a person takes it (the lobby shows it; the server keeps it for that)."""
    return f"Seat {seat + 1}"


def name_key(name: str) -> str:
    """What two names that read alike have in common (see the module's docstring)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.translate(_UNDRAWN).split())


def alike(names: Sequence[str]) -> tuple[int, int] | None:
    """The first two seats whose names read alike (the earlier seat first), or None when every name is its own."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            return seen[key], seat
        seen[key] = seat
    return None


def check_seats(seats: Sequence[Seated], levels: Sequence[str]) -> None:
    """Refuse, in one line, a table of too few or too many seats, a name too long or empty, an unknown bot level, or
    two seats whose names read alike (bots' included: a bot named as a person could not be told from them)."""
    if not 2 <= len(seats) <= MAX_SEATS:
        raise MalformedInput(f"a table seats 2 to {MAX_SEATS} players, not {len(seats)}")
    for seat in seats:
        if not isinstance(seat.name, str) or not 1 <= len(seat.name) <= MAX_NAME:
            raise MalformedInput(f"a seat's name is 1 to {MAX_NAME} characters")
        if seat.bot is not None and seat.bot not in levels:
            raise MalformedInput(f"unknown bot level {quote(seat.bot)} (levels: {', '.join(levels)})")
    pair = alike([seat.name for seat in seats])
    if pair is not None:
        first, second = pair
        raise MalformedInput(f"seats {first} and {second} are both called {quote(seats[first].name)}: "
                             "each player needs a name of their own (case and spaces aside)")
