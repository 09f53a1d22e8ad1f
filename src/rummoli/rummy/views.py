"""What each seat may see of a Rummy hand (R-VIEW-1), and the hand's record (R-NOTE-2).

A seat sees its own cards, the discard pile, the melds, every player's card count and the public history
of actions (a draw from the stock names no card, a draw from the pile names the card taken) with the
moments the pile was turned over.  It also sees which cards it drew blind itself, so a bot can rebuild a
consistent state from a guess at the hidden cards.  Nobody sees the stock's order or another hand until the
hand is over and the hands are shown.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from rummoli.cards import CARDS, SUIT_BITS, Card
from rummoli.errors import MalformedInput
from rummoli.records import FORMAT
from rummoli.rummy.ruleset import load_ruleset

if TYPE_CHECKING:
    from rummoli.rummy.hand import RummyHand


def meld_cards(mask: int) -> list[Card]:
    """A meld's cards in the order players lay them: a set by suit, a run from its low end.

    >>> from rummoli.cards import mask_of, parse_cards
    >>> [str(c) for c in meld_cards(mask_of(parse_cards("2h Ah 3h")))]
    ['Ah', '2h', '3h']
    >>> [str(c) for c in meld_cards(mask_of(parse_cards("2h Ah Kh")))]
    ['Kh', 'Ah', '2h']
    """
    suits = [s for s in range(4) if (mask >> (13 * s)) & SUIT_BITS]
    if len(suits) != 1:
        return [CARDS[i] for i in range(52) if mask >> i & 1]
    base = 13 * suits[0]
    ranks = [r for r in range(13) if mask >> (base + r) & 1]
    start = next((r for r in ranks if not mask >> (base + (r - 1) % 13) & 1), ranks[0])
    return [CARDS[base + (start + k) % 13] for k in range(len(ranks))]


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


def view(hand: RummyHand, seat: int | None, history: bool = False) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (``None`` for a spectator): the hand's state, costing what is new.

    ``history=True`` adds what a bot replays: the public ``history`` of actions (forced moves marked as
    this seat may see them), ``flipped_at``, the cards this seat drew blind (``drawn``: ``[action index,
    card]``) and its whole stream of ``events`` (as :func:`events_since` gives them).
    """
    reader = check_seat(hand, seat)
    seq = sync(hand)
    _, phase, turn, to_act, moves, points = hand._stream[-1]
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
        "points": list(points),
        "legal_actions": [hand.to_action(turn, m).to_json() for m in moves] if reader == turn else [],
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
    return out


def ruleset_ref(hand: RummyHand) -> str | dict[str, Any]:
    """The built-in name when the ruleset is one, else the inline object."""
    try:
        if load_ruleset(hand.rules.name) == hand.rules:
            return hand.rules.name
    except ValueError:
        pass
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
            hand.to_action(seat, (code, x, y)).to_json() for seat, code, x, y, forced in hand.log if not forced
        ],
    }
    reshuffle = hand.reshuffled if hand.reshuffled is not None else hand.reshuffle_given
    if reshuffle:
        out["deal"]["reshuffle"] = [str(CARDS[i]) for i in reshuffle]
    return out


# ------------------------------------------------------------------------- per-seat event streams
# As in the stops engine (rummoli.stops.report): the stream is ``START``, then the hand's events_log,
# with a ``state`` mark (phase, turn, the legal moves, the points laid) after each batch of new entries,
# taken when someone reads.  Every reader gets every number; each entry is rendered as it may see it.

START: tuple[str] = ("start",)


