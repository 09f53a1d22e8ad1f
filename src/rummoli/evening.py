"""The two kinds of evening behind :class:`rummoli.table.Table`, made to look alike.

A stops evening is a :class:`~rummoli.stops.Session` (chips, the board's pots, players who go broke leave);
a Rummy evening is a :class:`~rummoli.rummy.RummyGame` (running scores to a target).  The table needs the
same few things of both: deal the next hand from a given deck, know which evening seat sits at each of the
hand's seats, take a finished hand back, say whether the evening is over, and rank the players.  Each class
here answers those in the same words, so the table has one loop for every game.

Stack sizes are whole chips, except after a Michigan settlement that shares the board equally (exact
fractions, R-CHIP-1); :func:`amount` writes those as text for JSON.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, overload

from rummoli.cards import Card
from rummoli.errors import IllegalAction
from rummoli.rummy.words import bonus_text
from rummoli.wording import departures


def amount(value: int | Fraction) -> int | str:
    """A stack as JSON: a whole number, or exact text such as ``"101/3"`` for a shared settlement."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    return value


#: The keys of a result that name a seat (a hand's seat, to be read as the evening's).
_SEAT_KEYS = frozenset({"seat", "winner", "knocker", "from", "to"})


def in_evening_seats(value: Any, seats: Sequence[int]) -> Any:
    """A hand's result with every seat it names (``seat``, ``winner``, ``knocker``, ``from``, ``to``) turned
    from the hand's numbering into the evening's.

    >>> in_evening_seats({"winner": 1, "pots_won": [{"seat": 0, "amount": 3}], "from": None}, [0, 2])
    {'winner': 2, 'pots_won': [{'seat': 0, 'amount': 3}], 'from': None}
    """
    if list(seats) == list(range(len(seats))):
        return value  # every evening seat is in the hand, in its place: nothing to turn
    return _mapped(value, seats)


def _mapped(value: Any, seats: Sequence[int]) -> Any:
    if isinstance(value, dict):
        return {k: seats[v] if k in _SEAT_KEYS and type(v) is int else _mapped(v, seats) for k, v in value.items()}
    if isinstance(value, list):
        return [_mapped(v, seats) for v in value]
    return value


class StopsEvening:
    """Rummoli, Tripoley or Michigan: a session of hands on one board."""

    game = "stops"

    def __init__(self, reference: str | dict[str, Any], names: Sequence[str], chips: int | None,
                 hands: int | None, dealer: int | None, cut_seed: str | None) -> None:
        from rummoli.stops import Session

        # Without a dealer given, the players cut for the deal (R-MI-1), from the seed or the secure source.
        self.session = Session(reference, names, chips=chips, dealer=dealer, max_hands=hands, cut_seed=cut_seed)
        self.rules = self.session.rules
        self.cut = [dict(r) for r in self.session.cut] if dealer is None else None
        self._last_hand_log = 0  # the session's log before the last hand was finished: who left after it follows

    @property
    def dealer(self) -> int:
        return self.session.dealer

    @property
    def hands_played(self) -> int:
        return self.session.hands_played

    @property
    def over(self) -> bool:
        return self.session.over

    def start(self, deck: Sequence[Card], auto: bool, chance: int) -> tuple[Any, list[int]]:
        """Ante and deal the next hand from ``deck``; returns it and the evening seat at each hand seat.
        (A stops hand leaves nothing to chance after the deal: ``chance`` is not needed.)"""
        hand = self.session.start_hand(deck=deck, auto=auto)
        return hand, self.session.hand_seats

    def finish(self, hand: Any) -> dict[str, Any]:
        """Take the finished hand's chips and pots back; returns its record."""
        self._last_hand_log = len(self.session.log)
        return self.session.finish_hand(hand)

    def chips(self, hand: Any, seats: Sequence[int]) -> list[int | Fraction]:
        """Every evening seat's stack now (the hand in play's chips for those in it)."""
        out = list(self.session.chips)
        if hand is not None and seats:
            for i, seat in enumerate(seats):
                out[seat] = hand.chips[i]
        return out

    def seated(self) -> list[bool]:
        return list(self.session.seated)

    def ledger_since(self, start: int) -> list[dict[str, Any]]:
        """The evening's own chip moves from entry ``start`` of its log: players who could not ante left,
        their chips going to the centre pot (R-ANTE-1)."""
        centre = self.rules.board.pots[self.rules.board.centre].id
        return [{"type": "out", "player": self.session.names[e["seat"]], "chips_to_centre": e["chips_to_centre"],
                 "pot": centre} for e in self.session.log[start:] if e["type"] == "out"]

    @property
    def ledger_length(self) -> int:
        return len(self.session.log)

    def end(self) -> None:
        self.session.end()

    def end_note(self) -> str:
        """Who left after the last hand, unable to pay the next ante, when that ended the evening (R-ANTE-1): told with
        the next deal otherwise, and there is none (their chips went to the board without a word, the evening ended
        hands before its length)."""
        if not self.session.over:
            return ""
        return departures(self.ledger_since(self._last_hand_log)).strip()

    def settle(self, decks: Sequence[Sequence[Card]]) -> list[dict[str, Any]]:
        """R-SESSION-2: share out what is left on the board once the evening is over."""
        if self.session.settled or not self.session.over:
            return []
        return self.session.settle(decks=decks)

    def standings(self) -> list[dict[str, Any]]:
        return [{"place": r["place"], "seat": r["seat"], "name": r["name"], "chips": r["chips"],
                 "seated": r["seated"], "winner": r["winner"]} for r in self.session.standings()]

    def pots(self, hand: Any) -> dict[str, int]:
        return hand.pot_balances() if hand is not None and not hand.over else dict(self.session.pots)


