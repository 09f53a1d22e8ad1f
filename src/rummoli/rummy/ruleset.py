"""Rummy rulesets as data: a frozen :class:`Ruleset` read from TOML (docs/rules.md §4).

A built-in is found by name in ``rummoli/rulesets/NAME.toml``; a user's own ruleset is a TOML file
or a dict holding the same keys.  Every key but ``game`` and ``style`` has a default, so a file only
names what differs from straight Rummy.

>>> r = load_ruleset("rummy")
>>> r.style, r.aces, r.ace_value, r.stock_end, r.target, r.hand_size_for(2)
('straight', 'low', 1, 'flip_once', 100, 10)
>>> load_ruleset({"game": "rummy", "style": "straight", "aces": "high"}).ace_value
15
>>> load_ruleset({"game": "rummy", "style": "straight", "aces": "sideways"})
Traceback (most recent call last):
...
rummoli.errors.MalformedInput: ruleset "custom": "aces" must be one of low, high, around, either, not "sideways"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from rummoli.datafiles import read_builtin, read_toml
from rummoli.errors import MalformedInput, quote
from rummoli.limits import MAX_DESCRIPTION, MAX_NAME, text_line
from rummoli.wording import players_range

#: The ``game`` a ruleset of this engine names (rummoli.games finds the engine by it).
GAME: Final = "rummy"
STYLES: Final = ("straight", "500", "knock", "gin")
ACES: Final = ("low", "high", "around", "either")
STOCK_ENDS: Final = ("flip_once", "block", "shuffle_once")
_DEFAULT_SIZES: Final = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
_KNOWN: Final = frozenset(
    {
        "game", "name", "title", "style", "description", "hand_size", "aces", "ace_value", "stock_end",
        "boathouse", "rummy_bonus", "target", "discard_depth", "knock_penalty", "knock_rummy_bonus",
        "knock_limit", "gin_bonus", "undercut_bonus", "game_bonus", "box_bonus",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Ruleset:
    """One Rummy-family game, as options.

    ``style`` picks the shape of a hand: ``straight`` (R-RU-*), ``500`` (500 Rum: melds score for their
    maker), ``knock`` (Knock Rummy: no melding in play, a knock ends the hand) or ``gin`` (Gin Rummy:
    knocking at ``knock_limit`` deadwood or less, gin and undercut bonuses, boxes and a game bonus).
    ``hand_size`` maps a number of players to the cards each is dealt; the players a ruleset seats are
    its keys.
    """

    name: str
    style: str = "straight"
    title: str = ""  # how players call it ("Gin Rummy"); empty: the name
    hand_size: tuple[tuple[int, int], ...] = tuple(_DEFAULT_SIZES.items())
    aces: str = "low"
    ace_value: int = 1
    stock_end: str = "flip_once"
    boathouse: bool = False
    rummy_bonus: bool = True
    target: int = 100
    discard_depth: bool = False  # 500 Rum: a draw may take any discard and everything above it
    knock_penalty: int = 10
    knock_rummy_bonus: int = 25
    knock_limit: int = 10  # Gin: the most deadwood a knocker may keep
    gin_bonus: int = 25
    undercut_bonus: int = 25
    game_bonus: int = 100
    box_bonus: int = 25

    @property
    def min_players(self) -> int:
        return min(n for n, _ in self.hand_size)

    @property
    def max_players(self) -> int:
        return max(n for n, _ in self.hand_size)

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each of ``players``; refuses a table this ruleset does not seat (R-RU-1)."""
        for n, size in self.hand_size:
            if n == players:
                return size
        raise MalformedInput(
            f"ruleset {quote(self.name)} seats {players_range(self.min_players, self.max_players)}, not {players}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The ruleset as the inline object a record may carry (loads back to an equal ruleset)."""
        return {
            "game": "rummy",
            "name": self.name,
            "title": self.title,
            "style": self.style,
            "hand_size": {str(n): s for n, s in self.hand_size},
            "aces": self.aces,
            "ace_value": self.ace_value,
            "stock_end": self.stock_end,
            "boathouse": self.boathouse,
            "rummy_bonus": self.rummy_bonus,
            "target": self.target,
            "discard_depth": self.discard_depth,
            "knock_penalty": self.knock_penalty,
            "knock_rummy_bonus": self.knock_rummy_bonus,
            "knock_limit": self.knock_limit,
            "gin_bonus": self.gin_bonus,
            "undercut_bonus": self.undercut_bonus,
            "game_bonus": self.game_bonus,
            "box_bonus": self.box_bonus,
        }


def builtin_names() -> list[str]:
    """The built-in Rummy rulesets, by name."""
    folder = resources.files("rummoli") / "rulesets"
    names = []
    for entry in folder.iterdir():
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            if data.get("game") == GAME:
                names.append(entry.name.removesuffix(".toml"))
    return sorted(names)


def load_ruleset(source: str | Path | dict[str, Any] | Ruleset, *, trusted: bool = False) -> Ruleset:
    """A ruleset from a built-in name or a dict; bad input raises ``MalformedInput``.

    A ``.toml`` path is read only with ``trusted=True`` (the local user's own file): input from outside
    names a built-in or carries its table inline, never a file (R-NOTE-6).

    >>> load_ruleset("../../rulesets/rummy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummoli.errors.MalformedInput: unknown Rummy ruleset "../../rulesets/rummy" (built-ins: ...)
    """
    if isinstance(source, Ruleset):
        return source
    if isinstance(source, dict):
        return _from_dict(source, "custom")
    if isinstance(source, Path) or (isinstance(source, str) and source.endswith(".toml")):
        if not trusted:
            raise MalformedInput("a ruleset from outside is a built-in name or an inline table, never a file: "
                                 f"{quote(str(source))}", "R-NOTE-6")
        path = Path(source)
        data = read_toml(path, f"ruleset file {quote(str(source))}")
        return _from_dict(data, path.stem[:MAX_NAME])
    builtin = read_builtin(source) if isinstance(source, str) else None
    if builtin is None:
        raise MalformedInput(f"unknown Rummy ruleset {quote(source)} (built-ins: {', '.join(builtin_names())})")
    return _from_dict(builtin, str(source))


def _from_dict(data: dict[str, Any], name: str) -> Ruleset:
    def fail(message: str) -> MalformedInput:
        return MalformedInput(f"ruleset {quote(name)}: {message}")

    name = text_line(data.get("name", name), "a ruleset's name")
    unknown = sorted(str(key) for key in set(data) - _KNOWN)
    if unknown:
        raise fail(f"unknown option {quote(unknown[0])}")
    if data.get("game") != GAME:
        raise fail(f'"game" must be "rummy", got {quote(data.get("game"))}')

    def choice(key: str, allowed: tuple[str, ...], default: str) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or value not in allowed:
            raise fail(f"{quote(key)} must be one of {', '.join(allowed)}, not {quote(value)}")
        return value

    def integer(key: str, default: int, low: int, high: int) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise fail(f"{quote(key)} must be a whole number from {low} to {high}, not {quote(value)}")
        return value

    def flag(key: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise fail(f"{quote(key)} must be true or false, not {quote(value)}")
        return value

    style = choice("style", STYLES, "straight")
    aces = choice("aces", ACES, "either" if style == "500" else "low")
    default_sizes = {"2": 10} if style == "gin" else {str(n): s for n, s in _DEFAULT_SIZES.items()}
    sizes = data.get("hand_size", default_sizes)
    if not isinstance(sizes, dict) or not sizes:
        raise fail('"hand_size" must be a table of players = cards, e.g. { 2 = 10, 3 = 7 }')
    hand_size: list[tuple[int, int]] = []
    for key, size in sizes.items():
        text = str(key) if isinstance(key, int) and not isinstance(key, bool) else key
        if text not in ("2", "3", "4", "5", "6", "7", "8"):
            raise fail(f'"hand_size" seats 2 to 8 players: a key is a number of players, not {quote(key)}')
        players = int(text)
        if isinstance(size, bool) or not isinstance(size, int) or size < 1 or players * size > 50:
            raise fail(f'"hand_size" for {players} players must leave at least 2 cards for the stock')
        hand_size.append((players, size))
    title = text_line(data.get("title", name), f'ruleset {quote(name)}: "title"')
    # read, never shown
    text_line(data.get("description", ""), f'ruleset {quote(name)}: "description"', MAX_DESCRIPTION)
    ruleset = Ruleset(
        name=name,
        title=title,
        style=style,
        hand_size=tuple(sorted(hand_size)),
        aces=aces,
        ace_value=integer("ace_value", 1 if aces == "low" else 15, 1, 50),
        stock_end=choice("stock_end", STOCK_ENDS, "flip_once" if style == "straight" else "block"),
        boathouse=flag("boathouse", False),
        rummy_bonus=flag("rummy_bonus", style == "straight"),
        target=integer("target", {"500": 500}.get(style, 100), 1, 100000),
        discard_depth=flag("discard_depth", style == "500"),
        knock_penalty=integer("knock_penalty", 10, 0, 1000),
        knock_rummy_bonus=integer("knock_rummy_bonus", 25, 0, 1000),
        knock_limit=integer("knock_limit", 10, 0, 100),
        gin_bonus=integer("gin_bonus", 25, 0, 1000),
        undercut_bonus=integer("undercut_bonus", 25, 0, 1000),
        game_bonus=integer("game_bonus", 100, 0, 10000),
        box_bonus=integer("box_bonus", 25, 0, 1000),
    )
    if style in ("knock", "gin") and (ruleset.boathouse or ruleset.discard_depth):
        raise fail('"boathouse" and "discard_depth" need melding in play; Knock and Gin Rummy have none')
    if style == "500" and ruleset.boathouse:
        # A card taken from the pile must be melded at once (R-500-2) but boathouse forbids going out by
        # melding: a player whose last cards are that meld would have no legal move.
        raise fail('"boathouse" does not combine with 500 Rum: a player could be left with no legal move')
    if style == "gin" and (ruleset.hand_size != ((2, ruleset.hand_size[0][1]),) or ruleset.aces != "low"):
        raise fail("Gin Rummy is for two players (hand_size = { 2 = 10 }) with aces low")
    return ruleset
