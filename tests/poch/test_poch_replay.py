"""Poch records replayed: an evening played at a table replays hand by hand through ``rummoli replay`` (JSON
and in words), a replay steps every forced card as a step of its own, and a broken record is one line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.games import family_of, replay
from rummoli.table import Seat, Table

runner = CliRunner()


def evening(ruleset: str) -> Table:
    table = Table(ruleset, [Seat("Ann", "normal"), Seat("Bob", "easy"), Seat("Cy", "random"), Seat("Dee", "hard")],
                  seed=f"replay-{ruleset}", hands=3, samples=4)
    while not table.over:
        if table.hand_over:
            table.next_hand()
        else:
            table.play_bot()
    return table


def test_a_poch_evening_replays_hand_by_hand_to_its_chips(tmp_path: Path) -> None:
    for ruleset in ("poch", "poch-hoyle"):
        table = evening(ruleset)
        record = table.evening_record()
        out = replay(record)
        assert out["hands"] == 3
        for hand_record, result in zip(record["hands"], out["results"], strict=True):
            assert sum(result["chips"]) + sum(result["pots"].values()) == sum(hand_record["chips"]) + sum(
                hand_record.get("pots", {}).values())
        path = tmp_path / f"{ruleset}.json"
        path.write_text(json.dumps(record))
        told = runner.invoke(app, ["replay", str(path), "--summary"])
        assert told.exit_code == 0, told.output
        assert "Pools:" in told.output and "Vying:" in told.output and "Play:" in told.output
        hand = tmp_path / "hand.json"
        hand.write_text(json.dumps(record["hands"][0]))
        shown = runner.invoke(app, ["replay", str(hand)])
        assert shown.exit_code == 0 and json.loads(shown.output)["chips"] == out["results"][0]["chips"]


def test_a_poch_replay_steps_each_card_of_a_run() -> None:
    table = evening("poch")
    record = table.evening_record()["hands"][0]
    seqs = [hand.seq for hand in family_of("poch").steps(record)]
    laid = sum(1 for e in replay(record)["events"] if e["type"] == "action" and e["action"] in ("lead", "play"))
    chosen = sum(1 for a in record["actions"] if a["action"] in ("lead",))
    assert len(seqs) == 1 + len(record["actions"]) + laid - chosen  # every forced card a step of its own
    assert seqs == sorted(seqs)


def test_at_the_tables_pace_each_forced_card_is_a_move_of_its_own() -> None:
    table = Table("poch", [Seat("Ann", "easy"), Seat("Bob", "easy"), Seat("Cy", "easy")], seed="paced", hands=1,
                  auto=False)
    forced = 0
    while not table.hand_over:
        if table.forced_due():
            action = table.hand.forced_action()
            assert action is not None and table.hand.forced_shown()
            before = len([e for e in table.hand.events() if e["type"] == "action"])
            table.step()
            assert len([e for e in table.hand.events() if e["type"] == "action"]) == before + 1
            forced += 1
        else:
            table.play_bot()
    assert forced > 5


def test_a_broken_poch_record_is_one_line(tmp_path: Path) -> None:
    table = evening("poch-hoyle")
    record = table.evening_record()["hands"][0]
    record["actions"][0] = {"seat": record["actions"][0]["seat"], "action": "lead", "card": "As"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    refused = runner.invoke(app, ["replay", str(path)])
    assert refused.exit_code != 0
    assert len(refused.output.strip().splitlines()) == 1 and "action 0" in refused.output
    assert "Traceback" not in refused.output


def test_a_set_shown_at_the_vying_is_named_in_words_as_poker_hands_are() -> None:
    from rummoli.poch.words import set_name

    # A QA pass read "three 8s" beside "a pair of aces" in the same summary.
    assert set_name(["8s", "8d", "8c"]) == "three eights"
    assert set_name(["Ts", "Td"]) == "a pair of tens"
    assert set_name(["6h", "6c", "6d", "6s"]) == "four sixes"
    assert set_name(["Ah", "Ac"]) == "a pair of aces"
