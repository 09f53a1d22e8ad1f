"""A seat's own record of the hands it has played: what it saw of each, and nothing more.

``GET /api/tables/{id}/history`` answers :func:`seat_history`: for each finished hand, the events of that hand
exactly as the seat's live stream numbered and redacted them (the same ``Table.events_since``, so the same
text), and the hand's final view as that seat is shown it (its own cards; another seat's only where the rules
show them to everyone, as at a showdown). A seat that sat a hand out sees it as a spectator does. The whole
evening's record, with every card, stays for the evening's end (``/record``).
"""

from __future__ import annotations

from typing import Any

FORMAT = "rummoli-seat-history/2"


def seat_history(table: Any, seat: int) -> dict[str, Any]:
    """The history of evening seat ``seat`` of a started :class:`rummoli.table.Table` (see the module)."""
    by_hand: dict[int, list[dict[str, Any]]] = {}
    evening: list[dict[str, Any]] = []
    for event in table.events_since(0, seat):
        hand_no = event.get("hand_no")
        (by_hand.setdefault(int(hand_no), []) if hand_no else evening).append(event)
    hands = []
    for hand_no, hand, seats in table.finished_hands():
        you = seats.index(seat) if seat in seats else None
        events = by_hand.get(hand_no, [])
        hands.append({
            "hand_no": hand_no,
            "hand_seats": seats,
            "players": [table.names[s] for s in seats],
            "you": you,
            "first_seq": events[0]["seq"] if events else None,
            "last_seq": events[-1]["seq"] if events else None,
            "events": events,
            "view": hand.view(you),
        })
    return {"format": FORMAT, "seat": seat, "name": table.names[seat], "seq": int(table.seq), "evening": evening,
            "hands": hands}
