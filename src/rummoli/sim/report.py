"""A tournament's results: per-entry statistics over the duplicate blocks, pot statistics, JSON and a table.

The unit of variance is the duplicate block: an entry's value in a block pools every rotation of that
block's deals, and the 95% interval is Student's t over the blocks, which are independent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rummoli.sim.config import SimConfig
from rummoli.sim.play import TaskResult
from rummoli.sim.stats import Stat, confidence_interval
from rummoli.wording import counted


@dataclass
class EntryStats:
    """One line-up entry: its level and its statistics."""

    entry: int
    label: str
    level: str
    main: Stat  # stops: mean chips per hand; Rummy: win rate
    points: Stat | None = None  # Rummy: points (final score) per game

    def to_json(self, board: bool) -> dict[str, Any]:
        """``board``: the family plays evenings of hands on a board (chips per hand), else games (win rate)."""
        out: dict[str, Any] = {"entry": self.entry, "label": self.label, "level": self.level}
        if board:
            out["chips_per_hand"] = self.main.to_json()
        else:
            out["win_rate"] = self.main.to_json()
            out["points_per_game"] = self.points.to_json() if self.points else None
        return out


@dataclass
class Report:
    """Everything a tournament found; ``to_json()`` is identical for identical seeded runs."""

    config: SimConfig
    entries: list[EntryStats]
    comparisons: list[dict[str, Any]]
    pots: list[dict[str, Any]]
    tasks: list[TaskResult]
    hands: int
    games: int
    unfinished: int
    board_left: float
    elapsed: float = field(default=0.0, compare=False)

    @property
    def game(self) -> str:
        return self.config.game

    def entry(self, label_or_index: str | int) -> EntryStats:
        if isinstance(label_or_index, int):
            return self.entries[label_or_index]
        return next(e for e in self.entries if e.label == label_or_index)

    def gap(self, a: int, b: int) -> Stat:
        """Entry ``a`` minus entry ``b`` in the headline measure, paired by block (the honest CI of a gap)."""
        return _gap(self.config, self.tasks, a, b)

    def first_evening(self) -> dict[str, Any]:
        """Chip stacks (scores for Rummy) by seat before the first hand and after each, task 0."""
        task = self.tasks[0]
        labels = self.config.labels()
        return {"seats": [labels[e] for e in task.seats], "stacks": task.stacks}

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        out: dict[str, Any] = {
            "ruleset": c.ruleset,
            "game": c.game,
            "players": c.players,
            "bots": list(c.bots),
            "seed": c.seed,
            "blocks": c.blocks,
            "rotations": c.players,
            "tasks": c.tasks,
            "hands": self.hands,
        }
        if c.family.has_board:
            out["hands_per_evening"] = c.hands
            out["evenings"] = c.tasks
            out["board_left_per_evening"] = round(self.board_left, 6)
        else:
            out["games"] = self.games
            out["unfinished_games"] = self.unfinished
        out["entries"] = [e.to_json(c.family.has_board) for e in self.entries]
        out["comparisons"] = self.comparisons
        if c.family.has_board:
            out["pots"] = self.pots
        out["first_evening"] = self.first_evening()
        return out

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _block_values(config: SimConfig, tasks: Sequence[TaskResult], measure: str) -> list[list[float]]:
    """One value per block and entry: the measure pooled over the block's rotations."""
    n = config.players
    rows: list[list[float]] = []
    for block in range(config.blocks):
        group = tasks[block * n:(block + 1) * n]
        if measure == "chips":
            hands = sum(t.hands for t in group)
            rows.append([sum(t.net[e] for t in group) / max(hands, 1) for e in range(n)])
        elif measure == "wins":
            rows.append([sum(t.wins[e] for t in group) / n for e in range(n)])
        else:
            rows.append([sum(t.net[e] for t in group) / n for e in range(n)])
    return rows


def _headline(config: SimConfig) -> str:
    return "chips" if config.family.has_board else "wins"


def _gap(config: SimConfig, tasks: Sequence[TaskResult], a: int, b: int) -> Stat:
    rows = _block_values(config, tasks, _headline(config))
    return confidence_interval([row[a] - row[b] for row in rows])


def _rate(stat: Stat, config: SimConfig) -> Stat:
    """A win rate's interval clipped to [0, 1] (the t interval knows no bounds)."""
    if config.family.has_board or stat.low is None or stat.high is None:
        return stat
    return Stat(stat.mean, max(0.0, stat.low), min(1.0, stat.high), stat.n)


