"""What the table says, to the eye and to a screen reader, held to the server's own word: the seat tiles' units
at a phone's width and a desk's (read from Playwright's accessibility snapshot), the Gin hand's heading, the live
region after a turn moves on, the join page's facts and options, and an evening its creator ended early."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from web_helpers import DESKTOP, PHONE, hold_seat, new_page, stops_turn, wait_turn_or_end

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import Server


def people_table(server: Server, ruleset: str, people: int) -> tuple[str, dict[int, str]]:
    """A table of ``people`` persons only, every seat taken: nobody acts unless a test does, so the table holds still
    while the page is read."""
    created = server.create(ruleset=ruleset, seats=[{} for _ in range(people)], hands=1)
    tokens = {0: created["token"]}
    for k in range(1, people):
        joined = server.post(f"/api/tables/{created['id']}/seats", {"name": f"P{k}"}).json()
        tokens[joined["seat"]] = joined["token"]
    return created["id"], tokens


def open_seat(browser: Any, server: Server, table: str, token: str, seat: int, **options: Any) -> Any:
    page = new_page(browser, **options)
    hold_seat(page, server.url, table, token, seat, creator=seat == 0)
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector(".seat")
    return page


def test_seat_tiles_read_their_units_on_a_phone_as_on_a_desk(browser: Any, server: Server) -> None:
    table, tokens = people_table(server, "rummoli", 3)
    ann = server.client(table, tokens[0])
    view = ann.view
    ann.close()
    hand = view["hand"]
    expected = {}
    for i, evening in enumerate(view["hand_seats"]):
        chips, cards = view["seats"][evening]["chips"], hand["hand_sizes"][i]
        expected[evening] = (f"{chips} chips", f"{cards} cards", i == hand["dealer"])
    for size in (PHONE, DESKTOP):
        page = open_seat(browser, server, table, tokens[0], 0, viewport=size)
        for evening, (chips, cards, dealer) in expected.items():
            read = page.locator(f".seat[data-evening-seat='{evening}']").aria_snapshot()
            # On the phone the words are out of sight (a drawn chip and card instead), never out of the reading.
            assert chips in read and cards in read, (size, evening, read)
            assert ("dealer" in read) == dealer, (size, evening, read)
        assert not page.errors, page.errors
        page.context.close()


def test_the_gin_hand_heading_keeps_its_words_apart_and_the_live_region_follows_the_turn(
        browser: Any, server: Server) -> None:
    table, tokens = people_table(server, "gin-rummy", 2)
    first = server.client(table, tokens[0])
    seat = first.view["to_act"][0]
    first.close()
    watcher = server.client(table, tokens[seat])
    page = open_seat(browser, server, table, tokens[seat], seat)
    heading = page.locator(".my-hand h3").aria_snapshot()
    arranged = watcher.view["hand"]["arranged"]
    # The title and the count are apart on screen, and apart when read: not "10 cardsDeadwood 64".
    assert re.search(rf"Your hand · 10 cards\W+Deadwood {arranged['count']}\b", heading), heading
    page.wait_for_function("() => document.getElementById('announce').textContent.startsWith('Your turn')")
    assert page.inner_text("#announce") == f"Your turn. {watcher.view['hand']['prompt']}"
    upcard = [a for a in watcher.view["hand"]["legal_actions"] if a["action"] != "pass"]
    assert upcard, watcher.view["hand"]["legal_actions"]
    page.locator(".phase.my-turn .controls button").first.click()  # take the upcard: still this seat's turn
    watcher.until(lambda m: m["type"] == "update")
    prompt = watcher.view["hand"]["prompt"]
    # The region says the step the seat is at now (discard), not the upcard already taken.
    page.wait_for_function("(p) => document.getElementById('announce').textContent === `Your turn. ${p}`", arg=prompt)
    watcher.close()
    assert not page.errors, page.errors
    page.context.close()


def test_the_join_page_names_the_turn_timer_apart_and_words_the_lead_as_the_server(browser: Any,
                                                                                    server: Server) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {}, {"bot": "easy"}], turn_timer=45, pace="fast")
    summary = server.get(f"/api/tables/{created['id']}").json()
    options = next(r for r in server.get("/api/rulesets").json()["rulesets"] if r["name"] == "rummoli")["options"]
    lead = "A lead is the lowest card you hold, whatever its suit."
    assert lead in options and not any("in any suit" in o for o in options), options
    page = new_page(browser)
    page.goto(f"{server.url}/tables/{created['id']}")
    page.wait_for_selector("form.join")
    facts = dict(zip(page.locator(".facts dt").all_inner_texts(), page.locator(".facts dd").all_inner_texts(),
                     strict=True))
    assert facts["Pace"] == summary["pace"]["name"]
    assert facts["Turn timer"] == f"{summary['turn_timer']:g} seconds a turn"
    page.locator(".game-facts summary").click()
    assert page.locator("[data-fact=options] li").all_inner_texts() == options
    assert not page.errors, page.errors
    page.context.close()


def test_an_evening_its_creator_ends_says_so_on_the_page_and_in_the_answer(browser: Any, server: Server) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=3,
                            pace="instant")
    table, token = created["id"], created["token"]
    page = open_seat(browser, server, table, token, 0)
    page.wait_for_selector("[data-key=end]")
    answer = server.post(f"/api/tables/{table}/end", token=token)
    assert answer.status_code == 200, answer.text
    ended = answer.json()
    # A hand is in play (Ann has not moved): it is played out, and none is dealt after it.
    assert (ended["ending"], ended["over"], ended["hand_no"], ended["hands"]) == (True, False, 1, 3)
    page.wait_for_selector(".ending-note")
    assert page.inner_text(".ending-note") == ("The evening has been ended: this hand is played to its end, and no "
                                               "other is dealt.")
    assert page.inner_text(".hand-no") == "Hand 1 · last hand"
    assert page.locator("[data-key=end]").count() == 0
    seen: set[str] = set()
    while wait_turn_or_end(page) == "turn":
        stops_turn(page, seen)
    summary = server.get(f"/api/tables/{table}").json()
    assert (summary["over"], summary["ending"], summary["hand_no"]) == (True, True, 1)
    assert page.inner_text(".final .ended-early") == "The evening was ended early, after hand 1 of the 3 agreed."
    assert page.inner_text(".hand-no") == "Hand 1 · last hand"
    assert not page.errors, page.errors
    page.context.close()
