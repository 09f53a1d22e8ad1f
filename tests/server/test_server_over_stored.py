"""One notion of "the evening is over" (``Room.over``), right outside the table's lock: the end as stored. While the
change that ends an evening is being written, the table in memory is over already but the store is not: the write
may still fail (and the table is then rebuilt as stored), so nothing read outside the lock may treat the evening as
over yet — the open replays, the record, another seat's review and "Play again" all ask ``Room.over``. (A follower
process reads the same status, set from the owner's published change, which comes once it is stored.)

In-process, on a real Registry and SQLite Store; the write is held up by another connection holding the database's
write lock, as a backup or a second process would."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from rummoli.server.settings import Settings
from rummoli.server.storage.store import Store
from rummoli.server.tables.hub import Hub
from rummoli.server.tables.registry import Registry


async def until(test: object, seconds: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not test():  # type: ignore[operator]
        assert loop.time() < deadline, "not reached in time"
        await asyncio.sleep(0.02)


async def _end_while_the_store_waits(data: Path) -> None:
    settings = Settings(data_dir=data, bot_workers=-1, bot_pace=0, play_pace=0, hand_pause=600, gc_freeze=0)
    path = data / "rummoli.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    registry = Registry(settings, store, Hub(), None)
    await registry.start()
    try:
        room, creator, _token = await registry.create({"ruleset": "michigan", "hands": 3, "name": "Ann",
                                                        "seats": [{}, {"bot": "easy"}, {"bot": "easy"}],
                                                        "creator_seat": 0})
        await room.leave(creator)  # a bot plays Ann's seat: the first hand plays itself to its end
        await until(lambda: room.held is not None and room.held.hand_over and room.held.hand_no == 1)
        assert not room.over and room.status == "playing"

        other = sqlite3.connect(path, isolation_level=None, timeout=30)
        other.execute("BEGIN IMMEDIATE")  # the write lock: the end's change waits to be stored
        ending = asyncio.create_task(room.end())
        try:
            await until(lambda: room.held.over, 10)  # between hands the end makes the table over at once
            await asyncio.sleep(0.2)
            assert not ending.done()
            stored = await asyncio.to_thread(store.table, room.id)
            assert stored is not None and stored.status == "playing"
            assert room.over is False, "over before the end is stored"
        finally:
            other.execute("COMMIT")
            other.close()
        await ending
        assert room.over is True and room.status == "over"
        stored = await asyncio.to_thread(store.table, room.id)
        assert stored is not None and stored.status == "over"
    finally:
        await registry.close()
        store.engine.dispose()


def test_an_evening_is_over_once_its_end_is_stored_not_while_it_is_being_written(tmp_path: Path) -> None:
    asyncio.run(_end_while_the_store_waits(tmp_path))
