"""A Poch hand in words: each event's sentence and the prompt of a view (the page and the terminal show
these and word no game event themselves).

>>> from rummoli.poch.ruleset import load_ruleset
>>> s = Speaker(load_ruleset("poch"), ["Ann", "Bob", "Cy"])
>>> s.line({"type": "meld", "seat": 1, "pot": "marriage", "cards": ["Qh", "Kh"]})
'Bob shows Q♥ K♥, winning the Marriage.'
>>> s.line({"type": "action", "seat": 0, "action": "bet", "amount": 3, "forced": False})
'Ann knocks for 3 chips.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rummoli.cards import SUIT_NAMES, Card
from rummoli.poker import rank_plural
from rummoli.wording import card_word, cards_word, chips, said, sentence, whom

if TYPE_CHECKING:
    from rummoli.poch.ruleset import Ruleset

_VERBS = {"check": "passes", "call": "holds", "fold": "drops out of the vying"}
_REASONS = {"cards": "for the cards left in their hand", "out": "for going out", "vie": "for the vying",
            "meld": "", "ante": ""}
_SETS = {2: "a pair of", 3: "three", 4: "four"}


def set_name(cards: Sequence[str]) -> str:
    """A combination shown at the vying, in words: ``a pair of kings``, ``the ace``."""
    if not cards:
        return "nothing"
    plural = rank_plural(Card.parse(cards[0]).rank)  # "three eights", as the poker words say it, not "three 8s"
    return f"{_SETS[len(cards)]} {plural}" if len(cards) > 1 else f"only {card_word(cards[0])}"


class Speaker:
    """The sentences of one hand's events."""

    def __init__(self, rules: Ruleset, names: Sequence[str]) -> None:
        self.names = list(names)
        self.pools = {p.id: p.name for p in rules.pools}
        #: the vying's pool by the board's own name (the modern board's "Pocher", Hoyle's "Pool")
        self.vie_pool = next((p.name for p in rules.pools if p.kind == "vie"), "Pocher")

    def party(self, code: str) -> str:
        kind, _, name = code.partition(":")
        return self.names[int(name)] if kind == "seat" else f"the {self.pools.get(name, name)}"

    def line(self, event: Mapping[str, Any]) -> str | None:
        kind = event["type"]
        who = self.names[event["seat"]] if isinstance(event.get("seat"), int) else ""
        if kind == "meld":
            return sentence(said(who, f"shows {cards_word(event['cards'])}, winning the "
                                      f"{self.pools.get(event['pot'], event['pot'])}"))
        if kind == "action":
            action = event["action"]
            if action in ("bet", "raise"):
                verb = "knocks for" if action == "bet" else "knocks again, raising by"
                return sentence(f"{said(who, verb)} {chips(event['amount'])}")
            if action in ("lead", "play"):
                verb = "leads" if action == "lead" else "plays"
                tail = " (the only card left)" if action == "lead" and event.get("forced") else ""
                return sentence(f"{said(who, verb)} {card_word(event['card'])}{tail}")
            return sentence(said(who, _VERBS.get(action, action)))
        if kind == "chips":
            if event["reason"] in ("ante", "meld", "bet", "raise", "call"):
                return None
            why = _REASONS.get(event["reason"], "")
            tail = f" {why}" if why else ""
            if event["from"].startswith("seat:"):  # "Ann pays Bob 5 chips for the cards left in their hand", as
                # the stops games say it: "Bob gets 5 chips from Ann for ... their hand" read as Bob's hand
                verb = f"pays {whom(self.party(event['to']))} {chips(event['amount'])}{tail}"
                return sentence(said(self.party(event["from"]), verb))
            return sentence(f"{said(self.party(event['to']), 'gets')} {chips(event['amount'])} from "
                            f"{whom(self.party(event['from']))}{tail}")
        if kind == "showdown":
            return sentence(f"{said(who, 'shows')} {set_name(event['cards'])}")
        if kind == "no_vie":
            return f"Nobody knocks: the {self.vie_pool} stays on the board."
        if kind == "stop":
            return sentence(f"The run stops after {card_word(event['after'])}")
        if kind == "out":
            return sentence(f"{said(who, 'is')} out of cards")
        return None


def prompt(view: Mapping[str, Any]) -> str:
    """What happens now, in words, for the seat whose view this is."""
    names = view["players"]
    phase = view["phase"]
    me = view.get("seat")
    trump = view["trump"]
    suit = SUIT_NAMES[Card.parse(trump["card"]).suit]
    if phase == "over":
        winner = view.get("winner")
        return "The hand is over." if winner is None else f"{names[winner]} went out: the hand is over."
    acting = view["to_act"][0] if view["to_act"] else None
    if acting is None:
        return ""
    mine = acting == me
    who = "you" if mine else names[acting]
    if phase == "vie":
        vie = view["vie"]
        # What the seat may do, from its own legal actions: knocking needs a set under R-PO-6's opener rule, and
        # knocking again is barred by R-PO-7 (no raising, or its raises used up).
        kinds = {a["action"] for a in view.get("legal_actions", [])}
        if vie["current"] == 0:
            may = "may knock (bet) or pass" if "bet" in kinds else "hold no pair to open with: pass"
            pool = next((p["name"] for p in view.get("board", []) if p.get("kind") == "vie"), "Pocher")
            text = f"Vying for the {pool}: " + (f"{who} {may}." if mine else f"waiting for {who} to knock or pass.")
        else:
            owed = vie["current"] - vie["put"][acting]
            again = ", knock again," if "raise" in kinds else ""
            text = f"Vying: the stake is {chips(vie['current'])}; " + (
                f"hold for {chips(owed)}{again} or drop out." if mine else f"waiting for {who}.")
        return f"Trumps are {suit}. {text}"
    forced = [a for a in view.get("legal_actions", []) if a["action"] == "play"]
    if forced:
        return f"Trumps are {suit}. Your {card_word(forced[0]['card'])} is next in the run: it is laid for you."
    leader = (view.get("play") or {}).get("leader")
    if acting != leader:
        return f"Trumps are {suit}. The run goes on: {names[acting]} lays the next card."
    return f"Trumps are {suit}. " + ("Lead any card: whoever holds the next card up in its suit must play it."
                                     if mine else f"Waiting for {who} to lead.")
