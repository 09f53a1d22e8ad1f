"""Gin Rummy, rule by rule (docs/rules-rummy.md R-GIN-*)."""

from __future__ import annotations

import random

import pytest
from rummy_helpers import act, deal, holding

from rummoli.cards import mask_of, parse_cards
from rummoli.errors import IllegalAction
from rummoli.rummy import RummyGame, load_ruleset
from rummoli.rummy.melds import meld_table

GIN = load_ruleset("gin-rummy")
# seat 1 (left of dealer 0) first; stock top "Kc" is the upcard, then the stock proper
A = "As 2s 3s 7h 7d 7c 9h 9s 5d Qh"  # 7-7-7 and A-2-3 of spades: deadwood 9 + 9 + 5 + 10 = 33
B = "4s 5s 6s Jd Jc Js 2h 3h 4h Td"  # three melds and Td: deadwood 10


def test_R_GIN_2_the_upcard_is_offered_first_then_the_dealer_then_the_stock() -> None:
    hand = deal(GIN, [A, B], "Kc 8c 2c")
    assert [a.kind for a in hand.legal_actions()] == ["draw", "pass"] and hand.turn == 1
    with pytest.raises(IllegalAction, match=r"R-GIN-2.*offered first"):
        act(hand, 1, "draw", "stock")
    act(hand, 1, "pass")
    assert hand.turn == 0
    act(hand, 0, "pass")
    assert hand.turn == 1 and hand.phase == "play" and "8c" in holding(hand, 1)  # forced stock draw
    assert hand.history()[-1]["forced"] is True


def test_R_GIN_2_taking_the_upcard_ends_the_offer() -> None:
    hand = deal(GIN, [A, B], "Kc 8c 2c")
    act(hand, 1, "draw", "discard")
    act(hand, 1, "discard", "Td")
    with pytest.raises(IllegalAction, match=r"R-GIN-2"):
        act(hand, 0, "pass")
    act(hand, 0, "draw", "stock")


def test_R_GIN_1_no_melding_in_play() -> None:
    hand = deal(GIN, [A, B], "Kc 8c 2c")
    act(hand, 1, "draw", "discard")
    with pytest.raises(IllegalAction, match=r"R-GIN-1"):
        act(hand, 1, "meld", "4s 5s 6s")


def test_R_GIN_3_knock_only_with_ten_or_less_deadwood() -> None:
    hand = deal(GIN, [A, B], "Kc 8c 2c")
    act(hand, 1, "pass")
    act(hand, 0, "draw", "discard")  # the dealer takes Kc: 33 + 10 deadwood
    with pytest.raises(IllegalAction, match=r"R-GIN-3.*10 or less"):
        act(hand, 0, "knock", "Qh")
    assert not [a for a in hand.legal_actions() if a.kind == "knock"]


def test_R_GIN_4_knock_scores_the_difference_after_the_defenders_lay_offs() -> None:
    hand = deal(GIN, [A, B], "Kc 8c 2c")
    act(hand, 1, "pass")
    act(hand, 0, "pass")  # seat 1 draws 8c, forced
    act(hand, 1, "knock", "8c")  # keeps Td: deadwood 10
    out = hand.outcome
    # seat 0 lays 7h? no: 7h is in its own set. It lays off nothing on 4-5-6s (needs 3s or 7s: 3s is in A-2-3)
    assert out["reason"] == "knock" and out["counts"][1] == 10
    assert out["counts"][0] == 33 and hand.deltas == [0, 23]


def test_R_GIN_4_undercut_gives_the_defender_the_difference_and_a_bonus() -> None:
    knocker = "4s 5s 6s Jd Jc Js 2h 3h 4h 9d"  # deadwood 9 after discarding
    defender = "7s 8s 2c 2d Qc 3c Ah 3d Kc 5c"  # lays off 7s 8s on 4-5-6s and Ah on 2-3-4h
    hand = deal(GIN, [defender, knocker], "Kh Ks 9c")
    act(hand, 1, "pass")
    act(hand, 0, "pass")  # seat 1 draws Ks, forced
    act(hand, 1, "knock", "Ks")
    out = hand.outcome
    assert set(out["laid_off"]) == {"7s", "8s", "Ah"}
    theirs = 2 + 2 + 3 + 3 + 5 + 10 + 10  # 2c 2d 3c 3d 5c Qc Kc: no meld of their own
    assert out["counts"] == [theirs, 9]
    assert theirs > 9 and hand.deltas == [0, theirs - 9]
    undercut = deal(GIN, ["4c 5c 6c 2d 3d 4d 8h 8s 8d As", knocker], "Kh Ks 9c")
    act(undercut, 1, "pass")
    act(undercut, 0, "pass")
    act(undercut, 1, "knock", "Ks")
    assert undercut.outcome["counts"] == [1, 9] and undercut.outcome["winner"] == 0
    assert undercut.deltas == [8 + 25, 0]


