"""A seat's own record of the hands it has played: what it saw of each, and nothing more.

``GET /api/tables/{id}/history?first=N&count=K`` answers :func:`page_text`: for finished hands ``N`` to
``N + K - 1`` (at most :data:`PAGE_HANDS`, and fewer when they pass :data:`PAGE_BYTES`), the events of each
hand exactly as the seat's live stream numbered and redacted them (the same ``Table.events_since``, so the same
text), and the hand's final view as that seat is shown it (its own cards; another seat's only where the rules
show them to everyone, as at a showdown). A seat that sat a hand out sees it as a spectator does. ``evening``
holds the events between hands that fall in the page's stretch of the evening (the first page from the start,
the last one to now), so the pages together hold every event once; ``next`` is the first hand of the next page
(``null`` after the last). The whole evening's record, with every card, stays for the evening's end
(``/record``).

A long evening's history is megabytes of JSON: it is built in a thread of its own (:func:`history_text`), so
the event loop goes on serving everyone else meanwhile, and a page is bounded so no answer grows with the
evening.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rummoli.server.jsontext import dumps

FORMAT = "rummoli-seat-history/3"
#: Most hands in one page, and the size past which a page stops (after at least one hand).
PAGE_HANDS = 20
PAGE_BYTES = 1 << 20
#: How much lower than the event loop's the history threads' priority is (a nice value added).
BACKGROUND_NICE = 10

_threads: list[ThreadPoolExecutor] = []


def history_threads() -> ThreadPoolExecutor:
    """The threads that build histories: two, apart from the default pool (where ``/healthz`` asks the
    database), so fifty histories at once wait for their turn without holding anything else up; and at a
    lower priority than the event loop's thread, which the system then serves first when the cores are busy."""
    if not _threads:
        _threads.append(ThreadPoolExecutor(max_workers=2, thread_name_prefix="rummoli-history",
                                           initializer=_background))
    return _threads[0]


def _background() -> None:
    with contextlib.suppress(OSError, AttributeError):  # a thread's own nice value: Linux
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKGROUND_NICE)


def page_text(table: Any, seat: int, first: int = 1, count: int = PAGE_HANDS, table_id: str = "") -> str:
    """The JSON text of one page of evening seat ``seat``'s history of a started :class:`rummoli.table.Table`
    (see the module's docstring)."""
    total = table.finished_count()
    # Only the page's hands are unpacked (a finished hand is kept packed: rummoli.shelf).
    chosen = list(table.finished_hands(first, max(first, 1) + max(1, min(count, PAGE_HANDS)) - 1))
    by_hand: dict[int, list[dict[str, Any]]] = {}
    evening: list[dict[str, Any]] = []
    if first <= 1 or chosen:
        since = 0 if first <= 1 else table.hand_start(first)
        until = table.hand_start(chosen[-1][0] + 1) if chosen and chosen[-1][0] < total else None
        for event in table.events_since(since, seat, until):
            hand_no = event.get("hand_no")
            (by_hand.setdefault(int(hand_no), []) if hand_no else evening).append(event)
    parts: list[str] = []
    size, last = 0, None
    for hand_no, hand, seats in chosen:
        if parts and size > PAGE_BYTES:
            cut = table.hand_start(hand_no)  # the page ends before this hand: so do its evening events
            evening = [event for event in evening if event["seq"] <= cut]
            break
        you = seats.index(seat) if seat in seats else None
        events = by_hand.get(hand_no, [])
        text = dumps({
            "hand_no": hand_no,
            "hand_seats": seats,
            "players": [table.names[s] for s in seats],
            "you": you,
            "first_seq": events[0]["seq"] if events else None,
            "last_seq": events[-1]["seq"] if events else None,
            "events": events,
            "view": hand.view(you),
        })
        parts.append(text)
        size += len(text)
        last = hand_no
    head = dumps({"format": FORMAT, "table": table_id, "seat": seat, "name": table.names[seat], "seq": int(table.seq),
                  "first": first, "next": last + 1 if last is not None and last < total else None,
                  "hands_total": total, "evening": evening})
    return head[:-1] + ',"hands":[' + ",".join(parts) + "]}"


async def history_text(room: Any, seat: int, first: int, count: int) -> str:
    """:func:`page_text` of a :class:`~rummoli.server.tables.room.Room`'s table, built in
    :func:`history_threads` while the room's lock is held (nothing changes the table meanwhile)."""
    async with room.lock:
        if room.table is None:
            return dumps({"format": FORMAT, "table": room.id, "seat": seat, "name": room.seats[seat].name, "seq": 0,
                          "first": first, "next": None, "hands_total": 0, "evening": [], "hands": []})
        return await asyncio.get_running_loop().run_in_executor(history_threads(), page_text, room.table, seat,
                                                                first, count, room.id)


async def record_text(room: Any) -> str:
    """The JSON text of the evening's full record (megabytes for a long evening), built as a history is."""
    async with room.lock:
        return await asyncio.get_running_loop().run_in_executor(history_threads(), _record, room.table)


def _record(table: Any) -> str:
    return dumps(table.evening_record())
