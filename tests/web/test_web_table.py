"""The web table in a real browser against a real server: whole hands of Rummoli and Michigan played
through the page, two people at one table through an invite link (one reloads mid-hand), keyboard-only
play, a replay stepped both ways, names shown as text, what a page's websocket receives, and screenshots. These
run in the full Chromium people use (the other web modules in Debian's headless shell of the same engine)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from server_helpers import Server
from web_helpers import (
    DESKTOP,
    FULL_CHROMIUM,
    PHONE,
    assert_no_foreign_cards,
    hold_seat,
    keyboard_turn,
    new_page,
    play_out,
    play_together,
    rummy_turn,
    settle,
    shoot,
    shooting_once,
    stops_turn,
    wait_turn_or_end,
)

BROWSER = FULL_CHROMIUM  # read by tests/web/conftest.py's browser fixture


def open_seat(page: Any, server: Any, created: dict[str, Any]) -> float:
    """Put a seat token where the page keeps it (as the lobby does after creating a table), open the table's
    address and answer the seconds until the table is drawn with the seat's hand in it."""
    hold_seat(page, server.url, created["id"], created["token"], created["seat"])
    started = time.monotonic()
    page.goto(f"{server.url}/tables/{created['id']}")
    page.wait_for_selector(".my-hand .card-btn")
    return time.monotonic() - started


def note_metrics(artifacts: Path, **values: Any) -> None:
    path = artifacts / "web-metrics.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**known, **values}, indent=1))
    print("web metrics:", values)


def test_lobby_first_load_and_a_michigan_hand_against_bots(browser: Any, server: Any, artifacts: Path) -> None:
    page = new_page(browser)
    sizes: list[int] = []
    foreign: list[str] = []
    page.on("request", lambda r: foreign.append(r.url) if not r.url.startswith((server.url, "data:", "ws://127.0.0.1"))
            else None)
    started = time.monotonic()
    page.goto(server.url + "/")
    page.wait_for_selector("#ruleset option[value=michigan]", state="attached")
    lobby_ready = time.monotonic() - started
    sizes = page.evaluate("""() => [performance.getEntriesByType('navigation')[0].transferSize,
        ...performance.getEntriesByType('resource').map(e => e.transferSize)]""")
    shoot(page, artifacts, "lobby")
    page.fill("#your-name", "Ann")
    page.select_option("#ruleset", "michigan")
    assert "Kitty" in page.inner_text(".about-ruleset")  # the options in words
    page.select_option("#players", "3")
    page.click(".more-options summary")  # the seats, length and pace are folded away
    # Starting chips are asked only for a game played for chips (the Rummy family keeps score instead).
    assert page.is_visible("#chips") and page.input_value("#chips") == "100"
    page.select_option("#ruleset", "gin-rummy")
    assert not page.is_visible("#chips") and not page.is_visible("label[for=chips]")
    page.select_option("#ruleset", "michigan")
    page.select_option("#players", "3")
    assert page.is_visible("#chips")
    page.fill("#hands", "1")
    page.select_option("#pace", "instant")
    submitted = time.monotonic()
    page.click("button[type=submit]")
    page.wait_for_selector(".my-hand .card-btn")
    playable_after = time.monotonic() - submitted
    shoot(page, artifacts, "michigan-table")
    seen: set[str] = set()
    play_out(page, stops_turn, seen)  # Michigan has only the play round (every lead may be forced)
    assert seen <= {"play"}
    assert page.locator(".final .standings-table tbody tr").count() == 3
    assert "Kitty" in page.inner_text(".board")
    metrics = {"first_load_bytes": sum(sizes), "first_load_requests": len(sizes),
               "seconds_lobby_address_to_ready_form": round(lobby_ready, 2),
               "seconds_start_button_to_playable_table": round(playable_after, 2)}
    note_metrics(artifacts, **metrics)
    assert sum(sizes) < 300_000, metrics
    assert not foreign, foreign
    assert not page.errors, page.errors
    page.context.close()


def test_a_rummoli_hand_against_bots_through_the_page(browser: Any, server: Any, artifacts: Path) -> None:
    # Two hands at two seats: the deal passes, so Ann is the dealer once (dealer's choice: she keeps, the
    # widow goes up for auction) and a bidder once.
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}], hands=2, seed="web-rummoli-3")
    page = new_page(browser)
    note_metrics(artifacts, seconds_table_address_to_playable=round(open_seat(page, server, created), 2))
    seen: set[str] = set()
    play_out(page, shooting_once(stops_turn, ".phase-poker, .phase-auction", artifacts, "rummoli-table"), seen)
    assert {"dealer_choice", "auction", "poker", "play"} <= seen, seen
    assert page.locator(".seat.me").inner_text().startswith("Ann")
    log = page.inner_text(".log")
    assert "keeps their hand" in log and "shows" in log, log[-800:]
    # The evening's end: the final standings, the settlement of the board, the last hand's result.
    assert page.locator(".final [data-result='standing']").count() == 2
    assert page.locator(".result [data-result='hand-change']").count() == 2
    # A replay steps to the hand's end, its captions the server's sentences; nobody's turn is shown in it. One of
    # the two hands was shown down: its replay shows both fives to the end.
    shown = 0
    for hand_no in (1, 2):
        page.goto(f"{server.url}/tables/{created['id']}/hands/{hand_no}")
        page.wait_for_selector(".replay-controls")
        for _ in range(12):
            page.keyboard.press("ArrowRight")
            assert page.locator(".tag.turn").count() == 0
        page.keyboard.press("End")
        shown = max(shown, page.locator(".showdown .shown").count())
        assert "The hand is over." in page.inner_text(".moves [aria-current=step]")
    assert shown == 2
    assert_no_foreign_cards(page.frames_in)
    assert not page.errors, page.errors
    page.context.close()


