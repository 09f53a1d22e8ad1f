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
READ_KEPT = 2


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

    def write(self, data: bytes) -> int:
        """Append a piece; returns its number."""
        done = 0
        while done < len(data):
            done += os.pwrite(self.fd, memoryview(data)[done:], self.size + done)
        self.size += len(data)
        self.ends.append(self.size)
        return len(self.ends) - 1

    def read(self, piece: int) -> bytes:
        start = self.ends[piece - 1] if piece else 0
        length = self.ends[piece] - start
        data = os.pread(self.fd, length, start)
        if len(data) != length:
            raise OSError(f"a shelved hand was cut short ({len(data)} of {length} bytes)")
        return data


class _OnFile:
    """The mark of a value kept on the shelf's file: its piece's number is kept apart, in an array."""

    def __repr__(self) -> str:
        return "<on file>"


ON_FILE = _OnFile()
#: A finished hand's parts go to the file one after the other: each part's piece is the hand's first plus this.
PARTS = {"hand": 0, "start": 1, "end": 2}


class HandShelf:
    """The hands of one evening, by index (hand number - 1): each its engine hand, its evening seats and, once
    it is over, its :class:`HandEnd`."""

    def __init__(self, packs: bool = True) -> None:
        #: Whether finished hands are packed away: not in the lab (``rummoli sim``), which never reads them again
        #: and where packing would cost about 5% of a hand's time; its evenings end soon anyway.
        self.packs = packs
        # Each part of a hand is the value itself, or packed: ON_FILE, or bytes kept in memory if writing failed.
        self._hands: list[Any] = []  # the engine hand
        self._starts: list[Any] = []  # the table's hand_start event that dealt the hand
        self._ends: list[Any] = []  # None until the hand is over, then its HandEnd
        self._pieces = array("q")  # each hand's first piece on file, or -1
        self._ended = 0  # hands 0 .. _ended - 1 have their end
        self._seats: list[tuple[int, ...]] = []  # the same seats are the same tuple (most hands seat everyone)
        self._same_seats: dict[tuple[int, ...], tuple[int, ...]] = {}
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
        self._pieces.append(-1)
        seated = tuple(seats)
        self._seats.append(self._same_seats.setdefault(seated, seated))
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
        return self._hands[index] is ON_FILE and self._ends[index] is ON_FILE

    def is_last(self, hand: Any) -> bool:
        """Whether ``hand`` is the evening's last hand (and so not packed)."""
        return bool(self._hands) and self._hands[-1] is hand

    def hand(self, index: int) -> Any:
        """The engine hand ``index`` (unpacked if it was packed)."""
        kept = self._hands[index]
        if kept is not ON_FILE and not isinstance(kept, bytes):  # the hand in play: a table's seq asks at every update
            return kept
        return self.get(("hand", index), kept, self._piece(index, "hand"))

    def start(self, index: int) -> dict[str, Any]:
        """The table's ``hand_start`` event of hand ``index``."""
        start: dict[str, Any] = self.get(("start", index), self._starts[index], self._piece(index, "start"))
        return start

    def end(self, index: int) -> HandEnd:
        """Hand ``index``'s :class:`HandEnd` (it must have ended)."""
        if not 0 <= index < self._ended:
            raise IndexError(f"hand {index + 1} has not ended")
        end: HandEnd = self.get(("end", index), self._ends[index], self._piece(index, "end"))
        return end

    def _piece(self, index: int, part: str) -> int:
        return self._pieces[index] + PARTS[part]

    def get(self, key: tuple[str, int], kept: Any, piece: int) -> Any:
        """What ``kept`` holds: itself when it is not packed; else unpacked from memory or from file piece
        ``piece`` (and remembered a while, under ``key``)."""
        if not _is_packed(kept):
            return kept
        value = self._read.pop(key, None)
        if value is None:
            data = kept if isinstance(kept, bytes) else self._open().read(piece)
            value = pickle.loads(zlib.decompress(data))  # our own bytes (see the module's docstring)
        self._read[key] = value
        while len(self._read) > 2 * READ_KEPT:
            self._read.popitem(last=False)
        return value

    def pack_finished(self) -> None:
        """At a deal: shelve the hand before the last (its engine state, start and end): from now on they are
        kept packed, on file. The last hand, just over, stays as it is until the next deal, since its end is
        often still on its way to people as the next hand is dealt: packing it at once had a server read it
        back from the file at every deal (a soak at 100 tables held 8 MB of hands read back). A packed hand's
        events as read are forgotten first (a reader makes them again)."""
        if not self.packs:  # the lab reads no finished hand: only forget what reading the last one made
            if self._hands and self._hands[-1].over:
                self._hands[-1].forget_reading()
            return
        index = len(self._hands) - 2
        if index < 0 or _is_packed(self._hands[index]) or self._ends[index] is None:
            return
        self._hands[index].forget_reading()
        parts = [self._hands, self._starts, self._ends]  # in PARTS' order
        packed = [pack(kept[index]) for kept in parts]
        try:
            self._pieces[index] = self.put(packed)
            packed = [ON_FILE] * len(parts)
        except OSError:
            pass  # no room on disk: kept in memory, as packed as they can be
        for kept, value in zip(parts, packed, strict=True):
            kept[index] = value

    def put(self, packed: list[bytes]) -> int:
        """Write ``packed`` pieces one after the other; returns the first's number (OSError if one fails)."""
        file = self._open()
        first = file.write(packed[0])
        for data in packed[1:]:
            file.write(data)
        return first

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
    return kept is ON_FILE or isinstance(kept, bytes)


