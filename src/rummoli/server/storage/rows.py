"""What the store reads and writes, as plain values: a table's row and seats, a change, what a restart needs,
and the refusal of a change whose compare-and-set failed. Kept apart from the store so that its PostgreSQL line
(rummoli.server.storage.pgline) and the tables above it name them without importing the store.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any


class StoreConflict(Exception):
    """The table's ``seq`` in the database is not the one the writer started from."""

    @classmethod
    def moved(cls, table_id: str, seen_seq: int, fence: int | None) -> StoreConflict:
        """A change refused by its compare-and-set (every store path words it so)."""
        return cls(f"table {table_id} is no longer at seq {seen_seq}"
                   + ("" if fence is None else f" with fence {fence}"))


def token_hash(token: str) -> str:
    """How a seat token is kept: its SHA-256 (tokens are 192 random bits, so no salt or stretching is needed).

    >>> len(token_hash("abc")), token_hash("abc") == token_hash("abc")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatRow:
    """One seat (its number is its place in the table's list): a name, a bot level (``None``: a person's
    seat), the hash of its token (``None``: open), and whether its person left during the evening."""

    name: str
    bot: str | None
    token_hash: str | None
    left: bool = False

    @property
    def person(self) -> bool:
        return self.bot is None


@dataclass
class TableRow:
    id: str
    created_at: float
    game: str
    ruleset: str
    options: dict[str, Any]
    creator_seat: int
    seq: int
    status: str
    seats: list[SeatRow]
    hand_no: int = 0


#: One change of a table: the arguments :meth:`Store.append` takes, in order.
Change = tuple[Any, ...]


@dataclass
class Recovery:
    """What a restart needs to rebuild one table: its latest snapshot and the actions stored after it."""

    table: TableRow
    snapshot_seq: int
    snapshot: dict[str, Any]
    actions: list[dict[str, Any]]  # {"seq", "kind", "seat", "payload"} in order
