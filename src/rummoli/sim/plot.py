"""``--plot``: the chip stacks (scores for the Rummy family) over the first evening, one line per seat."""

from __future__ import annotations

from pathlib import Path

from rummoli.sim.report import Report


def plot_report(report: Report, path: str | Path) -> Path:
    """Draw the first evening of ``report`` to a PNG file (matplotlib, Agg backend); returns the path."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    first = report.first_evening()
    stacks = first["stacks"]
    figure = Figure(figsize=(8, 4.5), dpi=100)
    axes = figure.subplots()
    x = list(range(len(stacks)))
    for seat, label in enumerate(first["seats"]):
        axes.plot(x, [row[seat] for row in stacks], marker="." if len(x) <= 60 else None,
                  label=f"seat {seat}: {label}")
    c = report.config
    name = c.ruleset if isinstance(c.ruleset, str) else c.ruleset.get("name", "custom")
    what = "chips" if c.game == "stops" else "score"
    axes.set_title(f"{name}: {what} over the first {'evening' if c.game == 'stops' else 'game'} (seed {c.seed})")
    axes.set_xlabel("hand number")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel(what)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="best", fontsize="small")
    figure.tight_layout()
    out = Path(path)
    figure.savefig(out, format="png")
    return out
