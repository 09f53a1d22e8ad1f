"""The stops table (Rummoli, Tripoley, Michigan): the board of pots, the players, the run on the table,
your hand, and prompts for the widow, the auction and the poker round that show their limits."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.tui.cardtext import card_text, styled_card
from rummoli.tui.screen_base import TableScreen
from rummoli.tui.widgets import Choice
from rummoli.wording import ascii_text

PHASES = {"widow": "widow", "auction": "auction", "poker": "poker round", "play": "play", "over": "hand over"}


def pot_label(pot: dict[str, Any], ascii: bool = False) -> str:
    """A pot as the board shows it: a pay card's symbol, a combo's cards, or the pot's name."""
    if pot["kind"] == "card":
        return card_text(pot["id"], ascii)
    if pot["kind"] == "combo":
        try:
            return "-".join(card_text(c, ascii) for c in pot["id"].split("-"))
        except ValueError:
            return str(pot["id"])
    return str(pot["name"])


def amount_range(view: dict[str, Any], kind: str) -> tuple[int, int] | None:
    """The least and most ``kind`` (bid, bet, raise) allows now (the legal action's range)."""
    for action in view["legal_actions"]:
        if action["action"] == kind and "min" in action:
            return int(action["min"]), int(action["max"])
    return None


def stops_choices(view: dict[str, Any], ascii: bool = False) -> list[Choice]:
    """The human's legal actions for the action bar (an amount kind is one entry with its limits)."""
    out: list[Choice] = []
    betting = view.get("betting") or {}
    seat = view["seat"]
    to_call = betting.get("level", 0) - (betting.get("put") or [0] * (seat + 1))[seat] if betting else 0
    labels = {"swap": "Swap for the widow", "keep": "Keep (widow to auction)", "call": f"Call {to_call}",
              "pass": "Pass", "raise": "Raise by", "claim": "Claim the pot"}
    for action in view["legal_actions"]:
        kind = action["action"]
        limits = amount_range(view, kind) if "min" in action else None
        if limits is not None:
            low, high = limits
            out.append(Choice(labels.get(kind, kind.capitalize()), {"action": kind}, low=low, high=high, amount=low))
        elif "card" in action:
            out.append(Choice(f"{kind.capitalize()} {card_text(action['card'], ascii)}",
                              {"action": kind, "card": action["card"]}, cards=(action["card"],)))
        else:
            out.append(Choice(labels.get(kind, kind.capitalize()), {"action": kind}))
    return out


def showdown_text(view: dict[str, Any], ascii: bool = False) -> Text:
    """Each hand shown (its best five and what it makes) and who took the poker pot: the events' own words."""
    out = Text()
    for event in view["events"]:
        if event["type"] == "showdown":
            out.append(_say(event["text"], ascii) + "\n")
        elif event["type"] == "chips" and event["reason"] in ("poker", "vie"):  # the pot the showdown was for
            out.append(_say(event["text"], ascii) + "\n", style="bold green")
    return out


def _say(text: str, ascii: bool) -> str:
    return ascii_text(text) if ascii else text


def runs(view: dict[str, Any]) -> list[list[tuple[int, str]]]:
    """The cards laid, in runs: each lead starts a run.  ``(seat, card)`` pairs."""
    out: list[list[tuple[int, str]]] = []
    for action in view["actions"]:
        if action["action"] == "lead" or (action["action"] == "play" and not out):
            out.append([])
        if action["action"] in ("lead", "play"):
            out[-1].append((action["seat"], action["card"]))
    return out


