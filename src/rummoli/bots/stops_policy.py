"""The stops bots' rules of thumb, on card masks (the family strategy of the source documents).

Everything here works on 52-bit masks (``bit = 13 * suit + rank``) and small numbers, so the same
functions serve the ``easy`` bot (fed from a view) and the ``hard`` bot's rollouts (fed from a sampled
:class:`~rummoli.stops.Hand`, each seat seeing only its own cards).

* :func:`poker_percentile` -- how a hand's best five rank among random hands of the same size;
* :func:`dreadful` -- the widow rule: take it only with a dreadful hand and no pay card;
* :func:`easy_bet` -- bet on the cards held, never bluff;
* :func:`lead_score` -- choose between equally low cards: go out, keep a lead in the other colour,
  run your own long sequences, pull the run toward your pay cards.

>>> from rummoli.cards import mask_of, parse_cards
>>> t = table_for("rummoli")
>>> dreadful(t, mask_of(parse_cards("5s 6h 8d 9c Jc Qh 6c Ks 9h 3d")))
True
>>> dreadful(t, mask_of(parse_cards("5s 6h 8d 9c Jc Qh 6c Ts 9h 3d")))   # the ten of spades pays
False
"""

from __future__ import annotations

import bisect
import functools
import json
import random
from dataclasses import dataclass
from typing import Any

from rummoli.cards import BLACK_MASK, RED_MASK, SUIT_BITS, SUIT_MASK
from rummoli.poker import evaluate_mask
from rummoli.stops.ruleset import CARD, COMBO, Ruleset, load_ruleset

FULL = (1 << 52) - 1


@dataclass(frozen=True)
class Table:
    """What a bot needs to know of a ruleset, precomputed once."""

    rules: Ruleset
    #: every card that wins something (a card pot's card or a card of a suited combo)
    pay_mask: int
    #: card index -> indices of the card pots it wins
    card_pots: dict[int, tuple[int, ...]]
    #: (pot index, masks: one per suit the combo may be made in)
    combos: tuple[tuple[int, tuple[int, ...]], ...]
    centre: int
    poker: int | None
    pot_ids: tuple[str, ...]
    #: every card whose laying may win a pot (a card pot's card, the top card of a combo in each suit)
    lay_pays: int = 0


def _table(rules: Ruleset) -> Table:
    pay = 0
    card_pots: dict[int, tuple[int, ...]] = {}
    combos = []
    for j, pot in enumerate(rules.board.pots):
        if pot.kind == CARD:
            c = pot.cards[0]
            card_pots[c] = (*card_pots.get(c, ()), j)
            pay |= 1 << c
        elif pot.kind == COMBO:
            suits = range(4) if pot.suit is None else (pot.suit,)
            masks = tuple(sum(1 << (13 * s + r) for r in pot.ranks) for s in suits)
            combos.append((j, masks))
            if pot.suit is not None:
                pay |= masks[0]
    tops = 0
    for c in card_pots:
        tops |= 1 << c
    for _, masks in combos:
        for m in masks:
            tops |= 1 << (m.bit_length() - 1)
    return Table(rules, pay, card_pots, tuple(combos), rules.board.centre, rules.board.poker,
                 tuple(p.id for p in rules.board.pots), tops)


@functools.lru_cache(maxsize=64)
def _table_by_key(key: str) -> Table:
    return _table(load_ruleset(json.loads(key)))


def table_for(ref: str | dict[str, Any] | Ruleset) -> Table:
    """The :class:`Table` of a ruleset reference (a name, an inline dict or a :class:`Ruleset`)."""
    if type(ref) is str:  # a built-in ruleset's name, as nearly every view gives it: no JSON to write
        return _table_by_name(ref)
    if isinstance(ref, Ruleset):
        ref = ref.reference()
    return _table_by_key(json.dumps(ref, sort_keys=True))


@functools.lru_cache(maxsize=64)
def _table_by_name(name: str) -> Table:
    return _table_by_key(json.dumps(name))


# ----------------------------------------------------------------------------- poker strength
@functools.lru_cache(maxsize=64)
def _values(size: int) -> list[int]:
    rng = random.Random(9000 + size)
    cards = list(range(52))
    out = []
    for _ in range(600):
        m = 0
        for c in rng.sample(cards, size):
            m |= 1 << c
        out.append(evaluate_mask(m))
    out.sort()
    return out


def poker_percentile(mask: int, size: int | None = None) -> float:
    """The share of random hands of ``size`` cards (default: this hand's) whose best five are worse.

    >>> from rummoli.cards import mask_of, parse_cards
    >>> poker_percentile(mask_of(parse_cards("As Ah Ad Ac Ks 2h 3d"))) > 0.99
    True
    """
    k = mask.bit_count() if size is None else size
    if mask.bit_count() < 5:
        return 0.0
    return value_percentile(evaluate_mask(mask), k)


@functools.lru_cache(maxsize=1 << 14)
def hand_percentile(mask: int) -> float:
    """:func:`poker_percentile` of a hand, remembered: a search's rollouts ask about the same hands
    again and again (every candidate meets the same world, every world holds the searching seat's)."""
    return poker_percentile(mask)


