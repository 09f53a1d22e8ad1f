"""The replay page's move list and open hands (issue 32, Replays): a finished hand's steps listed in the
server's words beside the board, a step clicked or chosen with the keyboard shows that step's frame, and once
the evening is over a seat of the table shows every hand as dealt. Screenshots at both sizes."""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

from web_helpers import DESKTOP, PHONE, new_page, replay_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import play_until
from test_server_replay_widow import finished_rummoli

from rummoli.server.api.web import whole_views


def finished_evening(server: Any) -> dict[str, Any]:
    """A one-hand Michigan evening with two bots, its person's seat played by a websocket client at random."""
    created = server.create(ruleset="michigan", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            pace="instant", seed="web-replay-moves-1")
    ann = server.client(created["id"], created["token"])
    play_until(ann, lambda c: bool(c.view.get("over")), random.Random(7))
    ann.close()
    return created


def step_shown(page: Any) -> int:
    return int(page.inner_text(".where").split()[1]) - 1


def pots_shown(page: Any) -> list[int]:
    return sorted(int(t) for t in page.locator(".board .pot-count").all_inner_texts())


def test_the_move_list_steps_the_board_and_all_hands_show_after_the_evening(browser: Any, server: Any,
                                                                             artifacts: Path) -> None:
    created = finished_evening(server)
    table, token = created["id"], created["token"]
    path = f"/api/tables/{table}/hands/1/replay"
    frames = server.get(path, token=token).json()["frames"]
    views = whole_views(frames)
    record = server.get(f"/api/tables/{table}/record", token=token).json()["hands"][0]

    page = replay_page(browser, server.url, table, token)
    page.wait_for_selector(".moves .move")
    moves = page.locator(".moves .move")
    assert moves.count() == len(frames)
    # Each step in the server's words (the deal, which has none, in the page's own).
    for k in (1, len(frames) // 2, len(frames) - 1):
        words = " ".join(e["text"] for e in frames[k]["events"] if e.get("text"))
        assert moves.nth(k).locator(".move-text").inner_text() == words

    # A click on a move shows that step: the board and the hand are that frame's.
    k = len(frames) // 2
    moves.nth(k).click()
    assert step_shown(page) == k
    # What the seat was asked then ("Your lead ...: choose one of ...") is not put to someone who can only watch.
    assert any(v.get("prompt") for v in views) and page.locator(".phase .explain").count() == 0
    assert page.locator(".moves [aria-current=step]").get_attribute("data-step") == str(k)
    assert pots_shown(page) == sorted(views[k]["pots"].values())
    assert page.locator(".my-hand .card").count() == len(views[k]["hand"])
    assert page.locator(".moves [aria-current=step]").is_visible()

    # The keyboard: the arrows step from the focused move, Enter on another shows it, Home and End.
    page.keyboard.press("ArrowDown")
    assert step_shown(page) == k + 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert step_shown(page) == k - 1
    moves.nth(3).focus()
    page.keyboard.press("Enter")
    assert step_shown(page) == 3 and pots_shown(page) == sorted(views[3]["pots"].values())
    page.keyboard.press("End")
    assert step_shown(page) == len(frames) - 1
    assert page.locator(".moves [aria-current=step]").is_visible()  # scrolled into view
    page.screenshot(path=str(artifacts / "replay-moves-1280x800.png"))
    page.keyboard.press("Home")
    assert step_shown(page) == 0

    # Every hand as dealt, after the evening: the record's deal, seat by seat.
    assert page.locator(".open-hand").count() == 0
    page.get_by_role("button", name="Show all hands").click()
    page.wait_for_selector(".open-hand")
    hands = page.locator(".open-hand")
    assert hands.count() == len(record["players"])
    for n, dealt in enumerate(record["deal"]["hands"]):
        assert hands.nth(n).locator(".who").inner_text() == record["players"][n]
        assert hands.nth(n).locator(".card").count() == len(dealt)
    assert step_shown(page) == 0
    moves.nth(k).click()
    open_frames = whole_views(server.get(path + "?open=1", token=token).json()["frames"])
    for n, cards in enumerate(open_frames[k]["open_hands"]):
        assert hands.nth(n).locator(".card").count() == len(cards)
    page.screenshot(path=str(artifacts / "replay-open-1280x800.png"))
    toggle = page.get_by_role("button", name="Show all hands")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert page.locator(".open-hand").count() == 0 and step_shown(page) == k

    # On a phone the moves are a drawer over the board, opened with "Moves"; a move chosen there is shown.
    page.set_viewport_size(PHONE)
    page.goto(f"{server.url}/tables/{table}/hands/1")
    page.wait_for_selector(".moves .move", state="attached")
    assert not page.locator(".moves-drawer").is_visible()
    page.screenshot(path=str(artifacts / "replay-390x844.png"))
    page.get_by_role("button", name="Moves").click()
    page.locator(".moves .move").nth(k).click()
    assert step_shown(page) == k
    page.screenshot(path=str(artifacts / "replay-moves-390x844.png"))
    page.get_by_role("button", name="Close").click()
    # Opened at the last step the list is scrolled far down: its Close stays in sight, and Escape closes it too.
    page.keyboard.press("End")
    page.get_by_role("button", name="Moves").click()
    close = page.locator(".moves-drawer .drawer-close").bounding_box()
    assert close and close["y"] >= 0 and close["y"] + close["height"] <= PHONE["height"], close
    page.keyboard.press("Escape")
    assert not page.locator(".moves-drawer").is_visible()
    assert page.evaluate("() => document.activeElement?.dataset.key") == "moves"
    page.get_by_role("button", name="Show all hands").click()
    page.wait_for_selector(".open-hand")
    page.screenshot(path=str(artifacts / "replay-open-390x844.png"))
    # A hand played out says so on one line (not a letter a line in the cards' narrow columns).
    empty = page.locator(".open-hand .muted")
    assert empty.count() and all(box and box["height"] < 30 for box in (e.bounding_box() for e in empty.all()))
    # The window widened to a desktop's: the moves fit beside the board and show; narrowed again, they close.
    for size, shown in ((DESKTOP, True), (PHONE, False)):
        page.set_viewport_size(size)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")  # after the resize's handlers
        assert page.locator(".moves-drawer").is_visible() is shown, size
    assert not page.errors, page.errors
    page.context.close()


def test_a_spectator_gets_no_open_hands_toggle(browser: Any, server: Any) -> None:
    created = finished_evening(server)
    page = new_page(browser)
    page.goto(f"{server.url}/tables/{created['id']}/hands/1")
    page.wait_for_selector(".moves .move")
    assert page.get_by_role("button", name="Show all hands").count() == 0
    assert not page.errors, page.errors
    page.context.close()


def test_a_gin_hand_shows_both_hands_at_every_step(browser: Any, server: Any, artifacts: Path) -> None:
    created = server.create(ruleset="gin-rummy", seats=[{}, {"bot": "easy"}], hands=1, pace="instant",
                            seed="web-replay-gin-1")
    ann = server.client(created["id"], created["token"])
    play_until(ann, lambda c: bool(c.view.get("over")), random.Random(8), timeout=120)
    ann.close()
    table = created["id"]
    opened = server.get(f"/api/tables/{table}/hands/1/replay?open=1", token=created["token"]).json()
    views = whole_views(opened["frames"])
    page = replay_page(browser, server.url, table, created["token"])
    page.get_by_role("button", name="Show all hands").click()
    page.wait_for_selector(".open-hand")
    k = len(views) // 2
    page.locator(".moves .move").nth(k).click()
    for n, cards in enumerate(views[k]["open_hands"]):
        assert page.locator(".open-hand").nth(n).locator(".card").count() == len(cards)
    # A replay offers nothing: a step where Ann melds or discards is named "Play", never put as the viewer's.
    play = next(j for j, v in enumerate(views) if v["phase"] not in ("draw", "over") and 0 in v["to_act"])
    page.locator(".moves .move").nth(play).click()
    assert page.inner_text(".phase h2") == "Play", page.inner_text(".phase h2")
    page.screenshot(path=str(artifacts / "replay-gin-open-1280x800.png"))
    assert not page.errors, page.errors
    page.context.close()


def test_the_last_step_shows_each_seats_total_after_the_hand(browser: Any, server: Any) -> None:
    created = server.create(ruleset="knock-rummy", seats=[{}, {"bot": "easy"}], hands=1, pace="instant",
                            seed="web-replay-last-1")
    ann = server.client(created["id"], created["token"])
    play_until(ann, lambda c: bool(c.view.get("over")), random.Random(9), timeout=120)
    ann.close()
    replay = server.get(f"/api/tables/{created['id']}/hands/1/replay", token=created["token"]).json()
    changes = replay["result"]["changes"]
    assert any(c["after"] != c["before"] for c in changes), changes  # a hand that moved the score
    page = replay_page(browser, server.url, created["id"], created["token"])
    page.wait_for_selector(".moves .move")
    page.keyboard.press("End")
    page.wait_for_selector(".replay-stage .result")
    # Beside the hand's result, each tile says the seat's total after it (as the server's result does), not before.
    for c in changes:
        tile = page.locator(f".replay-stage .seat[data-seat='{c['seat']}'] .seat-chips .n")
        assert tile.inner_text() == str(c["after"]), (c, tile.inner_text())
    assert not page.errors, page.errors
    page.context.close()


def test_a_gin_hand_that_reaches_the_wall_is_titled_a_draw(browser: Any, server: Any, tmp_path: Path) -> None:
    """R-GIN-6: its headline says a draw; the result's title said "Blocked", straight Rummy's word."""
    from rummoli.games import family, replay_hand

    record = family("rummy").random_hand_record("gin-rummy", 2, "wall-0")  # random play: to the wall
    assert replay_hand(record).outcome["reason"] == "blocked"
    (tmp_path / "gin.json").write_text(json.dumps(record), encoding="utf-8")
    page = new_page(browser)
    page.goto(server.url + "/")
    page.set_input_files("#record-file", str(tmp_path / "gin.json"))
    page.wait_for_selector(".replay-controls")
    page.keyboard.press("End")
    page.wait_for_selector(".result")
    assert page.inner_text(".result h2").endswith("Drawn"), page.inner_text(".result h2")
    assert "the hand is a draw" in page.inner_text(".result .headline")
    assert not page.errors, page.errors
    page.context.close()


SUIT_WORD = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_WORD = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace", "2": "two", "3": "three", "4": "four",
             "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine"}


