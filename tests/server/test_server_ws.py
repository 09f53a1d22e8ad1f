"""Live play over the websocket against a real server: every message type, every refusal, whole evenings."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from server_helpers import Client, Server, choose, play
from websockets.exceptions import ConnectionClosed

from rummoli.server.api.protocol import ServerMessage

SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def check_schema(client: Client) -> None:
    """Every message the client received is one the protocol describes."""
    for message in client.messages:
        SERVER_MESSAGE.validate_python(message)


def wait_turn(client: Client, timeout: float = 20) -> None:
    if not client.my_turn():
        client.until(lambda m: client.my_turn(), timeout)


def test_hello_with_a_token_gets_the_seat_and_its_whole_view(server: Server) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}])
    ann = server.client(created["id"], created["token"])
    welcome = ann.welcome
    assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["protocol"] == 1
    assert welcome["view"]["you"] == 0 and welcome["view"]["hand"]["seat"] is not None
    assert welcome["seq"] == welcome["view"]["seq"] > 0
    assert [s["connected"] for s in welcome["seats"]][:1] in ([False], [True])
    ann.until(lambda m: m["type"] == "seats" and m["seats"][0]["connected"])
    ann.send({"type": "ping"})
    ann.until(lambda m: m["type"] == "pong")
    check_schema(ann)
    ann.close()


def test_a_spectator_needs_no_token_and_cannot_act(server: Server) -> None:
    created = server.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}])
    watcher = server.client(created["id"], None)
    assert watcher.welcome["seat"] is None and watcher.welcome["view"]["you"] is None
    watcher.act({"action": "pass"})
    error = watcher.until(lambda m: m["type"] == "error")
    assert error["code"] == "unauthorized"
    check_schema(watcher)
    watcher.close()


@pytest.mark.parametrize(("hello", "code"), [
    ({"type": "hello", "token": "wrong"}, "unauthorized"),
    ({"type": "hello", "protocol": 99}, "protocol"),
    ({"type": "act", "seq": 0, "action": {}}, "protocol"),
    ({"type": "hello", "extra": 1}, "malformed"),
    ("not json at all", "malformed"),
])
def test_a_bad_hello_gets_one_error_and_the_socket_closes(server: Server, hello: Any, code: str) -> None:
    created = server.create(seats=[{}, {"bot": "easy"}])
    from websockets.sync.client import connect

    with connect(server.ws_url(created["id"])) as ws:
        ws.send(hello if isinstance(hello, str) else json.dumps(hello))
        error = json.loads(ws.recv(5))
        assert error["type"] == "error" and error["code"] == code and "Traceback" not in error["message"]
        with pytest.raises(ConnectionClosed):
            ws.recv(5)


def test_a_hello_to_a_table_that_does_not_exist_is_told_so_as_http_tells_it(server: Server) -> None:
    from websockets.sync.client import connect

    with connect(server.ws_url("nosuchtable0")) as ws:
        ws.send(json.dumps({"type": "hello"}))
        error = json.loads(ws.recv(5))
        assert (error["type"], error["code"], error["message"]) == ("error", "not_found", "no such table")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004


def test_a_foreign_origin_is_refused_and_the_own_origin_allowed(server: Server) -> None:
    created = server.create(seats=[{}, {"bot": "easy"}])
    from websockets.sync.client import connect

    with connect(server.ws_url(created["id"]), additional_headers={"Origin": "https://evil.example"}) as ws:
        assert json.loads(ws.recv(5))["code"] == "unauthorized"
        with pytest.raises(ConnectionClosed):
            ws.recv(5)
    own = server.client(created["id"], created["token"], origin=server.url)
    assert own.welcome["seat"] == 0
    own.close()


def test_malformed_oversized_and_binary_messages_change_nothing(server: Server) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}])
    ann = server.client(created["id"], created["token"])
    while not ann.my_turn():  # the bots stop only at Ann's turn (a quiet spell is no proof on a busy machine)
        ann.recv(20)
    seq = ann.seq
    for bad, code in [("{", "malformed"), ('{"type": "act"}', "malformed"), ('{"type": "dance"}', "malformed"),
                      ('{"type": "act", "seq": "x", "action": {}}', "malformed"), (b"\x00\x01", "malformed"),
                      (json.dumps({"type": "act", "seq": seq, "action": {"pad": "x" * 9000}}), "too_large"),
                      ('{"type": "hello"}', "protocol")]:
        ann.send(bad)
        error = ann.until(lambda m: m["type"] == "error")
        assert error["code"] == code, (bad[:40], error)
        assert "\n" not in error["message"] and "Traceback" not in error["message"]
    ann.drain()
    assert ann.seq == seq  # nothing changed
    check_schema(ann)
    ann.close()


TOO_LARGE = "a message holds at most 8192 bytes"  # the server's max_message, 8 KiB by default


def test_a_large_frame_gets_our_line_and_the_connection_goes_on(server: Server) -> None:
    """A message of 100 KiB, over ``max_message`` and within the largest frame read (1 MiB), gets one ``too_large``
    line naming the limit, changes nothing and ends nothing: the client is answered after it, and so is everyone
    else (under the old frame limit, 64 KiB, it was closed with 1009 and websockets' words). 1 MiB exactly too."""
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}])
    ann = server.client(created["id"], created["token"])
    watcher = server.client(created["id"])
    while not ann.my_turn():
        ann.recv(20)
    seq = ann.seq
    for size in (100 * 1024, (1 << 20) - 100):
        ann.send(json.dumps({"type": "act", "seq": seq, "action": {"action": "pass", "pad": "x" * size}}))
        error = ann.until(lambda m: m["type"] == "error")
        assert (error["code"], error["message"]) == ("too_large", TOO_LARGE), error
        ann.send({"type": "ping"})
        ann.until(lambda m: m["type"] == "pong", 10)
    watcher.send({"type": "ping"})
    watcher.until(lambda m: m["type"] == "pong", 10)
    ann.drain()
    assert ann.seq == seq and server.get(f"/api/tables/{created['id']}").json()["seq"] == seq
    ann.act(choose(ann.view, random.Random(1)))
    ann.until(lambda m: m["type"] == "update" and m["seq"] > seq)  # and the game goes on
    check_schema(ann)
    ann.close()
    watcher.close()


