"""The Poch pack and what its cards make: the 32-card deck, the deal, sets for the vying, runs for the
sequence pool and the order of the play (docs/rules-poch.md R-PO-2, R-PO-5, R-PO-8, R-PO-11).

Cards are ``rummoli.cards`` indexes (``13 * suit + rank``, the seven is rank 5, the ace 12).

>>> [str(CARDS[c]) for c in DECK[:3]], len(DECK)
(['7s', '8s', '9s'], 32)
>>> best_set(mask_of(parse_cards("Kh Ks 7c 9d Ad")), trump=0)
((2, 11, 1), ['Ks', 'Kh'])
>>> next_up(Card.parse("Ks").index, "king"), str(CARDS[next_up(Card.parse("As").index, "king") or 0])
(None, '7s')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummoli.cards import CARDS, Card, mask_of, names_of, parse_cards

__all__ = ["CARDS", "DECK", "best_run", "best_set", "deal_poch", "mask_of", "next_up", "parse_cards"]

#: The 32 cards, seven to ace in each suit, in index order.
DECK: Final = tuple(13 * s + r for s in range(4) for r in range(5, 13))
DECK_MASK: Final = sum(1 << c for c in DECK)
#: The order of the play: ace high (the modern form) or the ace below the seven and the king on top (Hoyle).
PLAY_ORDER: Final = {"ace": (5, 6, 7, 8, 9, 10, 11, 12), "king": (12, 5, 6, 7, 8, 9, 10, 11)}


def next_up(card: int, run_top: str) -> int | None:
    """The card that follows ``card`` in a run, or None after the top (R-PO-11)."""
    order = PLAY_ORDER[run_top]
    at = order.index(card % 13)
    return None if at + 1 == len(order) else card - card % 13 + order[at + 1]


def deal_poch(deck: Sequence[Card], players: int, dealer: int, how: str) -> tuple[list[list[Card]], list[Card], Card]:
    """The deal from a shuffled pack (only its 32 Poch cards count, in their order): each seat's cards, the
    stock, and the card turned for trumps (R-PO-2).

    ``all``: one at a time from the dealer's left until the pack is gone; the last card dealt is turned and
    stays in its receiver's hand.  ``packets``: three each, then two each, round after round while a whole
    round and a card for the turn are left; the next card is turned and stays with the stock.
    """
    cards = [c for c in deck if (DECK_MASK >> c.index) & 1]
    if len(cards) != 32 or len(set(cards)) != 32:
        raise ValueError("a Poch deal needs the 32 cards from the seven to the ace, each once")
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = [(dealer + 1 + i) % players for i in range(players)]
    if how == "all":
        for i, card in enumerate(cards):
            hands[order[i % players]].append(card)
        return hands, [], cards[-1]
    at = 0
    while at + 5 * players < len(cards):
        for size in (3, 2):
            for seat in order:
                hands[seat].extend(cards[at:at + size])
                at += size
    return hands, cards[at + 1:], cards[at]


def best_set(mask: int, trump: int) -> tuple[tuple[int, int, int], list[str]]:
    """The best combination of a hand for the vying (R-PO-8) and its cards: more of a kind first, then the
    higher rank, then the one holding the trump; a hand with no pair offers its highest card (trump breaking
    a tie of rank).  The key is ``(count, rank, holds trump)``."""
    best: tuple[int, int, int] = (0, -1, 0)
    cards = 0
    for rank in range(12, 4, -1):
        held = [s for s in range(4) if (mask >> (13 * s + rank)) & 1]
        if not held:
            continue
        key = (len(held), rank, int(trump in held))
        if key > best:
            best = key
            shown = held if len(held) > 1 else [trump if trump in held else held[0]]
            cards = sum(1 << (13 * s + rank) for s in shown)
    return best, names_of(cards)


def best_run(mask: int, trump: int) -> tuple[tuple[int, int, int], int]:
    """The best run of three or more in one suit (ace high), as ``(length, top rank, is trump)`` and its cards
    (``((0, 0, 0), 0)`` for none): longer first, then higher, then trumps (R-PO-5)."""
    best: tuple[tuple[int, int, int], int] = ((0, 0, 0), 0)
    for suit in range(4):
        length = 0
        for rank in range(5, 14):
            if rank < 13 and (mask >> (13 * suit + rank)) & 1:
                length += 1
                continue
            if length >= 3:
                key = (length, rank - 1, int(suit == trump))
                if key > best[0]:
                    best = (key, sum(1 << (13 * suit + r) for r in range(rank - length, rank)))
            length = 0
    return best
