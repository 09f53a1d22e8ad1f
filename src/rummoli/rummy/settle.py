"""How a Rummy-family hand ends and what it scores (R-RU-4/5, R-RU-BLOCK, R-500-4/5, R-KN-3..5, R-GIN-4..6).

Every function takes the hand that is ending, adds the points to ``hand.deltas`` with one ``score`` event
per payment, and closes the hand with a ``show`` event (the hands left) and an ``end`` event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummoli.cards import cards_of

if TYPE_CHECKING:
    from rummoli.rummy.hand import RummyHand


def finish(hand: RummyHand, reason: str, **details: Any) -> None:
    hand.phase = "over"
    hand.outcome = {"reason": reason, **details, "deltas": list(hand.deltas)}
    hand.events_log.append({"type": "show", "hands": [[str(c) for c in cards_of(h)] for h in hand.hands]})
    hand.events_log.append({"type": "end", **hand.outcome})


def score(hand: RummyHand, seat: int, points: int, reason: str, source: int | None = None) -> None:
    """``seat`` scores ``points`` (paid by ``source`` when one player pays another)."""
    if points:
        hand.deltas[seat] += points
        event: dict[str, Any] = {"type": "score", "seat": seat, "points": points, "reason": reason}
        if source is not None:
            event["from"] = source
        hand.events_log.append(event)


def go_out(hand: RummyHand, seat: int) -> None:
    """A player shed their last card (R-RU-4, R-500-5)."""
    if hand.rules.style == "500":
        score_500(hand)
        finish(hand, "out", winner=seat)
        return
    rummy = hand.rules.rummy_bonus and not hand.laid_before
    for other in range(hand.n):
        if other != seat:
            points = hand.melds_table.card_value(hand.hands[other])
            score(hand, seat, points * 2 if rummy else points, "rummy" if rummy else "cards", other)
    finish(hand, "out", winner=seat, rummy=rummy)


def score_500(hand: RummyHand) -> None:
    """R-500-4: what each player laid, less what they still hold."""
    for seat in range(hand.n):
        score(hand, seat, hand.points[seat], "melds")
        score(hand, seat, -hand.melds_table.card_value(hand.hands[seat]), "hand")


def counts(hand: RummyHand) -> list[int]:
    """Each hand's count at a showdown: deadwood after arranging (Knock, Gin), else card values."""
    table = hand.melds_table
    if hand.rules.style in ("knock", "gin"):
        return [table.deadwood(h) for h in hand.hands]
    return [table.card_value(h) for h in hand.hands]


def lowest(hand: RummyHand, values: list[int], first: int) -> int:
    """The seat with the lowest count, ties going to the first in turn order from ``first``."""
    low = min(values)
    return next(s for s in ((first + k) % hand.n for k in range(hand.n)) if values[s] == low)


def block(hand: RummyHand) -> None:
    """The stock ran dry with no flip left (R-RU-5, R-RU-BLOCK, R-500-5, R-KN-5, R-GIN-6)."""
    hand.events_log.append({"type": "blocked"})
    style = hand.rules.style
    if style == "500":
        score_500(hand)
        finish(hand, "blocked")
    elif style == "gin" or (style == "straight" and hand.rules.stock_end == "flip_once"):
        finish(hand, "blocked")
    else:
        values = counts(hand)
        winner = lowest(hand, values, hand.turn)
        for seat in range(hand.n):
            score(hand, winner, values[seat] - values[winner], "difference", seat)
        finish(hand, "blocked", winner=winner, counts=values)


def _arranged(hand: RummyHand) -> list[list[list[str]]]:
    best = hand.melds_table.best_arrangement
    return [[[str(c) for c in cards_of(m)] for m in best(h)[1]] for h in hand.hands]


def knock(hand: RummyHand, knocker: int) -> None:
    """R-KN-3/4 (Knock Rummy) or R-GIN-4/5 (Gin): hands shown and arranged, then settled."""
    if hand.rules.style == "gin":
        _gin(hand, knocker)
        return
    values = counts(hand)
    winner = lowest(hand, values, (knocker + 1) % hand.n)
    for seat in range(hand.n):
        score(hand, winner, values[seat] - values[winner], "difference", seat)
    if winner == knocker and values[knocker] == 0:
        for seat in range(hand.n):
            if seat != knocker:
                score(hand, knocker, hand.rules.knock_rummy_bonus, "rummy", seat)
    elif winner != knocker:
        score(hand, winner, hand.rules.knock_penalty, "penalty", knocker)
    finish(hand, "knock", winner=winner, knocker=knocker, counts=values, melds=_arranged(hand))


def _gin(hand: RummyHand, knocker: int) -> None:
    table, rules = hand.melds_table, hand.rules
    defender = 1 - knocker
    melded, melds = table.best_arrangement(hand.hands[knocker])
    mine = table.card_value(hand.hands[knocker]) - melded
    if mine == 0:
        theirs, laid = table.deadwood(hand.hands[defender]), 0
        score(hand, knocker, theirs, "difference", defender)
        score(hand, knocker, rules.gin_bonus, "gin", defender)
        winner = knocker
    else:
        theirs, laid = table.deadwood_with_layoffs(hand.hands[defender], melds)
        if mine < theirs:
            score(hand, knocker, theirs - mine, "difference", defender)
            winner = knocker
        else:
            score(hand, defender, mine - theirs, "difference", knocker)
            score(hand, defender, rules.undercut_bonus, "undercut", knocker)
            winner = defender
    values = [0, 0]
    values[knocker], values[defender] = mine, theirs
    finish(
        hand,
        "gin" if mine == 0 else "knock",
        winner=winner,
        knocker=knocker,
        counts=values,
        melds=_arranged(hand),
        laid_off=[str(c) for c in cards_of(laid)],
    )
