"""The compiled widow, auction and poker round of a random stops hand (``rummoli._speedups.bid_random``) and their
pure-Python twin (``rummoli.stops.random_bidding.bid_random_pure``) draw, move, log and leave the same from every
state random hands of every ruleset reach (the stops fast path plays by them; ``RUMMOLI_PURE=1`` by the twin).
tests/stops/test_stops_outputs.py holds both to what the engine showed before they existed."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from test_stops_plain import Failing

from rummoli.cards import CARDS
from rummoli.stops import BUILTIN_RULESETS, Hand, load_ruleset, random_hand
from rummoli.stops import random_path as path_module
from rummoli.stops.play import board_tables
from rummoli.stops.random_bidding import BID_WORDS, bid_random_pure, bid_table
from rummoli.stops.replay import NAMES

try:
    from rummoli._speedups import bid_random as compiled
except ImportError:
    compiled = None

OPTIONS: list[dict[str, Any]] = [
    # the widow barred to pay-card holders, a double ante, one raise at most, small bets
    {"game": "stops", "name": "barred", "board": "tripoley", "widow_bar": "pay_card_holders", "dealer_ante": "double",
     "max_raises": 1, "max_bet": 2},
    # no raise at all, and stacks so short the auction and the bets run into them (a stack of 0: checks forced)
    {"game": "stops", "name": "short", "board": "copp-clark", "max_raises": 0, "starting_chips": 9},
    {"game": "stops", "name": "short-bets", "board": "copp-clark", "starting_chips": 12, "max_bet": 1000},
    # an auction with no poker round after it, and poker after the play
    {"game": "stops", "name": "no-poker", "board": "copp-clark", "poker": "none"},
    {"game": "stops", "name": "after", "board": "copp-clark", "poker": "after_play"},
]


def _need_compiled() -> Callable[..., int]:
    if compiled is None:  # a failure, never a skip: the suite must check what the fast path plays by
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    return compiled


def test_the_compiled_twin_is_the_one_used_unless_pure_is_asked() -> None:
    assert path_module.bid_random is _need_compiled()
    pure = subprocess.run([sys.executable, "-c", "import rummoli.stops.random_bidding as b; print(b.bid_random is "
                           "b.bid_random_pure)"], env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True,
                          text=True, check=True)
    assert pure.stdout.strip() == "True"


@pytest.mark.parametrize("spec", [*BUILTIN_RULESETS, *OPTIONS], ids=lambda s: s if isinstance(s, str) else s["name"])
def test_both_twins_decide_the_same_from_every_state_reached(spec: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    twin = _need_compiled()
    seen: list[tuple[int, int, str]] = []

    def both(getrandbits: Callable[[int], int], state: list[int], chips: list[int], pots: list[int],
             hands: list[int], owner: list[int], log: list[Any], put: list[int], start_stack: list[int],
             table: tuple[int, ...], words: tuple[Any, ...]) -> int:
        rng: random.Random = getrandbits.__self__  # type: ignore[attr-defined]
        other = random.Random()
        other.setstate(rng.getstate())
        copies = (list(state), list(chips), list(pots), list(hands), list(owner), list(log), list(put),
                  list(start_stack))
        total = sum(chips) + sum(pots)
        start = len(log)
        status = twin(getrandbits, state, chips, pots, hands, owner, log, put, start_stack, table, words)
        assert bid_random_pure(other.getrandbits, *copies, table, words) == status
        assert copies == (state, chips, pots, hands, owner, log, put, start_stack)
        assert other.getstate() == rng.getstate()
        assert sum(chips) + sum(pots) == total  # chips only move
        seen.extend((status, state[0], entry[2]) for entry in log[start:] if entry[0] == "act")
        return status

    monkeypatch.setattr(path_module, "bid_random", both)
    rules = load_ruleset(spec)
    rng = random.Random(34)
    for k in range(300):
        random_hand(rules, max(rules.min_players, 2 + k % 7), rng)
    kinds = {kind for _, _, kind in seen}
    if rules.widow == "none":
        assert not seen
        return
    spare = rules.starting_chips > rules.ante_per_seat()  # chips left after the ante: bids and bets possible
    assert {"keep", "swap", "pass"} <= kinds and ("bid" in kinds) == spare
    if rules.poker == "before_play":
        assert {status for status, _, _ in seen} == {1}
        betting = {"check", "bet", "call", "fold"} | ({"raise"} if rules.max_raises > 0 else set())
        assert kinds & {"check", "bet", "call", "fold", "raise"} == (betting if spare else {"check"})
    else:
        assert {status for status, _, _ in seen} == {0}
        assert not kinds & {"check", "bet", "call", "fold", "raise"}


def test_a_draw_that_fails_leaves_the_hand_as_it_was() -> None:
    twin = _need_compiled()
    rules = load_ruleset("rummoli")
    deck = list(CARDS)
    random.Random(7).shuffle(deck)
    for draws in range(12):  # the first draw fails, then the second, ...: the entries logged before it go too
        for player in (twin, bid_random_pure):
            hand = Hand.from_deck(rules, list(NAMES[:4]), [100] * 4, 2, deck)  # the dealer's widow choice is next
            state = [0, hand.turn, 0, -1, 0, 0, 0, 0, 0, -1, 0]
            lists = (hand.chips, hand.pots, hand.hands, hand.owner, hand.log, [], [])
            before = [list(x) for x in (state, *lists)]
            with pytest.raises(ValueError, match="no more randomness"):
                player(Failing(draws), state, *lists, bid_table(rules, 4, 2, board_tables(rules.board)[2]),
                       BID_WORDS)
            assert [list(x) for x in (state, *lists)] == before, (draws, player)


class Drawing(random.Random):
    """A generator of another class: the random path makes its decisions one by one, the general way, drawing
    through ``choice`` and ``randint`` (which draw through ``getrandbits`` as the fast path's twins do)."""


ANNOUNCE = {"game": "stops", "name": "announce", "board": "copp-clark", "claim": "announce",
            "cannot_lead": "pay_and_pass", "poker": "after_play", "restart": "other_suit",
            "lead": "lowest_in_chosen_suit"}


@pytest.mark.parametrize("spec", [*BUILTIN_RULESETS, *OPTIONS, ANNOUNCE],
                         ids=lambda s: s if isinstance(s, str) else s["name"])
def test_the_fast_path_plays_every_hand_as_one_decision_after_another_does(spec: Any) -> None:
    rules = load_ruleset(spec)
    fast, general = random.Random(2026), Drawing(2026)
    for k in range(200):
        players = max(rules.min_players, 2 + k % 7)
        hands = [random_hand(rules, players, rng, dealer=k % players if k % 3 else None) for rng in (fast, general)]
        a, b = ([h.log, h.chips, h.pots, h.hands, h.owner, h.winner, h.phase, h.showdown, h.poker_winners,
                 h.play_start, h.swapped, h.given_up, h.result()] for h in hands)
        assert a == b, k
        assert fast.getstate() == general.getstate()