def percentile_values(size: int) -> list[int]:
    """The sorted values of random hands of ``size`` cards (5 to 52) that :func:`value_percentile` reads."""
    return _values(min(max(size, 5), 52))


def value_percentile(v: int, size: int) -> float:
    """:func:`poker_percentile` of a hand already evaluated (``v``) of ``size`` cards."""
    table = percentile_values(size)
    lo = bisect.bisect_left(table, v)
    hi = bisect.bisect_right(table, v)
    return (lo + hi) / 2 / len(table)


# ------------------------------------------------------------------------------ hand features
def pay_held(t: Table, mask: int) -> int:
    """The pay cards in ``mask``, counting an any-suit combo only when complete."""
    held = mask & t.pay_mask
    for _, masks in t.combos:
        for m in masks:
            if mask & m == m:
                held |= m
    return held


def low_cards(mask: int, top_rank: int = 2) -> int:
    """How many cards of rank ``top_rank`` (2 = the fours) or lower the hand holds."""
    low = (1 << (top_rank + 1)) - 1
    low |= low << 13
    low |= low << 26  # the same ranks in all four suits
    return (mask & low).bit_count()


def dreadful(t: Table, mask: int) -> bool:
    """The family's widow test: no pay card, a poor poker hand and hardly a low card to lead."""
    if pay_held(t, mask):
        return False
    return poker_percentile(mask) < 0.35 and low_cards(mask) <= max(1, mask.bit_count() // 8)


def sequence_from(mask: int, card: int) -> int:
    """The cards of ``mask`` from ``card`` up its suit without a gap (``card`` included if held)."""
    out = 0
    c = card
    top = 13 * (card // 13) + 12
    while c <= top and mask >> c & 1:
        out |= 1 << c
        c += 1
    return out


def restart_set(restart: str, suit: int) -> int:
    """The cards the restart rule allows after a stop in ``suit`` (ignoring 'else same')."""
    if restart == "opposite_colour":
        return RED_MASK if suit in (0, 3) else BLACK_MASK
    return FULL & ~SUIT_MASK[suit]


def lead_keeping(restart: str, rest: int, suit: int) -> float:
    """The worth of the leads ``rest`` keeps after leading in ``suit``: 10 if it can restart after a
    stop there, plus one per further restart it can chain (opposite colours: the scarcer colour
    limits how often the lead can come back)."""
    if restart == "other_suit_else_same":
        return 10.0
    other = rest & restart_set(restart, suit)
    if not other:
        return 0.0
    if restart != "opposite_colour":
        return 10.0
    a, b = other.bit_count(), (rest & ~other).bit_count()
    return 10.0 + min(6, 2 * min(a, b) + (a > b))


def lead_score(t: Table, hand: int, card: int, pots: list[int]) -> float:
    """How good leading ``card`` from ``hand`` is by the rules of thumb (higher is better)."""
    run = sequence_from(hand, card)
    rest = hand & ~run
    if not rest:
        return 1000.0
    suit = card // 13
    score = 2.0 * run.bit_count()
    score += lead_keeping(t.rules.restart, rest, suit)
    # The run climbs toward our other cards of the suit: they may be shed too, and the ace stops on us.
    above = rest & SUIT_MASK[suit] & ~((2 << card) - 1)
    score += 0.75 * above.bit_count() + (1.5 if above >> (13 * suit + 12) & 1 else 0.0)
    for c, js in t.card_pots.items():
        if run >> c & 1:
            score += sum(pots[j] for j in js)
        elif above >> c & 1:
            score += 0.5  # the run heads for a pay card of ours
    return score


def best_lead(t: Table, hand: int, options: int, pots: list[int]) -> int:
    """The card to lead among ``options`` (a mask): best score, lowest card on ties."""
    best, best_score = -1, -1e18
    c = 0
    m = options
    while m:
        low = m & -m
        c = low.bit_length() - 1
        s = lead_score(t, hand, c, pots)
        if s > best_score:
            best, best_score = c, s
        m ^= low
    return best


# ---------------------------------------------------------------------------------- betting
def easy_bet(p: float, can_check: bool, bet_range: tuple[int, int] | None,
             raise_range: tuple[int, int] | None, to_call: int) -> tuple[str, int]:
    """A betting decision from ``p``, the chance to hold the best hand: ``(kind, amount)``.

    Bet and raise only on strength, call on a fair chance, otherwise check or fold; never bluff.
    """
    if can_check:
        if bet_range is not None and p >= 0.6:
            low, high = bet_range
            return "bet", _scale(p, 0.6, low, high)
        return "check", 0
    if raise_range is not None and p >= 0.8:
        low, high = raise_range
        return "raise", _scale(p, 0.8, low, high)
    if p >= 0.4 or (to_call <= 2 and p >= 0.25):
        return "call", 0
    return "fold", 0


def _scale(p: float, floor: float, low: int, high: int) -> int:
    frac = min(1.0, max(0.0, (p - floor) / (1.0 - floor)))
    return max(low, min(high, low + round(frac * (high - low))))


def suit_of_mask(mask: int) -> list[int]:
    """Per suit, the 13-bit rank set of ``mask``."""
    return [mask >> (13 * s) & SUIT_BITS for s in range(4)]
