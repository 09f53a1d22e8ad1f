"""One task of a tournament: an evening (stops games) or a game (Rummy family) for one rotation.

Everything random in a task derives from the tournament's seed and the task's numbers, so a task plays
the same wherever and whenever it runs.  The deck of hand ``k`` of block ``b`` is the same in every
rotation: that is what makes the deals duplicate.  Each bot also starts every hand from a generator
seeded by its entry and the hand (:func:`reseed`), the same in every rotation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rummoli.bots.base import Bot, make_bot
from rummoli.bots.driver import play_out
from rummoli.cards import shuffled_deck
from rummoli.errors import IllegalAction
from rummoli.sim.config import SimConfig, derive_seed

#: A Rummy game stops after this many hands even without a winner (random play can wander a long time).
SAFETY_HANDS = 5000


@dataclass
class TaskResult:
    """What one task gives back: per entry (line-up order) and per seat where it says so."""

    task: int
    block: int
    rotation: int
    seats: list[int]  # the entry sitting at each seat
    hands: int  # hands played
    net: list[float]  # per entry: chips won or lost (stops) or the final score (Rummy)
    wins: list[float] = field(default_factory=list)  # per entry: share of the game's win (Rummy)
    stacks: list[list[float]] = field(default_factory=list)  # per seat, before the first hand and after each
    board_start: int = 0
    board_end: int = 0
    pots: dict[str, list[int]] = field(default_factory=dict)  # pot id: [won, carried over, chips won]
    finished: bool = True  # a Rummy game reached its target
    records: list[dict[str, Any]] | None = None
    decks: list[list[str]] | None = None


def deck_for(config: SimConfig, block: int, hand: int) -> list[Any]:
    """The deck of hand ``hand`` of deal sequence ``block`` (the same in every rotation)."""
    assert config.seed is not None
    return shuffled_deck(derive_seed(config.seed, "deal", block, hand))


def make_bots(config: SimConfig, block: int, rotation: int, seats: Sequence[int]) -> list[Bot]:
    """A bot per seat, seeded from the tournament's seed, the block, the rotation and its entry."""
    assert config.seed is not None
    return [make_bot(config.game, config.bots[e], seed=derive_seed(config.seed, "bot", block, rotation, e),
                     budget=config.budget, samples=config.samples) for e in seats]


def reseed(config: SimConfig, bots: Sequence[Bot], block: int, hand: int, seats: Sequence[int]) -> None:
    """Give each bot a fresh generator for hand ``hand``, seeded from its entry and not its seat, so
    that in every rotation an entry meets the hand with the same draws (common random numbers: a
    random bot's luck cancels like the cards' do)."""
    assert config.seed is not None
    for bot, entry in zip(bots, seats, strict=True):
        bot.rng.seed(derive_seed(config.seed, "bot", block, hand, entry))


def play_hand(state: Any, bots: Sequence[Bot], game: str) -> None:
    """Let the bots play ``state`` to its end: the drivers' one loop, with its fast path for random bots
    (:func:`rummoli.bots.driver.bot_decision`)."""
    play_out(state, bots, fast=True)


def run_task(config: SimConfig, task: int) -> TaskResult:
    """Play task ``task`` of a checked configuration."""
    block, rotation = divmod(task, config.players)
    if config.family.has_board:
        return _stops_task(config, task, block, rotation)
    return _rummy_task(config, task, block, rotation)


def _stops_task(config: SimConfig, task: int, block: int, rotation: int) -> TaskResult:
    from rummoli.stops import Session

    seats = config.seats_of(rotation)
    labels = config.labels()
    session = Session(config.ruleset, [labels[e] for e in seats], dealer=0, max_hands=config.hands)
    bots = make_bots(config, block, rotation, seats)
    start = [int(c) for c in session.chips]
    pots: dict[str, list[int]] = {pot: [0, 0, 0] for pot in session.pots}
    out = TaskResult(task, block, rotation, seats, 0, [], stacks=[list(start)],
                     board_start=sum(session.pots.values()), pots=pots)
    if config.keep_records:
        out.records, out.decks = [], []
    while not session.over:
        deck = deck_for(config, block, session.hands_played)
        try:
            hand = session.start_hand(deck=deck)
        except IllegalAction:
            # Session.over is only known after the broke players leave, which start_hand does.
            if session.over:
                break
            raise
        in_hand = session.players_left
        reseed(config, [bots[s] for s in in_hand], block, session.hands_played, [seats[s] for s in in_hand])
        play_hand(hand, [bots[s] for s in in_hand], "stops")
        won = dict.fromkeys(pots, 0)
        result = hand.result()
        assert result is not None  # the bots played the hand to its end
        for entry in result["pots_won"]:  # the hand's own result, as every table shows it
            won[entry["pot"]] += entry["amount"]
        session.finish_hand(hand)
        for pot, amount in won.items():
            if amount:
                pots[pot][0] += 1
                pots[pot][2] += amount
            elif session.pots[pot]:
                pots[pot][1] += 1
        out.stacks.append([int(c) for c in session.chips])
        if out.records is not None and out.decks is not None:
            out.records.append(session.records[-1])
            out.decks.append([str(c) for c in deck])
    out.hands = session.hands_played
    net = [0.0] * config.players
    for seat, entry in enumerate(seats):
        net[entry] = float(session.chips[seat] - start[seat])
    out.net = net
    out.board_end = sum(session.pots.values())
    return out


def _rummy_task(config: SimConfig, task: int, block: int, rotation: int) -> TaskResult:
    from rummoli.rummy import RummyGame

    assert config.seed is not None
    seats = config.seats_of(rotation)
    labels = config.labels()
    game = RummyGame(config.ruleset, [labels[e] for e in seats], dealer=0,
                     seed=derive_seed(config.seed, "game", block))
    bots = make_bots(config, block, rotation, seats)
    out = TaskResult(task, block, rotation, seats, 0, [], stacks=[list(game.scores)])
    if config.keep_records:
        out.records, out.decks = [], []
    limit = config.hands or SAFETY_HANDS
    while not game.over and game.hands_played < limit:
        deck = deck_for(config, block, game.hands_played)
        hand = game.deal(deck)
        reseed(config, bots, block, game.hands_played, seats)
        play_hand(hand, bots, "rummy")
        if out.records is not None and out.decks is not None:
            out.records.append(hand.record())
            out.decks.append([str(c) for c in deck])
        game.finish_hand()
        out.stacks.append(list(game.scores))
    out.hands = game.hands_played
    out.finished = game.over
    best = max(game.scores)
    winners = [s for s, v in enumerate(game.scores) if v == best]  # the leaders of an unfinished game
    net = [0.0] * config.players
    wins = [0.0] * config.players
    for seat, entry in enumerate(seats):
        net[entry] = float(game.scores[seat])
        if seat in winners:
            wins[entry] = 1.0 / len(winners)
    out.net, out.wins = net, wins
    return out
