"""The registry: each family by name, and the family a ruleset belongs to."""

from __future__ import annotations

from rummoli.datafiles import read_builtin
from rummoli.errors import quote
from rummoli.games.family import Family
from rummoli.games.poch import PochFamily
from rummoli.games.rummy import RummyFamily
from rummoli.games.stops import StopsFamily
from rummoli.records import RecordError, builtin_names

FAMILIES: dict[str, Family] = {f.name: f for f in (StopsFamily(), RummyFamily(), PochFamily())}


def family(name: str) -> Family:
    """The family called ``name`` (``ValueError`` for none)."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise ValueError(f"no game family {quote(name)} (families: {', '.join(FAMILIES)})") from None


def game_of(ruleset: object) -> str:
    """The name of the family that plays a ruleset given by built-in name or inline (:func:`family_of`)."""
    return family_of(ruleset).name


def family_of(ruleset: object) -> Family:
    """The family that plays a ruleset given by built-in name or inline (its ``game`` key).

    A name is only ever a built-in's: ``../x`` or ``x.toml`` is an unknown ruleset, never a file."""
    if isinstance(ruleset, dict):
        game = ruleset.get("game")
    elif isinstance(ruleset, str):
        data = read_builtin(ruleset)
        if data is None:
            raise RecordError(f"unknown ruleset {quote(ruleset)} (built-ins: {', '.join(builtin_names())})",
                              rule="R-NOTE-2")
        game = data.get("game")
    else:
        raise RecordError('"ruleset" must be a built-in name or an object', rule="R-NOTE-2")
    found = FAMILIES.get(game) if isinstance(game, str) else None
    if found is None:
        raise RecordError(f"ruleset game must be one of {', '.join(map(quote, FAMILIES))}, got {quote(game)}",
                          rule="R-NOTE-2")
    return found
