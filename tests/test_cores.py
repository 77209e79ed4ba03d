"""The cores a fit may use (repro.runtime.cores): ``n_jobs`` against the affinity mask, and the
threads of a parallel kernel on a busy machine, on hand-computed cases (nothing timed)."""

import os

import numba
import numpy as np
import pytest

from repro import make_method
from repro.datasets import load_dataset
from repro.runtime import cores


@pytest.mark.parametrize(
    ("requested", "n_cores", "busy", "expected"),
    [
        (2, 2, 0.0, 2),  # quiet: as asked
        (2, 2, 2.0, 1),  # every core busy: one thread, never 0
        (2, 2, 1.0, 1),  # one core free: ⌊2 − 1 + ½⌋ = 1
        (2, 2, 0.4, 2),  # ⌊2.1⌋ = 2
        (2, 2, 0.5, 2),  # ⌊2.0⌋ = 2 (half a core busy rounds to free)
        (2, 2, 0.6, 1),  # ⌊1.9⌋ = 1
        (16, 16, 1.0, 15),  # one thread per free core
        (16, 16, 15.7, 1),  # ⌊0.8⌋ = 0 → at least 1
        (16, 16, 40.0, 1),
        (4, 16, 0.0, 4),  # fewer asked than free
        (8, 4, 0.0, 4),  # never more than the cores
        (3, 8, 4.5, 3),  # ⌊4.0⌋ = 4 free, 3 asked
        (8, 8, 4.5, 4),
        (1, 8, 0.0, 1),
    ],
)
def test_threads_for_load(requested, n_cores, busy, expected):
    assert cores.threads_for_load(requested, n_cores, busy) == expected


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((0, 2, 0.0), "requested"),
        ((True, 2, 0.0), "requested"),
        ((2.0, 2, 0.0), "requested"),
        ((2, 0, 0.0), "cores"),
        ((2, 2, -0.1), "busy"),
        ((2, 2, float("nan")), "busy"),
        ((2, 2, "1"), "busy"),
    ],
)
def test_threads_for_load_rejects_bad_input(args, name):
    with pytest.raises(ValueError, match=name):
        cores.threads_for_load(*args)


@pytest.fixture
def no_quota(monkeypatch):
    """A machine of 64 cores and no CPU quota (joblib's cpu_count: affinity, cgroup, env)."""
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(cores, "cpu_count", lambda: 64)


def test_n_jobs_minus_one_is_the_cores_this_process_may_use(monkeypatch, no_quota):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    assert cores.allowed_cores() == 3
    expected = {None: 1, 1: 1, 4: 4, -1: 3, -2: 2, -3: 1, -5: 1}
    assert {n: cores.resolve_n_jobs(n) for n in expected} == expected
    monkeypatch.setattr(cores, "cpu_count", lambda: 2)  # a container's quota of 2 CPUs
    assert cores.allowed_cores() == 2 and cores.resolve_n_jobs(-1) == 2


def test_allowed_cores_without_an_affinity_mask(monkeypatch, no_quota):
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert cores.allowed_cores() == 6
    assert cores.resolve_n_jobs(-1) == 6


@pytest.mark.parametrize("bad", [0, 1.5, "2", True])
def test_resolve_n_jobs_rejects_bad_values(bad):
    with pytest.raises(ValueError, match="n_jobs must be None, an integer"):
        cores.resolve_n_jobs(bad)


def test_load_monitor_averages_other_processes_cpu_over_its_window(monkeypatch):
    """Readings (time, busy CPU seconds of the allowed cores, this process's CPU seconds)."""
    readings = iter(
        [
            (10.0, 500.0, 20.0),  # the first window starts
            (10.1, 500.2, 20.1),  # 0.1 s < MIN_WINDOW: the previous value (0) is kept
            (11.0, 502.0, 20.9),  # 1 s: 2.0 busy − 0.9 ours = 1.1 cores' worth elsewhere
            (11.5, 503.0, 21.4),  # 0.5 s: (1.0 − 0.5) / 0.5 = 1.0
            (12.0, 503.1, 21.5),  # 0.5 s: 0.1 − 0.1 = 0
        ]
    )
    monkeypatch.setattr(cores, "_cpu_reading", lambda: next(readings))
    monitor = cores._LoadMonitor()
    assert [round(monitor.busy(), 12) for _ in range(4)] == [0.0, 1.1, 1.0, 0.0]


def test_kernel_threads_on_the_measured_load(monkeypatch, no_quota):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(cores, "busy_cores", lambda: 2.6)
    monkeypatch.delenv(cores.POLICY_VARIABLE, raising=False)
    assert cores.kernel_threads(4) == 1  # ⌊4 − 2.6 + ½⌋ = 1
    assert cores.kernel_threads(8) == 1
    monkeypatch.setattr(cores, "busy_cores", lambda: 1.2)
    assert cores.kernel_threads(4) == 3  # ⌊3.3⌋
    monkeypatch.setenv(cores.POLICY_VARIABLE, "off")  # as asked, up to the cores
    assert cores.kernel_threads(2) == 2 and cores.kernel_threads(8) == 4
    monkeypatch.setattr(cores, "busy_cores", lambda: pytest.fail("1 thread needs no reading"))
    monkeypatch.setenv(cores.POLICY_VARIABLE, "on")
    assert cores.kernel_threads(1) == 1


def test_a_busy_machine_leaves_snb_one_thread_with_the_same_model(monkeypatch, no_quota):
    """SNB(MAP) with n_jobs=2: its search on 2 threads when nothing else runs, on 1 when both
    cores are busy; n_jobs=-1 on one allowed core is 1 thread. Same weights every time."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here")
    ds = load_dataset("pima")
    monkeypatch.delenv(cores.POLICY_VARIABLE, raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    fits = {}
    for busy in (0.0, 2.0):
        monkeypatch.setattr(cores, "busy_cores", lambda busy=busy: busy)
        fits[busy] = make_method("snb_map", n_jobs=2).fit(ds.X, ds.y)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    one_core = make_method("snb_map", n_jobs=-1).fit(ds.X, ds.y)
    assert fits[0.0].fit_report_["search_threads"] == 2.0
    assert fits[2.0].fit_report_["search_threads"] == 1.0
    assert one_core.fit_report_["search_threads"] == 1.0
    np.testing.assert_array_equal(fits[0.0].weights_, fits[2.0].weights_)
    np.testing.assert_array_equal(fits[0.0].weights_, one_core.weights_)