def build_report(config: SimConfig, tasks: list[TaskResult], elapsed: float = 0.0) -> Report:
    """Aggregate the tasks (in task order) of a checked configuration."""
    n = config.players
    labels = config.labels()
    main = _block_values(config, tasks, _headline(config))
    points = None if config.family.has_board else _block_values(config, tasks, "points")
    entries = [
        EntryStats(e, labels[e], config.bots[e], _rate(confidence_interval([row[e] for row in main]), config),
                   confidence_interval([row[e] for row in points]) if points is not None else None)
        for e in range(n)
    ]
    comparisons = []
    for a in range(n):
        for b in range(a + 1, n):
            gap = confidence_interval([row[a] - row[b] for row in main])
            comparisons.append({"a": labels[a], "b": labels[b], "difference": gap.to_json(),
                                "significant": gap.excludes(0.0)})
    pots: list[dict[str, Any]] = []
    hands = sum(t.hands for t in tasks)
    if config.family.has_board and tasks:
        for pot in tasks[0].pots:
            won = sum(t.pots[pot][0] for t in tasks)
            carried = sum(t.pots[pot][1] for t in tasks)
            chips = sum(t.pots[pot][2] for t in tasks)
            pots.append({"pot": pot, "won": won, "carried_over": carried,
                         "won_rate": round(won / hands, 6) if hands else None,
                         "carried_rate": round(carried / hands, 6) if hands else None,
                         "mean_size_when_won": round(chips / won, 6) if won else None})
    board_left = sum(t.board_end for t in tasks) / len(tasks) if tasks else 0.0
    return Report(config, entries, comparisons, pots, tasks, hands, len(tasks),
                  sum(1 for t in tasks if not t.finished), board_left, elapsed)


def _fmt(stat: Stat | None, scale: float = 1.0, digits: int = 2) -> tuple[str, str]:
    if stat is None:
        return "", ""
    mean = f"{stat.mean * scale:+.{digits}f}" if scale == 1.0 else f"{stat.mean * scale:.{digits - 1}f}%"
    if stat.low is None or stat.high is None:
        return mean, "n/a"
    if scale == 1.0:
        return mean, f"[{stat.low:+.{digits}f}, {stat.high:+.{digits}f}]"
    return mean, f"[{stat.low * scale:.{digits - 1}f}%, {stat.high * scale:.{digits - 1}f}%]"


def render_tables(report: Report) -> list[Any]:
    """Rich renderables: a heading and the entries' table, then (stops games) the pots'."""
    from rich.table import Table
    from rich.text import Text

    c = report.config
    name = c.ruleset if isinstance(c.ruleset, str) else c.ruleset.get("name", "custom")
    board = c.family.has_board
    if board:
        title = (f"{name}: {c.players} players, {counted(c.blocks, 'deal sequence')} x {c.players} rotations, "
                 f"{counted(c.hands or 0, 'hand')} per evening ({counted(report.hands, 'hand')} played), seed {c.seed}")
    else:
        title = (f"{name}: {c.players} players, {counted(c.blocks, 'deal sequence')} x {c.players} rotations "
                 f"({counted(report.games, 'game')}, {counted(report.hands, 'hand')}), seed {c.seed}")
    table = Table()
    table.add_column("entry")
    table.add_column("bot")
    if board:
        table.add_column("chips/hand", justify="right")
        table.add_column("95% CI", justify="right")
        for e in report.entries:
            table.add_row(str(e.entry), e.label, *map(Text, _fmt(e.main)))
    else:
        for head in ("win rate", "95% CI", "points/game", "95% CI"):
            table.add_column(head, justify="right")
        for e in report.entries:
            table.add_row(str(e.entry), e.label, *map(Text, (*_fmt(e.main, 100.0), *_fmt(e.points, digits=1))))
    tables: list[Any] = [Text(title), table]
    if report.comparisons:
        what = "chips per hand" if board else "win rate"
        tables.append(Text(f"Pairwise ({what}, paired by deal sequence; 'yes' when the 95% interval excludes 0)"))
        pairs = Table()
        for head in ("entry", "minus", "difference", "95% CI", "clear?"):
            pairs.add_column(head, justify="left" if head in ("entry", "minus") else "right")
        scale = 1.0 if board else 100.0
        for row in report.comparisons:
            d = row["difference"]
            ci = d["ci95"]
            stat = Stat(d["mean"], ci[0] if ci else None, ci[1] if ci else None, d["n"])
            mean, interval = _fmt(stat, scale)
            if scale != 1.0:  # a gap in win rate is in points of percentage, with a sign
                mean = f"{stat.mean * scale:+.1f}%"
            pairs.add_row(row["a"], row["b"], mean, interval, "yes" if row["significant"] else "no")
        tables.append(pairs)
    if board and report.pots:
        tables.append(Text(f"Pots (chips left on the board after an evening: {report.board_left:.1f} on average)"))
        pots = Table()
        for head in ("pot", "won", "carried over", "mean size when won"):
            pots.add_column(head, justify="left" if head == "pot" else "right")
        for p in report.pots:
            pots.add_row(p["pot"], f"{100 * (p['won_rate'] or 0):.1f}%", f"{100 * (p['carried_rate'] or 0):.1f}%",
                         "" if p["mean_size_when_won"] is None else f"{p['mean_size_when_won']:.1f}")
        tables.append(pots)
    return tables
