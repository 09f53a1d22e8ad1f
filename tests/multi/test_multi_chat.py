"""The card room across processes (issue 32): a chat line written through a process that does not drive the table
is forwarded to its owner, which checks the writer's rate, stores it and sends it to every client of the table,
whichever process it is connected to (a client that connects later, anywhere, is shown the stored lines); and
"Play again" asked through a follower is made by the owner, each seat's token reaching only that seat's own
clients, on whichever process they are."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from multi_helpers import Cluster, Node, connect
from server_helpers import Client, play


def spread(cluster: Cluster, **table: Any) -> tuple[str, Node, str, list[Client]]:
    """A table made on the first node, Ann's seat on its owner and Bob's on the other node: the table's id, the
    other node, Bob's token, and the clients of Ann (on the owner), Bob and a spectator (on the other node)."""
    first, second = cluster.nodes
    created = first.create(**table)
    owner = cluster.wait_owner(created["id"])
    other = second if owner is first else first
    bob = other.post(f"/api/tables/{created['id']}/seats", {"name": "Bob"}).json()
    clients = [owner.client(created["id"], created["token"]), other.client(created["id"], bob["token"]),
               other.client(created["id"])]
    return created["id"], other, bob["token"], clients


def chat_of(client: Client, timeout: float = 10) -> dict[str, Any]:
    return client.until(lambda m: m["type"] in ("chat", "error"), timeout)


def test_chat_written_on_a_follower_reaches_everyone_once(make_cluster: Callable[..., Cluster]) -> None:
    table, other, _bob, (ann, bob_there, watcher) = spread(make_cluster(2), ruleset="gin-rummy", seats=[{}, {}],
                                                           seed="chat-multi")
    bob_there.send({"type": "chat", "text": "<b>from a follower</b>"})
    for client in (ann, bob_there, watcher):
        line = chat_of(client)
        assert line["type"] == "chat", line
        said = line["line"]
        assert (said["seat"], said["name"], said["text"]) == (1, "Bob", "<b>from a follower</b>")
    ann.send({"type": "chat", "reaction": "oops"})
    assert chat_of(watcher)["line"]["text"] == "Oops"
    watcher.send({"type": "chat", "text": "me too"})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "unauthorized"
    # The writer's rate is counted by the owner, wherever the lines come from.
    for k in range(5):
        bob_there.send({"type": "chat", "text": f"again {k}"})
    answers = [bob_there.until(lambda m: m["type"] in ("chat", "error") and m.get("line", {}).get("seat") != 0)
               for _ in range(5)]
    assert answers[-1]["type"] == "error" and answers[-1]["code"] == "rate_limited", answers
    later = other.client(table)
    assert [c["text"] for c in later.welcome["chat"]][:2] == ["<b>from a follower</b>", "Oops"]
    assert len(later.welcome["chat"]) == 6
    for client in (ann, bob_there, watcher, later):
        client.close()


def test_play_again_asked_on_a_follower_invites_each_seat_on_its_own_process(
        make_cluster: Callable[..., Cluster]) -> None:
    cluster = make_cluster(2)
    first, second = cluster.nodes
    table, other, bob_token, (ann, bob_there, watcher) = spread(
        cluster, ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], seed="again-multi", hands=1, chips=30,
        pace="instant")
    play([ann, bob_there], random.Random(5), lambda: bool(ann.view.get("over") and bob_there.view.get("over")),
         timeout=120)
    made = other.post(f"/api/tables/{table}/rematch", token=bob_token)
    assert made.status_code == 201, made.text
    again = made.json()
    told = {name: c.until(lambda m: m["type"] == "rematch", 10) for name, c in
            (("ann", ann), ("bob", bob_there), ("watcher", watcher))}
    assert told["bob"]["token"] == again["token"] and told["bob"]["by"] == "Bob"
    assert told["ann"]["seat"] == 0 and told["ann"]["token"] not in (None, again["token"])
    assert told["watcher"]["token"] is None and told["watcher"]["table"] == again["id"]
    assert told["ann"]["token"] not in str(bob_there.messages + watcher.messages)
    ann_again = connect([first, second], again["id"], told["ann"]["token"], 0)[1]
    assert ann_again.seat == 0
    for client in (ann, bob_there, watcher, ann_again):
        client.close()
