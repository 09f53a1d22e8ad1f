"""The error types every part of Rummoli raises.

Two families, so that a caller can tell a garbled message from a legal-looking
move the rules forbid:

* :class:`MalformedInput` -- text or data that cannot be read at all (a bad card,
  a broken record, an unknown option). It is also a :class:`ValueError`.
* :class:`IllegalAction` -- a well-formed action the rules refuse. It carries the
  id of the rule it breaks (``R-PLAY-3`` ...), as docs/rules.md R-ERR-1 asks.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Final

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
        super().__init__(f"stale action: it was sent at seq {sent}, the table is at seq {current}")
        self.sent = sent
        self.current = current


class IllegalAction(RummoliError):
    """A well-formed action that the rules forbid; ``rule`` names the rule id."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


_SHORT: Final = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 3, QUOTE_LIMIT, QUOTE_LIMIT, QUOTE_LIMIT


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` in at most ``limit`` characters, for quoting untrusted input in a message.

    Cheap whatever the value's size: a 50 MB string, a list of a million items, a structure nested a
    thousand deep or an integer of ten thousand digits are all cut short before they are printed.

    >>> len(quote("x" * 10_000))
    80
    >>> quote(10 ** 5000)
    'a whole number of 5001 digits'
    >>> quote([[[[1]]]])
    '[[[[...]]]]'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        digits = len(str(value)) if value.bit_length() < 10_000 else int(value.bit_length() * 0.30103) + 1
        return f"a whole number of {digits - (value < 0)} digits"
    try:
        text = _SHORT.repr(value)
    except (ValueError, RecursionError):  # a custom type whose repr fails: name its type only
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
