"""The terminal table's evening: a :class:`rummoli.table.Table` with the player at seat 0, and its records
written to files.

The evening itself (deals, bots, forced plays, records, standings) is the one table every client uses; this
module adds only what the terminal needs: the options of ``rummoli play``, a folder for the records, and
the player's seat.  The screens are handed the player's view only (:meth:`TerminalTable.view`, the hand's
view as JSON).  :meth:`TerminalTable.step` makes one move that is not the player's -- a forced play or one
bot decision -- so the application can show each at a readable pace.

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

from rummoli.bots.base import LEVELS, make_bot, seats_to_act
from rummoli.evening import amount
from rummoli.games import game_of
from rummoli.records import ruleset_reference
from rummoli.table import Seat, Table
from rummoli.wording import first_dealer

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


def available_levels(game: str, levels: list[str]) -> tuple[list[str], list[str]]:
    """The levels as given, with any that ``game`` has no bot for replaced by ``random``, and a note each."""
    out: list[str] = []
    notes: list[str] = []
    for level in levels:
        try:
            make_bot(game, level, 0)
            out.append(level)
        except (ImportError, ValueError) as error:
            out.append("random")
            note = f"{level} bots for {game} are not available yet ({error}): playing random instead"
            if note not in notes:
                notes.append(note)
    return out, notes


class FolderStore:
    """Each finished hand's record as a file (``hand-NN.json``) in a new folder, written at once."""

    def __init__(self, base: Path, name: str) -> None:
        self.base = base
        self.name = name
        self.folder: Path | None = None
        self.saved: list[Path] = []

    def save(self, hand_no: int, record: dict[str, Any]) -> None:
        if self.folder is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            folder = self.base / f"{stamp}-{self.name}"
            k = 1
            while folder.exists():
                k += 1
                folder = self.base / f"{stamp}-{self.name}-{k}"
            folder.mkdir(parents=True)
            self.folder = folder
        path = self.folder / f"hand-{hand_no:02d}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        self.saved.append(path)


