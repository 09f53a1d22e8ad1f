"""The terminal table explains itself (issue 15): the help, the showdown, prompts that say what keep, the
auction and the upcard mean and are never stale, every choice reachable at 80x24, amounts in a range, the
log scrolled by keys, Gin's words, lay-offs and runs read as a player reads them.  Played through Textual's
pilot at 80x24, as in ``test_play.py``."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from test_play import first_of, first_screen, options, screen_text  # type: ignore[import-not-found]
from textual.app import App, ComposeResult
from textual.widgets import RichLog

from rummoli.rummy.words import Speaker
from rummoli.tui.app import PlayApp
from rummoli.tui.help import KEYS, HelpScreen
from rummoli.tui.rummy_screen import rummy_choices
from rummoli.tui.tables import PlayOptions, open_table
from rummoli.tui.widgets import ActionBar, Choice, Notice, ShowdownScreen


def test_the_help_lists_every_key_and_opens_the_rules_of_the_game(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="15")), pace=0)
    bound: set[str] = set()
    from rummoli.tui.screen_base import TableScreen

    for owner in (PlayApp, ActionBar, Notice, TableScreen, HelpScreen):
        for binding in getattr(owner, "BINDINGS", []):
            bound |= set(binding.key.split(","))
    documented = " ".join(key for key, _ in KEYS)
    names = {"left": "←", "right": "→", "shift+tab": "Shift+Tab", "tab": "Tab", "up": "↑", "down": "↓",
             "plus": "+", "minus": "-", "equals_sign": "+", "pageup": "PgUp", "pagedown": "PgDn", "home": "Home",
             "end": "End", "enter": "Enter", "space": "Space", "escape": "Esc", "backspace": "Backspace",
             "question_mark": "?", "left_square_bracket": "[", "right_square_bracket": "]", "n": "Enter",
             **{str(d): "1 - 9" for d in range(10)}}
    for key in bound:
        shown = names.get(key, key)
        assert shown in documented or shown in " ".join(what for _, what in KEYS), f"key {key!r} is not in the help"

    async def run() -> tuple[str, str, bool]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            first = screen_text(app)
            for _ in range(12):
                await pilot.press("pagedown")
            await pilot.pause()
            later = screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            return first, later, isinstance(app.screen, HelpScreen)

    first, later, still_open = asyncio.run(run())
    assert "Keys" in first and "PgUp PgDn" in first and "type the amount" in first
    assert "T♦ is the ten of diamonds" in first  # the hand writes a ten as T, the log as 10
    assert "worked example" in later.lower() or "What each pot pays" in later
    assert not still_open


def test_a_showdown_stays_on_screen_with_each_best_five_and_the_winner(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="15", players=3)), pace=0)
    seen: list[str] = []
    end: list[str] = []

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(300):
                await pilot.pause()
                if isinstance(app.screen, ShowdownScreen):
                    await pilot.pause()
                    seen.append(screen_text(app))
                    await pilot.pause(0.2)
                    assert isinstance(app.screen, ShowdownScreen), "the showdown must wait for a key"
                    await pilot.press("x")
                    continue
                if isinstance(app.screen, Notice):
                    end.append(screen_text(app))
                    await pilot.press("v")
                    await pilot.pause()
                    end.append(screen_text(app))
                    await pilot.press("enter")
                    return
                bar = app.board.query_one(ActionBar)
                for key in first_of("Call", "Check", "Keep", "Pass", "Lead")(bar.choices):
                    await pilot.press(key)

    asyncio.run(run())
    assert seen, "no showdown came up"
    shown = [e for e in app.table.view()["events"] if e["type"] == "showdown"]
    names = app.table.view()["players"]
    # the showdown box (its lines between the borders, joined as they wrap) tells each best five as the log does
    box = " ".join(" ".join(line.split("│")[-2].split()) for line in seen[0].splitlines() if line.count("│") >= 2)
    for event in shown:
        assert event["text"] in box, (event["text"], box)
        assert names[event["seat"]] in event["text"]
    assert " the Poker pot: " in box and "Any key goes on" in seen[0]
    assert " shows " in end[0] and "Board" in end[1] and "End of hand" not in end[1]


def test_the_dealer_is_told_what_keep_and_swap_mean(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="0", players=3)), pace=0)

    text, labels = first_screen(app, lambda app: (app.board.prompt_text(app.board.view).plain,
                                                  [c.label for c in app.board.query_one(ActionBar).choices]))
    assert "You deal. Keep your hand: the others bid for the widow" in text
    assert "the winner pays you and swaps hands with it" in text and "swap yours for the widow, unseen" in text
    assert labels == ["Swap for the widow", "Keep (widow to auction)"] or set(labels) == {
        "Swap for the widow", "Keep (widow to auction)"}


def test_a_move_made_for_the_player_is_not_offered_as_a_choice(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="0", players=3)), pace=0)

    async def run() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            view = dict(app.table.view())
            view["phase"], view["to_act"] = "play", [view["seat"]]
            view["legal_actions"] = [{"seat": view["seat"], "action": "lead", "card": view["hand"][0]}]
            app.board.show(view, [], human_turn=False)  # the table is about to play the only lead
            await pilot.pause()
            return screen_text(app)

    text = asyncio.run(run())
    assert "choose one of" not in text and "made for you" in text and "Waiting for …" not in text


class BarApp(App[None]):
    def __init__(self, choices: list[Choice]) -> None:
        super().__init__()
        self.choices = choices
        self.chosen: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield ActionBar()

    def on_mount(self) -> None:
        bar = self.query_one(ActionBar)
        bar.set_choices(self.choices)
        bar.focus()

    def on_action_bar_chosen(self, message: ActionBar.Chosen) -> None:
        self.chosen.append(message.action)


def test_every_choice_is_reachable_at_80x24_with_the_page_in_view() -> None:
    choices = [Choice(f"Meld Q♠K♠A♠ and more {k:02d}", {"action": "meld", "k": k}) for k in range(23)]
    app = BarApp(choices)
    expected: list[int] = []

    async def run() -> tuple[list[str], list[int]]:
        screens: list[str] = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            bar = app.query_one(ActionBar)
            for _ in range(len(choices)):
                screens.append(screen_text(app))
                await pilot.press("right")
            all_pages = bar.pages(80, 3)
            while bar.page_of(all_pages, bar.selected) != 1:
                await pilot.press("right")
            await pilot.press("3")
            await pilot.pause()
            expected.append(all_pages[1][0][2] if len(all_pages[1][0]) > 2 else all_pages[1][1][0])
            return screens, [len(all_pages)]

    screens, (pages,) = asyncio.run(run())
    assert pages >= 3
    for k, screen in enumerate(screens):
        assert f"more {k:02d}" in screen, f"choice {k} never on screen"
        assert "page " in screen and f"/{pages}" in screen
        assert all(len(line) <= 80 for line in screen.splitlines())
    assert [a["k"] for a in app.chosen] == expected  # "3" chose the third choice of the page shown
    numbers = {int(n) for screen in screens for n in re.findall(r"(\d+) Meld", screen)}
    assert numbers == set(range(1, max(numbers) + 1)) and max(numbers) <= 9  # 1-9 reach all on a page


def test_an_amount_can_be_any_in_its_range_by_keys_or_typed() -> None:
    def bet() -> Choice:
        return Choice("Bet", {"action": "bet"}, low=2, high=57, amount=2)

    async def press(*keys: str, first: str = "right") -> list[dict[str, Any]]:
        app = BarApp([Choice("Check", {"action": "check"}), bet()])
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*([first] if first else []), *keys)
            await pilot.pause()
        return app.chosen

    # On the plain first button, "a" (and the arrows up and down) mean the amount's choice: "a 3 Enter" checked.
    assert asyncio.run(press("a", "3", "enter", first="")) == [{"action": "bet", "amount": 3}]
    assert asyncio.run(press("up", "enter", first="")) == [{"action": "bet", "amount": 3}]

    assert asyncio.run(press("a", "4", "2", "enter")) == [{"action": "bet", "amount": 42}]
    assert asyncio.run(press("up", "plus", "pageup", "enter")) == [{"action": "bet", "amount": 14}]
    assert asyncio.run(press("end", "minus", "enter")) == [{"action": "bet", "amount": 56}]
    # 99 is above the most: the second 9 is refused (said under the choices), and Enter bets the 9 typed
    assert asyncio.run(press("a", "9", "9", "enter")) == [{"action": "bet", "amount": 9}]
    assert asyncio.run(press("a", "1", "enter", "0", "enter")) == [{"action": "bet", "amount": 10}]  # 1: too few
    assert asyncio.run(press("a", "1", "backspace", "escape", "home", "enter")) == [{"action": "bet", "amount": 2}]


def test_the_log_scrolls_by_keyboard(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="rummoli", seed="15")), pace=0)

    async def run() -> tuple[float, float, float]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.board.log_lines([f"line {k}" for k in range(60)])
            await pilot.pause()
            log = app.board.query_one("#log", RichLog)
            end = log.scroll_offset.y
            await pilot.press("left_square_bracket", "left_square_bracket")
            await pilot.pause()
            back = log.scroll_offset.y
            await pilot.press("right_square_bracket")
            await pilot.pause()
            return end, back, log.scroll_offset.y

    end, back, forward = asyncio.run(run())
    assert back < end and back < forward <= end


def test_michigan_shows_no_poker_hand(tmp_path: Path) -> None:
    app = PlayApp(open_table(options(tmp_path, ruleset="michigan", seed="1")), pace=0)

    assert "poker" not in first_screen(app).lower()


def test_gin_speaks_of_the_upcard_and_of_no_melds_on_the_table(tmp_path: Path) -> None:
    app = PlayApp(open_table(PlayOptions(ruleset="gin-rummy", players=2, bots=["random"], hands=1, seed="0",
                                         pace=0, save=tmp_path)), pace=0)

    text, labels = first_screen(app, lambda app: (screen_text(app),
                                                  [c.label for c in app.board.query_one(ActionBar).choices]))
    assert "The upcard is" in text and "take it, or pass" in text
    assert "Melds stay in the hands" in text and "No melds on the table" not in text
    assert labels[0].startswith("Take the upcard") and "Pass (leave the upcard)" in labels


def test_lay_offs_read_as_actions_and_runs_in_order() -> None:
    view: dict[str, Any] = {
        "style": "straight", "players": ["You", "Bob"], "discard": ["9c"],
        "melds": [{"cards": ["6h", "4h", "5h"], "owner": 1}, {"cards": ["3s", "As", "2s"], "owner": 1}],
        "legal_actions": [{"seat": 0, "action": "layoff", "card": "7h", "meld": 0},
                          {"seat": 0, "action": "layoff", "card": "4s", "meld": 1},
                          {"seat": 0, "action": "meld", "cards": ["Kd", "Ad", "Qd"]}],
    }
    labels = [c.label for c in rummy_choices(view)]
    assert labels == ["Meld Q♦K♦A♦", "Lay off 7♥ on 4♥5♥6♥", "Lay off 4♠ on A♠2♠3♠"]
    # the log's sentences are the engine's (rummoli.rummy.words): melds and lay-offs in the order players read them
    speak = Speaker(["You", "Bob"], "straight")
    line = speak.line({"type": "action", "seat": 1, "action": "layoff", "card": "7h", "meld": 0},
                      meld=["6h", "4h", "5h"])
    assert line == "Bob lays off 7♥ on 4♥ 5♥ 6♥."
    assert speak.line({"type": "action", "seat": 1, "action": "meld", "cards": ["3s", "2s", "As"]}) == \
        "Bob melds A♠ 2♠ 3♠."
    gin = Speaker(["You", "Bob"], "gin")
    assert gin.line({"type": "action", "seat": 1, "action": "pass"}) == "Bob passes on the upcard."
    take = {"type": "action", "seat": 0, "action": "draw", "from": "discard", "card": "9c"}
    assert gin.line(take, upcard=True) == "You take the upcard 9♣."


def test_knock_rummys_first_choice_after_the_draw_is_a_discard_and_knocks_say_their_deadwood() -> None:
    """Enter takes the first choice: in Knock Rummy it was "Knock with ..." at any deadwood (a 10-point penalty one
    key away). Discards come first now, then the knocks, each with the deadwood it leaves; a gin would lead."""
    from rummoli.rummy import RummyGame
    from rummoli.tui.rummy_screen import RummyScreen

    game = RummyGame("knock-rummy", ["You", "Bob", "Cy"], seed=5)
    hand = game.deal()
    while not (hand.turn == 0 and hand.phase == "play"):
        hand.apply(hand.legal_actions()[0])
    view = hand.view(0, guide=True)
    labels = [c.label for c in RummyScreen(False, game.rules).choices(dict(view))]
    first_knock = next(k for k, label in enumerate(labels) if label.startswith("Knock"))
    assert labels[0].startswith("Discard") and all(label.startswith("Knock") for label in labels[first_knock:])
    assert all("(deadwood " in label or "(gin)" in label for label in labels[first_knock:]), labels


def test_the_title_names_the_ruleset_not_its_style() -> None:
    """Block Rummy's header said "Rummy" (its style's name) while its help said Block Rummy."""
    from rummoli.rummy import RummyGame
    from rummoli.tui.rummy_screen import RummyScreen

    game = RummyGame("block-rummy", ["You", "Bob"], seed=1)
    view = dict(game.deal().view(0))
    assert str(RummyScreen(False, game.rules).title_text(view)).startswith(" Block Rummy · ")


def test_a_stops_and_a_poch_title_name_the_ruleset_by_its_title_as_the_page_does(tmp_path: Path) -> None:
    """The stops tables' header was the ruleset's name capitalized: "Rummoli-tripoley", and "Tripoley" for the box
    rules, where the page and `rummoli rules` say "Rummoli, Tripoley board" and "Tripoley (box rules)"."""
    for ruleset in ("rummoli-tripoley", "tripoley", "michigan", "poch-hoyle"):
        table = open_table(PlayOptions(ruleset=ruleset, players=4, bots=["random"], hands=1, seed="1", pace=0,
                                       save=tmp_path))
        app = PlayApp(table, pace=0)
        first = first_screen(app).splitlines()[0]
        assert first.startswith(f" {table.rules.title} · hand 1/1 · "), (ruleset, first)
