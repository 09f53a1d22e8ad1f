"""The play round (docs/rules.md §2.3), each rule on a hand-made deal."""

from __future__ import annotations

import pytest
from stops_helpers import act, chips_to, make_hand, plays, rules

from rummoli.cards import Card
from rummoli.errors import IllegalAction


def lead_cards(hand) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a.card) for a in hand.legal_actions() if a.kind == "lead"}


def test_R_PLAY_1_left_of_dealer_opens_without_poker() -> None:
    h = make_hand(rules(), dealer=2, hands={3: "2s 2h"})
    assert h.to_act() == [3] and lead_cards(h) == {"2s", "2h"}


def test_R_PLAY_1_poker_winner_opens_and_a_split_goes_to_the_winner_nearest_dealers_left() -> None:
    r = rules(poker="before_play", opening_lead="poker_winner")
    h = make_hand(r, hands={2: "9h Th Jh Qh Kh", 3: "9d Td Jd Qd Kd"}, pots={"poker": 1})
    for seat in (1, 2, 3, 0):
        h.apply(act(seat, "check"))
    assert h.poker_winners == [2, 3]
    assert plays(h.events())[0][:2] == (2, "lead")
    # R-POKER-2: 1 carried + 4 antes = 5 chips; two chips each, the odd chip stays for the next hand.
    assert chips_to(h.events(), "seat:2", "poker") == 2 == chips_to(h.events(), "seat:3", "poker")
    assert h.pot_balances()["poker"] == 1


def test_R_PLAY_1_after_play_poker_means_left_of_dealer_leads() -> None:
    h = make_hand(rules(poker="after_play", opening_lead="poker_winner"), hands={1: "2c"})
    assert plays(h.events())[0] == (1, "lead", "2c", True)


def test_R_PLAY_2_lowest_overall_offers_equally_low_cards() -> None:
    h = make_hand(rules(), hands={1: "2s 2h 3c"})
    assert lead_cards(h) == {"2s", "2h"}
    with pytest.raises(IllegalAction, match="R-PLAY-2"):
        h.verify(act(1, "lead", "3c"))


def test_R_PLAY_2_lowest_in_chosen_suit_offers_each_suits_lowest() -> None:
    h = make_hand(rules(lead="lowest_in_chosen_suit"), hands={1: "2s 5h 9h"})
    leads = lead_cards(h)
    assert {"2s", "5h"} <= leads and "9h" not in leads
    assert len({Card.parse(c).suit for c in leads}) == len(leads)


def test_R_PLAY_3_forced_plays_are_made_and_recorded_as_each_seats_own() -> None:
    h = make_hand(rules(), hands={1: "2c 3c 4c", 2: "5c", 3: "6c 7c"}, widow="8c")
    assert plays(h.events())[:6] == [(1, "lead", "2c", True), (1, "play", "3c", True),
                                     (1, "play", "4c", True), (2, "play", "5c", True),
                                     (3, "play", "6c", True), (3, "play", "7c", True)]
    assert h.record()["actions"] == []  # forced plays may be left out of the record (R-NOTE-3)
    assert len(h.record(forced=True)["actions"]) == 6


def test_R_PLAY_4_stop_when_the_next_card_is_in_the_widow() -> None:
    h = make_hand(rules(), hands={1: "2c 3c 4c", 2: "5c", 3: "6c 7c"}, widow="8c")
    assert {"type": "stop", "after": "7c"} in h.events()
    assert h.to_act() == [3]


def test_R_PLAY_4_stop_after_an_ace() -> None:
    h = make_hand(rules(), hands={1: "2d 3d 4d", 2: "5d 6d 7d 8d 9d Td Jd Qd Kd Ad"})
    assert {"type": "stop", "after": "Ad"} in h.events()


