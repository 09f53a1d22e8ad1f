"""The error types every part of Rummoli raises.

Two families, so that a caller can tell a garbled message from a legal-looking
move the rules forbid:

* :class:`MalformedInput` -- text or data that cannot be read at all (a bad card,
  a broken record, an unknown option). It is also a :class:`ValueError`.
* :class:`IllegalAction` -- a well-formed action the rules refuse. It carries the
  id of the rule it breaks (``R-PLAY-3`` ...), as docs/rules.md R-ERR-1 asks.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, Final

#: The most characters of a bad value any error message quotes (docs/records.md R-NOTE-6).
QUOTE_LIMIT: Final = 80


class RummoliError(Exception):
    """Base of every error raised on purpose by Rummoli."""


class MalformedInput(RummoliError, ValueError):
    """Input that cannot be understood: the message quotes the offending text (see :func:`quote`).

    ``rule`` names the rule that defines the input's shape, when one does (``R-NOTE-3`` for an
    action); the message then starts with it, as an :class:`IllegalAction`'s does.
    """

    def __init__(self, message: str = "", rule: str | None = None) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.message = message


class StaleAction(RummoliError):
    """An action sent for a state that has moved on: the ``seq`` it carries is not the table's."""

    def __init__(self, sent: int, current: int) -> None:
        super().__init__(f"stale action: it was sent at seq {quote(sent)}, the table is at seq {current}")
        self.sent = sent
        self.current = current


class IllegalAction(RummoliError):
    """A well-formed action that the rules forbid; ``rule`` names the rule id."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


#: How deep :func:`quote` writes nested lists and objects; deeper ones are written ``[...]`` and ``{...}``.
QUOTE_DEPTH: Final = 3
#: Whole numbers of more bits than this (about 60 digits) are quoted by their number of digits.
_LONG_BITS: Final = 200
_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
                   "\f": "\\f"}


class _Full(Exception):
    """The quote is longer than its limit already: nothing more is written."""


class _Quote:
    """One value written in JSON's spelling into at most ``room`` characters (see :func:`quote`)."""

    __slots__ = ("parts", "room")

    def __init__(self, room: int) -> None:
        self.parts: list[str] = []
        self.room = room

    def put(self, text: str) -> None:
        self.parts.append(text)
        self.room -= len(text)
        if self.room < 0:
            raise _Full

    def value(self, value: object, depth: int) -> None:
        if value is None:
            self.put("null")
        elif value is True or value is False:
            self.put("true" if value else "false")
        elif isinstance(value, str):
            # Only as many characters as there is room for are looked at: a 50 MB string costs no more than 80.
            self.put('"' + _escape(str.__getitem__(value, slice(0, self.room + 1))))
            self.put('"')
        elif isinstance(value, int):
            self.put(_whole(value))
        elif isinstance(value, float):
            self.put(float.__repr__(value) if math.isfinite(value) else
                     "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity")
        elif isinstance(value, dict):
            self.items(iter(dict.items(value)), depth, "{", "}", pairs=True)
        # The built-in's own items, whatever a subclass says they are.
        elif isinstance(value, list):
            self.items(list.__iter__(value), depth, "[", "]")
        elif isinstance(value, tuple):
            self.items(tuple.__iter__(value), depth, "[", "]")
        elif isinstance(value, set):
            self.items(set.__iter__(value), depth, "[", "]")
        elif isinstance(value, frozenset):
            self.items(frozenset.__iter__(value), depth, "[", "]")
        else:
            self.put(_kind(value))

    def items(self, items: Iterator[Any], depth: int, start: str, end: str, pairs: bool = False) -> None:
        """A list's items, or an object's ``(key, value)`` ``pairs``, between ``start`` and ``end``. Each one written
        costs a character at least, so no more of a long list is read than fits."""
        item: Any = next(items, _END)
        if item is _END:
            self.put(start + end)
            return
        if depth >= QUOTE_DEPTH:
            self.put(start + "..." + end)
            return
        self.put(start)
        while True:
            if pairs:
                self.value(item[0], depth + 1)  # a key that is not text (none is, read from JSON) is written as a value
                self.put(": ")
                self.value(item[1], depth + 1)
            else:
                self.value(item, depth + 1)
            item = next(items, _END)
            if item is _END:
                break
            self.put(", ")
        self.put(end)


