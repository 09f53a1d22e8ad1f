"""The hard bot's lean play-outs against the engine: the same hands end with the same chips and pots.

:func:`~rummoli.bots.stops_playout.play_round` and :func:`~rummoli.bots.stops_search.playout` replay
what :func:`~rummoli.bots.stops_search.rollout` does through :class:`~rummoli.stops.Hand`, without its
log; these tests hold them to the engine's results on many seeded hands of every built-in ruleset and
of rulesets that turn on the options no built-in uses (announced claims, poker after the play round,
the two of clubs, paying to pass, leads in a chosen suit, no leftover payments).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from rummoli.bots.stops_playout import COMPILED, play_round, play_round_pure
from rummoli.bots.stops_policy import table_for
from rummoli.bots.stops_search import playout, rollout
from rummoli.cards import CARDS
from rummoli.dealing import deal_with_widow
from rummoli.stops import Hand, load_ruleset
from rummoli.stops.replay import NAMES
from rummoli.stops.ruleset import BUILTIN_RULESETS

ODD_RULES: list[dict[str, Any]] = [
    {"game": "stops", "board": "copp-clark", "claim": "announce", "poker": "after_play",
     "opening_lead": "two_of_clubs", "cannot_lead": "pay_and_pass", "restart": "other_suit_else_same",
     "lead": "lowest_in_chosen_suit", "leftover": "none"},
    {"game": "stops", "board": "tripoley", "claim": "announce", "restart": "other_suit",
     "lead": "lowest_in_chosen_suit", "cannot_lead": "pay_and_pass", "widow": "none"},
    {"game": "stops", "board": "michigan", "pay": "on_hold", "restart": "opposite_colour",
     "poker": "none", "opening_lead": "left_of_dealer"},
]
RULESETS: list[str | dict[str, Any]] = [*BUILTIN_RULESETS, *ODD_RULES]


def _deal(ruleset: str | dict[str, Any], seed: int) -> Hand:
    rng = random.Random(f"playout-{seed}")
    rules = load_ruleset(ruleset)
    players = max(rules.min_players, 2 + seed % 5)
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    hands, widow = deal_with_widow(deck, players, dealer)
    # Uneven stacks: some seats cannot pay what the rules ask (leftovers, passes, bets) in full.
    chips = [rng.choice((100, 100, 40, 12)) for _ in range(players)]
    return Hand(rules, NAMES[:players], chips, {}, dealer, hands, widow)


def _choices(hand: Hand) -> list[tuple[int, str, int, int]]:
    """Every legal action now as ``(seat, kind, card, amount)``, a few amounts per range."""
    out = []
    for seat, kind, low, high, cards in hand.options():
        if kind in ("bid", "bet", "raise"):
            out.extend((seat, kind, -1, a) for a in sorted({low, (low + high) // 2, high}))
        elif kind in ("lead", "play"):
            out.extend((seat, kind, c, 0) for c in range(52) if cards >> c & 1)
        else:
            out.append((seat, kind, -1, 0))
    return out


def _engine(hand: Hand, action: tuple[int, str, int, int], wild: int, seed: int) -> tuple[list[int], list[int]]:
    h = hand.clone()
    h.step(*action)
    rollout(h, table_for(h.rules), wild, random.Random(seed), wild)
    assert h.over
    return h.chips, h.pots


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r if isinstance(r, str) else r["board"] + "-odd")
def test_playout_ends_every_hand_as_the_engine_does(ruleset: str | dict[str, Any]) -> None:
    """From states all through seeded hands (reached by random legal moves), every legal action then
    the rollout's rules of thumb end with the same chips and pots through :func:`playout` as through
    the engine, wild bettors included (they draw from the same seeded generator)."""
    t = table_for(ruleset)
    compared = in_play = 0
    for seed in range(20):
        hand = _deal(ruleset, seed)
        rng = random.Random(seed)
        while not hand.over:
            actions = _choices(hand)
            if len(actions) > 1:
                for action in actions:
                    wild = rng.getrandbits(hand.n) if hand.phase == "poker" else 0
                    seed_ = rng.getrandbits(32)
                    expected = _engine(hand, action, wild, seed_)
                    h = hand.clone()
                    h_before = (list(h.chips), list(h.pots), list(h.hands), h.phase)
                    chips = playout(h, t, action, wild, random.Random(seed_), wild)
                    assert chips == expected[0], (seed, action, hand)
                    if hand.phase == "play" and hand.claim_pending < 0:
                        in_play += 1
                        # A lead is played out on copies: the hand is left as it was.
                        assert (h.chips, h.pots, h.hands, h.phase) == h_before
                        assert play_round(hand, t, action[2]) == expected
                    compared += 1
            hand.random_step(rng)
    assert compared > 100 and in_play > 10


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r if isinstance(r, str) else r["board"] + "-odd")
def test_play_round_from_the_opening_lead_agrees_with_the_engine(ruleset: str | dict[str, Any]) -> None:
    """The whole play round from where the engine settles it (forced leads and runs included): the
    same chips and pots, over many seeded deals with the bidding made at random."""
    t = table_for(ruleset)
    for seed in range(150):
        hand = _deal(ruleset, 1000 + seed)
        rng = random.Random(seed)
        while hand.phase not in ("play", "over"):
            hand.random_step(rng)
        if hand.over or hand.claim_pending >= 0:
            continue
        engine = hand.clone()
        rollout(engine, t)
        assert play_round(hand, t) == (engine.chips, engine.pots), seed
        assert sum(engine.chips) + sum(engine.pots) == sum(hand.chips) + sum(hand.pots)


def test_the_compiled_play_round_is_the_one_used_unless_pure_is_asked() -> None:
    if not COMPILED:  # a failure, never a skip
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    pure = subprocess.run([sys.executable, "-c", "import rummoli.bots.stops_playout as p; print(p.COMPILED)"],
                          env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True, text=True, check=True)
    assert pure.stdout.strip() == "False"


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r if isinstance(r, str) else r["board"] + "-odd")
def test_both_play_rounds_agree_from_every_lead_of_many_rounds(ruleset: str | dict[str, Any]) -> None:
    """The compiled play round and its pure twin: the same chips and pots from every lead a seat could choose,
    at every lead of seeded play rounds (reached by random moves), the other seats' leads chosen by counting."""
    t = table_for(ruleset)
    compared = 0
    for seed in range(60):
        hand = _deal(ruleset, 5000 + seed)
        rng = random.Random(seed)
        while not hand.over:
            if hand.phase == "play" and hand.claim_pending < 0 and not hand.in_run:
                assert play_round(hand, t) == play_round_pure(hand, t), seed
                for card in range(52):
                    if hand.lead_mask >> card & 1:
                        assert play_round(hand, t, card) == play_round_pure(hand, t, card), (seed, card)
                        compared += 1
            hand.random_step(rng)
    assert compared > 100
