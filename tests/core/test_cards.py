"""Cards: parsing every spelling (R-NOTE-1), formatting, masks, and errors that quote the text."""

from __future__ import annotations

import json
import pickle

import pytest

from rummoli.cards import (
    CARDS,
    FULL_DECK,
    SUIT_MASK,
    SUIT_SYMBOLS,
    Card,
    CardError,
    cards_of,
    format_cards,
    lowest_cards,
    lowest_in_suit,
    mask_count,
    mask_of,
    parse_cards,
    rank_set,
    shuffled_deck,
)
from rummoli.errors import MalformedInput

RANKS = "23456789TJQKA"
SUITS = "shdc"


def spellings(card: Card) -> list[str]:
    ranks = [card.rank_char, card.rank_char.lower()]
    if card.rank_char == "T":
        ranks.append("10")
    suits = [card.suit_char, card.suit_char.upper(), SUIT_SYMBOLS[card.suit], "♤♡♢♧"[card.suit]]
    return [r + s for r in ranks for s in suits]


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_R_NOTE_1_every_spelling_round_trips(card: Card) -> None:
    for text in spellings(card):
        parsed = Card.parse(text)
        assert parsed is card, text
        assert str(parsed) == str(card) == RANKS[card.rank] + SUITS[card.suit]
        assert Card.parse(str(parsed)) is card
    assert eval(repr(card), {"Card": Card.parse}) is card


def test_R_NOTE_1_all_52_distinct_and_ordered() -> None:
    assert len({str(c) for c in CARDS}) == 52
    assert sorted(CARDS) == list(CARDS)
    assert [c.index for c in CARDS] == list(range(52))
    assert mask_of(CARDS) == FULL_DECK


@pytest.mark.parametrize("bad", ["", "  ", "1d", "11d", "Tx", "T", "d", "10", "As Kz", "Ah,,Qq", "♠A"])
def test_R_NOTE_1_bad_text_is_refused_quoting_it(bad: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(bad)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, MalformedInput)
    message = str(caught.value)
    worst = bad.split()[-1] if bad.strip() else bad
    assert json.dumps(worst.split(",")[-1], ensure_ascii=False) in message or json.dumps(bad) in message


def test_R_NOTE_1_duplicates_refused_where_a_set_is_required() -> None:
    with pytest.raises(CardError, match='"10d"'):
        parse_cards("Td As 10d")
    assert parse_cards("Td 10d", distinct=False) == [Card.parse("Td")] * 2
    with pytest.raises(CardError, match="named twice"):
        mask_of([Card.parse("2c"), Card.parse("2c")])


def test_parse_cards_accepts_commas_and_mixed_spellings() -> None:
    assert format_cards(parse_cards("As, 10d K♠\tq♥")) == "As Td Ks Qh"


def test_cards_are_immutable_and_pickle_to_the_same_instance() -> None:
    card = Card.parse("7h")
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(card)) is card
    assert hash(card) == card.index


def test_masks_convert_both_ways() -> None:
    cards = parse_cards("2s 9h Td Ac 3c")
    mask = mask_of(cards)
    assert mask_count(mask) == 5
    assert cards_of(mask) == sorted(cards)
    assert mask & SUIT_MASK[3] == mask_of(parse_cards("3c Ac"))
    assert rank_set(mask) == 0b1_0001_1000_0011  # ranks 2 3 9 T A
    assert lowest_cards(mask_of(parse_cards("3h 3c 9s"))) == parse_cards("3h 3c")
    assert lowest_in_suit(mask, 1) == Card.parse("9h")
    assert lowest_in_suit(mask, 2) == Card.parse("Td")
    assert lowest_in_suit(mask_of(parse_cards("2s")), 2) is None
    assert lowest_cards(0) == []


def test_seeded_shuffle_is_reproducible_and_unseeded_is_a_permutation() -> None:
    assert shuffled_deck("abc") == shuffled_deck("abc")
    assert shuffled_deck(1) != shuffled_deck(2)
    assert sorted(shuffled_deck()) == list(CARDS)
