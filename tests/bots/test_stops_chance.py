"""The normal bot's two Monte-Carlo loops (rummoli.bots.stops_chance) and their compiled twins give the same
answers to the last bit, draw the same random numbers and remember the same likelihoods (issue 34); the pure
widow loop is the old one (hand_worth over drawn widows) in fewer steps."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from test_stops_bots import deal

from rummoli.bots import stops_bots
from rummoli.bots.driver import play_out
from rummoli.bots.stops_bots import NormalStopsBot, draw, hand_worth, worth_plan
from rummoli.bots.stops_chance import poker_chance_pure, widow_worth_pure
from rummoli.bots.stops_infer import read_view
from rummoli.stops import BUILTIN_RULESETS

try:
    from rummoli._speedups import poker_chance as compiled_chance
    from rummoli._speedups import widow_worth as compiled_worth
except ImportError:
    compiled_chance = compiled_worth = None


def _need_compiled() -> tuple[Callable[..., Any], Callable[..., Any]]:
    if compiled_chance is None or compiled_worth is None:  # a failure, never a skip
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    return compiled_chance, compiled_worth


def _twin_rng(random_: Callable[[], float]) -> random.Random:
    twin = random.Random()
    twin.setstate(random_.__self__.getstate())  # type: ignore[attr-defined]
    return twin


def test_the_compiled_twins_are_the_ones_used_unless_pure_is_asked() -> None:
    chance, worth = _need_compiled()
    assert stops_bots.poker_chance is chance and stops_bots.widow_worth is worth
    pure = subprocess.run([sys.executable, "-c", "import rummoli.bots.stops_bots as b, rummoli.bots.stops_chance as c; "
                           "print(b.poker_chance is c.poker_chance_pure and b.widow_worth is c.widow_worth_pure)"],
                          env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True, text=True, check=True)
    assert pure.stdout.strip() == "True"


def _strong(value: int, size: int, others: int) -> float:
    return ((value * 2654435761 + size * 97 + others) % 1000 + 1) / 1001


@pytest.mark.parametrize("seed", range(40))
def test_both_win_chance_loops_agree_on_random_tables(seed: int) -> None:
    chance, _ = _need_compiled()
    rng = random.Random(seed)
    unseen = rng.sample(range(52), rng.randint(10, 45))
    hands = rng.randint(1, 5)
    sizes = [rng.randint(0, len(unseen) // hands) for _ in range(hands)]
    plan = [(x, rng.choice((0, 0, 1, 2, 3)), rng.random(), rng.random() / 2, {})
            for x in rng.sample(range(hands), hands)]
    plan.sort(key=lambda p: not p[1])
    thresholds = tuple(rng.random() for _ in range(rng.randint(0, 3)))
    mine = rng.choice([-1, 0, 1 << 20, 5 << 20, 9 << 20])
    args = (_strong, 3, mine, rng.choice((1, 8, 80, 300)), thresholds, rng.randint(0, 10), rng.randint(1, 5),
            rng.choice((0.5, 2.5, 4.0)))
    a, b = random.Random(seed), random.Random(seed)
    pure_plan = [(x, agg, cred, doubt, dict(known)) for x, agg, cred, doubt, known in plan]
    got = chance(a.random, unseen, sizes, plan, *args)
    want = poker_chance_pure(b.random, unseen, sizes, pure_plan, *args)
    assert got == want
    assert a.getstate() == b.getstate()
    assert [p[4] for p in plan] == [p[4] for p in pure_plan]


def _checking(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every call of the bots' loops made with both twins, from generators in the same state: same answers."""
    chance, worth = _need_compiled()
    calls = [0, 0]

    def both_chance(random_: Callable[[], float], unseen: list[int], sizes: list[int], plan: list[Any],
                    *rest: Any) -> Any:
        twin = _twin_rng(random_)
        copies = {id(p[4]): dict(p[4]) for p in plan}  # players of one size share a dict: so do the copies
        twin_plan = [(x, agg, cred, doubt, copies[id(known)]) for x, agg, cred, doubt, known in plan]
        want = poker_chance_pure(twin.random, unseen, sizes, twin_plan, *rest)
        got = chance(random_, unseen, sizes, plan, *rest)
        assert got == want and random_.__self__.getstate() == twin.getstate()  # type: ignore[attr-defined]
        assert [p[4] for p in plan] == [p[4] for p in twin_plan]
        calls[0] += 1
        return got

    def both_worth(random_: Callable[[], float], unseen: list[int], size: int, samples: int, plan: Any) -> float:
        twin = _twin_rng(random_)
        want = widow_worth_pure(twin.random, unseen, size, samples, plan)
        got = worth(random_, unseen, size, samples, plan)
        assert got == want and random_.__self__.getstate() == twin.getstate()  # type: ignore[attr-defined]
        calls[1] += 1
        return float(got)

    monkeypatch.setattr(stops_bots, "poker_chance", both_chance)
    monkeypatch.setattr(stops_bots, "widow_worth", both_worth)
    return calls


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_both_twins_agree_in_every_decision_of_normal_bots(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _checking(monkeypatch)
    for seed in range(6):
        players = 3 + seed % 4
        hand = deal(ruleset, players, seed)
        play_out(hand, [NormalStopsBot(seed * 10 + s) for s in range(players)])
    if ruleset == "rummoli":  # a widow auction and a poker round in each hand (Michigan has neither)
        assert calls[0] > 0 and calls[1] > 0


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_the_widow_loop_is_hand_worth_over_drawn_widows(ruleset: str) -> None:
    for seed in range(5):
        players = 3 + seed % 4
        hand = deal(ruleset, players, seed)
        k = read_view(hand.view(seed % players, history=True))  # type: ignore[arg-type]
        t, opp = k.t, k.n - 1
        unseen = [c for c in range(52) if k.unseen >> c & 1]
        size = k.widow_size
        a, b = random.Random(seed), random.Random(seed)
        want = 0.0
        for _ in range(24):
            want += hand_worth(t, sum(1 << c for c in draw(a, unseen, size)), k, opp)
        got = widow_worth_pure(b.random, unseen, size, 24, worth_plan(t, k, opp, size))
        assert got == want and a.getstate() == b.getstate()
        if compiled_worth is not None:
            c = random.Random(seed)
            assert compiled_worth(c.random, unseen, size, 24, worth_plan(t, k, opp, size)) == want
