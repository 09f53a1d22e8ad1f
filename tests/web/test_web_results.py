"""The web table tells the truth and keeps pace with the game (issue 30), and is a card room on a desktop and on a
phone: for every built-in ruleset a person plays a short evening through the page's own controls at a paced table
of the ruleset's largest usual size, and

- at each hand's end and at the evening's end every figure the page shows (its ``data-result`` hooks) is compared
  with the evening's record, worked out independently of the page and of the server's result code
  (tests/web/expected.py);
- the page's lag, from the websocket frame that ends a hand to the hand's result on screen, is measured in the page
  itself and must stay under a second; it is printed and written to test-artifacts/lag.txt;
- before and after each of the person's actions, and at each result, the page is looked at on a 390 x 844 phone and
  at 1280 x 800 (tests/web/room_look.py: nothing scrolls, the table's parts are in sight and do not overlap, the
  phone's text is at least 14 px, the focus stays on the table)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from expected import Figures, evening_figures, hand_figures
from room_look import Walk
from server_helpers import Server
from test_web_poch import poch_turn
from web_helpers import (
    DESKTOP,
    PHONE,
    assert_no_foreign_cards,
    hold_seat,
    new_page,
    rummy_turn,
    shoot,
    stops_turn,
)

from rummoli.wording import departures

STOPS = ["rummoli", "rummoli-tripoley", "tripoley", "michigan"]
RUMMY = ["rummy", "rummy-aces-high", "block-rummy", "boathouse-rummy", "500-rum", "knock-rummy", "gin-rummy"]
POCH = ["poch", "poch-hoyle"]
LAG_LIMIT_MS = 1000

# Timestamps, in the page's own clock, of the frame that brought each hand's end (a hand_over event) and of the
# moment that hand's result was first on screen, with the played cards shown then and in the frame's view.
LAG_PROBE = """
(() => {
  const lag = window.__lag = { frame: {}, shown: {}, playedShown: {}, playedView: {} };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // Added before the page's own listener, so it runs first: the frame's arrival, not its handling.
      this.addEventListener("message", (e) => {
        const at = performance.now();
        let m;
        try { m = JSON.parse(e.data); } catch { return; }
        for (const ev of m.events || []) {
          if (ev.type === "hand_over" && !(ev.hand_no in lag.frame)) {
            lag.frame[ev.hand_no] = at;
            lag.playedView[ev.hand_no] = m.view?.hand?.played ? m.view.hand.played.length : null;
          }
        }
      });
    }
  };
  new MutationObserver(() => {
    for (const n of Object.keys(lag.frame)) {
      if (n in lag.shown) continue;
      const block = document.querySelector(`[data-result-hand="${n}"]`);
      if (block && block.querySelector('[data-result="hand-change"]')) {
        lag.shown[n] = performance.now();
        lag.playedShown[n] = document.querySelectorAll(".run .laid").length;
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();
"""

READ_FIGURES = """() => [...document.querySelectorAll('[data-result]')].map((el) => ({
  hook: el.dataset.result, seat: el.dataset.seat ?? null, pot: el.dataset.pot ?? null,
  hand: el.dataset.hand ?? null, settlement: el.hasAttribute('data-settlement'),
  reason: el.dataset.reason ?? null, outcome: el.dataset.outcome ?? null, text: el.textContent }))"""


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Forced plays one per update every 0.1 s (the server paces, the page must keep up), bots at once, and a
    30 s countdown between hands that the test's "Next hand" cuts short."""
    running = Server(tmp_path_factory.mktemp("paced"), "--play-pace", "0.1", "--hand-pause", "30").start()
    try:
        yield running
    finally:
        running.stop()


def page_figures(page: Any) -> Figures:
    """Every figure the page shows, keyed as expected.py keys them; each hook names one figure once."""
    figures: Figures = {}
    for el in page.evaluate(READ_FIGURES):
        hook = el["hook"]
        if hook == "outcome":
            assert el["outcome"], "the outcome names the ending (data-outcome)"
            key: tuple[str, ...] = ("outcome", el["reason"])
        elif hook == "pot-win":
            key = ("pot-win", el["pot"], el["seat"], "settlement" if el["settlement"] else el["hand"])
        else:
            key = (hook, el["seat"])
        assert key not in figures, f"two elements show {key}"
        assert el["text"].strip() == el["text"] and el["text"], f"{key}: the figure alone, got {el['text']!r}"
        figures[key] = el["text"]
    return figures


# What a long name can push out of its box: the standings, a hand's changes, the chart's key, a meld's owner, the
# headline (tables wider than their panel; anything past the window's right edge).
PAST_THEIR_BOX = """() => [...document.querySelectorAll(
    ".standings-table, .changes, .legend, .meld-owner, .headline, .phase, .result .who")].filter((el) => {
    const box = el.getBoundingClientRect(), around = el.parentElement.getBoundingClientRect();
    return box.width && (box.right > innerWidth + 1 || (el.matches("table") && box.right > around.right + 1));
  }).map((el) => el.className)"""


# The result's chip counts (a pot won, a payment) that broke over two lines: beside a long sentence a two-digit
# count was squeezed to its least width, one digit a line.
COUNTS_BROKEN = """() => [...document.querySelectorAll(".result .chip-count")].filter((el) =>
    el.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(el).fontSize)).map((el) => el.textContent)"""


def open_with_probe(browser: Any, server: Server, created: dict[str, Any]) -> Any:
    page = new_page(browser)
    page.add_init_script(LAG_PROBE)
    hold_seat(page, server.url, created["id"], created["token"], created["seat"])
    page.goto(f"{server.url}/tables/{created['id']}")
    page.wait_for_selector(".my-hand .card-btn")
    return page


WAIT = """(n) => document.querySelector('.final')
  || document.querySelector(`[data-result-hand="${n}"]`)
  || (document.querySelector('.phase.my-turn') && !document.querySelector('.pending'))"""


MOVED_ON = """(n) => document.querySelector('.awaited') || document.querySelector('.final')
  || !document.querySelector(`[data-result-hand="${n}"]`)"""


def play_evening(page: Any, turn: Any, seen: set[str], on_hand_end: Any, timeout_ms: int = 60000) -> dict[int, Figures]:
    """Play through the page until the evening is over; at each hand's end read its figures, call
    ``on_hand_end(hand_no)`` and press "Next hand". Returns the figures read at each hand's end (the last hand's
    too when the page showed it before the evening's end)."""
    read: dict[int, Figures] = {}
    hand_no = 1
    for _ in range(2000):
        page.wait_for_function(WAIT, arg=hand_no, timeout=timeout_ms)
        if page.locator(".final").count():
            return read
        if page.locator(f"[data-result-hand='{hand_no}']").count():
            read[hand_no] = page_figures(page)
            on_hand_end(hand_no)
            page.wait_for_selector(".final, [data-key='next-hand']", timeout=timeout_ms)
            if page.locator(".final").count():
                return read
            label = page.evaluate("() => document.querySelector(\"[data-key='next-hand']\")?.textContent ?? null")
            assert label in ("Next hand", None), label
            page.locator("[data-key='next-hand']").click()
            page.wait_for_function(MOVED_ON, arg=hand_no, timeout=20000)
            hand_no += 1
            continue
        turn(page, seen)
    raise AssertionError("the evening did not end")


def compare(where: str, shown: Figures, expected: Figures) -> None:
    missing = {k: v for k, v in expected.items() if k not in shown}
    wrong = {k: (shown[k], v) for k, v in expected.items() if k in shown and shown[k] != v}
    extra = {k: v for k, v in shown.items() if k not in expected}
    assert not missing and not wrong and not extra, \
        f"{where}: missing {missing}, wrong (shown, record) {wrong}, extra {extra}"


def note_lags(ruleset: str, lags: dict[int, float], artifacts: Path) -> None:
    """Print the lags and keep them: one file per ruleset (tests run in parallel workers), gathered into lag.txt."""
    line = f"{ruleset}: " + ", ".join(f"hand {n} {ms:.1f} ms" for n, ms in sorted(lags.items()))
    print("page lag from a hand's end to its result on screen:", line)
    folder = artifacts / "lag"
    folder.mkdir(exist_ok=True)
    (folder / f"{ruleset}.txt").write_text(line + "\n")
    order = {name: k for k, name in enumerate([*STOPS, *RUMMY, *POCH, "michigan-players-leave"])}
    kept = sorted(folder.glob("*.txt"), key=lambda p: order.get(p.stem, len(order)))
    (artifacts / "lag.txt").write_text("".join(p.read_text() for p in kept))


# What the person must have met through the page in these seeded evenings (gin-17: a knock, then a gin).
MUST_SEE = {"rummoli": {"best_five", "poker", "auction"}, "gin-rummy": {"gin", "knock", "upcard"},
            "knock-rummy": {"knock"}, "500-rum": {"meld", "laid"}, "poch": {"vie"}, "poch-hoyle": {"vie"}}
# Each built-in ruleset for a short evening at its largest usual table (Rummy seats at most 6; Gin is for two; 500 Rum
# at four, where its seed lays melds): two hands (the page between them, and standings over more than one) for each
# family's main game and wherever the person must meet something, one hand for the variants; and Michigan with short
# stacks, where players who cannot ante leave, so a hand's seats are not the evening's (the page must show every
# figure at the evening seat it belongs to).
TWO_HANDS = {"rummoli", "rummy", *MUST_SEE}
SEATS = {"rummoli": 8, "rummoli-tripoley": 8, "tripoley": 4, "michigan": 8, "rummy": 6, "rummy-aces-high": 4,
         "block-rummy": 6, "boathouse-rummy": 4, "500-rum": 4, "knock-rummy": 4, "gin-rummy": 2, "poch": 6,
         "poch-hoyle": 4}
CASES = [pytest.param(r, SEATS[r], None, 2 if r in TWO_HANDS else 1,
                      "gin-17" if r == "gin-rummy" else "results-500-rum-4" if r == "500-rum" else f"results-{r}", id=r)
         for r in STOPS + RUMMY + POCH] + [pytest.param("michigan", 4, 15, 3, "broke-10", id="michigan-players-leave")]


@pytest.mark.parametrize(("ruleset", "players", "chips", "hands", "seed"), CASES)
def test_an_evening_through_the_page_shows_the_records_figures(browser: Any, paced: Server, artifacts: Path,
                                                               request: pytest.FixtureRequest, ruleset: str,
                                                               players: int, chips: int | None, hands: int,
                                                               seed: str) -> None:
    stops = ruleset in STOPS
    # 500 Rum's person has the longest name a seat may have, with no space to break it at (it ran out of tables).
    created = paced.create(ruleset=ruleset, seats=[{}] + [{"bot": "easy"}] * (players - 1), hands=hands, seed=seed,
                           name="W" * 24 if ruleset == "500-rum" else "Ann",
                           chips=chips)
    page = open_with_probe(browser, paced, created)
    walk = Walk(page, artifacts, f"room-{request.node.callspec.id}-{players}")
    walk.deal()
    seen: set[str] = set()

    def hand_end(hand_no: int) -> None:
        # At both sizes: the room's look (each seat's count and this hand's change within its tile, the showdown's
        # rows unsqueezed, nothing scrolling), and the result's tables and names within their boxes.
        walk.result(f"hand {hand_no}'s result")
        for size in (PHONE, DESKTOP):
            page.set_viewport_size(size)
            past = page.evaluate(PAST_THEIR_BOX)
            assert not past, f"hand {hand_no} at {size}: text runs out of its box: {past}"
            broken = page.evaluate(COUNTS_BROKEN)
            assert not broken, f"hand {hand_no} at {size}: a count broke over lines: {broken}"
        figure = page.locator(".result .outcome-figure")  # a winner who came out behind: the loss looks like one
        assert figure.inner_text().startswith("-") == ("down" in (figure.get_attribute("class") or ""))
        if hand_no == 1 and ruleset in ("rummoli", "gin-rummy"):
            shoot(page, artifacts, "stops-hand-over" if stops else "gin-hand-over")
        if stops or ruleset in POCH:  # the showdown's cards come from the result, its winner marked
            shown = page.locator(".result .showdown .shown")
            assert shown.count() == 0 or page.locator(".result .showdown .winner .badge").count() >= 1
            if shown.count():  # what the winner won, in the result's words: Poch's vying has no Poker pot
                badge = (page.locator(".result .showdown .winner .badge").first.text_content() or "").strip()
                assert badge == ("wins the vying" if ruleset in POCH else "wins the Pot" if "tripoley" in ruleset
                                 else "wins the Poker pot"), badge
        else:  # the one who went out of a 500 Rum hand has not won it: every seat scores what it laid (R-500-4)
            won = page.locator(".result .settled.winner .badge").all_text_contents()
            assert [t.strip() for t in won] in ([], ["goes out" if ruleset == "500-rum" else "wins the hand"]), won

    def turn(page: Any, seen: set[str]) -> None:
        if ruleset == "500-rum":  # what each seat has laid this hand, on its tile as the last view says
            hv = next(json.loads(f)["view"]["hand"] for f in reversed(page.frames_in)
                      if f.startswith(('{"type":"update"', '{"type":"welcome"')))
            tags = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(".seat")].map((s) =>
              [s.dataset.seat, s.querySelector(".tag.laid-points")?.textContent ?? null]))""")
            laid = hv["points"]
            assert tags == {str(i): f"laid {p}" if p else None for i, p in enumerate(laid)}, (tags, laid)
            seen.update(["laid"] if any(tags.values()) else [])
        if ruleset == "gin-rummy" and "gin" not in seen and page.locator(".controls button.gin").count():
            shoot(page, artifacts, "gin-offered")  # the gin button, the default, before it is pressed
        walk.act(lambda: (poch_turn if ruleset in POCH else stops_turn if stops else rummy_turn)(page, seen))

    read = play_evening(page, turn, seen, hand_end)
    walk.result("the evening's end")
    walk.write_metrics()
    print(ruleset, "played through the page:", sorted(seen))
    assert MUST_SEE.get(ruleset, set()) <= seen, seen
    final = page_figures(page)
    if ruleset in ("rummoli", "gin-rummy"):
        shoot(page, artifacts, "evening-over" if stops else "gin-evening-over")
    record = paced.get(f"/api/tables/{created['id']}/record", token=created["token"]).json()
    assert record["format"] == "rummoli-evening/1"
    hands = len(record["hands"])
    assert set(read) | {hands} == set(range(1, hands + 1)), "every hand's end was read"
    if seed == "broke-10":
        assert any(len(h["players"]) < players for h in record["hands"]), "nobody left: choose another seed"
    for hand_no, shown in read.items():
        compare(f"{ruleset} hand {hand_no}", shown, hand_figures(record, hand_no))
    compare(f"{ruleset} evening's end", final, {**hand_figures(record, hands), **evening_figures(record)})
    # A Gin game the evening's hands stopped before 100 adds no bonus, and the page says so under the standings.
    bonused = any(entry["type"] == "bonus" for entry in record["ledger"])
    notes = page.locator(".final .end-note").all_inner_texts()
    # Who left after the last hand, unable to ante, when that ended the evening early, is said there too (R-ANTE-1).
    gone = departures(record["ledger"]).strip()
    assert notes == (["The game stopped before anyone reached 100 points, so no game or box bonus is added "
                      "(R-GIN-7)."] if ruleset == "gin-rummy" and not bonused else [gone] if gone else []), notes

    # The board at the evening's end is the board after the settlement: every chip shared out, none left drawn in a
    # pot (the page once drew the last hand's pots beside "The board is settled").
    if record.get("settlement"):
        left = page.evaluate("() => [...document.querySelectorAll('.board [data-pot] .pot-count')]"
                             ".map((e) => e.textContent)")
        assert left and set(left) == {"0"}, left

    # The chart holds the evening: a point before the first hand and one after each, its last the final standings.
    chart = page.locator(".chip-chart")
    assert int(chart.get_attribute("data-points") or 0) >= hands + 1
    lines = dict(part.rsplit(": ", 1) for part in (chart.get_attribute("aria-label") or "").split("; "))
    for seat, name in enumerate(record["players"]):
        last = float(lines[name].split(", ")[-1])
        assert abs(last - float(Fraction(final[("standing", str(seat))]))) < 1e-6, (name, lines[name])

    lag = page.evaluate("() => window.__lag")
    lags = {int(n): lag["shown"][n] - lag["frame"][n] for n in lag["frame"] if n in lag["shown"]}
    assert sorted(lags) == list(range(1, hands + 1)), lag
    note_lags(request.node.callspec.id, lags, artifacts)
    assert max(lags.values()) < LAG_LIMIT_MS, lags
    if stops:  # at the hand's end every card played is on the table
        assert all(lag["playedShown"][n] == lag["playedView"][n] for n in lag["shown"]), lag
    assert_no_foreign_cards(page.frames_in)
    assert not page.errors, page.errors
    page.context.close()

