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
        if trump["holder"] is not None:  # the holder's card stops being "held" once it is laid
            out.append(f" ({'laid by ' if trump['laid'] else ''}{names[trump['holder']]})")
        if view["phase"] == "vie" or not laid:
            # On a line of its own, each holder once with its pools ("Dee A K, You Q J Mar"): one line after the
            # trumps ran past the column's 53 cells with five pools held.
            held: dict[int, list[str]] = {}
            for m in view["melds"]:
                held.setdefault(m["seat"], []).append(m["pot"] if len(m["pot"]) <= 2 else m["pot"][:3].capitalize())
            shown = [f"{names[seat][:3]} {' '.join(pots)}" for seat, pots in held.items()]
            out.append("\nPools held: " + (", ".join(shown) if shown else "none"), style="dim")
            return out
        out.append("\nRun: ", style="bold")
        pieces: list[Text] = []
        for seat, card in laid[-1]:
            piece = styled_card(card, self.ascii)
            piece.append(f" {names[seat][:3]}", style="cyan" if seat == view["seat"] else "")
            pieces.append(piece)
        # One line of the table's column (53 cells at 80x24, "Run: " included): the run's last cards, what is next
        # to play on, with "…" for the earlier ones (a run of eight ran past the edge and lost its end).
        cut = False
        while pieces and sum(p.cell_len + 3 for p in pieces) > 45:
            pieces.pop(0)
            cut = True
        out.append_text(Text(" · ").join([Text("…"), *pieces] if cut else pieces))
        return out
