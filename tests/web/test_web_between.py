"""The web table between hands and around the game: two people say "Next hand" (the first is told whom the deal
waits for), a seat opened on another device through its link (#seat=TOKEN), the join page in the ruleset's title,
a choice the turn timer made marked in the log, your Rummy cards in your own order, the melds on the table in
sight of a 500 Rum hand's result, and the cut for the first deal at the head of the log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Server
from web_helpers import DESKTOP, PHONE, hold_seat, new_page, rummy_turn, shoot, stops_turn


@pytest.fixture(scope="module")
def resting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose tables rest 30 s between hands unless everyone says next."""
    running = Server(tmp_path_factory.mktemp("between"), "--hand-pause", "30").start()
    try:
        yield running
    finally:
        running.stop()


def seated(browser: Any, server: Server, table_id: str, token: str, name: str) -> Any:
    page = new_page(browser)
    hold_seat(page, server.url, table_id, token, None, name, creator=False)
    page.goto(f"{server.url}/tables/{table_id}")
    page.wait_for_selector(".my-hand .card-btn")
    return page


def test_two_people_say_next_hand_and_the_first_is_told_whom_the_deal_waits_for(browser: Any, resting: Server) -> None:
    created = resting.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], hands=2, seed="between-1",
                             pace="instant")
    bob_seat = resting.post(f"/api/tables/{created['id']}/seats", {"name": "Bob"}).json()
    ann = seated(browser, resting, created["id"], created["token"], "Ann")
    bob = seated(browser, resting, created["id"], bob_seat["token"], "Bob")
    seen: set[str] = set()
    for _ in range(300):  # both play the first hand through their pages
        if ann.locator("[data-key='next-hand']").count() and bob.locator("[data-key='next-hand']").count():
            break
        moved = False
        for page in (ann, bob):
            if page.locator(".phase.my-turn").count() and not page.locator(".pending").count():
                stops_turn(page, seen)
                moved = True
        if not moved:
            ann.wait_for_timeout(100)
    countdown = ann.inner_text(".next-countdown")
    assert countdown.startswith("The next hand is dealt in ") and 0 < int(countdown.split()[-2]) <= 30, countdown
    ann.get_by_role("button", name="Next hand", exact=True).click()
    ann.wait_for_selector(".awaited")
    assert ann.inner_text(".awaited") == "Waiting for Bob…"
    assert ann.locator("[data-key='next-hand']").count() == 0
    assert bob.locator("[data-key='next-hand']").count() == 1 and bob.locator("[data-result-hand='1']").count() == 1
    bob.get_by_role("button", name="Next hand", exact=True).click()
    for page in (ann, bob):  # dealt at once: nobody else is awaited
        page.wait_for_function("() => document.querySelector('.hand-no')?.textContent.startsWith('Hand 2 of 2')",
                               timeout=5000)
        assert page.locator(".result, .next-hand").count() == 0
        assert not page.errors, page.errors
    ann.context.close()
    bob.context.close()


def test_a_seat_link_opens_the_seat_on_another_device(browser: Any, resting: Server) -> None:
    created = resting.create(ruleset="gin-rummy", seats=[{}, {"bot": "easy"}], hands=1, seed="link-1",
                             pace="instant")
    first = seated(browser, resting, created["id"], created["token"], "Ann")
    first.locator(".table-tools summary", has_text="Invite").click()
    assert "Play this seat on another device" in first.inner_text(".own-seat")
    link = first.input_value("#seat-link")
    assert link.endswith(f"/tables/{created['id']}#seat={created['token']}")
    # Another device: no token stored there; the link brings it, and the address loses it at once.
    other = new_page(browser)
    other.goto(link)
    other.wait_for_selector(".seat.me")
    assert other.locator(".seat.me .seat-name").inner_text().startswith("Ann")
    assert other.evaluate("() => location.hash") == "" and "seat=" not in other.url
    kept = json.loads(other.evaluate(f"() => localStorage.getItem('rummoli:seat:{created['id']}')"))
    assert kept["token"] == created["token"] and kept["seat"] == 0
    assert other.locator(".my-hand .card-btn").count() == 10
    assert not other.errors and not first.errors, (other.errors, first.errors)
    other.context.close()
    first.context.close()


