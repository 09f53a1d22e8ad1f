"""The hand before the play round: ante, pay on hold, the widow and its auction, the poker round.

docs/rules.md R-ANTE-1, R-WIDOW-1, R-POKER-1 to R-POKER-3, and the options ``pay = on_hold``,
``widow_bar`` and ``dealer_ante``.  A mixin of :class:`~rummoli.stops.hand.Hand`, which holds the
state and the one legality function; the choices open in these phases come from
:meth:`Bidding._bidding_options`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rummoli.cards import mask_of
from rummoli.errors import IllegalAction
from rummoli.poker import HandValue, evaluate_mask
from rummoli.stops.base import AUCTION, BETTING, IN_WIDOW, WIDOW, HandState, Option
from rummoli.stops.ruleset import CARD, COMBO, Ruleset


@lru_cache(maxsize=4096)
def shown_five(value: int, held: int) -> int:
    """The best five cards (a mask) of a hand ``held`` worth ``value``, as its showdown shows them
    (R-POKER-3); remembered, since every seat's view and event stream reads the same showdown."""
    return mask_of(HandValue(value, held).cards)


#: What every hand of a ruleset antes with ``n`` seats and a dealer, by the ruleset object itself (as
#: ``play.board_tables`` keeps its tables): each seat's whole ante, what each pot gains and the log's entries.
AnteTable = tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[str, int, int, int, str], ...]]
_ANTES_OF: dict[tuple[int, int, int], tuple[Ruleset, AnteTable]] = {}


def _ante_table(rules: Ruleset, n: int, dealer: int) -> AnteTable:
    """Per seat its whole ante (R-ANTE-1; the dealer's twice with ``dealer_ante = double``), per pot anted on
    ``(pot index, chips)``, and the ``chips`` entries the ante logs, seat by seat in board order: the same for
    every hand of this ruleset, seats and dealer, so worked out once (a hand's ante was a tenth of it)."""
    key = (id(rules), n, dealer)
    hit = _ANTES_OF.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    antes = [(j, rules.ante(p)) for j, p in enumerate(rules.board.pots) if rules.ante(p)]
    double = rules.dealer_ante == "double"
    factors = [2 if double and seat == dealer else 1 for seat in range(n)]
    per_seat = sum(ante for _, ante in antes)
    table = (tuple(per_seat * f for f in factors), tuple((j, ante * sum(factors)) for j, ante in antes),
             tuple(("chips", seat, -1 - j, ante * factors[seat], "ante") for seat in range(n) for j, ante in antes))
    if len(_ANTES_OF) < 4096:  # the entry keeps the ruleset alive, so its id is not reused meanwhile
        _ANTES_OF[key] = (rules, table)
    return table


