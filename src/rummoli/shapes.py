"""The shapes of what the engines and the table hand out: views, events and results, as typed dicts.

These are the JSON objects that leave the program (to a seat's screen, to a bot, to a record), so their keys
are the protocol: docs/protocol.md says what each means.  Both engines produce them; the page, the terminal
and the bots read them.  Standard library only, so the engines may use it.

A view and an event are ``total=False``: every family fills in its own keys (a stops view has ``pots``, a
Rummy view ``stock``), and the keys marked ``Required`` are in every one.  A result has a shape per family
with the part they share in :class:`ResultBase`.
"""

from __future__ import annotations

from typing import Any, NotRequired, Required, TypedDict

# ----------------------------------------------------------------------------------------- events


#: One numbered event of a hand's (or a table's) stream, as one seat may learn it (every event that leaves the
#: engine has its ``seq``; the engine numbers them last, as it hands them out).  The functional form because a
#: chip's move names where it comes ``from``, a keyword.
Event = TypedDict("Event", {
    "type": Required[str],
    "seq": int,
    "hand_no": int,
    #: the sentence that tells it (none where it needs no line)
    "text": str,
    #: the public state after the move it ends (phase, seats to act, ...): a seat's events rebuild its view
    "state": dict[str, Any],
    "seat": int | None,
    "action": str,
    "card": str,
    "cards": list[str],
    "amount": int,
    "forced": bool,
    "blind": bool,
    "drawn": str,
    "meld": int | list[str],
    #: a chip's or a card's origin and destination (``seat:2``, ``pot:Ah``; ``stock``, ``discard``)
    "from": str,
    "to": str,
    "reason": str,
    #: the pots a stops hand left unclaimed
    "pots": list[str],
    "points": int,
    # the start of a hand, as the seat reading it sees it
    "ruleset": str | dict[str, Any],
    "players": list[str],
    "dealer": int,
    "hand": list[str] | None,
    "hand_sizes": list[int],
    "board": list[dict[str, Any]],
    "start": dict[str, Any],
    "widow_size": int,
    "chips": list[Any],
    "style": str,
    "aces": str,
    "ace_value": int,
    "turned_up": str,
    "stock": int,
    "discard": list[str],
    "given_up": list[str],
    "after": str,
    # the end of a hand
    "hands": list[Any],
    "counts": list[int],
    "deltas": list[int],
    "knocker": int | None,
    "melds": list[Any],
    "winner": int | None,
    # the table's own events between hands
    "hand_seats": list[int],
    "result": "HandResult",
    "standings": list[dict[str, Any]],
}, total=False)


# ----------------------------------------------------------------------------------------- views


class HandView(TypedDict, total=False):
    """What one seat (or a spectator, ``seat`` None) may know of a hand in play (R-VIEW-1)."""

    seq: Required[int]
    seat: Required[int | None]
    phase: Required[str]
    to_act: Required[list[int]]
    players: Required[list[str]]
    dealer: Required[int]
    hand: Required[list[str] | None]
    hand_sizes: Required[list[int]]
    chips: Required[list[Any]]
    #: R-NOTE-3 action objects (docs/protocol.md): the seat's choices now
    legal_actions: Required[list[dict[str, Any]]]
    ruleset: Required[str | dict[str, Any]]
    # stops
    board: list[dict[str, Any]]
    start: dict[str, Any]
    pots: dict[str, int]
    widow_size: int
    swapped: int | None
    given_up: dict[str, Any]
    played: list[dict[str, Any]]
    showdown: dict[str, list[str]]
    auction: dict[str, Any]
    betting: dict[str, Any]
    play: dict[str, Any]
    winner: int | None
    best_five: dict[str, Any] | None
    # Rummy family
    style: str
    aces: str
    ace_value: int
    turned_up: str
    turn: int | None
    stock: int
    flips: int
    discard: list[str]
    melds: list[dict[str, Any]]
    points: list[int]
    shown: list[list[str]]
    outcome: dict[str, Any]
    arranged: dict[str, Any]
    knocks: dict[str, int]
    # what a person is told beside it (``guide=True``), and what a bot replays (``history=True``)
    prompt: str
    forced: dict[str, Any]
    events: list[Event]
    actions: list[dict[str, Any]]
    history: list[Event]
    flipped_at: list[int]
    drawn: list[list[Any]]


class SeatEntry(TypedDict):
    """A seat of the table as every view lists it."""

    seat: int
    name: str
    bot: str | None
    chips: int | str
    seated: bool


class TableView(TypedDict):
    """What one evening seat (``you``; None for a spectator) may know of the table now."""

    seq: int
    game: str
    ruleset: str | dict[str, Any]
    title: str
    you: int | None
    seats: list[SeatEntry]
    hand_no: int
    hands: int | None
    dealer: int
    hand_seats: list[int]
    hand: HandView | None
    to_act: list[int]
    hand_over: bool
    over: bool
    standings: list[dict[str, Any]]
    result: HandResult | None
    settlement: list[dict[str, Any]]
    board: dict[str, int]
    bonuses: list[dict[str, Any]]
    end_note: str
    ending: bool


# ----------------------------------------------------------------------------------------- results


class Change(TypedDict):
    """A seat's count before and after a hand, and the difference."""

    seat: int
    name: str
    before: int | str
    after: int | str
    change: int | str


class ResultBase(TypedDict):
    """What every finished hand's result says, whatever the family."""

    game: str
    reason: str | None
    #: the ending in players' words (``out``, ``stall``, ``gin``, ``undercut`` ...)
    outcome: str
    winner: int | None
    headline: str
    changes: list[Change]
    lines: list[str]
    #: the pots won (a stops hand's result always says; a Rummy hand has no pots)
    pots_won: NotRequired[list[PotWon]]


class PotWon(TypedDict):
    pot: str
    name: str
    seat: int
    amount: int
    why: str
    text: str


class Shown(TypedDict):
    """A five shown at a stops showdown."""

    seat: int
    player: str
    cards: list[str]
    name: str
    won: bool


class StopsResult(ResultBase, total=False):
    payments: Required[list[dict[str, Any]]]
    showdown: Required[list[Shown]]
    #: what the showdown's winner won, in words beside its name ("wins the Poker pot", Poch's "wins the vying")
    showdown_won: Required[str]
    board: Required[dict[str, int]]
    hand_no: int


class SettledHand(TypedDict):
    """A Rummy-family hand as it was settled: the melds shown, the cards laid off, the deadwood and its count."""

    seat: int
    cards: list[str]
    melds: list[list[str]]
    laid_off: list[str]
    deadwood: list[str]
    count: int
    #: what the cards left are called: ``deadwood`` (arranged: Knock, Gin, or a hand with melds) or ``left in hand``
    left: str


class RummyResult(ResultBase, total=False):
    knocker: Required[int | None]
    #: what the winner did, in words beside its name: "wins the hand"; in 500 Rum, where every seat scores what it
    #: laid and going out only ends the hand, "goes out"
    winner_did: Required[str]
    #: the knocker's tag in words ("knocked", or "goes gin" for a knock with no deadwood), ``None`` without a knock
    knocker_did: Required[str | None]
    hands: Required[list[SettledHand]]
    points: Required[list[dict[str, Any]]]
    hand_no: int


HandResult = StopsResult | RummyResult