def card_words(cards: list[str]) -> list[str]:
    """The names the page's cards carry (their accessible names), for cards as the server names them."""
    return [f"{RANK_WORD[c[0]]} of {SUIT_WORD[c[1]]}" for c in cards]


def test_all_hands_show_the_widow_then_the_hand_given_up_for_it(browser: Any, server: Any, artifacts: Path) -> None:
    """Beside the hands in play, "Show all hands" shows what is out of play, under its own label: the widow as
    dealt, then, once a bot has taken it, the hand that bot gave up (the record's deal). On a phone the open
    hands' cards are fanned large enough to read, and no seat's name is cut off."""
    created = finished_rummoli(server, "widow-out-of-play-2")  # a hand where a bot takes the widow
    table, token = created["id"], created["token"]
    record = server.get(f"/api/tables/{table}/record", token=token).json()["hands"][0]
    views = whole_views(server.get(f"/api/tables/{table}/hands/1/replay?open=1", token=token).json()["frames"])
    at = next(k for k, v in enumerate(views) if v["out_of_play"]["given_up_by"] is not None)
    swapper = views[at]["out_of_play"]["given_up_by"]
    assert swapper != 0 and sorted(views[at]["open_hands"][swapper]) == sorted(record["deal"]["widow"])
    for size, tag in ((DESKTOP, "1280x800"), (PHONE, "390x844")):
        page = replay_page(browser, server.url, table, token, viewport=size)
        page.wait_for_selector(".moves .move", state="attached")
        assert page.locator(".open-out").count() == 0
        page.get_by_role("button", name="Show all hands").click()
        page.wait_for_selector(".open-out")
        out = page.locator(".open-out")
        assert out.locator(".who").inner_text() == "Widow"
        assert out.locator(".card").evaluate_all("cs => cs.map((c) => c.getAttribute('aria-label'))") == card_words(
            record["deal"]["widow"])
        page.locator(".scrub").fill(str(at))
        assert step_shown(page) == at
        assert out.locator(".who").inner_text() == f"Given up by {record['players'][swapper]}, out of play"
        shown = out.locator(".card").evaluate_all("cs => cs.map((c) => c.getAttribute('aria-label'))")
        assert sorted(shown) == sorted(card_words(record["deal"]["hands"][swapper]))
        assert page.locator(".open-hand").count() == len(record["players"])
        # Legible: every open card at least 36 px wide, its corner (rank and suit) not covered by the next one,
        # everything inside the window, and every name whole (none cut short with an ellipsis).
        boxes = page.locator(".open-hands .card").evaluate_all(
            "cs => cs.map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.right, r.top]; })")
        assert all(right - left >= 36 for left, right, _top in boxes)
        assert all(right <= size["width"] for _left, right, _top in boxes)
        for (left, _r, top), (next_left, _nr, next_top) in itertools.pairwise(boxes):
            assert next_top != top or next_left - left >= 18, (left, next_left)
        cut = page.locator(".seat-name, .open-hands .who").evaluate_all(
            "es => es.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)")
        assert cut == [], cut
        page.screenshot(path=str(artifacts / f"replay-widow-{tag}.png"), full_page=True)
        assert not page.errors, page.errors
        page.context.close()


