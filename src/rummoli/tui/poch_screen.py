"""The Poch table: the board's pools, the trump card, what was shown for the pools, the vying's stakes and the
run on the table; your hand; knock, hold, drop out and the lead as choices (the engine's words for the rest)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.tui.cardtext import card_text, styled_card
from rummoli.tui.stops_screen import StopsScreen, amount_range, runs
from rummoli.tui.widgets import Choice

PHASES = {"vie": "vying", "play": "play", "over": "hand over"}


def poch_choices(view: dict[str, Any], ascii: bool = False) -> list[Choice]:
    """The human's legal actions for the action bar, in Poch's words (an amount kind is one entry)."""
    vie = view.get("vie") or {}
    owed = vie.get("current", 0) - (vie.get("put") or [0] * (view["seat"] + 1))[view["seat"]] if vie else 0
    labels = {"check": "Pass", "bet": "Knock", "call": f"Hold {owed}", "raise": "Knock again by", "fold": "Drop out"}
    out: list[Choice] = []
    for action in view["legal_actions"]:
        kind = action["action"]
        limits = amount_range(view, kind) if "min" in action else None
        if limits is not None:
            out.append(Choice(labels[kind], {"action": kind}, low=limits[0], high=limits[1], amount=limits[0]))
        elif "card" in action:
            out.append(Choice(f"Lead {card_text(action['card'], ascii)}", {"action": kind, "card": action["card"]},
                              cards=(action["card"],)))
        else:
            out.append(Choice(labels.get(kind, kind.capitalize()), {"action": kind}))
    return out


class PochScreen(StopsScreen):
    """Poch and Pochen: the stops table's frame with Poch's board, trumps and vying."""

    phases = PHASES

    def choices(self, view: dict[str, Any]) -> list[Choice]:
        return poch_choices(view, self.ascii)

    def table_text(self, view: dict[str, Any]) -> Text:
        names, trump = view["players"], view["trump"]
        laid = runs(view) if "actions" in view else []
        out = Text()
        out.append("Trumps: ", style="bold")
        out.append_text(styled_card(trump["card"], self.ascii))
        if trump["holder"] is not None:
            out.append(f" ({names[trump['holder']]})")
        if view["phase"] == "vie" or not laid:
            shown = [f"{names[m['seat']][:3]} {m['pot']}" for m in view["melds"]]
            out.append("  Pools held: " + (", ".join(shown) if shown else "none"), style="dim")
            return out
        out.append("\nRun: ", style="bold")
        pieces: list[Text] = []
        for seat, card in laid[-1]:
            piece = styled_card(card, self.ascii)
            piece.append(f" {names[seat][:3]}", style="cyan" if seat == view["seat"] else "")
            pieces.append(piece)
        while pieces and sum(p.cell_len + 1 for p in pieces) > 80:
            pieces.pop(0)
        out.append_text(Text(" · ").join(pieces))
        return out
