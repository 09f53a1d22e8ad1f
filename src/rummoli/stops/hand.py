"""One hand of a stops game as a state machine (RULES.md §2.2, §2.3).

The deal is an input: a :class:`Hand` is built from a ruleset, the seats, their chips and the pots
before the ante, the dealer and the dealt cards.  It antes at once (R-ANTE-1), pays held pay cards
when the ruleset says so (``pay = on_hold``), then waits for decisions: the dealer's widow choice,
the auction, the poker round, and the leads of the play round.  Every forced action (the only legal
one) is made at once and logged as that seat's action, marked ``forced``.

>>> from rummoli.cards import shuffled_deck
>>> from rummoli.dealing import deal_with_widow
>>> hands, widow = deal_with_widow(shuffled_deck(7), 4, dealer=0)
>>> h = Hand("rummoli", ["Ann", "Bob", "Cy", "Dee"], [100] * 4, {}, 0, hands, widow)
>>> h.phase, h.to_act(), [str(a) for a in h.legal_actions()]
('widow', [0], ['seat 0 keep', 'seat 0 swap'])
>>> sum(h.chips) + sum(h.pots)
400

Chips are whole numbers; every movement is logged as a transfer between a seat and a pot or two
seats, so the table's total never changes (R-CHIP-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from random import Random
from typing import Any, Final

from rummoli.cards import (
    BLACK_MASK,
    CARDS,
    RANK_MASK,
    RED_MASK,
    SUIT_BITS,
    SUIT_MASK,
    Card,
    CardError,
    cards_of,
    mask_of,
)
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.poker import HandValue, evaluate_mask
from rummoli.stops import report
from rummoli.stops.actions import KINDS, Action
from rummoli.stops.ruleset import CARD, COMBO, Board, Ruleset, load_ruleset

WIDOW: Final = "widow"
AUCTION: Final = "auction"
BETTING: Final = "poker"
PLAY: Final = "play"
OVER: Final = "over"

_IN_WIDOW: Final = -1
_PLAYED: Final = -2
_ALL_SEATS: Final = -1
_RULE_OF_KIND: Final = {
    "swap": "R-WIDOW-1", "keep": "R-WIDOW-1", "bid": "R-WIDOW-1", "pass": "R-WIDOW-1",
    "check": "R-POKER-1", "bet": "R-POKER-1", "call": "R-POKER-1", "raise": "R-POKER-1",
    "fold": "R-POKER-1", "lead": "R-PLAY-2", "play": "R-PLAY-3", "claim": "R-PLAY-9",
}
# Option tuples: (seat, kind, low, high, card mask).  One list serves listing and checking.
Option = tuple[int, str, int, int, int]


def _lowest_per_suit(mask: int) -> int:
    """The lowest card of each suit held."""
    out = 0
    for block in SUIT_MASK:
        b = mask & block
        out |= b & -b
    return out


def _lowest_rank(mask: int) -> int:
    """Every card of the lowest rank held, in any suit."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & SUIT_BITS
    return mask & RANK_MASK[(ranks & -ranks).bit_length() - 1] if ranks else 0


@lru_cache(maxsize=64)
def _board_tables(board: Board) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...], int]:
    """Per card: the card pots it wins, the combos it tops (pot, lowest rank); and the pay-card mask."""
    card_pots: list[tuple[int, ...]] = [()] * 52
    combo_end: list[tuple[tuple[int, int], ...]] = [()] * 52
    pay_mask = 0
    for j, pot in enumerate(board.pots):
        if pot.kind == CARD:
            index = pot.cards[0]
            card_pots[index] = (*card_pots[index], j)
            pay_mask |= 1 << index
        elif pot.kind == COMBO:
            top, low = pot.ranks[-1], pot.ranks[0]
            for s in (range(4) if pot.suit is None else (pot.suit,)):
                combo_end[13 * s + top] = (*combo_end[13 * s + top], (j, low))
            for index in pot.cards:
                pay_mask |= 1 << index
    return tuple(card_pots), tuple(combo_end), pay_mask


def deal_sizes(players: int, dealer: int) -> tuple[list[int], int]:
    """Hand sizes by seat and the widow's size under R-DEAL-1."""
    receivers = players + 1
    base, extra = divmod(52, receivers)
    sizes = [0] * players
    for k in range(players):
        sizes[(dealer + 1 + k) % players] = base + (1 if k < extra else 0)
    return sizes, base + (1 if players < extra else 0)


