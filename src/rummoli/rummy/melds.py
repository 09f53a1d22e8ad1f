"""Melds in one place: what is a set or a run, what may be laid off, and the best arrangement of a hand.

Cards are 52-bit masks (``rummoli.cards``: bit ``13 * suit + rank``, rank 0 = two ... 12 = ace).  For
each way of treating aces (``low``: A-2-3 only; ``high``: Q-K-A only; ``around``: K-A-2 as well;
``either``: A-2-3 or Q-K-A, as in 500 Rum) a :class:`MeldTable` lists every legal meld once: the sets
of three and four of a rank and every run of three or more cards of a suit.  A mask is a legal meld
exactly when it is in the table, and a card may be laid off on a meld exactly when meld plus card is
(docs/rules.md R-RU-3, R-RU-7).  Listing, checking and hints all ask the table.

>>> from rummoli.cards import mask_of, parse_cards
>>> low, high = meld_table("low", 1), meld_table("high", 15)
>>> qka = mask_of(parse_cards("Qh Kh Ah"))
>>> low.is_meld(qka), high.is_meld(qka)
(False, True)
>>> low.is_meld(mask_of(parse_cards("Ah 2h 3h"))), meld_table("around", 15).is_meld(mask_of(parse_cards("Kh Ah 2h")))
(True, True)
>>> low.can_lay_off(mask_of(parse_cards("5s 6s 7s")), parse_cards("4s")[0].bit)
True
>>> low.deadwood(mask_of(parse_cards("2s 3s 4s 4h 4d 4c 9h")))  # the three fours and 2-3-4 share 4s
9
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from functools import cache, lru_cache, partial
from itertools import combinations
from typing import Final

from rummoli.cards import CARDS, RANK_MASK, SUIT_BITS, Card
from rummoli.twins import compiled

TWO, KING, ACE = 0, 11, 12
BEST_CACHE = 1 << 17  # hands whose best arrangement a table remembers (about 30 MB at the most)

#: The compiled search of a hand's best arrangement (rummoli/_speedups.c), where it was built: it answers with the
#: loose cards' points, the best ``size - extra`` of them (``keep_best(packed table, hand, extra)``).
_KEEP_BEST: Callable[[bytes, int, int], int] | None = compiled("keep_best")
#: :meth:`MeldTable._best_arrangement_pure` in one compiled call (``best_melds(packed table, hand)``)
_BEST_MELDS: Callable[[bytes, int], tuple[int, tuple[int, ...]]] | None = compiled("best_melds")


def rank_value(rank: int, ace_value: int) -> int:
    """A card's count in a Rummy hand (R-RU-2): an ace ``ace_value``, a face card 10, the rest their number."""
    return ace_value if rank == ACE else min(rank + 2, 10)


