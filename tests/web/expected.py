"""What the web table must show at each hand's end and at the evening's end, worked out from the evening's record
alone: each hand record replayed with its engine (``rummoli.games.replay``, R-NOTE-4: the final chips and every
event with the chips it moved), the ledger and the recorded settlement. Nothing here reads the server's result
code (``rummoli.stops.result``, ``rummoli.rummy.result``) or the page: the two are checked against this.

Every figure is keyed as the page's ``data-result`` hooks name it, in evening seats (a hand's seats are mapped
through its ``players`` names onto the evening record's ``players``), and written as the page writes it: a whole
number, or an exact share as ``"n/d"``."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from rummoli.cards import Card, mask_of
from rummoli.games import game_of, replay
from rummoli.rummy.melds import meld_table
from rummoli.rummy.ruleset import load_ruleset as load_rummy

Figures = dict[tuple[str, ...], str]


def number(value: int | Fraction | str) -> str:
    """A figure as the page shows it: ``4``, ``-2`` or ``"101/3"``."""
    exact = Fraction(value) if not isinstance(value, Fraction) else value
    return str(exact.numerator) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def card_value(card: str, ace_value: int) -> int:
    """A card counted in hand (R-RU-2): an ace as the ruleset says, 10 J Q K ten, the rest their pips."""
    rank = card[0]
    if rank == "A":
        return ace_value
    return 10 if rank in "TJQK" else int(rank)


def hand_figures(evening: dict[str, Any], hand_no: int) -> Figures:
    """The figures of hand ``hand_no`` as the page hooks name them:
    ``("outcome", reason)`` -> the winner's change (0: nobody won), ``("hand-change", seat)``,
    ``("pot-win", pot, seat, hand)`` (stops, Poch), ``("deadwood", seat)`` and ``("knocker", seat)`` (Rummy)."""
    record = evening["hands"][hand_no - 1]
    seats = [evening["players"].index(name) for name in record["players"]]
    result = replay(record)
    events = result["events"]
    figures: Figures = {}
    changes = [after - before for after, before in zip(result["chips"], record["chips"], strict=True)]
    for hand_seat, change in enumerate(changes):
        figures[("hand-change", str(seats[hand_seat]))] = signed(change)
    if game_of(record["ruleset"]) in ("stops", "poch"):  # the board games: pots paid out to seats
        won: dict[tuple[str, int], int] = defaultdict(int)
        for e in events:
            if e["type"] == "chips" and e["from"].startswith("pot:") and e["to"].startswith("seat:"):
                won[(e["from"][4:], seats[int(e["to"][5:])])] += e["amount"]
        for (pot, seat), amount in won.items():
            figures[("pot-win", pot, str(seat), str(hand_no))] = str(amount)
        out = [e["seat"] for e in events if e["type"] == "out"]
        reason = "out" if out else "stall"
        winner = out[0] if out else None
    else:
        end = next(e for e in events if e["type"] == "end")
        reason, winner = end["reason"], end.get("winner")
        counts = end.get("counts")
        if counts is None:  # no showdown count: what each hand still holds, at the ruleset's card values
            rules = load_rummy(record["ruleset"])
            shown = next(e["hands"] for e in events if e["type"] == "show")
            counts = [sum(card_value(c, rules.ace_value) for c in cards) for cards in shown]
            if rules.style in ("knock", "gin"):  # their hands are always arranged, a blocked one's too (R-GIN-4)
                table = meld_table(rules.aces, rules.ace_value)
                counts = [count - table.best_arrangement(mask_of(Card.parse(c) for c in cards))[0]
                          for count, cards in zip(counts, shown, strict=True)]
        for hand_seat, count in enumerate(counts):
            figures[("deadwood", str(seats[hand_seat]))] = str(count)
        knocker = end.get("knocker")
        if isinstance(knocker, int):  # the knocker's tag: going gin is a knock with nothing left, called gin
            figures[("knocker", str(seats[knocker]))] = "goes gin" if reason == "gin" else "knocked"
    figures[("outcome", reason)] = signed(changes[winner]) if winner is not None else "0"
    return figures


def evening_figures(evening: dict[str, Any]) -> Figures:
    """The evening's end: ``("standing", seat)`` -> chips or points after every hand, the ledger's moves (a player
    who left, Gin's bonuses) and the settlement; ``("pot-win", pot, seat, "settlement")`` -> each share of it."""
    names = evening["players"]
    stacks: dict[str, Fraction] = {name: Fraction(0) for name in names}
    for entry in evening["ledger"]:
        if entry["type"] == "hand":
            record = evening["hands"][entry["hand_no"] - 1]
            for name, chips in zip(record["players"], replay(record)["chips"], strict=True):
                stacks[name] = Fraction(chips)
        elif entry["type"] == "out":
            stacks[entry["player"]] = Fraction(0)
        elif entry["type"] == "bonus":
            stacks[entry["player"]] += entry["points"]
    figures: Figures = {}
    shares: dict[tuple[str, int], Fraction] = defaultdict(Fraction)
    for entry in evening.get("settlement") or []:
        for name, amount in entry["paid"].items():
            shares[(entry["pot"], names.index(name))] += Fraction(amount)
            stacks[name] += Fraction(amount)
    for (pot, seat), amount in shares.items():
        figures[("pot-win", pot, str(seat), "settlement")] = number(amount)
    for seat, name in enumerate(names):
        figures[("standing", str(seat))] = number(stacks[name])
    return figures
