"""Cards: a small immutable value type, parsing and formatting, and 52-bit masks.

A card is written rank then suit (docs/records.md R-NOTE-1): ranks ``2 3 4 5 6 7 8 9 T J Q K A``,
suits ``s h d c``.  Input also accepts ``10`` for the ten, upper-case letters and the suit
symbols:

>>> Card.parse("Td") == Card.parse("10♦") == Card.parse("TD")
True
>>> str(Card.parse("10♠"))
'Ts'
>>> parse_cards("As 10d K♠")
[Card('As'), Card('Td'), Card('Ks')]

Hot paths (poker evaluation, runs in the stops engine, meld search) work on sets of
cards as 52-bit integers.  Bit ``13 * suit + rank`` stands for a card, with ranks
numbered 0 (the two) to 12 (the ace), so each suit is one 13-bit block and "the next
card up in the same suit" is simply the next bit:

>>> m = mask_of(parse_cards("2s 3s Kh"))
>>> cards_of(m)
[Card('2s'), Card('3s'), Card('Kh')]
>>> lowest_cards(m)
[Card('2s')]
>>> mask_count(m)
3
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Final

from rummoli.errors import MalformedInput, quote
from rummoli.shuffling import shuffle
from rummoli.twins import compiled

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "shdc"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
RED_SUITS: Final = frozenset({HEARTS, DIAMONDS})
ACE: Final = 12

SUIT_BITS: Final = 0x1FFF  # one suit's 13 ranks
FULL_DECK: Final = (1 << 52) - 1
SUIT_MASK: Final = tuple(SUIT_BITS << (13 * s) for s in range(4))
RANK_MASK: Final = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
RED_MASK: Final = SUIT_MASK[HEARTS] | SUIT_MASK[DIAMONDS]
BLACK_MASK: Final = SUIT_MASK[SPADES] | SUIT_MASK[CLUBS]

_SUIT_INPUT: Final = {
    **{c: i for i, c in enumerate(SUIT_CHARS)},
    **{c.upper(): i for i, c in enumerate(SUIT_CHARS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    **{c: i for i, c in enumerate("♤♡♢♧")},  # outline symbols, as some keyboards type them
}
_RANK_INPUT: Final = {
    **{c: i for i, c in enumerate(RANK_CHARS)},
    **{c.lower(): i for i, c in enumerate(RANK_CHARS)},
    "10": 8,
}
_TOKEN: Final = re.compile(r"^(10|[2-9TJQKAtjqka])(.)$")
_SEPARATORS: Final = re.compile(r"[\s,]+")


class CardError(MalformedInput):
    """Text that does not name a card, or a list of cards that breaks a requirement."""


class Card:
    """One playing card.  Immutable and interned: there are exactly 52 instances.

    Cards order by suit (``s h d c``) and then rank, which is the order of their bits.

    >>> c = Card.parse("Qc")
    >>> c.rank, c.suit, c.index, c.rank_name, c.is_red
    (10, 3, 49, 'Q', False)
    >>> Card.from_index(c.index) is c
    True
    >>> c.symbol(), c.symbol(ascii=True)
    ('Q♣', 'Qc')
    """

    __slots__ = ("bit", "index", "name", "rank", "suit")

    index: int
    rank: int
    suit: int
    bit: int
    #: ``"Qc"``: made once, so the records and journals that name a card share its one string (a long
    #: evening named every dealt card anew, about 5 kB a hand).
    name: str

    def __new__(cls, index: int) -> Card:
        # Only used to build the 52 interned cards; call Card.from_index or Card.parse.
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", index % 13)
        object.__setattr__(card, "suit", index // 13)
        object.__setattr__(card, "bit", 1 << index)
        object.__setattr__(card, "name", RANK_CHARS[index % 13] + SUIT_CHARS[index // 13])
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with bit ``index`` (``13 * suit + rank``)."""
        return CARDS[index]

    @staticmethod
    def of(rank: int, suit: int) -> Card:
        """The card of ``rank`` (0 = two ... 12 = ace) and ``suit`` (0 = spades ... 3 = clubs)."""
        return CARDS[13 * suit + rank]

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card (R-NOTE-1); a :class:`CardError` quotes text that is not a card."""
        if type(text) is str and (known := _BY_NAME.get(text)) is not None:
            return known  # the usual case (records, journals, actions): a card's own name
        match = _TOKEN.match(text.strip()) if isinstance(text, str) and len(text) < 40 else None
        if match is None or match.group(2) not in _SUIT_INPUT:
            raise CardError(f'not a card: {quote(text)} (write rank then suit, e.g. "Td", "10d", "T♦")')
        return CARDS[13 * _SUIT_INPUT[match.group(2)] + _RANK_INPUT[match.group(1)]]

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUIT_CHARS[self.suit]

    @property
    def rank_name(self) -> str:
        """The rank as players say it: ``10`` rather than ``T``."""
        return RANK_NAMES[self.rank]

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def symbol(self, ascii: bool = False) -> str:
        """For display: ``10♦`` is shown as ``T♦`` so that every card is two characters wide."""
        return str(self) if ascii else RANK_CHARS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
_BY_NAME: Final[dict[str, Card]] = {str(c): c for c in CARDS}
DECK: Final = CARDS


def parse_cards(text: str, *, distinct: bool = True) -> list[Card]:
    """Read cards separated by spaces or commas.

    An empty text, a token that is not a card, or (with ``distinct``) a card named twice
    raises :class:`CardError` quoting the text at fault.

    >>> parse_cards("2c, 2C")
    Traceback (most recent call last):
    ...
    rummoli.cards.CardError: card named twice: "2C" (in "2c, 2C")
    """
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if not tokens:
        raise CardError(f"no cards in {quote(text)}")
    cards: list[Card] = []
    seen = 0
    for token in tokens:
        card = Card.parse(token)
        if distinct and seen & card.bit:
            raise CardError(f"card named twice: {quote(token)} (in {quote(text)})")
        seen |= card.bit
        cards.append(card)
    return cards


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """The cards in R-NOTE-1 notation, in the order given."""
    return sep.join(str(c) for c in cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The 52-bit mask of distinct cards; a duplicate raises :class:`CardError`."""
    mask = 0
    for card in cards:
        if mask & card.bit:
            raise CardError(f"card named twice: {quote(str(card))}")
        mask |= card.bit
    return mask