class Hand:
    """A stops hand: ante, widow, poker round, play round and the end (RULES.md §2.2–2.3)."""

    __slots__ = (
        "_bid", "_bidder", "_cap_value", "_card_pots", "_combo_end", "_folded", "_last_layer", "_lead_mask", "_level",
        "_passed", "_pay_mask", "_pending", "_pending_pots", "_pending_seat", "_put", "_raises", "_run",
        "_start_stack", "_stopped_suit", "_streak_from", "auto", "chips", "dealer", "dealt", "dealt_widow",
        "given_up", "hands", "log", "n", "names", "owner", "phase", "play_start", "poker_winners", "pots",
        "rules", "showdown", "start_chips", "start_pots", "swapped", "turn", "winner", "with_ante",
    )

    def __init__(
        self,
        ruleset: Ruleset | str | dict[str, Any],
        players: Sequence[str],
        chips: Sequence[int],
        pots: dict[str, int] | None,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        widow: Sequence[Card],
        *,
        ante: bool = True,
        auto: bool = True,
    ) -> None:
        rules = load_ruleset(ruleset)
        n = len(players)
        if not rules.min_players <= n <= rules.max_players:
            raise MalformedInput(f"{rules.title} seats {rules.min_players} to {rules.max_players} players, "
                                 f"not {n}")
        if len(chips) != n or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in chips):
            raise MalformedInput("chips: one whole number of at least 0 per player")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise MalformedInput(f"dealer must be a seat from 0 to {n - 1}")
        board = rules.board
        ids = [p.id for p in board.pots]
        pot_balance = [0] * len(ids)
        for key, value in (pots or {}).items():
            if key not in ids:
                raise MalformedInput(f"pots: no pot {key!r} on the {board.title} board")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise MalformedInput(f"pots: {key!r} must hold a whole number of at least 0 chips")
            pot_balance[ids.index(key)] = value
        if len(hands) != n:
            raise MalformedInput(f"deal: one hand per player ({n}), got {len(hands)}")
        try:
            masks = [mask_of(h) for h in hands]
            widow_mask = mask_of(widow)
        except CardError as error:
            raise MalformedInput(f"deal: {error}") from None
        total = widow_mask
        for m in masks:
            if total & m:
                raise MalformedInput("deal: a card is dealt twice")
            total |= m
        if total != (1 << 52) - 1:
            raise MalformedInput("deal: every one of the 52 cards must be dealt (R-DEAL-1)")
        sizes, widow_size = deal_sizes(n, dealer)
        if [len(h) for h in hands] != sizes or len(widow) != widow_size:
            raise IllegalAction("R-DEAL-1", f"hand sizes {[len(h) for h in hands]} + widow {len(widow)} "
                                f"are not a deal from seat {dealer} (expected {sizes} + {widow_size})")
        self.rules = rules
        self.n = n
        self.names = list(players)
        self.dealer = dealer
        self.chips = list(chips)
        self.pots = pot_balance
        self.start_chips = list(chips)
        self.start_pots = list(pot_balance)
        self.with_ante = ante
        self.dealt = [list(h) for h in hands]
        self.dealt_widow = list(widow)
        self.hands = masks
        owner = [_IN_WIDOW] * 52
        for seat, dealt in enumerate(hands):
            for c in dealt:
                owner[c.index] = seat
        self.owner = owner
        self.auto = auto
        self.log: list[tuple[Any, ...]] = []
        self.swapped = -1
        self.given_up = 0
        self.showdown: dict[int, int] = {}
        self.poker_winners: list[int] = []
        self.winner = -1
        self.play_start: list[int] = []
        self.turn = dealer
        self._pending = False
        self._pending_seat = -1
        self._pending_pots: list[int] = []
        self._card_pots, self._combo_end, self._pay_mask = _board_tables(board)
        self._bid = 0
        self._bidder = -1
        self._passed = 0
        self._put: list[int] = []
        self._start_stack: list[int] = []
        self._level = 0
        self._cap_value = 0
        self._raises = 0
        self._folded = 0
        self._run = False
        self._lead_mask = 0
        self._stopped_suit = -1
        self._streak_from = 0
        self._last_layer = -1
        self.phase = WIDOW
        if ante:
            self._ante()
        if rules.pay == "on_hold":
            self._pay_on_hold()
        if rules.widow == "swap_or_auction":
            self.phase = WIDOW
            self.turn = dealer
        else:
            self._begin_poker()
        self._settle_forced()

    # ----------------------------------------------------------------------------------- chips
    def _move(self, src: int, dst: int, amount: int, reason: str) -> None:
        """Move chips: parties are seats (``>= 0``) or pots (``-1 - index``)."""
        if amount <= 0:
            return
        if src >= 0:
            self.chips[src] -= amount
        else:
            self.pots[-1 - src] -= amount
        if dst >= 0:
            self.chips[dst] += amount
        else:
            self.pots[-1 - dst] += amount
        self.log.append(("chips", src, dst, amount, reason))

    def _ante(self) -> None:
        rules = self.rules
        antes = [rules.ante(p) for p in rules.board.pots]
        per_seat = sum(antes)
        double = self.rules.dealer_ante == "double"
        for seat in range(self.n):
            need = per_seat * (2 if double and seat == self.dealer else 1)
            if self.chips[seat] < need:
                raise IllegalAction("R-ANTE-1", f"seat {seat} ({self.names[seat]}) holds {self.chips[seat]} "
                                    f"chips and cannot pay the ante of {need}: they are out of the session")
        log, balances = self.log, self.pots
        for seat in range(self.n):
            factor = 2 if double and seat == self.dealer else 1
            self.chips[seat] -= per_seat * factor
            for j, ante in enumerate(antes):
                if ante:
                    balances[j] += ante * factor
                    log.append(("chips", seat, -1 - j, ante * factor, "ante"))

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

    # ------------------------------------------------------------------------- legality (one place)
    def _barred(self, seat: int) -> bool:
        return self.rules.widow_bar == "pay_card_holders" and bool(self.hands[seat] & self._pay_mask)

    def _cap(self) -> int:
        """R-POKER-1: the smallest starting stack among players not folded (kept up to date on folds)."""
        return self._cap_value

    def _options(self) -> list[Option]:
        """Every legal option now: ``(seat, kind, low, high, cards)``; the single source of legality."""
        phase = self.phase
        if phase == PLAY:
            opts: list[Option] = []
            if self._pending:
                opts.append((self._pending_seat, "claim", 0, 0, 0))
            if self._run:
                opts.append((self.turn, "play", 0, 0, self._lead_mask))
            else:
                opts.append((self.turn, "lead", 0, 0, self._lead_mask))
            return opts
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

    @staticmethod
    def _forced(opts: list[Option]) -> Option | None:
        """The only legal action, if there is exactly one."""
        if len(opts) != 1:
            return None
        opt = opts[0]
        if KINDS[opt[1]] == "amount":
            return opt if opt[2] == opt[3] else None
        if KINDS[opt[1]] == "card":
            return opt if opt[4] & (opt[4] - 1) == 0 else None
        return opt

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action now (of one seat, if given): bids and bets once per amount."""
        out: list[Action] = []
        for s, kind, low, high, cards in self._options():
            if seat is not None and s != seat:
                continue
            field = KINDS[kind]
            if field == "amount":
                out.extend(Action(s, kind, None, a) for a in range(low, high + 1))
            elif field == "card":
                out.extend(Action(s, kind, c) for c in cards_of(cards))
            else:
                out.append(Action(s, kind))
        return out

    def to_act(self) -> list[int]:
        """The seats that may act now (two while an announce-mode claim is open)."""
        return sorted({o[0] for o in self._options()})

    def _rule_for(self, kind: str) -> str:
        if kind == "lead":
            if self.phase == PLAY and not self._run and self._stopped_suit >= 0:
                return "R-PLAY-5"
            return "R-PLAY-2" if self.phase == PLAY and not self._run else "R-PLAY-1"
        return _RULE_OF_KIND.get(kind, "R-NOTE-3")

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` (naming the rule) or :class:`MalformedInput` unless legal."""
        if not isinstance(action, Action) or action.kind not in KINDS:
            raise MalformedInput(f"not a stops action: {action!r}")
        kind = action.kind
        field = KINDS[kind]
        if (field != "card" and action.card is not None) or (field != "amount" and action.amount is not None):
            raise MalformedInput(f"{kind!r} takes no {'card' if action.card is not None else 'amount'}")
        if self.phase == OVER:
            raise IllegalAction("R-END-1", "the hand is over: no further action")
        opts = self._options()
        rule = self._rule_for(kind)
        match = [o for o in opts if o[1] == kind and o[0] == action.seat]
        if not match:
            same = [o for o in opts if o[1] == kind]
            if same:
                raise IllegalAction(rule, f"seat {action.seat} cannot {kind} now: it is seat {same[0][0]}'s turn")
            if kind == "lead" and self.phase == PLAY and self._run:
                rule = "R-PLAY-3"
            if kind == "claim" and self.phase == PLAY:
                raise IllegalAction(rule, "there is no pot to claim: claim right after laying a pay card")
            allowed = ", ".join(sorted({o[1] for o in opts}))
            raise IllegalAction(rule, f"{kind!r} is not possible in the {self.phase} phase now (legal: {allowed})")
        _, _, low, high, cards = match[0]
        if field == "amount":
            if action.amount is None or not low <= action.amount <= high:
                what = {"bid": "a bid (above the current bid, within your chips)",
                        "bet": "a bet (max_bet and the smallest stack)",
                        "raise": "a raise (max_bet and the smallest stack)"}[kind]
                raise IllegalAction(rule, f"{what} must be {low} to {high}, not {action.amount}")
        elif field == "card" and (action.card is None or not cards >> action.card.index & 1):
            if kind == "play":
                raise IllegalAction(rule, f"the run needs {CARDS[cards.bit_length() - 1]}, "
                                    f"not {action.card}")
            choices = " ".join(str(c) for c in cards_of(cards))
            raise IllegalAction(rule, f"seat {action.seat} must lead one of {choices}, not {action.card}")

    def can(self, action: Action) -> bool:
        """Whether :meth:`verify` accepts ``action``."""
        try:
            self.verify(action)
        except (IllegalAction, MalformedInput):
            return False
        return True

    def apply(self, action: Action) -> list[dict[str, Any]]:
        """Check and make ``action``, then any forced actions; return the events they caused."""
        self.verify(action)
        start = len(self.log)
        opts = self._options()
        forced = self._forced(opts) is not None
        self._do(action.seat, action.kind, -1 if action.card is None else action.card.index,
                 0 if action.amount is None else action.amount, forced)
        self._settle_forced()
        return self.render(self.log[start:])

    # ---------------------------------------------------------------------------------- doing
    def _do(self, seat: int, kind: str, card: int, amount: int, forced: bool) -> None:
        if kind == "play" or kind == "lead":
            self._lay(seat, card, kind, forced)
            return
        self.log.append(("act", seat, kind, card, amount, forced))
        if kind == "claim":
            self._claim()
        elif self.phase == BETTING:
            self._betting(seat, kind, amount)
        elif kind == "swap":
            self._swap(seat)
            self._begin_poker()
        elif kind == "keep":
            self.phase = AUCTION
            self.turn = self.dealer
            self._passed = 1 << self.dealer
            self._next_bidder()
        else:  # bid or pass
            if kind == "bid":
                self._bid, self._bidder = amount, seat
            else:
                self._passed |= 1 << seat
            self._next_bidder()

    def _settle_forced(self) -> None:
        """Make forced actions at once (R-PLAY-3), each logged as its seat's action, marked forced."""
        while self.auto and self.phase != OVER:
            if self.phase == PLAY:
                if self._pending:
                    return
                mask = self._lead_mask
                if self._run:
                    self._lay(self.turn, mask.bit_length() - 1, "play", True)
                elif mask & (mask - 1) == 0:
                    self._lay(self.turn, mask.bit_length() - 1, "lead", True)
                else:
                    return
                continue
            opt = self._forced(self._options())
            if opt is None:
                return
            self._do(opt[0], opt[1], -1, opt[2], True)

    # ----------------------------------------------------------------------------- widow
    def _swap(self, seat: int) -> None:
        old = self.hands[seat]
        widow = old ^ ((1 << 52) - 1)
        for m in self.hands:
            widow &= ~m
        self.hands[seat] = widow
        for c in cards_of(widow):
            self.owner[c.index] = seat
        for c in cards_of(old):
            self.owner[c.index] = _IN_WIDOW
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
                five = HandValue(values[s], held[s]).cards
                self.showdown[s] = mask_of(five)
                self.log.append(("show", s, self.showdown[s]))
            best = max(values.values())
            seats = [s for s in seats if values[s] == best]
        order = sorted(seats, key=lambda s: (s - self.dealer - 1) % self.n)
        self.poker_winners = order
        j = self.rules.board.poker
        assert j is not None
        share = self.pots[j] // len(order)
        for s in order:
            self._move(-1 - j, s, share, "poker")

    # ------------------------------------------------------------------------------ play
    def _begin_play(self) -> None:
        self.phase = PLAY
        self.play_start = list(self.hands)
        if self.rules.opening_lead == "poker_winner" and self.poker_winners:
            leader = self.poker_winners[0]
        else:
            leader = (self.dealer + 1) % self.n
        self._run = False
        self._stopped_suit = -1
        hand = self.hands[leader]
        self._lead_mask = _lowest_rank(hand) if self.rules.lead == "lowest_overall" else _lowest_per_suit(hand)
        self.turn = leader

    def _lead_options(self, seat: int) -> int:
        """The cards ``seat`` may lead after a stop in ``_stopped_suit`` (R-PLAY-5), or 0."""
        hand = self.hands[seat]
        suit = self._stopped_suit
        restart = self.rules.restart
        if restart == "opposite_colour":
            allowed = hand & (BLACK_MASK if suit in (1, 2) else RED_MASK)
            if self.rules.lead == "lowest_overall":
                return _lowest_rank(allowed)
            return _lowest_per_suit(allowed)
        allowed = hand & ~SUIT_MASK[suit]
        if allowed:
            return _lowest_per_suit(allowed)
        if restart == "other_suit_else_same":
            return hand & -hand
        return 0

    def _lay(self, seat: int, card: int, kind: str, forced: bool) -> None:
        self.log.append(("act", seat, kind, card, 0, forced))
        self.hands[seat] ^= 1 << card
        self.owner[card] = _PLAYED
        if self._pending:
            self.log.append(("unclaimed", self._pending_seat, tuple(self._pending_pots)))
            self._pending = False
        rank = card % 13
        if kind == "lead" or self._last_layer != seat:
            self._streak_from = rank
        self._last_layer = seat
        card_pots, combos = self._card_pots[card], self._combo_end[card]
        if (card_pots or combos) and self.rules.pay == "on_play":
            won = [j for j in card_pots if self.pots[j] > 0]
            won += [j for j, low in combos if low >= self._streak_from and self.pots[j] > 0]
            if won:
                if self.rules.claim == "automatic":
                    for j in won:
                        self._move(-1 - j, seat, self.pots[j], "pay_card")
                else:
                    self._pending, self._pending_seat, self._pending_pots = True, seat, won
        if not self.hands[seat]:
            self._finish(seat)
            return
        if rank != 12:
            holder = self.owner[card + 1]
            if holder >= 0:
                self._run = True
                self.turn = holder
                self._lead_mask = 2 << card
                return
        self.log.append(("stop", card))
        self._run = False
        self._stopped_suit = card // 13
        leader = seat
        for _ in range(self.n):
            mask = self._lead_options(leader)
            if mask:
                self.turn = leader
                self._lead_mask = mask
                return
            self.log.append(("cannot_lead", leader))
            if self.rules.cannot_lead == "pay_and_pass" and self.chips[leader] > 0:
                self._move(leader, -1 - self.rules.board.centre, 1, "cannot_lead")
            leader = (leader + 1) % self.n
        self._stall()

    def _claim(self) -> None:
        seat = self._pending_seat
        for j in self._pending_pots:
            self._move(-1 - j, seat, self.pots[j], "pay_card")
        self._pending = False
        self._pending_pots = []

    def _honour_claim(self) -> None:
        # The hand ends before another card is laid, so the claim window never closed.
        if self._pending:
            self._claim()

    def _stall(self) -> None:
        self._honour_claim()
        self.log.append(("stall",))
        centre = -1 - self.rules.board.centre
        for seat in range(self.n):
            self._move(seat, centre, min(self.hands[seat].bit_count(), self.chips[seat]), "stall")
        self._end()

    def _finish(self, seat: int) -> None:
        self._honour_claim()
        self.winner = seat
        self.log.append(("out", seat))
        centre = self.rules.board.centre
        self._move(-1 - centre, seat, self.pots[centre], "centre")
        if self.rules.leftover == "pay":
            for other in range(self.n):
                if other != seat:
                    self._move(other, seat, min(self.hands[other].bit_count(), self.chips[other]), "leftover")
        self._end()

    def _end(self) -> None:
        self.phase = OVER
        self._run = False
        self._lead_mask = 0
        if self.rules.poker == "after_play" and self.rules.board.poker is not None:
            self._poker_win(list(range(self.n)), show=True, hands=self.play_start)
        self.log.append(("over",))

    def step_forced(self) -> bool:
        """Make the one forced action, if there is one now (for replays with ``auto=False``)."""
        if self.phase == OVER:
            return False
        opt = self._forced(self._options())
        if opt is None:
            return False
        self._do(opt[0], opt[1], opt[4].bit_length() - 1, opt[2], True)
        return True

    def forced_action(self) -> Action | None:
        """The only legal action now, if there is exactly one."""
        opt = self._forced(self._options()) if self.phase != OVER else None
        if opt is None:
            return None
        field = KINDS[opt[1]]
        return Action(opt[0], opt[1], CARDS[opt[4].bit_length() - 1] if field == "card" else None,
                      opt[2] if field == "amount" else None)

    def random_step(self, rng: Random) -> None:
        """Make one uniformly random legal decision (an option, then an amount or a card), then any
        forced actions: the fast path of simulations and the benchmark."""
        opts = self._options()
        seat, kind, low, high, cards = opts[0] if len(opts) == 1 else rng.choice(opts)
        field = KINDS[kind]
        card = amount = -1
        if field == "amount":
            amount = rng.randint(low, high)
        elif field == "card":
            if cards & (cards - 1):
                bits = [c for c in range(52) if cards >> c & 1]
                card = rng.choice(bits)
            else:
                card = cards.bit_length() - 1
        forced = len(opts) == 1 and self._forced(opts) is not None
        self._do(seat, kind, card, amount, forced)
        self._settle_forced()

    # ------------------------------------------------------------------------- inspection
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def pot_balances(self) -> dict[str, int]:
        return {p.id: self.pots[j] for j, p in enumerate(self.rules.board.pots)}

    def widow(self) -> int:
        """The widow's cards as a mask (never shown in a view)."""
        held = 0
        for m in self.hands:
            held |= m
        played = sum(1 << c for c in range(52) if self.owner[c] == _PLAYED)
        return ((1 << 52) - 1) & ~held & ~played

    def played(self) -> list[tuple[int, int]]:
        """``(seat, card index)`` of every card laid, in order."""
        return [(e[1], e[3]) for e in self.log if e[0] == "act" and (e[2] == "play" or e[2] == "lead")]

    def render(self, log: Sequence[tuple[Any, ...]]) -> list[dict[str, Any]]:
        """Log entries as JSON-ready events (public: no hidden card is ever in an event)."""
        return report.render(self, log)

    def events(self) -> list[dict[str, Any]]:
        """Every event so far: each action (forced ones marked) and every chip moved."""
        return report.render(self, self.log)

    def actions(self, forced: bool = True) -> list[dict[str, Any]]:
        """Every action so far as R-NOTE-3 objects (forced ones too unless ``forced=False``)."""
        return report.actions(self, forced)

    def record(self, forced: bool = False) -> dict[str, Any]:
        """The R-NOTE-2 hand record; forced actions are left out unless ``forced`` (R-NOTE-3)."""
        return report.record(self, forced)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (R-VIEW-1); ``None`` is a spectator.  JSON-ready."""
        return report.view(self, seat)

    def phase_state(self) -> dict[str, Any]:
        """The public state of the phase in progress: the auction's bid, the betting round, the run."""
        if self.phase == AUCTION:
            passed = [s for s in range(self.n) if self._passed >> s & 1 and s != self.dealer]
            return {"auction": {"bid": self._bid, "bidder": None if self._bidder < 0 else self._bidder,
                                "passed": passed}}
        if self.phase == BETTING:
            folded = [s for s in range(self.n) if self._folded >> s & 1]
            return {"betting": {"level": self._level, "put": list(self._put), "raises": self._raises,
                                "folded": folded, "cap": self._cap()}}
        if self.phase == PLAY:
            stopped = None if self._stopped_suit < 0 else "shdc"[self._stopped_suit]
            return {"play": {"run": self._run, "stopped_suit": stopped,
                             "claim_open": self._pending_seat if self._pending else None}}
        return {}

    def clone(self) -> Hand:
        """A deep copy cheap enough for search."""
        new = Hand.__new__(Hand)
        for name in Hand.__slots__:
            value = getattr(self, name)
            setattr(new, name, value.copy() if isinstance(value, list | dict) else value)
        return new

    def __repr__(self) -> str:
        return f"<Hand {self.rules.name} {self.n} seats, {self.phase}, chips {self.chips}>"
