"""A Rummy-family hand in words: each event as a sentence and what the viewing seat is asked now.

These are the only sentences about a Rummy hand anywhere: the engine puts each event's ``text`` into the
events it hands out (:mod:`rummoli.rummy.views`), and the terminal, the replay summary and the web page
show them as they are.  They read events and views only, so they never say a card the reader may not see
(a stock draw names its card only in the drawer's own events).

>>> speak = Speaker(["Ann", "Bob"], "gin")
>>> speak.line({"type": "action", "seat": 1, "action": "draw", "from": "discard", "card": "7h"}, upcard=True)
'Bob takes the upcard 7♥.'
>>> speak.line({"type": "score", "seat": 0, "points": 25, "reason": "gin", "from": 1})
'Ann scores 25 for gin.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummoli.rummy.melds import meld_names
from rummoli.wording import card_word, cards_word, only_choice, points, said, sentence, whom

#: What a score is for, by its reason.
_FOR = {
    "cards": "for the cards left in {owner} hand",
    "rummy": "for the cards left in {owner} hand, doubled for going rummy",
    "no_deadwood": "from {loser} for knocking with no deadwood",  # Knock Rummy's bonus (R-KN-4)
    "difference": "for the difference in deadwood with {loser}",
    "difference_left": "for the difference in cards left in hand with {loser}",  # a blocked Block Rummy hand
    "gin": "for gin",
    "undercut": "for the undercut",
    "penalty": "as {loser} knocked and {was} beaten",
    "melds": "for the cards laid on the table",
    "hand": "for the cards left in hand",
    "game": "for winning the game",
    "shutout": "for winning the game, doubled for a shutout",
    "boxes": "for the hands won",
}


class Speaker:
    """The sentences of one hand: its players' names and its style (straight, 500, knock, gin)."""

    def __init__(self, names: Sequence[str], style: str) -> None:
        self.names = list(names)
        self.style = style

    def who(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def line(self, event: Mapping[str, Any], upcard: bool = False, meld: Sequence[str] = (),
             top: bool = False) -> str | None:
        """``event`` as one sentence (or None when it needs no line).  ``upcard``: the action answers Gin's
        offer of the first upcard; ``meld``: the cards of the meld a lay-off goes on, as it was before; ``top``: a
        card taken from the discard pile was its top card (at 500 Rum, where a player may take more)."""
        kind = event["type"]
        if kind == "action":
            text = self._action(event, upcard, meld, top)
            if event.get("forced"):
                text = only_choice(text)
            return sentence(text)
        if kind == "flip":
            how = "shuffled" if event.get("shuffled") else "turned over"
            return f"The stock has run out: the discard pile is {how} to make a new stock of {event['cards']} cards."
        if kind == "blocked":
            if self.style == "gin":
                return "Only two cards are left in the stock: the hand ends without a knock."
            return "The stock has run out: the hand is blocked."
        if kind == "score":
            return sentence(self.score_text(event))
        if kind == "show":
            return "The hands are shown."
        if kind == "end":
            return self.ending(event)
        return None

    def score_text(self, event: Mapping[str, Any]) -> str:
        why = event.get("reason", "")
        if why == "difference" and self.style not in ("knock", "gin"):  # counted unarranged (R-RU-BLOCK)
            why = "difference_left"
        source = event.get("from")
        loser = whom(self.who(source)) if isinstance(source, int) else "the others"
        owner = "your" if loser == "you" else f"{loser}'s"
        reason = _FOR.get(why, f"({why})").format(loser=loser, owner=owner, was="were" if loser == "you" else "was")
        gained = event["points"]
        verb = f"scores {gained}" if gained >= 0 else f"loses {-gained}"  # 500 Rum's cards left in hand count against
        return said(self.who(event["seat"]), f"{verb} {reason}")

    def _action(self, event: Mapping[str, Any], upcard: bool, meld: Sequence[str], top: bool = False) -> str:
        who, act = self.who(event["seat"]), event["action"]
        if act == "draw":
            if event["from"] == "stock":
                seen = f" ({card_word(event['drawn'])})" if event.get("drawn") else ""
                return said(who, f"draws from the stock{seen}")
            card = card_word(event["card"]) if event.get("card") else "the top discard"
            if upcard:
                return said(who, f"takes the upcard {card}")
            if self.style == "500" and not top:
                return said(who, f"takes the discard pile down to {card}")
            blind = " and the top card of the stock" if event.get("blind") else ""
            return said(who, f"takes {card} from the discard pile{blind}")
        if act == "meld":
            return said(who, f"melds {cards_word(meld_names(event['cards']))}")
        if act == "layoff":
            on = cards_word(meld_names(list(meld))) if meld else "a meld"
            return said(who, f"lays off {card_word(event['card'])} on {on}")
        if act == "pass":
            return said(who, "passes on the upcard" if self.style == "gin" else "passes")
        if act == "knock":
            return said(who, f"knocks, discarding {card_word(event['card'])}")
        return said(who, f"discards {card_word(event['card'])}")

    def ending(self, outcome: Mapping[str, Any]) -> str:
        """The hand's end in one sentence, from its outcome (the ``end`` event)."""
        reason = outcome.get("reason")
        winner = outcome.get("winner")
        won = self.who(winner) if isinstance(winner, int) else None
        gain = outcome["deltas"][winner] if won is not None and outcome.get("deltas") else None
        scored = f", scoring {points(gain)}" if gain else ""
        knocker = outcome.get("knocker")
        if reason == "gin" and won:
            return f"Gin! {sentence(said(won, 'melds every card' + scored))}"
        if reason == "knock" and won is not None:
            if isinstance(knocker, int) and knocker != winner:
                beaten = whom(self.who(knocker))
                return f"Undercut! {sentence(said(won, f'has no more deadwood than {beaten}' + scored))}"
            return sentence(said(won, "knocks with the least deadwood" + scored))
        if reason == "out" and won:
            if outcome.get("rummy"):
                return f"Rummy! {sentence(said(won, 'goes out all at once' + scored))}"
            return sentence(said(won, "goes out" + scored))
        if reason == "blocked":
            if won:
                return sentence(f"The hand is blocked: {said(won, 'has the lowest count')}{scored}")
            if self.style == "gin":  # R-GIN-6: two cards left in the stock, and nobody knocked
                return "Only two cards are left in the stock: the hand is a draw, and nobody scores."
            if self.style == "500":  # 500 Rum scores every hand as it ends, out or not (R-500: melds as laid)
                return "The stock is empty and the hand ends: each player scores what they laid less what they hold."
            return "The hand is blocked: nobody scores."
        return sentence(f"the hand ends ({reason})")


def outcome_name(outcome: Mapping[str, Any]) -> str:
    """The kind of ending a player names: ``gin``, ``knock``, ``undercut``, ``out``, ``rummy``, ``blocked``.

    >>> outcome_name({"reason": "knock", "winner": 1, "knocker": 0})
    'undercut'
    """
    reason = str(outcome.get("reason", ""))
    if reason == "knock" and outcome.get("knocker") is not None and outcome.get("winner") != outcome.get("knocker"):
        return "undercut"
    if reason == "out" and outcome.get("rummy"):
        return "rummy"
    return reason


def prompt(view: Mapping[str, Any], deadwood: int | tuple[int, int] | None = None, boathouse: bool = False) -> str:
    """What happens now, said to the seat the view is for (a spectator is told whose turn it is).
    ``deadwood``: the viewing seat's own count (Knock and Gin), when known, or before a discard the count now
    and the least a discard leaves; ``boathouse``: R-RU-BOAT's draw and going out, which the buttons cannot say."""
    names = view["players"]
    seat = view.get("seat")
    style = view.get("style")
    legal = view.get("legal_actions") or []
    kinds = {a["action"] for a in legal}
    turn = view.get("turn")
    other = names[turn] if isinstance(turn, int) and turn != seat else None
    if view["phase"] == "over":
        outcome = view.get("outcome") or {}
        return Speaker(names, str(style)).ending(outcome)
    if not legal:
        return f"{other} to play." if other else "Waiting."
    top = view["discard"][-1] if view.get("discard") else None
    if "pass" in kinds:
        return f"The upcard is {card_word(top)}: take it, or pass." if top else "Take the upcard, or pass."
    if view["phase"] == "draw":
        if "draw" in kinds and all(a.get("from") == "stock" for a in legal):
            return "Draw from the stock."
        if style == "500":
            return ("Draw from the stock, or take a card of the discard pile with every card above it (the deepest "
                    "one you take must be melded at once).")
        blind = " (the top card of the stock comes with it, unseen by the others)" if boathouse else ""
        return f"Draw from the stock, or take {card_word(top)} from the discard pile{blind}." if top else \
            "Draw from the stock."
    if isinstance(deadwood, tuple):  # the count with the card about to go, and the least a discard leaves
        count = f" (your deadwood: {deadwood[0]} now, {deadwood[1]} after your best discard)"
    else:
        count = f" (your deadwood: {deadwood})" if deadwood is not None else ""
    if style == "gin":
        if "knock" in kinds:
            return f"Discard a card, or knock{count}: knocking with no deadwood at all is gin."
        return f"Discard a card{count}."
    if style == "knock":
        return f"Discard a card, or knock to end the hand{count}."
    if boathouse:
        return "Meld and lay off what you can, then discard a card: you go out only with a discard."
    return "Meld and lay off what you can, then discard a card (or go out)."


def bonus_text(name: str, points: int, reason: str) -> str:
    """A bonus the evening adds at its end, in words.

    >>> bonus_text("Ann", 100, "game")
    'Ann scores 100 for winning the game.'
    """
    return sentence(Speaker([name], "gin").score_text({"seat": 0, "points": points, "reason": reason}))