class RummyEvening:
    """A game of the Rummy family, to its target score (or an agreed number of hands)."""

    game = "rummy"

    def __init__(self, reference: str | dict[str, Any], names: Sequence[str], hands: int | None,
                 dealer: int | None, cut_seed: str | None) -> None:
        from rummoli.rummy import RummyGame

        if dealer is None:  # the first dealer by lot, as the stops games cut for it
            dealer = (random.Random(cut_seed) if cut_seed is not None else secrets.SystemRandom()).randrange(len(names))
        self.match = RummyGame(reference, names, dealer=dealer)
        self.rules = self.match.rules
        self.cut: list[dict[str, str]] | None = None  # no cut: by lot, or given
        self.limit = hands
        self.ended = False
        self.n = len(names)

    @property
    def dealer(self) -> int:
        return self.match.dealer

    @property
    def hands_played(self) -> int:
        return self.match.hands_played

    @property
    def over(self) -> bool:
        limit_reached = self.limit is not None and self.match.hands_played >= self.limit
        return self.match.over or limit_reached or self.ended

    def start(self, deck: Sequence[Card], auto: bool, chance: int) -> tuple[Any, list[int]]:
        """Deal the next hand from ``deck``; ``chance`` seeds a shuffle of the turned-over pile (R-RU-SHUFFLE)."""
        if self.over:
            raise IllegalAction("R-RU-6", "the game is over")
        self.match.rng = random.Random(chance)
        return self.match.deal(deck), list(range(self.n))

    def finish(self, hand: Any) -> dict[str, Any]:
        record: dict[str, Any] = hand.record()
        self.match.finish_hand()
        return record

    def chips(self, hand: Any, seats: Sequence[int]) -> list[int | Fraction]:
        scores: list[int | Fraction] = list(self.match.scores)
        deltas: list[int] = hand.deltas if hand is not None and hand.over else []
        if deltas and self.match.hand is hand:
            scores = [s + d for s, d in zip(scores, deltas, strict=True)]
        return scores

    def seated(self) -> list[bool]:
        return [True] * self.n

    def ledger_since(self, start: int) -> list[dict[str, Any]]:
        """Game bonuses added at the end (Gin, R-GIN-7)."""
        return [{"type": "bonus", "player": self.match.players[b["seat"]], "points": b["points"],
                 "reason": b["reason"]} for b in self.match.bonuses[start:]]

    @property
    def ledger_length(self) -> int:
        return len(self.match.bonuses)

    def end(self) -> None:
        self.ended = True

    def end_note(self) -> str:
        """A Gin game stopped before its target (by the evening's number of hands, or closed) earns no game or
        box bonus (R-GIN-7): said, so that a winner does not look for the bonuses it has not earned."""
        if self.rules.style != "gin" or not self.over or self.match.over:
            return ""
        return (f"The game stopped before anyone reached {self.rules.target} points, "
                "so no game or box bonus is added (R-GIN-7).")

    def settle(self, decks: Sequence[Sequence[Card]]) -> list[dict[str, Any]]:
        return []  # a Rummy game has nothing on the table to share out

    def standings(self) -> list[dict[str, Any]]:
        best = max(self.match.scores)
        return [{"place": r["place"], "seat": r["seat"], "name": r["name"], "chips": r["score"], "seated": True,
                 "winner": r["score"] == best} for r in self.match.standings()]

    def pots(self, hand: Any) -> dict[str, int]:
        return {}


def bonuses_of(ledger: Sequence[dict[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """The bonuses an evening's ledger holds (Gin's game and box bonuses, R-GIN-7), in evening seats and words."""
    out = []
    for entry in ledger:
        if entry["type"] == "bonus":
            seat = names.index(entry["player"])
            out.append({"seat": seat, "points": entry["points"], "why": entry["reason"],
                        "text": bonus_text(names[seat], entry["points"], entry["reason"])})
    return out


class Ledger(Sequence[dict[str, Any]]):
    """An evening's ledger (``rummoli-evening/1``'s ``ledger``): its hands and its own moves between them, in
    order. Each hand's entry is kept as its number, not a dict: an evening adds one a hand for as long as it
    lasts, and as dicts they were a third of what a finished hand still cost a server's memory. Read, an entry
    is the dict it always was.

    >>> ledger = Ledger()
    >>> ledger.append({"type": "hand", "hand_no": 1})
    >>> ledger += [{"type": "out", "player": "Al", "chips_to_centre": 2, "pot": "kitty"}]
    >>> len(ledger), ledger[0], ledger[-1]["player"], ledger[1:] == [ledger[1]]
    (2, {'type': 'hand', 'hand_no': 1}, 'Al', True)
    """

    def __init__(self) -> None:
        self._entries: list[int | dict[str, Any]] = []

    def append(self, entry: dict[str, Any]) -> None:
        plain_hand = entry.get("type") == "hand" and len(entry) == 2 and type(entry.get("hand_no")) is int
        self._entries.append(entry["hand_no"] if plain_hand else entry)

    def __iadd__(self, entries: Sequence[dict[str, Any]]) -> Ledger:
        for entry in entries:
            self.append(entry)
        return self

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        entry = self._entries[index]
        return {"type": "hand", "hand_no": entry} if isinstance(entry, int) else entry
