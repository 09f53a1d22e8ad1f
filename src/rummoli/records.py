"""Hand records (docs/records.md): reading, checking the envelope, and replay by the right engine.

A record is one JSON object: the ruleset, the seats, the chips and pots before the hand, the deal,
and the actions in order.  Each engine knows its own actions; this module only decides which engine
a record belongs to and turns every problem into a :class:`RecordError` that names where it is.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from rummoli.datafiles import decode, read_builtin, read_local, read_toml
from rummoli.errors import MalformedInput, quote
from rummoli.limits import MAX_CHIPS, MAX_DEPTH, MAX_DIGITS, MAX_RECORD_BYTES

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


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS} are read)",
                          rule="R-NOTE-6")
    return int(text)


def _not_a_number(text: str) -> float:
    raise RecordError(f"{text} is not a JSON number", rule="R-NOTE-6")


def _depth_within(value: object, limit: int) -> bool:
    """Whether ``value`` nests at most ``limit`` lists and objects deep (walked without recursion)."""
    level: list[object] = [value]
    for _ in range(limit + 1):
        inner: list[object] = []
        for item in level:
            if isinstance(item, dict):
                inner.extend(item.values())
            elif isinstance(item, list):
                inner.extend(item)
        if not inner:
            return True
        level = inner
    return False


def parse_json(text: str | bytes, what: str = "a record") -> Any:
    """JSON from outside, read with R-NOTE-6's limits: UTF-8 (a byte-order mark is accepted), at most
    :data:`~rummoli.limits.MAX_RECORD_BYTES` long, nesting at most
    :data:`~rummoli.limits.MAX_DEPTH` deep, whole numbers of at most
    :data:`~rummoli.limits.MAX_DIGITS` digits, no ``NaN`` or ``Infinity``.  Any breach is one
    :class:`RecordError` line; nothing else escapes.

    >>> parse_json('{"chips": [' + "9" * 40 + ']}')
    Traceback (most recent call last):
    ...
    rummoli.records.RecordError: R-NOTE-6: a number of 40 digits (at most 30 are read)
    """
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{what} is larger than the {MAX_RECORD_BYTES:,} bytes allowed", rule="R-NOTE-6")
    if isinstance(text, bytes):
        try:
            text = decode(text, what)
        except MalformedInput as error:
            raise RecordError(str(error), rule="R-NOTE-6") from None
    try:
        value = json.loads(text.removeprefix("\ufeff"), parse_int=_whole_number, parse_constant=_not_a_number)
    except RecursionError:
        raise RecordError(f"{what} nests deeper than {MAX_DEPTH} levels", rule="R-NOTE-6") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}", rule="R-NOTE-2") from None
    except RecordError:
        raise
    except ValueError as error:  # a number the parser itself refuses
        raise RecordError(f"not JSON: {quote(str(error))}", rule="R-NOTE-2") from None
    if not _depth_within(value, MAX_DEPTH):
        raise RecordError(f"{what} nests deeper than {MAX_DEPTH} levels", rule="R-NOTE-6")
    return value


def read_record(source: str | bytes | Path) -> dict[str, Any]:
    """Load a record from JSON text or bytes (a client's, a file's) or from a local file the user
    named (a regular file only), checking its size, nesting and numbers (:func:`parse_json`) and its
    envelope.  A hand record (``rummoli-hand/1``) or an evening record (``rummoli-evening/1``)."""
    if isinstance(source, Path):
        try:
            source = read_local(source, f"record file {quote(str(source))}", MAX_RECORD_BYTES)
        except MalformedInput as error:
            raise RecordError(str(error), rule="R-NOTE-6") from None
    record = parse_json(source)
    if isinstance(record, dict) and record.get("format") == EVENING_FORMAT:
        return record  # its hands are checked one by one when it is replayed
    check_envelope(record)
    return record  # type: ignore[no-any-return]


def check_envelope(record: object) -> None:
    if not isinstance(record, dict):
        raise RecordError("a hand record is one JSON object", rule="R-NOTE-2")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {quote(record.get('format'))}", rule="R-NOTE-2")
    for key in ("ruleset", "players", "deal", "actions"):
        if key not in record:
            raise RecordError(f"missing {key!r}", rule="R-NOTE-2")
    if not isinstance(record["actions"], list):
        raise RecordError("'actions' must be a list", rule="R-NOTE-3")


def game_of(ruleset: object) -> str:
    """``"stops"`` or ``"rummy"``: which engine plays a ruleset given by built-in name or inline.

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
        raise RecordError("'ruleset' must be a built-in name or an object", rule="R-NOTE-2")
    if game not in ("stops", "rummy"):
        raise RecordError(f"ruleset game must be 'stops' or 'rummy', got {quote(game)}", rule="R-NOTE-2")
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
    """A ``--ruleset`` option of the local user: a built-in name stays a name; a ``.toml`` file (a
    regular file only) becomes an inline object, its board too when it names a board file (found as
    written, or else beside the ruleset file).  What comes back names no file, so it goes on to the
    engines, the table and the records as input that may travel."""
    if not name_or_path.endswith(".toml"):
        game_of(name_or_path)  # refuses an unknown name
        return name_or_path
    path = Path(name_or_path)
    data = read_toml(path, f"ruleset file {quote(name_or_path)}")
    board = data.get("board")
    if isinstance(board, str) and board.endswith(".toml"):
        board_path = Path(board)
        if not board_path.is_absolute() and not board_path.exists() and (path.parent / board_path).exists():
            board_path = path.parent / board_path
        data = {**data, "board": read_toml(board_path, f"board file {quote(board)}")}
    return data


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



