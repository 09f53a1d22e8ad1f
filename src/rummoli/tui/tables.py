"""An evening at the terminal table, without any drawing: the engine, the bots, the steps and the records.

A :class:`Table` holds the state of the hand in play, but hands the screens only the human seat's view
(:meth:`Table.view`, a JSON copy of ``hand.view(0)``).  :meth:`Table.step` makes one move that is not the
human's -- a forced play or one bot decision -- so the application can show each at a readable pace.

>>> t = open_table(PlayOptions(ruleset="michigan", players=3, bots=["random"], seed="7", hands=1))
>>> t.game, t.names, t.view()["seat"]
('stops', ['You', 'Ann', 'Bob'], 0)
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummoli.bots.base import LEVELS, Bot, make_bot, seats_to_act
from rummoli.bots.driver import show_hand_over, view_for
from rummoli.records import game_of, ruleset_reference

NAMES = ("You", "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
HUMAN = 0


@dataclass
class PlayOptions:
    """The options of ``rummoli play``."""

    ruleset: str = "rummoli"
    players: int = 4
    bots: list[str] = field(default_factory=lambda: ["easy"])
    chips: int | None = None
    hands: int | None = None
    seed: str | None = None
    ascii: bool = False
    pace: float = 0.7
    save: Path | None = None


def default_records_dir() -> Path:
    """Where an evening's records go unless ``--save`` says otherwise (XDG data folder)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rummoli" / "records"


def seat_levels(levels: list[str], bots: int) -> list[str]:
    """One level per computer seat: the list as given, its last level repeated.

    >>> seat_levels(["easy", "hard"], 3)
    ['easy', 'hard', 'hard']
    """
    levels = [lv.strip() for lv in levels if lv.strip()] or ["easy"]
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    return [levels[min(k, len(levels) - 1)] for k in range(bots)]


def make_bots(game: str, levels: list[str], seed: str | None) -> tuple[list[Bot | None], list[str]]:
    """The computer players of seats 1..n (seat 0 is the human), and notes on any level that fell back."""
    bots: list[Bot | None] = [None]
    notes: list[str] = []
    for seat, level in enumerate(levels, start=1):
        bot_seed = None if seed is None else f"{seed}-bot{seat}"
        try:
            bots.append(make_bot(game, level, bot_seed))
        except (ImportError, ValueError) as error:
            bots.append(make_bot(game, "random", bot_seed))
            note = f"{level} bots for {game} are not available yet ({error}): playing random instead"
            if note not in notes:
                notes.append(note)
    return bots, notes


class Table:
    """The evening's common part: names, bots, hands played, records on disk."""

    game = ""

    def __init__(self, options: PlayOptions, reference: str | dict[str, Any]) -> None:
        self.options = options
        self.reference = reference
        self.names = list(NAMES[: options.players])
        self.bots, self.notes = make_bots(self.game, seat_levels(options.bots, options.players - 1), options.seed)
        self.records: list[dict[str, Any]] = []
        self.saved: list[Path] = []
        self.folder: Path | None = None
        self.hand: Any = None
        self.quit = False

    # -------------------------------------------------------------------------------- seeds
    def _seed(self, what: str) -> str | None:
        return None if self.options.seed is None else f"{self.options.seed}-{what}"

    # -------------------------------------------------------------------------------- views
    def view(self) -> dict[str, Any]:
        """The human seat's view of the hand in play, as plain JSON data."""
        return view_for(self.hand, self.hand_seat(HUMAN))

    def hand_seat(self, seat: int) -> int:
        return seat

    def human_to_act(self) -> bool:
        """Whether the hand waits for the player's decision (a forced play is made for them)."""
        return not self.hand.over and not self.forced() and self.hand_seat(HUMAN) in seats_to_act(self.view())

    def forced(self) -> bool:
        return False

    def can_step(self) -> bool:
        """Whether :meth:`step` has a move to make (a forced play or a bot's turn)."""
        return not self.hand.over and not self.human_to_act()

    # -------------------------------------------------------------------------------- records
    def keep_record(self, record: dict[str, Any]) -> Path:
        """Keep a finished hand's record and write it at once (one replayable file per hand)."""
        self.records.append(record)
        if self.folder is None:
            base = self.options.save if self.options.save is not None else default_records_dir()
            name = self.reference if isinstance(self.reference, str) else str(self.reference.get("name", "custom"))
            stamp = time.strftime("%Y%m%d-%H%M%S")
            folder = base / f"{stamp}-{name}"
            k = 1
            while folder.exists():
                k += 1
                folder = base / f"{stamp}-{name}-{k}"
            folder.mkdir(parents=True)
            self.folder = folder
        path = self.folder / f"hand-{len(self.records):02d}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        self.saved.append(path)
        return path

    def goodbye(self) -> str:
        """What the command prints when the evening ends or the player quits."""
        if not self.saved:
            return "No hand was finished, so no record was saved."
        assert self.folder is not None
        return (f"{len(self.saved)} hand record(s) saved in {self.folder}\n"
                f"Replay one with: rummoli replay {self.saved[-1]}")

    # -------------------------------------------------------------------------------- the game
    def step(self) -> bool:
        """Make one move that is not the human's (a forced play or a bot's decision); False if none."""
        raise NotImplementedError

    def act(self, action: dict[str, Any]) -> None:
        """The human's decision, an R-NOTE-3 object from the view's legal actions."""
        raise NotImplementedError

    @property
    def evening_over(self) -> bool:
        raise NotImplementedError

    def finish_hand(self) -> None:
        raise NotImplementedError

    def next_hand(self) -> None:
        raise NotImplementedError

    def standings(self) -> list[tuple[int, str, str]]:
        """(place, name, chips or score) from the best down."""
        raise NotImplementedError


