"""``rummoli deal``: shuffle, deal a Rummoli table and name each hand's best poker hand."""

from __future__ import annotations

from dataclasses import dataclass

from rummoli.cards import Card, shuffled_deck
from rummoli.dealing import deal_with_widow
from rummoli.poker import HandValue, evaluate


@dataclass(frozen=True)
class DealtTable:
    hands: list[list[Card]]
    widow: list[Card]
    dealer: int


def deal_table(players: int, seed: str | None = None, dealer: int = 0) -> DealtTable:
    hands, widow = deal_with_widow(shuffled_deck(seed), players, dealer)
    return DealtTable([sorted(h, key=display_key) for h in hands], sorted(widow, key=display_key), dealer)


def display_key(card: Card) -> tuple[int, int]:
    """Suits alternate colour (spades, hearts, clubs, diamonds), low to high within a suit."""
    return ((0, 1, 3, 2)[card.suit], card.rank)


def _line(label: str, cards: list[Card], value: HandValue | None, ascii: bool) -> str:
    shown = " ".join(c.symbol(ascii) for c in cards)
    named = f"  [{value.describe()}: {' '.join(c.symbol(ascii) for c in value.cards)}]" if value else ""
    return f"{label:<12}{len(cards):>2}  {shown}{named}"


def describe_deal(table: DealtTable, ascii: bool = False) -> str:
    lines = []
    for seat, hand in enumerate(table.hands):
        label = f"Seat {seat}" + (" (D)" if seat == table.dealer else "")
        lines.append(_line(label, hand, evaluate(hand), ascii))
    lines.append(_line("Widow", table.widow, evaluate(table.widow), ascii))
    return "\n".join(lines)
