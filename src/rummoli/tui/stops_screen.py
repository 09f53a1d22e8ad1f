"""The stops table (Rummoli, Tripoley, Michigan): the board of pots, the players, the run on the table,
your hand, and prompts for the widow, the auction and the poker round that show their limits."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.cards import parse_cards
from rummoli.poker import evaluate
from rummoli.tui.cardtext import card_text, plain_cards, styled_card, suit_text
from rummoli.tui.screen_base import TableScreen
from rummoli.tui.widgets import Choice
from rummoli.wording import said

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
    """Each hand shown (its best five and what it makes) and who took the poker pot."""
    names = view["players"]
    out = Text()
    for event in view["events"]:
        if event["type"] == "showdown":
            value = evaluate(parse_cards(" ".join(event["cards"]))).describe()
            out.append(f"{names[event['seat']]:<6}", style="bold")
            for card in event["cards"]:
                out.append_text(styled_card(card, ascii))
                out.append(" ")
            out.append(f" {value}\n")
        elif event["type"] == "chips" and event["reason"] == "poker":
            who = names[int(event["to"].split(":")[1])]
            out.append(said(who, f"wins the poker pot: {event['amount']} chips") + "\n", style="bold green")
    return out


def runs(view: dict[str, Any]) -> list[list[tuple[int, str]]]:
    """The cards laid, in runs: each lead starts a run.  ``(seat, card)`` pairs."""
    out: list[list[tuple[int, str]]] = []
    for action in view["actions"]:
        if action["action"] == "lead" or (action["action"] == "play" and not out):
            out.append([])
        if action["action"] in ("lead", "play"):
            out[-1].append((action["seat"], action["card"]))
    return out


def pot_results(view: dict[str, Any], ascii: bool = False) -> Text:
    """What each pot paid this hand, and what stays on the board (from the hand's events)."""
    names = view["players"]
    paid: dict[str, list[tuple[str, int]]] = {}
    for event in view["events"]:
        if event["type"] == "chips" and event["from"].startswith("pot:") and event["to"].startswith("seat:"):
            who = names[int(event["to"].split(":")[1])]
            paid.setdefault(event["from"][4:], []).append((who, event["amount"]))
    out = Text()
    if any(event["type"] == "showdown" for event in view["events"]):
        out.append("Showdown\n", style="bold underline")
        out.append_text(showdown_text(view, ascii))
    leftover: dict[tuple[str, str], int] = {}
    for event in view["events"]:
        if event["type"] == "chips" and event["reason"] in ("leftover", "stall"):
            key = (event["to"], event["reason"])
            leftover[key] = leftover.get(key, 0) + event["amount"]
    for (to, reason), amount in leftover.items():
        who = names[int(to.split(":")[1])] if to.startswith("seat:") else "the centre"
        why = "for the cards left in the other hands" if reason == "leftover" else "from the stall"
        out.append(said(who, f"collects {amount} {why}") + "\n", style="bold")
    for pot in view["board"]:
        label = pot_label(pot, ascii)
        row = f"{label:<14}"
        if pot["id"] in paid:
            won = ", ".join(f"{who} {amount}" for who, amount in paid[pot["id"]])
            out.append(row + f"paid {won}", style="bold green")
        else:
            out.append(row + f"stays: {view['pots'][pot['id']]} on the board", style="dim")
        out.append("\n")
    return out


class StopsScreen(TableScreen):
    """Rummoli, Tripoley and Michigan."""

    TABLE_HEIGHT = 2

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
        dealer = view["players"][view["dealer"]]
        return Text(f" {ruleset.capitalize()} · {self.hand_label} · dealer {dealer} · {PHASES[view['phase']]}")

    hand_label = "hand 1"

    def table_text(self, view: dict[str, Any]) -> Text:
        names = view["players"]
        laid = runs(view)
        if view["phase"] in ("widow", "auction", "poker") or not laid:
            out = Text()
            out.append(f"Widow: {view['widow_size']} cards face down", style="dim")
            if view.get("swapped") is not None:
                out.append(f" · {names[view['swapped']]} took the widow", style="dim")
            if view.get("hand") and any(p["kind"] == "poker" and p["ante"] for p in view["board"]):
                value = evaluate(parse_cards(" ".join(view["hand"])))
                out.append(f"\nYour poker hand: {value.describe()}")
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
        seat, names = view["seat"], view["players"]
        if view["phase"] == "over":
            return Text("The hand is over.")
        if seat not in view["to_act"]:
            return Text("")
        if not self.human_turn:
            return Text("")  # a forced move is made for the player (the action bar says so)
        phase = view["phase"]
        amount_keys = "↑↓, a: amount" if not self.ascii else "up/dn, a: amount"
        if phase == "widow":
            return Text(f"You deal. Keep your hand: the others bid for the widow ({view['widow_size']} cards) and the "
                        "winner pays you and swaps hands with it. Or swap yours for the widow, unseen.")
        if phase == "auction":
            auction = view["auction"]
            dealer = names[view["dealer"]]
            high = f"high bid {auction['bid']} by {names[auction['bidder']]}" if auction["bidder"] is not None \
                else "no bid yet"
            limits = amount_range(view, "bid")
            may = f"Bid {limits[0]} to {limits[1]} ({amount_keys})" if limits else "You cannot outbid it:"
            return Text(f"Widow auction, {high}. {may} or pass for good. The winner pays {dealer} and swaps "
                        "whole hands with the widow, unseen.")
        if phase == "poker":
            bet = view["betting"]
            to_call = bet["level"] - bet["put"][seat]
            pot = next(view["pots"][p["id"]] for p in view["board"] if p["kind"] == "poker")
            parts = [f"Poker: pot {pot}", f"to call {to_call}"]
            for kind in ("bet", "raise"):
                limits = amount_range(view, kind)
                if limits:
                    parts.append(f"{kind} {limits[0]} to {limits[1]}")
            parts.append(f"raises {bet['raises']} of {bet['max_raises']}, at most {bet['cap']} in all")
            if amount_range(view, "bet") or amount_range(view, "raise"):
                parts.append(amount_keys)
            return Text(" · ".join(parts))
        if any(a["action"] == "claim" for a in view["legal_actions"]):
            return Text("Claim the pot before the next card is laid, or it stays on the board.")
        cards = [a["card"] for a in view["legal_actions"] if "card" in a]
        stopped = (view.get("play") or {}).get("stopped_suit")
        why = f"after the stop in {suit_text(stopped, self.ascii)}" if stopped else "to open the play"
        return Text(f"Your lead {why}: choose one of {plain_cards(cards, self.ascii)}.")

    def side_text(self, view: dict[str, Any]) -> Text:
        out = Text()
        out.append("Board          chips\n", style="bold underline")
        for pot in view["board"]:
            out.append(f"{pot_label(pot, self.ascii)[:16]:<16}{view['pots'][pot['id']]:>5}\n")
        out.append("\n")
        out.append("Players   chips cards\n", style="bold underline")
        betting = view.get("betting")
        arrow = ">" if self.ascii else "▶"
        for s, name in enumerate(view["players"]):
            mark = arrow if s in view["to_act"] and view["phase"] != "over" else " "
            tag = "D" if s == view["dealer"] else " "
            extra = ""
            if betting:
                extra = " fold" if s in betting["folded"] else f" +{betting['put'][s]}"
            if view.get("swapped") == s:
                tag += "W"
            style = "bold cyan" if s == view["seat"] else ""
            out.append(f"{mark}{name[:4]:<4} {tag:<2}{view['chips'][s]:>5}{view['hand_sizes'][s]:>4}{extra}\n",
                       style=style)
        return out
