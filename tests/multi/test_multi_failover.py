"""Failover under load (issue 14): a table's owner process killed with ``kill -9`` mid-hand, at several points
of a hand, while another table is played as fast as the servers answer.

Three nodes play seeded tables (the same seeds and decisions as a single uninterrupted server on SQLite, the
reference) whose people are spread over the nodes. One table at a time, its owner (the ``tables.owner``
column) is killed while the hand stands in the auction, the betting, the play of the cards, a Rummy turn, a bots'
table's play; another node must take the table within 5 s. The clients of the dead node reconnect to a live one
with their token and the last ``seq`` they saw; every view and every event each seat can see must then be the
reference's, and from there on the cluster must play exactly as the reference to the end of the evening: the
same cards, the same bots' decisions, the same records. No client, moved or not, may miss a ``seq``. The killed
node is started again before the next kill, so three nodes stand each time.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

from multi_helpers import Cluster, ClusterParty, Load, Node, close_all
from server_helpers import Party, Server, drive_to, open_table, step

SCENARIOS = [  # (ruleset, people, bots, the phase its hand is in when its owner is killed)
    ("rummoli", 3, [], "auction"),
    ("rummoli", 3, [], "poker"),  # the betting
    ("rummoli", 3, [], "play"),
    ("rummy", 3, [], "play"),  # a Rummy turn after the draw, before the discard
    ("michigan", 2, ["easy"], "play"),  # a table with a bot, which must decide as the reference's did
]


def record_when_over(party: Party, within: float = 10.0) -> dict[str, object]:
    """The evening's record from the party's own node.  The watcher that saw the evening end may be on another
    node: this one's copy of the table follows the owner over the bus and may be a moment behind, and until it
    has the end it answers 409, as for an evening still in play (seen once on a loaded machine)."""
    deadline = time.monotonic() + within
    while True:
        answer = party.server.get(f"/api/tables/{party.table_id}/record", token=party.tokens[0])
        if answer.status_code != 409 or time.monotonic() > deadline:
            return answer.json()
        time.sleep(0.05)


def test_owner_killed_mid_hand_another_takes_over_and_nothing_changes(
        tmp_path: Path, make_cluster: Callable[..., Cluster]) -> None:
    cluster = make_cluster(3)
    (tmp_path / "reference").mkdir()
    reference = Server(tmp_path / "reference").start()
    try:
        pairs: list[tuple[ClusterParty, Party]] = []
        for k, (ruleset, people, bots, _phase) in enumerate(SCENARIOS):
            seed = f"failover-{k}"
            here = open_table(cluster.nodes[k % 3], ruleset, people, bots, seed, hands=2, joiners=cluster.nodes,
                              party=lambda table, tokens, k=k: ClusterParty(cluster, table, tokens, first=k))
            assert isinstance(here, ClusterParty)
            pairs.append((here, open_table(reference, ruleset, people, bots, seed, hands=2)))
        rngs = [random.Random(k) for k in range(len(SCENARIOS))]
        for pair, rng, scenario in zip(pairs, rngs, SCENARIOS, strict=True):
            drive_to(pair, rng, scenario[3], moves=40)  # the two agree at every step
            assert pair[0].watcher.view["hand"]["phase"] == scenario[3]

        load = Load(cluster)
        load.start()
        takeovers = []
        for k, (party, ref) in enumerate(pairs):
            time.sleep(0.5)  # the load goes on between kills
            owner = cluster.wait_owner(party.table_id)
            killed = time.monotonic()
            owner.kill()
            # The takeover is timed by a watcher of its own, beside the clients' reconnecting (which on a busy
            # machine took seconds of its own and was once counted in).
            found: dict[str, object] = {}

            def watch(table_id: str = party.table_id, dead: str = owner.name, since: float = killed,
                      out: dict[str, object] = found) -> None:
                out["node"] = cluster.wait_owner(table_id, other_than=dead)
                out["after"] = time.monotonic() - since

            watcher = threading.Thread(target=watch)
            watcher.start()
            for other, _ref in pairs:
                other.recover()  # the dead node's clients go to live ones, with their token and seq
            watcher.join()
            successor = found["node"]
            assert isinstance(successor, Node) and isinstance(found["after"], float), "no node took the table over"
            takeovers.append(found["after"])
            assert takeovers[-1] < 5, f"{SCENARIOS[k]}: taken over after {takeovers[-1]:.1f} s"
            restart = threading.Thread(target=owner.start)
            restart.start()
            party.settle()
            assert party.views() == ref.views(), f"{SCENARIOS[k]}: views changed across the failover"
            assert party.histories() == ref.histories(), f"{SCENARIOS[k]}: events changed across the failover"
            assert step((party, ref), rngs[k]), "the evening ended at the kill"  # the next decision is taken
            assert cluster.wait_owner(party.table_id) is successor
            restart.join()
            assert owner.alive()
        load.finish()

        # From here the cluster must play exactly as the uninterrupted reference: the stops evenings to their
        # end and their records, and 30 more Rummy turns.
        for pair, rng, scenario in zip(pairs, rngs, SCENARIOS, strict=True):
            for _ in range(30 if scenario[0] == "rummy" else 500):
                if not step(pair, rng):
                    break
            party, ref = pair
            if party.watcher.view["over"]:
                records = [record_when_over(p) for p in (party, ref)]
                assert records[0] == records[1] and records[0]["format"] == "rummoli-evening/1"
            else:
                assert scenario[0] == "rummy"
            assert party.histories() == ref.histories()
            party.check_gapless()
        print("takeover after kill -9 (s):", " ".join(f"{t:.2f}" for t in takeovers))
        for party, ref in pairs:
            party.close()
            close_all([*ref.seats.values(), ref.watcher])
    finally:
        reference.stop()
