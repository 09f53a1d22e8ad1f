"""Straight Rummy's `stock_end = shuffle_once` (R-RU-SHUFFLE in docs/rules-rummy.md): the turned-over pile is
shuffled before it becomes the stock, reproducibly under a seed, and records replay it exactly."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rummy_helpers import TWENTY, act, rules, throw_back_until_over

from rummoli.cards import CARDS, parse_cards
from rummoli.errors import MalformedInput
from rummoli.games import replay as replay_any
from rummoli.records import RecordError
from rummoli.rummy import (
    RummyGame,
    RummyHand,
    load_ruleset,
    random_hand,
    random_hand_record,
    replay_hand,
    replay_record,
)

SHUFFLE = rules(20, stock_end="shuffle_once")


def twenty(rng: random.Random | None = None) -> RummyHand:
    """Two hands of twenty cards, a stock of eleven under the turned-up card (as ``twenty_each``)."""
    dealt = [parse_cards(h) for h in TWENTY]
    rest = [c for c in CARDS if c not in dealt[0] + dealt[1]]
    return RummyHand(SHUFFLE, ["P0", "P1"], [0, 0], 0, dealt, rest, rng=rng)


def test_R_RU_SHUFFLE_the_turned_pile_is_shuffled_once_then_the_hand_blocks() -> None:
    hand = twenty(random.Random(5))
    while not hand.flips:
        act(hand, hand.turn, "draw", "stock")
        act(hand, hand.turn, "discard", hand.view(hand.turn, history=True)["drawn"][-1][1])
    turned = [hand.record()["deal"]["stock"][0]] + [e["card"] for e in hand.history() if e["action"] == "discard"]
    order = hand.record()["deal"]["reshuffle"]  # the new stock, top first
    assert sorted(order) == sorted(turned) and len(order) == 12
    assert order != turned  # flip_once would have made the new stock exactly the pile, bottom card on top
    assert hand.view(hand.turn, history=True)["drawn"][-1][1] == order[0]  # the forced draw took the new top card
    assert [e for e in hand.events() if e["type"] == "flip"] == [{"type": "flip", "cards": 12, "shuffled": True}]
    throw_back_until_over(hand)
    assert hand.flips == 1 and hand.outcome["reason"] == "blocked" and hand.deltas == [0, 0]


def test_R_RU_SHUFFLE_the_same_seed_gives_the_same_shuffle() -> None:
    a, b, c = twenty(random.Random(1)), twenty(random.Random(1)), twenty(random.Random(2))
    for hand in (a, b, c):
        throw_back_until_over(hand)
    assert a.record() == b.record()
    assert a.record()["deal"]["reshuffle"] != c.record()["deal"]["reshuffle"]


def test_R_RU_SHUFFLE_unseeded_hands_shuffle_from_the_secure_source(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[str] = []
    real = random.SystemRandom.sample

    def spy(self: random.SystemRandom, *args: Any, **kwargs: Any) -> Any:
        used.append(type(self).__name__)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(random.SystemRandom, "sample", spy)
    hands = [twenty(), twenty()]
    assert used == ["SystemRandom", "SystemRandom"]
    for hand in hands:
        throw_back_until_over(hand)
    assert hands[0].record()["deal"]["reshuffle"] != hands[1].record()["deal"]["reshuffle"]


def test_R_RU_SHUFFLE_records_replay_exactly_and_a_seeded_record_is_reproducible() -> None:
    seen = 0
    for seed in range(6):
        record = random_hand_record(SHUFFLE | {"hand_size": {"2": 10}}, 2, f"s{seed}")
        assert record == random_hand_record(SHUFFLE | {"hand_size": {"2": 10}}, 2, f"s{seed}")
        if "reshuffle" not in record["deal"]:
            continue
        seen += 1
        text = json.loads(json.dumps(record))
        out = replay_any(text)
        assert out == replay_record(record)
        flips = [e for e in out["events"] if e["type"] == "flip"]
        assert flips and flips[0]["shuffled"] is True
    assert seen >= 2  # random play turns the pile over in most hands


def until_the_flip(seed: int) -> tuple[dict[str, Any], list[str]]:
    """A record whose actions stop as the pile is turned over, and the reshuffled stock (top first)."""
    hand = twenty(random.Random(seed))
    throw_back_until_over(hand)
    record = hand.record()
    record["actions"] = record["actions"][:22]  # eleven turns empty the stock; the next draw is forced
    return record, record["deal"]["reshuffle"]


def drawn_after_the_flip(record: dict[str, Any]) -> str:
    hand = replay_hand(record)
    assert hand.flips == 1
    return str(hand.view(hand.turn, history=True)["drawn"][-1][1])


def test_R_RU_SHUFFLE_the_record_decides_the_new_stock() -> None:
    record, order = until_the_flip(3)
    assert drawn_after_the_flip(record) == order[0]
    record["deal"]["reshuffle"] = order[::-1]
    assert drawn_after_the_flip(record) == order[-1]
    broken = copy.deepcopy(record)
    broken["deal"]["reshuffle"] = order[:-1]
    with pytest.raises(RecordError, match=r"action 21: R-RU-SHUFFLE.*not the 12 cards turned over"):
        replay_record(broken)
    twice = copy.deepcopy(record)
    twice["deal"]["reshuffle"] = [order[0], *order[:-1]]
    with pytest.raises(RecordError, match=r"R-RU-SHUFFLE.*twice"):
        replay_record(twice)
    flip = copy.deepcopy(record)
    flip["ruleset"] = dict(flip["ruleset"], stock_end="flip_once")
    with pytest.raises(RecordError, match=r"R-RU-SHUFFLE.*only"):
        replay_record(flip)


def test_R_RU_SHUFFLE_a_record_without_the_order_replays_the_same_way_every_time() -> None:
    record, _ = until_the_flip(4)
    del record["deal"]["reshuffle"]
    first, second = replay_hand(record), replay_hand(copy.deepcopy(record))
    assert first.record()["deal"]["reshuffle"] == second.record()["deal"]["reshuffle"]
    assert [e for e in first.events() if e["type"] == "flip"] == [{"type": "flip", "cards": 12, "shuffled": True}]


def test_R_RU_SHUFFLE_a_seeded_game_is_reproducible_and_views_never_show_the_order() -> None:
    def play(seed: int) -> list[dict[str, Any]]:
        game = RummyGame(load_ruleset({"game": "rummy", "name": "shuffled", "stock_end": "shuffle_once"}),
                         ["Ann", "Bob"], seed=seed)
        out = []
        rng = random.Random(seed)
        for _ in range(3):
            hand = game.deal()
            while not hand.over:
                actions = hand.legal_actions()
                hand.apply(actions[rng.randrange(len(actions))])
                if hand.flips and not hand.over:
                    for seat in (None, 0, 1):
                        assert "reshuffle" not in json.dumps(hand.view(seat))
            out.append(hand.record())
            game.finish_hand()
        return out

    records = play(8)
    assert records == play(8) and any("reshuffle" in r["deal"] for r in records)


def test_R_RU_SHUFFLE_loads_from_a_ruleset_file_and_is_refused_misspelt(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('game = "rummy"\nname = "house"\nstock_end = "shuffle_once"\n', encoding="utf-8")
    house = load_ruleset(path, trusted=True)
    assert house.stock_end == "shuffle_once" and load_ruleset(house.to_dict()) == house
    with pytest.raises(MalformedInput, match=r'"stock_end" must be one of flip_once, block, shuffle_once'):
        load_ruleset({"game": "rummy", "stock_end": "shuffle"})


def test_R_RU_SHUFFLE_random_play_keeps_every_card_in_one_place() -> None:
    rules_ = load_ruleset(SHUFFLE | {"hand_size": {"2": 10, "3": 7}})
    rng = random.Random(11)
    for players in (2, 3):
        for _ in range(20):
            hand = random_hand(rules_, players, rng)
            places = [*hand.hands, sum(1 << c for c in hand.stock), sum(1 << c for c in hand.pile), *hand.melds]
            total = 0
            for mask in places:
                assert not total & mask
                total |= mask
            assert total == (1 << 52) - 1
