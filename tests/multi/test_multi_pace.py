"""The countdown between hands across two processes (issue 30): the clients of the process that follows a table
see the owner's countdown and who is ready, and a person there who says next is heard by the owner."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from multi_helpers import Cluster, close_all, decide
from server_helpers import choose, take_seat

PAUSE = 30.0


def hand_start(message: dict[str, Any]) -> bool:
    return message["type"] == "update" and any(e["type"] == "hand_start" for e in message["events"])


def test_a_person_on_a_follower_sees_the_countdown_and_says_next(make_cluster: Callable[..., Cluster]) -> None:
    cluster = make_cluster(2, args=("--hand-pause", str(PAUSE)))
    owner, follower = cluster.nodes
    created = owner.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], hands=3, seed="multi-pace",
                           pace="instant")
    table = created["id"]
    bob_seat = take_seat(follower, table, "Bob")
    assert cluster.wait_owner(table).name == owner.name  # the creating process drives the table
    ann = owner.client(table, created["token"])
    bob = follower.client(table, bob_seat["token"])
    watcher = follower.client(table)
    people = {0: ann, bob_seat["seat"]: bob}
    assert set(people) == {0, 1}
    deadline = time.monotonic() + 10
    while not all(s["connected"] for s in owner.get(f"/api/tables/{table}").json()["seats"][:2]):
        assert time.monotonic() < deadline, "the owner never heard that Bob is connected through the follower"
        time.sleep(0.05)

    # Play the first hand to its end (each person through their own process).
    rng = random.Random(11)
    deadline = time.monotonic() + 90
    while not watcher.view.get("hand_over"):
        assert time.monotonic() < deadline, watcher.messages[-3:]
        for client in (ann, bob, watcher):
            while client.poll() is not None:
                pass
        mover = next((c for c in people.values() if c.my_turn() and c.seq == watcher.seq), None)
        if mover is None:
            time.sleep(0.05)  # a bot's move, or a client not told yet of the last change
        else:
            answer = decide(mover, choose(mover.view, rng))
            assert answer["type"] == "update", answer
    end = watcher.seq
    for client in (ann, bob):
        while client.seq < end:
            client.recv(10)

    # Every client, on either process, is shown the countdown with the hand's end.
    for client in (ann, bob, watcher):
        shown = client.messages[-1]["next_hand"]
        assert shown is not None and shown["ready"] == [] and shown["waiting"] == [0, 1], (client.seat, shown)
        assert PAUSE - 10 < shown["seconds"] <= PAUSE
    late = follower.client(table)  # and a newcomer on the follower, in its welcome
    assert late.welcome["seq"] == end and late.welcome["next_hand"]["waiting"] == [0, 1]

    # Ann says next on the owner: the follower's clients see who is ready, without a new seq.
    ann.send({"type": "next", "seq": end})
    for client in (bob, watcher, late):
        told = client.until(lambda m: m["type"] == "next_hand")
        assert told["ready"] == [0] and told["waiting"] == [1] and client.seq == end
    # Bob says next on the follower, which forwards it: the hand is dealt at once, not after the countdown.
    started = time.monotonic()
    bob.send({"type": "next", "seq": end})
    for client in (bob, ann, watcher):
        client.until(hand_start, timeout=20)
        assert client.messages[-1]["next_hand"] is None
    assert time.monotonic() - started < PAUSE - 10
    for client in (ann, bob, watcher, late):
        assert not client.errors, client.errors
    close_all([ann, bob, watcher, late])