class StopsScreen(TableScreen):
    """Rummoli, Tripoley and Michigan."""

    TABLE_HEIGHT = 2
    #: each phase's name on the title line
    phases = PHASES

    def choices(self, view: dict[str, Any]) -> list[Choice]:
        return stops_choices(view, self.ascii)

    def waiting_text(self, view: dict[str, Any]) -> str:
        if view["phase"] == "over":
            return ""
        names = view["players"]
        others = [names[s] for s in view["to_act"] if s != view["seat"]]
        if not others:
            return "Your only possible move is made for you…"
        return "Waiting for " + ", ".join(others) + "…"

    def title_text(self, view: dict[str, Any]) -> Text:
        ruleset = view["ruleset"] if isinstance(view["ruleset"], str) else view["ruleset"].get("name", "custom")
        title = getattr(self.rules, "title", None) or ruleset.capitalize()  # "Tripoley (box rules)", not "Tripoley"
        dealer = view["players"][view["dealer"]]
        return Text(f" {title} · {self.hand_label} · dealer {dealer} · {self.phases[view['phase']]}")

    hand_label = "hand 1"

    def table_text(self, view: dict[str, Any]) -> Text:
        names = view["players"]
        laid = runs(view)
        if view["phase"] in ("widow", "auction", "poker") or not laid:
            out = Text()
            out.append(f"Widow: {view['widow_size']} cards face down", style="dim")
            if view.get("swapped") is not None:
                out.append(f" · {names[view['swapped']]} took the widow", style="dim")
            if view.get("best_five"):
                out.append(f"\nYour poker hand: {view['best_five']['name']}")
            return out
        out = Text()
        out.append("Run: ", style="bold")
        current = laid[-1]
        pieces: list[Text] = []
        for seat, card in current:
            piece = styled_card(card, self.ascii)
            piece.append(f" {names[seat][:3]}", style="cyan" if seat == view["seat"] else "")
            pieces.append(piece)
        width = 48
        while pieces and sum(p.cell_len + 1 for p in pieces) > 2 * width - 8:
            pieces.pop(0)
        out.append_text(Text(" · ").join(pieces))
        if view.get("play") and not view["play"].get("run") and view["phase"] == "play":
            out.append("  stop", style="bold yellow")
        return out

    def hand_line(self, view: dict[str, Any]) -> Text:
        if view.get("hand") is None:
            return Text("")
        return self.hand_text(view["hand"], "Your hand", set())

    def prompt_text(self, view: dict[str, Any]) -> Text:
        """What happens now (the engine's words), with the keys that give an amount when one is asked for."""
        if view["phase"] != "over" and (view["seat"] not in view["to_act"] or not self.human_turn):
            return Text("")  # someone else's turn (the action bar says whose), or a move made for the player
        text = _say(view["prompt"], self.ascii)
        if any("min" in a and a["max"] > a["min"] for a in view["legal_actions"]):
            text += " (↑↓, a: amount)" if not self.ascii else " (up/dn, a: amount)"
        return Text(text)

    def side_text(self, view: dict[str, Any]) -> Text:
        out = Text()
        out.append("Board          chips\n", style="bold underline")
        for pot in view["board"]:
            out.append(f"{pot_label(pot, self.ascii)[:16]:<16}{view['pots'][pot['id']]:>5}\n")
        out.append("\n")
        betting = view.get("betting") or view.get("vie")  # a stops poker round, or Poch's vying
        # "in": the chips each has put into the betting (or the vying) so far, as the web table's tag says it
        out.append("Players   chips cards" + ("  in" if betting else "") + "\n", style="bold underline")
        arrow = ">" if self.ascii else "▶"
        for s, name in enumerate(view["players"]):
            mark = arrow if s in view["to_act"] and view["phase"] != "over" else " "
            tag = "D" if s == view["dealer"] else " "
            extra = ""
            if betting:
                extra = " fold" if s in betting["folded"] else f"{betting['put'][s]:>4}"
            if view.get("swapped") == s:
                tag += "W"
            style = "bold cyan" if s == view["seat"] else ""
            out.append(f"{mark}{name[:4]:<4} {tag:<2}{view['chips'][s]:>5}{view['hand_sizes'][s]:>4}{extra}\n",
                       style=style)
        return out
