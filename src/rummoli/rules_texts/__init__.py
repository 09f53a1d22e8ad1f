"""How to play each built-in ruleset, written for people: one Markdown file per ruleset.

These texts are the single source for ``rummoli rules``, the terminal table's help and the web rules
pages.  Each file opens with a ``# Title`` line and a one-line summary, then one ``##`` section per
part of the game (the goal, the deal, each phase, what each pot pays, a short worked example).

>>> "rummoli" in names() and "gin-rummy" in names()
True
>>> summary("michigan").startswith("A stops game")
True
"""

from __future__ import annotations

from importlib import resources

from rummoli.errors import MalformedInput, quote

# The order people meet them in: the stops games, the Rummy family, then Poch.
ORDER = (
    "rummoli", "rummoli-tripoley", "tripoley", "michigan",
    "rummy", "rummy-aces-high", "block-rummy", "boathouse-rummy", "500-rum", "knock-rummy", "gin-rummy",
    "poch", "poch-hoyle",
)


def names() -> list[str]:
    """Every ruleset with a rules text: the built-ins in ``ORDER``, then any others alphabetically."""
    found = {entry.name.removesuffix(".md") for entry in resources.files(__name__).iterdir()
             if entry.name.endswith(".md")}
    return [name for name in ORDER if name in found] + sorted(found - set(ORDER))


def text(name: str) -> str:
    """The whole Markdown text of ``name``; an unknown name raises ``MalformedInput`` listing the names."""
    if name not in names():
        raise MalformedInput(f"no rules for {quote(name)} (rulesets: {', '.join(names())})")
    return resources.files(__name__).joinpath(f"{name}.md").read_text(encoding="utf-8")


def title(name: str) -> str:
    """The text's heading, e.g. ``"Gin Rummy"``."""
    return text(name).splitlines()[0].removeprefix("# ").strip()


def summary(name: str) -> str:
    """The one-line summary under the heading."""
    lines = text(name).split("\n\n", 2)
    return " ".join(lines[1].split())


def listing() -> str:
    """One line per ruleset: its name and its summary (``rummoli rules`` with no name)."""
    width = max(len(name) for name in names())
    rows = [f"{name:<{width}}  {summary(name)}" for name in names()]
    return "\n".join([*rows, "", "rummoli rules NAME prints how to play one of them."])
