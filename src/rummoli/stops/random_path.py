"""The random path a stops hand is played by in simulations, ``rummoli hand`` and the benchmark (part of
:class:`~rummoli.stops.hand.Hand`).

Uniformly random legal decisions, drawn in one fixed way (an option, then an amount or a card) so a seeded
generator gives the same hand every time; forced actions made at once, as ``apply()`` makes them, but with no
state marks (a reader gets one when it reads) and no Action objects.  :meth:`RandomPath.random_play` with a
``random.Random`` draws through its ``getrandbits`` as ``choice`` and ``randint`` do, inside two twins (compiled
where they could be): ``bid_random`` makes the decisions before the play round and ``play_plain`` the leads with
the forced cards around them; a generator of another class decides one step at a time, and gives the same hand.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from random import Random
from typing import TYPE_CHECKING, Final

from rummoli.stops.actions import KINDS
from rummoli.stops.base import AUCTION, BETTING, OVER, PLAY, WIDOW, HandState, Option
from rummoli.stops.play import lead_cards
from rummoli.stops.random_bidding import BETTING_OVER, BID_WORDS, bid_random, bid_table

#: The phases before the play round as :func:`~rummoli.stops.random_bidding.bid_random` numbers them.
_BID_PHASES: Final = (WIDOW, AUCTION, BETTING)

class RandomPath(HandState):
    """Random decisions (see the module's docstring)."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    def random_step(self, rng: Random) -> None:
        """Make one uniformly random legal decision (an option, then an amount or a card), then any
        forced actions: the fast path of simulations and the benchmark.  A finished hand is left as it is."""
        if self.phase == OVER:
            return
        self._tracking = False  # the fast path: no state marks (a reader gets one when it reads)
        self._random_decision(self._options(), rng)

    def random_play(self, rng: Random) -> None:
        """:meth:`random_step` until the hand is over (the same draws, so the same hand), each state's options
        worked out once: the forced actions after a decision leave the options of the next one."""
        if self.phase == OVER:
            return
        self._tracking = False
        if self.auto and type(rng) is Random:  # another generator's class may draw its own way
            self._random_fast(rng)
            return
        opts = self._options()
        while True:
            after = self._random_decision(opts, rng)
            if self.phase == OVER:
                return
            opts = self._options() if after is None else after

    def _random_fast(self, rng: Random) -> None:
        """:meth:`random_play` with every draw through ``rng.getrandbits``, as ``Random.choice`` and
        ``Random.randint`` draw: the widow, the auction and the poker round in one call (:meth:`_random_bidding`),
        then the leads drawn and laid with the forced cards (``Play._play_forced``); an open claim and the choice
        after it go the general way."""
        getrandbits = rng.getrandbits
        if self.phase != PLAY:
            self._random_bidding(getrandbits)
        while self.phase != OVER:
            if self._pending:  # claim or lead on: drawn the general way
                self._random_decision(self._options(), rng)
            else:  # returns when a claim is open or the hand is over
                self._play_forced(getrandbits)

    def _random_bidding(self, getrandbits: Callable[[int], int]) -> None:
        """:meth:`random_play`'s decisions up to the play round, by ``bid_random`` (the same draws, moves and log
        entries as one :meth:`_random_decision` after another), then the showdown; the play round is begun, its
        first cards left to :meth:`_random_fast`."""
        self.bid_with(partial(bid_random, getrandbits))

    def bid_with(self, run: Callable[..., int]) -> None:
        """The decisions from the widow choice, the auction or the poker round up to the play round, made in one
        call by ``run``, a loop over plain numbers (``bid_random`` or another decider's
        :func:`~rummoli.stops.random_bidding.bid_loop`, given the arguments after its decider), then the showdown;
        the play round is begun.  The hand must be in one of those phases."""
        self._tracking = False
        state = [_BID_PHASES.index(self.phase), self.turn, self._bid, self._bidder, self._passed, self._level,
                 self._cap_value, self._raises, self._folded, self.swapped, self.given_up]
        status = run(state, self.chips, self.pots, self.hands, self.owner, self.log, self._put, self._start_stack,
                     bid_table(self.rules, self.n, self.dealer, self._pay_mask), BID_WORDS)
        phase, self.turn, self._bid, self._bidder, self._passed, self._level, self._cap_value, self._raises, \
            self._folded, self.swapped, self.given_up = state
        self.phase = _BID_PHASES[phase]
        if status == BETTING_OVER:
            alive = [s for s in range(self.n) if not self._folded >> s & 1]
            self._poker_win(alive, show=len(alive) > 1)
        self._begin_play()

    def _random_decision(self, opts: list[Option], rng: Random) -> list[Option] | None:
        """Draw one of ``opts`` (the options now), make it and the forced actions after it; the options then,
        when making those worked them out."""
        seat, kind, low, high, cards = opts[0] if len(opts) == 1 else rng.choice(opts)
        field = KINDS[kind]
        card = amount = -1
        if field == "amount":
            amount = rng.randint(low, high)
        elif field == "card":
            card = rng.choice(lead_cards(cards)) if cards & (cards - 1) else cards.bit_length() - 1
        forced = len(opts) == 1 and self._forced(opts) is not None
        self._do(seat, kind, card, amount, forced)
        return self._settle_forced()
