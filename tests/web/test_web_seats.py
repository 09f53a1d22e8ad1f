"""A seat's page at a finished evening, and the players' names as the page draws them, against a real server in
Chromium.

Once the evening is over there is no seat to give up: the page offers the way back to the lobby instead of "Leave",
and the seat keeps its record (the server refuses a leave then: tests/server/test_server_http.py). Before the start,
"Leave" says what it does: the seat opens again. A name draws its combining marks inside its own box: the server
refuses a pile of them on one letter (more than 3), and the page clips what a name it is given anyway (one kept from
before that check, an uploaded record's) would draw over the rows around it, while the accents of real names are
drawn whole."""

from __future__ import annotations

import io
import math
import random
from typing import Any

import numpy as np
import pytest
from expected import evening_figures
from PIL import Image
from server_helpers import Server, play
from web_helpers import DESKTOP, PHONE, hold_seat, new_page

VIETNAMESE = "Nguyễn Thị Phương"
CAPITALS = "ĐẶNG VĂN LỄ"  # two marks on a capital letter: the tallest accents of real names
MOST = "Z\u0316\u0317\u0318e\u0301\u0300\u0303d\u0316\u0317\u0318"  # three marks on each letter: the most allowed
PILE = "a" + "\u0301\u0316\u0300\u0317" * 5 + "\u0301\u0316\u0300"  # the QA pass's: 23 marks on one letter, 24 long

