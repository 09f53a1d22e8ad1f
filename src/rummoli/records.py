"""Hand records (docs/records.md): reading, checking the envelope, and replay by the right engine.

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
EVENING_FORMAT = "rummoli-evening/1"


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
    if isinstance(record, dict) and record.get("format") == EVENING_FORMAT:
        return record  # its hands are checked one by one when it is replayed
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
            raise RecordError(f"unknown ruleset {ruleset!r} (built-ins: {', '.join(builtin_names())})",
                              rule="R-NOTE-2")
        game = tomllib.loads(path.read_text(encoding="utf-8")).get("game")
    else:
        raise RecordError("'ruleset' must be a built-in name or an object", rule="R-NOTE-2")
    if game not in ("stops", "rummy"):
        raise RecordError(f"ruleset game must be 'stops' or 'rummy', got {game!r}", rule="R-NOTE-2")
    return str(game)


def builtin_names() -> list[str]:
    """Every built-in ruleset of both engines, by name."""
    folder = resources.files("rummoli") / "rulesets"
    return sorted(entry.name.removesuffix(".toml") for entry in folder.iterdir() if entry.name.endswith(".toml"))


def seat_range(ruleset: str | dict[str, Any]) -> tuple[int, int, set[int]]:
    """The fewest and most players a ruleset seats, and every count it allows (a Rummy ruleset may skip some).

    >>> seat_range("gin-rummy")
    (2, 2, {2})
    """
    if game_of(ruleset) == "stops":
        from rummoli.stops import load_ruleset as load_stops

        stops = load_stops(ruleset)
        return stops.min_players, stops.max_players, set(range(stops.min_players, stops.max_players + 1))
    from rummoli.rummy import load_ruleset as load_rummy

    rummy = load_rummy(ruleset)
    return rummy.min_players, rummy.max_players, {k for k, _ in rummy.hand_size}


def default_players(ruleset: str | dict[str, Any], usual: int = 4) -> int:
    """How many to seat when the player does not say: ``usual`` if the ruleset allows it, else the nearest.

    >>> default_players("gin-rummy"), default_players("michigan"), default_players("rummoli")
    (2, 4, 4)
    """
    allowed = seat_range(ruleset)[2]
    return min(allowed, key=lambda n: (abs(n - usual), n))


def ruleset_reference(name_or_path: str) -> str | dict[str, Any]:
    """A ``--ruleset`` option: a built-in name stays a name; a ``.toml`` file becomes an inline object."""
    if name_or_path.endswith(".toml"):
        return read_toml(Path(name_or_path), f"ruleset file {name_or_path!r}")
    game_of(name_or_path)  # refuses an unknown name
    return name_or_path


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a record with its engine; returns the R-NOTE-4 result (chips, pots, events).

    An evening record (``rummoli-evening/1``) replays hand by hand (:func:`replay_evening`)."""
    if isinstance(record, dict) and record.get("format") == EVENING_FORMAT:
        return replay_evening(record)
    check_envelope(record)
    if game_of(record["ruleset"]) == "stops":
        from rummoli.stops import replay_record
    else:
        from rummoli.rummy import replay_record
    result: dict[str, Any] = replay_record(record)
    return result



def replay_evening(record: dict[str, Any]) -> dict[str, Any]:
    """Replay every hand of a ``rummoli-evening/1`` record and check that they follow one another.

    The record's ``ledger`` lists, in order, each hand and the evening's own moves between hands (a
    player who could not ante leaves and their chips go to the centre; Gin's end-of-game bonuses).  Each
    hand must start with the stacks (by player name) and the board that the ledger leaves before it.  The
    result gives the stacks and the board at the end and each hand's result; a settlement of the board at
    the end of the evening is reported as recorded (it deals cards of its own).
    """
    hands = record.get("hands")
    ledger = record.get("ledger")
    if not isinstance(hands, list) or not hands or not isinstance(ledger, list):
        raise RecordError("an evening record lists its 'hands' and its 'ledger'", rule="R-NOTE-2")
    chips: dict[str, Any] = {}
    pots: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for entry in ledger:
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind == "out":
            pots[entry["pot"]] = pots.get(entry["pot"], 0) + entry["chips_to_centre"]
            chips[entry["player"]] = 0
            continue
        if kind == "bonus":
            chips[entry["player"]] = chips.get(entry["player"], 0) + entry["points"]
            continue
        if kind != "hand" or entry.get("hand_no") != len(results) + 1 or len(results) >= len(hands):
            raise RecordError(f"ledger entry {str(entry)[:80]} is out of order", rule="R-NOTE-2")
        number = len(results) + 1
        hand = hands[number - 1]
        try:
            check_envelope(hand)
            start = dict(zip(hand["players"], hand.get("chips", []), strict=False))
            if results and any(chips.get(name) != value for name, value in start.items()):
                raise RecordError("its players' chips are not what the evening left them", rule="R-SESSION-1")
            if results and {k: v for k, v in hand.get("pots", {}).items() if v} != {k: v for k, v in pots.items() if v}:
                raise RecordError("its pots are not what the evening left on the board", rule="R-BOARD-3")
            result = replay(hand)
        except RecordError as error:
            raise RecordError(f"hand {number}: {error}") from None
        chips.update(zip(hand["players"], result["chips"], strict=True))
        pots = dict(result.get("pots", {}))
        results.append({"chips": result["chips"], "pots": pots})
    if len(results) != len(hands):
        raise RecordError("the ledger does not name every hand", rule="R-NOTE-2")
    return {"format": EVENING_FORMAT, "hands": len(hands), "chips": chips, "pots": pots, "results": results,
            "settlement": record.get("settlement", [])}
