"""What a Poch hand shows (R-VIEW-1, R-PO-13): its events, its record, each seat's view and event stream.

Nothing in Poch is dealt face down to the table but the stock (Hoyle's form), and every card that leaves a
hand is shown: laid, melded or shown at the vying.  So a seat's events differ from a spectator's only in its
own dealt hand and its legal actions, and every ``forced`` flag is public (a run's plays follow from the
cards laid, and a lead is forced only with one card left, which every seat can count).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from rummoli import streams
from rummoli.cards import CARDS, Card, names_of
from rummoli.poch.words import Speaker, prompt
from rummoli.shapes import Event, HandView
from rummoli.stops.actions import KINDS

if TYPE_CHECKING:
    from rummoli.poch.result import PochResult
    from rummoli.poch.ruleset import Ruleset

NAMES = [str(c) for c in CARDS]


def legal_json(opts: list[tuple[int, str, int, int, int]], seat: int) -> list[dict[str, Any]]:
    """A seat's options as R-NOTE-3 objects, an amount as its range."""
    out: list[dict[str, Any]] = []
    for s, kind, card, low, high in opts:
        if s != seat:
            continue
        if kind in ("bet", "raise"):
            out.append({"seat": s, "action": kind, "min": low, "max": high})
        elif card >= 0:
            out.append({"seat": s, "action": kind, "card": NAMES[card]})
        else:
            out.append({"seat": s, "action": kind})
    return out


