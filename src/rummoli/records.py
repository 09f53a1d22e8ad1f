"""Hand records (RULES.md §5): reading, checking the envelope, and replay by the right engine.

A record is one JSON object: the ruleset, the seats, the chips and pots before the hand, the deal,
and the actions in order.  Each engine knows its own actions; this module only decides which engine
a record belongs to and turns every problem into a :class:`RecordError` that names where it is.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from rummoli.datafiles import read_toml
from rummoli.errors import MalformedInput

FORMAT = "rummoli-hand/1"


class RecordError(MalformedInput):
    """A record that cannot be replayed, with the action's ``index`` (or None) and the ``rule`` id."""

    def __init__(self, message: str, index: int | None = None, rule: str | None = None) -> None:
        where = f"action {index}: " if index is not None else ""
        why = f"{rule}: " if rule else ""
        super().__init__(f"{where}{why}{message}")
        self.index = index
        self.rule = rule
        self.message = message


def read_record(source: str | Path) -> dict[str, Any]:
    """Load a record from a file path or a JSON text, checking only its envelope."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}", rule="R-NOTE-2") from None
    check_envelope(record)
    return record  # type: ignore[no-any-return]


def check_envelope(record: object) -> None:
    if not isinstance(record, dict):
        raise RecordError("a hand record is one JSON object", rule="R-NOTE-2")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {record.get('format')!r}", rule="R-NOTE-2")
    for key in ("ruleset", "players", "deal", "actions"):
        if key not in record:
            raise RecordError(f"missing {key!r}", rule="R-NOTE-2")
    if not isinstance(record["actions"], list):
        raise RecordError("'actions' must be a list", rule="R-NOTE-3")


def game_of(ruleset: object) -> str:
    """``"stops"`` or ``"rummy"``: which engine plays a ruleset given by name or inline."""
    if isinstance(ruleset, dict):
        game = ruleset.get("game")
    elif isinstance(ruleset, str):
        path = resources.files("rummoli") / "rulesets" / f"{ruleset}.toml"
        if not path.is_file():
            raise RecordError(f"unknown ruleset {ruleset!r}", rule="R-NOTE-2")
        game = tomllib.loads(path.read_text(encoding="utf-8")).get("game")
    else:
        raise RecordError("'ruleset' must be a built-in name or an object", rule="R-NOTE-2")
    if game not in ("stops", "rummy"):
        raise RecordError(f"ruleset game must be 'stops' or 'rummy', got {game!r}", rule="R-NOTE-2")
    return str(game)


def ruleset_reference(name_or_path: str) -> str | dict[str, Any]:
    """A ``--ruleset`` option: a built-in name stays a name; a ``.toml`` file becomes an inline object."""
    if name_or_path.endswith(".toml"):
        return read_toml(Path(name_or_path), f"ruleset file {name_or_path!r}")
    game_of(name_or_path)  # refuses an unknown name
    return name_or_path


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a record with its engine; returns the R-NOTE-4 result (chips, pots, events)."""
    check_envelope(record)
    if game_of(record["ruleset"]) == "stops":
        from rummoli.stops import replay_record
    else:
        from rummoli.rummy import replay_record
    result: dict[str, Any] = replay_record(record)
    return result
