"""Stops actions: one frozen value per decision, as written in records (docs/records.md R-NOTE-3).

>>> a = Action.from_json({"seat": 2, "action": "bid", "amount": 3})
>>> a
Action(seat=2, kind='bid', card=None, amount=3)
>>> a.to_json()
{'seat': 2, 'action': 'bid', 'amount': 3}
>>> Action.from_json({"seat": 0, "action": "lead", "card": "10♦"}).to_json()
{'seat': 0, 'action': 'lead', 'card': 'Td'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from rummoli.cards import Card, CardError
from rummoli.errors import MalformedInput, action_kind, quote

#: The stops action kinds (R-NOTE-3) and the one field each carries, if any.
KINDS: Final[dict[str, str | None]] = {
    "swap": None, "keep": None,                 # the dealer's widow choice
    "bid": "amount", "pass": None,              # the widow auction
    "check": None, "bet": "amount", "call": None, "raise": "amount", "fold": None,  # poker round
    "lead": "card", "play": "card",             # play round
    "claim": None,                              # announce mode
}


@dataclass(frozen=True, slots=True)
class Action:
    """A seat's decision.  ``card`` for ``lead``/``play``; ``amount`` for ``bid``/``bet``/``raise``
    (a raise's amount is what it adds on top of the call)."""

    seat: int
    kind: str
    card: Card | None = None
    amount: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "action": self.kind}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.amount is not None:
            out["amount"] = self.amount
        return out

    @staticmethod
    def from_json(data: object) -> Action:
        """Read an R-NOTE-3 object; anything unreadable raises :class:`MalformedInput`.

        An object read before (the same keys in the same order, each value equal and of the same type: ``true``
        is not ``1``) is the action read then, from :data:`_READ` (actions are frozen); a table reads every
        action it is sent, and its bots' are the few its legal actions list."""
        key: tuple[Any, ...] | None = None
        if type(data) is dict:
            key = tuple([(name, value.__class__, value) for name, value in data.items()])
            try:
                known = _READ.get(key)
            except TypeError:  # a value that is no key (a list, an object): read as anything else is
                known = key = None
            if known is not None:
                return known
        action = Action._read(data)
        if key is not None:
            if len(_READ) >= READ_KEPT:
                _READ.clear()
            _READ[key] = action
        return action

    @staticmethod
    def _read(data: object) -> Action:
        """:meth:`from_json` without its memory."""
        if not isinstance(data, dict):
            raise MalformedInput(f"an action is an object, got {quote(data)}", "R-NOTE-3")
        kind = action_kind(data, "stops", list(KINDS))
        needs = KINDS[kind]
        extra = set(data) - {"seat", "action", "forced"} - ({needs} if needs else set())
        if extra:
            raise MalformedInput(f"{quote(kind)} takes no {quote(sorted(map(str, extra)))}", "R-NOTE-3")
        if "forced" in data and not isinstance(data["forced"], bool):
            raise MalformedInput(f'"forced" is true or false, not {quote(data["forced"])}', "R-NOTE-3")
        card: object = None
        if needs == "card":
            text = data.get("card")
            if not isinstance(text, str):
                raise MalformedInput(f'{quote(kind)} needs a "card" written as text, got {quote(text)}', "R-NOTE-3")
            try:
                card = Card.parse(text)
            except CardError:
                raise MalformedInput(f"{quote(kind)}: {quote(text)} is not a card", "R-NOTE-1") from None
        return check_action(Action(data.get("seat"), kind, card, data.get("amount")))  # type: ignore[arg-type]

    def __str__(self) -> str:
        tail = f" {self.card}" if self.card is not None else f" {self.amount}" if self.amount is not None else ""
        return f"seat {self.seat} {self.kind}{tail}"


#: the actions :meth:`Action.from_json` read, by their objects' items (the one key type ``tuple`` holds all kinds)
_READ: dict[tuple[Any, ...], Action] = {}
#: how many it keeps before it starts afresh (amounts make the objects a table may be sent unbounded)
READ_KEPT = 4096


@dataclass(frozen=True, slots=True)
class AmountRange:
    """A bid, bet or raise offered as ONE legal action: any whole ``amount`` from ``min`` to ``max``.

    Legal actions list amounts this way (never one action per amount), so a stack of a million chips
    costs no more to offer than a stack of ten.  The action a player submits still carries its amount:

    >>> r = AmountRange(1, "bet", 1, 10)
    >>> r.to_json()
    {'seat': 1, 'action': 'bet', 'min': 1, 'max': 10}
    >>> r.at(4), r.at(4) in r, Action(1, "bet", amount=11) in r
    (Action(seat=1, kind='bet', card=None, amount=4), True, False)
    """

    seat: int
    kind: str
    min: int
    max: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.kind, "min": self.min, "max": self.max}

    def at(self, amount: int) -> Action:
        """The action of this kind with ``amount`` (not checked against the range: see ``in``)."""
        return Action(self.seat, self.kind, None, amount)

    def __contains__(self, action: object) -> bool:
        return (isinstance(action, Action) and action.seat == self.seat and action.kind == self.kind
                and isinstance(action.amount, int) and self.min <= action.amount <= self.max)

    def __str__(self) -> str:
        return f"seat {self.seat} {self.kind} {self.min}..{self.max}"


#: What ``legal_actions()`` lists: a fixed action, or an amount kind's whole range.
Legal = Action | AmountRange


def check_action(action: object) -> Action:
    """``action`` itself if it is a stops :class:`Action` of a well-formed shape, else
    :class:`MalformedInput` (R-NOTE-3): a whole-number seat, a known kind, a :class:`Card` exactly
    for ``lead`` and ``play``, a whole-number amount exactly for ``bid``, ``bet`` and ``raise``.

    Whether the seat, card or amount is allowed now is for the hand's rules to say, not this check.

    >>> check_action(Action(True, "pass"))  # type: ignore[arg-type]
    Traceback (most recent call last):
    ...
    rummoli.errors.MalformedInput: R-NOTE-3: an action's seat is a whole number, not true
    """
    if not isinstance(action, Action):
        raise MalformedInput(f"not a stops action: {quote(action)}", "R-NOTE-3")
    kind, seat, card, amount = action.kind, action.seat, action.card, action.amount
    if not isinstance(kind, str) or kind not in KINDS:
        raise MalformedInput(f"unknown stops action {quote(kind)}", "R-NOTE-3")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise MalformedInput(f"an action's seat is a whole number, not {quote(seat)}", "R-NOTE-3")
    needs = KINDS[kind]
    if needs == "card":
        if not isinstance(card, Card):
            raise MalformedInput(f"{quote(kind)} needs a card, not {quote(card)}", "R-NOTE-3")
    elif card is not None:
        raise MalformedInput(f"{quote(kind)} takes no card", "R-NOTE-3")
    if needs == "amount":
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise MalformedInput(f"{quote(kind)} needs a whole-number amount, not {quote(amount)}", "R-NOTE-3")
    elif amount is not None:
        raise MalformedInput(f"{quote(kind)} takes no amount", "R-NOTE-3")
    return action
