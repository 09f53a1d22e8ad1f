"""An evening of Poch (R-PO-14): hands dealt in turn round the table on one board whose pools carry over,
players who cannot pay the ante leaving, and the board shared out at the end.  It is the evening the table
(:class:`rummoli.table.Table`) plays, through the same few calls as the other families' evenings.

>>> from rummoli.cards import shuffled_deck
>>> ev = PochEvening("poch", ["Ann", "Bob", "Cy"], None, 2, 0, None)
>>> hand, seats = ev.start(shuffled_deck("doc"), True, 0)
>>> seats, hand.dealer, sum(ev.chips(hand, seats)) + sum(ev.pots(hand).values())
([0, 1, 2], 0, 300)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from rummoli.cards import Card
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.limits import MAX_START_CHIPS
from rummoli.poch.hand import PochHand
from rummoli.poch.replay import deal_hand
from rummoli.poch.ruleset import load_ruleset
from rummoli.wording import chips as chips_word


class PochEvening:
    """A session of Poch hands (see the module's docstring)."""

    def __init__(self, reference: str | dict[str, Any], names: Sequence[str], chips: int | None,
                 hands: int | None, dealer: int | None, cut_seed: str | None) -> None:
        self.rules = load_ruleset(reference)
        n = len(names)
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise MalformedInput(f"{self.rules.title} seats {self.rules.min_players} to {self.rules.max_players} "
                                 f"players, not {n}", "R-PO-1")
        start = self.rules.starting_chips if chips is None else chips
        if isinstance(start, bool) or not isinstance(start, int) or \
                not self.rules.ante_per_seat() <= start <= MAX_START_CHIPS:
            raise MalformedInput(f"starting chips must cover one hand's ante ({self.rules.ante_per_seat()})", "R-PO-3")
        self.names = list(names)
        self.chips_now = [start] * n
        self.is_seated = [True] * n
        self.board = {p.id: 0 for p in self.rules.pools}
        self.max_hands = hands
        self.hands_played = 0
        self.ended = False
        self.log: list[dict[str, Any]] = []
        self.hand_seats: list[int] = []
        if dealer is None:  # the first dealer by lot (R-PO-14)
            dealer = (random.Random(cut_seed) if cut_seed is not None else secrets.SystemRandom()).randrange(n)
        self._dealer = dealer
        self.cut: list[dict[str, str]] | None = None  # no cut: by lot, or given
        self.settled = False

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def ledger_length(self) -> int:
        return len(self.log)

    def _payers(self) -> list[int]:
        ante = self.rules.ante_per_seat()
        return [s for s in range(len(self.names)) if self.is_seated[s] and self.chips_now[s] >= ante]

    @property
    def over(self) -> bool:
        if self.ended or (self.max_hands is not None and self.hands_played >= self.max_hands):
            return True
        return len(self._payers()) < self.rules.min_players

    def _drop_broke(self) -> None:
        """R-PO-3: a player who cannot pay the whole ante leaves; their chips go to the pool for going out (or
        the board's last pool)."""
        pool = self.rules.pool_of("out")
        pot = self.rules.pools[pool if pool >= 0 else -1].id
        for seat in range(len(self.names)):
            if self.is_seated[seat] and self.chips_now[seat] < self.rules.ante_per_seat():
                self.is_seated[seat] = False
                self.log.append({"type": "out", "player": self.names[seat], "chips_to_centre": self.chips_now[seat],
                                 "pot": pot})
                self.board[pot] += self.chips_now[seat]
                self.chips_now[seat] = 0

    def start(self, deck: Sequence[Card], auto: bool, chance: int) -> tuple[PochHand, list[int]]:
        """Ante and deal the next hand from ``deck`` (nothing is left to chance after the deal)."""
        self._drop_broke()
        if self.over:
            raise IllegalAction("R-PO-14", "the evening is over")
        seats = [s for s in range(len(self.names)) if self.is_seated[s]]
        while not self.is_seated[self._dealer]:
            self._dealer = (self._dealer + 1) % len(self.names)
        self.hand_seats = seats
        hand = deal_hand(self.rules, [self.names[s] for s in seats], [self.chips_now[s] for s in seats],
                         dict(self.board), seats.index(self._dealer), list(deck), auto=auto)
        return hand, list(seats)

    def finish(self, hand: PochHand) -> dict[str, Any]:
        for i, seat in enumerate(self.hand_seats):
            self.chips_now[seat] = hand.chips[i]
        self.board = hand.pot_balances()
        self.hands_played += 1
        n = len(self.names)
        self._dealer = next(((self._dealer + k) % n for k in range(1, n + 1) if self.is_seated[(self._dealer + k) % n]),
                            self._dealer)
        return hand.record()

    def chips(self, hand: Any, seats: Sequence[int]) -> list[Any]:
        out: list[Any] = list(self.chips_now)
        if hand is not None and seats:
            for i, seat in enumerate(seats):
                out[seat] = hand.chips[i]
        return out

    def seated(self) -> list[bool]:
        return list(self.is_seated)

    def ledger_since(self, start: int) -> list[dict[str, Any]]:
        return self.log[start:]

    def end(self) -> None:
        self.ended = True

    def end_note(self) -> str:
        return ""

    def settle(self, decks: Sequence[Sequence[Card]]) -> list[dict[str, Any]]:
        """R-PO-14: what is left on the board is shared equally among the players still seated; the odd chips
        go one each from the dealer's left.  (No cards are needed: ``decks`` is not used.)"""
        total = sum(self.board.values())
        if self.settled or not self.over or total == 0:
            return []
        self.settled = True
        n = len(self.names)
        seats = [(self._dealer + k) % n for k in range(1, n + 1) if self.is_seated[(self._dealer + k) % n]]
        share, odd = divmod(total, len(seats))
        paid = {seat: share + (1 if k < odd else 0) for k, seat in enumerate(seats)}
        for seat, amount in paid.items():
            self.chips_now[seat] += amount
        self.board = dict.fromkeys(self.board, 0)
        payments = [{"seat": s, "name": self.names[s], "amount": a} for s, a in paid.items()]
        text = f"The {chips_word(total)} left on the board are shared: " + \
            ", ".join(f"{self.names[s]} {chips_word(a)}" for s, a in paid.items()) + "."
        return [{"pot": "all", "name": "the whole board", "amount": total, "how": "share",
                 "paid": {self.names[s]: a for s, a in paid.items()}, "shown": {}, "payments": payments,
                 "showdown": [], "text": text}]

    def standings(self) -> list[dict[str, Any]]:
        order = sorted(range(len(self.names)), key=lambda s: -self.chips_now[s])
        best = self.chips_now[order[0]]
        out: list[dict[str, Any]] = []
        for k, seat in enumerate(order):
            same = out and self.chips_now[seat] == out[-1]["chips"]
            out.append({"place": out[-1]["place"] if same else k + 1, "seat": seat, "name": self.names[seat],
                        "chips": self.chips_now[seat], "seated": self.is_seated[seat],
                        "winner": self.chips_now[seat] == best})
        return out

    def pots(self, hand: Any) -> dict[str, int]:
        return hand.pot_balances() if hand is not None and not hand.over else dict(self.board)
