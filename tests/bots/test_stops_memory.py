"""What the stops bots remember between hands: whether an opponent's bets have meant a hand."""

from __future__ import annotations

from test_stops_bots import at_the_poker_round, deal, made_hand

from rummoli.bots.base import RandomBot
from rummoli.bots.driver import play_out, view_for
from rummoli.bots.stops_bots import EasyStopsBot, NormalStopsBot
from rummoli.bots.stops_memory import PRIOR_HONEST, BettingMemory, learns_from
from rummoli.stops import Action, Hand
from rummoli.stops.replay import NAMES

WEAK = "2s 3h 5d 7c 9s Jh 4c 6d 8h Ts"  # no pair, no draw: nobody bets this on its cards
STRONG = "As Ah Ad Ac Ks Kh 2c 3d 4h 5s"


def bet_to_showdown(bettor_cards: str) -> Hand:
    """Seat 1 bets ``bettor_cards`` in the poker round of a Rummoli hand and everybody calls."""
    hand = at_the_poker_round(bettor_cards)
    hand.apply(Action(1, "bet", amount=2))
    while hand.phase == "poker":
        hand.apply(Action(hand.to_act()[0], "call"))
    assert set(view_for(hand, 0)["showdown"]) == {"0", "1", "2", "3"}
    return hand


def finish(hand: Hand, watcher: NormalStopsBot) -> None:
    """Play the hand out with the watcher in seat 0, which is then shown the end."""
    play_out(hand, [watcher, EasyStopsBot(1), EasyStopsBot(2), EasyStopsBot(3)])


def test_bets_are_believed_until_a_showdown_says_otherwise() -> None:
    memory = BettingMemory()
    assert memory.credibility(NAMES[1]) == PRIOR_HONEST
    watcher = NormalStopsBot(7)
    for _ in range(3):
        finish(bet_to_showdown(WEAK), watcher)
    assert watcher.memory.record[NAMES[1]] == [3, 0]
    assert watcher.memory.credibility(NAMES[1]) < 0.2
    # Seats that did not bet teach nothing.
    assert set(watcher.memory.record) == {NAMES[1]}


def test_a_bot_also_counts_what_the_table_has_seen_of_its_own_bets() -> None:
    # Seat 1 is the watcher now: its own weak bets at showdown are what the others have seen of it.
    hands = [bet_to_showdown(WEAK) for _ in range(3)]
    bettor = NormalStopsBot(7)
    for hand in hands:
        play_out(hand, [EasyStopsBot(0), bettor, EasyStopsBot(2), EasyStopsBot(3)])
    assert bettor.memory.record[NAMES[1]] == [3, 0]
    assert bettor.known(view_for(hands[-1], 1)).credibility[1] < 0.2


def test_a_strong_hand_shown_after_a_bet_keeps_the_bettor_believed() -> None:
    watcher = NormalStopsBot(7)
    for _ in range(3):
        finish(bet_to_showdown(STRONG), watcher)
    assert watcher.memory.record[NAMES[1]] == [3, 3]
    assert watcher.memory.credibility(NAMES[1]) > PRIOR_HONEST


def test_a_discredited_bettor_is_called_more_often() -> None:
    # Seat 2 faces seat 1's bet with a middling hand: it rates its chance higher once seat 1's bets
    # have shown nothing three times.
    hand = made_hand("rummoli", 4, 0, {1: WEAK, 2: "9d 9h 4s 6h Kd Qs 7d 3c 2d 8s"})
    hand.apply(Action(0, "keep"))
    while hand.phase == "auction":
        hand.apply(Action(hand.to_act()[0], "pass"))
    hand.apply(Action(1, "bet", amount=5))
    view = view_for(hand, 2)
    fresh, wary = NormalStopsBot(3), NormalStopsBot(3)
    wary.memory.evidence[NAMES[1]] = -6.0  # three weak hands shown after bets
    assert wary.win_chance(dict(view)) > fresh.win_chance(dict(view)) + 0.05


def test_random_bettors_lose_their_credit_over_an_evening() -> None:
    """Over real hands against a random bot, the counter learns its bets mean little, and an easy
    player's (who bets only on its cards) much more."""

    watcher = NormalStopsBot(1)
    for i in range(60):
        hand = deal("rummoli", 3, 500 + i)
        play_out(hand, [watcher, RandomBot(i), EasyStopsBot(i)])
    memory = watcher.memory
    assert memory.record[NAMES[1]][0] >= 5
    assert memory.credibility(NAMES[1]) < 0.3 < memory.credibility(NAMES[2])


def test_rollouts_with_wild_bettors_play_legal_hands_to_the_end() -> None:
    """The search's model of a discredited bettor (uniform over the legal betting actions) keeps to the
    rules: every hand ends with every chip accounted for."""
    import random

    from rummoli.bots.stops_policy import table_for
    from rummoli.bots.stops_search import rollout

    t = table_for("rummoli")
    amounts = set()
    for i in range(40):
        hand = deal("rummoli", 4, 900 + i)
        hand.apply(Action(hand.to_act()[0], "keep"))
        while hand.phase == "auction":
            hand.apply(Action(hand.to_act()[0], "pass"))
        assert hand.phase == "poker"
        total = sum(hand.chips) + sum(hand.pots)
        rollout(hand, t, wild=0b1111, rng=random.Random(i))
        assert hand.over and sum(hand.chips) + sum(hand.pots) == total
        amounts |= {e["amount"] for e in hand.events() if e.get("action") in ("bet", "raise")}
    assert len(amounts) > 3  # the wild bets use the whole range of amounts


def test_the_fast_loop_shows_a_hand_only_when_the_memory_could_learn_and_remembers_the_same() -> None:
    # show_hand_over(fast=True) asks learns_from on the view without history and skips the rest: the bots end
    # with the same memory and generators as when every seat is shown its whole view
    skipped = shown = 0
    for seed in range(12):
        players = 3 + seed % 4
        slow = [NormalStopsBot(seed * 10 + s) for s in range(players)]
        fast = [NormalStopsBot(seed * 10 + s) for s in range(players)]
        for k in range(3):
            for bots, quick in ((slow, False), (fast, True)):
                hand = deal("rummoli", players, seed * 7 + k)
                play_out(hand, bots, fast=quick)
            if learns_from(hand.view(0)):
                shown += 1
            else:
                skipped += 1
        assert [b.memory.to_json() for b in slow] == [b.memory.to_json() for b in fast]
        assert [b.rng.getstate() for b in slow] == [b.rng.getstate() for b in fast]
    assert skipped and shown
