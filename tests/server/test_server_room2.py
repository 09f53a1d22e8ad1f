"""The card room (issue 32): tables nobody is at leave the lobby, and evenings nobody attends end; a table's chat
(text only, capped, rate limited per seat, kept in the store, read but not written by spectators); and "Play
again", whose seat tokens reach each person's own connection only."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Client, Server, play


@pytest.fixture(scope="module")
def tidy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose empty waiting tables leave after 1 s and whose evenings end 1 s after the last person left."""
    running = Server(tmp_path_factory.mktemp("tidy"), "--waiting-keep", "1", "--idle-end", "1", "--grace",
                     "0.3").start()
    try:
        yield running
    finally:
        running.stop()


def listed(server: Server) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in server.get("/api/tables").json()["tables"]}


def wait_for(test: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.2)


def test_a_waiting_table_nobody_is_at_leaves_the_lobby_and_one_with_someone_stays(tidy: Server) -> None:
    empty = tidy.create(ruleset="gin-rummy", seats=[{}, {}], hands=3, chips=None)
    kept = tidy.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], hands=4, chips=80)
    ann = tidy.client(kept["id"], kept["token"])
    summary = listed(tidy)[kept["id"]]
    # The lobby shows each table's title, seats (who waits, who is here), chips and length.
    assert summary["title"] and summary["hands"] == 4 and summary["chips"] == 80
    assert [(s["name"], s["open"], s["connected"]) for s in summary["seats"]][:2] == [("Ann", False, True),
                                                                                      ("Seat 2", True, False)]
    wait_for(lambda: empty["id"] not in listed(tidy), 10, "the empty waiting table leaves the lobby")
    assert tidy.get(f"/api/tables/{empty['id']}").json()["over"] is True
    time.sleep(1.5)
    assert kept["id"] in listed(tidy), "a table someone is at stays"
    ann.close()
    wait_for(lambda: kept["id"] not in listed(tidy), 10, "the table leaves once its person has gone")
    assert "Traceback" not in tidy.log()


def test_an_evening_with_nobody_connected_ends_instead_of_bots_playing_on(tidy: Server) -> None:
    created = tidy.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=200, seed="alone",
                          pace="fast")  # a hand takes seconds, as with people
    ann = tidy.client(created["id"], created["token"])
    assert not ann.view.get("waiting")
    ann.close()
    # The hand in play is finished by the bots first (at this pace 15-18 s on a busy machine); what shows they did
    # not play on is the hand number below, so the wait is generous.
    wait_for(lambda: tidy.get(f"/api/tables/{created['id']}").json()["over"], 60, "the evening ends")
    summary = tidy.get(f"/api/tables/{created['id']}").json()
    assert summary["hand_no"] <= 2, "the bots did not play the evening out alone"
    assert created["id"] not in listed(tidy)


# ------------------------------------------------------------------------------------------------ chat
def two_people(server: Server, **options: Any) -> tuple[str, str, str]:
    created = server.create(ruleset="gin-rummy", seats=[{}, {}], seed="chat", **options)
    bob = server.post(f"/api/tables/{created['id']}/seats", {"name": "Bob"}).json()
    return created["id"], created["token"], bob["token"]


def chat_lines(client: Client, count: int, timeout: float = 5) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    while len(got) < count:
        got.append(client.until(lambda m: m["type"] in ("chat", "error"), timeout))
    return got


def test_chat_goes_to_everyone_as_plain_text_with_the_seats_name(server: Server) -> None:
    table, ann_token, bob_token = two_people(server)
    ann, bob, watcher = server.client(table, ann_token), server.client(table, bob_token), server.client(table)
    assert ann.welcome["chat"] == [] and ann.welcome["rematch"] is None
    markup = "<b>hello</b> <script>alert(1)</script> &amp;"
    ann.send({"type": "chat", "text": f"  {markup}  "})
    for client in (ann, bob, watcher):
        line = chat_lines(client, 1)[0]
        assert line["type"] == "chat", line
        assert line["line"]["text"] == markup and line["line"]["seat"] == 0 and line["line"]["name"] == "Ann"
    bob.send({"type": "chat", "reaction": "good_hand"})
    line = chat_lines(ann, 1)[0]["line"]
    assert (line["seat"], line["name"], line["reaction"], line["text"]) == (1, "Bob", "good_hand", "Good hand")
    # The name is the seat's: a message may not carry one.
    bob.send({"type": "chat", "text": "hi", "name": "Ann"})
    assert bob.until(lambda m: m["type"] == "error", 5)["code"] == "malformed"


