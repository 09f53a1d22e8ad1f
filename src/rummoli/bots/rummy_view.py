"""What a Rummy bot can work out from its seat's view, and nothing more (docs/ARCHITECTURE.md, the bot contract).

:func:`read_view` replays the view's public history against the public facts it names (the discard
pile, the melds, the hand sizes, the cards this seat drew blind) and returns a :class:`Known`: the
seat's own hand, the cards each opponent is known to hold (taken from the discard pile, or drawn from a
turned-over stock whose order everyone saw), what each opponent ever collected from the pile, and the
**unseen** cards, those that may be in another hand or in the stock.  The search bot samples its worlds
from exactly this.

Should a view not name the turned-up card (``turned_up``) nor the cards drawn from the pile, the
reading still works: the card stays unknown (a token ``UNKNOWN``) until it shows up again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rummoli.cards import FULL_DECK, Card
from rummoli.errors import MalformedInput
from rummoli.rummy.melds import MeldTable, meld_table
from rummoli.rummy.ruleset import Ruleset, load_ruleset

UNKNOWN = -2
#: Tests set it: a disagreement between the history a bot replays and its view is then an error (a bot at a
#: table trusts the view and goes on).
STRICT = False


def card_index(text: str) -> int:
    return Card.parse(text).index


def mask_of_names(names: list[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << card_index(name)
    return mask


def ruleset_of(ref: object) -> Ruleset:
    """The view's ruleset: a built-in by name, or the whole ruleset inline (a user's own), exactly as
    the hand loaded it."""
    key = ref if isinstance(ref, str) else json.dumps(ref, sort_keys=True)
    return _ruleset(key, isinstance(ref, str))


@cache
def _ruleset(key: str, by_name: bool) -> Ruleset:
    return load_ruleset(key if by_name else json.loads(key))


@cache
def partners(aces: str, ace_value: int) -> tuple[tuple[int, ...], ...]:
    """``third[a][b]``: the cards that make ``{a, b}`` a three-card meld (0 when none does)."""
    table = meld_table(aces, ace_value)
    third = [[0] * 52 for _ in range(52)]
    for meld in table.melds:
        if meld.bit_count() != 3:
            continue
        bits = [i for i in range(52) if meld >> i & 1]
        for a in bits:
            for b in bits:
                if a != b:
                    third[a][b] |= meld & ~((1 << a) | (1 << b))
    return tuple(tuple(row) for row in third)


@dataclass
class Known:
    """The public and private facts of one seat's view, as masks and lists of card indexes."""

    rules: Ruleset
    table: MeldTable
    me: int
    n: int
    hand: int
    phase: str
    turn: int
    dealer: int
    scores: list[int]
    sizes: list[int]
    stock: int
    flips: int
    pile: list[int]  # bottom first
    melds: list[int]
    owners: list[int]
    points: list[int]
    legal: list[dict[str, Any]]
    players: list[str]
    held: list[int] = field(default_factory=list)  # cards known to be in each hand (own hand for me)
    collected: list[int] = field(default_factory=list)  # cards each seat ever took from the pile
    discarded: list[int] = field(default_factory=list)  # cards each seat discarded
    has_laid: list[bool] = field(default_factory=list)
    laid_before: bool = False
    taken: int = -1  # card just taken from the pile this turn
    must: int = 0  # 500 Rum: the deepest card taken, until it reaches the table
    post: list[int] | None = None  # a turned-over stock, top at the end (UNKNOWN for an unseen card)
    turns: list[int] = field(default_factory=list)  # draws each seat has made
    # for rebuilding a deal consistent with the view (the search bot's worlds):
    hidden_played: list[list[int]] = field(default_factory=list)  # cards each seat laid or threw, in order,
    #   that it had not been seen to take (so they were dealt to it or drawn blind)
    blind_draws: list[tuple[int, int]] = field(default_factory=list)  # (seat, card or UNKNOWN): draws from
    #   the stock as first dealt, in order
    actions: list[dict[str, Any]] = field(default_factory=list)  # the history's actions as R-NOTE-3 objects
    turned_up: int = UNKNOWN
    held_tracked: list[int] = field(default_factory=list)  # as ``held``, but for me only what I took seen
    #: Gin discards ranked for a hand and its options (rummy_policy.gin_discards_ranked), kept for the decision:
    #: a hard bot ranks the same discards up to three times, and ranking is most of its time
    gin_ranked: dict[tuple[int, tuple[int, ...]], list[tuple[float, int]]] = field(default_factory=dict)
    ruleset_ref: Any = None  # the view's ruleset as named: a built-in's name or the whole ruleset inline
    #: ``actions`` read as the engine's actions, once for all the worlds of a decision (rummy_search.sample_world);
    #: None until then, and an empty tuple if one of them does not read (each world's replay then says which)
    read_actions: tuple[Any, ...] | None = None

    @property
    def melding(self) -> bool:
        """Whether melds and lay-offs are made in play (straight Rummy and 500 Rum)."""
        return self.rules.style in ("straight", "500")

    @property
    def table_mask(self) -> int:
        out = 0
        for meld in self.melds:
            out |= meld
        return out

    @property
    def pile_mask(self) -> int:
        out = 0
        for index in self.pile:
            out |= 1 << index
        return out

    @property
    def unseen(self) -> int:
        """Cards that may be in another hand's unknown part or in the stock."""
        known = self.hand | self.table_mask | self.pile_mask
        for seat, cards in enumerate(self.held):
            if seat != self.me:
                known |= cards
        if self.post is not None:
            for index in self.post:
                if index >= 0:
                    known |= 1 << index
        return FULL_DECK & ~known

    def unknown_slots(self, seat: int) -> int:
        return self.sizes[seat] - self.held[seat].bit_count()

    @property
    def next_seat(self) -> int:
        return (self.me + 1) % self.n

    def value(self, mask: int) -> int:
        return self.table.card_value(mask)


