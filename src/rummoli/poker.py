"""The best poker hand of any five to fifty-two cards (docs/rules.md R-POKER-1 .. R-POKER-4).

Rummoli players hold ten, thirteen, seventeen or even twenty-six cards, and their poker
hand is the best five of all of them.  Evaluating every five-card subset (what most
libraries do past seven cards) costs C(17, 5) = 6,188 evaluations for a seventeen-card
hand, and the popular C evaluator eval7 takes a shortcut that misranks hands with two
five-card suits.  So we evaluate directly on the 52-bit mask of :mod:`rummoli.cards`: a
few bit operations give the ranks held once, twice, three and four times, the suits with
five or more cards, and the straights, and the best hand follows from those in a fixed
order.  The cost barely depends on how many cards there are.

>>> hand = evaluate(parse_cards("Ah Kh Qh Jh 9h 9s 9d 2c Tc"))
>>> hand.category
'flush'
>>> hand.cards
[Card('Ah'), Card('Kh'), Card('Qh'), Card('Jh'), Card('9h')]
>>> evaluate(parse_cards("5s 4d 3c 2h As")).describe()
'straight, five high'
>>> evaluate(parse_cards("Ts Js Qs Ks As")) > evaluate(parse_cards("9h Th Jh Qh Kh"))
True

Values are plain integers, so equal hands compare equal whatever their suits: the category
in bits 20-23 and up to five ranks, most significant first, in the nibbles below it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import total_ordering
from typing import Final

from rummoli.cards import (
    CARDS,
    RANK_MASK,
    SUIT_BITS,
    Card,
    CardError,
    iter_mask,
    mask_of,
    parse_cards,
)
from rummoli.errors import MalformedInput
from rummoli.twins import compiled

__all__ = [
    "CATEGORIES",
    "HandValue",
    "PokerError",
    "evaluate",
    "evaluate_mask",
    "evaluate_mask_pure",
    "parse_cards",
    "winners",
]

# Highest first, as players list them; a value's category number counts from the bottom.
CATEGORIES: Final = (
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
    "three of a kind",
    "two pair",
    "one pair",
    "high card",
)
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


class PokerError(MalformedInput):
    """Not a set of cards a poker hand can be made from."""


def _top_ranks(ranks: int, k: int) -> int:
    """The ``k`` highest ranks of a rank set, packed four bits each, highest first."""
    packed = 0
    for _ in range(k):
        high = ranks.bit_length() - 1
        packed = packed << 4 | max(high, 0)
        ranks &= ~(1 << high) if high >= 0 else 0
    return packed


def _straight_top(ranks: int) -> int:
    # Put a copy of the ace below the two, so A-2-3-4-5 is found; there is no wrap-around.
    x = (ranks << 1) | (ranks >> 12 & 1)
    runs = x & x >> 1 & x >> 2 & x >> 3 & x >> 4
    return runs.bit_length() + 2 if runs else -1  # rank of the run's top card


# Tables over the 8,192 rank sets of one suit: built once, about 40 ms.
_HIGH: Final = tuple(r.bit_length() - 1 for r in range(8192))
_TOP2: Final = tuple(_top_ranks(r, 2) for r in range(8192))
_TOP3: Final = tuple(_top_ranks(r, 3) for r in range(8192))
_TOP5: Final = tuple(_top_ranks(r, 5) for r in range(8192))
_STRAIGHT: Final = tuple(_straight_top(r) for r in range(8192))


def evaluate_mask_pure(mask: int) -> int:
    """The value of the best five cards of a 52-bit mask holding at least five cards.

    The hot path: no checks.  Higher is better; equal hands give equal values.  This is the reference;
    :func:`evaluate_mask` is its compiled twin (``rummoli/_speedups.c``) where that was built.
    """
    s0 = mask & SUIT_BITS
    s1 = mask >> 13 & SUIT_BITS
    s2 = mask >> 26 & SUIT_BITS
    s3 = mask >> 39
    # Every suit of five or more cards counts: above seven cards two suits can both
    # flush (the better one wins) and either may hold the straight flush.
    flush = straight_flush = -1
    for suit in (s0, s1, s2, s3):
        if suit.bit_count() >= 5:
            if _STRAIGHT[suit] > straight_flush:
                straight_flush = _STRAIGHT[suit]
            if _TOP5[suit] > flush:
                flush = _TOP5[suit]
    if straight_flush >= 0:
        return STRAIGHT_FLUSH << 20 | straight_flush << 16
    ones = s0 | s1 | s2 | s3
    fours = s0 & s1 & s2 & s3
    if fours:
        quad = _HIGH[fours]
        return QUADS << 20 | quad << 16 | _HIGH[ones ^ 1 << quad] << 12
    s01, s23 = s0 & s1, s2 & s3
    threes = (s01 & (s2 | s3)) | (s23 & (s0 | s1))
    if threes:
        trip = _HIGH[threes]
        pairs = (s01 | s23 | ((s0 | s1) & (s2 | s3))) & ~(1 << trip)
        if pairs:
            return FULL_HOUSE << 20 | trip << 16 | _HIGH[pairs] << 12
    if flush >= 0:
        return FLUSH << 20 | flush
    top = _STRAIGHT[ones]
    if top >= 0:
        return STRAIGHT << 20 | top << 16
    if threes:
        return TRIPS << 20 | trip << 16 | _TOP2[ones ^ 1 << trip] << 8
    twos = s01 | s23 | ((s0 | s1) & (s2 | s3))
    if twos:
        high = _HIGH[twos]
        rest = twos ^ 1 << high
        if rest:
            low = _HIGH[rest]
            return TWO_PAIR << 20 | high << 16 | low << 12 | _HIGH[ones ^ 1 << high ^ 1 << low] << 8
        return ONE_PAIR << 20 | high << 16 | _TOP3[ones ^ 1 << high] << 4
    return _TOP5[ones]


#: :func:`evaluate_mask_pure`, compiled where it could be (the same value for every mask: tests/core/test_speedups.py)
evaluate_mask: Callable[[int], int] = compiled("evaluate_mask") or evaluate_mask_pure
COMPILED: Final = evaluate_mask is not evaluate_mask_pure


_RANK_WORDS: Final = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                      "jack", "queen", "king", "ace")
_RANK_PLURALS: Final = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                        "tens", "jacks", "queens", "kings", "aces")


def rank_plural(rank: int) -> str:
    """A rank (0 = two ... 12 = ace) in the plural, as a player says it: ``'sixes'``, ``'tens'``."""
    return _RANK_PLURALS[rank]


@total_ordering
class HandValue:
    """The worth of a poker hand: totally ordered, hashable, with its best five cards."""

    __slots__ = ("_cards", "mask", "value")

    def __init__(self, value: int, mask: int) -> None:
        self.value = value
        self.mask = mask
        self._cards: list[Card] | None = None

    @property
    def category(self) -> str:
        return CATEGORIES[8 - (self.value >> 20)]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks that decide the hand, most significant first (0 = two ... 12 = ace)."""
        count = (5, 4, 3, 3, 1, 5, 2, 2, 1)[self.value >> 20]
        return tuple(self.value >> (16 - 4 * i) & 15 for i in range(count))

    @property
    def cards(self) -> list[Card]:
        """The best five cards, those that make the hand first (showdown shows these, R-POKER-3)."""
        if self._cards is None:
            self._cards = _best_five(self.mask, self.value)
        return list(self._cards)

    def describe(self, depth: int = 0) -> str:
        """The hand as a player would name it: ``'full house, kings over sevens'``. ``depth``: name its deciding
        ranks down to ``ranks[depth - 1]``, where the name stops short of them, to tell it from another hand of the
        same name (``'flush, ace-king high'`` against ``'flush, ace-queen high'``, ``'pair of kings, ace kicker'``)."""
        category, r = self.value >> 20, self.ranks
        words, plural = _RANK_WORDS, _RANK_PLURALS
        if category in (FLUSH, HIGH_CARD) and depth > 1:
            top = "-".join(words[x] for x in r[:depth])
            return f"flush, {top} high" if category == FLUSH else f"high card, {top}"
        named = {ONE_PAIR: 1, TRIPS: 1, TWO_PAIR: 2}.get(category)
        if named is not None and depth > named:
            kickers = r[named:depth]
            told = self.describe()
            return f"{told}, {'-'.join(words[x] for x in kickers)} kicker{'s' if len(kickers) > 1 else ''}"
        if category == STRAIGHT_FLUSH:
            return "royal flush" if r[0] == 12 else f"straight flush, {words[r[0]]} high"
        if category == QUADS:
            return f"four {plural[r[0]]}"
        if category == FULL_HOUSE:
            return f"full house, {plural[r[0]]} over {plural[r[1]]}"
        if category == FLUSH:
            return f"flush, {words[r[0]]} high"
        if category == STRAIGHT:
            return f"straight, {words[r[0]]} high"
        if category == TRIPS:
            return f"three {plural[r[0]]}"
        if category == TWO_PAIR:
            return f"two pair, {plural[r[0]]} and {plural[r[1]]}"
        if category == ONE_PAIR:
            return f"pair of {plural[r[0]]}"
        return f"high card, {words[r[0]]}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.value == other.value

    def __lt__(self, other: HandValue) -> bool:
        return self.value < other.value

    def __hash__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"HandValue({self.describe()!r}, {' '.join(str(c) for c in self.cards)})"


