"""What a hand shows: events, R-NOTE-3 actions, the R-NOTE-2 record and each seat's view (R-VIEW-1).

These read a :class:`~rummoli.stops.hand.Hand` and never change it.  Nothing here may reveal a card
that its reader may not see: events carry only played cards and showdown fives; a view adds its own
seat's hand and, for the seat that swapped with the widow, the hand it gave up.  A view also hides
whether another seat's lead or widow choice was forced, since that can tell what the seat holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummoli.cards import CARDS, cards_of
from rummoli.errors import MalformedInput
from rummoli.stops.actions import KINDS

if TYPE_CHECKING:
    from rummoli.stops.hand import Hand


def action_json(entry: tuple[Any, ...]) -> dict[str, Any]:
    """A logged action as its R-NOTE-3 object."""
    _, seat, kind, card, amount, _ = entry
    out: dict[str, Any] = {"seat": seat, "action": kind}
    if card >= 0:
        out["card"] = str(CARDS[card])
    if KINDS[kind] == "amount":
        out["amount"] = amount
    return out


def party(hand: Hand, code: int) -> str:
    """A chip party as events name it: ``seat:N`` or ``pot:ID``."""
    return f"seat:{code}" if code >= 0 else f"pot:{hand.rules.board.pots[-1 - code].id}"


def shown_forced(entry: tuple[Any, ...], reader: int | bool | None) -> bool:
    """The ``forced`` flag of a logged action as ``reader`` may see it (R-VIEW-1).

    Whether a lead, a widow choice or a bid was forced can depend on the actor's hidden cards (a
    lone lowest card; a pay card under ``widow_bar``), so only the actor sees it; a play in a run
    is forced for everyone alike.  ``reader=True`` is the full record (replays, R-NOTE-4).
    """
    return bool(entry[5]) and (reader is True or entry[2] == "play" or entry[1] == reader)


def render(hand: Hand, log: Sequence[tuple[Any, ...]], reader: int | bool | None = True) -> list[dict[str, Any]]:
    """Log entries as JSON-ready events: no hidden card is ever in an event; the ``forced`` flags are
    as ``reader`` (a seat, ``None`` for a spectator, ``True`` for the full record) may see them."""
    out: list[dict[str, Any]] = []
    pots = hand.rules.board.pots
    for e in log:
        tag = e[0]
        if tag == "chips":
            out.append({"type": "chips", "from": party(hand, e[1]), "to": party(hand, e[2]),
                        "amount": e[3], "reason": e[4]})
        elif tag == "act":
            out.append({"type": "action", **action_json(e), "forced": shown_forced(e, reader)})
        elif tag == "show":
            out.append({"type": "showdown", "seat": e[1], "cards": [str(c) for c in cards_of(e[2])]})
        elif tag == "stop":
            out.append({"type": "stop", "after": str(CARDS[e[1]])})
        elif tag == "unclaimed":
            out.append({"type": "unclaimed", "seat": e[1], "pots": [pots[j].id for j in e[2]]})
        elif tag in ("swap", "cannot_lead", "out"):
            out.append({"type": tag, "seat": e[1]})
        else:
            out.append({"type": tag})
    return out


def actions(hand: Hand, forced: bool = True) -> list[dict[str, Any]]:
    """Every action so far as R-NOTE-3 objects (forced ones too unless ``forced=False``)."""
    return [action_json(e) for e in hand.log if e[0] == "act" and (forced or not e[5])]


def record(hand: Hand, forced: bool = False) -> dict[str, Any]:
    """The R-NOTE-2 hand record: ruleset, seats, chips and pots before the ante, deal, actions.

    Forced actions are left out unless ``forced`` (a replay makes them, R-NOTE-3).
    """
    rec: dict[str, Any] = {
        "format": "rummoli-hand/1",
        "ruleset": hand.rules.reference(),
        "players": list(hand.names),
        "chips": list(hand.start_chips),
        "pots": {p.id: hand.start_pots[j] for j, p in enumerate(hand.rules.board.pots)
                 if hand.start_pots[j]},
        "dealer": hand.dealer,
        "deal": {"hands": [[str(c) for c in h] for h in hand.dealt],
                 "widow": [str(c) for c in hand.dealt_widow]},
        "actions": actions(hand, forced),
    }
    if not hand.with_ante:
        rec["ante"] = False
    return rec


def view(hand: Hand, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (R-VIEW-1); ``None`` is a spectator.  JSON-ready."""
    if seat is not None and not 0 <= seat < hand.n:
        raise MalformedInput(f"no seat {seat}")
    pots = hand.rules.board.pots
    view: dict[str, Any] = {
        "ruleset": hand.rules.reference(),
        "board": [{"id": p.id, "name": p.name, "kind": p.kind, "ante": hand.rules.ante(p)} for p in pots],
        "players": list(hand.names),
        "seat": seat,
        "dealer": hand.dealer,
        "phase": hand.phase,
        "to_act": hand.to_act(),
        "chips": list(hand.chips),
        "pots": hand.pot_balances(),
        "hand": None if seat is None else [str(c) for c in cards_of(hand.hands[seat])],
        "hand_sizes": [m.bit_count() for m in hand.hands],
        "widow_size": hand.widow().bit_count(),
        "swapped": None if hand.swapped < 0 else hand.swapped,
        "played": [{"seat": s, "card": str(CARDS[c])} for s, c in hand.played()],
        "showdown": {str(s): [str(c) for c in cards_of(m)] for s, m in hand.showdown.items()},
        "start": {"chips": list(hand.start_chips), "pots": {p.id: hand.start_pots[j] for j, p
                                                           in enumerate(pots)},
                  "ante": hand.with_ante},
        "actions": [{**action_json(e), "forced": shown_forced(e, seat)} for e in hand.log if e[0] == "act"],
        "events": render(hand, hand.log, seat),
        "legal_actions": [] if seat is None else [a.to_json() for a in hand.legal_actions(seat)],
    }
    if seat is not None and seat == hand.swapped:
        view["given_up"] = {"cards": [str(c) for c in cards_of(hand.given_up)], "out_of_play": True}
    view.update(hand.phase_state())
    if hand.over:
        view["winner"] = None if hand.winner < 0 else hand.winner
    return view