def iter_mask(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest bit first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def cards_of_pure(mask: int) -> list[Card]:
    """The cards of a mask, in card order (suit, then rank)."""
    return list(iter_mask(mask))


#: Each card's name by index (``NAMES[i] == str(CARDS[i])``).
NAMES: Final[tuple[str, ...]] = tuple(str(c) for c in CARDS)


def names_of_pure(mask: int) -> list[str]:
    """The names of a mask's cards, in card order (``[str(c) for c in cards_of(mask)]``, faster)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(NAMES[low.bit_length() - 1])
        mask ^= low
    return out


# The compiled names_of picks the items of any 52-tuple at a mask's bits: the cards' names, or the cards themselves.
_compiled_names_of = compiled("names_of")
#: :func:`names_of_pure`, compiled where it could be (tests/core/test_speedups.py holds the two together)
names_of: Callable[[int], list[str]] = (names_of_pure if _compiled_names_of is None
                                        else partial(_compiled_names_of, NAMES))
#: :func:`cards_of_pure`, compiled where it could be: a searching bot's every sampled world lists its hands' cards
cards_of: Callable[[int], list[Card]] = (cards_of_pure if _compiled_names_of is None
                                         else partial(_compiled_names_of, CARDS))


def mask_count(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def lowest_bit_card(mask: int) -> Card:
    """The card of the lowest set bit (the lowest card of the first suit held)."""
    if not mask:
        raise CardError("no cards")
    return CARDS[(mask & -mask).bit_length() - 1]


def rank_set(mask: int) -> int:
    """A 13-bit mask of the ranks held in any suit."""
    return (mask | mask >> 13 | mask >> 26 | mask >> 39) & SUIT_BITS


def suit_ranks(mask: int, suit: int) -> int:
    """The 13-bit rank mask of one suit's cards."""
    return (mask >> (13 * suit)) & SUIT_BITS


def lowest_cards(mask: int) -> list[Card]:
    """Every card of the lowest rank held (ace high), in suit order; empty for no cards."""
    ranks = rank_set(mask)
    if not ranks:
        return []
    rank = (ranks & -ranks).bit_length() - 1
    return cards_of(mask & RANK_MASK[rank])


def lowest_in_suit(mask: int, suit: int) -> Card | None:
    """The lowest card held in one suit, or ``None``."""
    block = mask & SUIT_MASK[suit]
    return CARDS[(block & -block).bit_length() - 1] if block else None


def shuffled_deck(seed: int | str | None = None) -> list[Card]:
    """A shuffled deck.

    Without a seed the shuffle draws on the operating system's secure source (R-RNG-1);
    a seed gives a reproducible shuffle for tests, simulations and bug reports.
    """
    deck = list(CARDS)
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
    shuffle(rng, deck)  # rng.shuffle's order and draws; compiled for a seeded generator (every deal of the lab's)
    return deck
