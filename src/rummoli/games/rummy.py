"""The Rummy family: straight Rummy and its variants, 500 Rum, Knock Rummy and Gin (:mod:`rummoli.rummy`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rummoli.games.family import Evening, Family, Hand


class RummyFamily(Family):
    name = "rummy"
    unit = "points"
    has_board = False
    evening_word = "game"

    def load_ruleset(self, source: Any, *, trusted: bool = False) -> Any:
        from rummoli.rummy import load_ruleset

        return load_ruleset(source, trusted=trusted)

    def builtin_names(self) -> list[str]:
        from rummoli.rummy import builtin_names

        return builtin_names()

    def read_action(self, data: dict[str, Any]) -> Any:
        from rummoli.rummy import Action

        return Action.from_json(data)

    def evening(self, reference: str | dict[str, Any], names: Sequence[str], chips: int | None, hands: int | None,
                dealer: int | None, cut_seed: str | None) -> Evening:
        from rummoli.evening import RummyEvening

        return RummyEvening(reference, names, hands, dealer, cut_seed)

    def replay_record(self, record: dict[str, Any]) -> dict[str, Any]:
        from rummoli.rummy import replay_record

        return replay_record(record)

    def replay_hand(self, record: dict[str, Any]) -> Hand:
        from rummoli.rummy import replay_hand

        return replay_hand(record)

    def steps(self, record: dict[str, Any]) -> Iterator[Hand]:
        from rummoli.rummy import Action, hand_from_record

        actions = record.get("actions")
        hand = hand_from_record(record)
        yield hand
        for data in actions if isinstance(actions, list) else []:
            hand.apply(Action.from_json(data))
            yield hand

    def random_hand_record(self, reference: str | dict[str, Any], players: int, seed: str | None) -> dict[str, Any]:
        from rummoli.rummy import random_hand_record

        return random_hand_record(reference, players, seed)

    def seat_range(self, reference: str | dict[str, Any]) -> tuple[int, int, set[int]]:
        rules = self.load_ruleset(reference)
        return rules.min_players, rules.max_players, {k for k, _ in rules.hand_size}
