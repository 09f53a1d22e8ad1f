"""The fast path a searching bot plays a stops hand by (part of :class:`~rummoli.stops.hand.Hand`).

A searching bot plays thousands of hands per decision.  These skip the Action objects, the checks and the
event rendering of ``apply()``; they trust their caller to step only what :meth:`SearchPath.options` lists,
and are not for clients (they go through ``apply()``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.stops.base import OVER, HandState, Option


class SearchPath(HandState):
    """Raw options, unchecked steps and the few facts a search reads (see the module's docstring)."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    def options(self) -> list[Option]:
        """Every legal option now, raw: ``(seat, kind, low, high, cards)`` (a bet range, a card mask)."""
        return list(self._options_now())

    def step(self, seat: int, kind: str, card: int = -1, amount: int = 0, forced: bool = False) -> None:
        """Make one option that :meth:`options` lists, unchecked (``card`` an index, -1 for none), then
        the forced actions that follow when ``auto`` is on."""
        self._tracking = False
        self._do(seat, kind, card, amount, forced)
        self._settle_forced()

    def forced_option(self) -> Option | None:
        """The only legal option now, raw (as :meth:`options` lists it), or ``None``: what ``auto`` would
        make at once, for a caller that steps with ``auto`` off and makes the forced actions itself."""
        return self._forced(self._options()) if self.phase != OVER else None

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to stay in the betting round."""
        return self._level - self._put[seat] if self._put else 0

    @property
    def folded(self) -> int:
        """The seats that folded in the betting round, as a bit set."""
        return self._folded

    @property
    def claim_pending(self) -> int:
        """The seat that may claim a pot it just laid the card for (``claim = announce``), or -1."""
        return self._pending_seat if self._pending else -1

    @property
    def lead_mask(self) -> int:
        """The cards the seat to play may lay now (one card in a run, the choices at a lead)."""
        return self._lead_mask

    @property
    def in_run(self) -> bool:
        """Whether a run is under way (the next card is a play, not a lead)."""
        return self._run
