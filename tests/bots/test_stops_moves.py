"""A stops hand's public moves (``Hand.public_moves``): what the simulation lab hands a counting bot in place of
its history's events (``Bot.reads_moves``). They must tell a seat exactly what a spectator's events tell, nothing
more, and the normal bot must count and choose from them exactly as it does from the events, on every built-in
ruleset and on rulesets that turn on the options the count reads (the two of clubs, paying on hold, the widow
barred to pay-card holders)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from tests.bots.test_stops_playout import ODD_RULES
from tests.bots.test_stops_playout import _deal as deal_for_playout

from rummoli.bots.driver import bot_view, fast_view_for
from rummoli.bots.stops_bots import NormalStopsBot
from rummoli.bots.stops_infer import card_index, read_view
from rummoli.bots.stops_policy import table_for
from rummoli.stops import Action, Hand, load_ruleset
from rummoli.stops.ruleset import BUILTIN_RULESETS

RULESETS: list[str | dict[str, Any]] = [*BUILTIN_RULESETS, *ODD_RULES,
                                        {"game": "stops", "board": "tripoley", "opening_lead": "two_of_clubs",
                                         "pay": "on_hold", "widow_bar": "pay_card_holders"}]


def dealt(ruleset: str | dict[str, Any], seed: int) -> Hand:
    """A seeded hand of two to six seats with uneven stacks (the play-out tests' deals)."""
    return deal_for_playout(ruleset, seed)


def moves_told_by(events: list[dict[str, Any]], pot_ids: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """The public moves a spectator's events tell, worked out from the events alone."""

    def party(text: str) -> int:
        kind, _, name = text.partition(":")
        return int(name) if kind == "seat" else -1 - pot_ids.index(name)

    out: list[tuple[Any, ...]] = []
    for ev in events:
        if ev["type"] == "action":
            out.append(("act", ev["seat"], ev["action"], card_index(ev["card"]) if "card" in ev else -1))
        elif ev["type"] == "chips":
            out.append(("chips", party(ev["from"]), party(ev["to"]), ev["reason"]))
        elif ev["type"] == "stop":
            out.append(("stop", card_index(ev["after"])))
        elif ev["type"] == "cannot_lead":
            out.append(("cannot_lead", ev["seat"]))
    return out


def known_fields(view: dict[str, Any], told: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """What :func:`read_view` counts from ``view`` (reading on from ``told``), less the objects that name where it
    read from; and the fold it leaves for the next view."""
    k = read_view(view, told)
    facts = {key: value for key, value in vars(k).items() if key not in ("t", "told")}
    fold = {key: getattr(k.told, key) for key in k.told.__slots__ if key not in ("head", "last", "count")}
    return facts, fold


def names_of_ruleset(ruleset: str | dict[str, Any]) -> str:
    return ruleset if isinstance(ruleset, str) else json.dumps(ruleset, sort_keys=True)


@pytest.mark.parametrize("ruleset", RULESETS, ids=names_of_ruleset)
def test_the_public_moves_are_what_a_spectators_events_tell(ruleset: str | dict[str, Any]) -> None:
    """At every step of many hands: the moves equal the ones worked out from the spectator's events (so they hold
    nothing a spectator does not see), grow only at their end, and are the one list the stream keeps."""
    pot_ids = table_for(load_ruleset(ruleset).reference()).pot_ids
    for seed in range(6):
        hand = dealt(ruleset, seed)
        rng = random.Random(seed)
        before: list[tuple[Any, ...]] = []
        while True:
            moves = hand.public_moves()
            assert moves == moves_told_by(hand.view(None, history=True)["events"], pot_ids)
            assert moves[:len(before)] == before and hand.public_moves() is moves
            before = list(moves)
            if hand.over:
                break
            hand.random_step(rng)


@pytest.mark.parametrize("ruleset", RULESETS, ids=names_of_ruleset)
def test_a_count_of_the_moves_is_the_count_of_the_events(ruleset: str | dict[str, Any]) -> None:
    """For every seat at every step, read afresh and read on from the seat's last reading: the same facts from the
    moves as from the events, and the normal bot's same choice from its fast view as from the whole view."""
    for seed in range(6):
        hand = dealt(ruleset, seed)
        n = len(hand.names)
        bots = [NormalStopsBot(seed * 10 + s) for s in range(n)]
        told_events: list[Any] = [None] * n
        told_moves: list[Any] = [None] * n
        while not hand.over:
            for seat in range(n):
                whole = json.loads(json.dumps(hand.view(seat, history=True)))
                fast = bot_view(hand, seat, bots[seat])
                assert "events" not in fast and "actions" not in fast and fast["moves"] is hand.public_moves()
                assert {key: value for key, value in fast.items() if key != "moves"} == {
                    key: value for key, value in whole.items() if key not in ("events", "actions")}
                for told_before in (None, "kept"):
                    from_events = known_fields(whole, told_events[seat] if told_before else None)
                    from_moves = known_fields(fast, told_moves[seat] if told_before else None)
                    assert from_moves == from_events
                told_events[seat] = read_view(whole, told_events[seat]).told
                told_moves[seat] = read_view(fast, told_moves[seat]).told
            seat = hand.to_act()[0]
            twin = copy.deepcopy(bots[seat])  # the same generator, memory and fold
            choice = bots[seat].choose(bot_view(hand, seat, bots[seat]))
            assert twin.choose(json.loads(json.dumps(hand.view(seat, history=True)))) == choice
            hand.apply(Action.from_json(choice))


def test_only_a_bot_that_counts_from_the_moves_is_handed_them() -> None:
    """The normal level reads the moves; a view asked without them, or for a bot that writes into its view or
    reads the actions, keeps its events as before."""
    assert NormalStopsBot.reads_moves is True
    hand = dealt("rummoli", 1)
    seat = hand.to_act()[0]
    assert "moves" not in fast_view_for(hand, seat, copy=False, actions=False)
    assert "moves" not in fast_view_for(hand, seat, copy=True, actions=False, moves=True)
    assert "moves" not in fast_view_for(hand, seat, copy=False, actions=True, moves=True)
    assert fast_view_for(hand, seat, copy=False, actions=False, moves=True)["moves"] is hand.public_moves()
