"""The poker evaluator (R-POKER-1 .. R-POKER-4) against references written here.

The reference below scores five cards the slow, obvious way (counting ranks into tuples); it shares
no code with :mod:`rummoli.poker`.  Larger hands are checked against the best of all their five-card
subsets under that reference.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from rummoli.cards import CARDS, Card, parse_cards
from rummoli.poker import CATEGORIES, HandValue, PokerError, evaluate, evaluate_mask, winners

REFERENCE_ORDER = CATEGORIES[::-1]  # weakest first


def reference_five(cards: tuple[Card, ...] | list[Card]) -> tuple[int, tuple[int, ...]]:
    """(category index, tie-break ranks) for exactly five cards; bigger is better."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [n for _, n in groups]
    ordered = tuple(r for r, _ in groups)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_top = 3  # the wheel: the five is high
    if straight_top is not None and flush:
        return 8, (straight_top,)
    if shape == [4, 1]:
        return 7, ordered
    if shape == [3, 2]:
        return 6, ordered
    if flush:
        return 5, tuple(ranks)
    if straight_top is not None:
        return 4, (straight_top,)
    if shape == [3, 1, 1]:
        return 3, ordered
    if shape == [2, 2, 1]:
        return 2, ordered
    if shape == [2, 1, 1, 1]:
        return 1, ordered
    return 0, tuple(ranks)


