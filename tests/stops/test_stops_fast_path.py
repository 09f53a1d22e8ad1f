"""The search fast path (``Hand.options`` / ``Hand.step``) plays exactly as ``apply`` does."""

from __future__ import annotations

import random

import pytest

from rummoli.cards import CARDS, cards_of
from rummoli.dealing import deal_with_widow
from rummoli.stops import BUILTIN_RULESETS, Action, Hand
from rummoli.stops.hand import KINDS
from rummoli.stops.replay import NAMES


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_stepping_listed_options_matches_applying_actions(ruleset: str) -> None:
    for seed in range(15):
        rng = random.Random(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        players = 4
        hands, widow = deal_with_widow(deck, players, seed % players)
        checked = Hand(ruleset, NAMES[:players], [60] * players, {}, seed % players, hands, widow)
        fast = checked.clone()
        while not checked.over:
            seat, kind, low, high, cards = rng.choice(fast.options())
            field = KINDS[kind]
            amount = rng.randint(low, high) if field == "amount" else 0
            card = rng.choice(cards_of(cards)) if field == "card" else None
            if kind in ("bet", "raise", "call", "check", "fold"):
                assert fast.to_call(seat) == checked.to_call(seat)
            checked.apply(Action(seat, kind, card, amount if field == "amount" else None))
            fast.step(seat, kind, -1 if card is None else card.index, amount)
            assert (fast.chips, fast.pots, fast.phase, fast.folded) == (checked.chips, checked.pots,
                                                                       checked.phase, checked.folded)
        assert fast.over and fast.log == checked.log
