"""Straight Rummy, rule by rule (docs/rules.md §4.1), with hand-made deals."""

from __future__ import annotations

import pytest
from rummy_helpers import act, deal, holding, rules, throw_back_until_over, twenty_each

from rummoli.cards import CARDS
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.rummy import Action, RummyGame, RummyHand, load_ruleset, random_hand


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_R_RU_1_deal_sizes_stock_and_turned_up_card(players: int, size: int) -> None:
    game = RummyGame("rummy", [f"P{i}" for i in range(players)], dealer=1, seed=players)
    hand = game.deal()
    view = hand.view(None)
    assert view["hand_sizes"] == [size] * players
    assert view["stock"] == 52 - size * players - 1 and len(view["discard"]) == 1
    assert view["discard"][0] == str(hand.dealt_stock[0])
    assert hand.turn == 2 % players  # left of the dealer plays first


def test_R_RU_1_refuses_a_table_it_does_not_seat() -> None:
    with pytest.raises(MalformedInput, match="2 to 6 players"):
        RummyGame("rummy", [f"P{i}" for i in range(7)])


def test_R_RU_3_draw_first_then_discard_and_only_on_your_turn() -> None:
    hand = deal(rules(3), ["7s 7h 7d", "2c 5c 9h"], "Kc 4d", dealer=1)
    with pytest.raises(IllegalAction, match=r"R-RU-3.*draw first"):
        act(hand, 0, "discard", "7s")
    with pytest.raises(IllegalAction, match=r"R-RU-3.*seat 0's turn"):
        act(hand, 1, "draw", "stock")
    act(hand, 0, "draw", "stock")
    assert "4d" in holding(hand, 0)
    with pytest.raises(IllegalAction, match=r"R-RU-3.*drawn already"):
        act(hand, 0, "draw", "discard")
    act(hand, 0, "discard", "4d")
    assert hand.turn == 1 and hand.view(None)["discard"] == ["Kc", "4d"]


def test_R_RU_3_card_just_taken_from_discard_cannot_be_discarded() -> None:
    hand = deal(rules(4), ["7s 7h 7d 2h", "2c 5c 9h Td"], "Kc 4d", dealer=1)
    act(hand, 0, "draw", "discard")
    assert not hand.can(Action(0, "discard", card=CARDS[49]))  # Kc
    with pytest.raises(IllegalAction, match=r"R-RU-3.*just taken"):
        act(hand, 0, "discard", "Kc")
    assert {"seat": 0, "action": "discard", "card": "Kc"} not in hand.view(0)["legal_actions"]
    act(hand, 0, "discard", "2h")


def test_R_RU_3_card_just_taken_may_be_discarded_when_it_is_the_only_card() -> None:
    hand = deal(rules(3), ["7s 7h 7d", "2c 5c 9h"], "Kc 4d", dealer=1)
    act(hand, 0, "draw", "discard")
    act(hand, 0, "meld", "7s 7h 7d")
    act(hand, 0, "discard", "Kc")
    assert hand.over and hand.outcome["winner"] == 0


def test_R_RU_3_layoff_both_ends_of_a_run_and_on_another_players_meld() -> None:
    hand = deal(rules(6), ["5s 6s 7s 4s 2h 3d", "8s Jc Qc Kd 9h Th"], "Kc 2c 3c", dealer=1)
    act(hand, 0, "draw", "stock")
    act(hand, 0, "meld", "5s 6s 7s")
    act(hand, 0, "layoff", "4s", 0)
    assert hand.view(None)["melds"] == [{"cards": ["4s", "5s", "6s", "7s"], "owner": 0}]
    with pytest.raises(IllegalAction, match=r"R-RU-3.*does not fit"):
        act(hand, 0, "layoff", "2h", 0)
    with pytest.raises(IllegalAction, match=r"R-RU-3.*no meld 1"):
        act(hand, 0, "layoff", "2h", 1)
    act(hand, 0, "discard", "2h")
    act(hand, 1, "draw", "stock")
    act(hand, 1, "layoff", "8s", 0)
    assert hand.view(None)["melds"][0]["cards"] == ["4s", "5s", "6s", "7s", "8s"]


def test_R_RU_3_layoff_as_the_fourth_card_of_a_set_and_never_a_fifth() -> None:
    hand = deal(rules(5), ["Js Jh Jd Jc 2h", "8s 9c Qc Kd 9h"], "Kc 2c", dealer=1)
    act(hand, 0, "draw", "stock")
    act(hand, 0, "meld", "Js Jh Jd")
    act(hand, 0, "layoff", "Jc", 0)
    assert len(hand.view(None)["melds"][0]["cards"]) == 4
    assert not [a for a in hand.legal_actions() if a.kind == "layoff"]


def test_R_RU_3_going_out_by_melding_everything_needs_no_discard() -> None:
    hand = deal(rules(5), ["5s 6s 7s 9h 9d", "8s 9c Qc Kd Th"], "Kc 9s", dealer=1)
    act(hand, 0, "draw", "stock")
    act(hand, 0, "meld", "5s 6s 7s")
    act(hand, 0, "meld", "9s 9h 9d")
    assert hand.over and hand.outcome["reason"] == "out"


