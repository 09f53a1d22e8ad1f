"""The coach in the browser (issue 37): a finished hand's replay offers "Review" to a seat of the table and
for an uploaded record; the panel lists each of that seat's decisions with its choices, their values and
intervals, the one taken and the coach's, and marks the mistakes, as the server's review says."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Server
from test_web_replays import finished_evening
from web_helpers import DESKTOP, PHONE, new_page, on_origin, replay_page, shoot

from rummoli.coach import LEGEND, LEGEND_RULE, review
from rummoli.games import family


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose coach searches 0.05 s a decision: what the page shows is what the server's review says,
    whatever its time (tests/bots/test_coach.py measures the coach at its own budget)."""
    running = Server(tmp_path_factory.mktemp("review"), RUMMOLI_REVIEW_BUDGET="0.05").start()
    try:
        yield running
    finally:
        running.stop()


def read_panel(page: Any) -> tuple[str, int, int]:
    page.wait_for_selector(".review-panel[data-state=done], .review-panel[data-state=error]", timeout=90_000)
    assert page.get_attribute(".review-panel", "data-state") == "done", page.inner_text(".review-panel")
    return (page.inner_text("[data-review=summary]"), page.locator(".review-decision").count(),
            page.locator(".review-decision.mistake").count())


def test_review_button_on_a_finished_hand_and_an_uploaded_record(browser: Any, server: Any,
                                                                 artifacts: Path) -> None:
    created = finished_evening(server)  # a Michigan hand, seat 0 played at random
    table, token = created["id"], created["token"]
    expected = server.get(f"/api/tables/{table}/hands/1/review", token=token)
    assert expected.status_code == 200, expected.text
    decisions = len(expected.json()["decisions"])

    page = replay_page(browser, server.url, table, token)
    page.keyboard.press("End")  # asked for at the hand's end, as players do: the panel comes into sight
    page.click("button.review-toggle")
    page.wait_for_selector(".review-panel h3")
    top = page.evaluate("() => document.querySelector('.review-panel').getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"], f"the review opened out of sight, at {top} px"
    summary, shown, mistakes = read_panel(page)
    # why a better figure may not be starred: the coach's words, when this run of the review has a decision to say it of
    assert all(text in (LEGEND, f"{LEGEND} {LEGEND_RULE}") for text in page.locator(".review-legend").all_inner_texts())
    assert shown == decisions and "Ann" in summary
    assert ("mistake" in summary) == bool(mistakes) or "0 mistakes" in summary
    if shown:
        first = page.locator(".review-decision").first
        assert first.locator("tr.taken").count() == 1 and first.locator("tr.coach").count() == 1
        assert first.locator(".review-words").inner_text().strip()
        # each choice in the server's words (the choices searched do not depend on the time each review had)
        texts = [c["text"] for c in expected.json()["decisions"][0]["choices"]]
        assert first.locator("tbody tr td:first-child").all_inner_texts() == texts
    assert page.locator(".review-panel").is_visible()
    for size in (PHONE, DESKTOP):  # the choices' table fits the panel: its last column was cut off at the edge
        page.set_viewport_size(size)
        wide = page.evaluate("""() => [...document.querySelectorAll(".review-choices")].filter((t) =>
          t.getBoundingClientRect().right > t.closest(".review-panel").getBoundingClientRect().right + 1).length""")
        assert wide == 0, f"{wide} tables of choices run past the review panel at {size}"
    shoot(page, artifacts, "review")
    page.click("button.review-toggle")  # hides it again, without asking once more
    assert page.locator(".review-panel").is_hidden()

    # The table's Replays list offers each hand's review to a seat; its link opens the replay reviewing.
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("a.review-link", state="attached")
    assert page.locator("a.review-link").first.get_attribute("href") == f"/tables/{table}/hands/1#review"
    page.goto(f"{server.url}/tables/{table}/hands/1#review")
    assert read_panel(page)[1] == decisions
    assert page.errors == []

    # A spectator of the table has no seat to review: no button.
    spectator = new_page(browser)
    spectator.goto(f"{server.url}/tables/{table}/hands/1")
    spectator.wait_for_selector(".moves .move")
    assert spectator.locator("button.review-toggle").count() == 0

    # An uploaded record (as the lobby keeps it), reviewed from seat 0, on a phone.
    record = family("rummy").random_hand_record("gin-rummy", 2, "web-review-2")
    phone = new_page(browser, viewport=PHONE)
    on_origin(phone, server.url)
    phone.evaluate("t => sessionStorage.setItem('rummoli:upload', t)", json.dumps(record))
    phone.goto(server.url + "/replay")
    phone.click("button.review-toggle")
    summary, shown, _ = read_panel(phone)
    assert shown > 0 and "Ann" in summary
    assert phone.locator(".review-panel").is_visible()
    assert phone.errors == []


# The panel drawn by the page's own module from a review as the server sends it.
PANEL = """async (review) => {
  const { fill } = await import("/dom.js");
  const { reviewBlock } = await import("/review.js");
  const box = fill(document.createElement("div"), ...reviewBlock(review));
  return { summary: box.querySelector("[data-review=summary]").textContent,
           legends: [...box.querySelectorAll(".review-legend")].map((p) => p.textContent),
           decisions: box.querySelectorAll(".review-decision").length };
}"""


def test_the_panel_says_the_coachs_summary_and_legend_and_no_words_of_its_own(browser: Any, server: Any) -> None:
    """The summary and the legend are the coach's (rummoli.coach), as ``rummoli review`` prints them: the page kept
    a summary of its own for a review without one and a legend of its own that it showed whatever the review said,
    two copies of words the coach makes. A review whose decisions show no higher figure than the coach's has no
    legend (``null``), and the panel none either."""
    record = family("stops").random_hand_record("rummoli", 4, "coach-1")  # tests/bots/test_coach.py's first hand
    explained, quiet = (review(record, seat, samples=8, seed="t") for seat in (2, 0))
    assert explained["legend"] == LEGEND and quiet["legend"] is None and quiet["decisions"]
    page = new_page(browser)
    on_origin(page, server.url)
    for made in (explained, quiet):
        sent = json.loads(json.dumps(made))  # as the server sends it
        panel = page.evaluate(PANEL, sent)
        assert panel["summary"] == made["summary"]
        assert panel["legends"] == ([made["legend"]] if made["legend"] else [])
        assert panel["decisions"] == len(made["decisions"])
    assert page.errors == []
