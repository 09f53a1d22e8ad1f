"""A hard bot's sampled worlds: the compiled card placing (place_cards in src/rummoli/_speedups.c) and its pure
twin (rummoli.bots.stops_search.place_cards_pure) place the same cards from the same draws (issue 34)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest
from test_stops_bots import deal

from rummoli.bots import stops_search
from rummoli.bots.driver import view_for
from rummoli.bots.stops_infer import read_view
from rummoli.bots.stops_search import place_cards_pure
from rummoli.stops import BUILTIN_RULESETS

try:
    from rummoli._speedups import place_cards as compiled
except ImportError:
    compiled = None


def _need_compiled() -> Any:
    if compiled is None:  # a failure, never a skip
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    return compiled


def test_the_compiled_twin_is_the_one_used_unless_pure_is_asked() -> None:
    assert stops_search.place_cards is _need_compiled()
    pure = subprocess.run([sys.executable, "-c", "import rummoli.bots.stops_search as s; "
                           "print(s.place_cards is s.place_cards_pure)"],
                          env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True, text=True, check=True)
    assert pure.stdout.strip() == "True"


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_both_twins_place_the_same_cards_at_every_decision_and_strictness(ruleset: str) -> None:
    place = _need_compiled()
    compared = 0
    for seed in range(8):
        players = 3 + seed % 5
        hand = deal(ruleset, players, seed)
        rng = random.Random(seed)
        while not hand.over:
            seat = hand.to_act()[0]
            k = read_view(view_for(hand, seat))
            for strict in (2, 1, 0):
                caps, out, items = stops_search.place_inputs(k, strict)
                for draw in range(3):
                    a, b = random.Random(f"{seed}-{draw}"), random.Random(f"{seed}-{draw}")
                    got = place(a.random, a.getrandbits, caps, out, items)
                    want = place_cards_pure(b.random, b.getrandbits, caps, out, items)
                    assert got == want and a.getstate() == b.getstate()
                    compared += 1
            hand.random_step(rng)
    assert compared > 100
