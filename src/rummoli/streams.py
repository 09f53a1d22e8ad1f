"""A hand's numbered event stream, read by each seat as it may see it (R-VIEW-1): shared by both engines.

The stream of a hand is a ``start`` event (what every seat knows when the cards are dealt: its own hand
among them) followed by one event per entry of the hand's log, so entry ``k`` is numbered ``seq = k + 1``
and the numbering depends only on what was logged.  After each move the engine takes a *state mark* (the
phase, the seats to act, their options and the public state of the phase); the mark rides on the last
event of the move as its ``"state"``, so a seat's events alone rebuild its view.  A mark is taken after
every move made through ``apply`` (forced moves too, so where marks fall cannot tell that a move was
forced); the fast paths of search take none, and get one when someone reads.

Each event is rendered once for a spectator and cached; the few that some seat reads otherwise (the deal,
its own forced choice, its cards drawn blind, its legal actions in a state) once more for that seat.
Callers get copies of the cached events.  The engines' modules (:mod:`rummoli.stops.views`,
:mod:`rummoli.rummy.views`) say how each entry renders and how a view is rebuilt from its events.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from rummoli.cards import CARDS, Card
from rummoli.errors import MalformedInput, quote
from rummoli.shapes import Event

T = TypeVar("T")

#: The readers of an entry that every seat reads its own way (the deal).
ALL_SEATS: tuple[int, ...] = (-1,)

#: ``(event, readers)``: entry ``k`` as a spectator reads it, and the seats that read it otherwise (or None).
PublicRender = Callable[[Any, int], tuple[Event, Any]]
#: Entry ``k`` as seat ``reader`` reads it, where that differs from a spectator's reading.
PrivateRender = Callable[[Any, int, int], Event]


def check_seat(seats: int, seat: object) -> int | None:
    """``seat`` if it is ``None`` (a spectator) or an ``int`` seat below ``seats``; else MalformedInput."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise MalformedInput(f"no seat {quote(seat)}: a seat is a whole number from 0 to {seats - 1}, or none")
    return seat


def check_whole(value: object, what: str) -> int:
    """``value`` if it is a whole number (an ``int``, not a ``bool``); else MalformedInput naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f"{what} must be a whole number, got {quote(value)}")
    return value


def check_seq(seq: object) -> int:
    """``seq`` if it is a whole number of at least 0; else MalformedInput."""
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise MalformedInput(f"seq must be a whole number of at least 0, got {quote(seq)}")
    return seq


#: the keys of an action event that are not the action (R-NOTE-3) it reports
NOT_ACTION = ("type", "seq", "state", "text")


def action_of(event: Event) -> dict[str, Any]:
    """The R-NOTE-3 object an ``action`` event reports."""
    action: dict[str, Any] = dict(event)  # less the keys not the action's: a third of a comprehension's cost
    for key in NOT_ACTION:
        action.pop(key, None)
    return action


def actions_of(events: list[Event], first: int, into: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``into`` with the R-NOTE-3 object of each action among ``events[first:]`` (a view's ``actions``)."""
    for e in events[first:]:
        if e["type"] == "action":
            into.append(action_of(e))
    return into