def _pick(mask: int, rank: int, count: int) -> list[Card]:
    """``count`` cards of ``rank`` from ``mask``, in suit order."""
    return list(iter_mask(mask & RANK_MASK[rank]))[:count]


def _best_five(mask: int, value: int) -> list[Card]:
    category = value >> 20
    if category in (STRAIGHT_FLUSH, FLUSH):
        target = value & 0xFFFFF
        for suit in range(4):
            block = mask >> (13 * suit) & SUIT_BITS
            if block.bit_count() < 5:
                continue
            if category == FLUSH and _TOP5[block] == target:
                return [CARDS[13 * suit + r] for r in _unpack(target, 5)]
            if category == STRAIGHT_FLUSH and _STRAIGHT[block] == target >> 16:
                return [CARDS[13 * suit + r] for r in _straight_ranks(target >> 16)]
        raise AssertionError("value does not belong to mask")  # pragma: no cover
    if category == STRAIGHT:
        return [_pick(mask, r, 1)[0] for r in _straight_ranks(value >> 16 & 15)]
    shape = {QUADS: (4, 1), FULL_HOUSE: (3, 2), TRIPS: (3, 1, 1), TWO_PAIR: (2, 2, 1),
             ONE_PAIR: (2, 1, 1, 1), HIGH_CARD: (1, 1, 1, 1, 1)}[category]
    ranks = _unpack(value & 0xFFFFF, len(shape))
    cards: list[Card] = []
    for rank, count in zip(ranks, shape, strict=True):
        cards.extend(_pick(mask, rank, count))
    return cards


