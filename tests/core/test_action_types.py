"""Actions are checked by type before anything changes, in both engines (R-NOTE-3, R-NOTE-6, R-ERR-1).

Each bad action here is a legal action with one field of the wrong type (a seat of ``True`` or ``1.0``,
an amount of ``2.5`` or ``"3"``, a card as text or a number ...), or no action of this engine at all.
Every one is refused with :class:`MalformedInput`, ``can()`` answers ``False`` without raising, and the
hand is byte-for-byte what it was (its pickle, its record and every view).
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rummoli.cards import CARDS, Card
from rummoli.errors import MalformedInput
from rummoli.rummy import Action as RummyAction
from rummoli.rummy import RummyGame, RummyHand
from rummoli.stops import Action as StopsAction
from rummoli.stops import Hand, random_hand
from rummoli.stops.actions import AmountRange
from rummoli.stops.replay import NAMES

State = Hand | RummyHand


def fingerprint(hand: State) -> tuple[bytes, Any, list[Any]]:
    """The hand's every field, pickled (but a Rummy hand's caches: the shared meld table, Gin's last
    arrangement), its record and every seat's view."""
    hand.view(None)  # brings the event stream and the views' caches up to date: reading changes no state
    if isinstance(hand, RummyHand):
        fields = [k for k in RummyHand.__slots__ if k not in ("melds_table", "_arranged")]
        state = pickle.dumps({k: getattr(hand, k) for k in fields})
    else:
        state = pickle.dumps(hand)
    return state, hand.record(), [hand.view(s) for s in [None, *range(hand.n)]]


def not_actions() -> list[Any]:
    return [None, {}, {"seat": 0, "action": "pass"}, [0, "pass"], "seat 0 pass", 0, 1.5, object()]


def bad_stops(action: StopsAction) -> Iterator[Any]:
    """Malformed variants of a legal stops action (each would be accepted if only its value counted)."""
    yield dataclasses.replace(action, seat=float(action.seat))  # type: ignore[arg-type]
    if action.seat in (0, 1):
        yield dataclasses.replace(action, seat=bool(action.seat))  # type: ignore[arg-type]
    yield dataclasses.replace(action, seat=str(action.seat))  # type: ignore[arg-type]
    yield dataclasses.replace(action, seat=None)  # type: ignore[arg-type]
    if action.amount is not None:
        yield dataclasses.replace(action, amount=action.amount + 0.5)  # type: ignore[arg-type]
        yield dataclasses.replace(action, amount=float(action.amount))  # type: ignore[arg-type]
        yield dataclasses.replace(action, amount=str(action.amount))  # type: ignore[arg-type]
        yield dataclasses.replace(action, amount=None)
        if action.amount == 1:
            yield dataclasses.replace(action, amount=True)  # type: ignore[arg-type]
    else:
        yield dataclasses.replace(action, amount=0)
    if action.card is not None:
        yield dataclasses.replace(action, card=str(action.card))  # type: ignore[arg-type]
        yield dataclasses.replace(action, card=action.card.index)  # type: ignore[arg-type]
        yield dataclasses.replace(action, card=None)
    else:
        yield dataclasses.replace(action, card=CARDS[0])
    yield dataclasses.replace(action, kind="jump")
    yield dataclasses.replace(action, kind=None)  # type: ignore[arg-type]
    yield RummyAction(action.seat, "pass")
    yield RummyAction(action.seat, "draw", source="stock")


