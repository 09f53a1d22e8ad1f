"""The oracle the browser tests hold the page to (tests/web/expected.py) agrees with the engine's own settlement
where the two are worked out differently: a Knock or Gin hand that ended blocked has no count in its end event,
and its deadwood is each hand arranged as well as it goes (R-GIN-4), not every card it holds. (A person playing
two hands of Gin through the page met one: the page showed 15 and 25, and the oracle's 30 and 34 were wrong.)"""

from __future__ import annotations

from expected import hand_figures

from rummoli.games import replay
from rummoli.rummy import random_hand_record, replay_hand
from rummoli.rummy.result import hand_result


def test_a_blocked_knock_or_gin_hands_deadwood_is_its_arranged_count() -> None:
    checked = 0
    for ruleset, players in (("gin-rummy", 2), ("knock-rummy", 3)):
        for k in range(60):
            record = random_hand_record(ruleset, players, f"blocked-{k}")
            end = next(e for e in replay(record)["events"] if e["type"] == "end")
            if end.get("counts") is not None:
                continue
            evening = {"players": record["players"], "hands": [record]}
            figures = hand_figures(evening, 1)
            settled = hand_result(replay_hand(record))["hands"]
            assert [figures[("deadwood", str(seat))] for seat in range(players)] == \
                [str(hand["count"]) for hand in settled], (ruleset, k)
            checked += 1
    assert checked >= 10, checked
