"""The compiled poker evaluator, Gin race reckoning and card naming (src/rummoli/_speedups.c) and their pure-Python
twins give the same value for every hand (issue 34). The install builds the compiled ones, and their absence fails
these tests rather than letting them pass on the fallback."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummoli import poker
from rummoli.cards import CARDS, mask_of, parse_cards
from rummoli.poker import evaluate_mask_pure

try:
    from rummoli._speedups import evaluate_mask as compiled
except ImportError:
    compiled = None


def needs_compiled() -> None:
    if compiled is None:  # a failure, never a skip: the suite must check the evaluator players run
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")


def printed_when_pure(code: str) -> str:
    """What ``code`` prints in a fresh Python under ``RUMMOLI_PURE=1`` (the twins are picked at import)."""
    run = subprocess.run([sys.executable, "-c", code], env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True,
                         text=True, check=True)
    return run.stdout.strip()


def test_the_compiled_evaluator_is_the_one_the_engines_use_unless_pure_is_asked() -> None:
    needs_compiled()
    assert poker.COMPILED and poker.evaluate_mask is compiled
    assert printed_when_pure("import rummoli.poker as p; print(p.COMPILED)") == "False"


@given(st.sets(st.integers(0, 51), min_size=5, max_size=52))
@settings(max_examples=3000, deadline=None)
def test_both_evaluators_agree_on_any_hand(cards: set[int]) -> None:
    needs_compiled()
    mask = sum(1 << c for c in cards)
    assert compiled(mask) == evaluate_mask_pure(mask)


def test_both_evaluators_agree_on_every_five_card_hand_of_two_suits_and_on_many_large_hands() -> None:
    needs_compiled()
    # every five-card hand of 26 cards (65,780: every category but four of a kind and full houses with 3 suits)
    for combo in combinations(range(26), 5):
        mask = sum(1 << c for c in combo)
        assert compiled(mask) == evaluate_mask_pure(mask), [str(CARDS[c]) for c in combo]
    rng = random.Random(34)
    for size in (7, 10, 13, 17, 26, 40, 52):
        for _ in range(3000):
            mask = sum(1 << c for c in rng.sample(range(52), size))
            assert compiled(mask) == evaluate_mask_pure(mask)


def test_hand_made_hands_of_every_category_R_POKER_4() -> None:
    needs_compiled()
    hands = ["Ah Kh Qh Jh Th 2c", "9s 9h 9d 9c 2h", "Ks Kh Kd 7c 7h", "Ah Jh 9h 5h 2h Kc", "5s 4d 3c 2h As",
             "Qs Qh Qd 9c 2h", "Js Jh 4d 4c Ah", "Ts Th 8d 4c 2h", "As Kd 9h 7c 3s",
             # two five-card suits (eval7's shortcut misranks these) and a straight flush in the second one
             "Ah Kh Qh Jh 9h 8s 7s 6s 5s 4s", "Ts Js Qs Ks As 9h Th Jh Qh Kh"]
    for text in hands:
        mask = mask_of(parse_cards(text))
        assert compiled(mask) == evaluate_mask_pure(mask), text


def test_a_mask_wider_than_the_deck_is_refused() -> None:
    needs_compiled()
    with pytest.raises(ValueError, match="52 bits"):
        compiled(1 << 52)
    with pytest.raises(OverflowError):
        compiled(-1)


# ------------------------------------------------------------------------------------------ the Gin race's keep_best
TABLES = [("low", 1), ("high", 11), ("high", 1), ("either", 1), ("either", 15), ("around", 1)]


def meldy_hand(rng: random.Random, size: int) -> int:
    """A hand of ``size`` cards drawn from seven ranks in every suit: rich in runs, sets and overlaps."""
    pool = [13 * suit + rank for suit in range(4) for rank in rng.sample(range(13), 7)]
    return sum(1 << c for c in rng.sample(pool, size))


def test_the_compiled_keep_best_is_the_one_the_bots_use_unless_pure_is_asked() -> None:
    needs_compiled()
    from rummoli.bots import rummy_race

    assert rummy_race._compiled_keep_best is not None
    assert printed_when_pure("import rummoli.bots.rummy_race as r; print(r._compiled_keep_best)") == "None"


@pytest.mark.parametrize(("aces", "ace_value"), TABLES)
def test_both_keep_bests_agree_on_every_kind_of_hand(aces: str, ace_value: int) -> None:
    # The same deadwood to the point, ties included: the compiled search finds the same melds in the same order.
    needs_compiled()
    from rummoli.bots.rummy_race import keep_best, keep_best_pure
    from rummoli.rummy.melds import meld_table

    table = meld_table(aces, ace_value)
    rng = random.Random(f"keep-{aces}-{ace_value}")
    for k in range(6000):
        size = rng.choice([0, 3, 10, 11, 12, 13, 14, 16, 20])
        hand = meldy_hand(rng, size) if k % 2 else sum(1 << c for c in rng.sample(range(52), size))
        extra = rng.randint(-1, 5)
        assert keep_best(table, hand, extra) == keep_best_pure(table, hand, extra), (aces, ace_value, hand, extra)


def test_keep_best_by_hand() -> None:
    # R-RU-2's card values: 2s 3s 4s is a run; of 9h Kd 5c the two dearest (Kd, 9h) are shed, 5 left.
    needs_compiled()
    from rummoli.bots.rummy_race import keep_best, keep_best_pure
    from rummoli.rummy.melds import meld_table

    low = meld_table("low", 1)
    assert keep_best(low, mask_of(parse_cards("2s 3s 4s 9h Kd 5c")), 2) == 5
    # Four sevens and 8s 9s: the four sevens and the run cannot share 7s; 7h 7d 7c with 7s 8s 9s covers all.
    assert keep_best(low, mask_of(parse_cards("7s 7h 7d 7c 8s 9s")), 0) == 0
    # Any count to shed, however far out of range, answers as the pure function does (all kept, or none).
    hand = mask_of(parse_cards("2s 3s 4s 9h Kd 5c"))
    for extra in (-(2**63), -53, 53, 2**63 - 1):
        assert keep_best(low, hand, extra) == keep_best_pure(low, hand, extra)
    # A bad table or mask is refused with one line, never read past its end.
    from rummoli._speedups import keep_best as raw

    with pytest.raises(ValueError, match="packed meld table"):
        raw(b"\0" * 10, 7, 0)
    with pytest.raises(ValueError, match="52 bits"):
        raw(b"\0" * (53 * 4), 1 << 52, 0)


# ------------------------------------------------------------------------------------------ the best arrangement
def test_the_compiled_best_arrangement_is_the_one_the_tables_use_unless_pure_is_asked() -> None:
    needs_compiled()
    from rummoli.rummy.melds import meld_table

    for aces, ace_value in TABLES:
        assert "best_melds" in repr(meld_table(aces, ace_value)._best_compiled), (aces, ace_value)
    code = "from rummoli.rummy.melds import meld_table; print(meld_table('low', 1)._best_compiled.__name__)"
    assert printed_when_pure(code) == "_best_arrangement_pure"


@pytest.mark.parametrize(("aces", "ace_value"), TABLES)
def test_both_best_arrangements_agree_on_every_kind_of_hand(aces: str, ace_value: int) -> None:
    # The same points and the same melds in the same order, ties included (a bot's choices follow the melds).
    needs_compiled()
    from rummoli.rummy.melds import meld_table

    table = meld_table(aces, ace_value)
    rng = random.Random(f"best-{aces}-{ace_value}")
    for k in range(4000):
        size = rng.choice([0, 3, 7, 10, 11, 13, 16, 20, 30])
        hand = meldy_hand(rng, min(size, 28)) if k % 2 else sum(1 << c for c in rng.sample(range(52), size))
        assert table._best_compiled(hand) == table._best_arrangement_pure(hand), (aces, ace_value, hand)


def test_best_arrangement_by_hand() -> None:
    needs_compiled()
    from rummoli._speedups import best_melds
    from rummoli.rummy.melds import meld_table, pack

    low = meld_table("low", 1)
    # Four sevens and 8s 9s: 7h 7d 7c with 7s 8s 9s covers all six cards (the four sevens alone leave 8s 9s)
    points, melds = low.best_arrangement(mask_of(parse_cards("7s 7h 7d 7c 8s 9s")))
    assert points == 45 and sorted(melds) == sorted([mask_of(parse_cards("7s 8s 9s")),
                                                      mask_of(parse_cards("7h 7d 7c"))])
    assert best_melds(pack(low), mask_of(parse_cards("2s 9h Kd"))) == (0, ())
    with pytest.raises(ValueError, match="packed meld table"):
        best_melds(b"\0" * 10, 7)
    with pytest.raises(ValueError, match="52 bits"):
        best_melds(pack(low), 1 << 52)


# ------------------------------------------------------------------------------------------ Gin's knock discards
def test_the_compiled_deadwood_is_the_one_the_engine_uses_unless_pure_is_asked() -> None:
    needs_compiled()
    from rummoli.rummy.melds import meld_table

    assert meld_table("low", 1).deadwood_counter() is not None
    # 500 Rum's ace below a two counts one when laid: the loose cards' points are not the deadwood there
    assert meld_table("either", 15).deadwood_counter() is None
    code = "from rummoli.rummy.melds import meld_table; print(meld_table('low', 1).deadwood_counter())"
    assert printed_when_pure(code) == "None"


@pytest.mark.parametrize(("aces", "ace_value"), TABLES)
def test_both_knock_discards_agree_on_every_kind_of_hand(aces: str, ace_value: int) -> None:
    # The cards whose discard a knock allows (R-GIN-3), and the deadwood itself, to the card and the point.
    needs_compiled()
    from rummoli.rummy.melds import meld_table
    from rummoli.rummy.settle import knock_discards, knock_discards_pure

    table = meld_table(aces, ace_value)
    count = table.deadwood_counter()
    rng = random.Random(f"knock-{aces}-{ace_value}")
    for k in range(4000):
        size = rng.choice([1, 3, 8, 10, 11, 11, 11, 12, 14])
        hand = meldy_hand(rng, size) if k % 2 else sum(1 << c for c in rng.sample(range(52), size))
        limit = rng.choice([0, 0, 5, 10, 10, 10, 25, 100])
        assert knock_discards(table, hand, limit) == knock_discards_pure(table, hand, limit), (aces, hand, limit)
        if count is not None:
            assert count(hand, 0) == table.deadwood(hand), (aces, ace_value, hand)


def test_knock_discards_by_hand() -> None:
    from rummoli.rummy.melds import meld_table
    from rummoli.rummy.settle import knock_discards

    low = meld_table("low", 1)
    # 2s 3s 4s and 7h 7d 7c melded; 5c Kd 9h 2d 4h loose (30): no discard reaches 10, only the king's reaches 20
    hand = mask_of(parse_cards("2s 3s 4s 7h 7d 7c 5c Kd 9h 2d 4h"))
    assert knock_discards(low, hand, 10) == 0
    assert knock_discards(low, hand, 20) == mask_of(parse_cards("Kd"))
    # every card melded: throwing an end of the four-card run or a seven keeps gin; any other card breaks a meld
    gin = mask_of(parse_cards("2s 3s 4s 5s 7h 7d 7c 7s 9c Tc Jc"))
    assert knock_discards(low, gin, 0) == mask_of(parse_cards("2s 5s 7h 7d 7c 7s"))


# ------------------------------------------------------------------------------------------ a mask's card names
def test_the_compiled_names_of_is_the_one_the_views_use_unless_pure_is_asked() -> None:
    needs_compiled()
    from rummoli import cards

    assert cards.names_of is not cards.names_of_pure and cards.names_of(0b101) == ["2s", "4s"]
    assert cards.cards_of is not cards.cards_of_pure and cards.cards_of(0b101) == [CARDS[0], CARDS[2]]
    assert printed_when_pure("import rummoli.cards as c; print(c.names_of is c.names_of_pure, "
                           "c.cards_of is c.cards_of_pure)") == "True True"


@given(st.integers(0, (1 << 52) - 1))
@settings(max_examples=500)
def test_both_names_ofs_and_cards_ofs_give_the_same_cards_in_the_same_order(mask: int) -> None:
    from rummoli.cards import cards_of, cards_of_pure, names_of, names_of_pure

    assert names_of(mask) == names_of_pure(mask) == [str(c) for c in CARDS if mask >> c.index & 1]
    assert cards_of(mask) == cards_of_pure(mask) == [c for c in CARDS if mask >> c.index & 1]


def test_the_compiled_names_of_refuses_what_is_not_a_card_mask() -> None:
    needs_compiled()
    from rummoli._speedups import names_of
    from rummoli.cards import NAMES

    assert names_of(NAMES, 0) == [] and names_of(NAMES, (1 << 52) - 1) == list(NAMES)
    for names, mask, error in ((NAMES, 1 << 52, ValueError), (NAMES, -1, OverflowError), (NAMES[:51], 1, TypeError),
                               (list(NAMES), 1, TypeError), (NAMES, "1", TypeError)):
        with pytest.raises(error):
            names_of(names, mask)


# ------------------------------------------------------------------------------------------ Gin's knock settled
def test_the_compiled_gin_knock_is_the_one_the_engine_uses_unless_pure_is_asked() -> None:
    needs_compiled()
    from rummoli.rummy import settle

    assert settle._COMPILED_GIN_KNOCK is not None
    assert printed_when_pure("import rummoli.rummy.settle as s; print(s._COMPILED_GIN_KNOCK)") == "None"


@pytest.mark.parametrize(("aces", "ace_value"), [t for t in TABLES if t != ("either", 15)])
def test_both_gin_knocks_agree_on_every_kind_of_hand(aces: str, ace_value: int) -> None:
    # R-GIN-4/5: the same counts, the same arrangement shown (its melds in the same order) and the same cards laid
    # off, ties included; the same refusal where no arrangement keeps the limit.
    needs_compiled()
    from rummoli.rummy.melds import meld_table
    from rummoli.rummy.settle import gin_knock, gin_knock_pure

    table = meld_table(aces, ace_value)
    assert table.deadwood_counter() is not None  # the compiled settlement serves this table
    rng = random.Random(f"gin-knock-{aces}-{ace_value}")
    melds = sorted(table.melds)
    seen = {"refused": 0, "gin": 0, "laid off": 0, "undercut": 0}
    for k in range(3000):
        size = rng.choice([10, 10, 10, 7, 11, 13])
        if k % 3 == 0:  # a hand that can knock: melds, then loose cards
            knocker = 0
            for meld in rng.sample(melds, 6):
                if not meld & knocker and (knocker | meld).bit_count() <= size:
                    knocker |= meld
            while knocker.bit_count() < size:
                knocker |= 1 << rng.randrange(52)
        else:
            knocker = meldy_hand(rng, size) if k % 3 == 1 else sum(1 << c for c in rng.sample(range(52), size))
        rest = [c for c in range(52) if not knocker >> c & 1]
        defender = sum(1 << c for c in rng.sample(rest, rng.choice([10, 10, 12, 5, 0])))
        limit = rng.choice([0, 10, 10, 10, 25, 100, -3])
        answers = []
        for settle in (gin_knock, gin_knock_pure):
            try:
                answers.append(settle(table, knocker, defender, limit))
            except ValueError as error:
                answers.append(str(error))
        assert answers[0] == answers[1], (aces, ace_value, knocker, defender, limit)
        found = answers[0]
        if isinstance(found, str):
            seen["refused"] += 1
        else:
            seen["gin"] += found.knocker == 0
            seen["laid off"] += found.laid != 0
            seen["undercut"] += 0 < found.defender <= found.knocker
    assert min(seen.values()) >= 20, seen  # every way a knock can end was met


def test_gin_knock_by_hand() -> None:
    # R-GIN-4: shown as 4s-7s (deadwood 6), the run takes the defender's 3s and 8s (67 - 11 = 56 left: a margin of
    # 50); shown as 5s-7s with 4s loose (deadwood 10), only 8s fits (59 left: 49). The knocker shows the long run.
    needs_compiled()
    from rummoli._speedups import gin_knock as raw
    from rummoli.rummy.melds import meld_table
    from rummoli.rummy.settle import gin_knock, gin_knock_pure

    low = meld_table("low", 1)
    knocker = mask_of(parse_cards("4s 5s 6s 7s 9h 9d 9c Ac 2d 3h"))
    defender = mask_of(parse_cards("3s 8s Kh Qd Jc Tc 5h 5d 2c 4c"))
    assert gin_knock(low, knocker, defender, 10) == gin_knock_pure(low, knocker, defender, 10)
    found = gin_knock(low, knocker, defender, 10)
    assert found.knocker == 6 and found.laid == mask_of(parse_cards("3s 8s"))
    assert found.defender == 10 + 10 + 10 + 10 + 5 + 5 + 2 + 4  # Kh Qd Jc Tc 5h 5d 2c 4c
    with pytest.raises(ValueError, match="no arrangement keeps 0"):
        gin_knock(low, knocker, defender, 0)
    # a bad table or mask is refused with one line, never read past its end
    with pytest.raises(ValueError, match="packed meld table"):
        raw(b"\0" * 10, knocker, defender, 10)
    with pytest.raises(ValueError, match="52 bits"):
        raw(low.packed, knocker, 1 << 52, 10)
    with pytest.raises(TypeError):
        raw(low.packed, knocker, defender)


@pytest.mark.parametrize(("aces", "ace_value"), TABLES)
def test_each_melds_lay_offs_and_each_cards_points_are_read_off_the_table_as_worked_out(aces: str,
                                                                                      ace_value: int) -> None:
    # fit_of and card_points, read by the hard bot's rollouts, hold what fits() and card_value() work out
    from rummoli.rummy.melds import meld_table

    table = meld_table(aces, ace_value)
    assert set(table.fit_of) == table.melds
    for meld in table.melds:
        slow = sum(1 << c for c in range(52) if not meld >> c & 1 and (meld | 1 << c) in table.melds)
        assert table.fit_of[meld] == slow == table.fits(meld), (aces, meld)
    assert table.card_points == tuple(table.card_value(1 << c) for c in range(52))


def test_draws_made_in_c_are_pythons_own_and_leave_the_generator_where_python_would() -> None:
    """The compiled loops draw CPython's Mersenne Twister words themselves where the bound method is its own, and call
    back into Python for any other generator (_speedups.c, mt_behind): the same draws either way."""
    needs_compiled()
    from rummoli import _speedups

    plain = random.Random(34)
    assert _speedups.drawn_here(plain.random) and _speedups.drawn_here(plain.getrandbits)

    class Fixed(random.Random):
        def random(self) -> float:
            return 0.25

    assert not _speedups.drawn_here(Fixed(1).random)  # overridden: called, so its answer counts
    assert _speedups.drawn_here(Fixed(1).getrandbits)  # not overridden: CPython's own
    assert not _speedups.drawn_here(random.SystemRandom().random)
    assert not _speedups.drawn_here(len)
    for seed in range(40):  # shuffles cross the 624-word refills many times over
        ours, theirs = random.Random(seed), random.Random(seed)
        deck, expected = list(range(52)), list(range(52))
        for _ in range(seed % 7 + 1):
            _speedups.shuffle_with(deck, ours.getrandbits)
            theirs.shuffle(expected)
        assert deck == expected
        assert ours.getstate() == theirs.getstate()
    # through a generator whose draws are Python's: the same shuffle, made by calling it
    calls = []

    class Counted(random.Random):
        def getrandbits(self, k: int) -> int:
            calls.append(k)
            return super().getrandbits(k)

    counted, plain = Counted(3), random.Random(3)
    deck, expected = list(range(52)), list(range(52))
    _speedups.shuffle_with(deck, counted.getrandbits)
    plain.shuffle(expected)
    assert deck == expected and len(calls) >= 51
