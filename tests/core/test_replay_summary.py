"""``rummoli replay FILE --summary``: the hand told in words, each pot and the showdown (issue 15)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.games import replay
from rummoli.records import read_record
from rummoli.stops import random_hand_record
from rummoli.summary import tell
from rummoli.wording import card_word

runner = CliRunner()
MICHIGAN = Path(__file__).parents[1] / "stops" / "records" / "michigan-R-MI-6.json"


def test_a_rummoli_hand_names_the_widow_the_showdown_each_pot_and_the_chips(tmp_path: Path) -> None:
    for seed in range(12):
        record = random_hand_record("rummoli", 4, f"summary-{seed}")
        result = replay(record)
        text = tell(record, result)
        names = record["players"]
        assert text.splitlines()[0].startswith("rummoli: 4 players")
        assert re.search(r"^Widow: ", text, re.M)
        shown = [e for e in result["events"] if e["type"] == "showdown"]
        assert text.count(" shows ") == len(shown)
        won = [e for e in result["events"] if e["type"] == "chips" and e["from"].startswith("pot:")]
        assert text.count(" pot") >= len(won)
        chips_line = text.splitlines()[-1]
        for name, after in zip(names, result["chips"], strict=True):
            assert f"{name} " in chips_line and f"→ {after} " in chips_line
        if seed == 0:
            path = tmp_path / "hand.json"
            path.write_text(json.dumps(record), encoding="utf-8")
            out = runner.invoke(app, ["replay", str(path), "--summary"])
            assert out.exit_code == 0 and out.stdout.rstrip("\n") == text
            assert "events" in json.loads(runner.invoke(app, ["replay", str(path)]).stdout)  # JSON stays default


def test_the_michigan_worked_example_reads_as_the_household_tells_it() -> None:
    record = read_record(MICHIGAN)
    text = tell(record, replay(record))
    assert "Poker round" not in text and "Widow" not in text
    assert "goes out first, taking the Kitty: " in text


THIRD_PERSON = re.compile(r"\bYou (pays|is|takes|wins|leads|shows|bids|keeps|swaps|goes|checks|bets|calls|raises|"
                          r"folds|melds|lays|knocks|scores|holds|has|deals|forgets)\b")


def test_the_terminal_players_own_record_speaks_to_them() -> None:
    """``rummoli play`` names its human seat "You" and saves that name in the records: "You pay", not "You pays"."""
    from rummoli.rummy import random_hand_record as rummy_record

    told = []
    for seed in range(8):
        for record in (random_hand_record("rummoli", 4, f"you-{seed}"), rummy_record("rummy", 2, f"you-{seed}")):
            record["players"][record["dealer"] if seed % 2 else 0] = "You"  # the dealer, or another seat
            told.append(tell(record, replay(record)))
    text = "\n".join(told)
    assert THIRD_PERSON.search(text) is None, THIRD_PERSON.search(text)
    assert re.search(r"\bYou (pay|take|win|go out|lead|show|bid|keep|swap|check|bet|call|raise|fold|meld|score|hold)\b",
                     text)


def test_a_rummy_hand_says_how_it_ended_and_the_scores() -> None:
    from rummoli.rummy import random_hand_record as rummy_record

    for seed in range(6):
        record = rummy_record("rummy", 2, f"s{seed}")
        text = tell(record, replay(record))
        assert re.search(r"goes out|blocked", text) and text.splitlines()[-1].startswith("Scores: ")


def test_an_evening_record_is_told_hand_by_hand() -> None:
    from rummoli.table import Seat, Table

    table = Table("rummoli", [Seat(name, bot="random") for name in ("Ann", "Bob", "Cy")], hands=2, seed="tell")
    while not table.over:
        if table.hand_over:
            table.next_hand()
        else:
            table.play_bot()
    record = table.evening_record()
    text = tell(record, replay(record))
    assert "\n\nHand 1. rummoli: 3 players" in text and "\n\nHand 2. rummoli: 3 players" in text


def test_the_summary_names_the_cards_out_of_play_at_the_hands_end() -> None:
    """A record holds every card, so its summary tells what no seat held at the end, as the engine names it: the
    widow (or the hand given up for it; Michigan's widow, which nobody trades for), what was left of a Rummy stock,
    top card first, and the cards Hoyle's Poch did not deal; the modern Poch deal leaves nothing out."""
    from rummoli.games import family, replay_hand

    for ruleset, players, words in (("rummoli", 4, ("the widow, never seen", "the hand given up for the widow by ")),
                                    ("rummy", 2, ("the stock, top card first", "the stock, empty")),
                                    ("500-rum", 3, ("the stock, top card first", "the stock, empty")),
                                    ("michigan", 4, ("the widow, never seen",)),
                                    ("poch-hoyle", 4, ("the cards not dealt",))):
        game = "rummy" if "rum" in ruleset and ruleset != "rummoli" else "poch" if "poch" in ruleset else "stops"
        for seed in range(3):
            record = family(game).random_hand_record(ruleset, players, f"out-{seed}")
            text = tell(record)
            line = next(t for t in text.splitlines() if t.startswith("Out of play: "))
            assert any(line.startswith(f"Out of play: {w}") for w in words), line
            left = replay_hand(record).out_of_play()
            assert left is not None and all(card_word(c) in line for c in left["cards"]), (line, left)
    assert "Out of play" not in tell(family("poch").random_hand_record("poch", 4, "out-0"))


def test_a_record_without_its_dealer_is_told_as_its_engine_reads_it(tmp_path: Path) -> None:
    """A stops hand record may leave out "dealer" (seat 0 deals, as the replay reads it): the summary says so, alone
    or inside an evening's record, and never stops at an error of its own (it said "unexpected error (KeyError)")."""
    records = (random_hand_record("michigan", 3, f"no-dealer-{seed}") for seed in range(50))
    record = next(r for r in records if r["dealer"] == 0)
    told = tell(record, replay(record))
    del record["dealer"]
    assert tell(record, replay(record)) == told
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", "--summary", str(path)])
    assert result.exit_code == 0 and result.stdout.startswith(told.splitlines()[0]), result.output
