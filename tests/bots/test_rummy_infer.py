"""The hard Gin bot reads the other player's hand from its choices (rummoli.bots.rummy_infer): hand-made deals."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rummoli.bots import make_bot
from rummoli.bots import rummy_bots as _rummy_bots  # noqa: F401  (registers the Rummy levels)
from rummoli.bots.driver import view_for
from rummoli.bots.rummy_infer import DECLINED_USEFUL, TOOK_USELESS, Reader, choice_likelihood, take_chances
from rummoli.bots.rummy_search import HardRummyBot, sample_world
from rummoli.bots.rummy_view import read_view
from rummoli.cards import Card
from rummoli.rummy import Action, RummyHand

sys.path.insert(0, str(Path(__file__).parent.parent / "rummy"))
from rummy_helpers import act, deal

# Seat 1 (dealer) holds 7h 8h; the upcard is 9h.  Seat 0 is offered it first (R-GIN-2).
OURS = "2s 3s 4s 5h 6h Kd Qc 9d 8c Ac"
THEIRS = "7h 8h 2d 3d 4d Kc Ks 5c 6c Jd"
PLAIN = "7c 8s 2d 3d 4d Kc Ks 5c 6c Jd"  # the same without the hearts that 9h would join


def idx(name: str) -> int:
    return Card.parse(name).index


def offered(theirs: str) -> RummyHand:
    hand = deal("gin-rummy", [OURS, theirs], "9h Tc", dealer=1)
    act(hand, 0, "pass")
    return hand


def test_R_GIN_2_letting_a_card_go_that_joins_a_meld_is_unlikely() -> None:
    passing = Action.from_json({"seat": 1, "action": "pass"})
    assert choice_likelihood(offered(THEIRS), passing) == DECLINED_USEFUL
    assert choice_likelihood(offered(PLAIN), passing) == 1.0
    taking = Action.from_json({"seat": 1, "action": "draw", "from": "discard"})
    assert choice_likelihood(offered(THEIRS), taking) == 1.0
    assert choice_likelihood(offered(PLAIN), taking) == TOOK_USELESS


def test_R_GIN_3_shedding_a_card_of_a_meld_is_less_likely_than_the_dearest_loose_card() -> None:
    hand = offered(THEIRS)
    act(hand, 1, "draw", "discard")  # 7h 8h 9h now a run; Kc Ks Jd loose
    dearest = choice_likelihood(hand, Action.from_json({"seat": 1, "action": "discard", "card": "Kc"}))
    cheap = choice_likelihood(hand, Action.from_json({"seat": 1, "action": "discard", "card": "5c"}))
    broken = choice_likelihood(hand, Action.from_json({"seat": 1, "action": "discard", "card": "2d"}))
    assert dearest == 1.0
    assert broken < cheap < dearest


def test_worlds_where_the_pass_was_unlikely_weigh_less() -> None:
    """After seat 1 lets 9h go, the worlds seat 0 samples in which seat 1 could have melded it count for a
    fifth each: the weighed chance that seat 1 would take 9h is lower than the plain share of worlds."""
    hand = offered(PLAIN)
    act(hand, 1, "pass")
    act(hand, 0, "draw", "stock")  # R-GIN-2: both passed, seat 0 draws (the engine may have made it)
    act(hand, 0, "discard", "Kd")
    act(hand, 1, "draw", "stock")
    act(hand, 1, "discard", "Ks")
    k = read_view(view_for(hand, 0))
    rng = random.Random(5)
    weighed, plain = [], []
    for _ in range(400):
        reader = Reader(0)
        world = sample_world(k, rng, reader)
        assert world is not None
        weighed.append((world, reader.weight))
        plain.append((world, 1.0))
    assert {w for _, w in weighed} - {1.0}, "some world must make the pass unlikely"
    nine = idx("9h")
    # 9h is in the pile under Kd and Ks now; what matters is how seat 1's hand is read
    assert take_chances(weighed, 1, [nine])[0] < take_chances(plain, 1, [nine])[0] - 0.02


def test_a_card_next_to_one_the_other_player_took_is_a_likely_feed() -> None:
    """Seat 1 took 9h from the pile (it holds 7h 8h, which seat 0 cannot see): worlds in which 9h joined
    nothing weigh a third, so the chance that seat 1 would take Th (a run with 9h and 8h or Jh) is read
    higher than the plain share of worlds gives, and higher than for a queen nothing points to."""
    hand = offered(THEIRS)
    act(hand, 1, "draw", "discard")
    act(hand, 1, "discard", "Kc")
    act(hand, 0, "draw", "stock")
    k = read_view(view_for(hand, 0))
    bot = make_bot("rummy", "hard", seed=3, samples=200)
    assert isinstance(bot, HardRummyBot)
    weighed = bot.weighed_worlds(k, 200, deadline=0.0)
    assert len(weighed) == 200
    plain = [(world, 1.0) for world, _ in weighed]
    ten, queen = take_chances(weighed, 1, [idx("Th"), idx("Qd")])
    assert ten > take_chances(plain, 1, [idx("Th")])[0] + 0.05
    assert ten > queen + 0.1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hard_gin_discard_is_legal_and_repeats_with_its_seed(seed: int) -> None:
    hand = offered(THEIRS)
    act(hand, 1, "draw", "discard")
    act(hand, 1, "discard", "Kc")
    act(hand, 0, "draw", "stock")
    view = view_for(hand, 0)
    first = make_bot("rummy", "hard", seed=seed, samples=24).choose(view)
    assert first in view["legal_actions"] and first["action"] in ("discard", "knock")
    assert make_bot("rummy", "hard", seed=seed, samples=24).choose(view) == first


def test_a_timed_search_stops_once_the_decision_is_made() -> None:
    """rummy_search.settled: a clear leader, or candidates too close to matter, end a timed search early;
    a close race it cannot yet call, or too few worlds, do not."""
    from rummoli.bots.rummy_search import SETTLE_EVERY, settled

    rng = random.Random(2)
    n = 2 * SETTLE_EVERY
    ones = [1.0] * n
    noise = [rng.gauss(0, 10) for _ in range(n)]
    clear = [[x + 20 for x in noise], noise]
    assert settled(clear, ones)
    assert not settled([row[: n - 1] for row in clear], ones[: n - 1])  # too few worlds yet
    even = [[x + 0.01 * rng.random() for x in noise], noise]
    assert settled(even, ones)
    close = [[x + rng.gauss(1, 5) for x in noise], noise]
    assert not settled(close, ones)