def uploaded(browser: Any, server: Any, tmp_path: Path, record: dict[str, Any], viewport: dict[str, int]) -> Any:
    """A new page at ``viewport`` that has opened the lobby and uploaded ``record`` to replay it."""
    (tmp_path / "long.json").write_text(json.dumps(record), encoding="utf-8")
    page = new_page(browser, viewport=viewport)
    page.goto(server.url + "/")
    page.set_input_files("#record-file", str(tmp_path / "long.json"))
    return page


def test_a_long_winners_name_leaves_the_headline_room_on_a_phone(browser: Any, server: Any, tmp_path: Path) -> None:
    """At 390 px the result's badge wrote "Annabelle Fitzgerald-Mon, this hand" in one line beside the figure, so the
    headline beside it had a word's width, ran past the window's edge and was cut off there. The badge now keeps to
    under half the line and wraps its words."""
    from rummoli.games import family

    record = family("stops").random_hand_record("tripoley", 4, "long-name-1")
    # Every seat a name of 24 letters: whoever the hand's winner is, the badge names them.
    record["players"] = ["Annabelle Fitzgerald-Mon", "Bartholomew Winterbottom", "Constantina Abernathy-Le",
                         "Demetria Vanderpoel-Hart"]
    page = uploaded(browser, server, tmp_path, record, PHONE)
    page.wait_for_selector(".replay-controls")
    page.keyboard.press("End")
    page.wait_for_selector(".result .headline")
    line, headline, result = (page.locator(f".result {part}").first.bounding_box()
                              for part in (".outcome-line", ".headline", ""))
    right = min(result["x"] + result["width"], PHONE["width"])
    assert headline["x"] + headline["width"] <= right + 1, (headline, result)
    assert headline["width"] >= line["width"] * .4, (headline, line)
    assert not page.errors, page.errors
    page.context.close()


