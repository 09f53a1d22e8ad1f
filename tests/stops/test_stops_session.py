"""Evenings (docs/rules.md §2.4) and the Michigan specifics (§2.7)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from stops_helpers import act, make_deal, make_hand, paid

from rummoli.cards import Card
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.stops import Session, replay_hand, replay_record

RECORDS = Path(__file__).parent / "records"


def play_out(session: Session, seed: int = 0) -> None:
    while not session.over:
        hand = session.start_hand(seed=f"{seed}-{session.hands_played}")
        session.play_random(hand, seed=session.hands_played)
        session.finish_hand(hand)


def test_R_SESSION_1_seats_and_end_after_hands_or_rotations() -> None:
    with pytest.raises(MalformedInput, match="R-SESSION-1"):
        Session("rummoli", ["a"] * 9, dealer=0)
    with pytest.raises(MalformedInput, match="R-SESSION-1"):
        Session("michigan", ["a", "b"], dealer=0)
    s = Session("rummoli", ["a", "b", "c"], dealer=0, max_hands=4)
    play_out(s)
    assert s.hands_played == 4 and s.total() == 300
    r = Session({"game": "stops", "board": "copp-clark", "widow": "none"}, ["a", "b", "c"], dealer=1,
                max_rotations=2)
    play_out(r)
    assert r.hands_played == 6 and r.rotations == 2 and r.dealer == 1
    t = Session("rummoli", ["a", "b"], dealer=0)
    t.end()  # the table agrees to stop, at a time for instance
    assert t.over
    with pytest.raises(IllegalAction, match="R-SESSION-1"):
        t.start_hand(seed=1)


def test_R_SESSION_1_ends_when_one_player_is_left_and_R_ANTE_1_broke_players_leave() -> None:
    s = Session("rummoli", ["a", "b", "c"], dealer=0, chips=12)
    play_out(s, seed=4)
    assert len(s.players_left) == 1 and s.total() == 36
    outs = [e for e in s.log if e["type"] == "out"]
    assert len(outs) == 2
    assert sum(e["chips_to_centre"] for e in outs) >= 0


def test_R_ANTE_1_player_who_cannot_ante_is_out_and_chips_go_to_the_centre() -> None:
    s = Session("rummoli", ["a", "b", "c"], dealer=0)
    s.chips[2] = 5
    s.chips[0] = 195
    hand = s.start_hand(seed=1)
    assert s.seated == [True, True, False] and hand.n == 2
    assert hand.start_pots[hand.rules.board.centre] == 5 and s.chips[2] == 0


def test_R_SESSION_2_poker_showdown_takes_everything() -> None:
    s = Session("rummoli", ["a", "b", "c"], dealer=0)
    s.pots.update({"Ts": 7, "centre": 3})
    s.chips = [95, 95, 100]
    (result,) = s.settle(seed=2)
    assert result["pot"] == "all" and sum(result["paid"].values()) == 10
    assert all(len(c) == 5 for c in result["shown"].values())
    assert s.total() == 300 and sum(s.pots.values()) == 0


def test_R_SESSION_2_tied_showdown_gives_the_odd_chips_to_the_player_nearest_dealers_left() -> None:
    hands, widow = make_deal(2, 0, {0: "Ts Js Qs Ks As", 1: "Th Jh Qh Kh Ah"})
    receivers = [hands[1], hands[0], widow]  # R-DEAL-1 from seat 0: seat 1, seat 0, the widow
    deck = [receivers[i % 3][i // 3] for i in range(52)]
    s = Session("rummoli", ["a", "b"], dealer=0)
    s.pots.update({"centre": 7})
    s.chips = [100, 93]
    (result,) = s.settle(decks=[deck])
    assert result["paid"] == {"b": 4, "a": 3}


def test_R_SESSION_2_pot_by_pot_smallest_first() -> None:
    s = Session({"game": "stops", "board": "copp-clark", "settle": "pot_by_pot"}, ["a", "b", "c"], dealer=0)
    s.pots.update({"Ts": 7, "As": 2, "centre": 3})
    s.chips = [90, 90, 108]
    assert [r["pot"] for r in s.settle(seed=1)] == ["As", "centre", "Ts"]
    assert s.total() == 300


def test_R_SESSION_2_share_equally_in_exact_fractions() -> None:
    s = Session("michigan", ["a", "b", "c"], dealer=0)
    s.pots.update({"centre": 10})
    s.chips = [90, 100, 100]
    s.settle()
    assert s.chips == [90 + Fraction(10, 3), 100 + Fraction(10, 3), 100 + Fraction(10, 3)]
    assert s.total() == 300


def test_R_SESSION_3_most_chips_wins_and_equal_totals_share() -> None:
    s = Session("rummoli", ["a", "b", "c"], dealer=0)
    s.chips = [50, 125, 125]
    table = s.standings()
    assert [(r["name"], r["place"], r["winner"]) for r in table] == [("b", 1, True), ("c", 1, True),
                                                                       ("a", 3, False)]


def test_R_SESSION_4_void_restores_every_chip_since_the_ante_and_redeals_without_ante() -> None:
    s = Session({"game": "stops", "board": "copp-clark"}, ["a", "b", "c", "d"], dealer=0)
    hand = s.start_hand(seed=1)
    after_ante = [100 - 9] * 4
    hand.apply(act(0, "keep"))
    hand.apply(act(1, "bid", amount=7))
    s.void_hand(hand)
    again = s.start_hand(seed=2)
    assert again.dealer == 0 and again.start_chips == after_ante
    assert paid(again.events(), "seat:0", "ante") == 0 and again.record()["ante"] is False
    assert sum(again.start_pots) == 36
    s.play_random(again, seed=3)
    assert replay_record(again.record())["chips"] == again.chips


def test_R_MI_1_first_dealer_by_high_card_cut_recorded() -> None:
    s = Session("michigan", ["A", "B", "C", "D"], cut_seed=11)
    last = s.cut[-1]
    best = max(Card.parse(c).rank for c in last.values())
    assert Card.parse(last[s.names[s.dealer]]).rank == best
    assert sum(1 for c in last.values() if Card.parse(c).rank == best) == 1


def test_R_MI_2_michigan_ante_one_per_space_two_to_the_kitty() -> None:
    h = make_hand("michigan", hands={1: "2c 3c"})
    ante = [e for e in h.events() if e["type"] == "chips" and e["reason"] == "ante"]
    per_pot = {p: sum(e["amount"] for e in ante if e["to"] == f"pot:{p}") for p in ("Ah", "Kc", "Qd", "Js", "centre")}
    assert per_pot == {"Ah": 4, "Kc": 4, "Qd": 4, "Js": 4, "centre": 8}


def test_R_MI_3_never_lead_a_higher_card_while_holding_a_lower_one_of_that_suit() -> None:
    h = make_hand("michigan", hands={1: "4s 9s 5h Th 6d 7c"})
    leads = {str(a.card) for a in h.legal_actions() if a.kind == "lead"}
    assert leads == {"4s", "5h", "6d", "7c"}
    with pytest.raises(IllegalAction, match="R-PLAY-2"):
        h.verify(act(1, "lead", "9s"))


def mi6() -> dict[str, object]:
    return json.loads((RECORDS / "michigan-R-MI-6.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_R_MI_4_a_finish_ends_the_hand_at_once_kitty_plus_a_chip_per_card() -> None:
    hand = replay_hand(mi6())
    events = hand.events()
    assert hand.winner == 1 and events[-1] == {"type": "over"}
    tail = [e for e in events if e["type"] == "chips" and e["to"] == "seat:1" and e["reason"] != "pay_card"]
    assert [(e["from"], e["amount"]) for e in tail] == [("pot:centre", 8), ("seat:0", 2), ("seat:2", 3),
                                                        ("seat:3", 1)]


def test_R_MI_5_no_reward_for_a_stop_or_for_holding_a_pay_card() -> None:
    hand = replay_hand(mi6())
    reasons = {e["reason"] for e in hand.events() if e["type"] == "chips"}
    assert reasons == {"ante", "pay_card", "centre", "leftover"}
    assert hand.hands[2] >> Card.parse("Kc").index & 1 and hand.pot_balances()["Kc"] == 4


def test_R_MI_6_worked_example_B_receives_18_gross() -> None:
    result = replay_record(mi6())
    gross = sum(e["amount"] for e in result["events"] if e["type"] == "chips" and e["to"] == "seat:1")
    assert gross == 18
    assert result["chips"][1] == 100 - 6 + 18


def test_R_MI_7_residual_balances_shared_equally_after_complete_rotations() -> None:
    s = Session("michigan", ["A", "B", "C"], dealer=0, max_rotations=1)
    play_out(s, seed=9)
    assert s.rotations == 1 and s.hands_played == 3
    left = sum(s.pots.values())
    before = list(s.chips)
    s.settle()
    assert all(s.chips[i] - before[i] == Fraction(left, 3) for i in range(3))
    assert s.total() == 300 and any(isinstance(c, Fraction) for c in s.chips)


def test_R_SESSION_1_over_is_exact_when_a_broke_player_leaves_before_dealing() -> None:
    # Seats 0 and 1 have dealt; seat 2, next to deal, cannot ante and leaves: every player still
    # seated has dealt, so the one agreed rotation is complete and no further hand may be dealt.
    s = Session("rummoli", ["a", "b", "c"], dealer=0, max_rotations=1)
    for _ in range(2):
        hand = s.start_hand(seed=s.hands_played)
        s.play_random(hand, seed=1)
        if s.hands_played == 1:  # seat 2 loses everything to seat 0 in the second hand
            hand.chips[0] += hand.chips[2]
            hand.chips[2] = 0
        s.finish_hand(hand)
    assert s.players_left == [0, 1] and s.rotations == 1 and s.over
    with pytest.raises(IllegalAction, match="R-SESSION-1"):
        s.start_hand(seed=9)


def test_R_ANTE_1_over_as_soon_as_the_last_rival_cannot_ante() -> None:
    s = Session("rummoli", ["a", "b"], dealer=0)
    hand = s.start_hand(seed=1)
    s.play_random(hand, seed=1)
    hand.chips[0] += hand.chips[1] - 3  # seat 1 keeps 3 chips, less than the ante of 9
    hand.chips[1] = 3
    s.finish_hand(hand)
    assert s.over and s.players_left == [0] and s.pots["centre"] >= 3
    assert s.total() == 200


def test_R_ANTE_1_the_last_player_is_never_dropped_and_nobody_leaves_when_nobody_can_ante() -> None:
    double = {"game": "stops", "board": "copp-clark", "dealer_ante": "double"}
    s = Session(double, ["a", "b"], dealer=0)
    s.chips = [10, 10]  # the dealer owes 18, seat 1 owes 9
    s.pots["centre"] = 180
    with pytest.raises(IllegalAction, match="R-SESSION-1"):
        s.start_hand(seed=1)  # the dealer cannot pay and leaves; one player left: the session is over
    assert s.players_left == [1] and s.over and s.chips == [0, 10]
    assert s.pots["centre"] == 190 and s.total() == 200
    broke = Session("rummoli", ["a", "b", "c"], dealer=0)
    broke.chips = [5, 5, 5]
    broke.pots["centre"] = 285
    assert broke.over
    with pytest.raises(IllegalAction, match="R-SESSION-1"):
        broke.start_hand(seed=1)
    assert broke.players_left == [0, 1, 2] and broke.over  # nobody can ante: all stay for the settlement


def test_R_ANTE_1_at_the_agreed_end_nobody_leaves() -> None:
    s = Session("rummoli", ["a", "b", "c"], dealer=0, max_hands=1)
    hand = s.start_hand(seed=1)
    s.play_random(hand, seed=1)
    hand.chips[0] += hand.chips[2] - 3
    hand.chips[2] = 3
    s.finish_hand(hand)
    assert s.over and s.players_left == [0, 1, 2] and s.chips[2] == 3  # no next ante is due
