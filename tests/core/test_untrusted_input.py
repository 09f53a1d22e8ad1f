"""Input from outside: rulesets and records that name no file, one clear line for every bad one, and
limits that keep every view small (docs/records.md R-NOTE-6, docs/rules.md R-RNG-1, docs/limits.md)."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummoli import games
from rummoli.cards import CARDS, mask_of, parse_cards
from rummoli.cli import app
from rummoli.errors import MalformedInput
from rummoli.games import game_of, replay
from rummoli.limits import MAX_CHIPS, MAX_MARKS, MAX_START_CHIPS, stacked_marks, text_line
from rummoli.records import RecordError, read_record
from rummoli.rummy import RummyGame, RummyHand, deal_cards
from rummoli.rummy import load_ruleset as load_rummy
from rummoli.rummy import random_hand_record as rummy_record
from rummoli.rummy.ruleset import ACES, STOCK_ENDS, STYLES
from rummoli.stops import load_board
from rummoli.stops import load_ruleset as load_stops
from rummoli.stops import random_hand_record as stops_record

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def cli(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    """Run ``rummoli`` in-process; a bad input must end in one line on stderr, never an exception."""
    result = runner.invoke(app, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stderr


def refused(*args: str, stdin: bytes | None = None) -> str:
    code, err = cli(*args, stdin=stdin)
    assert code != 0 and err.count("\n") == 1 and "Traceback" not in err, err
    assert len(err) < 400, err  # a bad value is quoted in at most 80 characters
    return err


def run(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "rummoli.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


# ------------------------------------------------------------------------- rulesets name no file
@pytest.mark.parametrize("name", ["../../../etc/passwd", "../rulesets/rummoli", "/etc/hosts", "rummoli/../rummy",
                                  "boards/tripoley", "RUMMOLI", "", "x" * 100])
def test_R_NOTE_6_a_builtin_name_is_never_a_path(name: str) -> None:
    with pytest.raises(MalformedInput, match="unknown"):
        load_stops(name)
    with pytest.raises(MalformedInput, match="unknown"):
        load_rummy(name)
    with pytest.raises(RecordError, match="unknown ruleset"):
        game_of(name)


def test_R_NOTE_6_from_outside_a_ruleset_or_board_file_is_refused_unread(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text('[[pots]]\nkind = "centre"\n', encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text('game = "stops"\n', encoding="utf-8")
    for source in (str(mine), mine):
        with pytest.raises(MalformedInput, match=r"R-NOTE-6: .* never a file"):
            load_stops(source)
        with pytest.raises(MalformedInput, match=r"R-NOTE-6: .* never a file"):
            load_rummy(source)
    with pytest.raises(MalformedInput, match="R-NOTE-6"):
        load_stops({"game": "stops", "board": str(board)})
    with pytest.raises(MalformedInput, match="R-NOTE-6"):
        load_board(str(board))
    with pytest.raises(MalformedInput, match="unknown board"):
        load_stops({"game": "stops", "board": "../boards/tripoley"})
    assert load_stops(mine, trusted=True).name == "custom"  # the local user's own file still loads
    record = stops_record("rummoli", 4, "board")
    record["ruleset"] = {"game": "stops", "board": str(board)}
    with pytest.raises(RecordError, match="never a file"):
        replay(record)


def test_R_NOTE_6_a_record_naming_a_pipe_does_not_hang_replay(tmp_path: Path) -> None:
    pipe = tmp_path / "x.toml"
    os.mkfifo(pipe)
    record = stops_record("rummoli", 4, "pipe")
    for ruleset in (str(pipe), {"game": "stops", "board": str(pipe)}):
        path = tmp_path / "record.json"
        path.write_text(json.dumps({**record, "ruleset": ruleset}), encoding="utf-8")
        done = run("replay", str(path))  # opening the pipe would block here until the timeout
        assert done.returncode != 0 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    for args in (["replay", str(pipe)], ["hand", "--ruleset", str(pipe)], ["replay", str(tmp_path)]):
        done = run(*args)
        assert done.returncode != 0 and "not a regular file" in done.stderr, done.stderr


def test_the_local_user_still_names_files_and_a_board_beside_the_ruleset(tmp_path: Path) -> None:
    (tmp_path / "board.toml").write_text('name = "mine"\n[[pots]]\nkind = "centre"\nante = 2\n'
                                          '[[pots]]\nkind = "card"\ncard = "Ah"\n', encoding="utf-8")
    rules = tmp_path / "house.toml"
    rules.write_text('\ufeffgame = "stops"\nname = "house"\nboard = "board.toml"\n', encoding="utf-8")  # BOM
    code, _ = cli("hand", "--ruleset", str(rules), "--players", "3", "--seed", "1")
    assert code == 0
    record = runner.invoke(app, ["hand", "--ruleset", str(rules), "--players", "3", "--seed", "1"]).stdout
    inline = json.loads(record)["ruleset"]
    assert [p["kind"] for p in inline["board"]["pots"]] == ["centre", "card"]  # the record names no file
    path = tmp_path / "hand.json"
    path.write_bytes(b"\xef\xbb\xbf" + record.encode())  # a byte-order mark is accepted
    assert cli("replay", str(path))[0] == 0


# ------------------------------------------------------------------- one line for every bad record
def good_record() -> dict[str, Any]:
    return stops_record("rummoli", 4, "fuzz")


@pytest.mark.parametrize(("change", "words"), [
    ({"actions": [["seat", 1]]}, "R-NOTE-3"),
    ({"actions": [{"seat": 1, "action": {"bid": 3}}]}, "unknown stops action"),
    ({"actions": [{"seat": 1, "action": "bid", "amount": 2.5}]}, "amount"),
    ({"chips": [100, 100, 100, 10**12]}, f"0 to {MAX_CHIPS:,}"),
    ({"chips": [100, 100, 100, 1]}, "R-ANTE-1"),
    ({"pots": {"centre": -1}}, "pots"),
    ({"players": ["A", "B", "C", "D" * 5000]}, "players"),
    ({"ruleset": {"game": "stops", "starting_chips": 1}}, "below one hand's ante"),
    ({"ruleset": {"game": "stops", "board": {"pots": [{"kind": "centre", "ante": 10**7}]}}}, "at most"),
    ({"deal": {"hands": [["Ts" * 25_000_000]], "widow": []}}, "not a card"),
    ({"deal": {"hands": [], "widow": [], "stock": []}}, '"hands" and "widow" only'),
])
def test_R_NOTE_6_a_bad_record_gets_one_short_line(tmp_path: Path, change: dict[str, Any], words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**good_record(), **change}), encoding="utf-8")
    assert words in refused("replay", str(path))


@pytest.mark.parametrize(("text", "words"), [
    (b"[" * 1001 + b"]" * 1001, "nests deeper"),
    (b"[" * 100_000, "nests deeper"),
    (b'{"format": "rummoli-hand/1", "chips": [' + b"7" * 5000 + b"]}", "5000 digits"),
    (b'{"format": "rummoli-hand/1", "chips": [NaN]}', "NaN"),
    (b'{"format": "rummoli-hand/1", "players": ["\xff\xfe"]}', "not UTF-8"),
    (b"\xef\xbb\xbf[1]", "one JSON object"),
    (b"", "not JSON"),
])
def test_R_NOTE_6_unreadable_json_gets_one_line(text: bytes, words: str) -> None:
    assert words in refused("replay", "-", stdin=text)


def test_R_NOTE_6_records_from_a_client_are_read_as_bytes_or_text_alike() -> None:
    record = good_record()
    text = json.dumps(record)
    assert read_record(text) == read_record(text.encode()) == read_record(b"\xef\xbb\xbf" + text.encode()) == record
    with pytest.raises(RecordError, match="deeper"):
        read_record("[" * 70 + "]" * 70)


def test_R_NOTE_6_rummy_records_refuse_unknown_keys() -> None:
    record = rummy_record("rummy", 2, "keys")
    first = dict(record["actions"][0], colour="red")
    with pytest.raises(RecordError, match="takes no"):
        replay({**record, "actions": [first, *record["actions"][1:]]})
    with pytest.raises(RecordError, match="nothing else"):
        replay({**record, "deal": {**record["deal"], "widow": []}})
    with pytest.raises(RecordError, match="no pots"):
        replay({**record, "pots": {"centre": 3}})


# ------------------------------------------------------------------------------------- limits
def test_R_NOTE_6_limits_on_chips_antes_and_bets() -> None:
    assert load_stops({"game": "stops", "starting_chips": MAX_START_CHIPS}).starting_chips == MAX_START_CHIPS
    for change, words in (
        ({"starting_chips": MAX_START_CHIPS + 1}, "at most"),
        ({"max_bet": 10**6 + 1}, "at most"),
        ({"board": {"pots": [{"kind": "centre", "ante": 10**6 + 1}]}}, "at most"),
        ({"board": {"pots": [{"kind": "centre"}] + [{"kind": "card", "card": str(c)} for c in CARDS] * 2}}, "1 to 64"),
        ({"name": "n" * 65}, "at most 64"),
        ({"board": "michigan", "starting_chips": 5}, "below one hand's ante"),  # Michigan antes 6
        ({"board": "michigan", "starting_chips": 11, "dealer_ante": "double"}, "for the dealer"),
    ):
        with pytest.raises(MalformedInput, match=words):
            load_stops({"game": "stops", **change})
    assert load_stops({"game": "stops", "board": "michigan", "starting_chips": 6}).starting_chips == 6
    with pytest.raises(MalformedInput, match="scores"):
        RummyGame("rummy", ["Ann", "Bob"], scores=[0, 10**10], seed=1).deal()
    from rummoli.stops import Session

    for chips in (8, MAX_START_CHIPS + 1, 2.5, True):  # Rummoli antes 9 a hand
        with pytest.raises(MalformedInput, match="starting chips"):
            Session("rummoli", ["Ann", "Bob", "Cy"], chips=chips)  # type: ignore[arg-type]
    assert Session("rummoli", ["Ann", "Bob", "Cy"], chips=9).chips == [9, 9, 9]


def test_a_million_chip_table_keeps_its_views_small() -> None:
    from rummoli.stops import Hand, random_hand

    rules = {"game": "stops", "starting_chips": MAX_START_CHIPS, "max_bet": 10**6}
    hand = random_hand(rules, 8, random.Random(1))
    assert isinstance(hand, Hand) and sum(hand.chips) + sum(hand.pots) == 8 * MAX_START_CHIPS
    record = hand.record()
    assert len(json.dumps(record)) < 20_000 and replay(record)["chips"] == hand.chips


# ------------------------------------------------------------------ Rummy options that cannot end
def test_R_500_2_boathouse_and_500_rum_are_refused_together(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text('game = "rummy"\nstyle = "500"\nboathouse = true\n', encoding="utf-8")
    assert "no legal move" in refused("hand", "--ruleset", str(path), "--players", "2", "--seed", "26")


SHAPES = (None, {"2": 24}, {"3": 3, "4": 2}, {"6": 8}, {"2": 1, "5": 1})


def test_every_accepted_rummy_option_combination_ends_its_hands() -> None:
    """Every combination of the options that shape play (and some extreme deals) either is refused when
    loaded or gives hands in which the player to act always has a legal move and that end."""
    accepted = hands = 0
    for style, aces, end, boathouse, depth, shape in itertools.product(
        STYLES, ACES, STOCK_ENDS, (False, True), (False, True), SHAPES
    ):
        data: dict[str, Any] = {"game": "rummy", "style": style, "aces": aces, "stock_end": end,
                                "boathouse": boathouse, "discard_depth": depth}
        if shape:
            data["hand_size"] = shape
        try:
            rules = load_rummy(data)
        except MalformedInput:
            continue
        accepted += 1
        for players, _ in rules.hand_size:
            for seed in range(3 if players == 2 else 1):  # two players meet the most turns each
                rng = random.Random(f"{accepted}-{players}-{seed}")
                deck = list(CARDS)
                rng.shuffle(deck)
                dealt, stock = deal_cards(rules, players, 0, deck)
                hand = RummyHand(rules, [f"P{i}" for i in range(players)], [0] * players, 0, dealt, stock)
                for _ in range(5000):
                    if hand.over:
                        break
                    moves = hand.moves()  # the legal moves, as legal_actions() lists them, without the objects
                    assert moves, f"no legal move: {data}, {players} players, seed {seed}"
                    hand.step(moves[rng.randrange(len(moves))])
                assert hand.over, f"a hand of {data} did not end"
                hands += 1
    assert accepted > 200 and hands > 700


# ----------------------------------------------------------------------------- shuffles, aces
def test_R_RNG_1_unseeded_rummy_shuffles_come_from_the_secure_source(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[random.SystemRandom] = []

    class Watched(random.SystemRandom):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(random, "SystemRandom", Watched)
    game = RummyGame("rummy", ["Ann", "Bob"])
    assert isinstance(game.rng, random.SystemRandom)
    game.deal()
    rummy_record("rummy", 2, None)
    stops_record("rummoli", 3, None)
    assert len(made) == 3
    assert not isinstance(RummyGame("rummy", ["Ann", "Bob"], seed=1).rng, random.SystemRandom)


def test_R_RU_2_boathouse_rummy_plays_aces_low() -> None:
    rules = load_rummy("boathouse-rummy")
    assert (rules.aces, rules.ace_value, rules.boathouse) == ("low", 1, True)
    from rummoli.rummy import meld_table

    table = meld_table(rules.aces, rules.ace_value)
    assert table.is_meld(mask_of(parse_cards("Ah 2h 3h"))) and not table.is_meld(mask_of(parse_cards("Kh Ah 2h")))


def test_records_module_reads_no_file_from_a_record(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    opened: list[str] = []
    real = os.open

    def watch(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", watch)
    target = tmp_path / "secret.toml"
    target.write_text('game = "stops"\n', encoding="utf-8")
    for ruleset in (str(target), {"game": "stops", "board": str(target)}):
        with pytest.raises(RecordError):
            games.replay({**good_record(), "ruleset": ruleset})
    assert not any("secret" in p for p in opened)


@pytest.mark.parametrize("key", ["name", "title", "description"])
@pytest.mark.parametrize("text", ["two\nlines", "nul\x00", "colour \x1b[31mred", "\u202egnol", "tab\there"])
def test_a_rulesets_names_and_words_are_one_line_of_plain_text(key: str, text: str) -> None:
    """A ruleset's name, title and description reach lobbies, pages, terminals and logs: a control character (a
    newline that forges a log line, a terminal's escape, a right-to-left override) is refused in one line, in
    every family; text with an emoji's joiner is not."""
    from rummoli.poch.ruleset import load_ruleset as load_poch

    families = [("stops", lambda d: load_stops({"game": "stops", "board": "copp-clark", **d})),
                ("rummy", lambda d: load_rummy({"game": "rummy", "style": "gin", "hand_size": {"2": 10}, **d})),
                ("poch", lambda d: load_poch({"game": "poch", **d}))]
    for family, load in families:
        if key == "description" and family == "stops":
            continue  # a stops ruleset has no description (an unknown key is refused as such)
        with pytest.raises(MalformedInput) as refused:
            load({key: text})
        message = str(refused.value)
        assert "\n" not in message and "\x1b" not in message and "plain text" in message, (family, message)
        assert load({key: "Gin for the 👨‍👩‍👧 family"}) is not None, family