def test_R_RU_4_going_rummy_doubles_and_scores_the_other_hands() -> None:
    hand = deal(rules(6), ["7s 7h 7d 2c 3c 4c", "2s 3h 5d 9c Th Jd"], "9d Kc", dealer=1)
    act(hand, 0, "draw", "stock")
    act(hand, 0, "meld", "7s 7h 7d")
    act(hand, 0, "meld", "2c 3c 4c")
    act(hand, 0, "discard", "Kc")
    assert hand.outcome["rummy"] is True
    assert hand.deltas == [2 * (2 + 3 + 5 + 9 + 10 + 10), 0]


def test_R_RU_4_no_double_after_an_earlier_meld_by_that_player() -> None:
    hand = deal(rules(6), ["7s 7h 7d 2c 3c 4c", "2s 3h 5d 9c Th Jd"], "9d Kc Qs", dealer=1)
    act(hand, 0, "draw", "stock")
    act(hand, 0, "meld", "7s 7h 7d")
    act(hand, 0, "discard", "Kc")
    act(hand, 1, "draw", "stock")  # Qs
    act(hand, 1, "discard", "Qs")
    act(hand, 0, "draw", "discard")  # Qs
    act(hand, 0, "meld", "2c 3c 4c")
    act(hand, 0, "discard", "Qs")  # the only card left
    assert hand.outcome["rummy"] is False
    assert hand.deltas == [39, 0]


def test_R_RU_4_a_lay_off_earlier_also_spoils_rummy() -> None:
    hand = deal(rules(4), ["7s 7h 7d Jc", "2s 3s 7c 4s"], "9d Kc Qs 8d 2h", dealer=1)
    act(hand, 0, "draw", "stock")  # Kc
    act(hand, 0, "meld", "7s 7h 7d")
    act(hand, 0, "discard", "Kc")
    act(hand, 1, "draw", "stock")  # Qs
    act(hand, 1, "layoff", "7c", 0)
    act(hand, 1, "discard", "Qs")
    act(hand, 0, "draw", "stock")  # 8d
    act(hand, 0, "discard", "8d")
    act(hand, 1, "draw", "stock")  # 2h
    act(hand, 1, "meld", "2s 3s 4s")
    act(hand, 1, "discard", "2h")
    assert hand.outcome["rummy"] is False and hand.deltas == [0, 10]


def test_R_RU_BONUS_off_means_no_double() -> None:
    hand = deal(rules(3, rummy_bonus=False), ["7s 7h 7d", "2s 3h 5d"], "9d Kc", dealer=1)
    act(hand, 0, "draw", "stock")
    act(hand, 0, "meld", "7s 7h 7d")
    act(hand, 0, "discard", "Kc")
    assert hand.deltas == [10, 0] and hand.outcome["rummy"] is False


def test_R_RU_5_stock_turned_over_once_then_blocked_with_no_score() -> None:
    hand = twenty_each()
    turned = hand.view(None)["discard"][0]
    for _ in range(11):  # the stock holds 11 cards after the turned-up one
        act(hand, hand.turn, "draw", "stock")
        act(hand, hand.turn, "discard", hand.view(hand.turn, history=True)["drawn"][-1][1])
    assert hand.flips == 1 and hand.phase == "play"
    flip = [e for e in hand.events() if e["type"] == "flip"]
    assert flip == [{"type": "flip", "cards": 12}]
    forced = hand.events()[-1]
    assert forced["forced"] is True and forced["from"] == "stock"  # the discard pile is empty: forced
    assert hand.view(hand.turn, history=True)["drawn"][-1][1] == turned  # not shuffled: the first discard is on top
    throw_back_until_over(hand)
    assert hand.outcome["reason"] == "blocked" and hand.deltas == [0, 0]


def test_R_RU_BLOCK_settles_by_differences_to_the_lowest_hand() -> None:
    hand = deal(rules(3, stock_end="block"), ["2s 3h 4d", "Ks Qh Jd"], dealer=1)
    throw_back_until_over(hand)
    assert hand.flips == 0 and hand.outcome["reason"] == "blocked"
    assert hand.outcome["counts"] == [9, 30] and hand.deltas == [21, 0]
    # the hands are counted as they stand, "left in hand": a QA pass read "the difference in deadwood" beside them
    said = [e["text"] for e in hand.events_since(0, None) if e["type"] == "score"]
    assert said == ["P0 scores 21 for the difference in cards left in hand with P1."], said


def test_R_RU_BOAT_discard_draw_brings_the_top_stock_card() -> None:
    hand = deal(rules(3, boathouse=True), ["7s 7h 7d", "2s 3h 5d"], "Kc 9h 4c", dealer=1)
    told = hand.view(0, guide=True)["prompt"]  # the buttons cannot say it: the words beside them do
    assert told.endswith("from the discard pile (the top card of the stock comes with it, unseen by the others)."), told
    act(hand, 0, "draw", "discard")
    assert hand.view(0, guide=True)["prompt"].endswith("then discard a card: you go out only with a discard.")
    assert holding(hand, 0) == {"7s", "7h", "7d", "Kc", "9h"}
    assert hand.view(1)["hand_sizes"] == [5, 3] and hand.view(None)["stock"] == 52 - 6 - 2


