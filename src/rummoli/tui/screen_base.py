"""What both tables share: the layout, the game log, the hand line, the prompt and the action bar.

Layout at 80x24: a title line; on the left the table (runs, or stock, discards and melds), the scrolling
log, your hand, the prompt and the action bar; on the right the board or the scores and the players;
a line of keys at the bottom.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import RichLog, Static

from rummoli.tui.cardtext import SUIT_ORDERS, order_text, sort_cards, styled_card
from rummoli.tui.widgets import ActionBar, Choice

KEYS = "←→ move  Enter choose  1-9 pick  ↑↓ a amount  [ ] log  s suits  ? help  q quit"
KEYS_ASCII = "<-/-> move  Enter ok  1-9 pick  up/dn a amount  [ ] log  s suits  ? help  q quit"  # 80 at most


class TableScreen(Screen[None]):
    """The common frame; :meth:`show` redraws everything from one view."""

    DEFAULT_CSS = """
    TableScreen #title { height: 1; background: $primary-background; text-style: bold; }
    TableScreen #keys { height: 1; color: $text-muted; }
    TableScreen #body { height: 1fr; }
    TableScreen #left { width: 1fr; }
    TableScreen #right { width: 27; border-left: solid $primary; padding-left: 1; }
    TableScreen #table { height: 2; }
    TableScreen #log { height: 1fr; border-top: solid $primary; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    TableScreen #hand { height: 3; border-top: solid $primary; }
    TableScreen #prompt { height: 3; color: $warning; }
    """
    TABLE_HEIGHT = 2
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "scroll_log(-1)", "log back", show=False),
        Binding("right_square_bracket", "scroll_log(1)", "log forward", show=False),
    ]

    def __init__(self, ascii: bool = False, rules: Any = None) -> None:
        super().__init__()
        self.ascii = ascii
        self.rules = rules  # the loaded ruleset of the table's game
        self.order = 0
        self.view: dict[str, Any] | None = None
        self.human_turn = False  # the player has a decision to make now (not a forced card played for them)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static(id="table")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, max_lines=2000, min_width=20)
                yield Static(id="hand")
                yield Static(id="prompt")
                yield ActionBar(id="actions")
            yield Static(id="right")
        yield Static(KEYS_ASCII if self.ascii else KEYS, id="keys")

    def on_resize(self, event: events.Resize) -> None:
        """Below 80 x 24 the table's lines are cut at the edge: the key line says so rather than letting it pass."""
        width, height = event.size.width, event.size.height
        keys = self.query_one("#keys", Static)
        if width < 80 or height < 24:
            keys.update(Text(f"The table needs 80 x 24 (this terminal is {width} x {height}): make it larger",
                             style="bold reverse"))
        else:
            keys.update(KEYS_ASCII if self.ascii else KEYS)

    def on_mount(self) -> None:
        self.query_one("#table", Static).styles.height = self.TABLE_HEIGHT
        log = self.query_one("#log", RichLog)
        log.can_focus = False
        self.query_one(ActionBar).focus()

    # ----------------------------------------------------------------------------- helpers
    def log_lines(self, lines: list[str], follow: bool = False) -> None:
        """Add lines to the log; it follows them unless the player has scrolled back (or ``follow``)."""
        log = self.query_one("#log", RichLog)
        at_end = follow or log.scroll_offset.y >= log.max_scroll_y
        for line in lines:
            log.write(Text(line), scroll_end=at_end)

    def action_scroll_log(self, direction: int) -> None:
        log = self.query_one("#log", RichLog)
        if direction < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def toggle_order(self) -> str:
        self.order = (self.order + 1) % len(SUIT_ORDERS)
        if self.view is not None:
            if self.human_turn:  # the choices follow the hand's order too (the selection stays on its card)
                self.set_choices(self.choices(self.view), self.waiting_text(self.view))
            self.redraw()
        return order_text(SUIT_ORDERS[self.order], self.ascii)

    @property
    def suit_order(self) -> str:
        return SUIT_ORDERS[self.order]

    def hand_text(self, cards: list[str], title: str, marked: set[str], ace_low: bool = False,
                  grouped: set[str] | None = None) -> Text:
        """Your hand in the chosen suit order: legal cards green, the selected choice's cards reversed."""
        bar = self.query_one(ActionBar)
        current = bar.current
        selected = set(current.cards) if current else set()
        legal = {c for choice in bar.choices for c in choice.cards}
        out = Text()
        out.append(f"{title} ({len(cards)}) {order_text(self.suit_order, self.ascii)}: ", style="bold")
        for k, card in enumerate(sort_cards(cards, self.suit_order, ace_low)):
            if k:
                out.append(" ")
            extra = ""
            if card in selected:
                extra = "reverse"
            elif card in legal or card in marked:
                extra = "on dark_green"
            if grouped is not None and card in grouped:
                extra += " underline"
            out.append_text(styled_card(card, self.ascii, extra))
        return out

    def set_choices(self, choices: list[Choice], waiting: str) -> None:
        self.query_one(ActionBar).set_choices(choices, waiting)

    def on_action_bar_moved(self, _: ActionBar.Moved) -> None:
        if self.view is not None:
            self.redraw()

    # ----------------------------------------------------------------------------- drawing
    def show(self, view: dict[str, Any], lines: list[str], human_turn: bool) -> None:
        """Take a new view (and the log lines it brought); rebuild the choices and redraw."""
        self.view = view
        self.human_turn = human_turn
        self.log_lines(lines)
        waiting = self.waiting_text(view)
        self.set_choices(self.choices(view) if human_turn else [], waiting)
        self.redraw()

    def redraw(self) -> None:
        assert self.view is not None
        view = self.view
        self.query_one("#title", Static).update(self.title_text(view))
        self.query_one("#table", Static).update(self.table_text(view))
        self.query_one("#hand", Static).update(self.hand_line(view))
        self.query_one("#prompt", Static).update(self.prompt_text(view))
        self.query_one("#right", Static).update(self.side_text(view))

    def title_text(self, view: dict[str, Any]) -> Text:
        raise NotImplementedError

    def table_text(self, view: dict[str, Any]) -> Text:
        raise NotImplementedError

    def hand_line(self, view: dict[str, Any]) -> Text:
        raise NotImplementedError

    def prompt_text(self, view: dict[str, Any]) -> Text:
        raise NotImplementedError

    def side_text(self, view: dict[str, Any]) -> Text:
        raise NotImplementedError

    def choices(self, view: dict[str, Any]) -> list[Choice]:
        raise NotImplementedError

    def waiting_text(self, view: dict[str, Any]) -> str:
        raise NotImplementedError