def bad_rummy(action: RummyAction) -> Iterator[Any]:
    """Malformed variants of a legal Rummy action."""
    yield dataclasses.replace(action, seat=float(action.seat))  # type: ignore[arg-type]
    if action.seat in (0, 1):
        yield dataclasses.replace(action, seat=bool(action.seat))  # type: ignore[arg-type]
    yield dataclasses.replace(action, seat=None)  # type: ignore[arg-type]
    if action.card is not None:
        yield dataclasses.replace(action, card=str(action.card))  # type: ignore[arg-type]
        yield dataclasses.replace(action, card=action.card.index)  # type: ignore[arg-type]
    if action.kind in ("discard", "knock", "layoff"):
        yield dataclasses.replace(action, card=None)
    if action.kind == "layoff":
        yield dataclasses.replace(action, meld=float(action.meld))  # type: ignore[arg-type]
        yield dataclasses.replace(action, meld=True)  # type: ignore[arg-type]
    if action.kind == "meld":
        yield dataclasses.replace(action, cards=list(action.cards))  # type: ignore[arg-type]
        yield dataclasses.replace(action, cards=tuple(str(c) for c in action.cards))  # type: ignore[arg-type]
        yield dataclasses.replace(action, cards=(*action.cards, action.cards[0]))
        yield dataclasses.replace(action, cards=())
    if action.kind == "draw":
        yield dataclasses.replace(action, source="sky")
        yield dataclasses.replace(action, source=None)  # type: ignore[arg-type]
        yield dataclasses.replace(action, source="stock", card=CARDS[0])  # a stock draw naming a card
    else:
        yield dataclasses.replace(action, source="stock")
    yield dataclasses.replace(action, kind="jump")
    yield StopsAction(action.seat, "pass")  # the other family's pass (Gin's upcard offer takes a pass)
    yield StopsAction(action.seat, "bid", None, 3)


def refuse_all(hand: State, bad: Callable[[Any], Iterator[Any]]) -> int:
    before = fingerprint(hand)
    refused = 0
    for legal in hand.legal_actions():
        if isinstance(legal, AmountRange):
            legal = legal.at(legal.max)
        for action in [*bad(legal), *not_actions()]:
            assert hand.can(action) is False, action
            with pytest.raises(MalformedInput):
                hand.verify(action)
            with pytest.raises(MalformedInput):
                hand.apply(action)
            refused += 1
    assert fingerprint(hand) == before
    return refused


def stops_hands(ruleset: str, seed: int) -> Iterator[Hand]:
    """A random hand of ``ruleset``, stopped at every decision in turn (one clone per decision)."""
    rng = random.Random(seed)
    hand = random_hand(ruleset, 4, rng)
    record = hand.record()
    from rummoli.stops import replay_hand

    for stop in range(len(record["actions"]) + 1):
        partial = dict(record, actions=record["actions"][:stop])
        yield replay_hand(partial, complete=False)


@pytest.mark.parametrize("ruleset", ["rummoli", "tripoley", "michigan"])
def test_R_NOTE_6_stops_actions_of_the_wrong_type_change_nothing(ruleset: str) -> None:
    refused = 0
    for number, hand in enumerate(stops_hands(ruleset, 11)):
        if number % 5 == 0 or hand.phase != "play":  # every decision before the play round, some after
            refused += refuse_all(hand, bad_stops)
    assert refused > 50


def rummy_hands(ruleset: str, seed: int, players: int = 2) -> Iterator[RummyHand]:
    """A Rummy hand of ``ruleset`` played by random legal moves, yielded at each decision."""
    rng = random.Random(seed)
    hand = RummyGame(ruleset, list(NAMES[:players]), seed=seed).deal()
    while not hand.over:
        yield hand
        moves = hand.legal_actions()
        hand.apply(moves[rng.randrange(len(moves))])
    yield hand


@pytest.mark.parametrize("ruleset", ["rummy", "gin-rummy", "500-rum", "knock-rummy", "boathouse-rummy"])
def test_R_NOTE_6_rummy_actions_of_the_wrong_type_change_nothing(ruleset: str) -> None:
    refused = 0
    for number, hand in enumerate(rummy_hands(ruleset, 5)):
        if number < 12 or number % 7 == 0:
            refused += refuse_all(hand, bad_rummy)
        if number > 60:
            break
    assert refused > 200


def test_R_NOTE_6_a_stops_pass_is_not_a_pass_at_gins_upcard_offer() -> None:
    hand = RummyGame("gin-rummy", ["Ann", "Bob"], seed=3).deal()
    assert RummyAction(hand.turn, "pass") in hand.legal_actions()  # the offer is open
    before = fingerprint(hand)
    assert not hand.can(StopsAction(hand.turn, "pass"))  # type: ignore[arg-type]
    with pytest.raises(MalformedInput, match="R-NOTE-3"):
        hand.apply(StopsAction(hand.turn, "pass"))  # type: ignore[arg-type]
    assert fingerprint(hand) == before


