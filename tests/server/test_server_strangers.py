"""What a hostile client tried (issue 33, "Strangers on the server"), against a real server process: each
attempt is refused with one line and changes nothing, or gets only what its own seat may see."""

from __future__ import annotations

import json
import random
import re
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from server_helpers import HTTP, Server, choose, play_until

from rummoli.server.api.web import whole_views

SECURITY_HEADERS = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def one_line(answer: httpx.Response, status: int) -> str:
    assert answer.status_code == status, answer.text
    message: str = answer.json()["error"]["message"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# ------------------------------------------------------------------------------------ 1: names and seats
def test_a_bots_name_or_one_that_reads_alike_is_refused(server: Server) -> None:
    # The creator may not sit beside the bot "Bot 1 (easy)" under its name, in any spelling.
    for name in ("Bot 1 (easy)", "bot 1 (EASY)", "Ｂｏｔ 1 (easy)"):
        answer = server.post("/api/tables", {"name": name, "seats": [{"bot": "easy"}, {}], "creator_seat": 1})
        assert "computer players" in one_line(answer, 400)
    table = server.create(name="Ann", seats=[{}, {"bot": "easy"}, {}, {}])["id"]
    for name in ("ＡＮＮ", "ann", "  Bot   2 (easy) ", "bot 3 (hard)"):  # bot 3 would be the name of seat 2's bot
        one_line(server.post(f"/api/tables/{table}/seats", {"name": name}), 409)
    assert server.post(f"/api/tables/{table}/seats", {"name": "Annie"}).status_code == 201
    assert [s["name"] for s in server.get(f"/api/tables/{table}").json()["seats"]][:3] == [
        "Ann", "Bot 2 (easy)", "Annie"]


def test_a_replay_shows_the_token_s_own_seat(server: Server) -> None:
    """Mid-evening, the replay of hand 1 with seat 1's token is seat 1's (by number), and a spectator's holds
    no hand."""
    created = server.create(name="Cy", ruleset="michigan", seats=[{"bot": "easy"}, {}, {"bot": "easy"}],
                            creator_seat=1, hands=3, seed="strangers-replay")
    assert created["seat"] == 1
    client = server.client(created["id"], created["token"])
    play_until(client, lambda c: c.view.get("hand_no", 0) >= 2 or c.view.get("over"), random.Random(1))
    client.close()
    path = f"/api/tables/{created['id']}/hands/1/replay"
    mine = server.get(path, token=created["token"]).json()
    views = whole_views(mine["frames"])
    assert mine["seat"] == 1 and all(v["seat"] == 1 for v in views)
    history = server.get(f"/api/tables/{created['id']}/history", token=created["token"]).json()
    assert views[-1]["hand"] == history["hands"][0]["view"]["hand"]  # the cards the seat held, its own
    watcher = whole_views(server.get(path).json()["frames"])
    assert all(v["hand"] is None for v in watcher)


# ------------------------------------------------------------------------------------ 3: Host and invites
def handshake(port: int, host: str, table_id: str, whole: bool = False) -> str:
    """The status line a websocket handshake to ``/ws/tables/ID`` sent with ``Host: host`` gets (``whole``: the
    whole answer, read until the server closes the connection: a refusal's)."""
    request = (f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: http://{host}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request.encode())
        if not whole:
            return s.recv(4096).decode("latin-1").split("\r\n", 1)[0]
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
        return answer.decode("latin-1")


def test_a_foreign_host_is_refused_and_invites_name_the_servers_own_address(server: Server) -> None:
    evil = {"Host": "evil.example", "Origin": "http://evil.example"}
    answer = HTTP.post(server.url + "/api/tables", json={"name": "Ann"}, headers=evil, timeout=10)
    assert "evil.example" in one_line(answer, 400)
    table = server.create()["id"]
    assert " 400 " in handshake(server.port, "evil.example", table) + " "
    assert " 101 " in handshake(server.port, f"localhost:{server.port}", table) + " "
    # A loopback server answers its other loopback names, but its links name the address it listens on.
    answer = HTTP.post(server.url + "/api/tables", json={"name": "Ann"}, headers={"Host": f"localhost:{server.port}"},
                        timeout=10)
    assert answer.status_code == 201 and answer.json()["invite"].startswith(f"{server.url}/tables/")


def test_a_foreign_hosts_websocket_handshake_is_refused_and_logs_no_error(fresh_dir: Path) -> None:
    """The refusal is the handshake's answer (a 400 with one JSON line): uvicorn logged an ERROR line for each
    one ("ASGI callable returned without completing handshake."), which anyone could have written at will."""
    server = Server(fresh_dir).start()
    try:
        table = server.create()["id"]
        for _attempt in range(3):
            head, _, body = handshake(server.port, "evil.example", table, whole=True).partition("\r\n\r\n")
            assert head.startswith("HTTP/1.1 400 "), head
            assert body.count("\n") == 0 and "Traceback" not in body, body
            assert json.loads(body)["error"]["message"] == 'this server does not answer for the host "evil.example"'
        assert " 101 " in handshake(server.port, f"127.0.0.1:{server.port}", table) + " "
    finally:
        server.stop()  # the log is complete once the process has ended
    log = server.log()
    assert not [line for line in log.splitlines() if "ERROR" in line], log


def test_behind_a_proxy_the_public_url_is_the_address(fresh_dir: Path) -> None:
    server = Server(fresh_dir, "--public-url", "https://cards.example.org", "--origin", "https://friends.example.net")
    server.start()
    try:
        created = HTTP.post(server.url + "/api/tables", json={"name": "Ann"},
                             headers={"Host": "cards.example.org"}, timeout=10)
        assert created.status_code == 201 and created.json()["invite"].startswith("https://cards.example.org/tables/")
        summary = server.get(f"/api/tables/{created.json()['id']}").json()  # asked at the listening address
        assert summary["invite"].startswith("https://cards.example.org/tables/")
        one_line(HTTP.get(server.url + "/api/tables", headers={"Host": "evil.example"}, timeout=10), 400)
        for origin, answer in (("https://cards.example.org", "welcome"), ("https://friends.example.net", "welcome"),
                               ("https://evil.example", "error")):  # the site's own, one --origin allows, another
            browser = server.client(created.json()["id"], origin=origin)
            assert browser.welcome["type"] == answer, (origin, browser.welcome)
            browser.close()
    finally:
        server.stop()
    bad = Server(fresh_dir, "--public-url", "cards.example.org/x")
    try:
        bad.start()
        raise AssertionError("a server started with a --public-url that is no address")
    except RuntimeError:
        assert "--public-url" in bad.log() and "Traceback" not in bad.log()


# ------------------------------------------------------------------------------------ 7: strict messages
def test_a_seq_sent_as_text_is_refused_and_changes_nothing(server: Server) -> None:
    created = server.create(name="Ann", ruleset="rummy", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            seed="strangers-strict")
    client = server.client(created["id"], created["token"])
    play_until(client, lambda c: c.my_turn(), random.Random(2))
    before = client.seq
    action = choose(client.view, random.Random(3))
    for message in ({"type": "act", "seq": str(before), "action": action}, {"type": "act", "seq": float(before),
                     "action": action}, {"type": "next", "seq": True}, {"type": "act", "seq": before, "action": []}):
        client.send(message)
        error = client.until(lambda m: m["type"] in ("error", "update"), 10)
        assert error["type"] == "error" and error["code"] == "malformed", error
        assert "\n" not in error["message"] and ("seq" in error["message"] or "action" in error["message"])
    client.drain(0.3)
    assert client.seq == before and server.get(f"/api/tables/{created['id']}").json()["seq"] == before
    client.send(json.dumps({"type": "act", "seq": before, "action": action}))  # the same, as the schema says
    assert client.until(lambda m: m["type"] in ("error", "update"))["type"] == "update"
    client.close()


def test_a_refusal_quotes_what_was_sent_as_json_spells_it(server: Server) -> None:
    """A web client sent JSON, so its error line quotes what it sent as JSON spells it: ``true``, ``null``,
    ``{"x": 1}``, never Python's ``True``, ``None`` or ``{'x': 1}``; and in our words, not pydantic's. A key or a
    value holding a newline, a terminal's escape or a right-to-left override is quoted with JSON escapes: the line
    stays one line of printable text. Nothing changes."""
    created = server.create(name="Ann", ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            seed="strangers-json")
    client = server.client(created["id"], created["token"])
    play_until(client, lambda c: c.my_turn(), random.Random(2))
    seq = client.seq
    sent: list[tuple[dict[str, Any], str]] = [
        ({"type": "act", "seq": True, "action": {"action": "pass"}}, "act.seq: must be a whole number, got true"),
        ({"type": "act", "seq": None, "action": {"action": "pass"}}, "act.seq: must be a whole number, got null"),
        ({"type": "act", "seq": "7", "action": {"action": "pass"}}, 'act.seq: must be a whole number, got "7"'),
        ({"type": "act", "seq": seq, "action": ["pass"]}, 'act.action: must be a JSON object, got ["pass"]'),
        ({"type": "act", "seq": seq, "action": {"action": {"x": 1}}}, 'R-NOTE-3: unknown stops action {"x": 1} ('),
        ({"type": "act", "seq": seq, "action": {"action": None}}, "R-NOTE-3: unknown stops action null ("),
        ({"type": "act", "seq": seq, "action": {"action": "pass", "seat": True}},
         "an action is for your own seat (0 in this hand), not true"),
        ({"type": "act", "seq": seq, "action": {"action": "play", "card": "Z\n\u202e\x1b[2J"}},
         'R-NOTE-1: "play": "Z\\n\\u202e\\u001b[2J" is not a card'),
        ({"type": "act", "seq": seq, "action": {"action": "pass"}, "x\ny": 1}, 'act."x\\ny": no such field'),
        ({"type": "dance\u202e"}, 'unknown message type "dance\\u202e" (hello, act, next, ping, chat)'),
        ({"type": "chat", "reaction": "wow"},
         'chat.reaction: must be one of "thumbs_up", "good_hand", "well_played", "oops", got "wow"'),
    ]
    for message, words in sent:
        client.send(message)
        error = client.until(lambda m: m["type"] in ("error", "update"), 10)
        assert error["type"] == "error" and error["code"] == "malformed", (message, error)
        assert error["message"].startswith(words), (message, error["message"])
        assert error["message"].isprintable(), error["message"]
        assert not re.search(r"\bTrue\b|\bNone\b|'|Input should", error["message"]), error["message"]
    # A seq of 4300 digits (the most JSON is read with) is stale, and quoted by its length, not in 4300 characters.
    client.send('{"type": "act", "seq": %s, "action": {"action": "pass"}}' % ("9" * 4300))
    stale = client.until(lambda m: m["type"] == "error", 10)
    assert stale["code"] == "stale" and stale["message"] == (
        f"stale action: sent for seq a whole number of 4300 digits, the table is at seq {seq}"), stale
    client.send('{"type": "act", "seq": %s, "action": {"action": "pass"}}' % ("9" * 4400))
    longer = client.until(lambda m: m["type"] == "error", 10)
    assert longer["message"] == "a message is one JSON object: a number in it has too many digits", longer
    client.drain(0.3)
    assert client.seq == seq and server.get(f"/api/tables/{created['id']}").json()["seq"] == seq
    client.close()


# ------------------------------------------------------------------------------------ 8: start once
def test_five_starts_at_once_deal_once(server: Server) -> None:
    for _attempt in range(3):
        created = server.create(seats=[{}, {}, {}, {}])
        path, token = f"/api/tables/{created['id']}/start", created["token"]
        with ThreadPoolExecutor(5) as pool:
            answers = list(pool.map(lambda _k, p=path, t=token: server.post(p, token=t), range(5)))
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409, 409], [a.text for a in answers]
        for answer in answers:
            if answer.status_code == 409:
                assert "already started" in one_line(answer, 409)
        assert server.get(f"/api/tables/{created['id']}").json()["hand_no"] == 1


# ------------------------------------------------------------------------------------ 9: headers
def test_every_answer_has_the_security_headers(server: Server) -> None:
    answers = [server.get("/"), server.get("/app.js"), server.get("/api/tables"), server.get("/nowhere"),
               server.get("/docs"), HTTP.post(server.url + "/api/replay", content=b"x" * 40_000, timeout=10),
               HTTP.get(server.url + "/", headers={"Host": "evil.example"}, timeout=10)]
    for answer in answers:
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers.get(name) == value, (answer.url, name, answer.headers)
        policy = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    page = server.get("/").headers["content-security-policy"]
    # The page's own scripts, and its one inline script (the import map) by its hash (tests/web/test_web_api.py).
    assert "unsafe-inline" not in page and re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}';", page)


# ------------------------------------------------------------------------------------ 10: uploaded replays
def test_an_uploaded_replay_is_capped_and_its_answer_proportionate(server: Server) -> None:
    one_line(HTTP.post(server.url + "/api/replay", content=b" " * 40_000, timeout=10,
                        headers={"Content-Type": "application/json"}), 413)
    created = server.create(name="Ann", ruleset="rummy", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            seed="strangers-upload")
    client = server.client(created["id"], created["token"])
    play_until(client, lambda c: bool(c.view.get("over")), random.Random(4), timeout=120)
    client.close()
    record = server.get(f"/api/tables/{created['id']}/record", token=created["token"]).json()["hands"][0]
    body = json.dumps(record).encode()
    answer = HTTP.post(server.url + "/api/replay?seat=0", content=body, timeout=30,
                        headers={"Content-Type": "application/json"})
    assert answer.status_code == 200
    assert len(answer.content) < 12 * len(body), (len(answer.content), len(body))
    views = whole_views(answer.json()["frames"])
    assert views[-1]["phase"] == "over" and all("state" not in e for f in answer.json()["frames"] for e in f["events"])
