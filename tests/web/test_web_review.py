"""The coach in the browser (issue 37): a finished hand's replay offers "Review" to a seat of the table and
for an uploaded record; the panel lists each of that seat's decisions with its choices, their values and
intervals, the one taken and the coach's, and marks the mistakes, as the server's review says."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from web_helpers import PHONE, new_page, shoot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import play_until

from rummoli.games import family


def finished_hand(server: Any) -> dict[str, Any]:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            pace="instant", seed="web-review-1")
    ann = server.client(created["id"], created["token"])
    play_until(ann, lambda c: bool(c.view.get("over")), random.Random(5))
    ann.close()
    return created


def read_panel(page: Any) -> tuple[str, int, int]:
    page.wait_for_selector(".review-panel[data-state=done], .review-panel[data-state=error]", timeout=90_000)
    assert page.get_attribute(".review-panel", "data-state") == "done", page.inner_text(".review-panel")
    return (page.inner_text("[data-review=summary]"), page.locator(".review-decision").count(),
            page.locator(".review-decision.mistake").count())


def test_review_button_on_a_finished_hand_and_an_uploaded_record(browser: Any, server: Any,
                                                                 artifacts: Path) -> None:
    created = finished_hand(server)
    table, token = created["id"], created["token"]
    expected = server.get(f"/api/tables/{table}/hands/1/review", token=token)
    assert expected.status_code == 200, expected.text
    decisions = len(expected.json()["decisions"])

    page = new_page(browser)
    page.goto(server.url + "/rules")
    seat = json.dumps({"token": token, "seat": 0, "name": "Ann", "creator": True})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummoli:seat:{table}", seat])
    page.goto(f"{server.url}/tables/{table}/hands/1")
    page.click("button.review-toggle")
    summary, shown, mistakes = read_panel(page)
    assert shown == decisions and "Ann" in summary
    assert ("mistake" in summary) == bool(mistakes) or "no mistake" in summary
    if shown:
        first = page.locator(".review-decision").first
        assert first.locator("tr.taken").count() == 1 and first.locator("tr.coach").count() == 1
        assert first.locator(".review-words").inner_text().strip()
    assert page.locator(".review-panel").is_visible()
    shoot(page, artifacts, "review")
    page.click("button.review-toggle")  # hides it again, without asking once more
    assert page.locator(".review-panel").is_hidden()
    assert page.errors == []

    # A spectator of the table has no seat to review: no button.
    spectator = new_page(browser)
    spectator.goto(f"{server.url}/tables/{table}/hands/1")
    spectator.wait_for_selector(".moves .move")
    assert spectator.locator("button.review-toggle").count() == 0

    # An uploaded record (as the lobby keeps it), reviewed from seat 0, on a phone.
    record = family("rummy").random_hand_record("gin-rummy", 2, "web-review-2")
    phone = new_page(browser, viewport=PHONE)
    phone.goto(server.url + "/rules")
    phone.evaluate("t => sessionStorage.setItem('rummoli:upload', t)", json.dumps(record))
    phone.goto(server.url + "/replay")
    phone.click("button.review-toggle")
    summary, shown, _ = read_panel(phone)
    assert shown > 0 and "Ann" in summary
    assert phone.locator(".review-panel").is_visible()
    assert phone.errors == []
