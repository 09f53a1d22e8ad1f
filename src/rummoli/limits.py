"""The largest numbers, texts and inputs the engines accept (docs/records.md R-NOTE-6; docs/limits.md).

Every value that reaches a view, an event or a record is bounded, so that no input -- a record sent
by a stranger, a custom ruleset, a table's options -- can make a view large or a computation slow.
The bounds are far above any real game: a table of eight with a billion chips each fits.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from rummoli.errors import MalformedInput, quote

#: Starting chips per player (a stops ruleset's ``starting_chips``, a table's ``chips``).
MAX_START_CHIPS: Final = 10**9
#: Any one stack or pot balance in a record or a hand: room for eight starting stacks and more.
MAX_CHIPS: Final = 10**10
#: One pot's ante on a board.
MAX_ANTE: Final = 10**6
#: A stops ruleset's ``max_bet`` (the largest bet or raise in the poker round).
MAX_BET: Final = 10**6
#: Pots on one board (a pot for every card would be 52).
MAX_POTS: Final = 64
#: A Rummy running score, either sign (targets are at most 100,000).
MAX_SCORE: Final = 10**9
#: A player's, a ruleset's, a board's or a pot's name or title, in characters.
MAX_NAME: Final = 64
#: A ruleset's ``description`` (one line of what the game is), in characters.
MAX_DESCRIPTION: Final = 300
#: The largest hand record or evening record read, in bytes.
MAX_RECORD_BYTES: Final = 64 << 20
#: How deep a record's JSON may nest (a real one nests 7 deep at most).
MAX_DEPTH: Final = 64
#: Digits in any whole number of a record (a chip count needs 11).
MAX_DIGITS: Final = 30


#: Unicode categories no name, title or description may hold: controls (a newline, NUL, the escape that starts a
#: terminal's colour codes), format characters (right-to-left overrides that make a text read otherwise) but for the
#: joiners of emoji and scripts, surrogates, private use and unassigned characters.
_NOT_TEXT: Final = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
_JOINERS: Final = frozenset(("\u200c", "\u200d"))


def text_line(value: object, where: str, longest: int = MAX_NAME, shortest: int = 0) -> str:
    """``value`` if it is one line of plain text of ``shortest`` to ``longest`` characters (a ruleset's, a board's or a
    pot's name, title or description: shown in lobbies, pages, terminals and logs); else MalformedInput naming
    ``where``."""
    if not isinstance(value, str) or not shortest <= len(value) <= longest:
        size = f"at most {longest}" if shortest == 0 else f"{shortest} to {longest}"
        raise MalformedInput(f"{where} must be text of {size} characters, got {quote(value)}")
    for c in value:
        if unicodedata.category(c) in _NOT_TEXT and c not in _JOINERS:
            raise MalformedInput(f"{where} must be one line of plain text, without control characters "
                                 f"(found U+{ord(c):04X}), got {quote(value)}")
    return value
