"""One test per Poch rule id (docs/rules-poch.md), each on a hand-made deal."""

from __future__ import annotations

from typing import Any

import pytest

from rummoli.cards import CARDS, Card, parse_cards
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.poch import Action, PochEvening, PochHand, load_ruleset
from rummoli.poch.cards import best_set, deal_poch, mask_of, next_up
from rummoli.poch.views import rebuild

NAMES = ["Ann", "Bob", "Cy", "Dee"]
# Four hands of eight, hearts turned (the last card, Dee's 9h... given below as ``turned``).
DEAL = ["As Ks 7h 8h 9h 7c 8c 9c", "Ah Kh Qh Js Ts 9s 8s 7s",
        "Jh Th Ad Kd Qd Jd Td Qs", "8d 7d Ac Kc Qc Jc Tc 9d"]


def make(deal: list[str] = DEAL, turned: str = "9h", ruleset: Any = "poch", dealer: int = 3,
         chips: list[int] | None = None, pots: dict[str, int] | None = None, stock: str = "") -> PochHand:
    hands = [parse_cards(h) for h in deal]
    return PochHand(ruleset, NAMES[:len(deal)], chips or [100] * len(deal), pots or {}, dealer, hands,
                    parse_cards(stock) if stock else [], Card.parse(turned))


def act(hand: PochHand, seat: int, kind: str, **kw: Any) -> None:
    data = {"seat": seat, "action": kind, **kw}
    hand.apply(Action.from_json(data))


def melds(hand: PochHand) -> dict[str, int]:
    return {e["pot"]: e["seat"] for e in hand.events() if e["type"] == "meld"}


def test_R_PO_1_three_to_six_players_a_32_card_pack_and_the_board_as_data() -> None:
    rules = load_ruleset("poch")
    assert (rules.min_players, rules.max_players) == (3, 6)
    assert [p.kind for p in rules.pools] == ["A", "K", "Q", "J", "T", "marriage", "sequence", "vie", "out"]
    assert len(load_ruleset("poch-hoyle").pools) == 8
    with pytest.raises(MalformedInput, match="seats 3 to 6"):
        make(DEAL[:2], dealer=0)
    with pytest.raises(MalformedInput, match="32 cards"):
        make(["2s" + DEAL[0][2:], *DEAL[1:]])
    own = load_ruleset({"game": "poch", "pools": [{"id": "big", "name": "Big", "kind": "vie", "ante": 5}]})
    assert own.ante_per_seat() == 5


def test_R_PO_2_the_deal_all_cards_or_packets_and_the_turned_card() -> None:
    deck = list(CARDS)
    hands, stock, turned = deal_poch(deck, 3, 0, "all")
    assert [len(h) for h in hands] == [10, 11, 11] and stock == [] and turned in hands[2]
    assert turned == [c for c in deck if c.rank >= 5][-1]
    hands, stock, turned = deal_poch(deck, 4, 0, "packets")
    assert [len(h) for h in hands] == [5] * 4 and len(stock) == 11 and turned not in stock
    hands, stock, turned = deal_poch(deck, 3, 0, "packets")
    assert [len(h) for h in hands] == [10] * 3 and len(stock) == 1
    assert [str(c) for c in hands[1][:3]] == ["7s", "8s", "9s"]  # three at a time from the dealer's left
    hand = make()
    assert hand.view(None)["trump"] == {"card": "9h", "suit": "h", "holder": 0, "laid": False}


def test_R_PO_3_every_player_antes_each_pool_and_who_cannot_pay_leaves() -> None:
    hand = make(pots={"A": 5})
    assert sum(1 for e in hand.events() if e["type"] == "chips" and e["reason"] == "ante") == 36
    assert hand.chips[3] == 100 - 9  # Dee holds no trump honour
    evening = PochEvening("poch", ["Ann", "Bob", "Cy", "Dee"], 20, None, 0, None)
    evening.chips_now[3] = 8
    hand2, seats = evening.start(list(CARDS), True, 0)
    assert seats == [0, 1, 2] and evening.seated() == [True, True, True, False]
    assert evening.ledger_since(0) == [{"type": "out", "player": "Dee", "chips_to_centre": 8, "pot": "centre"}]
    assert sum(evening.chips(hand2, seats)) + sum(evening.pots(hand2).values()) == 68


