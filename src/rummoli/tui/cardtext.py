"""Cards as text for the terminal: suit symbols (or letters with ``--ascii``), colours and suit orders.

>>> card_text("Td"), card_text("Td", ascii=True)
('T♦', 'Td')
>>> [card_text(c) for c in sort_cards(["2c", "As", "9h", "3d"], SUIT_ORDERS[0])]
['A♠', '9♥', '2♣', '3♦']
>>> meld_order(["3s", "As", "2s"]), meld_order(["2h", "Ah", "Kh"]), meld_order(["Kd", "Qd", "Ad"])
(['As', '2s', '3s'], ['Kh', 'Ah', '2h'], ['Qd', 'Kd', 'Ad'])
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from rummoli.cards import SUIT_CHARS, Card

#: Suit orders the player can cycle through (a key toggles them): letters of ``s h d c``.
SUIT_ORDERS: tuple[str, ...] = ("shcd", "cdhs", "shdc", "dchs")
SUIT_GLYPHS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED = "bold red"
BLACK = "bold"


def card_text(name: str, ascii: bool = False) -> str:
    """``Td`` as shown on screen: ``T♦`` (every card two characters wide)."""
    return Card.parse(name).symbol(ascii=ascii)


def suit_text(letter: str, ascii: bool = False) -> str:
    return letter if ascii else SUIT_GLYPHS[letter]


def order_text(order: str, ascii: bool = False) -> str:
    return "".join(suit_text(s, ascii) for s in order)


def sort_cards(names: Iterable[str], order: str, ace_low: bool = False) -> list[str]:
    """Cards grouped by suit in ``order``, each suit rising (the ace first when ``ace_low``)."""

    def key(name: str) -> tuple[int, int]:
        card = Card.parse(name)
        rank = -1 if ace_low and card.rank == 12 else card.rank
        return order.index(SUIT_CHARS[card.suit]), rank

    return sorted(names, key=key)


def styled_card(name: str, ascii: bool = False, extra: str = "") -> Text:
    """One card, red or black, with an optional extra style (``reverse`` for the cursor)."""
    card = Card.parse(name)
    style = RED if card.is_red else BLACK
    return Text(card.symbol(ascii=ascii), style=f"{style} {extra}".strip())


def cards_line(names: Iterable[str], ascii: bool = False, sep: str = " ") -> Text:
    """Cards side by side, coloured."""
    out = Text()
    for k, name in enumerate(names):
        if k:
            out.append(sep)
        out.append_text(styled_card(name, ascii))
    return out


def plain_cards(names: Iterable[str], ascii: bool = False) -> str:
    return " ".join(card_text(n, ascii) for n in names)


def meld_order(names: Iterable[str]) -> list[str]:
    """A meld's cards as a player reads them: a run rising, from below the ace when it holds A and 2 (and
    round the corner, K A 2, when it turns it); a set in suit order."""
    cards = sorted((Card.parse(n) for n in names), key=lambda c: (c.rank, c.suit))
    if len({c.rank for c in cards}) == 1:
        return [str(c) for c in sorted(cards, key=lambda c: "shdc".index(SUIT_CHARS[c.suit]))]
    gaps = [k for k in range(len(cards) - 1) if cards[k + 1].rank - cards[k].rank > 1]
    if gaps:  # the run goes round the ace: start after the gap
        cards = cards[gaps[-1] + 1:] + cards[:gaps[-1] + 1]
    return [str(c) for c in cards]
