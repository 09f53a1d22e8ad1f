"""Both engines face the network alike (issue 11): per-seat event streams that rebuild each seat's view,
views that carry ``seq`` and refuse a seat that is not one, and no secret in anything a seat receives."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummoli.cards import CARDS, Card, CardError
from rummoli.dealing import deal_with_widow
from rummoli.errors import MalformedInput
from rummoli.rummy import Action as RummyAction
from rummoli.rummy import RummyHand, builtin_names, deal_cards
from rummoli.rummy import load_ruleset as load_rummy
from rummoli.rummy.views import rebuild as rebuild_rummy
from rummoli.stops import BUILTIN_RULESETS, Action, AmountRange, Hand
from rummoli.stops.views import rebuild as rebuild_stops

RUMMY = builtin_names()
EVERY_RULESET = [*BUILTIN_RULESETS, *RUMMY]
#: keys whose text names a pot or a board (a pot's id may read like a card: ``Ts``), not a card
NOT_CARDS = frozenset({"id", "name", "ruleset", "board", "from", "to", "reason", "type", "action"})


def players_for(ruleset: str, rng: random.Random) -> int:
    if ruleset in RUMMY:
        rules = load_rummy(ruleset)
        return rng.choice([p for p in range(2, 7) if _seats(rules, p)])
    return rng.randint(3, 8)


def _seats(rules: Any, players: int) -> bool:
    try:
        rules.hand_size_for(players)
    except (MalformedInput, ValueError):
        return False
    return True


def deal(ruleset: str, players: int, rng: random.Random, swap: tuple[int, int] | None = None) -> Any:
    """A hand of ``ruleset`` dealt from ``rng`` (with the cards at deck positions ``swap`` exchanged)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    if swap is not None:
        i, j = swap
        deck[i], deck[j] = deck[j], deck[i]
    names = [f"P{s}" for s in range(players)]
    if ruleset in RUMMY:
        rules = load_rummy(ruleset)
        hands, stock = deal_cards(rules, players, 0, deck)
        return RummyHand(rules, names, [0] * players, 0, hands, stock)
    hands, widow = deal_with_widow(deck, players, 0)
    return Hand(ruleset, names, [100] * players, {}, 0, hands, widow)


def random_action(hand: Any, rng: random.Random) -> Any:
    """Through the public path only: a seat to act, one of its legal actions, an amount in a range."""
    seat = rng.choice(hand.to_act())
    option = rng.choice(hand.legal_actions(seat))
    return option.at(rng.randint(option.min, option.max)) if isinstance(option, AmountRange) else option


def cards_in(node: Any, key: str | None = None) -> set[str]:
    """Every card named anywhere in a JSON value (pot ids and board names left out)."""
    found: set[str] = set()
    _collect_cards(node, found)
    return found


#: each string met so far and the card it names (None: none); the walk reads the same few hundred strings
#: millions of times, and parsing each again was most of this file's time
_CARD_OF: dict[str, str | None] = {}


#: a string literal in JSON text (a card's name never holds a quote or a backslash)
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def named_among(node: Any, cards: set[str]) -> set[str]:
    """The cards of ``cards`` that ``node`` names, as :func:`cards_in` finds them.  Fast first: every string of
    the node's JSON text (keys too, so a superset of what the walk reads) is looked up at C speed, and only when
    one of them names a card of ``cards`` does the exact walk decide."""
    if not cards:
        return set()
    named = {_card_of(text) for text in set(_STRING.findall(json.dumps(node, ensure_ascii=False)))}
    return cards_in(node) & cards if named & cards else set()


def _card_of(text: str) -> str | None:
    try:
        return _CARD_OF[text]
    except KeyError:
        pass
    try:
        card: str | None = str(Card.parse(text))
    except (CardError, MalformedInput, ValueError):
        card = None
    if len(_CARD_OF) < 100_000:
        _CARD_OF[text] = card
    return card


