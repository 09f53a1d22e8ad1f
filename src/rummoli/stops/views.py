"""What a hand shows (part of :class:`~rummoli.stops.hand.Hand`): events, R-NOTE-3 actions, the R-NOTE-2
record, each seat's view (R-VIEW-1) and each seat's numbered stream of events (:meth:`Views.events_since`),
from which :func:`rebuild` makes the view.

:class:`Views` reads the hand and never changes its game state; it keeps only the event stream and the
views' caches (which a clone starts afresh).  Nothing here may reveal a card that its reader may not see:
events carry only played cards and showdown fives; a view adds its own seat's hand and, for the seat that
swapped with the widow, the hand it gave up.  A view also hides whether another seat's lead or widow choice
was forced, since that can tell what the seat holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from rummoli import streams
from rummoli.cards import CARDS, NAMES, Card, mask_of, names_of
from rummoli.shapes import Event, HandView
from rummoli.stops.actions import KINDS
from rummoli.stops.base import OVER, HandState, Option
from rummoli.stops.bidding import shown_five
from rummoli.stops.words import Speaker, best_five, five_names, poker_ahead, prompt


def action_json(entry: tuple[Any, ...]) -> dict[str, Any]:
    """A logged action as its R-NOTE-3 object."""
    _, seat, kind, card, amount, _ = entry
    out: dict[str, Any] = {"seat": seat, "action": kind}
    if card >= 0:
        out["card"] = str(CARDS[card])
    if KINDS[kind] == "amount":
        out["amount"] = amount
    return out


def shown_forced(entry: tuple[Any, ...], reader: int | bool | None) -> bool:
    """The ``forced`` flag of a logged action as ``reader`` may see it (R-VIEW-1).

    Whether a lead, a widow choice or a bid was forced can depend on the actor's hidden cards (a
    lone lowest card; a pay card under ``widow_bar``), so only the actor sees it; a play in a run
    is forced for everyone alike.  ``reader=True`` is the full record (replays, R-NOTE-4).
    """
    return bool(entry[5]) and (reader is True or entry[2] == "play" or entry[1] == reader)


def legal_json(opts: Sequence[Option], seat: int) -> list[dict[str, Any]]:
    """The legal actions of ``seat`` among ``opts`` as R-NOTE-3 objects (amount kinds as ranges)."""
    out: list[dict[str, Any]] = []
    for s, kind, low, high, cards in opts:
        if s != seat:
            continue
        field = KINDS[kind]
        if field == "amount":
            out.append({"seat": s, "action": kind, "min": low, "max": high})
        elif field == "card":
            out.extend([{"seat": s, "action": kind, "card": name} for name in names_of(cards)])
        else:
            out.append({"seat": s, "action": kind})
    return out


#: ``seat:N`` as chip events name the seats (every ante names one: dozens a hand)
_SEAT_PARTIES = tuple(f"seat:{n}" for n in range(16))


class Views(HandState, streams.Marked):
    """The events, records and views of a hand (see the module's docstring)."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    # --------------------------------------------------------------------- events and records
    def _party(self, code: int) -> str:
        """A chip party as events name it: ``seat:N`` or ``pot:ID``."""
        if code >= 0:
            return _SEAT_PARTIES[code] if code < len(_SEAT_PARTIES) else f"seat:{code}"
        return "pot:" + self.rules.board.pots[-1 - code].id

    def render(self, log: Sequence[tuple[Any, ...]], reader: int | bool | None = True) -> list[Event]:
        """Log entries as JSON-ready events: no hidden card is ever in an event; the ``forced`` flags are
        as ``reader`` (a seat, ``None`` for a spectator, ``True`` for the full record) may see them."""
        out: list[Event] = []
        pots = self.rules.board.pots
        for e in log:
            tag = e[0]
            if tag == "chips":
                out.append({"type": "chips", "from": self._party(e[1]), "to": self._party(e[2]),
                            "amount": e[3], "reason": e[4]})
            elif tag == "act":
                # an R-NOTE-3 action object's keys (seat, action, card, amount) are an event's
                out.append(cast(Event, {"type": "action", **action_json(e), "forced": shown_forced(e, reader)}))
            elif tag == "show":
                out.append({"type": "showdown", "seat": e[1], "cards": names_of(shown_five(e[2], e[3]))})
            elif tag == "stop":
                out.append({"type": "stop", "after": str(CARDS[e[1]])})
            elif tag == "unclaimed":
                out.append({"type": "unclaimed", "seat": e[1], "pots": [pots[j].id for j in e[2]]})
            elif tag in ("swap", "cannot_lead", "out"):
                out.append({"type": tag, "seat": e[1]})
            else:
                out.append({"type": tag})
        return out

    def events(self) -> list[Event]:
        """Every event so far: each action (forced ones marked) and every chip moved."""
        return self.render(self.log)

    def actions(self, forced: bool = True) -> list[dict[str, Any]]:
        """Every action so far as R-NOTE-3 objects (forced ones too unless ``forced=False``)."""
        return [action_json(e) for e in self.log if e[0] == "act" and (forced or not e[5])]

    def seat_actions(self, reader: int | None, shared: bool = False) -> list[dict[str, Any]]:
        """The ``actions`` of ``reader``'s view with its history (``view(reader, history=True)["actions"]``: every
        action so far, ``forced`` as ``reader`` may see it), made from the log without reading the events, once for
        every reader (:attr:`Stream.logged`): what a bot that learns from the ended hand's actions only is shown
        (:attr:`rummoli.bots.base.Bot.observes_events`).  ``shared``: the action objects the stream keeps where the
        reader reads them as a spectator does, for a reader that never changes them (as ``view``'s)."""
        stream, log = self._events, self.log
        done, made, hidden = stream.logged
        if done < len(log):
            for k in range(done, len(log)):
                e = log[k]
                if e[0] == "act":
                    if e[5] and e[2] != "play":  # forced as its actor alone may see (shown_forced)
                        hidden.append(len(made))
                    action = action_json(e)
                    action["forced"] = shown_forced(e, None)
                    made.append(action)
            stream.logged = (len(log), made, hidden)
        out = list(made) if shared else [action.copy() for action in made]
        for at in hidden:
            if out[at]["seat"] == reader:
                out[at] = {**out[at], "forced": True}
        return out

    def public_moves(self) -> list[tuple[Any, ...]]:
        """What every seat saw happen so far, as compact tuples made once from the log and shared (read only): what
        a counting bot folds in place of its view's events (:attr:`rummoli.bots.base.Bot.reads_moves`), the same
        facts in the same order. ``("act", seat, kind, card)`` (card -1: none), ``("chips", from, to, reason)``
        (parties as logged: a seat, or ``-1 - j`` for the board's pot ``j``), ``("stop", card)`` (the card a stop
        came after), ``("cannot_lead", seat)``. Nothing a seat does not see: no amount a forced flag hides, no
        card but a played or shown one."""
        stream, log = self._events, self.log
        done, made = stream.moves
        if done < len(log):
            for k in range(done, len(log)):
                e = log[k]
                tag = e[0]
                if tag == "act":
                    made.append((tag, e[1], e[2], e[3]))
                elif tag == "chips":
                    made.append((tag, e[1], e[2], e[4]))
                elif tag == "stop" or tag == "cannot_lead":
                    made.append((tag, e[1]))
            stream.moves = (len(log), made)
        return made

    def history(self) -> list[dict[str, Any]]:
        """Every action so far as R-NOTE-3 objects, forced ones marked (the full record's form)."""
        return [{**action_json(e), "forced": bool(e[5])} for e in self.log if e[0] == "act"]

    def record(self, forced: bool = False) -> dict[str, Any]:
        """The R-NOTE-2 hand record: ruleset, seats, chips and pots before the ante, deal, actions.

        Forced actions are left out unless ``forced`` (a replay makes them, R-NOTE-3).
        """
        rec: dict[str, Any] = {
            "format": "rummoli-hand/1",
            "ruleset": self.rules.reference(),
            "players": list(self.names),
            "chips": list(self.start_chips),
            "pots": {p.id: self.start_pots[j] for j, p in enumerate(self.rules.board.pots)
                     if self.start_pots[j]},
            "dealer": self.dealer,
            "deal": {"hands": [[str(c) for c in h] for h in self.dealt],
                     "widow": [str(c) for c in self.dealt_widow]},
            "actions": self.actions(forced),
        }
        if not self.with_ante:
            rec["ante"] = False
        return rec

    def out_of_play(self) -> dict[str, Any] | None:
        """The cards no seat holds at this step (``kind`` "widow"): the widow as dealt, or, once a seat has swapped,
        the hand it gave up (the widow from then on) with that seat (``given_up_by``); ``None`` when no widow was
        dealt.  In no seat's view (R-VIEW-1: the swapper's own holds what it gave up): only for a replay whose asker
        may see every card of the hand (``open_hands``, once the evening is over) and a record's summary.

        >>> from rummoli.stops.replay import hand_from_record, random_hand_record
        >>> hand = hand_from_record(random_hand_record("rummoli", 4, "7"))
        >>> hand.out_of_play() == {"kind": "widow", "cards": [str(c) for c in hand.dealt_widow], "given_up_by": None}
        True
        """
        if not self.dealt_widow:
            return None
        if self.swapped >= 0:
            return {"kind": "widow", "cards": names_of(self.given_up), "given_up_by": self.swapped}
        return {"kind": "widow", "cards": [str(c) for c in self.dealt_widow], "given_up_by": None}

    # ---------------------------------------------------------------------------------- views
    def _static_view(self) -> dict[str, Any]:
        """The parts of a view that never change in a hand, made once (views share them: read only)."""
        static = self._static
        if not static:
            start = self._start_event()
            static.update({key: start[key] for key in ("ruleset", "board", "players", "dealer", "start")})
        return static

    def _played_json(self) -> list[dict[str, Any]]:
        """The cards laid so far as ``{"seat", "card"}``, kept up to date from the log's new entries."""
        played, log = self._played, self.log
        for k in range(self._played_at, len(log)):
            e = log[k]
            if e[0] == "act" and (e[2] == "lead" or e[2] == "play"):
                played.append({"seat": e[1], "card": str(CARDS[e[3]])})
        self._played_at = len(log)
        return played

    def _public_view(self) -> HandView:
        """A spectator's view of the latest state (synced), without its guide: what every seat's view holds
        alike, and in the same order (:meth:`_seat_view` puts each seat's own keys in their places)."""
        seq = self._sync()
        phase, to_act, _opts, state = self._events.state
        out = cast(HandView, dict(self._static_view()))  # the static keys, checked where _static_view makes them
        played = self._played_json()
        sizes = [m.bit_count() for m in self.hands]
        shown_of, shown = self._shown_json  # the showdown is made once, then only read: its names made once too
        if shown_of != len(self._shown):
            shown = {str(s): names_of(m) for s, m in self.showdown.items()}
            self._shown_json = (len(self._shown), shown)
        out.update({
            "seq": seq,
            "seat": None,
            "phase": phase,
            "to_act": list(to_act),
            "chips": list(self.chips),
            "pots": self.pot_balances(),
            "hand": None,
            "hand_sizes": sizes,
            "widow_size": 52 - sum(sizes) - len(played),
            "swapped": None if self.swapped < 0 else self.swapped,
            "played": list(played),
            "showdown": dict(shown),
            "legal_actions": [],
        })
        out.update(state)
        return out

    def _seat_view(self, public: HandView, reader: int | None) -> HandView:
        """``reader``'s view of the latest state made from ``public`` (:meth:`_public_view`), which it leaves as
        it is: its own ``seat``, ``hand`` and ``legal_actions`` in their places, and the cards it gave up (after
        its legal actions) if it swapped its hand."""
        out = cast(HandView, dict(public))
        if reader is None:
            return out
        opts = self._events.state[2]
        out["seat"] = reader
        out["hand"] = names_of(self.hands[reader])
        out["legal_actions"] = self._events.legal(reader, lambda: legal_json(opts, reader))
        if reader == self.swapped:
            given = {"cards": names_of(self.given_up), "out_of_play": True}
            items = list(out.items())
            at = [key for key, _value in items].index("legal_actions") + 1
            out = cast(HandView, dict([*items[:at], ("given_up", given), *items[at:]]))
        return out

    def view(self, seat: int | None, history: bool = False, guide: bool = False, shared: bool = False) -> HandView:
        """What ``seat`` may know (R-VIEW-1); ``None`` is a spectator.  JSON-ready, with ``seq``, costing
        what is new: the hand's state, not its history.  ``history=True`` adds the seat's ``events`` (all of
        them, as :meth:`events_since` gives them) and ``actions`` (R-NOTE-3 objects: for bots and
        narrators); ``guide=True`` what a person at the table is shown beside it: the ``prompt`` (what happens
        now, in words) and, while the poker pot is still to be played for, the seat's ``best_five``.
        ``shared=True``: what every seat sees alike is made once per state and shared between the views (see
        :meth:`rummoli.streams.Stream.shared`): for a caller that writes the view out and never changes it."""
        reader = self._check_seat(seat)
        self._sync()
        out = self._seat_view(self._events.shared(self._public_view) if shared else self._public_view(), reader)
        if history:
            events = self.events_since(0, reader, shared)
            out["events"] = events
            out["actions"] = self._events.actions_in(events, reader) if shared else streams.actions_of(events, 0, [])
        if guide:
            out["prompt"] = prompt(out)
            if out["hand"] and poker_ahead(out):
                out["best_five"] = best_five(out["hand"])
        return out

    # --------------------------------------------------------------------- per-seat event streams
    # The stream (rummoli.streams) is a ``start`` event, then one event per log entry; the state mark taken
    # after each move (phase, seats to act, options, the phase's public state, the winner) rides on the
    # move's last event as its ``state``.

    def _check_seat(self, seat: object) -> int | None:
        """``seat`` if it is ``None`` (a spectator) or an ``int`` seat of the hand; else MalformedInput."""
        return streams.check_seat(self.n, seat)

    def _mark(self) -> None:
        """A state mark on the log's last entry (``apply``, ``step_forced``, a new hand and every move made
        through them take one, so the marks depend only on the moves made; nothing if nothing is new)."""
        stream = self._events
        at = len(self.log)
        if stream.at == at:
            return
        if self.phase == OVER:
            stream.put(at, (OVER, [], [], {"winner": None if self.winner < 0 else self.winner}))
            return
        opts = self._options()
        stream.put(at, (self.phase, sorted({o[0] for o in opts}), opts, self.phase_state()))

    def _start_event(self) -> Event:
        """The ``start`` event as a spectator reads it (a seat's adds its ``seat`` and its dealt ``hand``)."""
        pots = self.rules.board.pots
        sizes = [len(h) for h in self.dealt]
        return {
            "type": "start", "ruleset": self.rules.reference(),
            "board": [{"id": p.id, "name": p.name, "kind": p.kind, "ante": self.rules.ante(p)} for p in pots],
            "players": list(self.names), "seat": None, "dealer": self.dealer,
            "start": {"chips": list(self.start_chips),
                      "pots": {p.id: self.start_pots[j] for j, p in enumerate(pots)}, "ante": self.with_ante},
            "hand": None,
            "hand_sizes": sizes, "widow_size": len(self.dealt_widow),
        }

    def _render_public(self, k: int) -> tuple[Event, Any]:
        """Stream entry ``k`` as a spectator reads it, and the seats that read it otherwise (None: nobody)."""
        actor = -1
        out: Event
        if k == 0:
            out = self._start_event()
        else:
            e = self.log[k - 1]
            tag = e[0]
            if tag == "act":
                seat, kind, card, amount, forced = e[1], e[2], e[3], e[4], e[5]
                out = {"type": "action", "seat": seat, "action": kind}
                if card >= 0:
                    out["card"] = NAMES[card]
                if KINDS[kind] == "amount":
                    out["amount"] = amount
                out["forced"] = bool(forced) and kind == "play"
                if forced and kind != "play":
                    actor = seat
            elif tag == "chips":
                out = {"type": "chips", "from": self._party(e[1]), "to": self._party(e[2]), "amount": e[3],
                       "reason": e[4]}
            else:
                out = self.render((e,), None)[0]
                if tag == "swap":
                    actor = e[1]
            self._say(out, self._events.public[k - 1] if k > 0 else None, k - 1 if tag == "show" else -1)
        return streams.finish_public(self._events, k, out, actor)

    def _say(self, event: Event, previous: Event | None, shown_at: int = -1) -> None:
        """Put the event's sentence (rummoli.stops.words) into it as ``text``; none when it needs no line.
        ``shown_at``: the log entry of a showdown event, whose five is named among the others shown with it."""
        stream = self._events
        if not stream.words:
            return
        if stream.speaker is None:
            stream.speaker = Speaker.of_rules(self.rules, self.names, self.dealer)
        text = stream.speaker.line(event, previous, self._five_name(shown_at) if shown_at >= 0 else None)
        if text:
            event["text"] = text

    def _five_name(self, entry: int) -> str:
        """The name of the five shown at log entry ``entry`` as the hand's result names it (``five_names``): told
        apart from a five of the same name shown with it. A showdown's entries are logged together, in one move."""
        log = self.log
        first = last = entry
        while first > 0 and log[first - 1][0] == "show":
            first -= 1
        while last + 1 < len(log) and log[last + 1][0] == "show":
            last += 1
        return five_names([names_of(shown_five(e[2], e[3])) for e in log[first:last + 1]])[entry - first]

    def _render_private(self, k: int, reader: int) -> Event:
        """Stream entry ``k`` as ``reader`` reads it, where that differs from a spectator's reading: its dealt
        hand, its own forced choice, its swap (the hand it took and the one it gave up), its legal actions."""
        public = self._events.public[k]
        out = public.copy()
        if k == 0:
            out["seat"] = reader
            out["hand"] = names_of(mask_of(self.dealt[reader]))
        else:
            e = self.log[k - 1]
            tag = e[0]
            if tag == "act" and e[1] == reader and e[5]:
                out["forced"] = True
                self._say(out, None)
            elif tag == "swap" and e[1] == reader:
                out["hand"] = names_of(self.hands[reader] | self._played_since_swap(reader))
                out["given_up"] = names_of(self.given_up)
        return streams.finish_private(self._events, k, out, reader, legal_json)

    def _played_since_swap(self, seat: int) -> int:
        """The cards ``seat`` has laid since it took the widow (they were in the hand it took)."""
        mask = 0
        for e in self.log:
            if e[0] == "act" and e[1] == seat and e[2] in ("lead", "play"):
                mask |= 1 << e[3]
        return mask

# ------------------------------------------------------------------------- a view rebuilt from events
def _start_view(ev: Mapping[str, Any]) -> tuple[dict[str, Any], set[int]]:
    return streams.board_start(ev, widow_size=ev["widow_size"], swapped=None)


def _apply_event(view: dict[str, Any], hand: set[int], ev: Mapping[str, Any]) -> set[int]:
    kind = ev["type"]
    if kind == "chips":
        streams.move_chips(view, ev)
    elif kind == "action" and ev["action"] in ("lead", "play"):
        seat = ev["seat"]
        view["played"].append({"seat": seat, "card": ev["card"]})
        view["hand_sizes"][seat] -= 1
        if seat == view["seat"]:
            hand.discard(Card.parse(ev["card"]).index)
    elif kind == "swap":
        seat = ev["seat"]
        sizes = view["hand_sizes"]
        view["widow_size"], sizes[seat] = sizes[seat], view["widow_size"]
        view["swapped"] = seat
        if "hand" in ev:
            view["given_up"] = {"cards": list(ev["given_up"]), "out_of_play": True}
            return {Card.parse(c).index for c in ev["hand"]}
    elif kind == "showdown":
        view["showdown"][str(ev["seat"])] = list(ev["cards"])
    return hand


def rebuild(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The view a seat's events make, applied in order from the hand's start (``seq`` 1).

    Pure: it reads only the events (as :meth:`Hand.events_since` gives them), so a client that keeps
    its seat's stream holds its view without asking for it again.  ``rebuild(hand.events_since(0, s))``
    equals ``hand.view(s)``.
    """
    return streams.rebuild(events, _start_view, _apply_event, ("auction", "betting", "play", "winner"))