def check_seat(hand: RummyHand, seat: object) -> int | None:
    """``seat`` if it is ``None`` (a spectator) or an ``int`` seat of the hand; else MalformedInput."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < hand.n:
        raise MalformedInput(f"no seat {seat!r}: a seat is a whole number from 0 to {hand.n - 1}, or none")
    return seat


def mark(hand: RummyHand) -> None:
    """A state mark after what the hand's events hold now (``apply`` and a new hand take one, so the
    numbering depends only on the moves made; nothing if nothing is new)."""
    marks = hand._marks
    if marks and marks[-1][0] == len(hand.events_log):
        return
    over = hand.phase == "over"
    marks.append((len(hand.events_log), ("state", hand.phase, hand.turn, [] if over else [hand.turn],
                                         [] if over else hand._moves(), list(hand.points))))


def sync(hand: RummyHand) -> int:
    """Bring the stream up to the hand's events and marks; return ``seq`` (moves made by the fast path
    get their mark here, when someone reads)."""
    stream = hand._stream
    if not stream:
        stream.append(START)
    if hand._synced < len(hand.events_log):
        mark(hand)
    actions = hand._synced_actions
    for at in range(hand._marked_to, len(hand._marks)):
        position, state = hand._marks[at]
        for k in range(hand._synced, position):
            if isinstance(hand.events_log[k], tuple):
                stream.append(("log", k, actions))
                actions += 1
            else:
                stream.append(("log", k, -1))
        hand._synced = position
        stream.append(state)
    hand._marked_to, hand._synced_actions = len(hand._marks), actions
    for index, card in hand.stock_draws[len(hand._drawn):]:
        hand._drawn[index] = card
    return len(stream)


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
    out: dict[str, Any] = {"type": "action", **hand.to_action(seat, (code, x, y)).to_json()}
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


_ALL_SEATS = range(-1, 0)  # a marker: every seat reads the entry its own way (the deal)


def _render_entry(hand: RummyHand, k: int, reader: int | None) -> dict[str, Any]:
    entry = hand._stream[k]
    if entry is START:
        out = {"type": "start", **static(hand), "seat": reader,
               "hand": None if reader is None else sorted((str(c) for c in hand.dealt[reader]),
                                                          key=lambda t: Card.parse(t).index),
               "hand_sizes": [len(h) for h in hand.dealt], "stock": len(hand.dealt_stock) - 1,
               "discard": [str(hand.dealt_stock[0])]}
    elif entry[0] == "log":
        event = hand.events_log[entry[1]]
        out = render_action(hand, event, entry[2], reader) if isinstance(event, tuple) else dict(event)
    else:
        _, phase, turn, to_act, moves, points = entry
        legal = [hand.to_action(turn, m).to_json() for m in moves] if reader == turn else []
        out = {"type": "state", "phase": phase, "turn": turn, "to_act": list(to_act), "legal_actions": legal,
               "points": list(points)}
    out["seq"] = k + 1
    return out


def _privates(hand: RummyHand, k: int) -> Any:
    """The seats that read stream entry ``k`` otherwise than a spectator (None: nobody)."""
    entry = hand._stream[k]
    if entry is START:
        return _ALL_SEATS
    if entry[0] == "log":
        event = hand.events_log[entry[1]]
        if isinstance(event, tuple) and (event[4] or entry[2] in hand._drawn):
            return (event[0],)
        return None
    return entry[3] or None  # a state mark: the seat to act sees its legal actions


def events_since(hand: RummyHand, seq: int, seat: int | None) -> list[dict[str, Any]]:
    """Events ``seq + 1`` to ``hand.seq`` as ``seat`` (``None``: a spectator) may learn them (rendered once
    for everyone, once more for a seat that reads an entry otherwise; callers get copies)."""
    reader = check_seat(hand, seat)
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise MalformedInput(f"seq must be a whole number of at least 0, got {seq!r}")
    total = sync(hand)
    public, privates, marked = hand._public, hand._privates, hand._marked
    for k in range(len(public), total):
        public.append(_render_entry(hand, k, None))
        private = _privates(hand, k)
        if private is not None:
            marked.append(k)
            privates.append(private)
    result = [dict(e) for e in public[seq:total]]
    if reader is None:
        return result
    rendered = hand._rendered
    for at in range(bisect_left(marked, seq), len(marked)):
        private = privates[at]
        if private is _ALL_SEATS or reader in private:
            k = marked[at]
            mine = rendered.get((k, reader))
            if mine is None:
                mine = rendered[(k, reader)] = _render_entry(hand, k, reader)
            result[k - seq] = dict(mine)
    return result


def rebuild(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The view a seat's events make, applied in order from the hand's start (pure: events only).

    ``rebuild(hand.events_since(0, s)) == hand.view(s)``.
    """
    view: dict[str, Any] = {}
    hand: set[int] = set()
    melds: list[int] = []
    for ev in events:
        kind = ev["type"]
        if kind == "start":
            view = {key: value for key, value in ev.items() if key not in ("type", "seq", "hand")}
            view.update(hand_sizes=list(ev["hand_sizes"]), discard=list(ev["discard"]), melds=[], flips=0)
            hand = set() if ev["hand"] is None else {Card.parse(c).index for c in ev["hand"]}
            melds = []
        elif kind == "action":
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
                    melds.append(bits)
                    view["melds"].append({"cards": [str(c) for c in meld_cards(bits)], "owner": seat})
                elif act == "layoff":
                    melds[ev["meld"]] |= bits
                    view["melds"][ev["meld"]]["cards"] = [str(c) for c in meld_cards(melds[ev["meld"]])]
                else:
                    view["discard"].append(ev["card"])
        elif kind == "flip":
            view["stock"], view["discard"], view["flips"] = ev["cards"], [], view["flips"] + 1
        elif kind == "show":
            view["shown"] = [list(h) for h in ev["hands"]]
        elif kind == "end":
            view["outcome"] = {key: value for key, value in ev.items() if key not in ("type", "seq")}
        elif kind == "state":
            view.update({key: value for key, value in ev.items() if key not in ("type", "seq")})
        view["seq"] = ev["seq"]
    view["hand"] = None if view.get("seat") is None else [str(CARDS[c]) for c in sorted(hand)]
    return view
