"""Reading an opponent's hand from its choices: how likely a sampled world makes what the others did.

A world the hard bot samples (:mod:`rummoli.bots.rummy_search`) deals the unseen cards at random; most
such deals are unlikely given what the other players chose.  A player who let a card go by on the pile
seldom held two cards it would have made a meld with; a player who took one usually did; and a player
sheds one of its loosest, dearest cards, seldom a card of a meld.  So each world is **weighed** by how
likely every past choice of every other player is in it, judged on the hand that player held at that
moment in that world (the replay shows it: :func:`rummoli.rummy.replay_hand`'s ``before``).

The model is soft on purpose: people keep pairs, take a card to hide a plan, break a meld to stay
safe.  Every factor below is a likelihood ratio between a choice that fits the hand and one that does
not, never zero, so a world is made less likely, never ruled out.

Only in Gin, where it was measured (bench/bots_external.py).  Knock Rummy also lays nothing during play and
the same reading would apply there, but it is not switched on until measured; where melds go down as you
play, the table tells most of it already.  Elsewhere every world weighs 1.
"""

from __future__ import annotations

import math

from rummoli.rummy import Action, RummyHand
from rummoli.rummy.base import DISCARD, DRAW_DISCARD, DRAW_STOCK, KNOCK, PASS

#: a card let go by although it would have joined a meld of the hand
DECLINED_USEFUL = 0.2
#: a card taken from the pile although it joins no meld of the hand
TOOK_USELESS = 0.35
#: per point of deadwood a discard keeps above the least it could have kept
DISCARD_SLOPE = 0.3
#: no single choice counts for less than this (a world is never ruled out by one choice)
FLOOR = 0.05

STYLES = ("gin",)


def joins_meld(hand: RummyHand, seat: int, card: int) -> bool:
    """Whether ``card`` would be in a meld of the best arrangement of ``seat``'s hand with it."""
    bit = 1 << card
    _, melds = hand.melds_table.best_arrangement(hand.hands[seat] | bit)
    return any(meld & bit for meld in melds)


def choice_likelihood(hand: RummyHand, action: Action) -> float:
    """How likely ``action`` (another player's, about to be applied to ``hand``) is in this world, up to a
    constant shared by every world: 1 for a choice that fits the hand."""
    seat = action.seat
    code, x, _ = hand.to_move(action)
    if code in (DRAW_STOCK, PASS, DRAW_DISCARD):
        pile = hand.pile
        if not pile or hand.phase != "draw":
            return 1.0
        top = pile[-1]
        if code == DRAW_DISCARD:
            return 1.0 if joins_meld(hand, seat, top) else TOOK_USELESS
        if hand.refusal(seat, DRAW_DISCARD, top, 0) is not None:
            return 1.0  # the pile could not be taken: nothing was chosen
        return DECLINED_USEFUL if joins_meld(hand, seat, top) else 1.0
    if code in (DISCARD, KNOCK):
        held = hand.hands[seat]
        table = hand.melds_table
        # every world weighs every discard against each other one: the compiled count, where there is one, is
        # the same deadwood (tests/core/test_speedups.py) without the remembered arrangements' dictionary
        count = table.deadwood_counter()
        deadwood = table.deadwood if count is None else lambda mask: count(mask, 0)
        kept = deadwood(held & ~(1 << x))
        least = kept
        rest = held & ~(1 << hand.taken) if hand.taken >= 0 else held
        while rest:
            low = rest & -rest
            rest ^= low
            least = min(least, deadwood(held & ~low))
        return max(FLOOR, math.exp(-DISCARD_SLOPE * (kept - least)))
    return 1.0


class Reader:
    """Collects, over one replay, the likelihood of every choice made by a seat other than ``me``."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.weight = 1.0

    def __call__(self, hand: RummyHand, action: Action) -> None:
        if action.seat != self.me and hand.phase != "over":
            self.weight *= choice_likelihood(hand, action)


def take_chances(worlds: list[tuple[RummyHand, float]], seat: int, cards: list[int]) -> list[float]:
    """For each of ``cards``, the weighed share of ``worlds`` in which ``seat``'s hand would make a meld
    with it (the chance that player takes it from the pile)."""
    total = sum(w for _, w in worlds)
    if total <= 0:
        return [0.0] * len(cards)
    out = []
    for card in cards:
        hits = sum(w for world, w in worlds if joins_meld(world, seat, card))
        out.append(hits / total)
    return out
