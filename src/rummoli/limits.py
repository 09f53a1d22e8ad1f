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
#: Rounds of an evening record's cut for the first dealer (R-MI-1: a tie cuts again; a fifth round is rare already).
MAX_CUT_ROUNDS: Final = 16


#: The most combining marks (Unicode categories Mn and Me) one character may carry, counted in the decomposed form
#: (NFD), so that "é" typed as one character or as two counts the same. Real writing needs few: Vietnamese puts two on
#: a vowel ("ễ"), Thai a vowel and a tone mark, Devanagari a nukta and a virama, Hebrew a vowel point and a dot. A text
#: that piles up more ("Zalgo" text) draws them above and below its line, over the rows around it.
MAX_MARKS: Final = 3
_MARKS: Final = frozenset(("Mn", "Me"))

#: Unicode categories no name, title or description may hold: controls (a newline, NUL, the escape that starts a
#: terminal's colour codes), format characters (right-to-left overrides that make a text read otherwise) but for the
#: joiners of emoji and scripts, surrogates, private use and unassigned characters.
_NOT_TEXT: Final = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
#: The zero-width non-joiner and joiner: Persian and Indic names need the one, a family emoji is built with the other.
#: They draw nothing, so a text compared with another, or asked whether it shows anything, is read without them.
JOINERS: Final = "\u200c\u200d"
_JOINERS: Final = frozenset(JOINERS)


def text_line(value: object, where: str, longest: int = MAX_NAME, shortest: int = 0) -> str:
    """``value`` if it is one line of plain text of ``shortest`` to ``longest`` characters (a ruleset's, a board's or a
    pot's name, title or description: shown in lobbies, pages, terminals and logs); else MalformedInput naming
    ``where``."""
    if not isinstance(value, str) or not shortest <= len(value) <= longest:
        size = f"at most {longest}" if shortest == 0 else f"{shortest} to {longest}"
        raise MalformedInput(f"{where} must be text of {size} characters, got {quote(value)}")
    control = not_text(value)
    if control is not None:
        raise MalformedInput(f"{where} must be one line of plain text, without control characters "
                             f"(found {control}), got {quote(value)}")
    problem = stacked_marks(value)
    if problem is not None:
        raise MalformedInput(f"{where} {problem}")  # not the text itself: quoted, the pile would be drawn again
    return value


def not_text(text: str) -> str | None:
    """The first character of ``text`` that no line of plain text may hold (a control, a format character but for the
    joiners, ...), as ``U+001B``; None when there is none.

    >>> not_text("Ann Lee"), not_text("a\\nb"), not_text("\\u202eevil")
    (None, 'U+000A', 'U+202E')
    """
    for c in text:
        if unicodedata.category(c) in _NOT_TEXT and c not in _JOINERS:
            return f"U+{ord(c):04X}"
    return None


def shows_nothing(text: str) -> bool:
    """Whether ``text`` draws nothing: only spaces and joiners.

    >>> shows_nothing(" \u200d "), shows_nothing("\U0001F468\u200d\U0001F467")
    (True, False)
    """
    return not text.strip(JOINERS + " \t\n\r\f\v")


def stacked_marks(text: str) -> str | None:
    """What is wrong with ``text`` if one of its characters carries more than :data:`MAX_MARKS` combining marks (the
    end of a sentence naming what it is), else None. The joiners of scripts and emoji do not end a run of marks.

    >>> [stacked_marks(name) for name in ("Nguyễn Thị Phương", "प्रियंका", "สมศักดิ์", "Ọ̀ṣun", "a\u0301\u0316\u0300")]
    [None, None, None, None, None]
    >>> stacked_marks("a" + "\u0301\u0316" * 2)
    'may not stack more than 3 combining marks on one character (found 4 on "a")'
    """
    run, base, longest, on = 0, "", 0, ""
    for c in unicodedata.normalize("NFD", text):
        if unicodedata.category(c) in _MARKS:
            run += 1
            if run > longest:
                longest, on = run, base
        elif c not in _JOINERS:
            run, base = 0, c
    if longest <= MAX_MARKS:
        return None
    return f"may not stack more than {MAX_MARKS} combining marks on one character (found {longest} on {quote(on)})"
