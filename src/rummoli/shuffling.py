"""Shuffling a list exactly as :meth:`random.Random.shuffle` does, faster (issue 34).

``random.Random.shuffle`` draws each position through ``_randbelow``: ``getrandbits`` of the bound's bit length,
again while the draw is out of range.  :func:`shuffle_pure` takes the same steps with the generator's own
``getrandbits``, and :func:`shuffle_with` is its compiled twin (``rummoli/_speedups.c``), so a seeded generator
deals the same cards and is left in the same state as after ``rng.shuffle`` (tests/core/test_shuffling.py holds
the three to the same order on many seeds).  A generator of another class may draw its own way (``random()``
without ``getrandbits``, the system's source): it shuffles itself.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, Final

from rummoli.twins import compiled

__all__ = ["COMPILED", "below", "derived_number", "shuffle", "shuffle_pure", "shuffle_with"]


def derived_number(text: str) -> int:
    """A 64-bit number that ``text`` always gives (a seeded table's chance after the deal)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """``random.Random._randbelow(n)`` (``n >= 1``) for the generator whose ``getrandbits`` this is: what
    ``rng.choice`` and ``rng.randint`` draw an index or an offset by (the random stops path draws this way)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle_pure(deck: list[Any], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle(deck)`` for the generator whose ``getrandbits`` this is."""
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        deck[i], deck[r] = deck[r], deck[i]


#: :func:`shuffle_pure`, compiled where it could be.
shuffle_with: Callable[[list[Any], Callable[[int], int]], None] = compiled("shuffle_with") or shuffle_pure
COMPILED: Final = shuffle_with is not shuffle_pure


def shuffle(rng: random.Random, deck: list[Any]) -> None:
    """``rng.shuffle(deck)``: the same order and the same draws from ``rng``."""
    if type(rng) is random.Random:
        shuffle_with(deck, rng.getrandbits)
    else:
        rng.shuffle(deck)
