"""The terminal table played through key presses with Textual's pilot, at 80x24 (issue 6).

Computer seats play ``random`` (the baseline bot), so the seeds below keep giving the same hands
whatever the stronger bots become.  Snapshots: see ``test_snapshot_of_the_table``.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.widgets import RichLog

from rummoli.cards import CARDS, cards_of
from rummoli.games import replay
from rummoli.records import read_record
from rummoli.tui.app import PlayApp
from rummoli.tui.tables import PlayOptions, open_table
from rummoli.tui.widgets import ActionBar, Choice, Notice, ShowdownScreen
from rummoli.wording import cards_word

SNAPSHOTS = Path(__file__).parent / "snapshots"
SUITS = "♠♥♦♣"
RIGHT_PANEL = 53  # columns from here on hold the board and the players: no card of a hand is drawn there


def screen_text(app: App[Any]) -> str:
    """The screen as plain text, one line per row (read from Textual's compositor, which only tests may)."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


def options(tmp_path: Path, **kw: Any) -> PlayOptions:
    base: dict[str, Any] = {"players": 4, "bots": ["random"], "hands": 1, "pace": 0.0, "save": tmp_path}
    return PlayOptions(**{**base, **kw})


def log_text(app: PlayApp) -> str:
    """Everything the game log has shown (it scrolls, so a screen holds only its end)."""
    return "\n".join(line.text for line in app.board.query_one(RichLog).lines)


def hidden_cards(app: PlayApp) -> set[str]:
    """Cards the player must not see now: other seats' hands (less what a showdown showed), the widow,
    the Rummy stock.  Read from the state, which only the test may do."""
    table, hand = app.table, app.table.hand
    hidden: set[str] = set()
    if table.game == "stops":
        me = table.hand_seat(0)
        shown = table.view()["showdown"]
        for seat, mask in enumerate(hand.hands):
            if seat != me:
                hidden |= {c.symbol() for c in cards_of(mask)} - {CARDS[0].parse(c).symbol()
                                                                  for c in shown.get(str(seat), [])}
        if hand.swapped != me:
            hidden |= {c.symbol() for c in cards_of(hand.widow())}
    elif table.game == "poch":  # others' cards less those shown for a pool, at the vying or turned
        view = table.view()
        shown = {c for m in view["melds"] for c in m["cards"]} | {c for cs in view["showdown"].values() for c in cs}
        shown.add(view["trump"]["card"])
        me = table.hand_seat(0)
        for seat, mask in enumerate(hand.hands):
            if seat != me:
                hidden |= {c.symbol() for c in cards_of(mask) if str(c) not in shown}
        hidden |= {c.symbol() for c in hand.dealt_stock if str(c) not in shown}
    else:
        for seat, mask in enumerate(hand.hands):
            if seat != 0:
                hidden |= {c.symbol() for c in cards_of(mask)}
        hidden |= {CARDS[i].symbol() for i in hand.stock}
        # a card once on the discard pile is public, even in the hand of the player who took it
        public = {hand.dealt_stock[0].symbol()} | {CARDS[0].parse(a["card"]).symbol() for a in
                                                   table.view()["history"] if a.get("action") == "discard"}
        hidden -= public
    return hidden


def cut_on_screen(app: PlayApp) -> str:
    """The lines of the log's cut for the first deal that are on screen now. Its cards are public (R-MI-1), whichever
    hand holds one of them now: the cut is made from a deck of its own before the deal."""
    log = app.board.query_one(RichLog)
    texts = [line.text for line in log.lines]
    start = next((i for i, text in enumerate(texts) if text.startswith("The cut for the first deal")), None)
    if start is None:
        return ""
    end = next(i for i, text in enumerate(texts) if text.startswith("== Hand"))
    top = round(log.scroll_offset.y)
    return "\n".join(texts[max(start, top):min(end, top + log.scrollable_content_region.height)])


def check_no_leak(app: PlayApp) -> None:
    if isinstance(app.screen, Notice) or app.table.hand.over:
        return
    left = "\n".join(line[:RIGHT_PANEL] for line in screen_text(app).splitlines())
    cut = cut_on_screen(app)  # a card of the cut is told there: only more of it would be a leak
    leaked = sorted(card for card in hidden_cards(app) if left.count(card) > cut.count(card))
    assert not leaked, f"hidden cards on screen: {leaked}\n{screen_text(app)}"


def first_screen(app: PlayApp, read: Callable[[PlayApp], Any] = screen_text) -> Any:
    """What ``read`` finds on the table's first screen at 80x24 (by default the screen's text)."""

    async def run() -> Any:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return read(app)

    return asyncio.run(run())


Chooser = Callable[[list[Choice]], list[str]]


def first_of(*prefixes: str) -> Chooser:
    """Press the digit of the first choice whose label starts with one of ``prefixes`` (else choice 1)."""

    def choose(choices: list[Choice]) -> list[str]:
        for prefix in prefixes:
            for k, choice in enumerate(choices):
                if choice.label.startswith(prefix) and k < 9:
                    return [str(k + 1)]
        return ["1"]

    return choose


async def play_hand(app: PlayApp, choose: Chooser, screens: list[str], max_moves: int = 300,
                    leak_check: bool = True, after: tuple[str, ...] = ()) -> str:
    """Answer every decision with ``choose`` until the end-of-hand notice; keep every screen seen; then press
    Enter and the keys ``after``. Returns the whole game log."""
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(max_moves):
            await pilot.pause()
            screens.append(screen_text(app))
            if leak_check:
                check_no_leak(app)
            if isinstance(app.screen, Notice):
                break
            if isinstance(app.screen, ShowdownScreen):
                await pilot.press("enter")  # any key goes on
                continue
            bar = app.board.query_one(ActionBar)
            assert bar.choices, f"the table waits, but offers no action:\n{screens[-1]}"
            for key in choose(bar.choices):
                await pilot.press(key)
        else:
            raise AssertionError("the hand did not end")
        log = log_text(app)
        await pilot.press("enter")  # leave the table (the evening had one hand), or deal the next
        await pilot.pause()
        for key in after:
            await pilot.press(key)
            await pilot.pause()
    return log


def test_a_hand_of_rummoli_with_auction_and_betting(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="15")), pace=0)
    screens: list[str] = []
    moves: list[str] = []

    def choose(choices: list[Choice]) -> list[str]:
        labels = [c.label for c in choices]
        if "Bid" in labels and "bid" not in moves:
            moves.append("bid")  # the first bid: walk to it with the arrows and raise the amount by one
            return ["right"] * labels.index("Bid") + ["up", "enter"]
        return first_of("Pass", "Call", "Check", "Keep")(choices)

    joined = asyncio.run(play_hand(app, choose, screens)) + "\n".join(screens)
    auction = next(s for s in screens if "Widow auction (" in s)
    assert "Bid " in auction and "or pass" in auction  # the prompt shows the limits
    assert "Poker round for the Poker pot" in joined and ("to call" in joined or "nobody has bet" in joined)
    assert "You bid " in joined and ("You call" in joined or "You check" in joined) and "You lead" in joined
    assert "Board" in screens[0] and "Rummoli" in screens[0] and "Your hand (" in screens[0]
    end = screens[-1]
    assert "End of hand 1" in end or "The evening is over" in end
    assert " shows " in end and "Standings" in end
    # the board's balances on screen are the view's
    view = app.table.view()
    assert f"{'Poker':<16}{view['pots']['poker']:>5}" in screens[-2] or app.table.hand.over
    record = app.table.saved[0]
    result = replay(read_record(record))
    assert sum(result["chips"]) + sum(result["pots"].values()) == 400


