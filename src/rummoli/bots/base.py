"""The interface every computer player keeps.

A bot is handed one seat's **view** -- the JSON-ready dict that the engine's ``view(seat)`` makes,
copied by :func:`rummoli.bots.driver.view_for` as a JSON round trip would -- and answers with one
action as an R-NOTE-3 object taken from the view's legal actions.  It is never handed the state, so it
cannot peek: whatever it knows of hidden cards it must infer from the view (docs/ARCHITECTURE.md, the bot contract).

Bots are deterministic under a seed: the same seed and the same views give the same choices.
"""

from __future__ import annotations

import importlib
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

View = Mapping[str, Any]
ActionJSON = dict[str, Any]

LEVELS = ("random", "easy", "normal", "hard")
GAMES = ("stops", "rummy", "poch")


def legal_actions(view: View) -> list[ActionJSON]:
    """The viewing seat's legal actions as R-NOTE-3 objects (empty when it may not act).  A bid, bet or
    raise is one object with the range of its amount, ``min`` and ``max`` (see :func:`with_amount`)."""
    return [dict(a) for a in view.get("legal_actions", [])]


def is_range(legal: ActionJSON) -> bool:
    """Whether a legal action is an amount range (``min``..``max``) rather than an action as it is."""
    return "min" in legal


def with_amount(legal: ActionJSON, amount: int) -> ActionJSON:
    """The action to submit for a legal amount range and one amount in it."""
    low, high = int(legal["min"]), int(legal["max"])
    if not low <= amount <= high:
        raise ValueError(f"{legal['action']} {amount} is outside {low}..{high}")
    return {"seat": legal["seat"], "action": legal["action"], "amount": amount}


def is_legal(action: ActionJSON, legal: list[ActionJSON]) -> bool:
    """Whether ``action`` (as submitted) is one of the legal actions or inside one of their ranges."""
    for option in legal:
        if is_range(option):
            if (action.get("action") == option["action"] and action.get("seat") == option["seat"]
                    and set(action) == {"seat", "action", "amount"}
                    and isinstance(action["amount"], int) and option["min"] <= action["amount"] <= option["max"]):
                return True
        elif action == option:
            return True
    return False


def require_legal(legal: list[ActionJSON]) -> list[ActionJSON]:
    """The legal actions, or a clear error when the view offers none (it is not this seat's turn)."""
    if not legal:
        raise ValueError("the view offers no legal action: it is not this seat's turn")
    return legal


def seats_to_act(view: View) -> list[int]:
    """The seats that may act now, as the view says."""
    return [int(s) for s in view.get("to_act", [])]


#: seconds past a time budget (not past a deadline) that a search's first world may take, so that a
#: decision begun late still rests on one sampled world when the server's deadline allows it
FIRST_WORLD_GRACE = 0.3


