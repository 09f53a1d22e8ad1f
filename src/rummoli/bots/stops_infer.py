"""What a stops bot can infer from its view alone: the counting of the ``normal`` and ``hard`` levels.

:func:`read_view` turns a seat's view into a :class:`Known`: its own cards, every card played and by
whom, and, for every card it has not seen, the places it may be (a seat's hand or the widow) and the
places it must be.  Facts come only from the view (R-VIEW-1):

* a run that stops after card C while C's next card up was never played: that card is in the widow;
* a lead is the leader's lowest card under the lead or restart rule, so the leader held nothing lower;
* a seat that could not lead held no card the restart rule asked for;
* showdown cards stay in their owner's hand until played;
* ``pay = on_hold`` payments show who was dealt each pay card (an unpaid card pot's card was in the widow);
* with ``widow_bar``, a seat that bid or swapped was dealt no pay card;
* the seat that swapped holds the former widow, and its given-up hand is the widow now (the swapper's own
  view keeps that hand, so it knows the widow exactly).

Locations are seats ``0..n-1`` and ``n`` for the widow.  :func:`counted_lead_score` is the lead score that
counting makes (the ``normal`` level's, and every seat's in a ``hard`` rollout's play round).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rummoli.bots.stops_policy import (
    FULL,
    Table,
    lead_keeping,
    low_cards,
    pay_held,
    restart_set,
    sequence_from,
    table_for,
)
from rummoli.cards import RANK_MASK, SUIT_MASK, Card

_CARD_INDEX = {str(Card.from_index(i)): i for i in range(52)}


def card_index(text: str) -> int:
    """The index of a card written as in views (``"Ts"``)."""
    i = _CARD_INDEX.get(text)
    return Card.parse(text).index if i is None else i


_CARD_BIT = {text: 1 << i for text, i in _CARD_INDEX.items()}


def mask_of_texts(texts: list[str]) -> int:
    m = 0
    bits = _CARD_BIT
    for t in texts:
        bit = bits.get(t)
        m |= 1 << card_index(t) if bit is None else bit  # card_index names a text that is not a card
    return m


def _lower_ranks(rank: int) -> int:
    out = 0
    for r in range(rank):
        out |= RANK_MASK[r]
    return out


@dataclass
class Known:
    """One seat's knowledge of a hand, read from its view."""

    t: Table
    n: int
    me: int
    dealer: int
    phase: str
    hand: int
    sizes: list[int]
    widow_size: int
    played: int
    played_by: list[int]
    swapped: int
    known_widow: int
    unseen: int
    chips: list[int]
    pots: list[int]
    #: unseen card -> the location it must be in
    forced: dict[int, int] = field(default_factory=dict)
    #: per location, the unseen cards it cannot hold (hard facts)
    forbid: list[int] = field(default_factory=list)
    #: per location, cards ruled out only by the lowest-lead inference (dropped if sampling fails)
    soft: list[int] = field(default_factory=list)
    #: bets and raises per seat in the poker round
    aggression: list[int] = field(default_factory=list)
    #: per seat, how far its bets are believed to mean its cards (:mod:`rummoli.bots.stops_memory`)
    credibility: list[float] = field(default_factory=list)
    #: combos (a mask per suit) that no dealt hand held whole (``pay = on_hold`` paid nobody for them)
    unpaid_combos: list[tuple[int, ...]] = field(default_factory=list)
    #: what the world sampler works out once per decision, not once per world (``stops_search._place``)
    place_cache: dict[int | str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: what the view's events told, for reading the next view of the same hand (:class:`Told`)
    told: Told | None = field(default=None, repr=False, compare=False)

    @property
    def widow_unknown(self) -> int:
        """How many widow cards this seat has not identified."""
        return self.widow_size - self.known_widow.bit_count()

    def capacity(self) -> list[int]:
        """How many unseen cards each location holds."""
        caps = [0 if s == self.me else self.sizes[s] for s in range(self.n)]
        caps.append(self.widow_size - self.known_widow.bit_count())
        return caps

    def widow_certain(self) -> int:
        """Cards this seat knows to be in the widow."""
        return self.known_widow | sum(1 << c for c, loc in self.forced.items() if loc == self.n)

    def p_widow(self, card: int) -> float:
        """The chance that an unseen card is in the widow (a rough, constraint-aware estimate)."""
        if not self.unseen >> card & 1:
            return 1.0 if self.known_widow >> card & 1 else 0.0
        loc = self.forced.get(card)
        if loc is not None:
            return 1.0 if loc == self.n else 0.0
        caps = self.capacity()
        free = sum(caps[s] for s in range(self.n + 1) if not self.forbid[s] >> card & 1)
        if free <= 0 or self.forbid[self.n] >> card & 1:
            return 0.0
        return caps[self.n] / free


def moves_of_events(events: list[Any], pot_ids: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """The public moves (a stops engine's ``public_moves``) that ``events`` tell, the ones a count reads: an action,
    chips paid on hold, a stop, a seat that could not lead."""
    out: list[tuple[Any, ...]] = []
    for ev in events:
        kind = ev["type"]
        if kind == "action":
            out.append(("act", int(ev["seat"]), ev["action"], card_index(ev["card"]) if "card" in ev else -1))
        elif kind == "chips":
            if ev.get("reason") == "on_hold":  # from a pot to a seat
                out.append(("chips", -1 - pot_ids.index(ev["from"][4:]), int(ev["to"][5:]), "on_hold"))
        elif kind == "stop":
            out.append(("stop", card_index(ev["after"])))
        elif kind == "cannot_lead":
            out.append(("cannot_lead", int(ev["seat"])))
    return out


class Told:
    """What a seat's events have told it so far, folded in order (:func:`read_view` finishes it against the view).

    A bot that decides several times in a hand reads the same events again at every decision: its view holds
    the whole history. Events never change once read (rummoli.streams), and a fast-path view shares them with
    the stream, so the events a fold has read are the very objects at the head of the next view's list; a view
    whose head is not (a copy, another hand) is read from its start. The facts that depend on the view's
    present (which cards are still unseen, who holds the former widow) are kept raw and settled by
    :func:`read_view` each time."""

    __slots__ = ("aggression", "bar_seats", "count", "head", "last", "musts", "opened", "paid_on_hold",
                 "refused", "soft", "stopped")

    def __init__(self, n: int, head: Any) -> None:
        self.head = head  # the first event read (the hand's start), held: the same object proves the same hand
        self.count = 0  # how many events are folded
        self.last: Any = None  # the last of them
        #: the cards seen placed, in the order learnt: ``(cards, seat)`` dealt to ``seat`` (a pay on hold), or
        #: ``(card, -1)`` the card above a stop (in the widow unless played since)
        self.musts: list[tuple[Any, int]] = []
        self.refused = [0] * n  # per seat, cards the restart rule asked for when it could not lead
        self.soft = [0] * n  # per seat, cards below a lead it made (the lowest-lead inference)
        self.aggression = [0] * n
        self.bar_seats: list[int] = []  # seats that bid or swapped under ``widow_bar`` (dealt no pay card)
        self.paid_on_hold: set[int] = set()
        self.stopped = -1
        self.opened = False

    def fold(self, events: list[Any], t: Table) -> None:
        """Take ``events[self.count:]`` in (the rest were folded before), as the public moves they tell."""
        self._take(moves_of_events(events[self.count:], t.pot_ids), t)
        self.count = len(events)
        self.last = events[-1] if events else None

    def fold_moves(self, moves: list[tuple[Any, ...]], t: Table) -> None:
        """:meth:`fold` from a hand's public moves (the engine's ``public_moves``: the facts its events tell, as
        compact tuples; ``moves[self.count:]`` are new)."""
        self._take(moves[self.count:], t)
        self.count = len(moves)

    def _take(self, moves: list[tuple[Any, ...]], t: Table) -> None:
        """Fold public moves (:func:`moves_of_events`' tuples) in, in order."""
        rules = t.rules
        bar = rules.widow_bar == "pay_card_holders"
        two_of_clubs = rules.opening_lead == "two_of_clubs"
        pots_def = rules.board.pots
        musts, soft = self.musts, self.soft
        for move in moves:
            kind = move[0]
            if kind == "act":
                _, seat, act, c = move
                if act == "bet" or act == "raise":
                    self.aggression[seat] += 1
                elif bar and (act == "bid" or act == "swap"):
                    self.bar_seats.append(seat)
                elif act == "lead":
                    if not self.opened and two_of_clubs and c // 13 == 3:
                        soft[seat] |= SUIT_MASK[3] & _lower_ranks(c % 13)  # R-PLAY-2C: the lowest club in play
                    else:
                        soft[seat] |= _lead_floor(rules.lead, rules.restart, c, self.stopped if self.opened else -1)
                    self.opened = True
            elif kind == "chips":
                if move[3] == "on_hold":  # a pot (-1 - j) paid to the seat dealt its cards
                    j = -1 - move[1]
                    self.paid_on_hold.add(j)
                    musts.append((pots_def[j].cards, move[2]))
            elif kind == "stop":
                c = move[1]
                musts.append((c, -1))
                self.stopped = c // 13
            elif self.stopped >= 0:  # cannot_lead
                self.refused[move[1]] |= restart_set(rules.restart, self.stopped)

    def holds(self, events: list[Any]) -> bool:
        """Whether ``events`` begin with the events folded so far (the same objects: see the class)."""
        count = self.count
        return (len(events) >= count > 0 and events[0] is self.head and events[count - 1] is self.last)


def read_view(view: dict[str, Any], told: Told | None = None) -> Known:
    """Everything a seat can count from its view (see the module's list of inferences).

    ``told``: what an earlier view of the same hand's events told (:class:`Told`); only the events after them
    are read, and :attr:`Known.told` is what all of them told (for the next view)."""
    t = table_for(view["ruleset"])
    n = len(view["players"])
    me = int(view["seat"])
    hand = mask_of_texts(view["hand"] or [])
    played_by = [0] * n
    played = 0
    for p in view["played"]:
        c = card_index(p["card"])
        played_by[int(p["seat"])] |= 1 << c
        played |= 1 << c
    swapped = -1 if view.get("swapped") is None else int(view["swapped"])
    known_widow = 0
    if swapped == me and view.get("given_up"):
        known_widow = mask_of_texts(view["given_up"]["cards"])
    unseen = FULL & ~hand & ~played & ~known_widow
    pots = [int(view["pots"][pid]) for pid in t.pot_ids]
    k = Known(t, n, me, int(view["dealer"]), view["phase"], hand, list(view["hand_sizes"]),
              int(view["widow_size"]), played, played_by, swapped, known_widow, unseen,
              list(view["chips"]), pots)
    moves = view.get("moves")
    if moves is not None:  # the history as the hand's public moves (Bot.reads_moves)
        if told is None or told.head is not moves or told.count > len(moves):
            told = Told(n, moves)
        told.fold_moves(moves, t)
    else:
        events = view.get("events", [])
        if told is None or not told.holds(events):
            told = Told(n, events[0] if events else None)
        told.fold(events, t)
    k.told = told
    widow = n
    forced = k.forced

    def dealt_loc(seat: int) -> int:
        return widow if seat == swapped else seat

    # Showdown cards are held until played; then what the events placed, in the order they told it.
    for seat_text, cards in (view.get("showdown") or {}).items():
        for c in (card_index(x) for x in cards):
            if unseen >> c & 1:
                forced.setdefault(c, int(seat_text))
    for cards, seat in told.musts:
        if seat < 0:  # the card above a stop, unless it was played since: it was in the widow
            cards = () if cards % 13 == 12 or played >> (cards + 1) & 1 else (cards + 1,)
            seat = widow
        else:
            seat = dealt_loc(seat)
        for c in cards:
            if unseen >> c & 1:
                forced.setdefault(c, seat)
    forbid = [*told.refused, 0]
    for seat in told.bar_seats:
        forbid[dealt_loc(seat)] |= t.pay_mask
    k.aggression = list(told.aggression)
    k.credibility = [1.0] * n
    soft = [*told.soft, 0]
    rules = t.rules
    if rules.pay == "on_hold":
        with_ante = bool(view.get("start", {}).get("ante", True))
        start_pots = view.get("start", {}).get("pots", {})
        for j, pot in enumerate(rules.board.pots):
            if j in told.paid_on_hold or not ((with_ante and pot.ante > 0) or start_pots.get(pot.id, 0) > 0):
                continue
            if pot.kind == "card":
                c = pot.cards[0]
                if unseen >> c & 1:
                    forced.setdefault(c, swapped if swapped >= 0 else widow)
            elif pot.kind == "combo":
                k.unpaid_combos.extend(masks for jj, masks in t.combos if jj == j)
    k.forbid = [m & unseen for m in forbid]
    k.soft = [m & unseen for m in soft]
    # A card forced somewhere is forbidden nowhere else.
    for c, loc in forced.items():
        k.forbid[loc] &= ~(1 << c)
        k.soft[loc] &= ~(1 << c)
    return k


def _lead_floor(lead: str, restart: str, card: int, stopped: int) -> int:
    """Cards the leader of ``card`` cannot have held (it leads its lowest under the rule in force)."""
    rank, suit = card % 13, card // 13
    below_in_suit = SUIT_MASK[suit] & _lower_ranks(rank)
    if stopped < 0:  # the opening lead
        return _lower_ranks(rank) if lead == "lowest_overall" else below_in_suit
    if restart == "opposite_colour":
        allowed = restart_set(restart, stopped)
        return allowed & _lower_ranks(rank) if lead == "lowest_overall" else below_in_suit
    if restart == "other_suit_else_same" and suit == stopped:
        return (FULL & ~SUIT_MASK[suit]) | below_in_suit
    return below_in_suit


#: what an opponent's card shed by our run costs us (it brings them nearer to going out)
OPPONENT_SHED = 0.75


def counted_lead_score(k: Known, card: int) -> float:
    """The easy lead score, with counting: where the run will stop and whose pay cards it reaches."""
    t = k.t
    hand = k.hand
    run = sequence_from(hand, card)
    rest = hand & ~run
    if not rest:
        return 1000.0
    suit = card // 13
    top = run.bit_length() - 1
    score = 2.0 * run.bit_count()
    keeping = lead_keeping(t.rules.restart, rest, suit)
    if keeping:
        score += keeping
        gone = k.played | k.widow_certain()
        stop_p = 1.0 if top % 13 == 12 or gone >> (top + 1) & 1 else k.p_widow(top + 1)
        score += 6.0 * stop_p
    reach = 1.0
    c = top + 1
    end = 13 * suit + 13
    pots, played, card_pots = k.pots, k.played, t.card_pots
    on_play = t.rules.pay == "on_play"
    while c < end and reach > 0.02:
        bit = 1 << c
        js = card_pots.get(c) if on_play else None
        value = sum(pots[j] for j in js) if js else 0
        if hand & bit:
            score += value * reach + 0.75 * reach + (4.0 * reach if c % 13 == 12 else 0.0)
        elif played & bit:
            break
        else:
            pw = k.p_widow(c)
            score -= 0.5 * value * reach * (1.0 - pw) + OPPONENT_SHED * reach * (1.0 - pw)
            reach *= 1.0 - pw
        c += 1
    for c, js in card_pots.items():
        if run >> c & 1:
            score += sum(pots[j] for j in js)
    return score + 0.1 * (pay_held(t, rest) > 0) + 0.01 * low_cards(rest)
