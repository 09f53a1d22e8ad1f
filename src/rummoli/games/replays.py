"""Replaying records with the engine of their family: a hand record (R-NOTE-4), an evening record hand by hand
(R-NOTE-5), and the seats a ruleset allows.  Reading and checking records is :mod:`rummoli.records`, which
knows no engine."""

from __future__ import annotations

from typing import Any

from rummoli.errors import quote
from rummoli.games.family import Hand
from rummoli.games.registry import family_of
from rummoli.limits import MAX_CHIPS
from rummoli.records import EVENING_FORMAT, RecordError, check_envelope, check_names, evening_start


def seat_range(ruleset: str | dict[str, Any]) -> tuple[int, int, set[int]]:
    """The fewest and most players a ruleset seats, and every count it allows (a Rummy ruleset may skip some).

    >>> seat_range("gin-rummy")
    (2, 2, {2})
    """
    return family_of(ruleset).seat_range(ruleset)


def default_players(ruleset: str | dict[str, Any], usual: int = 4) -> int:
    """How many to seat when the player does not say: ``usual`` if the ruleset allows it, else the nearest.

    >>> default_players("gin-rummy"), default_players("michigan"), default_players("rummoli")
    (2, 4, 4)
    """
    allowed = seat_range(ruleset)[2]
    return min(allowed, key=lambda n: (abs(n - usual), n))




def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a record with its engine; returns the R-NOTE-4 result (chips, pots, events).

    An evening record (``rummoli-evening/1``) replays hand by hand (:func:`replay_evening`)."""
    if isinstance(record, dict) and record.get("format") == EVENING_FORMAT:
        return replay_evening(record)
    check_envelope(record)
    return family_of(record["ruleset"]).replay_record(record)



def replay_hand(record: dict[str, Any]) -> Hand:
    """The engine's hand a hand record plays to (checked as :func:`replay` checks it), at its end."""
    check_envelope(record)
    return family_of(record["ruleset"]).replay_hand(record)


def replay_evening(record: dict[str, Any]) -> dict[str, Any]:
    """Replay every hand of a ``rummoli-evening/1`` record and check that they follow one another.

    The record's ``ledger`` lists, in order, each hand and the evening's own moves between hands (a
    player who could not ante leaves and their chips go to the centre; Gin's end-of-game bonuses).  Each
    hand must start with the stacks (by player name) and the board that the ledger leaves before it; the first,
    when the record holds its start (:func:`rummoli.records.evening_start`: the starting chips or scores, and the
    cut or the word that there was none), with those chips on an empty board, dealt by the first dealer.  The
    result gives the stacks and the board at the end of the last hand and each hand's result; a settlement of the
    board at the end of the evening (it deals cards of its own) and the final standings it leaves are reported as
    recorded, so that ``chips`` (before the settlement) and the standings a player was shown can be told apart.
    """
    hands = record.get("hands")
    ledger = record.get("ledger")
    if not isinstance(hands, list) or not hands or not isinstance(ledger, list):
        raise RecordError('an evening record lists its "hands" and its "ledger"', rule="R-NOTE-2")
    check_names(record.get("players"))  # the evening's own list, which its summary and standings name
    start, first_dealer = evening_start(record)  # (None, None) from a record written before they were kept
    chips: dict[str, Any] = dict(start or {})
    pots: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for entry in ledger:
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind in ("out", "bonus"):
            assert isinstance(entry, dict)
            player, pot = entry.get("player"), entry.get("pot", "centre")
            amount = entry.get("chips_to_centre" if kind == "out" else "points")
            if not isinstance(player, str) or not isinstance(pot, str) or isinstance(amount, bool) \
                    or not isinstance(amount, int) or not -MAX_CHIPS <= amount <= MAX_CHIPS:
                raise RecordError(f"ledger entry {quote(entry)} names a player and a whole number of chips",
                                  rule="R-NOTE-2")
            if kind == "out":
                pots[pot] = pots.get(pot, 0) + amount
                chips[player] = 0
            else:
                chips[player] = chips.get(player, 0) + amount
            continue
        if kind != "hand" or entry.get("hand_no") != len(results) + 1 or len(results) >= len(hands):
            raise RecordError(f"ledger entry {quote(entry)} is out of order", rule="R-NOTE-2")
        number = len(results) + 1
        hand = hands[number - 1]
        try:
            check_envelope(hand)  # a hand record, never an evening inside an evening
            result = replay(hand)  # checks every field's type before the evening compares them
            stacks = dict(zip(hand["players"], hand.get("chips", []), strict=False))
            follows = bool(results) or start is not None  # the first hand follows the record's start, if it has one
            if follows and any(chips.get(name) != value for name, value in stacks.items()):
                raise RecordError("its players' chips are not what the evening left them" if results else
                                  "its players' chips are not the evening's starting chips",
                                  rule="R-SESSION-1" if results else "R-NOTE-5")
            if follows and {k: v for k, v in hand.get("pots", {}).items() if v} != {k: v for k, v in pots.items() if v}:
                raise RecordError("its pots are not what the evening left on the board", rule="R-BOARD-3")
            dealt = hand["players"][hand.get("dealer", 0)]  # the engine checked the seat
            if not results and first_dealer is not None and dealt != first_dealer:
                raise RecordError(f"it is dealt by {dealt}, but the record's first dealer is {first_dealer}",
                                  rule="R-NOTE-5")
        except RecordError as error:
            raise RecordError(f"hand {number}: {error}") from None
        chips.update(zip(hand["players"], result["chips"], strict=True))
        pots = dict(result.get("pots", {}))
        results.append({"chips": result["chips"], "pots": pots})
    if len(results) != len(hands):
        raise RecordError("the ledger does not name every hand", rule="R-NOTE-2")
    return {"format": EVENING_FORMAT, "hands": len(hands), "chips": chips, "pots": pots, "results": results,
            "settlement": record.get("settlement", []), "standings": record.get("standings", [])}
