"""A Rummy game, the family's evening (as :class:`rummoli.stops.Session` is the stops games'): hands dealt in
turn, the deal rotating left, scores running to the target (R-RU-6).

>>> game = RummyGame("rummy", ["Ann", "Bob"], seed=7)
>>> hand = game.deal()
>>> hand.dealer, len(hand.stock), game.over
(0, 31, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rummoli.cards import CARDS, Card
from rummoli.errors import MalformedInput
from rummoli.limits import MAX_SCORE
from rummoli.rummy.hand import RummyHand
from rummoli.rummy.ruleset import Ruleset, load_ruleset


def deal_cards(
    ruleset: Ruleset, players: int, dealer: int, deck: Sequence[Card]
) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``deck`` top first, one card at a time from the dealer's left (R-RU-1): hands and stock."""
    size = ruleset.hand_size_for(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(size * players):
        hands[(dealer + 1 + k) % players].append(deck[k])
    return hands, list(deck[size * players :])


class RummyGame:
    """Running scores, the dealer, and the hand in play; the game ends when a score reaches the target."""

    def __init__(
        self,
        ruleset: Ruleset | str | dict[str, Any],
        players: Sequence[str],
        scores: Sequence[int] | None = None,
        dealer: int = 0,
        seed: int | str | None = None,
    ) -> None:
        self.rules = load_ruleset(ruleset)
        self.rules.hand_size_for(len(players))
        self.players = list(players)
        self.scores = list(scores) if scores is not None else [0] * len(players)
        if len(self.scores) != len(players) or any(
            isinstance(s, bool) or not isinstance(s, int) or not -MAX_SCORE <= s <= MAX_SCORE for s in self.scores
        ):
            raise MalformedInput(f"scores: one whole number from {-MAX_SCORE:,} to {MAX_SCORE:,} per player")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < len(players):
            raise MalformedInput(f"dealer must be a seat from 0 to {len(players) - 1}")
        self.dealer = dealer
        # R-RNG-1: a real game shuffles from the operating system's secure source; a seed is for tests,
        # simulations and replays only.
        self.rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        self.hand: RummyHand | None = None
        self.hands_played = 0
        self.hands_won = [0] * len(players)
        self.bonuses: list[dict[str, Any]] = []  # Gin's game, box and shutout bonuses (R-GIN-7)

    def deal(self, deck: Sequence[Card] | None = None) -> RummyHand:
        """Start the next hand (from ``deck`` top first, or a shuffle of the game's own)."""
        if self.hand is not None and not self.hand.over:
            raise MalformedInput("the current hand is still being played")
        if self.over:
            raise MalformedInput("the game is over")
        if deck is None:
            cards = list(CARDS)
            self.rng.shuffle(cards)
            deck = cards
        hands, stock = deal_cards(self.rules, len(self.players), self.dealer, deck)
        # R-RU-SHUFFLE: a turned-over pile is shuffled from the game's source too (secure unless seeded)
        self.hand = RummyHand(self.rules, self.players, self.scores, self.dealer, hands, stock, rng=self.rng)
        return self.hand

    def finish_hand(self) -> list[int]:
        """Add the finished hand's points to the scores and pass the deal left; returns the new scores."""
        hand = self.hand
        if hand is None or not hand.over:
            raise MalformedInput("no finished hand to score")
        self.scores = [s + d for s, d in zip(self.scores, hand.deltas, strict=True)]
        winner = hand.outcome.get("winner")
        if winner is not None and hand.deltas[winner] > 0:
            self.hands_won[winner] += 1
        self.dealer = (self.dealer + 1) % len(self.players)  # R-SEAT-1, in every game of the family
        self.hands_played += 1
        self.hand = None
        if self.rules.style == "gin" and max(self.scores) >= self.rules.target:
            self._gin_bonuses()
        return list(self.scores)

    def _gin_bonuses(self) -> None:
        """R-GIN-7: the game bonus (doubled for a shutout) and a box for every hand won."""
        rules = self.rules
        best = max(self.scores)
        winner = self.scores.index(best)
        shutout = all(s == 0 for seat, s in enumerate(self.scores) if seat != winner)
        game_bonus = rules.game_bonus * (2 if shutout else 1)
        self.bonuses.append({"seat": winner, "points": game_bonus, "reason": "shutout" if shutout else "game"})
        for seat, won in enumerate(self.hands_won):
            if won:
                self.bonuses.append({"seat": seat, "points": rules.box_bonus * won, "reason": "boxes"})
        for bonus in self.bonuses:
            self.scores[bonus["seat"]] += bonus["points"]

    @property
    def over(self) -> bool:
        return max(self.scores) >= self.rules.target

    def winners(self) -> list[int]:
        """Seats with the highest score once the game is over (equal scores share the win)."""
        if not self.over:
            return []
        best = max(self.scores)
        return [s for s, v in enumerate(self.scores) if v == best]

    def standings(self) -> list[dict[str, Any]]:
        """Players from the highest score down, with their place (equal scores share a place)."""
        order = sorted(range(len(self.players)), key=lambda s: -self.scores[s])
        rows: list[dict[str, Any]] = []
        for position, seat in enumerate(order):
            place = position + 1
            if position and self.scores[seat] == self.scores[order[position - 1]]:
                place = rows[-1]["place"]
            rows.append({"place": place, "seat": seat, "name": self.players[seat], "score": self.scores[seat]})
        return rows
