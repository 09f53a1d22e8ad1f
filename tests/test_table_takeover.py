"""A bot taking a seat over in the middle of a hand (what the server does for an absent player): the table's
numbering of events goes on without a gap, for every seat, and survives a snapshot."""

from __future__ import annotations

import random

import pytest

from rummoli.table import Seat, Table


def pick(view: dict, rng: random.Random) -> dict:
    action = dict(rng.choice(view["hand"]["legal_actions"]))
    if "min" in action:
        action["amount"] = rng.randint(action.pop("min"), action.pop("max"))
    return action


@pytest.mark.parametrize("ruleset", ["rummoli", "rummy"])
def test_seat_events_mid_hand_keep_one_numbering(ruleset: str) -> None:
    table = Table(ruleset, [Seat("Ann"), Seat("Bob"), Seat("Cy", bot="random")], seed=f"takeover-{ruleset}",
                  hands=2, chips=40)
    rng = random.Random(7)
    takeovers = 0
    while not table.over:
        if table.hand_over:
            table.next_hand()
        elif not table.step():
            seat = table.to_act()[0]
            if rng.random() < 0.15:  # the person goes away, or comes back, in the middle of the hand
                table.set_bot(seat, "random")
                takeovers += 1
                continue
            table.act(seat, pick(table.view(seat), rng), seq=table.seq)
        for s in (0, 1):
            if table.bots[s] is not None and rng.random() < 0.3:
                table.set_bot(s, None)
    assert takeovers > 0
    for seat in (0, 1, 2, None):
        events = table.events_since(0, seat)
        assert [e["seq"] for e in events] == list(range(1, table.seq + 1))
        assert table.events_since(table.seq - 5, seat) == events[-5:]
    assert sum(e["type"] == "seat" for e in table.events_since(0, None)) >= takeovers
    again = Table.restore(table.snapshot())
    assert again.seq == table.seq
    for seat in (0, 1, 2, None):
        assert again.events_since(0, seat) == table.events_since(0, seat)
