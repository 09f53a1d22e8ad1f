"""Meld logic: what is a set, a run, a lay-off; card values; the exact least-deadwood arrangement."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from rummoli.cards import mask_of, parse_cards
from rummoli.rummy.melds import meld_table


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def test_R_RU_3_sets_of_three_and_four_and_runs_of_three_or_more() -> None:
    t = meld_table("low", 1)
    assert t.is_meld(m("7s 7h 7d")) and t.is_meld(m("7s 7h 7d 7c"))
    assert not t.is_meld(m("7s 7h")) and not t.is_meld(m("7s 7h 8d"))
    assert t.is_meld(m("4c 5c 6c")) and t.is_meld(m("4c 5c 6c 7c 8c 9c Tc"))
    assert not t.is_meld(m("4c 5c 6d")) and not t.is_meld(m("4c 5c 7c"))
    assert t.is_meld(m("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"))


def test_R_RU_2_QKA_refused_with_aces_low_and_accepted_with_aces_high() -> None:
    assert not meld_table("low", 1).is_meld(m("Qh Kh Ah"))
    assert meld_table("low", 1).is_meld(m("Ah 2h 3h"))
    assert meld_table("high", 15).is_meld(m("Qh Kh Ah"))
    assert not meld_table("high", 15).is_meld(m("Ah 2h 3h"))


def test_R_RU_ACES_KA2_only_round_the_corner() -> None:
    for aces in ("low", "high", "either"):
        assert not meld_table(aces, 15).is_meld(m("Kd Ad 2d"))
    around = meld_table("around", 15)
    assert around.is_meld(m("Kd Ad 2d")) and around.is_meld(m("Qd Kd Ad 2d 3d"))
    assert around.is_meld(m("Qd Kd Ad")) and around.is_meld(m("Ad 2d 3d"))


def test_R_500_3_aces_either_end_but_not_round_the_corner() -> None:
    t = meld_table("either", 15)
    assert t.is_meld(m("Ac 2c 3c")) and t.is_meld(m("Qc Kc Ac")) and not t.is_meld(m("Kc Ac 2c"))
    assert t.value[m("Ac 2c 3c")] == 6  # the low ace counts one as laid
    assert t.value[m("Qc Kc Ac")] == 35
    assert t.value[m("As Ah Ad")] == 45


def test_R_RU_3_layoff_both_ends_of_a_run_and_fourth_card_of_a_set() -> None:
    t = meld_table("low", 1)
    run = m("5s 6s 7s")
    assert t.can_lay_off(run, m("4s")) and t.can_lay_off(run, m("8s"))
    assert not t.can_lay_off(run, m("9s")) and not t.can_lay_off(run, m("8h"))
    trio = m("Js Jh Jd")
    assert t.can_lay_off(trio, m("Jc")) and not t.can_lay_off(trio | m("Jc"), m("Qc"))
    assert t.fits(trio) == m("Jc")


def test_R_RU_2_card_values_with_each_ace() -> None:
    assert meld_table("low", 1).card_value(m("As 2s 9h Tc Jd Qs Kh")) == 1 + 2 + 9 + 40
    assert meld_table("high", 15).card_value(m("As Ah")) == 30


def brute_deadwood(t: object, hand: int) -> int:
    from rummoli.rummy.melds import MeldTable

    assert isinstance(t, MeldTable)
    melds = t.melds_in(hand)
    best = 0

    def go(start: int, used: int, points: int) -> None:
        nonlocal best
        best = max(best, points)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                go(i + 1, used | melds[i], points + t.value[melds[i]])

    go(0, 0, 0)
    return t.card_value(hand) - best


@pytest.mark.parametrize("aces", ["low", "high", "around", "either"])
def test_best_arrangement_matches_brute_force(aces: str) -> None:
    t = meld_table(aces, 1 if aces == "low" else 15)
    rng = random.Random(aces)
    deck = list(range(52))
    for trial in range(400):
        # dense hands (few suits, neighbouring ranks) have many overlapping melds
        pool = deck if trial % 2 else [i for i in deck if i % 13 < 6 or i % 13 > 10]
        hand = 0
        for i in rng.sample(pool, rng.randint(3, 11)):
            hand |= 1 << i
        points, melds = t.best_arrangement(hand)
        assert t.card_value(hand) - points == brute_deadwood(t, hand)
        used = 0
        for meld in melds:
            assert t.is_meld(meld) and not meld & used and meld & hand == meld
            used |= meld
        assert sum(t.value[x] for x in melds) == points


def test_melds_in_lists_every_meld_inside_the_hand() -> None:
    t = meld_table("low", 1)
    hand = m("7s 7h 7d 7c 8s 9s")
    found = set(t.melds_in(hand))
    expected = {
        x
        for r in (3, 4)
        for c in combinations([m(s) for s in ["7s", "7h", "7d", "7c", "8s", "9s"]], r)
        for x in [sum(c)]
        if t.is_meld(x)
    }
    assert found == expected
    assert m("7s 8s 9s") in found and m("7h 7d 7c") in found and len(found) == 6
