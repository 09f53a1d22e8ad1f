"""The Rummy table (straight Rummy and its variants, 500 Rum, Knock Rummy): the stock, the discard pile,
the melds on the table, your hand with meld hints from the engine's meld logic, and the scores."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from rummoli.rummy.ruleset import Ruleset
from rummoli.tui.cardtext import card_text, cards_line, meld_order, sort_cards
from rummoli.tui.screen_base import TableScreen
from rummoli.tui.widgets import Choice
from rummoli.wording import ascii_text

STYLES = {"straight": "Rummy", "500": "500 Rum", "knock": "Knock Rummy", "gin": "Gin Rummy"}


def rummy_choices(view: dict[str, Any], ascii: bool = False) -> list[Choice]:
    """The human's legal moves for the action bar: draws, melds, lay-offs, then discards (or knocks)."""
    out: list[Choice] = []
    top = view["discard"][-1] if view["discard"] else None
    upcard = view["style"] == "gin" and any(a["action"] == "pass" for a in view["legal_actions"])
    order = {"draw": 0, "pass": 1, "meld": 2, "layoff": 3, "knock": 4, "discard": 5}
    for action in sorted(view["legal_actions"], key=lambda a: order.get(a["action"], 6)):
        kind = action["action"]
        body = {k: v for k, v in action.items() if k != "seat"}
        if kind == "draw":
            if action["from"] == "stock":
                out.append(Choice("Draw from the stock", body))
            elif upcard:
                out.append(Choice(f"Take the upcard {card_text(top, ascii)}", body))
            else:
                card = action.get("card", top)
                label = f"Take {card_text(card, ascii)}" if card == top else f"Take down to {card_text(card, ascii)}"
                out.append(Choice(label, body, cards=()))
        elif kind == "meld":
            out.append(Choice(f"Meld {meld_text(action['cards'], ascii)}", body, cards=tuple(action["cards"])))
        elif kind == "layoff":
            target = meld_text(view["melds"][action["meld"]]["cards"], ascii)
            out.append(Choice(f"Lay off {card_text(action['card'], ascii)} on {target}", body,
                              cards=(action["card"],)))
        elif kind == "pass" and upcard:
            out.append(Choice("Pass (leave the upcard)", body))
        elif kind == "pass" or "card" not in action:
            out.append(Choice(kind.capitalize(), body))
        else:
            verb = {"knock": "Knock with", "discard": "Discard"}.get(kind, kind.capitalize())
            left = (view.get("knocks") or {}).get(action["card"]) if kind == "knock" else None
            after = "" if left is None else " (gin)" if left == 0 else f" (deadwood {left})"
            out.append(Choice(f"{verb} {card_text(action['card'], ascii)}{after}", body, cards=(action["card"],)))
    return out


def meld_text(cards: list[str], ascii: bool = False) -> str:
    """A meld as one word, in the order a player reads it: ``A♠2♠3♠``."""
    return "".join(card_text(c, ascii) for c in meld_order(cards))


