"""Hand records for the stops engine: build a hand from a record, replay it, play random hands.

A record (docs/records.md R-NOTE-2) holds the ruleset, the seats, the chips and pots before the ante, the
dealer, the deal and the decisions.  Forced actions may be left out or written in: the replay makes
every forced action that the record does not name itself (R-NOTE-3).

>>> rec = random_hand_record("rummoli", 4, "doc")
>>> rec["format"], len(rec["deal"]["hands"])
('rummoli-hand/1', 4)
>>> result = replay_record(rec)
>>> sum(result["chips"]) + sum(result["pots"].values())
400
"""

from __future__ import annotations

import random
from typing import Any

from rummoli.cards import CARDS
from rummoli.errors import IllegalAction, MalformedInput, quote
from rummoli.records import RecordError, record_cards, record_ruleset
from rummoli.shuffling import shuffle
from rummoli.stops.actions import Action
from rummoli.stops.hand import Hand
from rummoli.stops.ruleset import Ruleset, load_ruleset

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def hand_from_record(record: dict[str, Any], *, auto: bool = False) -> Hand:
    """The hand a record starts from (before any action), refusing a malformed one."""
    rules = record_ruleset(record, load_ruleset)
    players = record["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError('"players" must be a list of names', rule="R-NOTE-2")
    chips = record.get("chips", [rules.starting_chips] * len(players))
    pots = record.get("pots", {})
    dealer = record.get("dealer", 0)
    deal = record["deal"]
    if not isinstance(chips, list) or not isinstance(pots, dict) or not isinstance(deal, dict):
        raise RecordError('"chips" must be a list, "pots" and "deal" objects', rule="R-NOTE-2")
    if set(deal) - {"hands", "widow"}:
        raise RecordError(f'deal: a stops deal holds "hands" and "widow" only, not '
                          f"{quote(sorted(map(str, set(deal) - {'hands', 'widow'})))}", rule="R-NOTE-2")
    hands_raw = deal.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) > 8:
        raise RecordError('deal: "hands" must be a list of hands, one per player', rule="R-NOTE-2")
    hands = [record_cards(h, f"deal hand {i}") for i, h in enumerate(hands_raw)]
    widow = record_cards(deal.get("widow"), "deal widow")
    ante = record.get("ante", True)
    if not isinstance(ante, bool):
        raise RecordError('"ante" must be true or false', rule="R-NOTE-2")
    try:
        return Hand(rules, players, chips, pots, dealer, hands, widow, ante=ante, auto=auto)
    except IllegalAction as error:
        raise RecordError(error.message, rule=error.rule) from None
    except MalformedInput as error:
        raise RecordError(str(error), rule="R-NOTE-2") from None


def replay_hand(record: dict[str, Any], *, complete: bool = True) -> Hand:
    """Replay a record to its final state; :class:`RecordError` names the action index and rule.

    With ``complete=False`` the record may stop mid-hand (a bot rebuilding a state from a view and
    a guessed deal): the hand is returned at its next decision, forced actions made.
    """
    hand = hand_from_record(record, auto=False)
    actions = record["actions"]
    for index, data in enumerate(actions):
        try:
            action = Action.from_json(data)
        except MalformedInput as error:
            raise RecordError(error.message, index=index, rule=error.rule or "R-NOTE-3") from None
        while True:
            if hand.over:
                raise RecordError(f"{action} comes after the hand has ended", index=index, rule="R-END-1")
            forced = hand.forced_action()
            if forced is None or forced == action:
                break
            hand.step_forced()
        try:
            hand.verify(action)
        except IllegalAction as error:
            raise RecordError(error.message, index=index, rule=error.rule) from None
        except MalformedInput as error:
            raise RecordError(error.message, index=index, rule=error.rule or "R-NOTE-3") from None
        hand.make(action)
    while not hand.over:
        if not hand.step_forced():
            if not complete:
                break
            seats = ", ".join(str(s) for s in hand.to_act())
            raise RecordError(f"the record ends before the hand does (seat {seats} to decide)",
                              index=len(actions), rule="R-NOTE-3")
    hand.auto = True
    return hand


def replay_record(record: dict[str, Any]) -> dict[str, Any]:
    """R-NOTE-4: the final ``chips`` per seat, the ``pots`` left on the board and every ``events``."""
    hand = replay_hand(record)
    return {"chips": list(hand.chips), "pots": hand.pot_balances(), "events": hand.events()}


def random_hand(
    ruleset_ref: str | dict[str, Any] | Ruleset, players: int, rng: random.Random, dealer: int | None = None
) -> Hand:
    """A hand dealt from ``rng`` and played to its end with uniformly random legal decisions."""
    rules = load_ruleset(ruleset_ref)
    deck = list(CARDS)
    shuffle(rng, deck)  # rng.shuffle(deck), the same draws, faster
    seat = rng.randrange(players) if dealer is None else dealer
    if not 2 <= players <= 8:
        raise MalformedInput(f"a stops table seats 2 to 8 players, not {players}")
    hand = Hand.from_deck(rules, [NAMES[i] for i in range(players)], [rules.starting_chips] * players, seat, deck)
    hand.random_play(rng)
    return hand


def random_hand_record(ruleset_ref: str | dict[str, Any], players: int, seed: str | None) -> dict[str, Any]:
    """Play one hand with random legal decisions (shuffle and decisions from one seeded
    :class:`random.Random`; no seed: the operating system's secure source, R-RNG-1) and return its record."""
    rng = random.Random(seed) if seed is not None else random.SystemRandom()  # R-RNG-1
    try:
        return random_hand(ruleset_ref, players, rng).record()
    except ValueError as error:
        raise MalformedInput(str(error)) from None
