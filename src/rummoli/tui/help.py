"""The help screen (``?``): how cards are written, every key of the table, then how to play the ruleset in play.

The rules come from :mod:`rummoli.rules_texts`, the same texts ``rummoli rules`` prints.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from rummoli import rules_texts
from rummoli.errors import MalformedInput

#: Every key of the table and what it does: the help shows them all.
KEYS: tuple[tuple[str, str], ...] = (
    ("← → / Tab, Shift+Tab", "move between the choices (past the last one: the next page)"),
    ("Enter or Space", "do the chosen action"),
    ("1 - 9", "do at once the choice with that number on the page shown"),
    ("↑ ↓  or  + -", "the amount of a bid, bet or raise: one more or one less"),
    ("PgUp PgDn", "the amount: ten more or ten less"),
    ("Home End", "the amount: the least or the most allowed"),
    ("a", "type the amount (digits, Backspace, then Enter; Esc stops)"),
    ("[  ]", "scroll the game log back and forward"),
    ("s", "change the order of the suits in your hand"),
    ("?", "this help and the rules of the game (Esc closes it)"),
    ("q", "leave the table"),
    ("Showdown", "any key goes on"),
    ("End of a hand", "Enter: next hand · v: look at the table behind · q: leave"),
)
KEYS_ASCII: dict[str, str] = {"← → / Tab, Shift+Tab": "<- -> / Tab, Shift+Tab", "↑ ↓  or  + -": "up dn  or  + -"}


def keys_table(ascii: bool = False) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in KEYS:
        table.add_row(KEYS_ASCII.get(key, key) if ascii else key, what)
    return table


def cards_note(ascii: bool = False) -> Text:
    """How the table writes a card: the hand and the piles give every card two characters, so a ten is ``T``,
    while sentences (the log and the line saying what happens now: the engines' words, shared with the web table)
    write ``10``."""
    if ascii:
        return Text("Cards: Td is the ten of diamonds, suits s h d c (a ten is T in your hand, 10 in sentences).")
    return Text("Cards: T♦ is the ten of diamonds (T in your hand and on the piles, 10 in sentences).")


def rules_of(ruleset: Any) -> str:
    """The rules text for a view's ``ruleset`` (a built-in name or an inline table)."""
    name = ruleset if isinstance(ruleset, str) else str(ruleset.get("name", ""))
    try:
        return rules_texts.text(name)
    except MalformedInput:
        return (f"# {name or 'A ruleset of your own'}\n\nThis table plays a ruleset of its own, with no rules text. "
                "`rummoli rules` lists the built-in rulesets and explains each.")


class HelpScreen(ModalScreen[None]):
    """How cards are written, the keys, then the rules; ↑/↓ and PgUp/PgDn scroll, Esc, ? or q close."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 78; height: 22; border: round $accent; background: $surface;
                                  padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "close", show=False),
    ]

    def __init__(self, ruleset: Any, ascii: bool = False) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        scroll = "up/dn" if self.ascii else "↑↓"
        heading = Text(f"Keys ({scroll} PgUp PgDn scroll the help; Esc closes it)", style="bold")
        with VerticalScroll():
            yield Static(Group(cards_note(self.ascii), heading, keys_table(self.ascii), Text(""),
                               Markdown(rules_of(self.ruleset))))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
