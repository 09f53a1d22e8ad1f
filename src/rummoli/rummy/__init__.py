"""The Rummy family: straight Rummy and its variants, 500 Rum and Knock Rummy (docs/rules.md §4).

>>> from rummoli.rummy import load_ruleset, RummyGame
>>> game = RummyGame("rummy", ["Ann", "Bob"], seed=1)
>>> hand = game.deal()
>>> [a.to_json() for a in hand.legal_actions()]
[{'seat': 1, 'action': 'draw', 'from': 'stock'}, {'seat': 1, 'action': 'draw', 'from': 'discard'}]
"""

from rummoli.rummy.actions import Action
from rummoli.rummy.game import RummyGame, deal_cards
from rummoli.rummy.hand import RummyHand
from rummoli.rummy.melds import MeldTable, meld_table
from rummoli.rummy.play import hand_from_record, random_hand, random_hand_record, replay_hand, replay_record
from rummoli.rummy.ruleset import Ruleset, builtin_names, load_ruleset

__all__ = [
    "Action",
    "MeldTable",
    "Ruleset",
    "RummyGame",
    "RummyHand",
    "builtin_names",
    "deal_cards",
    "hand_from_record",
    "load_ruleset",
    "meld_table",
    "random_hand",
    "random_hand_record",
    "replay_hand",
    "replay_record",
]
