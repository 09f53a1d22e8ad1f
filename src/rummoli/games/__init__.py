"""Every game family the program plays, one object each: ask it for anything that differs between families.

A family (:class:`~rummoli.games.family.Family`) loads its rulesets, reads its actions, deals and keeps its
evenings, replays its records, steps a record for a replay, describes its rulesets for the lobby and makes
its bots.  The table, the terminal, the simulation lab, the records and the server ask a family, found by
name or from a ruleset (:func:`family_of`), and never compare a family's name themselves: a new family is one
more object here, as Poch was.

>>> family_of("gin-rummy").name, family_of({"game": "stops", "board": "michigan"}).unit
('rummy', 'chips')
>>> [f.name for f in FAMILIES.values()]
['stops', 'rummy', 'poch']
"""

from rummoli.games.family import Family
from rummoli.games.registry import FAMILIES, family, family_of, game_of
from rummoli.games.replays import default_players, replay, replay_evening, replay_hand, seat_range

__all__ = [
    "FAMILIES",
    "Family",
    "default_players",
    "family",
    "family_of",
    "game_of",
    "replay",
    "replay_evening",
    "replay_hand",
    "seat_range",
]
