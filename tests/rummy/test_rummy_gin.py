"""Gin Rummy, rule by rule (docs/rules-rummy.md R-GIN-*)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from rummy_helpers import act, deal, holding

from rummoli.cards import CARDS, cards_of, mask_of, parse_cards
from rummoli.errors import IllegalAction
from rummoli.records import RecordError
from rummoli.rummy import RummyGame, RummyHand, load_ruleset, replay_hand, replay_record, settle
from rummoli.rummy.melds import MeldTable, meld_table
from rummoli.rummy.settle import gin_knock

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
    assert hand.result()["knocker_did"] == "knocked"
    undercut = deal(GIN, ["4c 5c 6c 2d 3d 4d 8h 8s 8d As", knocker], "Kh Ks 9c")
    act(undercut, 1, "pass")
    act(undercut, 0, "pass")
    act(undercut, 1, "knock", "Ks")
    assert undercut.outcome["counts"] == [1, 9] and undercut.outcome["winner"] == 0
    assert undercut.deltas == [8 + 25, 0]
    assert undercut.result()["knocker"] == 1 and undercut.result()["knocker_did"] == "knocked"


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
    # the result's tag beside the knocker (the web page shows it as it is) says gin, not "knocked"
    assert hand.result()["knocker"] == 1 and hand.result()["knocker_did"] == "goes gin"


def test_R_GIN_4_melds_are_shown_as_they_are_laid_a_run_from_its_ace() -> None:
    # The knocker's A-2-3 of hearts and the defender's A-2-3 of clubs read from the ace up, in the outcome, the
    # result and its words (they were listed by card index: 2-3-A).
    knocker = "Ah 2h 3h Jd Jc Js 4s 5s 6s 7s"
    defender = "Ac 2c 3c 9s 9d Qc 4h 3d Kc 5c"
    hand = deal(GIN, [defender, knocker], "Kh Ks 9c")
    act(hand, 1, "pass")
    act(hand, 0, "pass")
    act(hand, 1, "knock", "Ks")
    assert hand.outcome["reason"] == "gin"
    assert ["Ah", "2h", "3h"] in hand.outcome["melds"][1] and ["Ac", "2c", "3c"] in hand.outcome["melds"][0]
    shown = hand.result()["hands"]
    assert ["Ah", "2h", "3h"] in shown[1]["melds"] and ["Ac", "2c", "3c"] in shown[0]["melds"]
    assert any("A♥ 2♥ 3♥" in line for line in hand.result()["lines"])


def test_R_GIN_6_the_last_two_stock_cards_are_never_drawn() -> None:
    hand = deal(GIN, [A, B], "Kc")
    act(hand, 1, "pass")
    act(hand, 0, "pass")
    while not hand.over:
        seat = hand.turn
        act(hand, seat, "draw", "stock")
        act(hand, seat, "discard", hand.view(seat, history=True)["drawn"][-1][1])
    assert hand.outcome["reason"] == "blocked" and len(hand.stock) == 2 and hand.deltas == [0, 0]
    assert "the hand is a draw" in hand.result()["headline"]  # type: ignore[index]  # R-GIN-6's word, not "blocked"
    with pytest.raises(IllegalAction, match=r"R-GIN-6: the hand is over"):  # a move after names the wall
        act(hand, hand.turn, "draw", "stock")
    record = hand.record()
    record["actions"].append({"seat": hand.turn, "action": "draw", "from": "stock"})
    with pytest.raises(RecordError, match=r"R-GIN-6"):
        replay_record(record)


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


def gin_record(defender: str, knocker: str, upcard: str, throw: str) -> dict[str, object]:
    """A hand-made Gin record: seat 1 (left of dealer 0) takes the upcard and knocks with ``throw``."""
    hands = [parse_cards(defender), parse_cards(knocker)]
    top = parse_cards(upcard)
    rest = [c for c in CARDS if c not in hands[0] + hands[1] + top]
    return {
        "format": "rummoli-hand/1",
        "ruleset": "gin-rummy",
        "players": ["Dee", "Kay"],
        "chips": [0, 0],
        "pots": {},
        "dealer": 0,
        "deal": {"hands": [[str(c) for c in h] for h in hands], "stock": [str(c) for c in top + rest]},
        "actions": [
            {"seat": 1, "action": "draw", "from": "discard"},
            {"seat": 1, "action": "knock", "card": throw},
        ],
    }


def shown_melds(hand: RummyHand, seat: int) -> set[frozenset[str]]:
    return {frozenset(m) for m in hand.outcome["melds"][seat]}


def test_R_GIN_4_the_knocker_shows_the_sets_that_leave_nothing_to_lay_off() -> None:
    # Kay keeps As 2s 3s 2d 2h Ah 4h 7s 7d 7h. A-2-3 of spades with the sevens leaves 9, and Dee would lay off
    # 4s on the run, tie at 9 and undercut; the three twos with the sevens also leave 9 and take no lay-off.
    record = gin_record("Kc Kd Kh 8c 9c Tc 4s 5d 3h Ad", "As 2s 3s 2d 2h Ah 4h 7s 7d Qc", "7h", "Qc")
    assert replay_record(record)["chips"] == [0, 13 - 9]
    hand = replay_hand(record)
    assert hand.outcome["counts"] == [13, 9] and hand.outcome["winner"] == 1 and hand.outcome["laid_off"] == []
    assert shown_melds(hand, 1) == {frozenset({"2s", "2d", "2h"}), frozenset({"7s", "7d", "7h"})}


def test_R_GIN_4_the_knocker_avoids_the_run_that_turns_a_win_into_an_undercut() -> None:
    # Kay keeps Ah 2h 3h 2c 2d 5c 6c 7c Ad 3s (8 either way). With A-2-3 of hearts Dee lays off 4h and 4c,
    # keeps 6 and undercuts (Kay would lose 2 + 25); with 2-2-2 Dee can lay off only 4c, keeps 10, Kay wins 2.
    record = gin_record("4h 4c 6s Ks Kd Kh 8d 9d Td Jd", "Ah 2h 3h 2c 2d 5c 6c 7c Ad Qc", "3s", "Qc")
    assert replay_record(record)["chips"] == [0, 2]
    hand = replay_hand(record)
    assert hand.outcome["counts"] == [10, 8] and hand.outcome["laid_off"] == ["4c"]
    assert shown_melds(hand, 1) == {frozenset({"2c", "2d", "2h"}), frozenset({"5c", "6c", "7c"})}
    assert shown_melds(hand, 0) == {frozenset({"Ks", "Kd", "Kh"}), frozenset({"8d", "9d", "Td", "Jd"})}


def test_R_GIN_4_the_knocker_may_keep_a_meld_in_hand_when_showing_it_would_feed_the_defender() -> None:
    # Kay: 2s 3s 4s, Jd Jc Jh, Kd Kc Kh, Ah (deadwood 1). Showing 2-3-4s lets Dee lay off As 5s 6s: Dee keeps
    # 55 and Kay wins 54. Keeping 2-3-4s in hand (deadwood 10, still a knock) leaves Dee 67: Kay wins 57.
    knocker = mask_of(parse_cards("2s 3s 4s Jd Jc Jh Kd Kc Kh Ah"))
    defender = mask_of(parse_cards("As 5s 6s 2c 9d 9c 8h Qd Qs 7c"))
    table = meld_table("low", 1)
    settled = gin_knock(table, knocker, defender, 10)
    assert (settled.knocker, settled.defender) == reference_gin(table, knocker, defender, 10)[1:]
    assert settled.knocker == 10 and settled.defender == 1 + 5 + 6 + 2 + 9 + 9 + 8 + 10 + 10 + 7
    assert mask_of(parse_cards("2s 3s 4s")) not in settled.melds


def all_arrangements(table: MeldTable, hand: int, limit: int) -> list[tuple[int, ...]]:
    """Every set of disjoint melds from ``hand`` leaving ``limit`` or less deadwood (include or skip each)."""
    melds = table.melds_in(hand)
    found: list[tuple[int, ...]] = []

    def walk(i: int, used: int, chosen: tuple[int, ...]) -> None:
        if i == len(melds):
            if table.card_value(hand & ~used) <= limit:
                found.append(chosen)
            return
        walk(i + 1, used, chosen)
        if not melds[i] & used:
            walk(i + 1, used | melds[i], (*chosen, melds[i]))

    walk(0, 0, ())
    return found


def reference_gin(table: MeldTable, knocker: int, defender: int, limit: int) -> tuple[int, int, int]:
    """(knocker's result, knocker's count, defender's count) by brute force over all the knocker's
    arrangements, each answered by the defender's best lay-offs found card by card."""
    best: tuple[int, int, int] | None = None
    alone = table.deadwood(defender)
    for melds in all_arrangements(table, knocker, limit):
        mine = table.card_value(knocker) - sum(table.card_value(m) for m in melds)
        if mine == 0:
            theirs = alone
            result = theirs + GIN.gin_bonus
        else:
            theirs = brute_layoff_deadwood(defender, list(melds))
            result = theirs - mine if mine < theirs else -(mine - theirs) - GIN.undercut_bonus
        if best is None or (result, -mine) > (best[0], -best[1]):
            best = (result, mine, theirs)
    assert best is not None
    return best


@st.composite
def knocking_hands(draw: st.DrawFn) -> tuple[int, int]:
    """A knocker's ten cards (melds from the table, the rest low cards) and a defender's ten, often
    holding cards that fit the knocker's melds."""
    table = meld_table("low", 1)
    everything = sorted(table.melds)
    knocker = 0
    for _ in range(draw(st.integers(1, 3))):
        meld = draw(st.sampled_from(everything))
        if not meld & knocker and (knocker | meld).bit_count() <= 10:
            knocker |= meld
    low_cards = [c for c in range(52) if table.card_value(1 << c) <= 5 and not knocker >> c & 1]
    for card in draw(st.permutations(low_cards))[: 10 - knocker.bit_count()]:
        knocker |= 1 << card
    assume(table.deadwood(knocker) <= 10)
    near = 0
    for meld in table.melds_in(knocker):
        near |= table.fits(meld) | table.fits(table.fits(meld) | meld)
    near &= ~knocker
    defender = 0
    pool = [c for c in range(52) if near >> c & 1]
    others = [c for c in range(52) if not (knocker | near) >> c & 1]
    for card in draw(st.permutations(pool))[: draw(st.integers(0, 4))]:
        defender |= 1 << card
    for card in draw(st.permutations(others))[: 10 - defender.bit_count()]:
        defender |= 1 << card
    return knocker, defender


LOTS_OF_DRAWS = [HealthCheck.filter_too_much, HealthCheck.large_base_example]


@settings(max_examples=300, deadline=None, suppress_health_check=LOTS_OF_DRAWS)
@given(knocking_hands())
def test_R_GIN_4_settlement_matches_brute_force_over_every_arrangement(hands: tuple[int, int]) -> None:
    knocker, defender = hands
    table = meld_table("low", 1)
    settled = gin_knock(table, knocker, defender, 10)
    result, mine, theirs = reference_gin(table, knocker, defender, 10)
    assert (settled.knocker, settled.defender) == (mine, theirs)
    stock = cards_of(((1 << 52) - 1) ^ knocker ^ defender)
    hand = RummyHand(GIN, ["Dee", "Kay"], [0, 0], 0, [cards_of(defender), cards_of(knocker)], stock)
    settle.knock(hand, 1)  # the whole settlement, as the engine runs it after a knock
    assert hand.deltas[1] - hand.deltas[0] == result and hand.outcome["counts"] == [theirs, mine]
    # what the engine shows is a real arrangement giving those counts
    used = 0
    for meld in settled.melds:
        assert table.is_meld(meld) and meld & knocker == meld and not meld & used
        used |= meld
    assert table.card_value(knocker & ~used) == mine
    assert settled.laid & defender == settled.laid and (mine == 0) <= (settled.laid == 0)
    left = defender & ~settled.laid
    assert table.deadwood(left) == theirs
