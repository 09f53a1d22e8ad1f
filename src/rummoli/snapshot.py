"""Writing a table down and running its journal again (:meth:`rummoli.table.Table.snapshot`, ``Table.restore``).

A snapshot is the table's settings, its journal (every deck dealt and every decision, in order) and each
bot's generator and memory.  Restoring builds a table with the same settings and runs the journal through
it again: the engines check every step as they did the first time, so a snapshot that was tampered with is
refused with one line, never half restored.  Snapshots are server-side data (they hold the decks); they are
never accepted from a client.  The evening's record (``rummoli-evening/1``) is written here too.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rummoli.cards import Card, CardError
from rummoli.errors import MalformedInput
from rummoli.records import EVENING_FORMAT

if TYPE_CHECKING:
    from rummoli.table import Table

SNAPSHOT_FORMAT = "rummoli-table/1"


def _cards(texts: object) -> list[Card]:
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise MalformedInput("snapshot: a deck is a list of cards")
    try:
        return [Card.parse(t) for t in texts]
    except CardError as error:
        raise MalformedInput(f"snapshot: {error}") from None


def snapshot_of(table: Table) -> dict[str, Any]:
    """Everything needed to bring ``table``'s evening back exactly (it holds the decks: server side only)."""
    return {
        "format": SNAPSHOT_FORMAT,
        "ruleset": table.reference,
        "seats": [{"name": s.name, "bot": s.bot, "seed": s.seed} for s in table.seats],
        "chips": table.start_chips,
        "hands": table.hands_limit,
        "seed": table.seed,
        "samples": table.samples,
        "budget": table.budget,
        "auto": table.auto,
        "ask_forced": table.ask_forced,
        "dealer": table.first_dealer,
        "settle": table.settles,
        "journal": json.loads(json.dumps(list(table.journal))),
        "bots": [None if b is None else b.state() for b in table.bots],
    }


def evening_record_of(table: Table) -> dict[str, Any]:
    """The ``rummoli-evening/1`` record: every finished hand's record and the evening's ledger (R-NOTE-5)."""
    return {
        "format": EVENING_FORMAT,
        "ruleset": table.reference,
        "players": list(table.names),
        "dealer": table.first_dealer,
        "hands": [dict(r) for r in table.records],
        "ledger": list(table.ledger),
        "settlement": table.settlement,
        "standings": table.standings() if table.hand_over else table.evening.standings(),
        "over": table.over,
    }


def replay_journal(table: Table, entries: list[Any]) -> None:
    """Run journal ``entries`` through ``table``, as if its commands were given again.

    Restoring replays a whole journal; a follower (a server process that shows a table another process
    drives) replays each change's new entries as they arrive, and so keeps a table identical to the owner's.
    Errors propagate as the engines raise them; ``Table.restore`` turns them into one line.
    """
    table.replaying = True
    try:
        for entry in entries:
            if entry[0] == "settle":
                table.settle_decks = [_cards(d) for d in entry[1]]
        for entry in entries:
            kind = entry[0]
            if kind == "deal":
                table.next_hand(_cards(entry[1]), entry[2] if len(entry) > 2 else None)
            elif kind == "act":
                table.play(entry[1], entry[2])
            elif kind == "timeout":
                table.timeout(entry[1])
            elif kind == "forced":
                if not table.step():
                    raise MalformedInput("snapshot: a forced step with nothing forced")
            elif kind == "bot":
                table.seat_bot(entry[1], entry[2], entry[3])
            elif kind == "end":
                table.end()
            elif kind != "settle":
                raise MalformedInput(f"snapshot: unknown journal entry {str(kind)[:40]!r}")
    finally:
        table.replaying = False