def test_a_hand_of_michigan_in_ascii(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="michigan", seed="1", ascii=True)), ascii=True, pace=0)
    screens: list[str] = []
    joined = asyncio.run(play_hand(app, first_of("Lead"), screens, leak_check=False)) + "\n".join(screens)
    assert not any(s in joined for s in SUITS + "▶"), "--ascii must show no suit symbol"
    assert "q quit" in screens[0] and "↑↓" not in screens[-1], "the keys in ASCII, whole at 80 columns"
    assert "Michigan" in screens[0] and "Kitty" in screens[0]
    assert "leads" in joined and " plays " in joined  # forced plays are shown, not hidden
    assert "The evening is over" in screens[-1]
    assert json.loads(app.table.saved[0].read_text())["ruleset"] == "michigan"


def test_a_hand_of_straight_rummy(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="rummy", players=3, seed="3")), pace=0)
    screens: list[str] = []
    joined = asyncio.run(play_hand(app, first_of("Meld", "Draw", "Discard"), screens, max_moves=600))
    joined += "\n".join(screens)
    assert "Stock" in screens[0] and "Discard:" in screens[0] and "Hand (7)" in screens[0]
    assert "You draw from the stock (" in joined and "You discard" in joined
    assert "deadwood" in joined or "points in hand" in joined
    assert "The evening is over" in screens[-1] or "End of hand 1" in screens[-1]
    assert replay(read_record(app.table.saved[0]))


