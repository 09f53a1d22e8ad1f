"""The play round and the end of a hand (docs/rules.md R-PLAY-1 to R-PLAY-9, R-END-1).

Leads, runs, stops and restarts, passing or paying when a leader cannot lead, stalls, pay cards and
combos, announce-mode claims, going out and the leftover payments.  A mixin of
:class:`~rummoli.stops.hand.Hand`; card sets are 52-bit masks (``rummoli.cards``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from rummoli.cards import BLACK_MASK, RANK_MASK, RED_MASK, SUIT_BITS, SUIT_MASK
from rummoli.shuffling import below
from rummoli.stops.base import OVER, PLAY, PLAYED, HandState
from rummoli.stops.ruleset import CARD, CHOICES, COMBO, Board
from rummoli.twins import compiled


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


BoardTables = tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...], int]
#: board_tables by the board object itself: hashing a board (every pot) on each new hand and each search
#: world cost more than the tables' use; equal boards loaded apart still share the cache below.
_TABLES_OF: dict[int, tuple[Board, BoardTables]] = {}


def board_tables(board: Board) -> BoardTables:
    """Per card: the card pots it wins, the combos it tops (pot, lowest rank); and the pay-card mask."""
    hit = _TABLES_OF.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    tables = _tables_of(board)
    if len(_TABLES_OF) < 256:  # the entry keeps the board alive, so its id is not reused meanwhile
        _TABLES_OF[id(board)] = (board, tables)
    return tables


@lru_cache(maxsize=64)
def _tables_of(board: Board) -> BoardTables:
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


Pays = tuple[tuple[tuple[int, int], ...], ...]
_PAYS_OF: dict[int, tuple[tuple[tuple[int, ...], ...], int, Pays]] = {}


def pay_tables(card_pots: tuple[tuple[int, ...], ...], combo_end: tuple[tuple[tuple[int, int], ...], ...]
               ) -> tuple[int, Pays]:
    """From a board's tables: the cards that win a card pot or end a combo, as a mask, and per card the pots it
    wins as :func:`play_plain` takes them (``(pot, -1)`` for a card pot, then ``(pot, lowest rank)`` per combo)."""
    hit = _PAYS_OF.get(id(card_pots))
    if hit is not None and hit[0] is card_pots:
        return hit[1], hit[2]
    hot = sum(1 << c for c in range(52) if card_pots[c] or combo_end[c])
    pays = tuple(tuple((j, -1) for j in card_pots[c]) + combo_end[c] for c in range(52))
    if len(_PAYS_OF) < 256:  # the entry keeps the tables alive, so their id is not reused meanwhile
        _PAYS_OF[id(card_pots)] = (card_pots, hot, pays)
    return hot, pays


def restart_leads(held: int, suit: int, restart: str, lead: str) -> int:
    """The cards of ``held`` that may lead after a stop in ``suit`` (R-PLAY-5) under the ruleset's
    ``restart`` and ``lead`` options, or 0 (shared with the bots' lean play-outs, so both read one rule)."""
    if restart == "opposite_colour":
        allowed = held & (BLACK_MASK if suit in (1, 2) else RED_MASK)
        if lead == "lowest_overall":
            return _lowest_rank(allowed)
        return _lowest_per_suit(allowed)
    allowed = held & ~SUIT_MASK[suit]
    if allowed:
        return _lowest_per_suit(allowed)
    if restart == "other_suit_else_same":
        return held & -held
    return 0


#: ``restart`` and ``lead`` as :func:`play_plain` takes them: ``2 * restart + lead``, each its option's place.
RESTART_MODES: Final = {(restart, lead): 2 * r + k for r, restart in enumerate(CHOICES["restart"])
                        for k, lead in enumerate(CHOICES["lead"])}
#: The words of the log entries :func:`play_plain` makes, the very objects the rest of the engine logs.
PLAIN_WORDS: Final = ("act", "play", "lead", "stop", True, "chips", "pay_card")


#: The cards of a lead's choices in order, by their mask (a lead offers at most one card a suit, or a rank).
_LEAD_CARDS: dict[int, list[int]] = {}


def lead_cards(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first: a choice of lead as the random path draws from it (kept per mask;
    the list is shared, never changed)."""
    cards = _LEAD_CARDS.get(mask)
    if cards is None:
        cards = []
        rest = mask
        while rest:
            low = rest & -rest
            cards.append(low.bit_length() - 1)
            rest ^= low
        if len(_LEAD_CARDS) < 65536:
            _LEAD_CARDS[mask] = cards
    return cards


def play_plain_pure(hands: list[int], owner: list[int], log: list[tuple[Any, ...]], hot: int, modes: int,
                    state: list[Any], words: tuple[Any, ...], pays: tuple[tuple[tuple[int, int], ...], ...] | None,
                    pots: list[int], chips: list[int], getrandbits: Callable[[int], int] | None = None) -> int:
    """Lay the forced leads and plays that need no choice, and the stops after which the same seat leads again,
    as :meth:`Play._lay` and :meth:`Play._stop` would; ``state`` is ``[turn, lead mask, run, last layer, streak
    from, stopped suit]``, read and written back.  Returns what comes next: 0 a choice of lead, 1 a card for
    ``_lay`` (a card of ``hot``, its layer's last), 2 a stop after the card in the lead mask whose next leader
    ``_stop`` finds (someone cannot lead), 3 a lead chosen by ``getrandbits`` for ``_lay`` (a card of ``hot``, its
    layer's last).  ``pays`` holds per card the pots it wins, ``(pot, lowest rank of the combo it ends, or -1)``,
    paid at once from ``pots`` into ``chips`` (None: cards pay nothing when laid); ``modes`` is the ruleset's
    :data:`RESTART_MODES`.  With ``getrandbits`` a choice of lead is drawn, as the random path draws it
    (``rng.choice`` of its cards, lowest first), and laid, not forced; a draw that fails leaves ``state`` at the
    choice.  Its compiled twin is :func:`play_plain`."""
    act, play, lead, stop, forced, chips_word, pay_card = words
    turn, mask, run, last, streak, stopped = state
    restart, lead_rule = CHOICES["restart"][modes // 2], CHOICES["lead"][modes % 2]
    status = 0
    while True:
        chosen = False
        if not run and mask & (mask - 1):
            if getrandbits is None:
                break
            cards = lead_cards(mask)
            try:
                card = cards[below(getrandbits, len(cards))]
            except BaseException:
                state[:] = [turn, mask, bool(run), last, streak, stopped]
                raise
            mask, chosen = 1 << card, True
        card = mask.bit_length() - 1
        bit = 1 << card
        held = hands[turn]
        if hot >> card & 1 or held == bit or not held & bit:
            status = 3 if chosen else 1
            break
        log.append((act, turn, play if run else lead, card, 0, False if chosen else forced))
        hands[turn] = held ^ bit
        owner[card] = PLAYED
        if not run or last != turn:
            streak = card % 13
        last = turn
        if pays is not None:
            for j, low in pays[card]:
                amount = pots[j]
                if (low < 0 or low >= streak) and amount > 0:
                    pots[j] -= amount
                    chips[turn] += amount
                    log.append((chips_word, -1 - j, turn, amount, pay_card))
        holder = owner[card + 1] if card % 13 != 12 else -1
        if holder >= 0:
            run, turn, mask = True, holder, bit << 1
            continue
        again = restart_leads(held ^ bit, card // 13, restart, lead_rule)
        if not again:
            status, mask = 2, bit
            break
        log.append((stop, card))
        run, stopped, mask = False, card // 13, again
    state[:] = [turn, mask, bool(run), last, streak, stopped]
    return status


#: :func:`play_plain_pure`, compiled where it could be (tests/stops/test_stops_plain.py holds the two together).
play_plain: Callable[..., int] = compiled("play_plain") or play_plain_pure


class Play(HandState):
    """The play round of a :class:`~rummoli.stops.hand.Hand`."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    def _begin_play(self) -> None:
        self.phase = PLAY
        self.play_start = list(self.hands)
        self._run = False
        self._stopped_suit = -1
        if self.rules.opening_lead == "two_of_clubs":  # R-PLAY-2C: the lowest club in play opens
            in_play = 0
            for held in self.hands:
                in_play |= held
            clubs = in_play & SUIT_MASK[3]
            if clubs:
                low = clubs & -clubs
                self.turn = next(seat for seat, held in enumerate(self.hands) if held & low)
                self._lead_mask = low
                return
        if self.rules.opening_lead == "poker_winner" and self.poker_winners:
            leader = self.poker_winners[0]
        else:
            leader = (self.dealer + 1) % self.n
        hand = self.hands[leader]
        self._lead_mask = _lowest_rank(hand) if self.rules.lead == "lowest_overall" else _lowest_per_suit(hand)
        self.turn = leader

    def _lead_options(self, seat: int) -> int:
        """The cards ``seat`` may lead after a stop in ``_stopped_suit`` (R-PLAY-5), or 0."""
        rules = self.rules
        return restart_leads(self.hands[seat], self._stopped_suit, rules.restart, rules.lead)

    def _lay(self, seat: int, card: int, kind: str, forced: bool) -> None:
        if self._tracking and kind != "play":
            self._mark()  # the state after the previous move, before this one (see Hand._do)
        self.log.append(("act", seat, kind, card, 0, forced))
        self.hands[seat] ^= 1 << card
        self.owner[card] = PLAYED
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
        self._stop(seat, card)

    def _play_forced(self, getrandbits: Callable[[int], int] | None = None) -> None:
        """Make the forced leads and plays (R-PLAY-3, R-PLAY-5) until a seat has a choice of lead, a claim is
        open or the hand is over, as :meth:`_lay` would one by one: a plain lead (no pot to pay, not the
        leader's last card) is laid here, a run by :meth:`_play_run`, anything else by :meth:`_lay`.  With
        ``getrandbits`` (the random path, no state marks) each choice of lead is drawn and laid too, as
        :meth:`~rummoli.stops.random_path.RandomPath.random_step` draws it, until a claim is open or the hand is
        over."""
        log, hands, owner = self.log, self.hands, self.owner
        card_pots, combo_end = self._card_pots, self._combo_end
        while self.phase == PLAY and not self._pending:
            if not self._tracking:  # no marks to take before leads: the plain cards go in one call
                state: list[Any] = [self.turn, self._lead_mask, self._run, self._last_layer, self._streak_from,
                                    self._stopped_suit]
                rules = self.rules
                hot, table = pay_tables(card_pots, combo_end)
                pays: Pays | None = table
                if rules.pay != "on_play":  # the pots were paid on the deal: a card laid pays nothing
                    hot, pays = 0, None
                elif rules.claim == "automatic":
                    hot = 0
                else:  # a claim to announce: the card goes the long way, which opens it
                    pays = None
                try:
                    status = play_plain(hands, owner, log, hot, RESTART_MODES[rules.restart, rules.lead], state,
                                        PLAIN_WORDS, pays, self.pots, self.chips, getrandbits)
                finally:  # a draw that failed left the state at its choice
                    self.turn, self._lead_mask, self._run, self._last_layer, self._streak_from, \
                        self._stopped_suit = state
                if status == 0:
                    return
                card = self._lead_mask.bit_length() - 1
                if status == 1:
                    self._lay(self.turn, card, "play" if self._run else "lead", True)
                elif status == 3:
                    self._lay(self.turn, card, "lead", False)
                else:
                    self._stop(self.turn, card)
                continue
            if self._run:
                self._play_run()
                continue
            mask = self._lead_mask
            if mask & (mask - 1):
                return
            seat, card = self.turn, mask.bit_length() - 1
            if card_pots[card] or combo_end[card] or hands[seat] == mask:
                self._lay(seat, card, "lead", True)
                continue
            if self._tracking:
                self._mark()  # the state after the previous move, before this one (see Hand._do)
            log.append(("act", seat, "lead", card, 0, True))
            hands[seat] ^= mask
            owner[card] = PLAYED
            self._streak_from = card % 13
            self._last_layer = seat
            holder = owner[card + 1] if card % 13 != 12 else -1
            if holder >= 0:
                self._run, self.turn, self._lead_mask = True, holder, mask << 1
            else:
                self._stop(seat, card)

    def _play_run(self) -> None:
        """Lay the forced plays of the run under way (R-PLAY-3), as :meth:`_lay` would one by one: most cards of
        a hand go this way, so the plain ones (no pot to pay, not the layer's last card, no claim open) are laid
        here in one loop, and the first that is not plain, or the stop, goes the general way."""
        log, hands, owner = self.log, self.hands, self.owner
        card_pots, combo_end = self._card_pots, self._combo_end
        seat, card = self.turn, self._lead_mask.bit_length() - 1
        last = self._last_layer
        while not (self._pending or card_pots[card] or combo_end[card] or hands[seat] == 1 << card):
            log.append(("act", seat, "play", card, 0, True))
            hands[seat] ^= 1 << card
            owner[card] = PLAYED
            if last != seat:
                self._streak_from = card % 13
                last = seat
            holder = owner[card + 1] if card % 13 != 12 else -1
            if holder < 0:
                self._last_layer, self.turn, self._lead_mask = seat, seat, 1 << card
                self._stop(seat, card)
                return
            seat = holder
            card += 1
        self._last_layer, self.turn, self._lead_mask = last, seat, 1 << card
        self._lay(seat, card, "play", True)

    def _stop(self, seat: int, card: int) -> None:
        """No one can play on after ``card``: the run stops and the next leader is found (R-PLAY-5)."""
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
