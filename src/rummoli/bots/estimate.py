"""One estimator for the hard bots and the coach: each choice of a decision with its expected value and a
95% interval, and the choice the hard bot makes.

A hard bot (:class:`~rummoli.bots.stops_bots.HardStopsBot`, :class:`~rummoli.bots.rummy_search.HardRummyBot`)
answers :meth:`Estimator.estimate` for a view: the candidates it searched, each one's value over the sampled
worlds (the same worlds for every candidate, so their differences are not noise from the deal) and the one it
prefers; its ``choose`` is that preferred choice, nothing else.  The coach asks the same question of the same
bot and may add ``extra`` actions (what a player did that the bot would not have searched): they are played in
the same worlds as *spectators*, never raced against, never preferred, so with a fixed number of worlds the
preferred choice is exactly the bot's (tests/bots/test_coach.py).

Values are in the family's unit: chips won or lost from the decision to the end of the hand (stops games), or
points against the others' average at the hand's end (Rummy family, a Gin box included).

>>> e = Estimate.build([{"action": "a"}, {"action": "b"}], [[1.0, 3.0, 2.0], [0.0, 1.0, 1.0]], [1.0] * 3,
...                    preferred=0, baseline=1, unit="chips")
>>> round(e.choices[0].mean, 2), e.preferred_action, e.worlds
(2.0, {'action': 'a'}, 3)
>>> mean, half = e.gap(0, 1)
>>> round(mean, 2), half > 0
(1.33, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rummoli.bots.base import ActionJSON, View

#: the normal quantile of a two-sided 95% interval
Z95 = 1.96


def weighted_stats(xs: Sequence[float], weights: Sequence[float]) -> tuple[float, float | None]:
    """The weighted mean of ``xs`` and the half-width of its 95% interval (``None`` below two worlds).

    The weights of a world are how likely the betting seen is in it (stops poker), else all 1; the
    effective number of worlds (Kish) stands in for their count.

    >>> weighted_stats([1.0, 2.0, 3.0], [1.0, 1.0, 1.0])[0]
    2.0
    """
    ws = list(weights[: len(xs)])
    total = sum(ws)
    if not xs or total <= 0:
        return 0.0, None
    mean = sum(w * x for w, x in zip(ws, xs, strict=True)) / total
    if len(xs) < 2:
        return mean, None
    var = sum(w * (x - mean) ** 2 for w, x in zip(ws, xs, strict=True)) / total
    eff = total * total / sum(w * w for w in ws)
    return mean, Z95 * math.sqrt(var / max(1.0, eff - 1))


def same_action(a: ActionJSON, b: ActionJSON) -> bool:
    """Whether two actions are one choice: equal, or the same meld with its cards in another order.

    >>> same_action({"action": "meld", "cards": ["9c", "9d", "9s"]}, {"action": "meld", "cards": ["9s", "9d", "9c"]})
    True
    >>> same_action({"action": "meld", "cards": ["9c", "9d"]}, {"action": "meld", "cards": ["9c", "9h"]})
    False
    """
    if a == b:
        return True
    ca, cb = a.get("cards"), b.get("cards")
    if not isinstance(ca, list) or not isinstance(cb, list):
        return False
    rest = {key: v for key, v in a.items() if key != "cards"} == {key: v for key, v in b.items() if key != "cards"}
    return rest and sorted(map(str, ca)) == sorted(map(str, cb))


@dataclass(frozen=True)
class Choice:
    """One candidate of a decision: the action, its expected value and its 95% interval (``None`` when it
    was not weighed), the worlds behind it, and facts a coach may word (``facts``)."""

    action: ActionJSON
    mean: float | None = None
    low: float | None = None
    high: float | None = None
    worlds: int = 0
    facts: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 3)

        return {"action": self.action, "mean": r(self.mean), "low": r(self.low), "high": r(self.high),
                "worlds": self.worlds, **({"facts": self.facts} if self.facts else {})}


@dataclass
class Estimate:
    """A decision weighed: its choices, the index of the one the bot plays (``preferred``) and of the one
    it falls back on unless another is clearly better (``baseline``), the worlds searched, the unit, and
    the per-world values (``scores``, ``weights``) that paired comparisons need (:meth:`gap`)."""

    choices: list[Choice]
    preferred: int
    baseline: int
    worlds: int
    unit: str
    scores: list[list[float]] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    #: how the preferred choice was found: ``search`` (over worlds) or ``rule`` (the bot's rule, unsearched)
    how: str = "search"

    @classmethod
    def build(cls, actions: Sequence[ActionJSON], scores: list[list[float]], weights: list[float], preferred: int,
              baseline: int, unit: str, offset: float = 0.0, how: str = "search") -> Estimate:
        """An estimate from the values of each candidate in each world (a candidate dropped part-way has
        fewer; ``offset`` is taken off every value, e.g. the chips a seat holds now)."""
        choices = []
        for action, xs in zip(actions, scores, strict=True):
            if not xs:
                choices.append(Choice(action))
                continue
            mean, half = weighted_stats(xs, weights)
            mean -= offset
            choices.append(Choice(action, mean, None if half is None else mean - half,
                                  None if half is None else mean + half, len(xs)))
        return cls(choices, preferred, baseline, len(weights), unit,
                   [[x - offset for x in xs] for xs in scores], list(weights), how)

    @classmethod
    def rule(cls, action: ActionJSON, unit: str) -> Estimate:
        """A decision the bot makes by a rule without searching (one legal action, a claim, the plan's meld)."""
        return cls([Choice(action)], 0, 0, 0, unit, [[]], [], "rule")

    @property
    def preferred_action(self) -> ActionJSON:
        return self.choices[self.preferred].action

    def index_of(self, action: ActionJSON) -> int | None:
        """Where ``action`` is among the choices, a meld's cards in any order (``None``: not there)."""
        for i, c in enumerate(self.choices):
            if same_action(c.action, action):
                return i
        return None

    def gap(self, better: int, worse: int) -> tuple[float, float | None]:
        """How much more choice ``better`` is worth than ``worse``, paired over the worlds both were
        played in: ``(mean, half-width of its 95% interval)`` (``None`` below two worlds)."""
        a, b = self.scores[better], self.scores[worse]
        n = min(len(a), len(b))
        if n == 0:
            return 0.0, None
        return weighted_stats([x - y for x, y in zip(a[:n], b[:n], strict=True)], self.weights[:n])

    def to_json(self) -> dict[str, Any]:
        return {"choices": [c.to_json() for c in self.choices], "preferred": self.preferred,
                "worlds": self.worlds, "unit": self.unit, "how": self.how}


class Estimator(Protocol):
    """What the coach asks of a hard bot (the bot's own ``choose`` is ``estimate(view).preferred_action``)."""

    def estimate(self, view: View, extra: Sequence[ActionJSON] = ()) -> Estimate:
        """The view's decision weighed; ``extra`` actions are weighed beside the bot's own candidates as
        spectators (never preferred)."""
        ...

    def facts(self, view: View, actions: Sequence[ActionJSON]) -> list[dict[str, Any]]:
        """Per action, facts a coach may word beside its value (``{"draws": 2.5, "deadwood": 14}``)."""
        ...
