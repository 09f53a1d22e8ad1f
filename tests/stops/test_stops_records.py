"""Hand records, replay and the command line (docs/records.md), and ruleset files (§2.5–2.6)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummoli.errors import MalformedInput
from rummoli.games import replay
from rummoli.records import RecordError, read_record
from rummoli.stops import BUILTIN_RULESETS, load_board, load_ruleset, random_hand_record, replay_record
from rummoli.stops.replay import random_hand

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).resolve().parents[2]


def mi6() -> dict[str, Any]:
    return read_record(RECORDS / "michigan-R-MI-6.json")


@pytest.mark.parametrize("name", BUILTIN_RULESETS)
def test_R_NOTE_2_a_played_hand_replays_to_the_same_ledger(name: str) -> None:
    import random

    for seed in range(5):
        hand = random_hand(name, 3 + seed, random.Random(seed))
        result = replay_record(json.loads(json.dumps(hand.record())))
        assert result == {"chips": hand.chips, "pots": hand.pot_balances(), "events": hand.events()}
        with_forced = replay_record(hand.record(forced=True))
        assert with_forced == result


def test_R_NOTE_3_action_json_round_trips() -> None:
    from rummoli.stops import Action

    for data in ({"seat": 1, "action": "raise", "amount": 2}, {"seat": 0, "action": "claim"},
                 {"seat": 3, "action": "play", "card": "Qd"}):
        assert Action.from_json(data).to_json() == data
    with pytest.raises(MalformedInput):
        Action.from_json({"seat": 1, "action": "bid"})
    with pytest.raises(MalformedInput):
        Action.from_json({"seat": 1, "action": "lead", "card": "1x"})


def test_R_NOTE_3_an_object_read_before_reads_the_same_and_a_look_alike_is_read_afresh() -> None:
    """Action.from_json keeps what it read by the object's items and their types: what it refuses stays refused."""
    from rummoli.stops import Action
    from rummoli.stops.actions import READ_KEPT

    bid = {"seat": 1, "action": "bid", "amount": 3}
    assert Action.from_json(dict(bid)) == Action.from_json(dict(bid)) == Action(1, "bid", None, 3)
    refused: list[dict[str, Any]] = [{"seat": True, "action": "bid", "amount": 3}, {**bid, "amount": 3.0},
                                     {**bid, "amount": True}, {**bid, "extra": [1]}, {**bid, "card": "Qd"}]
    for data in refused:
        with pytest.raises(MalformedInput) as info:
            Action.from_json(data)
        assert str(info.value).startswith("R-NOTE-3")
    for amount in range(READ_KEPT + 5):  # it forgets and starts afresh, reading every one right
        assert Action.from_json({**bid, "amount": amount}).amount == amount


def expect_error(record: dict[str, Any], index: int | None, rule: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.index == index and info.value.rule == rule, str(info.value)
    return info.value


def test_R_NOTE_4_an_illegal_action_names_its_index_and_rule() -> None:
    bad = mi6()
    bad["actions"][1]["card"] = "7c"  # D must lead the lowest card of the chosen suit (4c)
    expect_error(bad, 1, "R-PLAY-5")
    first = mi6()
    first["actions"][0] = {"seat": 1, "action": "lead", "card": "3h"}
    expect_error(first, 0, "R-PLAY-2")


def test_R_NOTE_4_malformed_records() -> None:
    r = mi6()
    r["actions"].append({"seat": 0, "action": "lead", "card": "Tc"})
    expect_error(r, 4, "R-END-1")
    r = mi6()
    r["actions"] = r["actions"][:3]
    expect_error(r, 3, "R-NOTE-3")
    r = mi6()
    r["actions"][2] = {"seat": 3, "action": "jump"}
    expect_error(r, 2, "R-NOTE-3")
    r = mi6()
    r["deal"]["hands"][0].append(r["deal"]["widow"].pop())
    expect_error(r, None, "R-DEAL-1")
    r = mi6()
    r["deal"]["widow"][0] = "Zz"
    expect_error(r, None, "R-NOTE-1")
    r = mi6()
    r["chips"] = [100, 100, 100, 3]
    expect_error(r, None, "R-ANTE-1")
    r = mi6()
    r["ruleset"] = {"game": "stops", "board": "michigan", "widow": "sometimes"}
    expect_error(r, None, "R-NOTE-2")


def test_records_accept_inline_rulesets_and_forced_actions() -> None:
    r = mi6()
    r["ruleset"] = load_ruleset("michigan").to_dict()
    assert replay(r) == replay(mi6())


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummoli.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, input=stdin, timeout=60)