def read_view(view: Mapping[str, Any]) -> Known:
    """Everything the seat's view tells, worked out once per decision."""
    rules = ruleset_of(view["ruleset"])
    table = meld_table(rules.aces, rules.ace_value)
    me = int(view["seat"])
    n = len(view["hand_sizes"])
    legal = [dict(a) for a in (view.get("legal_actions") or view.get("legal") or [])]
    k = Known(
        rules=rules,
        table=table,
        me=me,
        n=n,
        hand=mask_of_names(view.get("hand", [])),
        phase=str(view["phase"]),
        turn=int(view["turn"]) if view.get("turn") is not None else me,
        dealer=int(view.get("dealer", 0)),
        scores=[int(s) for s in view.get("chips", [0] * n)],
        sizes=[int(s) for s in view["hand_sizes"]],
        stock=int(view["stock"]),
        flips=int(view.get("flips", 0)),
        pile=[card_index(c) for c in view["discard"]],
        melds=[mask_of_names(m["cards"]) for m in view["melds"]],
        owners=[int(m.get("owner", -1)) for m in view["melds"]],
        points=[int(p) for p in view.get("points", [0] * n)],
        legal=legal,
        players=list(view.get("players", [f"P{i}" for i in range(n)])),
        ruleset_ref=view["ruleset"],
    )
    _replay_history(k, view)
    return k


