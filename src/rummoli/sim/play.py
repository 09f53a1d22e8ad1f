"""One task of a tournament: an evening (stops games) or a game (Rummy family) for one rotation, played at
the one :class:`~rummoli.table.Table` every client uses.

Everything random in a task derives from the tournament's seed and the task's numbers, so a task plays
the same wherever and whenever it runs.  The deck of hand ``k`` of block ``b`` is the same in every
rotation: that is what makes the deals duplicate.  Each bot also starts every hand from a generator
seeded by its entry and the hand (:func:`reseed`), the same in every rotation, and each hand's chance
(a Rummy stock shuffled when it runs out) from the block and the hand.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummoli.cards import Card, shuffled_deck
from rummoli.errors import IllegalAction
from rummoli.sim.config import SimConfig, derive_seed
from rummoli.table import Seat, Table

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
    """The deck of hand ``hand`` of deal sequence ``block`` (the same in every rotation: shuffled once)."""
    assert config.seed is not None
    return list(_shuffled(derive_seed(config.seed, "deal", block, hand)))


@functools.lru_cache(maxsize=1024)
def _shuffled(seed: int) -> tuple[Card, ...]:
    return tuple(shuffled_deck(seed))


def reseed(config: SimConfig, table: Table, block: int, hand: int, seats: Sequence[int]) -> None:
    """Give each bot in the hand just dealt a fresh generator for it, seeded from its entry and not its seat,
    so that in every rotation an entry meets the hand with the same draws (common random numbers: a random
    bot's luck cancels like the cards' do)."""
    assert config.seed is not None
    for seat in table.hand_seats:
        bot = table.bots[seat]
        assert bot is not None
        bot.rng.seed(derive_seed(config.seed, "bot", block, hand, seats[seat]))


#: The cyclic collector's thresholds while the lab plays (Python's: 700, 10, 10). A lab hand makes and frees some
#: ten thousand small dictionaries and lists (views, events, actions), nearly all freed by reference counting at
#: once; at Python's thresholds the youngest generation was examined every 700 of them, and the ones still alive
#: then again. Four normal bots' hands took 11% less CPU at these (8 to 17%, six interleaved runs of 480 hands
#: each; 2% fewer instructions), with the same peak memory (43 MB over 1,600 hands) and the same play.
LAB_GC_THRESHOLDS = (100_000, 50, 50)


@contextlib.contextmanager
def lab_collector() -> Iterator[None]:
    """The collector at :data:`LAB_GC_THRESHOLDS` for the ``with`` block, then as it was."""
    before = gc.get_threshold()
    gc.set_threshold(*LAB_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def run_task(config: SimConfig, task: int) -> TaskResult:
    """Play task ``task`` of a checked configuration: one evening (or game) at a :class:`~rummoli.table.Table`,
    every seat a bot, the same table the terminal and the server play at.  The lab's table deals the
    duplicate decks, keeps the board at the end (it measures the hands: a settlement would deal fresh cards)
    and hands its bots cheaper copies of their views (``fast``: the same choices); the collector runs less
    often meanwhile (:func:`lab_collector`)."""
    with lab_collector():
        return _play_task(config, task)


def _play_task(config: SimConfig, task: int) -> TaskResult:
    """:func:`run_task`'s evening or game."""
    assert config.seed is not None
    seed = config.seed
    block, rotation = divmod(task, config.players)
    seats = config.seats_of(rotation)  # the entry at each seat
    labels = config.labels()
    board = config.family.has_board  # an evening of hands on a board; else a game to a target
    limit = config.hands if board else (config.hands or SAFETY_HANDS)
    players = [Seat(labels[e], bot=config.bots[e], seed=derive_seed(seed, "bot", block, rotation, e)) for e in seats]
    table = Table(config.ruleset, players, hands=limit, dealer=0, samples=config.samples, budget=config.budget,
                  decks=lambda number: deck_for(config, block, number - 1), deal=False, settle=False, fast=True)
    start = [float(c) for c in table.chips()]
    pots: dict[str, list[int]] = {pot: [0, 0, 0] for pot in table.evening.pots(None)}
    out = TaskResult(task, block, rotation, seats, 0, [], stacks=[start],
                     board_start=sum(table.evening.pots(None).values()), pots=pots)
    if config.keep_records:
        out.records, out.decks = [], []
    while not table.over:
        played = table.hand_no
        try:
            table.next_hand(chance=derive_seed(seed, "chance", block, played))
        except IllegalAction:
            if table.over:  # a stops evening is over once the broke players have left, which the deal finds
                break
            raise
        reseed(config, table, block, played, seats)
        while not table.hand_over:
            table.play_bot()
        won = dict.fromkeys(pots, 0)
        for pot_won in table.results[-1].get("pots_won", []):  # the hand's own result, as every table shows it
            won[pot_won["pot"]] += pot_won["amount"]
        left = table.evening.pots(None)
        for pot, amount in won.items():
            if amount:
                pots[pot][0] += 1
                pots[pot][2] += amount
            elif left[pot]:
                pots[pot][1] += 1
        out.stacks.append([float(c) for c in table.chips()])
        if out.records is not None and out.decks is not None:
            out.records.append(table.records[-1])
            out.decks.append([str(c) for c in deck_for(config, block, played)])
    out.hands = table.hand_no
    final = out.stacks[-1]
    out.board_end = sum(table.evening.pots(None).values())
    if board:
        out.net = [0.0] * config.players
        for seat, entry in enumerate(seats):
            out.net[entry] = final[seat] - start[seat]
        return out
    best = max(final)
    out.finished = best >= table.rules.target
    winners = [s for s, v in enumerate(final) if v == best]  # the leaders of an unfinished game
    out.net, out.wins = [0.0] * config.players, [0.0] * config.players
    for seat, entry in enumerate(seats):
        out.net[entry] = final[seat]
        if seat in winners:
            out.wins[entry] = 1.0 / len(winners)
    return out
