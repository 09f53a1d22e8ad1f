"""Rummy actions (docs/records.md R-NOTE-3) as frozen values that read and write their JSON exactly.

>>> a = Action.from_json({"seat": 1, "action": "meld", "cards": ["7h", "7s", "7d"]})
>>> a.to_json()
{'seat': 1, 'action': 'meld', 'cards': ['7h', '7s', '7d']}
>>> Action.from_json({"seat": 0, "action": "draw", "from": "discard", "card": "9c"}).to_json()
{'seat': 0, 'action': 'draw', 'from': 'discard', 'card': '9c'}
>>> Action.from_json({"seat": 0, "action": "fly"})
Traceback (most recent call last):
...
rummoli.errors.MalformedInput: R-NOTE-3: unknown Rummy action "fly" (draw, meld, layoff, discard, knock, pass)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from rummoli.cards import CARDS, NAMES, Card, CardError, cards_of, mask_of, names_of
from rummoli.errors import MalformedInput, action_kind, quote
from rummoli.rummy.base import DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, PASS, Move

KINDS: Final = ("draw", "meld", "layoff", "discard", "knock", "pass")
_KIND: Final = ("draw", "draw", "meld", "layoff", "discard", "knock", "pass")  # by move code (rummoli.rummy.base)
SOURCES: Final = ("stock", "discard")
#: The keys an R-NOTE-3 object of each kind may hold besides ``seat``, ``action`` and ``forced``.
FIELDS: Final = {"draw": ("from", "card"), "meld": ("cards",), "layoff": ("card", "meld"), "discard": ("card",),
                 "knock": ("card",), "pass": ()}


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
            raise MalformedInput(f"an action is a JSON object, not {quote(data)}", "R-NOTE-3")
        kind = action_kind(data, "Rummy", KINDS)
        extra = set(data) - {"seat", "action", "forced", *FIELDS[kind]}
        if extra:
            raise MalformedInput(f"{kind} takes no {quote(sorted(map(str, extra)))}", "R-NOTE-3")
        if "forced" in data and not isinstance(data["forced"], bool):
            raise MalformedInput(f'"forced" is true or false, not {quote(data["forced"])}', "R-NOTE-3")

        def card(key: str) -> Card:
            text = data.get(key)
            if not isinstance(text, str):
                raise MalformedInput(f"{kind} needs {quote(key)} naming a card, got {quote(text)}", "R-NOTE-3")
            try:
                return Card.parse(text)
            except CardError:
                raise MalformedInput(f"{kind}: {quote(text)} is not a card", "R-NOTE-1") from None

        seat: Any = data.get("seat")
        if kind == "draw":
            source = data.get("from")
            if source not in SOURCES:
                raise MalformedInput(f'draw needs "from": "stock" or "discard", got {quote(source)}', "R-NOTE-3")
            deepest = card("card") if "card" in data else None
            return check_action(Action(seat, "draw", source=str(source), card=deepest))
        if kind == "pass":
            return check_action(Action(seat, "pass"))
        if kind == "meld":
            texts = data.get("cards")
            if not isinstance(texts, list) or not 0 < len(texts) <= 52 or not all(isinstance(t, str) for t in texts):
                raise MalformedInput(f'meld needs "cards", a list of cards, got {quote(texts)}', "R-NOTE-3")
            try:
                cards = tuple(Card.parse(t) for t in texts)
            except CardError:
                raise MalformedInput(f"meld: {quote(texts)} holds something that is not a card", "R-NOTE-1") from None
            return check_action(Action(seat, "meld", cards=cards))
        if kind == "layoff":
            return check_action(Action(seat, "layoff", card=card("card"), meld=data.get("meld")))  # type: ignore[arg-type]
        return check_action(Action(seat, kind, card=card("card")))


def check_action(action: object) -> Action:
    """``action`` itself if it is a Rummy :class:`Action` of a well-formed shape, else
    :class:`MalformedInput` (R-NOTE-3): a whole-number seat, a known kind, and exactly the fields that
    kind takes, each of its type -- a draw's source, a card for a discard, a knock or a lay-off (and for a
    draw from the discard pile, if given), a meld's distinct cards, a lay-off's meld index.

    Whether the seat, card or meld is allowed now is for the hand's rules to say, not this check.

    >>> check_action(Action(0, "draw", source="stock", card=Card.parse("9c")))
    Traceback (most recent call last):
    ...
    rummoli.errors.MalformedInput: R-NOTE-3: a draw from the stock names no card: the player does not choose it
    """
    if not isinstance(action, Action):
        raise MalformedInput(f"not a Rummy action: {quote(action)}", "R-NOTE-3")
    kind, seat, source, card, cards, meld = (action.kind, action.seat, action.source, action.card, action.cards,
                                             action.meld)
    if not isinstance(kind, str) or kind not in KINDS:
        raise MalformedInput(f"unknown Rummy action {quote(kind)} ({', '.join(KINDS)})", "R-NOTE-3")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise MalformedInput(f"an action's seat is a whole number, not {quote(seat)}", "R-NOTE-3")
    if kind == "draw":
        if not isinstance(source, str) or source not in SOURCES:
            raise MalformedInput(f"a draw is from the stock or the discard pile, not {quote(source)}", "R-NOTE-3")
        if source == "stock" and card is not None:
            raise MalformedInput("a draw from the stock names no card: the player does not choose it", "R-NOTE-3")
    elif source != "":
        raise MalformedInput(f"{kind} takes no source", "R-NOTE-3")
    if card is not None and not isinstance(card, Card):
        raise MalformedInput(f"{kind} needs a card, not {quote(card)}", "R-NOTE-3")
    if kind in ("layoff", "discard", "knock"):
        if card is None:
            raise MalformedInput(f"{kind} needs a card", "R-NOTE-3")
    elif kind != "draw" and card is not None:
        raise MalformedInput(f"{kind} takes no card", "R-NOTE-3")
    if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
        raise MalformedInput(f"a meld's cards are a tuple of cards, not {quote(cards)}", "R-NOTE-3")
    if kind == "meld":
        if not cards:
            raise MalformedInput("meld needs its cards", "R-NOTE-3")
        try:
            mask_of(cards)
        except CardError as error:
            raise MalformedInput(f"meld: {error}", "R-NOTE-3") from None
    elif cards:
        raise MalformedInput(f"{kind} takes no list of cards", "R-NOTE-3")
    if isinstance(meld, bool) or not isinstance(meld, int):
        raise MalformedInput(f"a lay-off's meld is a whole-number index, not {quote(meld)}", "R-NOTE-3")
    if kind != "layoff" and meld != -1:
        raise MalformedInput(f"{kind} takes no meld index", "R-NOTE-3")
    return action


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


# ------------------------------------------------------------------------------ actions of the engine's moves
# A hand lists its moves raw (``(code, x, y)``, rummoli.rummy.base); these make them actions and JSON.  A pile
# draw names its card only where the ruleset lets a player take from deeper in the pile (``depth``).

#: Each action listed so far, by (whether a pile draw names its card, seat, move): an Action is a frozen value,
#: so one object serves every listing.  Seats, cards, melds and meld indexes are few: it stays small.
_LISTED: Final[dict[tuple[bool, int, int, int, int], Action]] = {}
#: The ids of those actions, each made well-formed and kept for good (so no other object ever takes its id).
_WELL_FORMED: Final[set[int]] = set()
#: Each move's JSON by (depth, seat) and move, but a meld's (its list of cards could be changed by whoever gets it):
#: read only, handed out as copies.
_JSON: Final[dict[tuple[bool, int], dict[Move, dict[str, Any]]]] = {}


def action_of(seat: int, move: Move, depth: bool) -> Action:
    """The action of ``seat``'s move."""
    code, x, y = move
    if code == DRAW_STOCK:
        return Action(seat, "draw", source="stock")
    if code == DRAW_DISCARD:
        return Action(seat, "draw", source="discard", card=CARDS[x] if depth else None)
    if code == MELD:
        return Action(seat, "meld", cards=tuple(cards_of(x)))
    if code == PASS:
        return Action(seat, "pass")
    return Action(seat, _KIND[code], card=CARDS[x], meld=y if code == LAYOFF else -1)


