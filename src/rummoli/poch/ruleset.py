"""Poch rulesets as data (docs/rules-poch.md): the board's pools and every option where the sources differ.

>>> rules = load_ruleset("poch")
>>> [p.id for p in rules.pools][:3], rules.deal, rules.run_top
(['A', 'K', 'Q'], 'all', 'ace')
>>> load_ruleset("poch-hoyle").vie
'no_raise'
>>> load_ruleset({"game": "poch", "vie": "shout"})
Traceback (most recent call last):
...
rummoli.errors.MalformedInput: Poch option "vie" cannot be "shout" (one of: raise, no_raise)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rummoli.datafiles import read_builtin, read_toml
from rummoli.errors import MalformedInput, quote
from rummoli.limits import MAX_ANTE, MAX_BET, MAX_DESCRIPTION, MAX_START_CHIPS, text_line

GAME: Final = "poch"
BUILTIN_RULESETS: Final = ("poch", "poch-hoyle")

#: Each option and its values, the default first (R-PO-* name which source each follows).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "deal": ("all", "packets"),                 # R-PO-2: every card one at a time / 3+2 packets and a stock
    "sequence": ("trump_789", "best_run"),      # R-PO-5: 7-8-9 of trumps / the best run in any suit
    "opener": ("any", "set_holder"),            # R-PO-6: who may open the vying
    "vie": ("raise", "no_raise"),               # R-PO-7: raising (nachpochen) or one bet and calls
    "first_lead": ("poch_winner", "eldest"),    # R-PO-10: who leads first in the play
    "run_top": ("ace", "king"),                 # R-PO-11: where a run ends
}
#: Whole-number options: (default, least, most).
NUMBERS: Final[dict[str, tuple[int, int, int]]] = {
    "min_players": (3, 3, 6),
    "max_players": (6, 3, 6),
    "starting_chips": (100, 1, MAX_START_CHIPS),
    "max_bet": (10, 1, MAX_BET),
    "max_raises": (3, 0, 20),
}
#: What a pool pays for (R-PO-4, R-PO-5, R-PO-9, R-PO-12): a trump honour, the marriage, the sequence,
#: the vying, or the first out.
POOL_KINDS: Final = ("A", "K", "Q", "J", "T", "marriage", "sequence", "vie", "out")
#: The rank index (rummoli.cards: 0 is the two) of each honour pool's trump.
HONOUR_RANK: Final = {"A": 12, "K": 11, "Q": 10, "J": 9, "T": 8}
_TEXT: Final = ("game", "name", "title", "pools", "description")


@dataclass(frozen=True, slots=True)
class Pool:
    """One place on the board: its id (records name it), its name, what wins it, and each player's ante."""

    id: str
    name: str
    kind: str
    ante: int


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    title: str
    builtin: bool
    pools: tuple[Pool, ...]
    deal: str
    sequence: str
    opener: str
    vie: str
    first_lead: str
    run_top: str
    min_players: int
    max_players: int
    starting_chips: int
    max_bet: int
    max_raises: int

    def reference(self) -> str | dict[str, Any]:
        """How a record names it: a built-in by name, anything else inline."""
        if self.builtin:
            return self.name
        out: dict[str, Any] = {"game": GAME, "name": self.name, "title": self.title}
        out.update({key: getattr(self, key) for key in (*CHOICES, *NUMBERS)})
        out["pools"] = [{"id": p.id, "name": p.name, "kind": p.kind, "ante": p.ante} for p in self.pools]
        return out

    def ante_per_seat(self) -> int:
        return sum(p.ante for p in self.pools)

    def pool_of(self, kind: str) -> int:
        """The index of the first pool of ``kind``, or -1."""
        return next((j for j, p in enumerate(self.pools) if p.kind == kind), -1)


