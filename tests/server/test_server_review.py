"""The coach on the server (issue 37): a finished hand reviewed from your own seat (another seat's only once
the evening is over), an uploaded record reviewed from the seat asked for, every refusal one line, and a
bounded queue of reviews made in the bot workers' aside worker while the tables play on."""

from __future__ import annotations

import concurrent.futures
import random
import time
from pathlib import Path
from typing import Any

from server_helpers import HTTP, Server, end_evening, one_line, play_until

from rummoli.games import family


def check_review(review: dict[str, Any], seat: int, unit: str) -> None:
    assert review["format"] == "rummoli-review/1" and review["seat"] == seat and review["unit"] == unit
    for d in review["decisions"]:
        assert d["words"] and d["choices"][d["taken_choice"]]["action"] == d["taken"]
        assert d["taken"]["seat"] == seat
    assert review["mistakes"] == sum(d["mistake"] for d in review["decisions"])


def test_review_of_a_finished_hand_is_for_its_own_seat(tmp_path: Path) -> None:
    server = Server(tmp_path, RUMMOLI_REVIEW_BUDGET="0.05").start()
    try:
        stranger = server.create(ruleset="gin-rummy", seats=[{}, {"bot": "random"}], hands=1)["token"]
        created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=2,
                                pace="instant", seed="review-1")
        table, token = created["id"], created["token"]
        path, ann = f"/api/tables/{table}/hands/1/review", server.client(table, token)
        assert "not a finished hand" in one_line(server.get(path, token=token), 409)
        play_until(ann, lambda c: bool(c.view.get("hand_over")), random.Random(3))

        mine = server.get(path, token=token)
        assert mine.status_code == 200, mine.text
        check_review(mine.json(), 0, "chips")
        assert mine.json()["hand_no"] == 1 and mine.json()["table"] == table
        assert server.get(path + "?seat=0", token=token).status_code == 200

        # Someone else's seat while the evening goes on, no token, another table's token: refused.
        assert "your own seat" in one_line(server.get(path + "?seat=1", token=token), 403)
        one_line(server.get(path), 401)
        one_line(server.get(path, token=stranger), 403)
        one_line(server.get(path, token="not-a-token"), 403)
        one_line(server.get(f"/api/tables/{table}/hands/9/review", token=token), 409)
        one_line(server.get("/api/tables/nosuch/hands/1/review", token=token), 404)

        # Once the evening is over, a seat of the table may review the others' seats too.
        end_evening(server, table, token, ann, random.Random(4))
        theirs = server.get(path + "?seat=1", token=token)
        assert theirs.status_code == 200, theirs.text
        check_review(theirs.json(), 1, "chips")
        assert "did not play" in one_line(server.get(path + "?seat=5", token=token), 403)
    finally:
        server.stop()


def test_uploaded_record_review_and_bounded_queue(tmp_path: Path) -> None:
    server = Server(tmp_path, RUMMOLI_REVIEW_BUDGET="0.05", RUMMOLI_REVIEW_QUEUE="1").start()
    try:
        record = family("rummy").random_hand_record("gin-rummy", 2, "review-2")
        done = HTTP.post(server.url + "/api/review?seat=1", json=record, timeout=60)
        assert done.status_code == 200, done.text
        check_review(done.json(), 1, "points")

        one_line(server.post("/api/review?seat=7", record), 400)
        one_line(server.post("/api/review", {"format": "rummoli-hand/1"}), 400)
        broken = dict(record, actions=[{"seat": 1, "action": "fly"}])
        one_line(server.post("/api/review", broken), 400)
        one_line(server.post("/api/review?seat=x", record), 422)
        poch = family("poch").random_hand_record("poch", 4, "review-2")
        weighed = HTTP.post(server.url + "/api/review?seat=1", json=poch, timeout=60)
        assert weighed.status_code == 200, weighed.text
        check_review(weighed.json(), 1, "chips")
        assert HTTP.post(server.url + "/api/review", content=b"x" * 40_000,
                          headers={"content-type": "application/json"}, timeout=10).status_code == 413

        # A queue of one: while a review runs, the next is refused at once, and the server keeps answering.
        def ask() -> int:
            return HTTP.post(server.url + "/api/review?seat=0", json=record, timeout=60).status_code

        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            answers = [pool.submit(ask) for _ in range(3)]
            time.sleep(0.3)
            started = time.monotonic()
            assert server.get("/healthz").status_code == 200
            assert time.monotonic() - started < 2.0
            codes = sorted(a.result() for a in answers)
        assert codes[0] == 200 and 503 in codes, codes
    finally:
        server.stop()


def test_a_review_during_the_evening_numbers_decisions_as_the_seat_saw_the_actions(tmp_path: Path) -> None:
    """A decision's ``index`` is its place among every action the seat's own stream showed, forced ones too: the
    table's record leaves forced moves out, so its numbers told how many of the others' leads, bids and widow
    choices were forced, which their hidden cards decide and the seat's stream never says (R-VIEW-1)."""
    server = Server(tmp_path, RUMMOLI_REVIEW_BUDGET="0.02").start()
    try:
        created = server.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=3,
                                pace="instant", seed="s1")
        table, token = created["id"], created["token"]
        ann = server.client(table, token)
        play_until(ann, lambda c: bool(c.view.get("hand_over")), random.Random(5))
        seen = [e for e in ann.events if e["type"] == "action" and e.get("hand_no") == 1]
        assert any(e["forced"] for e in seen)  # a run's plays at least, which the record leaves out

        answer = server.get(f"/api/tables/{table}/hands/1/review", token=token)
        assert answer.status_code == 200, answer.text
        decisions = answer.json()["decisions"]
        assert len(decisions) > 1
        for d in decisions:
            shown = {k: v for k, v in seen[d["index"]].items() if k in d["taken"]}
            assert shown == d["taken"], (d["index"], d["taken"], seen[d["index"]])
        ann.close()
    finally:
        server.stop()
