"""rummoli.shuffling: the compiled shuffle, its pure-Python twin and ``random.Random.shuffle`` put a list in the same
order and leave the generator in the same state, for any seed and length (the stops fast path deals by it, and a
seed must keep dealing the same cards)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from rummoli import shuffling
from rummoli.cards import CARDS
from rummoli.shuffling import shuffle, shuffle_pure

try:
    from rummoli._speedups import shuffle_with as compiled
except ImportError:
    compiled = None


def test_the_compiled_shuffle_is_the_one_used_unless_pure_is_asked() -> None:
    if compiled is None:  # a failure, never a skip: the suite must check the shuffle players are dealt by
        pytest.fail("rummoli._speedups was not built (pip install -e . compiles it with gcc)")
    assert shuffling.COMPILED and shuffling.shuffle_with is compiled
    pure = subprocess.run([sys.executable, "-c", "import rummoli.shuffling as s; print(s.COMPILED)"],
                          env={**os.environ, "RUMMOLI_PURE": "1"}, capture_output=True, text=True, check=True)
    assert pure.stdout.strip() == "False"


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 52, 53, 64, 65, 200])
def test_every_shuffle_gives_the_order_and_state_random_shuffle_gives(size: int) -> None:
    for seed in range(300):
        expected, rng = list(range(size)), random.Random(seed)
        rng.shuffle(expected)
        twins = [shuffle_pure, *([compiled] if compiled is not None else [])]
        for twin in twins:
            deck, mine = list(range(size)), random.Random(seed)
            twin(deck, mine.getrandbits)
            assert deck == expected and mine.getstate() == rng.getstate(), (twin, seed)
        deck, mine = list(range(size)), random.Random(seed)
        shuffle(mine, deck)
        assert deck == expected and mine.getstate() == rng.getstate()


def test_a_generator_of_another_class_shuffles_itself() -> None:
    class Counting(random.Random):
        draws = 0

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            self.draws += 1
            super().shuffle(x)

    rng = Counting(5)
    deck = list(CARDS)
    shuffle(rng, deck)
    assert rng.draws == 1 and sorted(deck, key=lambda c: c.index) == list(CARDS)


def test_a_draw_that_fails_stops_the_shuffle_with_its_error() -> None:
    def broken(bits: int) -> int:
        raise ValueError("no more randomness")

    for twin in [shuffle_pure, *([compiled] if compiled is not None else [])]:
        deck = list(range(10))
        with pytest.raises(ValueError, match="no more randomness"):
            twin(deck, broken)
        assert deck == list(range(10))
