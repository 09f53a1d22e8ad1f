"""The table is redrawn by changing what differs (``morph`` in web/dom.js), not by building it again: the page then
ends as a rebuild would leave it, element for element and attribute for attribute; a button kept on the page
answers with the handler of the drawing that kept it; and what stays the same keeps its identity (its focus, its
scroll, its hover) from one update to the next."""

from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

from web_helpers import hold_seat, new_page

TAGS = ("div", "span", "button", "section", "input", "svg", "details", "summary")


def random_tree(rng: random.Random, depth: int = 0) -> list[Any]:
    """A tree as [tag, attributes, children...]; a string is a text node. Few tags, keys and values, so that two
    trees drawn one after the other share much, as two updates of one table do."""
    tag = rng.choice(TAGS)
    attrs: dict[str, Any] = {}
    if rng.random() < 0.5:
        attrs["class"] = rng.choice(["a", "b", "a b", "seat acting"])
    if rng.random() < 0.4:
        attrs[rng.choice(["data-key", "data-card"])] = rng.choice(["k1", "k2", "k3", "7h", "Qs"])
    if rng.random() < 0.2:
        attrs["style"] = rng.choice(["color: red;", "width: 3px;"])
    if rng.random() < 0.2:
        attrs["aria-label"] = rng.choice(["one", "two"])
    if rng.random() < 0.3:
        attrs["onclick"] = rng.randrange(1000)  # the page makes it a handler that says this number
    children: list[Any] = []
    if tag != "input" and depth < 3:
        for _ in range(rng.randrange(4)):
            children.append(rng.choice(["x", "y", "Ann"]) if rng.random() < 0.3 else random_tree(rng, depth + 1))
    if children and rng.random() < 0.2:  # a named drawing (a card's face): the same name, the same inside
        attrs["data-same"] = ""
    return named([tag, attrs, *children])


def named(tree: list[Any]) -> list[Any]:
    """The tree with each named drawing's name made from what is inside it, as the page names a card's face."""
    if "data-same" in tree[1]:
        tree[1]["data-same"] = hashlib.sha256(json.dumps(tree[2:]).encode()).hexdigest()[:8]
    return tree


# A tree as it reads (attributes in name order: their order in the markup means nothing).
SHAPE = """(n) => n.nodeType === Node.TEXT_NODE ? n.data
    : [n.localName, [...n.attributes].map((a) => `${a.name}=${a.value}`).sort(), [...n.childNodes].map(shape)]"""

CHECK = """async (pairs) => {
  const { h, s, fill, morph } = await import("/dom.js");
  const said = [];
  const build = (t) => {
    if (typeof t === "string") return t;
    const [tag, attrs, ...kids] = t;
    const a = { ...attrs };
    if ("onclick" in a) { const n = a.onclick; a.onclick = () => said.push(n); }
    return (tag === "svg" ? s : h)(tag, a, ...kids.map(build));
  };
  const shape = """ + SHAPE + """;
  const clicked = (root) => [...root.querySelectorAll("*")].flatMap((el) => {
    said.length = 0;
    el.dispatchEvent(new Event("click"));
    return [...said];
  });
  const out = [];
  for (const [first, second] of pairs) {
    const box = document.createElement("div"), plain = document.createElement("div");
    document.body.append(box);
    morph(box, build(first));
    const before = new Set(box.querySelectorAll("*"));
    morph(box, build(second));
    fill(plain, build(second));
    const kept = [...box.querySelectorAll("*")].filter((el) => before.has(el)).length;
    // Every handler of the second drawing, and only those, answers a click.
    const clicks = clicked(box), expected = clicked(plain);
    // The same tree again keeps every element but the form fields (always drawn afresh, by design).
    const kept_kinds = ":not(input, select, textarea)";
    const all = [...box.querySelectorAll(kept_kinds)];
    morph(box, build(second));
    const again = [...box.querySelectorAll(kept_kinds)];
    out.push({ morphed: shape(box), rebuilt: shape(plain), kept, clicks, expected,
               all_kept: all.length === again.length && all.every((el, i) => el === again[i]) });
    box.remove();
  }
  return out;
}"""


