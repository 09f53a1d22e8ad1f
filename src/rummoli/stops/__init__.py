"""The stops engine: Rummoli, Tripoley and Michigan (docs/rules.md §2, §3 and §5).

* :mod:`~rummoli.stops.ruleset` -- rulesets and boards as data (:func:`load_ruleset`);
* :mod:`~rummoli.stops.actions` -- :class:`Action`, the R-NOTE-3 decisions;
* :mod:`~rummoli.stops.hand` -- :class:`Hand`, one hand as a state machine (legality, forced actions);
* :mod:`~rummoli.stops.bidding` -- its ante, widow, auction and poker round;
* :mod:`~rummoli.stops.play` -- its play round and the end of the hand;
* :mod:`~rummoli.stops.base` -- the phases and fields those parts share;
* :mod:`~rummoli.stops.views` -- what a hand shows: events, records, each seat's view (R-VIEW-1);
* :mod:`~rummoli.stops.search_path` -- the fast path a searching bot plays a hand by;
* :mod:`~rummoli.stops.random_path` -- random decisions, the fast path of simulations and ``rummoli hand``;
* :mod:`~rummoli.stops.session` -- :class:`Session`, an evening of hands;
* :mod:`~rummoli.stops.replay` -- hand records: :func:`replay_record`, :func:`random_hand_record`.
"""

from rummoli.stops.actions import Action, AmountRange, Legal
from rummoli.stops.hand import Hand
from rummoli.stops.replay import (
    hand_from_record,
    random_hand,
    random_hand_record,
    replay_hand,
    replay_record,
)
from rummoli.stops.ruleset import BUILTIN_RULESETS, Board, Pot, Ruleset, load_board, load_ruleset
from rummoli.stops.session import Session

__all__ = [
    "BUILTIN_RULESETS",
    "Action",
    "AmountRange",
    "Board",
    "Hand",
    "Legal",
    "Pot",
    "Ruleset",
    "Session",
    "hand_from_record",
    "load_board",
    "load_ruleset",
    "random_hand",
    "random_hand_record",
    "replay_hand",
    "replay_record",
]
