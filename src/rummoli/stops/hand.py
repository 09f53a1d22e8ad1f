"""One hand of a stops game as a state machine (docs/rules.md §2.2, §2.3).

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
seats, so the table's total never changes (R-CHIP-1).  The ante, widow and poker round live in
:mod:`~rummoli.stops.bidding`, the play round in :mod:`~rummoli.stops.play`, what the hand shows (events,
records, views) in :mod:`~rummoli.stops.views` and the search's fast path in :mod:`~rummoli.stops.search_path`;
this module keeps the state, the one legality function and the actions' interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rummoli import streams
from rummoli.cards import CARDS, Card, CardError, cards_of, mask_of
from rummoli.dealing import deal_sizes
from rummoli.errors import IllegalAction, MalformedInput, quote
from rummoli.limits import MAX_CHIPS, MAX_NAME
from rummoli.shapes import Event, StopsResult
from rummoli.slots import slot_copier
from rummoli.stops.actions import KINDS, Action, AmountRange, Legal, check_action
from rummoli.stops.base import AUCTION, BETTING, IN_WIDOW, OVER, PLAY, PLAYED, WIDOW, Option
from rummoli.stops.bidding import Bidding, shown_five
from rummoli.stops.play import Play, board_tables
from rummoli.stops.random_path import RandomPath
from rummoli.stops.result import hand_result
from rummoli.stops.ruleset import Ruleset, load_ruleset
from rummoli.stops.search_path import SearchPath
from rummoli.stops.views import Views
from rummoli.wording import players_range

__all__ = ["AUCTION", "BETTING", "OVER", "PLAY", "WIDOW", "Hand", "deal_sizes"]

_RULE_OF_KIND: Final = {
    "swap": "R-WIDOW-1", "keep": "R-WIDOW-1", "bid": "R-WIDOW-1", "pass": "R-WIDOW-1",
    "check": "R-POKER-1", "bet": "R-POKER-1", "call": "R-POKER-1", "raise": "R-POKER-1",
    "fold": "R-POKER-1", "lead": "R-PLAY-2", "play": "R-PLAY-3", "claim": "R-PLAY-9",
}


def _check_seats(rules: Ruleset, n: int) -> None:
    if not rules.min_players <= n <= rules.max_players:
        raise MalformedInput(f"{rules.title} seats {players_range(rules.min_players, rules.max_players)}, not {n}")


def _check_dealer(dealer: int, n: int) -> None:
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise MalformedInput(f"dealer must be a seat from 0 to {n - 1}")


class Hand(Bidding, Play, RandomPath, SearchPath, Views):
    """A stops hand: ante, widow, poker round, play round and the end (docs/rules.md §2.2–2.3)."""

    #: An R-NOTE-3 action object as this engine's :class:`Action` (a driver of either engine reads with it).
    read_action = staticmethod(Action.from_json)

    __slots__ = (
        "_bid",
        "_bidder",
        "_cap_value",
        "_card_pots",
        "_combo_end",
        "_events",
        "_folded",
        "_last_layer",
        "_lead_mask",
        "_level",
        "_passed",
        "_pay_mask",
        "_pending",
        "_pending_pots",
        "_pending_seat",
        "_played",
        "_played_at",
        "_put",
        "_raises",
        "_run",
        "_shown",
        "_shown_json",
        "_start_stack",
        "_static",
        "_stopped_suit",
        "_streak_from",
        "_tracking",
        "auto",
        "chips",
        "dealer",
        "dealt",
        "dealt_widow",
        "given_up",
        "hands",
        "log",
        "n",
        "names",
        "owner",
        "phase",
        "play_start",
        "poker_winners",
        "pots",
        "rules",
        "start_chips",
        "start_pots",
        "swapped",
        "turn",
        "winner",
        "with_ante",
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
        _check_seats(rules, n)
        if any(not isinstance(p, str) or len(p) > MAX_NAME for p in players):
            raise MalformedInput(f"players: each a name of at most {MAX_NAME} characters")
        if len(chips) != n or any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= MAX_CHIPS
                                  for c in chips):
            raise MalformedInput(f"chips: one whole number from 0 to {MAX_CHIPS:,} per player")
        _check_dealer(dealer, n)
        board = rules.board
        ids = [p.id for p in board.pots]
        pot_balance = [0] * len(ids)
        for key, value in (pots or {}).items():
            if key not in ids:
                raise MalformedInput(f"pots: no pot {quote(key)} on the {board.title} board")
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
                raise MalformedInput(f"pots: {quote(key)} must hold a whole number from 0 to {MAX_CHIPS:,} chips")
            pot_balance[ids.index(key)] = value
        if len(hands) != n:
            raise MalformedInput(f"deal: one hand per player ({n}), got {len(hands)}")
        if not all(isinstance(c, Card) for cards in (*hands, widow) for c in cards):
            raise MalformedInput("deal: the hands and the widow are made of cards (rummoli.cards.Card)")
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
        owner = [IN_WIDOW] * 52
        for seat, dealt in enumerate(hands):
            for c in dealt:
                owner[c.index] = seat
        self._start(rules, list(players), list(chips), pot_balance, dealer, [list(h) for h in hands], list(widow),
                    masks, owner, ante, auto)

    @classmethod
    def from_deck(cls, rules: Ruleset, players: list[str], chips: list[int], dealer: int, deck: list[Card]) -> Hand:
        """A hand dealt from ``deck`` under R-DEAL-1 (the k-th receiver from the dealer's left, the widow last,
        takes every (n + 1)-th card from position k), anted and waiting for its first decision, as the
        constructor makes it but unchecked: for the engine's own random hands, whose deck is the 52 cards in
        some order and whose ruleset, seats and chips it made itself (``rummoli.stops.replay.random_hand``)."""
        n = len(players)
        _check_seats(rules, n)
        _check_dealer(dealer, n)
        step = n + 1
        hands: list[list[Card]] = [[]] * n
        masks = [0] * n
        owner = [IN_WIDOW] * 52
        for k in range(n):
            seat = (dealer + 1 + k) % n
            dealt = hands[seat] = deck[k::step]
            mask = 0
            for c in dealt:
                owner[c.index] = seat
                mask |= c.bit
            masks[seat] = mask
        hand = cls.__new__(cls)
        hand._start(rules, list(players), list(chips), [0] * len(rules.board.pots), dealer, hands, deck[n::step],
                    masks, owner, True, True)
        return hand

    @classmethod
    def from_masks(cls, rules: Ruleset, players: list[str], chips: list[int], pots: list[int], dealer: int,
                   hands: list[int], widow: int, *, ante: bool = True, auto: bool = True) -> Hand:
        """The constructor's hand from card masks (``pots``: a balance per pot of the board), checking only that
        the 52 cards are dealt once each in the sizes of a deal from ``dealer`` (R-DEAL-1), as the constructor
        does: for a searching bot's sampled worlds, whose names, chips and pots come from the engine's view."""
        n = len(players)
        _check_seats(rules, n)
        _check_dealer(dealer, n)
        total = widow
        for m in hands:
            if total & m:
                raise MalformedInput("deal: a card is dealt twice")
            total |= m
        if len(hands) != n or total != (1 << 52) - 1:
            raise MalformedInput("deal: every one of the 52 cards must be dealt (R-DEAL-1)")
        sizes, widow_size = deal_sizes(n, dealer)
        if [m.bit_count() for m in hands] != sizes or widow.bit_count() != widow_size:
            raise IllegalAction("R-DEAL-1", f"hand sizes {[m.bit_count() for m in hands]} + widow "
                                f"{widow.bit_count()} are not a deal from seat {dealer}")
        dealt = [cards_of(m) for m in hands]
        owner = [IN_WIDOW] * 52
        for seat, cards in enumerate(dealt):
            for c in cards:
                owner[c.index] = seat
        hand = cls.__new__(cls)
        hand._start(rules, list(players), list(chips), list(pots), dealer, dealt, cards_of(widow), list(hands), owner,
                    ante, auto)
        return hand

    def _start(self, rules: Ruleset, players: list[str], chips: list[int], pot_balance: list[int], dealer: int,
               hands: list[list[Card]], widow: list[Card], masks: list[int], owner: list[int], ante: bool,
               auto: bool) -> None:
        """Set up a dealt hand from checked parts (each its own list), ante and make the forced actions."""
        n = len(players)
        board = rules.board
        self.rules = rules
        self.n = n
        self.names = players
        self.dealer = dealer
        self.chips = chips
        self.pots = pot_balance
        self.start_chips = list(chips)
        self.start_pots = list(pot_balance)
        self.with_ante = ante
        self.dealt = hands
        self.dealt_widow = widow
        self.hands = masks
        self.owner = owner
        self.auto = auto
        self.log: list[tuple[Any, ...]] = []
        self._reset_stream()
        self.swapped = -1
        self.given_up = 0
        self._shown: dict[int, tuple[int, int]] = {}  # seat -> (value, cards held) at the showdown
        self.poker_winners: list[int] = []
        self.winner = -1
        self.play_start: list[int] = []
        self.turn = dealer
        self._pending = False
        self._pending_seat = -1
        self._pending_pots: list[int] = []
        self._card_pots, self._combo_end, self._pay_mask = board_tables(board)
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
        self._mark()

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

    # ------------------------------------------------------------------------- legality (one place)
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
        return self._bidding_options()

    def _options_now(self) -> list[Option]:
        """:meth:`_options`, taken from the latest state mark when no move was made since (every move
        logs, so the same log length is the same state): the public path lists and checks each state's
        options once.  The fast paths take no marks and always compute them."""
        stream = self._events
        if stream.at == len(self.log):
            opts: list[Option] = stream.state[2]
            return opts
        return self._options()

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

    def legal_actions(self, seat: int | None = None) -> list[Legal]:
        """Every legal action now (of one seat, if given): a bid, bet or raise as one
        :class:`AmountRange`, a lead once per card, anything else as its :class:`Action`."""
        out: list[Legal] = []
        if seat is not None:
            self._check_seat(seat)
        if self.phase == OVER:
            return out
        for s, kind, low, high, cards in self._options_now():
            if seat is not None and s != seat:
                continue
            field = KINDS[kind]
            if field == "amount":
                out.append(AmountRange(s, kind, low, high))
            elif field == "card":
                out.extend(Action(s, kind, c) for c in cards_of(cards))
            else:
                out.append(Action(s, kind))
        return out

    def to_act(self) -> list[int]:
        """The seats that may act now (two while an announce-mode claim is open)."""
        return sorted({o[0] for o in self._options_now()})

    def _rule_for(self, kind: str) -> str:
        if kind == "lead":
            if self.phase == PLAY and not self._run and self._stopped_suit >= 0:
                return "R-PLAY-5"
            if self.phase == PLAY and not self._run and self.rules.opening_lead == "two_of_clubs":
                return "R-PLAY-2C"  # the opening lead under the 2 of clubs house rule
            return "R-PLAY-2" if self.phase == PLAY and not self._run else "R-PLAY-1"
        return _RULE_OF_KIND.get(kind, "R-NOTE-3")

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` (naming the rule) or :class:`MalformedInput` unless legal."""
        self._verify(action)

    def _verify(self, action: Action) -> list[Option]:
        """:meth:`verify`, returning the options now."""
        check_action(action)  # the shape first (R-NOTE-3): nothing below meets a bad type
        kind = action.kind
        field = KINDS[kind]
        if self.phase == OVER:
            raise IllegalAction("R-END-1", "the hand is over: no further action")
        opts = self._options_now()
        rule = self._rule_for(kind)
        match = [o for o in opts if o[1] == kind and o[0] == action.seat]
        if not match:
            same = [o for o in opts if o[1] == kind]
            if same:
                raise IllegalAction(rule, f"seat {quote(action.seat)} cannot {kind} now: "
                                    f"it is seat {same[0][0]}'s turn")
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
                raise IllegalAction(rule, f"{what} must be {low} to {high}, not {quote(action.amount)}")
        elif field == "card" and (action.card is None or not cards >> action.card.index & 1):
            if kind == "play":
                raise IllegalAction(rule, f"the run needs {CARDS[cards.bit_length() - 1]}, "
                                    f"not {action.card}")
            choices = " ".join(str(c) for c in cards_of(cards))
            raise IllegalAction(rule, f"seat {quote(action.seat)} must lead one of {choices}, not {action.card}")
        return opts

    def can(self, action: Action) -> bool:
        """Whether :meth:`verify` accepts ``action``."""
        try:
            self.verify(action)
        except (IllegalAction, MalformedInput):
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Check and make ``action``, then any forced actions; return the events they caused as the acting
        seat may learn them (:meth:`events_since`: numbered, nothing another seat may hide from it)."""
        start = len(self.log)
        self.make(action)
        return self.events_since(start + 1, action.seat)

    def make(self, action: Action) -> None:
        """:meth:`apply` without handing the events back (a table reads them for each seat when it needs
        them, so working them out for the actor at once is wasted)."""
        forced = self._forced(self._verify(action)) is not None
        self._do(action.seat, action.kind, -1 if action.card is None else action.card.index,
                 0 if action.amount is None else action.amount, forced)
        self._settle_forced()
        self._mark()

    # ---------------------------------------------------------------------------------- doing
    def _do(self, seat: int, kind: str, card: int, amount: int, forced: bool) -> None:
        if self._tracking and kind != "play":
            # The state after the previous move, before this one: a mark before every move that may be
            # forced or chosen (where marks fall cannot tell a forced lead, widow choice or bid from a
            # chosen one).  A play in a run is forced for everyone alike: the run takes no marks.
            self._mark()
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

    def _settle_forced(self) -> list[Option] | None:
        """Make forced actions at once (R-PLAY-3), each logged as its seat's action, marked forced; the options
        then, when finding that no action is forced worked them out (the random path uses them)."""
        while self.auto and self.phase != OVER:
            if self.phase == PLAY:
                self._play_forced()
                return None
            opts = self._options()
            opt = self._forced(opts)
            if opt is None:
                return opts
            self._do(opt[0], opt[1], -1, opt[2], True)
        return None


    def step_forced(self) -> bool:
        """Make the one forced action, if there is one now (for replays with ``auto=False``)."""
        if self.phase == OVER:
            return False
        opt = self._forced(self._options())
        if opt is None:
            return False
        self._do(opt[0], opt[1], opt[4].bit_length() - 1, opt[2], True)
        self._mark()
        return True

    def forced_action(self) -> Action | None:
        """The only legal action now, if there is exactly one."""
        # the mark's options when nothing moved since (a server asks this several times an update)
        opt = self._forced(self._options_now()) if self.phase != OVER else None
        if opt is None:
            return None
        field = KINDS[opt[1]]
        return Action(opt[0], opt[1], CARDS[opt[4].bit_length() - 1] if field == "card" else None,
                      opt[2] if field == "amount" else None)

    def forced_shown(self) -> bool:
        """Whether the forced action now shows as forced to every seat: a play in a run (R-VIEW-1). Whether
        any other was forced can tell what its seat holds, so only that seat is told."""
        forced = self.forced_action()
        return forced is not None and forced.kind == "play"

    # ------------------------------------------------------------------------- inspection
    @property
    def showdown(self) -> dict[int, int]:
        """The best five each seat showed at the poker showdown (R-POKER-3), as card masks by seat."""
        return {s: shown_five(value, held) for s, (value, held) in self._shown.items()}

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def pot_balances(self) -> dict[str, int]:
        return dict(zip(self.rules.board.pot_ids, self.pots, strict=True))

    def widow(self) -> int:
        """The widow's cards as a mask (never shown in a view)."""
        held = 0
        for m in self.hands:
            held |= m
        played = sum(1 << c for c in range(52) if self.owner[c] == PLAYED)
        return ((1 << 52) - 1) & ~held & ~played

    def played(self) -> list[tuple[int, int]]:
        """``(seat, card index)`` of every card laid, in order."""
        return [(e[1], e[3]) for e in self.log if e[0] == "act" and (e[2] == "play" or e[2] == "lead")]

    def result(self) -> StopsResult | None:
        """What the finished hand came to (:func:`rummoli.stops.result.hand_result`); None while in play."""
        if self.phase != OVER:
            return None
        return hand_result(self)

    def phase_state(self) -> dict[str, Any]:
        """The public state of the phase in progress: the auction's bid, the betting round, the run."""
        if self.phase == AUCTION:
            passed = [s for s in range(self.n) if self._passed >> s & 1 and s != self.dealer]
            return {"auction": {"bid": self._bid, "bidder": None if self._bidder < 0 else self._bidder,
                                "passed": passed}}
        if self.phase == BETTING:
            folded = [s for s in range(self.n) if self._folded >> s & 1]
            return {"betting": {"level": self._level, "put": list(self._put), "raises": self._raises,
                                "folded": folded, "cap": self._cap(), "max_bet": self.rules.max_bet,
                                "max_raises": self.rules.max_raises}}
        if self.phase == PLAY:
            stopped = None if self._stopped_suit < 0 else "shdc"[self._stopped_suit]
            return {"play": {"run": self._run, "stopped_suit": stopped,
                             "claim_open": self._pending_seat if self._pending else None}}
        return {}

    def clone(self) -> Hand:
        """A deep copy cheap enough for search (its event stream starts afresh: a new hand's numbering)."""
        new = Hand.__new__(Hand)
        _copy_state(self, new)
        new._reset_stream()
        new._tracking = False
        return new

    def _reset_stream(self) -> None:
        """An empty event stream and empty caches for the views (:mod:`rummoli.stops.views`): a new hand, or a
        clone, whose numbering starts afresh."""
        self._events = streams.Stream()  # the numbered events and their state marks (rummoli.streams)
        self._tracking = True  # a state mark after every move (off on the fast paths and in clones)
        self._static: dict[str, Any] = {}
        self._played: list[dict[str, Any]] = []
        self._played_at = 0
        self._shown_json: tuple[int, dict[str, list[str]]] = (0, {})  # the showdown as views give it, and of how many

    def __repr__(self) -> str:
        return f"<Hand {self.rules.name} {self.n} seats, {self.phase}, chips {self.chips}>"


#: The event stream and the views' caches, which a clone starts afresh.
_STREAM_SLOTS: Final = frozenset({"_events", "_tracking", "_static", "_played", "_played_at", "_shown_json"})
STATE_SLOTS: Final = tuple(name for name in Hand.__slots__ if name not in _STREAM_SLOTS)
#: The state a clone copies, its lists and dicts (tests/stops/test_stops_properties.py: no other slot holds one);
#: the rest it shares.
COPIED_SLOTS: Final = frozenset({"_pending_pots", "_put", "_shown", "_start_stack", "chips", "dealt", "dealt_widow",
                                 "hands", "log", "names", "owner", "play_start", "poker_winners", "pots",
                                 "start_chips", "start_pots"})
_copy_state = slot_copier(STATE_SLOTS, COPIED_SLOTS)