_END: Final = object()


def _escape(text: str) -> str:
    """``text`` as between a JSON string's quotes: printable letters of any script as they are, every character
    Python does not count as printable (controls, a line or paragraph separator, a right-to-left override or another
    format character, an unassigned code point) as ``\\uXXXX``, and ``"`` and ``\\`` escaped."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return text
    return "".join(_ESCAPES.get(c) or (c if c.isprintable() else _code(c)) for c in text)


def _code(c: str) -> str:
    n = ord(c)
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"  # a pair of surrogates, as JSON writes it


def _whole(value: int) -> str:
    """A whole number's digits, or, past about 60 of them, how many there are (counted without writing them)."""
    size = int.__abs__(value)
    if size.bit_length() <= _LONG_BITS:
        return int.__repr__(value)
    # log10 reads a number of any size in microseconds; only right next to a power of ten is it compared exactly,
    # with the power made (a millisecond at 50,000 digits; past them the count may be one too few: "about").
    log = math.log10(size)
    near = round(log)
    if abs(log - near) >= 1e-6:
        return f"a whole number of {math.floor(log) + 1} digits"
    if near > 50_000:
        return f"a whole number of about {near} digits"
    return f"a whole number of {near + 1 if size >= 10**near else near} digits"


def _kind(value: object) -> str:
    """A value JSON has no spelling for, named by its type: ``<Card>``."""
    return f"<{_escape(type(value).__name__[:QUOTE_LIMIT])}>"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` written as JSON writes it (``true``, ``null``, ``"text"``, ``{"key": [1, 2]}``) in at most ``limit``
    characters, for quoting untrusted input in a message: what a client sent is shown as it sent it.

    Cheap whatever the value's size: a 50 MB string, a list of a million items, a structure nested a thousand deep
    or an integer of ten thousand digits are all cut short before they are written. A quote is always one line
    of printable text: a newline, an escape, a right-to-left override or any other character Python does not count
    as printable is written as a JSON escape (``\\n``, ``\\u001b``, ``\\u202e``), while letters of every script
    stay readable. A value JSON has no spelling for is named by its type; quoting never raises.

    >>> print(quote({"seq": True, "action": None, "cards": ["Td", 3.5]}))
    {"seq": true, "action": null, "cards": ["Td", 3.5]}
    >>> print(quote("café\\n\\u202e\\x1b[31m"))
    "café\\n\\u202e\\u001b[31m"
    >>> len(quote("x" * 10_000))
    80
    >>> quote(10 ** 5000)
    'a whole number of 5001 digits'
    >>> quote([[[[1]]]])
    '[[[[...]]]]'
    >>> quote(object())
    '<object>'
    """
    writer = _Quote(limit)
    try:
        writer.value(value, 0)
    except _Full:
        pass
    except Exception:  # a value that cannot be read (its __class__ raises, a dict changed meanwhile): its type only
        return _kind(value)[:limit]
    text = "".join(writer.parts)
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."[:limit]


def action_kind(data: dict[str, object], family: str, kinds: Sequence[str]) -> str:
    """The kind an action object names under ``"action"``, or :class:`MalformedInput` saying what is wrong, the
    kinds that exist included (a client that sent ``"type"`` instead is told where the kind goes).

    >>> action_kind({"type": "pass"}, "stops", ["pass", "bid"])
    Traceback (most recent call last):
    ...
    rummoli.errors.MalformedInput: R-NOTE-3: a stops action names its kind under "action" (pass, bid)
    """
    if "action" not in data:
        raise MalformedInput(f'a {family} action names its kind under "action" ({", ".join(kinds)})', "R-NOTE-3")
    kind = data["action"]
    if not isinstance(kind, str) or kind not in kinds:
        raise MalformedInput(f"unknown {family} action {quote(kind)} ({', '.join(kinds)})", "R-NOTE-3")
    return kind
