"""A stops hand in words: each event as a sentence, what the viewing seat is asked now, a pot's name.

These are the only sentences about a stops hand anywhere: the engine puts each event's ``text`` into the
events it hands out (:mod:`rummoli.stops.views`), and the terminal, the replay summary and the web page
show them as they are.  Everything here reads events and views, so it can never say a hidden card.

>>> speak = Speaker(["Ann", "Bob"], {"Ts": "Ten of spades", "centre": "Rummoli"}, dealer=0, ante=9)
>>> speak.line({"type": "chips", "from": "pot:Ts", "to": "seat:1", "amount": 4, "reason": "pay_card"})
'Bob wins the Ten of spades pot: 4 chips.'
>>> speak.line({"type": "action", "seat": 0, "action": "lead", "card": "2c", "forced": True})
'Ann leads 2♣ (the only choice).'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rummoli.cards import Card
from rummoli.poker import evaluate
from rummoli.wording import card_word, cards_word, chips, only_choice, said, sentence, whom

if TYPE_CHECKING:
    from rummoli.stops.hand import Hand
    from rummoli.stops.ruleset import Ruleset

#: Actions whose verb needs no amount or card.
_VERBS = {"keep": "keeps their hand: the widow goes up for auction", "pass": "passes", "check": "checks",
          "call": "calls", "fold": "folds", "claim": "claims the pot"}
#: Why chips went from a seat into a pot, or to another seat.
_PAID = {"stall": "for the stall", "cannot_lead": "as they cannot lead"}


def pot_label(name: str) -> str:
    """A pot in a sentence: ``the Kitty``, ``the Poker pot``, ``the Ten of spades pot``.

    >>> pot_label("Kitty"), pot_label("Poker"), pot_label("7-8-9 of one suit")
    ('the Kitty', 'the Poker pot', 'the 7-8-9 of one suit pot')
    """
    lowered = name.lower()
    return f"the {name}" if "pot" in lowered or "kitty" in lowered else f"the {name} pot"


def five_name(cards: Sequence[str]) -> str:
    """What five cards make, as a player says it: ``Two pair, kings and fives``."""
    return five_names([cards])[0]


def five_names(fives: Sequence[Sequence[str]]) -> list[str]:
    """:func:`five_name` of each of the fives shown at one showdown, each that shares its name with a different
    hand named down to the card that tells them apart (``Flush, ace-king high`` beside ``Flush, ace-queen
    high``): the name alone would not say why one of them wins."""
    values = [evaluate([Card.parse(c) for c in five]) for five in fives]
    plain = [v.describe() for v in values]
    out = []
    for i, value in enumerate(values):
        depth = 0
        for j, other in enumerate(values):
            if j != i and plain[j] == plain[i] and other.value != value.value:
                first = next(k for k, (a, b) in enumerate(zip(value.ranks, other.ranks, strict=True)) if a != b)
                depth = max(depth, first + 1)
        text = value.describe(depth)
        out.append(text[0].upper() + text[1:])
    return out


class Speaker:
    """The sentences of one hand: its players' names, its board's pot names, its dealer and ante."""

    def __init__(self, names: Sequence[str], pots: Mapping[str, str], dealer: int, ante: int,
                 dealer_ante: int | None = None, one_card: frozenset[str] = frozenset()) -> None:
        self.names = list(names)
        self.pots = dict(pots)
        self.one_card = one_card  # the pots paid for a single card: held, it is "its card", not "its cards"
        self.dealer = dealer
        self.ante = ante
        self.dealer_ante = ante if dealer_ante is None else dealer_ante

    @classmethod
    def of(cls, hand: Hand) -> Speaker:
        return cls.of_rules(hand.rules, hand.names, hand.dealer)

    @classmethod
    def of_rules(cls, rules: Ruleset, names: Sequence[str], dealer: int) -> Speaker:
        per_seat = rules.ante_per_seat()
        double = per_seat * 2 if rules.dealer_ante == "double" else per_seat
        return cls(names, {p.id: p.name for p in rules.board.pots}, dealer, per_seat, double,
                   frozenset(p.id for p in rules.board.pots if len(p.cards) == 1))

    def who(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def party(self, code: str) -> str:
        kind, _, key = code.partition(":")
        if kind == "seat":
            return self.who(int(key))
        return pot_label(self.pots.get(key, key))

    def line(self, event: Mapping[str, Any], previous: Mapping[str, Any] | None = None,
             five: str | None = None) -> str | None:
        """``event`` as one sentence, or ``None`` when it is not worth a line of its own (a bet's chips,
        which the bet says; every ante but the first, which says them all). ``five``: a showdown's five as
        :func:`five_names` names it among the others shown with it (else by :func:`five_name` alone)."""
        kind = event["type"]
        if kind == "action":
            return self._action(event)
        if kind == "chips":
            return self._chips(event, previous)
        if kind == "showdown":
            cards = event["cards"]
            named = five if five is not None else five_name(cards)
            return sentence(said(self.who(event["seat"]), f"shows {cards_word(cards)}: {named[0].lower()}{named[1:]}"))
        if kind == "stop":
            return f"Stop: the run ends after {card_word(event['after'])}."
        if kind == "swap":
            return sentence(said(self.who(event["seat"]), "takes the widow, giving up their hand"))
        if kind == "cannot_lead":
            return sentence(said(self.who(event["seat"]), "cannot lead: the lead passes left"))
        if kind == "out":
            return sentence(said(self.who(event["seat"]), "is out of cards!"))
        if kind == "stall":
            return "Nobody can lead: the hand stalls, and everyone pays a chip for each card they hold."
        if kind == "unclaimed":
            pots = ", ".join(pot_label(self.pots.get(p, p)) for p in event.get("pots", []))
            return sentence(said(self.who(event["seat"]), f"did not claim {pots}: the chips stay"))
        if kind == "over":
            return "The hand is over."
        if kind == "void":
            return "The hand is void: every chip goes back."
        return None

    def _action(self, event: Mapping[str, Any]) -> str | None:
        who, act = self.who(event["seat"]), event["action"]
        if act == "swap":
            return None  # the swap event that follows says it
        if act in ("lead", "play"):
            text = said(who, f"{act}s {card_word(event['card'])}")
        elif act in ("bid", "bet"):
            text = said(who, f"{act}s {event['amount']}")
        elif act == "raise":
            text = said(who, f"raises by {event['amount']}")
        else:
            text = said(who, _VERBS.get(act, act))
        if event.get("forced") and act != "play":  # a play in a run is everyone's only choice: no news
            text = only_choice(text)
        return sentence(text)

    def _chips(self, event: Mapping[str, Any], previous: Mapping[str, Any] | None) -> str | None:
        reason, amount = event["reason"], event["amount"]
        src, dst = event["from"], event["to"]
        if reason == "ante":
            if previous is not None and previous.get("type") == "chips" and previous.get("reason") == "ante":
                return None
            if self.dealer_ante != self.ante:
                return (f"Everyone antes {chips(self.ante)}, the dealer, {self.who(self.dealer)}, "
                        f"{chips(self.dealer_ante)}.")
            return f"Everyone antes {chips(self.ante)}."
        if reason == "bet":
            return None
        giver, taker = self.party(src), self.party(dst)
        if src.startswith("pot:"):
            if reason == "on_hold":
                cards = "its card" if src.partition(":")[2] in self.one_card else "its cards"
                return sentence(said(taker, f"takes {giver} for holding {cards}: {chips(amount)}"))
            if reason == "centre":
                return sentence(said(taker, f"takes {giver}: {chips(amount)}"))
            return sentence(said(taker, f"wins {giver}: {chips(amount)}"))
        if reason == "widow_bid":
            return sentence(said(giver, f"pays {whom(taker)} {chips(amount)} for the widow"))
        if reason == "leftover":
            return sentence(said(giver, f"pays {whom(taker)} {chips(amount)} for the cards left in their hand"))
        why = _PAID.get(reason, f"({reason.replace('_', ' ')})")
        return sentence(said(giver, f"pays {chips(amount)} into {taker} {why}"))


# ------------------------------------------------------------------------------------------ prompts
def _high_bid(view: Mapping[str, Any], names: Sequence[str]) -> str:
    auction = view.get("auction") or {}
    bidder = auction.get("bidder")
    return "no bid yet" if bidder is None else f"high bid {auction['bid']} by {names[bidder]}"


def _no_bid_why(view: Mapping[str, Any]) -> str:
    """Why the seat to act may only pass in the widow auction: a bid it cannot top, or (with ``widow_bar``) a pay
    card in its hand, the only other reason: it holds more chips than the high bid and still may not bid."""
    seat, bid = view.get("seat"), (view.get("auction") or {}).get("bid", 0)
    if seat is not None and view["chips"][seat] > bid:
        return "You hold a pay card, so you may not bid: pass"
    return "You cannot outbid it: pass"


def _range(view: Mapping[str, Any], kind: str) -> tuple[int, int] | None:
    for action in view.get("legal_actions") or []:
        if action["action"] == kind and "min" in action:
            return int(action["min"]), int(action["max"])
    return None


def prompt(view: Mapping[str, Any]) -> str:
    """What happens now, said to the seat the view is for (a spectator is told whose turn it is).

    It reads the view only: the phase, whose turn it is, the viewing seat's legal actions.
    """
    names = view["players"]
    seat = view.get("seat")
    legal = view.get("legal_actions") or []
    kinds = {a["action"] for a in legal}
    waiting = [names[s] for s in view.get("to_act", []) if s != seat]
    phase = view["phase"]
    dealer = names[view["dealer"]]
    pot_of = {p["kind"]: p["id"] for p in view.get("board", [])}
    if phase == "over":
        winner = view.get("winner")
        if winner is None:
            return "The hand is over: nobody went out."
        return sentence(said(names[winner], "went out: the hand is over"))
    if phase == "widow":
        if kinds & {"keep", "swap"}:
            return (f"You deal. Keep your hand: the others bid for the widow ({view['widow_size']} cards), and "
                    "the winner pays you and swaps hands with it. Or swap yours for the widow, unseen.")
        return f"{dealer} deals and chooses: keep their hand, or swap it unseen for the widow."
    if phase == "auction":
        high = _high_bid(view, names)
        limits = _range(view, "bid")
        if kinds:
            offer = f"Bid {limits[0]} to {limits[1]}, or pass for good" if limits else _no_bid_why(view)
            return (f"Widow auction ({view['widow_size']} cards, unseen): {high}. {offer}. The winner pays {dealer} "
                    "and swaps hands with the widow.")
        return sentence(f"Widow auction: {high}; " + (f"{', '.join(waiting)} to bid" if waiting else "over"))
    if phase == "poker":
        betting = view.get("betting") or {}
        pot = view.get("pots", {}).get(pot_of.get("poker", "poker"), 0)
        # the board's own name for it: Tripoley's is "the Pot", as its result and the board say
        poker_pot = pot_label(next((p["name"] for p in view.get("board", []) if p["kind"] == "poker"), "Poker"))
        if kinds:
            put = betting.get("put") or []
            to_call = betting.get("level", 0) - (put[seat] if seat is not None and seat < len(put) else 0)
            parts = [f"Poker round for {poker_pot} ({chips(pot)})"]
            parts.append(f"you need {to_call} to call" if to_call > 0 else "nobody has bet")
            for kind in ("bet", "raise"):
                limits = _range(view, kind)
                if limits:
                    parts.append(f"you may {kind} {limits[0]} to {limits[1]}")
            left = betting.get("max_raises", 0) - betting.get("raises", 0)
            parts.append(f"{left} raise{'' if left == 1 else 's'} left")
            return sentence("; ".join(parts))
        return sentence(f"Poker round for {poker_pot} ({chips(pot)}): "
                        + (f"{', '.join(waiting)} to act" if waiting else "the showdown"))
    play = view.get("play") or {}
    if "claim" in kinds:
        return "Claim the pot for the card you just laid, before the next card is laid, or its chips stay."
    if "lead" in kinds:
        cards = [card_word(a["card"]) for a in legal if a["action"] == "lead"]
        stopped = play.get("stopped_suit")
        why = "after the stop" if stopped else "to open the play"
        return f"Your lead {why}: " + (f"{cards[0]}." if len(cards) == 1 else f"choose one of {', '.join(cards)}.")
    if "play" in kinds:
        return "Play the next card of the run."
    if not waiting:
        return "The play round."
    if play.get("run"):
        return sentence(f"The run goes on: {waiting[0]} holds the next card")
    return sentence(said(waiting[0], "leads next"))


def best_five(hand: Sequence[str]) -> dict[str, Any] | None:
    """The best five cards of a hand and their name, or None with fewer than five cards (a new dictionary each
    time: the evaluation is made once per hand, :func:`best_five_of`).

    >>> best_five(["As", "Ah", "Kd", "Kc", "2s", "7h"])["name"]
    'Two pair, aces and kings'
    """
    if len(hand) < 5:
        return None
    cards, name = best_five_of(tuple(hand))
    return {"cards": list(cards), "name": name}


@lru_cache(maxsize=8192)
def best_five_of(hand: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """The best five of ``hand`` and their name. A person's view shows them in every state of the hand's widow,
    auction and poker phases, while the seat's cards stay the same: the game server evaluated the same hand
    again at every change, for every seat (5% of its CPU at 200 tables). Remembered for the last hands seen."""
    value = evaluate([Card.parse(c) for c in hand])
    named = value.describe()
    return tuple(str(c) for c in value.cards), named[0].upper() + named[1:]


def poker_ahead(view: Mapping[str, Any]) -> bool:
    """Whether the hand's poker pot is still to be played for (the view's seat's best five matters)."""
    if view["phase"] not in ("widow", "auction", "poker"):
        return False
    return any(p["kind"] == "poker" and p.get("ante", 0) > 0 for p in view.get("board", []))