def test_R_GIN_5_gin_earns_the_bonus_and_allows_no_lay_offs() -> None:
    knocker = "4s 5s 6s Jd Jc Js 2h 3h 4h 7s"
    defender = "8s 9s 2c 2d Qc 3c Ah 3d Kc 5c"  # 8s 9s would extend 4-7s, but not against gin
    hand = deal(GIN, [defender, knocker], "Kh Ks 9c")
    act(hand, 1, "pass")
    act(hand, 0, "pass")
    act(hand, 1, "knock", "Ks")
    assert hand.outcome["reason"] == "gin" and hand.outcome["laid_off"] == []
    theirs = 8 + 9 + 2 + 2 + 10 + 3 + 1 + 3 + 10 + 5
    assert hand.deltas == [0, theirs + 25]


def test_R_GIN_6_the_last_two_stock_cards_are_never_drawn() -> None:
    hand = deal(GIN, [A, B], "Kc")
    act(hand, 1, "pass")
    act(hand, 0, "pass")
    while not hand.over:
        seat = hand.turn
        act(hand, seat, "draw", "stock")
        act(hand, seat, "discard", hand.view(seat)["drawn"][-1][1])
    assert hand.outcome["reason"] == "blocked" and len(hand.stock) == 2 and hand.deltas == [0, 0]


def test_R_GIN_7_game_bonus_boxes_and_shutout() -> None:
    game = RummyGame("gin-rummy", ["Ann", "Bob"], seed=3)
    rng = random.Random(3)
    while not game.over:
        hand = game.deal()
        while not hand.over:
            actions = hand.legal_actions()
            knocks = [a for a in actions if a.kind == "knock"]
            hand.apply(knocks[0] if knocks else actions[rng.randrange(len(actions))])
        game.finish_hand()
    winner = game.winners()[0]
    boxes = {b["seat"]: b["points"] for b in game.bonuses if b["reason"] == "boxes"}
    assert boxes.get(winner) == 25 * game.hands_won[winner]
    kind = [b["reason"] for b in game.bonuses if b["seat"] == winner and b["reason"] != "boxes"]
    assert kind == (["shutout"] if game.hands_won[1 - winner] == 0 else ["game"])
    bonus = sum(b["points"] for b in game.bonuses if b["seat"] == winner)
    assert bonus == 25 * game.hands_won[winner] + (200 if kind == ["shutout"] else 100)


def brute_layoff_deadwood(hand: int, table: list[int]) -> int:
    t = meld_table("low", 1)
    best = t.card_value(hand)

    def go(rest: int, melds: list[int], own: int) -> None:
        nonlocal best
        best = min(best, t.deadwood(rest) if own else t.card_value(rest))
        for i, meld in enumerate(melds):
            fits = t.fits(meld) & rest
            while fits:
                low = fits & -fits
                fits ^= low
                go(rest ^ low, [*melds[:i], meld | low, *melds[i + 1 :]], own)

    go(hand, table, 1)
    return best


def test_deadwood_with_layoffs_matches_brute_force() -> None:
    t = meld_table("low", 1)
    rng = random.Random(9)
    for _ in range(150):
        cards = rng.sample(range(52), 16)
        table_cards = [1 << c for c in cards[:6]]
        table = [m for m in t.melds_in(sum(table_cards))][:2]
        used = 0
        chosen = []
        for meld in table:
            if not meld & used:
                chosen.append(meld)
                used |= meld
        hand = 0
        for c in cards[6:]:
            if not (1 << c) & used:
                hand |= 1 << c
        assert t.deadwood_with_layoffs(hand, chosen)[0] == brute_layoff_deadwood(hand, chosen)
    hand = mask_of(parse_cards("7s 8s 2c"))
    assert t.deadwood_with_layoffs(hand, [mask_of(parse_cards("4s 5s 6s"))]) == (2, mask_of(parse_cards("7s 8s")))