def test_R_GIN_7_a_gin_evening_of_one_hand_says_it_adds_no_bonus(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="gin-rummy", players=2, seed="3")), pace=0)
    screens: list[str] = []
    asyncio.run(play_hand(app, first_of("Gin", "Knock", "Draw", "Discard", "Take", "Pass"), screens, max_moves=600))
    # The notice's words, whatever the lines they wrap on: what stands between each line's box borders.
    end = " ".join(" ".join(line.split("│")[1].split()) for line in screens[-1].splitlines() if line.count("│") >= 2)
    assert "The evening is over" in end
    assert "The game stopped before anyone reached 100 points, so no game or box bonus is added (R-GIN-7)." in end
    # headed by who wins, as the web page heads its final panel: the table's own sentence, from its standings
    leader = app.table.table.standings()[0]
    verb = "wins" if sum(row["winner"] for row in app.table.table.standings()) == 1 else "share the win"
    assert app.table.closing() in end and leader["name"] in app.table.closing() and verb in app.table.closing()
    assert f"with {leader['chips']} points." in app.table.closing()


def test_the_evening_is_saved_where_replay_reads_it(tmp_path: Path) -> None:
    table = open_table(options(tmp_path, ruleset="rummoli", seed="15", hands=2))
    assert "No hand" in table.goodbye()
    app = PlayApp(table, pace=0)
    asyncio.run(play_hand(app, first_of("Pass", "Check", "Fold", "Keep"), []))
    assert table.folder is not None and table.folder.parent == tmp_path
    assert str(table.saved[0]) in table.goodbye() and "rummoli replay" in table.goodbye()
    assert table.goodbye().startswith(f"1 hand record saved in {table.folder}\n")  # a count in plain words


def test_R_MI_1_the_log_opens_with_the_cut_for_the_deal(tmp_path: Path) -> None:
    """Before hand 1 the log says how the first dealer was chosen: each card of a stops game's cut (with suit letters
    in --ascii), a Rummy game's draw by lot."""
    from rummoli.wording import card_word

    for ascii in (False, True):
        app = PlayApp(open_table(options(tmp_path, ruleset="michigan", seed="15", ascii=ascii)), ascii=ascii, pace=0)
        lines = first_screen(app, log_text).split("\n== Hand 1/1 ==")[0]
        cut = app.table.table.cut
        assert cut and lines.startswith("The cut for the first deal: you "), lines
        words = [card_word(card) for held in cut for card in held.values()]
        for word in words:
            assert (word.translate(str.maketrans("♠♥♦♣", "shdc")) if ascii else word) in lines, (word, lines)
        assert not ascii or not any(s in lines for s in SUITS)
    app = PlayApp(open_table(options(tmp_path, ruleset="rummy", players=2, seed="15")), pace=0)
    assert first_screen(app, log_text).split("\n== Hand 1/1 ==")[0].endswith("The first dealer was chosen by lot.")


def test_snapshot_of_the_table(tmp_path: Path) -> None:
    """The first decision of seed 15 at 80x24, as plain text.

    To update after a deliberate change of the layout: ``RUMMOLI_UPDATE_SNAPSHOTS=1 .venv/bin/python -m
    pytest tests/tui -k snapshot``, then read the diff of ``tests/tui/snapshots/`` before committing it.
    """
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="15")), pace=0)
    text = first_screen(app)
    path = SNAPSHOTS / "rummoli-seed15.txt"
    if os.environ.get("RUMMOLI_UPDATE_SNAPSHOTS") or not path.exists():
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8")
    assert all(len(line) <= 80 for line in text.splitlines()) and len(text.splitlines()) == 24