class StopsTable(Table):
    """An evening of Rummoli, Tripoley or Michigan: a :class:`~rummoli.stops.Session` and its hands."""

    game = "stops"

    def __init__(self, options: PlayOptions, reference: str | dict[str, Any]) -> None:
        from rummoli.stops import Session

        super().__init__(options, reference)
        self.session = Session(reference, self.names, chips=options.chips, cut_seed=self._seed("cut"),
                               max_hands=options.hands)
        self.seats: list[int] = []
        self.settlement: list[dict[str, Any]] = []
        self.next_hand()

    def hand_seat(self, seat: int) -> int:
        return self.seats.index(seat)

    def forced(self) -> bool:
        return self.hand.forced_action() is not None

    def next_hand(self) -> None:
        session = self.session
        # Forced plays are made one by one by step(), so the player sees each.
        self.hand = session.start_hand(seed=self._seed(f"hand{session.hands_played + 1}"), auto=False)
        self.seats = session.hand_seats

    def step(self) -> bool:
        hand = self.hand
        if hand.over:
            return False
        if hand.forced_action() is not None:
            hand.step_forced()
            return True
        to_act = hand.to_act()
        human = self.hand_seat(HUMAN)
        if human in to_act:
            return False
        seat = to_act[0]
        bot = self.bots[self.seats[seat]]
        assert bot is not None
        from rummoli.stops import Action

        hand.apply(Action.from_json(bot.choose(view_for(hand, seat))))
        return True

    def act(self, action: dict[str, Any]) -> None:
        from rummoli.stops import Action

        self.hand.apply(Action.from_json({**action, "seat": self.hand_seat(HUMAN)}))

    def finish_hand(self) -> None:
        show_hand_over(self.hand, [self.bots[s] for s in self.seats])
        self.keep_record(self.session.finish_hand(self.hand))

    @property
    def evening_over(self) -> bool:
        return self.quit or self.session.over or not self.session.seated[HUMAN]

    def settle(self) -> list[dict[str, Any]]:
        """R-SESSION-2 at the agreed end of the evening (not when the player walks away)."""
        if not self.session.settled and self.session.over:
            self.settlement = self.session.settle(seed=self._seed("settle"))
        return self.settlement

    def standings(self) -> list[tuple[int, str, str]]:
        return [(row["place"], row["name"], str(row["chips"])) for row in self.session.standings()]


class RummyTable(Table):
    """A Rummy-family game to its target: a :class:`~rummoli.rummy.RummyGame` and its hands."""

    game = "rummy"

    def __init__(self, options: PlayOptions, reference: str | dict[str, Any]) -> None:
        from rummoli.rummy import RummyGame

        super().__init__(options, reference)
        self.match = RummyGame(reference, self.names, seed=self._seed("deck"))
        self.rules = self.match.rules
        self.next_hand()

    def next_hand(self) -> None:
        self.hand = self.match.deal()

    def step(self) -> bool:
        hand = self.hand
        if hand.over or hand.turn == HUMAN:
            return False
        bot = self.bots[hand.turn]
        assert bot is not None
        from rummoli.rummy import Action

        hand.apply(Action.from_json(bot.choose(view_for(hand, hand.turn))))
        return True

    def act(self, action: dict[str, Any]) -> None:
        from rummoli.rummy import Action

        self.hand.apply(Action.from_json({**action, "seat": HUMAN}))

    def finish_hand(self) -> None:
        show_hand_over(self.hand, self.bots)
        self.keep_record(self.hand.record())
        self.match.finish_hand()

    @property
    def evening_over(self) -> bool:
        limit = self.options.hands
        return self.quit or self.match.over or (limit is not None and self.match.hands_played >= limit)

    def standings(self) -> list[tuple[int, str, str]]:
        return [(row["place"], row["name"], str(row["score"])) for row in self.match.standings()]


def open_table(options: PlayOptions) -> Table:
    """The table for ``options.ruleset`` (a built-in name or a ``.toml`` file)."""
    reference = ruleset_reference(options.ruleset)
    if game_of(reference) == "stops":
        return StopsTable(options, reference)
    return RummyTable(options, reference)
