"""Helpers for the stops tests: hand-made deals, with the cards a test does not name filled in."""

from __future__ import annotations

import random
from typing import Any

from rummoli.cards import CARDS, Card, parse_cards
from rummoli.stops import Action, AmountRange, Hand, Legal
from rummoli.stops.hand import deal_sizes

NO_TRADE: dict[str, Any] = {"game": "stops", "board": "copp-clark", "widow": "none", "poker": "none",
                            "opening_lead": "left_of_dealer"}


def rules(**options: Any) -> dict[str, Any]:
    """A ruleset dict: no widow trade and no poker round unless a test asks, plus ``options``."""
    return {**NO_TRADE, **options}


def make_deal(players: int, dealer: int, hands: dict[int, str] | None = None, widow: str = "",
              fill: str = "") -> tuple[list[list[Card]], list[Card]]:
    """A legal R-DEAL-1 deal holding the named cards; the rest go, in ``fill`` order then highest
    first, to the seats (in seat order) and then the widow, as their sizes allow."""
    sizes, widow_size = deal_sizes(players, dealer)
    out: list[list[Card]] = [parse_cards(hands[s]) if hands and s in hands else [] for s in range(players)]
    w = parse_cards(widow) if widow else []
    used = {c for h in out for c in h} | set(w)
    assert len(used) == sum(len(h) for h in out) + len(w), "a card is named twice"
    rest = [c for c in (parse_cards(fill) if fill else []) if c not in used]
    # Unnamed cards go out highest first, so the low cards a test does not name end in the widow.
    rest += sorted((c for c in CARDS if c not in used and c not in rest), key=lambda c: (-c.rank, c.suit))
    for s in range(players):
        assert len(out[s]) <= sizes[s], f"seat {s} can hold only {sizes[s]} cards"
        while len(out[s]) < sizes[s]:
            out[s].append(rest.pop(0))
    assert len(w) <= widow_size
    w += rest
    assert len(w) == widow_size
    return out, w


def make_hand(ruleset: Any, players: int = 4, dealer: int = 0, hands: dict[int, str] | None = None,
              widow: str = "", chips: list[int] | None = None, pots: dict[str, int] | None = None,
              fill: str = "", auto: bool = True) -> Hand:
    dealt, w = make_deal(players, dealer, hands, widow, fill)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:players]
    return Hand(ruleset, names, chips or [100] * players, pots or {}, dealer, dealt, w, auto=auto)


def act(seat: int, kind: str, card: str | None = None, amount: int | None = None) -> Action:
    return Action(seat, kind, Card.parse(card) if card else None, amount)


def chips_to(events: list[dict[str, Any]], party: str, reason: str | None = None) -> int:
    return sum(e["amount"] for e in events if e["type"] == "chips" and e["to"] == party
               and (reason is None or e["reason"] == reason))


def plays(events: list[dict[str, Any]]) -> list[tuple[int, str, str, bool]]:
    return [(e["seat"], e["action"], e["card"], e["forced"]) for e in events
            if e["type"] == "action" and e["action"] in ("lead", "play")]


CARD_KEYS = ("hand", "card", "cards")


def visible_cards(view: Any) -> set[str]:
    """Every card a view shows: hands, played cards, showdowns, the given-up hand, action cards."""
    found: set[str] = set()

    def walk(node: Any, key: str | None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in ("board", "ruleset"):  # pot ids such as "Ts" name pots, not cards
                    walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key in CARD_KEYS:
            found.add(node)

    walk({k: v for k, v in view.items() if k not in ("board", "ruleset")}, None)
    walk(view.get("showdown", {}), "cards")
    return found


def paid(events: list[dict[str, Any]], party: str, reason: str) -> int:
    return sum(e["amount"] for e in events if e["type"] == "chips" and e["from"] == party
               and e["reason"] == reason)


def pick(legal: list[Legal], rng: random.Random) -> Action:
    """A random legal action: an option uniformly, then an amount in its range uniformly."""
    option = rng.choice(legal)
    return option.at(rng.randint(option.min, option.max)) if isinstance(option, AmountRange) else option


def offered(action: Action, legal: list[Legal]) -> bool:
    """Whether ``action`` is one of the legal actions or inside one of their amount ranges."""
    return any(action == option or (isinstance(option, AmountRange) and action in option) for option in legal)
