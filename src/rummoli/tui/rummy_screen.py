"""The Rummy table (straight Rummy and its variants, 500 Rum, Knock Rummy): the stock, the discard pile,
the melds on the table, your hand with meld hints from the engine's meld logic, and the scores."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.cards import mask_of, parse_cards
from rummoli.rummy.melds import MeldTable, meld_table
from rummoli.rummy.ruleset import Ruleset
from rummoli.tui.cardtext import card_text, cards_line, meld_order, sort_cards
from rummoli.tui.screen_base import TableScreen
from rummoli.tui.widgets import Choice

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
            out.append(Choice(f"{verb} {card_text(action['card'], ascii)}", body, cards=(action["card"],)))
    return out


def meld_text(cards: list[str], ascii: bool = False) -> str:
    """A meld as one word, in the order a player reads it: ``A♠2♠3♠``."""
    return "".join(card_text(c, ascii) for c in meld_order(cards))


def hand_results(view: dict[str, Any]) -> Text:
    """What the hand scored, from the view's outcome."""
    names = view["players"]
    outcome = view.get("outcome", {})
    out = Text()
    winner = outcome.get("winner")
    reason = outcome.get("reason", "")
    if winner is None and view.get("style") == "gin":
        out.append("Only two cards are left in the stock: the hand is a draw and nobody scores.\n")
    elif winner is None:
        out.append("The stock ran dry: the hand is blocked and nobody scores.\n")
    else:
        how = {"out": "went out", "knock": "won the knock", "blocked": "held the lowest hand"}.get(reason, "won")
        out.append(f"{names[winner]} {how}" + (" with rummy (double)" if outcome.get("rummy") else "") + ".\n",
                   style="bold green")
    for seat, delta in enumerate(outcome.get("deltas", [])):
        out.append(f"{names[seat]:<5}{delta:+5d} this hand   {view['chips'][seat] + delta:5d} in all\n")
    return out


class RummyScreen(TableScreen):
    """Straight Rummy, its variants, 500 Rum and Knock Rummy."""

    TABLE_HEIGHT = 4

    def __init__(self, ascii: bool, rules: Ruleset) -> None:
        super().__init__(ascii)
        self.rules = rules
        self.melds: MeldTable = meld_table(rules.aces, rules.ace_value)

    @property
    def ace_low(self) -> bool:
        return self.rules.aces == "low"

    def choices(self, view: dict[str, Any]) -> list[Choice]:
        """The legal moves; discards and knocks in the order the hand is shown."""
        shown = sort_cards(view.get("hand") or [], self.suit_order, self.ace_low)
        place = {card: k for k, card in enumerate(shown)}
        choices = rummy_choices(view, self.ascii)
        return sorted(choices, key=lambda c: (c.action["action"] in ("discard", "knock"),
                                              place.get(c.cards[0], 0) if c.action["action"] in
                                              ("discard", "knock") else 0))

    def waiting_text(self, view: dict[str, Any]) -> str:
        if view["phase"] == "over":
            return ""
        if view["turn"] == view["seat"]:
            return "Your only possible move is made for you…"
        return f"Waiting for {view['players'][view['turn']]}…"

    def title_text(self, view: dict[str, Any]) -> Text:
        name = STYLES.get(view["style"], view["ruleset"])
        dealer = view["players"][view["dealer"]]
        return Text(f" {name} · {self.hand_label} · dealer {dealer} · to {self.rules.target} points")

    hand_label = "hand 1"

    def table_text(self, view: dict[str, Any]) -> Text:
        pile = view["discard"]
        out = Text()
        out.append(f"Stock {view['stock']}", style="bold")
        if view["flips"]:
            out.append(" (turned once)", style="dim")
        out.append("   Discard: ", style="bold")
        if pile:
            out.append_text(cards_line([pile[-1]], self.ascii))
            under = pile[-6:-1][::-1]
            if under:
                out.append("  under it: ", style="dim")
                out.append_text(cards_line(under, self.ascii))
                if len(pile) > 6:
                    out.append(" …", style="dim")
        else:
            out.append("empty", style="dim")
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
        out.append_text(Text("  ").join(pieces))
        return out

    def hand_line(self, view: dict[str, Any]) -> Text:
        cards = view.get("hand") or []
        if not cards:
            return Text("")
        held = parse_cards(" ".join(cards))
        mask = mask_of(held)
        _, best = self.melds.best_arrangement(mask)
        grouped = {str(c) for c in held if any(c.bit & m for m in best)}
        out = self.hand_text(cards, "Hand", set(), self.ace_low, grouped)
        out.append("\n")
        deadwood = self.melds.card_value(mask) - self.melds.card_value(sum(best))
        if best:
            hint = "  ".join(meld_text([str(c) for c in held if c.bit & m], self.ascii) for m in best)
            out.append(f"melds: {hint} · ", style="cyan")
        else:
            out.append("no meld in hand · ", style="dim")
        label = "deadwood" if best else "points in hand"
        out.append(f"{label} {deadwood}", style="cyan")
        if best:
            out.append(f" · in hand {self.melds.card_value(mask)}", style="dim")
        return out

    def prompt_text(self, view: dict[str, Any]) -> Text:
        if view["phase"] == "over":
            return Text("The hand is over.")
        if view["turn"] != view["seat"]:
            return Text("")
        if not self.human_turn:
            return Text("")  # a forced move is made for the player (the action bar says so)
        top = view["discard"][-1] if view["discard"] else None
        style = self.rules.style
        if view["phase"] == "draw":
            if any(a["action"] == "pass" for a in view["legal_actions"]):
                return Text(f"The upcard is {card_text(top, self.ascii)}: take it, or pass and leave it "
                            "(if both players pass, the first draws from the stock).")
            take = f" or take {card_text(top, self.ascii)} from the discard pile" if top else ""
            return Text(f"Your turn: draw from the stock{take}.")
        if style == "gin":
            return Text(f"Discard a card, or knock with it when the cards you keep leave {self.rules.knock_limit} "
                        "or less in deadwood (none at all: gin).")
        if style == "knock":
            return Text("Discard a card, or knock with it to end the hand (lowest deadwood wins).")
        return Text("Meld, lay off on a meld (underlined cards meld), then discard one card.")

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
