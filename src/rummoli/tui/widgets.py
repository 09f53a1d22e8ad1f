"""Widgets shared by both tables: the action bar (the legal actions, chosen by keyboard) and the
end-of-hand notice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static


@dataclass
class Choice:
    """One entry of the action bar: an action, or an action with an amount to pick (``low``..``high``)."""

    label: str
    action: dict[str, Any]
    cards: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    amount: int = 0
    hint: str = field(default="")

    @property
    def has_amount(self) -> bool:
        return self.high > 0

    def resolved(self) -> dict[str, Any]:
        if self.has_amount:
            return {**self.action, "amount": self.amount}
        return dict(self.action)

    def text(self) -> str:
        return f"{self.label} [{self.amount}]" if self.has_amount else self.label


class ActionBar(Widget, can_focus=True):
    """The legal actions, the selected one highlighted, a page at a time (at most nine, numbered 1-9).

    ←/→ or Tab move (onto the next page too), Enter chooses, 1-9 choose on the page shown; an amount:
    ↑/↓ or +/- by one, PgUp/PgDn by ten, Home/End least/most, ``a`` to type it (Enter keeps it). A typed amount
    outside its range changes nothing: one line under the choices says so, naming the limit (:attr:`note`).
    """

    DEFAULT_CSS = """
    ActionBar { height: 3; }
    ActionBar:focus { background-tint: $foreground 0%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,shift+tab", "move(-1)", "previous", show=False),
        Binding("right,tab", "move(1)", "next", show=False),
        Binding("up,plus,equals_sign", "amount(1)", "more", show=False),
        Binding("down,minus", "amount(-1)", "less", show=False),
        Binding("pageup", "amount(10)", "more", show=False),
        Binding("pagedown", "amount(-10)", "less", show=False),
        Binding("home", "extreme(-1)", "least", show=False),
        Binding("end", "extreme(1)", "most", show=False),
        Binding("a", "type_amount", "type an amount", show=False),
        Binding("backspace", "erase", "erase a digit", show=False),
        Binding("escape", "stop_typing", "stop typing", show=False),
        Binding("enter,space", "choose", "choose", show=False),
        *(Binding(str(k), f"digit({k})", show=False) for k in range(10)),
    ]
    MARKER = 13  # columns kept on a page's last line for its marker when the choices need several pages

    class Chosen(Message):
        def __init__(self, action: dict[str, Any]) -> None:
            super().__init__()
            self.action = action

    class Moved(Message):
        pass

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.choices: list[Choice] = []
        self.selected = 0
        self.waiting = ""
        self.typing: str | None = None  # the digits typed so far for the selected amount, or None
        self.note = ""  # why the last key changed nothing (an amount out of range), shown until the next key

    def set_choices(self, choices: list[Choice], waiting: str = "") -> None:
        """New legal actions; the selection stays on the same label when it can."""
        old = self.current.label if self.current else None
        self.choices = choices
        self.waiting = waiting
        self.typing = None
        self.note = ""
        labels = [c.label for c in choices]
        self.selected = labels.index(old) if old in labels else 0
        self.refresh()

    @property
    def current(self) -> Choice | None:
        return self.choices[self.selected] if 0 <= self.selected < len(self.choices) else None

    def piece(self, k: int, number: int) -> str:
        choice = self.choices[k]
        text = choice.text()
        if k == self.selected and self.typing is not None:
            text = f"{choice.label} [{self.typing}_] {choice.low}-{choice.high}"
        return f" {number} {text} "

    def pages(self, width: int, height: int) -> list[list[list[int]]]:
        """The choices' indices by page and line: each page fits ``height`` lines of ``width`` and holds at
        most nine choices; with more than one page, room for the marker is kept on each page's last line."""

        def pack(marker: int) -> list[list[list[int]]]:
            pages: list[list[list[int]]] = [[[]]]
            used = count = 0
            for k in range(len(self.choices)):
                size = len(self.piece(k, 1))
                room = width - (marker if len(pages[-1]) == height else 0)  # the marker sits on a page's last line
                if count == 9:
                    pages.append([[]])
                    used = count = 0
                elif pages[-1][-1] and used + 1 + size > room:
                    if len(pages[-1]) == height:
                        pages.append([[]])
                        count = 0
                    else:
                        pages[-1].append([])
                    used = 0
                line = pages[-1][-1]
                used += size + (1 if line else 0)
                line.append(k)
                count += 1
            return pages

        pages = pack(0)
        return pack(self.MARKER) if len(pages) > 1 else pages

    def page_of(self, pages: list[list[list[int]]], k: int) -> int:
        return next((p for p, page in enumerate(pages) if any(k in line for line in page)), 0)

    def render(self) -> Text:
        if not self.choices:
            return Text(self.waiting or "", style="dim")
        width = max(20, self.size.width)
        height = max(1, self.size.height)
        pages = self.pages(width, height)
        at = self.page_of(pages, self.selected)
        shown: list[Text] = []
        number = 0
        for line in pages[at]:
            text = Text()
            for k in line:
                number += 1
                if text.cell_len:
                    text.append(" ")
                text.append(self.piece(k, number), style="reverse bold" if k == self.selected else "bold green")
            shown.append(text)
        if len(pages) > 1:
            arrows = ("<" if at else " ") + f" page {at + 1}/{len(pages)} " + (">" if at + 1 < len(pages) else " ")
            if len(shown) < height:  # a short last page: the marker on a line of its own
                shown.append(Text())
            shown[-1].append(" " * max(1, width - self.MARKER - shown[-1].cell_len + 1) + arrows, style="bold yellow")
        if self.note:  # under the choices (in place of the last line when they fill the bar)
            shown = [*shown[:height - 1], Text(self.note[:width], style="bold red")]
        return Text("\n").join(shown)

    def visible(self) -> list[int]:
        """The indices of the choices on the page shown (what 1-9 choose)."""
        width, height = max(20, self.size.width), max(1, self.size.height)
        pages = self.pages(width, height)
        return [k for line in pages[self.page_of(pages, self.selected)] for k in line]

    # ------------------------------------------------------------------------------ actions
    def on_key(self, _event: object) -> None:
        """Any key: the line saying why the key before it changed nothing has been read."""
        if self.note:
            self.note = ""
            self.refresh()

    def action_move(self, step: int) -> None:
        if self.choices:
            self.typing = None
            self.selected = (self.selected + step) % len(self.choices)
            self.refresh()
            self.post_message(self.Moved())

    def _on_amount(self) -> Choice | None:
        """The choice an amount key means: the selected one if it has an amount, else the first that has (the
        amount keys did nothing on a plain button, and Enter then passed: 'a 3 Enter' meant to bid 3)."""
        choice = self.current
        if choice is not None and not choice.has_amount:
            first = next((k for k, c in enumerate(self.choices) if c.has_amount), None)
            if first is not None:
                self.selected = first
                choice = self.current
        return choice

    def action_amount(self, step: int) -> None:
        choice = self._on_amount()
        if choice is not None and choice.has_amount:
            self.typing = None
            choice.amount = max(choice.low, min(choice.high, choice.amount + step))
            self.refresh()
            self.post_message(self.Moved())

    def action_extreme(self, side: int) -> None:
        choice = self.current
        if choice is not None and choice.has_amount:
            self.typing = None
            choice.amount = choice.high if side > 0 else choice.low
            self.refresh()
            self.post_message(self.Moved())

    def action_type_amount(self) -> None:
        choice = self._on_amount()
        if choice is not None and choice.has_amount:
            self.typing = ""
            self.refresh()
            self.post_message(self.Moved())

    def action_erase(self) -> None:
        if self.typing:
            self.typing = self.typing[:-1]
            self.refresh()

    def action_stop_typing(self) -> None:
        if self.typing is not None:
            self.typing = None
            self.refresh()

    def action_digit(self, digit: int) -> None:
        choice = self.current
        if self.typing is not None and choice is not None:
            typed = (self.typing + str(digit)).lstrip("0")[:6]
            if typed and int(typed) > choice.high:  # no amount starts this way: refused, said, nothing changes
                self.note = f"{choice.label} at most {choice.high}: {typed} is above that."
            else:
                self.typing = typed
            self.refresh()
            return
        visible = self.visible()
        if 0 < digit <= len(visible):
            self.selected = visible[digit - 1]
            self.action_choose()

    def action_choose(self) -> None:
        choice = self.current
        if choice is None:
            return
        if self.typing is not None:
            if not self.typing:
                self.typing = None  # nothing typed: back to the amount as it was
                self.refresh()
                return
            if int(self.typing) < choice.low:  # too few: said, and the digits stay to be put right
                self.note = f"{choice.label} at least {choice.low}: {self.typing} is below that."
                self.refresh()
                return
            choice.amount = int(self.typing)
            self.typing = None
        self.choices = []
        self.refresh()
        self.post_message(self.Chosen(choice.resolved()))