def test_a_step_naming_a_long_name_stays_inside_the_move_list(browser: Any, server: Any, tmp_path: Path) -> None:
    """A QA pass replayed a Knock Rummy hand whose player was called "W" * 24: at 1280 x 800 the knock's step (its
    scores name every player) was as wide as that name and ran out of the move list, each of its lines cut off at
    the list's edge ("Bot 4 (easy) scores 26 for the differe")."""
    from rummoli.games import family

    record = family("rummy").random_hand_record("knock-rummy", 4, "long-name-2")
    record["players"][1] = "W" * 24
    page = uploaded(browser, server, tmp_path, record, DESKTOP)
    page.wait_for_selector(".moves .move")
    page.keyboard.press("End")
    past = page.evaluate("""() => [...document.querySelectorAll(".moves .move-text")].filter((text) => {
        const box = text.getBoundingClientRect(), list = text.closest(".moves").getBoundingClientRect();
        return box.right > list.right + 1 || text.scrollWidth > text.clientWidth + 1;
      }).map((text) => text.textContent)""")
    named = page.locator(".moves .move-text", has_text="W" * 24).count()
    assert named and not past, past
    assert not page.errors, page.errors
    page.context.close()


def finished_rummy(server: Any, seed: str) -> dict[str, Any]:
    """A one-hand straight Rummy evening against an easy bot, its person's seat played at random by a websocket
    client (melding whenever it can), at most about eight messages a second (the server's limit is ten)."""
    import time

    from server_helpers import choose

    created = server.create(ruleset="rummy", seats=[{}, {"bot": "easy"}], hands=1, pace="instant", seed=seed)
    ann = server.client(created["id"], created["token"])
    rng = random.Random(2)
    while not ann.view.get("over"):
        if ann.my_turn():
            seq = ann.seq
            ann.act(choose(ann.view, rng, eager=True))
            ann.until(lambda m, s=seq: m["type"] == "error" or (m["type"] == "update" and m["seq"] > s))
            time.sleep(0.12)
        else:
            ann.recv(20)
    ann.close()
    return created