def test_the_board_and_stacks_after_the_evenings_settlement(tmp_path: Path) -> None:
    """The terminal's board is the table's board: at the evening's end the settlement has shared it out, so every
    pot reads 0 (the hand's own view still holds the pots as its hand ended)."""
    table = open_table(options(tmp_path, ruleset="rummoli", players=3, bots=["random"], hands=1, seed="board-end"))
    while not table.hand.over:
        if table.human_to_act():
            table.act(table.view()["legal_actions"][0])
        else:
            assert table.step()
    assert table.evening_over and table.settle(), "the board was empty at the end: choose another seed"
    assert sum(table.table.hand.view(0)["pots"].values()) > 0
    assert set(table.view()["pots"].values()) == {0}
    # The stacks beside the board are the standings' (the settlement's chips in them), not the hand's end.
    by_name = {name: chips for _, name, chips in table.standings()}
    assert [str(c) for c in table.view()["chips"]] == [by_name[n] for n in table.view()["players"]]
    assert table.view()["chips"] != table.table.hand.view(0)["chips"]
    # The evening's record is saved beside the hands' and replays to the standings (only hands were saved).
    assert "The whole evening: rummoli replay" in table.goodbye()
    assert table.folder is not None
    whole = replay(read_record(table.folder / "evening.json"))
    final = {n: c + sum(e["paid"].get(n, 0) for e in whole["settlement"]) for n, c in whole["chips"].items()}
    assert {n: str(c) for n, c in final.items()} == by_name


def test_the_settlements_showdown_shows_its_cards(tmp_path: Path) -> None:
    """The board's showdown at the evening's end (R-SESSION-2) deals fresh fives: the terminal now shows them with
    the sentence, not the sentence alone."""
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", players=3, bots=["random"], hands=1,
                                     seed="board-end")), pace=0)
    screens: list[str] = []
    asyncio.run(play_hand(app, first_of("Pass", "Check", "Fold", "Keep", "Lead", "Play"), screens))
    shown = [s for row in app.table.settle() for s in row.get("showdown") or []]
    assert shown, "no showdown in the settlement: choose another seed"
    end = screens[-1]
    assert "The evening is over" in end
    for five in shown:
        assert f"{five['player']}: " in end and five["name"].lower() in end, (five, end)
    # written as the hand's showdown sentences above them write cards: a ten was T♠ there and 10♦ a line above
    assert any(c.startswith("T") for five in shown for c in five["cards"]), "no ten shown: choose another seed"
    for five in shown:
        assert f"{five['player']}: {cards_word(five['cards'])}, " in end, (five, end)


def test_an_evening_left_early_keeps_its_record_of_the_hands_finished(tmp_path: Path) -> None:
    """q twice in hand 2 said "the evening ends here" and saved hand 1 alone: no evening record was kept."""
    app = PlayApp(open_table(options(tmp_path, ruleset="knock-rummy", players=2, hands=2, seed="left")), pace=0)
    asyncio.run(play_hand(app, first_of("Draw", "Discard"), [], after=("q", "q")))
    said = app.return_value or ""
    assert "not finished and is not saved" in said and "The whole evening: rummoli replay" in said, said
    evening = next(tmp_path.rglob("evening.json"))
    record = json.loads(evening.read_text(encoding="utf-8"))
    assert len(record["hands"]) == 1 and record["over"] is False
    replayed = replay(record)  # it replays as an evening of one finished hand, its standings as that hand left them
    assert replayed["hands"] == 1 and replayed["standings"] == record["standings"], replayed
    assert {row["name"]: row["chips"] for row in record["standings"]} == replayed["chips"], replayed
    from rummoli.summary import tell

    told = tell(record).splitlines()[-1]  # the summary says it stopped early, and how it stood
    assert told.startswith("The record ends after hand 1, before the evening's end. Standings then: "), told
    assert all(f"{row['name']} {row['chips']}" in told for row in record["standings"]), told


