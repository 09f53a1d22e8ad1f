"""The Poch engine: the old German game of the stops family, with its board of pools (docs/rules-poch.md).

* :mod:`~rummoli.poch.ruleset` -- rulesets as data (:func:`load_ruleset`): the pools and the options;
* :mod:`~rummoli.poch.cards` -- the 32-card pack, the deal, sets, runs and the order of the play;
* :mod:`~rummoli.poch.hand` -- :class:`PochHand`, one hand as a state machine (legality in one function);
* :mod:`~rummoli.poch.views` -- what a hand shows: events, records, each seat's view and stream;
* :mod:`~rummoli.poch.words`, :mod:`~rummoli.poch.result` -- the hand in sentences, its result;
* :mod:`~rummoli.poch.replay` -- hand records; :mod:`~rummoli.poch.session` -- :class:`PochEvening`.

The actions are the stops engine's (:class:`rummoli.stops.Action`): ``check`` (pass), ``bet`` (knock),
``call`` (hold), ``raise`` (knock again), ``fold``, ``lead`` and ``play``.
"""

from rummoli.poch.hand import PochHand
from rummoli.poch.replay import hand_from_record, random_hand, random_hand_record, replay_hand, replay_record
from rummoli.poch.ruleset import BUILTIN_RULESETS, Pool, Ruleset, load_ruleset
from rummoli.poch.session import PochEvening
from rummoli.stops.actions import Action, AmountRange

__all__ = [
    "BUILTIN_RULESETS",
    "Action",
    "AmountRange",
    "PochEvening",
    "PochHand",
    "Pool",
    "Ruleset",
    "hand_from_record",
    "load_ruleset",
    "random_hand",
    "random_hand_record",
    "replay_hand",
    "replay_record",
]