def test_R_RU_BOAT_goes_out_only_with_a_discard() -> None:
    hand = deal(rules(4, boathouse=True), ["5s 6s 7s 8s", "2s 3h 5d Jc"], "Kc 9s", dealer=1)
    act(hand, 0, "draw", "stock")  # 9s
    with pytest.raises(IllegalAction, match=r"R-RU-BOAT"):
        act(hand, 0, "meld", "5s 6s 7s 8s 9s")
    act(hand, 0, "meld", "5s 6s 7s 8s")
    with pytest.raises(IllegalAction, match=r"R-RU-BOAT"):
        act(hand, 0, "layoff", "9s", 0)
    assert [a.kind for a in hand.legal_actions()] == ["discard"]
    act(hand, 0, "discard", "9s")
    assert hand.over and hand.outcome["winner"] == 0


def test_R_RU_6_game_to_the_target_with_the_deal_rotating() -> None:
    game = RummyGame("rummy", ["Ann", "Bob", "Cy"], seed=5)
    rng = game.rng
    dealers = []
    while not game.over:
        hand = game.deal()
        dealers.append(hand.dealer)
        while not hand.over:
            moves = hand.legal_actions()
            hand.apply(moves[rng.randrange(len(moves))])
        game.finish_hand()
    assert dealers[:4] == [0, 1, 2, 0]
    assert max(game.scores) >= 100
    standings = game.standings()
    assert standings[0]["score"] == max(game.scores) and game.winners() == [standings[0]["seat"]]
    with pytest.raises(MalformedInput, match="over"):
        game.deal()


def test_R_RU_7_melds_only_grow_and_keep_their_place() -> None:
    import random

    rng = random.Random(7)
    for _ in range(30):
        hand = random_hand(load_ruleset("rummy"), 3, rng)
        tables: list[list[int]] = [[]]
        replay = deal_from(hand)
        for seat, code, x, y, _forced in hand.log:
            if _forced:
                continue
            replay.apply(replay.to_action(seat, (code, x, y)))
            before, now = tables[-1], list(replay.melds)
            assert all(now[i] & old == old for i, old in enumerate(before))
            tables.append(now)


def deal_from(hand: RummyHand) -> RummyHand:
    return RummyHand(hand.rules, hand.players, hand.scores, hand.dealer, hand.dealt, hand.dealt_stock)


def test_R_ERR_1_illegal_actions_leave_the_state_unchanged() -> None:
    hand = deal(rules(4), ["7s 7h 7d 2h", "2c 5c 9h Td"], "Kc 4d", dealer=1)
    act(hand, 0, "draw", "discard")
    before = (hand.view(None), hand.view(0), hand.record(), hand.events())
    for bad in (
        ("discard", "Kc"),
        ("discard", "As"),
        ("meld", "7s 7h 2h"),
        ("layoff", "2h", 0),
        ("draw", "stock"),
        ("knock", "2h"),
    ):
        with pytest.raises(IllegalAction):
            act(hand, 0, *bad)
    with pytest.raises(IllegalAction):
        act(hand, 1, "discard", "2c")
    assert (hand.view(None), hand.view(0), hand.record(), hand.events()) == before


def test_R_RU_LOOP_a_hand_where_nobody_draws_from_the_stock_is_blocked() -> None:
    hand = deal(rules(4), ["7s 7h 2d 9c", "Ks Qh 4d 5c"], "Kc", dealer=1)
    for turn in range(20):  # 10 turns a player, each taking the top discard and throwing another card
        seat = hand.turn
        taken = hand.view(None)["discard"][-1]
        act(hand, seat, "draw", "discard")
        act(hand, seat, "discard", next(c for c in hand.view(seat)["hand"] if c != taken))
        assert hand.over == (turn == 19)
    assert hand.outcome["reason"] == "blocked" and hand.deltas == [0, 0]


@pytest.mark.parametrize(("aces", "cards", "where"), [("high", "Ah 2h 3h", "A-2-3"), ("low", "Qh Kh Ah", "Q-K-A"),
                                                      ("either", "Kh Ah 2h", "K-A-2")])
def test_R_RU_ACES_a_run_the_aces_rule_refuses_is_refused_by_that_rule(aces: str, cards: str, where: str) -> None:
    hand = deal(rules(5, aces=aces), [f"{cards} 9c 9d", "2c 5c 9h Td Js"], "4c 4d", dealer=1)
    act(hand, 0, "draw", "stock")
    with pytest.raises(IllegalAction, match=rf"^R-RU-ACES: .*{where}"):
        act(hand, 0, "meld", cards)
    with pytest.raises(IllegalAction, match=r"^R-RU-3: not a meld"):  # no ace: what a meld is
        act(hand, 0, "meld", f"9c 9d {cards.split()[1]}")
