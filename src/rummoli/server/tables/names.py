"""The names at a table: unique among its seats, people's and bots' alike, as a person would read them.

A name identifies nobody to the server (a seat is its number, a person is their seat token), but the hands'
records and their texts name the players, so two seats of one table never share a name. Names are compared
by :func:`rummoli.seating.name_key`, as the table itself compares them: Unicode-normalised (NFKC), case-folded,
without the joiners (which draw nothing) and with their spaces collapsed, so "Bot 1 (EASY)", "bot 1 (easy)" and the
same in full-width letters are one name. The names the table gives seats itself are kept: the computer players'
(:func:`bot_name`) and an open seat's ("Seat 3", shown in the lobby until someone takes it); a person may take none
of them, at any seat. So is "You", the name the game's sentences speak to ("You pass"): at a shared table every
sentence about that player would read, to everyone, as if it were about the reader.

>>> print(clash("bot 2 (normal)", []))
the name "bot 2 (normal)" is kept for the computer players
>>> print(clash("seat 3", []))
the name "seat 3" is kept for a seat nobody has taken
>>> print(clash(" YOU", []))
the name " YOU" is kept: the game's sentences speak to a player of that name ("You pass")
>>> print(clash("ANN", ["Ann", "Bot 2 (easy)"]))
someone at this table is already called "Ann"
>>> clash("Bob", ["Ann", "Bot 2 (easy)"]) is None
True
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable

from rummoli.errors import quote
from rummoli.seating import name_key, open_name

_BOT = re.compile(r"bot \d+ \((random|easy|normal|hard)\)")
_OPEN = re.compile(r"seat \d+")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def bot_name(seat: int, level: str) -> str:
    return f"Bot {seat + 1} ({level})"


def clash(name: str, taken: Iterable[str]) -> str | None:
    """Why a person may not take ``name`` beside the names ``taken`` at the table (one line), or None."""
    key = name_key(name)
    if _BOT.fullmatch(key):
        return f"the name {quote(name)} is kept for the computer players"
    if _OPEN.fullmatch(key):
        return f"the name {quote(name)} is kept for a seat nobody has taken"
    if key == "you":
        return f'the name {quote(name)} is kept: the game\'s sentences speak to a player of that name ("You pass")'
    for other in taken:
        if name_key(other) == key:  # the name as the table shows it: "ann" is refused for an Ann already there
            return f"someone at this table is already called {quote(other)}"
    return None


__all__ = ["bot_name", "clash", "new_token", "open_name"]  # open_name: rummoli.seating's, used beside these
