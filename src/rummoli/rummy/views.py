"""What a Rummy hand shows (part of :class:`~rummoli.rummy.hand.RummyHand`): events, the R-NOTE-2 record,
what each seat may see (R-VIEW-1) and each seat's numbered stream of events (:meth:`Views.events_since`), from
which :func:`rebuild` makes the view.

A seat sees its own cards, the discard pile, the melds, every player's card count and the public history
of actions (a draw from the stock names no card, a draw from the pile names the card taken) with the
moments the pile was turned over.  It also sees which cards it drew blind itself, so a bot can rebuild a
consistent state from a guess at the hidden cards.  Nobody sees the stock's order or another hand until the
hand is over and the hands are shown.  :class:`Views` reads the hand and never changes its game state; it
keeps only the event stream and the views' caches (which a clone starts afresh).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from rummoli import streams
from rummoli.cards import CARDS, Card, names_of
from rummoli.records import FORMAT
from rummoli.rummy.actions import moves_json
from rummoli.rummy.base import DISCARD, DRAW_DISCARD, LAYOFF, MELD, PASS, Entry, HandState, Move
from rummoli.rummy.melds import meld_cards
from rummoli.rummy.ruleset import Ruleset, builtin_names, load_ruleset
from rummoli.rummy.words import Speaker, prompt
from rummoli.shapes import Event, HandView


def shown_forced(forced: int, seat: int, reader: int | bool | None) -> bool:
    """Whether ``reader`` may see that ``seat``'s move was forced (R-VIEW-1): only that seat and the full
    record (``True``).  In 500 Rum a stock draw is forced when the seat can use no card of the pile, which
    only its own hand tells (``forced == 1``); when the pile is empty or Gin's upcard was passed
    (``forced == 2``) everyone could tell, but the mark is the actor's all the same.
    """
    return bool(forced) and (reader is True or reader == seat)


_BUILTINS: dict[str, Ruleset] = {}  # the built-in rulesets by name, loaded once


def ruleset_ref(rules: Ruleset) -> str | dict[str, Any]:
    """The built-in name when the ruleset is one, else the inline object."""
    if not _BUILTINS:
        _BUILTINS.update((name, load_ruleset(name)) for name in builtin_names())
    if _BUILTINS.get(rules.name) == rules:
        return rules.name
    return rules.to_dict()


class Views(HandState, streams.Reading):
    """The events, record and views of a hand (see the module's docstring)."""

    if not TYPE_CHECKING:  # no instance dict at run time; the type checker sees the fields
        __slots__ = ()

    # --------------------------------------------------------------------- events and the record
    def _render(self, event: Entry | dict[str, Any]) -> Event:
        """An event in the full record's form (every forced move marked; no card drawn blind)."""
        if isinstance(event, dict):
            return cast(Event, event)  # flips, blocks, scores, the show and the end are logged as events
        return self._render_action(event, -1, True)

    def events(self) -> list[Event]:
        """Every event so far, as the full record (R-NOTE-4): actions (forced ones marked), flips, blocks,
        scores, the show and the end.  What a seat may see of them: :meth:`events_since`."""
        return [self._render(e) for e in self.events_log]

    def history(self) -> list[Event]:
        """The actions so far, as R-NOTE-3 objects (forced ones marked, pile draws naming the card)."""
        return [self._render(e) for e in self.log]

    def record(self) -> dict[str, Any]:
        """The R-NOTE-2 record: ruleset, seats, scores before the hand, dealer, deal and decisions (forced
        draws omitted; with ``stock_end = shuffle_once``, once the pile was turned over, the reshuffled
        stock: R-RU-SHUFFLE)."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": ruleset_ref(self.rules),
            "players": list(self.players),
            "chips": list(self.scores),
            "pots": {},
            "dealer": self.dealer,
            "deal": {
                "hands": [[str(c) for c in cards] for cards in self.dealt],
                "stock": [str(c) for c in self.dealt_stock],
            },
            "actions": [
                self.move_json(seat, (code, x, y)) for seat, code, x, y, forced in self.log if not forced
            ],
        }
        reshuffle = self.reshuffled if self.reshuffled is not None else self.reshuffle_given
        if reshuffle:
            out["deal"]["reshuffle"] = [str(CARDS[i]) for i in reshuffle]
        return out

    def out_of_play(self) -> dict[str, Any]:
        """The cards no seat holds and nobody has seen at this step: the stock, top card first (``kind`` "stock";
        after the pile was turned over, the new stock).  In no seat's view, ever (a seat sees only how many it
        holds): only for a replay whose asker may see every card of the hand (``open_hands``, once the evening is
        over) and a record's summary (see :meth:`rummoli.stops.Hand.out_of_play`).

        >>> from rummoli.rummy.replay import hand_from_record, random_hand_record
        >>> record = random_hand_record("rummy", 2, "7")
        >>> fresh = hand_from_record(record)  # as dealt, before any action
        >>> fresh.out_of_play() == {"kind": "stock", "cards": record["deal"]["stock"][1:]}  # the first is the upcard
        True
        """
        return {"kind": "stock", "cards": [str(CARDS[i]) for i in reversed(self.stock)]}

    # ---------------------------------------------------------------------------------- views
    def _flipped_at(self) -> list[int]:
        """How many actions had been taken each time the discard pile was turned over (R-RU-5)."""
        flips, actions = [], 0
        for event in self.events_log:
            if isinstance(event, tuple):
                actions += 1
            elif event["type"] == "flip":
                flips.append(actions)
        return flips

    def _public_view(self) -> HandView:
        """A spectator's view of the latest state (synced), without its guide: what every seat's view holds
        alike, and in the same order (:meth:`_seat_view` puts each seat's own keys in their places)."""
        seq = self._sync()
        phase, to_act, _moves, state = self._events.state
        turn = state["turn"]
        out = cast(HandView, dict(self._static_view()))  # the static keys, checked where _static_view makes them
        out.update({
            "seq": seq,
            "seat": None,
            "turn": turn,
            "to_act": list(to_act),
            "phase": phase,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "stock": len(self.stock),
            "flips": self.flips,
            "discard": [str(CARDS[i]) for i in self.pile],
            "melds": [
                {"cards": [str(c) for c in meld_cards(m)], "owner": o} for m, o in zip(self.melds, self.owners,
                                                                                      strict=True)
            ],
            "points": list(state["points"]),
            "legal_actions": [],
        })
        out["hand"] = None
        if phase == "over":
            out["shown"] = [names_of(h) for h in self.hands]
            out["outcome"] = dict(self.outcome)
        return out

    def _seat_view(self, public: HandView, reader: int | None) -> HandView:
        """``reader``'s view of the latest state made from ``public`` (:meth:`_public_view`), which it leaves as
        it is: its own ``seat``, ``hand`` and (on its turn) ``legal_actions`` in their places."""
        out = cast(HandView, dict(public))
        if reader is None:
            return out
        moves, turn = self._events.state[2], self._events.state[3]["turn"]
        out["seat"] = reader
        if reader == turn:
            out["legal_actions"] = self._events.legal(turn, lambda: self._legal_json(moves, turn))
        out["hand"] = names_of(self.hands[reader])
        return out

    def view(self, seat: int | None, history: bool = False, guide: bool = False, shared: bool = False) -> HandView:
        """What ``seat`` may know (``None``: a spectator), JSON-ready (R-VIEW-1), with ``seq``: the hand's
        state, costing what is new.

        ``history=True`` adds what a bot replays: the public ``history`` of actions (forced moves marked as
        this seat may see them), ``flipped_at``, the cards this seat drew blind (``drawn``: ``[action index,
        card]``) and its whole stream of ``events`` (as :meth:`events_since` gives them).  ``guide=True`` adds
        what a person at the table is shown beside it: the ``prompt``, their hand ``arranged`` into melds and
        deadwood, and what each legal knock would keep (``knocks``).  ``shared=True``: what every seat sees alike
        is made once per state and shared between the views (see :meth:`rummoli.streams.Stream.shared`): for a
        caller that writes the view out and never changes it.
        """
        reader = self._check_seat(seat)
        self._sync()
        out = self._seat_view(self._events.shared(self._public_view) if shared else self._public_view(), reader)
        if history:
            out["history"] = [self._render_action(e, i, reader) for i, e in enumerate(self.log)]
            for entry in out["history"]:
                entry.pop("drawn", None)
                entry.pop("blind", None)
            out["flipped_at"] = self._flipped_at()
            if reader is not None:
                out["drawn"] = [[i, str(CARDS[c])] for i, c in self.stock_draws if self.log[i][0] == reader]
            out["events"] = self.events_since(0, reader)
        if guide:
            self._guide(out, reader)
        return out

    def _guide(self, out: HandView, reader: int | None) -> None:
        """What a person at the table is shown beside the view: their hand ``arranged`` into the melds that
        leave the least deadwood (with the deadwood's ``count``), the deadwood each legal ``knock`` would
        keep, and the ``prompt`` (what happens now, in words)."""
        told: int | tuple[int, int] | None = None
        if reader is not None and out["phase"] != "over":
            table = self.melds_table
            mask = self.hands[reader]
            melded, melds = table.best_arrangement(mask)
            used = 0
            for meld in melds:
                used |= meld
            count = table.card_value(mask) - melded
            out["arranged"] = {"melds": [[str(c) for c in meld_cards(m)] for m in melds],
                               "deadwood": names_of(mask & ~used), "count": count}
            knocks = {a["card"]: table.deadwood(mask & ~Card.parse(a["card"]).bit)
                      for a in out["legal_actions"] if a["action"] == "knock"}
            if knocks:
                out["knocks"] = knocks
            # Before a discard the count holds the card about to go: say the least a discard leaves too
            after = [knocks[a["card"]] if a["card"] in knocks else table.deadwood(mask & ~Card.parse(a["card"]).bit)
                     for a in out["legal_actions"] if a["action"] == "discard"]
            told = (count, min(after)) if after else count
        out["prompt"] = prompt(out, told if self.rules.style in ("knock", "gin") else None, self.rules.boathouse)

    def _static_view(self) -> dict[str, Any]:
        """What never changes in a hand, made once (views share it: read only)."""
        if not self._static:
            rules = self.rules
            self._static.update({"ruleset": ruleset_ref(rules), "style": rules.style,
                                 "players": list(self.players), "chips": list(self.scores), "dealer": self.dealer,
                                 "aces": rules.aces, "ace_value": rules.ace_value,
                                 "turned_up": str(self.dealt_stock[0])})
        return self._static

    # --------------------------------------------------------------------- per-seat event streams
    # As in the stops engine (rummoli.streams): a ``start`` event, then one event per entry of the hand's
    # events_log; the state mark taken after each move (phase, turn, the legal moves, the points laid) rides
    # on the move's last event as its ``state``.

    def _check_seat(self, seat: object) -> int | None:
        """``seat`` if it is ``None`` (a spectator) or an ``int`` seat of the hand; else MalformedInput."""
        return streams.check_seat(self.n, seat)

    def _mark(self) -> None:
        """A state mark on the last of the hand's events (``apply``, every move it makes and a new hand take
        one, so the marks depend only on the moves made; nothing if nothing is new)."""
        stream = self._events
        at = len(self.events_log)
        if stream.at == at:
            return
        over = self.phase == "over"
        stream.put(at, (self.phase, [] if over else [self.turn], [] if over else self.moves(),
                        {"turn": self.turn, "points": list(self.points)}))

    def _sync(self) -> int:
        """Mark the state now if moves were made since the last mark (the fast path takes none), number the
        new actions and note the cards drawn blind; return ``seq``."""
        events = self.events_log
        if self._events.at < len(events):
            self._mark()
        action_at = self._action_at
        if len(action_at) < len(events):
            count = self._actions_seen
            for k in range(len(action_at), len(events)):
                if isinstance(events[k], tuple):
                    action_at.append(count)
                    count += 1
                else:
                    action_at.append(-1)
            self._actions_seen = count
        for index, card in self.stock_draws[len(self._drawn):]:
            self._drawn[index] = card
        return len(events) + 1

    @property
    def seq(self) -> int:
        """How many events the hand has produced so far (they are numbered 1..seq)."""
        return self._sync()

    def _render_action(self, entry: Entry, log_index: int, reader: int | bool | None) -> Event:
        """A logged move as ``reader`` may see it (``True``: the full record, with every card drawn blind)."""
        seat, code, x, y, forced = entry
        out = cast(Event, {"type": "action", **self.move_json(seat, (code, x, y))})  # an action object's keys
        if code == DRAW_DISCARD:  # everyone saw it: the (deepest) card taken from the pile
            out["card"] = str(CARDS[x])
        if shown_forced(forced, seat, reader):
            out["forced"] = True
        if log_index >= 0 and log_index in self._drawn and reader is not True:
            if code == DRAW_DISCARD:
                out["blind"] = True  # boathouse: a card from the stock came with the pile
            if reader == seat:
                out["drawn"] = str(CARDS[self._drawn[log_index]])
        return out

    def _legal_json(self, moves: list[Move], seat: int) -> list[dict[str, Any]]:
        return moves_json(seat, moves, self.rules.discard_depth)

    def _start_event(self) -> Event:
        """The ``start`` event as a spectator reads it (a seat's adds its ``seat`` and its dealt ``hand``)."""
        return cast(Event, {"type": "start", **self._static_view(), "seat": None, "hand": None,
                            "hand_sizes": [len(h) for h in self.dealt], "stock": len(self.dealt_stock) - 1,
                            "discard": [str(self.dealt_stock[0])]})

    def _render_public(self, k: int) -> tuple[Event, Any]:
        """Stream entry ``k`` as a spectator reads it, and the seats that read it otherwise (None: nobody)."""
        actor = -1
        if k == 0:
            out = self._start_event()
        else:
            event = self.events_log[k - 1]
            if isinstance(event, tuple):
                index = self._action_at[k - 1]
                out = self._render_action(event, index, None)
                if event[4] or index in self._drawn:
                    actor = event[0]
            else:
                out = self._render(event).copy()
            self._say(out, k)
        return streams.finish_public(self._events, k, out, actor)

    def _meld_before(self, target: int, before: int) -> int:
        """The cards of meld ``target`` as they were before action ``before`` of the log (the meld made, and
        the lay-offs on it until then): a sentence about a lay-off says what it went on, whenever it is read."""
        made, cards = -1, 0
        for _seat, code, x, y, _forced in self.log[:before]:
            if code == MELD:
                made += 1
                if made == target:
                    cards = x
            elif code == LAYOFF and y == target:
                cards |= 1 << x
        return cards

    def _say(self, event: Event, k: int) -> None:
        """Put the event's sentence (rummoli.rummy.words) into it as ``text``, with what it needs to know:
        whether an action answers Gin's upcard offer, and whose meld a lay-off goes on."""
        stream = self._events
        if not stream.words:
            return
        if stream.speaker is None:
            stream.speaker = Speaker(self.players, self.rules.style)
        upcard, meld, top = False, 0, False
        entry = self.events_log[k - 1] if k > 0 else None
        if isinstance(entry, tuple):
            index = self._action_at[k - 1]
            code = entry[1]
            upcard = self.rules.style == "gin" and code in (DRAW_DISCARD, PASS) and (
                index == 0 or (index == 1 and self.log[0][1] == PASS))
            if code == LAYOFF:
                meld = self._meld_before(entry[3], index)
            if code == DRAW_DISCARD:  # the top card: the first upcard, or the card discarded just before
                top = index == 0 or (self.log[index - 1][1] == DISCARD and self.log[index - 1][2] == entry[2])
        text = stream.speaker.line(event, upcard, names_of(meld), top)
        if text:
            event["text"] = text

    def _render_private(self, k: int, reader: int) -> Event:
        """Stream entry ``k`` as ``reader`` reads it, where that differs from a spectator's reading: its dealt
        hand, its own forced moves and cards drawn blind, its legal actions."""
        public = self._events.public[k]
        out = public.copy()
        if k == 0:
            out["seat"] = reader
            out["hand"] = [str(c) for c in sorted(self.dealt[reader], key=lambda c: c.index)]
        else:
            event = self.events_log[k - 1]
            # Only a forced move or a card drawn blind reads otherwise for its actor (as _render_public marks)
            if isinstance(event, tuple) and event[0] == reader and (event[4] or self._action_at[k - 1] in self._drawn):
                out.update(self._render_action(event, self._action_at[k - 1], reader))
                self._say(out, k)
        return streams.finish_private(self._events, k, out, reader, self._legal_json)

    def events_since(self, seq: int, seat: int | None) -> list[Event]:
        """Events ``seq + 1`` to :attr:`seq` exactly as ``seat`` (``None``: a spectator) may learn them, each
        with its number ``"seq"`` (copies); :func:`rebuild` makes the view from them."""
        streams.check_read(seq, seat, self.n)
        return self._events.since(self, seq, self._sync(), seat, Views._render_public, Views._render_private)


# ------------------------------------------------------------------------- a view rebuilt from events
def _start_view(ev: Mapping[str, Any]) -> tuple[dict[str, Any], set[int]]:
    view = {key: value for key, value in ev.items() if key not in ("type", "seq", "hand", "state")}
    view.update(hand_sizes=list(ev["hand_sizes"]), discard=list(ev["discard"]), melds=[], flips=0)
    return view, set() if ev["hand"] is None else {Card.parse(c).index for c in ev["hand"]}


def _apply_event(view: dict[str, Any], hand: set[int], ev: Mapping[str, Any]) -> set[int]:
    kind = ev["type"]
    if kind == "action":
        seat, act, sizes, me = ev["seat"], ev["action"], view["hand_sizes"], ev["seat"] == view["seat"]
        if act == "draw":
            if ev["from"] == "stock" or ev.get("blind"):
                view["stock"] -= 1
                sizes[seat] += 1
            if "drawn" in ev:
                hand.add(Card.parse(ev["drawn"]).index)
            if ev["from"] == "discard":
                pile = view["discard"]
                depth = pile.index(ev["card"])
                taken = pile[depth:]
                del pile[depth:]
                sizes[seat] += len(taken)
                if me:
                    hand.update(Card.parse(c).index for c in taken)
        elif act in ("meld", "layoff", "discard", "knock"):
            cards = ev["cards"] if act == "meld" else [ev["card"]]
            bits = 0
            for c in cards:
                bits |= Card.parse(c).bit
                hand.discard(Card.parse(c).index)
            sizes[seat] -= len(cards)
            if act == "meld":
                view["melds"].append({"cards": [str(c) for c in meld_cards(bits)], "owner": seat})
            elif act == "layoff":
                meld = view["melds"][ev["meld"]]
                for c in meld["cards"]:
                    bits |= Card.parse(c).bit
                meld["cards"] = [str(c) for c in meld_cards(bits)]
            else:
                view["discard"].append(ev["card"])
    elif kind == "flip":
        view["stock"], view["discard"], view["flips"] = ev["cards"], [], view["flips"] + 1
    elif kind == "show":
        view["shown"] = [list(h) for h in ev["hands"]]
    elif kind == "end":
        view["outcome"] = {key: value for key, value in ev.items() if key not in ("type", "seq", "state", "text")}
    return hand


def rebuild(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The view a seat's events make, applied in order from the hand's start (pure: events only).

    ``rebuild(hand.events_since(0, s)) == hand.view(s)``.
    """
    return streams.rebuild(events, _start_view, _apply_event)
