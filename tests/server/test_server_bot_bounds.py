"""Bot decisions are bounded in a real server (issue 38): seven hard bots at a table whose custom ruleset is at
the documented limits answer within the server's deadline plus half a second, and an ordinary table beside four
such tables keeps its pace."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, Server, choose

from rummoli.datafiles import read_builtin
from rummoli.limits import MAX_BET, MAX_START_CHIPS

# The server's bot_deadline here: well under a hard bot's own 1 s budget, so the deadline is what ends its thinking
# (any bound will do: the test is that it holds, and a short one keeps the bots' CPU small).
DEADLINE = 0.5
SLACK = 0.5
PACE = 0.3


def limits_ruleset() -> dict[str, Any]:
    rules = dict(read_builtin("rummoli") or {})
    rules.update(name="limits", max_raises=1000, max_bet=MAX_BET, starting_chips=MAX_START_CHIPS)
    return rules


@pytest.fixture
def bounded(tmp_path: Path) -> Iterator[Server]:
    """A server with a 1 s bot deadline, bots at pace 0.3 s, and a 1 s grace before a bot plays an absent seat."""
    running = Server(tmp_path, "--bot-pace", str(PACE), "--grace", "1", RUMMOLI_BOT_DEADLINE=str(DEADLINE)).start()
    try:
        warm_workers(running)
        yield running
    finally:
        running.stop()


def warm_workers(server: Server) -> None:
    """Start the server's bot workers (each starts when first needed, a new process importing the bots): the tests
    measure decisions, not a worker's start-up, which the server does not count against a bot's deadline either."""
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "hard"}, {"bot": "easy"}], seed="warm", hands=1)
    client = server.client(created["id"], created["token"])
    rng = random.Random(0)
    deadline = time.monotonic() + 60
    levels: set[str] = set()
    while levels != {"hard", "easy"}:
        assert time.monotonic() < deadline, f"the bots did not move: {levels}"
        if client.my_turn():
            client.act(choose(client.view, rng))
        for event in client.events:
            if event.get("type") == "action" and event.get("seat") in (1, 2):
                levels.add("hard" if event["seat"] == 1 else "easy")
        if levels != {"hard", "easy"}:
            client.recv(deadline - time.monotonic())
    client.close()


def bot_gaps(client: Client, rng: random.Random, moves: int, timeout: float) -> list[float]:
    """The person at ``client`` plays at random; the seconds each bot move took to arrive after the update that
    asked for it, for ``moves`` bot moves (or until the evening ends)."""
    gaps: list[float] = []
    last = time.monotonic()
    deadline = last + timeout
    while len(gaps) < moves and not client.view.get("over"):
        if client.my_turn():
            client.act(choose(client.view, rng))
        waiting_for_bot = bool(client.view.get("to_act")) and not client.my_turn()
        seq = client.seq
        while client.seq == seq:
            left = deadline - time.monotonic()
            assert left > 0, f"no bot move in time; the bot moves so far took {gaps}"
            message = client.recv(left)
            assert message["type"] != "error", message
        now = time.monotonic()
        if waiting_for_bot:
            gaps.append(round(now - last, 3))
        last = now
    return gaps


@pytest.mark.slow
def test_seven_hard_bots_at_the_ruleset_limits_answer_within_the_deadline(bounded: Server) -> None:
    created = bounded.create(ruleset=limits_ruleset(), seats=[{}] + [{"bot": "hard"}] * 7, seed="limits")
    ann = bounded.client(created["id"], created["token"])
    gaps = bot_gaps(ann, random.Random(3), moves=30, timeout=180)
    assert len(gaps) >= 20, gaps
    assert max(gaps) <= PACE + DEADLINE + SLACK, gaps
    ann.close()


@pytest.mark.slow
def test_an_ordinary_table_keeps_its_pace_beside_four_tables_at_the_limits(bounded: Server) -> None:
    for k in range(4):  # nobody comes: a bot plays the creator's seat after the grace period
        bounded.create(ruleset=limits_ruleset(), seats=[{}] + [{"bot": "hard"}] * 7, seed=f"busy-{k}")
    time.sleep(3)  # their hard bots are thinking
    created = bounded.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "normal"}, {"bot": "easy"}],
                             seed="ordinary")
    ann = bounded.client(created["id"], created["token"])
    gaps = bot_gaps(ann, random.Random(4), moves=30, timeout=120)
    assert len(gaps) >= 20, gaps
    assert statistics.median(gaps) <= PACE + 0.3, gaps
    assert max(gaps) <= PACE + 1.5, gaps
    ann.close()
