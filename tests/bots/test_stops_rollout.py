"""A hard bot's rollout before the play round in one call (``rummoli.bots.stops_rollout``): the compiled
``bid_policy``, its pure twin ``bid_policy_pure`` and the step-by-step rules of thumb
(:func:`~rummoli.bots.stops_search.policy_step`, :func:`~rummoli.bots.stops_search.wild_bet`) leave every hand in
the same state, log included, and draw the same numbers, from states all through hands of every built-in ruleset
and of rulesets with the options no built-in uses."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from rummoli.bots import stops_rollout
from rummoli.bots.stops_policy import table_for
from rummoli.bots.stops_rollout import bid_policy_pure, rollout_bidding
from rummoli.bots.stops_search import policy_step, wild_bet
from rummoli.cards import CARDS
from rummoli.dealing import deal_with_widow
from rummoli.errors import IllegalAction
from rummoli.stops import BUILTIN_RULESETS, Hand, load_ruleset
from rummoli.stops.base import AUCTION, BETTING, WIDOW
from rummoli.stops.replay import NAMES

try:
    from rummoli._speedups import bid_policy as compiled
except ImportError:
    compiled = None

BIDDING = (WIDOW, AUCTION, BETTING)
OPTIONS: list[dict[str, Any]] = [
    # the widow barred to pay-card holders, a double ante, one raise at most, small bets
    {"game": "stops", "name": "barred", "board": "tripoley", "widow_bar": "pay_card_holders", "dealer_ante": "double",
     "max_raises": 1, "max_bet": 2},
    # no raise at all, short stacks, and bets as large as the stacks
    {"game": "stops", "name": "short", "board": "copp-clark", "max_raises": 0, "starting_chips": 9},
    {"game": "stops", "name": "short-bets", "board": "copp-clark", "starting_chips": 12, "max_bet": 1000},
    # many raises: strong hands raise each other to the cap
    {"game": "stops", "name": "raises", "board": "copp-clark", "max_raises": 1000, "max_bet": 3},
    {"game": "stops", "name": "no-poker", "board": "copp-clark", "poker": "none"},
]
RULESETS: list[str | dict[str, Any]] = [*BUILTIN_RULESETS, *OPTIONS]


def _need_compiled() -> Callable[..., int]:
    if compiled is None:  # a failure, never a skip: the suite must check what the hard bot plays by
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    return compiled


def _states(spec: str | dict[str, Any], count: int) -> list[Hand]:
    """Hands stopped at a decision before the play round, reached by random legal steps from seeded deals
    with uneven stacks (some seats cannot bid or bet what others can)."""
    rules = load_ruleset(spec)
    out: list[Hand] = []
    for k in range(count):
        rng = random.Random(f"rollout-{k}")
        players = max(rules.min_players, 2 + k % 7)
        deck = list(CARDS)
        rng.shuffle(deck)
        dealer = rng.randrange(players)
        hands, widow = deal_with_widow(deck, players, dealer)
        chips = [rng.choice((100, 100, 40, 12, rules.starting_chips)) for _ in range(players)]
        try:
            hand = Hand(rules, NAMES[:players], chips, {}, dealer, hands, widow)
        except IllegalAction:
            continue  # a stack below the ante (R-ANTE-1)
        for _ in range(rng.randrange(6)):
            if hand.phase not in BIDDING:
                break
            hand.random_step(rng)
        if hand.phase in BIDDING:
            hand.auto = False  # as a rollout steps: forced actions made by the caller
            out.append(hand)
    return out


def _stepwise(hand: Hand, spec: str | dict[str, Any], wild: int, rng: random.Random | None, doubted: int) -> None:
    """The rollout's decisions one engine step at a time, as :func:`~rummoli.bots.stops_search.playout` made them
    before they were made in one call."""
    t = table_for(hand.rules)
    doubted |= wild
    while hand.phase in BIDDING:
        opt = hand.forced_option()
        if opt is not None:
            hand.step(opt[0], opt[1], -1, opt[2], True)
        elif wild and hand.phase == BETTING and wild >> hand.turn & 1 and rng is not None:
            wild_bet(hand, rng)
        else:
            policy_step(hand, t, doubted)


def _state(hand: Hand) -> list[Any]:
    return [hand.log, hand.chips, hand.pots, hand.hands, hand.owner, hand.phase, hand.turn, hand.lead_mask,
            hand.poker_winners, hand.showdown, hand.play_start, hand.swapped, hand.given_up, hand.folded]


def test_the_compiled_twin_plays_unless_pure_is_asked() -> None:
    assert stops_rollout.bid_policy is _need_compiled()
    # In a fresh process under RUMMOLI_PURE=1 the rollouts play by the twin (read once, at import).
    check = "import rummoli.bots.stops_rollout as r; assert r.bid_policy is r.bid_policy_pure"
    done = subprocess.run([sys.executable, "-c", check], env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("spec", RULESETS, ids=lambda s: s if isinstance(s, str) else s["name"])
def test_one_call_leaves_the_hand_as_the_steps_do(spec: str | dict[str, Any]) -> None:
    states = _states(spec, 160)
    rules = load_ruleset(spec)
    if rules.widow == "none" and rules.poker != "before_play":  # Michigan: nothing is decided before the play
        assert not states
        return
    assert len(states) > 60
    kinds: set[str] = set()
    for k, start in enumerate(states):
        wild, doubted = (0, 0b101, 0b10, 0)[k % 4], (0, 0, 0b1, 0b110)[k % 4]
        one, steps = start.clone(), start.clone()
        rng_one, rng_steps = random.Random(k), random.Random(k)
        before = len(one.log)
        rollout_bidding(one, table_for(one.rules), wild, rng_one, doubted)
        _stepwise(steps, spec, wild, rng_steps, doubted)
        assert _state(one) == _state(steps), k
        assert rng_one.getstate() == rng_steps.getstate(), k
        assert sum(one.chips) + sum(one.pots) == sum(start.chips) + sum(start.pots)
        kinds.update(entry[2] for entry in one.log[before:] if entry[0] == "act")
    if rules.poker == "before_play":  # the poker round's choices were all made somewhere
        assert {"check", "bet", "call", "fold"} <= kinds
        if rules.max_raises:
            assert "raise" in kinds


@pytest.mark.parametrize("spec", RULESETS, ids=lambda s: s if isinstance(s, str) else s["name"])
def test_both_twins_decide_the_same(spec: str | dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    twin = _need_compiled()
    calls = [0]

    def both(getrandbits: Callable[[int], int] | None, policy: tuple[Any, ...], *lists_and_table: Any) -> int:
        *lists, table, words = lists_and_table
        copies = [list(x) for x in lists]
        other = None
        if getrandbits is not None:
            rng: random.Random = getrandbits.__self__  # type: ignore[attr-defined]
            other = random.Random()
            other.setstate(rng.getstate())
        status = twin(getrandbits, policy, *lists, table, words)
        pure = bid_policy_pure(None if other is None else other.getrandbits, policy, *copies, table, words)
        assert pure == status
        assert copies == lists
        if other is not None:
            assert other.getstate() == rng.getstate()
        calls[0] += 1
        return status

    monkeypatch.setattr(stops_rollout, "bid_policy", both)
    states = _states(spec, 120)
    for k, start in enumerate(states):
        rollout_bidding(start, table_for(start.rules), (0, 0b11, 0b100)[k % 3], random.Random(k), k % 2)
    assert calls[0] == len(states) and (calls[0] > 40 or load_ruleset(spec).widow == "none")


def test_a_failing_question_leaves_the_lists_as_they_were() -> None:
    twin = _need_compiled()
    start = next(h for h in _states("rummoli", 40) if h.phase == BETTING)

    def broken(mask: int) -> float:
        raise RuntimeError("no percentile")

    for player in (twin, bid_policy_pure):
        hand = start.clone()
        before = _state(hand)
        with pytest.raises(RuntimeError, match="no percentile"):
            hand.bid_with(lambda *args: player(None, (broken, lambda m: False, 0, 0), *args))  # noqa: B023
        assert _state(hand) == before, player
