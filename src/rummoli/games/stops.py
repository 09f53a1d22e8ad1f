"""The stops family: Rummoli, Tripoley and Michigan (:mod:`rummoli.stops`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rummoli.games.family import Evening, Family, Hand


class StopsFamily(Family):
    name = "stops"
    unit = "chips"
    has_board = True
    evening_word = "evening"
    steps_forced = True

    def load_ruleset(self, source: Any, *, trusted: bool = False) -> Any:
        from rummoli.stops import load_ruleset

        return load_ruleset(source, trusted=trusted)

    def builtin_names(self) -> list[str]:
        from rummoli.stops import BUILTIN_RULESETS

        return list(BUILTIN_RULESETS)

    def read_action(self, data: dict[str, Any]) -> Any:
        from rummoli.stops import Action

        return Action.from_json(data)

    def evening(self, reference: str | dict[str, Any], names: Sequence[str], chips: int | None, hands: int | None,
                dealer: int | None, cut_seed: str | None) -> Evening:
        from rummoli.evening import StopsEvening

        return StopsEvening(reference, names, chips, hands, dealer, cut_seed)

    def replay_record(self, record: dict[str, Any]) -> dict[str, Any]:
        from rummoli.stops import replay_record

        return replay_record(record)

    def replay_hand(self, record: dict[str, Any]) -> Hand:
        from rummoli.stops import replay_hand

        return replay_hand(record)

    def steps(self, record: dict[str, Any]) -> Iterator[Hand]:
        from rummoli.stops import Action, hand_from_record

        actions = record.get("actions")
        hand = hand_from_record(record, auto=False)
        yield hand
        for data in actions if isinstance(actions, list) else []:
            action = Action.from_json(data)
            while not hand.over and (forced := hand.forced_action()) is not None and forced != action:
                hand.step_forced()
                yield hand
            hand.apply(action)
            yield hand
        while not hand.over and hand.step_forced():
            yield hand

    def random_hand_record(self, reference: str | dict[str, Any], players: int, seed: str | None) -> dict[str, Any]:
        from rummoli.stops import random_hand_record

        return random_hand_record(reference, players, seed)

    def seat_range(self, reference: str | dict[str, Any]) -> tuple[int, int, set[int]]:
        rules = self.load_ruleset(reference)
        return rules.min_players, rules.max_players, set(range(rules.min_players, rules.max_players + 1))
