"""Hand records (docs/records.md): reading them safely and checking their envelope.

A record is one JSON object: the ruleset, the seats, the chips and pots before the hand, the deal,
and the actions in order.  Each engine knows its own actions and replays its own records; which engine a
record belongs to, and replaying it, is :mod:`rummoli.games`.  This module knows no engine: it reads,
bounds and checks, and turns every problem into a :class:`RecordError` that names where it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from rummoli.cards import Card, CardError
from rummoli.datafiles import decode, read_builtin, read_local, read_toml
from rummoli.errors import MalformedInput, quote
from rummoli.limits import (
    MAX_CHIPS,
    MAX_CUT_ROUNDS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_NAME,
    MAX_RECORD_BYTES,
    not_text,
    shows_nothing,
    stacked_marks,
)
from rummoli.seating import alike
from rummoli.wording import names_listed

FORMAT = "rummoli-hand/1"
EVENING_FORMAT = "rummoli-evening/1"
#: How an evening record says its first dealer was chosen (``dealer_by``): by a high-card cut (its rounds are the
#: record's ``cut``), by lot, given to the table (the lab's tables, tests), or not known (a table restored from a
#: snapshot written before snapshots kept it).
DEALER_BY = ("cut", "lot", "given", "unrecorded")


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
        raise RecordError(f"format must be {quote(FORMAT)}, got {quote(record.get('format'))}", rule="R-NOTE-2")
    for key in ("ruleset", "players", "deal", "actions"):
        if key not in record:
            raise RecordError(f"missing {quote(key)}", rule="R-NOTE-2")
    if not isinstance(record["actions"], list):
        raise RecordError('"actions" must be a list', rule="R-NOTE-3")
    check_names(record["players"])


def check_names(players: object) -> None:
    """Refuse a record whose player's name piles more combining marks on one letter than a live name may hold
    (:func:`rummoli.limits.stacked_marks`): a replay, the coach and the page write names into lines that such a pile
    would draw over. A name holding a control character (a newline, a terminal's escape, a right-to-left override) or
    nothing visible is refused too, as a live name is: the lines would break, or read otherwise, or name nobody. The
    name is not quoted (the message would draw the pile too): its place in the list is. Each engine checks the rest of
    ``players`` (a list of names of at most 64 characters)."""
    if not isinstance(players, list):
        return
    for seat, name in enumerate(players):
        if not isinstance(name, str):
            continue
        control = not_text(name)
        problem = stacked_marks(name) if control is None else f"may not hold control characters (found {control})"
        if problem is None and shows_nothing(name):
            problem = "needs at least one visible character"
        if problem is not None:
            raise RecordError(f"players: the name of seat {seat} {problem}", rule="R-NOTE-6")
    # Two seats of one name (or names that read alike, "Ann" and "ann") could not be told apart in the summary, the
    # standings or a cut; no table deals to them (rummoli.seating), so a record holding them was not written by one.
    names = [name for name in players if isinstance(name, str)]
    pair = alike(names) if len(names) == len(players) else None  # the engine refuses a name that is no text
    if pair is not None:
        raise RecordError(f"players: seats {pair[0]} and {pair[1]} are both called {quote(players[pair[0]])}",
                          rule="R-NOTE-6")


def evening_start(record: dict[str, Any]) -> tuple[dict[str, int] | None, str | None]:
    """An evening record's start checked (R-NOTE-5): ``chips``, one whole number per player (the starting chips, or a
    Rummy game's starting scores), ``dealer``, the first dealer's seat, and how they were chosen, ``dealer_by`` with the
    ``cut`` (:func:`check_cut`). Returns the starting chips by name (None when the record has none) and the first
    dealer's name, for the first hand to be checked against. A record written before these keys were kept holds
    none of them: ``(None, None)``, and nothing is checked that was not checked before."""
    if not any(key in record for key in ("chips", "dealer_by", "cut")):
        return None, None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and len(p) <= MAX_NAME for p in players):
        raise RecordError(f'"players" is a list of names of at most {MAX_NAME} characters', rule="R-NOTE-2")
    start = None
    if "chips" in record:
        chips = record["chips"]
        if not isinstance(chips, list) or len(chips) != len(players) \
                or not all(type(c) is int and 0 <= c <= MAX_CHIPS for c in chips):
            raise RecordError(f'"chips" is one whole number per player (the starting chips or scores, 0 to '
                              f"{MAX_CHIPS:,} each), got {quote(chips)}", rule="R-NOTE-5")
        start = dict(zip(players, chips, strict=True))
    dealer = record.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < len(players):
        raise RecordError(f'"dealer" is the first dealer\'s seat, from 0 to {len(players) - 1}, not {quote(dealer)}',
                          rule="R-NOTE-5")
    how, cut = record.get("dealer_by"), record.get("cut")
    if "dealer_by" in record and how not in DEALER_BY:
        raise RecordError(f'"dealer_by" is "cut", "lot", "given" or "unrecorded", not {quote(how)}', rule="R-NOTE-5")
    if cut is None:
        if how == "cut":
            raise RecordError('"dealer_by" is "cut" but no cut is recorded', rule="R-NOTE-5")
        return start, players[dealer]
    if how not in (None, "cut"):
        raise RecordError(f'a cut is recorded, but "dealer_by" is {quote(how)}', rule="R-NOTE-5")
    check_cut(cut, players, dealer)
    return start, players[dealer]


def check_cut(cut: object, players: list[str], dealer: int) -> None:
    """R-MI-1: ``cut`` (an evening record's, a snapshot's) holds the rounds of a high-card cut, each an object of
    player names and the cards they cut, that ``players[dealer]`` won: every player cuts in the first round, those
    tied for the highest rank cut again, no card twice in a round (each round is cut from one deck), and the last
    round has one highest card. Anything else is one :class:`RecordError` line; ``players`` are names already
    checked (:func:`check_names`)."""
    if not isinstance(cut, list):
        raise RecordError('"cut" is a list of rounds (each an object of player names and the cards they cut) or null',
                          rule="R-NOTE-5")
    if not 1 <= len(cut) <= MAX_CUT_ROUNDS:
        raise RecordError(f'"cut" holds {len(cut)} rounds (1 to {MAX_CUT_ROUNDS} are read)', rule="R-NOTE-5")
    seats: dict[str, int] = {}
    for seat, name in enumerate(players):
        if name in seats:  # a round names its players: two of one name could not be told apart
            raise RecordError(f"players: seats {seats[name]} and {seat} are both named {quote(name)}, and a cut "
                              "names its players", rule="R-NOTE-5")
        seats[name] = seat
    due = list(players)  # who cuts in this round, in seat order
    for number, held in enumerate(cut, start=1):
        if not isinstance(held, dict) or not all(isinstance(text, str) for text in held.values()):
            raise RecordError(f"cut: round {number} is an object of player names and the cards they cut",
                              rule="R-NOTE-5")
        stranger = next((name for name in held if name not in seats), None)
        if stranger is not None:
            raise RecordError(f"cut: round {number} names {quote(stranger)}, who is not among the players",
                              rule="R-NOTE-5")
        try:
            cards = {name: Card.parse(text) for name, text in held.items()}
        except CardError as error:
            raise RecordError(f"cut: round {number}: {error}", rule="R-NOTE-1") from None
        seen: set[Card] = set()
        for card in cards.values():
            if card in seen:
                raise RecordError(f"cut: round {number} draws {card} twice (a round is cut from one deck)",
                                  rule="R-MI-1")
            seen.add(card)
        if set(cards) != set(due):
            missing = [name for name in due if name not in cards]
            raise RecordError(f"cut: round 1 leaves out {missing[0]} (every player cuts)" if number == 1 and missing
                              else f"cut: round {number} is for {names_listed(due)}, who tied for the highest card "
                              f"in round {number - 1}", rule="R-MI-1")
        best = max(card.rank for card in cards.values())
        due = [name for name in players if name in cards and cards[name].rank == best]
        if len(due) == 1 and number < len(cut):
            raise RecordError(f"cut: {due[0]} cut the one highest card in round {number}, and the cut goes on",
                              rule="R-MI-1")
    if len(due) > 1:
        raise RecordError("cut: the last round ends in a tie for the highest card (ties cut again)", rule="R-MI-1")
    if due[0] != players[dealer]:
        raise RecordError(f"cut: {due[0]} cut the highest card, but the record's first dealer is {players[dealer]}",
                          rule="R-MI-1")


def record_cards(value: object, where: str) -> list[Card]:
    """A record's list of cards (a hand, a widow, a stock), or RecordError naming ``where``."""
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards", rule="R-NOTE-2")
    if len(value) > 52 or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where} must be a list of cards written as text", rule="R-NOTE-1")
    try:
        return [Card.parse(v) for v in value]
    except CardError as error:
        raise RecordError(f"{where}: {error}", rule="R-NOTE-1") from None


