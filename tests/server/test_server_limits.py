"""Per-address limits on the endpoints that write or cost CPU (issue 33, item 4): one client cannot create
tables or ask for histories and replays without end. Refusals are one line, 429, with Retry-After; another
address keeps its own allowance; X-Forwarded-For counts only from a proxy named with --trusted-proxy."""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server

PLAYING = [{}, {"bot": "easy"}, {"bot": "random"}]  # only the creator is a person: in play at once
WAITING = [{}, {}, {"bot": "easy"}]

DEFAULTS = ("--table-rate", "0.2", "--request-rate", "5")  # the server's defaults (the helper's are generous)


@functools.cache
def leaving_from(source: str) -> httpx.Client:
    """A client whose connections leave from the address ``source``, one each (no keep-alive), kept for the
    module: a client costs a TLS context to build (tests/server/server_helpers.py says more)."""
    no_keep_alive = httpx.Limits(max_keepalive_connections=0)
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source, limits=no_keep_alive), timeout=10)


def post(server: Server, path: str, body: Any, source: str = "127.0.0.1", **headers: str) -> httpx.Response:
    return leaving_from(source).post(server.url + path, json=body, headers=headers)


def refused(answer: httpx.Response, timed: bool = True) -> str:
    """The refusal's message; ``timed``: it says when to try again (a rate, not a count of tables)."""
    assert answer.status_code == 429, answer.text
    assert not timed or int(answer.headers["retry-after"]) >= 1
    assert answer.text.count("\n") == 0 and "Traceback" not in answer.text
    message: str = answer.json()["error"]["message"]
    assert answer.json()["error"]["code"] == "rate_limited"
    return message


def create_until_refused(server: Server, seats: list[dict[str, str]], most: int = 40, **given: Any) -> int:
    """Tables created before the first refusal (which is checked)."""
    for made in range(most):
        answer = post(server, "/api/tables", {"ruleset": "rummoli", "seats": seats, "name": "Ann"}, **given)
        if answer.status_code != 201:
            assert "too many new tables" in refused(answer)
            return made
    raise AssertionError(f"{most} tables created from one address without a refusal")


def test_one_address_has_a_bounded_allowance(tmp_path: Path) -> None:
    server = Server(tmp_path, *DEFAULTS, "--max-waiting", "3").start()
    try:
        waiting = [post(server, "/api/tables", {"ruleset": "rummoli", "seats": WAITING, "name": "Ann"}).json()
                   for _ in range(3)]
        assert all("id" in w for w in waiting)
        message = refused(post(server, "/api/tables", {"ruleset": "rummoli", "seats": WAITING, "name": "Ann"}),
                          timed=False)
        assert "3 tables waiting for players: at most 3" in message
        # A table that starts no longer waits: its creator may open another.
        started = server.post(f"/api/tables/{waiting[0]['id']}/start", token=waiting[0]["token"])
        assert started.status_code == 200, started.text
        # 3 of the burst of 10 are spent (a refused creation spends none): 7 more, give or take the refill.
        assert 7 <= create_until_refused(server, PLAYING) <= 8
        # A header claiming another address does not make one (no trusted proxy here): asked at once, before
        # the allowance refills.
        assert post(server, "/api/tables", {"ruleset": "rummoli", "seats": PLAYING, "name": "Ann"},
                    **{"X-Forwarded-For": "9.9.9.9"}).status_code == 429
        # Another address has its own allowance.
        assert create_until_refused(server, PLAYING, source="127.0.0.2") >= 10
        # Histories, records, seats and replays share a second allowance (30 at once, 5 a second).
        table, token = waiting[1]["id"], waiting[1]["token"]
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as client:
            codes, began = [], time.monotonic()
            while 429 not in codes[-5:] and len(codes) < 300:  # past the first refusal, a few more
                codes.append(client.get(f"/api/tables/{table}/history").status_code)
            spent = time.monotonic() - began
        # Of the 30, the start above spent one and the three refused creations one each (a refusal spends a
        # request, not a table); they come back at 5 a second, also while these are asked (a loaded machine
        # answers them slowly): how many went through depends on the time, within these bounds.
        assert 429 in codes and codes.index(429) >= 26 and codes.count(200) <= 31 + 5 * spent, (spent, codes)
        replays = [server.post("/api/replay?seat=0", {"format": "x"}) for _ in range(20)]
        assert "too many requests" in refused(next(a for a in replays if a.status_code != 400))
        assert server.get("/healthz").status_code == 200  # never limited
        assert server.get(f"/api/tables/{table}").status_code == 200
        assert "Traceback" not in server.log()
    finally:
        server.stop()


def test_a_trusted_proxy_names_the_client(tmp_path: Path) -> None:
    server = Server(tmp_path, *DEFAULTS, "--trusted-proxy", "127.0.0.1").start()
    try:
        first = create_until_refused(server, PLAYING, **{"X-Forwarded-For": "203.0.113.7"})
        assert 10 <= first <= 11
        # Another client behind the same proxy, and the nearest untrusted hop counts (not what a client wrote).
        assert create_until_refused(server, PLAYING, **{"X-Forwarded-For": "203.0.113.7, 198.51.100.2"}) >= 10
    finally:
        server.stop()


def test_only_a_table_made_spends_the_allowance(tmp_path: Path) -> None:
    """A creation refused for what it asks (an unknown ruleset, a malformed body, the address's waiting tables)
    makes nothing and spends none of the address's tables: ten of them, then a valid one is made (it used to be
    429). The allowance still counts the tables made."""
    server = Server(tmp_path, *DEFAULTS, "--max-waiting", "1").start()
    try:
        for _ in range(10):
            answer = post(server, "/api/tables", {"ruleset": "nope", "seats": [{}, {}], "name": "Ann"})
            assert answer.status_code == 400 and "Traceback" not in answer.text, answer.text
        for bad in ({"ruleset": "rummoli", "seats": [{}], "name": "Ann"}, {"ruleset": "rummoli", "hands": True}):
            assert post(server, "/api/tables", bad).status_code == 422
        made = post(server, "/api/tables", {"ruleset": "gin-rummy", "seats": [{}, {}], "name": "Ann"})
        assert made.status_code == 201, made.text
        # A second waiting table is over --max-waiting: refused (429), and that refusal spends nothing either.
        for _ in range(3):
            assert "1 tables waiting" in refused(post(server, "/api/tables", {"seats": WAITING, "name": "Ann"}),
                                                 timed=False)
        started = server.post(f"/api/tables/{made.json()['id']}/start", token=made.json()["token"])
        assert started.status_code == 200, started.text
        # One of the burst of 10 is spent: 9 more, give or take the refill; then the next is refused.
        assert 9 <= create_until_refused(server, PLAYING) <= 10
        assert "Traceback" not in server.log()
    finally:
        server.stop()


def test_a_flood_of_refused_creations_is_still_bounded(tmp_path: Path) -> None:
    """A refused creation spends none of the tables' allowance but one of the other requests' (each is read, an
    inline ruleset too): an address that sends bad creations without end is answered 429 once those are spent."""
    server = Server(tmp_path, *DEFAULTS).start()
    try:
        codes = [post(server, "/api/tables", {"ruleset": "nope", "seats": [{}, {}], "name": "Ann"}).status_code
                 for _ in range(60)]
        assert codes[0] == 400 and 429 in codes, codes
        assert codes.count(400) < 45, codes  # the burst of 30 and what refills while they are sent
        assert "Traceback" not in server.log()
    finally:
        server.stop()
