"""What each seat may see of a Rummy hand (R-VIEW-1), and the hand's record (R-NOTE-2).

A seat sees its own cards, the discard pile, the melds, every player's card count and the public history
of actions (a draw from the stock names no card, a draw from the pile names the card taken) with the
moments the pile was turned over.  It also sees which cards it drew blind itself, so a bot can rebuild a
consistent state from a guess at the hidden cards.  Nobody sees the stock's order or another hand until the
hand is over and the hands are shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummoli.cards import CARDS, SUIT_BITS, Card
from rummoli.records import FORMAT
from rummoli.rummy.ruleset import load_ruleset

if TYPE_CHECKING:
    from rummoli.rummy.hand import RummyHand


def meld_cards(mask: int) -> list[Card]:
    """A meld's cards in the order players lay them: a set by suit, a run from its low end.

    >>> from rummoli.cards import mask_of, parse_cards
    >>> [str(c) for c in meld_cards(mask_of(parse_cards("2h Ah 3h")))]
    ['Ah', '2h', '3h']
    >>> [str(c) for c in meld_cards(mask_of(parse_cards("2h Ah Kh")))]
    ['Kh', 'Ah', '2h']
    """
    suits = [s for s in range(4) if (mask >> (13 * s)) & SUIT_BITS]
    if len(suits) != 1:
        return [CARDS[i] for i in range(52) if mask >> i & 1]
    base = 13 * suits[0]
    ranks = [r for r in range(13) if mask >> (base + r) & 1]
    start = next((r for r in ranks if not mask >> (base + (r - 1) % 13) & 1), ranks[0])
    return [CARDS[base + (start + k) % 13] for k in range(len(ranks))]


def _names(mask: int) -> list[str]:
    return [str(CARDS[i]) for i in range(52) if mask >> i & 1]


def _flips(hand: RummyHand) -> list[int]:
    """How many actions had been taken each time the discard pile was turned over (R-RU-5)."""
    flips, actions = [], 0
    for event in hand.events_log:
        if isinstance(event, tuple):
            actions += 1
        elif event["type"] == "flip":
            flips.append(actions)
    return flips


def view(hand: RummyHand, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (``None`` for a spectator)."""
    out: dict[str, Any] = {
        "ruleset": hand.rules.name,
        "style": hand.rules.style,
        "players": list(hand.players),
        "scores": list(hand.scores),
        "dealer": hand.dealer,
        "seat": seat,
        "turn": hand.turn,
        "to_act": [] if hand.over else [hand.turn],
        "phase": hand.phase,
        "aces": hand.rules.aces,
        "ace_value": hand.rules.ace_value,
        "hand_sizes": [h.bit_count() for h in hand.hands],
        "stock": len(hand.stock),
        "flips": hand.flips,
        "turned_up": str(hand.dealt_stock[0]),
        "discard": [str(CARDS[i]) for i in hand.pile],
        "melds": [
            {"cards": [str(c) for c in meld_cards(m)], "owner": o} for m, o in zip(hand.melds, hand.owners, strict=True)
        ],
        "points": list(hand.points),
        "history": hand.history(),
        "flipped_at": _flips(hand),
    }
    if seat is not None:
        out["hand"] = _names(hand.hands[seat])
        out["drawn"] = [[i, str(CARDS[c])] for i, c in hand.stock_draws if hand.log[i][0] == seat]
    # The same keys as a stops view, so clients and bots read either engine alike.
    out["legal_actions"] = (
        [a.to_json() for a in hand.legal_actions()] if seat is not None and seat == hand.turn and not hand.over else []
    )
    if hand.over:
        out["shown"] = [_names(h) for h in hand.hands]
        out["outcome"] = dict(hand.outcome)
    return out


def ruleset_ref(hand: RummyHand) -> str | dict[str, Any]:
    """The built-in name when the ruleset is one, else the inline object."""
    try:
        if load_ruleset(hand.rules.name) == hand.rules:
            return hand.rules.name
    except ValueError:
        pass
    return hand.rules.to_dict()


def record(hand: RummyHand) -> dict[str, Any]:
    """The R-NOTE-2 record: ruleset, seats, scores before the hand, dealer, deal and decisions (and with
    ``stock_end = shuffle_once``, once the pile was turned over, the reshuffled stock: R-RU-SHUFFLE)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": ruleset_ref(hand),
        "players": list(hand.players),
        "chips": list(hand.scores),
        "pots": {},
        "dealer": hand.dealer,
        "deal": {
            "hands": [[str(c) for c in cards] for cards in hand.dealt],
            "stock": [str(c) for c in hand.dealt_stock],
        },
        "actions": [
            hand.to_action(seat, (code, x, y)).to_json() for seat, code, x, y, forced in hand.log if not forced
        ],
    }
    reshuffle = hand.reshuffled if hand.reshuffled is not None else hand.reshuffle_given
    if reshuffle:
        out["deal"]["reshuffle"] = [str(CARDS[i]) for i in reshuffle]
    return out
