"""The update message each client gets after a change, built with as little repeated work as possible.

Every seat's view of a table is the same except for two keys: ``you`` and ``hand`` (the hand as that seat
may see it; :meth:`rummoli.table.Table.view`). The rest (seats, chips, standings, whose turn) was worked out
again for each of the four seats of every change. :class:`Updates` works it out once per state of the
table (the spectator's view, without the hand: a spectator's own is made only when one is connected) and gives
each seat that view with its own ``you`` and ``hand``, the hand's view made from what the seats see alike
(``shared``: made once per state): the same dictionary, key for key and in the same order, as
``Table.view(seat)`` (a test holds it to that). The
messages are written with orjson, and a text already made for the same seat and starting point is reused
(spectators, a seat open in two tabs).
"""

from __future__ import annotations

from typing import Any

from rummoli.server.jsontext import dumps


def seat_view(table: Any, base: dict[str, Any], seat: int | None, shared: bool = False) -> dict[str, Any]:
    """``table.view(seat)`` made from ``base``, the table's spectator view in the same state, with or without its
    ``hand`` (each seat's, a spectator's too, is put in: ``Table.hand_view``; ``shared``: its view made from what
    every seat sees alike, made once per state)."""
    if seat is None:
        return {**base, "hand": table.hand_view(None, shared)}
    return {**base, "you": seat, "hand": table.hand_view(seat, shared)}


class Updates:
    """The update texts of one table's current state (see the module's docstring)."""

    def __init__(self) -> None:
        self._state: tuple[Any, ...] | None = None
        self._base: dict[str, Any] | None = None
        self._texts: dict[tuple[int | None, int], str] = {}

    def text(self, table: Any, seat: int | None, since: int, clock: dict[str, Any] | None,
             clock_key: tuple[Any, ...] | None, next_hand: dict[str, Any] | None = None) -> str:
        """The ``update`` message for ``seat`` (``None``: a spectator) that was last sent ``since``; ``clock``
        and ``next_hand`` (the countdown between hands) go in it as they are, named by ``clock_key``."""
        # Every change a table makes moves its seq or adds to its journal (a bot taking a seat over moves
        # only the journal), so these name the state; the clock's own key says whose turn it counts and what
        # the countdown shows.
        state = (int(table.seq), len(table.journal), clock_key)
        if state != self._state:
            self._state, self._base, self._texts = state, None, {}
        found = self._texts.get((seat, since))
        if found is not None:
            return found
        if self._base is None:
            self._base = table.view(None, shared=True, hand=False)  # a spectator's hand only if one asks
        text = dumps({"type": "update", "seq": self._state[0], "events": table.events_since(max(0, since), seat),
                      "view": seat_view(table, self._base, seat, shared=True), "clock": clock,
                      "next_hand": next_hand})
        self._texts[(seat, since)] = text
        return text
