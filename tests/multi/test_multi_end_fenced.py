"""An evening ended before its first deal by an owner whose lease has run out (issue 14's fence, for the end).

The creator's "end" reaches the table's old owner, stopped (SIGSTOP) while its lease ran out: another process took
the table, its last seat was taken there and the evening is being played there. The old owner, resumed, still holds
the table as it was, waiting for players, and ends it by storing the status "over" alone. That write must be
fenced as every other change is: were it stored, the evening would read as over (``Room.over``, the end as stored)
to any process that loads the table, which would then give a seat every card of the finished hands (open replays,
the evening's record) while the evening goes on elsewhere."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from multi_helpers import Cluster
from server_helpers import HTTP, play, take_seat


def test_an_old_owner_cannot_end_an_evening_another_process_has_dealt(make_cluster: Callable[..., Cluster]) -> None:
    cluster = make_cluster(3)
    old = cluster.nodes[0]
    created = old.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], hands=3, pace="instant",
                         seed="fenced-end")
    table, token = created["id"], created["token"]
    assert cluster.wait_owner(table) is old
    answer: dict[str, Any] = {}

    def end() -> None:  # sent while the old owner stands still: it lies unread in its socket
        reply = HTTP.post(f"{old.url}/api/tables/{table}/end", headers={"Authorization": f"Bearer {token}"},
                          timeout=60)
        answer.update(status=reply.status_code, body=reply.text)

    old.pause()
    sender = threading.Thread(target=end)
    try:
        sender.start()
        new = cluster.wait_owner(table, other_than=old.name, timeout=15)
        fresh = next(node for node in cluster.nodes if node not in (old, new))
        bob = take_seat(new, table, "Bob")
        ann_client, bob_client = new.client(table, token), new.client(table, bob["token"])
        # Hand 1 is played to its end on the new owner; hand 2 waits for a person.
        play([ann_client, bob_client], random.Random(7),
             lambda: int(ann_client.view.get("hand_no") or 0) >= 2 and not ann_client.view.get("hand_over"))
    finally:
        old.resume()
    sender.join(60)
    assert answer, "the old owner never answered the end"
    time.sleep(1)
    (status,) = cluster.database.query("SELECT status FROM tables WHERE id = %s", table)[0]
    # A process that loads the table now reads the end as stored: no open hand, no record, while hand 2 is played.
    shown = fresh.get(f"/api/tables/{table}/hands/1/replay?open=1", token=token)
    record = fresh.get(f"/api/tables/{table}/record", token=token)
    assert "open_hands" not in shown.text and shown.status_code == 409, shown.text[:300]
    assert record.status_code == 409, record.text[:300]
    assert status != "over", f"the old owner's end was stored ({answer}) while the evening goes on"
    assert fresh.get(f"/api/tables/{table}").json()["over"] is False
    for client in (ann_client, bob_client):
        client.close()
