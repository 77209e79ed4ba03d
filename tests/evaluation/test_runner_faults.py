"""Issue 31, the runner's faults, each as an assertion: cell files complete or absent (partial,
duplicated and empty files), names that would leave the results folder, command-line values
checked by type and range, locks that cannot deadlock (self-owned, reused pid, torn), a full disk,
SIGTERM / SIGINT / SIGKILL of a run with n_jobs=2 (workers end with it; the run resumes to the
records of an uninterrupted one)."""

import errno
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest

from repro.cli.arguments import UsageError, check_top_level
from repro.datasets.dataset import Dataset
from repro.evaluation import runner, store
from repro.evaluation.locks import cell_lock, is_stale, lock_path
from repro.evaluation.records import CorruptFileWarning, IncompleteCellWarning

ROOT = Path(__file__).resolve().parents[2]


def _dataset(name="toy"):
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = pd.DataFrame({"x1": rng.normal(size=60) + (y == "b") * 2, "x2": rng.normal(size=60)})
    return Dataset(name, X, y, {"source": "test"})


def _counting(monkeypatch):
    """Count the folds fitted in this process (``calls``: their fold numbers)."""
    calls, original = [], runner.run_fold
    monkeypatch.setattr(runner, "run_fold", lambda *a: (calls.append(a[3].fold), original(*a))[1])
    return calls


def _values(records):
    """The records but their timings, timestamps and checkout's revision (a commit may land
    between two runs), in one order: what a rerun reproduces."""
    keep = records[~records["metric"].str.endswith("_time")]
    keep = keep.sort_values(["repetition", "fold", "split", "metric"]).reset_index(drop=True)
    return keep.drop(columns=["timestamp", "git_revision"])


# ---------------------------------------------------------- cell files: complete or absent
@pytest.mark.parametrize("damage", ["half the folds", "a fold twice"])
def test_a_cell_file_without_all_its_folds_once_is_a_checkpoint(tmp_path, monkeypatch, damage):
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5")
    first = runner.run_cell(cell, results_dir=tmp_path)
    path = cell.path(tmp_path)
    if damage == "half the folds":  # a merge or an edit gone wrong
        first[first["fold"] < 2].to_parquet(path)
        recomputed, message = [2, 3, 4], "lacks 3 of its 5 folds"
    else:
        pd.concat([first, first[first["fold"] == 1]]).to_parquet(path)
        recomputed, message = [], "holds folds that are not the cell's or are there twice"
    calls = _counting(monkeypatch)
    with pytest.warns(IncompleteCellWarning, match=message):
        again, computed = runner.cell_records(cell, results_dir=tmp_path)
    assert computed and sorted(calls) == recomputed  # resumed: only the missing folds
    pd.testing.assert_frame_equal(_values(again), _values(first))
    stored = pd.read_parquet(path)
    assert len(stored) == len(first) and not cell.parts_path(tmp_path).exists()
    assert runner.cell_records(cell, results_dir=tmp_path)[1] is False  # now read, complete


def test_an_empty_cell_file_is_recomputed_not_another_configuration(tmp_path, monkeypatch):
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5")
    first = runner.run_cell(cell, results_dir=tmp_path)
    first.iloc[:0].to_parquet(cell.path(tmp_path))  # zero rows, the columns of records
    calls = _counting(monkeypatch)
    with pytest.warns(CorruptFileWarning, match="holds no records: an empty cell file"):
        again = runner.run_cell(cell, results_dir=tmp_path)
    assert sorted(calls) == [0, 1, 2, 3, 4]
    pd.testing.assert_frame_equal(_values(again), _values(first))


def test_fold_keys_are_those_of_the_protocols_splits():
    ds = _dataset()
    for protocol in ("cv5", {"name": "cv10x30", "n_repeats": 2}, "holdout70"):
        cell = runner.make_cell("nb_gaussian", ds, protocol)
        assert cell.fold_keys() == [(s.repetition, s.fold) for s in cell.fold_splits()]


