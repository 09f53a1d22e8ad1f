"""An evening of stops hands (docs/rules.md §2.4, R-MI-1, R-MI-7).

A :class:`Session` seats 2–8 players (the ruleset's range) with equal starting chips, keeps the
board's pots from hand to hand, passes the deal left, drops a player who cannot ante (their chips
go to the centre pot), voids a hand when the table must, and at the end settles what is left on the
board and ranks the players.

>>> s = Session("rummoli", ["Ann", "Bob", "Cy"], dealer=0, max_hands=2)
>>> while not s.over:
...     hand = s.start_hand(seed=s.hands_played)
...     s.play_random(hand, seed=1)
...     _ = s.finish_hand(hand)
>>> s.hands_played, s.dealer
(2, 2)
>>> result = s.settle(seed=3)
>>> sum(s.chips), sum(s.pots.values())
(300, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rummoli.cards import CARDS, Card, shuffled_deck
from rummoli.dealing import deal_with_widow
from rummoli.errors import IllegalAction, MalformedInput, quote
from rummoli.limits import MAX_START_CHIPS
from rummoli.poker import HandValue, evaluate_mask
from rummoli.stops.hand import Hand
from rummoli.stops.result import settlement_entry
from rummoli.stops.ruleset import Ruleset, load_ruleset
from rummoli.wording import players_range


class Session:
    """An evening: seats, chips, the board's pots, the dealer and the hands played."""

    def __init__(
        self,
        ruleset: Ruleset | str | dict[str, Any],
        players: Sequence[str],
        *,
        chips: int | None = None,
        dealer: int | None = None,
        cut_seed: int | str | None = None,
        max_hands: int | None = None,
        max_rotations: int | None = None,
    ) -> None:
        self.rules = load_ruleset(ruleset)
        # asked at every check of whether the evening is over (several times a hand): the rules never change
        self._per_seat_ante = self.rules.ante_per_seat()
        n = len(players)
        if not self.rules.min_players <= n <= self.rules.max_players:
            seated = players_range(self.rules.min_players, self.rules.max_players)
            raise MalformedInput(f"{self.rules.title} seats {seated}, not {n}", "R-SESSION-1")  # the rule as a field
        start = self.rules.starting_chips if chips is None else chips
        ante = self.rules.ante_per_seat() * (2 if self.rules.dealer_ante == "double" else 1)
        if isinstance(start, bool) or not isinstance(start, int) or not max(1, ante) <= start <= MAX_START_CHIPS:
            raise MalformedInput(f"starting chips are a whole number from {max(1, ante)} (one hand's "
                                 f"ante) to {MAX_START_CHIPS:,}, not {quote(start)}", "R-SESSION-1")
        self.names = list(players)
        self.chips: list[int | Fraction] = [start] * n
        self.seated = [True] * n
        self.pots: dict[str, int] = {p.id: 0 for p in self.rules.board.pots}
        self.max_hands = max_hands
        self.max_rotations = max_rotations
        self.hands_played = 0
        self.rotations = 0
        self.voided: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.cut: list[dict[str, str]] = []
        self.settlement: list[dict[str, Any]] = []
        self.settled = False
        self.ended = False
        self._dealt_this_rotation: set[int] = set()
        self._seats: list[int] = []  # session seat of each hand seat, for the hand in play
        self._redeal: dict[str, Any] | None = None
        self.dealer = self.cut_for_deal(cut_seed) if dealer is None else dealer
        if not 0 <= self.dealer < n:
            raise MalformedInput(f"dealer must be a seat from 0 to {n - 1}")
        self._drop_broke()

    # ------------------------------------------------------------------------------ dealer
    def cut_for_deal(self, seed: int | str | None = None) -> int:
        """R-MI-1: each player cuts a card; the highest rank deals first (ties cut again).

        The cuts are recorded in :attr:`cut`, one dict (name: card) per round.
        """
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        contenders = list(range(len(self.names)))
        while True:
            deck = list(CARDS)
            rng.shuffle(deck)
            drawn = {seat: deck[i] for i, seat in enumerate(contenders)}
            self.cut.append({self.names[s]: str(c) for s, c in drawn.items()})
            best = max(c.rank for c in drawn.values())
            contenders = [s for s in contenders if drawn[s].rank == best]
            if len(contenders) == 1:
                return contenders[0]

    def _next_seated(self, seat: int) -> int:
        n = len(self.names)
        for k in range(1, n + 1):
            if self.seated[(seat + k) % n]:
                return (seat + k) % n
        return seat

    @property
    def players_left(self) -> list[int]:
        return [s for s in range(len(self.names)) if self.seated[s]]

    @property
    def over(self) -> bool:
        """R-SESSION-1: after the agreed hands or rotations, when the table ends it, when too few
        players are left, or when nobody left can pay the next ante."""
        if self._agreed_end() or len(self.players_left) < self._needed():
            return True
        return all(self.chips[s] < self._ante_of(s) for s in self.players_left)

    def _needed(self) -> int:
        return max(2, self.rules.min_players)

    def _agreed_end(self) -> bool:
        if self.ended:
            return True
        if self.max_hands is not None and self.hands_played >= self.max_hands:
            return True
        return self.max_rotations is not None and self.rotations >= self.max_rotations

    def end(self) -> None:
        """The table agrees to stop (at a time, say): no further hand is dealt."""
        self.ended = True

    # ------------------------------------------------------------------------------- hands
    def _ante_of(self, seat: int) -> int:
        per = self._per_seat_ante
        return per * 2 if self.rules.dealer_ante == "double" and seat == self.dealer else per

    def _drop_broke(self) -> None:
        """R-ANTE-1: a player who cannot pay the next ante leaves; their chips go to the centre.

        Checked as soon as a hand is over (and again before each deal), so :attr:`over` is exact.
        Only while another hand is due: at the agreed end nobody antes, so nobody leaves.  Everyone
        who cannot pay leaves at once; a dealer who leaves passes the deal left, and the new dealer's
        ante is checked again (``dealer_ante = double``).  If nobody at all can pay, nobody leaves:
        the session is over with them all seated."""
        centre = self.rules.board.pots[self.rules.board.centre].id
        while not self._agreed_end() and len(self.players_left) >= self._needed():
            if not self.seated[self.dealer]:
                self.dealer = self._next_seated(self.dealer)
            broke = [s for s in self.players_left if self.chips[s] < self._ante_of(s)]
            if not broke or len(broke) == len(self.players_left):
                return
            for seat in broke:
                left = int(self.chips[seat])
                self.pots[centre] += left
                self.chips[seat] = 0
                self.seated[seat] = False
                self.log.append({"type": "out", "seat": seat, "chips_to_centre": left})

    def start_hand(
        self, deck: Sequence[Card] | None = None, seed: int | str | None = None, *, auto: bool = True
    ) -> Hand:
        """Ante and deal the next hand (a new dealt deck, or one shuffled from ``seed``).

        With ``auto=False`` the hand waits for each forced action to be made by ``step_forced()``,
        so a table can show them one at a time.
        """
        if self.settled:
            raise IllegalAction("R-SESSION-1", "the session has been settled")
        if self._seats:
            raise IllegalAction("R-SESSION-1", "a hand is already in play")
        redeal = self._redeal
        if redeal is None:
            self._drop_broke()
            if self.over:
                raise IllegalAction("R-SESSION-1", "the session is over")
        cards = list(deck) if deck is not None else shuffled_deck(seed)
        seats = self.players_left
        position = seats.index(self.dealer)
        hands, widow = deal_with_widow(cards, len(seats), position)
        if redeal is not None:
            chips, pots = redeal["chips"], redeal["pots"]
        else:
            chips, pots = [int(self.chips[s]) for s in seats], dict(self.pots)
        hand = Hand(self.rules, [self.names[s] for s in seats], chips, pots, position, hands, widow,
                    ante=redeal is None, auto=auto)
        self._seats = seats
        self._redeal = None
        return hand

    @property
    def hand_seats(self) -> list[int]:
        """For the hand in play, the session seat that sits at each of its seats (empty between hands)."""
        return list(self._seats)

    def play_random(self, hand: Hand, seed: int | str | None = None) -> None:
        """Finish ``hand`` with random legal decisions (simulations, tests)."""
        rng = random.Random(seed)
        while not hand.over:
            hand.random_step(rng)

    def finish_hand(self, hand: Hand) -> dict[str, Any]:
        """Take a finished hand's chips and pots back, keep its record and pass the deal left."""
        if not hand.over:
            raise IllegalAction("R-END-1", "the hand is not over")
        for i, seat in enumerate(self._seats):
            self.chips[seat] = hand.chips[i]
        self.pots = hand.pot_balances()
        record = hand.record()  # the caller keeps it (a table keeps its evening's hands out of memory)
        self._seats = []
        self.hands_played += 1
        self._dealt_this_rotation.add(self.dealer)
        self.dealer = self._next_seated(self.dealer)
        self._count_rotation()
        self._drop_broke()
        self._count_rotation()  # a player who left without dealing may complete the rotation
        return record

    def _count_rotation(self) -> None:
        """A rotation is complete once every player still seated has dealt since it began."""
        if self._dealt_this_rotation and set(self.players_left) <= self._dealt_this_rotation:
            self.rotations += 1
            self._dealt_this_rotation = set()

    def void_hand(self, hand: Hand) -> None:
        """R-SESSION-4: undo every chip moved since the ante; the same dealer deals again, no new ante."""
        chips = list(hand.start_chips)
        pots = list(hand.start_pots)
        for entry in hand.log:
            if entry[0] == "chips" and entry[4] == "ante":
                _, src, dst, amount, _ = entry
                chips[src] -= amount
                pots[-1 - dst] += amount
        ids = [p.id for p in self.rules.board.pots]
        self.voided.append(hand.record())
        self._redeal = {"chips": chips, "pots": dict(zip(ids, pots, strict=True))}
        self.log.append({"type": "void", "dealer": self.dealer})
        self._seats = []

    # -------------------------------------------------------------------------- settlement
    def _showdown(self, amount: int, rng: random.Random, pot: str, deck: list[Card] | None) -> None:
        seats = self.players_left
        if len(seats) == 1:  # nobody to play against: the last player takes the pot
            self.chips[seats[0]] += amount
            self._settled(pot, amount, "alone", {seats[0]: amount}, {}, set(seats))
            return
        position = seats.index(self.dealer) if self.dealer in seats else 0
        if deck is None:
            deck = list(CARDS)
            rng.shuffle(deck)
        hands, _ = deal_with_widow(deck, len(seats), position)
        values = [evaluate_mask(sum(c.bit for c in h)) for h in hands]
        best = max(values)
        order = [(position + 1 + k) % len(seats) for k in range(len(seats))]
        tied = [i for i in order if values[i] == best]
        share, odd = divmod(amount, len(tied))
        shown = {seats[i]: [str(c) for c in HandValue(values[i], sum(c.bit for c in hands[i])).cards]
                 for i in range(len(seats))}
        paid: dict[int, int | Fraction] = {}
        for k, i in enumerate(tied):
            gain = share + (odd if k == 0 else 0)  # the odd chips: the tied player nearest dealer's left
            self.chips[seats[i]] += gain
            paid[seats[i]] = gain
        self._settled(pot, amount, "showdown", paid, shown, {seats[i] for i in tied})

    def _settled(self, pot: str, amount: int, how: str, paid: dict[int, int | Fraction],
                 shown: dict[int, list[str]], won: set[int]) -> None:
        """Keep one share-out of the settlement: by seat (and, as records have always had them, by name)."""
        self.settlement.append(settlement_entry(self.rules, self.names, pot, amount, how, paid, shown, won))

    def settle(self, seed: int | str | None = None,
               decks: Sequence[Sequence[Card]] | None = None) -> list[dict[str, Any]]:
        """R-SESSION-2: share out the chips left on the board by the ruleset's ``settle`` option.

        Showdowns deal from ``decks`` when given (one per showdown), else shuffle from ``seed``.
        """
        supplied = [list(d) for d in decks] if decks is not None else []
        if self.settled:
            raise IllegalAction("R-SESSION-2", "the session is already settled")
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        seats = self.players_left
        total = sum(self.pots.values())
        if self.rules.settle == "share_equally":
            share = Fraction(total, len(seats))
            for seat in seats:
                self.chips[seat] += share
            if total:
                self._settled("all", total, "share", dict.fromkeys(seats, share), {}, set())
        elif self.rules.settle == "poker_showdown":
            if total:
                self._showdown(total, rng, "all", supplied.pop(0) if supplied else None)
        else:
            ids = [p.id for p in self.rules.board.pots]
            for pot_id in sorted((i for i in ids if self.pots[i]), key=lambda i: (self.pots[i], ids.index(i))):
                self._showdown(self.pots[pot_id], rng, pot_id, supplied.pop(0) if supplied else None)
        self.pots = {k: 0 for k in self.pots}
        self.settled = True
        return self.settlement

    def standings(self) -> list[dict[str, Any]]:
        """R-SESSION-3: players by chips, most first; equal totals share a place (and the win)."""
        order = sorted(range(len(self.names)), key=lambda s: -self.chips[s])
        out: list[dict[str, Any]] = []
        best = self.chips[order[0]]
        for k, seat in enumerate(order):
            place = out[-1]["place"] if out and self.chips[seat] == out[-1]["_chips"] else k + 1
            out.append({"place": place, "name": self.names[seat], "seat": seat, "_chips": self.chips[seat],
                        "chips": str(self.chips[seat]) if isinstance(self.chips[seat], Fraction)
                        and self.chips[seat].denominator != 1 else int(self.chips[seat]),
                        "seated": self.seated[seat], "winner": self.chips[seat] == best})
        for row in out:
            del row["_chips"]
        return out

    def total(self) -> Fraction:
        """Chips on the table: every stack plus the board (constant through the session, R-CHIP-1)."""
        return Fraction(sum(self.chips, Fraction(0))) + sum(self.pots.values())

    def __repr__(self) -> str:
        return f"<Session {self.rules.name}: {len(self.players_left)} seated, {self.hands_played} hands>"

