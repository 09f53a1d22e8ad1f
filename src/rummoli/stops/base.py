"""What every part of a stops hand shares: the phase names, the option tuple and the state's fields.

:class:`~rummoli.stops.hand.Hand` is put together from :class:`~rummoli.stops.bidding.Bidding` (the
ante, the widow and its auction, the poker round), :class:`~rummoli.stops.play.Play` (the play
round and the end of the hand), :class:`~rummoli.stops.views.Views` (events, records, views) and
:class:`~rummoli.stops.search_path.SearchPath` (the search's fast path).  This base only declares, for the
type checker, the fields that ``Hand.__slots__`` holds and the methods each part calls on the other; it adds
no state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Callable

    from rummoli.cards import Card
    from rummoli.stops.ruleset import Ruleset
    from rummoli.streams import Stream

WIDOW: Final = "widow"
AUCTION: Final = "auction"
BETTING: Final = "poker"
PLAY: Final = "play"
OVER: Final = "over"

IN_WIDOW: Final = -1
PLAYED: Final = -2
# Option tuples: (seat, kind, low, high, card mask).  One list serves listing and checking.
Option = tuple[int, str, int, int, int]


class HandState:
    """The fields of a hand (declared here, stored in ``Hand.__slots__``)."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    if TYPE_CHECKING:
        rules: Ruleset
        n: int
        names: list[str]
        dealer: int
        chips: list[int]
        pots: list[int]
        start_chips: list[int]
        start_pots: list[int]
        with_ante: bool
        auto: bool
        dealt: list[list[Card]]
        dealt_widow: list[Card]
        hands: list[int]
        owner: list[int]
        log: list[tuple[Any, ...]]
        phase: str
        turn: int
        swapped: int
        given_up: int
        _shown: dict[int, tuple[int, int]]
        poker_winners: list[int]
        winner: int
        play_start: list[int]
        _card_pots: tuple[tuple[int, ...], ...]
        _combo_end: tuple[tuple[tuple[int, int], ...], ...]
        _pay_mask: int
        _bid: int
        _bidder: int
        _passed: int
        _put: list[int]
        _start_stack: list[int]
        _level: int
        _cap_value: int
        _raises: int
        _folded: int
        _run: bool
        _lead_mask: int
        _stopped_suit: int
        _streak_from: int
        _last_layer: int
        _pending: bool
        _pending_seat: int
        _pending_pots: list[int]
        _tracking: bool
        _events: Stream
        _static: dict[str, Any]
        _played: list[dict[str, Any]]
        _played_at: int
        _shown_json: tuple[int, dict[str, list[str]]]

        def _move(self, src: int, dst: int, amount: int, reason: str) -> None: ...
        def _options(self) -> list[Option]: ...
        def _options_now(self) -> list[Option]: ...
        @staticmethod
        def _forced(opts: list[Option]) -> Option | None: ...
        def _do(self, seat: int, kind: str, card: int, amount: int, forced: bool) -> None: ...
        def _settle_forced(self) -> list[Option] | None: ...
        def _begin_play(self) -> None: ...
        def _play_forced(self, getrandbits: Callable[[int], int] | None = None) -> None: ...
        def _mark(self) -> None: ...
        def _poker_win(self, seats: list[int], show: bool, hands: list[int] | None = None) -> None: ...
        @property
        def showdown(self) -> dict[int, int]: ...
        def pot_balances(self) -> dict[str, int]: ...
        def phase_state(self) -> dict[str, Any]: ...
