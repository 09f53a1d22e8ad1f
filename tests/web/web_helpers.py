"""Driving the web table from Playwright: pages that record their websocket frames, players that answer
their turns through the page (by mouse or by keyboard only), and the check that no frame a page received
holds a card its seat could not know."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

CARD = re.compile(r"^[2-9TJQKA][shdc]$")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# Debian's two builds of Chromium (tests/web/conftest.py says which module runs in which, and why).
FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"


def new_page(browser: Any, **options: Any) -> Any:
    """A page in a fresh context (its own storage: another person), recording every websocket frame it
    receives in ``page.frames_in`` and every page error in ``page.errors`` (what the server's
    Content-Security-Policy blocked included)."""
    context = browser.new_context(**{"viewport": DESKTOP, "reduced_motion": "reduce", **options})
    page = context.new_page()
    page.frames_in = []
    page.errors = []
    page.dialogs = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: page.frames_in.append(payload)))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    # What the server's Content-Security-Policy refused (an inline style or script, a foreign address).
    page.on("console", lambda m: page.errors.append(m.text) if "Content Security Policy" in m.text else None)

    def dialog(d: Any) -> None:
        page.dialogs.append(d.message)
        d.accept()

    page.on("dialog", dialog)
    return page


def on_origin(page: Any, url: str) -> None:
    """Open the server's origin without starting the app, so that a test can put into the page's storage what the
    app would have put there (a seat's token, an uploaded record). ``/healthz`` is a few bytes of JSON: starting
    the app (any of its pages) cost the browser about 0.2 CPU seconds, paid before every table a test opened."""
    page.goto(url + "/healthz")


def hold_seat(page: Any, url: str, table: str, token: str, seat: int | None = 0, name: str = "Ann",
              creator: bool = True) -> None:
    """Keep ``token`` in the page's storage as the seat of ``table`` (as the lobby does after creating a table,
    or an invite after a join), so that opening the table opens it at that seat."""
    on_origin(page, url)
    data: dict[str, Any] = {"token": token, "seat": seat, "name": name}
    if creator:
        data["creator"] = True
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummoli:seat:{table}", json.dumps(data)])


def replay_page(browser: Any, url: str, table: str, token: str, hand: int = 1, **options: Any) -> Any:
    """A new page holding seat 0's token of ``table`` (Ann, its creator), opened on hand ``hand``'s replay."""
    page = new_page(browser, **options)
    hold_seat(page, url, table, token)
    page.goto(f"{url}/tables/{table}/hands/{hand}")
    return page


# The seats whose tile, or one of its tags, is narrower than what it holds (a count or a change running over the tile's
# edge, drawn over it or cut off; a tag's words out of its box), by name.
SEATS_OVERFLOWING = """() => [...document.querySelectorAll(".seat")].filter((el) => el.scrollWidth > el.clientWidth + 1
    || [...el.querySelectorAll(".tag")].some((tag) => tag.scrollWidth > tag.clientWidth + 1))
  .map((el) => el.querySelector(".seat-name")?.textContent || el.className)"""


# The showdown's rows whose five cards wrap onto a second line or whose hand's name has under 9em to be read in (a
# long name with its badge squeezed it to a word a line), by seat name.
SHOWDOWN_SQUEEZED = """() => [...document.querySelectorAll(".showdown .shown")].filter((row) => {
    const tops = new Set([...row.querySelectorAll(".five .mini")].map((c) => Math.round(c.getBoundingClientRect().y)));
    const name = row.querySelector(".five-name");
    const em = parseFloat(getComputedStyle(name || row).fontSize);
    return tops.size > 1 || (name && name.textContent && name.getBoundingClientRect().width < 9 * em);
  }).map((row) => row.querySelector(".who")?.textContent)"""


def shoot(page: Any, folder: Path, name: str) -> None:
    """Screenshots at 1280 x 800 and 390 x 844 (the page's viewport is put back afterwards)."""
    size = page.viewport_size
    page.screenshot(path=str(folder / f"{name}-1280x800.png"))
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    page.screenshot(path=str(folder / f"{name}-390x844.png"))
    page.set_viewport_size(size)
    page.wait_for_timeout(100)


def shooting_once(turn: Any, when: str, folder: Path, name: str) -> Any:
    """``turn`` that first takes the screenshots ``name`` the first time the page shows ``when``."""
    done: list[bool] = []

    def wrapped(page: Any, seen: set[str]) -> None:
        if not done and page.locator(when).count():
            shoot(page, folder, name)
            done.append(True)
        turn(page, seen)

    wrapped.done = done  # type: ignore[attr-defined]
    return wrapped


def wait_turn_or_end(page: Any, timeout: float = 60) -> str:
    """Wait until this page may act ("turn"), the evening is over ("over")."""
    page.wait_for_function(
        "() => document.querySelector('.final') || (document.querySelector('.phase.my-turn')"
        " && !document.querySelector('.pending'))",
        timeout=timeout * 1000)
    return "over" if page.locator(".final").count() else "turn"


def settle(page: Any) -> None:
    """Wait for the answer to an action (the controls come back or the turn moves on)."""
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=20000)


