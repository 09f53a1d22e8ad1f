"""The simulation lab: tournaments of bot line-ups over duplicate deals (``rummoli sim``).

A benchmark or the web server calls :func:`run_tournament` with a :class:`SimConfig` and reads the
:class:`Report` (``report.to_json()``, ``report.entry("hard").main``, ``report.gap(0, 1)``).

* :mod:`~rummoli.sim.config` -- :class:`SimConfig`, validation, seeds derived per task;
* :mod:`~rummoli.sim.play` -- one task: an evening or a game for one rotation of the line-up;
* :mod:`~rummoli.sim.runner` -- tasks across worker processes, gathered in task order;
* :mod:`~rummoli.sim.report` -- statistics per entry and per pot, JSON and rich tables;
* :mod:`~rummoli.sim.stats` -- means with 95% Student-t intervals;
* :mod:`~rummoli.sim.plot` -- the whole tournament as a PNG: mean chips per level, hand by hand, with intervals.
"""

from rummoli.sim.config import SimConfig, SimError, derive_seed
from rummoli.sim.play import TaskResult, run_task
from rummoli.sim.report import EntryStats, Report, build_report
from rummoli.sim.runner import run_tasks, run_tournament
from rummoli.sim.stats import Stat, confidence_interval

__all__ = [
    "EntryStats",
    "Report",
    "SimConfig",
    "SimError",
    "Stat",
    "TaskResult",
    "build_report",
    "confidence_interval",
    "derive_seed",
    "run_task",
    "run_tasks",
    "run_tournament",
]