def test_the_join_page_names_the_game_by_its_title(browser: Any, resting: Server) -> None:
    created = resting.create(ruleset="gin-rummy", seats=[{}, {}])
    page = new_page(browser)
    page.goto(f"{resting.url}/tables/{created['id']}")
    page.wait_for_selector("#join-title")
    assert page.inner_text("#join-title") == "Join a table of Gin Rummy"
    page.context.close()


def test_a_choice_the_turn_timer_made_is_marked_in_the_log(browser: Any, resting: Server) -> None:
    created = resting.create(ruleset="rummy", seats=[{}, {"bot": "easy"}], hands=1, seed="timer-1", turn_timer=5,
                             pace="instant")
    page = seated(browser, resting, created["id"], created["token"], "Ann")
    page.wait_for_selector(".log .warn", timeout=20000)  # Ann never acts: the timer does, and says so
    warning = page.locator(".log .warn").first
    assert "Ann" in warning.inner_text()
    assert warning.evaluate("(el) => getComputedStyle(el).fontWeight") in ("600", "700")
    assert not page.errors, page.errors
    page.context.close()


def test_your_rummy_cards_stay_in_the_order_you_put_them(browser: Any, resting: Server) -> None:
    created = resting.create(ruleset="gin-rummy", seats=[{}, {"bot": "easy"}], hands=1, seed="order-1",
                             pace="instant")
    page = seated(browser, resting, created["id"], created["token"], "Ann")
    order = lambda: page.evaluate(  # noqa: E731
        "() => [...document.querySelectorAll('.my-hand .card-btn')].map((b) => b.dataset.card)")
    arranged = order()
    assert page.locator(".deadwood-count").inner_text().startswith("Deadwood ")
    # Shift + right arrow moves the focused card one place right; focus stays on it.
    first = arranged[0]
    page.locator(f".my-hand [data-card='{first}']").focus()
    page.keyboard.press("Shift+ArrowRight")
    assert order()[:2] == [arranged[1], first]
    assert page.evaluate("() => document.activeElement.dataset.card") == first
    # Dragged onto the last card, a card goes there.
    card = lambda c: page.locator(f".my-hand [data-card='{c}']")  # noqa: E731
    card(arranged[2]).drag_to(card(arranged[-1]))
    moved = order()
    assert moved.index(arranged[2]) == len(moved) - 1 and sorted(moved) == sorted(arranged)
    page.reload()  # kept for this table in the browser
    page.wait_for_selector(".my-hand .card-btn")
    assert order() == moved
    page.get_by_role("button", name="Arrange in melds").click()
    assert order() == arranged
    assert not page.errors, page.errors
    page.context.close()


def test_a_rummy_turn_by_keyboard_reaches_its_choices_in_a_few_keys(browser: Any, resting: Server) -> None:
    """Your turn puts the focus one Tab before your choices, and a card chosen with Enter puts it on what the card
    can do: drawing and discarding took 11 to 20 Tabs a turn, the choices sitting behind the cards."""
    created = resting.create(ruleset="rummy", seats=[{}, {"bot": "easy"}], hands=1, seed="keys-rummy-1",
                             pace="instant")
    page = seated(browser, resting, created["id"], created["token"], "Ann")
    page.wait_for_selector(".phase.my-turn")
    assert page.evaluate("() => document.activeElement?.dataset.key") in ("phase", "draw:stock", "act:draw:stock")
    page.keyboard.press("s")  # the stock, as the key help says
    page.wait_for_function("() => !document.querySelector('.pending') && document.querySelector('.card-btn.playable')")
    page.locator(".my-hand .card-btn.playable").first.focus()
    card = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("Enter")  # chosen: the focus is on its first choice, a discard (or a lay-off, a meld)
    action = page.evaluate("() => document.activeElement?.textContent")
    assert page.evaluate("() => document.activeElement?.classList.contains('card-act')"), action
    if action.startswith("Discard"):
        page.keyboard.press("Enter")  # discarded: the card leaves the hand
        page.wait_for_function("(card) => !document.querySelector(`.my-hand [data-card='${card}']`)", arg=card,
                               timeout=10000)
    assert not page.errors, page.errors
    page.context.close()