def pack(value: Any) -> bytes:
    """``value`` pickled and compressed (level 1: on file, size matters less than time; 6 took 40 us more a
    piece for 6% less)."""
    return zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)


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
        self._firsts = array("q")  # each sealed chunk's first index
        self._chunks: list[Any] = []  # each sealed chunk's commands, packed (ON_FILE, or bytes)
        self._pieces = array("q")  # each sealed chunk's piece on file, or -1
        self._sealed = 0  # how many commands are in sealed chunks
        self._tail: list[list[Any]] = []

    def append(self, entry: list[Any]) -> None:
        self._tail.append(entry)

    def seal(self) -> None:
        """Pack the commands since the last seal away (when the shelf packs at all)."""
        if self._shelf.packs and self._tail:
            self._firsts.append(self._sealed)
            packed = pack(self._tail)
            try:
                self._pieces.append(self._shelf.put([packed]))
                self._chunks.append(ON_FILE)
            except OSError:
                self._pieces.append(-1)
                self._chunks.append(packed)
            self._sealed += len(self._tail)
            self._tail = []

    def __len__(self) -> int:
        return self._sealed + len(self._tail)

    def _chunk(self, k: int) -> list[list[Any]]:
        entries: list[list[Any]] = self._shelf.get(("journal", k), self._chunks[k], self._pieces[k])
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


#: A block's kinds, by their one-byte codes in :class:`Blocks`.
KINDS = ("event", "start", "end", "hand")


class Blocks(Sequence[tuple[int, str, Any]]):
    """The blocks a table numbers its events by (:mod:`rummoli.table`): ``(seq before it, kind, payload)`` with
    kind ``"event"`` (payload: the event), ``"start"`` or ``"end"`` (payload: a hand's index; the event is
    on the shelf) or ``"hand"`` (payload: ``(hand index, the hand's seq it starts after)``). Kept in arrays,
    not a tuple each: an evening adds three a hand for as long as it lasts, and as tuples they were a third
    of what a finished hand still cost."""

    def __init__(self) -> None:
        self.bases = array("q")  # each block's seq before it, ascending: bisect reads it as it is
        self._kinds = bytearray()
        self._first = array("q")  # the hand index (start, end, hand) or the place in _events (event)
        self._second = array("q")  # a hand block's hand seq
        self._events: list[dict[str, Any]] = []
        #: the block appended last, as it was given (None before the first): a table's ``seq`` reads it at every
        #: update, and rebuilding it from the arrays each time was most of that read
        self.last: tuple[int, str, Any] | None = None

    def append(self, block: tuple[int, str, Any]) -> None:
        self.last = block
        base, kind, payload = block
        self.bases.append(base)
        self._kinds.append(KINDS.index(kind))
        if kind == "event":
            self._first.append(len(self._events))
            self._events.append(payload)
            self._second.append(0)
        elif kind == "hand":
            self._first.append(payload[0])
            self._second.append(payload[1])
        else:
            self._first.append(payload)
            self._second.append(0)

    def __len__(self) -> int:
        return len(self.bases)

    @overload
    def __getitem__(self, index: int) -> tuple[int, str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        base, kind, first = self.bases[index], KINDS[self._kinds[index]], self._first[index]
        if kind == "event":
            return base, kind, self._events[first]
        if kind == "hand":
            return base, kind, (first, self._second[index])
        return base, kind, first