def test_cli_hand_and_replay(tmp_path: Path) -> None:
    done = run_cli("hand", "--ruleset", "michigan", "--players", "5", "--seed", "7")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record == random_hand_record("michigan", 5, "7")
    path = tmp_path / "hand.json"
    path.write_text(done.stdout, encoding="utf-8")
    replayed = run_cli("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == replay_record(record)


def test_cli_hand_with_a_ruleset_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('game = "stops"\nname = "house"\nboard = "tripoley"\nclaim = "announce"\n'
                    'cannot_lead = "pay_and_pass"\n', encoding="utf-8")
    done = run_cli("hand", "--ruleset", str(path), "--players", "3", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ruleset"]["claim"] == "announce"


def test_cli_replay_of_a_bad_record_fails_naming_index_and_rule(tmp_path: Path) -> None:
    bad = copy.deepcopy(mi6())
    bad["actions"][1]["card"] = "7c"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode != 0
    assert "action 1" in done.stderr and "R-PLAY-5" in done.stderr


@pytest.mark.parametrize(("change", "problem"), [
    ({"colour": "red"}, "unknown ruleset option"),
    ({"restart": "sideways"}, 'cannot be "sideways"'),
    ({"max_bet": 0}, "at least 1"),
    ({"min_players": 6, "max_players": 4}, "min_players"),
    ({"board": {"pots": [{"kind": "centre", "ante": -1}]}}, "at least 0"),
    ({"board": {"pots": [{"kind": "centre"}, {"kind": "card", "card": "Xq"}]}}, "unknown card"),
    ({"board": {"pots": [{"kind": "centre"}, {"kind": "combo", "cards": ["Kd", "Ah"]}]}}, "one rising run"),
    ({"board": {"pots": [{"kind": "centre"}, {"kind": "combo", "cards": ["7s", "9s"]}]}}, "one rising run"),
    ({"board": {"pots": [{"kind": "centre"}, {"kind": "card", "card": "Ts"},
                         {"kind": "card", "card": "10s"}]}}, "twice"),
    ({"board": {"pots": [{"kind": "poker"}]}}, "one centre pot"),
    ({"board": {"pots": [{"kind": "centre", "colour": 1}]}}, "unknown key"),
    ({"board": "no-such-board"}, "unknown board"),
])
def test_ruleset_validation_names_the_problem(change: dict[str, Any], problem: str) -> None:
    with pytest.raises(MalformedInput, match=problem):
        load_ruleset({"game": "stops", **change})


def test_user_ruleset_and_board_files_load(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text('name = "mine"\n[[pots]]\nkind = "centre"\nante = 3\n[[pots]]\nkind = "combo"\n'
                     'cards = ["Qh", "Kh", "Ah"]\n', encoding="utf-8")
    assert [p.id for p in load_board(board, trusted=True).pots] == ["centre", "Qh-Kh-Ah"]
    rules = tmp_path / "rules.toml"
    rules.write_text(f'game = "stops"\nboard = "{board}"\ndealer_ante = "double"\n', encoding="utf-8")
    loaded = load_ruleset(rules, trusted=True)
    assert loaded.dealer_ante == "double" and load_ruleset(loaded.to_dict()) == loaded
    for name in BUILTIN_RULESETS:
        assert load_ruleset(name).reference() == name
