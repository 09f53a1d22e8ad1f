"""Records (R-NOTE-2/3/4), views (R-VIEW-1) and rulesets as data for the Rummy engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rummy_helpers import act, deal, rules, throw_back_until_over, twenty_each
from typer.testing import CliRunner

from rummoli.cards import CARDS
from rummoli.cli import app
from rummoli.errors import MalformedInput
from rummoli.games import replay as replay_any
from rummoli.records import RecordError
from rummoli.rummy import builtin_names, load_ruleset, random_hand_record, replay_hand, replay_record


def test_R_NOTE_2_record_shape_with_stock_instead_of_widow() -> None:
    record = random_hand_record("rummy", 3, "shape")
    assert record["format"] == "rummoli-hand/1" and record["ruleset"] == "rummy"
    assert set(record["deal"]) == {"hands", "stock"} and record["chips"] == [0, 0, 0]
    assert sum(len(h) for h in record["deal"]["hands"]) + len(record["deal"]["stock"]) == 52
    assert record["pots"] == {}


@pytest.mark.parametrize("name", ["rummy", "500-rum", "knock-rummy", "boathouse-rummy", "block-rummy"])
def test_R_NOTE_4_records_replay_to_the_same_scores(name: str) -> None:
    for seed in range(5):
        record = random_hand_record(name, 2 + seed, f"s{seed}")
        hand = replay_hand(record)
        result = replay_any(json.loads(json.dumps(record)))
        assert result["chips"] == hand.deltas and result["pots"] == {}
        assert hand.record() == record


@pytest.mark.parametrize("name", builtin_names())
def test_R_NOTE_4_a_replay_without_state_marks_reaches_the_same_hand(name: str) -> None:
    """The search bots' worlds are replayed without the event stream's marks: every state on the way is the same,
    and an illegal action is refused just the same."""
    for seed in range(4):
        record = random_hand_record(name, 2 if name == "gin-rummy" else 2 + seed, f"unmarked-{seed}")
        for cut in (len(record["actions"]) // 3, len(record["actions"]) * 2 // 3, len(record["actions"])):
            part = {**record, "actions": record["actions"][:cut]}
            marked, unmarked = replay_hand(part), replay_hand(part, marks=False)
            for field in ("hands", "stock", "pile", "melds", "points", "deltas", "log", "phase", "turn"):
                assert getattr(unmarked, field) == getattr(marked, field), (name, seed, cut, field)
            assert unmarked.moves() == marked.moves() and unmarked.record() == marked.record()
        # Halfway through, a discard of a card another seat holds then: refused the same way, at the same action.
        k = len(record["actions"]) // 2
        seat = record["actions"][k]["seat"]
        other = replay_hand({**record, "actions": record["actions"][:k]}).hands[(seat + 1) % len(record["players"])]
        bad = json.loads(json.dumps(record))
        bad["actions"][k] = {"seat": seat, "action": "discard", "card": str(CARDS[other.bit_length() - 1])}
        refusals = []
        for marks in (True, False):
            with pytest.raises(RecordError) as refused:
                replay_hand(bad, marks=marks)
            refusals.append((refused.value.index, refused.value.rule, str(refused.value)))
        assert refusals[0] == refusals[1] and refusals[0][0] == k, refusals


def test_R_NOTE_3_forced_draws_may_be_omitted_or_written() -> None:
    hand = twenty_each()
    throw_back_until_over(hand)
    record = hand.record()
    written = dict(record, actions=[e for e in hand.history()])
    for e in written["actions"]:
        e.pop("forced", None)
        e.pop("type")  # an event's type is no part of an action (R-NOTE-3)
    assert len(written["actions"]) == len(record["actions"]) + 1
    assert replay_record(written)["events"] == replay_record(record)["events"]
    forced = [e for e in replay_record(record)["events"] if e.get("forced")]
    assert forced == [{"type": "action", "seat": 0, "action": "draw", "from": "stock", "forced": True}]


def test_R_NOTE_4_an_illegal_action_names_its_index_and_rule() -> None:
    record = random_hand_record("rummy", 2, "bad")
    record["actions"][1] = {"seat": record["actions"][1]["seat"], "action": "discard", "card": "As"}
    with pytest.raises(RecordError) as error:
        replay_record(record)
    assert error.value.index == 1 and error.value.rule == "R-RU-3"


def test_R_NOTE_4_malformed_records_are_refused() -> None:
    record = random_hand_record("rummy", 2, "bad")
    broken = dict(record, actions=[{"seat": 1, "action": "fly"}])
    with pytest.raises(RecordError, match="action 0: R-NOTE-3"):
        replay_record(broken)
    short = json.loads(json.dumps(record))
    short["deal"]["stock"].pop()
    with pytest.raises(RecordError, match=r"R-RU-1.*exactly once"):
        replay_record(short)
    after = dict(record, actions=[*record["actions"], record["actions"][-1]])
    with pytest.raises(RecordError, match="R-RU-5: the hand was already over"):  # it was blocked
        replay_record(after)


def test_cli_replay_works_on_a_rummy_record(tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(app, ["hand", "--ruleset", "rummy", "--players", "3", "--seed", "cli"])
    assert made.exit_code == 0, made.output
    path = tmp_path / "hand.json"
    path.write_text(made.stdout, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["chips"] == replay_record(json.loads(made.stdout))["chips"] and out["pots"] == {}
    record = json.loads(made.stdout)
    record["actions"][0]["from"] = "nowhere"
    path.write_text(json.dumps(record), encoding="utf-8")
    bad = runner.invoke(app, ["replay", str(path)])
    assert bad.exit_code == 1 and "action 0" in bad.stderr
    # A record cut short replays as far as it goes, but a summary tells only a finished hand: one line, not a crash
    record = json.loads(made.stdout)
    record["actions"] = record["actions"][:5]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0
    cut = runner.invoke(app, ["replay", str(path), "--summary"])
    assert cut.exit_code == 1 and cut.stdout == "", cut.output
    assert cut.stderr.count("\n") == 1 and "R-NOTE-3: the record ends before the hand does" in cut.stderr, cut.stderr


def test_R_VIEW_1_a_seat_sees_its_own_hand_and_no_other() -> None:
    hand = deal(rules(4), ["7s 7h 7d 2h", "2c 5c 9h Td"], "Kc 4d", dealer=1)
    view = hand.view(0)
    assert set(view["hand"]) == {"7s", "7h", "7d", "2h"}
    assert view["legal_actions"] and hand.view(1)["legal_actions"] == []
    text = json.dumps(hand.view(1))
    assert "7s" not in text and "4d" not in text  # another hand, the stock
    act(hand, 0, "draw", "stock")
    assert "4d" not in json.dumps(hand.view(1)) and "4d" not in json.dumps(hand.view(None))
    assert hand.view(0, history=True)["drawn"] == [[0, "4d"]]
    assert hand.view(1, history=True)["history"] == [{"type": "action", "seat": 0, "action": "draw", "from": "stock"}]


def test_rulesets_are_data_and_bad_ones_are_refused(tmp_path: Path) -> None:
    assert {"rummy", "500-rum", "knock-rummy"} <= set(builtin_names())
    for name in builtin_names():
        ruleset = load_ruleset(name)
        assert load_ruleset(ruleset.to_dict()) == ruleset
    path = tmp_path / "mine.toml"
    path.write_text('game = "rummy"\nname = "mine"\naces = "around"\nboathouse = true\n', encoding="utf-8")
    assert load_ruleset(str(path), trusted=True).boathouse is True
    for bad, message in (
        ({"game": "stops"}, '"game" must be "rummy"'),
        ({"game": "rummy", "aces": "up"}, '"aces" must be one of'),
        ({"game": "rummy", "target": 0}, '"target" must be a whole number'),
        ({"game": "rummy", "hand_size": {"2": 30}}, "at least 2 cards"),
        ({"game": "rummy", "colour": "red"}, 'unknown option "colour"'),
        ({"game": "rummy", "style": "knock", "boathouse": True}, "boathouse"),
        ({"game": "rummy", "boathouse": "yes"}, "true or false"),
        ({"game": "rummy", "style": "500", "boathouse": True}, "no legal move"),
    ):
        with pytest.raises(MalformedInput, match=message):
            load_ruleset(bad)
    with pytest.raises(MalformedInput, match="unknown Rummy ruleset"):
        load_ruleset("gin-rummy-deluxe")


def test_clone_is_independent() -> None:
    hand = deal(rules(4), ["7s 7h 7d 2h", "2c 5c 9h Td"], "Kc 4d", dealer=1)
    twin = hand.clone()
    act(twin, 0, "draw", "stock")
    assert hand.phase == "draw" and twin.phase == "play" and hand.hands != twin.hands
    assert len(hand.events()) < len(twin.events())


def test_R_NOTE_3_a_forced_first_draw_may_be_written_in() -> None:
    for seed in range(40):
        record = random_hand_record("500-rum", 3, f"forced{seed}")
        hand = replay_hand(record)
        if hand.log[0][4]:  # the first player could take no discard: their stock draw was forced
            written = dict(
                record, actions=[{"seat": hand.log[0][0], "action": "draw", "from": "stock"}, *record["actions"]]
            )
            assert replay_record(written)["chips"] == hand.deltas
            return
    raise AssertionError("no forced first draw in 40 hands")


def test_R_RU_1_a_deal_naming_a_card_twice_is_refused() -> None:
    record = random_hand_record("rummy", 2, "twice")
    record["deal"]["stock"][0] = record["deal"]["stock"][1]
    with pytest.raises(RecordError, match="exactly once"):
        replay_record(record)