def _unpack(packed: int, count: int) -> list[int]:
    return [packed >> (16 - 4 * i) & 15 for i in range(count)]


def _straight_ranks(top: int) -> list[int]:
    return [top - i if top - i >= 0 else 12 for i in range(5)]


def evaluate(cards: Iterable[Card] | str) -> HandValue:
    """The best poker hand among five or more distinct cards (a text is parsed first).

    >>> evaluate("As Ks")
    Traceback (most recent call last):
    ...
    rummoli.poker.PokerError: a poker hand needs at least five cards, got 2
    """
    card_list = parse_cards(cards) if isinstance(cards, str) else list(cards)
    try:
        mask = mask_of(card_list)
    except CardError as error:
        raise PokerError(f"a poker hand needs distinct cards: {error}") from None
    if len(card_list) < 5:
        raise PokerError(f"a poker hand needs at least five cards, got {len(card_list)}")
    return HandValue(evaluate_mask(mask), mask)


def winners(hands: Sequence[Iterable[Card] | int]) -> list[int]:
    """Indices of the hands that share the best value (ties split, R-POKER-2)."""
    values = [evaluate_mask(h) if isinstance(h, int) else evaluate(h).value for h in hands]
    best = max(values)
    return [i for i, v in enumerate(values) if v == best]

