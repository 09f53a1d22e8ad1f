"""Ante, deal, widow, poker round, board options and views (docs/rules.md §2.1, §2.2, §2.5, R-VIEW-1)."""

from __future__ import annotations

import pytest
from stops_helpers import act, chips_to, make_deal, make_hand, paid, rules, visible_cards

from rummoli.cards import CARDS, parse_cards
from rummoli.errors import IllegalAction
from rummoli.poker import evaluate
from rummoli.stops import AmountRange, Hand, load_ruleset
from rummoli.stops.hand import deal_sizes
from rummoli.stops.words import prompt

WIDOW = {"widow": "swap_or_auction"}
POKER = {"poker": "before_play", "opening_lead": "poker_winner"}


def test_R_BOARD_1_each_pot_has_a_name_an_ante_and_one_way_to_be_won() -> None:
    board = load_ruleset("rummoli").board
    assert {p.kind for p in board.pots} == {"centre", "poker", "card", "combo"}
    assert all(p.name and p.ante == 1 for p in board.pots)
    any_suit = board.pot("7-8-9")
    assert any_suit.suit is None and any_suit.ranks == (5, 6, 7)


def test_R_BOARD_2_built_in_boards() -> None:
    def ids(name: str) -> list[tuple[str, int]]:
        return [(p.id, p.ante) for p in load_ruleset(name).board.pots]
    assert ids("rummoli") == [(i, 1) for i in
                              ["centre", "poker", "Ts", "Jd", "Qc", "Kh", "As", "Kd-Ad", "7-8-9"]]
    assert ids("rummoli-tripoley") == [(i, 1) for i in
                                       ["centre", "poker", "Ah", "Kh", "Qh", "Jh", "Th", "Qh-Kh", "8h-9h-Th"]]
    assert ids("michigan") == [("Ah", 1), ("Kc", 1), ("Qd", 1), ("Js", 1), ("centre", 2)]


def test_R_BOARD_3_chips_nobody_wins_stay_and_carry() -> None:
    h = make_hand(rules(), hands={1: "2s 3s"}, widow="Ts 4s", pots={"Ts": 3})
    while not h.over:
        h.apply(h.legal_actions()[0])
    assert h.pot_balances()["Ts"] == 3 + 4
    assert h.record()["pots"] == {"Ts": 3}


def test_R_ANTE_1_every_seat_pays_each_pot_and_one_who_cannot_is_refused() -> None:
    h = make_hand(rules(poker="after_play"))
    ante = [e for e in h.events() if e["type"] == "chips" and e["reason"] == "ante"]
    assert len(ante) == 4 * 9 and {e["amount"] for e in ante} == {1}
    assert all(paid(ante, f"seat:{s}", "ante") == 9 for s in range(4))
    with pytest.raises(IllegalAction, match="R-ANTE-1"):
        make_hand(rules(poker="after_play"), chips=[100, 8, 100, 100])


def test_R_DEAL_1_sizes_differ_by_at_most_one_and_a_wrong_deal_is_refused() -> None:
    for n in range(2, 9):
        for dealer in range(n):
            sizes, widow = deal_sizes(n, dealer)
            assert sum(sizes) + widow == 52 and max(*sizes, widow) - min(*sizes, widow) <= 1
            assert sizes[(dealer + 1) % n] == max(sizes)
    hands, widow = make_deal(4, 0)
    hands[0].append(widow.pop())
    with pytest.raises(IllegalAction, match="R-DEAL-1"):
        Hand(rules(), ["a", "b", "c", "d"], [100] * 4, {}, 0, hands, widow)


def test_R_WIDOW_1_dealer_swaps_unseen_and_keeps_knowing_the_given_up_hand() -> None:
    h = make_hand(rules(**WIDOW))
    assert h.to_act() == [0] and {a.kind for a in h.legal_actions()} == {"swap", "keep"}
    old = set(h.view(0)["hand"])
    widow = {str(c) for c in h.dealt_widow}
    h.apply(act(0, "swap"))
    assert set(h.view(0)["hand"]) == widow
    assert h.view(0)["given_up"] == {"cards": sorted(old, key=lambda c: parse_cards(c)[0].index),
                                     "out_of_play": True}
    played = {str(c) for _, c in [(s, CARDS[i]) for s, i in h.played()]}
    for seat in (1, 2, 3, None):
        assert "given_up" not in h.view(seat)
        assert visible_cards(h.view(seat)) & old <= played


