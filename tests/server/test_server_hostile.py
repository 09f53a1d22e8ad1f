"""Hostile clients, the suite (issue 33, "Strangers on the server"): one short evening of every built-in ruleset
on a real server, 2 to 4 scripted people who pick random legal actions from their own view, bots and a
spectator; every frame and REST answer each of them got is checked against the evening as the server stored
it (tests/server/hostile_check.py says how). ``python -m bench.hostile`` plays many more evenings."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_check import Evening, check_frames, figures, hostile_server, play_evening, rulesets
from server_helpers import Server

RULESETS = rulesets()
PLAYED: list[Evening] = []


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = hostile_server(tmp_path_factory.mktemp("hostile")).start()
    try:
        yield running
    finally:
        running.stop()
        if PLAYED:
            print("\n" + figures(PLAYED))


def test_every_ruleset_is_played() -> None:
    assert len(RULESETS) >= 11 and {"rummoli", "500-rum", "gin-rummy"} <= set(RULESETS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_frame_or_answer_tells_a_seat_what_it_may_not_know(hostile: Server, ruleset: str) -> None:
    evening = play_evening(hostile, ruleset, k=RULESETS.index(ruleset), hands=2)
    PLAYED.append(evening)
    tally = evening.tally
    assert tally.leaks == [], "\n".join(tally.leaks[:20])
    assert tally.frames > 10 and tally.cards > 500 and tally.rest >= 6, (tally.frames, tally.cards, tally.rest)


def first(evening: Evening, seat: int | None) -> dict[str, Any]:
    """A copy of ``seat``'s first frame that shows a hand in play (to plant something in)."""
    return copy.deepcopy(next(m for m in evening.messages[seat] if m["type"] in ("welcome", "update")
                              and (m["view"].get("hand") or {}).get("phase") not in (None, "over")))


def test_the_checks_see_a_leak_when_there_is_one(hostile: Server) -> None:
    """Not blind: another seat's dealt card (as a name or in a sentence), another seat's forced lead (as a flag
    or in words), a spectator's legal actions and another seat's, each planted in a real frame, are found."""
    evening = play_evening(hostile, "michigan", k=0, hands=1)  # its own (under xdist, tests go anywhere)
    truth = evening.truth
    frame = first(evening, 0)
    hand_no = int(frame["view"]["hand_no"])
    seats = truth.hand_seats[hand_no]
    other = truth.deals[hand_no]["deal"]["hands"][seats.index(1)]
    hidden = next(c for c in other if truth.public.get((hand_no, c), 10**9) > frame["seq"])
    frame["view"]["hand"]["note"] = {"x": [hidden]}
    assert "got " + hidden in " ".join(check_frames(truth, 0, [frame], "planted").leaks)
    frame = first(evening, 0)  # the same card in a sentence, as the log's lines name cards
    sentence = f"P1 holds {hidden[0].replace('T', '10')}{dict(zip('shdc', '♠♥♦♣', strict=True))[hidden[1]]}."
    frame["events"] = [{"type": "note", "text": sentence, "seq": frame["seq"], "hand_no": hand_no}]
    assert "got " + hidden in " ".join(check_frames(truth, 0, [frame], "planted").leaks)

    frame = first(evening, 0)
    frame["events"] = [{"type": "action", "seat": seats.index(1), "action": "lead", "card": "2c", "forced": True,
                        "seq": frame["seq"], "hand_no": hand_no}]
    assert any("forced" in leak for leak in check_frames(truth, 0, [frame], "planted").leaks)
    del frame["events"][0]["forced"]
    frame["events"][0]["text"] = "P1 leads 2♣ (the only choice)."
    assert any("forced" in leak for leak in check_frames(truth, 0, [frame], "planted").leaks)

    watcher = first(evening, None)
    watcher["view"]["hand"]["legal_actions"] = [{"action": "pass"}]
    assert any("spectator got legal" in leak for leak in check_frames(truth, None, [watcher], "planted").leaks)

    mine = first(evening, 0)
    mine["view"]["hand"]["legal_actions"] = [{"action": "play", "card": hidden}]
    leaks = check_frames(truth, 0, [mine], "planted").leaks
    assert any("not its own" in leak for leak in leaks) or truth.legal.get((mine["seq"], 0)) is None


def test_another_tables_token_opens_nothing_here(hostile: Server, tmp_path: Path) -> None:
    """A seat's token of one table gets no seat at another: not on the websocket (a spectator's welcome at
    most), not its history, not a seat's replay; a hand number out of range is one line."""
    here = hostile.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                          seed="hostile-tokens")
    there = hostile.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1)
    client = hostile.client(here["id"], there["token"])
    assert client.welcome["type"] == "error" and client.welcome["code"] == "unauthorized", client.welcome
    client.close()
    for path in ("history", "hands/1/replay"):
        answer = hostile.get(f"/api/tables/{here['id']}/{path}", token=there["token"])
        assert answer.status_code in (401, 403), (path, answer.text)
    for hand_no in ("0", "-1", "99999999999999999999", "x"):
        answer = hostile.get(f"/api/tables/{here['id']}/hands/{hand_no}/replay")
        assert answer.status_code in (404, 409, 422) and "Traceback" not in answer.text, (hand_no, answer.text)
