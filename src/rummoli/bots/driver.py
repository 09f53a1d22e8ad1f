"""Playing a hand with bots: the loop that hands each bot its seat's view and applies its answer.

The view a bot receives is a copy, the plain data a JSON round trip would give, with no path back to the
state (tests/bots/test_fast_view.py holds it to both).  The same loop serves the simulation lab, the terminal
table (for its computer seats) and the tests.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from rummoli.bots.base import ActionJSON, Bot, RandomBot
from rummoli.shapes import Event, HandView
from rummoli.streams import Marked


class GameState(Protocol):
    """What the loop needs of a hand of either engine."""

    @property
    def over(self) -> bool: ...

    def view(self, seat: int | None, history: bool = False, guide: bool = False, shared: bool = False) -> HandView: ...

    def apply(self, action: Any) -> list[Event]: ...


def seat_to_act(state: Any) -> int | None:
    """The seat whose decision the hand waits for, or ``None`` when it is over."""
    if state.over:
        return None
    to_act = state.to_act() if callable(getattr(state, "to_act", None)) else getattr(state, "turn", None)
    if isinstance(to_act, list):
        return to_act[0] if to_act else None
    return None if to_act is None else int(to_act)


def view_for(state: GameState, seat: int) -> dict[str, Any]:
    """The seat's view with its history (``view(seat, history=True)``) as plain data that shares nothing with
    the engine: exactly what a remote client would hold after a JSON round trip (the view, and the events it
    was sent). A view holds only dicts with text keys, lists, text, numbers, booleans and ``None``, which a
    pickle round trip copies as the JSON one would, at less than half the cost (0.15 against 0.36 ms for a
    Gin view, 0.38 against 0.79 for a Rummy one at four seats): the copy every bot decision on a server or at
    the terminal makes. tests/bots/test_fast_view.py holds it to the JSON round trip for every ruleset."""
    return fast_view_for(state, seat)


def fast_view_for(state: GameState, seat: int, history: bool = True, copy: bool = True,
                  actions: bool = True, moves: bool = False) -> dict[str, Any]:
    """:func:`view_for` for the simulation lab's hot path: the same copy, without the history when ``history``
    is false.  Without ``copy`` it is the engine's own view, which shares some lists with the engine's caches:
    only for a bot that never writes into its view (:attr:`Bot.writes_views`); without ``actions`` too, a board
    game's history view leaves out its ``actions`` (for a bot that reads only the events: :attr:`Bot.reads_actions`;
    a quarter of such a view's cost), and with ``moves`` as well it holds the hand's public moves in place of its
    events (a stops engine's ``public_moves``, for a bot that counts from them: :attr:`Bot.reads_moves`; the
    events cost 12% of a lab hand's instructions, rendered for nobody else)."""
    if not copy:  # shared: read only, as the bot is (Bot.writes_views)
        if history and not actions and isinstance(state, Marked):
            view = dict(state.view(seat, shared=True))  # the view less its history, the same keys in the same order
            public_moves = getattr(state, "public_moves", None) if moves else None
            if public_moves is not None:  # the history as the public moves (Bot.reads_moves)
                view["moves"] = public_moves()
                return view
            view["events"] = state.events_since(0, seat, shared=True)  # what history=True puts next
            return view
        return cast(dict[str, Any], state.view(seat, history=history, shared=True))
    view = cast(dict[str, Any], state.view(seat, history=history))  # a bot reads its view as plain JSON data
    return cast(dict[str, Any], pickle.loads(pickle.dumps(view, pickle.HIGHEST_PROTOCOL)))


def bot_view(state: GameState, seat: int, bot: Bot) -> dict[str, Any]:
    """The view the fast path hands ``bot``: :func:`fast_view_for` with what the bot reads and needs."""
    return fast_view_for(state, seat, bot.reads_history, bot.writes_views, bot.reads_actions, bot.reads_moves)


def show_hand_over(state: GameState, bots: Sequence[Bot | None], fast: bool = False) -> None:
    """Show every bot its seat's view of the finished hand (what a remote player sees at the end);
    ``fast`` copies it as :func:`fast_view_for` does, and shows it only to a bot that could learn from it
    (:meth:`Bot.learns_from`)."""
    for seat, bot in enumerate(bots):
        # Skip the views nobody reads (the base class's observe learns nothing).
        if bot is not None and getattr(type(bot), "observe", Bot.observe) is not Bot.observe:
            if not fast:
                bot.observe(view_for(state, seat))
            # the fast path asks first, on the view without its history, whether the bot could learn anything
            elif bot.learns_from(ended := fast_view_for(state, seat, history=False, copy=False)):
                seat_actions = getattr(state, "seat_actions", None)  # a stops hand's actions, read from its log
                if bot.observes_events or bot.writes_views or seat_actions is None:
                    bot.observe(fast_view_for(state, seat, copy=bot.writes_views, actions=bot.reads_actions))
                else:  # the view with its actions, less its events (Bot.observes_events)
                    bot.observe({**ended, "actions": seat_actions(seat, shared=True)})


def bot_decision(state: Any, seat: int, bot: Bot, fast: bool = False) -> ActionJSON:
    """The decision of ``bot`` at ``seat``: the one step of every loop that lets bots play.

    With ``fast`` (the simulation lab's hot path) a :class:`RandomBot` picks straight from the engine's list
    of legal actions (amount ranges included) with its own generator.  That is the very list, in the same
    order, that its view would carry, so its choices are the ones the view round trip gives; only the
    view's cost is saved.  Other bots get :func:`bot_view`: the same view, copied more cheaply or (a bot
    that never writes into it) not at all, and without the history for a bot that never reads it.
    """
    if fast:
        if type(bot) is RandomBot:
            return bot.pick([a.to_json() for a in state.legal_actions(seat)])
        return bot.choose(bot_view(state, seat, bot))
    return bot.choose(view_for(state, seat))


def play_out(
    state: Any,
    bots: Sequence[Bot | None],
    on_action: Callable[[int, ActionJSON], None] | None = None,
    until_human: bool = False,
    fast: bool = False,
) -> int | None:
    """Let the bots decide until the hand is over, show each its view of the end, and return ``None``.

    With ``until_human`` the loop stops as soon as a seat without a bot (``None``) is to act and
    returns that seat, so a client can ask its player.  ``fast`` is :func:`bot_decision`'s.
    """
    read = state.read_action  # the engine's own reader of R-NOTE-3 objects
    while True:
        seat = seat_to_act(state)
        if seat is None:
            show_hand_over(state, bots, fast)
            return None
        bot = bots[seat]
        if bot is None:
            if until_human:
                return seat
            raise ValueError(f"seat {seat} has no bot and the hand is waiting for it")
        choice = bot_decision(state, seat, bot, fast)
        state.make(read(choice))
        if on_action is not None:
            on_action(seat, choice)