class Bidding(HandState):
    """Ante, widow, auction and the betting round of a :class:`~rummoli.stops.hand.Hand`."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    def _ante(self) -> None:
        needs, gains, entries = _ante_table(self.rules, self.n, self.dealer)
        chips = self.chips
        for seat, need in enumerate(needs):
            if chips[seat] < need:
                raise IllegalAction("R-ANTE-1", f"seat {seat} ({self.names[seat]}) holds {chips[seat]} "
                                    f"chips and cannot pay the ante of {need}: they are out of the session")
        for seat, need in enumerate(needs):
            chips[seat] -= need
        balances = self.pots
        for j, gain in gains:
            balances[j] += gain
        self.log.extend(entries)

    def _pay_on_hold(self) -> None:
        """``pay = on_hold``: whoever was dealt a pot's card (or a whole combo) takes it now."""
        order = [(self.dealer + 1 + k) % self.n for k in range(self.n)]
        for j, pot in enumerate(self.rules.board.pots):
            if pot.kind == CARD:
                seat = self.owner[pot.cards[0]]
                if seat >= 0:
                    self._move(-1 - j, seat, self.pots[j], "on_hold")
            elif pot.kind == COMBO:
                suits = range(4) if pot.suit is None else (pot.suit,)
                for seat in order:
                    if any(all(self.owner[13 * s + r] == seat for r in pot.ranks) for s in suits):
                        self._move(-1 - j, seat, self.pots[j], "on_hold")
                        break

    def _barred(self, seat: int) -> bool:
        return self.rules.widow_bar == "pay_card_holders" and bool(self.hands[seat] & self._pay_mask)

    def _cap(self) -> int:
        """R-POKER-1: the smallest starting stack among players not folded (kept up to date on folds)."""
        return self._cap_value

    def _bidding_options(self) -> list[Option]:
        """The legal options in the widow, auction and betting phases (see ``Hand._options``)."""
        phase = self.phase
        seat = self.turn
        if phase == BETTING:
            put, level, cap = self._put[seat], self._level, self._cap()
            max_bet = self.rules.max_bet
            if put == level:
                opts = [(seat, "check", 0, 0, 0)]
                if level == 0 and cap > 0:
                    opts.append((seat, "bet", 1, min(max_bet, cap), 0))
                return opts
            opts = [(seat, "call", 0, 0, 0), (seat, "fold", 0, 0, 0)]
            if self._raises < self.rules.max_raises and cap > level:
                opts.append((seat, "raise", 1, min(max_bet, cap - level), 0))
            return opts
        if phase == AUCTION:
            opts = [(seat, "pass", 0, 0, 0)]
            if not self._barred(seat) and self.chips[seat] > self._bid:
                opts.append((seat, "bid", self._bid + 1, self.chips[seat], 0))
            return opts
        if phase == WIDOW:
            opts = [(seat, "keep", 0, 0, 0)]
            if not self._barred(seat):
                opts.append((seat, "swap", 0, 0, 0))
            return opts
        return []

    def _swap(self, seat: int) -> None:
        old = self.hands[seat]
        widow = old ^ ((1 << 52) - 1)
        for m in self.hands:
            widow &= ~m
        self.hands[seat] = widow
        owner = self.owner
        for c, holder in ((widow, seat), (old, IN_WIDOW)):
            while c:
                low = c & -c
                owner[low.bit_length() - 1] = holder
                c ^= low
        self.swapped = seat
        self.given_up = old
        self.log.append(("swap", seat))

    def _next_bidder(self) -> None:
        n = self.n
        others = ((1 << n) - 1) & ~self._passed
        if self._bidder >= 0:
            others &= ~(1 << self._bidder)
        if not others:
            if self._bidder >= 0:
                self._move(self._bidder, self.dealer, self._bid, "widow_bid")
                self._swap(self._bidder)
            self._begin_poker()
            return
        seat = self.turn
        for _ in range(n):
            seat = (seat + 1) % n
            if others >> seat & 1:
                self.turn = seat
                return

    # ----------------------------------------------------------------------------- poker
    def _begin_poker(self) -> None:
        if self.rules.poker == "before_play" and self.rules.board.poker is not None:
            self.phase = BETTING
            self._start_stack = list(self.chips)
            self._cap_value = min(self.chips)
            self._put = [0] * self.n
            self._level = self._raises = self._folded = 0
            self._passed = (1 << self.n) - 1  # reused: seats still to act in this betting round
            self.turn = (self.dealer + 1) % self.n
            return
        self._begin_play()

    def _betting(self, seat: int, kind: str, amount: int) -> None:
        n = self.n
        everyone = ((1 << n) - 1) & ~self._folded
        poker = -1 - (self.rules.board.poker or 0)
        if kind == "bet" or kind == "raise":
            add = (self._level - self._put[seat]) + amount
            self._level += amount
            if kind == "raise":
                self._raises += 1
            self._put[seat] += add
            self._move(seat, poker, add, "bet")
            self._passed = everyone & ~(1 << seat)
        else:
            if kind == "call":
                add = self._level - self._put[seat]
                self._put[seat] += add
                self._move(seat, poker, add, "bet")
            elif kind == "fold":
                self._folded |= 1 << seat
                self._cap_value = min(self._start_stack[s] for s in range(n) if not self._folded >> s & 1)
            self._passed &= ~(1 << seat)
        alive = ((1 << n) - 1) & ~self._folded
        if alive & (alive - 1) == 0:
            self._poker_win([alive.bit_length() - 1], show=False)
            self._begin_play()
            return
        if not self._passed:
            self._poker_win([s for s in range(n) if alive >> s & 1], show=True)
            self._begin_play()
            return
        for k in range(1, n):
            nxt = (seat + k) % n
            if self._passed >> nxt & 1:
                self.turn = nxt
                return

    def _poker_win(self, seats: list[int], show: bool, hands: list[int] | None = None) -> None:
        """Showdown among ``seats`` (R-POKER-3 shows each one's best five); the best take the pot."""
        held = hands if hands is not None else self.hands
        if show and len(seats) > 1:
            values = {s: evaluate_mask(held[s]) for s in seats}
            for s in seats:
                # The five cards shown are picked out when read (shown_five): a search's rollouts hold
                # thousands of showdowns nobody reads.
                self._shown[s] = (values[s], held[s])
                self.log.append(("show", s, values[s], held[s]))
            best = max(values.values())
            seats = [s for s in seats if values[s] == best]
        order = sorted(seats, key=lambda s: (s - self.dealer - 1) % self.n)
        self.poker_winners = order
        j = self.rules.board.poker
        assert j is not None
        share = self.pots[j] // len(order)
        for s in order:
            self._move(-1 - j, s, share, "poker")
