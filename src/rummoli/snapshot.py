"""Writing a table down and running its journal again (:meth:`rummoli.table.Table.snapshot`, ``Table.restore``).

A snapshot is the table's settings, its journal (every deck dealt and every decision, in order) and each
bot's generator and memory.  Restoring builds a table with the same settings and runs the journal through
it again: the engines check every step as they did the first time, so a snapshot that was tampered with is
refused with one line, never half restored.  Snapshots are server-side data (they hold the decks); they are
never accepted from a client.  The evening's record (``rummoli-evening/1``) is written here too, and what both
say of the evening's start: the starting chips or scores, and how the first dealer was chosen (the cut's rounds).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rummoli.cards import Card, CardError
from rummoli.errors import MalformedInput, quote
from rummoli.evening import amount
from rummoli.records import DEALER_BY, EVENING_FORMAT, check_cut

if TYPE_CHECKING:
    from rummoli.games.family import Evening
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
        "dealer_by": table.dealer_by,
        "cut": _cut(table.cut),
        "settle": table.settles,
        "journal": json.loads(json.dumps(list(table.journal))),
        "bots": [None if b is None else b.state() for b in table.bots],
    }


def _cut(rounds: list[dict[str, str]] | None) -> list[dict[str, str]] | None:
    """A copy of a cut's rounds, for a record or a snapshot to hold apart from the table's."""
    return None if rounds is None else [dict(r) for r in rounds]


def first_deal_of(evening: Evening, given: bool) -> tuple[list[int | str], str, list[dict[str, str]] | None]:
    """How a new evening starts, as its record says (R-NOTE-5): each seat's chips (a Rummy game's score) before the
    first hand, how the first dealer was chosen (``given`` to the table, else by a ``cut`` or by ``lot``: the
    family's way) and the cut's rounds, each {name: card} as drawn (None without a cut)."""
    how = "given" if given else "cut" if evening.cut is not None else "lot"
    return [amount(v) for v in evening.chips(None, [])], how, evening.cut


def restore_start(table: Table, data: dict[str, Any]) -> None:
    """Bring a table built from snapshot ``data`` (its first dealer given) to where the snapshot was: how its first
    dealer was chosen, checked as a record's is, and its journal run again. A snapshot written before it kept the cut
    says ``unrecorded``."""
    how, cut = data.get("dealer_by", "unrecorded"), data.get("cut")
    if how not in DEALER_BY or (cut is not None) != (how == "cut"):
        raise MalformedInput(f"snapshot: a first dealer chosen by {quote(how)}, with{'' if cut else 'out'} a cut")
    if cut is not None:
        check_cut(cut, table.names, table.first_dealer)
    table.dealer_by, table.cut = how, _cut(cut)
    if not isinstance(data["journal"], list):
        raise MalformedInput("snapshot: the journal is a list")
    replay_journal(table, data["journal"])


def evening_record_of(table: Table) -> dict[str, Any]:
    """The ``rummoli-evening/1`` record: the evening's start, every finished hand's record and the evening's ledger
    (R-NOTE-5)."""
    return {
        "format": EVENING_FORMAT,
        "ruleset": table.reference,
        "players": list(table.names),
        "chips": list(table.starting),
        "dealer": table.first_dealer,
        "dealer_by": table.dealer_by,
        "cut": _cut(table.cut),
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
