"""A table whose bots keep failing is paused, and stays paused after a restart (issue 38): each failed decision
plays the safe default (the log says so); three in a row store the table as paused, and a server started again
on the same data asks its bots nothing more."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummoli.bots.worker import NoAnswer
from rummoli.server.api.app import create_app
from rummoli.server.settings import Settings
from rummoli.server.tables.registry import Registry
from rummoli.server.tables.schedule import BOT_FAILURES

ADDRESS = "http://127.0.0.1:8000"  # the address the settings would listen on (the Host guard checks it)
SEATS = [{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]


def settings_in(data: Path) -> Settings:
    return Settings(data_dir=data, bot_workers=-1, bot_pace=0, play_pace=0, hand_pause=0, gc_freeze=0)


def status_of(data: Path, table_id: str) -> str:
    with sqlite3.connect(data / "rummoli.sqlite3") as db:
        return str(db.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()[0])


def wait_for(ws: Any, test: Any, seconds: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("welcome", "update") and test(message):
            return message
    raise AssertionError("no such message in time")


def play_along(ws: Any, made: dict[str, Any], done: Any, seconds: float = 30,
               first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Read the table's messages (``first``: one read already), playing the person's first legal action whenever it
    is their turn, until one passes ``done``. The person must keep playing: which seat is to act when the table
    pauses or resumes depends on the deal, and a table waiting for its person would never ask a bot (and send
    nothing more to wait for)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message: dict[str, Any] = first or ws.receive_json()
        first = None
        if done(message):
            return message
        view = message.get("view") or {}
        legal = (view.get("hand") or {}).get("legal_actions") or []
        if legal and made["seat"] in view.get("to_act", []):
            action = dict(legal[0])
            if "min" in action:
                action["amount"] = action.pop("min")
                action.pop("max")
            ws.send_json({"type": "act", "seq": message["seq"], "action": action})
    raise AssertionError("no such message in time")


def seats_status(status: str) -> Any:
    """A test for the ``seats`` message (who sits where, and the table's status) that says ``status``."""
    return lambda message: message["type"] == "seats" and message.get("status") == status


def pause_a_table(data: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], list[int]]:
    """A Michigan table (a person and three easy bots) on a server in this process whose every bot decision gets
    no answer, played by its person until it is stored paused: the table as created, and the seats asked."""
    calls: list[int] = []

    async def no_answer(self: Registry, bot: Any, view: dict[str, Any]) -> Any:
        calls.append(view["seat"])
        raise NoAnswer("no answer within 10.4 s")

    monkeypatch.setattr(Registry, "decide", no_answer)
    with TestClient(create_app(settings_in(data)), base_url=ADDRESS) as client:
        made: dict[str, Any] = client.post("/api/tables", json={"ruleset": "michigan", "name": "Ann", "seats": SEATS,
                                                                "seed": None}).json()
        with client.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            play_along(ws, made, seats_status("paused"))
            assert status_of(data, made["id"]) == "paused"
    return made, calls


def test_a_table_whose_bots_keep_failing_is_paused_and_stays_paused_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    made, calls = pause_a_table(tmp_path, monkeypatch)
    assert len(calls) == BOT_FAILURES
    assert "plays the safe default" in caplog.text and "is paused" in caplog.text
    calls.clear()  # a server started again on the data asks the paused table's bots nothing
    with TestClient(create_app(settings_in(tmp_path)), base_url=ADDRESS) as client, \
            client.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": made["token"]})
        welcome = wait_for(ws, lambda m: m["type"] == "welcome")
        time.sleep(1.0)  # forced plays may still be made; then the table waits for a bot that is not asked
        summary = client.get(f"/api/tables/{made['id']}").json()
        time.sleep(0.5)
        assert client.get(f"/api/tables/{made['id']}").json()["seq"] == summary["seq"]
        assert summary["status"] == "paused"
        assert [t["status"] for t in client.get("/api/tables").json()["tables"] if t["id"] == made["id"]] == ["paused"]
        assert calls == []
        assert status_of(tmp_path, made["id"]) == "paused"
        # Only the creator may resume it; then its bots are asked again (and, failing again, pause it again).
        url = f"/api/tables/{made['id']}/resume"
        assert client.post(url).status_code == 401
        resumed = client.post(url, headers={"Authorization": f"Bearer {made['token']}"})
        assert resumed.status_code == 200 and resumed.json()["status"] == "playing"
        play_along(ws, made, seats_status("playing"), first=welcome)  # every client is told, in order
        play_along(ws, made, seats_status("paused"))
        assert len(calls) == BOT_FAILURES, "the resumed table's bots were not asked again"
        other = client.post("/api/tables", json={"ruleset": "gin-rummy", "name": "Bea", "seats": [{}, {}]}).json()
        refused = client.post(f"/api/tables/{other['id']}/resume",
                              headers={"Authorization": f"Bearer {other['token']}"})
        assert refused.status_code == 409 and "not paused" in refused.json()["error"]["message"]
    assert status_of(tmp_path, made["id"]) == "paused"