# ---------------------------------------------------------- names that become paths
def test_names_that_would_leave_the_results_folder_are_refused(tmp_path, monkeypatch):
    results = tmp_path / "a" / "results"
    calls = _counting(monkeypatch)
    with pytest.raises(ValueError, match=r"experiment name '\.\./\.\./escaped' would put files"):
        runner.evaluate("nb_gaussian", _dataset(), "cv5", experiment="../../escaped",
                        results_dir=results)  # fmt: skip
    with pytest.raises(ValueError, match=r"data set name '\.\./\.\./escaped' would put files"):
        runner.evaluate("nb_gaussian", _dataset("../../escaped"), "cv5", results_dir=results)
    with pytest.raises(ValueError, match="experiment name '/abs'"):
        runner.evaluate("nb_gaussian", _dataset(), "cv5", experiment="/abs", results_dir=results)
    assert calls == [] and not any(tmp_path.rglob("*.parquet"))  # refused before any fold
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5")
    cell.method_id = ".."
    with pytest.raises(ValueError, match=r"method \(file name of the cell\) '\.\.'"):
        cell.path(results)
    with pytest.raises(UsageError, match="experiment_name '../x' would put files outside"):
        check_top_level(["experiment_name=../x"])
    check_top_level(["experiment_name=mine/sub"])  # a study's folder inside results_dir is fine


# ---------------------------------------------------------- values checked by type and range
@pytest.mark.parametrize("n_jobs", [1.5, 0, -2, True, "two"])
def test_n_jobs_must_be_an_integer_at_least_1_or_minus_1(n_jobs, monkeypatch):
    calls = _counting(monkeypatch)
    with pytest.raises(ValueError, match=f"n_jobs must be an integer ≥ 1 .* got {n_jobs!r}"):
        runner.evaluate("nb_gaussian", _dataset(), "cv5", n_jobs=n_jobs)
    assert calls == []
    assert runner.check_fold_jobs(-1) == -1 and runner.check_fold_jobs("2") == 2


def test_seed_is_checked_against_numpys_range_before_any_fold(tmp_path, monkeypatch):
    calls = _counting(monkeypatch)
    for seed in (2**64, 2**32, -1):
        with pytest.raises(
            ValueError, match=f"seed must be an integer from 0 to 2\\*\\*32 - 1.*{seed}"
        ):
            runner.evaluate("nb_gaussian", _dataset(), "cv5", seed=seed, results_dir=tmp_path)
    assert calls == [] and not any(tmp_path.rglob("*"))  # no empty .parts left
    assert runner.check_seed(2**32 - 1) == 2**32 - 1
    rec = runner.evaluate("nb_gaussian", _dataset(), "cv5", seed=2**32 - 1)
    assert set(rec["seed"]) == {2**32 - 1}


@pytest.mark.parametrize(
    "arg, message",
    [
        ("n_jobs=0", "n_jobs must be an integer ≥ 1, or -1"),
        ("n_jobs=1.5", "n_jobs must be an integer ≥ 1, or -1"),
        ("seed=18446744073709551616", "seed must be an integer from 0 to 2\\*\\*32 - 1"),
        ("protocol=CV5", "Did you mean 'cv5'"),
    ],
)
def test_the_command_line_checks_values_and_suggests_names_in_any_case(arg, message):
    with pytest.raises(UsageError, match=message):
        check_top_level([arg])


def test_names_of_other_case_are_the_catalogs():
    from repro.__main__ import CommandLineError, resolve_overrides

    assert resolve_overrides(["dataset=IRIS,Wine", "method=NB_Gaussian"]) == [
        "dataset=iris,wine",
        "method=nb_gaussian",
    ]
    with pytest.raises(CommandLineError, match="Did you mean 'iris'"):
        resolve_overrides(["dataset=IRSI"])


# ---------------------------------------------------------- locks that cannot deadlock
def _start_time(pid):
    return psutil.Process(pid).create_time()


def test_stale_locks_self_owned_reused_pid_and_torn(tmp_path):
    host, me = socket.gethostname(), os.getpid()
    lock = tmp_path / "x.lock"
    parent = os.getppid()  # a live process of this host
    # this very pid, not held by this process: pid 1 again after a container restart
    assert is_stale(lock, f"{me} {host}")
    assert is_stale(lock, f"{me} {host} {_start_time(me) - 100:.2f} cafe")
    # a pid now of another live process (another start time)
    assert is_stale(lock, f"{parent} {host} {_start_time(parent) - 5:.2f} cafe")
    assert not is_stale(lock, f"{parent} {host} {_start_time(parent):.2f} cafe")  # its holder
    assert not is_stale(lock, f"{parent} {host}")  # an old lock of a live process
    assert not is_stale(lock, f"{parent} another-host 1.00 cafe")  # cannot be checked
    assert is_stale(lock, f"0 {host} 1.00 cafe") and is_stale(lock, f"0 {host}")  # no pid 0
    for torn in ("", "12", f"{parent} {host} 1.00", "not a lock at all"):
        assert is_stale(lock, torn)  # empty or torn: stale at once


