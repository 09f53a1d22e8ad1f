"""Nothing lost: a server killed with SIGKILL mid-hand comes back exactly where it was.

Two servers play the same tables (the same seeds, the same decisions): A is killed with ``kill -9``
while its tables stand in different phases (the auction, the poker round, the play round, a Rummy turn, a
table with bots) and restarted on the same data folder; B is never interrupted. After the restart every
seat's view (its cards, the chips, the legal actions) and every event it can see must be what it was, and from
there on A must play exactly as B does to the end of the evening: the same cards to come, the same bots'
decisions, the same records. A table with a secure (unseeded) shuffle checks the same views across a kill.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from server_helpers import Server, drive_to, open_table, step

SCENARIOS = [  # (ruleset, people, bots, the phase its hand is in when the server is killed)
    ("rummoli", 3, [], "auction"),
    ("rummoli", 3, [], "poker"),
    ("michigan", 2, ["easy"], "play"),
    ("rummy", 3, [], "play"),  # a Rummy turn after the draw, before the discard
    ("tripoley", 1, ["normal", "easy"], "play"),
]


def test_kill_9_mid_hand_and_restart_loses_nothing(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = Server(tmp_path / "a").start()
    b = Server(tmp_path / "b").start()
    try:
        pairs = []
        for k, (ruleset, people, bots, _phase) in enumerate(SCENARIOS):
            seed = f"crash-{k}"
            pairs.append((open_table(a, ruleset, people, bots, seed), open_table(b, ruleset, people, bots, seed)))
        secure = open_table(a, "rummoli", 2, ["easy"], None)
        rngs = [random.Random(k) for k in range(len(SCENARIOS))]
        for pair, rng, scenario in zip(pairs, rngs, SCENARIOS, strict=True):
            drive_to(pair, rng, scenario[3], moves=40)
            assert pair[0].watcher.view["hand"]["phase"] == scenario[3]
        before = [(pair[0].views(), pair[0].histories()) for pair in pairs]
        secure_before = (secure.views(), secure.histories())
        summaries = a.get("/api/tables").json()  # the lobby: each table as anyone may see it
        for party in [*(p[0] for p in pairs), secure]:
            party.close()
        workers = a.children()
        assert workers  # the bots have decided in worker processes
        a.kill()
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(Path(f"/proc/{pid}").exists() for pid in workers), "bot workers outlived their server"
        a.start()
        for party, (views, histories) in [*((p[0], x) for p, x in zip(pairs, before, strict=True)),
                                          (secure, secure_before)]:
            party.connect()
            party.settle()
            assert party.views() == views  # the same cards, chips and legal actions
            assert party.histories() == histories  # every event kept, none made twice
        # The lobby says what it said: a restored table keeps the very time it was made at (it moved by milliseconds)
        assert {t["id"]: t["created_at"] for t in a.get("/api/tables").json()["tables"]} == \
            {t["id"]: t["created_at"] for t in summaries["tables"]}
        # From here A must play exactly as the uninterrupted B: the same cards and the same bots' choices
        # (the stops evenings to their end and their records; 30 more Rummy turns, each drawing a card).
        for pair, rng, scenario in zip(pairs, rngs, SCENARIOS, strict=True):
            for _ in range(30 if scenario[0] == "rummy" else 500):
                if not step(pair, rng):
                    break
            if pair[0].watcher.view["over"]:
                records = [p.server.get(f"/api/tables/{p.table_id}/record", token=p.tokens[0]).json() for p in pair]
                assert records[0] == records[1] and records[0]["format"] == "rummoli-evening/1"
            else:
                assert scenario[0] == "rummy"
        for pair in pairs:
            for party in pair:
                party.close()
        secure.close()
    finally:
        a.stop()
        b.stop()