def reference_best(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    return max(reference_five(five) for five in combinations(cards, 5))


def brute_force_value(cards: list[Card]) -> int:
    """The best value over all five-card subsets.

    Scoring each subset with ``evaluate_mask`` is sound because the exhaustive test above proves it
    right on every five-card hand; it is ten times quicker than the tuple reference.
    """
    return max(evaluate_mask(a | b | c | d | e) for a, b, c, d, e in combinations([c.bit for c in cards], 5))


@pytest.mark.slow
def test_R_POKER_4_all_five_card_hands() -> None:
    """All 2,598,960 hands: the category counts, 7,462 classes, and the standard order."""
    counts: Counter[int] = Counter()
    representative: dict[int, tuple[int, ...]] = {}
    bits = [1 << i for i in range(52)]
    for a, b, c, d, e in combinations(range(52), 5):
        value = evaluate_mask(bits[a] | bits[b] | bits[c] | bits[d] | bits[e])
        counts[value >> 20] += 1
        if value not in representative:
            representative[value] = (a, b, c, d, e)
    expected = [40, 624, 3_744, 5_108, 10_200, 54_912, 123_552, 1_098_240, 1_302_540]
    assert [counts[8 - i] for i in range(9)] == expected
    assert len(representative) == 7_462
    # Our values sort the 7,462 classes exactly as the reference does, with no two classes equal.
    ordered = sorted(representative)
    keys = [reference_five([CARDS[i] for i in representative[v]]) for v in ordered]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    for value in ordered:
        hand = [CARDS[i] for i in representative[value]]
        assert REFERENCE_ORDER[reference_five(hand)[0]] == evaluate(hand).category


def random_hands() -> list[list[Card]]:
    """20,200 hands of every size from 5 to 26 cards, fixed seed; fewer of the big (costly) ones."""
    rng = random.Random(20261129)
    per_size = {n: 2250 for n in range(5, 13)} | {n: 300 for n in range(13, 19)} | {n: 50 for n in range(19, 27)}
    return [rng.sample(CARDS, n) for n, count in per_size.items() for _ in range(count)]


@pytest.mark.slow
def test_R_POKER_4_best_five_of_many_matches_brute_force() -> None:
    hands = random_hands()
    assert len(hands) >= 20_000
    for cards in hands:
        ours = evaluate(cards)
        assert ours.value == brute_force_value(cards), cards
        assert set(ours.cards) <= set(cards) and len(set(ours.cards)) == 5
        assert evaluate(ours.cards) == ours, (cards, ours)


def check(text: str, category: str, best: str | None = None) -> HandValue:
    hand = evaluate(parse_cards(text))
    assert hand.category == category, hand
    assert reference_five(hand.cards) == reference_best(parse_cards(text))
    if best is not None:
        assert sorted(hand.cards) == sorted(parse_cards(best))
    return hand


def test_R_POKER_4_two_five_card_suits_better_flush_wins() -> None:
    # eval7 gets this wrong: with two flushes it must compare them, not take the first suit found.
    check("2s 4s 6s 8s Ts  3h 5h 9h Jh Kh", "flush", "3h 5h 9h Jh Kh")
    check("As 4s 6s 8s Ts  3h 5h 9h Jh Kh 7c", "flush", "As 4s 6s 8s Ts")
    # Equal top cards: the next rank decides.
    check("Ah Kh 9h 5h 2h  Ad Kd 9d 6d 2d", "flush", "Ad Kd 9d 6d 2d")


def test_R_POKER_4_full_house_and_quads_beat_a_flush_beside_them() -> None:
    assert check("2h 5h 7h 9h Jh  9s 9d Jc Js", "full house").describe() == "full house, jacks over nines"
    check("2h 5h 7h 9h Jh  9s 9d 9c 3c", "four of a kind", "9s 9d 9c 9h Jh")


def test_R_POKER_4_two_three_of_a_kinds_make_a_full_house() -> None:
    hand = check("8s 8h 8d Ks Kh Kd 2c", "full house", "Ks Kh Kd 8s 8h")
    assert hand.describe() == "full house, kings over eights"
    # A pair above the lower set does not matter: the higher trips and the best pair beneath.
    check("4s 4h 4d 6s 6h 6d As Ah", "full house", "6s 6h 6d As Ah")


def test_R_POKER_4_three_pairs_kicker_may_come_from_the_third_pair() -> None:
    hand = check("Qs Qh 9s 9h 7s 7h 2c", "two pair", "Qs Qh 9s 9h 7s")
    assert hand.ranks == (10, 7, 5)
    check("Qs Qh 9s 9h 7s 7h 8c", "two pair", "Qs Qh 9s 9h 8c")


def test_R_POKER_4_straight_flush_beside_a_higher_plain_flush() -> None:
    check("5d 6d 7d 8d 9d  Ah Kh Qh Jh 2h", "straight flush", "5d 6d 7d 8d 9d")
    check("5d 6d 7d 8d 9d Ad", "straight flush", "5d 6d 7d 8d 9d")
    # Two straight flushes in two suits: the higher.
    check("2s 3s 4s 5s 6s  7h 8h 9h Th Jh", "straight flush", "7h 8h 9h Th Jh")


def test_R_POKER_4_wheel_is_lowest_straight_and_nothing_wraps() -> None:
    wheel = check("As 2d 3h 4c 5s", "straight")
    assert wheel.describe() == "straight, five high"
    six_high = check("2d 3h 4c 5s 6s", "straight")
    assert wheel < six_high
    check("Qs Kd Ah 2c 3s", "high card")
    check("Ac 2c 3c 4c 5c", "straight flush")
    check("Ac 2c 3c 4c 5c 6c", "straight flush", "2c 3c 4c 5c 6c")
    check("Jh Qh Kh Ah 2h", "flush")


def test_R_POKER_4_suits_never_break_ties() -> None:
    assert evaluate("As Ks Qs Js 9s") == evaluate("Ah Kh Qh Jh 9h")
    assert evaluate("2c 2d 5h 7s 9s") == evaluate("2s 2h 5c 7d 9d")
    assert winners([parse_cards("2c 2d 5h 7s 9s Kd"), parse_cards("2s 2h 5c 7d 9d Kc")]) == [0, 1]
    assert hash(evaluate("As Ks Qs Js 9s")) == hash(evaluate("Ah Kh Qh Jh 9h"))


def test_R_POKER_4_the_best_five_come_from_many_cards() -> None:
    seventeen = parse_cards("2s 3s 5s 7h 9h Jh Kh 2d 4d 6d 8d Td Qd 3c 5c 7c 9c")
    hand = evaluate(seventeen)
    assert hand.category == "flush" and sorted(hand.cards) == sorted(parse_cards("4d 6d 8d Td Qd"))
    all_cards = evaluate(CARDS)
    assert all_cards.describe() == "royal flush"


def test_R_POKER_4_fewer_than_five_or_duplicates_refused() -> None:
    with pytest.raises(PokerError, match="at least five cards, got 4"):
        evaluate("As Ks Qs Js")
    with pytest.raises(PokerError, match="distinct"):
        evaluate([Card.parse("As")] * 5)
    with pytest.raises(ValueError, match='"Zz"'):
        evaluate("As Ks Qs Js Zz")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Ts Js Qs Ks As", "royal flush"),
        ("9s Ts Js Qs Ks", "straight flush, king high"),
        ("9s 9h 9d 9c 2s", "four nines"),
        ("Ks Kh Kd 7s 7h", "full house, kings over sevens"),
        ("2h 5h 7h 9h Jh", "flush, jack high"),
        ("6s 7h 8d 9c Ts", "straight, ten high"),
        ("5s 5h 5d Ac 2s", "three fives"),
        ("Js Jh 4d 4c 2s", "two pair, jacks and fours"),
        ("8s 8h Ad 4c 2s", "pair of eights"),
        ("As Jh 8d 4c 2s", "high card, ace"),
    ],
)
def test_hands_are_named_as_players_say_them(text: str, named: str) -> None:
    assert evaluate(text).describe() == named
