"""Stops rulesets and boards as data (docs/rules.md §2.1, §2.5, §2.6).

A ruleset is a frozen :class:`Ruleset`: a :class:`Board` (a list of :class:`Pot`) plus the table's
options.  Built-ins live in ``rummoli/rulesets/*.toml`` and ``rulesets/boards/*.toml``; a user's own
file or dict loads through the same validation, and anything wrong is refused with a
:class:`MalformedInput` that names the problem.

>>> r = load_ruleset("rummoli")
>>> r.board.title, [p.id for p in r.board.pots][:4]
('Copp Clark', ['centre', 'poker', 'Ts', 'Jd'])
>>> [p.id for p in load_ruleset("rummoli").board.pots][-2:]
['Kd-Ad', '7-8-9']
>>> load_ruleset({"game": "stops", "board": "michigan", "lead": "highest"})
Traceback (most recent call last):
...
rummoli.errors.MalformedInput: ruleset option "lead" cannot be "highest" (one of: lowest_overall, lowest_in_chosen_suit)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from rummoli.cards import RANK_CHARS, Card, CardError
from rummoli.datafiles import read_builtin, read_toml
from rummoli.errors import MalformedInput, quote
from rummoli.limits import MAX_ANTE, MAX_BET, MAX_POTS, MAX_START_CHIPS, text_line

CENTRE, POKER, CARD, COMBO = "centre", "poker", "card", "combo"
#: The ``game`` a ruleset of this engine names (rummoli.games finds the engine by it; the default here).
GAME: Final = "stops"

#: Every option with its allowed values; the first value is the default.
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "widow": ("swap_or_auction", "none"),
    "poker": ("before_play", "after_play", "none"),
    "opening_lead": ("poker_winner", "left_of_dealer", "two_of_clubs"),
    "lead": ("lowest_overall", "lowest_in_chosen_suit"),
    "restart": ("opposite_colour", "other_suit", "other_suit_else_same"),
    "cannot_lead": ("pass_left", "pay_and_pass"),
    "claim": ("automatic", "announce"),
    "settle": ("poker_showdown", "pot_by_pot", "share_equally"),
    "pay": ("on_play", "on_hold"),
    "widow_bar": ("none", "pay_card_holders"),
    "dealer_ante": ("same", "double"),
    "leftover": ("pay", "none"),
}
NUMBERS: Final[dict[str, tuple[int, int, int]]] = {  # name: (default, minimum, maximum)
    "max_bet": (10, 1, MAX_BET),
    "max_raises": (3, 0, 1000),
    "min_players": (2, 2, 8),
    "max_players": (8, 2, 8),
    "starting_chips": (100, 1, MAX_START_CHIPS),
}
_TEXT_KEYS: Final = ("game", "name", "title", "board")
BUILTIN_RULESETS: Final = ("rummoli", "rummoli-tripoley", "tripoley", "michigan")


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot of a board: its id (R-NOTE-2), name, ante and how it is won (R-BOARD-1).

    ``cards`` holds the card indices of a ``card`` pot (one) or a suited combo; an any-suit combo
    (``7-8-9``) has ``suit = None`` and its ranks in ``ranks``.
    """

    id: str
    name: str
    kind: str
    ante: int
    ranks: tuple[int, ...] = ()
    suit: int | None = None

    @property
    def cards(self) -> tuple[int, ...]:
        """Card indices (13 * suit + rank) of a card pot or a suited combo; empty for any-suit combos."""
        if self.suit is None:
            return ()
        return tuple(13 * self.suit + r for r in self.ranks)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "ante": self.ante}
        if self.kind == CARD:
            out["card"] = self.id
        elif self.kind == COMBO:
            out["cards"] = self.id.split("-")
        return out