class TerminalTable:
    """One person at seat 0 against computer players, for ``rummoli play``."""

    def __init__(self, options: PlayOptions, reference: str | dict[str, Any]) -> None:
        self.options = options
        self.reference = reference
        self.game = game_of(reference)
        self.names = list(NAMES[: options.players])
        levels, self.notes = available_levels(self.game, seat_levels(options.bots, options.players - 1))
        base = options.save if options.save is not None else default_records_dir()
        name = reference if isinstance(reference, str) else str(reference.get("name", "custom"))
        self.store = FolderStore(base, name)
        seats = [Seat(self.names[0])] + [Seat(n, level) for n, level in zip(self.names[1:], levels, strict=True)]
        # Forced plays are made one by one by step(), so the player sees each.
        self.table = Table(reference, seats, chips=options.chips, hands=options.hands, seed=options.seed,
                           auto=False, store=self.store)
        self.rules = self.table.rules
        self.quit = False
        # how the first dealer was chosen is the evening's first line, before hand 1 (the cut is public, R-MI-1)
        chosen = first_dealer(self.table.dealer_by, self.table.cut)
        self.notes = [*self.notes, chosen] if chosen else self.notes

    # -------------------------------------------------------------------------------- reading
    @property
    def hand(self) -> Any:
        return self.table.hand

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.table.records

    @property
    def saved(self) -> list[Path]:
        return self.store.saved

    @property
    def folder(self) -> Path | None:
        return self.store.folder

    @property
    def hand_no(self) -> int:
        return self.table.hand_no

    def hand_seat(self, seat: int) -> int:
        return self.table.hand_seats.index(seat)

    def view(self) -> dict[str, Any]:
        """The player's view of the hand in play, as plain JSON data: with its events (and their sentences)
        and what a person is shown beside it (the prompt, the best five, the melds arranged)."""
        view = dict(self.table.hand.view(self.hand_seat(HUMAN), history=True, guide=True))
        board = self.table.evening.pots(self.table.hand)
        if board:  # the board and the stacks now, as the web table shows them: after the evening's settlement
            view["pots"] = board  # every pot empty, and what it paid in the stacks
            view["chips"] = [self.table.chips()[seat] for seat in self.table.hand_seats]
        return json.loads(json.dumps(view))

    def forced(self) -> bool:
        return self.table.forced_due()

    def human_to_act(self) -> bool:
        """Whether the hand waits for the player's decision (a forced play is made for them)."""
        return not self.hand.over and not self.forced() and self.hand_seat(HUMAN) in seats_to_act(self.view())

    def can_step(self) -> bool:
        """Whether :meth:`step` has a move to make (a forced play or a bot's turn)."""
        return not self.hand.over and not self.human_to_act()

    # -------------------------------------------------------------------------------- playing
    def step(self) -> bool:
        """Make one move that is not the player's (a forced play or a bot's decision); False if none."""
        return self.table.step()

    def act(self, action: dict[str, Any]) -> None:
        """The player's decision, an R-NOTE-3 object from the view's legal actions."""
        self.table.act(HUMAN, {k: v for k, v in action.items() if k != "seat"})

    def finish_hand(self) -> None:
        """Nothing left to do: the table closed the hand and saved its record when it ended."""

    def next_hand(self) -> None:
        self.table.next_hand()

    @property
    def evening_over(self) -> bool:
        seated = self.table.evening.seated()[HUMAN]
        return self.quit or self.table.over or not seated

    def closing(self) -> str:
        """The table's own sentence for the evening's end (its ``evening_over`` event's: who wins, with how much), as
        the web page heads its final panel; empty before the end or when the player left early."""
        return self.table.closing

    def result(self) -> dict[str, Any]:
        """The last finished hand's result (the one every client shows: rummoli.table.Table.results)."""
        return self.table.results[-1]

    def bonuses(self) -> list[dict[str, Any]]:
        """Gin's bonuses at the end of the game, with their sentences."""
        return self.table.bonuses()

    def end_note(self) -> str:
        """What the evening's end adds in words ("": nothing), e.g. that a Gin game stopped early earns no bonus."""
        return self.table.evening.end_note()

    def settle(self) -> list[dict[str, Any]]:
        """R-SESSION-2's settlement, made by the table at the agreed end (not when the player walks away)."""
        return self.table.settlement

    def standings(self, finished: bool = False) -> list[tuple[int, str, str]]:
        """(place, name, chips or score) from the best down; ``finished``: as the finished hands left them (a hand
        left unfinished is not saved, so its ante is not counted either)."""
        rows = self.table.evening.standings() if finished else self.table.standings()
        return [(row["place"], row["name"], str(amount(row["chips"]))) for row in rows]

    def goodbye(self) -> str:
        """What the command prints when the evening ends or the player quits; then the evening's record (every
        finished hand, the settlement if the evening reached its end, the standings) is saved beside the hands'
        (R-NOTE-5): an evening left early is one too, its hands those finished (it said "the evening ends here"
        and kept no evening)."""
        if not self.saved:
            return "No hand was finished, so no record was saved."
        assert self.folder is not None
        evening = self.folder / "evening.json"
        if (self.table.over or self.quit) and not evening.exists():
            evening.write_text(json.dumps(self.table.evening_record(), ensure_ascii=False, indent=1) + "\n",
                               encoding="utf-8")
        whole = f"\nThe whole evening: rummoli replay {evening}" if evening.exists() else ""
        count = len(self.saved)
        return (f"{count} hand record{'' if count == 1 else 's'} saved in {self.folder}\n"
                f"Replay one with: rummoli replay {self.saved[-1]}{whole}")


def open_table(options: PlayOptions) -> TerminalTable:
    """The table for ``options.ruleset`` (a built-in name or a ``.toml`` file)."""
    return TerminalTable(options, ruleset_reference(options.ruleset))