def test_R_PLAY_4_stop_when_the_next_card_was_already_played_and_R_PLAY_6_pass_left() -> None:
    seat1 = "2h 5c 6c 5s 6s 7s 8s 9s Ts Js Qs Ks As 8c 9c Tc Jc Qc"
    h = make_hand(rules(), players=2, dealer=0, hands={1: seat1, 0: "4c 4h"}, widow="3h 7c")
    assert plays(h.events()) == [(1, "lead", "2h", True)]
    assert lead_cards(h) == {"5s", "5c"}
    h.apply(act(1, "lead", "5c"))
    events = h.events()
    # seat 1 holds no red card: the duty to lead passes left, with the same requirement.
    assert {"type": "cannot_lead", "seat": 1} in events
    assert (0, "lead", "4h", True) in plays(events) and (0, "lead", "4c", True) in plays(events)
    assert {"type": "stop", "after": "4c"} in events  # 5c was played earlier in the hand


def test_R_PLAY_5_opposite_colour_restart() -> None:
    h = make_hand(rules(), hands={1: "2c 3c 4c", 2: "5c", 3: "6c 7c"}, widow="8c")
    assert lead_cards(h) == {"5h", "5d"}  # seat 3's lowest red cards, after a club stop
    with pytest.raises(IllegalAction, match="R-PLAY-5"):
        h.verify(act(3, "lead", "5s"))


def test_R_PLAY_5_other_suit_restart() -> None:
    h = make_hand(rules(restart="other_suit"), hands={1: "2c 3c 4c", 2: "5c", 3: "6c 7c"}, widow="8c")
    assert lead_cards(h) == {"5s", "5h", "5d"}


def test_R_PLAY_5_other_suit_else_same_restarts_in_the_stopped_suit() -> None:
    h = make_hand(rules(restart="other_suit_else_same"), hands={1: "2c 3c 5c 6c 7c 8c 9c Tc Jc Qc Kc"},
                  widow="4c")
    assert (1, "lead", "5c", True) in plays(h.events())


def test_R_PLAY_6_pay_and_pass_charges_each_seat_that_cannot_lead() -> None:
    h = make_hand(rules(restart="other_suit", cannot_lead="pay_and_pass"),
                  hands={1: "2c 3c 5c 6c 7c 8c 9c Tc Jc Qc Kc"}, widow="4c")
    events = h.events()
    assert {"type": "cannot_lead", "seat": 1} in events
    assert {"type": "chips", "from": "seat:1", "to": "pot:centre", "amount": 1,
            "reason": "cannot_lead"} in events
    assert h.to_act() == [2]
    from rummoli.stops.words import Speaker  # in words, to the terminal's "You" as to anyone

    speak = Speaker(["Ann", "You", "Cy"], {"centre": "Kitty"}, 0, 1)
    paid = {"type": "chips", "from": "seat:1", "to": "pot:centre", "amount": 1, "reason": "cannot_lead"}
    assert speak.line(paid) == "You pay 1 chip into the Kitty as you cannot lead."


def test_R_PLAY_6_pass_left_charges_nothing() -> None:
    h = make_hand(rules(restart="other_suit"), hands={1: "2c 3c 5c 6c 7c 8c 9c Tc Jc Qc Kc"}, widow="4c")
    assert {"type": "cannot_lead", "seat": 1} in h.events()
    assert chips_to(h.events(), "pot:centre", "cannot_lead") == 0


def test_R_PLAY_7_stall_everyone_pays_a_chip_per_card_and_nobody_is_out() -> None:
    seat1 = "2h 3h 4h 5h 6h 7h 8h 9h Th 3s 4s 5s 7c 8c 9c Tc Jc Qc"
    seat0 = "2s 6s 7s 8s 9s Ts Js Qs Ks As 2c 3c 4c 5c 6c Kc Ac"
    h = make_hand(rules(), players=2, dealer=0, hands={1: seat1, 0: seat0})
    events = h.events()
    assert h.over and h.winner == -1 and {"type": "stall"} in events
    stall = [e for e in events if e["type"] == "chips" and e["reason"] == "stall"]
    assert {(e["from"], e["amount"]) for e in stall} == {("seat:1", 6), ("seat:0", 8)}


def test_R_PLAY_8_pay_card_wins_its_pot_when_laid() -> None:
    h = make_hand(rules(), hands={1: "2d 3d", 3: "4d 5d 6d 7d 8d 9d Td Jd Qd", 2: "Kd Ad"})
    events = h.events()
    assert chips_to(events, "seat:3", "pay_card") >= 4  # the J♦ pot
    assert {"type": "chips", "from": "pot:Jd", "to": "seat:3", "amount": 4, "reason": "pay_card"} in events
    # K♦ then A♦ by the same player wins the combo.
    assert {"type": "chips", "from": "pot:Kd-Ad", "to": "seat:2", "amount": 4, "reason": "pay_card"} in events