@dataclass(frozen=True, slots=True)
class Board:
    """A named list of pots; exactly one centre pot and at most one poker pot."""

    name: str
    title: str
    pots: tuple[Pot, ...]
    # The two pots' indices, found once: the engine reads them at every bet and payment.
    _centre: int | None = field(init=False, repr=False, compare=False)
    _poker: int | None = field(init=False, repr=False, compare=False)
    #: the pots' ids in board order: every view names the balances by them
    pot_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pot_ids", tuple(p.id for p in self.pots))
        object.__setattr__(self, "_centre", next((i for i, p in enumerate(self.pots) if p.kind == CENTRE), None))
        object.__setattr__(self, "_poker", next((i for i, p in enumerate(self.pots) if p.kind == POKER), None))

    def pot(self, pot_id: str) -> Pot:
        for p in self.pots:
            if p.id == pot_id:
                return p
        raise KeyError(pot_id)

    @property
    def centre(self) -> int:
        """Index of the centre pot."""
        if self._centre is None:
            raise ValueError(f"board {self.name!r} has no centre pot")
        return self._centre

    @property
    def poker(self) -> int | None:
        """Index of the poker pot, if the board has one."""
        return self._poker

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "pots": [p.to_dict() for p in self.pots]}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A stops ruleset: a board plus every option of docs/rules.md §2.2–2.5 (defaults as Rummoli)."""

    name: str
    title: str
    board: Board
    min_players: int = 2
    max_players: int = 8
    starting_chips: int = 100
    widow: str = "swap_or_auction"
    poker: str = "before_play"
    max_bet: int = 10
    max_raises: int = 3
    opening_lead: str = "poker_winner"
    lead: str = "lowest_overall"
    restart: str = "opposite_colour"
    cannot_lead: str = "pass_left"
    claim: str = "automatic"
    settle: str = "poker_showdown"
    pay: str = "on_play"
    widow_bar: str = "none"
    dealer_ante: str = "same"
    leftover: str = "pay"
    builtin: bool = field(default=False, compare=False)

    def ante(self, pot: Pot) -> int:
        """What each player antes on ``pot`` (R-ANTE-1).  A poker pot takes nothing when the ruleset
        plays ``poker = none``: no hand can win it, so the table does not feed it."""
        return 0 if pot.kind == POKER and self.poker == "none" else pot.ante

    def ante_per_seat(self) -> int:
        """One player's whole ante for a hand (the dealer pays twice this with ``dealer_ante = double``)."""
        return sum(self.ante(p) for p in self.board.pots)

    def options(self) -> dict[str, Any]:
        """The options as plain data (every key of :data:`CHOICES` and :data:`NUMBERS`)."""
        return {k: getattr(self, k) for k in (*CHOICES, *NUMBERS)}

    def to_dict(self) -> dict[str, Any]:
        """An inline ruleset object (R-NOTE-2) that loads back to an equal ruleset."""
        return {"game": "stops", "name": self.name, "title": self.title, "board": self.board.to_dict(),
                **self.options()}

    def reference(self) -> str | dict[str, Any]:
        """What a record names: the built-in's name, or the whole ruleset inline."""
        return self.name if self.builtin else self.to_dict()


def _card(text: object, where: str) -> Card:
    if not isinstance(text, str):
        raise MalformedInput(f'{where}: a card must be text like "Ts", got {quote(text)}')
    try:
        return Card.parse(text)
    except CardError:
        raise MalformedInput(f"{where}: unknown card {quote(text)}") from None


def _int(value: object, where: str, minimum: int = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f"{where} must be a whole number, got {quote(value)}")
    if value < minimum:
        raise MalformedInput(f"{where} must be at least {minimum}, got {quote(value)}")
    if maximum is not None and value > maximum:
        raise MalformedInput(f"{where} must be at most {maximum:,}, got {quote(value)}")
    return value


def _table_of(source: object, what: str, trusted: bool) -> tuple[dict[str, Any], bool]:
    """The TOML table ``source`` stands for, and whether it is a built-in: an inline table, a built-in's
    plain name, or (``trusted`` only: the local user's own) the path of a ``.toml`` file."""
    folder = "boards" if what == "board" else None
    if isinstance(source, dict):
        return source, False
    if isinstance(source, Path) or (isinstance(source, str) and source.endswith(".toml")):
        if not trusted:
            raise MalformedInput(f"a {what} from outside is a built-in name or an inline table, never a file: "
                                 f"{quote(str(source))}", "R-NOTE-6")
        return read_toml(Path(source), f"{what} file {quote(str(source))}"), False
    data = read_builtin(source, folder) if isinstance(source, str) else None
    if data is None:
        known = f" (built-ins: {', '.join(BUILTIN_RULESETS)})" if what == "ruleset" else ""
        raise MalformedInput(f"unknown {what} {quote(source)}{known}")
    return data, True


def _combo(cards: object, where: str) -> tuple[tuple[int, ...], int | None]:
    if not isinstance(cards, list) or not 2 <= len(cards) <= 13:
        raise MalformedInput(f"{where}: a combo lists two to thirteen cards")
    ranks: list[int] = []
    suits: set[int | None] = set()
    for text in cards:
        if isinstance(text, str) and text.strip().upper() in (*RANK_CHARS, "10"):
            token = text.strip().upper()
            ranks.append(8 if token == "10" else RANK_CHARS.index(token))
            suits.add(None)
        else:
            card = _card(text, where)
            ranks.append(card.rank)
            suits.add(card.suit)
    if len(suits) != 1:
        raise MalformedInput(f"{where}: combo {quote(cards)} mixes suits (or suited and any-suit cards), "
                             "so it cannot occur in one rising run")
    ranks.sort()
    if any(b != a + 1 for a, b in itertools.pairwise(ranks)):
        raise MalformedInput(f"{where}: combo {quote(cards)} is not consecutive ranks, so it cannot occur "
                             "in one rising run")
    return tuple(ranks), suits.pop()