# Where the hand's end puts the melds on the table: in the result, and how far below its top, beside the height of
# the tableau's box (the region that scrolls).
MELDS_PLACE = """() => {
    const tableau = document.querySelector('.tableau');
    const result = document.querySelector('.tableau .result');
    const melds = document.querySelector('.tableau .melds');
    result.scrollIntoView({ block: 'start' });
    return { inResult: result.contains(melds), afterHeadline: melds.previousElementSibling?.className,
             below: melds.getBoundingClientRect().top - result.getBoundingClientRect().top,
             box: tableau.clientHeight, count: melds.querySelectorAll('.meld').length };
  }"""


def test_500_rum_shows_the_melds_on_the_table_under_the_hands_result(browser: Any, resting: Server,
                                                                   artifacts: Path) -> None:
    """At 500 Rum what each seat laid is what it scores (R-500-4), so at the hand's end its melds are what a player
    checks the result against: they sit in the result, under its headline, on a laptop and a phone. They came after
    the whole result (each seat's cards left, the points, the scores), 800 px below its top in a box 370 px tall."""
    created = resting.create(ruleset="500-rum", seats=[{}] + [{"bot": "easy"}] * 3, hands=2,
                             seed="results-500-rum-4", pace="instant")
    page = new_page(browser)
    hold_seat(page, resting.url, created["id"], created["token"], 0, "Ann")
    page.goto(f"{resting.url}/tables/{created['id']}")
    page.wait_for_selector(".my-hand .card-btn")
    seen: set[str] = set()
    for _ in range(200):
        page.wait_for_function("() => document.querySelector('[data-key=next-hand]')"
                               " || (document.querySelector('.phase.my-turn') && !document.querySelector('.pending'))")
        if page.locator("[data-key='next-hand']").count():
            break
        rummy_turn(page, seen)
    view = next(json.loads(f)["view"] for f in reversed(page.frames_in) if f.startswith('{"type":"update"'))
    assert view["hand_over"] and view["hand"]["melds"], "no meld was laid in this hand: choose another seed"
    shoot(page, artifacts, "rum500-hand-over")
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        place = page.evaluate(MELDS_PLACE)
        assert place["inResult"] and place["afterHeadline"] == "outcome-line", (size, place)
        assert place["below"] < place["box"] / 2, (size, place)  # in sight with the result's headline
        assert place["count"] == len(view["hand"]["melds"]), (size, place)
    assert not page.errors, page.errors
    page.context.close()


def test_R_MI_1_the_log_opens_with_the_cut_for_the_deal_for_players_and_spectators(browser: Any, resting: Server,
                                                                                   artifacts: Path) -> None:
    """The first line of the evening's log says how the first dealer was chosen: every card of the cut (it is made
    face up), the same for a seat and for a spectator; nobody was told before, live or in the log."""
    created = resting.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                             seed="cut-shown", pace="instant", name="Ann")
    ann = seated(browser, resting, created["id"], created["token"], "Ann")
    watcher = new_page(browser)
    watcher.goto(f"{resting.url}/tables/{created['id']}")
    watcher.wait_for_selector(".log li.ev-hand_start")
    welcome = next(json.loads(f) for f in ann.frames_in if f.startswith('{"type":"welcome"'))
    opening = next(e["text"] for e in welcome["events"] if e["type"] == "hand_start")
    names = [s["name"] for s in welcome["seats"]]
    dealer = names[welcome["view"]["dealer"]]
    assert opening.startswith(f"Hand 1: {dealer} deals. The cut for the first deal: "), opening
    assert all(f"{name} " in opening.split("deal: ", 1)[1] for name in names), opening
    for page in (ann, watcher):
        assert page.locator(".log li.ev-hand_start").first.inner_text() == opening
    ann.locator(".log-box").first.screenshot(path=str(artifacts / "log-cut-1280x800.png"))
    ann.set_viewport_size(PHONE)
    ann.wait_for_timeout(200)
    ann.click(".drawer-toggle")
    ann.wait_for_timeout(200)
    ann.screenshot(path=str(artifacts / "log-cut-390x844.png"))
    assert not ann.errors and not watcher.errors, (ann.errors, watcher.errors)
    ann.context.close()
    watcher.context.close()
