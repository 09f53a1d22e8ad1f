"""``rummoli deal``: the whole deck dealt per R-DEAL-1, each hand sorted and its poker hand named."""

from __future__ import annotations

from typer.testing import CliRunner

from rummoli.cards import Card
from rummoli.cli import app

runner = CliRunner()


def dealt_lines(*args: str) -> list[str]:
    result = runner.invoke(app, ["deal", *args])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_R_DEAL_1_every_card_once_and_sizes_differ_by_at_most_one() -> None:
    for players in range(2, 9):
        lines = dealt_lines("--players", str(players), "--seed", "7", "--ascii")
        assert len(lines) == players + 1 and lines[-1].startswith("Widow")
        cards: list[Card] = []
        sizes = []
        for line in lines:
            shown = line[12:].split("[")[0].split()
            sizes.append(int(shown[0]))
            hand = [Card.parse(t) for t in shown[1:]]
            assert len(hand) == int(shown[0])
            assert hand == sorted(hand, key=lambda c: ((0, 1, 3, 2)[c.suit], c.rank))
            cards += hand
        assert sorted(cards) == sorted(set(cards)) and len(cards) == 52
        assert max(sizes) - min(sizes) <= 1


def test_the_best_poker_hand_is_named_with_its_five_cards() -> None:
    for line in dealt_lines("--players", "4", "--seed", "1", "--ascii"):
        named = line.split("[")[1].rstrip("]")
        description, five = named.split(": ")
        assert description and len(five.split()) == 5


def test_same_seed_same_deal_and_symbols_by_default() -> None:
    assert dealt_lines("--seed", "x") == dealt_lines("--seed", "x")
    assert any(s in "".join(dealt_lines("--seed", "x")) for s in "♠♥♦♣")


def test_player_count_out_of_range_is_refused() -> None:
    result = runner.invoke(app, ["deal", "--players", "9"])
    assert result.exit_code == 2
    assert "--players" in result.output and "less than or equal to" in result.output


def test_rummoli_hand_refuses_a_bad_table_with_a_message_not_a_traceback() -> None:
    for args, words in (
        (["--ruleset", "gin-rummy", "--players", "3"], "seats 2 players, not 3"),
        (["--ruleset", "no-such-game"], 'unknown ruleset "no-such-game"'),
        (["--ruleset", "/nonexistent/mine.toml"], "cannot read ruleset file"),
    ):
        result = runner.invoke(app, ["hand", *args])
        assert result.exit_code == 2, result.output
        assert words in result.stderr and "Traceback" not in result.output