def test_a_frame_over_the_largest_read_is_closed_with_our_sentence(server: Server) -> None:
    """A frame over 1 MiB is never read: the server closes the connection with 1009 as soon as the frame's header
    gives its length, and the reason is our sentence, not websockets' ("frame with 2097152 bytes exceeds limit of
    ..."). Only the header is sent here, so that the close is read before any reset of the connection. The
    server goes on serving everyone else. A first message that large (a hello) gets the same close."""
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}])
    header = bytes([0x81, 0x80 | 127]) + (2 << 20).to_bytes(8, "big") + b"mask"  # a masked text frame of 2 MiB
    ann = server.client(created["id"], created["token"])
    watcher = server.client(created["id"])
    from websockets.sync.client import connect

    with connect(server.ws_url(created["id"])) as stranger:
        for ws in (ann.ws, stranger):
            ws.socket.sendall(header)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(10)
            assert closed.value.rcvd is not None, closed.value
            assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1009, TOO_LARGE)
    watcher.send({"type": "ping"})
    watcher.until(lambda m: m["type"] == "pong", 10)
    again = server.client(created["id"], created["token"])
    assert again.welcome["seat"] == 0
    assert server.get("/healthz").status_code == 200 and "Traceback" not in server.log()
    again.close()
    watcher.close()


def test_too_many_messages_are_refused_then_the_socket_closed(server: Server) -> None:
    created = server.create(seats=[{}, {"bot": "easy"}])
    ann = server.client(created["id"], created["token"])
    for _ in range(200):
        try:
            ann.send({"type": "ping"})
        except ConnectionClosed:
            break
    codes = []
    with pytest.raises(ConnectionClosed):
        while True:
            codes.append(ann.recv(5).get("code"))
    assert "rate_limited" in codes and codes.count(None) <= 40


