"""A replayed hand told in words, as a player would tell it (``rummoli replay FILE --summary``).

It reads only the record and the replay's result (``records.replay``): who did what in the widow and
poker rounds, every pot that was won and by whom, the showdown, who went out, and the chips (or scores)
before and after.  The JSON result stays the format for tools; this is for people.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rummoli.cards import Card
from rummoli.poker import evaluate
from rummoli.wording import said


def card_text(card: str) -> str:
    return Card.parse(card).symbol()


def cards_text(cards: list[str]) -> str:
    return " ".join(card_text(c) for c in cards)


def tell(record: dict[str, Any], result: dict[str, Any]) -> str:
    """The hand of ``record`` (already replayed into ``result``) as lines of plain text; an evening record
    is told hand by hand."""
    from rummoli.records import EVENING_FORMAT, game_of
    from rummoli.records import replay as replay_record

    if record.get("format") == EVENING_FORMAT:  # an evening: each hand in turn
        return "\n\n".join(f"Hand {k}. " + tell(hand, replay_record(hand))
                            for k, hand in enumerate(record["hands"], start=1))
    if game_of(record["ruleset"]) == "stops":
        return "\n".join(_stops(record, result))
    return "\n".join(_rummy(record, result))


def _ruleset_name(record: dict[str, Any]) -> str:
    ref = record["ruleset"]
    return ref if isinstance(ref, str) else str(ref.get("name", "a ruleset of its own"))


def _party(names: list[str], party: str) -> str:
    kind, _, which = party.partition(":")
    return names[int(which)] if kind == "seat" else which


def _stops(record: dict[str, Any], result: dict[str, Any]) -> list[str]:
    from rummoli.stops import load_ruleset

    names: list[str] = record["players"]
    board = {pot.id: pot.name for pot in load_ruleset(record["ruleset"]).board.pots}
    dealer = names[record["dealer"]]
    lines = [f"{_ruleset_name(record)}: {len(names)} players, {said(dealer, 'deals')}."]
    events: list[dict[str, Any]] = result["events"]
    ante: dict[str, int] = defaultdict(int)
    bids: list[str] = []
    bets: list[str] = []
    shown: list[str] = []
    plays: list[str] = []
    lead: tuple[int, str] | None = None
    for event in events:
        kind = event["type"]
        if kind == "chips":
            who, to, amount, reason = (_party(names, event["from"]), _party(names, event["to"]),
                                       event["amount"], event["reason"])
            if reason == "ante":
                ante[who] += amount
            elif reason == "widow_bid":
                bids.append(said(who, f"pays {to} {amount} to swap hands with the widow"))
            elif reason == "bet":
                continue
            elif reason == "poker":
                bets.append(said(to, f"wins the poker pot: {amount} chips"))
            elif reason == "leftover":
                plays.append(said(who, f"pays {to} {amount} for the cards still held"))
            elif reason == "centre":
                plays.append(said(to, f"goes out first, taking the {board.get(who, who)} pot: {amount} chips"))
            elif reason in ("stall", "cannot_lead"):
                plays.append(said(who, f"pays {amount} into the {board.get(to, to)} ({reason.replace('_', ' ')})"))
            elif event["from"].startswith("pot:"):
                why = reason.replace("_", " ")
                plays.append(said(to, f"takes the {board.get(who, who)} pot: {amount} chips ({why})"))
            else:
                plays.append(said(who, f"pays {to} {amount} ({reason.replace('_', ' ')})"))
        elif kind == "action":
            seat, act = names[event["seat"]], event["action"]
            if act in ("keep", "swap"):
                bids.append(said(seat, "keeps the hand" if act == "keep" else "swaps for the widow") + " (the dealer)")
            elif act in ("bid", "pass"):
                bids.append(said(seat, f"bids {event['amount']}" if act == "bid" else "passes"))
            elif act in ("check", "bet", "call", "raise", "fold"):
                verb = {"check": "checks", "bet": "bets", "call": "calls", "raise": "raises", "fold": "folds"}[act]
                bets.append(said(seat, verb + (f" {event['amount']}" if "amount" in event else "")))
            elif act == "lead":
                lead = (len(plays), event["card"])
                plays.append(said(seat, f"leads {card_text(event['card'])}"))
        elif kind == "showdown":
            value = evaluate([Card.parse(c) for c in event["cards"]])
            shown.append(said(names[event["seat"]], f"shows {cards_text(event['cards'])} ({value.describe()})"))
        elif kind == "stop" and lead is not None:
            at, card = lead
            plays[at] += " (it stops at once)" if event["after"] == card else f", up to {card_text(event['after'])}"
        elif kind == "cannot_lead":
            plays.append(said(names[event["seat"]], "cannot lead"))
        elif kind == "stall":
            plays.append("nobody can lead: the hand stalls")
        elif kind == "unclaimed":
            plays.append(said(names[event["seat"]], f"forgets to claim {', '.join(event['pots'])}"))
    if ante:
        per = sorted(set(ante.values()))
        lines.append(f"Ante: {per[0]} chips each." if len(per) == 1 else
                     "Ante: " + ", ".join(f"{who} {n}" for who, n in ante.items()) + ".")
    if bids:
        lines.append("Widow: " + "; ".join(bids) + ".")
    if bets or shown:
        poker_lines = bets[:-1] if bets and "poker pot" in bets[-1] else bets
        lines.append("Poker round: " + ("; ".join(poker_lines) if poker_lines else "no bets") + ".")
        lines += [f"  {line}." for line in shown]
        if bets and "poker pot" in bets[-1]:
            lines.append(f"  {bets[-1]}.")
    if plays:
        lines.append("Play round:")
        lines += [f"  {line[0].upper()}{line[1:]}." for line in plays]
    left = {pot: n for pot, n in result["pots"].items() if n}
    if left:
        lines.append("Left on the board: " + ", ".join(f"{board.get(pot, pot)} {n}" for pot, n in left.items()) + ".")
    lines.append("Chips: " + ", ".join(f"{name} {before} -> {after} ({after - before:+})"
                                       for name, before, after in zip(names, record["chips"], result["chips"],
                                                                      strict=True)) + ".")
    return lines


def _rummy(record: dict[str, Any], result: dict[str, Any]) -> list[str]:
    names: list[str] = record["players"]
    lines = [f"{_ruleset_name(record)}: {len(names)} players, {said(names[record['dealer']], 'deals')}."]
    table: list[str] = []
    turns = 0
    shown: list[str] = []
    scores: list[str] = []
    end = "The hand ends."
    for event in result["events"]:
        kind = event["type"]
        if kind == "action":
            seat, act = names[event["seat"]], event["action"]
            if act == "draw":
                turns += 1
            elif act == "meld":
                table.append(said(seat, f"melds {cards_text(event['cards'])}"))
            elif act == "layoff":
                table.append(said(seat, f"lays off {card_text(event['card'])}"))
            elif act == "knock":
                table.append(said(seat, "knocks") + f", discarding {card_text(event['card'])}")
        elif kind == "flip":
            table.append("the stock runs out and the discard pile is turned over")
        elif kind == "show":
            shown = [f"  {said(name, 'holds')} {cards_text(hand) if hand else 'nothing'}."
                     for name, hand in zip(names, event["hands"], strict=True)]
        elif kind == "score":
            source = f" from {names[event['from']]}" if event.get("from") is not None else ""
            scorer = said(names[event["seat"]], "scores")
            scores.append(f"  {scorer} {event['points']}{source} ({event.get('reason', '')}).")
        elif kind == "end":
            end = _rummy_end(event, names)
    lines.append(f"{turns} turn{'' if turns == 1 else 's'}.")
    if table:
        lines.append("On the table: " + "; ".join(table) + ".")
    lines += [end, *shown, *scores]
    lines.append("Scores: " + ", ".join(f"{name} {before} -> {after}"
                                        for name, before, after in zip(names, record["chips"], result["chips"],
                                                                       strict=True)) + ".")
    return lines


def _rummy_end(event: dict[str, Any], names: list[str]) -> str:
    winner = names[event["winner"]] if isinstance(event.get("winner"), int) else None
    reason = event.get("reason")
    if reason == "out" and winner:
        return said(winner, "goes out") + (", going rummy." if event.get("rummy") else ".")
    if reason == "knock" and winner:
        return f"The hands are shown; {said(winner, 'has')} the lowest count."
    if reason == "blocked":
        return "The stock runs out: the hand is blocked" + (f"; {said(winner, 'has')} the lowest count." if winner else
                                                              " and nobody scores.")
    return f"The hand ends ({reason})."
