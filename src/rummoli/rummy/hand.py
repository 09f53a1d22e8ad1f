"""One hand of a Rummy-family game as a state machine (docs/rules.md §4, R-NOTE-2/3).

The deal is an input: each seat's cards and the stock, top first; the stock's first card is turned up to
start the discard pile.  ``legal_actions()`` lists what the player to act may do; ``verify`` / ``can`` /
``apply`` check and play one :class:`Action`; ``view(seat)`` holds only what that seat may know.

Internally a move is a small tuple ``(code, x, y)`` (codes in :mod:`~rummoli.rummy.base`) and card sets are
52-bit masks, so that random play-outs and search bots stay fast (:mod:`~rummoli.rummy.search_path`); the one
function :meth:`RummyHand.refusal` decides legality for listing and for checking alike.  What the hand shows
(events, the record, views) is :mod:`~rummoli.rummy.views`; how it ends and scores, :mod:`~rummoli.rummy.settle`.

>>> from rummoli.cards import CARDS, parse_cards
>>> hands = [parse_cards("7s 7h 7d 2c 3c 4c 9h Th Js Qd"), parse_cards("2s 3s 4s 5h 6h 8d 9d Kc Kd Ah")]
>>> rest = [c for c in CARDS if c not in hands[0] + hands[1]]
>>> hand = RummyHand("rummy", ["Ann", "Bob"], [0, 0], 1, hands, rest)
>>> hand.turn, [str(a) for a in hand.legal_actions()]
(0, ['0 draw stock', '0 draw discard'])
>>> events = hand.apply(Action(0, "draw", source="stock"))
>>> hand.apply(Action(0, "meld", cards=tuple(parse_cards("7s 7h 7d"))))[0]["cards"]
['7s', '7h', '7d']
>>> hand.verify(Action(0, "discard", card=CARDS[0]))
Traceback (most recent call last):
...
rummoli.errors.IllegalAction: R-RU-3: you do not hold 2s
"""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Sequence
from typing import Any, Final

from rummoli import streams
from rummoli.cards import CARDS, Card
from rummoli.errors import IllegalAction, MalformedInput, quote
from rummoli.limits import MAX_NAME, MAX_SCORE
from rummoli.rummy import settle
from rummoli.rummy.actions import Action, action_of, listed, move_json, well_formed
from rummoli.rummy.base import (
    DISCARD,
    DRAW,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCK,
    LAYOFF,
    MELD,
    OFFER_DEALER,
    OFFER_FIRST,
    OFFER_NONE,
    OFFER_STOCK,
    OVER,
    PASS,
    PLAY,
    Entry,
    Move,
)
from rummoli.rummy.melds import MeldTable, meld_table
from rummoli.rummy.result import hand_result
from rummoli.rummy.ruleset import Ruleset, load_ruleset
from rummoli.rummy.search_path import SearchPath
from rummoli.rummy.views import Views
from rummoli.shapes import Event, RummyResult
from rummoli.slots import slot_copier

__all__ = ["RummyHand"]  # the move codes are rummoli.rummy.base's

_STOCK_DRAW: Final = (DRAW_STOCK, 0, 0)
_PILE_DRAWS: Final = tuple((DRAW_DISCARD, i, 0) for i in range(52))
_DISCARDS: Final = tuple((DISCARD, i, 0) for i in range(52))


def _bit_index(bit: int) -> int:
    return bit.bit_length() - 1


