"""Random play-outs over every built-in ruleset and random option combinations (docs/rules.md §3)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stops_helpers import pick, visible_cards

from rummoli.cards import CARDS
from rummoli.dealing import deal_with_widow
from rummoli.stops import BUILTIN_RULESETS, Hand, Session, load_ruleset, replay_hand, replay_record
from rummoli.stops.hand import COPIED_SLOTS, OVER, STATE_SLOTS
from rummoli.stops.ruleset import CHOICES

FULL = (1 << 52) - 1


@st.composite
def rulesets(draw: st.DrawFn) -> Any:
    if draw(st.booleans()):
        return draw(st.sampled_from(BUILTIN_RULESETS))
    options = {key: draw(st.sampled_from(values)) for key, values in CHOICES.items() if key != "settle"}
    return {"game": "stops", "name": "random", "board": draw(st.sampled_from(["copp-clark", "tripoley",
                                                                                 "michigan"])),
            "max_bet": draw(st.integers(1, 12)), "max_raises": draw(st.integers(0, 4)), **options}


def check_cards(hand: Hand) -> None:
    """Every card in exactly one place: a hand, the widow or the table."""
    seen = 0
    for mask in hand.hands:
        assert not seen & mask
        seen |= mask
    played = sum(1 << c for _, c in hand.played())
    widow = hand.widow()
    assert not seen & played and not widow & (seen | played)
    assert seen | played | widow == FULL
    if hand.swapped < 0:
        assert widow == sum(c.bit for c in hand.dealt_widow)
    else:
        assert widow == hand.given_up


def check_views(hand: Hand) -> None:
    """No view holds a card its seat may not see (other hands, the widow, a swapped-away hand)."""
    table = {str(CARDS[c]) for _, c in hand.played()}
    shown = {str(c) for m in hand.showdown.values() for c in CARDS if m >> c.index & 1}
    for seat in [None, *range(hand.n)]:
        view = hand.view(seat, history=True)
        allowed = table | shown
        if seat is not None:
            allowed |= {str(c) for c in CARDS if hand.hands[seat] >> c.index & 1}
            if seat == hand.swapped:
                allowed |= {str(c) for c in CARDS if hand.given_up >> c.index & 1}
        assert visible_cards(view) <= allowed, seat


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=rulesets(), players=st.integers(2, 8), seed=st.integers(0, 2**32), chips=st.integers(20, 150))
def test_random_hands_keep_every_guarantee(ruleset: Any, players: int, seed: int, chips: int) -> None:
    rules = load_ruleset(ruleset)
    players = max(players, rules.min_players)
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    hands, widow = deal_with_widow(deck, players, dealer)
    pots = {p.id: rng.randrange(4) for p in rules.board.pots}
    hand = Hand(rules, [f"p{i}" for i in range(players)], [chips] * players, pots, dealer, hands, widow)
    total = chips * players + sum(pots.values())
    steps = 0
    while hand.phase != OVER:
        assert sum(hand.chips) + sum(hand.pots) == total
        assert min(hand.chips) >= 0 and min(hand.pots) >= 0
        check_cards(hand)
        if steps % 3 == 0:
            check_views(hand)
        actions = hand.legal_actions()
        assert actions and {a.seat for a in actions} == set(hand.to_act())
        events = hand.apply(pick(actions, rng))
        assert all(e["amount"] > 0 for e in events if e["type"] == "chips")
        steps += 1
        assert steps < 400, "a hand must end"
    assert sum(hand.chips) + sum(hand.pots) == total
    check_cards(hand)
    check_views(hand)
    result = replay_record(hand.record())
    assert result == {"chips": hand.chips, "pots": hand.pot_balances(), "events": hand.events()}


@settings(max_examples=100, deadline=None)
@given(ruleset=st.sampled_from(BUILTIN_RULESETS), players=st.integers(3, 8), seed=st.integers(0, 2**32))
def test_clones_are_independent_and_replay_from_a_view(ruleset: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    hands, widow = deal_with_widow(deck, players, 0)
    hand = Hand(ruleset, [f"p{i}" for i in range(players)], [100] * players, {}, 0, hands, widow)
    for _ in range(3):
        if hand.over:
            break
        hand.random_step(rng)
    copy = hand.clone()
    for name in STATE_SLOTS:  # a clone copies exactly the lists and dicts: shares nothing the hand changes in place
        value = getattr(hand, name)
        assert isinstance(value, (list, dict)) == (name in COPIED_SLOTS), name
        assert (getattr(copy, name) is value) == (name not in COPIED_SLOTS) and getattr(copy, name) == value, name
    before = copy.view(None)
    while not hand.over:
        hand.random_step(rng)
    assert copy.view(None) == before
    # A bot rebuilds the state from its view: the true deal plus the view's public actions.
    view = copy.view(1, history=True)
    rebuilt = copy.record(forced=True)
    rebuilt["actions"] = [{k: v for k, v in a.items() if k != "forced"} for a in view["actions"]]
    # (A clone numbers its events afresh, from when it was made: compare all but the numbering.)
    assert replay_hand(rebuilt, complete=False).view(None) | {"seq": 0} == before | {"seq": 0}


@settings(max_examples=40, deadline=None)
@given(ruleset=rulesets(), players=st.integers(2, 8), seed=st.integers(0, 2**32),
       settle=st.sampled_from(CHOICES["settle"]))
def test_sessions_conserve_chips_through_hands_and_settlement(ruleset: Any, players: int, seed: int,
                                                              settle: str) -> None:
    rules = load_ruleset(ruleset)
    data = {**rules.to_dict(), "settle": settle}
    players = max(players, rules.min_players)
    session = Session(data, [f"p{i}" for i in range(players)], chips=40, cut_seed=seed, max_hands=6)
    total = session.total()
    while not session.over:
        hand = session.start_hand(seed=seed + session.hands_played)
        session.play_random(hand, seed=seed)
        record = session.finish_hand(hand)
        assert session.total() == total
        assert replay_record(record)["chips"] == hand.chips
    session.settle(seed=seed)
    assert session.total() == total and sum(session.pots.values()) == 0
    assert session.standings()[0]["winner"]


def test_random_step_on_a_finished_hand_changes_nothing() -> None:
    import random as _random

    from rummoli.stops import random_hand

    hand = random_hand("rummoli", 4, _random.Random(3))
    assert hand.over
    before = hand.record(forced=True)
    hand.random_step(_random.Random(4))
    assert hand.record(forced=True) == before
