"""``rummoli sim``: options in, a tournament run with a progress bar, a table or JSON out."""

from __future__ import annotations

import sys
from pathlib import Path

from rummoli.sim.config import DEFAULT_BLOCKS, SimConfig, SimError
from rummoli.sim.report import Report, render_tables
from rummoli.sim.runner import run_tournament
from rummoli.wording import counted


def parse_bots(text: str) -> tuple[str, ...]:
    """``"hard,easy, random"`` -> ``("hard", "easy", "random")``."""
    bots = tuple(part.strip().lower() for part in text.split(","))
    if not text.strip() or any(not b for b in bots):
        raise SimError(f"--bots must list a level per seat, separated by commas, not {text!r}")
    return bots


def parse_seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def sim_command(
    ruleset: str,
    players: int | None,
    bots: str,
    hands: int | None,
    games: int | None,
    seed: str | None,
    as_json: bool,
    plot: Path | None,
    workers: int | None,
    budget: float | None,
    samples: int | None = None,
) -> Report:
    """Run the tournament the options describe and print it; raises :class:`SimError` on bad options."""
    from rich.console import Console

    lineup = parse_bots(bots)
    if players is not None and players != len(lineup):
        raise SimError(f"--players {players} needs {players} levels in --bots, got {len(lineup)} ({bots})")
    config = SimConfig(ruleset, lineup, hands=hands, blocks=DEFAULT_BLOCKS if games is None else games,
                       seed=parse_seed(seed), budget=budget, samples=samples,
                       workers=workers).checked()
    if plot is not None:
        check_plot_path(plot)
    errors = Console(stderr=True)
    print(plan_text(config), file=sys.stderr, flush=True)
    if as_json or not errors.is_terminal:
        report = run_tournament(config)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=errors, transient=True) as bar:
            unit = f"{config.family.evening_word}s"
            job = bar.add_task(f"{config.tasks} {unit} on {workers_text(config.worker_count())}", total=config.tasks)
            report = run_tournament(config, lambda done, total: bar.update(job, completed=done))
    if plot is not None:
        from rummoli.sim.plot import plot_report

        plot_report(report, plot)
    if as_json:
        sys.stdout.write(report.to_json() + "\n")
    else:
        out = Console()
        for table in render_tables(report):
            out.print(table)
        out.print(f"{report.hands} hands in {report.elapsed:.1f} s on {workers_text(config.worker_count())}"
                  + (f"; chart in {plot}" if plot is not None else ""))
    return report


def check_plot_path(plot: Path) -> None:
    """Refuse, before the run, a chart that could not be written at the end."""
    import os

    if plot.suffix.lower() != ".png":
        raise SimError(f"--plot writes a PNG file: {plot} does not end in .png")
    folder = plot.parent
    if not folder.is_dir():
        raise SimError(f"--plot {plot}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise SimError(f"--plot {plot}: the folder {folder} is not writable")


def plan_text(config: SimConfig) -> str:
    """What the run will play, said before it starts (on standard error, so JSON output stays clean)."""
    c = config
    rotations = f"{counted(c.blocks, 'deal sequence')} x {c.players} seatings of the line-up"
    if c.family.has_board:
        hands = c.hands if c.hands is not None else 0
        return (f"Playing {rotations} = {c.tasks} evenings of {counted(hands, 'hand')} each (up to "
                f"{counted(c.tasks * hands, 'hand')}; --hands counts the hands in one evening).")
    cap = f", at most {counted(c.hands, 'hand')} each" if c.hands else ""
    return f"Playing {rotations} = {c.tasks} games, each to its target{cap} (--hands caps the hands of a game)."


def workers_text(count: int) -> str:
    return counted(count, "worker")