def _pot(data: object, index: int) -> Pot:
    where = f"board pot {index + 1}"
    if not isinstance(data, dict):
        raise MalformedInput(f"{where} must be a table")
    unknown = set(data) - {"name", "kind", "ante", "card", "cards"}
    if unknown:
        raise MalformedInput(f"{where}: unknown key(s) {quote(sorted(map(str, unknown)))}")
    kind = data.get("kind")
    if kind not in (CENTRE, POKER, CARD, COMBO):
        raise MalformedInput(f"{where}: kind must be centre, poker, card or combo, got {quote(kind)}")
    ante = _int(data.get("ante", 1), f"{where} ante", 0, MAX_ANTE)
    ranks: tuple[int, ...]
    suit: int | None
    if kind == CARD:
        if "card" not in data:
            raise MalformedInput(f'{where}: a card pot names its "card"')
        card = _card(data["card"], where)
        ranks, suit, pot_id = (card.rank,), card.suit, str(card)
    elif kind == COMBO:
        ranks, suit = _combo(data.get("cards"), where)
        pot_id = "-".join(RANK_CHARS[r] + ("" if suit is None else "shdc"[suit]) for r in ranks)
    else:
        if "card" in data or "cards" in data:
            raise MalformedInput(f"{where}: a {kind} pot names no cards")
        ranks, suit, pot_id = (), None, str(kind)
    name = text_line(data.get("name", pot_id), f"{where} name")
    return Pot(pot_id, name, str(kind), ante, ranks, suit)


def load_board(source: str | Path | dict[str, Any], *, trusted: bool = False) -> Board:
    """A board by built-in name or inline table, validated; a ``.toml`` path only when ``trusted``
    (the local user named it: see :func:`load_ruleset`)."""
    data, _ = _table_of(source, "board", trusted)
    unknown = set(data) - {"name", "title", "pots"}
    if unknown:
        raise MalformedInput(f"board: unknown key(s) {sorted(unknown)}")
    raw = data.get("pots")
    if not isinstance(raw, list) or not 0 < len(raw) <= MAX_POTS:
        raise MalformedInput(f'board: "pots" must be a list of 1 to {MAX_POTS} tables')
    pots = tuple(_pot(p, i) for i, p in enumerate(raw))
    ids = [p.id for p in pots]
    for pot_id in ids:
        if ids.count(pot_id) > 1:
            raise MalformedInput(f"board: pot {quote(pot_id)} appears twice")
    kinds = [p.kind for p in pots]
    if kinds.count(CENTRE) != 1:
        raise MalformedInput("board: needs exactly one centre pot (the first player out takes it)")
    if kinds.count(POKER) > 1:
        raise MalformedInput("board: at most one poker pot")
    name = text_line(data.get("name", "custom"), "board name")
    return Board(name, text_line(data.get("title", name), "board title"), pots)


def load_ruleset(source: str | Path | dict[str, Any] | Ruleset, *, trusted: bool = False) -> Ruleset:
    """A ruleset by built-in name or inline dict (as in a record or a client's message), validated.

    Input from outside may never name a file (R-NOTE-6): a ``.toml`` path -- for the ruleset or for
    its board -- is read only with ``trusted=True``, which only the local user's own command line
    passes.  A built-in's name is a plain name (``rummoli``), never a path in disguise.

    >>> load_ruleset("michigan").board.pots[-1].ante
    2
    >>> load_ruleset({"game": "stops", "board": "copp-clark", "colour": "red"})
    Traceback (most recent call last):
    ...
    rummoli.errors.MalformedInput: unknown ruleset option(s) ["colour"]
    >>> load_ruleset("../../../etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummoli.errors.MalformedInput: unknown ruleset "../../../etc/passwd" (built-ins: ...)
    """
    if isinstance(source, Ruleset):
        return source
    data, builtin = _table_of(source, "ruleset", trusted)
    if not isinstance(data, dict):
        raise MalformedInput("a ruleset is a table of options")
    unknown = set(data) - set(CHOICES) - set(NUMBERS) - set(_TEXT_KEYS)
    if unknown:
        raise MalformedInput(f"unknown ruleset option(s) {quote(sorted(map(str, unknown)))}")
    if data.get("game", GAME) != GAME:
        raise MalformedInput(f"not a stops ruleset: game = {quote(data.get('game'))}")
    board_ref = data.get("board", "copp-clark")
    if not isinstance(board_ref, str | dict):
        raise MalformedInput('ruleset "board" must be a board name or a table')
    board = load_board(board_ref, trusted=trusted)
    options: dict[str, Any] = {}
    for key, allowed in CHOICES.items():
        value = data.get(key, allowed[0])
        if not isinstance(value, str) or value not in allowed:
            raise MalformedInput(f"ruleset option {quote(key)} cannot be {quote(value)} (one of: {', '.join(allowed)})")
        options[key] = value
    for key, (default, low, high) in NUMBERS.items():
        options[key] = _int(data.get(key, default), f"ruleset option {quote(key)}", low, high)
    if options["min_players"] > options["max_players"]:
        raise MalformedInput("ruleset: min_players is above max_players")
    name = text_line(data.get("name", "custom"), "ruleset name")
    title = text_line(data.get("title", name), "ruleset title")
    rules = Ruleset(name=name, title=title, board=board, builtin=builtin, **options)
    ante = rules.ante_per_seat() * (2 if rules.dealer_ante == "double" else 1)
    if rules.starting_chips < ante:
        raise MalformedInput(f"ruleset: starting_chips ({rules.starting_chips}) is below one hand's ante "
                             f"({ante}{' for the dealer' if rules.dealer_ante == 'double' else ''}): "
                             "nobody could play a hand", "R-ANTE-1")
    return rules