# Each text of the page holding the name, with the box that must hold its ink: the text's own element, or for an
# inline one the block it is laid out in, grown by the clip margin where that box clips.
INK_BOXES = """(name) => {
  const boxes = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    if (!walk.currentNode.data.includes(name)) continue;
    let box = walk.currentNode.parentElement;
    while (getComputedStyle(box).display === "inline") box = box.parentElement;
    const style = getComputedStyle(box);
    const margin = style.overflowY === "clip" ? parseFloat(style.overflowClipMargin) || 0 : 0;
    const r = box.getBoundingClientRect();
    if (r.width && r.height) boxes.push([r.left - margin, r.top - margin, r.right + margin, r.bottom + margin]);
  }
  return boxes;
}"""
SHOW = """([name, shown]) => {
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    if (walk.currentNode.data.includes(name)) walk.currentNode.parentElement.style.visibility = shown ? "" : "hidden";
  }
}"""
RENAME = """([from, to]) => {
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const text = walk.currentNode;
    if (text.data.includes(from)) text.data = text.data.split(from).join(to);
  }
}"""
# The boxes that clip a name (or undo that: ``clip`` false), so that the page can be drawn both ways; the boxes, each
# grown by its letters' height, where a clip could have hidden something.
CLIPPING = """([names, clip]) => {
  const near = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!names.some((n) => el.textContent.includes(n))) continue;
    if (clip) el.style.overflow = "";
    else if (getComputedStyle(el).overflowY === "clip") {
      el.style.overflow = "visible";
      const r = el.getBoundingClientRect(), em = parseFloat(getComputedStyle(el).fontSize);
      near.push([r.left - em, r.top - em, r.right + em, r.bottom + em]);
    }
  }
  return near;
}"""


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A Michigan evening of one hand, over: VIETNAMESE (its creator), MOST, CAPITALS and a bot, and a chat line."""
    created = server.create(name=VIETNAMESE, ruleset="michigan", seats=[{}, {}, {}, {"bot": "easy"}], hands=1,
                            seed="web-seats")
    table = created["id"]
    tokens = [created["token"]]
    for name in (MOST, CAPITALS):
        joined = server.post(f"/api/tables/{table}/seats", {"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    clients = [server.client(table, token) for token in tokens]
    play(clients, random.Random(11), lambda: all(c.view.get("over") for c in clients), timeout=120)
    clients[1].send({"type": "chat", "text": f"well played, {CAPITALS}"})
    clients[1].until(lambda m: m["type"] == "chat", 5)
    for client in clients:
        client.close()
    record = server.get(f"/api/tables/{table}/record", token=tokens[1])
    assert record.status_code == 200, record.text
    return {"table": table, "tokens": tokens, "record": record.json()}


def open_finished(browser: Any, server: Server, finished: dict[str, Any], seat: int) -> Any:
    page = new_page(browser)
    hold_seat(page, server.url, finished["table"], finished["tokens"][seat], seat, finished["record"]["players"][seat],
              creator=seat == 0)
    page.goto(f"{server.url}/tables/{finished['table']}")
    page.wait_for_selector(".final [data-result=standing]")
    page.wait_for_function("() => !document.getElementById('conn').textContent")  # "Connected" shown, then gone
    return page


def test_a_finished_evening_offers_the_lobby_not_leave_and_the_seat_keeps_its_evening(
        browser: Any, server: Server, finished: dict[str, Any]) -> None:
    table, token, record = finished["table"], finished["tokens"][1], finished["record"]
    page = open_finished(browser, server, finished, 1)
    # What the page says of the evening is the record's: each seat's name and final chips.
    shown = page.evaluate("""() => [...document.querySelectorAll(".final .standings-table tbody tr")].map((tr) => {
        const figure = tr.querySelector("[data-result=standing]");
        return [Number(figure.dataset.seat), tr.children[1].textContent, figure.textContent]; })""")
    figures = evening_figures(record)
    players = enumerate(record["players"])
    assert sorted(shown) == [[seat, name, figures[("standing", str(seat))]] for seat, name in players]
    # No "Leave" (its confirm said a computer player would take the seat; the server answered 200 and the seat lost
    # its record, its replays and Play again): the way out is the lobby, on a phone (in the drawer) too.
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        leave = page.get_by_role("button", name="Leave", include_hidden=True)
        assert page.locator("[data-key=leave]").count() == 0 and leave.count() == 0
        assert page.locator("[data-key=to-lobby]").inner_text() == "Back to the lobby"
    page.click("[data-key=to-lobby]")
    page.wait_for_selector(".lobby")
    assert page.dialogs == [] and page.errors == []
    assert page.evaluate("(k) => JSON.parse(localStorage.getItem(k)).token", f"rummoli:seat:{table}") == token
    # The seat is still the player's, on the server's word: its record, its open replay, its name.
    assert server.get(f"/api/tables/{table}/record", token=token).json() == record
    assert server.get(f"/api/tables/{table}/hands/1/replay?open=1", token=token).status_code == 200
    seat = server.get(f"/api/tables/{table}").json()["seats"][1]
    assert (seat["name"], seat["person"], seat["open"]) == (MOST, True, False)


def test_leaving_before_the_start_says_the_seat_opens_again_and_it_does(browser: Any, server: Server) -> None:
    created = server.create(name="Ann", ruleset="michigan", seats=[{}, {}, {}])
    table = created["id"]
    bob = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
    page = new_page(browser)
    hold_seat(page, server.url, table, bob["token"], 1, "Bob", creator=False)
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector(".waiting")
    page.click("[data-key=leave]")
    page.wait_for_selector(".lobby")
    assert page.dialogs == ["Leave this table? Your seat opens again for someone else."]
    assert page.evaluate("(k) => localStorage.getItem(k)", f"rummoli:seat:{table}") is None
    seat = server.get(f"/api/tables/{table}").json()["seats"][1]
    assert (seat["name"], seat["open"]) == ("Seat 2", True)  # as the confirm said


def screenshot(page: Any) -> Any:
    return np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"), dtype=np.int16)


def within(shape: tuple[int, ...], boxes: list[list[float]]) -> Any:
    """The pixels of a screenshot inside ``boxes`` (and a pixel of antialiasing either side)."""
    mask = np.zeros(shape[:2], dtype=bool)
    for left, top, right, bottom in boxes:
        rows = slice(max(0, math.floor(top) - 1), math.ceil(bottom) + 1)
        mask[rows, max(0, math.floor(left) - 1):math.ceil(right) + 1] = True
    return mask


def ink_outside(page: Any, name: str) -> int:
    """How many pixels ``name`` draws outside the boxes it is written in: the page as it is against the page with the
    name's texts hidden (laid out the same), counted outside those boxes."""
    boxes = page.evaluate(INK_BOXES, name)
    assert boxes, f"{name!r} is nowhere on the page"
    shown = screenshot(page)
    page.evaluate(SHOW, [name, False])
    hidden = screenshot(page)
    page.evaluate(SHOW, [name, True])
    changed = np.abs(shown - hidden).max(axis=2) > 24
    return int((changed & ~within(changed.shape, boxes)).sum())


