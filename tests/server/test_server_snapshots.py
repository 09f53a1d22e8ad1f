"""A long evening stores a snapshot of the whole table only when its journal has doubled since the last one, not
at every deal (issue 34: each snapshot is the whole journal, so one per deal made every hand of a long evening
dearer than the one before), and a server killed far from its last snapshot comes back exactly from the actions
stored after it."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from server_helpers import Server
from test_server_history import whole_history

from rummoli.games import replay

HANDS = 120


def stored(db: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(query, args).fetchall()


@pytest.mark.slow
def test_snapshots_as_the_journal_doubles_and_a_restart_from_the_actions_after_the_last(tmp_path: Path) -> None:
    server = Server(tmp_path, "--grace", "0", RUMMOLI_TAKEOVER_LEVEL="random").start()
    db = tmp_path / "rummoli.sqlite3"
    # Every snapshot the server writes, noted by the database itself (the server forgets the older ones).
    with sqlite3.connect(db) as conn:
        conn.executescript("CREATE TABLE snapshot_log (table_id TEXT, seq INTEGER);"
                           "CREATE TRIGGER note_snapshot AFTER INSERT ON snapshots BEGIN "
                           "INSERT INTO snapshot_log VALUES (NEW.table_id, NEW.seq); END;")
    try:
        # Its only person is away from the start: bots play the whole evening at once (--grace 0).
        created = server.create(ruleset="rummoli", seats=[{}, {"bot": "random"}, {"bot": "random"}], hands=HANDS,
                                chips=100000)
        table, token = created["id"], created["token"]
        deadline = time.monotonic() + 120
        while stored(db, "SELECT hand_no FROM tables WHERE id = ?", table)[0][0] < HANDS // 2:
            assert time.monotonic() < deadline, "the bots did not play half the evening in 120 s"
            time.sleep(0.05)
        for _ in range(5):
            early = server.get(f"/api/tables/{table}/history?first=1", token=token).json()["hands"]
            server.kill()  # mid-evening, most likely far from the last snapshot
            (seq_stored,) = stored(db, "SELECT seq FROM tables WHERE id = ?", table)[0]
            (last_snapshot,) = stored(db, "SELECT max(seq) FROM snapshots WHERE table_id = ?", table)[0]
            if last_snapshot < seq_stored:
                break
            # Killed just as a snapshot was written (seen once in many runs): nothing to play from the journal
            # after it, which this test is about. Play on a little and kill again.
            server.start()
            time.sleep(0.3)
        server.start()
        # The hands played before the kill are what the restored table tells of them, to the byte.
        assert server.get(f"/api/tables/{table}/history?first=1", token=token).json()["hands"] == early
        deadline = time.monotonic() + 120
        while not server.get(f"/api/tables/{table}").json()["over"]:
            assert time.monotonic() < deadline, "the evening did not end in 120 s after the restart"
            time.sleep(0.2)
        # The seat's history from the start: every hand once, every event once, numbered without a gap
        # across the restart.
        whole_history(server, table, token, HANDS)
        record = server.get(f"/api/tables/{table}/record", token=token).json()
        assert len(record["hands"]) == HANDS
        # The restarts restored the table with its first dealer given: the cut the table drew went with it.
        assert record["dealer_by"] == "cut" and replay(record)["hands"] == HANDS
        journal = [data for (data,) in stored(db, "SELECT payload FROM actions WHERE table_id = ?", table)]
        notes = stored(db, "SELECT seq FROM snapshot_log WHERE table_id = ?", table)
    finally:
        server.stop()
    print(f"{len(notes)} snapshots in {HANDS} hands ({len(journal)} stored changes); at the kill the last was at seq "
          f"{last_snapshot}, the table at {seq_stored}")
    # One a deal would be 120 and more; doubling gives about log2 of the journal's length, plus the end's and the
    # ones the restart took.
    assert len(notes) <= 25, notes
    assert last_snapshot < seq_stored