def test_a_terminal_smaller_than_80_by_24_is_told_so(tmp_path: Path) -> None:
    """At 70 x 20 the table's lines were cut with no word; the key line now says what it needs, and goes back to
    the keys once the terminal is large enough."""
    app = PlayApp(open_table(options(tmp_path, ruleset="tripoley", seed="3")), pace=0)

    async def run() -> tuple[str, str]:
        async with app.run_test(size=(70, 20)) as pilot:
            await pilot.pause()
            small = screen_text(app)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            return small, screen_text(app)

    small, large = asyncio.run(run())
    assert "The table needs 80 x 24 (this terminal is 70 x 20)" in small, small
    assert "needs 80 x 24" not in large and "? help" in large, large


def test_q_in_the_middle_of_a_hand_asks_first(tmp_path: Path) -> None:
    """One key left the table mid-hand, the hand unfinished and unsaved: q now asks; Enter stays, q again leaves."""
    app = PlayApp(open_table(options(tmp_path, ruleset="tripoley", seed="3")), pace=0)

    async def run() -> tuple[str, bool, str | None]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            asked = screen_text(app)
            await pilot.press("enter")  # stay
            await pilot.pause()
            stayed = not isinstance(app.screen, Notice) and app.return_value is None
            await pilot.press("q", "q")  # leave
            await pilot.pause()
        return asked, stayed, app.return_value

    asked, stayed, said = asyncio.run(run())
    assert "Leave the table?" in asked and "will not be saved" in asked, asked
    assert stayed and said is not None and "not finished" in said
    # The standings are those before the unsaved hand: its ante taken (94, not 100) read as chips lost for good
    start = app.table.table.hand.start_chips  # the stacks before the hand's ante
    first, second = said.splitlines()[:2]  # the standings straight after the sentence that brings them in
    assert first.startswith("The hand in play was not finished") and second.split() == [
        w for place, name, value in app.table.standings(True) for w in (f"{place}.", name, value)]
    assert sorted(int(v) for _p, _n, v in app.table.standings(True)) == sorted(start), said


def test_s_puts_the_choices_in_the_new_suit_order_too(tmp_path: Path) -> None:
    """s changed the order of the hand line, and the discards offered kept the old one (a QA pass)."""
    from rummoli.tui.cardtext import sort_cards

    app = PlayApp(open_table(options(tmp_path, ruleset="gin-rummy", players=2, seed="suits")), pace=0)

    async def run() -> list[tuple[list[str], list[str]]]:
        seen = []
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(40):
                await pilot.pause()
                bar = app.board.query_one(ActionBar)
                if any(c.action["action"] == "discard" for c in bar.choices):
                    break
                await pilot.press("1")  # take the upcard, pass or draw: the first choice
            for _ in range(2):
                bar = app.board.query_one(ActionBar)
                discards = [c.cards[0] for c in bar.choices if c.action["action"] == "discard"]
                hand = sort_cards(app.board.view["hand"], app.board.suit_order, True)
                seen.append((discards, [c for c in hand if c in discards]))
                await pilot.press("s")
                await pilot.pause()
        return seen

    seen = asyncio.run(run())
    assert seen[0][0] != seen[1][0]  # the order changed ...
    assert all(discards == in_hand_order for discards, in_hand_order in seen), seen  # ... as the hand's did


def test_the_table_looked_at_after_a_knock_rummy_hand_counts_your_hand_as_the_result_does(tmp_path: Path) -> None:
    """Pressing v at the end of a hand showed "deadwood 0" under seven unmatched cards: the view at the end has no
    arrangement, and the line read its absence as a count of nothing."""
    app = PlayApp(open_table(options(tmp_path, ruleset="knock-rummy", seed="7", hands=2)), pace=0)

    async def run() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(600):
                await pilot.pause()
                if isinstance(app.screen, Notice):
                    break
                choices = app.board.query_one(ActionBar).choices
                await pilot.press(first_of("Draw", "Discard")(choices)[0])
            await pilot.press("v")
            await pilot.pause()
            return screen_text(app)

    rows = [row.split("│")[0] for row in asyncio.run(run()).splitlines()]
    view = app.table.view()
    count = view["outcome"]["counts"][view["seat"]]
    below = rows[next(k for k, row in enumerate(rows) if row.startswith("Hand (")) + 1]
    assert count > 0 and below.strip() == f"deadwood {count}", "\n".join(rows)


