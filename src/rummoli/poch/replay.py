"""Poch hand records: a hand from a record, its replay, random hands (R-NOTE-2..4, R-PO-2).

A Poch record's ``deal`` holds ``hands``, the ``stock`` (empty in the modern form) and the card ``turned``
for trumps (in a hand in the modern form, else the stock's face-up card).  Forced plays may be left out or
written in (marked ``"forced": true``): the replay makes them.

>>> rec = random_hand_record("poch", 4, "doc")
>>> rec["format"], len(rec["deal"]["hands"]), len(rec["deal"]["stock"])
('rummoli-hand/1', 4, 0)
>>> result = replay_record(rec)
>>> sum(result["chips"]) + sum(result["pots"].values())
400
"""

from __future__ import annotations

import random
from typing import Any

from rummoli.cards import CARDS, Card
from rummoli.errors import IllegalAction, MalformedInput, quote
from rummoli.poch.cards import deal_poch
from rummoli.poch.hand import PochHand
from rummoli.poch.ruleset import Ruleset, load_ruleset
from rummoli.records import RecordError, record_cards, record_ruleset
from rummoli.stops.actions import Action
from rummoli.wording import players_range

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def hand_from_record(record: dict[str, Any], *, auto: bool = True) -> PochHand:
    """The hand a record starts from (after the ante and the melding), refusing a malformed one."""
    rules = record_ruleset(record, load_ruleset)
    players = record["players"]
    chips = record.get("chips", [rules.starting_chips] * len(players) if isinstance(players, list) else None)
    pots, dealer, deal, ante = record.get("pots", {}), record.get("dealer", 0), record["deal"], record.get("ante", True)
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or not isinstance(chips, list) \
            or not all(type(c) is int and c >= 0 for c in chips) or not isinstance(pots, dict) \
            or not all(type(v) is int and v >= 0 for v in pots.values()) or type(dealer) is not int \
            or not isinstance(deal, dict) or not isinstance(ante, bool):
        raise RecordError('a Poch record has "players" (names), "chips" (whole numbers), "pots", "dealer", "deal"',
                          rule="R-NOTE-2")
    if set(deal) != {"hands", "stock", "turned"}:
        raise RecordError(f'deal: a Poch deal holds "hands", "stock" and "turned", not {quote(sorted(map(str, deal)))}',
                          rule="R-NOTE-2")
    hands_raw = deal["hands"]
    if not isinstance(hands_raw, list) or len(hands_raw) > 6 or not isinstance(deal["turned"], str):
        raise RecordError('deal: "hands" is a list of hands, one per player, and "turned" a card', rule="R-NOTE-2")
    hands = [record_cards(h, f"deal hand {i}") for i, h in enumerate(hands_raw)]
    stock = record_cards(deal["stock"], "deal stock")
    turned = record_cards([deal["turned"]], "deal turned")[0]
    try:
        return PochHand(rules, players, chips, pots, dealer, hands, stock, turned, ante=ante, auto=auto)
    except IllegalAction as error:
        raise RecordError(error.message, rule=error.rule) from None
    except (MalformedInput, ValueError) as error:
        raise RecordError(str(error), rule=getattr(error, "rule", None) or "R-NOTE-2") from None


def replay_hand(record: dict[str, Any], *, complete: bool = True) -> PochHand:
    """Replay a record to its end; :class:`RecordError` names the action's index and the rule it breaks.
    With ``complete=False`` the record may stop before the hand does."""
    hand = hand_from_record(record)
    actions = record["actions"]
    for index, data in enumerate(actions):
        try:
            if isinstance(data, dict) and data.get("forced") is True:
                continue  # the replay makes forced moves itself (a run's plays, a lead from one card)
            action = Action.from_json(data)
            hand.verify(action)
        except IllegalAction as error:
            raise RecordError(error.message, index=index, rule=error.rule) from None
        except MalformedInput as error:
            raise RecordError(error.message, index=index, rule=error.rule or "R-NOTE-3") from None
        hand.make(action)
    if complete and not hand.over:
        seats = ", ".join(str(s) for s in hand.to_act())
        raise RecordError(f"the record ends before the hand does (seat {seats} to decide)", index=len(actions),
                          rule="R-NOTE-3")
    return hand


def replay_record(record: dict[str, Any]) -> dict[str, Any]:
    """R-NOTE-4: the final ``chips`` per seat, the ``pots`` left on the board and every ``events``."""
    hand = replay_hand(record)
    return {"chips": list(hand.chips), "pots": hand.pot_balances(), "events": hand.events()}


def deal_hand(rules: Ruleset, names: list[str], chips: list[int], pots: dict[str, int], dealer: int,
              deck: list[Card], *, ante: bool = True, auto: bool = True) -> PochHand:
    """A hand dealt from a shuffled pack (R-PO-2)."""
    hands, stock, turned = deal_poch(deck, len(names), dealer, rules.deal)
    return PochHand(rules, names, chips, pots, dealer, hands, stock, turned, ante=ante, auto=auto)


def random_hand(ruleset_ref: str | dict[str, Any] | Ruleset, players: int, rng: random.Random,
                dealer: int | None = None) -> PochHand:
    """A hand dealt from ``rng`` and played to its end with uniformly random legal decisions."""
    rules = load_ruleset(ruleset_ref)
    if not rules.min_players <= players <= rules.max_players:
        seated = players_range(rules.min_players, rules.max_players)
        raise MalformedInput(f"{rules.title} seats {seated}, not {players}")
    deck = list(CARDS)
    rng.shuffle(deck)
    seat = rng.randrange(players) if dealer is None else dealer
    hand = deal_hand(rules, list(NAMES[:players]), [rules.starting_chips] * players, {}, seat, deck)
    while not hand.over:
        hand.random_step(rng)
    return hand


def random_hand_record(ruleset_ref: str | dict[str, Any], players: int, seed: str | None) -> dict[str, Any]:
    """One hand with random legal decisions (seeded, or the secure source: R-RNG-1), as its record."""
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    return random_hand(ruleset_ref, players, rng).record()