def test_stale_out_of_turn_and_illegal_actions_name_the_problem_and_change_nothing(server: Server) -> None:
    created = server.create(ruleset="rummy", seats=[{}, {}], seed="ws-errors")
    bob_seat = server.post(f"/api/tables/{created['id']}/seats", {"name": "Bob"}).json()
    ann = server.client(created["id"], created["token"])
    bob = server.client(created["id"], bob_seat["token"])
    ann.drain()
    bob.drain()
    mover, waiter = (ann, bob) if ann.my_turn() else (bob, ann)
    assert mover.my_turn() and not waiter.my_turn()
    seq = mover.seq
    legal = mover.view["hand"]["legal_actions"]
    # Stale: the seq of an older view.
    mover.act(legal[0], seq=seq - 1)
    stale = mover.until(lambda m: m["type"] == "error")
    assert stale["code"] == "stale" and stale["seq"] == seq
    # Out of turn: the other seat tries the same kind of move.
    waiter.act({k: v for k, v in legal[0].items() if k != "seat"})
    out = waiter.until(lambda m: m["type"] == "error")
    assert out["code"] == "not_your_turn" and out["rule"] == "R-TURN", out
    # whom the table waits for, not the rules of the move it was not theirs to make
    mover_name = mover.view["seats"][mover.view["hand"]["seat"]]["name"]
    assert out["message"] == f"it is not your turn: the table is waiting for {mover_name}", out
    # Illegal: a discard before drawing names its rule.
    card = mover.view["hand"]["hand"][0]
    mover.act({"action": "discard", "card": card})
    illegal = mover.until(lambda m: m["type"] == "error")
    assert illegal["code"] == "illegal" and illegal["rule"].startswith("R-"), illegal
    # Another seat's action: refused as malformed (the seat is the sender's own).
    mover.act({**legal[0], "seat": 1 - mover.view["hand"]["seat"]})
    other = mover.until(lambda m: m["type"] == "error")
    assert other["code"] == "malformed"
    # A badly shaped action names the rule that gives the shape, as its message does (it said null)
    mover.act({"action": "draw", "from": "stock", "x": 1})
    shaped = mover.until(lambda m: m["type"] == "error")
    assert shaped["code"] == "malformed" and shaped["rule"] == "R-NOTE-3" and "R-NOTE-3" in shaped["message"], shaped
    for client in (ann, bob):
        client.drain()
        assert client.seq == seq
    # A good action is applied once and both seats are told.
    mover.act(legal[0])
    mover.until(lambda m: m["type"] == "update")
    waiter.until(lambda m: m["type"] == "update")
    assert mover.seq == waiter.seq > seq
    check_schema(ann)
    check_schema(bob)
    ann.close()
    bob.close()


