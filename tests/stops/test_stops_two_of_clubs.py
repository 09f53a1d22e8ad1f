"""The 2 of clubs house rule (`opening_lead = two_of_clubs`, R-PLAY-2C in docs/rules-stops.md), on hand-made deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from stops_helpers import act, make_hand, plays, rules

from rummoli.cards import CARDS
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.games import replay
from rummoli.stops import load_ruleset

CLUBS = rules(opening_lead="two_of_clubs")


def test_R_PLAY_2C_the_holder_of_the_two_of_clubs_leads_it() -> None:
    # left of dealer 0 is seat 1, which holds 2s 2h (its usual lead); seat 3 holds the 2 of clubs
    h = make_hand(CLUBS, hands={1: "2s 2h", 3: "2c 9d"})
    assert plays(h.events())[0] == (3, "lead", "2c", True)  # its only legal lead: made for it, as its own


def test_R_PLAY_2C_the_two_of_clubs_opens_whatever_the_poker_round_gave() -> None:
    r = rules(poker="before_play", opening_lead="two_of_clubs")
    h = make_hand(r, hands={2: "9h Th Jh Qh Kh", 3: "2c 3d"}, pots={"poker": 1})
    for seat in (1, 2, 3, 0):
        h.apply(act(seat, "check"))
    assert h.poker_winners == [2]
    assert plays(h.events())[0] == (3, "lead", "2c", True)


def test_R_PLAY_2C_with_the_two_of_clubs_in_the_widow_the_lowest_club_in_play_opens() -> None:
    h = make_hand(CLUBS, hands={1: "2s 4c", 2: "3c 2h"}, widow="2c")
    # seat 2 leads 3c although 2h is lower by rank: the round begins with the lowest club in play
    assert plays(h.events())[0] == (2, "lead", "3c", True)


def test_R_PLAY_2C_a_two_of_clubs_given_up_with_the_dealers_hand_is_out_of_play() -> None:
    r = rules(widow="swap_or_auction", opening_lead="two_of_clubs")
    h = make_hand(r, hands={0: "2c 5s", 2: "4c 2s"}, widow="3c 2d")
    h.apply(act(0, "swap"))  # the dealer takes the widow (with 3c) and gives up the hand holding 2c
    assert h.given_up >> CARDS[39].index & 1
    assert plays(h.events())[0] == (0, "lead", "3c", True)


def test_R_PLAY_2C_with_no_club_in_play_the_usual_opening_lead_applies() -> None:
    every_club = " ".join(f"{rank}c" for rank in "23456789TJQKA")
    h = make_hand(CLUBS, players=3, hands={1: "2s 2h 9d"}, widow=every_club)  # 3 players: a 13-card widow
    assert h.to_act() == [1] and {str(a.card) for a in h.legal_actions()} == {"2s", "2h"}


def test_R_PLAY_2C_a_different_opening_lead_is_refused_naming_the_rule() -> None:
    h = make_hand(CLUBS, hands={1: "2s 2h", 3: "2c 9d"}, auto=False)
    assert h.to_act() == [3]
    with pytest.raises(IllegalAction, match=r"R-PLAY-2C.*must lead one of 2c, not 9d"):
        h.verify(act(3, "lead", "9d"))
    with pytest.raises(IllegalAction, match=r"R-PLAY-2C.*seat 3's turn"):
        h.verify(act(1, "lead", "2s"))


def test_R_PLAY_2C_records_replay_the_same_hand() -> None:
    h = make_hand(CLUBS, hands={1: "2s 2h", 2: "3c 4c", 3: "2c 9d"})
    while not h.over:
        h.apply(h.legal_actions()[0])
    record = json.loads(json.dumps(h.record()))
    assert record["ruleset"]["opening_lead"] == "two_of_clubs"
    assert replay(record)["events"] == h.events()


def test_R_PLAY_2C_loads_from_a_ruleset_file_and_bad_values_are_named(tmp_path: Path) -> None:
    path = tmp_path / "clubs.toml"
    path.write_text('game = "stops"\nname = "clubs"\nboard = "copp-clark"\nopening_lead = "two_of_clubs"\n')
    assert load_ruleset(path, trusted=True).opening_lead == "two_of_clubs"
    with pytest.raises(MalformedInput, match=r'"opening_lead".*two_of_clubs'):
        load_ruleset({"game": "stops", "board": "copp-clark", "opening_lead": "three_of_clubs"})