class Stream:
    """The state marks of a hand and its events as read so far (a hand's ``_events``; a clone starts afresh)."""

    __slots__ = ("acted", "at", "legal_at", "legal_made", "logged", "mine", "moves", "public", "public_actions",
                 "rendered", "shared_at", "shared_made", "shared_state", "speaker", "state", "states", "words")

    def __init__(self) -> None:
        self.at = -1  # the entry the latest mark rides on (the log's length when it was taken)
        self.state: Any = None  # the latest mark: the hand's state now, once synced
        self.states: dict[int, Any] = {}  # entry -> the mark it carries
        self.public: list[Event] = []  # each entry as a spectator reads it
        self.mine: dict[int, list[int]] = {}  # seat (-1: every seat) -> the entries it reads otherwise
        self.rendered: dict[tuple[int, int], Event] = {}  # (entry, seat): that seat's reading
        self.legal_at = -1  # the mark whose legal actions legal_made holds
        self.legal_made: dict[int, list[dict[str, Any]]] = {}
        self.speaker: Any = None  # the hand's words (its engine's Speaker), made at the first event read
        self.words = True  # whether events read from now on carry their sentence (``text``): see Reading.hush
        self.acted: dict[int | None, tuple[int, list[dict[str, Any]]]] = {}  # see actions_in
        self.public_actions: dict[int, dict[str, Any]] = {}  # entry -> the action its spectator's event reports
        #: the log's actions as a spectator's history view holds them, made from the log: (entries read, actions,
        #: the positions of those whose actor alone sees them forced); an engine's ``seat_actions`` keeps it
        self.logged: tuple[int, list[dict[str, Any]], list[int]] = (0, [], [])
        #: the log's public moves as a counting bot folds them, made from the log: (entries read, moves); an
        #: engine's ``public_moves`` keeps it
        self.moves: tuple[int, list[tuple[Any, ...]]] = (0, [])
        self.shared_at = -1  # the mark whose view every seat shares shared_made holds (see shared)
        self.shared_state: Any = None
        self.shared_made: Any = None

    def __getstate__(self) -> tuple[int, Any, dict[int, Any]]:
        """A pickle holds the marks only: the rest is what reads made, and reads make it again."""
        return self.at, self.state, self.states

    def __setstate__(self, data: tuple[int, Any, dict[int, Any]]) -> None:
        self.__init__()  # type: ignore[misc]
        self.at, self.state, self.states = data

    def forget(self) -> None:
        """Drop what reads made (every reading of every event), keeping the marks: a finished hand's events are
        read again only by a history, which makes them again. A long evening kept them all, about 10 kB an
        action (bench/soak.py found a server's memory growing with every hand)."""
        self.__setstate__(self.__getstate__())

    def put(self, at: int, state: tuple[str, list[int], Any, dict[str, Any]]) -> None:
        """A mark on entry ``at`` (the log's length now): the state after the move logged last, as
        ``(phase, seats to act, their options, the public state of the phase)``."""
        self.states[at] = state
        self.at = at
        self.state = state

    def legal(self, seat: int, make: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """The legal actions of ``seat`` in the latest state as JSON, made once per mark (each view gets
        copies of the actions)."""
        if self.legal_at != self.at:
            self.legal_at, self.legal_made = self.at, {}
        made = self.legal_made.get(seat)
        if made is None:
            made = self.legal_made[seat] = make()
        return [action.copy() for action in made]

    def shared(self, make: Callable[[], T]) -> T:
        """What every seat's view holds alike in the latest state (``make()``: a spectator's view without its
        guide), made once per mark and then shared, nested values and all: only for views that are written out
        and never changed (the game server's updates: ``view(..., shared=True)``). Keyed by the mark itself, as
        :meth:`legal` is: a hand's every move moves its log, and so its mark."""
        if self.shared_at != self.at or self.shared_state is not self.state:
            made = make()
            self.shared_at, self.shared_state, self.shared_made = self.at, self.state, made
        made_now: T = self.shared_made
        return made_now

    def actions_in(self, events: list[Event], reader: int | None) -> list[dict[str, Any]]:
        """The actions among a reader's whole history ``events`` (from :meth:`since` with ``shared``) as a view's
        ``actions`` list, built on the list made at the reader's last view: a read event never changes, so only
        the events new since then are looked at (the action objects are shared, read only)."""
        done, made = self.acted.get(reader, (0, []))
        if done < len(events):
            # An event every reader reads alike (the spectator's, shared) reports the same action to each of them:
            # made once, for the first reader (four seats made each one four times: 3% of a lab hand).
            public, shared = self.public, self.public_actions
            for k in range(done, len(events)):
                event = events[k]
                if event["type"] != "action":
                    continue
                if k < len(public) and event is public[k]:
                    action = shared.get(k)
                    if action is None:
                        action = shared[k] = action_of(event)
                    made.append(action)
                else:  # this reader's own reading of the entry
                    made.append(action_of(event))
            self.acted[reader] = (len(events), made)
        return list(made)

    def since(self, hand: Any, seq: int, total: int, reader: int | None, render_public: PublicRender,
              render_private: PrivateRender, shared: bool = False) -> list[Event]:
        """Events ``seq + 1`` to ``total`` as ``reader`` (``None``: a spectator) reads them, as copies; with
        ``shared`` the stream's own events (read only: see :meth:`Marked.events_since`)."""
        public = self.public
        if len(public) < total:
            seats = self.mine
            for k in range(len(public), total):
                out, private = render_public(hand, k)
                public.append(out)
                if private:
                    for seat in private:
                        if seat in seats:
                            seats[seat].append(k)
                        else:
                            seats[seat] = [k]
        result = public[seq:total] if shared else [event.copy() for event in public[seq:total]]
        if reader is None:
            return result
        rendered = self.rendered
        for seat in (-1, reader) if seq == 0 else (reader,):  # every seat's own entry is the start only
            entries = self.mine.get(seat)
            if not entries or entries[-1] < seq:
                continue
            for at in range(bisect_left(entries, seq), len(entries)):
                k = entries[at]
                if k >= total:
                    break
                mine = rendered.get((k, reader))
                if mine is None:
                    mine = rendered[(k, reader)] = render_private(hand, k, reader)
                result[k - seq] = mine if shared else mine.copy()
        return result


def check_read(seq: object, seat: object, seats: int) -> None:
    """MalformedInput unless ``seq`` is a whole number of at least 0 and ``seat`` a seat below ``seats``
    or ``None`` (a spectator)."""
    if not (type(seq) is int and seq >= 0 and (seat is None or (type(seat) is int and 0 <= seat < seats))):
        check_seat(seats, seat)
        check_seq(seq)


def finish_public(stream: Stream, k: int, out: Event, actor: int) -> tuple[Event, Any]:
    """Entry ``k`` as a spectator reads it (``out``), numbered and with the state it carries, and the seats
    that read it otherwise: all for the start, else ``actor`` (a seat whose own move reads otherwise,
    ``-1``: none) and, on an entry that carries a state, the seats to act (their legal actions)."""
    out["seq"] = k + 1
    state = stream.states.get(k)
    seats: tuple[int, ...] = ()
    if state is not None:
        phase, to_act, _options, public = state
        out["state"] = {"phase": phase, "to_act": list(to_act), "legal_actions": [], **public}
        seats = tuple(to_act)
    if k == 0:
        return out, ALL_SEATS
    if actor >= 0 and actor not in seats:
        seats = (actor, *seats)
    return out, seats or None


def finish_private(stream: Stream, k: int, out: Event, reader: int,
                   legal_json: Callable[[Any, int], list[dict[str, Any]]]) -> Event:
    """Entry ``k`` as ``reader`` reads it (``out``): with its legal actions if the state it carries
    waits for ``reader`` (``legal_json(options, reader)`` makes them)."""
    state = stream.states.get(k)
    if state is not None and reader in state[1]:
        # Made here, not copied from what views keep (Stream.legal): an event is rendered once for its reader
        out["state"] = {**out["state"], "legal_actions": legal_json(state[2], reader)}
    return out


def rebuild(events: Iterable[Mapping[str, Any]], start: Callable[[Mapping[str, Any]], tuple[dict[str, Any], set[int]]],
            apply: Callable[[dict[str, Any], set[int], Mapping[str, Any]], set[int]],
            phase_keys: tuple[str, ...] = ()) -> dict[str, Any]:
    """The view a seat's events make, applied in order from the hand's start (``seq`` 1).

    ``start`` makes the view and the seat's hand (card indexes) from the ``start`` event; ``apply`` takes
    every other event into them and returns the seat's hand (the same set or a new one).  Each ``state``
    an event carries replaces the view's state: ``phase_keys`` are the keys of a phase's public state,
    dropped when a state does not hold them.
    """
    view: dict[str, Any] = {}
    hand: set[int] = set()
    for ev in events:
        if ev["type"] == "start":
            view, hand = start(ev)
        else:
            hand = apply(view, hand, ev)
        state = ev.get("state")
        if state is not None:
            for key in phase_keys:
                view.pop(key, None)
            view.update(state)
        view["seq"] = ev["seq"]
    view["hand"] = None if view.get("seat") is None else [str(CARDS[c]) for c in sorted(hand)]
    return view


def board_start(ev: Mapping[str, Any], **extra: Any) -> tuple[dict[str, Any], set[int]]:
    """A board game's ``start`` event (stops, Poch) as the first view rebuilt from events, with the family's
    ``extra`` keys, and the seat's own cards (empty for a spectator)."""
    start = ev["start"]
    view = {"ruleset": ev["ruleset"], "board": [dict(p) for p in ev["board"]], "players": list(ev["players"]),
            "seat": ev["seat"], "dealer": ev["dealer"], "chips": list(start["chips"]), "pots": dict(start["pots"]),
            "hand_sizes": list(ev["hand_sizes"]), **extra, "played": [], "showdown": {},
            "start": {"chips": list(start["chips"]), "pots": dict(start["pots"]), "ante": start["ante"]}}
    return view, set() if ev["hand"] is None else {Card.parse(c).index for c in ev["hand"]}


def move_chips(view: dict[str, Any], ev: Mapping[str, Any]) -> None:
    """A ``chips`` event taken into a view being rebuilt: out of and into a seat's ``chips`` or a pot's ``pots``."""
    amount = ev["amount"]
    for side, sign in ((ev["from"], -1), (ev["to"], 1)):
        where, _, name = side.partition(":")
        if where == "seat":
            view["chips"][int(name)] += sign * amount
        else:
            view["pots"][name] += sign * amount


class Reading:
    """What a hand of any engine lets its table do with the way its stream is read (the hand keeps ``_events``):
    forget the events read so far, or stop wording the ones read from now on."""

    if not TYPE_CHECKING:  # no instance dict at run time: the hands that mix it in may keep slots
        __slots__ = ()

    if TYPE_CHECKING:
        _events: Stream

    def forget_reading(self) -> None:
        """Forget the events as read so far (:meth:`Stream.forget`): the table does at the next deal."""
        self._events.forget()

    def hush(self) -> None:
        """Events read from now on carry no sentence (no ``text``): for a loop whose only readers are bots that
        never read the words (:attr:`rummoli.bots.base.Bot.reads_words`), which the simulation lab's table is.
        Wording the events was about 7% of a lab hand's instructions, paid for nobody."""
        self._events.words = False

    @property
    def worded(self) -> bool:
        """Whether what is read of this hand from now on carries its sentences (not after :meth:`hush`)."""
        return self._events.words


class Marked(Reading):
    """What the stops and Poch hands do with their stream: its ``seq``, its events read by a seat (and, from
    :class:`Reading`, forgetting them). The hand keeps ``log``, ``_events`` and ``n`` and says how it marks a
    state and renders an entry."""

    if not TYPE_CHECKING:  # no instance dict at run time: the hands that mix it in may keep slots
        __slots__ = ()

    if TYPE_CHECKING:
        log: list[Any]
        n: int

    def _mark(self) -> None:
        raise NotImplementedError

    def _render_public(self, k: int) -> tuple[Event, Any]:
        raise NotImplementedError

    def _render_private(self, k: int, reader: int) -> Event:
        raise NotImplementedError

    def _sync(self) -> int:
        """Mark the state now if moves were made since the last mark (the fast paths take none); return ``seq``."""
        if self._events.at < len(self.log):
            self._mark()
        return len(self.log) + 1

    @property
    def seq(self) -> int:
        """How many events the hand has produced so far (they are numbered 1..seq)."""
        return self._sync()

    def events_since(self, seq: int, seat: int | None, shared: bool = False) -> list[Event]:
        """Events ``seq + 1`` to :attr:`seq` exactly as ``seat`` (``None``: a spectator) may learn them, each
        with its number ``"seq"`` (copies); the engine's ``rebuild`` makes the view from them.  ``shared``: the
        events the stream keeps, not copies, for a reader that never changes them (a view made with
        ``shared=True``): a bot's view holds the hand's whole history, and copying it at every decision made
        the lab's hands cost the square of their length."""
        check_read(seq, seat, self.n)
        stream, total = self._events, len(self.log) + 1
        if stream.at < total - 1:
            self._mark()
        kind = type(self)
        return stream.since(self, seq, total, seat, kind._render_public, kind._render_private, shared)
