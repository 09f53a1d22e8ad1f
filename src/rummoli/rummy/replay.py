"""Replaying Rummy records (R-NOTE-4) and playing random hands (for tests, bug reports and benchmarks)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from rummoli.cards import CARDS, Card
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.records import RecordError, check_envelope
from rummoli.rummy.actions import Action
from rummoli.rummy.hand import RummyHand
from rummoli.rummy.ruleset import Ruleset, load_ruleset
from rummoli.rummy.session import deal_cards

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def _cards(value: object, what: str) -> list[Card]:
    if isinstance(value, list) and all(type(v) is Card for v in value):
        return value  # a record built in memory (a searching bot's sampled world) may hold the cards themselves
    if not isinstance(value, list) or len(value) > 52 or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{what} must be a list of cards", rule="R-NOTE-2")
    try:
        return [Card.parse(v) for v in value]
    except MalformedInput as error:
        raise RecordError(f"{what}: {error}", rule="R-NOTE-1") from None


_DEAL_KEYS = frozenset({"hands", "stock", "reshuffle"})  # reshuffle: R-RU-SHUFFLE


def hand_from_record(record: dict[str, Any]) -> RummyHand:
    """The hand a record starts from (before any action)."""
    check_envelope(record)
    if record.get("pots", {}) != {}:
        raise RecordError("a Rummy record carries no pots ('pots' is {} or left out)", rule="R-NOTE-2")
    try:
        rules = load_ruleset(record["ruleset"])
    except MalformedInput as error:
        raise RecordError(str(error), rule="R-NOTE-2") from None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names", rule="R-NOTE-2")
    chips = record.get("chips", [0] * len(players))
    if not isinstance(chips, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in chips):
        raise RecordError("'chips' (the scores before the hand) must be whole numbers", rule="R-NOTE-2")
    dealer = record.get("dealer", 0)
    deal = record.get("deal")
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list) or set(deal) - _DEAL_KEYS:
        raise RecordError(
            "'deal' must hold 'hands', 'stock' (and 'reshuffle', shuffle_once only) and nothing else", rule="R-NOTE-2"
        )
    if len(deal["hands"]) > 8:
        raise RecordError("deal: one hand per player", rule="R-NOTE-2")
    hands = [_cards(h, f"hand {i}") for i, h in enumerate(deal["hands"])]
    stock = _cards(deal.get("stock"), "stock")
    reshuffle, rng = None, None  # R-RU-SHUFFLE: the record's own order, else one derived from its deal
    if "reshuffle" in deal:
        reshuffle = _cards(deal["reshuffle"], "reshuffle")
    elif rules.stock_end == "shuffle_once":
        rng = random.Random(" ".join(str(c) for c in [*(c for h in hands for c in h), *stock]))
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise RecordError("'dealer' must be a seat number", rule="R-NOTE-2")
    try:
        return RummyHand(rules, players, chips, dealer, hands, stock, reshuffle, rng)
    except MalformedInput as error:
        rule = "R-RU-SHUFFLE" if str(error).startswith("R-RU-SHUFFLE") else "R-RU-1"
        raise RecordError(str(error), rule=rule) from None


def replay_hand(record: dict[str, Any], before: Callable[[RummyHand, Action], None] | None = None,
                read: Sequence[Action] | None = None, marks: bool = True) -> RummyHand:
    """Replay a record's actions; the first illegal or unreadable one raises ``RecordError``.  ``before``, if
    given, sees the hand just before each action the record writes is applied (the hard bot reads the
    other players' choices with it: :mod:`rummoli.bots.rummy_infer`). ``read``, if given, is the record's
    actions already read (``Action.from_json`` of each), for a caller that replays the same actions over many
    deals: the hard bot's worlds, where reading them again for every world was a fifth of a world's time (their
    shape is then not checked again: ``from_json`` checked it; whether each is legal is checked as always).
    ``marks=False`` leaves out the state marks of the hand's event stream (a hand no one reads as a stream)."""
    hand = hand_from_record(record)
    formed = read is not None  # Action.from_json checked each one's shape, and an action cannot change
    make = hand.make if marks else partial(hand.make_unmarked, formed=formed)
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list", rule="R-NOTE-3")
    cursor = 0  # hand.log entries before the cursor are accounted for by the record
    for index, data in enumerate(actions):
        try:
            action = Action.from_json(data) if read is None else read[index]
        except MalformedInput as error:
            raise RecordError(error.message, index=index, rule=error.rule or "R-NOTE-3") from None
        if hand.over:
            raise RecordError("the hand was already over", index=index, rule=hand.end_rule)
        move = (action.seat, *hand.to_move(action))
        while cursor < len(hand.log) and hand.log[cursor][4] and hand.log[cursor][:4] != move:
            cursor += 1  # a forced move the record leaves out
        if cursor < len(hand.log) and hand.log[cursor][4]:
            cursor += 1  # a forced move the record writes in
            continue
        applied_at = len(hand.log)
        if before is not None:
            before(hand, action)
        try:
            make(action)  # the events each action caused are in the hand's log; nobody here reads them per actor
        except IllegalAction as error:
            raise RecordError(error.message, index=index, rule=error.rule) from None
        cursor = applied_at + 1
    return hand


def replay_record(record: dict[str, Any]) -> dict[str, Any]:
    """R-NOTE-4: the scores after the hand (as ``chips``), no pots, and every event."""
    hand = replay_hand(record)
    return {
        "chips": [s + d for s, d in zip(hand.scores, hand.deltas, strict=True)],
        "pots": {},
        "events": hand.events(),
        "over": hand.over,
    }


def random_hand(
    ruleset: Ruleset, players: int, rng: random.Random, scores: list[int] | None = None, dealer: int = 0
) -> RummyHand:
    """Deal from ``rng`` and play a hand to its end with uniformly random legal moves."""
    deck = list(CARDS)
    rng.shuffle(deck)
    hands, stock = deal_cards(ruleset, players, dealer, deck)
    hand = RummyHand(ruleset, NAMES[:players], scores or [0] * players, dealer, hands, stock, rng=rng)
    hand.random_playout(rng)  # the fast path: no state marks
    return hand


def random_hand_record(ruleset_ref: str | dict[str, Any], players: int, seed: str | None) -> dict[str, Any]:
    """One hand played with random legal decisions (seeded), as its record."""
    rules = load_ruleset(ruleset_ref)
    rng = random.Random(seed) if seed is not None else random.SystemRandom()  # R-RNG-1
    hand = random_hand(rules, players, rng)
    out = hand.record()
    if isinstance(ruleset_ref, dict):
        out["ruleset"] = ruleset_ref
    return out
