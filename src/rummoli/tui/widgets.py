"""Widgets shared by both tables: the action bar (the legal actions, chosen by keyboard) and the
end-of-hand notice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
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
    """The legal actions, the selected one highlighted.  ←/→ or Tab move, Enter chooses, 1-9 choose at once;
    ↑/↓ (+/-), PgUp/PgDn and Home/End set an amount."""

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
        Binding("enter,space", "choose", "choose", show=False),
        *(Binding(str(k), f"quick({k})", show=False) for k in range(1, 10)),
    ]

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

    def set_choices(self, choices: list[Choice], waiting: str = "") -> None:
        """New legal actions; the selection stays on the same label when it can."""
        old = self.current.label if self.current else None
        self.choices = choices
        self.waiting = waiting
        labels = [c.label for c in choices]
        self.selected = labels.index(old) if old in labels else 0
        self.refresh()

    @property
    def current(self) -> Choice | None:
        return self.choices[self.selected] if 0 <= self.selected < len(self.choices) else None

    def lines(self, width: int) -> tuple[list[Text], int]:
        """The entries packed into lines of ``width``; also the line holding the selection."""
        lines: list[Text] = [Text()]
        chosen_line = 0
        for k, choice in enumerate(self.choices):
            tag = f"{k + 1}" if k < 9 else " "
            piece = f" {tag} {choice.text()} "
            if lines[-1].cell_len and lines[-1].cell_len + len(piece) + 1 > width:
                lines.append(Text())
            if lines[-1].cell_len:
                lines[-1].append(" ")
            style = "reverse bold" if k == self.selected else "bold green"
            lines[-1].append(piece, style=style)
            if k == self.selected:
                chosen_line = len(lines) - 1
        return lines, chosen_line

    def render(self) -> Text:
        if not self.choices:
            return Text(self.waiting or "", style="dim")
        width = max(20, self.size.width)
        height = max(1, self.size.height)
        lines, at = self.lines(width)
        top = max(0, min(at - height + 1, len(lines) - height)) if len(lines) > height else 0
        shown = lines[top: top + height]
        if len(lines) > height:
            more = f"({at + 1}/{len(lines)} lines)"
            shown[-1 if top + height < len(lines) else 0].append(f" {more}", style="dim")
        return Text("\n").join(shown)

    # ------------------------------------------------------------------------------ actions
    def action_move(self, step: int) -> None:
        if self.choices:
            self.selected = (self.selected + step) % len(self.choices)
            self.refresh()
            self.post_message(self.Moved())

    def action_amount(self, step: int) -> None:
        choice = self.current
        if choice is not None and choice.has_amount:
            choice.amount = max(choice.low, min(choice.high, choice.amount + step))
            self.refresh()
            self.post_message(self.Moved())

    def action_extreme(self, side: int) -> None:
        choice = self.current
        if choice is not None and choice.has_amount:
            choice.amount = choice.high if side > 0 else choice.low
            self.refresh()
            self.post_message(self.Moved())

    def action_choose(self) -> None:
        choice = self.current
        if choice is not None:
            self.choices = []
            self.refresh()
            self.post_message(self.Chosen(choice.resolved()))

    def action_quick(self, number: int) -> None:
        if 0 < number <= len(self.choices):
            self.selected = number - 1
            self.action_choose()


class Notice(ModalScreen[bool]):
    """The end of a hand or of the evening: a summary; Enter goes on, q quits."""

    DEFAULT_CSS = """
    Notice { align: center middle; }
    Notice > Vertical { width: 76; height: auto; max-height: 22; border: round $accent; padding: 0 1;
                        background: $surface; }
    Notice Static { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "go_on", "next", show=False),
        Binding("q,escape", "leave", "quit", show=False),
    ]

    def __init__(self, title: str, body: Text, prompt: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield Static(self.body)
            yield Static(Text(self.prompt, style="dim"))

    def action_go_on(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)
