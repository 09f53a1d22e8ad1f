"""Gin as a race to a knock: how soon a hand may knock, judged over a few sampled draws to come.

Against a player who knocks as soon as the rules allow, a Gin hand is mostly won by whoever first gets
their deadwood down to the knock limit, and such hands are short (about six draws each).  So a discard
is judged by the ten cards it leaves: for each of a few dozen **futures** (the next few cards the
player might draw, taken at random from the unseen cards, the same futures for every candidate), after
how many of those draws the best ten cards held could knock, if at all, and what deadwood they would
hold at the end.  The best ten of the hand and the draws so far are its best arrangement less the
dearest loose cards, as many as were drawn.  That is optimistic (a player does not know which cards
are coming when choosing what to shed), but it is the same optimism for every candidate.

Counting only the deadwood after the draws chose worse discards than the rules of thumb did (they
undervalue a pair that may become a meld, and overvalue a low card that never will); counting how soon
a knock becomes possible is what the race rewards.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rummoli.rummy.melds import MeldTable
from rummoli.twins import compiled


def keep_best_pure(table: MeldTable, hand: int, extra: int) -> int:
    """Deadwood of the best ``hand.bit_count() - extra`` cards of ``hand``: its best arrangement, less
    the ``extra`` dearest loose cards.

    >>> from rummoli.cards import mask_of, parse_cards
    >>> from rummoli.rummy.melds import meld_table
    >>> keep_best(meld_table("low", 1), mask_of(parse_cards("2s 3s 4s 9h Kd 5c")), 2)  # sheds Kd and 9h
    5
    """
    _, melds = table.best_arrangement(hand)
    cover = 0
    for meld in melds:
        cover |= meld
    loose = hand & ~cover
    values = []
    while loose:
        low = loose & -loose
        loose ^= low
        values.append(table.card_value(low))
    values.sort()
    return sum(values[: max(0, len(values) - extra)])


_compiled_keep_best: Callable[[bytes, int, int], int] | None = compiled("keep_best")


def keep_best(table: MeldTable, hand: int, extra: int) -> int:
    """:func:`keep_best_pure`, compiled where it could be (the same value for every hand:
    tests/core/test_speedups.py)."""
    if _compiled_keep_best is None:
        return keep_best_pure(table, hand, extra)
    return _compiled_keep_best(table.packed, hand, extra)


def futures(seed: int, pool: list[int], draws: int, count: int) -> list[list[int]]:
    """``count`` sequences of ``draws`` distinct cards of ``pool`` (card indexes), as card bits in the
    order drawn; the same ``seed`` and pool give the same sequences."""
    rng = random.Random(seed)
    size = min(draws, len(pool))
    if not size:
        return [[]]
    return [[1 << c for c in rng.sample(pool, size)] for _ in range(count)]


def race(table: MeldTable, hand: int, futures: list[list[int]], limit: int) -> tuple[float, float]:
    """How ``hand`` (ten cards) fares over ``futures``: ``(mean deadwood of the best ten cards after all
    the draws, mean number of draws left when a knock first became possible)``: a hand that may knock
    after the first of three draws scores 3 in that future, after the third 1, never 0.

    >>> from rummoli.cards import mask_of, parse_cards
    >>> from rummoli.rummy.melds import meld_table
    >>> table = meld_table("low", 1)
    >>> hand = mask_of(parse_cards("2s 3s 4s 5h 5d 5c 7h 8h 9c Kd"))  # 34 loose
    >>> race(table, hand, [[mask_of(parse_cards("9h"))], [mask_of(parse_cards("Qc"))]], 10)  # 9h: 9c left
    (21.5, 0.5)
    """
    total = 0
    early = 0
    for future in futures:
        cards = hand
        dead = table.deadwood(hand) if not future else 0
        for drawn, card in enumerate(future, 1):
            cards |= card
            dead = keep_best(table, cards, drawn)
            if dead <= limit:
                early += len(future) - drawn + 1
                for rest in future[drawn:]:
                    cards |= rest
                dead = keep_best(table, cards, len(future))
                break
        total += dead
    return total / len(futures), early / len(futures)


#: how many draws :func:`draws_to_knock` looks ahead; a hand that cannot knock by then counts one more
KNOCK_HORIZON = 8


def draws_to_knock(table: MeldTable, hand: int, futures: list[list[int]], limit: int) -> float:
    """The mean number of draws after which the best cards of ``hand`` and the draws could knock (deadwood
    ``limit`` or less) over ``futures``: 0 when it may knock now, ``len(future) + 1`` when never within one.

    >>> from rummoli.cards import mask_of, parse_cards
    >>> from rummoli.rummy.melds import meld_table
    >>> table = meld_table("low", 1)
    >>> hand = mask_of(parse_cards("2s 3s 4s 5h 5d 5c 7h 8h 9c Kd"))  # 34 loose
    >>> draws_to_knock(table, hand, [[mask_of(parse_cards("9h"))], [mask_of(parse_cards("Qc"))]], 10)  # 9h: 9c left
    1.5
    """
    if table.deadwood(hand) <= limit:
        return 0.0
    total = 0
    for future in futures:
        cards, needed = hand, len(future) + 1
        for drawn, card in enumerate(future, 1):
            cards |= card
            if keep_best(table, cards, drawn) <= limit:
                needed = drawn
                break
        total += needed
    return total / len(futures)
