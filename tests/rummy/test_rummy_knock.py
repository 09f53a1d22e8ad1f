"""Knock Rummy, rule by rule (docs/rules-rummy.md R-KN-*)."""

from __future__ import annotations

import pytest
from rummy_helpers import act, deal, rules, throw_back_until_over

from rummoli.errors import IllegalAction


def knock(size: int = 4, players: int = 2, **options: object) -> dict[str, object]:
    return rules(size, players, style="knock", stock_end="block", **options)


def test_R_KN_1_no_melding_in_play() -> None:
    hand = deal(knock(), ["7s 7h 7d 2c", "Ks Qh Jd 9c"], "5h 3c", dealer=1)
    act(hand, 0, "draw", "stock")
    with pytest.raises(IllegalAction, match=r"R-KN-1"):
        act(hand, 0, "meld", "7s 7h 7d")
    assert {a.kind for a in hand.legal_actions()} == {"discard", "knock"}


def test_R_KN_2_knock_after_drawing_only_in_knock_rummy() -> None:
    hand = deal(knock(), ["7s 7h 7d 2c", "Ks Qh Jd 9c"], "5h 3c", dealer=1)
    with pytest.raises(IllegalAction, match=r"R-RU-3.*draw first"):
        act(hand, 0, "knock", "2c")
    straight = deal(rules(4), ["7s 7h 7d 2c", "Ks Qh Jd 9c"], "5h 3c", dealer=1)
    act(straight, 0, "draw", "stock")
    with pytest.raises(IllegalAction, match=r"R-KN-2"):
        act(straight, 0, "knock", "2c")


def test_R_KN_4_lowest_knocker_collects_the_differences() -> None:
    hand = deal(knock(), ["7s 7h 7d 2c", "Ks Qh Jd 9c"], "5h 3c", dealer=1)
    act(hand, 0, "draw", "stock")  # 3c
    act(hand, 0, "knock", "3c")
    assert hand.outcome["counts"] == [2, 39] and hand.deltas == [37, 0]
    assert hand.outcome["melds"][0] == [["7s", "7h", "7d"]]
    assert hand.view(1)["shown"][0] == ["7s", "7h", "7d", "2c"]


def test_R_KN_4_knocking_with_no_deadwood_earns_the_bonus_from_each() -> None:
    hand = deal(knock(players=3), ["7s 7h 7d 2c", "Ks Qh Jd 9c", "2s 3h 4d 5c"], "5h 7c", dealer=2)
    act(hand, 0, "draw", "stock")  # 7c
    act(hand, 0, "knock", "2c")
    assert hand.outcome["counts"] == [0, 39, 14]
    assert hand.deltas == [39 + 14 + 25 + 25, 0, 0]
    # The bonus is told as what it is, not as a rummy's doubling (a QA pass read "doubled for going rummy")
    lines = hand.result()["lines"]  # type: ignore[index]
    bonus = [line for line in lines if "25" in line and "for knocking with no deadwood" in line]
    assert len(bonus) == 2 and not [line for line in lines if "rummy" in line], lines


def test_R_KN_4_a_knocker_who_is_not_lowest_pays_the_penalty() -> None:
    hand = deal(knock(), ["Ks Kh Qd 2c", "2s 3h 4d 5c"], "5h 3c", dealer=1)
    act(hand, 0, "draw", "stock")  # 3c
    act(hand, 0, "knock", "3c")
    assert hand.outcome["winner"] == 1 and hand.deltas == [0, (32 - 14) + 10]


def test_R_KN_4_a_tie_with_the_knocker_goes_to_the_other_player() -> None:
    hand = deal(knock(), ["2s 3h 4d 5c", "2h 3s 4c 5d"], "Kh Qc", dealer=1)
    act(hand, 0, "draw", "stock")  # Qc
    act(hand, 0, "knock", "Qc")
    assert hand.outcome["counts"] == [14, 14]
    assert hand.outcome["winner"] == 1 and hand.deltas == [0, 10]


def test_R_KN_5_an_empty_stock_ends_the_hand_with_a_showdown() -> None:
    hand = deal(knock(3), ["2s 3h 4d", "Ks Qh Jd"], dealer=1)
    throw_back_until_over(hand)
    assert hand.outcome["reason"] == "blocked" and hand.deltas == [21, 0]
    result = hand.result()  # every hand is arranged and counted: what is left is deadwood, melds or none
    assert result is not None and [h["left"] for h in result["hands"]] == ["deadwood", "deadwood"]
    assert all(" deadwood " in line for line in result["lines"][1:3]), result["lines"]


def test_the_terminals_you_is_told_in_the_second_person() -> None:
    """The terminal names its player "You": "You knock", "as you knocked and were beaten" (not "You knocks",
    "you ... was beaten")."""
    from rummoli.rummy.words import Speaker

    speak = Speaker(["You", "Bob"], "knock")
    assert speak.score_text({"seat": 1, "from": 0, "points": 10, "reason": "penalty"}) == \
        "Bob scores 10 as you knocked and were beaten"
    assert speak.line({"type": "action", "seat": 0, "action": "knock", "card": "4s"}) == "You knock, discarding 4♠."


def test_R_KN_2_the_card_just_taken_may_not_be_knocked_or_discarded_back() -> None:
    # Knock Rummy's own turn rule names the refusal (it said R-RU-3, straight Rummy's)
    hand = deal(knock(), ["7s 7h 7d 2h", "2c 5c 9h Td"], "Kc 4d", dealer=1)
    act(hand, 0, "draw", "discard")  # Kc
    for kind in ("discard", "knock"):
        with pytest.raises(IllegalAction, match=r"^R-KN-2: Kc was just taken"):
            act(hand, 0, kind, "Kc")


def test_the_prompt_before_a_discard_gives_the_count_now_and_after_the_best_discard() -> None:
    # A QA pass read "(your deadwood: 51)" beside knocks that would keep far less: the count held the card to go
    hand = deal(knock(), ["7s 7h 7d 2c", "Ks Qh Jd 9c"], "5h 3c", dealer=1)
    act(hand, 0, "draw", "stock")  # 3c: 7-7-7 and 2c 3c left, 5 now; the best discard (3c) leaves 2
    view = hand.view(0, guide=True)
    assert "(your deadwood: 5 now, 2 after your best discard)" in view["prompt"], view["prompt"]
    assert min(view["knocks"].values()) == 2
