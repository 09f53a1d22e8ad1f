"""The simulation lab: reproducible seeded tournaments, duplicate deals, conserved chips, honest intervals."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummoli.bots.base import make_bot
from rummoli.bots.driver import play_out
from rummoli.cli import app
from rummoli.sim import SimConfig, SimError, confidence_interval, run_tournament
from rummoli.sim.play import deck_for
from rummoli.sim.stats import t_quantile_975

RANDOM3 = ("random", "random", "random")


def small(ruleset: str, bots: tuple[str, ...] = RANDOM3, **options: object) -> SimConfig:
    settings: dict[str, object] = {"hands": None if "rummy" in ruleset else 6, "blocks": 2, "seed": 11, "workers": 1}
    settings.update(options)
    return SimConfig(ruleset, bots, **settings)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ reproducibility
@pytest.mark.parametrize("ruleset", ["rummoli", "rummy"])
def test_a_seeded_tournament_is_reproducible_with_one_or_two_workers(ruleset: str) -> None:
    bots = RANDOM3 if ruleset == "rummoli" else ("random", "random")
    once = run_tournament(small(ruleset, bots, blocks=3)).to_json()
    again = run_tournament(small(ruleset, bots, blocks=3)).to_json()
    parallel = run_tournament(small(ruleset, bots, blocks=3, workers=2)).to_json()
    assert once == again == parallel
    other = run_tournament(small(ruleset, bots, blocks=3, seed=12)).to_json()
    assert other != once


def test_a_tournament_without_a_seed_reports_the_seed_that_replays_it() -> None:
    first = run_tournament(SimConfig("michigan", RANDOM3, hands=3, blocks=1, workers=1))
    assert isinstance(first.config.seed, int)
    replayed = run_tournament(SimConfig("michigan", RANDOM3, hands=3, blocks=1, workers=1, seed=first.config.seed))
    assert replayed.to_json() == first.to_json()


# ------------------------------------------------------------------------------ duplicate deals
@pytest.mark.parametrize("ruleset", ["tripoley", "rummy"])
def test_duplicate_deals_rotate_the_line_up_over_the_same_deals(ruleset: str) -> None:
    config = small(ruleset, RANDOM3 if ruleset == "tripoley" else ("random", "random", "random"),
                   blocks=2, keep_records=True).checked()
    report = run_tournament(config)
    labels = config.labels()
    n = config.players
    assert len(report.tasks) == 2 * n
    for block in range(2):
        group = report.tasks[block * n:(block + 1) * n]
        assert [t.rotation for t in group] == list(range(n))
        for task in group:
            assert task.block == block
            # entry i sits at seat (i + rotation) % n, and the records name the seats so
            assert [task.seats[(i + task.rotation) % n] for i in range(n)] == list(range(n))
            assert task.records is not None and task.decks is not None
            assert task.records[0]["players"] == [labels[e] for e in task.seats]
            for k, deck in enumerate(task.decks):
                assert deck == [str(c) for c in deck_for(config, block, k)]
        # the first hand is dealt identically to the seats in every rotation; only who sits there changes
        first_deals = [t.records[0]["deal"] for t in group if t.records]
        assert all(deal == first_deals[0] for deal in first_deals)
        assert len({tuple(t.records[0]["players"]) for t in group if t.records}) == n
    assert report.tasks[0].decks != report.tasks[n].decks  # a new block deals new cards


def test_random_bots_fast_path_plays_exactly_as_the_view_round_trip() -> None:
    from rummoli.rummy import RummyGame
    from rummoli.stops import Session

    config = small("rummoli").checked()
    for seed in range(5):
        records = []
        for fast in (True, False):
            session = Session("rummoli", ["a", "b", "c", "d"], dealer=0)
            hand = session.start_hand(deck=deck_for(config, seed, 0))
            bots = [make_bot("stops", "random", seed=seed * 10 + s) for s in range(4)]
            play_out(hand, bots, fast=fast)
            records.append(hand.record())
        assert records[0] == records[1]
        rummy_records = []
        for fast in (True, False):
            game = RummyGame("rummy", ["a", "b"])
            hand = game.deal(deck_for(config, seed, 1))
            bots = [make_bot("rummy", "random", seed=seed * 10 + s) for s in range(2)]
            play_out(hand, bots, fast=fast)
            rummy_records.append(hand.record())
        assert rummy_records[0] == rummy_records[1]


# ------------------------------------------------------------------------------ accounting
@pytest.mark.parametrize("ruleset", ["rummoli", "rummoli-tripoley", "tripoley", "michigan"])
def test_chips_are_conserved_over_a_tournament(ruleset: str) -> None:
    report = run_tournament(small(ruleset, ("random",) * 4, hands=8, blocks=2))
    start = 100 * 4
    for task in report.tasks:
        assert sum(task.net) + task.board_end - task.board_start == 0
        assert sum(task.stacks[0]) == start and len(task.stacks) == task.hands + 1
        assert sum(task.stacks[-1]) + task.board_end == start
    total = sum(sum(t.net) for t in report.tasks) + sum(t.board_end for t in report.tasks)
    assert total == 0
    data = json.loads(report.to_json())
    assert [p["pot"] for p in data["pots"]][:2] == ["centre", "poker"] or ruleset == "michigan"
    for pot in data["pots"]:
        assert pot["won"] + pot["carried_over"] <= report.hands
        assert (pot["mean_size_when_won"] is None) == (pot["won"] == 0)
    # chips per hand: the entries' means add up to minus what the board kept, per hand
    pooled = sum(e.main.mean for e in report.entries)
    per_block = [sum(t.board_end for t in report.tasks[b * 4:(b + 1) * 4])
                 / sum(t.hands for t in report.tasks[b * 4:(b + 1) * 4]) for b in range(2)]
    assert math.isclose(pooled, -sum(per_block) / 2, abs_tol=1e-9)


def test_rummy_win_rates_share_each_game() -> None:
    report = run_tournament(small("rummy", ("random", "random"), blocks=3))
    assert math.isclose(sum(e.main.mean for e in report.entries), 1.0)
    for task in report.tasks:
        assert math.isclose(sum(task.wins), 1.0)
        assert task.finished and max(task.stacks[-1]) >= 100
    for e in report.entries:
        assert e.main.low is not None and e.main.high is not None
        assert 0.0 <= e.main.low <= e.main.mean <= e.main.high <= 1.0


# ------------------------------------------------------------------------------ statistics
def test_confidence_interval_of_a_known_sample() -> None:
    sample = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]  # mean 5, sample variance 32/7
    stat = confidence_interval(sample)
    half = 2.364624 * math.sqrt(32 / 7 / 8)  # t(0.975, 7) * s / sqrt(n)
    assert stat.mean == 5.0 and stat.n == 8
    assert stat.low is not None and stat.high is not None
    assert math.isclose(stat.low, 5.0 - half, rel_tol=1e-9) and math.isclose(stat.high, 5.0 + half, rel_tol=1e-9)
    assert stat.excludes(2.0) and not stat.excludes(5.5)
    assert confidence_interval([3.0]).low is None and confidence_interval([1.0, 1.0]).half_width == 0.0


@pytest.mark.parametrize(("df", "t"), [(1, 12.7062), (7, 2.3646), (30, 2.0423), (40, 2.0211), (100, 1.9840),
                                       (1000, 1.9623)])
def test_t_quantiles(df: int, t: float) -> None:
    assert math.isclose(t_quantile_975(df), t, abs_tol=2e-4)


def test_gaps_are_paired_by_block() -> None:
    report = run_tournament(small("michigan", blocks=4))
    gap = report.gap(0, 1)
    assert math.isclose(gap.mean, report.entries[0].main.mean - report.entries[1].main.mean, abs_tol=1e-9)
    first = json.loads(report.to_json())["comparisons"][0]
    assert first["a"] == "random#1" and first["b"] == "random#2"
    assert first["difference"]["mean"] == round(gap.mean, 6)


# ------------------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    ("ruleset", "bots", "message"),
    [
        ("rummoli", ("random", "wizard", "random"), "unknown bot level 'wizard'"),
        ("michigan", ("random", "random"), "seats 3 to 8 players, not 2"),
        ("rummy", ("random",) * 7, "not 7"),
        ("no-such-game", ("random", "random"), "unknown ruleset"),
    ],
)
def test_bad_configurations_are_refused_clearly(ruleset: str, bots: tuple[str, ...], message: str) -> None:
    with pytest.raises(SimError, match=message):
        SimConfig(ruleset, bots).checked()


def test_bad_numbers_are_refused() -> None:
    with pytest.raises(SimError, match="at least one hand"):
        SimConfig("rummoli", RANDOM3, hands=0).checked()
    with pytest.raises(SimError, match="deal sequence"):
        SimConfig("rummy", ("random", "random"), blocks=0).checked()
    with pytest.raises(SimError, match="workers"):
        SimConfig("rummy", ("random", "random"), workers=0).checked()


# ------------------------------------------------------------------------------ the command
runner = CliRunner()


def test_cli_stops_json() -> None:
    result = runner.invoke(app, ["sim", "--ruleset", "rummoli", "--players", "3", "--bots", "random,random,random",
                                 "--hands", "5", "--games", "2", "--seed", "4", "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "stops" and data["seed"] == 4 and data["tasks"] == 6
    assert [e["label"] for e in data["entries"]] == ["random#1", "random#2", "random#3"]
    assert set(data["entries"][0]["chips_per_hand"]) == {"mean", "ci95", "n"}
    assert {p["pot"] for p in data["pots"]} >= {"centre", "poker"}


def test_cli_rummy_json_and_table() -> None:
    args = ["sim", "-r", "rummy", "--bots", "random,random", "--games", "2", "--seed", "4", "--workers", "1"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "rummy" and data["games"] == 4
    assert "win_rate" in data["entries"][0] and "points_per_game" in data["entries"][1]
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "win rate" in table.stdout and "random#2" in table.stdout


def test_cli_plot_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "evening.png"
    result = runner.invoke(app, ["sim", "-r", "michigan", "--bots", "random,random,random", "--hands", "6",
                                 "--games", "1", "--seed", "2", "--plot", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "chips/hand" in result.stdout and "carried over" in result.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-r", "rummoli", "--bots", "random,genius,random"], "unknown bot level 'genius'"),
        (["-r", "rummoli", "--players", "4", "--bots", "random,random,random"], "needs 4 levels"),
        (["-r", "michigan", "--players", "2", "--bots", "random,random"], "seats 3 to 8 players"),
        (["-r", "rummoli", "--bots", "random,,random"], "a level per seat"),
        (["-r", "rummoli", "--bots", "random,random", "--plot", "chart.jpg"], "PNG"),
    ],
)
def test_cli_refuses_bad_options(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sim", *args])
    assert result.exit_code == 2
    assert message in result.stderr and "rummoli sim:" in result.stderr


# ------------------------------------------------------------------------------ other levels
def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize(("ruleset", "module"), [("rummoli", "rummoli.bots.stops_bots"),
                                                 ("rummy", "rummoli.bots.rummy_bots")])
def test_other_levels_plug_in(level: str, ruleset: str, module: str) -> None:
    assert _has(module), f"{module} does not import"
    bots = (level, "random", "random") if ruleset == "rummoli" else (level, "random")
    config = small(ruleset, bots, hands=2, blocks=1, budget=0.01).checked()
    report = run_tournament(config)
    assert report.entries[0].level == level
    assert report.to_json() == run_tournament(config).to_json() or level == "hard"


def test_hard_bots_with_a_fixed_number_of_worlds_are_reproducible() -> None:
    config = SimConfig("rummoli", ("hard", "easy", "easy"), hands=2, blocks=1, seed=5, samples=2, workers=1)
    assert run_tournament(config).to_json() == run_tournament(config).to_json()
    with pytest.raises(SimError, match="--samples"):
        SimConfig("rummoli", ("hard", "easy"), samples=0).checked()


def test_the_plot_follows_every_evening_of_the_tournament() -> None:
    from rummoli.sim.plot import curves

    config = SimConfig("rummoli", ("easy", "random", "random"), hands=4, blocks=3, seed=8, workers=1).checked()
    report = run_tournament(config)
    lines = dict(curves(report))
    assert set(lines) == set(config.labels())
    for entry, label in enumerate(config.labels()):
        stats = lines[label]
        assert len(stats) == 5 and stats[0].mean == 0 and stats[-1].n == 3
        everyone = [t.net[entry] for t in report.tasks]  # chips won over each whole evening, all tasks
        assert stats[-1].mean == pytest.approx(sum(everyone) / len(everyone))


def test_derived_seeds_and_decks_are_remembered_by_value_and_type_and_handed_out_as_fresh_lists() -> None:
    import hashlib

    from rummoli.sim.config import derive_seed

    def fresh(seed: object, *parts: object) -> int:
        text = "/".join(str(p) for p in (seed, *parts))
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1

    for args in ((7, "deal", 1, 2), (7.0, "deal", 1, 2), ("7", "deal", 1, 2), (True, "bot", 0, 1), (1, "bot", 0, 1)):
        assert derive_seed(*args) == fresh(*args) == derive_seed(*args)
    assert derive_seed(True, "bot", 0, 1) != derive_seed(1, "bot", 0, 1)
    config = SimConfig("rummoli", ("easy", "easy", "easy"), seed=5).checked()
    first = deck_for(config, 0, 3)
    first.pop()
    assert len(deck_for(config, 0, 3)) == 52 and deck_for(config, 0, 3) == deck_for(config, 0, 3)


def test_the_lab_runs_the_collector_less_often_while_it_plays_and_puts_it_back() -> None:
    """A task plays with the collector at LAB_GC_THRESHOLDS (the lab's many short-lived views and events) and leaves
    the thresholds as it found them, after a task that fails too."""
    import gc

    from rummoli.sim.play import LAB_GC_THRESHOLDS, lab_collector

    before = gc.get_threshold()
    assert before != LAB_GC_THRESHOLDS
    with lab_collector():
        assert gc.get_threshold() == LAB_GC_THRESHOLDS
    assert gc.get_threshold() == before
    with pytest.raises(ZeroDivisionError), lab_collector():
        print(1 / 0)
    assert gc.get_threshold() == before
    run_tournament(SimConfig("michigan", ("random", "random", "random"), hands=2, blocks=1, seed=3, workers=1))
    assert gc.get_threshold() == before