# Names as people write them, marks and all: accents, Vietnamese's two marks on one vowel, the vowel signs, viramas
# and nuktas of Devanagari, Thai's vowels and tone marks, Arabic's and Hebrew's vowel points, Yoruba's tones.
REAL_NAMES = ["Renée Müller", "José Ñúñez", "Nguyễn Thị Phương", "Trần Đức Thắng", "Lê Ngọc Hiển",
              "प्रियंका चोपड़ा", "श्रीनिवास", "ज़्याँ", "สมศักดิ์", "ปิ่นอนงค์ ญี่ปุ่น", "مُحَمَّد", "שָׁלוֹם",
              "Ọ̀ṣun Àdìsá"]
ZALGO = "a" + "\u0301\u0316\u0300\u0317" * 5 + "\u0301\u0316\u0300"  # 24 characters: a name's length


def marks_on_one(name: str) -> int:
    """The most combining marks one character of ``name`` carries, decomposed (independently of rummoli.limits)."""
    most = run = 0
    for c in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def test_real_names_with_their_marks_pass_and_a_pile_of_marks_on_one_character_is_refused() -> None:
    """A name stacking a pile of combining marks on one letter draws them over the rows above and below it on every
    page that shows it: more than MAX_MARKS on one character is refused in one line naming the problem, while the
    names of scripts that really stack marks (two, at most) pass unchanged."""
    assert MAX_MARKS == 3
    assert max(marks_on_one(name) for name in REAL_NAMES) == 2  # they do stack marks: the test is not blind
    for name in REAL_NAMES:
        assert stacked_marks(name) is None and text_line(name, "a pot's name") == name, name
    assert text_line("a\u0301\u0316\u0300", "a pot's name") == "a\u0301\u0316\u0300"  # three: the most allowed
    for text, found in ((ZALGO, 23), ("e\u0302\u0303\u0323\u0301", 4), ("\u1ec5\u0301\u0300", 4),
                        ("ok \u20dd\u20dd\u20dd\u20dd", 4)):  # "ễ" precomposed counts its own two; enclosing marks too
        with pytest.raises(MalformedInput) as refused:
            text_line(text, "a pot's name")
        message = str(refused.value)
        assert message.startswith(f"a pot's name may not stack more than 3 combining marks on one character "
                                  f"(found {found} on "), message
        assert "\n" not in message
        assert text not in message  # the pile refused is not drawn in its refusal
    families = [lambda d: load_stops({"game": "stops", "board": "copp-clark", **d}),
                lambda d: load_rummy({"game": "rummy", "style": "gin", "hand_size": {"2": 10}, **d})]
    for load in families:
        with pytest.raises(MalformedInput, match="may not stack more than 3 combining marks"):
            load({"title": ZALGO})