def clipped(page: Any, names: list[str]) -> bool:
    """Whether the page draws any of ``names`` otherwise than it would without the boxes that clip them (compared
    around those boxes: a repaint elsewhere may shade a pixel of the felt's rim otherwise)."""
    as_is = screenshot(page)
    near = page.evaluate(CLIPPING, [names, False])
    unclipped = screenshot(page)
    page.evaluate(CLIPPING, [names, True])
    changed = np.abs(as_is - unclipped).max(axis=2) > 24
    return bool((changed & within(changed.shape, near)).any())


def names_stay_in_their_boxes(page: Any, names: list[str]) -> None:
    """Every name draws inside its boxes, none of them clipped; and the pile of marks, put in MOST's place, draws
    inside them too (clipped)."""
    for name in names:
        assert ink_outside(page, name) == 0, name
    assert not clipped(page, names)
    page.evaluate(RENAME, [MOST, PILE])
    try:
        assert ink_outside(page, PILE) == 0
    finally:
        page.evaluate(RENAME, [PILE, MOST])


def test_a_names_marks_stay_in_its_own_box_and_a_pile_of_them_is_refused(browser: Any, server: Server,
                                                                           finished: dict[str, Any]) -> None:
    # The join form says the server's line for the QA pass's name, and the seat stays open.
    waiting = server.create(name=MOST, seats=[{}, {}, {"bot": "easy"}])["id"]
    page = new_page(browser)
    page.goto(f"{server.url}/tables/{waiting}")
    page.fill("#join-name", PILE)
    page.get_by_role("button", name="Take a seat").click()
    error = page.locator(".join .error")
    error.wait_for()
    page.wait_for_function("() => document.querySelector('.join .error').textContent")
    assert error.inner_text() == ("name: a name may not stack more than 3 combining marks on one character "
                                  '(found 23 on "a")')
    assert [s["open"] for s in server.get(f"/api/tables/{waiting}").json()["seats"]] == [False, True, False]
    names_stay_in_their_boxes(page, [MOST])  # the join page's list of seats

    # The finished table: the seats, the final standings and settlement, the chart's key, the score sheet, the chat
    # and the log, at both sizes (on a phone, the drawer closed and open).
    page = open_finished(browser, server, finished, 0)
    page.click(".score-sheet summary")
    names = [VIETNAMESE, MOST, CAPITALS]
    names_stay_in_their_boxes(page, names)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    names_stay_in_their_boxes(page, names)
    page.click(".drawer-toggle")
    page.wait_for_timeout(200)
    names_stay_in_their_boxes(page, names)
    assert page.errors == []
    page.set_viewport_size(DESKTOP)


