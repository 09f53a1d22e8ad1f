"""Rummy actions (RULES.md R-NOTE-3) as frozen values that read and write their JSON exactly.

>>> a = Action.from_json({"seat": 1, "action": "meld", "cards": ["7h", "7s", "7d"]})
>>> a.to_json()
{'seat': 1, 'action': 'meld', 'cards': ['7h', '7s', '7d']}
>>> Action.from_json({"seat": 0, "action": "draw", "from": "discard", "card": "9c"}).to_json()
{'seat': 0, 'action': 'draw', 'from': 'discard', 'card': '9c'}
>>> Action.from_json({"seat": 0, "action": "fly"})
Traceback (most recent call last):
...
rummoli.errors.MalformedInput: unknown Rummy action 'fly' (draw, meld, layoff, discard, knock, pass)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from rummoli.cards import Card, mask_of
from rummoli.errors import MalformedInput

KINDS: Final = ("draw", "meld", "layoff", "discard", "knock", "pass")


@dataclass(frozen=True, slots=True)
class Action:
    """One decision.  ``source`` is ``stock`` or ``discard`` for a draw; ``card`` is the card discarded,
    knocked with or laid off, or, for a draw from the discard pile, the deepest card taken (500 Rum; the
    top card when omitted); ``cards`` a meld's cards; ``meld`` the index, in table order, of the meld a
    lay-off goes on."""

    seat: int
    kind: str
    source: str = ""
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    meld: int = -1

    @property
    def mask(self) -> int:
        """The cards of a meld as a mask."""
        return mask_of(self.cards)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "action": self.kind}
        if self.kind == "draw":
            out["from"] = self.source
            if self.card is not None:
                out["card"] = str(self.card)
        elif self.kind == "meld":
            out["cards"] = [str(c) for c in self.cards]
        elif self.kind != "pass":
            out["card"] = str(self.card)
            if self.kind == "layoff":
                out["meld"] = self.meld
        return out

    def __str__(self) -> str:
        return " ".join(str(v) for v in self.to_json().values() if not isinstance(v, list)) + (
            " " + " ".join(str(c) for c in self.cards) if self.cards else ""
        )

    @staticmethod
    def from_json(data: object) -> Action:
        """Read an R-NOTE-3 object; anything unreadable raises ``MalformedInput`` saying what."""
        if not isinstance(data, dict):
            raise MalformedInput(f"an action is a JSON object, not {data!r}")
        seat, kind = data.get("seat"), data.get("action")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise MalformedInput(f"action needs a whole-number 'seat', got {seat!r}")
        if kind not in KINDS:
            raise MalformedInput(f"unknown Rummy action {kind!r} ({', '.join(KINDS)})")

        def card(key: str) -> Card:
            text = data.get(key)
            if not isinstance(text, str):
                raise MalformedInput(f"{kind} needs {key!r} naming a card, got {text!r}")
            return Card.parse(text)

        if kind == "draw":
            source = data.get("from")
            if source not in ("stock", "discard"):
                raise MalformedInput(f"draw needs 'from' = 'stock' or 'discard', got {source!r}")
            deepest = card("card") if "card" in data and source == "discard" else None
            return Action(seat, "draw", source=str(source), card=deepest)
        if kind == "pass":
            return Action(seat, "pass")
        if kind == "meld":
            texts = data.get("cards")
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise MalformedInput(f"meld needs 'cards', a list of cards, got {texts!r}")
            cards = tuple(Card.parse(t) for t in texts)
            mask_of(cards)  # refuses a card named twice
            return Action(seat, "meld", cards=cards)
        if kind == "layoff":
            index = data.get("meld")
            if isinstance(index, bool) or not isinstance(index, int):
                raise MalformedInput(f"layoff needs 'meld', the index of a meld on the table, got {index!r}")
            return Action(seat, "layoff", card=card("card"), meld=index)
        return Action(seat, str(kind), card=card("card"))


def draw(seat: int, source: str, card: Card | None = None) -> Action:
    return Action(seat, "draw", source=source, card=card)


def meld(seat: int, cards: tuple[Card, ...]) -> Action:
    return Action(seat, "meld", cards=cards)


def layoff(seat: int, card: Card, index: int) -> Action:
    return Action(seat, "layoff", card=card, meld=index)


def discard(seat: int, card: Card) -> Action:
    return Action(seat, "discard", card=card)


def knock(seat: int, card: Card) -> Action:
    return Action(seat, "knock", card=card)
