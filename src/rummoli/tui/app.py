"""The terminal table's application: it steps the bots at a readable pace, passes the player's choices
to the engine, and shows the end of each hand and of the evening.

The screens draw from the human seat's view only (:meth:`rummoli.tui.tables.Table.view`).
"""

from __future__ import annotations

import importlib
from typing import ClassVar

from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType

from rummoli.errors import IllegalAction, MalformedInput
from rummoli.tui.narrate import EventLog
from rummoli.tui.screen_base import TableScreen
from rummoli.tui.tables import PlayOptions, TerminalTable, open_table
from rummoli.tui.widgets import ActionBar, Notice, ShowdownScreen
from rummoli.wording import ascii_text, cards_word

#: The table screen of each game family (rummoli.games), imported when a table of it opens.
SCREENS = {"stops": "rummoli.tui.stops_screen:StopsScreen", "rummy": "rummoli.tui.rummy_screen:RummyScreen",
           "poch": "rummoli.tui.poch_screen:PochScreen"}


class PlayApp(App[str]):
    """``rummoli play``: one human (seat 0) against computer players."""

    TITLE = "Rummoli"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "suits", "suit order"),
        Binding("q", "leave", "quit"),
        Binding("question_mark", "help", "help"),
    ]

    def __init__(self, table: TerminalTable, ascii: bool = False, pace: float = 0.7) -> None:
        super().__init__()
        self.table = table
        self.ascii = ascii
        self.pace = pace
        self.narrator = EventLog(ascii)
        self.board: TableScreen
        self._ending = False
        self._showdowns = 0  # showdown events of the hand already shown on their own screen

    # ------------------------------------------------------------------------------ set-up
    async def on_mount(self) -> None:
        module, name = SCREENS[self.table.game].split(":")
        self.board = getattr(importlib.import_module(module), name)(self.ascii, self.table.rules)
        await self.push_screen(self.board)
        self.board.log_lines([self.said(note) for note in self.table.notes])  # the cut's cards too, in --ascii
        self.start_hand()

    def hand_label(self) -> str:
        limit = self.table.options.hands
        return f"hand {self.table.hand_no}" + (f"/{limit}" if limit else "")

    def start_hand(self) -> None:
        self._ending = False
        self._showdowns = 0  # showdown events of the hand already shown on their own screen
        self.narrator.new_hand()
        self.board.hand_label = self.hand_label()
        self.board.log_lines([f"== {self.hand_label().capitalize()} =="], follow=True)
        self.refresh_view()
        self.advance()

    # ------------------------------------------------------------------------------ play
    def refresh_view(self) -> None:
        view = self.table.view()
        self.board.show(view, self.narrator.lines(view), self.table.human_to_act())

    def advance(self) -> None:
        """Let the bots (and forced plays) move until the player must act or the hand is over."""
        table = self.table
        if self.showdown():
            return
        if self.pace <= 0:
            while table.step():
                if self.showdown():
                    return
            self.refresh_view()
            self.check_over()
            return
        if not table.can_step():
            self.check_over()
            return
        self.set_timer(self.pace / 2 if table.forced() else self.pace, self._tick)

    def _tick(self) -> None:
        if self.table.quit:
            return
        self.table.step()
        self.refresh_view()
        self.advance()

    def showdown(self) -> bool:
        """Show a new showdown on its own screen until a key (or a pause); the table goes on after it."""
        view = self.table.view()
        count = sum(1 for event in view["events"] if event["type"] == "showdown")
        if count <= self._showdowns:
            return False
        self._showdowns = count
        self.refresh_view()
        from rummoli.tui.stops_screen import showdown_text

        pause = max(8.0, 20 * self.pace) if self.pace > 0 else 0.0  # a table with a pace goes on by itself
        self.push_screen(ShowdownScreen(showdown_text(view, self.ascii), pause), lambda _: self.advance())
        return True

    def check_over(self) -> None:
        if self.table.hand.over and not self._ending:
            self._ending = True
            self.hand_over()

    def on_action_bar_chosen(self, message: ActionBar.Chosen) -> None:
        try:
            self.table.act(message.action)
        except (IllegalAction, MalformedInput) as error:
            self.board.log_lines([f"Not allowed: {error}"])
        self.refresh_view()
        self.advance()

    # ------------------------------------------------------------------------------ ends
    def hand_over(self) -> None:
        table = self.table
        table.finish_hand()
        body = Text()
        result = table.result()
        body.append(self.said(result["headline"]) + "\n", style="bold green")
        body.append_text(self.standings_text())
        body.append("\n\n")
        if table.evening_over:  # the evening's own end first: the box shows what fits, the last hand's detail after
            self.settlement_text(body)
            label = self.hand_label_done()
            body.append(f"{label[0].upper()}{label[1:]}, the last:\n", style="bold")
        for line in result["lines"][1:]:
            body.append(self.said(line) + "\n")
        if table.evening_over:
            self.evening_over(body)
            return
        self.push_screen(Notice(f"End of {self.hand_label_done()}", body, "Enter: next hand · q: quit"),
                         self._after_notice)

    def said(self, text: str) -> str:
        """An engine's sentence as this terminal shows it (suit letters in ``--ascii`` mode)."""
        return ascii_text(text) if self.ascii else text

    def hand_label_done(self) -> str:
        return f"hand {self.table.hand_no}"

    def standings_text(self) -> Text:
        label = self.table.table.family.unit
        out = Text()
        out.append(f"Standings ({label}): ", style="bold")
        out.append("  ".join(f"{place}. {name} {value}" for place, name, value in self.table.standings()))
        return out

    def settlement_text(self, body: Text) -> None:
        """The evening's end: the board's settlement with its fives, the bonuses, and what the end adds in words."""
        table = self.table
        for row in table.settle():
            body.append(self.said(row["text"]) + "\n", style="bold")
            for shown in row.get("showdown") or []:  # the fives of the settlement's own deal (R-SESSION-2)
                cards = cards_word(shown["cards"])  # as the hand's showdown sentences write them (a ten is 10)
                mark = " — takes it" if shown.get("won") else ""
                body.append(self.said(f"  {shown['player']}: {cards}, {shown['name'].lower()}{mark}") + "\n")
        for bonus in table.bonuses():
            body.append(self.said(bonus["text"]) + "\n", style="bold")
        if table.end_note():
            body.append(self.said(table.end_note()) + "\n")
        if body.plain.strip():
            body.append("\n")

    def evening_over(self, body: Text) -> None:
        table = self.table
        body.append("\n" + table.goodbye(), style="dim")
        # headed by who wins, as the web page heads its final panel (not when the player left before the end)
        title = self.said(table.closing()) or "The evening is over"
        self.push_screen(Notice(title, body, "Enter or q: leave the table"),
                         lambda _: self.leave())

    def _after_notice(self, go_on: bool | None) -> None:
        if go_on:
            self.table.next_hand()
            self.start_hand()
        else:
            self.leave()

    def action_help(self) -> None:
        from rummoli.tui.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.table.view()["ruleset"], self.ascii))

    def action_suits(self) -> None:
        order = self.board.toggle_order()
        self.board.log_lines([f"Suit order: {order}"])

    def action_leave(self) -> None:
        """q: leave; in the middle of a hand first asked (one key left it, the hand unfinished and unsaved)."""
        table = self.table
        if table.hand is None or table.hand.over or isinstance(self.screen, Notice):
            self.leave()
            return
        body = Text("The hand in play is not finished: it will not be saved, and the evening ends here.")
        self.push_screen(Notice("Leave the table?", body, "Enter: stay at the table · q: leave"),
                         lambda stay: None if stay else self.leave())

    def leave(self) -> None:
        table = self.table
        table.quit = True
        unfinished = table.hand is not None and not table.hand.over
        lines = ["The hand in play was not finished and is not saved: the standings are those before it."] \
            if unfinished else []
        # the standings straight after the sentence that brings them in, then where the records are
        lines.append(" ".join(f"{place}. {name} {value}" for place, name, value in table.standings(unfinished)))
        lines.append(table.goodbye())
        self.exit("\n".join(lines))


def run_play(options: PlayOptions) -> str:
    """Open the table and play until the evening ends or the player quits; returns the goodbye text."""
    table = open_table(options)
    app = PlayApp(table, options.ascii, options.pace)
    result = app.run()
    if app.return_code:  # the table stopped on an error (Textual has shown it): never report success
        raise OSError(f"the table stopped on an error; {table.goodbye()}")
    return result or table.goodbye()
