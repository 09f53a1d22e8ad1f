"""The compiled play round's plain cards (``rummoli._speedups.play_plain``) and their pure-Python twin
(``rummoli.stops.play.play_plain_pure``) lay, log, draw and leave the same, from every state random hands of every
ruleset reach, with the leads drawn inside them or handed back (the stops fast path plays by them;
``RUMMOLI_PURE=1`` plays by the twin)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from rummoli.cards import CARDS
from rummoli.stops import BUILTIN_RULESETS, Hand, load_ruleset, random_hand
from rummoli.stops import play as play_module
from rummoli.stops.play import PLAIN_WORDS, RESTART_MODES, play_plain_pure
from rummoli.stops.replay import NAMES

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
             words: tuple[Any, ...], pays: Any, pots: list[int], chips: list[int],
             getrandbits: Callable[[int], int] | None = None) -> int:
        twin = (list(hands), list(owner), list(log), hot, modes, list(state), words, pays, list(pots), list(chips))
        other = None
        if getrandbits is not None:  # the twin draws from a copy of the generator
            rng: random.Random = getrandbits.__self__  # type: ignore[attr-defined]
            other = random.Random()
            other.setstate(rng.getstate())
        status = compiled(hands, owner, log, hot, modes, state, words, pays, pots, chips, getrandbits)
        assert play_plain_pure(*twin, None if other is None else other.getrandbits) == status
        assert (twin[0], twin[1], twin[2], twin[5], twin[8], twin[9]) == (hands, owner, log, state, pots, chips)
        assert [type(v) for v in state] == [type(v) for v in twin[5]]  # the run flag stays a bool
        assert other is None or other.getstate() == rng.getstate()
        calls.append((status, getrandbits is not None))
        return status

    monkeypatch.setattr(play_module, "play_plain", both)
    rules = load_ruleset(spec)
    rng, general = random.Random(34), Drawing(34)
    for k in range(150):
        random_hand(rules, max(rules.min_players, 2 + k % 7), rng)  # leads drawn inside the twins
        random_hand(rules, max(rules.min_players, 2 + k % 7), general)  # each choice of lead handed back
    drawn = {status for status, drawing in calls if drawing}
    handed = {status for status, drawing in calls if not drawing}
    assert handed == {0, 1, 2} or (handed >= {0, 1} and rules.restart == "other_suit_else_same")
    # with draws inside, a choice of lead is never handed back; a drawn lead that pays or goes out is (3)
    assert 0 not in drawn and 1 in drawn and (3 in drawn) == (rules.claim == "announce")


class Drawing(random.Random):
    """A generator of another class: the random path draws through its ``choice`` and ``randint``, one decision
    at a time, and ``play_plain`` hands every choice of lead back."""


class Failing:
    """A generator's ``getrandbits`` that fails after so many draws."""

    def __init__(self, draws: int) -> None:
        self.rng, self.left = random.Random(draws), draws

    def __call__(self, bits: int) -> int:
        if not self.left:
            raise ValueError("no more randomness")
        self.left -= 1
        return self.rng.getrandbits(bits)


def test_a_draw_that_fails_leaves_the_state_at_its_choice() -> None:
    twin = compiled
    if twin is None:
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    rules = load_ruleset("michigan")  # no widow, no poker: the hand waits for its first lead
    deck = list(CARDS)
    random.Random(5).shuffle(deck)
    laid = set()
    for draws in range(8):  # the first draw fails, then the second, ...: the cards laid before it stay laid
        outcomes = []
        for player in (twin, play_plain_pure):
            hand = Hand.from_deck(rules, list(NAMES[:4]), [100] * 4, 1, deck)
            [lead] = {a.seat for a in hand.legal_actions()}
            mask = sum(a.card.bit for a in hand.legal_actions() if a.card is not None)
            state: list[Any] = [lead, mask, False, -1, 0, -1]
            lists = (hand.hands, hand.owner, hand.log)
            start = len(hand.log)
            with pytest.raises(ValueError, match="no more randomness"):
                player(*lists, 0, RESTART_MODES[rules.restart, rules.lead], state, PLAIN_WORDS, None, hand.pots,
                       hand.chips, Failing(draws))
            assert not state[2] and state[1] & (state[1] - 1)  # at a choice of lead
            laid.add(len(hand.log) - start)
            outcomes.append([state, *lists, hand.pots, hand.chips])
        assert outcomes[0] == outcomes[1], draws
    assert len(laid) > 2  # a failed draw came after some cards, at several choices