def record_ruleset(record: object, load: Callable[[Any], Any]) -> Any:
    """A hand record's envelope checked and its ruleset loaded by ``load`` (its engine's), or RecordError."""
    check_envelope(record)
    assert isinstance(record, dict)
    try:
        return load(record["ruleset"])
    except MalformedInput as error:
        raise RecordError(f"ruleset: {error}", rule="R-NOTE-2") from None


def builtin_names() -> list[str]:
    """Every built-in ruleset of both engines, by name."""
    folder = resources.files("rummoli") / "rulesets"
    return sorted(entry.name.removesuffix(".toml") for entry in folder.iterdir() if entry.name.endswith(".toml"))


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file; a name the system cannot look up at all (longer than a file name may
    be) is none, not an error."""
    try:
        return path.is_file()
    except OSError:
        return False


def ruleset_reference(name_or_path: str) -> str | dict[str, Any]:
    """A ``--ruleset`` option of the local user: a built-in name stays a name; a ``.toml`` file (a
    regular file only) becomes an inline object, its board too when it names a board file (found as
    written, or else beside the ruleset file).  What comes back names no file, so it goes on to the
    engines, the table and the records as input that may travel."""
    if not name_or_path.endswith(".toml"):
        if read_builtin(name_or_path) is None:
            if _is_file(Path(name_or_path)):  # a file, but not a ruleset file: say so, not "unknown ruleset"
                raise RecordError(f"{quote(name_or_path)} is a file, and a ruleset file's name ends in .toml",
                                  rule="R-NOTE-2")
            raise RecordError(f"unknown ruleset {quote(name_or_path)} (built-ins: {', '.join(builtin_names())})",
                              rule="R-NOTE-2")
        return name_or_path
    path = Path(name_or_path)
    data = read_toml(path, f"ruleset file {quote(name_or_path)}")
    board = data.get("board")
    if isinstance(board, str) and board.endswith(".toml"):
        board_path = Path(board)
        if not board_path.is_absolute() and not _is_file(board_path) and _is_file(path.parent / board_path):
            board_path = path.parent / board_path
        data = {**data, "board": read_toml(board_path, f"board file {quote(board)}")}
    return data
