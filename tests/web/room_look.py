"""The card room's look at the page, as a player sees it, shared by the tests that play whole hands through it
(tests/web/test_web_results.py plays each ruleset's evening at its largest usual table, tests/web/test_web_room.py the
smaller tables): at every step the page does not scroll either way, the hand, the board or piles and the choices are
in sight, the parts of the table never overlap, the phone's text is at least 14 px and no motion runs under reduced
motion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from web_helpers import DESKTOP, PHONE, SEATS_OVERFLOWING, SHOWDOWN_SQUEEZED, settle

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

SIZES = {"desktop": DESKTOP, "phone": PHONE}


def check(page: Any, where: str, phone: bool, steps: list[dict[str, Any]]) -> dict[str, Any]:
    look: dict[str, Any] = page.evaluate(LOOK)
    steps.append(look)
    problems = [problem for problem, failed in (
        ("the page scrolls down", look["scrollHeight"] > look["innerHeight"]),
        ("the page scrolls sideways", look["scrollWidth"] > look["innerWidth"]),
        ("the table is not all in sight", not (look["middle"] and look["choices"] and look["seats"])),
        ("parts of the table are drawn over each other", look["overlaps"]),
        ("something in the table's middle is wider than it", look["tableauSideways"]),
        ("a seat's lines run over its tile", look["seatsOverflowing"]),
        ("your deadwood's count is out of sight", look["deadwood"] is False),
        ("which hand of the evening this is is not shown", not look["handNo"]),
        ("a showdown row's cards wrap or its hand's name is squeezed", look["showdownSqueezed"]),
        ("the hand is not in sight", look["hand"] is not None and not (look["hand"] and look["lastCard"] is not False)),
        ("text under 14 px on the phone", phone and look["minFont"] < 14),
        ("motion under prefers-reduced-motion", look["animations"] != 0)) if failed]
    if problems:  # the page as it was, whole, for the person who reads the failure
        failed_at = Path(__file__).resolve().parents[2] / "test-artifacts" / "room-failed.png"
        page.screenshot(path=str(failed_at), full_page=True)
    assert not problems, f"{'; '.join(problems)}: {where}: {look} (test-artifacts/room-failed.png)"
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


class Walk:
    """A hand (or an evening) played on a phone through the page and looked at in both sizes at every step: before
    each action the window is turned from the desktop's size to the phone's, after it back. Screenshots at both
    sizes of the deal, of the play once something lies on the table, and of the first result; what was measured at
    each size is written to ``<name>-<size>-metrics.json``."""

    def __init__(self, page: Any, artifacts: Path, name: str) -> None:
        self.page, self.artifacts, self.name = page, artifacts, name
        self.steps: dict[str, list[dict[str, Any]]] = {size: [] for size in SIZES}
        self.actions = 0
        self.shot: set[str] = set()

    def shoot_once(self, moment: str) -> None:
        if moment not in self.shot:
            self.shot.add(moment)
            shoot_both(self.page, self.artifacts, self.name, moment)

    def deal(self) -> None:
        check_both(self.page, "the deal", self.steps, last="phone")
        self.shoot_once("deal")

    def act(self, action: Any) -> None:
        """``action()``, this page's move, looked at before (left at the phone's size, where it is made) and after
        its answer has come: the focus must stay on the table, not fall to the page's body."""
        where = f"action {self.actions}"
        check_both(self.page, f"before {where}", self.steps, last="phone")
        action()
        settle(self.page)
        looks = check_both(self.page, f"after {where}", self.steps, last="desktop")
        for size, look in looks.items():
            assert not look["focusOnBody"], f"the focus fell to the page's body after {where} ({size}): {look}"
        self.actions += 1
        if self.page.locator(".run .laid, .melds .meld").count() or self.actions > 15:
            self.shoot_once("play")

    def result(self, where: str) -> None:
        """A hand's result (or the evening's) on screen, in sight at both sizes with the focus on the page."""
        looks = check_both(self.page, where, self.steps, last="phone")
        assert self.page.locator(".result, .final").first.is_visible(), where
        assert not any(look["focusOnBody"] for look in looks.values()), (where, looks)
        self.shoot_once("result")

    def write_metrics(self) -> None:
        for size, looked in self.steps.items():
            measured = {"steps": len(looked), "max_scroll_height": max(s["scrollHeight"] for s in looked),
                        "max_scroll_width": max(s["scrollWidth"] for s in looked), "viewport": SIZES[size],
                        "min_font": min(s["minFont"] for s in looked),
                        "tableau_scrolled_steps": sum(1 for s in looked if s["tableauScrolls"])}
            # One file per case: the cases run in parallel workers, which must not read each other's half-written
            # file.
            path = self.artifacts / f"{self.name}-{size}-metrics.json"
            path.write_text(json.dumps(measured, indent=1))
