"""An evening ended while its last open seat is being taken is not dealt: the end comes in while the join holds the
table, and the join's deal comes after it. The deal was refused by the store ("has already started"), and that
refusal reached the person joining as a server error, although their seat was taken and stored.

In-process, on a real Registry and SQLite Store: the join and the end are sent together, as two requests are."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rummoli.server.settings import Settings
from rummoli.server.storage.store import Store
from rummoli.server.tables.hub import Hub
from rummoli.server.tables.registry import Registry


async def _join_and_end(data: Path) -> None:
    settings = Settings(data_dir=data, bot_workers=-1, bot_pace=0, play_pace=0, hand_pause=0, gc_freeze=0)
    store = Store(f"sqlite:///{data / 'rummoli.sqlite3'}")
    store.migrate()
    registry = Registry(settings, store, Hub(), None)
    await registry.start()
    try:
        room, _creator, _token = await registry.create({"ruleset": "michigan", "seats": [{}, {}, {"bot": "easy"}],
                                                        "name": "Ann", "creator_seat": 0})
        joined, ended = await asyncio.gather(room.join("Bob", None), room.end(), return_exceptions=True)
        assert ended is None, ended
        assert isinstance(joined, tuple) and joined[0] == 1, joined  # Bob's seat, taken and kept
        assert room.over and room.held is None and room.status == "over"
        row = store.table(room.id)
        assert row is not None and row.status == "over" and row.seq == 0
        assert row.seats[1].name == "Bob"
    finally:
        await registry.close()
        store.engine.dispose()


def test_an_end_that_comes_in_while_the_last_seat_is_taken_is_not_undone_by_a_deal(tmp_path: Path) -> None:
    asyncio.run(_join_and_end(tmp_path))