def _whole(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedInput(f"{where} must be a whole number from {low} to {high:,}, got {quote(value)}")
    return value


def _pools(data: object) -> tuple[Pool, ...]:
    if not isinstance(data, list) or not 1 <= len(data) <= len(POOL_KINDS):
        raise MalformedInput(f'Poch "pools" lists 1 to {len(POOL_KINDS)} pools')
    pools = []
    for entry in data:
        if not isinstance(entry, dict) or set(entry) - {"id", "name", "kind", "ante"}:
            raise MalformedInput(f"a Poch pool is {{id, name, kind, ante}}, got {quote(entry)}")
        kind = entry.get("kind")
        if kind not in POOL_KINDS:
            raise MalformedInput(f"Poch pool kind {quote(kind)} is not one of {', '.join(POOL_KINDS)}")
        pools.append(Pool(text_line(entry.get("id"), "a pool's id", shortest=1),
                          text_line(entry.get("name"), "a pool's name", shortest=1),
                          str(kind), _whole(entry.get("ante", 1), "a pool's ante", 0, MAX_ANTE)))
    if len({p.id for p in pools}) < len(pools) or len({p.kind for p in pools}) < len(pools):
        raise MalformedInput("Poch pools need distinct ids and distinct kinds")
    return tuple(pools)


def load_ruleset(source: str | Path | dict[str, Any] | Ruleset, *, trusted: bool = False) -> Ruleset:
    """A Poch ruleset by built-in name or inline table (a ``.toml`` file only with ``trusted``, R-NOTE-6)."""
    if isinstance(source, Ruleset):
        return source
    builtin = False
    if isinstance(source, dict):
        data: Any = source
    elif isinstance(source, Path) or (isinstance(source, str) and source.endswith(".toml")):
        if not trusted:
            raise MalformedInput(f"a ruleset from outside is a built-in name or an inline table, never a file: "
                                 f"{quote(str(source))}", "R-NOTE-6")
        data = read_toml(Path(source), f"ruleset file {quote(str(source))}")
    else:
        data = read_builtin(source) if isinstance(source, str) else None
        if data is None or data.get("game") != GAME:
            raise MalformedInput(f"unknown Poch ruleset {quote(source)} (built-ins: {', '.join(BUILTIN_RULESETS)})")
        builtin = True
    if not isinstance(data, dict):
        raise MalformedInput("a ruleset is a table of options")
    unknown = set(data) - set(CHOICES) - set(NUMBERS) - set(_TEXT)
    if unknown:
        raise MalformedInput(f"unknown Poch option(s) {quote(sorted(map(str, unknown)))}")
    if data.get("game", GAME) != GAME:
        raise MalformedInput(f"not a Poch ruleset: game = {quote(data.get('game'))}")
    options: dict[str, Any] = {}
    for key, allowed in CHOICES.items():
        value = data.get(key, allowed[0])
        if value not in allowed:
            raise MalformedInput(f"Poch option {quote(key)} cannot be {quote(value)} (one of: {', '.join(allowed)})")
        options[key] = value
    for key, (default, low, high) in NUMBERS.items():
        options[key] = _whole(data.get(key, default), f"Poch option {quote(key)}", low, high)
    if options["min_players"] > options["max_players"]:
        raise MalformedInput("Poch ruleset: min_players is above max_players")
    name = text_line(data.get("name", "custom"), "ruleset name", shortest=1)
    text_line(data.get("description", ""), "ruleset description", MAX_DESCRIPTION)  # read, never shown
    rules = Ruleset(name=name, title=text_line(data.get("title", name), "ruleset title", shortest=1), builtin=builtin,
                    pools=_pools(data.get("pools", DEFAULT_POOLS)), **options)
    if rules.starting_chips < rules.ante_per_seat():
        raise MalformedInput(f"Poch ruleset: starting_chips ({rules.starting_chips}) is below one hand's ante "
                             f"({rules.ante_per_seat()})", "R-PO-1")
    return rules


#: The modern board's nine places, for an inline ruleset that names none.
DEFAULT_POOLS: Final = [{"id": k, "name": n, "kind": k, "ante": 1} for k, n in
                        (("A", "Ace"), ("K", "King"), ("Q", "Queen"), ("J", "Jack"), ("T", "Ten"))] + [
    {"id": "marriage", "name": "Marriage", "kind": "marriage", "ante": 1},
    {"id": "sequence", "name": "Sequence", "kind": "sequence", "ante": 1},
    {"id": "pocher", "name": "Pocher", "kind": "vie", "ante": 1},
    {"id": "centre", "name": "Centre", "kind": "out", "ante": 1}]
