"""What a tournament is: the ruleset, the line-up of bot levels, its length and its seed.

A tournament plays ``blocks`` deal sequences (an evening of ``hands`` hands for the stops games, a game to
its target for the Rummy family).  Each sequence is played once per rotation of the line-up around the
seats (duplicate deals), so every entry meets the same cards from every seat and the luck of the deal
cancels.  A task is one (block, rotation) pair; task ``t`` is block ``t // players``, rotation
``t % players``, and everything random in it derives from the seed and those numbers.

>>> c = SimConfig("rummoli", ("random", "random", "random"), hands=5, blocks=2, seed=1).checked()
>>> c.game, c.tasks, c.lineup_of(4)
('stops', 6, ['random', 'random', 'random'])
>>> c.seats_of(1)  # the entry sitting at each seat in rotation 1
[2, 0, 1]
"""

from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass, replace
from typing import Any

from rummoli.bots.base import LEVELS
from rummoli.errors import MalformedInput
from rummoli.games import Family, family, game_of, seat_range
from rummoli.wording import players_range

DEFAULT_HANDS = 20
DEFAULT_BLOCKS = 10


class SimError(ValueError):
    """A tournament that cannot be run as asked (the message says why)."""


@functools.lru_cache(maxsize=4096, typed=True)
def derive_seed(seed: int | str, *parts: object) -> int:
    """A 63-bit seed from the tournament's seed and a path of numbers, the same in every process.  Remembered (by
    value and type: ``1`` is not ``"1"`` nor ``1.0``): every rotation of a deal sequence asks the same seeds of its
    hands (the deck, the chance and every entry's bot), six hashes a hand."""
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True)
class SimConfig:
    """One tournament.  ``bots`` lists a level per entry, one entry per seat."""

    ruleset: str | dict[str, Any]
    bots: tuple[str, ...]
    hands: int | None = None  # stops: hands per evening (default 20); Rummy: a cap per game (default none)
    blocks: int = DEFAULT_BLOCKS  # deal sequences (evenings or games), each played once per rotation
    seed: int | str | None = None
    budget: float | None = None  # seconds per decision for searching bots
    samples: int | None = None  # worlds per decision for searching bots instead of a budget (reproducible)
    workers: int | None = None  # worker processes (None: os.cpu_count())
    keep_records: bool = False  # keep every hand record and deck (tests, debugging)
    game: str = ""  # the game family's name (rummoli.games), filled in by checked()

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def family(self) -> Family:
        """The game family of a checked configuration (rummoli.games)."""
        return family(self.game)

    @property
    def tasks(self) -> int:
        return self.blocks * self.players

    def labels(self) -> list[str]:
        """A name per entry: its level, numbered when a level appears more than once."""
        out = []
        for i, level in enumerate(self.bots):
            same = [j for j, other in enumerate(self.bots) if other == level]
            out.append(level if len(same) == 1 else f"{level}#{same.index(i) + 1}")
        return out

    def seats_of(self, rotation: int) -> list[int]:
        """The entry at each seat in ``rotation``: entry ``i`` sits at seat ``(i + rotation) % players``."""
        n = self.players
        return [(seat - rotation) % n for seat in range(n)]

    def lineup_of(self, task: int) -> list[str]:
        """The level at each seat in ``task``."""
        return [self.bots[e] for e in self.seats_of(task % self.players)]

    def worker_count(self) -> int:
        return max(1, min(self.workers or os.cpu_count() or 1, self.tasks))

    def checked(self) -> SimConfig:
        """This configuration validated, with its game and seed filled in; raises :class:`SimError`."""
        from rummoli.records import ruleset_reference

        try:
            ref = ruleset_reference(self.ruleset) if isinstance(self.ruleset, str) else self.ruleset
            game = game_of(ref)
        except MalformedInput as error:
            raise SimError(str(error)) from None
        n = len(self.bots)
        for level in self.bots:
            if level not in LEVELS:
                raise SimError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
        low, high, seated = _seat_range(game, ref)
        if n not in seated:
            raise SimError(f"ruleset {_name(ref)!r} seats {players_range(low, high)}, not {n}")
        if self.blocks < 1:
            raise SimError("play at least one deal sequence (--games)")
        board = family(game).has_board  # an evening of hands on a board, not a game to a target
        hands = self.hands if self.hands is not None else (DEFAULT_HANDS if board else 0)
        if board and hands < 1:
            raise SimError("an evening needs at least one hand (--hands)")
        if hands < 0:
            raise SimError("--hands cannot be negative")
        if self.workers is not None and self.workers < 1:
            raise SimError("--workers must be at least 1")
        if self.samples is not None and self.samples <= 0:
            raise SimError("--samples must be a positive number of worlds")
        if self.budget is not None and self.budget <= 0:
            raise SimError("--budget must be a positive number of seconds")
        for level in sorted(set(self.bots)):
            check_level(game, level)
        seed = self.seed
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big") >> 1
        return replace(self, ruleset=ref, game=game, seed=seed, hands=hands)


def check_level(game: str, level: str) -> None:
    """Refuse a level whose bots are not written yet, with a clear message."""
    from rummoli.bots.base import make_bot

    try:
        make_bot(game, level, seed=0)
    except ImportError as error:
        raise SimError(f"bot level {level!r} is not available yet ({error})") from None
    except ValueError as error:
        raise SimError(str(error)) from None


def _name(ref: str | dict[str, Any]) -> str:
    return ref if isinstance(ref, str) else str(ref.get("name", "custom"))


def _seat_range(game: str, ref: str | dict[str, Any]) -> tuple[int, int, set[int]]:
    try:
        return seat_range(ref)
    except MalformedInput as error:
        raise SimError(str(error)) from None