def test_R_PO_4_the_trump_honours_take_their_pools_and_others_stay() -> None:
    hand = make(pots={"A": 6})
    won = melds(hand)
    assert won["A"] == 1 and won["K"] == 1 and won["Q"] == 1 and won["J"] == 2 and won["T"] == 2
    assert hand.pot_balances()["A"] == 0 and hand.chips[1] >= 100 - 9 + 4 * 3 + 6
    hoyle = make(["As Ks 7h 8h 9h", "Ah Kh Qh Js Ts", "Jh Ad Kd Qd Jd", "8d 7d Ac Kc Qc"],
                 turned="Th", ruleset="poch-hoyle", stock="7s 8s 9s Qs 9d Td 7c 8c 9c Tc Jc")
    assert "T" not in melds(hoyle)  # the ten of trumps is in the stock: its pool stays
    assert hoyle.pot_balances()["T"] == 4


def test_R_PO_5_marriage_and_sequence() -> None:
    hand = make()
    won = melds(hand)
    assert won["marriage"] == 1  # Kh Qh
    assert won["sequence"] == 0  # 7h 8h 9h of trumps
    # Hoyle: the best run of three or more in any suit: the longest first
    hoyle = make(["As Ks Qs 7h 8h", "Ah Kh 9s Ts Js", "7c 8c 9c Tc Qh", "8d 7d Ac Kc Qc"], turned="9h",
                 ruleset="poch-hoyle", stock="Jh Th 9h Ad Kd Qd Jd Td 9d Jc 8s 7s")
    assert melds(hoyle)["sequence"] == 2
    # equal runs: trumps first, then the eldest
    tie = make(["7s 8s 9s Ah Kh", "7c 8c 9c Qh Jh", "7d 8d 9d Th As", "Ks Qs Js Ts Ac"], turned="9h",
               ruleset="poch-hoyle", stock="8h 7h 9h Ad Kd Qd Jd Td Kc Qc Jc Tc")
    assert melds(tie)["sequence"] == 3  # K-Q-J-10 of spades is longest
    eldest = make(["7s 8s 9s Ah Kh", "7c 8c 9c Qh Jh", "7d 8d 9d Th As", "Ks Qs Js Ac Kc"], turned="9h",
                  ruleset="poch-hoyle", stock="8h 7h 9h Ad Kd Qd Jd Td Ts Qc Jc Tc", dealer=3)
    assert melds(eldest)["sequence"] == 3  # K-Q-J of spades beats the three nines-high runs


def test_R_PO_6_only_a_pair_may_open_in_hoyle() -> None:
    deal = ["As Ks Qs 7h 8h", "Ah Kh 9s Ts Js", "7c 8c 9c Tc Qh", "8d 7d Ad Kc Qc"]
    hand = make(deal, turned="9h", ruleset="poch-hoyle", dealer=3,
                stock="Jh Th 9h Ac Kd Qd Jd Td 9d Jc 8s 7s")
    assert hand.to_act() == [0]
    assert [a.kind for a in hand.legal_actions(0)] == ["check"]  # no pair: only pass
    with pytest.raises(IllegalAction) as refused:
        act(hand, 0, "bet", amount=2)
    assert refused.value.rule == "R-PO-6"
    modern = make()
    assert [a.kind for a in modern.legal_actions(0)] == ["check", "bet"]  # anyone may knock (bluff)


