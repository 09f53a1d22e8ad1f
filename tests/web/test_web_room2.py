"""The card room in the browser (issue 32): the lobby names who waits, the join page names the game, two people
chat (as text, never HTML), play a short evening, read the score sheet (its figures are the evening record's)
and download it as CSV, then "Play again" puts each of them at the new table with one click."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

from server_helpers import Server
from web_helpers import DESKTOP, PHONE, hold_seat, new_page, play_out, play_together, rummy_turn, shoot, stops_turn


def seated(browser: Any, server: Server, table_id: str, token: str, name: str, waiting: bool = True) -> Any:
    page = new_page(browser)
    hold_seat(page, server.url, table_id, token, 0, name)
    page.goto(f"{server.url}/tables/{table_id}")
    page.wait_for_selector(".waiting" if waiting else ".my-hand .card-btn")
    return page


def record_results(server: Server, record: dict[str, Any]) -> list[dict[str, Any]]:
    """Each hand's result, from the evening record alone (each hand record played back by the server)."""
    out = []
    for hand in record["hands"]:
        answer = server.post("/api/replay", hand)
        assert answer.status_code == 200, answer.text
        out.append(answer.json()["result"])
    return out


def sheet_cells(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
        const rows = {};
        for (const tr of document.querySelectorAll('.score-sheet tr[data-hand]')) {
            rows[tr.dataset.hand] = [...tr.querySelectorAll('td[data-seat]')].map((td) => ({
                seat: Number(td.dataset.seat),
                change: td.querySelector('[data-sheet=change]')?.textContent ?? null,
                total: td.querySelector('[data-sheet=total], [data-sheet=final]')?.textContent ?? null,
                pots: [...td.querySelectorAll('[data-sheet=pots] .sheet-pot')].map((p) => p.title).join(', '),
                count: td.querySelector('[data-sheet=count]')?.textContent ?? null,
                closing: td.querySelector('[data-sheet=closing]')?.textContent ?? '',
            }));
        }
        return rows;
    }""")


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def test_two_people_chat_play_read_the_score_sheet_and_play_again(browser: Any, server: Server,
                                                                    artifacts: Path) -> None:
    created = server.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}], hands=2, seed="room2-web",
                            pace="instant", chips=40)
    table = created["id"]
    ann = seated(browser, server, table, created["token"], "Ann")
    assert ann.inner_text("[data-key='end']") == "Close the table"  # no evening to end before the first deal

    # The lobby: the game's title, its seats and who is waiting.
    lobby = new_page(browser)
    lobby.goto(server.url + "/")
    item = lobby.locator(".table-list li", has_text="Ann (here)")
    item.wait_for()
    assert "Michigan" in item.inner_text() and "Ann waiting · 1 open seat" in item.inner_text()
    # At both sizes in three lines: the game, who sits there, then how far it is with its buttons beside it.
    for size in (DESKTOP, PHONE):
        lobby.set_viewport_size(size)
        tops = item.evaluate("""(li) => Object.fromEntries(["t-name", "t-seats", "t-state"]
          .map((c) => [c, li.querySelector("." + c).getBoundingClientRect().top])
          .concat([...li.querySelectorAll("a.button")].map((b) => [b.textContent, b.getBoundingClientRect().top])))""")
        assert tops["t-name"] < tops["t-seats"] < tops["t-state"], (size, tops)
        assert abs(tops["Join"] - tops["Watch"]) < 2 and tops["Join"] < tops["t-state"] + 20, (size, tops)
    lobby.context.close()

    # The join page names the game by its title, options, chips and length.
    bob = new_page(browser)
    bob.goto(f"{server.url}/tables/{table}")
    bob.wait_for_selector(".game-facts")
    assert bob.inner_text("[data-fact=title]") == "Michigan"
    assert bob.inner_text("[data-fact=chips]") == "40 each" and bob.inner_text("[data-fact=hands]") == "2 hands"
    assert bob.locator("[data-fact=options] li").count() > 0
    seats = bob.locator(".seat-list li").all_inner_texts()  # the level once: the bot's name already says it
    assert "Bot 3 (easy) (computer)" in seats and not any("(computer, easy)" in t for t in seats), seats
    shoot(bob, artifacts, "room2-join")
    bob.fill("#join-name", "Bob")
    bob.get_by_role("button", name="Take a seat").click()
    for page in (ann, bob):
        page.wait_for_selector(".my-hand .card-btn")
    assert ann.inner_text("[data-key='end']") == "End evening"  # it read so in the waiting room too (checked above)

    # Chat: a line that looks like markup is shown as text; a quick reaction.
    markup = "<b>hi Bob</b> <img src=x onerror=alert(1)>"
    ann.fill("#chat-text", markup)
    ann.get_by_role("button", name="Send", exact=True).click()
    bob.wait_for_selector(".chat-line[data-seat='0']")
    assert bob.inner_text(".chat-line[data-seat='0'] .said") == markup
    assert bob.locator(".chat-line img, .chat-line .said b").count() == 0
    assert bob.inner_text(".chat-line[data-seat='0'] .who") == "Ann"
    bob.get_by_role("button", name="Good hand").click()
    ann.wait_for_selector(".chat-line[data-seat='1']")
    assert ann.inner_text(".chat-line[data-seat='1']") == "Bob: Good hand"
    # The thumbs-up is drawn by the page (no emoji font needed), named for screen readers, on its button and its line.
    thumb = bob.get_by_role("button", name="Thumbs up")
    assert thumb.locator("svg path").count() == 1 and thumb.inner_text().strip() == ""
    thumb.click()
    ann.wait_for_selector(".chat-line[data-seat='1'] + .chat-line[data-seat='1']")
    line = ann.locator(".chat-line[data-seat='1']").last
    assert line.locator(".said svg path").count() == 1 and line.locator(".said .sr-only").inner_text() == "Thumbs up"
    shoot(ann, artifacts, "room2-chat")

    # A short evening, both playing through their pages.
    play_together([ann, bob], stops_turn, [set(), set()])
    assert ann.locator(".final").count() and bob.locator(".final").count(), "the evening did not end"

    # The score sheet: its figures are the evening record's.
    ann.locator(".score-sheet summary").click()
    record = server.get(f"/api/tables/{table}/record", token=created["token"]).json()
    results = record_results(server, record)
    cells = sheet_cells(ann)
    assert len(results) == 2 and set(cells) == {"1", "2", "board", "final"}  # Michigan shares out its board
    for hand_no, result in enumerate(results, start=1):
        row = {c["seat"]: c for c in cells[str(hand_no)]}
        for change in result["changes"]:
            assert row[change["seat"]]["change"] == signed(change["change"]), (hand_no, change)
            assert row[change["seat"]]["total"] == str(change["after"]), (hand_no, change)
        for seat in row:
            won = [w for w in result["pots_won"] if w["seat"] == seat]
            assert row[seat]["pots"] == ", ".join(f"{w['name']}: {w['amount']}" for w in won)
    finals = {c["seat"]: c["total"] for c in cells["final"]}
    assert finals == {s["seat"]: str(s["chips"]) for s in record["standings"]}
    # The final totals are the last hand's plus what the board paid each seat, both on the sheet (the row was missing).
    shared = {c["seat"]: sum(int(x) for x in c["closing"].split()) for c in cells["board"]}
    assert sum(shared.values()) > 0, cells["board"]
    assert all(int(c["total"]) + shared[c["seat"]] == int(finals[c["seat"]]) for c in cells["2"]), (cells, shared)
    shoot(ann, artifacts, "room2-score-sheet")
    ann.locator(".score-sheet").screenshot(path=str(artifacts / "room2-score-sheet-panel.png"))

    # ... and downloads as CSV.
    with ann.expect_download() as download:
        ann.locator("[data-key='sheet-csv']").click()
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text("utf-8"))))
    assert rows[0][:4] == ["hand", "Ann change", "Ann total", "Ann pots won"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "board", "final"]
    assert rows[1][1:3] == [cells["1"][0]["change"], cells["1"][0]["total"]]

    # Play again: Ann makes the new table; Bob is invited on his page and takes his seat with one click.
    ann.locator("[data-key='play-again']").click()
    ann.wait_for_url(lambda url: table not in url and "/tables/" in url)
    new_id = ann.url.rsplit("/", 1)[1]
    bob.wait_for_selector("[data-key='take-again']")
    assert "Ann started another evening" in bob.inner_text(".again")
    shoot(bob, artifacts, "room2-invited")
    bob.locator("[data-key='take-again']").click()
    bob.wait_for_url(f"**/tables/{new_id}")
    for page in (ann, bob):
        page.wait_for_selector(".my-hand .card-btn")
        assert page.locator(".hand-no").inner_text().startswith("Hand 1 of 2")
    summary = server.get(f"/api/tables/{new_id}").json()
    assert [(s["name"], s["connected"]) for s in summary["seats"][:2]] == [("Ann", True), ("Bob", True)]
    # Bob's page never received Ann's seat token for the new table.
    ann_new = json.loads(ann.evaluate(f"() => localStorage.getItem('rummoli:seat:{new_id}')"))["token"]
    assert all(ann_new not in (f if isinstance(f, str) else f.decode()) for f in bob.frames_in)
    shoot(bob, artifacts, "room2-new-table")
    for page in (ann, bob):
        assert not page.errors, page.errors
        page.context.close()


def test_a_rummy_score_sheet_gives_each_hands_points_and_counts(browser: Any, server: Server,
                                                                 artifacts: Path) -> None:
    created = server.create(ruleset="rummy", seats=[{}, {"bot": "easy"}], hands=1, seed="web-rummy-1")
    page = seated(browser, server, created["id"], created["token"], "Ann", waiting=False)
    play_out(page, rummy_turn, set(), timeout=150)
    page.locator(".score-sheet summary").click()
    record = server.get(f"/api/tables/{created['id']}/record", token=created["token"]).json()
    (result,) = record_results(server, record)
    row = {c["seat"]: c for c in sheet_cells(page)["1"]}
    counts = {hand["seat"]: hand["count"] for hand in result["hands"]}
    for change in result["changes"]:
        assert row[change["seat"]]["change"] == signed(change["change"])
        assert row[change["seat"]]["total"] == str(change["after"])
        assert row[change["seat"]]["count"] == f"count {counts[change['seat']]}"
    page.locator(".score-sheet").screenshot(path=str(artifacts / "room2-rummy-sheet.png"))
    with page.expect_download() as download:
        page.locator("[data-key='sheet-csv']").click()
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text("utf-8"))))
    assert rows[0][3] == "Ann count" and rows[1][3] == str(counts[0])
    assert not page.errors, page.errors
    page.context.close()


# The score sheet's name headers cut inside a word (a piece between spaces and hyphens) narrower than the piece.
HEADERS_CUT = """() => [...document.querySelectorAll('.sheet thead th + th')].filter((th) => {
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    const font = getComputedStyle(th);  // its parts: the shorthand reads "" beside tabular figures
    for (const key of ['fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'letterSpacing']) {
      probe.style[key] = font[key];
    }
    document.body.append(probe);
    const widest = Math.max(...th.textContent.split(/[\\s-]+/).map((w) => { probe.textContent = w;
      return probe.getBoundingClientRect().width; }));
    probe.remove();
    const cs = getComputedStyle(th);
    return th.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) + 0.5 < widest;
  }).map((th) => th.textContent)"""


# The score sheet's header: its height, a text line's, and how many lines each name takes.
HEADER_LINES = """() => {
    const head = document.querySelector('.sheet thead');
    const word = document.createRange();
    word.selectNodeContents(head.querySelector('th'));  // "Hand": a line of text
    const line = word.getBoundingClientRect().height;
    const lines = [...head.querySelectorAll('th')].map((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    return { height: head.getBoundingClientRect().height, line, lines };
  }"""


def test_the_score_sheet_on_a_phone_breaks_names_between_words_and_scrolls_sideways(browser: Any, server: Server,
                                                                                  artifacts: Path) -> None:
    """Four players on a phone: a name is never cut inside a word ("Fitzgerald", not "Fitzger" over "ald"), and the
    sheet scrolls sideways within its box rather than squeezing the words. Its header is one line, on a phone as on
    a laptop: each name on a line of its own column (it was one line a word, "Annabelle" over "Fitzgerald-" over
    "Mon", and "Bot 2" over "(easy)", a header three lines tall above a sheet that has little room to show)."""
    created = server.create(ruleset="rummy", seats=[{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}], hands=1,
                            seed="web-rummy-1", name="Annabelle Fitzgerald-Mon")
    page = seated(browser, server, created["id"], created["token"], "Annabelle Fitzgerald-Mon", waiting=False)
    play_out(page, rummy_turn, set(), timeout=150)
    page.locator(".score-sheet summary").click()  # opened on the wide page, then looked at in the phone's drawer
    page.wait_for_selector(".sheet thead th")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    page.click(".drawer-toggle")
    page.wait_for_timeout(200)
    assert page.locator(".sheet thead th").count() == 5
    page.locator(".score-sheet").screenshot(path=str(artifacts / "room2-sheet-phone.png"))
    assert page.evaluate(HEADERS_CUT) == []
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        header = page.evaluate(HEADER_LINES)
        assert header["lines"] == [1] * 5 and header["height"] < 2 * header["line"], (size, header)
    # the page itself does not scroll sideways: only the sheet's own box does
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert not page.errors, page.errors
    page.context.close()


# Each hand row's height and a line of the sheet's text; and each pot won as written (its short label, its title).
SHEET_ROWS = """() => {
    const word = document.createRange();
    word.selectNodeContents(document.querySelector('.sheet thead th'));  // "Hand": a line of text
    const line = word.getBoundingClientRect().height;
    const rows = [...document.querySelectorAll('.sheet tbody tr')].map((tr) => ({
      height: tr.getBoundingClientRect().height,
      most: Math.max(0, ...[...tr.querySelectorAll('td')].map((td) => td.querySelectorAll('.sheet-pot').length)) }));
    const broken = [...document.querySelectorAll('.sheet .sheet-pot')].filter((p) => {
      const range = document.createRange();
      range.selectNodeContents(p);
      return new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top))).size > 1;
    }).map((p) => p.title);
    const pots = [...document.querySelectorAll('.sheet .sheet-pot')].map((p) => ({
      shown: [...p.childNodes].filter((n) => !(n.classList && n.classList.contains('sr-only')))
        .map((n) => n.textContent).join(''),
      title: p.title, name: p.dataset.name }));
    return { line, rows, pots, broken };
  }"""


def test_the_score_sheet_on_a_phone_writes_pots_short_and_never_breaks_one(browser: Any, server: Server,
                                                                                   artifacts: Path) -> None:
    """A Rummoli evening's sheet: each pot won is written by its cards ("10♠ 4" for the Ten of spades), its full
    name in its title and for a screen reader; a pot is never broken across lines, and a hand's row is its figures'
    line and its pots two to a line, on a phone as on a laptop. Pot names written out in full broke in the column a
    phone's width gives ("Ace of" over "spades 4"): a hand's row was four lines tall for one pot, nine for five."""
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}],
                            hands=3, seed="sheet-look", pace="instant", name="Annabelle")
    page = seated(browser, server, created["id"], created["token"], "Annabelle", waiting=False)
    play_out(page, stops_turn, set(), timeout=150)
    page.locator(".score-sheet summary").click()
    page.wait_for_selector(".sheet tbody tr")
    page.locator(".score-sheet").screenshot(path=str(artifacts / "room2-sheet-pots-1280x800.png"))
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    page.click(".drawer-toggle")
    page.wait_for_timeout(200)
    page.locator(".score-sheet").screenshot(path=str(artifacts / "room2-sheet-pots-390x844.png"))
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        sheet = page.evaluate(SHEET_ROWS)
        assert len(sheet["rows"]) == 3 and sheet["broken"] == [], (size, sheet)
        # the figures' line, then the pots two to a line
        assert all(row["height"] < (2 + math.ceil(row["most"] / 2)) * sheet["line"] for row in sheet["rows"]), sheet
        assert any(row["most"] >= 2 for row in sheet["rows"]), sheet  # a seat won two pots in one hand
        # the page itself does not scroll sideways: only the sheet's own box does
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), size
    by_name = {p["name"]: p["shown"] for p in sheet["pots"]}
    cards = {"Ten of spades": "10♠", "Jack of diamonds": "J♦", "Queen of clubs": "Q♣", "King of hearts": "K♥",
             "Ace of spades": "A♠", "King and ace of diamonds": "K♦A♦", "7-8-9 of one suit": "7-8-9"}
    assert set(by_name) & set(cards), by_name  # a card's pot was won: its label is the cards
    for pot in sheet["pots"]:
        assert pot["shown"].rsplit(" ", 1)[0] == cards.get(pot["name"], pot["name"]), pot
        assert pot["title"] == f"{pot['name']}: {pot['shown'].rsplit(' ', 1)[1]}", pot
    assert not page.errors, page.errors
    page.context.close()
