"""An evening's hands, kept out of memory once they are over: the hand in play as it is, each finished one on file.

A finished hand is still read (a seat's history, a replay's seats, an event stream from far back, the evening's
record at its end), but rarely. Kept live, a finished hand -- its engine state, its record, its result and the
table event that told its end -- took about 19 kB, and packed in memory still several: a table that plays for
days grew without end (bench/soak.py: about 77 MB every 5 minutes at 200 tables). So once the next hand is
dealt, the finished one is pickled, compressed and written to the shelf's own file, and memory keeps only where
it is (two numbers). The file is a temporary one, unlinked as soon as it is made: it is freed when the shelf is,
and nothing is left behind, not even after a crash. Should writing fail (a full disk), the packed bytes stay in
memory instead: the table goes on. A reader unpickles a hand again; the last few read stay unpacked, since a
reader usually reads a few hands together.

The written bytes are made here from our own objects and never leave the process, so unpickling them trusts
nothing from outside.
"""

from __future__ import annotations

import bisect
import os
import pickle
import tempfile
import weakref
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

#: How many packed hands (and, apart, hands' ends) stay unpacked after they were read.
READ_KEPT = 4


@dataclass(frozen=True)
class HandEnd:
    """What a finished hand leaves beside its engine state: its record, its result (in evening seats) and the
    table's ``hand_over`` event that told it."""

    record: dict[str, Any]
    result: Any
    event: dict[str, Any]


class _File:
    """A temporary file of packed pieces, appended to and read by number (``pwrite``/``pread``: no shared
    position, so a reader on another thread never disturbs a writer). Unlinked at once; closed with its owner.
    Where each piece lies is kept in two arrays, not an object a piece: at a few pieces a hand, objects were
    half of what a finished hand still cost."""

    def __init__(self) -> None:
        fd, path = tempfile.mkstemp(prefix="rummoli-hands-")
        os.unlink(path)
        self.fd = fd
        self.size = 0
        self.ends = array("q")  # where each piece ends (the next begins there)
        weakref.finalize(self, os.close, fd)

    def write(self, data: bytes) -> OnFile:
        done = 0
        while done < len(data):
            done += os.pwrite(self.fd, memoryview(data)[done:], self.size + done)
        self.size += len(data)
        self.ends.append(self.size)
        return OnFile(len(self.ends) - 1)

    def read(self, piece: OnFile) -> bytes:
        start = self.ends[piece - 1] if piece else 0
        length = self.ends[piece] - start
        data = os.pread(self.fd, length, start)
        if len(data) != length:
            raise OSError(f"a shelved hand was cut short ({len(data)} of {length} bytes)")
        return data


class OnFile(int):
    """The number of a piece on a shelf's file (an ``int``, so it costs what a number does)."""

    __slots__ = ()


