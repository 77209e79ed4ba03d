"""The cores a fit may use: ``n_jobs`` resolved against this process's cores, and the threads a
parallel kernel gets while other processes keep cores busy.

- :func:`allowed_cores`: ``len(os.sched_getaffinity(0))``, the cores this process may run on (a
  ``taskset`` or a batch scheduler's limit), not the machine's ``os.cpu_count()``; no more than
  a container's CPU quota (joblib's ``cpu_count()``).
- :func:`resolve_n_jobs`: joblib's convention on those cores: None → 1, n ≥ 1 → n, −1 → all of
  them, −k → cores + 1 − k (at least 1). Every ``n_jobs`` of the package goes through it.
- :func:`threads_for_load` (the policy, a pure function): with ``busy`` cores' worth of CPU
  used by other processes, a parallel kernel asked for ``requested`` threads runs on

      threads = min(requested, cores, max(1, ⌊cores − busy + ½⌋))

  i.e. one thread per free core, rounded to the nearest, and never fewer than one.
- :func:`kernel_threads`: the policy on the load measured by :func:`busy_cores` (the CPU time
  of the allowed cores since the previous measurement, at least ``MIN_WINDOW`` seconds ago,
  minus this process's own; the time of niced processes counts only when this process is itself
  niced, since a process of lower priority gives its core up). ``REPRO_LOAD_POLICY=off`` in the
  environment turns the policy off (the requested threads, for comparisons).

Why: numba's threads meet at a barrier at the end of each parallel region, and the MS(FFWBW)
passes run thousands of short ones. When another process holds a core, the thread descheduled
there stalls every barrier for a time slice of the scheduler: ``n_jobs=2`` ran 10–25× slower
than ``n_jobs=1`` on a busy 2-core machine (``benchmarks/bench_busy.py``). A thread per free
core avoids the stall; the kernels' results do not depend on their number of threads.
"""

from __future__ import annotations

import math
import numbers
import os
import threading
import time

from joblib import cpu_count

#: shortest window (seconds) of a load measurement; a shorter one keeps the previous decision
MIN_WINDOW = 0.2
#: environment variable that turns the load policy off ("off", "0", "false", "no")
POLICY_VARIABLE = "REPRO_LOAD_POLICY"


def allowed_cores() -> int:
    """The number of cores this process may run on, at least 1: its affinity mask, bounded by
    joblib's ``cpu_count()`` (a container's CPU quota, ``LOKY_MAX_CPU_COUNT``), as for the
    worker processes joblib starts."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no affinity on this platform
        n = os.cpu_count() or 1
    return max(1, min(n, cpu_count()))


def resolve_n_jobs(n_jobs) -> int:
    """``n_jobs`` as a number of workers on :func:`allowed_cores` (joblib's convention: None → 1,
    −1 → every allowed core, −k → cores + 1 − k, at least 1); a ValueError for 0 or a
    non-integer."""
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise ValueError(
            f"n_jobs must be None, an integer ≥ 1, or a negative integer (-1: every core this "
            f"process may use), got {n_jobs!r}"
        )
    if n_jobs > 0:
        return int(n_jobs)
    return max(1, allowed_cores() + 1 + int(n_jobs))


def threads_for_load(requested: int, cores: int, busy: float) -> int:
    """Threads for a kernel asked for ``requested`` on ``cores`` cores of which ``busy`` cores'
    worth are used by other processes: min(requested, cores, max(1, ⌊cores − busy + ½⌋))."""
    if isinstance(requested, bool) or not isinstance(requested, numbers.Integral) or requested < 1:
        raise ValueError(f"requested must be an integer ≥ 1, got {requested!r}")
    if isinstance(cores, bool) or not isinstance(cores, numbers.Integral) or cores < 1:
        raise ValueError(f"cores must be an integer ≥ 1, got {cores!r}")
    if not (isinstance(busy, numbers.Real) and math.isfinite(busy) and busy >= 0):
        raise ValueError(f"busy must be a finite number ≥ 0 (cores' worth of CPU), got {busy!r}")
    free = max(1, math.floor(cores - busy + 0.5))
    return int(min(requested, cores, free))


def _cpu_reading() -> tuple[float, float, float]:
    """(monotonic time, busy CPU seconds of the allowed cores, CPU seconds of this process)."""
    import psutil

    per_cpu = psutil.cpu_times(percpu=True)
    try:
        allowed = [per_cpu[c] for c in sorted(os.sched_getaffinity(0)) if c < len(per_cpu)]
    except (AttributeError, OSError):
        allowed = per_cpu
    niced = os.getpriority(os.PRIO_PROCESS, 0) > 0
    busy = 0.0
    for t in allowed or per_cpu:
        busy += t.user + t.system + getattr(t, "irq", 0.0) + getattr(t, "softirq", 0.0)
        busy += getattr(t, "steal", 0.0) + (t.nice if niced else 0.0)
    own = os.times()
    return time.monotonic(), busy, own.user + own.system


class _LoadMonitor:
    """The CPU used by other processes on the allowed cores, averaged since the last reading."""

    def __init__(self):
        self._lock = threading.Lock()
        self._reading = _cpu_reading()
        self._busy = 0.0

    def busy(self) -> float:
        with self._lock:
            now = _cpu_reading()
            window = now[0] - self._reading[0]
            if window >= MIN_WINDOW:
                others = (now[1] - self._reading[1]) - (now[2] - self._reading[2])
                self._busy = max(0.0, others / window)
                self._reading = now
            return self._busy


_monitor = _LoadMonitor()  # the first window starts at import (kernels import this module)


def busy_cores() -> float:
    """Cores' worth of CPU used by other processes on the allowed cores, averaged since the
    previous measurement of this process (the first: since this module's import), or the
    previous value when that was less than ``MIN_WINDOW`` seconds ago (0 at first)."""
    return _monitor.busy()


def policy_enabled() -> bool:
    """False when ``REPRO_LOAD_POLICY`` is "off", "0", "false" or "no"."""
    return os.environ.get(POLICY_VARIABLE, "on").strip().lower() not in ("off", "0", "false", "no")


def kernel_threads(requested: int) -> int:
    """The threads a parallel kernel asked for ``requested`` threads runs on now
    (:func:`threads_for_load` on :func:`allowed_cores` and :func:`busy_cores`); 1 stays 1
    without a measurement."""
    requested = max(1, int(requested))
    if requested == 1:
        return 1
    if not policy_enabled():
        return min(requested, allowed_cores())
    return threads_for_load(requested, allowed_cores(), busy_cores())
