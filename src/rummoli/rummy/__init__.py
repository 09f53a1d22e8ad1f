"""The Rummy family: straight Rummy and its variants, 500 Rum, Knock Rummy and Gin (docs/rules.md §4).

* :mod:`~rummoli.rummy.ruleset` -- rulesets as data (:func:`load_ruleset`);
* :mod:`~rummoli.rummy.actions` -- :class:`Action`, the R-NOTE-3 decisions;
* :mod:`~rummoli.rummy.hand` -- :class:`RummyHand`, one hand as a state machine (legality, forced draws);
* :mod:`~rummoli.rummy.melds` -- melds, lay-offs and deadwood on card masks (:class:`MeldTable`);
* :mod:`~rummoli.rummy.settle` -- how a hand ends and what it scores;
* :mod:`~rummoli.rummy.base` -- the move codes and fields those parts share;
* :mod:`~rummoli.rummy.views` -- what a hand shows: events, records, each seat's view (R-VIEW-1);
* :mod:`~rummoli.rummy.search_path` -- the fast path a searching bot plays a hand by;
* :mod:`~rummoli.rummy.session` -- :class:`RummyGame`, a game of hands to the target score;
* :mod:`~rummoli.rummy.replay` -- hand records: :func:`replay_record`, :func:`random_hand_record`.

>>> from rummoli.rummy import load_ruleset, RummyGame
>>> game = RummyGame("rummy", ["Ann", "Bob"], seed=1)
>>> hand = game.deal()
>>> [a.to_json() for a in hand.legal_actions()]
[{'seat': 1, 'action': 'draw', 'from': 'stock'}, {'seat': 1, 'action': 'draw', 'from': 'discard'}]
"""

from rummoli.rummy.actions import Action
from rummoli.rummy.hand import RummyHand
from rummoli.rummy.melds import MeldTable, meld_table, rank_value
from rummoli.rummy.replay import hand_from_record, random_hand, random_hand_record, replay_hand, replay_record
from rummoli.rummy.ruleset import Ruleset, builtin_names, load_ruleset
from rummoli.rummy.session import RummyGame, deal_cards

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
    "rank_value",
    "replay_hand",
    "replay_record",
]
