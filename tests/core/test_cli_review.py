"""``rummoli review`` (issue 37): a hand reviewed at the terminal, in words or JSON; every mistake in the
command is one line and a non-zero exit, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli_errors import run

from rummoli.games import family


@pytest.fixture
def gin_file(tmp_path: Path) -> Path:
    """A random Gin hand's first 30 moves (a review reads a hand still being played; the whole random hand, about
    50 decisions a seat, costs five seconds and checks nothing more)."""
    path = tmp_path / "gin.json"
    record = family("rummy").random_hand_record("gin-rummy", 2, "cli")
    path.write_text(json.dumps(dict(record, actions=record["actions"][:30])), encoding="utf-8")
    return path


@pytest.fixture
def stops_file(tmp_path: Path) -> Path:
    path = tmp_path / "rummoli.json"
    path.write_text(json.dumps(family("stops").random_hand_record("rummoli", 4, "cli")), encoding="utf-8")
    return path


def test_review_in_words(capsys: pytest.CaptureFixture[str], stops_file: Path) -> None:
    code, out, err = run(capsys, "review", str(stops_file), "--seat", "1", "--samples", "6")
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("Review of Bob (seat 1): ") and "mistake" in first
    assert "chips" in out


def test_review_as_json(capsys: pytest.CaptureFixture[str], gin_file: Path) -> None:
    code, out, err = run(capsys, "review", str(gin_file), "--samples", "4", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["format"] == "rummoli-review/1" and result["unit"] == "points" and result["seat"] == 0
    assert result["decisions"] and all({"choices", "taken", "preferred", "cost", "mistake", "words"} <= set(d)
                                       for d in result["decisions"])
    assert result["mistakes"] == sum(d["mistake"] for d in result["decisions"])


def test_review_reads_standard_input(stops_file: Path) -> None:
    done = subprocess.run([str(Path(sys.executable).with_name("rummoli")), "review", "-", "--samples", "3"],
                          input=stops_file.read_bytes(), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("Review of Ann (seat 0)")


def bad(tmp: Path, stops_file: Path) -> list[list[str]]:
    not_json = tmp / "not.json"
    not_json.write_text("{", encoding="utf-8")
    evening = tmp / "evening.json"
    evening.write_text(json.dumps({"format": "rummoli-evening/1", "hands": []}), encoding="utf-8")
    wrong = tmp / "wrong.json"
    record = json.loads(stops_file.read_text(encoding="utf-8"))
    record["actions"] = [{"seat": 0, "action": "fly"}]
    wrong.write_text(json.dumps(record), encoding="utf-8")
    return [["review"], ["review", str(tmp / "missing.json")], ["review", str(not_json)],
            ["review", str(evening)], ["review", str(wrong)], ["review", str(stops_file), "--seat", "9"],
            ["review", str(stops_file), "--seat", "-1"], ["review", str(stops_file), "--seat", "x"],
            ["review", str(stops_file), "--budget", "0"], ["review", str(stops_file), "--samples", "0"],
            ["review", str(stops_file), "--hand", "5"]]  # one hand's record: --hand 5 was ignored


def test_mistakes_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, stops_file: Path) -> None:
    for args in bad(tmp_path, stops_file):
        code, out, err = run(capsys, *args)
        assert code != 0, args
        assert "Traceback" not in err and len(err.strip().splitlines()) <= 6, (args, err)
        assert out == "", args


def test_review_one_hand_of_an_evening(capsys: pytest.CaptureFixture[str], tmp_path: Path, stops_file: Path) -> None:
    hand = json.loads(stops_file.read_text(encoding="utf-8"))
    evening = tmp_path / "evening.json"
    evening.write_text(json.dumps({"format": "rummoli-evening/1", "hands": [hand]}), encoding="utf-8")
    code, out, err = run(capsys, "review", str(evening), "--hand", "1", "--samples", "3")
    assert code == 0, err
    assert out.startswith("Review of Ann (seat 0)")
    code, out, err = run(capsys, "review", str(evening), "--hand", "2")
    assert code == 1 and "there is no hand 2: this evening's record holds only hand 1" in err and out == ""
    code, out, err = run(capsys, "review", str(evening))
    assert code == 1 and "an evening's record of 1 hand: name one with --hand N" in err and out == ""
    evening.write_text(json.dumps({"format": "rummoli-evening/1", "hands": [hand, hand]}), encoding="utf-8")
    code, out, err = run(capsys, "review", str(evening))
    assert code == 1 and "an evening's record of 2 hands: name one with --hand N" in err and out == ""
    code, out, err = run(capsys, "review", str(evening), "--hand", "3")
    assert code == 1 and "there is no hand 3: this evening's record holds hands 1 to 2" in err and out == ""



def test_a_poch_hand_is_reviewed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Poch's leads are weighed in chips; its vying decisions are the hard bot's rule, shown unweighed."""
    path = tmp_path / "poch.json"
    path.write_text(json.dumps(family("poch").random_hand_record("poch", 4, "cli")), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--seat", "1", "--samples", "6", "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["game"] == "poch" and result["unit"] == "chips" and result["decisions"]