def test_R_WIDOW_1_the_hand_says_which_cards_are_out_of_play_and_no_view_holds_them() -> None:
    """The engine says what no seat holds (an open replay asks it, never the hand's fields): the widow as dealt,
    then the hand the swapper gave up, with its seat; no seat's view says it but the swapper's ``given_up``."""
    h = make_hand(rules(**WIDOW))
    widow = [str(c) for c in h.dealt_widow]
    assert h.out_of_play() == {"kind": "widow", "cards": widow, "given_up_by": None}
    old = h.view(0)["hand"]
    h.apply(act(0, "swap"))
    assert h.out_of_play() == {"kind": "widow", "cards": old, "given_up_by": 0}
    assert h.view(0)["given_up"]["cards"] == old
    for seat in (1, 2, 3, None):
        assert "out_of_play" not in h.view(seat)


def test_R_WIDOW_1_auction_from_dealers_left_higher_bids_final_passes_winner_pays_dealer() -> None:
    h = make_hand(rules(**WIDOW))
    h.apply(act(0, "keep"))
    assert h.to_act() == [1]
    h.apply(act(1, "bid", amount=2))
    with pytest.raises(IllegalAction, match="R-WIDOW-1"):
        h.verify(act(2, "bid", amount=2))
    with pytest.raises(IllegalAction, match="R-WIDOW-1"):
        h.verify(act(2, "bid", amount=93))  # more than seat 2 holds after the ante of 8
    h.apply(act(2, "bid", amount=5))
    h.apply(act(3, "pass"))
    h.apply(act(1, "pass"))
    assert h.swapped == 2
    assert {"type": "chips", "from": "seat:2", "to": "seat:0", "amount": 5, "reason": "widow_bid"} in h.events()
    assert h.play_start[2] == sum(c.bit for c in h.dealt_widow)


def test_R_WIDOW_1_nobody_bids_nobody_swaps() -> None:
    h = make_hand(rules(**WIDOW))
    h.apply(act(0, "keep"))
    for seat in (1, 2, 3):
        h.apply(act(seat, "pass"))
    assert h.swapped == -1 and h.phase in ("play", "over")
    assert paid(h.events(), "seat:1", "widow_bid") == 0


def raises(h: Hand) -> tuple[int, int] | None:
    """The range of the raise on offer (one legal action for every amount), if any."""
    ranges = [(a.min, a.max) for a in h.legal_actions() if isinstance(a, AmountRange) and a.kind == "raise"]
    assert len(ranges) <= 1
    return ranges[0] if ranges else None


def test_R_POKER_1_bets_capped_by_max_bet_and_the_smallest_stack() -> None:
    h = make_hand(rules(**POKER), chips=[100, 100, 14, 100])  # seat 2 has 5 after the ante
    bets = [(a.min, a.max) for a in h.legal_actions() if isinstance(a, AmountRange) and a.kind == "bet"]
    assert bets == [(1, 5)]
    with pytest.raises(IllegalAction, match="R-POKER-1"):
        h.verify(act(1, "bet", amount=6))
    h.apply(act(1, "bet", amount=3))
    assert raises(h) == (1, 2)


def test_R_POKER_1_max_raises_and_opening_bet_is_not_a_raise() -> None:
    h = make_hand(rules(**POKER, max_raises=1, max_bet=4))
    h.apply(act(1, "bet", amount=4))
    assert raises(h) == (1, 4)
    h.apply(act(2, "raise", amount=2))
    assert {a.kind for a in h.legal_actions()} == {"call", "fold"}


def test_R_POKER_1_last_player_not_folded_takes_the_pot_and_everyone_keeps_their_cards() -> None:
    h = make_hand(rules(**POKER))
    sizes = [m.bit_count() for m in h.hands]
    h.apply(act(1, "bet", amount=10))
    for seat in (2, 3, 0):
        h.apply(act(seat, "fold"))
    assert h.poker_winners == [1] and chips_to(h.events(), "seat:1", "poker") == 4 + 10
    assert not [e for e in h.events() if e["type"] == "showdown"]
    assert sizes == [m.bit_count() for m in h.play_start]


def test_R_POKER_1_after_play_compares_the_hands_held_when_play_began() -> None:
    h = make_hand(rules(poker="after_play"), hands={3: "Ts Js Qs Ks As"})
    while not h.over:
        h.apply(h.legal_actions()[0])
    assert h.poker_winners == [3]
    assert [e["type"] for e in h.events()][-2:] == ["chips", "over"]