@pytest.mark.parametrize(("data", "problem"), [
    ({"seat": 1.0, "action": "bid", "amount": 3}, "seat"),
    ({"seat": True, "action": "bid", "amount": 3}, "seat"),
    ({"seat": 1, "action": "bid", "amount": 2.5}, "amount"),
    ({"seat": 1, "action": "bid", "amount": "3"}, "amount"),
    ({"seat": 1, "action": "bid"}, "amount"),
    ({"seat": 1, "action": "lead", "card": 12}, "card"),
    ({"seat": 1, "action": "lead", "card": ["Ts"]}, "card"),
    ({"seat": 1, "action": "lead", "card": "T" * 50_000_000}, "not a card"),
    ({"seat": 1, "action": "draw", "from": "stock"}, "unknown stops action"),
    ({"seat": 1, "action": ["pass"]}, "unknown stops action"),
    ({"seat": 1, "type": "pass"}, 'names its kind under "action"'),  # a client's natural guess, told where it goes
    ({"seat": 1, "action": "pass", "amount": 1}, "takes no"),
    ({"seat": 1, "action": "pass", "forced": "yes"}, "forced"),
])
def test_R_NOTE_3_stops_action_objects_are_read_by_type(data: dict[str, Any], problem: str) -> None:
    with pytest.raises(MalformedInput, match=problem) as info:
        StopsAction.from_json(data)
    assert len(str(info.value)) < 200 and "\n" not in str(info.value)


@pytest.mark.parametrize(("data", "problem"), [
    ({"seat": 1.0, "action": "discard", "card": "Ts"}, "seat"),
    ({"seat": False, "action": "pass"}, "seat"),
    ({"seat": 0, "action": "discard", "card": 12}, "card"),
    ({"seat": 0, "action": "discard", "card": None}, "card"),
    ({"seat": 0, "action": "discard", "card": "Ts" * 1_000_000}, "not a card"),
    ({"seat": 0, "action": "draw", "from": "stock", "card": "9c"}, "names no card"),
    ({"seat": 0, "action": "draw", "from": "pile"}, '"from"'),
    ({"seat": 0, "action": "draw", "from": ["stock"]}, '"from"'),
    ({"seat": 0, "action": "meld", "cards": "7s 7h 7d"}, "cards"),
    ({"seat": 0, "action": "meld", "cards": ["7s", "7h", "7s"]}, "twice"),
    ({"seat": 0, "action": "meld", "cards": []}, "cards"),
    ({"seat": 0, "action": "layoff", "card": "7c", "meld": 0.0}, "meld"),
    ({"seat": 0, "action": "layoff", "card": "7c", "meld": "0"}, "meld"),
    ({"seat": 0, "action": "bid", "amount": 3}, "unknown Rummy action"),
    ({"seat": 0, "action": {"kind": "pass"}}, "unknown Rummy action"),
    ({"seat": 0, "type": "discard", "card": "Ts"}, 'names its kind under "action"'),
    ({"seat": 0, "action": "pass", "type": "action"}, "takes no"),
    ({"seat": 0, "action": "discard", "card": "Ts", "meld": 0}, "takes no"),
])
def test_R_NOTE_3_rummy_action_objects_are_read_by_type(data: dict[str, Any], problem: str) -> None:
    with pytest.raises(MalformedInput, match=problem) as info:
        RummyAction.from_json(data)
    assert len(str(info.value)) < 200 and "\n" not in str(info.value)


def test_R_NOTE_6_a_huge_seat_or_amount_is_quoted_short() -> None:
    hand = next(stops_hands("rummoli", 2))
    legal = hand.legal_actions()[0]
    assert isinstance(legal, StopsAction)
    for action in (dataclasses.replace(legal, seat=10**4000), StopsAction(hand.turn, "bid", None, -(10**4000))):
        with pytest.raises(Exception) as info:
            hand.apply(action)
        assert len(str(info.value)) < 200
    rummy = RummyGame("rummy", ["Ann", "Bob"], seed=1).deal()
    with pytest.raises(Exception) as info:
        rummy.apply(RummyAction(10**4000, "draw", source="stock"))
    assert len(str(info.value)) < 200
    assert Card.parse("As") is CARDS[12]