def test_chat_refuses_long_lines_spectators_bad_reactions_and_a_flood_in_one_line(server: Server) -> None:
    table, ann_token, bob_token = two_people(server)
    ann, bob, watcher = server.client(table, ann_token), server.client(table, bob_token), server.client(table)
    ann.send({"type": "chat", "text": "x" * 201})
    error = chat_lines(ann, 1)[0]
    assert error["type"] == "error" and error["code"] == "malformed"
    assert "at most 200 characters" in error["message"] and "\n" not in error["message"]
    ann.send({"type": "chat", "text": "x" * 5000})  # past the 4,096 any text of a message may hold: the same words
    assert chat_lines(ann, 1)[0]["message"] == "chat.text: a chat line has at most 200 characters"
    ann.send({"type": "chat", "text": "x" * 200})
    assert chat_lines(ann, 1)[0]["type"] == "chat"
    ann.send({"type": "chat", "text": "two\nlines"})
    assert chat_lines(ann, 1)[0]["code"] == "malformed"
    ann.send({"type": "chat", "reaction": "lol"})
    assert chat_lines(ann, 1)[0]["code"] == "malformed"
    ann.send({"type": "chat"})
    assert chat_lines(ann, 1)[0]["code"] == "malformed"
    ann.send({"type": "chat", "text": "hello", "reaction": "oops"})  # not the reaction alone, its words dropped
    both = chat_lines(ann, 1)[0]
    assert both["code"] == "malformed" and "not both" in both["message"]
    watcher.send({"type": "chat", "text": "may I?"})
    refused = watcher.until(lambda m: m["type"] == "error", 5)
    assert refused["code"] == "unauthorized" and "spectators" in refused["message"]
    # Five lines at once, then one every two seconds (the defaults), per seat: Bob may still write.
    for k in range(5):
        ann.send({"type": "chat", "text": f"line {k}"})
    answers = chat_lines(ann, 5)
    assert [a["type"] for a in answers].count("error") == 1, answers  # the first 200-character line counted
    assert answers[-1]["code"] == "rate_limited" and "too fast" in answers[-1]["message"]
    bob.send({"type": "chat", "text": "my turn to talk"})
    assert bob.until(lambda m: m["type"] in ("chat", "error") and m.get("line", {}).get("seat") != 0)["type"] == "chat"
    watcher.until(lambda m: m["type"] == "chat" and m["line"]["seat"] == 1)
    seen = [m["line"]["text"] for m in watcher.messages if m["type"] == "chat"]
    assert "line 3" in seen and "line 4" not in seen and "may I?" not in seen
    assert "Traceback" not in server.log()


def test_chat_is_kept_for_a_reconnect_and_across_a_restart(tmp_path: Any) -> None:
    running = Server(tmp_path).start()
    try:
        table, ann_token, bob_token = two_people(running)
        ann = running.client(table, ann_token)
        ann.send({"type": "chat", "text": "<i>first</i>"})
        ann.send({"type": "chat", "reaction": "thumbs_up"})
        chat_lines(ann, 2)
        ann.close()
        back = running.client(table, ann_token)
        assert [(c["name"], c["text"]) for c in back.welcome["chat"]] == [("Ann", "<i>first</i>"), ("Ann", "👍")]
        back.close()
        running.stop()
        running.start()
        bob = running.client(table, bob_token)
        assert [c["text"] for c in bob.welcome["chat"]] == ["<i>first</i>", "👍"]
        bob.send({"type": "chat", "text": "after the restart"})
        assert chat_lines(bob, 1)[0]["line"]["n"] == 3
    finally:
        running.stop()


# ------------------------------------------------------------------------------------------------ rematch
def test_play_again_makes_a_new_table_and_each_token_reaches_only_its_own_seat(server: Server) -> None:
    created = server.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], hands=1, seed="again",
                            pace="instant", chips=40)
    table = created["id"]
    bob_seat = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    ann, bob = server.client(table, created["token"]), server.client(table, bob_seat["token"])
    watcher = server.client(table)
    early = server.post(f"/api/tables/{table}/rematch", token=bob_seat["token"])
    assert early.status_code == 409 and "over" in early.json()["error"]["message"]
    assert server.post(f"/api/tables/{table}/rematch").status_code == 401
    play([ann, bob], random.Random(3), lambda: bool(ann.view.get("over")), timeout=120)
    made = server.post(f"/api/tables/{table}/rematch", token=created["token"])
    assert made.status_code == 201, made.text
    again = made.json()
    assert again["seat"] == 0 and again["id"] != table
    told = {name: c.until(lambda m: m["type"] == "rematch") for name, c in
            (("ann", ann), ("bob", bob), ("watcher", watcher))}
    assert told["ann"]["token"] == again["token"] and told["ann"]["by"] == "Ann"
    assert told["bob"]["seat"] == 1 and told["bob"]["token"] not in (None, again["token"])
    assert told["watcher"]["token"] is None and told["watcher"]["table"] == again["id"]
    assert again["token"] not in str(bob.messages) and told["bob"]["token"] not in str(ann.messages + watcher.messages)
    # Asking again answers the same table, with the asker's own token.
    second = server.post(f"/api/tables/{table}/rematch", token=bob_seat["token"]).json()
    assert (second["id"], second["token"]) == (again["id"], told["bob"]["token"])
    # A client that comes back is told too (its own token only).
    assert server.client(table, bob_seat["token"]).welcome["rematch"]["token"] == told["bob"]["token"]
    assert server.client(table).welcome["rematch"]["token"] is None
    # The new table: the same seats and options, each person at their own seat with one click.
    old, new = server.get(f"/api/tables/{table}").json(), server.get(f"/api/tables/{again['id']}").json()
    assert [(s["name"], s["bot"], s["person"]) for s in new["seats"]] == \
        [(s["name"], s["bot"], s["person"]) for s in old["seats"]]
    assert (new["ruleset"], new["hands"], new["chips"], new["pace"], new["over"]) == \
        (old["ruleset"], 1, 40, old["pace"], False)
    bob_again = server.client(again["id"], told["bob"]["token"])
    assert bob_again.seat == 1 and not bob_again.view.get("waiting")
    assert server.post(f"/api/tables/{again['id']}/end", token=told["bob"]["token"]).status_code == 403
    assert "Traceback" not in server.log()
