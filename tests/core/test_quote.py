"""``errors.quote``: what a client sent, quoted in a message as JSON spells it (``true``, ``null``, ``"text"``,
``{"x": 1}``), in at most ``limit`` characters of printable text on one line, cheaply whatever its size, and
never raising (docs/limits.md)."""

from __future__ import annotations

import json
import math
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummoli.errors import QUOTE_DEPTH, QUOTE_LIMIT, quote


@pytest.mark.parametrize(("value", "spelt"), [
    (True, "true"), (False, "false"), (None, "null"), (0, "0"), (-17, "-17"), (1.5, "1.5"), (1e100, "1e+100"),
    (math.inf, "Infinity"), (-math.inf, "-Infinity"), (math.nan, "NaN"),
    ("Zz", '"Zz"'), ("it's", '"it\'s"'), ('say "hi"', '"say \\"hi\\""'), ("a\\b", '"a\\\\b"'), ("", '""'),
    ({"x": 1}, '{"x": 1}'), ({"seq": True, "action": None}, '{"seq": true, "action": null}'),
    ([1, "2", [3.0]], '[1, "2", [3.0]]'), ((1, 2), "[1, 2]"), ([], "[]"), ({}, "{}"),
])
def test_values_are_spelt_as_json_spells_them(value: Any, spelt: str) -> None:
    assert quote(value) == spelt


def test_controls_and_format_characters_are_escaped_and_letters_stay_readable() -> None:
    """At least what Python's repr escaped before: every character that is not printable (str.isprintable), as a
    JSON escape. A newline, a terminal's escape, a right-to-left override, a zero-width joiner, a line separator,
    a no-break space and a tag character (outside the BMP: a pair of surrogates, as JSON writes it)."""
    assert quote("a\nb\r\t\b\f") == '"a\\nb\\r\\t\\b\\f"'
    assert quote("\x1b[31mred\x00") == '"\\u001b[31mred\\u0000"'
    assert quote("abc\u202edef\u200d\u2028\u00a0") == '"abc\\u202edef\\u200d\\u2028\\u00a0"'
    assert quote("\U000e0041") == '"\\udb40\\udc41"' and json.loads(quote("\U000e0041")) == "\U000e0041"
    assert quote("\ud800") == '"\\ud800"'  # a lone surrogate, as JSON text may carry one
    assert quote("Zoë, Åsa, Straße, 한국, ♠A 🂡") == '"Zoë, Åsa, Straße, 한국, ♠A 🂡"'
    assert quote({"\x1b": ["\n"]}) == '{"\\u001b": ["\\n"]}'
    for c in map(chr, range(0x3000)):
        assert quote(c).isprintable() and "\n" not in quote(c)


def test_a_quote_is_at_most_limit_characters_and_says_it_was_cut() -> None:
    assert len(quote("x" * 10_000)) == QUOTE_LIMIT and quote("x" * 10_000).endswith("...")
    assert quote("x" * 10, 8) == '"xxxx...'
    assert quote("\n" * 100, 10) == '"\\n\\n\\n...'  # cut inside the escapes: still no raw control
    for limit in range(0, 30):
        for value in ("x" * 50, list(range(50)), {"k" * 40: "v" * 40}, "\u202e" * 40, 10**300):
            assert len(quote(value, limit)) <= limit, (limit, value)


def test_nesting_is_cut_at_a_few_levels() -> None:
    assert quote([[[[1]]]]) == "[[[[...]]]]"
    assert quote({"a": {"b": {"c": {"d": 1}}}}) == '{"a": {"b": {"c": {...}}}}'
    assert quote([[[[]]]]) == "[[[[]]]]"  # nothing left out: nothing to mark


def test_huge_values_are_cut_before_they_are_written() -> None:
    """A 50 MB string, a list of a million items, a dict of a million keys, a list nested a thousand deep and
    integers of ten thousand and of a million digits are each quoted in well under a millisecond's work (the
    bound here is far looser, for a busy machine): nothing is rendered in full."""
    deep: list[Any] = []
    inner = deep
    for _ in range(1000):
        inner.append([])
        inner = inner[0]
    huge: list[Any] = ["x" * 50_000_000, list(range(1_000_000)), {str(i): i for i in range(1_000_000)}, deep,
                       [["y" * 50_000_000] * 1000], 10**10_000, -(7**1_200_000), 10**1_000_000]
    for value in huge:
        start = time.perf_counter()
        text = quote(value)
        assert time.perf_counter() - start < 0.05, text
        assert len(text) <= QUOTE_LIMIT
    assert quote(10**10_000) == "a whole number of 10001 digits"
    assert quote(10**9_999) == quote(10**10_000 - 1) == "a whole number of 10000 digits"
    assert quote(-(10**5000)) == "a whole number of 5001 digits"
    assert quote(-(7**1_200_000)) == f"a whole number of {math.floor(1_200_000 * math.log10(7)) + 1} digits"
    assert quote([10**100]) == "[a whole number of 101 digits]"
    assert quote(10**1_000_000) == "a whole number of about 1000000 digits"  # next to a power of ten, and huge
    assert quote(2**200 - 1) == str(2**200 - 1)  # up to 200 bits (61 digits): the digits themselves
    assert quote(2**200) == "a whole number of 61 digits"


def test_exact_digit_counts_next_to_powers_of_ten() -> None:
    for n in [*range(61, 1200), 49_999, 50_000]:
        for value, digits in ((10**n - 1, n), (10**n, n + 1), (10**n + 1, n + 1), (-(10**n), n + 1)):
            assert quote(value) == f"a whole number of {digits} digits", n


class Hostile:
    def __repr__(self) -> str:
        raise RuntimeError("no")

    def __str__(self) -> str:
        raise RuntimeError("no")


class HostileList(list[Any]):
    def __iter__(self) -> Any:
        raise RuntimeError("no")


class HostileDict(dict[str, Any]):
    def items(self) -> Any:
        raise RuntimeError("no")


class HostileText(str):
    __slots__ = ()

    def __getitem__(self, key: Any) -> Any:
        raise RuntimeError("no")


def test_quoting_never_raises_and_names_a_type_json_cannot_spell() -> None:
    assert quote(Hostile()) == "<Hostile>"
    assert quote([Hostile(), b"x", object()]) == "[<Hostile>, <bytes>, <object>]"
    assert quote(HostileList([1, 2])) == "[1, 2]"  # the list's own items, whatever the subclass says
    assert quote(HostileDict(a=1)) == '{"a": 1}'
    assert quote(HostileText("ab")) == '"ab"'
    odd = type("line\none\u202e" + "x" * 500, (), {})()
    assert quote(odd) == quote(odd, 80) and quote(odd).startswith("<line\\none\\u202e") and len(quote(odd)) == 80


def depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(1 - 2**200, 2**200 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@given(JSON, st.integers(0, 200))
def test_a_quote_that_fits_is_the_json_itself(value: Any, limit: int) -> None:
    """Whatever is quoted, the quote is printable, on one line and at most ``limit`` long; one that fits whole (and
    is no deeper than the levels shown) reads back as the very value, and is json.dumps's own text wherever that
    text is printable."""
    text = quote(value, limit)
    assert len(text) <= limit and text.isprintable()
    whole = json.dumps(value, ensure_ascii=False)
    if len(json.dumps(value)) <= limit and depth(value) <= QUOTE_DEPTH:  # every non-ASCII character escaped: fits
        assert json.loads(text) == value
        if whole.isprintable():
            assert text == whole