def test_a_morphed_drawing_is_what_a_rebuild_draws_and_answers_with_its_own_handlers(browser: Any,
                                                                                      server: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/rules")
    rng = random.Random(20261206)
    pairs = []
    for _ in range(300):
        first = random_tree(rng)
        # Half the time the second drawing is the first one changed here and there, as an update changes a table.
        second = json.loads(json.dumps(first)) if rng.random() < 0.5 else random_tree(rng)
        if rng.random() < 0.5:
            second[1]["class"] = rng.choice(["a", "b", "changed"])
            if second[0] != "input":
                second.append(random_tree(rng, 2))
        if rng.random() < 0.3:  # the same children in another order: keyed ones are moved, not drawn again
            children = second[2:]
            rng.shuffle(children)
            second[2:] = children
        pairs.append([first, named(second)])
    results = page.evaluate(CHECK, pairs)
    for (first, second), r in zip(pairs, results, strict=True):
        assert r["morphed"] == r["rebuilt"], (first, second)
        assert r["clicks"] == r["expected"], (first, second)
        assert r["all_kept"], second
    # Similar drawings keep elements: the whole point. A form field is always new.
    assert sum(r["kept"] for r in results) > 300
    assert page.errors == []


NAMED = """async () => {
  const { h, fill, morph } = await import("/dom.js");
  const { cardSvg, backSvg } = await import("/cards.js");
  const shape = """ + SHAPE + """;
  const hand = (...cards) => h("span", { class: "hand" }, cards.map((c) => c === "back" ? backSvg() : cardSvg(c)));
  const box = document.createElement("div"), plain = document.createElement("div");
  morph(box, hand("Qs", "back"));
  const inner = box.querySelector("svg text");
  inner.setAttribute("data-probe", "left alone");  // morph would take it off if it looked inside the card
  morph(box, hand("Qs", "back"));
  const untouched = box.querySelector("svg text") === inner && inner.getAttribute("data-probe") === "left alone";
  inner.removeAttribute("data-probe");
  morph(box, hand("Th", "Qs"));  // another card where the queen was: drawn as a rebuild draws it
  fill(plain, hand("Th", "Qs"));
  const one = cardSvg("7d"), two = cardSvg("7d");
  return { untouched, morphed: shape(box), rebuilt: shape(plain), clones: one !== two,
           alike: JSON.stringify(shape(one)) === JSON.stringify(shape(two)),
           named: [cardSvg("7d"), cardSvg("7d", { label: false })].map((svg) => svg.getAttribute("aria-label")) };
}"""


def test_a_card_drawn_again_is_kept_whole_and_another_card_is_drawn_in_its_place(browser: Any, server: Any) -> None:
    """A card's face is built once and cloned after, named (data-same): morph keeps a card that is the same
    without looking inside it, and a card that is not is drawn exactly as a rebuild would draw it."""
    page = new_page(browser)
    page.goto(server.url + "/rules")
    r = page.evaluate(NAMED)
    assert r["untouched"], "morph went inside a card whose drawing had not changed"
    assert r["morphed"] == r["rebuilt"]
    assert r["clones"] and r["alike"], r
    assert r["named"] == ["seven of diamonds", None], r["named"]
    assert page.errors == []


def test_a_table_keeps_its_seat_tiles_and_the_focus_from_one_update_to_the_next(browser: Any, server: Any) -> None:
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "normal"}, {"bot": "normal"}], hands=1,
                            pace="fast")
    page = new_page(browser)
    hold_seat(page, server.url, created["id"], created["token"])
    page.goto(f"{server.url}/tables/{created['id']}")
    page.wait_for_selector(".my-hand .card-btn", timeout=20000)
    page.evaluate("() => { document.querySelector(\".seat[data-seat='1']\").kept = true; }")
    rules = page.locator(".table-tools a[href^='/rules/']")
    rules.focus()
    frames = len(page.frames_in)
    deadline = time.monotonic() + 30
    while len(page.frames_in) < frames + 2:
        assert time.monotonic() < deadline, "no update came"
        mine = page.locator(".phase.my-turn:not(.pending) .controls button")
        if mine.count():  # the deal waits for this seat: it takes its first choice, and the others answer
            mine.first.click()
            rules.focus()
            frames = len(page.frames_in)
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.querySelector(\".seat[data-seat='1']\").kept === true"), \
        "the seat tile was built again by an update"
    # A link that is drawn again at every update (the table's tools) keeps the focus a person gave it.
    assert page.evaluate("() => document.activeElement?.matches(\".table-tools a[href^='/rules/']\")"), \
        "the focus was lost by an update"
    assert page.errors == []


def test_the_lobbys_list_of_tables_refreshes_without_moving_a_keyboard_users_focus(browser: Any, server: Any) -> None:
    """The lobby asks for the open tables every 5 s. A person who has tabbed to a table's Join link keeps the focus
    on that table's link when another table opens above it (it used to fall to the page's body at every refresh)."""
    first = server.create(ruleset="rummoli", seats=[{}, {}, {"bot": "easy"}])
    page = new_page(browser)
    page.goto(server.url + "/")
    join = page.locator(f".table-list li[data-key='table:{first['id']}'] a.button", has_text="Join")
    join.wait_for(timeout=20000)
    join.focus()
    second = server.create(ruleset="michigan", seats=[{}, {}, {"bot": "easy"}])
    page.locator(f".table-list li[data-key='table:{second['id']}']").wait_for(timeout=15000)
    focused = page.evaluate("() => [document.activeElement?.closest('li')?.dataset.key ?? null,"
                            " document.activeElement?.textContent ?? null]")
    assert focused == [f"table:{first['id']}", "Join"], focused
    assert page.errors == []
