"""Running a tournament: tasks across worker processes, results gathered in task order."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from rummoli.sim.config import SimConfig
from rummoli.sim.play import TaskResult, run_task
from rummoli.sim.report import Report, build_report

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each task."""


def run_tasks(config: SimConfig, progress: Progress | None = None) -> list[TaskResult]:
    """Every task of a checked configuration, in task order (whatever order the workers finish in)."""
    total = config.tasks
    workers = config.worker_count()
    results: list[TaskResult | None] = [None] * total
    if workers == 1:
        for task in range(total):
            results[task] = run_task(config, task)
            if progress:
                progress(task + 1, total)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: dict[Future[TaskResult], int] = {}
            queue = iter(range(total))
            done = 0

            def submit() -> None:
                task = next(queue, None)
                if task is not None:
                    pending[pool.submit(run_task, config, task)] = task

            for _ in range(2 * workers):  # a short queue keeps every worker busy and cancels cheaply
                submit()
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    results[pending.pop(future)] = future.result()
                    done += 1
                    submit()
                    if progress:
                        progress(done, total)
    return [r for r in results if r is not None]


def run_tournament(config: SimConfig, progress: Progress | None = None) -> Report:
    """Validate ``config``, play every task and aggregate the :class:`Report`.

    >>> report = run_tournament(SimConfig("michigan", ("random", "random", "random"), hands=3, blocks=2,
    ...                                   seed=7, workers=1))
    >>> [e.label for e in report.entries], report.game, len(report.tasks)
    (['random#1', 'random#2', 'random#3'], 'stops', 6)
    """
    config = config.checked()
    start = time.perf_counter()
    tasks = run_tasks(config, progress)
    return build_report(config, tasks, time.perf_counter() - start)
