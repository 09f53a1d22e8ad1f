"""The names at a table: unique among its seats, people's and bots' alike, as a person would read them.

A name identifies nobody to the server (a seat is its number, a person is their seat token), but the hands'
records and their texts name the players, so two seats of one table never share a name. Names are compared
by :func:`name_key`: Unicode-normalised (NFKC), case-folded, without the joiners (which draw nothing) and with
their spaces collapsed, so "Bot 1 (EASY)", "bot 1 (easy)" and the same in full-width letters are one name. The
names the computer players get (:func:`bot_name`) are kept for them: a person may take none of them, at any seat.

>>> name_key("  Ｂｏｔ  1 (EASY) ") == name_key("bot 1 (easy)"), name_key("An\u200dn") == name_key("Ann")
(True, True)
>>> print(clash("bot 2 (normal)", []))
the name "bot 2 (normal)" is kept for the computer players
>>> print(clash("ANN", ["Ann", "Bot 2 (easy)"]))
someone at this table is already called "Ann"
>>> clash("Bob", ["Ann", "Bot 2 (easy)"]) is None
True
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Iterable

from rummoli.errors import quote
from rummoli.limits import JOINERS

_UNDRAWN = dict.fromkeys(map(ord, JOINERS))  # the joiners draw nothing: "An\u200dn" reads as "Ann"
_BOT = re.compile(r"bot \d+ \((random|easy|normal|hard)\)")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def bot_name(seat: int, level: str) -> str:
    return f"Bot {seat + 1} ({level})"


def name_key(name: str) -> str:
    """What two names that read alike have in common (see the module's docstring)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.translate(_UNDRAWN).split())


def clash(name: str, taken: Iterable[str]) -> str | None:
    """Why a person may not take ``name`` beside the names ``taken`` at the table (one line), or None."""
    key = name_key(name)
    if _BOT.fullmatch(key):
        return f"the name {quote(name)} is kept for the computer players"
    for other in taken:
        if name_key(other) == key:  # the name as the table shows it: "ann" is refused for an Ann already there
            return f"someone at this table is already called {quote(other)}"
    return None