def test_all_hands_show_a_rummy_stock_top_card_first(browser: Any, server: Any, artifacts: Path) -> None:
    """"Show all hands" at a Rummy hand shows its stock beside the hands, under its own label and top card first, as
    the open frames give it at each step: as dealt (less the upcard) at the start, what was left of it at the end."""
    created = finished_rummy(server, "web-replay-stock-1")
    table, token = created["id"], created["token"]
    record = server.get(f"/api/tables/{table}/record", token=token).json()["hands"][0]
    views = whole_views(server.get(f"/api/tables/{table}/hands/1/replay?open=1", token=token).json()["frames"])
    for size, tag in ((DESKTOP, "1280x800"), (PHONE, "390x844")):
        page = replay_page(browser, server.url, table, token, viewport=size)
        page.wait_for_selector(".moves .move", state="attached")
        page.get_by_role("button", name="Show all hands").click()
        page.wait_for_selector(".open-out")
        out = page.locator(".open-out")
        assert out.get_attribute("data-out") == "stock"
        assert out.locator(".who").inner_text() == "Stock, top card first"
        labels = "cs => cs.map((c) => c.getAttribute('aria-label'))"
        assert out.locator(".card").evaluate_all(labels) == card_words(record["deal"]["stock"][1:])
        page.keyboard.press("End")
        page.wait_for_selector(".result")
        assert out.locator(".card").evaluate_all(labels) == card_words(views[-1]["out_of_play"]["cards"])
        page.screenshot(path=str(artifacts / f"replay-stock-{tag}.png"), full_page=True)
        assert not page.errors, page.errors
        page.context.close()