@pytest.mark.parametrize(("game", "ruleset", "players"), [("stops", "tripoley", 4), ("rummy", "gin-rummy", 2),
                                                           ("poch", "poch", 3)])
def test_a_record_naming_a_player_with_a_pile_of_marks_is_refused_in_one_line(tmp_path: Path, game: str,
                                                                               ruleset: str, players: int) -> None:
    """A live name may not pile more than 3 marks on one letter, but a record's names were read as any text of 64
    characters: `rummoli replay`, its summary and the coach wrote the pile into their lines (and the page would have
    drawn it over its rows). Now a hand record, or an evening's, naming one is refused in one line that says which
    seat, without writing the pile itself; the names of real scripts still replay."""
    record = games.family(game).random_hand_record(ruleset, players, "marks")
    record["players"][1] = REAL_NAMES[2]  # "Nguyễn Thị Phương": two marks on one letter
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert cli("replay", str(path))[0] == 0
    record["players"][1] = ZALGO
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    evening = tmp_path / "evening.json"
    evening.write_text(json.dumps({"format": "rummoli-evening/1", "players": record["players"], "hands": [record],
                                   "ledger": [{"type": "hand", "hand_no": 1}]}, ensure_ascii=False), encoding="utf-8")
    words = ('R-NOTE-6: players: the name of seat 1 may not stack more than 3 combining marks on one character '
             '(found 23 on "a")')
    for args in (["replay", str(path)], ["replay", str(path), "--summary"], ["review", str(path), "--samples", "2"],
                 ["replay", str(evening)], ["review", str(evening), "--hand", "1", "--samples", "2"]):
        err = refused(*args)
        assert err.endswith(words + "\n") and ZALGO not in err, (args, err)


