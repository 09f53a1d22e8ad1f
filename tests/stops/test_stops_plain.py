"""The compiled play round's plain cards (``rummoli._speedups.play_plain``) and their pure-Python twin
(``rummoli.stops.play.play_plain_pure``) lay, log and leave the same, from every state random hands of every
ruleset reach (the stops fast path plays by them; ``RUMMOLI_PURE=1`` plays by the twin)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from rummoli.stops import BUILTIN_RULESETS, load_ruleset, random_hand
from rummoli.stops import play as play_module
from rummoli.stops.play import play_plain_pure

try:
    from rummoli._speedups import play_plain as compiled
except ImportError:
    compiled = None

OPTIONS: list[dict[str, Any]] = [
    {"game": "stops", "name": f"{restart}-{lead}", "board": board, "restart": restart, "lead": lead,
     "cannot_lead": cannot, "claim": claim}
    for restart in ("opposite_colour", "other_suit", "other_suit_else_same")
    for lead in ("lowest_overall", "lowest_in_chosen_suit")
    for board, cannot, claim in (("copp-clark", "pass_left", "automatic"), ("tripoley", "pay_and_pass", "announce"))
]


def test_the_compiled_twin_is_the_one_used_unless_pure_is_asked() -> None:
    if compiled is None:  # a failure, never a skip: the suite must check what the fast path plays by
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    assert play_module.play_plain is compiled
    pure = subprocess.run([sys.executable, "-c", "import rummoli.stops.play as p; print(p.play_plain is "
                           "p.play_plain_pure)"], env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True,
                          text=True, check=True)
    assert pure.stdout.strip() == "True"


@pytest.mark.parametrize("spec", [*BUILTIN_RULESETS, *OPTIONS], ids=lambda s: s if isinstance(s, str) else s["name"])
def test_both_twins_lay_the_same_from_every_state_reached(spec: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled is None:
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    calls = []

    def both(hands: list[int], owner: list[int], log: list[Any], hot: int, modes: int, state: list[Any],
             words: tuple[Any, ...], pays: Any, pots: list[int], chips: list[int]) -> int:
        twin = (list(hands), list(owner), list(log), hot, modes, list(state), words, pays, list(pots), list(chips))
        status = compiled(hands, owner, log, hot, modes, state, words, pays, pots, chips)
        assert play_plain_pure(*twin) == status
        assert (twin[0], twin[1], twin[2], twin[5], twin[8], twin[9]) == (hands, owner, log, state, pots, chips)
        assert [type(v) for v in state] == [type(v) for v in twin[5]]  # the run flag stays a bool
        calls.append(status)
        return status

    monkeypatch.setattr(play_module, "play_plain", both)
    rules = load_ruleset(spec)
    rng = random.Random(34)
    for k in range(150):
        random_hand(rules, max(rules.min_players, 2 + k % 7), rng)
    assert set(calls) == {0, 1, 2} or (set(calls) >= {0, 1} and rules.restart == "other_suit_else_same")
