"""A sweep's progress as it is checked and run: rich's bar on a terminal, a line now and then elsewhere."""

from __future__ import annotations

import sys
import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ..messages import printable

PROGRESS_EVERY_S = 5.0
"""Off a terminal (a log file, a batch job), how often a sweep's progress is written as a line."""


class _Bar(Progress):
    """rich's progress bar, which draws only on a terminal; elsewhere (output to a file or a pipe) a plain
    line on standard error every `PROGRESS_EVERY_S` seconds: a 10^6-point sweep is checked for minutes
    before it runs, which was silence off a terminal (issue 33)."""

    def __init__(self, *columns, disable: bool = False) -> None:
        super().__init__(*columns, disable=disable)
        self.lines = not disable and not self.console.is_terminal
        self.written = time.monotonic()

    def update(self, task_id, **kw) -> None:
        super().update(task_id, **kw)
        if self.lines and time.monotonic() - self.written >= PROGRESS_EVERY_S:
            self.written = time.monotonic()
            task = self._tasks[task_id]
            share = f" ({100 * task.completed / task.total:.0f} %)" if task.total else ""
            failed = task.fields.get("failed")
            print(printable(f"{task.description}: {task.completed:,.0f} of {task.total or 0:,.0f}{share}"
                            f"{', ' + failed if failed else ''}, {task.elapsed or 0:,.0f} s"), file=sys.stderr, flush=True)


def bar(progress: bool) -> Progress:
    """The bar of a sweep's check and run; none drawn or written unless `progress`."""
    return _Bar(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("[red]{task.fields[failed]}"), TextColumn("elapsed"), TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), disable=not progress,
    )