def test_R_POKER_2_ties_split_and_the_odd_chip_stays() -> None:
    h = make_hand(rules(**POKER), hands={2: "9h Th Jh Qh Kh", 3: "9d Td Jd Qd Kd"}, pots={"poker": 3})
    for seat in (1, 2, 3, 0):
        h.apply(act(seat, "check"))
    assert chips_to(h.events(), "seat:2", "poker") == 3 == chips_to(h.events(), "seat:3", "poker")
    assert h.pot_balances()["poker"] == 1


def test_R_POKER_3_showdown_shows_only_the_best_five_of_players_still_in() -> None:
    h = make_hand(rules(**POKER), hands={3: "Ts Js Qs Ks As"})
    h.apply(act(1, "check"))
    h.apply(act(2, "bet", amount=1))
    h.apply(act(3, "call"))
    h.apply(act(0, "fold"))
    h.apply(act(1, "fold"))
    shown = {e["seat"]: e["cards"] for e in h.events() if e["type"] == "showdown"}
    assert set(shown) == {2, 3} and all(len(c) == 5 for c in shown.values())
    assert shown[3] == ["Ts", "Js", "Qs", "Ks", "As"]
    assert h.view(None)["showdown"] == {"2": shown[2], "3": shown[3]}


def test_R_POKER_3_each_seat_shown_is_told_in_the_words_the_result_names_its_five() -> None:
    """Two ace-high flushes at one showdown: each seat's line names its five as the hand's result does, the
    flushes down to the card that decides ("flush, ace-king high"), the other hands as ever."""
    h = make_hand(rules(**POKER), players=7, hands={1: "Ad Kd 9d 4d 3d 7c 8h", 2: "As Qs Ts 9s 6s 2h 3c",
                                                    3: "Kh Kc 7h 5c 2d Jc 4h"})
    for seat in (1, 2, 3, 4, 5, 6, 0):
        h.apply(act(seat, "check"))
    while not h.over:
        h.apply(h.legal_actions()[0])
    lines = {e["seat"]: e["text"] for e in h.events_since(0, None) if e["type"] == "showdown"}
    named = {shown["seat"]: shown["name"] for shown in h.result()["showdown"]}
    assert (lines[1], lines[2], lines[3]) == ("Bob shows 3♦ 4♦ 9♦ K♦ A♦: flush, ace-king high.",
                                              "Cy shows 6♠ 9♠ 10♠ Q♠ A♠: flush, ace-queen high.",
                                              "Dee shows 7♥ K♥ 5♣ J♣ K♣: pair of kings.")
    assert sorted(lines) == sorted(named) == list(range(7))
    assert all(lines[seat].endswith(f": {name[0].lower()}{name[1:]}.") for seat, name in named.items())


def test_R_POKER_4_standard_ranks_wheel_lowest_no_wrap() -> None:
    wheel = evaluate("As 2d 3c 4h 5s")
    assert wheel.category == "straight" and wheel < evaluate("2d 3c 4h 5s 6d")
    assert evaluate("Qs Kd Ac 2h 3s").category == "high card"
    assert evaluate("2h 3h 4h 5h 7h 9s 9d") < evaluate("Ts Td Tc 9h 9c 2s 3d")


def test_pay_on_hold_pays_holders_before_the_widow_and_never_in_play() -> None:
    h = make_hand(rules(pay="on_hold", **WIDOW), hands={2: "Ts Kd Ad", 3: "7h 8h 9h"}, widow="As")
    events = h.events()
    assert {"type": "chips", "from": "pot:Ts", "to": "seat:2", "amount": 4, "reason": "on_hold"} in events
    assert {"type": "chips", "from": "pot:Kd-Ad", "to": "seat:2", "amount": 4, "reason": "on_hold"} in events
    assert {"type": "chips", "from": "pot:7-8-9", "to": "seat:3", "amount": 4, "reason": "on_hold"} in events
    assert h.pot_balances()["As"] == 4 and h.phase == "widow"
    while not h.over:
        h.apply(h.legal_actions()[0])
    assert not [e for e in h.events() if e["type"] == "chips" and e["reason"] == "pay_card"]
    # In words, a pot of one card is held by "its card", a pot of several by "its cards".
    said = [w["text"] for w in h.result()["pots_won"] if w["why"] == "held"]
    assert any(t.endswith("for holding its card.") and "Ten of spades" in t for t in said), said
    assert any(t.endswith("for holding its cards.") and "7-8-9" in t for t in said), said
    told = [e.get("text", "") for e in h.events_since(0, None) if e.get("reason") == "on_hold"]
    assert any("Ten of spades pot for holding its card:" in t for t in told), told


