"""One hand of Poch as a state machine (docs/rules-poch.md): the ante, the melding of the pools, the vying
for the Pocher and the play, each legal action listed and checked by one function.

>>> from rummoli.poch.cards import parse_cards
>>> hands = [parse_cards(t) for t in ("As Ks Qs 7h 8h 9h 7c 8c", "Js Ts 9s 8s 7s Ah Kh Qh",
...                                   "Jh Th Ad Kd Qd Jd Td 9d", "8d 7d Ac Kc Qc Jc Tc 9c")]
>>> h = PochHand("poch", ["Ann", "Bob", "Cy", "Dee"], [100] * 4, {}, 3, hands, [], parse_cards("9c")[0])
>>> h.pot_balances()["A"], h.phase, h.to_act()
(0, 'vie', [0])
>>> [e for e in h.events() if e["type"] == "meld"][0]
{'type': 'meld', 'seat': 3, 'pot': 'A', 'cards': ['Ac']}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from rummoli.cards import CARDS, Card
from rummoli.errors import IllegalAction, MalformedInput, quote
from rummoli.poch.cards import best_run, best_set, next_up
from rummoli.poch.ruleset import HONOUR_RANK, Ruleset, load_ruleset
from rummoli.poch.views import Views
from rummoli.stops.actions import Action, AmountRange, check_action
from rummoli.streams import Stream

VIE, PLAY, OVER = "vie", "play", "over"
#: An option: (seat, kind, card index or -1, least amount, most amount).
Option = tuple[int, str, int, int, int]


class PochHand(Views):
    """A hand of Poch from its deal (the deal is an input: R-PO-2); see the module's docstring."""

    def __init__(self, ruleset: str | dict[str, Any] | Ruleset, names: Sequence[str], chips: Sequence[int],
                 pots: Mapping[str, int], dealer: int, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
                 turned: Card, *, ante: bool = True, auto: bool = True) -> None:
        self.rules = load_ruleset(ruleset)
        self.n = n = len(names)
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise MalformedInput(f"{self.rules.title} seats {self.rules.min_players} to {self.rules.max_players} "
                                 f"players, not {n}", "R-PO-1")
        if len(chips) != n or len(hands) != n or not 0 <= dealer < n:
            raise MalformedInput("a Poch hand needs chips and cards for every seat and a dealer among them")
        self.names = list(names)
        self.dealer = dealer
        ids = [p.id for p in self.rules.pools]
        if set(pots) - set(ids):
            raise MalformedInput(f"no pool {quote(sorted(map(str, set(pots) - set(ids)))[0])} on this board", "R-PO-1")
        self.start_chips = [int(c) for c in chips]
        self.start_pots = [int(pots.get(i, 0)) for i in ids]
        self.chips = list(self.start_chips)
        self.pots = list(self.start_pots)
        self.dealt = [list(h) for h in hands]
        self.dealt_stock = list(stock)
        self.turned = turned.index
        self.trump = turned.index // 13
        self.hands = [sum(1 << c.index for c in h) for h in hands]
        seen = [c.index for h in hands for c in h] + [c.index for c in stock]
        if turned.index not in seen:
            seen.append(turned.index)
        if len(seen) != 32 or len(set(seen)) != 32 or any(c % 13 < 5 for c in seen):
            raise MalformedInput("a Poch deal holds the 32 cards from the seven to the ace, each once", "R-PO-2")
        self.holder = next((s for s in range(n) if (self.hands[s] >> self.turned) & 1), -1)
        self.with_ante = ante
        #: make forced moves inside the move before them (True), or leave each waiting for the table's pace
        self.auto = auto
        self.waiting: tuple[int, str, int] | None = None  # the forced move waiting: (seat, kind, card)
        self.log: list[tuple[Any, ...]] = []
        self.phase = VIE
        self.current = 0
        self.put = [0] * n
        self.folded = [False] * n
        self.pending: list[int] = []
        self.raises = 0
        self.cap = 0
        self.vie_winner = -1
        self.shown: dict[int, int] = {}
        self.leader = -1
        self.played = 0
        self.winner = -1
        self._events = Stream()
        self._static: dict[str, Any] = {}
        self._begin()
        self._mark()

    # ------------------------------------------------------------------ the ante and the melding
    def _move(self, src: int, dst: int, amount: int, reason: str) -> None:
        """Move chips between seats (>= 0) and pools (-1 - index), logged (R-CHIP-1)."""
        if amount <= 0:
            return
        for code, sign in ((src, -1), (dst, 1)):
            if code >= 0:
                self.chips[code] += sign * amount
            else:
                self.pots[-1 - code] += sign * amount
        self.log.append(("chips", src, dst, amount, reason))

    def _begin(self) -> None:
        rules = self.rules
        if self.with_ante:  # R-PO-3
            if any(c < rules.ante_per_seat() for c in self.chips):
                raise MalformedInput("every seat of a Poch hand must be able to pay the ante", "R-PO-3")
            for seat in range(self.n):
                for j, pool in enumerate(rules.pools):
                    self._move(seat, -1 - j, pool.ante, "ante")
        trump = self.trump
        for j, pool in enumerate(rules.pools):  # R-PO-4, R-PO-5
            cards = 0
            seat = -1
            if pool.kind in HONOUR_RANK:
                card = 13 * trump + HONOUR_RANK[pool.kind]
                seat, cards = self._holder_of(1 << card), 1 << card
            elif pool.kind == "marriage":
                cards = (1 << (13 * trump + 11)) | (1 << (13 * trump + 10))
                seat = self._holder_of(cards)
            elif pool.kind == "sequence":
                seat, cards = self._sequence()
            if seat >= 0:
                self.log.append(("meld", seat, j, cards))
                self._move(-1 - j, seat, self.pots[j], "meld")
        self._open_vie()

    def _holder_of(self, cards: int) -> int:
        return next((s for s in range(self.n) if self.hands[s] & cards == cards), -1)

    def _sequence(self) -> tuple[int, int]:
        trump = self.trump
        if self.rules.sequence == "trump_789":
            cards = sum(1 << (13 * trump + r) for r in (5, 6, 7))
            return self._holder_of(cards), cards
        best: tuple[tuple[int, int, int], int, int] = ((0, 0, 0), -1, 0)
        for seat in self._order():  # equal runs: the eldest (nearest the dealer's left) wins
            key, cards = best_run(self.hands[seat], trump)
            if key[0] and key > best[0]:
                best = (key, seat, cards)
        return best[1], best[2]

    def _order(self) -> list[int]:
        """Every seat from the dealer's left round to the dealer."""
        return [(self.dealer + 1 + i) % self.n for i in range(self.n)]

    # ------------------------------------------------------------------------------ the vying
    def _open_vie(self) -> None:
        self.cap = min(self.chips)
        pool = self.rules.pool_of("vie")
        if self.cap <= 0 or pool < 0:
            self._close_vie()
            return
        self.pending = self._order()

    def _after(self, seat: int) -> list[int]:
        """The seats still in the vying, other than ``seat``, in turn from its left."""
        return [(seat + i) % self.n for i in range(1, self.n) if not self.folded[(seat + i) % self.n]]

    def _vie_options(self) -> list[Option]:
        seat = self.pending[0]
        rules = self.rules
        if self.current == 0:
            out: list[Option] = [(seat, "check", -1, 0, 0)]
            if rules.opener == "any" or best_set(self.hands[seat], self.trump)[0][0] >= 2:  # R-PO-6
                out.append((seat, "bet", -1, 1, min(rules.max_bet, self.cap)))
            return out
        out = [(seat, "call", -1, 0, 0), (seat, "fold", -1, 0, 0)]
        if rules.vie == "raise" and self.raises < rules.max_raises and self.current < self.cap:  # R-PO-7
            out.insert(1, (seat, "raise", -1, 1, min(rules.max_bet, self.cap - self.current)))
        return out

    def _vie(self, seat: int, kind: str, amount: int) -> None:
        pool = -1 - self.rules.pool_of("vie")
        self.pending.pop(0)
        if kind == "bet" or kind == "raise":
            total = amount if kind == "bet" else self.current + amount
            self._move(seat, pool, total - self.put[seat], kind)
            self.put[seat] = self.current = total
            self.raises += kind == "raise"
            self.pending = self._after(seat)
        elif kind == "call":
            self._move(seat, pool, self.current - self.put[seat], "call")
            self.put[seat] = self.current
        elif kind == "fold":
            self.folded[seat] = True
        if not self.pending or self.folded.count(False) == 1:
            self._close_vie()

    def _close_vie(self) -> None:
        """R-PO-9: nobody bet (the Pocher stays), one is left, or a showdown of the best combinations."""
        self.pending = []
        pool = self.rules.pool_of("vie")
        if self.current == 0 or pool < 0:
            self.log.append(("no_vie",))
        else:
            still = [s for s in self._order() if not self.folded[s]]
            if len(still) > 1:
                for seat in still:
                    self.shown[seat] = sum(1 << Card.parse(c).index for c in best_set(self.hands[seat], self.trump)[1])
                    self.log.append(("show", seat, self.shown[seat]))
            self.vie_winner = max(still, key=lambda s: (best_set(self.hands[s], self.trump)[0], -still.index(s))) \
                if len(still) > 1 else still[0]
            self._move(-1 - pool, self.vie_winner, self.pots[pool], "vie")
        self.phase = PLAY
        first = self.vie_winner if self.rules.first_lead == "poch_winner" and self.vie_winner >= 0 else -1
        self.leader = first if first >= 0 else (self.dealer + 1) % self.n  # R-PO-10

    # ------------------------------------------------------------------------------ the play
    def _lead(self, seat: int, card: int, forced: bool) -> None:
        self.log.append(("act", seat, "lead", card, 0, forced))
        self._lay(seat, card)
        self._run(seat, card)

    def _run(self, last: int, card: int) -> None:
        """R-PO-11: the run after ``card`` (laid by ``last``), every card of it forced: made at once, or with
        ``auto`` off left waiting one card at a time; then the lead after the stop."""
        while self.phase == PLAY:
            following = next_up(card, self.rules.run_top)
            holder = -1 if following is None else self._holder_of(1 << following)
            if holder < 0:
                self.log.append(("stop", card))
                self.leader = last
                break
            assert following is not None
            if not self.auto:
                self.waiting = (holder, "play", following)
                return
            card, last = following, holder
            self.log.append(("act", holder, "play", card, 0, True))
            self._lay(holder, card)
        if self.phase == PLAY:
            self._lead_if_forced()

    def _lay(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        if not self.hands[seat]:
            self._out(seat)

    def _lead_if_forced(self) -> None:
        hand = self.hands[self.leader]
        if hand & (hand - 1) == 0:  # one card left: its lead is forced, and everyone can count it
            if not self.auto:
                self.waiting = (self.leader, "lead", hand.bit_length() - 1)
                return
            self._lead(self.leader, hand.bit_length() - 1, True)

    def _out(self, seat: int) -> None:
        """R-PO-12: the first out ends the hand, is paid a chip a card by each other player (what they have, at
        most) and takes the pool for going out, where the board has one."""
        self.phase = OVER
        self.winner = seat
        self.log.append(("out", seat))
        for other in range(self.n):
            if other != seat:
                self._move(other, seat, min(self.hands[other].bit_count(), self.chips[other]), "cards")
        pool = self.rules.pool_of("out")
        if pool >= 0:
            self._move(-1 - pool, seat, self.pots[pool], "out")

    # --------------------------------------------------------------------- legality, one function
    def _options(self) -> list[Option]:
        if self.phase == VIE:
            return self._vie_options()
        if self.waiting is not None:
            return [(*self.waiting, 0, 0)]
        if self.phase == PLAY:
            seat = self.leader
            return [(seat, "lead", c, 0, 0) for c in range(52) if (self.hands[seat] >> c) & 1]
        return []

    def legal_actions(self, seat: int | None = None) -> list[Action | AmountRange]:
        """The legal actions (of ``seat``, or of whoever may act); an amount is one range."""
        if seat is not None:
            self._check_seat(seat)
        out: list[Action | AmountRange] = []
        for s, kind, card, low, high in self._options():
            if seat is not None and s != seat:
                continue
            if kind in ("bet", "raise"):
                out.append(AmountRange(s, kind, low, high))
            else:
                out.append(Action(s, kind, CARDS[card] if card >= 0 else None))
        return out

    def to_act(self) -> list[int]:
        return sorted({o[0] for o in self._options()})

    def verify(self, action: Action) -> None:
        """Raise IllegalAction (naming the rule) or MalformedInput unless ``action`` is legal now."""
        self._find(action)

    def _find(self, action: Action) -> Option:
        action = check_action(action)
        opts = self._options()
        if not opts:
            raise IllegalAction("R-PO-12", "the hand is over")
        rule = "R-PO-11" if self.phase == PLAY else "R-PO-7"
        if action.seat not in {o[0] for o in opts}:
            raise IllegalAction(rule, f"it is not seat {action.seat}'s turn")
        for opt in opts:
            _seat, kind, card, low, high = opt
            if kind != action.kind:
                continue
            if kind in ("bet", "raise"):
                if action.amount is not None and low <= action.amount <= high:
                    return opt
                raise IllegalAction("R-PO-7", f"a {kind} is {low} to {high} chips here")
            if (action.card.index if action.card is not None else -1) == card and action.amount is None:
                return opt
        if action.kind == "lead":
            raise IllegalAction("R-PO-11", "a lead is a card of your own hand")
        if action.kind == "bet" and self.phase == VIE and self.current == 0:
            raise IllegalAction("R-PO-6", "only a player holding two or more of a kind may open the vying")
        raise IllegalAction(rule, f"{action.kind} is not a choice now")

    def can(self, action: Action) -> bool:
        try:
            self._find(action)
        except (IllegalAction, MalformedInput):
            return False
        return True

    def make(self, action: Action) -> None:
        """Make a legal action (with ``auto``, the forced moves after it too); the state is untouched on error."""
        seat, kind, card, _low, _high = self._find(action)
        self.step((seat, kind, card, action.amount or 0))
        self._mark()

    def apply(self, action: Action) -> list[Any]:
        """Make ``action`` and return the acting seat's events of the move."""
        before = self.seq
        self.make(action)
        return self.events_since(before, action.seat)

    def step(self, move: tuple[int, str, int, int]) -> None:
        """Make a raw move ``(seat, kind, card, amount)`` unchecked: the fast path a search plays by."""
        seat, kind, card, amount = move
        if self.waiting is not None and self.waiting == (seat, kind, card):
            self._step_waiting()
        elif kind == "lead":
            self._lead(seat, card, False)
        else:
            self.log.append(("act", seat, kind, -1, amount, False))
            self._vie(seat, kind, amount)

    def random_step(self, rng: Random) -> None:
        """One uniformly random legal move (an amount uniformly in its range), unchecked."""
        seat, kind, card, low, high = rng.choice(self._options())
        self.step((seat, kind, card, rng.randint(low, high) if high else 0))

    def moves(self) -> list[tuple[int, str, int, int]]:
        """Every raw move now, an amount range as its least and most (the search's choices)."""
        out = []
        for seat, kind, card, low, high in self._options():
            out.append((seat, kind, card, low))
            if high > low:
                out.append((seat, kind, card, high))
        return out

    # ------------------------------------------------------------------------ the rest of the contract
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def forced_action(self) -> Action | None:
        """The forced move waiting for the table's pace (``auto`` off): a run's next card, or a last card's lead."""
        if self.waiting is None:
            return None
        seat, kind, card = self.waiting
        return Action(seat, kind, CARDS[card])

    def step_forced(self) -> bool:
        """Make the waiting forced move; False when there is none."""
        if self.waiting is None:
            return False
        self._step_waiting()
        self._mark()
        return True

    def _step_waiting(self) -> None:
        assert self.waiting is not None
        seat, kind, card = self.waiting
        self.waiting = None
        if kind == "lead":
            self._lead(seat, card, True)
        else:
            self.log.append(("act", seat, "play", card, 0, True))
            self._lay(seat, card)
            self._run(seat, card)

    def forced_shown(self) -> bool:
        """Every forced Poch move follows from what every seat sees (R-PO-13): each is shown as forced."""
        return True

    def pot_balances(self) -> dict[str, int]:
        return {p.id: self.pots[j] for j, p in enumerate(self.rules.pools)}

    def phase_state(self) -> dict[str, Any]:
        """The public state of the phase: the vying's stakes, or the play's leader."""
        if self.phase == VIE:
            folded = [s for s in range(self.n) if self.folded[s]]
            return {"vie": {"current": self.current, "put": list(self.put), "folded": folded, "raises": self.raises,
                            "cap": self.cap}}
        if self.phase == PLAY:
            return {"play": {"leader": self.leader, "vie_winner": None if self.vie_winner < 0 else self.vie_winner}}
        return {"winner": None if self.winner < 0 else self.winner}

    def clone(self) -> PochHand:
        """A deep copy for search (the event stream starts afresh; the log is shared until it grows)."""
        twin = object.__new__(PochHand)
        twin.__dict__.update(self.__dict__)
        twin.log = list(self.log)
        twin.chips, twin.pots, twin.hands = list(self.chips), list(self.pots), list(self.hands)
        twin.put, twin.folded, twin.pending = list(self.put), list(self.folded), list(self.pending)
        twin.shown = dict(self.shown)
        twin._events = Stream()
        twin._static = {}
        return twin

    def __repr__(self) -> str:
        return f"<PochHand {self.rules.name} {self.n} seats {self.phase}>"
