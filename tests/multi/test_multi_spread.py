"""Any process serves any client (issue 14): the people of one table spread over two and three server processes
play whole hands, and every client sees the same sequence of its own redacted events.

Each person plays through one node, a second client of the same seat (the same token) listens through another
node, and a spectator watches through every node. At the end, for every seat, the two clients hold the same
events and views with no ``seq`` missing, a reconnection with ``since`` 0 to any node tells the same history,
and the spectators all saw the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from multi_helpers import Cluster, ClusterParty, close_all, connect, gapless, play_out
from server_helpers import open_table

GAMES = [("rummoli", 4, 2), ("rummy", 3, 1)]  # (ruleset, people, hands)


@pytest.mark.parametrize("count", [2, 3])
def test_people_spread_over_processes_play_whole_hands(make_cluster: Callable[..., Cluster], count: int) -> None:
    cluster = make_cluster(count)
    nodes = cluster.nodes
    rng = random.Random(count)
    for k, (ruleset, people, hands) in enumerate(GAMES):
        party = open_table(nodes[k % count], ruleset, people, [], None, hands=hands, joiners=nodes,
                           party=lambda table, tokens, k=k: ClusterParty(cluster, table, tokens, first=k))
        # A second client of every seat on another node than the seat's own, and a spectator on each node.
        shadows = {}
        for seat, token in party.tokens.items():
            others = [n for n in nodes if n is not party.where[seat]]
            shadows[seat] = connect(others, party.table_id, token, 0)[1]
        watchers = [node.client(party.table_id, since=0) for node in nodes]
        party.listeners = {**{f"shadow {s} on another node": c for s, c in shadows.items()},
                           **{f"spectator on {n.name}": c for n, c in zip(nodes, watchers, strict=True)}}
        assert len({party.where[seat].name for seat in party.seats}) == min(count, people)

        assert play_out(party, [*shadows.values(), *watchers], rng) > 10
        final = party.watcher.seq
        for client in [*party.clients().values(), *shadows.values(), *watchers]:
            while client.seq < final:
                client.recv(10)
            gapless(client)
        histories = party.histories()  # asked of every node: they agree
        for seat, client in party.seats.items():
            assert shadows[seat].events == client.events, f"seat {seat} sees another story elsewhere"
            assert shadows[seat].view == client.view
            assert histories[seat] == client.events
            assert client.events != party.watcher.events  # a seat sees its own cards, a spectator none
        for watcher in watchers:
            assert watcher.events == party.watcher.events == histories[None]
            assert watcher.view == party.watcher.view
        record = nodes[-1].get(f"/api/tables/{party.table_id}/record", token=party.tokens[0])
        assert record.status_code == 200 and record.json()["format"] == "rummoli-evening/1"
        close_all([*party.clients().values(), *shadows.values(), *watchers])