def test_widow_bar_pay_card_holders_may_not_swap_or_bid() -> None:
    h = make_hand(rules(widow_bar="pay_card_holders", **WIDOW), hands={0: "Ts", 2: "Jd"},
                  fill="2s 3s 4s 5s 6s 7s 8s 9s 2h 3h 4h 5h 6h 7h 8h 9h 2d 3d 4d 5d 6d 7d 8d 9d 2c 3c")
    assert h.phase == "auction"  # the dealer holds T♠: keeping was the only choice, made at once
    assert {"seat": 0, "action": "keep", "forced": True} in h.view(0, history=True)["actions"]
    h.apply(act(1, "pass"))
    # seat 2 holds J♦: pass is forced, so the auction is already over for seat 2
    assert {"seat": 2, "action": "pass", "forced": True} in h.view(2, history=True)["actions"]
    assert {"seat": 2, "action": "pass", "forced": False} in h.view(None, history=True)["actions"]  # R-VIEW-1


def test_dealer_ante_double() -> None:
    h = make_hand(rules(dealer_ante="double"), dealer=1, hands={2: "2c"})
    assert paid(h.events(), "seat:1", "ante") == 16 and paid(h.events(), "seat:0", "ante") == 8


def test_R_VIEW_1_views_hold_own_hand_played_cards_chips_and_history_only() -> None:
    h = make_hand(rules(**WIDOW, **POKER))
    h.apply(act(0, "keep"))
    h.apply(act(1, "bid", amount=1))
    for seat in (2, 3):
        h.apply(act(seat, "pass"))
    spectator = h.view(None, history=True)
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    played = {str(CARDS[i]) for _, i in h.played()}
    for seat in range(4):
        v = h.view(seat, history=True)
        own = {str(c) for c in CARDS if h.hands[seat] >> c.index & 1}
        given = {str(c) for c in CARDS if h.given_up >> c.index & 1} if seat == h.swapped else set()
        assert set(v["hand"]) == own
        assert visible_cards(v) <= own | played | given
        assert v["chips"] == h.chips and v["actions"] == spectator["actions"]
    assert h.view(1)["given_up"]["out_of_play"] is True


def test_R_ANTE_1_no_ante_into_a_poker_pot_when_the_ruleset_plays_no_poker() -> None:
    # poker = none: nobody can ever win the poker pot in a hand, so a careful table does not feed it.
    h = make_hand(rules(poker="none"), hands={1: "2c"}, pots={"poker": 3})
    assert chips_to(h.events(), "pot:poker") == 0 and h.pot_balances()["poker"] == 3
    assert all(paid(h.events(), f"seat:{s}", "ante") == 8 for s in range(4))
    assert {p["id"]: p["ante"] for p in h.view(None)["board"]}["poker"] == 0
    before_play = make_hand(rules(poker="before_play"))
    assert chips_to(before_play.events(), "pot:poker", "ante") == 4
    after_play = make_hand(rules(poker="after_play"))
    assert chips_to(after_play.events(), "pot:poker", "ante") == 4


def test_R_VIEW_1_a_forced_choice_does_not_tell_the_table_why_it_was_forced() -> None:
    # The dealer holds T♠ under widow_bar: keep is made for them. Marked forced for everyone, it
    # would tell the table the dealer holds a pay card; a lone lowest card would tell that the
    # leader holds no other card of that rank. Plays in a run are forced for everyone alike.
    h = make_hand(rules(widow_bar="pay_card_holders", **WIDOW), hands={0: "Ts", 1: "2c 3c"})
    while h.phase == "auction":
        h.apply(act(h.to_act()[0], "pass"))
    lead = {"seat": 1, "action": "lead", "card": "2c"}
    assert {**lead, "forced": True} in h.view(1, history=True)["actions"]
    assert {"seat": 0, "action": "keep", "forced": True} in h.view(0, history=True)["actions"]
    for seat in (None, 1, 2, 3):
        assert {"seat": 0, "action": "keep", "forced": False} in h.view(seat, history=True)["actions"]
        events = [{k: v for k, v in e.items() if k not in ("seq", "state", "text")} for e in h.events_since(0, seat)]
        assert {"type": "action", "seat": 0, "action": "keep", "forced": False} in events
    for seat in (None, 0, 2):
        assert {**lead, "forced": False} in h.view(seat, history=True)["actions"]
    assert {"seat": 1, "action": "play", "card": "3c", "forced": True} in h.view(2, history=True)["actions"]
    assert {"type": "action", "seat": 0, "action": "keep", "forced": True} in h.events()  # full record


