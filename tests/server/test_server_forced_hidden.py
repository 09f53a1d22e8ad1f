"""Another seat's forced move is delivered as a chosen one would be (issue 33, item 2): in its own update, never
batched with the action that caused it (only a run's forced plays, which every seat is told were forced, come with
the move that started them, and only at pace 0), and after the same wait as that seat's chosen moves -- so a seat that
watches learns nothing of which moves had one legal choice (the engine's redaction of ``forced`` hides the flag;
this hides the timing and the batching). Evenings of Rummoli, Tripoley and Michigan against real servers, with
a pace like the default one (bots slower than forced plays) and with pace 0."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Client, Server, choose

BOT_PACE = 0.4


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server paced as the default one is (bots slower than forced plays), faster: bots 0.4 s, forced plays
    0.1 s."""
    running = Server(tmp_path_factory.mktemp("hidden"), "--bot-pace", str(BOT_PACE), "--play-pace", "0.1").start()
    try:
        yield running
    finally:
        running.stop()


def actions(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in message.get("events", []) if e["type"] == "action"]


def watch_evening(client: Client, rng: random.Random, timeout: float = 120) -> list[tuple[float, dict[str, Any]]]:
    """The person at ``client`` plays the evening at random; every update with the time it arrived."""
    stamps: list[tuple[float, dict[str, Any]]] = [(time.monotonic(), client.welcome)]
    deadline = time.monotonic() + timeout
    while not client.view.get("over"):
        if client.my_turn():
            client.act(choose(client.view, rng))
        seq = client.seq
        while client.seq == seq:  # until the table moves
            message = client.recv(max(0.01, deadline - time.monotonic()))
            assert message["type"] != "error", message
            if message["type"] == "update":
                stamps.append((time.monotonic(), message))
        assert time.monotonic() < deadline, "the evening did not end in time"
    return stamps


@pytest.mark.slow
@pytest.mark.parametrize("pace", [None, "instant"])
@pytest.mark.parametrize("ruleset", ["rummoli", "tripoley", "michigan"])
def test_another_seats_forced_move_comes_as_a_chosen_one_would(paced: Server, ruleset: str, pace: str | None) -> None:
    # Paced, one Rummoli or Tripoley hand gives enough of the others' moves to judge (Michigan's are shorter).
    hands = 1 if pace is None and ruleset != "michigan" else 2
    created = paced.create(ruleset=ruleset, seats=[{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "random"}],
                           hands=hands, seed=f"hidden-{ruleset}-{pace}", pace=pace)
    ann = paced.client(created["id"], created["token"])
    me = ann.seat
    stamps = watch_evening(ann, random.Random(ruleset))
    # Ann's own forced lead, pass or keep was asked of her, as a choice is: only a play in a run is made for her.
    made_for_her = [m["view"]["hand"]["forced"] for _, m in stamps if (m["view"].get("hand") or {}).get("forced")]
    assert all(f["action"] == "play" for f in made_for_her), made_for_her
    others = 0
    short = []
    bot_pace = BOT_PACE if pace is None else 0.0
    for (before, _), (at, message) in itertools.pairwise(stamps):
        acted = actions(message)
        # A play in a run is forced for everyone alike (shown so): nothing to hide.
        theirs = [a for a in acted if a["seat"] != me and not a["forced"]]
        others += len(theirs)
        # One move per update: a forced move never rides along with the move that caused it. At pace 0 a run's
        # forced plays (shown as forced to every seat) come with the move that started them (Host.run_at_once): only
        # one move in an update is anything else.
        assert len(acted) <= 1 if pace is None else len([a for a in acted if not a["forced"]]) <= 1, acted
        assert pace is None or all(a["action"] == "play" and a["forced"] for a in acted[1:]), acted
        if theirs and at - before < 0.7 * bot_pace:  # a bot's move, chosen or forced, waits the bots' pace
            short.append((round(at - before, 3), theirs[0]))
    assert others >= 10
    # A test process held up for a moment reads two updates at once (the second gap short): a few, no more.
    assert len(short) <= others // 10, short
    ann.close()