class RummyScreen(TableScreen):
    """Straight Rummy, its variants, 500 Rum and Knock Rummy."""

    TABLE_HEIGHT = 4

    def __init__(self, ascii: bool, rules: Ruleset) -> None:
        super().__init__(ascii, rules)

    @property
    def ace_low(self) -> bool:
        return self.rules.aces == "low"

    def choices(self, view: dict[str, Any]) -> list[Choice]:
        """The legal moves: draws, melds, lay-offs, then a gin, the discards and the other knocks, each in the order
        the hand is shown. The first is what Enter takes: never a knock that is no gin (Knock Rummy's knock at any
        deadwood came first, one Enter from a penalty)."""
        shown = sort_cards(view.get("hand") or [], self.suit_order, self.ace_low)
        place = {card: k for k, card in enumerate(shown)}
        knocks = view.get("knocks") or {}

        def key(c: Choice) -> tuple[int, int]:
            kind = c.action["action"]
            if kind not in ("discard", "knock"):
                return 0, 0
            group = 1 if kind == "knock" and knocks.get(c.cards[0]) == 0 else 2 if kind == "discard" else 3
            return group, place.get(c.cards[0], 0)

        return sorted(rummy_choices(view, self.ascii), key=key)

    def waiting_text(self, view: dict[str, Any]) -> str:
        if view["phase"] == "over":
            return ""
        if view["turn"] == view["seat"]:
            return "Your only possible move is made for you…"
        return f"Waiting for {view['players'][view['turn']]}…"

    def title_text(self, view: dict[str, Any]) -> Text:
        name = self.rules.title or STYLES.get(view["style"], view["ruleset"])  # "Block Rummy", not its style's name
        dealer = view["players"][view["dealer"]]
        return Text(f" {name} · {self.hand_label} · dealer {dealer} · to {self.rules.target} points")

    hand_label = "hand 1"

    def table_text(self, view: dict[str, Any]) -> Text:
        width = self.query_one("#table", Static).size.width or 52
        for under in range(5, -1, -1):  # one line: wrapped, it took a line of the melds (cut off at the table's foot)
            out = self.piles_line(view, under)
            if out.cell_len <= width:
                break
        out.append("\n")
        if not view["melds"]:
            hidden = self.rules.style in ("gin", "knock")
            out.append("Melds stay in the hands until the hand ends." if hidden else "No melds on the table yet.",
                       style="dim")
            return out
        pieces: list[Text] = []
        for k, meld in enumerate(view["melds"]):
            piece = Text()
            piece.append(f"{k + 1}:", style="bold")
            piece.append_text(cards_line(meld_order(meld["cards"]), self.ascii, sep=""))
            piece.append(f" {view['players'][meld['owner']][:3]}", style="dim")
            pieces.append(piece)
        # Each meld stays on one line with its owner: wrapped at its space, "4:T♠T♥T♦T♣" ended a line and its owner
        # began the next, before the next meld ("Cy  5:2♠3♠…"), as if Cy's were meld 5.
        line = 0
        for k, piece in enumerate(pieces):
            if k and line + 2 + piece.cell_len > width:
                out.append("\n")
                line = 0
            elif k:
                out.append("  ")
                line += 2
            out.append_text(piece)
            line += piece.cell_len
        return out

    def piles_line(self, view: dict[str, Any], under_most: int) -> Text:
        """The stock's count and the discard pile: its top card and at most ``under_most`` of the cards under it."""
        pile = view["discard"]
        out = Text()
        out.append(f"Stock {view['stock']}", style="bold")
        if view["flips"]:
            out.append(" (turned once)", style="dim")
        out.append("   Discard: ", style="bold")
        if not pile:
            out.append("empty", style="dim")
            return out
        out.append_text(cards_line([pile[-1]], self.ascii))
        under = pile[-1 - under_most:-1][::-1] if under_most else []
        if under:
            out.append("  under it: ", style="dim")
            out.append_text(cards_line(under, self.ascii))
        if len(pile) > 1 + len(under):
            out.append(" …", style="dim")
        return out

    def hand_line(self, view: dict[str, Any]) -> Text:
        """Your hand, the cards the engine arranges into melds underlined, and the deadwood they leave."""
        cards = view.get("hand") or []
        if not cards:
            return Text("")
        counted = "deadwood" if self.rules.style in ("knock", "gin") else "points in hand"
        arranged = view.get("arranged")
        if arranged is None:  # the hand is over: its count is the outcome's, when the ending counted hands
            out = self.hand_text(cards, "Hand", set(), self.ace_low, set())
            counts = (view.get("outcome") or {}).get("counts")
            if counts is not None:
                out.append("\n")
                out.append(f"{counted} {counts[view['seat']]}", style="cyan")
            return out
        grouped = {c for meld in arranged["melds"] for c in meld}
        out = self.hand_text(cards, "Hand", set(), self.ace_low, grouped)
        out.append("\n")
        if arranged["melds"]:
            hint = "  ".join(meld_text(meld, self.ascii) for meld in arranged["melds"])
            out.append(f"melds: {hint} · ", style="cyan")
            out.append(f"deadwood {arranged['count']}", style="cyan")
        else:
            out.append("no meld in hand · ", style="dim")
            out.append(f"{counted} {arranged['count']}", style="cyan")
        return out

    def prompt_text(self, view: dict[str, Any]) -> Text:
        """What happens now (the engine's words); in straight Rummy, what the underlined cards mean."""
        if view["phase"] != "over" and (view["turn"] != view["seat"] or not self.human_turn):
            return Text("")  # someone else's turn (the action bar says whose), or a move made for the player
        text = ascii_text(view["prompt"]) if self.ascii else view["prompt"]
        if view["phase"] == "play" and self.rules.style in ("straight", "500"):
            text += " Underlined cards meld."
        return Text(text)

    def side_text(self, view: dict[str, Any]) -> Text:
        out = Text()
        out.append("Players  cards score\n", style="bold underline")
        arrow = ">" if self.ascii else "▶"
        for s, name in enumerate(view["players"]):
            mark = arrow if s == view["turn"] and view["phase"] != "over" else " "
            tag = "D" if s == view["dealer"] else " "
            style = "bold cyan" if s == view["seat"] else ""
            out.append(f"{mark}{name[:5]:<5} {tag} {view['hand_sizes'][s]:>3} {view['chips'][s]:>5}\n", style=style)
            if view["style"] == "500":
                out.append(f"         laid {view['points'][s]:>5}\n", style="dim")
        out.append(f"\nTarget {self.rules.target} points\n", style="dim")
        if self.rules.aces != "low":
            out.append(f"Aces {self.rules.aces}\n", style="dim")
        return out