def test_two_people_through_an_invite_link_and_a_reload_keeps_the_seat(browser: Any, server: Any) -> None:
    ann = new_page(browser)
    ann.goto(server.url + "/")
    ann.fill("#your-name", "Ann")
    ann.select_option("#ruleset", "rummoli")
    ann.select_option("#players", "3")
    ann.click(".more-options summary")
    ann.select_option("#seat-1", "person")
    ann.fill("#hands", "1")
    ann.select_option("#pace", "instant")
    ann.click("button[type=submit]")
    ann.wait_for_selector("#invite-link")
    invite = ann.input_value("#invite-link")
    assert "/tables/" in invite

    bob = new_page(browser)
    bob.goto(invite)
    assert bob.inner_text("#join-title") == "Join a table of Rummoli (Copp Clark)"  # the title, not the name
    bob.fill("#join-name", "<img src=x onerror=f(1)>")
    bob.click("button[type=submit]")
    bob.wait_for_selector(".seat.me")
    # The name is text, never markup.
    assert bob.locator(".seat.me .seat-name").inner_text().startswith("<img src=x onerror=f(1)>")
    assert bob.locator(".seats img").count() == 0
    before = sorted(bob.locator(".my-hand .card-btn").all_inner_texts())
    cards_before = bob.locator(".my-hand .card-btn").count()
    assert cards_before > 0
    bob.reload()
    bob.wait_for_selector(".seat.me")
    assert bob.locator(".seat.me .seat-name").inner_text().startswith("<img")
    assert bob.locator(".my-hand .card-btn").count() >= 1
    assert bob.locator(".my-hand .card-btn").count() <= cards_before
    assert isinstance(before, list)
    # Once the evening has started the invite link only lets a stranger watch: no hand, no choices.
    watcher = new_page(browser)
    watcher.goto(invite)
    watcher.wait_for_selector(".board")
    assert "watching" in watcher.inner_text(".hand-no")
    assert watcher.locator(".my-hand").count() == 0 and watcher.locator(".phase .controls").count() == 0
    seen_ann: set[str] = set()
    seen_bob: set[str] = set()
    play_together([ann, bob], stops_turn, [seen_ann, seen_bob])
    assert not ann.dialogs and not bob.dialogs  # no alert ran
    assert ann.locator(".seats").inner_text().count("<img src=x onerror=f(1)>") == 1
    assert_no_foreign_cards(ann.frames_in)
    assert_no_foreign_cards(bob.frames_in)
    watcher.wait_for_selector(".final")
    assert assert_no_foreign_cards(watcher.frames_in) > 0
    assert not ann.errors and not bob.errors and not watcher.errors, (ann.errors, bob.errors, watcher.errors)
    watcher.context.close()
    ann.context.close()
    bob.context.close()


def test_keyboard_only_hand_and_a_replay_stepped_both_ways(browser: Any, server: Any, artifacts: Path) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            seed="web-keys-1")
    page = new_page(browser)
    open_seat(page, server, created)
    done = []
    while wait_turn_or_end(page) == "turn":
        # Your turn puts the focus just before your choices: one or two Tabs, not twenty across the cards.
        done.append(keyboard_turn(page, limit=3))
        settle(page)
        assert len(done) < 80
    assert done and page.locator(".final").count() == 1

    page.goto(f"{server.url}/tables/{created['id']}/hands/1")
    page.wait_for_selector(".replay-controls")
    where = page.locator(".where")
    total = int(where.inner_text().split(" of ")[1])
    assert where.inner_text() == f"Step 1 of {total}"
    forward = page.get_by_role("button", name="Step forward")
    for _ in range(total - 1):
        forward.click()
    assert where.inner_text() == f"Step {total} of {total}"
    laid_end = page.locator(".run .laid").count()
    assert laid_end > 0
    shoot(page, artifacts, "replay")
    page.get_by_role("button", name="Step back").click()
    assert where.inner_text() == f"Step {total - 1} of {total}"
    page.keyboard.press("Home")
    assert where.inner_text() == f"Step 1 of {total}"
    assert page.locator(".run .laid").count() == 0
    for _ in range(total // 2):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert where.inner_text() == f"Step {total // 2} of {total}"
    assert not page.errors, page.errors
    page.context.close()


def test_the_page_reconnects_by_itself_after_the_server_restarts(browser: Any, fresh_dir: Path) -> None:
    server = Server(fresh_dir).start()
    try:
        created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}], hands=1, seed="web-restart-1")
        page = new_page(browser)
        open_seat(page, server, created)
        cards = page.locator(".my-hand .card-btn").count()
        server.kill()
        page.wait_for_function("() => document.getElementById('conn').textContent.includes('reconnecting')")
        server.start()
        page.wait_for_function("() => document.getElementById('conn').textContent === 'Reconnected'", timeout=20000)
        assert page.locator(".my-hand .card-btn").count() == cards
        play_out(page, stops_turn, set())
        assert page.locator(".final").count() == 1
        assert not page.errors, page.errors
        page.context.close()
    finally:
        server.stop()


