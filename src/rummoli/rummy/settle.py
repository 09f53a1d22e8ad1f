"""How a Rummy-family hand ends and what it scores (R-RU-4/5, R-RU-BLOCK, R-500-4/5, R-KN-3..5, R-GIN-4..6).

Every function takes the hand that is ending, adds the points to ``hand.deltas`` with one ``score`` event
per payment, and closes the hand with a ``show`` event (the hands left) and an ``end`` event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from rummoli.cards import cards_of, names_of
from rummoli.rummy.melds import melds_as_laid
from rummoli.twins import compiled

if TYPE_CHECKING:
    from rummoli.rummy.hand import RummyHand
    from rummoli.rummy.melds import MeldTable


_DRY: dict[str, str] = {"500": "R-500-5", "knock": "R-KN-5", "gin": "R-GIN-6"}


def finish(hand: RummyHand, reason: str, rule: str, **details: Any) -> None:
    """Close the hand; ``rule`` (the rule that ended it) is what a move after the end is refused by."""
    hand.phase = "over"
    hand.end_rule = rule
    hand.outcome = {"reason": reason, **details, "deltas": list(hand.deltas)}
    hand.events_log.append({"type": "show", "hands": [names_of(h) for h in hand.hands]})
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
        finish(hand, "out", "R-500-5", winner=seat)
        return
    rummy = hand.rules.rummy_bonus and not hand.laid_before
    for other in range(hand.n):
        if other != seat:
            points = hand.melds_table.card_value(hand.hands[other])
            score(hand, seat, points * 2 if rummy else points, "rummy" if rummy else "cards", other)
    finish(hand, "out", "R-RU-4", winner=seat, rummy=rummy)


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


def block(hand: RummyHand, rule: str | None = None) -> None:
    """The stock ran dry with no flip left (R-RU-5, R-RU-BLOCK, R-500-5, R-KN-5, R-GIN-6), or ``rule``
    (R-GIN-6's last two cards, R-RU-LOOP) ended the hand as if it had."""
    hand.events_log.append({"type": "blocked"})
    style = hand.rules.style
    scored = style == "500" or style == "knock" or (style == "straight" and hand.rules.stock_end == "block")
    if rule is None:
        rule = _DRY.get(style, "R-RU-BLOCK" if scored else "R-RU-5")
    if style == "500":
        score_500(hand)
        finish(hand, "blocked", rule)
    elif not scored:
        finish(hand, "blocked", rule)
    else:
        values = counts(hand)
        winner = lowest(hand, values, hand.turn)
        for seat in range(hand.n):
            score(hand, winner, values[seat] - values[winner], "difference", seat)
        finish(hand, "blocked", rule, winner=winner, counts=values)


def knock(hand: RummyHand, knocker: int) -> None:
    """R-KN-3/4 (Knock Rummy) or R-GIN-4/5 (Gin): hands shown and arranged, then settled.

    Knock Rummy has no lay-offs at the showdown, so each hand's least deadwood is also the arrangement its
    holder would choose; Gin's knocker chooses among every arrangement the knock allows (:func:`gin_knock`).
    """
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
                score(hand, knocker, hand.rules.knock_rummy_bonus, "no_deadwood", seat)  # not a rummy's doubling
    elif winner != knocker:
        score(hand, winner, hand.rules.knock_penalty, "penalty", knocker)
    best = hand.melds_table.best_arrangement
    melds = [melds_as_laid(best(h)[1]) for h in hand.hands]
    finish(hand, "knock", "R-KN-2", winner=winner, knocker=knocker, counts=values, melds=melds)


class GinKnock(NamedTuple):
    """How a Gin knock is settled: both counts, the knocker's melds shown and the cards laid off."""

    knocker: int  # the knocker's deadwood
    defender: int  # the defender's deadwood after their own melds and lay-offs
    melds: tuple[int, ...]  # the knocker's melds, as laid down
    laid: int  # the defender's cards laid off on them (a mask)


_COMPILED_GIN_KNOCK: Callable[[bytes, int, int, int], Any] | None = compiled("gin_knock")


def gin_knock(table: MeldTable, knocker: int, defender: int, limit: int) -> GinKnock:
    """:func:`gin_knock_pure` in one compiled call where there is one and the table's melds count their cards'
    points (every Gin table: :meth:`MeldTable.deadwood_counter`), the same answer to the card and the meld's order
    (tests/core/test_speedups.py).  Every hand a searching Gin bot plays out to its end is settled here."""
    if _COMPILED_GIN_KNOCK is None or table.deadwood_counter() is None:
        return gin_knock_pure(table, knocker, defender, limit)
    found = _COMPILED_GIN_KNOCK(table.packed, knocker, defender, limit)
    if found is NotImplemented:  # hands with more melds than the compiled search holds (not a deal's two hands)
        return gin_knock_pure(table, knocker, defender, limit)
    if found is None:
        raise ValueError(f"no arrangement keeps {limit} or less deadwood")
    return GinKnock(*found)


def gin_knock_pure(table: MeldTable, knocker: int, defender: int, limit: int) -> GinKnock:
    """R-GIN-4/5: the knocker lays down the arrangement of ``knocker`` (a mask) that serves them best once
    ``defender`` has answered with the melds and lay-offs that serve the defender best.

    Every arrangement keeping ``limit`` or less deadwood is a candidate, not only the least-deadwood ones.
    The knocker's result grows with ``defender's count - knocker's count`` (the undercut only makes a low
    difference worse), so that difference is maximised; equal differences go to the lower knocker's count,
    then to the first arrangement in :meth:`MeldTable.arrangements` order.  Gin (no deadwood) allows no
    lay-offs and beats every other arrangement.  The defender can never do better than their own least
    deadwood, so arrangements are tried from the least deadwood up and the search stops when even that
    bound cannot beat what was found; an arrangement no defender card fits skips the lay-off search.
    """
    shown = table.arrangements(knocker, limit)
    if not shown:
        raise ValueError(f"no arrangement keeps {limit} or less deadwood")
    alone = table.deadwood(defender)
    first_count, first_melds = shown[0]
    if first_count == 0:
        return GinKnock(0, alone, first_melds, 0)
    best = GinKnock(first_count, alone, first_melds, 0)
    best_margin = -(1 << 30)
    fits = table.fits
    for mine, melds in shown:
        if alone - mine <= best_margin:
            break
        reach = 0
        for meld in melds:
            reach |= fits(meld)
        if reach & defender:
            theirs, laid = table.deadwood_with_layoffs(defender, melds)
        else:
            theirs, laid = alone, 0
        if theirs - mine > best_margin:
            best_margin = theirs - mine
            best = GinKnock(mine, theirs, melds, laid)
    return best


def _gin(hand: RummyHand, knocker: int) -> None:
    table, rules = hand.melds_table, hand.rules
    defender = 1 - knocker
    mine, theirs, melds, laid = gin_knock(table, hand.hands[knocker], hand.hands[defender], rules.knock_limit)
    if mine == 0:
        score(hand, knocker, theirs, "difference", defender)
        score(hand, knocker, rules.gin_bonus, "gin", defender)
        winner = knocker
    elif mine < theirs:
        score(hand, knocker, theirs - mine, "difference", defender)
        winner = knocker
    else:
        score(hand, defender, mine - theirs, "difference", knocker)
        score(hand, defender, rules.undercut_bonus, "undercut", knocker)
        winner = defender
    values = [0, 0]
    values[knocker], values[defender] = mine, theirs
    shown: list[list[list[str]]] = [[], []]
    shown[knocker] = melds_as_laid(melds)
    shown[defender] = melds_as_laid(table.best_arrangement(hand.hands[defender] & ~laid)[1])
    finish(
        hand,
        "gin" if mine == 0 else "knock",
        "R-GIN-3",
        winner=winner,
        knocker=knocker,
        counts=values,
        melds=shown,
        laid_off=[str(c) for c in cards_of(laid)],
    )


def knock_discards(table: MeldTable, hand: int, limit: int) -> int:
    """The cards of ``hand`` (after the draw) whose discard leaves no more deadwood than Gin's knock ``limit``
    (R-GIN-3), as a mask.  Asked after every draw in Gin, so the compiled search answers where there is one,
    else :func:`knock_discards_pure`: the same mask either way (tests/core/test_speedups.py).

    A card's discard can lower the deadwood by at most its own points, so only cards that could bring it within
    the limit are tried, and none when even the dearest could not.
    """
    count = table.deadwood_counter()
    if count is None:
        return knock_discards_pure(table, hand, limit)
    dead = count(hand, 0)
    values = table.block_value
    rest = hand if dead - max(values[1 << 12], values[1 << 11]) <= limit else 0  # an ace or a king (a ten ...)
    fits = 0
    while rest:
        low = rest & -rest
        rest ^= low
        if dead - values[1 << (low.bit_length() - 1) % 13] <= limit and count(hand ^ low, 0) <= limit:
            fits |= low
    return fits


def knock_discards_pure(table: MeldTable, hand: int, limit: int) -> int:
    """:func:`knock_discards` in Python.

    One arrangement of ``hand`` serves every card: a card left over in it leaves it best, so only a card taken
    from a meld needs a new search, and none when even the best case is over the limit.
    """
    melded, melds = table.best_arrangement(hand)
    in_melds = 0
    for meld in melds:
        in_melds |= meld
    dead = table.card_value(hand) - melded
    fits = 0
    values = table.block_value
    dearest = max(values[1 << 12], values[1 << 11])  # an ace or a king (a ten, a face card)
    rest = hand if dead - dearest <= limit else 0  # else no card's discard will do
    while rest:
        low = rest & -rest
        rest ^= low
        if dead - values[1 << (low.bit_length() - 1) % 13] > limit:  # exact for a left-over card, else a bound
            continue
        if not in_melds & low or table.deadwood(hand ^ low) <= limit:
            fits |= low
    return fits
