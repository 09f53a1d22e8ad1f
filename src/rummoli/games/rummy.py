"""The Rummy family: straight Rummy and its variants, 500 Rum, Knock Rummy and Gin (:mod:`rummoli.rummy`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rummoli.errors import MalformedInput
from rummoli.games.family import Evening, Family, Hand


def rummy_words(rules: Any) -> list[str]:
    """A Rummy ruleset's style and options in words."""
    style = {"straight": "Straight Rummy: draw, meld sets and runs, lay off, discard; first out scores the "
                         "cards left in the other hands.",
             "500": "500 Rum: take any discard with everything above it; melds score for their maker.",
             "knock": "Knock Rummy: no melding in play; knock to end the hand, lowest deadwood collects.",
             "gin": "Gin Rummy: knock with 10 or less deadwood; gin and undercut bonuses."}
    lines = [style.get(str(rules.style), f"Style: {rules.style}.")]
    lines.append({"low": "Aces are low (A-2-3 is a run).",
                  "high": f"Aces are high (Q-K-A is a run) and count {rules.ace_value}.",
                  "around": f"Runs may go round the corner (K-A-2); aces count {rules.ace_value}."}
                 .get(str(rules.aces), f"Aces: {rules.aces}."))
    lines.append({"flip_once": "When the stock runs out the discards are turned over once.",
                  "block": "When the stock runs out the hand is blocked: the lowest hand collects the differences.",
                  "shuffle_once": "When the stock runs out the discards are shuffled into a new stock once."}
                 .get(str(rules.stock_end), ""))
    if rules.boathouse:
        lines.append("Boathouse: taking the discard means taking the top stock card too.")
    if rules.rummy_bonus and rules.style == "straight":
        lines.append("Going out all at once (rummy) scores double.")
    lines.append(f"The game is won at {rules.target} points.")
    return [line for line in lines if line]


def text_title(name: str) -> str | None:
    """The title of a built-in's rules text (``rummoli rules NAME``), where the build has one."""
    try:
        from rummoli import rules_texts
    except ImportError:
        return None
    try:
        return str(rules_texts.title(name))
    except MalformedInput:
        return None


class RummyFamily(Family):
    name = "rummy"
    engine = "rummoli.rummy"
    unit = "points"
    has_board = False
    evening_word = "game"

    def builtin_names(self) -> list[str]:
        from rummoli.rummy import builtin_names

        return builtin_names()

    def evening(self, reference: str | dict[str, Any], names: Sequence[str], chips: int | None, hands: int | None,
                dealer: int | None, cut_seed: str | None) -> Evening:
        from rummoli.evening import RummyEvening

        return RummyEvening(reference, names, hands, dealer, cut_seed)

    def steps(self, record: dict[str, Any]) -> Iterator[Hand]:
        from rummoli.rummy import Action, hand_from_record

        actions = record.get("actions")
        hand = hand_from_record(record)
        yield hand
        for data in actions if isinstance(actions, list) else []:
            hand.make(Action.from_json(data))
            yield hand

    def seat_range(self, reference: str | dict[str, Any]) -> tuple[int, int, set[int]]:
        rules = self.load_ruleset(reference)
        return rules.min_players, rules.max_players, {k for k, _ in rules.hand_size}

    def describe(self, name: str) -> dict[str, Any]:
        rules = self.load_ruleset(name)
        sizes = [n for n, _ in rules.hand_size]
        return {"name": name, "game": self.name, "title": text_title(name) or name.replace("-", " ").capitalize(),
                "players": [min(sizes), max(sizes)], "chips": None, "board": [], "options": rummy_words(rules),
                "target": rules.target}