def test_the_lobby_lists_open_tables_to_watch_and_replays_an_uploaded_record(browser: Any, server: Any,
                                                                           tmp_path: Path) -> None:
    waiting = server.create(ruleset="tripoley", seats=[{}, {}, {"bot": "easy"}])
    record = subprocess.run([sys.executable, "-m", "rummoli.cli", "hand", "--ruleset", "michigan", "--seed", "up-1"],
                            capture_output=True, text=True, check=True).stdout
    (tmp_path / "hand.json").write_text(record)
    page = new_page(browser)
    page.goto(server.url + "/")
    row = page.locator(".table-list li", has_text="Tripoley")
    row.first.wait_for()
    assert row.first.locator("a", has_text="Join").count() == 1
    page.fill("#invite", "hello world")  # not a link: said beside the box, not in the start form's panel
    page.get_by_role("button", name="Go to table").click()
    assert page.locator(".tables .error").inner_text() == "That is not an invite link."
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    row.first.locator("a", has_text="Watch").click()
    page.wait_for_selector(".waiting")
    assert waiting["id"] in page.url and "Waiting for players" in page.inner_text(".waiting")
    # One table, one socket: the Watch link and the page's own link handling both drew the table, and the first
    # copy's socket stayed open after leaving (every update twice, one of the address's sockets used up).
    page.wait_for_timeout(300)
    assert len(sockets) == 1, [ws.url for ws in sockets]
    page.locator("a.brand").click()  # back to the lobby, inside the page
    page.wait_for_selector(".table-list")
    for _ in range(50):  # the close reaches Playwright a moment after the page closed it
        if all(ws.is_closed() for ws in sockets):
            break
        page.wait_for_timeout(100)
    assert all(ws.is_closed() for ws in sockets)
    # The rules: each page's title is its h1 (the text's own title); the index says what it is before its list.
    page.goto(server.url + "/rules/gin-rummy")
    page.wait_for_selector(".rules h1")  # drawn by the page's script after the load
    assert page.locator("h1").all_inner_texts() == ["Gin Rummy"]
    page.set_viewport_size(PHONE)  # one column: the rules asked for come before the list of the other games
    heading = page.locator("h1").bounding_box()
    first = page.locator(".rules-nav a").first.bounding_box()
    assert heading and first and heading["y"] < first["y"], (heading, first)
    page.set_viewport_size(DESKTOP)
    page.goto(server.url + "/rules")
    page.wait_for_selector(".rules-nav a")
    heading = page.locator("h1", has_text="Rules").bounding_box()
    first = page.locator(".rules-nav a").first.bounding_box()
    assert heading and first and heading["y"] < first["y"], (heading, first)
    page.goto(server.url + "/")
    page.set_input_files("#record-file", str(tmp_path / "hand.json"))
    page.wait_for_selector(".replay-controls")
    total = int(page.inner_text(".where").split(" of ")[1])
    assert total > 5 and "Kitty" in page.inner_text(".board")
    page.keyboard.press("End")
    assert page.inner_text(".where") == f"Step {total} of {total}"
    assert not page.errors, page.errors
    page.context.close()


def test_the_tab_names_the_page_and_says_when_it_is_your_turn(browser: Any, server: Any) -> None:
    """The window's title (what a tab shows) names what the page shows, and tells a player looking at another tab
    that it is their turn; the lobby's is the site's name."""
    page = new_page(browser)
    for path, wait, title in (("/rules/gin-rummy", ".rules h1", "Gin Rummy rules — Rummoli"),
                              ("/rules", ".rules-index h1", "Rules — Rummoli"), ("/", "#your-name", "Rummoli")):
        page.goto(server.url + path)
        page.wait_for_selector(wait)
        assert page.title() == title, (path, page.title())
    created = server.create(ruleset="gin-rummy", seats=[{}, {"bot": "easy"}], hands=1, seed="tab-title",
                            pace="instant")
    open_seat(page, server, created)
    seen: set[str] = set()
    while wait_turn_or_end(page) == "turn":
        assert page.title() == "● Your turn — Gin Rummy — Rummoli", page.title()
        rummy_turn(page, seen)
    assert page.title() == "Gin Rummy — Rummoli", page.title()
    page.goto(f"{server.url}/tables/{created['id']}/hands/1")
    page.wait_for_selector(".replay-page")
    assert page.title() == "Replay of hand 1 — Rummoli", page.title()
    assert not page.errors, page.errors
    page.context.close()