def click_first(page: Any, selector: str) -> bool:
    loc = page.locator(selector)
    if loc.count() == 0:
        return False
    try:
        loc.first.click(timeout=3000)
    except Exception:
        return False
    return True


def stops_turn(page: Any, seen: set[str]) -> None:
    """One decision at a stops table, through the page's buttons, as a cautious player makes it."""
    # Read at once (an update may redraw the page between two reads).
    phase, labels = page.evaluate("""() => [document.querySelector('.phase')?.className || '',
        [...document.querySelectorAll('.phase.my-turn .controls button')].map((b) => b.textContent.trim())]""")
    if "phase-widow" in phase:
        seen.add("dealer_choice")
        click_first(page, ".controls button:has-text('Keep my hand')")
    elif "phase-auction" in phase:
        seen.add("auction")
        if "bid" not in seen and "Bid" in labels:
            seen.add("bid")
            page.fill("#amt-bid", page.get_attribute("#amt-bid", "min") or "1")
            click_first(page, ".controls button:has-text('Bid')")
        else:
            click_first(page, ".controls button:has-text('Pass')")
    elif "phase-poker" in phase:
        seen.add("poker")
        if page.locator(".best-five-name").count():
            seen.add("best_five")  # your best five marked in your hand and named
            assert page.locator(".my-hand .card-btn.best").count() == 5
            assert page.locator(".best-five-name b").inner_text().strip()
        if "Bet" in labels and "bet" not in seen:
            seen.add("bet")
            page.fill("#amt-bet", "1")
            click_first(page, ".controls button:text-is('Bet')")
        elif "Check" in labels:
            click_first(page, ".controls button:text-is('Check')")
        elif "Call" in labels:
            click_first(page, ".controls button:text-is('Call')")
        else:
            click_first(page, ".controls button")
    elif "phase-play" in phase:
        seen.add("play")
        if not click_first(page, ".my-hand button.card-btn.playable"):
            click_first(page, ".controls button")
    else:
        click_first(page, ".controls button")
    settle(page)


RANK_ORDER = "A23456789TJQK"
KNOCK_LABEL = re.compile(r"^(Gin — discard \S+|Knock — discard \S+ \(deadwood \d+\)|Knock)$")


def rummy_turn(page: Any, seen: set[str]) -> None:
    """One step of a Rummy turn through the page, as a player who wants the hand over: knock or go gin when the
    page offers it, draw from the stock (the S key), meld what it offers, then discard the highest deadwood card
    (once by drag and drop onto the pile). Checks on the way what the page must offer: knock buttons labelled
    with the deadwood they keep (a gin the default), no stock button when only the upcard or a pass is legal."""
    knock = page.locator(".controls button.knock")
    if knock.count():
        labels = knock.all_inner_texts()
        assert all(KNOCK_LABEL.match(t) for t in labels), labels
        seen.add("knock")
        # After the draw the focus fell back to the first of the choices: a knock there (at any deadwood, in Knock
        # Rummy) was one Enter from ending the hand. Only a gin may have it.
        on_knock = page.evaluate("() => document.activeElement?.classList.contains('knock')")
        assert labels[0].startswith("Gin") or not on_knock, f"the focus is on a knock that is no gin: {labels}"
        hint = page.locator(".phase .hint").all_inner_texts()
        assert not any("lay it off" in t for t in hint), f"Gin and Knock lay nothing off during a hand: {hint}"
        if labels[0].startswith("Gin"):
            seen.add("gin")
            assert knock.first.get_attribute("data-default") is not None, "a gin must be the default button"
            first_control = page.locator(".controls button").first
            assert first_control.inner_text() == labels[0], "the gin button comes first"
            # It has the focus: Enter goes gin (it can never throw the gin away).
            assert page.evaluate("() => document.activeElement?.classList.contains('gin')"), "the gin has the focus"
            page.keyboard.press("Enter")
        else:
            knock.first.click()
    elif page.locator("[data-key='act:pass']").count():
        seen.add("upcard")
        assert page.locator("[data-key='draw:stock'], [data-key='act:draw:stock']").count() == 0, \
            "only the upcard or a pass is legal: no stock button"
        click_first(page, ".controls button")  # take the upcard
    elif page.locator("[data-key='draw:stock']").count():
        seen.add("draw")
        page.keyboard.press("s")
    elif click_first(page, ".controls button:has-text('Meld')"):
        seen.add("meld")
    elif page.locator(".controls button:has-text('Take the')").count():
        seen.add("take")  # no stock left to draw from: the pile
        click_first(page, ".controls button:has-text('Take the')")
    else:
        cards = page.locator(".my-hand button.card-btn.playable")
        dead = page.locator(".my-hand button.card-btn.playable.deadwood")
        choice = dead if dead.count() else cards
        # The highest card (ties: by suit, clubs lowest), so that a seeded evening plays the same every time.
        ranks = [(RANK_ORDER.index(c[0]), "cdhs".index(c[1]))
                 for c in (choice.nth(k).get_attribute("data-card") or "2c" for k in range(choice.count()))]
        card = choice.nth(ranks.index(max(ranks)))
        if "drag" not in seen:
            seen.add("drag")  # once by drag and drop: a card onto the discard pile
            before = page.locator(".piles .pile").nth(1).inner_text()
            card.drag_to(page.locator(".piles .pile").nth(1))
            page.wait_for_function("(t) => document.querySelectorAll('.piles .pile')[1]?.innerText !== t"
                                   " || document.querySelector('.result')", arg=before)
        else:
            card.click()
            page.wait_for_selector(".controls button:has-text('Discard')", timeout=5000)
            seen.add("discard")
            click_first(page, ".controls button:has-text('Discard')")
    settle(page)