class Notice(ModalScreen[bool]):
    """The end of a hand or of the evening: a summary; Enter goes on, q quits, v hides it to look at the
    table (and [ ] scroll the log behind)."""

    DEFAULT_CSS = """
    Notice { align: center middle; }
    Notice > Vertical { width: 76; height: auto; max-height: 23; border: round $accent; padding: 0 1;
                        background: $surface; }
    Notice VerticalScroll { height: auto; max-height: 19; }
    Notice Static { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "go_on", "next", show=False),
        Binding("q,escape", "leave", "quit", show=False),
        Binding("v", "peek", "look at the table", show=False),
        Binding("left_square_bracket", "scroll_log(-1)", "log back", show=False),
        Binding("right_square_bracket", "scroll_log(1)", "log forward", show=False),
    ]

    def __init__(self, title: str, body: Text, prompt: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            with VerticalScroll():  # a long result scrolls with the arrows; the keys below stay in view
                yield Static(self.body)
            keys = self.prompt + " · ↑↓ more · v: look at the table"
            if getattr(self.app, "ascii", False):  # --ascii: no arrows or dots either
                keys = keys.replace("↑↓", "up/dn").replace("·", "-")
            yield Static(Text(keys, style="dim"))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_go_on(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)

    def action_peek(self) -> None:
        box = self.query_one(Vertical)
        box.display = not box.display

    def action_scroll_log(self, direction: int) -> None:
        behind = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else None
        scroll = getattr(behind, "action_scroll_log", None)
        if scroll is not None:
            scroll(direction)


class ShowdownScreen(ModalScreen[None]):
    """The poker round's showdown: each contender's best five and who won; any key goes on (or, at a
    table with a pace, it closes by itself after ``pause`` seconds)."""

    DEFAULT_CSS = """
    ShowdownScreen { align: center middle; }
    ShowdownScreen > Vertical { width: 60; height: auto; border: round $warning; padding: 0 1;
                                background: $surface; }
    """

    def __init__(self, body: Text, pause: float = 0.0) -> None:
        super().__init__()
        self.body = body
        self.pause = pause

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Showdown", style="bold"))
            yield Static(self.body)
            yield Static(Text("Any key goes on", style="dim"))

    def on_mount(self) -> None:
        if self.pause > 0:
            self.set_timer(self.pause, self.go_on)

    def on_key(self, event: Any) -> None:
        event.stop()
        self.go_on()

    def go_on(self) -> None:
        if self.is_current:
            self.dismiss(None)