class HandShelf:
    """The hands of one evening, by index (hand number - 1): each its engine hand, its evening seats and, once
    it is over, its :class:`HandEnd`."""

    def __init__(self, packs: bool = True) -> None:
        #: Whether finished hands are packed away: not in the lab (``rummoli sim``), which never reads them again
        #: and where packing would cost about 5% of a hand's time; its evenings end soon anyway.
        self.packs = packs
        self._hands: list[Any] = []  # the engine hand, or where it is packed (bytes in memory, or OnFile)
        self._ends: list[Any] = []  # None until the hand is over, then its HandEnd, or where that is packed
        self._starts: list[Any] = []  # the table's hand_start event that dealt the hand, or where it is packed
        self._ended = 0  # hands 0 .. _ended - 1 have their end
        self._seats: list[list[int]] = []
        self._finished: list[bool] = []
        self._read: OrderedDict[tuple[str, int], Any] = OrderedDict()  # (part, index) -> unpacked for a reader
        self._file: _File | None = None

    def __len__(self) -> int:
        return len(self._hands)

    def add(self, hand: Any, seats: list[int], start: dict[str, Any]) -> None:
        """A newly dealt hand, and the table event that told its deal."""
        self._hands.append(hand)
        self._ends.append(None)
        self._starts.append(start)
        self._seats.append(list(seats))
        self._finished.append(False)

    def finish(self, index: int) -> None:
        self._finished[index] = True

    def finished(self, index: int) -> bool:
        """Whether hand ``index`` has been noted as finished (its result taken)."""
        return self._finished[index]

    def keep_end(self, index: int, end: HandEnd) -> None:
        """Hand ``index``'s end; hands end in order."""
        if index != self._ended:
            raise ValueError(f"hand {index + 1} ended before hand {self._ended + 1}")
        self._ends[index] = end
        self._ended += 1

    def ended_count(self) -> int:
        """How many hands have their :class:`HandEnd` (the first ``n``)."""
        return self._ended

    def seats(self, index: int) -> list[int]:
        """The evening seats of hand ``index``'s seats, in the hand's order."""
        return list(self._seats[index])

    def packed(self, index: int) -> bool:
        """Whether hand ``index`` is kept packed."""
        return _is_packed(self._hands[index])

    def on_file(self, index: int) -> bool:
        """Whether hand ``index`` and its end are kept on the shelf's file (not in memory)."""
        return isinstance(self._hands[index], OnFile) and isinstance(self._ends[index], OnFile)

    def is_last(self, hand: Any) -> bool:
        """Whether ``hand`` is the evening's last hand (and so not packed)."""
        return bool(self._hands) and self._hands[-1] is hand

    def hand(self, index: int) -> Any:
        """The engine hand ``index`` (unpacked if it was packed)."""
        return self.get("hand", index, self._hands[index])

    def start(self, index: int) -> dict[str, Any]:
        """The table's ``hand_start`` event of hand ``index``."""
        start: dict[str, Any] = self.get("start", index, self._starts[index])
        return start

    def end(self, index: int) -> HandEnd:
        """Hand ``index``'s :class:`HandEnd` (it must have ended)."""
        if not 0 <= index < self._ended:
            raise IndexError(f"hand {index + 1} has not ended")
        end: HandEnd = self.get("end", index, self._ends[index])
        return end

    def get(self, part: str, index: int, kept: Any) -> Any:
        """What ``kept`` holds: itself when it is not packed; else unpacked (and remembered a while, under
        ``(part, index)``)."""
        if not _is_packed(kept):
            return kept
        key = (part, index)
        value = self._read.pop(key, None)
        if value is None:
            data = kept if isinstance(kept, bytes) else self._open().read(kept)
            value = pickle.loads(zlib.decompress(data))  # our own bytes (see the module's docstring)
        self._read[key] = value
        while len(self._read) > 2 * READ_KEPT:
            self._read.popitem(last=False)
        return value

    def pack_last(self) -> None:
        """Shelve the last hand, its end and its start if it has finished: from now on they are kept packed, on
        file. Its events as read are forgotten first (a reader makes them again)."""
        hand = self._hands[-1] if self._hands else None
        if hand is None or _is_packed(hand) or not hand.over:
            return
        hand.forget_reading()
        if self.packs:
            index = len(self._hands) - 1
            self._hands[index] = self.put(hand)
            self._starts[index] = self.put(self._starts[index])
            if self._ends[index] is not None:
                self._ends[index] = self.put(self._ends[index])

    def put(self, value: Any) -> bytes | OnFile:
        """``value`` packed: on the shelf's file, or in memory should writing fail."""
        data = zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 6)
        try:
            return self._open().write(data)
        except OSError:
            return data  # no room on disk: kept in memory, as packed as it can be

    def _open(self) -> _File:
        if self._file is None:
            self._file = _File()
        return self._file

    def finished_hands(self, first: int = 1, last: int | None = None) -> Iterator[tuple[int, Any, list[int]]]:
        """``(hand_no, engine hand, evening seats)`` of each finished hand numbered ``first`` to ``last``; only
        those are unpacked."""
        end = len(self._hands) if last is None else min(last, len(self._hands))
        for index in range(max(0, first - 1), end):
            kept = self._hands[index]
            if _is_packed(kept) or kept.over:
                yield index + 1, self.hand(index), self.seats(index)

    def finished_count(self) -> int:
        """How many hands have ended (every one but the last can only be finished)."""
        if not self._hands:
            return 0
        last = self._hands[-1]
        return len(self._hands) - (0 if _is_packed(last) or last.over else 1)