class RummyHand(SearchPath, Views):
    """A hand in play.  ``scores`` are the running scores before the hand (they are not changed here;
    ``deltas`` holds what the hand adds to each once it is over)."""

    #: An R-NOTE-3 action object as this engine's :class:`Action` (a driver of either engine reads with it).
    read_action = staticmethod(Action.from_json)

    __slots__ = ("_action_at", "_actions_seen", "_arranged", "_drawn", "_events", "_shuffle_key", "_static",
                 "_tracking", "dealer", "dealt", "dealt_stock", "deltas", "end_rule", "events_log", "flips", "hands",
                 "has_laid", "laid_before", "log", "melds", "melds_table", "must", "n", "offer", "outcome", "owners",
                 "phase", "pile", "pile_streak", "players", "points", "reshuffle_given", "reshuffled", "rules",
                 "scores", "stock", "stock_draws", "taken", "turn")

    def __init__(
        self,
        ruleset: Ruleset | str | dict[str, Any],
        players: Sequence[str],
        scores: Sequence[int],
        dealer: int,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        reshuffle: Sequence[Card] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """``reshuffle`` and ``rng`` matter only with ``stock_end = shuffle_once`` (R-RU-SHUFFLE): the
        new stock as a record gives it, top first (a replay), else the source the turned-over pile is
        shuffled from (a seeded ``random.Random`` for a reproducible hand; none: the secure source)."""
        rules = load_ruleset(ruleset)
        n = len(players)
        size = rules.hand_size_for(n)
        if len(scores) != n or len(hands) != n:
            raise MalformedInput(f"{n} players need {n} scores and {n} hands")
        if any(not isinstance(p, str) or len(p) > MAX_NAME for p in players):
            raise MalformedInput(f"players: each a name of at most {MAX_NAME} characters")
        if any(isinstance(s, bool) or not isinstance(s, int) or not -MAX_SCORE <= s <= MAX_SCORE for s in scores):
            raise MalformedInput(f"scores: whole numbers from {-MAX_SCORE:,} to {MAX_SCORE:,}")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise MalformedInput(f"dealer must be a seat from 0 to {n - 1}, not {quote(dealer)}")
        if not all(isinstance(c, Card) for cards in (*hands, stock) for c in cards):
            raise MalformedInput("the deal is made of cards (rummoli.cards.Card)")
        seen = 0
        masks = []
        for seat, cards in enumerate(hands):
            if len(cards) != size:
                raise MalformedInput(f"R-RU-1: seat {seat} was dealt {len(cards)} cards, not {size}")
            mask = 0
            for card in cards:
                mask |= card.bit
            masks.append(mask)
            seen |= mask
        for card in stock:
            seen |= card.bit
        if seen != (1 << 52) - 1 or sum(len(h) for h in hands) + len(stock) != 52:
            raise MalformedInput("the deal must hold each of the 52 cards exactly once")
        if reshuffle is not None:
            if rules.stock_end != "shuffle_once":
                raise MalformedInput("R-RU-SHUFFLE: only a stock_end = shuffle_once hand has a reshuffled stock")
            if len({c.index for c in reshuffle}) != len(reshuffle):
                raise MalformedInput("R-RU-SHUFFLE: the reshuffled stock names a card twice")
        self.rules = rules
        self.melds_table: MeldTable = meld_table(rules.aces, rules.ace_value)
        self.players = list(players)
        self.n = n
        self.scores = list(scores)
        self.dealer = dealer
        self.dealt = [list(h) for h in hands]
        self.dealt_stock = list(stock)
        self.hands = masks
        self.stock = [c.index for c in reversed(stock)]  # top of the stock at the end
        self.pile = [self.stock.pop()]  # the discard pile, bottom first
        self.melds: list[int] = []
        self.owners: list[int] = []
        self.points = [0] * n  # points laid on the table (500 Rum)
        self.has_laid = [False] * n
        self.laid_before = False  # had the player to act laid a card before this turn (R-RU-4)
        self.turn = (dealer + 1) % n
        self.phase = DRAW
        self.taken = -1  # card index just taken from the discard pile this turn
        self.must = 0  # 500 Rum: the bit of the deepest card taken, until it reaches the table
        self.flips = 0
        self.pile_streak = 0  # draws in a row from the discard pile (R-RU-LOOP)
        self.offer = OFFER_FIRST if rules.style == "gin" else OFFER_NONE
        self._arranged = (-1, 0)  # (hand, the cards Gin's knock may throw from it)
        self.deltas = [0] * n
        self.end_rule = ""  # the rule that ended the hand, once it is over
        self.outcome: dict[str, Any] = {}
        self.log: list[Entry] = []  # (seat, code, x, y, forced): see rummoli.rummy.base
        self.events_log: list[Entry | dict[str, Any]] = []
        self.stock_draws: list[tuple[int, int]] = []  # (log index, card index) of cards drawn blind
        # R-RU-SHUFFLE: the new stock, top first, as given (a replay) and as made (None until the flip)
        self.reshuffle_given = None if reshuffle is None else [c.index for c in reshuffle]
        self.reshuffled: list[int] | None = None
        self._shuffle_key: tuple[int, ...] = ()
        if rules.stock_end == "shuffle_once" and reshuffle is None:
            # The shuffle is drawn with the deal: a random order of the 52 cards that the turned-over pile
            # is sorted by when the time comes (a uniform shuffle of whatever the pile then holds).  Drawn
            # now, clones share it and a search cannot disturb the source of the hand it copies.
            source = rng if rng is not None else secrets.SystemRandom()
            self._shuffle_key = tuple(source.sample(range(52), 52))
        self._reset_stream()
        self._start_turn()
        self._mark()

    def _reset_stream(self) -> None:
        """The per-seat event stream (see :mod:`rummoli.rummy.views`): built when someone reads it."""
        self._events = streams.Stream()  # the numbered events and their state marks (rummoli.streams)
        self._tracking = True  # a state mark after every move (off on the fast path and in clones)
        self._action_at: list[int] = []  # for each entry of events_log: its index in log (-1: not an action)
        self._actions_seen = 0
        self._drawn: dict[int, int] = {}
        self._static: dict[str, Any] = {}

    # ------------------------------------------------------------------ legality (one function)
    def refusal(self, seat: int, code: int, x: int, y: int) -> tuple[str, str] | None:
        """Why the raw move ``(code, x, y)`` by ``seat`` is illegal now, as ``(rule, message)``, or ``None`` if
        it is legal: the one legality function, behind :meth:`verify` and :meth:`moves`, and the check of a
        searching bot that builds a move itself (:mod:`~rummoli.rummy.search_path`)."""
        rules = self.rules
        if self.phase == OVER:
            return self.end_rule, "the hand is over"
        if not 0 <= seat < self.n:
            return "R-RU-1", f"there is no seat {quote(seat)}"
        if seat != self.turn:
            return "R-RU-3", f"it is seat {self.turn}'s turn, not seat {seat}'s"
        hand = self.hands[seat]
        if code <= DRAW_DISCARD or code == PASS:
            if self.phase != DRAW:
                return "R-RU-3", "one draw a turn: you have drawn already"
            offer = self.offer
            if code == PASS:
                return None if offer in (OFFER_FIRST, OFFER_DEALER) else ("R-GIN-2", "only the first upcard is passed")
            if code == DRAW_STOCK:
                if offer in (OFFER_FIRST, OFFER_DEALER):
                    return "R-GIN-2", "the upcard is offered first: take it or pass"
                return None
            if offer == OFFER_STOCK:
                return "R-GIN-2", "both players passed the upcard: draw from the stock"
            if not self.pile:
                return "R-RU-3", "the discard pile is empty"
            if x not in self.pile:
                return "R-RU-3", f"{CARDS[x]} is not in the discard pile"
            depth = self.pile.index(x)
            if depth != len(self.pile) - 1 and not rules.discard_depth:
                return "R-RU-3", "only the top discard may be drawn"
            if rules.style == "500":
                taken = 0
                for index in self.pile[depth:]:
                    taken |= 1 << index
                if not self.melds_table.usable(1 << x, hand | taken, self.melds):
                    return "R-500-2", f"{CARDS[x]} taken from the discard pile must be melded at once: it cannot be"
            return None
        if self.phase != PLAY:
            return "R-RU-3", "draw first"
        if code in (MELD, LAYOFF):
            if rules.style == "knock":
                return "R-KN-1", "Knock Rummy has no melding in play"
            if rules.style == "gin":
                return "R-GIN-1", "Gin Rummy has no melding in play: melds are shown when a player knocks"
            if code == MELD:
                if x & hand != x:
                    return "R-RU-3", "you do not hold all those cards"
                if not self.melds_table.is_meld(x):
                    return _aces_refusal(rules.aces, x) or (
                        "R-RU-3", "not a meld: a set is 3 or 4 of a rank, a run 3 or more in sequence in a suit")
                return self._table_refusal(hand, x, -1)
            bit = 1 << x
            if not hand & bit:
                return "R-RU-3", f"you do not hold {CARDS[x]}"
            if not 0 <= y < len(self.melds):
                return "R-RU-3", f"there is no meld {quote(y)} on the table"
            if not self.melds_table.can_lay_off(self.melds[y], bit):
                return "R-RU-3", f"{CARDS[x]} does not fit meld {y} (a set takes a fourth, a run its ends)"
            return self._table_refusal(hand, bit, y)
        bit = 1 << x
        if not hand & bit:
            return "R-RU-3", f"you do not hold {CARDS[x]}"
        if code == KNOCK and rules.style == "gin":
            if not self._gin_knock_fits(hand, bit):
                left = self.melds_table.deadwood(hand ^ bit)
                return "R-GIN-3", f"a knock needs {rules.knock_limit} or less deadwood; you would keep {left}"
        elif code == KNOCK and rules.style != "knock":
            return "R-KN-2", "knocking belongs to Knock Rummy and Gin Rummy"
        return self._discard_refusal(hand, x)

    def _table_refusal(self, hand: int, bits: int, index: int) -> tuple[str, str] | None:
        """The turn's own limits on a meld (``index`` -1) or a lay-off on meld ``index`` of ``bits``."""
        if hand == bits and self.rules.boathouse:
            return "R-RU-BOAT", "with boathouse you may only go out with a discard"
        if self.must and not bits & self.must:
            melds = list(self.melds)
            if index < 0:
                melds.append(bits)
            else:
                melds[index] |= bits
            if not self.melds_table.usable(self.must, hand ^ bits, melds):
                return "R-500-2", f"{CARDS[_bit_index(self.must)]} must still reach the table this turn"
        return None

    def _gin_knock_fits(self, hand: int, bit: int) -> bool:
        """Whether ``hand`` less one card keeps no more deadwood than Gin's knock limit (R-GIN-3)."""
        return bool(self._gin_knock_mask(hand) & bit)

    def _gin_knock_mask(self, hand: int) -> int:
        """The cards of ``hand`` whose discard Gin's knock limit allows (:func:`settle.knock_discards`),
        worked out once per hand (so once a turn, however often the moves are listed or checked)."""
        cached = self._arranged
        if cached[0] != hand:
            self._arranged = cached = (hand, settle.knock_discards(self.melds_table, hand, self.rules.knock_limit))
        return cached[1]

    def _discard_refusal(self, hand: int, index: int) -> tuple[str, str] | None:
        """The turn's own limits on discarding (or knocking with) card ``index``."""
        if self.must:
            return "R-500-2", f"{CARDS[_bit_index(self.must)]} must reach the table before you discard"
        if index == self.taken and hand != 1 << index:
            rule = {"knock": "R-KN-2", "gin": "R-GIN-2"}.get(self.rules.style, "R-RU-3")  # the style's own turn rule
            return rule, f"{CARDS[index]} was just taken from the discard pile: discard another card"
        return None

    def moves(self) -> list[Move]:
        """Every legal move of the player to act, raw (empty once the hand is over): what
        :meth:`legal_actions` lists as actions, and what a searching bot or a random play-out picks from.

        Candidates are built legal in shape (held cards, table melds, fitting lay-offs); the turn's
        own limits are then asked of the same helpers :meth:`refusal` uses.
        """
        phase = self.phase
        if phase == OVER:
            return []
        seat = self.turn
        if phase == DRAW:
            if self.offer:
                if self.offer == OFFER_STOCK:
                    return [(DRAW_STOCK, 0, 0)]
                return [(DRAW_DISCARD, self.pile[-1], 0), (PASS, 0, 0)]
            pile = self.pile
            if self.rules.discard_depth:
                return [_STOCK_DRAW] + [_PILE_DRAWS[c] for c in pile if self.refusal(seat, DRAW_DISCARD, c, 0) is None]
            if pile and (self.rules.style != "500" or self.refusal(seat, DRAW_DISCARD, pile[-1], 0) is None):
                return [_STOCK_DRAW, _PILE_DRAWS[pile[-1]]]
            return [_STOCK_DRAW]
        hand = self.hands[seat]
        moves = []
        limited = self.must or self.rules.boathouse
        style = self.rules.style
        if style in ("straight", "500"):
            table = self.melds_table
            for mask in table.melds_in(hand):
                if not limited or self._table_refusal(hand, mask, -1) is None:
                    moves.append((MELD, mask, 0))
            for index, meld in enumerate(self.melds):
                fits = table.fits(meld) & hand
                while fits:
                    low = fits & -fits
                    fits ^= low
                    if not limited or self._table_refusal(hand, low, index) is None:
                        moves.append((LAYOFF, low.bit_length() - 1, index))
            if self.must:
                return moves
        rest = hand & ~(1 << self.taken) if self.taken >= 0 and hand & (hand - 1) else hand
        if style in ("straight", "500"):
            append = moves.append
            while rest:
                low = rest & -rest
                rest ^= low
                append(_DISCARDS[low.bit_length() - 1])
            return moves
        knock = style == "knock"
        knocks = self._gin_knock_mask(hand) if style == "gin" else 0
        while rest:
            low = rest & -rest
            rest ^= low
            index = low.bit_length() - 1
            moves.append(_DISCARDS[index])
            if knock or knocks & low:
                moves.append((KNOCK, index, 0))
        return moves

    # ------------------------------------------------------------------ the public action interface
    def to_move(self, action: Action) -> Move:
        """The internal move of an action (no legality check beyond its shape)."""
        if action.kind == "draw":
            if action.source == "stock":
                return (DRAW_STOCK, 0, 0)
            if action.card is not None:
                return (DRAW_DISCARD, action.card.index, 0)
            return (DRAW_DISCARD, self.pile[-1] if self.pile else -1, 0)
        if action.kind == "meld":
            return (MELD, action.mask, 0)
        if action.kind == "pass":
            return (PASS, 0, 0)
        assert action.card is not None
        code = {"layoff": LAYOFF, "discard": DISCARD, "knock": KNOCK}[action.kind]
        return (code, action.card.index, action.meld)

    def to_action(self, seat: int, move: Move) -> Action:
        return action_of(seat, move, self.rules.discard_depth)

    def move_json(self, seat: int, move: Move) -> dict[str, Any]:
        """``self.to_action(seat, move).to_json()``, made directly (views and events list many moves)."""
        return move_json(seat, move, self.rules.discard_depth)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions the player to act may take (a draw, then melds, lay-offs, discards, knocks); of
        ``seat`` only, if given (none unless it is that seat's turn).  Rummy has no amounts to range."""
        if seat is not None and self._check_seat(seat) != self.turn:
            return []
        stream = self._events
        # The state mark taken after the last move holds its moves already (apply() takes one every move).
        moves = stream.state[2] if stream.at == len(self.events_log) else self.moves()
        return listed(self.turn, moves, self.rules.discard_depth)

    def to_act(self) -> list[int]:
        """The seats the hand waits for: the player to act, none once it is over."""
        return [] if self.phase == OVER else [self.turn]

    def verify(self, action: Action) -> None:
        """Raise ``IllegalAction`` naming the rule ``action`` breaks, or ``MalformedInput`` if it is not a
        well-formed Rummy action at all (checked first, so nothing below meets a bad type); return
        quietly if it is legal."""
        self._checked_move(action)

    def _checked_move(self, action: Action, formed: bool = False) -> Move:
        """The move of ``action`` if it is well-formed and legal now (else what :meth:`verify` raises); ``formed``
        says its shape was checked already (it came from :meth:`Action.from_json`, and an action is frozen)."""
        move = self.to_move(action if formed else well_formed(action))
        refusal = self.refusal(action.seat, *move)
        if refusal is not None:
            raise IllegalAction(*refusal)
        return move

    def can(self, action: Action) -> bool:
        """Whether :meth:`verify` accepts ``action`` (never raises)."""
        with contextlib.suppress(IllegalAction, MalformedInput):
            self.verify(action)
            return True
        return False

    def apply(self, action: Action) -> list[Event]:
        """Play ``action``; returns the events it caused (forced draws after it too) as the actor may learn them."""
        start = len(self.events_log)
        self.make(action)
        return self.events_since(start + 1, action.seat)

    def make(self, action: Action) -> None:  # apply() without the events: a table reads them for each seat
        self._do(self._checked_move(action))
        self._mark()

    def make_unmarked(self, action: Action, formed: bool = False) -> None:
        """:meth:`make` without the state marks, from now on: for a hand nobody reads as a stream (a search bot's
        sampled world), where marking each move (its legal moves listed) was a tenth of the world's cost.
        ``formed``: as :meth:`_checked_move` takes it (legality is always checked)."""
        self._tracking = False
        self._do(self._checked_move(action, formed))

    # ------------------------------------------------------------------ playing moves
    def _do(self, move: Move, forced: int = 0) -> None:
        """Play a legal move (unchecked: callers check with :meth:`refusal` or list with :meth:`moves`)."""
        if self._tracking:
            self._mark()  # the state after the previous move, before this one (one mark per move)
        code, x, y = move
        seat = self.turn
        entry = (seat, code, x, y, forced)
        self.log.append(entry)
        self.events_log.append(entry)
        hand = self.hands[seat]
        if code == PASS:
            self.offer += 1
            self._next_turn()
            return
        self.offer = OFFER_NONE
        if code == DRAW_STOCK:
            self.pile_streak = 0
            card = self.stock.pop()
            self.stock_draws.append((len(self.log) - 1, card))
            self.hands[seat] = hand | (1 << card)
            self.phase = PLAY
        elif code == DRAW_DISCARD:
            self.pile_streak += 1
            depth = self.pile.index(x)
            for index in self.pile[depth:]:
                hand |= 1 << index
            del self.pile[depth:]
            self.taken = x
            if self.rules.style == "500":
                self.must = 1 << x
            if self.rules.boathouse and self.stock:
                card = self.stock.pop()
                self.stock_draws.append((len(self.log) - 1, card))
                hand |= 1 << card
            self.hands[seat] = hand
            self.phase = PLAY
        elif code in (MELD, LAYOFF):
            table = self.melds_table
            if code == MELD:
                bits = x
                self.melds.append(x)
                self.owners.append(seat)
                gained = table.value[x]
            else:
                bits = 1 << x
                old = self.melds[y]
                self.melds[y] = old | bits
                gained = table.value[old | bits] - table.value[old]
            self.points[seat] += gained
            self.has_laid[seat] = True
            self.hands[seat] = hand = hand ^ bits
            if self.must & bits:
                self.must = 0
            if not hand:
                settle.go_out(self, seat)
        elif code == DISCARD:
            self.hands[seat] = hand = hand ^ (1 << x)
            self.pile.append(x)
            if not hand:
                settle.go_out(self, seat)
            else:
                self._next_turn()
        else:  # KNOCK
            self.hands[seat] = hand ^ (1 << x)
            self.pile.append(x)
            settle.knock(self, seat)

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.n
        self.phase = DRAW
        self.taken = -1
        self.must = 0
        self._start_turn()

    def _start_turn(self) -> None:
        """Apply the stock's end (R-RU-5) and forced draws before the player to act decides."""
        self.laid_before = self.has_laid[self.turn]
        if self.rules.style == "gin" and len(self.stock) <= 2:  # R-GIN-6: the last two cards are not drawn
            settle.block(self, "R-GIN-6")
            return
        if self.pile_streak >= 10 * self.n:  # R-RU-LOOP: nobody draws from the stock any more
            settle.block(self, "R-RU-LOOP")
            return
        if not self.stock:
            stock_end = self.rules.stock_end
            if stock_end != "block" and self.flips == 0 and self.pile:
                self.flips = 1
                self.stock = self.pile[::-1]  # turned over: the first discard is the new top card
                self.pile = []
                if stock_end == "shuffle_once":
                    self._shuffle_stock()
                flip: dict[str, Any] = {"type": "flip", "cards": len(self.stock)}
                if stock_end == "shuffle_once":
                    flip["shuffled"] = True
                self.events_log.append(flip)
            else:
                settle.block(self)
                return
        if not self.pile or self.rules.style == "500" or self.offer == OFFER_STOCK:  # one way to draw?
            moves = self.moves()
            if len(moves) == 1:
                # Forced for all to see when the pile is empty or the upcard was passed; in 500 Rum a
                # pile nobody could use is a fact of the drawer's hidden hand (R-VIEW-1): private.
                self._do(moves[0], forced=2 if not self.pile or self.offer == OFFER_STOCK else 1)

    def _shuffle_stock(self) -> None:
        """R-RU-SHUFFLE: put the turned-over pile in the recorded order, or in the order of the key drawn
        with the deal.  A recorded order that is not exactly the turned-over pile stops the replay."""
        given = self.reshuffle_given
        if given is None:
            key = self._shuffle_key
            order = sorted(self.stock, key=key.__getitem__)  # top first
        else:
            if sorted(given) != sorted(self.stock):
                raise IllegalAction(
                    "R-RU-SHUFFLE",
                    f"the record's reshuffled stock ('deal.reshuffle', {len(given)} cards) is not the "
                    f"{len(self.stock)} cards turned over",
                )
            order = list(given)
        self.reshuffled = order
        self.stock = order[::-1]  # top at the end

    # ------------------------------------------------------------------ the end
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def result(self) -> RummyResult | None:
        """What the finished hand came to (:func:`rummoli.rummy.result.hand_result`); None while in play."""
        if self.phase != OVER:
            return None
        return hand_result(self)

    def clone(self) -> RummyHand:
        """An independent copy (cheap: masks and short lists) for search bots."""
        twin = RummyHand.__new__(RummyHand)
        _copy_state(self, twin)
        twin._reset_stream()
        twin._tracking = False
        return twin


#: The lists a clone copies (everything else it shares: numbers, strings, the ruleset and the meld table).
_COPIED_LISTS: Final = ("hands", "stock", "pile", "melds", "owners", "points", "has_laid", "deltas", "log",
                        "events_log", "stock_draws", "scores")
#: The event stream and the views' caches, which a clone starts afresh; the rest is the hand's state.
_STREAM_SLOTS: Final = frozenset({"_events", "_tracking", "_action_at", "_actions_seen", "_drawn", "_static"})
_STATE_SLOTS: Final = tuple(name for name in RummyHand.__slots__ if name not in _STREAM_SLOTS)
_copy_state = slot_copier(_STATE_SLOTS, (*_COPIED_LISTS, "outcome"))


def _aces_refusal(aces: str, cards: int) -> tuple[str, str] | None:
    """R-RU-ACES, when the ``cards`` that are no meld would be a run where the ace sits elsewhere: the rule that
    refuses them is where the ruleset puts its ace, not what a meld is."""
    ranks = {index % 13 for index in range(52) if cards >> index & 1}
    if 12 not in ranks or len(ranks) < 2:  # no ace, or a set of aces
        return None
    if aces == "high" and 0 in ranks:
        return "R-RU-ACES", "aces are high here: an ace goes above the king, so A-2-3 is no run"
    if aces == "low" and 11 in ranks:
        return "R-RU-ACES", "aces are low here: an ace goes below the two, so Q-K-A is no run"
    if aces == "either" and 0 in ranks and 11 in ranks:
        return "R-RU-ACES", "a run may not turn the corner round the ace (K-A-2)"
    return None
