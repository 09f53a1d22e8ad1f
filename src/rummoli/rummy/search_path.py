"""The fast path a searching bot plays a Rummy hand by (part of :class:`~rummoli.rummy.hand.RummyHand`).

A searching bot plays thousands of moves per decision, and a simulation plays whole hands at random.  They
skip the Action objects, the checks and the state marks of ``apply()``: a move is the raw ``(code, x, y)``
tuple of :mod:`rummoli.rummy.base`, listed by :meth:`RummyHand.moves <rummoli.rummy.hand.RummyHand.moves>`
and checked, when the caller builds one itself, by :meth:`RummyHand.refusal
<rummoli.rummy.hand.RummyHand.refusal>` (the hand's one legality function), and made by :meth:`SearchPath.step`.
They trust their caller to make only legal moves, and are not for clients (they go through ``apply()``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rummoli.rummy.base import OVER, HandState, Move


class SearchPath(HandState):
    """Unchecked moves without state marks (see the module's docstring)."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    def step(self, move: Move) -> None:
        """Make ``move`` (legal: one :meth:`moves` lists, or one :meth:`refusal` accepts), unchecked, and the
        forced moves that follow; no state mark (a reader of the stream gets one when it reads)."""
        self._tracking = False
        self._do(move)

    def random_playout(self, rng: random.Random) -> None:
        """Play the hand to its end with uniformly random legal moves (each drawn from ``rng`` among
        :meth:`moves`): the fast path of simulations and the benchmark."""
        self._tracking = False
        moves, do = self.moves, self._do
        while self.phase != OVER:
            legal = moves()
            do(legal[rng.randrange(len(legal))])