def _is_packed(kept: Any) -> bool:
    return isinstance(kept, bytes | OnFile)


class Ended(Sequence[Any]):
    """The ended hands' records or results, in order, read from a shelf as a list is read (``len``, an index,
    a slice, a loop) without being kept as one."""

    def __init__(self, shelf: HandShelf, part: str) -> None:
        self._shelf = shelf
        self._part = part

    def __len__(self) -> int:
        return self._shelf.ended_count()

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        count = len(self)
        k = index + count if index < 0 else index
        if not 0 <= k < count:
            raise IndexError(f"hand index {index} out of range ({count} ended)")
        return getattr(self._shelf.end(k), self._part)

    def __repr__(self) -> str:
        return f"<{len(self)} ended hands' {self._part}s>"


class Journal(Sequence[list[Any]]):
    """A table's journal (:mod:`rummoli.table`): every command in order, read as a list is read and appended
    to. Each finished hand's commands are sealed onto the shelf's file with the hand (:meth:`seal`, at the next
    deal): they are read again only by a whole snapshot, which is taken seldom (each time the journal has
    doubled), and by a restore, which replays them. Memory keeps the commands since the last seal."""

    def __init__(self, shelf: HandShelf) -> None:
        self._shelf = shelf
        self._firsts: list[int] = []  # each sealed chunk's first index
        self._chunks: list[Any] = []  # each sealed chunk's commands, packed
        self._sealed = 0  # how many commands are in sealed chunks
        self._tail: list[list[Any]] = []

    def append(self, entry: list[Any]) -> None:
        self._tail.append(entry)

    def seal(self) -> None:
        """Pack the commands since the last seal away (when the shelf packs at all)."""
        if self._shelf.packs and self._tail:
            self._firsts.append(self._sealed)
            self._chunks.append(self._shelf.put(self._tail))
            self._sealed += len(self._tail)
            self._tail = []

    def __len__(self) -> int:
        return self._sealed + len(self._tail)

    def _chunk(self, k: int) -> list[list[Any]]:
        entries: list[list[Any]] = self._shelf.get("journal", k, self._chunks[k])
        return entries

    @overload
    def __getitem__(self, index: int) -> list[Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[list[Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[k] for k in range(start, stop, step)]
            out: list[list[Any]] = []
            if start < self._sealed:  # from sealed chunks (rare: a whole snapshot)
                k = bisect.bisect_right(self._firsts, start) - 1
                while k < len(self._chunks) and self._firsts[k] < stop:
                    first = self._firsts[k]
                    out.extend(self._chunk(k)[max(0, start - first):stop - first])
                    k += 1
            out.extend(self._tail[max(0, start - self._sealed):max(0, stop - self._sealed)])
            return out
        count = len(self)
        at = index + count if index < 0 else index
        if not 0 <= at < count:
            raise IndexError(f"journal index {index} out of range ({count} commands)")
        if at >= self._sealed:
            return self._tail[at - self._sealed]
        k = bisect.bisect_right(self._firsts, at) - 1
        return self._chunk(k)[at - self._firsts[k]]

    def __iter__(self) -> Iterator[list[Any]]:
        for k in range(len(self._chunks)):
            yield from self._chunk(k)
        yield from self._tail

    def __repr__(self) -> str:
        return f"<journal of {len(self)} commands, {self._sealed} sealed>"
