"""A finished Poch hand's result, made once for every client: the pools won and why, the payments for the
cards left, the vying's showdown, what stays on the board, and each seat's change (hand-level seats).

It has the stops result's shape (``pots_won``, ``payments``, ``showdown``, ``board``), so the page and the
terminal show it as they show a stops hand's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummoli.cards import names_of
from rummoli.poch.ruleset import HONOUR_RANK
from rummoli.poch.words import Speaker, set_name
from rummoli.shapes import Change, PotWon, Shown, StopsResult
from rummoli.wording import cards_word, chips, said, sentence

if TYPE_CHECKING:
    from rummoli.poch.views import Views

PochResult = StopsResult
_HOW = {"meld": "for holding its cards", "vie": "for the vying", "out": "for going out first"}


def _how(reason: str, kind: str) -> str:
    """Why a pool paid, in words: an honour's pool is held with one card, the Marriage and the Sequence with more."""
    if reason == "meld" and kind in HONOUR_RANK:
        return "for holding its card"
    return _HOW.get(reason, reason)


def hand_result(hand: Views) -> StopsResult:
    speak = Speaker(hand.rules, hand.names)
    pools = {p.id: p.name for p in hand.rules.pools}
    kinds = {p.id: p.kind for p in hand.rules.pools}
    won: list[PotWon] = []
    payments: list[dict[str, Any]] = []
    for e in hand.log:
        if e[0] != "chips" or e[4] in ("ante", "bet", "raise", "call"):
            continue
        src, dst, amount, reason = e[1], e[2], e[3], e[4]
        if src < 0 and dst >= 0:
            pot = hand.rules.pools[-1 - src].id
            won.append({"pot": pot, "name": pools[pot], "seat": dst, "amount": amount, "why": reason,
                        "text": sentence(said(hand.names[dst], f"wins the {pools[pot]}: {chips(amount)}, "
                                                               f"{_how(reason, kinds[pot])}"))})
        else:
            payments.append({"from": src, "to": dst, "pot": None, "amount": amount, "why": reason,
                             "text": speak.line({"type": "chips", "from": f"seat:{src}", "to": f"seat:{dst}",
                                                 "amount": amount, "reason": reason}) or ""})
    vie_winner = getattr(hand, "vie_winner", -1)
    showdown: list[Shown] = []
    for seat, mask in sorted(hand.shown.items()):
        cards = names_of(mask)
        showdown.append({"seat": seat, "player": hand.names[seat], "cards": cards, "name": set_name(cards),
                         "won": seat == vie_winner})
    changes: list[Change] = [{"seat": s, "name": hand.names[s], "before": hand.start_chips[s], "after": hand.chips[s],
                              "change": hand.chips[s] - hand.start_chips[s]} for s in range(hand.n)]
    winner = None if hand.winner < 0 else hand.winner
    headline = sentence(said(hand.names[winner], "goes out first")) if winner is not None else "The hand is over."
    result: StopsResult = {"game": "poch", "reason": "out", "outcome": "out", "winner": winner, "headline": headline,
                           "pots_won": won, "payments": payments, "showdown": showdown,
                           "showdown_won": "wins the vying",
                           "board": hand.pot_balances(), "changes": changes, "lines": []}
    lines = [headline] + (["At the vying, before the play:"] if showdown else [])  # when, as the stops games say
    lines += [said(s["player"], f"shows {cards_word(s['cards'])}: {s['name']}{' (wins)' if s['won'] else ''}.")
              for s in showdown]
    lines += [w["text"] for w in won] + [p["text"] for p in payments if p["text"]]
    left = [f"{pools[p]} {n}" for p, n in result["board"].items() if n]
    lines.append("Staying on the board: " + ", ".join(left) + "." if left else "Nothing stays on the board.")
    lines.append("Chips: " + ", ".join(f"{c['name']} {c['before']} → {c['after']} ({c['change']:+d})"
                                       for c in changes) + ".")
    result["lines"] = lines
    return result