def test_R_PO_7_knock_hold_raise_drop_and_the_caps() -> None:
    hand = make()
    assert hand.to_act() == [0]
    act(hand, 0, "bet", amount=3)
    legal = hand.legal_actions(1)
    assert [a.kind for a in legal] == ["call", "raise", "fold"]
    assert (legal[1].min, legal[1].max) == (1, 10)  # type: ignore[union-attr]
    act(hand, 1, "raise", amount=2)
    act(hand, 2, "fold")
    act(hand, 3, "call")
    assert hand.to_act() == [0]  # the first knocker answers the raise
    with pytest.raises(IllegalAction) as refused:
        act(hand, 0, "raise", amount=50)
    assert refused.value.rule == "R-PO-7"
    act(hand, 0, "call")
    assert hand.phase == "play"
    no_raise = make(ruleset={"game": "poch", "vie": "no_raise"})
    act(no_raise, 0, "bet", amount=3)
    assert [a.kind for a in no_raise.legal_actions(1)] == ["call", "fold"]
    poor = make(chips=[100, 100, 12, 100])
    act(poor, 0, "bet", amount=3)
    assert poor.cap == 11 and poor.legal_actions(1)[1].max == poor.cap - 3  # type: ignore[union-attr]


def test_R_PO_8_four_beat_three_beat_a_pair_then_rank_then_trump() -> None:
    assert best_set(mask_of(parse_cards("7s 7h 7d 7c As")), 1)[0] > best_set(mask_of(parse_cards("As Ah Ad")), 1)[0]
    assert best_set(mask_of(parse_cards("7s 7h 7d")), 1)[0] > best_set(mask_of(parse_cards("As Ah Kd")), 1)[0]
    assert best_set(mask_of(parse_cards("Ks Kc")), 1)[0] > best_set(mask_of(parse_cards("Qs Qh")), 1)[0]
    assert best_set(mask_of(parse_cards("Ks Kh")), 1)[0] > best_set(mask_of(parse_cards("Kd Kc")), 1)[0]
    assert best_set(mask_of(parse_cards("As 9h")), 1) == ((1, 12, 0), ["As"])


def test_R_PO_9_the_end_of_the_vying() -> None:
    nobody = make()
    for seat in (0, 1, 2, 3):
        act(nobody, seat, "check")
    assert nobody.pot_balances()["pocher"] == 4 and any(e["type"] == "no_vie" for e in nobody.events())
    alone = make()
    act(alone, 0, "bet", amount=5)
    for seat in (1, 2, 3):
        act(alone, seat, "fold")
    assert alone.vie_winner == 0 and alone.shown == {} and alone.pot_balances()["pocher"] == 0
    shown = make()
    act(shown, 0, "bet", amount=2)
    act(shown, 1, "fold")
    act(shown, 2, "call")
    act(shown, 3, "call")
    # Ann: a pair? no (As Ks 7h 8h 9h 7c 8c 9c: three pairs, 9s best: 9h 9c with trump); Cy: Qs Qd; Dee: no pair
    assert shown.vie_winner == 2
    assert shown.view(1)["showdown"] == {"0": ["9h", "9c"], "2": ["Qs", "Qd"], "3": ["Ac"]}
    assert shown.chips[1] == shown.start_chips[1] - 9 + 4 * 4  # Bob lost nothing at the vying


def test_R_PO_10_the_first_lead() -> None:
    hand = make()
    act(hand, 0, "bet", amount=1)
    for seat in (1, 2, 3):
        act(hand, seat, "fold")
    assert hand.to_act() == [0] and hand.leader == 0
    checked = make(dealer=1)
    for seat in (2, 3, 0, 1):
        act(checked, seat, "check")
    assert checked.leader == 2  # nobody knocked: left of the dealer
    hoyle = make(ruleset={"game": "poch", "first_lead": "eldest"}, dealer=1)
    act(hoyle, 2, "bet", amount=1)
    for seat in (3, 0, 1):
        act(hoyle, seat, "fold")
    assert hoyle.leader == 2


