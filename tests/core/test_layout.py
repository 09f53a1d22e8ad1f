"""The layout's rules (issue 31), held by a test: no import cycles, no module over 600 lines, no private
member of another module read, no game family's name compared outside ``rummoli.games``
(tests/core/layout_rules.py says exactly what each counts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from layout_rules import MAX_LINES, read  # type: ignore[import-not-found]

SRC = Path(__file__).resolve().parents[2] / "src"


# Read when a test asks, not at import: every xdist worker imports this module to collect it, and reading the whole
# tree costs a second of CPU that only the worker running these tests needs.
@pytest.fixture(scope="module")
def report() -> Any:
    return read(SRC)


def test_no_module_is_over_600_lines(report: Any) -> None:
    assert report.too_long == {}, f"modules over {MAX_LINES} lines: {report.too_long}"


def test_no_import_cycle(report: Any) -> None:
    assert report.cycles() == []


def test_no_module_reads_another_modules_private_members(report: Any) -> None:
    assert report.private == []


def test_no_game_familys_name_is_compared_outside_the_games_registry(report: Any) -> None:
    assert report.family == []


def test_the_rules_see_what_they_forbid(tmp_path: Path) -> None:
    """The checker finds a cycle, a private read and a family's name when they are there (it is not blind)."""
    package = tmp_path / "rummoli"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from rummoli import b\n\ndef f(x):\n    return x._hidden == 'stops'\n")
    (package / "b.py").write_text("def g():\n    from rummoli import a\n    return a\n")
    report = read(tmp_path)
    assert report.cycles() == [["rummoli.a", "rummoli.b"]]
    assert [p[2] for p in report.private] == ["_hidden"] and len(report.family) == 1
