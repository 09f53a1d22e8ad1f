"""What a finished Rummy-family hand came to, made once from the hand itself (never re-derived by a client).

:func:`hand_result` names the ending as players do (gin, knock, undercut, out, rummy, blocked), lays out
each hand as it was settled (the melds shown, the cards laid off, the deadwood left and its count), lists
every score with its reason, each seat's change for the hand, and says it all in sentences.  Once the hand
is over every hand is shown to everyone, so nothing here is hidden.  Seats are the hand's.

>>> from rummoli.rummy.session import RummyGame
>>> import random
>>> game = RummyGame("gin-rummy", ["Ann", "Bob"], seed=4)
>>> hand = game.deal()
>>> rng = random.Random(4)
>>> while not hand.over:
...     _ = hand.apply(rng.choice(hand.legal_actions()))
>>> r = hand_result(hand)
>>> r["reason"] == hand.outcome["reason"], [c["change"] for c in r["changes"]] == hand.deltas
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.cards import Card
from rummoli.rummy.melds import melds_as_laid
from rummoli.rummy.words import Speaker, outcome_name
from rummoli.shapes import Change, RummyResult, SettledHand
from rummoli.wording import cards_word, sentence

if TYPE_CHECKING:
    from rummoli.rummy.hand import RummyHand


def _mask(cards: list[str]) -> int:
    mask = 0
    for c in cards:
        mask |= Card.parse(c).bit
    return mask


def hand_result(hand: RummyHand) -> RummyResult:
    """The result of a finished hand (see the module's docstring); hand-level seats."""
    outcome = hand.outcome
    speak = Speaker(hand.players, hand.rules.style)
    table = hand.melds_table
    melds_shown = outcome.get("melds") or [[] for _ in range(hand.n)]
    counts = outcome.get("counts")
    knocker = outcome.get("knocker")
    laid = list(outcome.get("laid_off") or [])
    hands: list[SettledHand] = []
    for seat in range(hand.n):
        cards = [str(c) for c in sorted((Card(i) for i in range(52) if hand.hands[seat] >> i & 1),
                                        key=lambda c: c.index)]
        melds = [list(m) for m in melds_shown[seat]] if seat < len(melds_shown) else []
        if not melds and hand.rules.style in ("knock", "gin") and not outcome.get("melds"):
            # a hand that ended without a knock: each hand shown arranged as well as it goes
            melds = melds_as_laid(table.best_arrangement(hand.hands[seat])[1])
        laid_off = laid if laid and isinstance(knocker, int) and seat != knocker else []
        used = _mask([c for m in melds for c in m] + laid_off)
        deadwood = [c for c in cards if not Card.parse(c).bit & used]
        count = counts[seat] if counts else table.card_value(_mask(deadwood))
        # What the cards left are called: deadwood where hands are arranged (Knock and Gin always, R-KN-5 and
        # R-GIN-4, even a blocked hand's; any hand with melds), else simply what was left in hand.
        counted = bool(melds) or isinstance(knocker, int) or hand.rules.style in ("knock", "gin")
        hands.append({"seat": seat, "cards": cards, "melds": melds, "laid_off": laid_off, "deadwood": deadwood,
                      "count": count, "left": "deadwood" if counted else "left in hand"})
    scores = [{"seat": e["seat"], "from": e.get("from"), "points": e["points"], "why": e.get("reason", ""),
               "text": sentence(speak.score_text(e))}
              for e in hand.events() if e["type"] == "score"]
    changes: list[Change] = [{"seat": s, "name": hand.players[s], "before": hand.scores[s],
                              "after": hand.scores[s] + hand.deltas[s], "change": hand.deltas[s]}
                             for s in range(hand.n)]
    winner = outcome.get("winner")
    result: RummyResult = {
        "game": "rummy",
        "reason": outcome.get("reason"),
        "outcome": outcome_name(outcome),
        "winner": winner if isinstance(winner, int) else None,
        "knocker": knocker if isinstance(knocker, int) else None,
        "winner_did": "goes out" if hand.rules.style == "500" else "wins the hand",
        # the tag beside the knocker's name: going gin is a knock with nothing left, and players call it gin
        "knocker_did": None if not isinstance(knocker, int) else "goes gin" if outcome.get("reason") == "gin"
        else "knocked",
        "headline": speak.ending(outcome),
        "hands": hands,
        "points": scores,
        "changes": changes,
        "lines": [],
    }
    result["lines"] = _lines(speak, result)
    return result


def _lines(speak: Speaker, result: RummyResult) -> list[str]:
    """The result in sentences, in the order a player tells it."""
    lines = [result["headline"]]
    for shown in result["hands"]:
        parts = []
        if shown["melds"]:
            parts.append("melds " + ", ".join(cards_word(m) for m in shown["melds"]))
        if shown["laid_off"]:
            parts.append("laid off " + cards_word(shown["laid_off"]))
        dead = cards_word(shown["deadwood"]) if shown["deadwood"] else "nothing"
        parts.append(f"{shown['left']} {dead} ({shown['count']})")
        lines.append(f"{speak.who(shown['seat'])}: " + "; ".join(parts) + ".")
    lines += [p["text"] for p in result["points"]]
    lines.append("Scores: " + ", ".join(f"{c['name']} {c['before']} → {c['after']} ({c['change']:+d})"
                                        for c in result["changes"]) + ".")
    return lines