def _collect_cards(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in NOT_CARDS:
                _collect_cards(v, found)
    elif isinstance(node, list):
        for v in node:
            _collect_cards(v, found)
    elif isinstance(node, str):
        card = _card_of(node)
        if card is not None:
            found.add(card)


def named_in_record(hand: Any) -> set[str]:
    """Rummy: every card the hand's full record names so far, and the first upcard: the cards that are public.
    Read once a step for every seat (the record is the whole hand's: reading it for each seat was a fifth of this
    module's time)."""
    if isinstance(hand, Hand):
        return set()
    public: set[str] = {str(hand.dealt_stock[0])}
    for e in hand.events():
        public |= cards_in(e)
    return public


def secret_from(hand: Any, seat: int | None, public: set[str]) -> set[str]:
    """Cards ``seat`` may not have seen now: in another hand, the widow or the stock, never shown (``public``: the
    Rummy cards :func:`named_in_record` names)."""
    if isinstance(hand, Hand):
        hidden = hand.widow()
        for s, m in enumerate(hand.hands):
            if s != seat:
                hidden |= m
        shown = {c for cards in hand.view(None)["showdown"].values() for c in cards}
        if seat is not None and seat == hand.swapped:
            hidden &= ~hand.given_up
        return {str(c) for c in CARDS if hidden >> c.index & 1} - shown
    if hand.over:
        return set()  # the hands are shown at the end
    mine = set(cards_in(hand.view(seat).get("hand", []))) if seat is not None else set()
    hidden = set()
    for s, m in enumerate(hand.hands):
        if s != seat:
            hidden |= {str(c) for c in CARDS if m >> c.index & 1}
    hidden |= {str(CARDS[i]) for i in hand.stock}
    return hidden - public - mine


#: the lists of a history view that only grow as the hand goes on
GROWING = ("events", "history", "actions")


def assert_no_secret_in_history_view(view: dict[str, Any], secret: set[str], scanned: dict[str, list[Any]]) -> None:
    """The whole history view names no card of ``secret``. Its lists that only grow are read from where the last
    read stopped (``scanned`` keeps, as copies, what was read), once the part read before is shown unchanged: a card
    secret now was secret at every earlier read too (a card a seat has seen never becomes unseen), so what passed
    then passes now. Scanning the whole view at every read made this test quadratic in the hand's length."""
    rest = dict(view)
    for key in GROWING:
        items = rest.pop(key, None)
        if items is None:
            continue
        before = scanned.setdefault(key, [])
        assert items[:len(before)] == before, f"the history view's {key} changed what it had shown"
        fresh = items[len(before):]
        assert not named_among(fresh, secret), named_among(fresh, secret)
        before.extend(json.loads(json.dumps(fresh)))
    assert not named_among(rest, secret), named_among(rest, secret)


def check_seat_stream(hand: Any, seat: int | None, kept: list[dict[str, Any]],
                      received: list[dict[str, Any]], scanned: dict[str, list[Any]], public: set[str]) -> None:
    """The seat's events since what it was sent (``kept``) extend it; all of them rebuild its view.
    ``received`` is ``kept`` as a client has it, through JSON (each event sent once, as a server does);
    ``scanned``: what :func:`assert_no_secret_in_history_view` has read of the seat's history view; ``public``:
    :func:`named_in_record`."""
    new = hand.events_since(kept[-1]["seq"] if kept else 0, seat)
    kept.extend(new)
    received.extend(json.loads(json.dumps(new)))
    assert [e["seq"] for e in kept] == list(range(1, hand.seq + 1))
    assert kept == hand.events_since(0, seat)
    rebuild = rebuild_rummy if isinstance(hand, RummyHand) else rebuild_stops
    view = hand.view(seat)
    assert view["seq"] == hand.seq
    assert rebuild(received) == json.loads(json.dumps(view))
    secret = secret_from(hand, seat, public)
    assert not named_among(new, secret), (seat, named_among(new, secret))
    assert_no_secret_in_history_view(hand.view(seat, history=True), secret, scanned)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(EVERY_RULESET), seed=st.integers(0, 2**32), every=st.integers(1, 4))
def test_each_seats_events_rebuild_its_view_and_hold_no_secret(ruleset: str, seed: int, every: int) -> None:
    """Each seat (and a spectator) reads its events every ``every`` actions; at every read, its events
    applied in order from the hand's start rebuild its view exactly, and hold no card it may not see."""
    rng = random.Random(seed)
    players = players_for(ruleset, rng)
    hand = deal(ruleset, players, rng)
    kept: dict[int | None, list[dict[str, Any]]] = {s: [] for s in [None, *range(players)]}
    received: dict[int | None, list[dict[str, Any]]] = {s: [] for s in kept}
    scanned: dict[int | None, dict[str, list[Any]]] = {s: {} for s in kept}
    steps = 0
    while True:
        if steps % every == 0 or hand.over:
            public = named_in_record(hand)
            for seat in kept:
                check_seat_stream(hand, seat, kept[seat], received[seat], scanned[seat], public)
        if hand.over:
            break
        hand.apply(random_action(hand, rng))
        steps += 1
        assert steps < 2000


def unforced(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "forced"} for e in events]


