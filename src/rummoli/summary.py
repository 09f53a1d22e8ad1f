"""A replayed hand told in words, as a player would tell it (``rummoli replay FILE --summary``).

It tells nothing of its own: the hand is played again from its record by its engine, and the summary is
the engine's own sentences (the ``text`` of each event, grouped by the part of the hand it belongs to)
followed by the hand's result in words (``hand.result()["lines"]``), the same result the terminal table
and the web page show.  An evening record is told from how its first dealer was chosen, then hand by hand, then
its settlement.  The JSON result stays the format for tools; this is for people.
"""

from __future__ import annotations

from typing import Any

from rummoli.wording import cards_word, first_dealer, said, whom

#: Which part of a stops hand an action belongs to.
_STOPS_PART = {
    "keep": "Widow", "swap": "Widow", "bid": "Widow", "pass": "Widow",
    "check": "Poker round", "bet": "Poker round", "call": "Poker round", "raise": "Poker round",
    "fold": "Poker round",
}
#: Which part of a Poch hand an event belongs to (the rest is the play).
_POCH_PART = {"meld": "Pools", "no_vie": "Vying", "check": "Vying", "bet": "Vying", "call": "Vying", "raise": "Vying",
              "fold": "Vying"}
#: Events the result tells (the showdown, the scores, the end): left out of the story before it.
_RESULT_EVENTS = frozenset({"showdown", "over", "score", "show", "end"})


def tell(record: dict[str, Any], result: dict[str, Any] | None = None) -> str:
    """The hand of ``record`` as lines of plain text (``result``, the R-NOTE-4 replay, is not needed: the
    hand is replayed here); an evening record is told hand by hand."""
    from rummoli.games import replay_hand
    from rummoli.records import EVENING_FORMAT

    if record.get("format") == EVENING_FORMAT:
        # how the first dealer was chosen opens the evening, as at the table (the replay has checked the cut)
        chosen = first_dealer(record.get("dealer_by"), record.get("cut"))
        told = [chosen] if chosen else []
        told += [f"Hand {k}. " + tell(hand) for k, hand in enumerate(record["hands"], start=1)]
        settled = [entry.get("text", "") for entry in record.get("settlement") or []]
        if any(settled):
            told.append("Settlement. " + " ".join(t for t in settled if t))
        if record.get("over") is False:  # left (or read) before its end: say so, and how it stood after the last hand
            rows = [r for r in record.get("standings") or [] if isinstance(r, dict)]
            stood = ", ".join(f"{r.get('name')} {r.get('chips')}" for r in rows)
            told.append(f"The record ends after hand {len(record['hands'])}, before the evening's end"
                        + (f". Standings then: {stood}." if stood else "."))
        return "\n\n".join(told)
    hand = replay_hand(record)
    if not hand.over:  # a Rummy-family replay stops where its record does; a summary tells a finished hand
        from rummoli.records import RecordError

        seats = ", ".join(str(s) for s in hand.to_act())
        raise RecordError(f"the record ends before the hand does (seat {seats} to decide)",
                          index=len(record.get("actions") or []), rule="R-NOTE-3")
    names: list[str] = record["players"]
    ref = record["ruleset"]
    title = ref if isinstance(ref, str) else str(ref.get("name", "a ruleset of its own"))
    lines = [f"{title}: {len(names)} players, {said(names[hand.dealer], 'deals')}."]  # as the engine read it
    parts: dict[str, list[str]] = {}
    for event in hand.events_since(0, None):
        text = event.get("text")
        if not text or event["type"] in _RESULT_EVENTS:
            continue
        if event["type"] == "chips":
            if event["reason"] == "ante":
                lines.append(text)
            elif event["reason"] == "widow_bid":
                parts.setdefault("Widow", []).append(text)
            continue  # every other payment is in the result
        module = hand.rules.__class__.__module__
        if module.startswith("rummoli.rummy"):
            part = "Play"
        elif module.startswith("rummoli.poch"):
            part = _POCH_PART.get(event.get("action", event["type"]), "Play")
        else:
            part = _STOPS_PART.get(event.get("action", ""), "Widow" if event["type"] == "swap" else "Play round")
        parts.setdefault(part, []).append(text)
    lines += [f"{part}: " + " ".join(texts) for part, texts in parts.items()]
    if (spare := out_of_play(hand.out_of_play(), names)) is not None:
        lines.append(spare)
    lines += hand.result()["lines"]
    return "\n".join(lines)


def out_of_play(spare: dict[str, Any] | None, names: list[str]) -> str | None:
    """The cards no seat held at the hand's end, as the engine names them (``Hand.out_of_play``), in words: the record
    holds every card, so its summary may tell them (no seat's view ever does).

    >>> out_of_play({"kind": "widow", "cards": ["Td", "2c"], "given_up_by": 1}, ["Ann", "Bob"])
    'Out of play: the hand given up for the widow by Bob, 10♦ 2♣.'
    >>> out_of_play({"kind": "stock", "cards": []}, ["Ann", "Bob"])
    'Out of play: the stock, empty.'
    """
    if spare is None:
        return None
    cards = cards_word(spare["cards"]) or "empty"
    if spare["kind"] == "widow":
        given = spare.get("given_up_by")
        what = "the widow, never seen" if given is None else f"the hand given up for the widow by {whom(names[given])}"
    else:
        what = "the stock, top card first" if spare["kind"] == "stock" and spare["cards"] else \
            "the stock" if spare["kind"] == "stock" else "the cards not dealt"
    return f"Out of play: {what}, {cards}."
