"""The card room: a whole hand of each game family played through the page on one screen, at 1280 x 800 and on a
390 x 844 phone, with 2, 4 and 8 seats (Rummy seats at most 6): at every step the page does not scroll either
way, the hand, the board or piles and the choices are in sight, the phone's text is at least 14 px and the focus
never falls to the page's body. Also: motion runs (and the true state is drawn before it), none runs under
reduced motion, the lobby's form fits with its start button in sight, the mute switch is remembered and the sound
sleeps between sounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_web_table import open_seat
from web_helpers import (
    DESKTOP,
    PHONE,
    SEATS_OVERFLOWING,
    SHOWDOWN_SQUEEZED,
    new_page,
    rummy_turn,
    settle,
    stops_turn,
    wait_turn_or_end,
)

from rummoli.games import family_of

# One look at the page as a player sees it: its scroll sizes, whether the main parts are in the viewport, the
# smallest font of any visible text (card faces are drawings, not text) and where the focus is.
LOOK = """() => {
  const se = document.scrollingElement;
  const inView = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
  };
  let min = 999, smallest = "";
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const t = walk.currentNode, el = t.parentElement;
    if (!t.textContent.trim() || !el || el.closest("svg, .sr-only, #fx, dialog:not([open])")) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const seen = [...range.getClientRects()].some((r) => r.width > 0 && r.height > 0 && r.bottom > 0
      && r.top < innerHeight && r.right > 0 && r.left < innerWidth);
    if (!seen || getComputedStyle(el).visibility === "hidden") continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < min) { min = size; smallest = `${el.className || el.tagName}: ${t.textContent.trim().slice(0, 30)}`; }
  }
  const tableau = document.querySelector(".tableau");
  // The table's parts one below the other never overlap: the seats above the board, the board and the choices above
  // your hand (a part drawn under another would be cut off).
  const box = (sel) => document.querySelector(sel)?.getBoundingClientRect();
  const above = (a, b) => !box(a) || !box(b) || box(a).bottom <= box(b).top + 1;
  const overlaps = [[".table-page > .table-body .seats", ".board, .piles"], [".board, .piles", ".my-hand"],
    [".phase", ".my-hand"], [".tableau", ".my-hand"]]
    .filter(([a, b]) => !above(a, b)).map((pair) => pair.join(" over "));
  return {
    scrollHeight: se.scrollHeight, scrollWidth: se.scrollWidth, innerHeight, innerWidth,
    hand: inView(".my-hand"), lastCard: inView(".my-hand .card-btn:last-of-type"), middle: inView(".board, .piles"),
    choices: inView(".phase"), seats: inView(".seats"),
    focusOnBody: !document.activeElement || document.activeElement === document.body,
    focus: document.activeElement?.dataset?.key || document.activeElement?.tagName,
    minFont: min, smallest, animations: document.getAnimations().length,
    tableauScrolls: !!tableau && tableau.scrollHeight > tableau.clientHeight + 1, overlaps,
    // What the table's middle holds fits its width: a line wider than it is cut off (the middle scrolls only down).
    tableauSideways: !!tableau && tableau.scrollWidth > tableau.clientWidth + 1,
    seatsOverflowing: (""" + SEATS_OVERFLOWING + """)(),
    showdownSqueezed: (""" + SHOWDOWN_SQUEEZED + """)(),
    deadwood: inView(".my-hand .deadwood-count"), handNo: inView(".hand-no"),
  };
}"""

# Rummoli and Rummy at 2, 4 and 8 seats (Rummy seats at most 6); every other game once, at a table of its usual size
# or its largest. Each table's hand is played once and looked at in both sizes at every step.
CASES = [(family, seats) for family, counts in (("rummoli", (2, 4, 8)), ("rummy", (2, 4, 6))) for seats in counts]
CASES += [("michigan", 8), ("tripoley", 4), ("rummoli-tripoley", 8), ("gin-rummy", 2), ("knock-rummy", 4),
          ("500-rum", 3), ("block-rummy", 6), ("boathouse-rummy", 4), ("rummy-aces-high", 4), ("poch", 6),
          ("poch-hoyle", 4)]
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def check(page: Any, where: str, phone: bool, steps: list[dict[str, Any]]) -> dict[str, Any]:
    look: dict[str, Any] = page.evaluate(LOOK)
    steps.append(look)
    what = f"{where}: {look}"
    if look["scrollHeight"] > look["innerHeight"] or look["scrollWidth"] > look["innerWidth"]:
        failed = Path(__file__).resolve().parents[2] / "test-artifacts" / "room-failed.png"
        page.screenshot(path=str(failed), full_page=True)
    assert look["scrollHeight"] <= look["innerHeight"], f"the page scrolls down: {what}"
    assert look["scrollWidth"] <= look["innerWidth"], f"the page scrolls sideways: {what}"
    assert look["middle"] and look["choices"] and look["seats"], f"the table is not all in sight: {what}"
    assert not look["overlaps"], f"parts of the table are drawn over each other: {what}"
    assert not look["tableauSideways"], f"something in the table's middle is wider than it: {what}"
    assert not look["seatsOverflowing"], f"a seat's lines run over its tile: {what}"
    assert look["deadwood"] is not False, f"your deadwood's count is out of sight: {what}"
    assert look["handNo"], f"which hand of the evening this is is not shown: {what}"
    assert not look["showdownSqueezed"], f"a showdown row's cards wrap or its hand's name is squeezed: {what}"
    if look["hand"] is not None:
        assert look["hand"] and look["lastCard"] is not False, f"the hand is not in sight: {what}"
    if phone:
        assert look["minFont"] >= 14, f"text under 14 px on the phone: {what}"
    assert look["animations"] == 0, f"motion under prefers-reduced-motion: {what}"
    return look


def resize(page: Any, size: str) -> None:
    """The window at ``size``; back once the page has had a frame (its resize handlers run before the frame's)."""
    page.set_viewport_size(SIZES[size])
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def check_both(page: Any, where: str, steps: dict[str, list[dict[str, Any]]], last: str) -> dict[str, Any]:
    """Look at the page at both sizes, ``last`` the second: the one the window is left at."""
    looks = {}
    for size in sorted(SIZES, key=lambda name: name == last):
        if page.viewport_size != SIZES[size]:
            resize(page, size)
        looks[size] = check(page, f"{where} at {size} size", size == "phone", steps[size])
    return looks


def shoot_both(page: Any, artifacts: Path, name: str, moment: str) -> None:
    """Screenshots at both sizes, the window left at the phone's."""
    for size in ("desktop", "phone"):
        resize(page, size)
        page.screenshot(path=str(artifacts / f"{name}-{size}-{moment}.png"))


def open_table(browser: Any, server: Any, ruleset: str, seats: int, viewport: dict[str, int], seed: str,
               motion: str = "reduce", init: str = "") -> tuple[Any, dict[str, Any]]:
    created = server.create(ruleset=ruleset, seats=[{}] + [{"bot": "easy"}] * (seats - 1), hands=1, seed=seed,
                            pace="instant")
    page = new_page(browser, reduced_motion=motion)
    if init:
        page.context.add_init_script(init)
    page.set_viewport_size(viewport)
    open_seat(page, server, created)
    return page, created


@pytest.mark.parametrize(("family", "seats"), CASES, ids=[f"{f}-{n}" for f, n in CASES])
def test_a_whole_hand_on_one_screen(browser: Any, server: Any, artifacts: Path, family: str, seats: int) -> None:
    """One hand played on a phone and looked at on the phone and on a desktop at every step: before each action
    the window is turned from the desktop's size to the phone's, after it back (the desktop's own play is the
    other browser tests')."""
    page, _ = open_table(browser, server, family, seats, PHONE, f"room-{family}-{seats}")
    turn = stops_turn if family_of(family).has_board else rummy_turn
    steps: dict[str, list[dict[str, Any]]] = {size: [] for size in SIZES}
    seen: set[str] = set()
    name = f"room-{family}-{seats}"
    check_both(page, "the deal", steps, last="phone")
    shoot_both(page, artifacts, name, "deal")
    shot_mid = False
    for count in range(200):
        if wait_turn_or_end(page, 90) == "over":
            break
        check_both(page, f"turn {count}", steps, last="phone")
        turn(page, seen)
        settle(page)
        looks = check_both(page, f"after action {count}", steps, last="desktop")
        for size, look in looks.items():
            assert not look["focusOnBody"], f"the focus fell to the page's body after an action ({size}): {look}"
        if not shot_mid and (page.locator(".run .laid, .melds .meld").count() or count >= 15):
            shoot_both(page, artifacts, name, "play")
            shot_mid = True
    else:
        raise AssertionError("the hand did not end")
    page.wait_for_selector(".result")
    looks = check_both(page, "the result", steps, last="phone")
    assert page.locator(".result").is_visible()
    assert not any(look["focusOnBody"] for look in looks.values()), looks
    shoot_both(page, artifacts, name, "result")
    for size, looked in steps.items():
        measured = {"steps": len(looked), "max_scroll_height": max(s["scrollHeight"] for s in looked),
                    "max_scroll_width": max(s["scrollWidth"] for s in looked), "viewport": SIZES[size],
                    "min_font": min(s["minFont"] for s in looked),
                    "tableau_scrolled_steps": sum(1 for s in looked if s["tableauScrolls"])}
        # One file per case: the cases run in parallel workers, which must not read each other's half-written file.
        (artifacts / f"room-metrics-{family}-{seats}-{size}.json").write_text(json.dumps(measured, indent=1))
    assert not page.errors, page.errors
    page.context.close()


def test_motion_runs_after_the_true_state_is_drawn(browser: Any, server: Any) -> None:
    """With motion allowed, a card laid is in the run (its true place) while it travels there, and chips fly."""
    page, _ = open_table(browser, server, "rummoli", 4, DESKTOP, "room-motion", motion="no-preference")
    page.evaluate("""() => {
      window.__motion = {animations: 0, drawnFirst: true, chips: 0};
      const original = Element.prototype.animate;
      Element.prototype.animate = function (...args) {
        window.__motion.animations++;
        if (this.classList.contains('fly-chip')) window.__motion.chips++;
        if (this.classList.contains('laid') && !this.isConnected) window.__motion.drawnFirst = false;
        return original.apply(this, args);
      };
    }""")
    seen: set[str] = set()
    while wait_turn_or_end(page, 90) == "turn":
        stops_turn(page, seen)
    motion = page.evaluate("() => window.__motion")
    assert motion["animations"] > 0 and motion["chips"] > 0 and motion["drawnFirst"], motion
    assert not page.errors, page.errors
    page.context.close()


def test_the_mute_switch_is_remembered_and_sound_waits_for_a_touch(browser: Any, server: Any) -> None:
    # Count the audio contexts the page makes: none before the person touches the page.
    count = """(() => { window.__audio = 0; const Made = window.AudioContext;
      window.AudioContext = class extends Made { constructor(...a) { super(...a); window.__audio++; } }; })()"""
    page, _ = open_table(browser, server, "gin-rummy", 2, PHONE, "room-mute", init=count)
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__audio") == 0, "the page made sound ready before anyone touched it"
    page.keyboard.press("Shift")
    assert page.evaluate("() => window.__audio") == 1
    switch = page.locator("[data-key='sound']")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('rummoli:mute')") == "1"
    page.reload()
    page.wait_for_selector(".my-hand .card-btn")
    assert page.locator("[data-key='sound']").get_attribute("aria-pressed") == "false"
    page.locator("[data-key='sound']").click()
    assert page.evaluate("() => localStorage.getItem('rummoli:mute')") is None
    assert not page.errors, page.errors
    page.context.close()


def test_the_sound_sleeps_between_sounds(browser: Any, server: Any) -> None:
    """The page's audio runs only while it plays: woken by the first touch, asleep soon after, woken again for the
    turn's sound and asleep once it is over (a running audio context renders silence without end: CPU, and a
    phone's sound hardware kept awake)."""
    spy = """(() => { window.__states = []; window.__notes = 0; const Made = window.AudioContext;
      window.AudioContext = class extends Made {
        constructor(...a) { super(...a); window.__ctx = this;
          this.addEventListener("statechange", () => window.__states.push(this.state)); }
        createOscillator() { window.__notes++; return super.createOscillator(); } }; })()"""
    page, _ = open_table(browser, server, "gin-rummy", 2, DESKTOP, "room-sleep", init=spy)
    page.keyboard.press("Shift")
    page.wait_for_function("() => window.__ctx && window.__ctx.state === 'suspended'", timeout=5000)
    assert page.evaluate("() => window.__states") == ["running", "suspended"]
    assert page.evaluate("() => window.__notes") == 0
    seen: set[str] = set()
    for _ in range(12):  # until a turn comes back to this seat after the bot's: its sound plays
        if wait_turn_or_end(page, 30) == "over" or page.evaluate("() => window.__notes"):
            break
        rummy_turn(page, seen)
        settle(page)
    assert page.evaluate("() => window.__notes") > 0, "no sound was played"
    page.wait_for_function("() => window.__ctx.state === 'suspended' && window.__states.length > 2", timeout=5000)
    states = page.evaluate("() => window.__states")
    assert states[2:] and states[-1] == "suspended" and "running" in states[2:], states
    assert not page.errors, page.errors
    page.context.close()


def test_the_drawer_opens_on_a_phone_and_holds_the_log_and_the_table_links(browser: Any, server: Any,
                                                                          artifacts: Path) -> None:
    page, _ = open_table(browser, server, "rummoli", 4, PHONE, "room-drawer")
    toggle = page.locator("[data-key='drawer']")
    assert toggle.get_attribute("aria-expanded") == "false" and not page.locator("#drawer").is_visible()
    toggle.click()
    assert page.locator("#drawer .log").is_visible() and page.locator("#drawer .table-tools").is_visible()
    page.screenshot(path=str(artifacts / "room-drawer-390x844.png"))
    page.keyboard.press("Escape")
    assert not page.locator("#drawer").is_visible()
    assert page.evaluate("() => document.activeElement?.dataset.key") == "drawer"
    # The window widened to a desktop's: the drawer fits beside the table and opens; narrowed again, it closes.
    resize(page, "desktop")
    assert page.locator("#drawer .log").is_visible() and toggle.get_attribute("aria-expanded") == "true"
    resize(page, "phone")
    assert not page.locator("#drawer").is_visible() and toggle.get_attribute("aria-expanded") == "false"
    page.context.close()


def test_the_lobby_form_fits_with_its_start_button_in_sight(browser: Any, server: Any, artifacts: Path) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#ruleset option[value=rummoli]", state="attached")
    for ruleset, players in (("rummoli", "8"), ("gin-rummy", "2")):
        page.select_option("#ruleset", ruleset)
        page.select_option("#players", players)
        box = page.locator("button[type=submit]", has_text="Start the table").bounding_box()
        assert box and box["y"] + box["height"] <= DESKTOP["height"], box
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(artifacts / "room-lobby-1280x800.png"))
    # Typed, a name holds 24 characters as the server counts them: 24 emoji fit (the browser's maxlength counted
    # each as two and stopped at 12), and a 25th is not taken.
    page.fill("#your-name", "")
    page.locator("#your-name").press_sequentially("\U0001F0A1" * 25)
    kept = page.evaluate("() => [...document.querySelector('#your-name').value].length")
    assert kept == 24, kept
    page.set_viewport_size(PHONE)
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(artifacts / "room-lobby-390x844.png"), full_page=True)
    assert not page.errors, page.errors
    page.context.close()