class MeldTable:
    """Every legal meld for one treatment of aces, indexed for fast listing and search."""

    __slots__ = (
        "_best", "_best_compiled", "_counter", "_runs", "ace_value", "aces", "block_value", "by_low",
        "card_points", "containing", "fit_of", "melds", "packed", "value",
    )

    def __init__(self, aces: str, ace_value: int) -> None:
        self.aces = aces
        self.ace_value = ace_value
        block_value = [0] * 8192
        for block in range(1, 8192):
            low = block & -block
            block_value[block] = block_value[block ^ low] + rank_value(low.bit_length() - 1, ace_value)
        self.block_value: Final = tuple(block_value)
        melds: dict[int, int] = {}  # meld mask -> points the meld is worth as laid
        for rank in range(13):
            bits = [1 << (13 * suit + rank) for suit in range(4)]
            for trio in combinations(bits, 3):
                mask = trio[0] | trio[1] | trio[2]
                melds[mask] = self.card_value(mask)
            melds[RANK_MASK[rank]] = self.card_value(RANK_MASK[rank])
        low_order = [ACE, *range(KING + 1)]
        high_order = list(range(13))
        sequences: list[list[int]] = []
        if aces in ("low", "either"):
            sequences.append(low_order)
        if aces in ("high", "either"):
            sequences.append(high_order)
        for suit in range(4):
            base = 13 * suit
            for order in sequences:
                for start in range(13):
                    for length in range(3, 14 - start):
                        mask = sum(1 << (base + r) for r in order[start : start + length])
                        melds[mask] = self.card_value(mask)
            if aces == "around":
                for start in range(13):
                    for length in range(3, 14):
                        mask = sum(1 << (base + (start + k) % 13) for k in range(length))
                        melds[mask] = self.card_value(mask)
            if aces == "either":  # an ace below the two counts one point as laid (500 Rum)
                ace_two = (1 << (base + ACE)) | (1 << (base + TWO))
                for mask in melds:
                    if mask & ace_two == ace_two:
                        melds[mask] = self.card_value(mask) - ace_value + 1
        self.value: Final = melds
        self.melds: Final = frozenset(melds)
        #: each card's points by index (``card_value(1 << index)``, read without a call in a bot's inner loops)
        self.card_points: Final = tuple(self.card_value(1 << index) for index in range(52))
        # every meld's lay-offs, worked out once: a meld less one of its cards is a meld that card fits
        fit_of = dict.fromkeys(melds, 0)
        for mask in melds:
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                if mask ^ low in fit_of:
                    fit_of[mask ^ low] |= low
        #: a legal meld -> the cards that may be laid off on it (:meth:`fits` of a meld, as a plain dict lookup)
        self.fit_of: Final = fit_of
        by_low: list[list[int]] = [[] for _ in range(52)]
        containing: list[list[int]] = [[] for _ in range(52)]
        for mask in sorted(melds, key=lambda m: (m.bit_count(), m)):
            by_low[(mask & -mask).bit_length() - 1].append(mask)
            rest = mask
            while rest:
                low = rest & -rest
                containing[low.bit_length() - 1].append(mask)
                rest ^= low
        self.by_low: Final = tuple(tuple(ms) for ms in by_low)
        self.containing: Final = tuple(tuple(ms) for ms in containing)
        self._runs: dict[int, tuple[int, ...]] = {}  # a suit's 13-bit block -> the runs inside it
        self._best: dict[int, tuple[int, tuple[int, ...]]] = {}  # a hand -> its best arrangement
        self._counter: Callable[[int, int], int] | bool | None = False  # deadwood_counter's answer (False: not yet)
        # The compiled search reads a run's points from the packed table and counts a set's as its cards': used
        # where every set's points are its cards' (tests/core/test_speedups.py holds the two searches together)
        sets_plain = all(points == self.card_value(meld) for meld, points in self.value.items()
                         if all(meld & ~(SUIT_BITS << 13 * suit) for suit in range(4)))  # not a run: a set
        #: the table as the compiled searches read it (:func:`pack`)
        self.packed: Final = pack(self)
        self._best_compiled = (partial(_BEST_MELDS, self.packed) if _BEST_MELDS is not None and sets_plain
                               else self._best_arrangement_pure)

    def _runs_in_block(self, block: int) -> tuple[int, ...]:
        runs = self._runs.get(block)
        if runs is None:
            runs = tuple(m for m in self.melds if m >> 13 == 0 and m & block == m and not self.is_set(m))
            self._runs[block] = runs
        return runs

    def card_value(self, mask: int) -> int:
        """Points of the cards in ``mask`` as held in hand (R-RU-2: ace per the ruleset, J Q K 10)."""
        bv = self.block_value
        return bv[mask & SUIT_BITS] + bv[(mask >> 13) & SUIT_BITS] + bv[(mask >> 26) & SUIT_BITS] + bv[mask >> 39]

    def is_meld(self, mask: int) -> bool:
        """Whether ``mask`` is a set (3 or 4 of a rank) or a run (3+ in sequence, one suit)."""
        return mask in self.melds

    @staticmethod
    def is_set(mask: int) -> bool:
        """Whether a legal meld is a set (all one rank) rather than a run."""
        return any(mask & ~RANK_MASK[r] == 0 for r in range(13))

    def can_lay_off(self, meld: int, card_bit: int) -> bool:
        """Whether one card may be added to a meld on the table: a set up to four, a run at either end."""
        return bool(self.fits(meld) & card_bit)

    def fits(self, meld: int) -> int:
        """The mask of every card that may be laid off on ``meld`` (meld plus card is a meld)."""
        fits = self.fit_of.get(meld)
        if fits is None:  # not a legal meld (no caller asks this today): worked out, not remembered
            fits = 0
            for index in range(52):
                bit = 1 << index
                if not meld & bit and (meld | bit) in self.melds:
                    fits |= bit
        return fits

    def melds_in(self, hand: int) -> list[int]:
        """Every legal meld made of cards from ``hand`` (sets of 3 and 4, every run of 3 or more)."""
        found: list[int] = []
        for suit in range(4):
            block = (hand >> (13 * suit)) & SUIT_BITS
            if block & (block >> 1) or block & 0x1001 == 0x1001:  # two in sequence, or ace and two
                runs = self._runs.get(block)
                if runs is None:
                    runs = self._runs_in_block(block)
                if runs:
                    shift = 13 * suit
                    found.extend(r << shift for r in runs)
        a, b, c, d = hand & SUIT_BITS, (hand >> 13) & SUIT_BITS, (hand >> 26) & SUIT_BITS, hand >> 39
        triples = (a & b & (c | d)) | (c & d & (a | b))
        while triples:
            low = triples & -triples
            triples ^= low
            rank_cards = hand & RANK_MASK[low.bit_length() - 1]
            if rank_cards.bit_count() == 4:
                found.append(rank_cards)
                rest = rank_cards
                while rest:
                    one = rest & -rest
                    rest ^= one
                    found.append(rank_cards ^ one)
            else:
                found.append(rank_cards)
        return found

    def best_arrangement(self, hand: int) -> tuple[int, tuple[int, ...]]:
        """The melds that leave the least deadwood in ``hand``: ``(melded points, melds)``.  Exact.

        Searches on the lowest card still free: either it stays unmelded or it goes into one of the
        melds that start with it; results are remembered per remaining mask.  Whole answers are
        remembered per hand too (a search bot asks about the same hands again and again), up to
        ``BEST_CACHE`` hands, after which the memory starts afresh.
        """
        known = self._best.get(hand)
        if known is not None:
            return known
        result = self._best_compiled(hand)
        if len(self._best) >= BEST_CACHE:
            self._best.clear()
        self._best[hand] = result
        return result

    def _best_arrangement_pure(self, hand: int) -> tuple[int, tuple[int, ...]]:
        """The search :meth:`best_arrangement` describes, in Python: the reference, and the fallback where the
        compiled one (``best_melds`` in src/rummoli/_speedups.c) is not built or ``RUMMOLI_PURE=1``."""
        candidates = self.melds_in(hand)
        if not candidates:
            return 0, ()
        meldable = 0
        for mask in candidates:
            meldable |= mask
        by_low: dict[int, list[int]] = {}
        for mask in candidates:
            by_low.setdefault((mask & -mask).bit_length() - 1, []).append(mask)
        value = self.value
        memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

        def search(rest: int) -> tuple[int, tuple[int, ...]]:
            known = memo.get(rest)
            if known is not None:
                return known
            low = rest & -rest
            best = search(rest ^ low)
            for mask in by_low.get(low.bit_length() - 1, ()):
                if mask & rest == mask:
                    points, melds = search(rest ^ mask)
                    points += value[mask]
                    if points > best[0]:
                        best = (points, (mask, *melds))
            memo[rest] = best
            return best

        return search(meldable)

    def arrangements(self, hand: int, limit: int) -> list[tuple[int, tuple[int, ...]]]:
        """Every way to lay ``hand`` down as melds leaving at most ``limit`` deadwood, as
        ``(deadwood, melds)``, least deadwood first (ties in a fixed order).  Not only the best ones: a
        meld may be left in hand, and overlapping melds give different arrangements (A-2-3 or 2-2-2).

        Each arrangement is found once, deciding the lowest card still open: left in hand, or in one of
        the melds it is the lowest card of; a branch stops as soon as its deadwood passes ``limit``.

        >>> from rummoli.cards import mask_of, parse_cards
        >>> t = meld_table("low", 1)
        >>> [(d, len(melds)) for d, melds in t.arrangements(mask_of(parse_cards("As 2s 3s 2d 2h 7c")), 20)]
        [(11, 1), (11, 1), (17, 0)]
        """
        candidates = self.melds_in(hand)
        meldable = 0
        for mask in candidates:
            meldable |= mask
        base = self.card_value(hand & ~meldable)
        if base > limit:
            return []
        by_low: dict[int, list[int]] = {}
        for mask in candidates:
            by_low.setdefault(mask & -mask, []).append(mask)
        card_value = self.card_value
        found: list[tuple[int, tuple[int, ...]]] = []

        def search(rest: int, dead: int, melds: tuple[int, ...]) -> None:
            if not rest:
                found.append((dead, melds))
                return
            low = rest & -rest
            left = dead + card_value(low)
            if left <= limit:
                search(rest ^ low, left, melds)
            for mask in by_low.get(low, ()):
                if mask & rest == mask:
                    search(rest ^ mask, dead, (*melds, mask))

        search(meldable, base, ())
        found.sort(key=lambda item: item[0])
        return found

    def deadwood(self, hand: int) -> int:
        """Points left in ``hand`` after its best arrangement into melds."""
        return self.card_value(hand) - self.best_arrangement(hand)[0]

    def deadwood_counter(self) -> Callable[[int, int], int] | None:
        """:meth:`deadwood` in one compiled call, not remembered (``count(hand, 0)``), or None: without the
        compiled search, or where a meld's points are not its cards' (500 Rum's ace below a two counts one when
        laid), so that the loose cards' points are not the deadwood.  tests/core/test_speedups.py holds it to
        :meth:`deadwood`."""
        if self._counter is False:
            plain = all(points == self.card_value(meld) for meld, points in self.value.items())
            self._counter = partial(_KEEP_BEST, self.packed) if _KEEP_BEST is not None and plain else None
        return self._counter  # type: ignore[return-value]  # False only until the line above

    def deadwood_with_layoffs(self, hand: int, table: tuple[int, ...] | list[int]) -> tuple[int, int]:
        """Gin's defender: the least deadwood of ``hand`` when its cards may also extend the melds of
        ``table`` (a run at its ends, a set to four).  Returns ``(deadwood, cards laid off)``.  Exact."""
        candidates = [(m, -1) for m in self.melds_in(hand)]
        for index, meld in enumerate(table):
            low = meld & -meld
            for mask in self.containing[low.bit_length() - 1]:
                if mask & meld == meld and mask != meld and mask & ~(meld | hand) == 0:
                    candidates.append((mask ^ meld, index))
        by_low: dict[int, list[tuple[int, int]]] = {}
        coverable = 0
        for mask, index in candidates:
            coverable |= mask
            by_low.setdefault((mask & -mask).bit_length() - 1, []).append((mask, index))
        memo: dict[tuple[int, int], tuple[int, int]] = {}

        def search(rest: int, used: int) -> tuple[int, int]:
            """(points covered, cards laid off) at best from ``rest`` with table melds ``used`` extended."""
            if not rest:
                return 0, 0
            key = (rest, used)
            known = memo.get(key)
            if known is not None:
                return known
            low = rest & -rest
            best = search(rest ^ low, used)
            for mask, index in by_low.get(low.bit_length() - 1, ()):
                if mask & rest != mask or (index >= 0 and used >> index & 1):
                    continue
                points, laid = search(rest ^ mask, used | (1 << index) if index >= 0 else used)
                points += self.card_value(mask)
                if points > best[0]:
                    best = (points, laid | mask if index >= 0 else laid)
            memo[key] = best
            return best

        covered, laid = search(coverable, 0)
        return self.card_value(hand) - covered, laid

    def usable(self, card_bit: int, hand: int, table: list[int]) -> bool:
        """Whether ``card_bit`` (in ``hand``) can reach the table this turn: in a meld from the hand,
        or on a table meld, possibly after other cards from the hand extend that meld first."""
        index = card_bit.bit_length() - 1
        for mask in self.containing[index]:
            if mask & hand == mask:
                return True
            for meld in table:
                if mask & meld == meld and mask & ~(meld | hand) == 0:
                    return True
        return False


