"""What a stops bot remembers of its opponents from one hand to the next: whether their bets mean a hand.

Counting players read a bet as strength (:meth:`rummoli.bots.stops_bots.NormalStopsBot.win_chance`).
That is right against players who bet on their cards and costly against one who bets on anything: every
wild bet then looks like a monster and the counter folds hands that win.  The only honest evidence of
what a bet meant is the showdown (R-POKER-3 shows the five cards of every hand still in), so that is all
this memory uses -- never the bet rate, which would also brand a strong player who bets often.

For every player (by the name the view gives; the bot itself included, since the table has seen its
showdowns too) it keeps the showdowns where they had bet or raised and
how many of those showed a hand worth a bet: one that would beat the rest of the table
(:data:`WORTHY` of the time or more).  Two kinds of bettor explain what it sees: one who bets on
strength (a worthy hand most times) and one whose bets say nothing of the cards (a worthy hand as often
as a random hand is one, which is rarer the more players are dealt in).
:meth:`BettingMemory.credibility` is the chance, after what has been shown, that the opponent is the
first kind; the bots blend their bet likelihoods with it.  The ``hard`` search plays a discredited
opponent's bets at random in its rollouts, and lets its opponents doubt its own bets as far as its
showdowns have given them reason to.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from rummoli.bots.stops_infer import mask_of_texts
from rummoli.bots.stops_policy import poker_percentile

#: a shown hand is worth a bet when it would beat all the other hands dealt about this often or more
WORTHY = 0.35
#: how often a bettor on strength shows a worthy hand after betting
WORTHY_IF_HONEST = 0.85
#: before any showdown, bets are believed
PRIOR_HONEST = 0.9
#: what a bettor's action is worth as evidence when it says nothing of the cards (a constant: only
#: its size next to the honest likelihoods matters)
UNINFORMED = 0.5


def betting_seats(view: Mapping[str, Any]) -> dict[int, int]:
    """Seat -> how many times it bet or raised in the view's poker round, read from the view's ``actions`` (the
    action events less their other keys), or from its ``events`` when it has no actions."""
    out: dict[int, int] = {}
    actions = view.get("actions")
    if actions is None:
        actions = [ev for ev in view.get("events", []) if ev.get("type") == "action"]
    for action in actions:
        if action.get("action") in ("bet", "raise"):
            seat = int(action["seat"])
            out[seat] = out.get(seat, 0) + 1
    return out


def learns_from(view: Mapping[str, Any]) -> bool:
    """Whether :meth:`BettingMemory.observe` learns anything from this ended hand: only a showdown of two hands
    or more tells what a bet meant (the view's history is not needed to know)."""
    return len(view.get("showdown") or {}) >= 2


class BettingMemory:
    """Showdown evidence per opponent name, gathered from the end-of-hand views a bot is shown."""

    def __init__(self) -> None:
        #: name -> [showdowns after betting, of which worthy]
        self.record: dict[str, list[int]] = {}
        #: name -> the log of how much likelier the showdowns were from an honest bettor than a wild one
        self.evidence: dict[str, float] = {}

    def observe(self, view: Mapping[str, Any]) -> None:
        """Learn from a finished hand's view (its showdown and who bet)."""
        if not learns_from(view):
            return
        showdown = view["showdown"]
        bettors = betting_seats(view)
        played = [0] * len(view["players"])
        for p in view.get("played", []):
            played[int(p["seat"])] += 1
        others = len(view["players"]) - 1
        wild_worthy = 1.0 - WORTHY ** (1.0 / max(1, others))  # the share of random hands that are worthy
        for seat_text, cards in showdown.items():
            seat = int(seat_text)
            # The viewer's own bets are counted too: the table has seen the same showdowns, so this
            # is how far the others have reason to believe it.
            if seat not in bettors:
                continue
            # The five shown are the best of the whole hand held in the poker round: rate them
            # among random hands of that size.
            size = int(view["hand_sizes"][seat]) + played[seat]
            worthy = poker_percentile(mask_of_texts(cards), size) ** others >= WORTHY
            name = str(view["players"][seat])
            entry = self.record.setdefault(name, [0, 0])
            entry[0] += 1
            entry[1] += int(worthy)
            ratio = WORTHY_IF_HONEST / wild_worthy if worthy else (1 - WORTHY_IF_HONEST) / (1 - wild_worthy)
            self.evidence[name] = self.evidence.get(name, 0.0) + math.log(ratio)

    def to_json(self) -> dict[str, Any]:
        """What has been learnt, as JSON (a table's snapshot keeps it)."""
        return {"record": {k: list(v) for k, v in self.record.items()}, "evidence": dict(self.evidence)}

    def load_json(self, data: Mapping[str, Any]) -> None:
        self.record = {str(k): [int(v[0]), int(v[1])] for k, v in data["record"].items()}
        self.evidence = {str(k): float(v) for k, v in data["evidence"].items()}

    def credibility(self, name: str) -> float:
        """The chance that ``name`` bets on its cards, after the showdowns seen."""
        return _credibility(self.evidence.get(name, 0.0))

    def by_seat(self, view: Mapping[str, Any]) -> list[float]:
        """:meth:`credibility` for every seat of the view's table."""
        evidence = self.evidence
        return [_credibility(evidence.get(str(name), 0.0)) for name in view["players"]]


@functools.lru_cache(maxsize=256)
def _credibility(evidence: float) -> float:
    """:meth:`BettingMemory.credibility` of a player with this much evidence: asked for every seat at every
    decision, and a player's evidence changes only at a showdown."""
    odds = PRIOR_HONEST / (1 - PRIOR_HONEST) * math.exp(max(-50.0, min(50.0, evidence)))
    return odds / (1 + odds)


def believed(credibility: float, likelihood: float) -> float:
    """A betting action's likelihood given a hand, for a bettor believed with ``credibility``."""
    return credibility * likelihood + (1.0 - credibility) * UNINFORMED
