"""Hand-made deals for the Rummy rule tests."""

from __future__ import annotations

from typing import Any

from rummoli.cards import CARDS, parse_cards
from rummoli.rummy import Action, RummyHand


def rules(size: int = 4, players: int = 2, **options: Any) -> dict[str, Any]:
    """An inline ruleset dealing ``size`` cards to each of ``players`` (small deals keep tests short)."""
    return {"game": "rummy", "name": "test", "hand_size": {str(players): size}, **options}


def deal(
    ruleset: Any, hands: list[str], stock: str = "", dealer: int = 0, scores: list[int] | None = None
) -> RummyHand:
    """A hand from the given hands and the top of the stock; the rest of the deck follows in card order."""
    dealt = [parse_cards(h) for h in hands]
    top = parse_cards(stock) if stock else []
    used = {c for h in dealt for c in h} | set(top)
    rest = [c for c in CARDS if c not in used]
    names = [f"P{i}" for i in range(len(hands))]
    return RummyHand(ruleset, names, scores or [0] * len(hands), dealer, dealt, top + rest)


def act(hand: RummyHand, seat: int, kind: str, *args: Any) -> list[dict[str, Any]]:
    """Apply one action written briefly: ("draw", "stock"), ("meld", "7s 7h 7d"), ("layoff", "8s", 0) ..."""
    if kind == "draw" and args[0] == "stock" and hand.log and hand.log[-1][:2] == (seat, 0) and hand.log[-1][4]:
        return []  # the engine made this draw already: it was the only legal action
    data: dict[str, Any] = {"seat": seat, "action": kind}
    if kind == "draw":
        data["from"] = args[0]
        if len(args) > 1:
            data["card"] = args[1]
    elif kind == "meld":
        data["cards"] = args[0].split()
    elif kind != "pass":
        data["card"] = args[0]
        if kind == "layoff":
            data["meld"] = args[1]
    return hand.apply(Action.from_json(data))


def holding(hand: RummyHand, seat: int) -> set[str]:
    return set(hand.view(seat)["hand"])


TWENTY = [
    "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As 2h 3d 4c 5s 6h 7d 8c",
    "9s Th Jd Qc Ks Ah 2d 3c 4s 5h 6d 7c 8s 9h Td Jc Qs Kh Ad 2c",
]


def twenty_each(**options: Any) -> RummyHand:
    """Two hands of twenty cards: a short stock (eleven cards under the turned-up one)."""
    return deal(rules(20, **options), TWENTY)


def throw_back_until_over(hand: RummyHand) -> None:
    """Every player draws from the stock and throws the card drawn back (nobody melds)."""
    while not hand.over:
        seat = hand.turn
        act(hand, seat, "draw", "stock")
        act(hand, seat, "discard", hand.view(seat, history=True)["drawn"][-1][1])