def test_R_PO_11_runs_are_laid_for_their_holders_and_the_last_leads_again() -> None:
    hand = make()
    for seat in (0, 1, 2, 3):
        act(hand, seat, "check")
    assert hand.leader == 0
    with pytest.raises(IllegalAction) as refused:
        act(hand, 0, "lead", card="Ah")  # Bob's card
    assert refused.value.rule == "R-PO-11"
    events = hand.apply(Action.from_json({"seat": 0, "action": "lead", "card": "7c"}))
    plays = [(e["seat"], e["card"]) for e in events if e["type"] == "action"]
    assert plays == [(0, "7c"), (0, "8c"), (0, "9c"), (3, "Tc"), (3, "Jc"), (3, "Qc"), (3, "Kc"), (3, "Ac")]
    assert all(e["forced"] for e in events if e["type"] == "action" and e["action"] == "play")
    assert hand.leader == 3  # the ace ends the run: Dee leads again
    assert next_up(Card.parse("Ks").index, "king") is None
    assert next_up(Card.parse("As").index, "king") == Card.parse("7s").index


def test_R_PO_12_going_out_ends_the_hand_and_is_paid() -> None:
    deal = ["7s 8s 9s Ts Js Qs Ks As", "Ah Kh Qh Jh Th 9h 8h 7h", "Ad Kd Qd Jd Td 9d 8d 7d",
            "Ac Kc Qc Jc Tc 9c 8c 7c"]
    hand = make(deal, turned="7c", pots={"centre": 10})
    for seat in (0, 1, 2, 3):
        act(hand, seat, "check")
    act(hand, 0, "lead", card="7s")
    assert hand.over and hand.winner == 0
    paid = [(e["from"], e["amount"]) for e in hand.events() if e["type"] == "chips" and e["reason"] == "cards"]
    assert paid == [("seat:1", 8), ("seat:2", 8), ("seat:3", 8)]
    assert hand.result()["pots_won"][-1]["pot"] == "centre"  # type: ignore[index]
    # Dee held every club honour, the marriage and the sequence: one card wins an honour's pool, more the others
    said = {w["pot"]: w["text"] for w in hand.result()["pots_won"]}  # type: ignore[index]
    assert said["A"] == "Dee wins the Ace: 4 chips, for holding its card.", said
    assert all(said[p].endswith("for holding its card.") for p in "AKQJT"), said
    assert said["marriage"].endswith("for holding its cards.") and said["sequence"].endswith("its cards."), said
    assert said["centre"].endswith("for going out first."), said
    poor = make(deal, turned="7s", chips=[100, 100, 100, 12])
    for seat in (0, 1, 2, 3):
        act(poor, seat, "check")
    act(poor, 0, "lead", card="7s")
    assert poor.chips[3] == 0  # paid what it had left


def test_R_PO_13_a_seat_sees_its_own_cards_and_what_was_shown() -> None:
    hand = make()
    act(hand, 0, "bet", amount=2)
    for seat in (1, 2, 3):
        act(hand, seat, "call")
    for seat in (None, 0, 1, 2, 3):
        view = hand.view(seat)
        assert rebuild(hand.events_since(0, seat)) == view
        if seat is not None:
            others = {c for s in range(4) if s != seat for c in hand.view(s)["hand"]}
            text = str(hand.events_since(0, seat)) + str(view)
            shown = {c for m in view["melds"] for c in m["cards"]} | {c for cs in view["showdown"].values() for c in cs}
            assert not {c for c in others - shown - {"9h"} if f"'{c}'" in text}
    assert hand.view(None)["hand"] is None