@pytest.mark.parametrize("ruleset", EVERY_RULESET)
def test_R_VIEW_1_deals_alike_for_seat_0_give_seat_0_the_same_views(ruleset: str) -> None:
    """Two deals that differ only in cards seat 0 never sees, played alike (the same public record,
    forced marks aside), give seat 0 identical views and events at every step: nothing it receives
    depends on another seat's hidden cards (500 Rum marked a stock draw forced when the drawer could
    use no discard)."""
    compared = 0
    for seed in range(15):
        rng = random.Random(seed)
        players = players_for(ruleset, rng)
        state = rng.getstate()
        a = deal(ruleset, players, rng)
        play = random.Random(seed + 1000)
        while not a.over and len(a.history()) < 120:
            a.apply(random_action(a, play))
        # Every action of the hand, forced ones too: a move forced in one deal may be chosen in the other.
        read = RummyAction.from_json if ruleset in RUMMY else Action.from_json
        actions = [read({k: v for k, v in e.items() if k not in ("type", "forced")}) for e in a.history()]
        # Exchange two cards that seat 0 was not dealt (between other hands, the widow or the stock).
        for _ in range(5):
            i, j = rng.sample(range(52), 2)
            rng.setstate(state)
            first = deal(ruleset, players, rng)
            rng.setstate(state)
            second = deal(ruleset, players, rng, swap=(i, j))
            if first.dealt[0] != second.dealt[0]:
                continue
            for done, action in enumerate(actions):
                behind = [hand for hand in (first, second) if len(hand.history()) == done]
                if not all(hand.can(action) for hand in behind):
                    break  # the deals play differently from here
                for hand in behind:
                    hand.apply(action)
                if len(first.history()) != len(second.history()):
                    continue  # one deal made moves at once that the other waits for
                if (first.over or second.over or unforced(first.events()) != unforced(second.events())
                        or first.hands[0] != second.hands[0]):
                    break  # the hands differ in public or to seat 0 now (or show everything at the end)
                assert first.view(0, history=True) == second.view(0, history=True), (seed, action)
                assert first.events_since(0, 0) == second.events_since(0, 0)
                assert first.view(None, history=True) == second.view(None, history=True)
                compared += 1
    assert compared > 20, compared


@pytest.mark.parametrize("ruleset", ["rummoli", "500-rum"])
@pytest.mark.parametrize("seat", [-1, True, False, 1.0, "1", 9, [0]])
def test_a_seat_that_is_not_an_int_in_range_is_refused(ruleset: str, seat: Any) -> None:
    hand = deal(ruleset, 2 if ruleset == "500-rum" else 4, random.Random(1))
    for ask in (lambda: hand.view(seat), lambda: hand.events_since(0, seat), lambda: hand.legal_actions(seat)):
        with pytest.raises(MalformedInput):
            ask()


@pytest.mark.parametrize("ruleset", ["rummoli", "gin-rummy"])
def test_seq_counts_events_and_a_bad_seq_is_refused(ruleset: str) -> None:
    hand = deal(ruleset, 2 if ruleset == "gin-rummy" else 4, random.Random(2))
    events = hand.events_since(0, None)
    assert hand.seq == len(events) >= 1 and events[0]["type"] == "start"
    assert "state" in events[-1]  # the state now rides on the last event (the start, when nothing is logged)
    assert hand.events_since(hand.seq, 0) == []
    for bad in (-1, True, 1.5, "3", None):
        with pytest.raises(MalformedInput):
            hand.events_since(bad, 0)


SHARED_KEYS = {"seq", "ruleset", "players", "dealer", "seat", "phase", "to_act", "legal_actions", "chips", "hand",
               "hand_sizes"}


@pytest.mark.parametrize("ruleset", ["rummoli", "michigan", "rummy", "gin-rummy"])
def test_both_engines_keep_one_protocol(ruleset: str) -> None:
    hand = deal(ruleset, 2 if ruleset == "gin-rummy" else 3, random.Random(4))
    for seat in (None, 0, 1):
        view = hand.view(seat)
        assert set(view) >= SHARED_KEYS
        assert (view["hand"] is None) == (seat is None)
        assert view["to_act"] == hand.to_act() and view["seq"] == hand.seq
        assert view["legal_actions"] == ([a.to_json() for a in hand.legal_actions(seat)] if seat is not None else [])
    assert hand.history() == [] or all("action" in a and "seat" in a for a in hand.history())
    assert isinstance(hand.events(), list)


def test_a_custom_rummy_ruleset_is_named_as_loaded_and_its_bots_use_it() -> None:
    from rummoli.bots import make_bot
    from rummoli.bots.driver import view_for
    from rummoli.bots.rummy_view import read_view

    custom = {"game": "rummy", "name": "house", "style": "500", "hand_size": {"2": 9}, "discard_depth": True}
    rules = load_rummy(custom)
    deck = list(CARDS)
    random.Random(3).shuffle(deck)
    hands, stock = deal_cards(rules, 2, 0, deck)
    hand = RummyHand(rules, ["A", "B"], [0, 0], 0, hands, stock)
    view = view_for(hand, hand.turn)
    assert isinstance(view["ruleset"], dict) and load_rummy(view["ruleset"]) == rules
    assert read_view(view).rules == rules  # not the defaults of a style under an unknown name
    assert make_bot("rummy", "hard", seed=1, samples=4).choose(view) in view["legal_actions"]
    assert view_for(RummyHand("gin-rummy", ["A", "B"], [0, 0], 0, *deal_cards(load_rummy("gin-rummy"), 2, 0,
                                                                                deck)), 1)["ruleset"] == "gin-rummy"