def _replay_history(k: Known, view: Mapping[str, Any]) -> None:
    n, me, rules = k.n, k.me, k.rules
    drawn = {int(i): card_index(c) for i, c in view.get("drawn", [])}
    try:
        size = rules.hand_size_for(n)
    except MalformedInput:
        size = (52 - k.stock) // n
    stock = 52 - n * size - 1
    turned = view.get("turned_up")
    pile: list[int] = [card_index(str(turned)) if turned else UNKNOWN]
    post: list[int] | None = None
    flips = 0
    held = [0] * n
    collected = [0] * n
    discarded = [0] * n
    has_laid = [False] * n
    turns = [0] * n
    turn_start_laid = False
    taken, must = -1, 0
    history = view.get("history", [])
    hidden_played: list[list[int]] = [[] for _ in range(n)]
    blind: list[tuple[int, int]] = []
    actions: list[dict[str, Any]] = []

    def stock_draw(seat: int, index: int) -> None:
        nonlocal stock
        card = drawn.get(index, UNKNOWN) if seat == me else UNKNOWN
        if post is not None:
            top = post.pop() if post else UNKNOWN
            if card == UNKNOWN:
                card = top
        else:
            blind.append((seat, card))
        stock -= 1
        if card >= 0:
            held[seat] |= 1 << card

    def play(seat: int, cards: int) -> None:
        for card in range(52):
            if cards >> card & 1:
                if held[seat] >> card & 1:
                    held[seat] &= ~(1 << card)
                else:
                    hidden_played[seat].append(card)

    index = -1
    for entry in history:
        if entry.get("type", "action") != "action" or "seat" not in entry:
            continue  # flips, scores: this replay makes its own
        index += 1  # the action's index in the hand's log (what ``drawn`` refers to)
        seat, kind = int(entry["seat"]), entry["action"]
        actions.append({key: value for key, value in entry.items() if key not in ("type", "forced")})
        if kind == "draw":
            turns[seat] += 1
            if seat == me:
                turn_start_laid = has_laid[me]
                taken, must = -1, 0
            if entry["from"] == "stock":
                stock_draw(seat, index)
            else:
                if "card" in entry:
                    x = card_index(entry["card"])
                    if x not in pile and UNKNOWN in pile:  # the upcard, named at last
                        pile[pile.index(UNKNOWN)] = x
                    depth = pile.index(x) if x in pile else len(pile) - 1
                else:
                    depth = len(pile) - 1
                x = pile[depth]
                for card in pile[depth:]:
                    if card >= 0:
                        held[seat] |= 1 << card
                        collected[seat] |= 1 << card
                del pile[depth:]
                if seat == me:
                    taken = x
                    if rules.style == "500" and x >= 0:
                        must = 1 << x
                if rules.boathouse and stock > 0:
                    stock_draw(seat, index)
        elif kind in ("meld", "layoff"):
            cards = mask_of_names(entry["cards"]) if kind == "meld" else 1 << card_index(entry["card"])
            play(seat, cards)
            has_laid[seat] = True
            if must & cards:
                must = 0
        elif kind in ("discard", "knock"):
            card = card_index(entry["card"])
            play(seat, 1 << card)
            discarded[seat] |= 1 << card
            pile.append(card)
            if stock == 0 and rules.stock_end != "block" and flips == 0 and pile:
                flips = 1
                # turned over in plain sight, unless shuffled first (R-RU-SHUFFLE): then no order is known
                post = pile[::-1] if rules.stock_end == "flip_once" else [UNKNOWN] * len(pile)
                stock = len(post)
                pile = []
    if len(pile) == len(k.pile):  # the view names every card still in the pile: the upcard too
        pile = list(k.pile)
    else:  # the history and the view disagree (a newer engine?): trust the view
        if STRICT:
            raise AssertionError(f"history pile {pile} != view pile {k.pile}")
        pile = list(k.pile)
        post = None
    if post is not None and (len(post) != k.stock or flips != k.flips):
        post = None
    k.hidden_played, k.blind_draws, k.actions = hidden_played, blind, actions
    k.turned_up = card_index(str(turned)) if turned else UNKNOWN
    k.held_tracked = list(held)
    held[me] = k.hand
    k.held, k.collected, k.discarded, k.has_laid, k.turns = held, collected, discarded, has_laid, turns
    k.post = post
    k.pile = pile
    if k.phase == "play" and k.turn == me:
        k.laid_before = turn_start_laid
        k.taken = taken if taken >= 0 and k.hand >> taken & 1 else -1
        if taken == UNKNOWN:  # the upcard: the one card in hand the legal discards leave out
            offered = 0
            for action in k.legal:
                if action.get("action") == "discard":
                    offered |= 1 << card_index(str(action["card"]))
            missing = k.hand & ~offered
            if offered and missing.bit_count() == 1:
                k.taken = missing.bit_length() - 1
        k.must = must if must & k.hand else 0
    else:
        k.laid_before = has_laid[me]
    # every card known to be held must still be unseen by the rest of the view
    public = k.table_mask | k.pile_mask | k.hand
    for seat in range(n):
        if seat != me:
            held[seat] &= ~public
