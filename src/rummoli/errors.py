"""The error types every part of Rummoli raises.

Two families, so that a caller can tell a garbled message from a legal-looking
move the rules forbid:

* :class:`MalformedInput` -- text or data that cannot be read at all (a bad card,
  a broken record, an unknown option). It is also a :class:`ValueError`.
* :class:`IllegalAction` -- a well-formed action the rules refuse. It carries the
  id of the rule it breaks (``R-PLAY-3`` ...), as RULES.md R-ERR-1 asks.
"""

from __future__ import annotations


class RummoliError(Exception):
    """Base of every error raised on purpose by Rummoli."""


class MalformedInput(RummoliError, ValueError):
    """Input that cannot be understood: the message quotes the offending text."""


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
