"""The game log: each new public event of the human's view as a line of text.

A :class:`Narrator` remembers how much of a hand's history it has told, and turns what is new in the
next view into lines.  It reads views only, so the log can never tell a hidden card.

>>> n = StopsNarrator(ascii=True)
>>> view = {"players": ["You", "Ann"], "board": [{"id": "Ts", "name": "Ten of spades"}], "events": [
...     {"type": "action", "seat": 1, "action": "play", "card": "Ts", "forced": True},
...     {"type": "chips", "from": "pot:Ts", "to": "seat:1", "amount": 4, "reason": "pay_card"}]}
>>> n.lines(view)
['Ann plays Ts (forced)', 'Ann wins Ten of spades: 4 chips']
>>> n.lines(view)
[]
"""

from __future__ import annotations

from typing import Any

from rummoli.cards import parse_cards
from rummoli.poker import evaluate
from rummoli.tui.cardtext import card_text, meld_order, plain_cards
from rummoli.wording import said

STOPS_VERBS = {
    "keep": "keeps their hand", "swap": "swaps their hand for the widow", "pass": "passes",
    "check": "checks", "call": "calls", "fold": "folds", "claim": "claims the pot",
}


def _party(view: dict[str, Any], party: str) -> str:
    kind, _, key = party.partition(":")
    if kind == "seat":
        return str(view["players"][int(key)])
    for pot in view["board"]:
        if pot["id"] == key:
            return str(pot["name"])
    return key


class StopsNarrator:
    """Lines for the events of a stops hand (``view["events"]``)."""

    def __init__(self, ascii: bool = False) -> None:
        self.ascii = ascii
        self.told = 0

    def new_hand(self) -> None:
        self.told = 0

    def lines(self, view: dict[str, Any]) -> list[str]:
        events = view["events"][self.told:]
        self.told = len(view["events"])
        out: list[str] = []
        ante: dict[str, int] = {}
        for event in events:
            if event["type"] == "chips" and event["reason"] == "ante":
                ante[event["from"]] = ante.get(event["from"], 0) + event["amount"]
                continue
            if ante:
                amounts = sorted(set(ante.values()))
                out.append(f"Everyone antes {' or '.join(map(str, amounts))} chips")
                ante = {}
            line = self.line(view, event)
            if line:
                out.append(line)
        if ante:
            out.append(f"Everyone antes {' or '.join(map(str, sorted(set(ante.values()))))} chips")
        return out

    def line(self, view: dict[str, Any], event: dict[str, Any]) -> str:
        names = view["players"]
        kind = event["type"]
        if kind == "action":
            who, act = names[event["seat"]], event["action"]
            if act in ("lead", "play"):
                text = said(who, f"{act}s {card_text(event['card'], self.ascii)}")
            elif act in ("bid", "bet", "raise"):
                text = said(who, f"{act}s {event['amount']}" if act != "raise" else f"raises by {event['amount']}")
            else:
                text = said(who, STOPS_VERBS.get(act, act))
            return text + (" (forced)" if event.get("forced") else "")
        if kind == "chips":
            src, dst, amount, reason = _party(view, event["from"]), _party(view, event["to"]), event["amount"], \
                event["reason"]
            if reason == "pay_card" or reason == "on_hold":
                return said(dst, f"wins {src}: {amount} chips")
            if reason == "poker":
                return said(dst, f"takes the poker pot: {amount} chips")
            if reason == "centre":
                return said(dst, f"takes {src}: {amount} chips")
            if reason == "widow_bid":
                return said(src, f"pays {amount} to {dst} for the widow")
            if reason == "leftover":
                return said(src, f"pays {dst} {amount} for cards left")
            if reason == "bet":
                return ""
            return said(src, f"pays {amount} to {dst} ({reason.replace('_', ' ')})")
        if kind == "showdown":
            cards = event["cards"]
            value = evaluate(parse_cards(" ".join(cards))).describe()
            return said(names[event["seat"]], f"shows {plain_cards(cards, self.ascii)}: {value}")
        if kind == "stop":
            return f"-- stop after {card_text(event['after'], self.ascii)} --"
        if kind == "swap":
            return said(names[event["seat"]], "takes the widow")
        if kind == "cannot_lead":
            return said(names[event["seat"]], "cannot lead")
        if kind == "out":
            return said(names[event["seat"]], "is out of cards!")
        if kind == "stall":
            return "Nobody can lead: the hand stalls"
        if kind == "unclaimed":
            return said(names[event["seat"]], "did not claim: the chips stay")
        if kind == "over":
            return "The hand is over"
        return ""