class Bot(ABC):
    """A computer player for one game family at one strength."""

    game: ClassVar[str] = ""
    level: ClassVar[str] = ""
    #: whether the bot reads its view's history (``events``, ``actions``); one that does not is handed
    #: the view without it where a loop wants speed (:func:`rummoli.bots.driver.bot_decision`)
    reads_history: ClassVar[bool] = True
    #: whether the bot reads its view's ``actions`` (the R-NOTE-3 objects of its history's action events); one that
    #: reads only the ``events`` is handed the view without them where a loop wants speed (the same function)
    reads_actions: ClassVar[bool] = True
    #: whether :meth:`observe` reads the ended hand's ``events``; one that reads its view's ``actions`` and no
    #: events is shown the view with its actions and without its events where a loop wants speed (the same module's
    #: ``show_hand_over``: the events of a hand's end were a quarter of the events a lab hand reads)
    observes_events: ClassVar[bool] = True
    #: whether the bot can read what happened from the hand's public moves (``moves``: a stops engine's
    #: ``public_moves``, the facts its events tell, as compact tuples) in place of the history's ``events``; one
    #: that can (and reads no ``actions``, and writes no view) is handed its history so where a loop wants speed
    reads_moves: ClassVar[bool] = False
    #: whether the bot may write into the view it is handed; one that never does (a test holds each
    #: built-in level to it) may be handed the engine's view uncopied where a loop wants speed
    writes_views: ClassVar[bool] = True
    #: whether the bot reads the sentences of its view's events (their ``text``); where every reader of a hand
    #: is a bot that never does, a loop that wants speed has the hand leave them out (the simulation lab's table)
    reads_words: ClassVar[bool] = True

    def __init__(self, seed: int | str | None = None, budget: float | None = None, samples: int | None = None) -> None:
        self.rng = random.Random(seed)
        #: seconds a searching bot may think per decision (``hard``); others ignore it
        self.budget = 1.0 if budget is None else budget
        #: a fixed number of sampled worlds per decision instead of a time budget (reproducible ``hard``)
        self.samples = samples
        #: a wall-clock time (``time.time()``) after which a searching bot stops sampling and answers
        #: with its best so far, whatever ``budget`` or ``samples`` say (a server's turn limit)
        self.deadline: float | None = None

    @abstractmethod
    def choose(self, view: View) -> ActionJSON:
        """One action from ``legal_actions(view)``."""

    def out_of_time(self) -> bool:
        """Whether the :attr:`deadline` has passed (searching bots ask between worlds)."""
        return self.deadline is not None and time.time() >= self.deadline

    def observe(self, view: View) -> None:  # noqa: B027 - most bots learn nothing between hands
        """Shown this seat's view of a hand that has ended, so a bot can remember its opponents."""

    def learns_from(self, view: View) -> bool:
        """Whether :meth:`observe` could learn anything from the ended hand whose view without its history
        this is; a loop that wants speed skips the history view and the call when it could not
        (:func:`rummoli.bots.driver.show_hand_over`)."""
        return True

    def state(self) -> dict[str, Any]:
        """The bot's changing state as JSON: its random generator and whatever it has learnt.

        With :meth:`load_state` it lets a table's snapshot bring a bot back exactly as it was."""
        version, internal, gauss = self.rng.getstate()
        out: dict[str, Any] = {"level": self.level, "rng": [version, list(internal), gauss]}
        memory = getattr(self, "memory", None)
        if memory is not None:
            out["memory"] = memory.to_json()
        return out

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Take back a :meth:`state` (from a trusted snapshot)."""
        version, internal, gauss = state["rng"]
        self.rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
        memory = getattr(self, "memory", None)
        if memory is not None and "memory" in state:
            memory.load_json(state["memory"])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game} {self.level}>"


class RandomBot(Bot):
    """Uniformly random among the legal actions, then uniformly random among an amount range's amounts:
    the baseline every level must beat."""

    level = "random"
    reads_words = False

    def choose(self, view: View) -> ActionJSON:
        return self.pick(legal_actions(view))

    def pick(self, legal: list[ActionJSON]) -> ActionJSON:
        """A uniform choice among ``legal`` (R-NOTE-3 objects, ranges included), as submitted."""
        option = self.rng.choice(require_legal(legal))
        if is_range(option):
            return with_amount(option, self.rng.randint(int(option["min"]), int(option["max"])))
        return option


_REGISTRY: dict[tuple[str, str], type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot class available to :func:`make_bot` by its game and level."""
    if cls.game not in GAMES or cls.level not in LEVELS:
        raise ValueError(f"{cls.__name__}: game must be one of {GAMES} and level one of {LEVELS}")
    _REGISTRY[(cls.game, cls.level)] = cls
    return cls


def _load_levels(game: str) -> None:
    # Each family's module registers its levels on import; imported here so callers need not know
    # them, and one family at a time so a problem in one never disables the other's bots.
    importlib.import_module(f"rummoli.bots.{game}_bots")


def make_bot(
    game: str, level: str, seed: int | str | None = None, budget: float | None = None, samples: int | None = None
) -> Bot:
    """A bot for ``game`` (``stops`` or ``rummy``) at ``level`` (random, easy, normal, hard).

    ``budget`` (seconds) or ``samples`` (worlds per decision, reproducible) limit a ``hard`` bot's search.
    """
    if level == "random":
        bot: Bot = RandomBot(seed, budget, samples)
        return bot
    if game not in GAMES:
        raise ValueError(f"no bots for game {game!r} (games: {', '.join(GAMES)})")
    if not any(g == game for g, _ in _REGISTRY):
        _load_levels(game)
    try:
        cls = _REGISTRY[(game, level)]
    except KeyError:
        raise ValueError(f"no {level!r} bot for {game!r} (levels: {', '.join(LEVELS)})") from None
    return cls(seed, budget, samples)


BotFactory = Callable[[int], Bot]
