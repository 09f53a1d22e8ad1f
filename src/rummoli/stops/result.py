"""What a finished stops hand came to, made once from the hand itself (never re-derived by a client).

:func:`hand_result` reads the hand's log and gives every client the same answer: each pot won (by whom,
how many chips and why), every other payment, the showdown's fives with their names, what stays on the
board, each seat's net change for the hand, and the whole of it in sentences.  It holds nothing hidden:
only what the hand's events already made public.  Seats are the hand's; the table maps them to its own.

>>> from rummoli.stops.replay import hand_from_record
>>> from rummoli.dealing import deal_with_widow
>>> from rummoli.cards import shuffled_deck
>>> from rummoli.stops.hand import Hand
>>> hands, widow = deal_with_widow(shuffled_deck(3), 3, dealer=0)
>>> h = Hand("michigan", ["Ann", "Bob", "Cy"], [50] * 3, {}, 0, hands, widow)
>>> import random
>>> while not h.over:
...     h.random_step(random.Random(1))
>>> r = hand_result(h)
>>> sum(c["change"] for c in r["changes"]) + sum(r["board"].values()) - sum(h.start_pots) == 0
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rummoli.cards import Card, names_of
from rummoli.poker import evaluate
from rummoli.shapes import Change, PotWon, Shown, StopsResult
from rummoli.stops.words import Speaker, five_names, pot_label
from rummoli.wording import cards_word, chips, said, sentence

if TYPE_CHECKING:
    from rummoli.stops.hand import Hand
    from rummoli.stops.ruleset import Ruleset

#: the speaker of a hushed hand's result, which says nothing (hand_result asks it nothing)
_MUTE = Speaker([], {}, 0, 0)

#: Why a pot paid, by the reason its chips moved (combos are told apart from single cards by the pot).
_WHY = {"pay_card": "card", "on_hold": "held", "poker": "poker", "centre": "out"}


def poker_order(cards: Sequence[str]) -> list[str]:
    """Five cards as a player lays them down: what makes the hand first, highest first (``K♠ K♥ K♦ K♣ Q♦``, a
    straight in its run), not in suit order (the kicker among the kings).

    >>> poker_order(["8s", "Js", "Qs", "Th", "9c"]), poker_order(["Ks", "Kh", "Qd", "Kd", "Kc"])
    (['Qs', 'Js', 'Th', '9c', '8s'], ['Ks', 'Kh', 'Kd', 'Kc', 'Qd'])
    """
    return [str(c) for c in evaluate([Card.parse(c) for c in cards]).cards]


def _seat(party: str) -> int | None:
    kind, _, key = party.partition(":")
    return int(key) if kind == "seat" else None


def _pot(party: str) -> str | None:
    kind, _, key = party.partition(":")
    return key if kind == "pot" else None


def hand_result(hand: Hand) -> StopsResult:
    """The result of a finished hand (see the module's docstring); hand-level seats. A hushed hand (the lab's,
    whose only readers are bots that read no words: :meth:`rummoli.streams.Reading.hush`) gets the same result
    without its words (each ``text``, the ``headline`` and each shown five's ``name`` empty, no ``lines``): 2.5% of a
    lab hand's instructions went on words nobody read."""
    worded = hand.worded
    speak = Speaker.of(hand) if worded else _MUTE
    board = {p.id: p for p in hand.rules.board.pots}
    won: dict[tuple[str, int], PotWon] = {}
    payments: list[dict[str, Any]] = []
    folded_to = len(hand.poker_winners) == 1 and not hand.showdown
    paid = [e for e in hand.log if e[0] == "chips" and e[4] != "ante" and e[4] != "bet"]
    for event in hand.render(paid):  # only the payments are rendered: the rest of the log says nothing here
        pot, seat, amount, reason = _pot(event["from"]), _seat(event["to"]), event["amount"], event["reason"]
        if pot is not None and seat is not None:
            why = _WHY.get(reason, reason)
            if why == "card" and board[pot].kind == "combo":
                why = "combo"
            entry = won.setdefault((pot, seat), {"pot": pot, "name": board[pot].name, "seat": seat, "amount": 0,
                                                "why": why, "text": ""})
            entry["amount"] += amount
        else:
            payments.append({"from": _seat(event["from"]), "to": seat, "pot": _pot(event["to"]), "amount": amount,
                             "why": reason, "text": (speak.line(event) or "") if worded else ""})
    shown = hand.showdown
    winners = set(hand.poker_winners)
    fives = [(s, names_of(m)) for s, m in sorted(shown.items())]
    # two fives of one name told apart by the card that decides; a hushed hand's fives go unnamed, as its sentences
    named = five_names([five for _, five in fives]) if worded else [""] * len(fives)
    showdown: list[Shown] = [{"seat": s, "player": hand.names[s], "cards": poker_order(five), "name": name,
                              "won": s in winners} for (s, five), name in zip(fives, named, strict=True)]
    pots_won = list(won.values())
    for entry in pots_won:
        entry["text"] = _win_text(speak, entry, folded_to) if worded else ""
    changes: list[Change] = [{"seat": s, "name": hand.names[s], "before": hand.start_chips[s], "after": hand.chips[s],
                "change": hand.chips[s] - hand.start_chips[s]} for s in range(hand.n)]
    board_left = hand.pot_balances()
    winner = None if hand.winner < 0 else hand.winner
    result: StopsResult = {
        "game": "stops",
        "reason": "out" if winner is not None else "stall",
        "outcome": "out" if winner is not None else "stall",
        "winner": winner,
        "headline": _headline(speak, winner, pots_won, board) if worded else "",
        "pots_won": pots_won,
        "payments": payments,
        "showdown": showdown,
        "showdown_won": "wins " + pot_label(next((p.name for p in board.values() if p.kind == "poker"), "Poker")),
        "board": board_left,
        "changes": changes,
        "lines": [],
    }
    if worded:
        result["lines"] = _lines(speak, result, board, hand.rules.poker)
    return result


def _win_text(speak: Speaker, entry: PotWon, folded_to: bool) -> str:
    who, pot, amount, why = speak.who(entry["seat"]), pot_label(entry["name"]), entry["amount"], entry["why"]
    how = {
        "card": "for laying its card",
        "combo": "for laying its cards one after another",
        "held": "for holding its card" if entry["pot"] in speak.one_card else "for holding its cards",
        "poker": "as everyone else folded" if folded_to else "with the best poker hand",
        "out": "for going out first",
    }.get(why, f"({why})")
    return sentence(said(who, f"wins {pot}: {chips(amount)}, {how}"))


def _headline(speak: Speaker, winner: int | None, pots_won: list[PotWon], board: dict[str, Any]) -> str:
    if winner is None:
        return "Nobody could lead: the hand stalled, and its chips stay on the board."
    centre = next((w for w in pots_won if w["why"] == "out"), None)
    took = f", taking {pot_label(centre['name'])}: {chips(centre['amount'])}" if centre else ""
    return sentence(said(speak.who(winner), f"goes out first{took}"))


def _lines(speak: Speaker, result: StopsResult, board: dict[str, Any], poker: str) -> list[str]:
    """The result in sentences, in the order a player tells it: the showdown's lines say when it was (told after
    the headline, a showdown before the play read as cards shown after they were laid)."""
    lines = [result["headline"]]
    if result["showdown"]:
        lines.append(f"At the showdown, {'before' if poker == 'before_play' else 'after'} the play:")
    for shown in result["showdown"]:
        mark = " (wins)" if shown["won"] else ""
        five = f"shows {cards_word(shown['cards'])}: {shown['name'].lower()}{mark}."
        lines.append(said(speak.who(shown["seat"]), five))
    lines += [w["text"] for w in result["pots_won"]]
    lines += [p["text"] for p in result["payments"] if p["text"]]
    left = [f"{pot_label(board[p].name)} {n}" for p, n in result["board"].items() if n]
    lines.append("Staying on the board: " + ", ".join(left) + "." if left else "Nothing stays on the board.")
    lines.append("Chips: " + ", ".join(f"{c['name']} {c['before']} → {c['after']} ({c['change']:+d})"
                                       for c in result["changes"]) + ".")
    return lines


def exact(value: int | Fraction) -> int | str:
    """A number of chips as JSON: a whole number, or an exact share as text (``"101/3"``, R-CHIP-1).

    >>> exact(Fraction(6, 3)), exact(Fraction(7, 2)), exact(4)
    (2, '7/2', 4)
    """
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    return value


def settlement_entry(rules: Ruleset, names: Sequence[str], pot: str, amount: int, how: str,
                     paid: Mapping[int, int | Fraction], shown: Mapping[int, list[str]],
                     won: set[int]) -> dict[str, Any]:
    """One share-out of the evening's settlement (R-SESSION-2): the pot (``all``: the whole board), its chips,
    how it was shared (``showdown``, ``share``, ``alone``), each seat's share, the fives shown, and the words.
    ``paid`` by name is what records have always held; ``payments`` and ``showdown`` name seats."""
    board = {p.id: p.name for p in rules.board.pots}
    name = "the whole board" if pot == "all" else pot_label(board.get(pot, pot))
    payments = [{"seat": s, "name": names[s], "amount": exact(a)} for s, a in paid.items()]
    named = five_names(list(shown.values()))
    showdown: list[Shown] = [{"seat": s, "player": names[s], "name": name, "cards": poker_order(c),
                              "won": s in won} for (s, c), name in zip(shown.items(), named, strict=True)]
    shares = ", ".join(f"{p['name']} {chips(p['amount'])}" for p in payments)
    if how == "share" and len(payments) == 1:  # everyone else left: nothing to share
        text = sentence(said(str(payments[0]["name"]), f"takes the {chips(amount)} left on the board, as the last "
                                                         "player seated"))
    elif how == "share":
        text = f"The {chips(amount)} left on the board are shared equally: {shares}."
    elif how == "alone":
        # one verb, so that "You" reads as well as a name ("You take", not "You are ... and takes")
        text = sentence(said(str(payments[0]["name"]), f"takes {name} as the last player left: {chips(amount)}"))
    elif len(payments) == 1:
        text = sentence(said(str(payments[0]["name"]), f"wins the showdown for {name}: {chips(amount)}"))
    else:
        text = f"The showdown for {name} ({chips(amount)}) is a tie, shared: {shares}."
    return {"pot": pot, "name": name, "amount": amount, "how": how,
            "paid": {names[s]: exact(a) for s, a in paid.items()},
            "shown": {names[s]: list(c) for s, c in shown.items()},
            "payments": payments, "showdown": showdown, "text": text}
