"""A Poch table in the browser: a person and a friend through the invite link with two bots, the board of
places drawn by the page in this hand's trumps, the vying and the play through the page's buttons, the result
through the same words as every game, and no card a seat may not know in anything its page received. Hoyle's
board, seven places round its centre, shows the trump card in the ring's eighth cell."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from test_web_table import open_seat
from web_helpers import DESKTOP, PHONE, assert_no_foreign_cards, click_first, new_page, play_together, settle

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import play_until


def poch_turn(page: Any, seen: set[str]) -> None:
    """One decision at a Poch table: knock once, else pass or hold; lead the first card offered."""
    phase, labels = page.evaluate("""() => [document.querySelector('.phase')?.className || '',
        [...document.querySelectorAll('.phase.my-turn .controls button')].map((b) => b.textContent.trim())]""")
    if "phase-vie" in phase:
        seen.add("vie")
        if "Knock" in labels and "knock" not in seen:
            seen.add("knock")
            page.fill("#amt-bet", "1")
            click_first(page, ".controls button:text-is('Knock')")
        elif "Pass" in labels:
            click_first(page, ".controls button:text-is('Pass')")
        else:
            click_first(page, ".controls button:text-is('Hold')")
    elif "phase-play" in phase:
        seen.add("play")
        click_first(page, ".my-hand button.card-btn.playable")
    else:
        click_first(page, ".controls button")
    settle(page)


# The lobby's form has no seed, so the test adds one to the form's request (the test server allows seeds): left to
# chance, a deal now and then gave neither person a free choice in the play (each of their plays forced), and the
# test failed on what it did not see.
SEED = "poch-web-1"


def seeded(route: Any) -> None:
    if route.request.method == "POST":
        route.continue_(post_data=json.dumps({**json.loads(route.request.post_data or "{}"), "seed": SEED}))
    else:
        route.continue_()


def test_a_poch_table_with_a_friend_and_bots(browser: Any, server: Any, artifacts: Path) -> None:
    ann = new_page(browser)
    ann.route("**/api/tables", seeded)
    ann.goto(server.url + "/")
    ann.fill("#your-name", "Ann")
    ann.select_option("#ruleset", "poch")
    ann.select_option("#players", "4")
    ann.click(".more-options summary")
    ann.select_option("#seat-1", "person")
    ann.fill("#hands", "2")
    ann.select_option("#pace", "instant")
    ann.click("button[type=submit]")
    ann.wait_for_selector("#invite-link")
    invite = ann.input_value("#invite-link")
    bob = new_page(browser)
    bob.goto(invite)
    assert bob.inner_text("#join-title") == "Join a table of Poch"
    bob.fill("#join-name", "Bob")
    bob.click("button[type=submit]")
    bob.wait_for_selector(".seat.me")
    ann.wait_for_selector(".board-poch")
    # The nine places, the centre in the middle; each honour shows its card in this hand's trumps.
    assert ann.locator(".board-poch .pot").count() == 9
    assert ann.locator(".board-poch .board-trump").count() == 0  # the ring is full: no cell for the trump card
    suit = ann.evaluate("() => document.querySelector('.trump-line')?.textContent || ''")
    assert "Trumps:" in suit
    assert ann.locator(".board-poch [data-pot='A'] .pot-tag").count() == 1
    ann.screenshot(path=str(artifacts / "poch-table.png"))
    seen_ann: set[str] = set()
    seen_bob: set[str] = set()
    play_together([ann, bob], poch_turn, [seen_ann, seen_bob])
    assert "play" in seen_ann | seen_bob and "vie" in seen_ann | seen_bob
    assert ann.locator(".final [data-result='standing']").count() == 4
    log = ann.inner_text(".log")
    assert "winning the" in log and ("leads" in log or "lead" in log), log[-600:]
    assert_no_foreign_cards(ann.frames_in)
    assert_no_foreign_cards(bob.frames_in)
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
    ann.context.close()
    bob.context.close()


# Where each cell of Hoyle's board is, and what the trump cell says, as the page lays them out.
CELLS = """() => [...document.querySelectorAll('.board-poch > *')].map((el) => ({
  pot: el.dataset.pot ?? null, trump: el.classList.contains('board-trump'), label: el.getAttribute('aria-label'),
  row: el.style.gridRowStart, col: el.style.gridColumnStart, text: el.innerText.trim(),
  box: (({ left, top, right, bottom }) => ({ left, top, right, bottom }))(el.getBoundingClientRect()) }))"""


def test_hoyles_board_shows_the_trump_card_where_no_place_is(browser: Any, server: Any) -> None:
    created = server.create(ruleset="poch-hoyle", seats=[{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}],
                            hands=1, seed="hoyle-trump", pace="instant")
    page = new_page(browser)
    open_seat(page, server, created)
    welcome = next(json.loads(f) for f in page.frames_in if f.startswith('{"type":"welcome"'))
    card = welcome["view"]["hand"]["trump"]["card"]
    for size, shown in ((DESKTOP, "Trumps"), (PHONE, None)):
        page.set_viewport_size(size)
        cells = page.evaluate(CELLS)
        trumps = [c for c in cells if c["trump"]]
        assert len(trumps) == 1 and len([c for c in cells if c["pot"]]) == 8, cells
        cell = trumps[0]
        # the ring's last cell (middle left), which no place fills; nothing else is drawn over it
        assert (cell["row"], cell["col"]) == ("2", "1") and not any(
            c["row"] == "2" and c["col"] == "1" for c in cells if not c["trump"]), cells
        assert cell["label"] == f"Trumps: {card[0].replace('T', '10')}{'♠♥♦♣'['shdc'.index(card[1])]}", cell
        assert "Trumps" in cell["text"], cell
        if shown is None:  # on a phone the card is named in text, as the places' cards are
            assert page.locator(".board-trump .pot-tag").inner_text() in cell["label"], cell
    assert not page.errors, page.errors
    page.context.close()


def test_the_trump_cards_holder_is_tagged_only_while_it_holds_the_card(browser: Any, server: Any) -> None:
    # A QA pass saw "holds J♦" on a seat at the hand's end, the J♦ laid in the play long before.
    created = server.create(ruleset="poch", seats=[{}, {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}],
                            hands=1, seed=TRUMP_SEED, pace="instant")
    ann = server.client(created["id"], created["token"])
    play_until(ann, lambda c: bool(c.view.get("over")), random.Random(3), timeout=120)
    hand = ann.view["hand"]
    ann.close()
    trump, holder = hand["trump"]["card"], hand["trump"]["holder"]
    # this seed's hand: a seat held the trump card and laid it (the case the page got wrong), by the server's view
    assert holder is not None and any(p["card"] == trump for p in hand["played"]), hand["trump"]
    page = new_page(browser)
    page.goto(f"{server.url}/tables/{created['id']}")  # a spectator of the finished hand
    page.wait_for_selector(".trump-line")
    tags = page.evaluate("() => [...document.querySelectorAll('.seat .tag')].map((t) => t.textContent)")
    assert not [t for t in tags if t.startswith("holds")], tags
    assert "laid in the play" in page.inner_text(".trump-line")
    assert not page.errors, page.errors
    page.context.close()


TRUMP_SEED = "poch-trump-1"
