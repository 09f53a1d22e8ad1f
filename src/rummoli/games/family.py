"""What a game family answers (:class:`Family`), and the one interface both engines' hands offer (:class:`Hand`).

Each family is a subclass in its own module (:mod:`rummoli.games.stops`, :mod:`rummoli.games.rummy`); the
engines themselves know nothing of this registry (they import only the standard library and each other).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from rummoli.bots.base import Bot, make_bot
from rummoli.cards import Card
from rummoli.shapes import Event, HandResult, HandView


class Hand(Protocol):
    """One hand of either engine, as the table, the bots' driver and the server use it (docs/ARCHITECTURE.md,
    "The engine contract"): both ``rummoli.stops.Hand`` and ``rummoli.rummy.RummyHand`` satisfy it."""

    @property
    def over(self) -> bool: ...

    @property
    def seq(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    def to_act(self) -> list[int]: ...

    def verify(self, action: Any) -> None: ...

    def apply(self, action: Any) -> list[Event]: ...

    def make(self, action: Any) -> None: ...

    def events(self) -> list[Event]: ...

    def events_since(self, seq: int, seat: int | None) -> list[Event]: ...

    def view(self, seat: int | None, history: bool = False, guide: bool = False, shared: bool = False) -> HandView: ...

    def record(self) -> dict[str, Any]: ...

    def result(self) -> HandResult | None: ...

    def out_of_play(self) -> dict[str, Any] | None:
        """The cards no seat holds at this step, for a replay whose asker may see every card (and a record's summary),
        never for a seat's view: ``{"kind", "cards", ...}``, a stops hand's widow (``kind`` "widow", with the seat that
        gave it up by swapping, ``given_up_by``), a Rummy hand's stock (``"stock"``, top card first), Hoyle Poch's
        undealt cards (``"undealt"``); ``None`` when there are none (Michigan, the modern Poch deal)."""

    def forced_action(self) -> Any | None:
        """The forced move waiting for the table's pace (``auto=False``), if one is; a family whose forced moves
        are made inside the move before them (``Family.steps_forced`` false) never has one."""

    def step_forced(self) -> bool:
        """Make the waiting forced move; False when there is none."""

    def forget_reading(self) -> None:
        """Drop the events as read so far (they are made again if read again), to keep a long evening small."""

    def hush(self) -> None:
        """Events read from now on carry no sentence (``text``): only bots that never read words read them."""

    def forced_shown(self) -> bool:
        """Whether the waiting forced move shows as forced to every seat (a play in a run, R-VIEW-1)."""


class Evening(Protocol):
    """The evening behind a table (:mod:`rummoli.evening`): what the table asks of either family's."""

    rules: Any
    #: The rounds of the high-card cut that chose the first dealer (R-MI-1), each {name: card}, as drawn; None when
    #: the first dealer was drawn by lot or given to the table.
    cut: list[dict[str, str]] | None

    @property
    def dealer(self) -> int: ...

    @property
    def over(self) -> bool: ...

    @property
    def ledger_length(self) -> int: ...

    def start(self, deck: Sequence[Card], auto: bool, chance: int) -> tuple[Any, list[int]]: ...

    def finish(self, hand: Any) -> dict[str, Any]: ...

    def chips(self, hand: Any, seats: Sequence[int]) -> list[Any]: ...

    def seated(self) -> list[bool]: ...

    def ledger_since(self, start: int) -> list[dict[str, Any]]: ...

    def end(self) -> None: ...

    def end_note(self) -> str:
        """What the evening's end must add in words beyond the standings ("": nothing)."""
        ...

    def settle(self, decks: Sequence[Sequence[Card]]) -> list[dict[str, Any]]: ...

    def standings(self) -> list[dict[str, Any]]: ...

    def pots(self, hand: Any) -> dict[str, int]: ...


class Family:
    """One game family (see the package's docstring).  Subclasses fill in what differs."""

    #: The family's name as rulesets give it (``game = "stops"``).
    name: str = ""
    #: What a seat's count is: ``chips`` (stops) or ``points`` (Rummy).
    unit: str = ""
    #: Whether an evening plays hands on a board of pots that carry over (stops); else it plays to a target.
    has_board: bool = False
    #: What one evening of the family is called in the lab's words (``evening``, ``game``).
    evening_word: str = "evening"
    #: Whether a hand can wait for its forced action to be made by the table at its pace (``auto=False``:
    #: ``hand.forced_action()`` and ``hand.step_forced()``), as stops hands can; else forced moves are made
    #: inside the action before them.
    steps_forced: bool = False

    #: The engine's package (``rummoli.stops``): the defaults below ask it, imported when first needed.
    engine: str = ""

    def _engine(self) -> Any:
        # sys.modules first: import_module's own path costs a few microseconds, and the table asks at every action
        module = sys.modules.get(self.engine)
        return module if module is not None else importlib.import_module(self.engine)

    def load_ruleset(self, source: Any, *, trusted: bool = False) -> Any:
        return self._engine().load_ruleset(source, trusted=trusted)

    def builtin_names(self) -> list[str]:
        return list(self._engine().BUILTIN_RULESETS)

    def read_action(self, data: dict[str, Any]) -> Any:
        """An R-NOTE-3 action object as the engine's action (``MalformedInput`` when it is not one)."""
        return self._engine().Action.from_json(data)

    def evening(self, reference: str | dict[str, Any], names: Sequence[str], chips: int | None, hands: int | None,
                dealer: int | None, cut_seed: str | None) -> Evening:
        raise NotImplementedError

    def replay_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """A hand record replayed: the R-NOTE-4 result (chips, pots, events)."""
        result: dict[str, Any] = self._engine().replay_record(record)
        return result

    def replay_hand(self, record: dict[str, Any]) -> Hand:
        """The hand a hand record plays to, at its end."""
        hand: Hand = self._engine().replay_hand(record)
        return hand

    def steps(self, record: dict[str, Any]) -> Iterator[Hand]:
        """The hand a record plays, yielded after the deal and after each step (a forced play is a step of its
        own, so a replay can follow a run card by card); the same hand object each time, moved on."""
        actions = record.get("actions")
        hand: Hand = self._engine().hand_from_record(record, auto=False)
        yield hand
        for data in actions if isinstance(actions, list) else []:
            action = self.read_action(data)
            while not hand.over and (forced := hand.forced_action()) is not None and forced != action:
                hand.step_forced()
                yield hand
            hand.make(action)
            yield hand
        while not hand.over and hand.step_forced():
            yield hand

    def random_hand_record(self, reference: str | dict[str, Any], players: int, seed: str | None) -> dict[str, Any]:
        record: dict[str, Any] = self._engine().random_hand_record(reference, players, seed)
        return record

    def seat_range(self, reference: str | dict[str, Any]) -> tuple[int, int, set[int]]:
        """The fewest and most players a ruleset seats, and every count it allows (each from its least to its
        most, unless the family says otherwise)."""
        rules = self.load_ruleset(reference)
        return rules.min_players, rules.max_players, set(range(rules.min_players, rules.max_players + 1))

    def describe(self, name: str) -> dict[str, Any]:
        """A built-in ruleset for the lobby: title, players, starting chips, board and every option in words (as a
        board game's; a family without a board says otherwise)."""
        rules = self.load_ruleset(name)
        return {"name": name, "game": self.name, "title": rules.title,
                "players": [rules.min_players, rules.max_players], "chips": rules.starting_chips,
                "board": self.board_names(rules), "options": self.words(rules)}

    def board_names(self, rules: Any) -> list[str]:
        """The names of a ruleset's places on the board."""
        raise NotImplementedError

    def words(self, rules: Any) -> list[str]:
        """A ruleset's board and options in words."""
        raise NotImplementedError

    def make_bot(self, level: str, seed: int | str | None = None, budget: float | None = None,
                 samples: int | None = None) -> Bot:
        """A computer player of this family at ``level`` (random, easy, normal, hard)."""
        return make_bot(self.name, level, seed, budget, samples)

    def __repr__(self) -> str:
        return f"<game family {self.name}>"


class BoardFamily(Family):
    """A board game of the stops kind (stops, Poch): chips on a board of pots that carry over from hand to hand,
    an evening of hands, forced moves made by the table at its pace."""

    unit = "chips"
    has_board = True
    evening_word = "evening"
    steps_forced = True

    #: the engine's evening class, ``module:Class``, imported when an evening is made
    evening_class: str = ""

    def evening(self, reference: str | dict[str, Any], names: Sequence[str], chips: int | None, hands: int | None,
                dealer: int | None, cut_seed: str | None) -> Evening:
        module, _, cls = self.evening_class.partition(":")
        made: Evening = getattr(importlib.import_module(module), cls)(reference, names, chips, hands, dealer, cut_seed)
        return made