# The invite page's and the waiting room's table: each seat's tile and what it says, the felt's box (the ring's
# ::before, inside its margins) and the colour a live table's tile of the same seat has.
RING = """() => {
  const ring = document.querySelector(".seat-list.ring");
  const r = ring.getBoundingClientRect(), style = getComputedStyle(ring);
  const words = getComputedStyle(ring, "::before"), after = getComputedStyle(ring, "::after");
  // On a phone the felt is the ::after and its words a row of their own (the ::before); on a wider page the ::before
  // is both, its words in its middle.
  const upright = after.content !== "none" && after.content !== "normal";
  const felt = upright ? after : words;
  const tracks = style.gridTemplateRows.split(" ").map(parseFloat);
  const k = parseInt(style.getPropertyValue("--label-row")) - 1, gap = parseFloat(style.rowGap);
  const labelTop = r.top + tracks.slice(0, k).reduce((a, b) => a + b, 0) + k * gap;
  const probe = document.createElement("div");
  document.body.append(probe);
  const tiles = [...ring.querySelectorAll("li")].map((li, i) => {
    probe.className = `seat seat-c${i % 8}`;
    const b = li.getBoundingClientRect(), name = li.querySelector("b, em");
    return { text: li.innerText.replace(/\\s+/g, " ").trim(), open: li.classList.contains("open"),
      nameLines: Math.round(name.getBoundingClientRect().height / parseFloat(getComputedStyle(li).lineHeight)),
      box: [b.left, b.top, b.right, b.bottom], colour: getComputedStyle(li).borderLeftColor,
      tableColour: getComputedStyle(probe).borderLeftColor };
  });
  probe.remove();
  const side = (name) => parseFloat(felt[`margin${name}`]);
  return { tiles, ring: [r.left, r.top, r.right, r.bottom], centre: words.content,
    felt: [r.left + side("Left"), r.top + side("Top"), r.right - side("Right"), r.bottom - side("Bottom")],
    label: upright ? [r.left, labelTop, r.right, labelTop + tracks[k]] : null,
    labelWidth: parseFloat(words.width),
    width: innerWidth, scrollWidth: document.scrollingElement.scrollWidth };
}"""


def seat_words(seat: dict[str, Any], here: bool) -> str:
    """A seat as the ring says it, from the server's summary."""
    if seat["open"]:
        return "open seat"
    bot = seat["bot"] and not seat["person"]
    note = "" if not bot else " (computer)" if seat["bot"] in seat["name"] else f" (computer, {seat['bot']})"
    return seat["name"] + note + ((" · here" if seat["connected"] else " · away") if here and seat["person"] else "")


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def check_ring(page: Any, server: Server, table: str, here: bool) -> None:
    """The seats are drawn round the felt, as the server has them: each tile says its seat's name (or that it is open),
    in the colour the table gives that seat, on the felt's edge, overlapping no other tile nor the felt's words (the
    game and the open seats: its middle, or on a phone the row across it), all inside the page's width."""
    ring = page.evaluate(RING)
    summary = server.get(f"/api/tables/{table}").json()
    assert [t["text"] for t in ring["tiles"]] == [seat_words(s, here) for s in summary["seats"]]
    assert [t["open"] for t in ring["tiles"]] == [s["open"] for s in summary["seats"]]
    opened = summary["open_seats"]
    assert summary["title"] in ring["centre"]
    assert (f"{opened} open seat" if opened else "every seat taken") in ring["centre"]
    left, top, right, bottom = ring["felt"]
    width, height = right - left, bottom - top
    middle = ring["label"] or [left + width * .3, top + height * .35, right - width * .3, bottom - height * .35]
    for k, tile in enumerate(ring["tiles"]):
        assert tile["colour"] == tile["tableColour"], tile
        assert overlap(tile["box"], ring["felt"]) and not overlap(tile["box"], middle), (tile, ring["felt"])
        assert ring["ring"][0] - 1 <= tile["box"][0] and tile["box"][2] <= ring["ring"][2] + 1, (tile, ring["ring"])
        assert not [other["text"] for other in ring["tiles"][k + 1:] if overlap(tile["box"], other["box"])], tile
    assert ring["scrollWidth"] <= ring["width"]
    # Room to read on a phone: a name in two lines at most, a computer's ("Bot 3 (easy)") in one, and the felt's words
    # at least half the table's width (they had 40%, the game's name in three lines, the tiles a third of the width
    # and bots' names broken in two).
    if ring["width"] <= 700:
        for tile in ring["tiles"]:
            assert tile["nameLines"] <= (1 if tile["text"].startswith("Bot ") or tile["open"] else 2), tile
        assert ring["labelWidth"] >= (ring["ring"][2] - ring["ring"][0]) / 2, ring


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_invite_page_and_the_waiting_room_draw_the_seats_round_the_table(browser: Any, server: Server,
                                                                               size: dict[str, int]) -> None:
    """The invite page and the waiting room looked like a form (a bullet list of seats, a name field the page's
    width): now the seats sit round a felt as at the table, the name field is short and the buttons beside it."""
    layouts = [[{}, {}], [{}, {}, {"bot": "easy"}, {"bot": "normal"}],
               [{}, {}, {}, {"bot": "easy"}, {}, {"bot": "hard"}, {"bot": "normal"}, {}]]
    for seats in layouts:
        created = server.create(name="Annabelle Montgomery-Sm", ruleset="michigan" if len(seats) > 2 else "gin-rummy",
                                seats=seats)
        table = created["id"]
        if len(seats) == 8:
            assert server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).status_code == 201
        guest = new_page(browser, viewport=size)
        guest.goto(f"{server.url}/tables/{table}")
        guest.wait_for_selector("#join-name")
        check_ring(guest, server, table, here=False)
        # A short field with its buttons at hand, all in sight without scrolling.
        field = guest.locator("#join-name").bounding_box()
        take = guest.get_by_role("button", name="Take a seat").bounding_box()
        assert field["width"] <= 300 and take["y"] + take["height"] <= size["height"], (field, take)
        creator = new_page(browser, viewport=size)
        hold_seat(creator, server.url, table, created["token"])
        creator.goto(f"{server.url}/tables/{table}")
        creator.wait_for_selector(".waiting .ring .mine")
        creator.wait_for_function("() => document.querySelector('.ring .mine').innerText.includes('here')")
        check_ring(creator, server, table, here=True)
        assert creator.locator(".ring li").nth(0).get_attribute("class").split()[-1] == "mine"  # your own seat
        start = creator.locator("[data-key=start-now]").bounding_box()
        assert start["y"] + start["height"] <= size["height"]
        assert guest.errors == [] and creator.errors == []
        guest.context.close()
        creator.context.close()