def listed(seat: int, moves: list[Move], depth: bool) -> list[Action]:
    """The actions of ``seat``'s moves (each made once and shared: they are frozen)."""
    out = []
    for code, x, y in moves:
        key = (depth, seat, code, x, y)
        action = _LISTED.get(key)
        if action is None:  # the one kept, should two threads make it at once: only its id may be trusted
            action = _LISTED.setdefault(key, action_of(seat, (code, x, y), depth))
            _WELL_FORMED.add(id(action))
        out.append(action)
    return out


def well_formed(action: object) -> Action:
    """:func:`check_action`, at once for an action :func:`listed` made (it made it well-formed)."""
    if id(action) in _WELL_FORMED:
        return action  # type: ignore[return-value]  # one of _LISTED's actions
    return check_action(action)


def move_json(seat: int, move: Move, depth: bool) -> dict[str, Any]:
    """``action_of(seat, move, depth).to_json()``, made directly (views and events list many moves)."""
    code, x, y = move
    if code == DRAW_STOCK:
        return {"seat": seat, "action": "draw", "from": "stock"}
    if code == DRAW_DISCARD:
        if depth:
            return {"seat": seat, "action": "draw", "from": "discard", "card": NAMES[x]}
        return {"seat": seat, "action": "draw", "from": "discard"}
    if code == MELD:
        return {"seat": seat, "action": "meld", "cards": names_of(x)}
    if code == PASS:
        return {"seat": seat, "action": "pass"}
    if code == LAYOFF:
        return {"seat": seat, "action": "layoff", "card": NAMES[x], "meld": y}
    return {"seat": seat, "action": _KIND[code], "card": NAMES[x]}


def moves_json(seat: int, moves: list[Move], depth: bool) -> list[dict[str, Any]]:
    """``[move_json(seat, m, depth) for m in moves]`` (copies of each move's JSON, made once)."""
    known = _JSON.get((depth, seat))
    if known is None:
        known = _JSON[(depth, seat)] = {}
    out = []
    for move in moves:
        made = known.get(move)
        if made is None:
            if move[0] == MELD:
                out.append(move_json(seat, move, depth))
                continue
            made = known[move] = move_json(seat, move, depth)
        out.append(made.copy())
    return out