def test_two_people_play_an_evening_through_the_invite_and_get_its_record(server: Server) -> None:
    created = server.create(ruleset="michigan", seats=[{}, {}, {"bot": "random"}], hands=2, chips=40,
                            seed="invite")
    table = created["id"]
    joined = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    ann = server.client(table, created["token"])
    bob = server.client(table, joined["token"])
    watcher = server.client(table)
    rng = random.Random(3)
    play([ann, bob], rng, until=lambda: ann.view.get("over") and bob.view.get("over"), timeout=90)
    watcher.drain()
    for client in (ann, bob, watcher):
        assert [e["seq"] for e in client.events] == list(range(client.events[0]["seq"], client.seq + 1))
        assert client.events[-1]["type"] == "evening_over"
        check_schema(client)
    summary = server.get(f"/api/tables/{table}").json()
    assert summary["over"] and summary["hand_no"] == 2
    history = server.get(f"/api/tables/{table}/history", token=joined["token"]).json()
    assert history["format"] == "rummoli-seat-history/3" and history["seat"] == 1 and history["name"] == "Bob"
    assert [h["hand_no"] for h in history["hands"]] == [1, 2]
    record = server.get(f"/api/tables/{table}/record", token=created["token"])
    assert record.status_code == 200 and record.json()["format"] == "rummoli-evening/1"
    assert len(record.json()["hands"]) == 2
    # Its start (R-NOTE-5): the chips the table began with, and the cut for the first dealer, which the replay checks.
    assert record.json()["chips"] == [40, 40, 40] and record.json()["dealer_by"] == "cut" and record.json()["cut"]
    path = server.data / "evening.json"
    path.write_text(record.text)
    replayed = subprocess.run([sys.executable, "-m", "rummoli.cli", "replay", str(path)], capture_output=True,
                              text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stderr  # `rummoli replay` checks the whole evening
    for client in (ann, bob, watcher):
        client.close()


def test_the_creator_ends_the_evening_after_the_hand_in_play(server: Server) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "random"}, {"bot": "random"}], chips=30)
    ann = server.client(created["id"], created["token"])
    answer = server.post(f"/api/tables/{created['id']}/end", token=created["token"])
    # Usually hand 1; the bots may already have finished a hand whose every decision of Ann's was forced.
    in_play = answer.json()["hand_no"]
    assert answer.status_code == 200 and in_play >= 1
    play([ann], random.Random(5), until=lambda: bool(ann.view.get("over")), timeout=60)
    assert ann.view["hand_no"] == in_play and ann.events[-1]["type"] == "evening_over"
    ann.act({"action": "pass"})
    assert ann.until(lambda m: m["type"] == "error")["code"] == "over"
    ann.close()


def test_bots_play_at_the_configured_pace_and_take_a_seat_that_was_left(tmp_path: Any) -> None:
    slow = Server(tmp_path, "--bot-pace", "0.3").start()
    try:
        created = slow.create(ruleset="rummy", seats=[{}, {"bot": "random"}, {"bot": "random"}])
        watcher = slow.client(created["id"])
        assert slow.post(f"/api/tables/{created['id']}/leave", token=created["token"]).status_code == 200
        watcher.until(lambda m: m["type"] == "update" and any(e["type"] == "seat" for e in m["events"]))
        assert watcher.view["seats"][0]["bot"] == "easy"
        stamps = []
        for _ in range(4):
            watcher.until(lambda m: m["type"] == "update", timeout=10)
            stamps.append(time.monotonic())
        gaps = [b - a for a, b in itertools.pairwise(stamps)]
        assert min(gaps) >= 0.2, gaps
        watcher.close()
    finally:
        slow.stop()


def test_choose_and_play_helpers_only_send_listed_actions() -> None:
    view = {"hand": {"legal_actions": [{"seat": 0, "action": "bet", "min": 1, "max": 3}]}}
    action = choose(view, random.Random(1))
    assert action["action"] == "bet" and 1 <= action["amount"] <= 3 and "min" not in action


def test_one_address_holds_at_most_its_share_of_websockets(tmp_path: Path) -> None:
    server = Server(tmp_path, RUMMOLI_MAX_CONNECTIONS_PER_IP="3").start()
    try:
        created = server.create(seats=[{}, {"bot": "easy"}])
        table = created["id"]
        clients = [server.client(table, created["token"]), server.client(table), server.client(table)]
        from websockets.sync.client import connect

        with connect(server.ws_url(table)) as ws:  # the fourth, before any hello: one clear line, then closed
            refused = json.loads(ws.recv(5))
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
            assert refused["message"] == "too many connections from your address: at most 3 at once"
            with pytest.raises(ConnectionClosed):
                ws.recv(5)
        clients.pop().close()  # one leaves: its place is free again
        deadline = time.monotonic() + 10
        again = server.client(table)
        while again.welcome["type"] != "welcome":  # the server had not yet seen the close: refused once more
            assert time.monotonic() < deadline
            with contextlib.suppress(ConnectionClosed):  # the server may be closing it at the same moment
                again.close()
            time.sleep(0.1)
            again = server.client(table)
        for client in [*clients, again]:
            client.close()
        assert "Traceback" not in server.log()
    finally:
        server.stop()
