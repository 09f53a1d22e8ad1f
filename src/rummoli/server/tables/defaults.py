"""The safe default a turn timer plays for a person who did not decide in time.

It picks from the view's own ``legal_actions`` (never a second copy of the rules), in this order of
preference: check, pass, keep (the dealer's widow choice), fold, draw from the stock, the lowest legal card
to lead or play; and for a Rummy discard the card worth the most as the game counts it (an ace is worth the
view's ``ace_value``: 1 where aces are low, so a king goes before it), so the late player's penalty stays small.

>>> safe_default({"legal_actions": [{"seat": 1, "action": "bet", "min": 1, "max": 5},
...                                 {"seat": 1, "action": "check"}]})
{'seat': 1, 'action': 'check'}
>>> safe_default({"legal_actions": [{"seat": 0, "action": "play", "card": "Kd"},
...                                 {"seat": 0, "action": "play", "card": "4d"}]})
{'seat': 0, 'action': 'play', 'card': '4d'}
>>> safe_default({"ace_value": 1, "legal_actions": [{"seat": 0, "action": "discard", "card": "Ah"},
...                                                 {"seat": 0, "action": "discard", "card": "Ks"}]})
{'seat': 0, 'action': 'discard', 'card': 'Ks'}
"""

from __future__ import annotations

from typing import Any

from rummoli.cards import Card
from rummoli.rummy import rank_value

PREFERENCE = ("check", "pass", "keep", "fold")


def _rank(action: dict[str, Any]) -> int:
    card = action.get("card")
    return Card.parse(card).rank if isinstance(card, str) else 99


def _worth(action: dict[str, Any], ace_value: object) -> int:
    """A discard's count in a Rummy hand, the ace as the view says (15 where it does not)."""
    ace = ace_value if isinstance(ace_value, int) and not isinstance(ace_value, bool) else 15
    return rank_value(_rank(action), ace)


def safe_default(view: dict[str, Any]) -> dict[str, Any] | None:
    """The action to play for a seat that ran out of time, or ``None`` if it has no legal action."""
    legal: list[dict[str, Any]] = list(view.get("legal_actions") or [])
    if not legal:
        return None
    names = [a.get("action") for a in legal]
    for name in PREFERENCE:
        if name in names:
            return legal[names.index(name)]
    draws = [a for a in legal if a.get("action") == "draw"]
    if draws:
        return next((a for a in draws if a.get("from") == "stock"), draws[0])
    for name in ("lead", "play"):
        cards = [a for a in legal if a.get("action") == name]
        if cards:
            return min(cards, key=_rank)
    discards = [a for a in legal if a.get("action") == "discard"]
    if discards:
        return max(discards, key=lambda a: (_worth(a, view.get("ace_value")), _rank(a)))
    # Anything else with a range (a bid or bet) at its least, else the first listed action.
    first = dict(legal[0])
    if "min" in first:
        first["amount"] = first.pop("min")
        first.pop("max", None)
    return first