def test_R_WIDOW_1_the_dealer_never_bids_and_the_auction_goes_round_from_the_dealers_left() -> None:
    h = make_hand(rules(**WIDOW), dealer=2)
    h.apply(act(2, "keep"))
    assert h.to_act() == [3]
    with pytest.raises(IllegalAction, match="R-WIDOW-1"):
        h.verify(act(2, "bid", amount=1))
    h.apply(act(3, "bid", amount=1))
    h.apply(act(0, "pass"))
    assert h.to_act() == [1]
    h.apply(act(1, "bid", amount=2))
    assert h.to_act() == [3]  # round again, skipping seat 0 (a pass is final) and the dealer
    h.apply(act(3, "pass"))
    assert h.swapped == 1 and paid(h.events(), "seat:1", "widow_bid") == 2


def test_R_POKER_1_cap_rises_when_the_smallest_stack_folds_and_the_round_ends_once_all_match() -> None:
    h = make_hand(rules(**POKER), chips=[100, 100, 14, 100])  # seat 2 holds 5 after the ante
    h.apply(act(1, "bet", amount=3))
    assert raises(h) == (1, 2)
    h.apply(act(2, "fold"))
    # Among the players still in, the smallest stack at the start of the round is now 91.
    assert raises(h) == (1, 10)
    h.apply(act(3, "raise", amount=10))
    h.apply(act(0, "call"))
    assert h.phase == "poker" and h.to_act() == [1]  # seat 1 has not matched the raise yet
    h.apply(act(1, "call"))
    assert h.phase != "poker" and set(h.showdown) == {0, 1, 3}
    assert chips_to(h.events(), "pot:poker", "bet") == 3 * 13


def test_widow_bar_the_auction_prompt_gives_the_pay_card_as_the_reason_to_pass() -> None:
    """A seat barred by a pay card may only pass: its words say why (not "you cannot outbid it", with no bid made);
    a seat whose chips cannot top the high bid is told that. The view is the one a table shows while the forced
    pass waits its turn (the engine makes it at once)."""
    h = make_hand(rules(widow_bar="pay_card_holders", **WIDOW), hands={0: "Ts", 2: "Jd"},
                  fill="2s 3s 4s 5s 6s 7s 8s 9s 2h 3h 4h 5h 6h 7h 8h 9h 2d 3d 4d 5d 6d 7d 8d 9d 2c 3c")
    waiting = {**h.view(2, guide=True), "to_act": [2], "legal_actions": [{"seat": 2, "action": "pass"}]}
    assert "no bid yet. You hold a pay card, so you may not bid: pass." in prompt(waiting)
    poor = {**waiting, "chips": [0, 0, 5, 0], "auction": {"bid": 5, "bidder": 1}}
    assert "high bid 5 by" in prompt(poor) and "You cannot outbid it: pass." in prompt(poor)


def test_a_hands_best_five_is_evaluated_once_and_each_view_gets_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guide's best five (shown in every state of the widow, auction and poker phases) is the evaluator's
    answer, evaluated once per hand of cards however often it is shown; each caller gets its own dictionary."""
    import random

    from rummoli.stops import words

    calls: list[int] = []

    def counted(cards: list[object]) -> object:
        calls.append(len(cards))
        return evaluate(cards)  # type: ignore[arg-type]

    monkeypatch.setattr(words, "evaluate", counted)
    words.best_five_of.cache_clear()
    rng = random.Random(11)
    for _ in range(50):
        hand = [str(c) for c in rng.sample(CARDS, rng.randint(5, 13))]
        first, again = words.best_five(hand), words.best_five(list(hand))
        value = evaluate(parse_cards(" ".join(hand)))
        named = value.describe()
        assert first == again == {"cards": [str(c) for c in value.cards], "name": named[0].upper() + named[1:]}
        assert first is not again and first is not None and again is not None and first["cards"] is not again["cards"]
        first["cards"].clear()  # a view that changed its own copy changes nobody else's
        assert words.best_five(hand) == again
    assert len(calls) == 50
    assert words.best_five(["As", "Kd"]) is None
