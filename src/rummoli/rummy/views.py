"""What each seat may see of a Rummy hand (R-VIEW-1), and the hand's record (R-NOTE-2).

A seat sees its own cards, the discard pile, the melds, every player's card count and the public history
of actions (a draw from the stock names no card, a draw from the pile names the card taken) with the
moments the pile was turned over.  It also sees which cards it drew blind itself, so a bot can rebuild a
consistent state from a guess at the hidden cards.  Nobody sees the stock's order or another hand until the
hand is over and the hands are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from rummoli import streams
from rummoli.cards import CARDS, Card
from rummoli.records import FORMAT
from rummoli.rummy.melds import meld_cards
from rummoli.rummy.ruleset import Ruleset, builtin_names, load_ruleset
from rummoli.rummy.words import Speaker, prompt

if TYPE_CHECKING:
    from rummoli.rummy.hand import RummyHand

#: Move codes of :mod:`rummoli.rummy.hand` that the words need (that module imports this one).
_DRAW_DISCARD, _MELD, _LAYOFF, _PASS = 1, 2, 3, 6


def _names(mask: int) -> list[str]:
    return [str(CARDS[i]) for i in range(52) if mask >> i & 1]


def _flips(hand: RummyHand) -> list[int]:
    """How many actions had been taken each time the discard pile was turned over (R-RU-5)."""
    flips, actions = [], 0
    for event in hand.events_log:
        if isinstance(event, tuple):
            actions += 1
        elif event["type"] == "flip":
            flips.append(actions)
    return flips


def view(hand: RummyHand, seat: int | None, history: bool = False, guide: bool = False) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (``None`` for a spectator): the hand's state, costing what is new.

    ``history=True`` adds what a bot replays: the public ``history`` of actions (forced moves marked as
    this seat may see them), ``flipped_at``, the cards this seat drew blind (``drawn``: ``[action index,
    card]``) and its whole stream of ``events`` (as :func:`events_since` gives them).
    """
    reader = check_seat(hand, seat)
    seq = sync(hand)
    phase, to_act, moves, state = hand._events.state
    turn = state["turn"]
    out: dict[str, Any] = dict(static(hand))
    out.update({
        "seq": seq,
        "seat": reader,
        "turn": turn,
        "to_act": list(to_act),
        "phase": phase,
        "hand_sizes": [h.bit_count() for h in hand.hands],
        "stock": len(hand.stock),
        "flips": hand.flips,
        "discard": [str(CARDS[i]) for i in hand.pile],
        "melds": [
            {"cards": [str(c) for c in meld_cards(m)], "owner": o} for m, o in zip(hand.melds, hand.owners, strict=True)
        ],
        "points": list(state["points"]),
        "legal_actions": hand._events.legal(turn, lambda: _legal_json(hand, moves, turn)) if reader == turn else [],
    })
    out["hand"] = None if reader is None else _names(hand.hands[reader])
    if phase == "over":
        out["shown"] = [_names(h) for h in hand.hands]
        out["outcome"] = dict(hand.outcome)
    if history:
        out["history"] = [render_action(hand, e, i, reader) for i, e in enumerate(hand.log)]
        for entry in out["history"]:
            entry.pop("drawn", None)
            entry.pop("blind", None)
        out["flipped_at"] = _flips(hand)
        if reader is not None:
            out["drawn"] = [[i, str(CARDS[c])] for i, c in hand.stock_draws if hand.log[i][0] == reader]
        out["events"] = events_since(hand, 0, reader)
    if guide:
        _guide(hand, out, reader)
    return out


def _guide(hand: RummyHand, out: dict[str, Any], reader: int | None) -> None:
    """What a person at the table is shown beside the view: their hand ``arranged`` into the melds that leave
    the least deadwood (with the deadwood's ``count``), the deadwood each legal ``knock`` would keep, and the
    ``prompt`` (what happens now, in words)."""
    count = None
    if reader is not None and out["phase"] != "over":
        table = hand.melds_table
        mask = hand.hands[reader]
        melded, melds = table.best_arrangement(mask)
        used = 0
        for meld in melds:
            used |= meld
        count = table.card_value(mask) - melded
        out["arranged"] = {"melds": [[str(c) for c in meld_cards(m)] for m in melds], "deadwood": _names(mask & ~used),
                           "count": count}
        knocks = {a["card"]: table.deadwood(mask & ~Card.parse(a["card"]).bit)
                  for a in out["legal_actions"] if a["action"] == "knock"}
        if knocks:
            out["knocks"] = knocks
    out["prompt"] = prompt(out, count if hand.rules.style in ("knock", "gin") else None)