def test_R_PLAY_8_combo_needs_one_player_laying_every_card_in_a_row() -> None:
    won = make_hand(rules(), hands={1: "2c 3c 4c 5c 6c 7c 8c 9c"})
    assert {"type": "chips", "from": "pot:7-8-9", "to": "seat:1", "amount": 4,
            "reason": "pay_card"} in won.events()
    broken = make_hand(rules(), hands={1: "2c 3c 4c 5c 6c 7c 9c", 2: "8c"})
    assert not [e for e in broken.events() if e["type"] == "chips" and e["from"] == "pot:7-8-9"]


def test_R_PLAY_8_cards_in_the_widow_win_nothing() -> None:
    h = make_hand(rules(), hands={1: "2s 3s 4s 5s 6s 7s 8s 9s"}, widow="Ts")
    while not h.over:
        h.apply(h.legal_actions()[0])
    assert h.pot_balances()["Ts"] == 4


def test_R_PLAY_9_announce_claim_pays_the_pot() -> None:
    h = make_hand(rules(claim="announce"), hands={1: "2d 3d 8d Qd", 2: "4d 5d 6d 7d 9d Td", 3: "Jd"})
    assert {a.kind for a in h.legal_actions()} == {"claim", "play"}
    assert h.to_act() == [1, 3]
    before = h.chips[3]
    h.apply(act(3, "claim"))
    assert h.chips[3] == before + 4 and h.pot_balances()["Jd"] == 0


def test_R_PLAY_9_announce_unclaimed_pot_stays_after_the_next_card() -> None:
    h = make_hand(rules(claim="announce"), hands={1: "2d 3d 8d Qd", 2: "4d 5d 6d 7d 9d Td", 3: "Jd"})
    h.apply(act(1, "play", "Qd"))
    assert {"type": "unclaimed", "seat": 3, "pots": ["Jd"]} in h.events()
    assert h.pot_balances()["Jd"] == 4
    with pytest.raises(IllegalAction, match="R-PLAY-9"):
        h.verify(act(3, "claim"))


def test_R_END_1_first_out_takes_centre_and_a_chip_per_card_paying_what_they_have() -> None:
    h = make_hand(rules(), hands={1: "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc"}, chips=[100, 100, 100, 13])
    events = h.events()
    assert h.over and h.winner == 1
    assert plays(events)[-1] == (1, "play", "Qc", True)  # no K♣: the hand ends at once
    leftover = {e["from"]: e["amount"] for e in events if e["type"] == "chips" and e["reason"] == "leftover"}
    assert leftover == {"seat:0": 10, "seat:2": 11, "seat:3": 5}  # seat 3 had only 5 after the ante of 8
    assert chips_to(events, "seat:1", "centre") == 4


def test_R_END_1_leftover_none_option() -> None:
    h = make_hand(rules(leftover="none"), hands={1: "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc"})
    assert h.winner == 1 and chips_to(h.events(), "seat:1", "leftover") == 0


def test_R_PLAY_6_pay_and_pass_goes_round_the_table_each_seat_paying_first() -> None:
    # A club stop; seats 1 and 2 hold no red card, seat 3 does: two chips in, seat 3 leads.
    h = make_hand(rules(cannot_lead="pay_and_pass"), hands={1: "2c 3c 5s 6s 7s 8s 9s Ts Js Qs Ks",
                                                            2: "5c 6c 7c 8c 9c Tc Jc Qc Kc Ac As"},
                  widow="4c")
    events = h.events()
    assert [e["seat"] for e in events if e["type"] == "cannot_lead"] == [1, 2]
    assert [e["from"] for e in events if e["type"] == "chips" and e["reason"] == "cannot_lead"] == \
        ["seat:1", "seat:2"]
    assert h.to_act() == [3] and all(Card.parse(c).suit in (1, 2) for c in lead_cards(h))
