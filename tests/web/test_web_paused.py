"""A paused table in the browser (issue 38): a table whose computer players kept failing is stored paused; a real
``rummoli serve`` started on that data shows it as paused in the lobby and at the table, its creator resumes it
with the page's button, and the game goes on (the server's own bots answer)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HTTP, Server
from test_server_bot_failures import pause_a_table
from web_helpers import new_page, shoot


def summary(server: Server, table_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = HTTP.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
    return answer


def test_the_creator_sees_a_paused_table_and_resumes_it(browser: Any, tmp_path: Path, artifacts: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    made, _ = pause_a_table(tmp_path, monkeypatch)
    monkeypatch.undo()  # the real server below has working bots
    server = Server(tmp_path).start()
    try:
        stored = summary(server, made["id"])
        assert stored["status"] == "paused"
        page = new_page(browser)
        page.goto(server.url + "/")
        row = page.locator("li").filter(has_text=stored["title"]).filter(has=page.locator(".tag.paused"))
        row.first.wait_for(timeout=10_000)  # the lobby says so beside the table

        watcher = new_page(browser)  # a spectator is told, and is given no button
        watcher.goto(f"{server.url}/tables/{made['id']}")
        watcher.locator(".paused-note").wait_for(timeout=10_000)
        assert "creator can resume" in watcher.locator(".paused-note").inner_text()
        assert watcher.locator("[data-key=resume]").count() == 0

        mine = {"token": made["token"], "seat": made["seat"], "name": "Ann", "creator": True}
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummoli:seat:{made['id']}", json.dumps(mine)])
        page.goto(f"{server.url}/tables/{made['id']}")
        note = page.locator(".paused-note")
        note.wait_for(timeout=10_000)
        assert "paused" in note.inner_text() and "stopped answering" in note.inner_text()
        shoot(page, artifacts, "table-paused")
        seq = summary(server, made["id"])["seq"]
        page.locator("[data-key=resume]").click()
        note.wait_for(state="detached", timeout=10_000)  # the server told the page the table plays again
        after = summary(server, made["id"])
        assert after["status"] == "playing"
        page.wait_for_function(f"() => fetch('/api/tables/{made['id']}').then(r => r.json())"
                               f".then(t => t.seq > {seq})", timeout=15_000)  # and its bots move again
        watcher.locator(".paused-note").wait_for(state="detached", timeout=10_000)
        assert page.errors == [] and watcher.errors == []
    finally:
        server.stop()