# Each seat tile's name: its text, its title, and whether any of it is cut off (an ellipsis, or lines clamped away).
SEAT_NAMES = """() => [...document.querySelectorAll(".seat .seat-name")].map((e) => ({
  text: e.textContent, title: e.title,
  cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 }))"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_long_names_that_begin_alike_are_told_apart_on_the_table(browser: Any, server: Server,
                                                                 size: dict[str, int]) -> None:
    """A seat's name was one line cut with an ellipsis: on a phone "Alexandra Montgomery-Sm" and "Alexandra
    Montgomery-Jo" were both "Alexandra…" (and "Alexandra Montgome…" on the wide page's own tile). Each name of 24
    letters is now whole on its tile, and the tile's title says it too."""
    names = ["Alexandra Montgomery-Sm", "Alexandra Montgomery-Jo", "Bartholomew Winterbottom"]
    created = server.create(name=names[0], ruleset="rummoli", seats=[{}, {}, {}, {"bot": "easy"}, {"bot": "easy"},
                                                                      {"bot": "easy"}], pace="slow")
    table = created["id"]
    joined = [server.post(f"/api/tables/{table}/seats", {"name": name}).json() for name in names[1:]]
    page = new_page(browser, viewport=size)
    hold_seat(page, server.url, table, joined[0]["token"], joined[0]["seat"], names[1], creator=False)
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector(".my-hand .card-btn")
    shown = page.evaluate(SEAT_NAMES)
    assert sorted(s["title"] for s in shown if not s["title"].startswith("Bot ")) == sorted(names), shown
    assert [s for s in shown if s["cut"]] == [], shown
    assert page.errors == []
    page.context.close()
