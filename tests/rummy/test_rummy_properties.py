"""Random play-outs over every built-in Rummy ruleset and 2-6 players, with the engine's guarantees
checked after every action (docs/rules.md §3): every card in exactly one place, every hand ends, scores that
follow from the cards left, records that replay to the same scores, views that leak no hidden card but
let each seat work out its own dealt hand (what a bot needs to rebuild the hand from a guess), and listing
and checking that agree."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummoli.cards import CARDS
from rummoli.errors import IllegalAction
from rummoli.rummy import RummyHand, builtin_names, deal_cards, load_ruleset, replay_record
from rummoli.rummy.base import DISCARD, KNOCK, LAYOFF, MELD

FULL = (1 << 52) - 1
RULESETS = builtin_names()


def places(hand: RummyHand) -> list[int]:
    masks = list(hand.hands)
    masks.append(sum(1 << c for c in hand.stock))
    masks.append(sum(1 << c for c in hand.pile))
    masks.extend(hand.melds)
    return masks


def check_cards(hand: RummyHand) -> None:
    total = 0
    for mask in places(hand):
        assert not total & mask, "a card in two places"
        total |= mask
    assert total == FULL and len(hand.stock) + len(hand.pile) + sum(m.bit_count() for m in places(hand)[:-2]) > 0


def check_views(hand: RummyHand, seen: int) -> None:
    """No stock card, and (until the hands are shown at the end) no unseen card of another hand."""
    stock = sum(1 << c for c in hand.stock)
    for seat in [None, *range(hand.n)]:
        hidden = stock & ~seen  # a turned-over pile was seen face up
        for other in range(hand.n):
            if other != seat and not hand.over:
                hidden |= hand.hands[other] & ~seen
        text = json.dumps(hand.view(seat))
        for index in range(52):
            if hidden >> index & 1:
                assert f'"{CARDS[index]}"' not in text, f"seat {seat} sees {CARDS[index]}"


def dealt_from_view(view: dict[str, Any]) -> set[str]:
    """A seat's dealt hand, worked out from its view alone (as a bot rebuilding the hand would)."""
    pile = [view["turned_up"]]
    blind = {index: card for index, card in view["drawn"]}
    mine: list[tuple[set[str], set[str]]] = []  # (gained, given up) for each of the seat's actions
    for count, event in enumerate(view["history"]):
        if count in view["flipped_at"]:
            pile = []
        gained: set[str] = set()
        lost: set[str] = set()
        kind = event["action"]
        if kind == "draw" and event["from"] == "discard":
            depth = pile.index(event["card"])
            gained |= set(pile[depth:])
            del pile[depth:]
        if count in blind:
            gained.add(blind[count])
        if kind in ("discard", "knock"):
            pile.append(event["card"])
            lost.add(event["card"])
        elif kind == "meld":
            lost |= set(event["cards"])
        elif kind == "layoff":
            lost.add(event["card"])
        if event["seat"] == view["seat"]:
            mine.append((gained, lost))
    dealt = set(view["hand"])
    for gained, lost in reversed(mine):
        dealt = (dealt - gained) | lost
    return dealt


def check_listing(hand: RummyHand) -> None:
    """Every listed move passes the check, and every candidate the check passes is listed."""
    listed = set(hand.moves())
    seat = hand.turn
    for move in listed:
        assert hand.refusal(seat, *move) is None
    if hand.phase != "play":
        return
    table = hand.melds_table
    held = [i for i in range(52) if hand.hands[seat] >> i & 1]
    candidates = [(code, i, 0) for i in held for code in (DISCARD, KNOCK)]
    candidates += [(MELD, m, 0) for m in table.melds_in(hand.hands[seat])]
    candidates += [(LAYOFF, i, k) for i in held for k in range(len(hand.melds))]
    for move in candidates:
        assert (hand.refusal(seat, *move) is None) == (move in listed), move


def check_scores(hand: RummyHand) -> None:
    out = hand.outcome
    table = hand.melds_table
    style = hand.rules.style
    if style == "500":
        assert hand.deltas == [p - table.card_value(h) for p, h in zip(hand.points, hand.hands, strict=True)]
    elif out["reason"] == "out":
        winner = out["winner"]
        left = sum(table.card_value(h) for h in hand.hands)
        assert hand.hands[winner] == 0
        assert hand.deltas[winner] == left * (2 if out["rummy"] else 1) and sum(hand.deltas) == hand.deltas[winner]
    elif "counts" in out:
        counts, winner = out["counts"], out["winner"]
        assert counts[winner] == min(counts)
        assert hand.deltas[winner] >= sum(c - counts[winner] for c in counts)
        assert sum(hand.deltas) == hand.deltas[winner]
    else:
        assert out["reason"] == "blocked" and hand.deltas == [0] * hand.n


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_random_hands_keep_every_guarantee(name: str, players: int, seed: int) -> None:
    rules = load_ruleset(name)
    players = min(players, rules.max_players)
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    hands, stock = deal_cards(rules, players, seed % players, deck)
    hand = RummyHand(rules, [f"P{i}" for i in range(players)], [0] * players, seed % players, hands, stock)
    seen = 1 << hand.dealt_stock[0].index
    for step in range(5000):
        check_cards(hand)
        if step % 7 == 0:
            check_views(hand, seen)
            check_listing(hand)
            for seat in range(players):
                assert dealt_from_view(hand.view(seat, history=True)) == {str(c) for c in hand.dealt[seat]}
        if hand.over:
            break
        actions = hand.legal_actions()
        assert actions
        if hand.stock:  # a card nobody holds: refused, and nothing changes
            before = hand.view(None), hand.view(hand.turn)
            try:
                hand.apply(type(actions[0])(hand.turn, "discard", card=CARDS[hand.stock[0]]))
                raise AssertionError("discarding a stock card was accepted")
            except IllegalAction:
                assert (hand.view(None), hand.view(hand.turn)) == before
        hand.apply(actions[rng.randrange(len(actions))])
        for mask in hand.melds:
            seen |= mask
        for card in hand.pile:
            seen |= 1 << card
        if hand.flips:
            seen |= sum(1 << c for c in hand.stock)  # the turned-over pile was seen face up
    assert hand.over, "a hand did not end"
    check_scores(hand)
    assert replay_record(json.loads(json.dumps(hand.record())))["chips"] == hand.deltas