_BUILTINS: dict[str, Ruleset] = {}  # the built-in rulesets by name, loaded once


def ruleset_ref(hand: RummyHand) -> str | dict[str, Any]:
    """The built-in name when the ruleset is one, else the inline object."""
    if not _BUILTINS:
        _BUILTINS.update((name, load_ruleset(name)) for name in builtin_names())
    if _BUILTINS.get(hand.rules.name) == hand.rules:
        return hand.rules.name
    return hand.rules.to_dict()


def record(hand: RummyHand) -> dict[str, Any]:
    """The R-NOTE-2 record: ruleset, seats, scores before the hand, dealer, deal and decisions (and with
    ``stock_end = shuffle_once``, once the pile was turned over, the reshuffled stock: R-RU-SHUFFLE)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": ruleset_ref(hand),
        "players": list(hand.players),
        "chips": list(hand.scores),
        "pots": {},
        "dealer": hand.dealer,
        "deal": {
            "hands": [[str(c) for c in cards] for cards in hand.dealt],
            "stock": [str(c) for c in hand.dealt_stock],
        },
        "actions": [
            hand.move_json(seat, (code, x, y)) for seat, code, x, y, forced in hand.log if not forced
        ],
    }
    reshuffle = hand.reshuffled if hand.reshuffled is not None else hand.reshuffle_given
    if reshuffle:
        out["deal"]["reshuffle"] = [str(CARDS[i]) for i in reshuffle]
    return out


# ------------------------------------------------------------------------- per-seat event streams
# As in the stops engine (rummoli.streams): a ``start`` event, then one event per entry of the hand's
# events_log; the state mark taken after each move (phase, turn, the legal moves, the points laid) rides
# on the move's last event as its ``state``.


def check_seat(hand: RummyHand, seat: object) -> int | None:
    """``seat`` if it is ``None`` (a spectator) or an ``int`` seat of the hand; else MalformedInput."""
    return streams.check_seat(hand.n, seat)


def mark(hand: RummyHand) -> None:
    """A state mark on the last of the hand's events (``apply``, every move it makes and a new hand take
    one, so the marks depend only on the moves made; nothing if nothing is new)."""
    stream = hand._events
    at = len(hand.events_log)
    if stream.at == at:
        return
    over = hand.phase == "over"
    stream.put(at, (hand.phase, [] if over else [hand.turn], [] if over else hand._moves(),
                    {"turn": hand.turn, "points": list(hand.points)}))


def sync(hand: RummyHand) -> int:
    """Mark the state now if moves were made since the last mark (the fast path takes none), number the
    new actions and note the cards drawn blind; return ``seq``."""
    events = hand.events_log
    if hand._events.at < len(events):
        mark(hand)
    action_at = hand._action_at
    if len(action_at) < len(events):
        count = hand._actions_seen
        for k in range(len(action_at), len(events)):
            if isinstance(events[k], tuple):
                action_at.append(count)
                count += 1
            else:
                action_at.append(-1)
        hand._actions_seen = count
    for index, card in hand.stock_draws[len(hand._drawn):]:
        hand._drawn[index] = card
    return len(events) + 1


def static(hand: RummyHand) -> dict[str, Any]:
    """What never changes in a hand, made once (views share it: read only)."""
    if not hand._static:
        rules = hand.rules
        hand._static.update({"ruleset": ruleset_ref(hand), "style": rules.style, "players": list(hand.players),
                             "chips": list(hand.scores), "dealer": hand.dealer, "aces": rules.aces,
                             "ace_value": rules.ace_value, "turned_up": str(hand.dealt_stock[0])})
    return hand._static


def shown_forced(forced: int, seat: int, reader: int | bool | None) -> bool:
    """Whether ``reader`` may see that ``seat``'s move was forced (R-VIEW-1): only that seat and the full
    record (``True``).  In 500 Rum a stock draw is forced when the seat can use no card of the pile, which
    only its own hand tells (``forced == 1``); when the pile is empty or Gin's upcard was passed
    (``forced == 2``) everyone could tell, but the mark is the actor's all the same.
    """
    return bool(forced) and (reader is True or reader == seat)


def render_action(hand: RummyHand, entry: tuple[int, int, int, int, int], log_index: int,
                  reader: int | bool | None) -> dict[str, Any]:
    """A logged move as ``reader`` may see it (``True``: the full record, with every card drawn blind)."""
    seat, code, x, y, forced = entry
    out: dict[str, Any] = {"type": "action", **hand.move_json(seat, (code, x, y))}
    if code == 1:  # DRAW_DISCARD: everyone saw it: the (deepest) card taken from the pile
        out["card"] = str(CARDS[x])
    if shown_forced(forced, seat, reader):
        out["forced"] = True
    if log_index >= 0 and log_index in hand._drawn and reader is not True:
        if code == 1:
            out["blind"] = True  # boathouse: a card from the stock came with the pile
        if reader == seat:
            out["drawn"] = str(CARDS[hand._drawn[log_index]])
    return out


def _legal_json(hand: RummyHand, moves: list[tuple[int, int, int]], seat: int) -> list[dict[str, Any]]:
    return [hand.move_json(seat, m) for m in moves]


def _start_event(hand: RummyHand) -> dict[str, Any]:
    """The ``start`` event as a spectator reads it (a seat's adds its ``seat`` and its dealt ``hand``)."""
    return {"type": "start", **static(hand), "seat": None, "hand": None,
            "hand_sizes": [len(h) for h in hand.dealt], "stock": len(hand.dealt_stock) - 1,
            "discard": [str(hand.dealt_stock[0])]}


def _render_public(hand: RummyHand, k: int) -> tuple[dict[str, Any], Any]:
    """Stream entry ``k`` as a spectator reads it, and the seats that read it otherwise (None: nobody)."""
    actor = -1
    if k == 0:
        out = _start_event(hand)
    else:
        event = hand.events_log[k - 1]
        if isinstance(event, tuple):
            index = hand._action_at[k - 1]
            out = render_action(hand, event, index, None)
            if event[4] or index in hand._drawn:
                actor = event[0]
        else:
            out = dict(event)
        _say(hand, out, k)
    return streams.finish_public(hand._events, k, out, actor)


def _meld_before(hand: RummyHand, target: int, before: int) -> int:
    """The cards of meld ``target`` as they were before action ``before`` of the log (the meld made, and the
    lay-offs on it until then): a sentence about a lay-off says what it went on, whenever it is read."""
    made, cards = -1, 0
    for _seat, code, x, y, _forced in hand.log[:before]:
        if code == _MELD:
            made += 1
            if made == target:
                cards = x
        elif code == _LAYOFF and y == target:
            cards |= 1 << x
    return cards


def _say(hand: RummyHand, event: dict[str, Any], k: int) -> None:
    """Put the event's sentence (rummoli.rummy.words) into it as ``text``, with what it needs to know: whether
    an action answers Gin's upcard offer, and whose meld a lay-off goes on."""
    stream = hand._events
    if stream.speaker is None:
        stream.speaker = Speaker(hand.players, hand.rules.style)
    upcard, meld = False, 0
    entry = hand.events_log[k - 1] if k > 0 else None
    if isinstance(entry, tuple):
        index = hand._action_at[k - 1]
        code = entry[1]
        upcard = hand.rules.style == "gin" and code in (_DRAW_DISCARD, _PASS) and (
            index == 0 or (index == 1 and hand.log[0][1] == _PASS))
        if code == _LAYOFF:
            meld = _meld_before(hand, entry[3], index)
    text = stream.speaker.line(event, upcard, _names(meld))
    if text:
        event["text"] = text


def _render_private(hand: RummyHand, k: int, reader: int) -> dict[str, Any]:
    """Stream entry ``k`` as ``reader`` reads it, where that differs from a spectator's reading: its dealt
    hand, its own forced moves and cards drawn blind, its legal actions."""
    public = hand._events.public[k]
    out = public.copy()
    if k == 0:
        out["seat"] = reader
        out["hand"] = [str(c) for c in sorted(hand.dealt[reader], key=lambda c: c.index)]
    else:
        event = hand.events_log[k - 1]
        if isinstance(event, tuple) and event[0] == reader:
            out.update(render_action(hand, event, hand._action_at[k - 1], reader))
            _say(hand, out, k)
    return streams.finish_private(hand._events, k, out, reader, lambda moves, seat: _legal_json(hand, moves, seat))


def events_since(hand: RummyHand, seq: int, seat: int | None) -> list[dict[str, Any]]:
    """Events ``seq + 1`` to ``hand.seq`` as ``seat`` (``None``: a spectator) may learn them (copies)."""
    streams.check_read(seq, seat, hand.n)
    return hand._events.since(hand, seq, sync(hand), seat, _render_public, _render_private)


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