@pytest.mark.parametrize("content", ["", "{pid} {host}\n", "{pid} {host} 1.00 cafe\n"])
def test_a_run_takes_over_a_torn_or_self_named_lock_at_once(tmp_path, content, capsys):
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5")
    lock = lock_path(cell.path(tmp_path))
    lock.parent.mkdir(parents=True)
    lock.write_text(content.format(pid=os.getpid(), host=socket.gethostname()))
    start = time.monotonic()
    runner.run_cell(cell, results_dir=tmp_path)
    assert time.monotonic() - start < 30 and not lock.exists()
    assert "removing the stale lock" in capsys.readouterr().err


def test_a_lock_of_another_host_says_how_to_remove_it(tmp_path, capsys):
    path = tmp_path / "x.parquet"
    lock_path(path).write_text("4242 another-host 1.00 cafe\n")
    with pytest.raises(TimeoutError), cell_lock(path, timeout=0.3, what="x"):
        pass
    err = capsys.readouterr().err
    assert "waiting for x: process 4242 on another-host computes it; if that process no " in err
    assert f"`rm {lock_path(path)}` frees the cell" in err


def test_a_held_lock_names_its_process_and_is_never_empty(tmp_path):
    path = tmp_path / "x.parquet"
    with cell_lock(path) as held:
        pid, host, started, token = lock_path(path).read_text().split()
        assert held and int(pid) == os.getpid() and host == socket.gethostname()
        assert abs(float(started) - _start_time(os.getpid())) < 0.05 and len(token) == 16
        assert not is_stale(lock_path(path), lock_path(path).read_text())  # held here
    assert not lock_path(path).exists()


def test_a_full_disk_leaves_no_lock_and_no_cell_file(tmp_path, monkeypatch):
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)  # the lock's content cannot be written
    with cell_lock(cell.path(tmp_path)) as held:
        assert held is False  # not taken: the work goes on unlocked
    assert not lock_path(cell.path(tmp_path)).exists()
    monkeypatch.undo()
    monkeypatch.setattr(store, "write_atomic", full)  # the record writer of the results store
    with pytest.raises(OSError, match="No space left"):
        runner.run_cell(cell, results_dir=tmp_path)
    folder = cell.path(tmp_path).parent
    assert list(folder.iterdir()) == []  # no lock, no cell file, no temporary file
    monkeypatch.undo()
    rec = runner.run_cell(cell, results_dir=tmp_path)  # the disk freed: the same run completes
    assert rec["fold"].nunique() == 5


def test_a_failed_cell_whose_error_file_cannot_be_written_is_still_summarised(monkeypatch):
    from repro.cli import sweep_status

    monkeypatch.setattr(sweep_status, "HydraConfig", _FakeHydra)
    with sweep_status.status_folder() as folder:
        monkeypatch.setattr(Path, "write_text", _disk_full)
        sweep_status.report_job_status(error="OSError: full", error_file="(not written)")
        monkeypatch.undo()
        total, failed = sweep_status.sweep_summary(folder())
    assert total == 1 and failed[0]["error"] == "OSError: full"


def _disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


class _FakeHydra:
    @staticmethod
    def get():
        class Cfg:
            class job:
                num = 3

            class overrides:
                task = ["dataset=iris"]

        return Cfg


# ---------------------------------------------------------- SIGTERM / SIGINT / SIGKILL, n_jobs=2
SLOW_CELL = textwrap.dedent(
    """
    import os, sys, time
    import numpy as np, pandas as pd
    from sklearn.naive_bayes import GaussianNB
    from repro.datasets.dataset import Dataset
    from repro.evaluation import runner

    class SlowNB(GaussianNB):
        def fit(self, X, y, sample_weight=None):
            time.sleep(float(os.environ.get("SLOW_FIT", "0")))  # slow in the killed run only
            return super().fit(X, y, sample_weight)

    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = pd.DataFrame({"x1": rng.normal(size=60) + (y == "b") * 2, "x2": rng.normal(size=60)})
    if __name__ == "__main__":
        print("ready", flush=True)
        runner.evaluate(SlowNB(), Dataset("toy", X, y), "cv10", n_jobs=2, results_dir=sys.argv[1])
    """
)