def pack(table: MeldTable) -> bytes:
    """``table`` as the compiled keep_best reads it (src/rummoli/_speedups.c): each card's value, then one
    suit's runs, in the order :meth:`MeldTable.melds_in` finds them (the table's own), with their values."""
    runs = [m for m in table.melds if m >> 13 == 0]
    return struct.pack(f"=53i{len(runs)}I{len(runs)}i", *(table.card_value(1 << c) for c in range(52)), len(runs),
                       *runs, *(table.value[m] for m in runs))


@cache
def meld_table(aces: str, ace_value: int) -> MeldTable:
    """The (shared, immutable) meld table for a treatment of aces and an ace's value."""
    return MeldTable(aces, ace_value)


def meld_cards(mask: int) -> list[Card]:
    """A meld's cards in the order players lay them: a set by suit, a run from its low end.

    >>> from rummoli.cards import mask_of, parse_cards
    >>> [str(c) for c in meld_cards(mask_of(parse_cards("2h Ah 3h")))]
    ['Ah', '2h', '3h']
    >>> [str(c) for c in meld_cards(mask_of(parse_cards("2h Ah Kh")))]
    ['Kh', 'Ah', '2h']
    """
    suits = [s for s in range(4) if (mask >> (13 * s)) & SUIT_BITS]
    if len(suits) != 1:
        return [CARDS[i] for i in range(52) if mask >> i & 1]
    base = 13 * suits[0]
    ranks = [r for r in range(13) if mask >> (base + r) & 1]
    start = next((r for r in ranks if not mask >> (base + (r - 1) % 13) & 1), ranks[0])
    return [CARDS[base + (start + k) % 13] for k in range(len(ranks))]


def melds_as_laid(melds: Iterable[int]) -> list[list[str]]:
    """Each meld (a card mask) as the names of its cards in the order players lay them (:func:`meld_cards`).

    >>> from rummoli.cards import mask_of, parse_cards
    >>> melds_as_laid([mask_of(parse_cards("2h 3h Ah")), mask_of(parse_cards("7c 7s 7d"))])
    [['Ah', '2h', '3h'], ['7s', '7d', '7c']]
    """
    return [list(_laid_names(m)) for m in melds]


@lru_cache(maxsize=4096)
def _laid_names(mask: int) -> tuple[str, ...]:
    """A meld's card names as laid, remembered: every hand a searching bot plays out ends by showing its melds,
    and the same few hundred melds come back again and again."""
    return tuple(str(c) for c in meld_cards(mask))


def meld_names(cards: list[str]) -> list[str]:
    """A meld's cards (as text) in the order players lay them.

    >>> meld_names(["2s", "3s", "As"])
    ['As', '2s', '3s']
    """
    mask = 0
    for c in cards:
        mask |= Card.parse(c).bit
    return [str(c) for c in meld_cards(mask)]
