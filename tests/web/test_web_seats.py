"""A seat's page at a finished evening, against a real server in Chromium.

Once the evening is over there is no seat to give up: the page offers the way back to the lobby instead of "Leave",
and the seat keeps its record (the server refuses a leave then: tests/server/test_server_http.py). Before the start,
"Leave" says what it does: the seat opens again."""

from __future__ import annotations

import random
from typing import Any

import pytest
from expected import evening_figures
from server_helpers import Server, play
from web_helpers import DESKTOP, PHONE, hold_seat, new_page

VIETNAMESE = "Nguyễn Thị Phương"
CAPITALS = "ĐẶNG VĂN LỄ"  # two marks on a capital letter: the tallest accents of real names
MOST = "Z\u0316\u0317\u0318e\u0301\u0300\u0303d\u0316\u0317\u0318"  # three marks on each letter: the most allowed


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
