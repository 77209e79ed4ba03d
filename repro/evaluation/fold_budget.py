"""A time budget per fold: folds that run past it are stopped and reported as "did not finish".

joblib cannot stop one task of a batch, so with a budget the folds of a cell run in a pool of
worker processes of their own (loky's, as joblib's), at most ``n_jobs`` at a time, each
timed from its submission to workers that are already started and have loaded what the folds
need (a worker's start-up is not charged to a fold). When a fold passes its budget, the pool's
workers are killed (the only way to stop a running fold), the late fold is reported with the
time it ran, and the folds that were running beside it start again in a fresh pool: they lose at
most one budget of work, and a fold that finishes is the same whatever the budget. (benchopt
records runs over its time limit the same way: stopped, kept, marked.)
"""

from __future__ import annotations

import numbers
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, wait

from joblib.externals.loky import ProcessPoolExecutor

from repro.runtime.cores import resolve_n_jobs

#: the metric row of a fold stopped at its budget (value 1.0; its ``fit_time`` is the time it ran)
DID_NOT_FINISH = "did_not_finish"


def check_timeout(timeout) -> float | None:
    """``timeout``: seconds per fold, a number > 0, or None (no budget)."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real) or not timeout > 0:
        raise ValueError(
            f"timeout must be a number of seconds > 0 per fold, or null for no budget; "
            f"got {timeout!r}"
        )
    return float(timeout)


def did_not_finish_rows(elapsed: float) -> list[tuple[str, str, float]]:
    """The record rows of a fold stopped after ``elapsed`` seconds."""
    return [("model", DID_NOT_FINISH, 1.0), ("model", "fit_time", float(elapsed))]


def run_with_budget(
    call: Callable, tasks: Iterable, n_jobs: int, timeout: float
) -> Iterator[tuple[object, object, float | None]]:
    """Run ``call(task)`` for every task in worker processes, at most ``n_jobs`` at a time.

    Yields ``(task, result, None)`` for a task that finished and ``(task, None, elapsed)`` for
    one stopped after ``elapsed`` ≥ ``timeout`` seconds, in the order they end. An exception of
    ``call`` is raised here, as joblib would. ``n_jobs=-1``: one per core this process may use
    (:func:`repro.runtime.cores.resolve_n_jobs`)."""
    n_jobs = resolve_n_jobs(n_jobs)
    queue = list(tasks)
    running: dict = {}
    executor = _ready(ProcessPoolExecutor(max_workers=n_jobs), call, n_jobs)
    try:
        while queue or running:
            while queue and len(running) < n_jobs:
                task = queue.pop(0)
                running[executor.submit(call, task)] = (task, time.monotonic())
            first_deadline = min(start for _, start in running.values()) + timeout
            done, _ = wait(
                running, timeout=max(0.0, first_deadline - time.monotonic()),
                return_when=FIRST_COMPLETED,
            )  # fmt: skip
            for future in done:
                task, _ = running.pop(future)
                yield task, future.result(), None
            now = time.monotonic()
            late = [f for f, (_, start) in running.items() if now - start >= timeout]
            if not late:
                continue
            for future in late:
                task, start = running.pop(future)
                yield task, None, now - start
            queue = [task for task, _ in running.values()] + queue  # restarted, from scratch
            running = {}
            executor.shutdown(wait=False, kill_workers=True)
            executor = _ready(ProcessPoolExecutor(max_workers=n_jobs), call, n_jobs)
    finally:  # its own pool (joblib's shared one is left alone), stopped with its folds
        executor.shutdown(wait=False, kill_workers=True)


def _ready(executor, call: Callable, n_jobs: int):
    """``executor`` once each of its workers has started and unpickled ``call`` (importing the
    modules it needs), so that the budget times the folds alone."""
    wait([executor.submit(_loaded, call) for _ in range(n_jobs)])
    return executor


def _loaded(call) -> int:
    time.sleep(0.05)  # long enough for the others to go to other workers
    return os.getpid()
