"""Dealing a stops table: every card, one at a time, the widow last in each circuit.

docs/rules.md R-DEAL-1: the deal starts left of the dealer, goes clockwise round the players and
then to the widow, until all 52 cards are out, so hand sizes differ by at most one.

>>> from rummoli.cards import CARDS
>>> hands, widow = deal_with_widow(list(CARDS), players=4, dealer=0)
>>> [len(h) for h in hands], len(widow)
([10, 11, 11, 10], 10)
>>> str(hands[1][0]), str(hands[2][0]), str(widow[0])
('2s', '3s', '6s')
"""

from __future__ import annotations

from collections.abc import Sequence

from rummoli.cards import Card


def deal_with_widow(
    deck: Sequence[Card], players: int, dealer: int, widow: bool = True
) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``deck`` top first.  Returns each seat's hand (by seat number) and the widow.

    Without a widow (Michigan households that play none) the players share all 52 cards.
    """
    if not 2 <= players <= 8:
        raise ValueError(f"a stops table seats 2 to 8 players, not {players}")
    if len(deck) != 52 or len({c.index for c in deck}) != 52:
        raise ValueError("a deal needs the whole 52-card deck, each card once")
    order = [(dealer + 1 + i) % players for i in range(players)]
    receivers: list[int | None] = [*order, None] if widow else list(order)
    hands: list[list[Card]] = [[] for _ in range(players)]
    widow_cards: list[Card] = []
    for position, card in enumerate(deck):
        seat = receivers[position % len(receivers)]
        (widow_cards if seat is None else hands[seat]).append(card)
    return hands, widow_cards


def deal_sizes(players: int, dealer: int) -> tuple[list[int], int]:
    """Hand sizes by seat and the widow's size under R-DEAL-1."""
    receivers = players + 1
    base, extra = divmod(52, receivers)
    sizes = [0] * players
    for k in range(players):
        sizes[(dealer + 1 + k) % players] = base + (1 if k < extra else 0)
    return sizes, base + (1 if players < extra else 0)
