"""The built-in rulesets in words: what the lobby lists (:func:`ruleset_catalogue`, each ruleset as its game
family describes it), the rules a player reads (:func:`rules_text`, the text ``rummoli rules`` prints) and a
table's title (:func:`ruleset_title`, which a table's summary carries).

>>> [r["name"] for r in ruleset_catalogue()][:2]
['rummoli', 'rummoli-tripoley']
>>> describe("michigan")["players"]
[3, 8]
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib import resources
from typing import Any

from rummoli.errors import MalformedInput, quote
from rummoli.games import family_of

BUILTIN_ORDER = (
    "rummoli", "rummoli-tripoley", "tripoley", "michigan",
    "rummy", "rummy-aces-high", "block-rummy", "boathouse-rummy", "500-rum", "knock-rummy", "gin-rummy",
)


@cache
def describe(name: str) -> dict[str, Any]:
    """A built-in ruleset in words (its family's :meth:`~rummoli.games.Family.describe`) and its rules text's
    summary."""
    return {**family_of(name).describe(name), "summary": _from_texts("summary", name)}


def ruleset_catalogue() -> list[dict[str, Any]]:
    """Every built-in ruleset, described (stops games first)."""
    folder = resources.files("rummoli") / "rulesets"
    found = {p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")}
    names = [n for n in BUILTIN_ORDER if n in found] + sorted(found - set(BUILTIN_ORDER))
    return [describe(n) for n in names]


def _texts() -> Any:
    """The packaged rules texts (``rummoli rules NAME``), or ``None`` where this build has none."""
    try:
        return importlib.import_module("rummoli.rules_texts")
    except ImportError:
        return None


def _from_texts(part: str, name: str) -> str | None:
    """A rules text's ``title`` or ``summary`` for ``name``, or ``None`` where there is none."""
    texts = _texts()
    try:
        return str(getattr(texts, part)(name)) if texts is not None else None
    except MalformedInput:
        return None


def ruleset_title(ruleset: str | dict[str, Any], table: Any = None) -> str:
    """A table's ruleset in words for the join page: the title its ``table`` (or the rules the table loaded)
    carries, else for a built-in the title of its rules text, else its name. Without a table (the evening has
    not started) the ruleset is loaded from ``ruleset``, the table's option.

    >>> ruleset_title("gin-rummy"), ruleset_title("michigan")
    ('Gin Rummy', 'Michigan')
    >>> ruleset_title({"game": "rummy", "name": "house"})
    'house'
    """
    own = getattr(table, "title", None)
    if isinstance(own, str) and own:
        return own
    if isinstance(ruleset, str):
        return _builtin_title(ruleset)
    rules = table.rules if table is not None else _loaded(ruleset)
    if rules is None:
        return str(ruleset.get("name", "custom"))[:64]
    return str(getattr(rules, "title", None) or rules.name)


@cache
def _builtin_title(name: str) -> str:
    rules = _loaded(name)
    if rules is None:
        return name
    return str(getattr(rules, "title", None) or _from_texts("title", name) or rules.name)


def _loaded(ruleset: str | dict[str, Any]) -> Any:
    """The ruleset loaded by its family, or None where it does not load."""
    try:
        return family_of(ruleset).load_ruleset(ruleset)
    except MalformedInput:
        return None


def rules_text(name: str) -> str:
    """The Markdown ``rummoli rules NAME`` prints; where the build has no text, the options in words."""
    texts = _texts()
    if texts is not None:
        result: str = texts.text(name)  # MalformedInput for an unknown name
        return result
    if name not in {r["name"] for r in ruleset_catalogue()}:
        raise MalformedInput(f"no rules for {quote(name)}")
    about = describe(name)
    return f"# {about['title']}\n\n" + "\n".join(f"- {line}" for line in about["options"]) + "\n"
