"""A hard bot's sampled worlds: the compiled card placing (place_cards in src/rummoli/_speedups.c) and its pure
twin (rummoli.bots.stops_search.place_cards_pure) place the same cards from the same draws (issue 34)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest
from test_stops_bots import deal

from rummoli.bots import stops_search
from rummoli.bots.driver import view_for
from rummoli.bots.stops_infer import read_view
from rummoli.bots.stops_search import place_cards_pure
from rummoli.cards import cards_of
from rummoli.errors import IllegalAction
from rummoli.stops import BUILTIN_RULESETS, Hand
from rummoli.stops.base import BETTING

try:
    from rummoli._speedups import place_cards as compiled
except ImportError:
    compiled = None


def _need_compiled() -> Any:
    if compiled is None:  # a failure, never a skip
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    return compiled


def test_the_compiled_twin_is_the_one_used_unless_pure_is_asked() -> None:
    assert stops_search.place_cards is _need_compiled()
    pure = subprocess.run([sys.executable, "-c", "import rummoli.bots.stops_search as s; "
                           "print(s.place_cards is s.place_cards_pure)"],
                          env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True, text=True, check=True)
    assert pure.stdout.strip() == "True"


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_both_twins_place_the_same_cards_at_every_decision_and_strictness(ruleset: str) -> None:
    place = _need_compiled()
    compared = 0
    for seed in range(8):
        players = 3 + seed % 5
        hand = deal(ruleset, players, seed)
        rng = random.Random(seed)
        while not hand.over:
            seat = hand.to_act()[0]
            k = read_view(view_for(hand, seat))
            for strict in (2, 1, 0):
                caps, out, items = stops_search.place_inputs(k, strict)
                for draw in range(3):
                    a, b = random.Random(f"{seed}-{draw}"), random.Random(f"{seed}-{draw}")
                    got = place(a.random, a.getrandbits, caps, out, items)
                    want = place_cards_pure(b.random, b.getrandbits, caps, out, items)
                    assert got == want and a.getstate() == b.getstate()
                    compared += 1
            hand.random_step(rng)
    assert compared > 100


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_a_world_built_from_masks_is_the_hand_the_constructor_builds(ruleset: str) -> None:
    for seed in range(10):
        players = 3 + seed % 5
        hand = deal(ruleset, players, seed)
        masks = [sum(c.bit for c in cards) for cards in hand.dealt]
        widow = sum(c.bit for c in hand.dealt_widow)
        pots = [3 * j for j in range(len(hand.pots))]
        by_id = {pot.id: p for pot, p in zip(hand.rules.board.pots, pots, strict=True)}
        for ante in (True, False):
            built = Hand.from_masks(hand.rules, list(hand.names), list(hand.chips), pots, hand.dealer, masks, widow,
                                    ante=ante, auto=False)
            in_order = [cards_of(m) for m in masks]  # the cards in order, as a world deals them
            made = Hand(hand.rules, list(hand.names), list(hand.chips), by_id, hand.dealer, in_order,
                        cards_of(widow), ante=ante, auto=False)
            assert built.record() == made.record() and built.view(None) == made.view(None)
            assert built.owner == made.owner and built.hands == made.hands
        with pytest.raises(IllegalAction):  # a card moved from one hand to another: not a deal from the dealer
            low = masks[0] & -masks[0]
            Hand.from_masks(hand.rules, list(hand.names), list(hand.chips), pots, hand.dealer,
                            [masks[0] ^ low, masks[1] | low, *masks[2:]], widow)


class Forgetful(dict[int, Any]):
    """A cache that keeps nothing."""

    def __setitem__(self, key: int, value: Any) -> None:
        pass


@pytest.mark.parametrize("ruleset", ["rummoli", "tripoley"])
def test_a_worlds_weight_is_the_same_with_the_decisions_remembered_bet_moments(ruleset: str) -> None:
    """sample_world works out the public side of each weighed bet once per decision (its bet moments): every
    world gets the weight it gets when worked out afresh, bet by bet, in that world."""
    weighed = 0
    for seed in range(12):
        hand = deal(ruleset, 3 + seed % 5, seed)
        rng = random.Random(seed)
        while not hand.over:
            seat = hand.to_act()[0]
            view = view_for(hand, seat)
            if hand.phase == BETTING and any(a["action"] in ("bet", "raise", "call") for a in view["actions"]):
                k = read_view(view)
                k.credibility = [1.0] * k.n
                for world in range(6):
                    remembered, fresh = [1.0], [1.0]
                    a = stops_search.sample_world(k, view, random.Random(f"{seed}-{world}"), remembered)
                    k_fresh = read_view(view)
                    k_fresh.credibility = [1.0] * k.n
                    k_fresh.place_cache["bet_moments"] = Forgetful()  # each bet's moment worked out in its world
                    b = stops_search.sample_world(k_fresh, view, random.Random(f"{seed}-{world}"), fresh)
                    assert (a is None) == (b is None)
                    if a is not None and b is not None:
                        assert a.hands == b.hands and remembered == fresh
                        weighed += remembered[0] != 1.0
            hand.random_step(rng)
    assert weighed > 20
