"""The counting bots' two Monte-Carlo loops on plain numbers, with compiled twins (issue 34).

* :func:`poker_chance_pure` -- the sampling loop of :meth:`rummoli.bots.stops_bots.NormalStopsBot.win_chance`:
  the opponents' hands dealt from the unseen cards, each sample weighted by how likely their bets were;
* :func:`widow_worth_pure` -- the loop of ``NormalStopsBot._widow_gain``: widows drawn from the unseen cards and
  their :func:`~rummoli.bots.stops_bots.hand_worth` summed, from a :class:`WorthPlan` worked out once.

These were most of a ``normal`` bot's time (four normal bots in ``rummoli sim``).  ``rummoli/_speedups.c`` holds
their compiled twins, ``poker_chance`` and ``widow_worth``: the same draws from the same generator, the same
floating-point steps in the same order, so the same answers to the last bit (tests/bots/test_stops_chance.py);
:mod:`rummoli.twins` picks one, and ``RUMMOLI_PURE=1`` keeps these.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from typing import NamedTuple

from rummoli.poker import evaluate_mask

#: per 13-card suit block: the sum over its cards of 12 - rank (how low they are)
LOWNESS = tuple(sum(12 - r for r in range(13) if block >> r & 1) for block in range(1 << 13))

_BIT = tuple(1 << c for c in range(52))

#: one player of a win chance's plan: the index of its hand in the deal, its bets and raises, the credibility of
#: its bets, the doubt term ``(1 - credibility) * UNINFORMED`` and the remembered likelihoods of its hand's values
Player = tuple[int, int, float, float, dict[int, float]]


def poker_chance_pure(random_: Callable[[], float], unseen: list[int], sizes: list[int], plan: list[Player],
                      strong: Callable[[int, int, int], float], others: int, mine: int, limit: int,
                      thresholds: tuple[float, ...], min_samples: int, check_every: int,
                      clear_z: float) -> tuple[float, float, int]:
    """``(wins, weight_sum, samples)`` of a win chance.  Each sample deals ``sizes`` cards to each hand in turn by
    a partial shuffle of ``unseen`` (one ``random_()`` a card), then looks at the players of ``plan`` in its order:
    a hand that bet weighs the sample by ``(credibility * strong + doubt) ** bets`` (``strong(value, size,
    others)``, remembered in the player's dict); once a hand beats ``mine``, the players who did not bet are not
    looked at.  With ``thresholds`` it stops, every ``check_every`` samples from ``min_samples`` on, once the
    estimate is more than ``clear_z`` standard errors (Kish's effective sample size) from each."""
    segments = []
    start = 0
    for size in sizes:
        segments.append([(i, len(unseen) - i) for i in range(start, start + size)])
        start += size
    steps = [(x, sizes[x], aggression, credibility, doubt, known) for x, aggression, credibility, doubt, known in plan]
    wins = weight_sum = weight_sq = 0.0
    n = 0
    bit, evaluate = _BIT, evaluate_mask
    while n < limit:
        cards = unseen[:]
        masks = []
        for segment in segments:
            m = 0
            for i, span in segment:
                j = i + int(random_() * span)
                c = cards[j]
                cards[j] = cards[i]
                cards[i] = c
                m |= bit[c]
            masks.append(m)
        weight = 1.0
        best_other = -1
        for x, size, aggression, credibility, doubt, known in steps:
            if not aggression and best_other > mine:
                break  # lost already: the rest did not bet and cannot change it
            value = evaluate(masks[x])
            if value > best_other:
                best_other = value
            if aggression:
                likely = known.get(value)
                if likely is None:
                    likely = known[value] = strong(value, size, others)
                weight *= (credibility * likely + doubt) ** aggression
        n += 1
        weight_sum += weight
        weight_sq += weight * weight
        if mine > best_other:
            wins += weight
        elif mine == best_other:
            wins += weight / 2
        if thresholds and n >= min_samples and n % check_every == 0 and weight_sum:
            p = wins / weight_sum
            effective = weight_sum * weight_sum / weight_sq
            error = math.sqrt(max(p * (1 - p), 0.25 / effective) / effective)  # never 0 at p = 0 or 1
            if all(abs(p - t) > clear_z * error for t in thresholds):
                break
    return wins, weight_sum, n


class WorthPlan(NamedTuple):
    """What :func:`~rummoli.bots.stops_bots.hand_worth` reads of a ruleset, the pots and the table, as numbers."""

    #: (card, its pots' worth to hold: 0.6 x their chips), the card pots in the table's order (``pay = on_play``)
    cards: tuple[tuple[int, float], ...]
    #: (the combo's masks, one per suit, and 0.4 x its pot), the combos in the table's order (``pay = on_play``)
    combos: tuple[tuple[tuple[int, ...], float], ...]
    #: whether the poker pot counts, its stake (the pot and two chips an opponent) and the power of the percentile
    poker: bool
    stake: int
    power: int
    #: the sorted values of random hands the percentile is read from (the widow's size)
    values: list[int]
    #: the players, and the centre pot with the leftover cards' chips
    players: int
    centre: float


def widow_worth_pure(random_: Callable[[], float], unseen: list[int], size: int, samples: int,
                     plan: WorthPlan) -> float:
    """The sum of :func:`~rummoli.bots.stops_bots.hand_worth` over ``samples`` widows of ``size`` cards, each
    drawn from ``unseen`` by a partial shuffle of a copy (one ``random_()`` a card), in the same steps."""
    total = 0.0
    n = len(unseen)
    draws = min(size, n)
    values = plan.values
    count = len(values)
    for _ in range(samples):
        pool = unseen[:]
        for i in range(draws):
            j = i + int(random_() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
        mask = 0
        for c in pool[:size]:
            mask |= 1 << c
        if not mask:
            continue  # hand_worth of nothing: 0.0
        worth = 0.0
        for c, value in plan.cards:
            if mask >> c & 1:
                worth += value
        for masks, value in plan.combos:
            if any(mask & m == m for m in masks):
                worth += value
        held = mask.bit_count()
        if plan.poker and held >= 5:
            v = evaluate_mask(mask)
            lo = bisect.bisect_left(values, v)
            hi = bisect.bisect_right(values, v)
            worth += ((lo + hi) / 2 / count) ** plan.power * plan.stake
        lowness = (LOWNESS[mask & 0x1FFF] + LOWNESS[mask >> 13 & 0x1FFF] + LOWNESS[mask >> 26 & 0x1FFF]
                   + LOWNESS[mask >> 39]) / (12 * held)
        worth += min(0.9, 2 * lowness / plan.players) * plan.centre
        total += worth
    return total
