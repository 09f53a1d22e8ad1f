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
from typing import Any

from server_helpers import Client, Server, choose


class Party:
    """The people of one table on one server: a client per person's seat and a spectator."""

    def __init__(self, server: Server, table_id: str, tokens: dict[int, str]) -> None:
        self.server, self.table_id, self.tokens = server, table_id, tokens
        self.connect()

    def connect(self) -> None:
        self.seats = {seat: self.server.client(self.table_id, token) for seat, token in self.tokens.items()}
        self.watcher = self.server.client(self.table_id)

    def close(self) -> None:
        for client in [*self.seats.values(), self.watcher]:
            client.close()

    def settle(self, after: int = -1, timeout: float = 30) -> None:
        """Wait until the table has gone past ``after`` and waits for a person (or is over), and every client
        has seen all of it."""
        deadline = time.monotonic() + timeout

        def waiting() -> bool:
            view = self.watcher.view
            if self.watcher.seq <= after:
                return False
            if view.get("over"):
                return True
            people = [s for s in view.get("to_act", []) if view["seats"][s]["bot"] is None]
            return bool(people) and not view.get("hand_over")

        while not waiting():
            self.watcher.recv(max(0.01, deadline - time.monotonic()))
        for client in self.seats.values():
            while client.seq < self.watcher.seq:
                client.recv(max(0.01, deadline - time.monotonic()))
            assert client.seq == self.watcher.seq

    def views(self) -> dict[Any, Any]:
        out: dict[Any, Any] = {seat: c.view for seat, c in self.seats.items()}
        out[None] = self.watcher.view
        return out

    def histories(self) -> dict[Any, Any]:
        """Every event each seat (and a spectator) may see, from the first, as a client reconnecting gets them."""
        out: dict[Any, Any] = {}
        for seat, token in [*self.tokens.items(), (None, None)]:
            client = self.server.client(self.table_id, token, since=0)
            out[seat] = client.welcome["events"]
            assert [e["seq"] for e in out[seat]] == list(range(1, client.welcome["seq"] + 1))
            client.close()
        return out

    def mover(self) -> Client | None:
        view = self.watcher.view
        for seat in view.get("to_act", []):
            if seat in self.seats and view["seats"][seat]["bot"] is None:
                return self.seats[seat]
        return None


def open_table(server: Server, ruleset: str, people: int, bots: list[str], seed: str | None) -> Party:
    seats: list[dict[str, Any]] = [{} for _ in range(people)] + [{"bot": b} for b in bots]
    created = server.create(ruleset=ruleset, seats=seats, seed=seed, hands=3, chips=60)
    tokens = {0: created["token"]}
    for k in range(1, people):
        joined = server.post(f"/api/tables/{created['id']}/seats", {"name": f"P{k}"}).json()
        tokens[joined["seat"]] = joined["token"]
    party = Party(server, created["id"], tokens)
    party.settle()
    return party


STEER = {"auction": "keep", "poker": "swap"}  # the dealer's choice that leads to that phase


def step(pair: tuple[Party, Party], rng: random.Random, towards: str | None = None) -> bool:
    """One person's decision, made at both servers; False once the evening is over."""
    a, b = pair
    assert a.views() == b.views()
    mover = a.mover()
    if mover is None:
        return False
    action = choose(mover.view, rng)
    steer = [x for x in mover.view["hand"]["legal_actions"] if x["action"] == STEER.get(towards or "")]
    if steer:
        action = dict(steer[0])
    seat, seq = mover.seat, mover.seq
    for party in pair:
        party.seats[seat].act(action)  # type: ignore[index]
    for party in pair:
        party.settle(after=seq)
    return True


def drive_to(pair: tuple[Party, Party], rng: random.Random, phase: str | None, moves: int) -> None:
    """Play until the hand in play is in ``phase`` (or ``moves`` decisions, or the evening ends)."""
    for _ in range(moves):
        hand = pair[0].watcher.view.get("hand") or {}
        if phase is not None and hand.get("phase") == phase and not pair[0].watcher.view.get("hand_over"):
            return
        if not step(pair, rng, phase):
            return


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
