"""What every part of a Rummy hand shares: the move codes, the phase names and the state's fields.

:class:`~rummoli.rummy.hand.RummyHand` is put together from the hand itself (the state, the one legality
function, the moves), :class:`~rummoli.rummy.views.Views` (events, records, views) and
:class:`~rummoli.rummy.search_path.SearchPath` (the search's fast path).  This base only declares, for the
type checker, the fields the hand holds and the methods each part calls on the other; it adds no state.

A move is a small tuple ``(code, x, y)``: the code below, a card index or a card mask (a meld), and a meld
index (a lay-off).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummoli.cards import Card
    from rummoli.rummy.melds import MeldTable
    from rummoli.rummy.ruleset import Ruleset
    from rummoli.streams import Stream

DRAW_STOCK, DRAW_DISCARD, MELD, LAYOFF, DISCARD, KNOCK, PASS = range(7)
DRAW, PLAY, OVER = "draw", "play", "over"
OFFER_NONE, OFFER_FIRST, OFFER_DEALER, OFFER_STOCK = range(4)  # Gin's upcard offer (R-GIN-2)
Move = tuple[int, int, int]
#: A logged move: ``(seat, code, x, y, forced)``; forced 0 = chosen, 2 = forced for all to see, 1 = forced
#: by the hidden hand.
Entry = tuple[int, int, int, int, int]


class HandState:
    """The fields of a hand (declared here, stored in ``RummyHand.__slots__``)."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    if TYPE_CHECKING:
        rules: Ruleset
        melds_table: MeldTable
        players: list[str]
        n: int
        scores: list[int]
        dealer: int
        dealt: list[list[Card]]
        dealt_stock: list[Card]
        hands: list[int]
        stock: list[int]
        pile: list[int]
        melds: list[int]
        owners: list[int]
        points: list[int]
        turn: int
        phase: str
        flips: int
        outcome: dict[str, Any]
        log: list[Entry]
        events_log: list[Entry | dict[str, Any]]
        stock_draws: list[tuple[int, int]]
        reshuffle_given: list[int] | None
        reshuffled: list[int] | None
        _events: Stream
        _tracking: bool
        _action_at: list[int]
        _actions_seen: int
        _drawn: dict[int, int]
        _static: dict[str, Any]

        def refusal(self, seat: int, code: int, x: int, y: int) -> tuple[str, str] | None: ...
        def moves(self) -> list[Move]: ...
        def _do(self, move: Move, forced: int = 0) -> None: ...
        def move_json(self, seat: int, move: Move) -> dict[str, Any]: ...

    # A forced move (a draw with nothing else legal) is made inside the move before it: none ever waits for the
    # table's pace, as a stops hand's can (rummoli.games.family.Hand asks every hand).
    def forced_action(self) -> None:
        return None

    def step_forced(self) -> bool:
        return False

    def forced_shown(self) -> bool:
        return False