class RummyNarrator:
    """Lines for a Rummy hand: its public history, the stock turned over, and the outcome."""

    def __init__(self, ascii: bool = False) -> None:
        self.ascii = ascii
        self.new_hand()

    def new_hand(self) -> None:
        self.told = 0
        self.flips = 0
        self.ended = False

    def lines(self, view: dict[str, Any]) -> list[str]:
        names = view["players"]
        history = view["history"]
        drawn = {int(i): card for i, card in view.get("drawn", [])}
        out: list[str] = []
        for index in range(self.told, len(history)):
            if "action" in history[index]:
                upcard = view.get("style") == "gin" and all(h.get("action") == "pass" for h in history[:index])
                out.append(self.line(view, history[index], drawn.get(index), upcard))
        self.told = len(history)
        if view["flips"] > self.flips:
            self.flips = view["flips"]
            out.append("The discard pile is turned over to make a new stock")
        if view["phase"] == "over" and not self.ended:
            self.ended = True
            outcome = view.get("outcome", {})
            reason = outcome.get("reason")
            if reason == "blocked" and outcome.get("winner") is None:
                out.append("Two cards left in the stock: the hand is a draw, nobody scores" if view.get("style") ==
                           "gin" else "The stock ran dry: the hand is blocked, nobody scores")
            elif outcome.get("winner") is not None:
                won = names[outcome["winner"]]
                how = {"out": "goes out", "knock": "wins the knock", "blocked": "has the lowest hand"}.get(
                    str(reason), "wins")
                out.append(said(won, how) + (" -- rummy!" if outcome.get("rummy") else ""))
            deltas = outcome.get("deltas", [])
            scored = [f"{names[s]} {d:+d}" for s, d in enumerate(deltas) if d]
            if scored:
                out.append("Points: " + ", ".join(scored))
        return out

    def line(self, view: dict[str, Any], action: dict[str, Any], drawn: str | None, upcard: bool = False) -> str:
        who = view["players"][action["seat"]]
        kind = action["action"]
        forced = " (forced)" if action.get("forced") else ""
        if kind == "draw":
            if action["from"] == "stock":
                seen = f" ({card_text(drawn, self.ascii)})" if drawn else ""
                return said(who, f"draws from the stock{seen}{forced}")
            if not action.get("card"):
                return said(who, f"takes the top discard{forced}")
            card = card_text(action["card"], self.ascii)
            if view.get("style") == "500":
                return said(who, f"takes the discard pile down to {card}{forced}")
            if upcard:
                return said(who, f"takes the upcard {card}{forced}")
            return said(who, f"takes {card} from the discard pile{forced}")
        if kind == "meld":
            return said(who, f"melds {plain_cards(meld_order(action['cards']), self.ascii)}{forced}")
        if kind == "layoff":
            melds = view.get("melds") or []
            target = melds[action["meld"]]["cards"] if action["meld"] < len(melds) else []
            on = "".join(card_text(c, self.ascii) for c in meld_order(c for c in target if c != action["card"]))
            return said(who, f"lays off {card_text(action['card'], self.ascii)} on {on or 'a meld'}{forced}")
        if kind == "pass":
            what = " on the upcard" if view.get("style") == "gin" else ""
            return said(who, f"passes{what}{forced}")
        if "card" not in action:
            return said(who, f"{kind}s{forced}")
        if kind == "knock":
            return said(who, f"knocks, discarding {card_text(action['card'], self.ascii)}{forced}")
        return said(who, f"discards {card_text(action['card'], self.ascii)}{forced}")
