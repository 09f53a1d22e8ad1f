"""Amounts as ranges: a bid, bet or raise is ONE legal action with ``min`` and ``max`` (issue 11)."""

from __future__ import annotations

import json

from stops_helpers import act, make_hand, rules

from rummoli.stops import AmountRange

POKER = {"poker": "before_play", "board": "copp-clark", "max_bet": 1_000_000}


def test_a_million_chips_make_a_small_view_with_one_range_per_amount_kind() -> None:
    h = make_hand(rules(widow="swap_or_auction"), chips=[1_000_000] * 4)
    h.apply(act(0, "keep"))
    legal = h.legal_actions(1)
    bids = [a for a in legal if isinstance(a, AmountRange)]
    assert [(a.kind, a.min, a.max) for a in bids] == [("bid", 1, h.chips[1])]
    view = h.view(1)
    assert {"seat": 1, "action": "bid", "min": 1, "max": h.chips[1]} in view["legal_actions"]
    assert all("amount" not in a for a in view["legal_actions"])
    assert len(json.dumps(view)) < 20_000


def test_a_million_chip_poker_round_offers_one_bet_and_one_raise() -> None:
    h = make_hand(rules(**POKER), chips=[1_000_000] * 4)
    stack = min(h.chips)  # every seat's stack after the ante: the cap of the round (R-POKER-1)
    bet = [a.to_json() for a in h.legal_actions(1) if isinstance(a, AmountRange)]
    assert bet == [{"seat": 1, "action": "bet", "min": 1, "max": stack}]
    assert len(json.dumps(h.view(1))) < 20_000
    h.apply(act(1, "bet", amount=10))
    raises = [a.to_json() for a in h.legal_actions(2) if isinstance(a, AmountRange)]
    assert raises == [{"seat": 2, "action": "raise", "min": 1, "max": stack - 10}]
    assert h.can(act(2, "raise", amount=raises[0]["max"])) and not h.can(act(2, "raise", amount=raises[0]["max"] + 1))
