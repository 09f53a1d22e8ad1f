"""Bringing a table back from its snapshot (:meth:`rummoli.table.Table.snapshot`).

A snapshot is the table's settings, its journal (every deck dealt and every decision, in order) and each
bot's generator and memory.  Restoring builds a table with the same settings and runs the journal through
it again: the engines check every step as they did the first time, so a snapshot that was tampered with is
refused with one line, never half restored.  Snapshots are server-side data (they hold the decks); they are
never accepted from a client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummoli.cards import Card, CardError
from rummoli.errors import IllegalAction, MalformedInput, RummoliError

if TYPE_CHECKING:
    from rummoli.table import DeckSource, RecordStore, Table


def _cards(texts: object) -> list[Card]:
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise MalformedInput("snapshot: a deck is a list of cards")
    try:
        return [Card.parse(t) for t in texts]
    except CardError as error:
        raise MalformedInput(f"snapshot: {error}") from None


def restore_table(cls: type[Table], data: dict[str, Any], *, decks: DeckSource | None = None,
                  store: RecordStore | None = None) -> Table:
    from rummoli.table import SNAPSHOT_FORMAT, Seat

    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise MalformedInput(f"not a table snapshot (format {SNAPSHOT_FORMAT!r})")
    try:
        seats = [Seat(str(s["name"]), s["bot"], s["seed"]) for s in data["seats"]]
        table = cls(data["ruleset"], seats, chips=data["chips"], hands=data["hands"], seed=data["seed"],
                    samples=data["samples"], budget=data["budget"], auto=bool(data["auto"]),
                    dealer=data["dealer"], decks=decks, store=store, deal=False)
        journal = data["journal"]
        if not isinstance(journal, list):
            raise MalformedInput("snapshot: the journal is a list")
        replay_journal(table, journal)
        for bot, state in zip(table.bots, data["bots"], strict=True):
            if bot is not None and state is not None:
                bot.load_state(state)
    except (IllegalAction, RummoliError) as error:
        raise MalformedInput(f"snapshot does not replay: {error}") from None
    except (KeyError, IndexError, TypeError, ValueError) as error:
        raise MalformedInput(f"snapshot is malformed: {type(error).__name__} {str(error)[:80]}") from None
    return table


def replay_journal(table: Table, entries: list[Any]) -> None:
    """Run journal ``entries`` through ``table``, as if its commands were given again.

    Restoring replays a whole journal; a follower (a server process that shows a table another process
    drives) replays each change's new entries as they arrive, and so keeps a table identical to the owner's.
    Errors propagate as the engines raise them; :func:`restore_table` turns them into one line.
    """
    table._replaying = True
    try:
        for entry in entries:
            if entry[0] == "settle":
                table._settle_decks = [_cards(d) for d in entry[1]]
        for entry in entries:
            kind = entry[0]
            if kind == "deal":
                table.next_hand(_cards(entry[1]), entry[2] if len(entry) > 2 else None)
            elif kind == "act":
                table._apply(entry[1], entry[2])
            elif kind == "forced":
                if not table.step():
                    raise MalformedInput("snapshot: a forced step with nothing forced")
            elif kind == "timeout":
                table._timed_out(entry[1])
            elif kind == "bot":
                table._seat_bot(entry[1], entry[2], entry[3])
            elif kind == "end":
                table.end()
            elif kind != "settle":
                raise MalformedInput(f"snapshot: unknown journal entry {str(kind)[:40]!r}")
    finally:
        table._replaying = False