def test_an_amount_typed_out_of_its_range_is_refused_in_one_line_and_changes_nothing(tmp_path: Path) -> None:
    """Typed above the most a bid may be, the amount was silently cut to the most, shown so before Enter (a player who
    meant 19 and hit 95 saw 91, the most, ready to go). Now the digit is refused, one line under the choices names the
    limit, and the digits typed stay; below the least, Enter is refused the same way. The next key clears the line."""
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="15")), pace=0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            bar = app.board.query_one(ActionBar)
            bid = next(c for c in bar.choices if c.label == "Bid")
            low, high = bid.low, bid.high
            assert (low, high) == (23, 91)  # this seed's first decision: the auction, someone having bid 22
            for key in ("a", "9", "5"):
                await pilot.press(key)
            await pilot.pause()
            lines = screen_text(app).splitlines()
            assert bar.typing == "9" and bid.amount == low, (bar.typing, bid.amount)
            said = [line for line in lines if "95" in line]
            assert said == ["Bid at most 91: 95 is above that."], lines[-6:]
            assert any("Bid [9_] 23-91" in line for line in lines), lines[-6:]
            await pilot.press("enter")  # 9 is below the least: refused, said, nothing chosen
            await pilot.pause()
            assert bar.choices and bar.typing == "9"
            assert "Bid at least 23: 9 is below that." in screen_text(app)
            await pilot.press("0")  # 90: in range, and the line is gone
            await pilot.pause()
            assert bar.typing == "90" and "below that" not in screen_text(app) and "above that" not in screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
            assert "You bid 90." in log_text(app)

    asyncio.run(run())


def test_each_meld_on_the_table_is_on_one_line_with_its_owner(tmp_path: Path) -> None:
    """The melds on the table are listed as "N:cards owner": wrapped at the table's edge, a meld could end one line and
    its owner begin the next, before the next meld ("4:T♠T♥T♦T♣" / "Cy  5:2♠3♠…"), as if that owner's were meld 5
    (at 500 Rum whose meld a card is laid off on is what the players count). Each piece now stays whole."""
    from rummoli.tui.cardtext import cards_line, meld_order

    app = PlayApp(open_table(options(tmp_path, ruleset="500-rum", bots=["easy"], seed="8")), pace=0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            most = 0
            for _ in range(80):
                if isinstance(app.screen, Notice):
                    break
                view = app.table.view()
                rows = [line[:RIGHT_PANEL] for line in screen_text(app).splitlines()[2:5]]
                for k, meld in enumerate(view["melds"]):
                    piece = f"{k + 1}:{cards_line(meld_order(meld['cards']), False, sep='').plain} " \
                            f"{view['players'][meld['owner']][:3]}"
                    assert any(piece in row for row in rows), (piece, rows)
                most = max(most, len(view["melds"]))
                await pilot.press("1")
                await pilot.pause()
            assert most >= 8, most  # enough melds to need three lines

    asyncio.run(run())


def test_the_stock_and_discard_line_never_takes_the_melds_line(tmp_path: Path) -> None:
    """Once the pile had been turned over, "Stock 1 (turned once)   Discard: T♠  under it: 8♣ 5♣ Q♠ 2♠ 7♦ …" was wider
    than the table and wrapped onto the melds' first line (and a table of three lines of melds lost its last). The
    cards under the top one are now as many as fit."""
    app = PlayApp(open_table(options(tmp_path, ruleset="rummy", bots=["easy"], players=3, seed="4")), pace=0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            turned = False
            for _ in range(80):
                if isinstance(app.screen, Notice):
                    break
                rows = [line[:RIGHT_PANEL].rstrip() for line in screen_text(app).splitlines()]
                assert rows[1].startswith("Stock ") and "Discard: " in rows[1], rows[:4]
                assert rows[2] == "" or rows[2].startswith(("1:", "No melds", "Melds stay")), rows[:4]
                turned = turned or "(turned once)" in rows[1]
                await pilot.press("1")
                await pilot.pause()
            assert turned, "a seed whose hand turns the pile over"

    asyncio.run(run())
