"""The card room: a whole hand of Rummoli and of Rummy at two seats played through the page on one screen, at
1280 x 800 and on a 390 x 844 phone, looked at in both sizes at every step (tests/web/room_look.py says what is
checked; tests/web/test_web_results.py looks at every ruleset's evening at its largest usual table in the same way,
four-seat tables of both families among them).
Also: motion runs (and the true state is drawn before it), none runs under
reduced motion, the lobby's form fits with its start button in sight, the mute switch is remembered and the sound
sleeps between sounds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from room_look import Walk, resize
from test_web_table import open_seat
from web_helpers import (
    DESKTOP,
    PHONE,
    assert_no_foreign_cards,
    new_page,
    rummy_turn,
    settle,
    stops_turn,
    wait_turn_or_end,
)

from rummoli.games import family_of

# Rummoli and Rummy at their smallest table, two seats: each ruleset's evening at its largest usual table (four seats
# for Tripoley, Rummy with aces high, Boathouse, 500 Rum, Knock Rummy and Hoyle's Poch) is played through the page and
# looked at in the same way by tests/web/test_web_results.py.
CASES = [("rummoli", 2), ("rummy", 2)]


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
    """One hand played on a phone and looked at on the phone and on a desktop at every step (room_look.Walk)."""
    page, _ = open_table(browser, server, family, seats, PHONE, f"room-{family}-{seats}")
    turn = stops_turn if family_of(family).has_board else rummy_turn
    walk = Walk(page, artifacts, f"room-{family}-{seats}")
    walk.deal()
    seen: set[str] = set()
    for _ in range(200):
        if wait_turn_or_end(page, 90) == "over":
            break
        walk.act(lambda: turn(page, seen))
    else:
        raise AssertionError("the hand did not end")
    page.wait_for_selector(".result")
    walk.result("the result")
    walk.write_metrics()
    if family == "rummy":  # drawn, dragged to the pile and discarded through the page; each hand settled, counted
        assert {"draw", "drag", "discard"} <= seen, seen
        assert "Hand over" in page.inner_text(".phase")
        assert page.locator(".result .settled").count() == seats
        assert page.locator(".result [data-result='deadwood']").count() == seats
        assert page.locator(".result [data-result='outcome']").get_attribute("data-reason") in ("out", "blocked")
    assert_no_foreign_cards(page.frames_in)
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
    # At this seat's turn before the first touch: when the bot moves first, the turn it hands back would otherwise
    # sound just after the touch (once seen on a loaded machine), and the touch alone must make no sound.
    assert wait_turn_or_end(page, 30) == "turn"
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
