"""An evening's hands, kept small: the hand in play as it is, each finished one packed.

A finished hand is still read (a seat's history, a replay's seats, an event stream from far back), but rarely,
and as live objects its cards, log and state marks took tens of kB a hand: a table that plays for days grew
without end (bench/soak.py on 200 tables: 39 MB a 45-second window, 12 MB with hands packed). Once the next hand
is dealt, the finished one is pickled and compressed (about 1 kB for a Rummoli hand), and unpickled again when
someone reads it; the last few read stay unpacked, since a reader usually reads a few hands together.

The packed bytes are made here from our own objects and never leave the process, so unpickling them trusts
nothing from outside.
"""

from __future__ import annotations

import pickle
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

#: How many packed hands stay unpacked after they were read.
READ_KEPT = 4


class HandShelf:
    """The hands of one evening, by index (hand number - 1): each its engine hand and its evening seats."""

    def __init__(self, packs: bool = True) -> None:
        #: Whether finished hands are packed: not in the lab (``rummoli sim``), which never reads them again and
        #: where packing would cost about 5% of a hand's time; its evenings end soon anyway.
        self.packs = packs
        self._hands: list[Any] = []  # the engine hand, or its packed bytes once it is shelved
        self._seats: list[list[int]] = []
        self._finished: list[bool] = []
        self._read: OrderedDict[int, Any] = OrderedDict()  # index -> a packed hand unpacked for a reader

    def __len__(self) -> int:
        return len(self._hands)

    def add(self, hand: Any, seats: list[int]) -> None:
        """A newly dealt hand."""
        self._hands.append(hand)
        self._seats.append(list(seats))
        self._finished.append(False)

    def finish(self, index: int) -> None:
        self._finished[index] = True

    def finished(self, index: int) -> bool:
        """Whether hand ``index`` has been noted as finished (its result taken)."""
        return self._finished[index]

    def seats(self, index: int) -> list[int]:
        """The evening seats of hand ``index``'s seats, in the hand's order."""
        return list(self._seats[index])

    def packed(self, index: int) -> bool:
        """Whether hand ``index`` is kept packed."""
        return isinstance(self._hands[index], bytes)

    def is_last(self, hand: Any) -> bool:
        """Whether ``hand`` is the evening's last hand (and so not packed)."""
        return bool(self._hands) and self._hands[-1] is hand

    def hand(self, index: int) -> Any:
        """The engine hand ``index`` (unpacked if it was packed)."""
        kept = self._hands[index]
        if not isinstance(kept, bytes):
            return kept
        hand = self._read.pop(index, None)
        if hand is None:
            hand = pickle.loads(zlib.decompress(kept))  # our own bytes (see the module's docstring)
        self._read[index] = hand
        while len(self._read) > READ_KEPT:
            self._read.popitem(last=False)
        return hand

    def pack_last(self) -> None:
        """Shelve the last hand if it has finished: from now on it is kept packed. Its events as read are
        forgotten first (a reader makes them again)."""
        hand = self._hands[-1] if self._hands else None
        if hand is None or isinstance(hand, bytes) or not hand.over:
            return
        hand.forget_reading()
        if self.packs:
            self._hands[-1] = zlib.compress(pickle.dumps(hand, protocol=pickle.HIGHEST_PROTOCOL), 6)

    def finished_hands(self, first: int = 1, last: int | None = None) -> Iterator[tuple[int, Any, list[int]]]:
        """``(hand_no, engine hand, evening seats)`` of each finished hand numbered ``first`` to ``last``; only
        those are unpacked."""
        end = len(self._hands) if last is None else min(last, len(self._hands))
        for index in range(max(0, first - 1), end):
            kept = self._hands[index]
            if isinstance(kept, bytes) or kept.over:
                yield index + 1, self.hand(index), self.seats(index)

    def finished_count(self) -> int:
        """How many hands have ended (every one but the last can only be finished)."""
        if not self._hands:
            return 0
        last = self._hands[-1]
        return len(self._hands) - (0 if isinstance(last, bytes) or last.over else 1)
