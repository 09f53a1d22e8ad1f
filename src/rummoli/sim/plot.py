"""``--plot``: the whole tournament in one chart.

For each line-up entry, the mean chips won since the start of an evening (the score of a game for the
Rummy family) after each hand, averaged over every evening it played, with its 95% interval over the
deal sequences as a band.  The slope of a line is that entry's chips per hand; the legend gives it.
"""

from __future__ import annotations

from pathlib import Path

from rummoli.sim.report import Report
from rummoli.sim.stats import Stat, confidence_interval


def curves(report: Report) -> list[tuple[str, list[Stat]]]:
    """Per entry: after each hand k (0 = before the first), the change since the start, one value per deal
    sequence (its rotations pooled), as a mean with its interval.  Shorter evenings carry their last value."""
    config = report.config
    n = config.players
    length = max(len(t.stacks) for t in report.tasks)
    out = []
    for entry, label in enumerate(config.labels()):
        per_block: list[list[float]] = []
        for block in range(config.blocks):
            group = report.tasks[block * n:(block + 1) * n]
            rows = []
            for task in group:
                seat = task.seats.index(entry)
                stacks = task.stacks + [task.stacks[-1]] * (length - len(task.stacks))
                rows.append([row[seat] - stacks[0][seat] for row in stacks])
            per_block.append([sum(r[k] for r in rows) / len(rows) for k in range(length)])
        out.append((label, [confidence_interval([b[k] for b in per_block]) for k in range(length)]))
    return out


def plot_report(report: Report, path: str | Path) -> Path:
    """Draw ``report`` to a PNG file (matplotlib, Agg backend); returns the path."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    c = report.config
    name = c.ruleset if isinstance(c.ruleset, str) else c.ruleset.get("name", "custom")
    stops = c.family.has_board
    figure = Figure(figsize=(8, 4.5), dpi=100)
    axes = figure.subplots()
    per_hand = {e.label: e.main for e in report.entries}
    for label, stats in curves(report):
        x = list(range(len(stats)))
        legend = f"{label}: {per_hand[label].mean:+.2f} chips/hand" if stops else label
        line = axes.plot(x, [s.mean for s in stats], label=legend)[0]
        lows = [s.low for s in stats[1:] if s.low is not None]
        highs = [s.high for s in stats[1:] if s.high is not None]
        if len(lows) == len(highs) == len(stats) - 1:  # every point has an interval (two or more sequences)
            axes.fill_between(x[1:], lows, highs, color=line.get_color(), alpha=0.2, linewidth=0)
    unit = "evening" if stops else "game"
    axes.set_title(f"{name}: {c.tasks} {unit}s, {c.blocks} deal sequences (seed {c.seed}); bands: 95% interval",
                   fontsize="medium")
    axes.set_xlabel(f"hands into the {unit}")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("mean chips won since the start" if stops else "mean score")
    axes.axhline(0, color="grey", linewidth=0.5)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="best", fontsize="small")
    figure.tight_layout()
    out = Path(path)
    figure.savefig(out, format="png")
    return out