class Views(streams.Marked):
    """The events, records and views of a hand (mixed into :class:`rummoli.poch.hand.PochHand`)."""

    rules: Ruleset
    n: int
    names: list[str]
    dealer: int
    start_chips: list[int]
    start_pots: list[int]
    chips: list[int]
    pots: list[int]
    dealt: list[list[Card]]
    dealt_stock: list[Card]
    turned: int
    holder: int
    hands: list[int]
    with_ante: bool
    log: list[tuple[Any, ...]]
    phase: str
    shown: dict[int, int]
    winner: int
    _static: dict[str, Any]

    def _options(self) -> list[tuple[int, str, int, int, int]]:
        raise NotImplementedError

    def phase_state(self) -> dict[str, Any]:
        raise NotImplementedError

    def pot_balances(self) -> dict[str, int]:
        raise NotImplementedError

    # --------------------------------------------------------------------- events and records
    def _party(self, code: int) -> str:
        return f"seat:{code}" if code >= 0 else f"pot:{self.rules.pools[-1 - code].id}"

    def _entry(self, e: tuple[Any, ...]) -> Event:
        """A log entry as an event (no hidden card is in any)."""
        tag = e[0]
        if tag == "chips":
            return {"type": "chips", "from": self._party(e[1]), "to": self._party(e[2]), "amount": e[3],
                    "reason": e[4]}
        if tag == "act":
            out: Event = {"type": "action", "seat": e[1], "action": e[2]}
            if e[3] >= 0:
                out["card"] = NAMES[e[3]]
            if KINDS[e[2]] == "amount":
                out["amount"] = e[4]
            out["forced"] = bool(e[5])
            return out
        if tag == "meld":
            return cast(Event, {"type": "meld", "seat": e[1], "pot": self.rules.pools[e[2]].id,
                                "cards": names_of(e[3])})
        if tag == "show":
            return {"type": "showdown", "seat": e[1], "cards": names_of(e[2])}
        if tag == "stop":
            return {"type": "stop", "after": NAMES[e[1]]}
        if tag == "out":
            return {"type": "out", "seat": e[1]}
        return {"type": tag}

    def events(self) -> list[Event]:
        """Every event so far: each action (forced ones marked), each meld and every chip moved."""
        return [self._entry(e) for e in self.log]

    def history(self) -> list[dict[str, Any]]:
        """Every action as an R-NOTE-3 object, forced ones marked."""
        return [{**_action(e), "forced": bool(e[5])} for e in self.log if e[0] == "act"]

    def record(self, forced: bool = False) -> dict[str, Any]:
        """The R-NOTE-2 hand record (forced plays left out unless ``forced``: a replay makes them)."""
        rec: dict[str, Any] = {
            "format": "rummoli-hand/1",
            "ruleset": self.rules.reference(),
            "players": list(self.names),
            "chips": list(self.start_chips),
            "pots": {p.id: self.start_pots[j] for j, p in enumerate(self.rules.pools) if self.start_pots[j]},
            "dealer": self.dealer,
            "deal": {"hands": [[str(c) for c in h] for h in self.dealt],
                     "stock": [str(c) for c in self.dealt_stock], "turned": NAMES[self.turned]},
            "actions": [_action(e) for e in self.log if e[0] == "act" and (forced or not e[5])],
        }
        if not self.with_ante:
            rec["ante"] = False
        return rec

    def out_of_play(self) -> dict[str, Any] | None:
        """The cards dealt to nobody (``kind`` "undealt"): Hoyle's stock, which takes no part in the hand (R-PO-2;
        the card turned for trumps beside it is face up, in every view); ``None`` when every card is dealt (the
        modern deal).  In no seat's view: only for a replay whose asker may see every card of the hand
        (``open_hands``, once the evening is over) and a record's summary (see
        :meth:`rummoli.stops.Hand.out_of_play`).

        >>> from rummoli.poch.replay import hand_from_record, random_hand_record
        >>> hand_from_record(random_hand_record("poch", 4, "7")).out_of_play() is None
        True
        >>> record = random_hand_record("poch-hoyle", 4, "7")
        >>> hand_from_record(record).out_of_play() == {"kind": "undealt", "cards": record["deal"]["stock"]}
        True
        """
        if not self.dealt_stock:
            return None
        return {"kind": "undealt", "cards": [str(c) for c in self.dealt_stock]}

    def result(self) -> PochResult | None:
        """The finished hand's result (rummoli.poch.result), None while it is played."""
        from rummoli.poch.result import hand_result

        return hand_result(self) if self.phase == "over" else None

    # ---------------------------------------------------------------------------------- views
    def _static_view(self) -> dict[str, Any]:
        if not self._static:
            start = self._start_event()
            self._static.update({key: start[key] for key in ("ruleset", "board", "players", "dealer", "start")})
            self._static["trump"] = dict(cast(dict[str, Any], start)["trump"])
        return self._static

    def _public_view(self) -> HandView:
        """A spectator's view of the latest state (synced), without its guide: what every seat's view holds
        alike, and in the same order (:meth:`_seat_view` puts each seat's own keys in their places)."""
        seq = self._sync()
        phase, to_act, _opts, state = self._events.state
        out = cast(HandView, dict(self._static_view()))
        melds = [{"seat": e[1], "pot": self.rules.pools[e[2]].id, "cards": names_of(e[3])}
                 for e in self.log if e[0] == "meld"]
        played = [{"seat": e[1], "card": NAMES[e[3]]} for e in self.log if e[0] == "act" and e[2] in ("lead", "play")]
        extra = cast(dict[str, Any], out)
        trump = extra["trump"]
        # Whether the turned card has been laid (then its holder holds it no more): read from the cards laid, which
        # every seat sees, never from the holder's hand.
        extra["trump"] = {**trump, "laid": any(p["card"] == trump["card"] for p in played)}
        extra.update({
            "seq": seq, "seat": None, "phase": phase, "to_act": list(to_act), "chips": list(self.chips),
            "pots": self.pot_balances(), "hand": None,
            "hand_sizes": [m.bit_count() for m in self.hands], "stock_size": len(self.dealt_stock),
            "melds": melds, "played": played,
            "showdown": {str(s): names_of(m) for s, m in self.shown.items()},
            "legal_actions": [],
        })
        extra.update(state)
        return out

    def _seat_view(self, public: HandView, reader: int | None) -> HandView:
        """``reader``'s view of the latest state made from ``public`` (:meth:`_public_view`), which it leaves as
        it is: its own ``seat``, ``hand`` and ``legal_actions`` in their places."""
        out = cast(HandView, dict(public))
        if reader is None:
            return out
        opts = self._events.state[2]
        extra = cast(dict[str, Any], out)
        extra["seat"] = reader
        extra["hand"] = names_of(self.hands[reader])
        extra["legal_actions"] = self._events.legal(reader, lambda: legal_json(opts, reader))
        return out

    def view(self, seat: int | None, history: bool = False, guide: bool = False, shared: bool = False) -> HandView:
        """What ``seat`` may know (R-VIEW-1); ``None`` is a spectator.  ``history=True`` adds the seat's
        ``events`` and ``actions``; ``guide=True`` the ``prompt`` (what happens now, in words).  ``shared=True``:
        what every seat sees alike is made once per state and shared between the views (see
        :meth:`rummoli.streams.Stream.shared`): for a caller that writes the view out and never changes it."""
        reader = self._check_seat(seat)
        self._sync()
        out = self._seat_view(self._events.shared(self._public_view) if shared else self._public_view(), reader)
        extra = cast(dict[str, Any], out)
        if history:
            events = self.events_since(0, reader)
            extra["events"] = events
            extra["actions"] = [{k: v for k, v in e.items() if k not in ("type", "seq", "state", "text")}
                                for e in events if e["type"] == "action"]
        if guide:
            extra["prompt"] = prompt(out)
        return out

    # --------------------------------------------------------------------- per-seat event streams
    def _check_seat(self, seat: object) -> int | None:
        return streams.check_seat(self.n, seat)

    def _mark(self) -> None:
        stream = self._events
        at = len(self.log)
        if stream.at == at:
            return
        opts = self._options()
        stream.put(at, (self.phase, sorted({o[0] for o in opts}), opts, self.phase_state()))

    def _start_event(self) -> Event:
        pools = self.rules.pools
        return cast(Event, {
            "type": "start", "ruleset": self.rules.reference(),
            "board": [{"id": p.id, "name": p.name, "kind": p.kind, "ante": p.ante} for p in pools],
            "players": list(self.names), "seat": None, "dealer": self.dealer,
            "start": {"chips": list(self.start_chips), "pots": {p.id: self.start_pots[j] for j, p in enumerate(pools)},
                      "ante": self.with_ante},
            "hand": None, "hand_sizes": [len(h) for h in self.dealt], "stock_size": len(self.dealt_stock),
            "trump": {"card": NAMES[self.turned], "suit": "shdc"[self.turned // 13],
                      "holder": None if self.holder < 0 else self.holder},
        })

    def _render_public(self, k: int) -> tuple[Event, Any]:
        if k == 0:
            out = self._start_event()
        else:
            out = self._entry(self.log[k - 1])
            stream = self._events
            if stream.words:
                if stream.speaker is None:
                    stream.speaker = Speaker(self.rules, self.names)
                text = stream.speaker.line(out)
                if text:
                    out["text"] = text
        return streams.finish_public(self._events, k, out, -1)

    def _render_private(self, k: int, reader: int) -> Event:
        out = self._events.public[k].copy()
        if k == 0:
            out["seat"] = reader
            out["hand"] = names_of(sum(1 << c.index for c in self.dealt[reader]))
        return streams.finish_private(self._events, k, out, reader, legal_json)


def _action(e: tuple[Any, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": e[1], "action": e[2]}
    if e[3] >= 0:
        out["card"] = NAMES[e[3]]
    if KINDS[e[2]] == "amount":
        out["amount"] = e[4]
    return out


# ------------------------------------------------------------------------- a view rebuilt from events
def _start_view(ev: Mapping[str, Any]) -> tuple[dict[str, Any], set[int]]:
    return streams.board_start(ev, stock_size=ev["stock_size"], trump={**ev["trump"], "laid": False}, melds=[])


def _apply_event(view: dict[str, Any], hand: set[int], ev: Mapping[str, Any]) -> set[int]:
    kind = ev["type"]
    if kind == "chips":
        streams.move_chips(view, ev)
    elif kind == "action" and ev["action"] in ("lead", "play"):
        view["played"].append({"seat": ev["seat"], "card": ev["card"]})
        view["hand_sizes"][ev["seat"]] -= 1
        hand.discard(Card.parse(ev["card"]).index)
        if ev["card"] == view["trump"]["card"]:
            view["trump"]["laid"] = True
    elif kind == "meld":
        view["melds"].append({"seat": ev["seat"], "pot": ev["pot"], "cards": list(ev["cards"])})
    elif kind == "showdown":
        view["showdown"][str(ev["seat"])] = list(ev["cards"])
    return hand


def rebuild(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The view a seat's events make: ``rebuild(hand.events_since(0, s)) == hand.view(s)``."""
    return streams.rebuild(events, _start_view, _apply_event, ("vie", "play", "winner"))