@pytest.mark.parametrize(("game", "ruleset", "players"), [("stops", "michigan", 3), ("rummy", "knock-rummy", 2),
                                                           ("poch", "poch", 3)])
def test_a_record_naming_a_player_with_a_control_character_or_nothing_visible_is_refused(
        tmp_path: Path, game: str, ruleset: str, players: int) -> None:
    """A live name may hold no control character and must show something, but a record's names were read as any text
    of 64 characters: `rummoli replay --summary` of a record whose player was called "a\\nb" broke its sentences over
    two lines, a right-to-left override reversed the rest of each line naming them, and "" wrote " plays Q♦"."""
    record = games.family(game).random_hand_record(ruleset, players, "controls")
    path = tmp_path / "hand.json"
    for name, found in (("a\nb", "may not hold control characters (found U+000A)"),
                        ("\u202eRTL", "may not hold control characters (found U+202E)"),
                        ("\x1b[2Jx", "may not hold control characters (found U+001B)"),
                        ("", "needs at least one visible character"), ("   ", "needs at least one visible character"),
                        (" \u200d\u200c", "needs at least one visible character")):  # joiners alone draw nothing
        record["players"][1] = name
        path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        for args in (["replay", str(path)], ["replay", str(path), "--summary"]):
            err = refused(*args)
            assert err.endswith(f"R-NOTE-6: players: the name of seat 1 {found}\n"), (args, err)
    record["players"][1] = "👨\u200d👩\u200d👧 Lee"  # the joiner inside an emoji is text
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert cli("replay", str(path), "--summary")[0] == 0
