"""500 Rum, rule by rule (docs/rules-rummy.md R-500-*)."""

from __future__ import annotations

import pytest
from rummy_helpers import act, deal, holding, rules, throw_back_until_over, twenty_each

from rummoli.errors import IllegalAction
from rummoli.rummy import RummyGame


def five(size: int = 5, **options: object) -> dict[str, object]:
    return rules(size, style="500", **options)


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 7), (6, 7)])
def test_R_500_1_deal_sizes(players: int, size: int) -> None:
    hand = RummyGame("500-rum", [f"P{i}" for i in range(players)], seed=1).deal()
    assert [len(h) for h in hand.dealt] == [size] * players
    if hand.log:  # no discard could be melded: the first player's draw from the stock was forced
        assert hand.log[0][4] == 1 and hand.view(None)["hand_sizes"][hand.turn] == size + 1


def pile_of_three() -> object:
    hand = deal(five(), ["8c Tc Kd 4s 5h", "7s 7h Qd 3c 2h"], "9c Jc 7d Ah", dealer=1)
    act(hand, 0, "draw", "stock")  # Jc
    act(hand, 0, "discard", "Kd")
    act(hand, 1, "draw", "stock")  # 7d
    act(hand, 1, "discard", "Qd")
    return hand


def test_R_500_2_take_a_deep_discard_with_everything_above_it() -> None:
    hand = pile_of_three()
    assert hand.view(None)["discard"] == ["9c", "Kd", "Qd"]  # type: ignore[attr-defined]
    legal = hand.view(0)["legal_actions"]  # type: ignore[attr-defined]
    assert {"seat": 0, "action": "draw", "from": "discard", "card": "9c"} in legal
    assert {"seat": 0, "action": "draw", "from": "discard", "card": "Kd"} not in legal
    with pytest.raises(IllegalAction, match=r"R-500-2.*cannot be"):
        act(hand, 0, "draw", "discard", "Kd")  # K-Q of diamonds in hand would make no meld
    act(hand, 0, "draw", "discard", "9c")
    assert holding(hand, 0) == {"8c", "9c", "Tc", "Jc", "4s", "5h", "Kd", "Qd"}  # type: ignore[arg-type]
    assert hand.view(None)["discard"] == []  # type: ignore[attr-defined]


def test_R_500_2_the_deepest_card_taken_must_be_melded_before_discarding() -> None:
    hand = pile_of_three()
    act(hand, 0, "draw", "discard", "9c")
    with pytest.raises(IllegalAction, match=r"R-500-2.*before you discard"):
        act(hand, 0, "discard", "4s")
    assert all(a["action"] != "discard" for a in hand.view(0)["legal_actions"])  # type: ignore[attr-defined]
    act(hand, 0, "meld", "8c 9c Tc Jc")
    act(hand, 0, "discard", "4s")
    assert hand.points == [8 + 9 + 10 + 10, 0]  # type: ignore[attr-defined]


def test_R_500_2_a_meld_that_would_strand_the_taken_card_is_refused() -> None:
    hand = deal(five(6), ["8c 8s 8h Tc 4s 5h", "7s 7h Qd 3c 2h 6d"], "9c Jc 7d Ah", dealer=1)
    act(hand, 0, "draw", "discard")  # 9c: only 8c-9c-Tc can take it
    with pytest.raises(IllegalAction, match=r"R-500-2.*must still reach"):
        act(hand, 0, "meld", "8c 8s 8h")
    act(hand, 0, "meld", "8c 9c Tc")
    act(hand, 0, "discard", "4s")


def test_R_500_4_melds_score_for_their_maker_and_the_hand_counts_against() -> None:
    hand = deal(five(3), ["As 2s 3s", "Kh Qh 9c"], "5d 4s", dealer=1)
    act(hand, 0, "draw", "stock")  # 4s
    act(hand, 0, "meld", "As 2s 3s 4s")  # the low ace counts one
    assert hand.over and hand.deltas == [1 + 2 + 3 + 4, -(10 + 10 + 9)]
    said = [e.get("text") for e in hand.events_since(0, None) if e["type"] == "score"]
    assert any(t and t.endswith("loses 29 for the cards left in hand.") for t in said), said  # not "scores -29"
    result = hand.result()
    assert result is not None and result["winner"] == 0 and result["winner_did"] == "goes out"  # not "wins the hand"


def test_R_500_4_lay_offs_score_for_whoever_lays_them() -> None:
    hand = deal(five(4), ["Qs Ks As 2d", "Js 9c Ah 8d"], "5d 6h 7c", dealer=1)
    act(hand, 0, "draw", "stock")  # 6h
    act(hand, 0, "meld", "Qs Ks As")  # a high ace counts 15
    act(hand, 0, "discard", "6h")
    act(hand, 1, "draw", "stock")  # 7c
    act(hand, 1, "layoff", "Js", 0)
    act(hand, 1, "discard", "7c")
    assert hand.points == [35, 10]


def test_R_500_5_hand_ends_when_the_stock_runs_out_and_is_scored() -> None:
    hand = twenty_each(style="500")
    throw_back_until_over(hand)
    assert hand.flips == 0 and hand.outcome["reason"] == "blocked"
    assert hand.deltas[0] == -hand.melds_table.card_value(hand.hands[0]) < 0
    # The words say what the scores do: a QA pass read "nobody scores" above changes of +40, -51 and +214
    headline = hand.result()["headline"]  # type: ignore[index]
    assert "nobody scores" not in headline and "each player scores what they laid less what they hold" in headline


def test_R_500_6_game_to_500_highest_wins() -> None:
    game = RummyGame("500-rum", ["Ann", "Bob"], scores=[495, 480])
    assert game.rules.target == 500 and not game.over
    game.scores = [510, 530]
    assert game.over and game.winners() == [1]


@pytest.mark.parametrize("seed", ["words-1", "words-2", "words-3"])
def test_R_500_2_a_take_of_the_top_card_alone_is_told_as_such(seed: str) -> None:
    """The log tells a take of the discard pile's top card as that card taken, and a deeper take as the pile taken
    down to its deepest card: the pile as a spectator's events show it just before decides which."""
    from rummoli.rummy.views import rebuild
    from rummoli.table import Seat, Table
    from rummoli.wording import card_word

    table = Table("500-rum", [Seat("A", "normal"), Seat("B", "normal"), Seat("C", "easy")], hands=2, seed=seed)
    while not table.over:
        if table.hand_over:
            table.next_hand()
        else:
            table.step()
    told = {"top": 0, "deeper": 0}
    for hand_no in range(1, len(table.results) + 1):
        events = [e for e in table.events_since(0, None) if e.get("hand_no") == hand_no]
        for k, event in enumerate(events):
            if event["type"] != "action" or event.get("action") != "draw" or event.get("from") != "discard":
                continue
            pile = rebuild(events[:k])["discard"]
            card = card_word(event["card"])
            if pile[-1] == event["card"]:
                assert event["text"].endswith(f"takes {card} from the discard pile."), event["text"]
                told["top"] += 1
            else:
                assert event["card"] in pile and event["text"].endswith(f"takes the discard pile down to {card}."), \
                    (pile, event["text"])
                told["deeper"] += 1
    assert told["top"] and told["deeper"], told