def play_out(page: Any, turn: Any, seen: set[str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while wait_turn_or_end(page, max(1.0, deadline - time.monotonic())) == "turn":
        turn(page, seen)
        if page.locator(".showdown").count():
            seen.add("showdown")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the hand did not end in {timeout} s; seen {sorted(seen)}")


def play_together(pages: list[Any], turn: Any, seen: list[set[str]], timeout: float = 120) -> None:
    """Let several people's pages answer their turns (``turn(page, seen)``) until every page shows the
    evening's end."""
    deadline = time.monotonic() + timeout
    while not all(page.locator(".final").count() for page in pages):
        assert time.monotonic() < deadline, f"the evening did not end in {timeout} s"
        moved = False
        for page, its_seen in zip(pages, seen, strict=True):
            if page.locator(".phase.my-turn").count() and not page.locator(".pending").count() \
                    and not page.locator(".final").count():
                turn(page, its_seen)
                moved = True
        if not moved:
            pages[0].wait_for_timeout(100)


def keyboard_turn(page: Any, limit: int = 60) -> str:
    """Tab to the first thing that acts (a choice button, a playable card, an amount) and press Enter; at most
    ``limit`` Tabs."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        found = page.evaluate("""() => {
            const el = document.activeElement;
            if (!el) return '';
            if (el.matches('.phase .controls button, .my-hand button.card-btn.playable, .controls input.amount'))
                return el.dataset.key || el.textContent;
            return '';
        }""")
        if found:
            outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
            assert outline != "none", f"focus is not visible on {found}"
            page.keyboard.press("Enter")
            return str(found)
    raise AssertionError("no choice could be reached with the Tab key")


def cards_in(value: Any, skip: tuple[str, ...] = ("id", "pot")) -> set[str]:
    """Every card string anywhere in a JSON value (pot ids under ``id`` or ``pot`` are not cards)."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found |= cards_in(item, skip)
    return found


def where(value: Any, cards: set[str], path: str = "") -> list[str]:
    """The paths at which ``cards`` occur in a JSON value (for a failure's message)."""
    if isinstance(value, str):
        return [path] if value in cards else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    return [p for key, item in items for p in where(item, cards, f"{path}/{key}")]


def public_cards(event: dict[str, Any]) -> set[str]:
    """Cards an event makes public to everyone: laid, shown, melded, discarded, taken from the pile."""
    kind = event.get("type")
    if kind == "action" and event.get("action") == "draw" and event.get("from") != "discard":
        return set()  # a stock draw's card is the drawer's own
    if kind in ("action", "showdown", "show", "stop", "evening_over"):  # the evening's settlement deals afresh
        return cards_in(event)
    return set()


def assert_no_foreign_cards(frames: list[Any]) -> int:
    """Every card in every frame a page received was its own seat's or already public (from the frames
    alone: its own hand as its views gave it, and the cards events showed). Returns the frames checked."""
    mine: set[str] = set()
    public: set[str] = set()
    checked = 0
    for raw in frames:
        message = json.loads(raw if isinstance(raw, str) else raw.decode())
        if message.get("type") not in ("welcome", "update"):
            continue
        checked += 1
        hand = (message.get("view") or {}).get("hand") or {}
        for event in message.get("events", []):
            public |= public_cards(event)
        for zone in ("discard", "melds", "turned_up", "played", "showdown", "shown", "trump"):
            public |= cards_in(hand.get(zone))
        public |= cards_in((message.get("view") or {}).get("settlement"))
        mine |= set(hand.get("hand") or []) | cards_in(hand.get("given_up"))
        seen = cards_in(message)
        foreign = seen - mine - public
        assert not foreign, f"a frame holds cards the seat may not know: {sorted(foreign)} at {where(message, foreign)}"
    return checked