def replay_hand(record: dict[str, Any]) -> Any:
    """The engine's hand a hand record plays to (checked as :func:`replay` checks it), at its end."""
    check_envelope(record)
    if game_of(record["ruleset"]) == "stops":
        from rummoli.stops.replay import replay_hand as stops_hand

        return stops_hand(record)
    from rummoli.rummy.play import replay_hand as rummy_hand

    return rummy_hand(record)


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
        if kind in ("out", "bonus"):
            assert isinstance(entry, dict)
            player, pot = entry.get("player"), entry.get("pot", "centre")
            amount = entry.get("chips_to_centre" if kind == "out" else "points")
            if not isinstance(player, str) or not isinstance(pot, str) or isinstance(amount, bool) \
                    or not isinstance(amount, int) or not -MAX_CHIPS <= amount <= MAX_CHIPS:
                raise RecordError(f"ledger entry {quote(entry)} names a player and a whole number of chips",
                                  rule="R-NOTE-2")
            if kind == "out":
                pots[pot] = pots.get(pot, 0) + amount
                chips[player] = 0
            else:
                chips[player] = chips.get(player, 0) + amount
            continue
        if kind != "hand" or entry.get("hand_no") != len(results) + 1 or len(results) >= len(hands):
            raise RecordError(f"ledger entry {quote(entry)} is out of order", rule="R-NOTE-2")
        number = len(results) + 1
        hand = hands[number - 1]
        try:
            check_envelope(hand)  # a hand record, never an evening inside an evening
            result = replay(hand)  # checks every field's type before the evening compares them
            start = dict(zip(hand["players"], hand.get("chips", []), strict=False))
            if results and any(chips.get(name) != value for name, value in start.items()):
                raise RecordError("its players' chips are not what the evening left them", rule="R-SESSION-1")
            if results and {k: v for k, v in hand.get("pots", {}).items() if v} != {k: v for k, v in pots.items() if v}:
                raise RecordError("its pots are not what the evening left on the board", rule="R-BOARD-3")
        except RecordError as error:
            raise RecordError(f"hand {number}: {error}") from None
        chips.update(zip(hand["players"], result["chips"], strict=True))
        pots = dict(result.get("pots", {}))
        results.append({"chips": result["chips"], "pots": pots})
    if len(results) != len(hands):
        raise RecordError("the ledger does not name every hand", rule="R-NOTE-2")
    return {"format": EVENING_FORMAT, "hands": len(hands), "chips": chips, "pots": pots, "results": results,
            "settlement": record.get("settlement", [])}