def test_R_PO_13_every_view_says_when_the_turned_card_is_laid() -> None:
    """The view says whether the trump card has been laid (its holder holds it no more), so that no client works it
    out; every seat sees it alike, as it sees the cards laid, and a seat's stream rebuilds it."""
    hand = make()  # Ann was dealt the turned 9h
    act(hand, 0, "bet", amount=2)
    for seat in (1, 2, 3):
        act(hand, seat, "call")
    act(hand, 2, "lead", card="Qs")  # Ann follows with Ks As and leads next
    for seat in (None, 0, 1, 2, 3):
        assert hand.view(seat)["trump"] == {"card": "9h", "suit": "h", "holder": 0, "laid": False}
    act(hand, 0, "lead", card="7h")  # 8h and 9h follow from her hand
    for seat in (None, 0, 1, 2, 3):
        view = hand.view(seat)
        assert view["trump"]["laid"] is True and rebuild(hand.events_since(0, seat)) == view


def test_R_PO_14_the_evening_shares_the_board_at_its_end() -> None:
    evening = PochEvening("poch", ["Ann", "Bob", "Cy"], None, 1, 0, None)
    hand, _seats = evening.start(list(CARDS), True, 0)
    while not hand.over:
        hand.make(hand.legal_actions()[0] if not hasattr(hand.legal_actions()[0], "at")
                  else hand.legal_actions()[0].at(1))  # type: ignore[union-attr]
    evening.finish(hand)
    assert evening.over and evening.dealer == 1
    left = sum(evening.pots(None).values())
    before = sum(evening.chips_now)
    settlement = evening.settle([])
    assert sum(evening.chips_now) == before + left and sum(evening.pots(None).values()) == 0
    if left:
        assert settlement[0]["how"] == "share"


def test_cards_left_are_paid_in_the_players_own_grammar() -> None:
    """The player's own seat is 'You': 'Ann pays you 5 chips', 'You pay Ann 3 chips', as the stops games say it
    (a QA pass read "Bob gets 5 chips from Ann for the cards left in their hand" as Bob's hand)."""
    from rummoli.poch.ruleset import load_ruleset as load
    from rummoli.poch.words import Speaker

    speaker = Speaker(load("poch"), ["You", "Ann"])
    assert speaker.line({"type": "chips", "reason": "cards", "to": "seat:0", "from": "seat:1", "amount": 5}) == \
        "Ann pays you 5 chips for the cards left in their hand."
    assert speaker.line({"type": "chips", "reason": "cards", "to": "seat:1", "from": "seat:0", "amount": 3}) == \
        "You pay Ann 3 chips for the cards left in your hand."


def test_R_PO_6_R_PO_7_the_vying_prompt_offers_only_what_the_seat_may_do() -> None:
    """The words beside the buttons name a knock only when it is there: Hoyle's player without a pair may only pass
    (R-PO-6), and knocking again needs raising allowed and a raise left (R-PO-7)."""
    deal = ["As Ks Qs 7h 8h", "Ah Kh 9s Ts Js", "7c 8c 9c Tc Qh", "8d 7d Ad Kc Qc"]
    hoyle = make(deal, turned="9h", ruleset="poch-hoyle", dealer=3, stock="Jh Th 9h Ac Kd Qd Jd Td 9d Jc 8s 7s")
    assert hoyle.view(0, guide=True)["prompt"].endswith("Vying for the Pool: you hold no pair to open with: pass.")
    assert hoyle.view(1, guide=True)["prompt"].endswith("waiting for Ann to knock or pass.")  # nothing of Ann's cards
    modern = make()  # the vying's pool by the board's own name: Hoyle's "Pool", the modern "Pocher"
    assert modern.view(0, guide=True)["prompt"].endswith("Vying for the Pocher: you may knock (bet) or pass.")
    act(modern, 0, "bet", amount=3)
    assert modern.view(1, guide=True)["prompt"].endswith("hold for 3 chips, knock again, or drop out.")
    no_raise = make(ruleset={"game": "poch", "vie": "no_raise"})
    act(no_raise, 0, "bet", amount=3)
    assert no_raise.view(1, guide=True)["prompt"].endswith("the stake is 3 chips; hold for 3 chips or drop out.")