def _interrupted_run(tmp_path, sig):
    """Run a 10-fold cell with n_jobs=2 in a subprocess, send ``sig`` once 3 folds are stored;
    (return code, stderr, the children that outlived it)."""
    (tmp_path / "slow_cell.py").write_text(SLOW_CELL)
    results = tmp_path / "results"
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "SLOW_FIT": "0.4"}
    proc = subprocess.Popen(
        [sys.executable, str(tmp_path / "slow_cell.py"), str(results)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline, parts = time.monotonic() + 120, results / "default" / "toy"
    while len(list(parts.glob("*.parts/*.parquet"))) < 3 and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    children = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    time.sleep(PARENT_GRACE)
    alive = [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    for child in alive:
        child.kill()
    return proc.returncode, err, alive, results


#: seconds after which the fold workers of a killed run are gone (they look every second)
PARENT_GRACE = 3.0


def test_sigterm_in_process_releases_the_lock_and_resumes_to_the_same_records(
    tmp_path, monkeypatch
):
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5")
    whole = runner.run_cell(cell, results_dir=tmp_path / "whole")
    original, done = runner.run_fold, []

    def terminated(estimator, X, y, split, *args):
        if len(done) == 2:
            os.kill(os.getpid(), signal.SIGTERM)  # what SLURM, Kubernetes and kill send
        done.append(split.fold)
        return original(estimator, X, y, split, *args)

    monkeypatch.setattr(runner, "run_fold", terminated)
    with pytest.raises(runner.Terminated):
        runner.run_cell(cell, results_dir=tmp_path)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored
    assert not lock_path(cell.path(tmp_path)).exists() and not cell.path(tmp_path).exists()
    assert len(list(cell.parts_path(tmp_path).glob("*.parquet"))) == 2
    monkeypatch.setattr(runner, "run_fold", original)
    calls = _counting(monkeypatch)
    resumed = runner.run_cell(cell, results_dir=tmp_path)
    assert len(calls) == 3
    pd.testing.assert_frame_equal(_values(resumed), _values(whole))


@pytest.mark.slow
def test_sigterm_with_two_workers_keeps_the_folds_and_resumes_to_the_same_records(tmp_path):
    code, err, alive, results = _interrupted_run(tmp_path, signal.SIGTERM)
    assert code != 0 and "Terminated" in err, err  # handled: the run's clean-up ran
    assert alive == []  # no worker, no resource tracker outlives it
    folder = results / "default" / "toy"
    assert not list(folder.glob("*.lock")) and not list(folder.glob("*.parquet"))
    kept = len(list(folder.glob("*.parts/*.parquet")))
    assert 3 <= kept < 10

    sys.path.insert(0, str(tmp_path))
    try:
        import slow_cell
    finally:
        sys.path.remove(str(tmp_path))
    ds = Dataset("toy", slow_cell.X, slow_cell.y)
    fitted = []
    original = slow_cell.SlowNB.fit
    slow_cell.SlowNB.fit = lambda self, *a, **k: (fitted.append(1), original(self, *a, **k))[1]
    try:
        whole = runner.evaluate(slow_cell.SlowNB(), ds, "cv10", results_dir=tmp_path / "whole")
        fitted.clear()  # (and its untimed warm-up fit)
        resumed = runner.evaluate(slow_cell.SlowNB(), ds, "cv10", results_dir=results)
    finally:
        slow_cell.SlowNB.fit = original
    assert len(fitted) == 10 - kept  # resumed: the missing folds only
    pd.testing.assert_frame_equal(_values(resumed), _values(whole))


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_or_interrupted_runs_leave_no_worker_alive(tmp_path, sig):
    code, _, alive, results = _interrupted_run(tmp_path, sig)
    assert code == -sig or code != 0
    assert alive == []
    folder = results / "default" / "toy"
    if sig == signal.SIGKILL:  # its lock stays, stale at once for the next run of this host
        (lock,) = folder.glob("*.lock")
        assert is_stale(lock, lock.read_text())
    assert len(list(folder.glob("*.parts/*.parquet"))) >= 3


@pytest.mark.slow
def test_sigterm_of_a_sweep_exits_143_with_the_resume_line(tmp_path):
    conf = tmp_path / "conf"
    (conf / "method").mkdir(parents=True)
    (conf / "slow_nb.py").write_text(
        "import time\nfrom sklearn.naive_bayes import GaussianNB\n\n\n"
        "class SlowNB(GaussianNB):\n    def fit(self, X, y, sample_weight=None):\n"
        "        time.sleep(0.4)\n        return super().fit(X, y, sample_weight)\n"
    )
    (conf / "method" / "slow_nb.yaml").write_text("_target_: slow_nb.SlowNB\n")
    results = tmp_path / "results"
    args = [
        sys.executable, "-m", "repro", "-m", f"--config-dir={conf}", "method=slow_nb",
        "dataset=iris,wine", "n_jobs=2", f"results_dir={results}", "progress=false",
    ]  # fmt: skip
    proc = subprocess.Popen(
        args, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not list(results.glob("**/*.parts/*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "interrupted: every finished fold is kept" in err and "again to resume" in err
    assert not list(results.glob("**/*.lock"))


# ---------------------------------------------------------- NaN metrics never dropped silently
def _nan_records():
    """auc of 3 methods on 4 data sets × 5 folds; A lacks fold 3 on d0, B every fold on d1."""
    rng = np.random.default_rng(1)
    rows = []
    for d in range(4):
        for m, shift in (("A", 0.0), ("B", 0.05), ("C", 0.1)):
            for f in range(5):
                value = 0.7 + shift + 0.01 * d + 0.001 * rng.normal()
                if (m, d, f) == ("A", 0, 3) or (m, d) == ("B", 1):
                    value = np.nan
                rows.append((m, f"d{d}", 0, f, "test", "auc", value))
    columns = ["method", "dataset", "repetition", "fold", "split", "metric", "value"]
    return pd.DataFrame(rows, columns=columns)


def test_compare_says_which_folds_lack_a_value_and_averages_the_others():
    from repro.report.compare import run_compare

    records = _nan_records()
    res = run_compare(records, "auc", "holm")
    assert res["left_out"] == ["d1"] and list(res["table"].index) == ["d0", "d2", "d3"]
    expected = records.query("method == 'A' and dataset == 'd0'")["value"].dropna().mean()
    assert res["table"].at["d0", "A"] == pytest.approx(expected)  # over the 4 folds with one
    assert res["missing"] == [
        "A on d0: no auc on fold(s) r0f3; mean over the other 4 of 5 folds (n = 4)",
        "B on d1: no auc on fold(s) r0f0, r0f1, r0f2, r0f3, r0f4; no value on any fold: left out",
    ]


def test_a_reproduction_with_an_all_nan_cell_reports_what_it_can():
    from repro.report.reproduction import compare_reported

    records = _nan_records()
    reported = pd.DataFrame(
        [
            ("A", "d0", "auc", 0.7, "Table 3"),
            ("B", "d1", "auc", 0.75, "Table 3"),
            ("A", "mean", "auc", 0.7, "Table 3"),
            ("B", "mean", "auc", 0.75, "Table 3"),
            ("C", "rank", "auc", 1.0, "Table 3"),
        ],
        columns=["method", "dataset", "metric", "value", "table"],
    )
    out = compare_reported(reported, records).set_index(["method", "dataset"])
    assert out.at[("A", "d0"), "note"] == "mean over 4 of 5 folds (n = 4; the others have no value)"
    assert np.isnan(out.at[("B", "d1"), "reproduced"])
    assert out.at[("B", "d1"), "note"] == "not reproduced (no auc on any of the 5 folds)"
    note = "over 3 data sets (left out, a method has no auc there: d1)"
    assert out.at[("A", "mean"), "note"] == note and out.at[("C", "rank"), "reproduced"] == 1.0
    means = records[records["dataset"] != "d1"].groupby(["method", "dataset"])["value"].mean()
    assert out.at[("B", "mean"), "reproduced"] == pytest.approx(means["B"].mean())
