"""Everything a Rummy hand shows, held to what it showed before the public API was made faster (issue 34), and
the engine's shortcuts held to the long way round.

The shortcuts: ``legal_actions()`` reads the moves of the state mark ``apply()`` took, and lists one shared
frozen Action per move; an action it listed is not checked for shape again; an actor's own event is rendered a
second time only when it reads otherwise (forced, drawn blind); an event's legal actions are made for it; Gin's
knock discards are counted by the compiled search.  A change to any of them that changes one byte a player,
a record or a replay sees fails here.

``SNAPSHOT`` holds, for seeded hands of every kind of Rummy read in three ways (each seat reading its own
moves' events as ``apply()`` returns them, a table reading every seat's events and views after every move, and
reads at random: views with history and guide, events from any point, a clone played on, the stream forgotten),
a digest of each part of what they showed: the events ``apply()`` returned with the legal actions listed, what
was read in the middle of the hand, the record and full history at the end, and every seat's view and events at
the end, taken from the engine without the shortcuts (commit 264aefa).  A deliberate change to what a hand
shows (a new word in a sentence, a new key) changes it: print ``outputs()`` for the failing hand, check the
change is the one meant, and take the digests again.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from rummoli.cards import CARDS
from rummoli.errors import IllegalAction
from rummoli.rummy import Action, RummyHand, deal_cards, load_ruleset
from rummoli.rummy.base import Move

SHUFFLED: dict[str, Any] = {"game": "rummy", "name": "shuffled", "stock_end": "shuffle_once"}
RULESETS: dict[str, Any] = {name: name for name in ("rummy", "gin-rummy", "knock-rummy", "500-rum",
                                                    "boathouse-rummy", "rummy-aces-high")} | {"shuffled": SHUFFLED}
PARTS = ("apply", "reads", "record", "final")


def digest(parts: list[Any]) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:16]


def listed(hand: RummyHand) -> list[Any]:
    """The legal actions as text and JSON, checked against actions made afresh from freshly listed moves."""
    actions = hand.legal_actions()
    fresh = [hand.to_action(hand.turn, move) for move in hand.moves()]
    assert actions == fresh and [a.to_json() for a in actions] == [hand.move_json(hand.turn, m) for m in hand.moves()]
    assert hand.legal_actions(hand.turn) == actions and hand.legal_actions((hand.turn + 1) % hand.n) == []
    return [[str(a) for a in actions], [a.to_json() for a in actions]]


def play(spec: Any, seed: int) -> tuple[dict[str, list[Any]], RummyHand]:
    """One seeded hand of ``spec``, read in the way ``seed`` picks; what it showed, part by part."""
    rules = load_ruleset(spec)
    rng = random.Random(seed * 7919 + len(rules.name))
    players = 2 if rules.style == "gin" else min(2 + seed % 3, rules.max_players)
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = seed % players
    hands, stock = deal_cards(rules, players, dealer, deck)
    hand = RummyHand(rules, [f"P{i}" for i in range(players)], [seed, 0] + [3] * (players - 2), dealer, hands, stock,
                     rng=random.Random(seed))
    shown: dict[str, list[Any]] = {part: [] for part in PARTS}
    pattern = seed % 3
    seen = [0] * (players + 1)
    twin = None
    while not hand.over:
        shown["apply"].append(listed(hand))
        actions = hand.legal_actions()
        choice = actions[rng.randrange(len(actions))]
        if rng.random() < 0.05 and hand.stock:  # a card nobody holds
            with pytest.raises(IllegalAction) as refused:
                hand.apply(Action(hand.turn, "discard", card=CARDS[hand.stock[0]]))
            shown["apply"].append(str(refused.value))
        if pattern == 1:  # a table: each seat and a spectator read what is new, and their views
            hand.make(choice)
            for seat in [None, *range(players)]:
                at = players if seat is None else seat
                shown["reads"].append([seat, hand.events_since(seen[at], seat), hand.view(seat)])
                seen[at] = hand.seq
            continue
        if rng.random() < 0.5:  # an equal action made afresh, not the one listed
            choice = Action.from_json(choice.to_json())
        shown["apply"].append(hand.apply(choice))
        if pattern == 2:
            draw, seat = rng.random(), rng.choice([None, *range(players)])
            if draw < 0.2:
                shown["reads"].append(["view", seat, hand.view(seat, history=True, guide=True)])
            elif draw < 0.4:
                shown["reads"].append(["since", seat, hand.events_since(rng.randrange(hand.seq + 1), seat)])
            elif draw < 0.45:
                hand.forget_reading()
            elif draw < 0.5 and twin is None:
                twin = hand.clone()
    shown["record"] = [hand.record(), hand.events(), hand.history(), hand.result(), hand.deltas, hand.end_rule]
    for seat in [None, *range(players)]:
        shown["final"].append([hand.view(seat, history=True, guide=True), hand.events_since(0, seat)])
    while twin is not None and not twin.over:  # a clone takes no marks: its listing is made afresh
        actions = twin.legal_actions()
        assert actions == [twin.to_action(twin.turn, move) for move in twin.moves()]
        shown["final"].append(twin.apply(actions[rng.randrange(len(actions))]))
    return shown, hand


def outputs(spec: Any, seed: int) -> tuple[str, ...]:
    shown, _ = play(spec, seed)
    return tuple(digest(shown[part]) for part in PARTS)


SNAPSHOT: dict[tuple[str, int], tuple[str, ...]] = {  # (ruleset, seed): a digest of each of PARTS
    ("500-rum", 0): ("9ba40661bf71a2e5", "4f53cda18c2baa0c", "2b2c0a59235885f5", "632a368075f10480"),
    ("500-rum", 1): ("37b525de36258570", "6fdfefd8f8fccd9a", "587967c34b627b66", "b220d31e74fe0f77"),
    ("500-rum", 2): ("696cbe85c27d59b4", "5e012f5ecf5d8528", "acbce39e88d9e32c", "bca381d3c6ce68e1"),
    ("boathouse-rummy", 0): ("c321632473194fe9", "4f53cda18c2baa0c", "dd792e8861ce7094", "125d3397f05f3aff"),
    ("boathouse-rummy", 1): ("dc0f9b5373bd1103", "f0c922b168c69205", "f56b4bf1cb5e7f9c", "7ebd079e62c5f6d2"),
    ("boathouse-rummy", 2): ("3bc659fd7b965d2f", "7cb9312c76c4f146", "5938f0ee5715d401", "eca9092b406c1049"),
    ("gin-rummy", 0): ("4ba4457d58469ce3", "4f53cda18c2baa0c", "f8354714c38b2791", "9606cd02afbeab8b"),
    ("gin-rummy", 1): ("18caf822b591a653", "883a3bf31a3b75ba", "e0714bdc7b5f14aa", "a4654aa3e40e1224"),
    ("gin-rummy", 2): ("793eaabde09cdaff", "89feeba8caa65c4b", "45802056d8ccf63c", "3ae6f1122745f145"),
    ("knock-rummy", 0): ("75e7285cb0eb2720", "4f53cda18c2baa0c", "8709e763d773f3a2", "3c1ecf77825cbfb9"),
    ("knock-rummy", 1): ("699de0a6d5758d45", "519c57a97d73463d", "e5fd8dc8280fd3fd", "05e15713b1feb9fd"),
    ("knock-rummy", 2): ("bfee8ee2cbc0d9d0", "4f53cda18c2baa0c", "82e2bb29387d90a5", "2ecbd7053f1a9de8"),
    ("rummy", 0): ("36bb4048df60bcfa", "4f53cda18c2baa0c", "03c0c9df4875aec2", "9309cb990950ade4"),
    ("rummy", 1): ("c9dc78f5e6e3954f", "0260f5a154ff5dda", "9e48c12a924813d4", "bd101d93940228b0"),
    ("rummy", 2): ("91e8569821665057", "e18e26717bc8fec0", "cde76d167c99cdee", "559460e45b13181d"),
    ("rummy-aces-high", 0): ("c7ffc8bf7c61678c", "4f53cda18c2baa0c", "4fb009b226dd1ea5", "cd658a609c3b629b"),
    ("rummy-aces-high", 1): ("4e7da1b433c3a7ee", "5a9adf035278cc67", "9e089c56d682e006", "86484113288a289a"),
    ("rummy-aces-high", 2): ("74ca3fbf0cfd8c63", "69867142b87fe739", "6084001862fcb3de", "309360f372c957d6"),
    ("shuffled", 0): ("a59ebfa84d6ee75e", "4f53cda18c2baa0c", "f163fa1c0a8009c2", "bf16077abcac6bbc"),
    ("shuffled", 1): ("27c1e7f5ac7b71df", "c13bf362e73a440c", "ee295065e7ce69f5", "b9af7c939eca9804"),
    ("shuffled", 2): ("dee84720eaf821f2", "17aa326f5ac817e7", "e467702a73dd02ed", "c0c0a2b3c231c373"),
}


@pytest.mark.parametrize("name", sorted(RULESETS))
@pytest.mark.parametrize("seed", range(3))
def test_what_every_kind_of_hand_shows_is_unchanged(name: str, seed: int) -> None:
    assert outputs(RULESETS[name], seed) == SNAPSHOT[(name, seed)]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_each_seat_reads_what_apply_returned_to_it(name: str) -> None:
    # A hand played by apply() and its twin replayed by make() with nobody reading until the end: the events
    # apply() returned to each actor are exactly what that seat reads of those moves afterwards.
    for seed in range(3, 8):
        rules = load_ruleset(RULESETS[name])
        rng = random.Random(seed)
        players = 2 if rules.style == "gin" else 3
        deck = list(CARDS)
        rng.shuffle(deck)
        hands, stock = deal_cards(rules, players, 0, deck)
        made = [RummyHand(rules, ["A", "B", "C"][:players], [0] * players, 0, hands, stock, rng=random.Random(seed))
                for _ in range(2)]
        returned: list[tuple[int, int, list[Any]]] = []
        while not made[0].over:
            actions = made[0].legal_actions()
            choice = actions[rng.randrange(len(actions))]
            before = made[0].seq
            returned.append((choice.seat, before, made[0].apply(choice)))
            made[1].make(choice)
        for seat, before, events in returned:
            assert made[1].events_since(0, seat)[before: before + len(events)] == events


def test_moves_given_raw_and_by_action_agree() -> None:
    # The search's fast path and the public API: the same moves, the same end (Gin's knock discards included).
    for seed in range(20):
        rules = load_ruleset("gin-rummy")
        rng = random.Random(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        hands, stock = deal_cards(rules, 2, 0, deck)
        public = RummyHand(rules, ["A", "B"], [0, 0], 0, hands, stock)
        raw = public.clone()
        while not public.over:
            moves: list[Move] = raw.moves()
            assert public.legal_actions() == [public.to_action(public.turn, m) for m in moves]
            move = moves[rng.randrange(len(moves))]
            public.apply(public.to_action(public.turn, move))
            raw.step(move)
        assert (public.deltas, public.outcome) == (raw.deltas, raw.outcome)
