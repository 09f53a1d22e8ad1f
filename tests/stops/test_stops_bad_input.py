"""Every illegal action type, tried at every phase, is refused and changes nothing (R-ERR-1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from stops_helpers import act, make_hand, offered, rules

from rummoli.cards import CARDS
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.stops import Action, Hand
from rummoli.stops.actions import KINDS


def snapshot(hand: Hand) -> dict[str, Any]:
    out: dict[str, Any] = {}
    hand.view(None)  # brings the event stream and the views' caches up to date: reading changes no state
    for name in Hand.__slots__:
        value = getattr(hand, name)
        out[name] = value.copy() if isinstance(value, list | dict) else value
    out["view"] = hand.view(None)
    return out


def candidates(n: int) -> list[Action]:
    out: list[Action] = []
    for kind, field in KINDS.items():
        for seat in (-1, *range(n), n):
            if field == "card":
                out.extend(Action(seat, kind, card) for card in CARDS)
                out.append(Action(seat, kind))
            elif field == "amount":
                out.extend(Action(seat, kind, None, a) for a in (None, -1, 0, 1, 2, 5, 10, 11, 10_000))
            else:
                out.append(Action(seat, kind))
                out.append(Action(seat, kind, None, 3))
                out.append(Action(seat, kind, CARDS[0]))
    return out


def widow_phase() -> Hand:
    return make_hand(rules(widow="swap_or_auction", poker="before_play"))


def auction_phase() -> Hand:
    h = widow_phase()
    h.apply(act(0, "keep"))
    h.apply(act(1, "bid", amount=3))
    return h


def betting_phase() -> Hand:
    h = make_hand(rules(poker="before_play", opening_lead="poker_winner"))
    h.apply(act(1, "bet", amount=4))
    return h


def lead_phase() -> Hand:
    return make_hand(rules(), hands={1: "2s 2h 3c"})


def restart_phase() -> Hand:
    return make_hand(rules(), hands={1: "2c 3c 4c", 2: "5c", 3: "6c 7c"}, widow="8c")


def claim_phase() -> Hand:
    return make_hand(rules(claim="announce"), hands={1: "2d 3d 8d Qd", 2: "4d 5d 6d 7d 9d Td", 3: "Jd"})


def over_phase() -> Hand:
    return make_hand(rules(), hands={1: "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc"})


PHASES: dict[str, Callable[[], Hand]] = {
    "widow": widow_phase, "auction": auction_phase, "poker": betting_phase, "lead": lead_phase,
    "restart": restart_phase, "claim": claim_phase, "over": over_phase,
}


@pytest.mark.parametrize("phase", PHASES)
def test_R_ERR_1_illegal_actions_are_refused_naming_a_rule_and_change_nothing(phase: str) -> None:
    hand = PHASES[phase]()
    legal = hand.legal_actions()
    assert (phase == "over") == (not legal)
    before = snapshot(hand)
    refused = 0
    for action in candidates(hand.n):
        if offered(action, legal):
            assert hand.can(action)
            continue
        assert not hand.can(action)
        with pytest.raises((IllegalAction, MalformedInput)) as info:
            hand.apply(action)
        if isinstance(info.value, IllegalAction):
            assert info.value.rule.startswith("R-") and str(info.value).startswith(info.value.rule)
        refused += 1
    assert snapshot(hand) == before
    assert refused > 500


def test_R_ERR_1_not_an_action_at_all() -> None:
    hand = lead_phase()
    with pytest.raises(MalformedInput):
        hand.verify("lead 2s")  # type: ignore[arg-type]
    with pytest.raises(MalformedInput):
        hand.verify(Action(1, "jump"))
