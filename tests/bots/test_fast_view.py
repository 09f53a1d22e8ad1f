"""The copies of views bots get (``driver.view_for`` everywhere, ``driver.fast_view_for`` in the simulation lab)
are exactly the JSON round trip's data, share nothing with the engine, and leave out the history only for a bot
that never reads it."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rummoli.bots.base import Bot, RandomBot, make_bot
from rummoli.bots.driver import fast_view_for, play_out, view_for
from rummoli.bots.stops_bots import EasyStopsBot, HardStopsBot, NormalStopsBot
from rummoli.cards import CARDS
from rummoli.dealing import deal_with_widow
from rummoli.games import family_of
from rummoli.records import builtin_names
from rummoli.rummy import RummyGame
from rummoli.stops import Action, Hand
from rummoli.stops.replay import NAMES
from rummoli.streams import Marked
from rummoli.table import Seat, Table


def stops_hand(ruleset: str, seed: int) -> Hand:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    hands, widow = deal_with_widow(deck, 4, dealer)
    return Hand(ruleset, NAMES[:4], [100] * 4, {}, dealer, hands, widow)


def json_copy(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(data))
    return out


def walk(state: Any, bots: list[Bot], seen: list[int]) -> None:
    """Play ``state`` out; at every decision compare both copies, with and without the history."""

    def check(seat: int, _choice: Any) -> None:
        if state.over:
            return
        for s in range(len(bots)):
            whole = json_copy(state.view(s, history=True))
            assert fast_view_for(state, s) == whole
            assert fast_view_for(state, s, history=False) == json_copy(state.view(s))
            # uncopied (a bot that never writes): the history is the stream's own events, and the actions list is
            # built on the one made at this seat's last view; still the same data
            assert fast_view_for(state, s, copy=False) == whole
            # for a bot that reads no actions (Bot.reads_actions): the same view less them, keys in the same order
            less = fast_view_for(state, s, copy=False, actions=False)
            assert list(less) == [key for key in whole if key != "actions" or not isinstance(state, Marked)]
            assert less == {key: value for key, value in whole.items() if key in less}
        seen[0] += 1

    play_out(state, bots, on_action=check)
    for s in range(len(bots)):
        assert fast_view_for(state, s) == json_copy(state.view(s, history=True))


@pytest.mark.parametrize("ruleset", ["rummoli", "michigan"])
def test_stops_views_copy_exactly(ruleset: str) -> None:
    seen = [0]
    for seed in range(3):
        hand = stops_hand(ruleset, seed)
        walk(hand, [NormalStopsBot(seed), EasyStopsBot(seed), RandomBot(seed), NormalStopsBot(seed + 9)], seen)
    assert seen[0] > 20


@pytest.mark.parametrize("ruleset", ["rummy", "gin-rummy", "500-rum"])
def test_rummy_views_copy_exactly(ruleset: str) -> None:
    seen = [0]
    for seed in range(2):
        game = RummyGame(ruleset, ["Ann", "Bob"], seed=seed)
        hand = game.deal()
        walk(hand, [make_bot("rummy", "normal", seed=seed), make_bot("rummy", "easy", seed=seed + 1)], seen)
    assert seen[0] > 10


@pytest.mark.parametrize("ruleset", builtin_names())
def test_every_rulesets_bot_views_are_what_a_json_round_trip_gives(ruleset: str) -> None:
    """``view_for`` copies by pickling: at every decision of an evening (and each hand's end), every seat's copy
    is exactly the JSON round trip of its view: no tuple, no number as a key, nothing JSON would change."""
    players = 2 if ruleset == "gin-rummy" else 4
    table = Table(ruleset, [Seat(f"P{i}", ["random", "easy", "normal", "random"][i]) for i in range(players)],
                  hands=2, seed=f"copies {ruleset}")
    checked = 0
    while not table.over:
        hand = table.in_play()
        for seat in range(len(table.hand_seats)):
            assert view_for(hand, seat) == json_copy(hand.view(seat, history=True)), (ruleset, seat)
            checked += 1
        if table.hand_over:
            table.next_hand()
        else:
            assert table.step()
    assert checked > 10


def played_into(seed: int, moves: int) -> Hand:
    """A Rummoli hand ``moves`` decisions of normal bots in."""
    hand = stops_hand("rummoli", seed)
    bots = [NormalStopsBot(s) for s in range(4)]
    for _ in range(moves):
        seat = hand.to_act()[0]
        hand.apply(Action.from_json(bots[seat].choose(view_for(hand, seat))))
    return hand


def test_fast_view_shares_nothing_with_the_engine() -> None:
    hand = played_into(5, 6)
    seat = hand.to_act()[0]
    before = view_for(hand, seat)
    mine = fast_view_for(hand, seat)

    def spoil(data: Any) -> None:  # a bot that writes over everything it was given
        if isinstance(data, dict):
            for key in list(data):
                spoil(data[key])
                data[key] = "spoilt"
        elif isinstance(data, list):
            for item in data:
                spoil(item)
            data[:] = ["spoilt"]

    spoil(mine)
    assert view_for(hand, seat) == before


def test_only_a_bot_that_never_reads_the_past_goes_without_it() -> None:
    assert EasyStopsBot.reads_history is False
    assert NormalStopsBot.reads_history is True
    assert make_bot("stops", "hard").reads_history is True
    assert make_bot("rummy", "easy").reads_history is True  # the Rummy levels read the public actions


def test_only_a_bot_that_never_reads_the_actions_goes_without_them() -> None:
    """The normal stops level reads its history's events, never its ``actions`` (its view without them plays the
    same: the lab's reports, tests/sim, are the same byte for byte); the hard one's search replays them."""
    assert NormalStopsBot.reads_actions is False
    assert make_bot("stops", "hard").reads_actions is True
    assert make_bot("stops", "easy").reads_actions is True  # reads no history at all: never asked
    assert make_bot("rummy", "normal").reads_actions is True
    for ruleset in ("rummoli", "michigan", "tripoley"):
        for seed in range(3):
            hand = stops_hand(ruleset, seed)
            bots = [NormalStopsBot(seed + s) for s in range(4)]
            while not hand.over:
                seat = hand.to_act()[0]
                twin = copy.deepcopy(bots[seat])  # the same generator and memory, told nothing
                view = hand.view(seat, history=True)
                choice = bots[seat].choose(view)
                assert twin.choose({k: v for k, v in json_copy(view).items() if k != "actions"}) == choice
                hand.apply(Action.from_json(choice))


def test_a_stops_hands_seat_actions_are_its_history_views_actions() -> None:
    """What the fast path shows a bot that learns from a hand's actions only (Bot.observes_events) at the end: the
    actions its history view would hold, forced flags as its seat sees them, made without the events; and what it
    learns from them is what the whole view taught."""
    assert NormalStopsBot.observes_events is False and make_bot("stops", "hard").observes_events is False
    assert Bot.observes_events is True
    for ruleset in ("rummoli", "michigan", "tripoley", "rummoli-tripoley"):
        for seed in range(4):
            hand = stops_hand(ruleset, seed)
            bots: list[Bot] = [NormalStopsBot(seed + s) for s in range(4)]
            while not hand.over:
                for seat in (None, 0, 1, 2, 3):
                    whole = json_copy(hand.view(seat, history=True))["actions"]
                    assert hand.seat_actions(seat) == hand.seat_actions(seat, shared=True) == whole
                seat = hand.to_act()[0]
                hand.apply(Action.from_json(bots[seat].choose(hand.view(seat, history=True))))
            for seat in range(4):
                whole = json_copy(hand.view(seat, history=True))
                assert hand.seat_actions(seat) == whole["actions"]
                learnt, fast = NormalStopsBot(seed), NormalStopsBot(seed)
                learnt.observe(whole)
                fast.observe({**hand.view(seat), "actions": hand.seat_actions(seat)})
                assert fast.memory.to_json() == learnt.memory.to_json()


def test_the_stops_levels_never_write_into_their_views() -> None:
    """What lets the fast path hand them the engine's view uncopied: at every decision of several hands,
    and at each hand's end, the view is the same after the bot has read it as before."""
    for ruleset in ("rummoli", "michigan", "tripoley"):
        for seed in range(3):
            hand = stops_hand(ruleset, seed)
            bots: list[Bot] = [NormalStopsBot(seed), EasyStopsBot(seed), HardStopsBot(seed, samples=3),
                               NormalStopsBot(seed + 9)]
            assert all(not bot.writes_views for bot in bots)
            while not hand.over:
                seat = hand.to_act()[0]
                view = hand.view(seat, history=True)
                before = json_copy(view)
                choice = bots[seat].choose(view)
                assert view == before
                hand.apply(Action.from_json(choice))
            for seat, bot in enumerate(bots):
                view = hand.view(seat, history=True)
                before = json_copy(view)
                bot.observe(view)
                assert view == before


def test_an_uncopied_views_history_is_the_streams_own_and_the_copied_ones_are_not() -> None:
    """What makes the uncopied view cheap (a bot's history is the whole hand: copying it at every decision cost
    the square of the hand's length) and what keeps the copies safe to spoil."""
    hand = played_into(7, 8)
    seat = hand.to_act()[0]
    shared, again = fast_view_for(hand, seat, copy=False), fast_view_for(hand, seat, copy=False)
    assert shared["events"] and all(a is b for a, b in zip(shared["events"], again["events"], strict=True))
    assert shared["actions"] == again["actions"] and shared["actions"] is not again["actions"]
    copied = hand.view(seat, history=True)
    assert all(a is not b for a, b in zip(copied["events"], shared["events"], strict=True))


class WordyBot(RandomBot):
    """A bot that says it reads the events' sentences."""

    reads_words = True


@pytest.mark.parametrize(("ruleset", "players"), [("rummoli", 4), ("gin-rummy", 2), ("poch", 3)])
def test_a_lab_table_leaves_out_the_words_only_when_no_bot_reads_them(ruleset: str, players: int) -> None:
    """The lab's table (``fast``) has its hands leave the events' sentences out when every bot at the hand never
    reads them (Bot.reads_words): the same choices and records as a table that words them, for each family; a
    bot that reads them gets them."""
    def evening(fast: bool, levels: list[str]) -> tuple[Table, list[list[Any]]]:
        table = Table(ruleset, [Seat(f"P{i}", levels[i]) for i in range(players)], hands=2, seed=f"words {ruleset}",
                      fast=fast)
        texts = []
        while not table.over:
            if table.hand_over:
                table.next_hand()
            else:
                assert table.step()
            hand = table.in_play()
            texts.append([e.get("text") for s in range(players) for e in hand.events_since(0, s)])
        return table, texts

    levels = ["normal", "easy", "random", "normal"][:players]
    assert not any(make_bot(family_of(ruleset).name, level).reads_words for level in levels)
    worded, worded_texts = evening(False, levels)
    hushed, hushed_texts = evening(True, levels)
    assert [r for r in hushed.records] == [r for r in worded.records]
    assert hushed.standings() == worded.standings()
    said = [t for step in worded_texts for t in step if t]
    assert said, "the ordinary table words its events"
    # a hand's first events may be read (and worded) while it is dealt, before the table hushes it
    assert sum(1 for step in hushed_texts for t in step if t) < len(said) / 10
    wordy = Table(ruleset, [Seat(f"P{i}", levels[i]) for i in range(players)], hands=1, seed=f"words {ruleset}",
                  fast=True, deal=False)
    wordy.bots[0] = WordyBot(1)
    wordy.next_hand()
    while not wordy.hand_over:
        assert wordy.step()
    assert any(e.get("text") for e in wordy.in_play().events_since(0, 0)[1:])
