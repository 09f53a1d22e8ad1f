"""The command line as a newcomer meets it (issue 15): every mistake is one line on standard error and a
non-zero exit, never a traceback; plain ``rummoli`` is help; ``--players`` follows the ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummoli.cli import main, seats_for


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out, err = capsys.readouterr()
    code = stop.value.code
    return (code if isinstance(code, int) else 0), out, err


def bad_arguments(tmp: Path) -> list[list[str]]:
    not_json = tmp / "not.json"
    not_json.write_text("{", encoding="utf-8")
    bad_toml = tmp / "bad.toml"
    bad_toml.write_text("game = ", encoding="utf-8")
    a_file = tmp / "a-file"
    a_file.write_text("", encoding="utf-8")
    return [
        ["nosuch"], ["--bogus"],
        ["deal", "--players", "1"], ["deal", "--players", "nine"], ["deal", "--seed"],
        ["rules", "nosuch"], ["rules", "a", "b"],
        ["hand", "--ruleset", "nosuch"], ["hand", "-r", "gin-rummy", "-p", "3"], ["hand", "-r", str(bad_toml)],
        ["hand", "-r", str(tmp / "missing.toml")],
        ["replay"], ["replay", str(tmp / "missing.json")], ["replay", str(not_json)],
        ["replay", str(not_json), "--summary"],
        ["sim"], ["sim", "--bots", "random,genius"], ["sim", "--bots", "random,random", "--hands", "0"],
        ["sim", "--bots", "random,random", "--plot", str(tmp / "no-such-folder" / "chart.png")],
        ["sim", "--bots", "random,random", "--games", "-1"], ["sim", "-r", "nosuch", "--bots", "random,random"],
        ["play", "--hands", "0"], ["play", "--hands", "-2"], ["play", "--chips", "0"], ["play", "--pace", "-1"],
        ["play", "--players", "9"], ["play", "-r", "gin-rummy", "-p", "4"], ["play", "-r", "nosuch"],
        ["play", "--save", str(a_file / "records")],
        ["play", "--save", str(tmp)],  # pytest's standard input is no terminal: a clear refusal, at once
    ]


def test_every_command_with_bad_arguments_says_one_line_and_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in bad_arguments(tmp_path):
        code, out, err = run(capsys, *args)
        assert code != 0, f"{args}: exit 0 after an error"
        assert out == "", f"{args}: printed to standard output: {out!r}"
        assert len(err.splitlines()) == 1 and err.startswith("rummoli"), f"{args}: {err!r}"
        assert "Traceback" not in err


def test_an_unknown_ruleset_names_the_ones_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["hand"], ["play"], ["sim", "--bots", "random,random"]):
        _, _, err = run(capsys, *command, "--ruleset", "ginrummy")
        assert "gin-rummy" in err and "michigan" in err and "rummoli-tripoley" in err, err


def test_a_ruleset_name_longer_than_a_file_name_is_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    """A QA pass typed a long --ruleset and was told 'unexpected error (OSError: File name too long ...)', exit 70:
    looking the name up as a file failed before it was called unknown."""
    for command in (["hand"], ["play"], ["sim", "--bots", "random,random"]):
        code, out, err = run(capsys, *command, "--ruleset", "x" * 300)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "unknown ruleset" in err and "unexpected" not in err, err


def test_chips_for_a_rummy_game_are_refused_not_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "--ruleset", "gin-rummy", "--chips", "50")
    assert code == 2 and out == "" and "a Rummy-family game keeps a score from 0" in err and err.count("\n") == 1


def test_a_ruleset_file_that_is_no_toml_file_is_named_as_a_file(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    """A QA pass was told 'unknown ruleset "/tmp/.../bad.json"', as if the path were a ruleset's name."""
    path = tmp_path / "bad.json"
    path.write_text("{}", encoding="utf-8")
    code, out, err = run(capsys, "hand", "--ruleset", str(path))
    assert code != 0 and out == "" and err.count("\n") == 1, err
    assert "is a file, and a ruleset file's name ends in .toml" in err and "unknown ruleset" not in err, err


def test_play_without_a_terminal_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--save", str(tmp_path))
    assert code == 2 and "needs a terminal" in err
    # A wrong option is named first, even without a terminal (only the terminal was named before).
    _, _, err = run(capsys, "play", "--save", str(tmp_path), "--bots", "hard,genius")
    assert "unknown bot level 'genius'" in err, err


def test_a_seed_of_bytes_and_an_endless_pace_are_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A terminal can pass bytes that are no text (an internal error before); a pace of inf hung the table."""
    bytes_seed = "\x01\udcff;rm"  # what Python makes of the bytes 01 ff
    for args in (["deal", "--seed", bytes_seed], ["hand", "--seed", bytes_seed], ["play", "--seed", bytes_seed],
                 ["play", "--pace", "inf"], ["play", "--pace", "nan"], ["play", "--pace", "61"]):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (args, err)
        assert ("--seed" if "--seed" in args else "--pace") in err and "unexpected" not in err, (args, err)


def test_a_seed_with_a_control_character_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`sim --seed` writes its seed in its report: a QA pass's seed holding an escape coloured the terminal and a
    newline broke the report's heading."""
    for seed in ("x\x1b[31mRED", "a\nb", "\u202eevil"):
        for args in (["sim", "--bots", "random,random", "--hands", "1", "--seed", seed], ["deal", "--seed", seed],
                     ["hand", "--seed", seed], ["play", "--seed", seed]):
            code, out, err = run(capsys, *args)
            assert code == 2 and out == "" and len(err.splitlines()) == 1, (args, err)
            assert "--seed" in err and "without control characters" in err and "\x1b" not in err, (args, err)
    assert run(capsys, "deal", "--seed", "Ann's 1st ♠ deal")[0] == 0


def test_play_checks_the_records_folder_before_the_table_opens(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "play", "--save", str(blocked / "records"))
    assert code == 2 and "cannot save hand records" in err and "--save" in err


def test_plain_rummoli_shows_the_help_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0 and "Commands:" in out and "rules" in out and "play" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from rummoli import __version__

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"rummoli {__version__}"


def test_flags_in_the_help_show_no_type(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("deal", "play", "sim", "replay"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "<bool>" not in out and "--" in out


def test_players_default_to_what_the_ruleset_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert seats_for("hand", "gin-rummy", None) == ("gin-rummy", 2)
    assert seats_for("hand", "michigan", None) == ("michigan", 4)
    code, out, _ = run(capsys, "hand", "--ruleset", "gin-rummy", "--seed", "3")
    assert code == 0 and json.loads(out)["players"] == ["Ann", "Bob"]


def test_sim_says_what_it_will_play_before_it_starts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "sim", "-r", "rummoli", "--bots", "random,random", "--hands", "3", "--games", "2",
                         "--seed", "1", "--workers", "1")
    assert code == 0
    assert "2 deal sequences x 2 seatings of the line-up = 4 evenings of 3 hands each (up to 12 hands" in err
    assert "--hands counts the hands in one evening" in err
    assert "Pairwise" in out and "random#1" in out and "clear?" in out
    code, out, err = run(capsys, "sim", "-r", "rummoli", "--bots", "random,random", "--hands", "1", "--games", "1",
                         "--seed", "1", "--workers", "1")
    assert code == 0 and "1 deal sequence x 2 seatings of the line-up = 2 evenings of 1 hand each (up to 2 hands" in err
    assert "1 deal sequence x 2 rotations, 1 hand per evening (2 hands played)" in " ".join(out.split())
