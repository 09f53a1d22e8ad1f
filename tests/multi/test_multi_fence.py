"""A fenced-off owner cannot write (issue 14).

Two nodes, a lease of 3 s. The owner of a table is paused with SIGSTOP just after one of its clients sent a
decision (it lies unread in the paused process's socket). The other node takes the table once the lease has run
out, with a higher fence, and takes a different decision for the same seat through its own client. Then the old
owner is resumed: it reads the decision it was sent, but its lease is gone and its fence is old, so nothing it
does may be stored or told as done. The database keeps the new owner's decision; every event any client was
sent, on either node, is the table's true history; and the evening plays on to its end on both nodes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from multi_helpers import Cluster, ClusterParty, close_all, connect, gapless, play_out
from server_helpers import choose, open_table
from websockets.exceptions import ConnectionClosed


def two_decisions(view: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Two different legal decisions in a view, if it has two."""
    legal = list(view["hand"]["legal_actions"])
    kinds = {a["action"] for a in legal}
    if len(legal) < 2 or len(kinds) < 2:
        return None
    first = choose({"hand": {"legal_actions": [legal[0]]}}, rng)
    second = choose({"hand": {"legal_actions": [a for a in legal if a["action"] != legal[0]["action"]]}}, rng)
    return first, second


def test_paused_owner_resumed_after_its_lease_cannot_write(make_cluster: Callable[..., Cluster]) -> None:
    cluster = make_cluster(2)
    rng = random.Random(14)
    party = open_table(cluster.nodes[0], "rummoli", 3, [], "fence", hands=1, joiners=cluster.nodes,
                       party=lambda table, tokens: ClusterParty(cluster, table, tokens))
    assert isinstance(party, ClusterParty)
    # Play until the person to decide has two different decisions.
    while True:
        mover = party.mover()
        assert mover is not None
        pair = two_decisions(mover.view, rng)
        if pair is not None:
            break
        seq = mover.seq
        mover.act(choose(mover.view, rng))
        party.settle(after=seq)
    seat = mover.seat
    assert seat is not None
    table = party.table_id
    old = cluster.wait_owner(table)
    new = next(node for node in cluster.nodes if node is not old)
    _owner, fence, _until = cluster.owner(table)
    on_old = old.client(table, party.tokens[seat], since=0)
    on_new = new.client(table, party.tokens[seat], since=0)
    seq = on_old.seq
    assert on_new.seq == seq

    old.pause()
    try:
        on_old.act(pair[0], seq)  # waits, unread, in the paused owner's socket
        assert cluster.wait_owner(table, other_than=old.name, timeout=10) is new
        assert cluster.owner(table)[1] > fence, "a new owner must come with a higher fence"
        on_new.act(pair[1], seq)
        answer = on_new.until(lambda m: m["type"] in ("update", "error"))
        assert answer["type"] == "update", answer
    finally:
        old.resume()

    # The old owner reads the decision it was sent, with its lease gone: it may refuse it or pass it on (where it
    # is stale), but nothing it says may be false, and nothing it wrote may be kept.
    time.sleep(2)
    assert cluster.wait_owner(table) is new, "the fenced-off owner took the table back"
    stored = cluster.database.query("SELECT seq, payload FROM actions WHERE table_id = %s ORDER BY seq", table)
    assert len({s for s, _p in stored}) == len(stored)
    (table_seq,) = cluster.database.query("SELECT seq FROM tables WHERE id = %s", table)[0]
    assert table_seq == answer["seq"], "the fenced-off owner's decision was stored"
    try:
        for client in (on_old, on_new):
            while client.seq < table_seq:
                client.recv(10)
    except ConnectionClosed:
        pytest.fail(f"the fenced-off owner dropped the connection that sent it a decision:\n{cluster.logs()}")
    assert on_old.view == on_new.view
    truth = party.histories()[seat]
    assert on_old.events == truth[: on_old.seq] and on_new.events == truth[: on_new.seq]
    gapless(on_old)
    gapless(on_new)

    # The evening goes on to its end through both nodes.
    play_out(party, [on_old, on_new], rng)
    party.check_gapless()
    for client in (on_old, on_new):
        client.drain(0.3)
        gapless(client)
        client.close()
    _node, late = connect([old], table, party.tokens[seat], 0)
    assert late.events == party.histories()[seat]
    close_all([late])
    party.close()
