"""Issue 15, "Faults": each case as an assertion.

Two processes on one cell compute each fold once (a lock per cell, stale locks recovered); a
damaged cell file or checkpoint is moved aside with a warning and recomputed, and readers skip it;
checkpoints left beside a finished cell are removed on the next visit; OpenML without an answer
fails within seconds; an interrupted cell resumes from its finished folds. (A sweep's exit code:
test_cli_faults.py.)
"""

import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.datasets.dataset import Dataset, DatasetUnavailableError
from repro.evaluation import locks, runner
from repro.evaluation.locks import break_stale, breaker_guard_path, cell_lock, lock_path
from repro.evaluation.records import CorruptFileWarning, read_records

ROOT = Path(__file__).resolve().parents[2]


def _dataset():
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = pd.DataFrame({"x1": rng.normal(size=60) + (y == "b") * 2, "x2": rng.normal(size=60)})
    return Dataset("toy", X, y, {"source": "test"})


def _counting(monkeypatch):
    """Count the folds fitted in this process (``calls``: their fold numbers)."""
    calls, original = [], runner.run_fold
    monkeypatch.setattr(runner, "run_fold", lambda *a: (calls.append(a[3].fold), original(*a))[1])
    return calls


def _interrupt(monkeypatch, cell, results_dir, after: int = 3):
    """Run ``cell`` killed (a KeyboardInterrupt) after ``after`` folds; its checkpoint folder."""
    original, done = runner.run_fold, []

    def interrupted(estimator, X, y, split, *args):
        if len(done) == after:
            raise KeyboardInterrupt
        done.append(split.fold)
        return original(estimator, X, y, split, *args)

    monkeypatch.setattr(runner, "run_fold", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.run_cell(cell, results_dir=results_dir)
    monkeypatch.setattr(runner, "run_fold", original)
    parts = cell.parts_path(results_dir)
    assert len(list(parts.glob("*.parquet"))) == after and not cell.path(results_dir).exists()
    return parts


def _values(records):
    keep = records[~records["metric"].str.endswith("time")]
    return keep.sort_values(["fold", "split", "metric"])["value"].to_numpy()


# ------------------------------------------------------------------ concurrent runs
WORKER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    import numpy as np, pandas as pd
    from repro.datasets.dataset import Dataset
    from repro.evaluation import runner

    log, results, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    original = runner.run_fold

    def logged(estimator, X, y, split, *args):
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {split.fold}\\n")
        time.sleep(0.2)  # long enough for the two processes to overlap
        return original(estimator, X, y, split, *args)

    runner.run_fold = logged
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 30)
    ds = Dataset("toy", pd.DataFrame({"x": rng.normal(size=60) + (y == "b")}), y)
    Path(f"{go}.{os.getpid()}").touch()
    while not go.exists():
        time.sleep(0.01)
    rec = runner.evaluate("nb_gaussian", ds, "cv10", results_dir=results)
    print(len(rec), rec.query("metric == 'accuracy' and split == 'test'")["value"].sum())
    """
)


def test_two_processes_on_one_cell_compute_each_fold_once(tmp_path):
    script, log, go = tmp_path / "worker.py", tmp_path / "folds.log", tmp_path / "go"
    script.write_text(WORKER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, str(script), str(log), str(tmp_path / "results"), str(go)]
    procs = [
        subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("go.*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    go.touch()  # both start the cell together
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    folds = [line.split() for line in log.read_text().splitlines()]
    assert sorted(int(f) for _, f in folds) == list(range(10))  # each fold once
    assert len({pid for pid, _ in folds}) == 1  # by the lock's holder
    assert outs[0][0] == outs[1][0]  # the other read the same records
    assert any("waiting for cell" in err for _, err in outs)
    cell = tmp_path / "results" / "default" / "toy" / "nb_gaussian.parquet"
    assert (
        cell.is_file() and not lock_path(cell).exists() and not cell.with_suffix(".parts").exists()
    )


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_stale_lock_is_recovered_and_a_live_one_waited_for(tmp_path, monkeypatch, capsys):
    ds = _dataset()
    cell = runner.make_cell("nb_gaussian", ds, "cv5")
    lock = lock_path(cell.path(tmp_path))
    lock.parent.mkdir(parents=True)
    lock.write_text(f"{_dead_pid()} {socket.gethostname()}\n")  # a run killed with -9
    calls = _counting(monkeypatch)
    runner.run_cell(cell, results_dir=tmp_path)
    assert sorted(calls) == [0, 1, 2, 3, 4] and not lock.exists()
    assert "removing the stale lock" in capsys.readouterr().err

    # a lock held by a live process (another thread here) is waited for
    held, release = threading.Event(), threading.Event()

    def holder():
        with cell_lock(cell.path(tmp_path)):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(10)
    with pytest.raises(TimeoutError, match="is held by"):
        with cell_lock(cell.path(tmp_path), timeout=0.3):
            pass
    cell.path(tmp_path).unlink()  # to compute again: under the lock, after the holder's turn
    threading.Timer(0.3, release.set).start()
    start = time.monotonic()
    runner.run_cell(cell, results_dir=tmp_path)
    assert time.monotonic() - start >= 0.25 and len(calls) == 10
    thread.join()
    assert not lock.exists()


def test_a_breaker_never_removes_a_fresh_lock_taken_meanwhile(tmp_path, monkeypatch):
    """The interleaving that gave a cell two holders: A reads the stale lock S; B breaks it and
    C takes a fresh one; A breaks "S" late; D creates a lock in A's rename window. Unserialised,
    A renamed C's lock away, failed to link it back (D's was there) and deleted it: C and D both
    held the cell. Now A reads the lock again under the breakers' guard and leaves C's alone."""
    lock = tmp_path / "cell.lock"
    stale = f"{_dead_pid()} {socket.gethostname()}\n"
    fresh = f"{os.getpid()} {socket.gethostname()} 1.00 c0ffee\n"
    lock.write_text(fresh)  # B broke S and C took the cell
    rename = os.rename

    def d_creates_in_the_window(src, dst):  # D's create lands right after any rename of A
        rename(src, dst)
        Path(src).write_text("D\n")

    monkeypatch.setattr(locks.os, "rename", d_creates_in_the_window)
    break_stale(lock, stale)  # A, late
    assert lock.read_text() == fresh  # C still holds it; D's create would fail
    assert [p.name for p in tmp_path.iterdir()] == ["cell.lock"]


def test_two_breakers_of_one_stale_lock_leave_it_to_one_taker(tmp_path):
    lock = tmp_path / "cell.lock"
    stale = f"{_dead_pid()} {socket.gethostname()}\n"
    lock.write_text(stale)
    for _ in range(20):  # both break, then both try to take it: exactly one wins each round
        lock.write_text(stale)
        barrier, won = threading.Barrier(2), []

        def breaker(name, barrier=barrier, won=won):
            barrier.wait()
            break_stale(lock, stale)
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return
            os.close(fd)
            won.append(name)

        threads = [threading.Thread(target=breaker, args=(n,)) for n in "AB"]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert len(won) == 1
        lock.unlink()
    guard = breaker_guard_path(lock)  # the guard lives outside the results folder
    assert guard.is_file() and tmp_path not in guard.parents


def test_a_lock_is_reentrant_within_a_thread(tmp_path):
    path = tmp_path / "x.parquet"
    with cell_lock(path) as outer:
        with cell_lock(path, timeout=0.1) as inner:
            assert outer and inner
        assert lock_path(path).exists()
    assert not lock_path(path).exists()


# ------------------------------------------------------------------- damaged files
@pytest.mark.parametrize("damage", ["truncated", "empty", "not records"])
def test_a_damaged_cell_file_is_moved_aside_and_recomputed(tmp_path, monkeypatch, damage):
    ds = _dataset()
    cell = runner.make_cell("nb_gaussian", ds, "cv5")
    first = runner.run_cell(cell, results_dir=tmp_path)
    path = cell.path(tmp_path)
    content = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(content[: len(content) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        pd.DataFrame({"something": [1, 2]}).to_parquet(path)
    calls = _counting(monkeypatch)
    with pytest.warns(CorruptFileWarning, match="nb_gaussian.parquet is unreadable .*moved aside"):
        again = runner.run_cell(cell, results_dir=tmp_path)
    assert sorted(calls) == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(_values(again), _values(first))
    assert path.with_name("nb_gaussian.parquet.corrupt").is_file()
    pd.testing.assert_frame_equal(read_records(tmp_path), again)  # the quarantined file unread


def test_an_interrupted_cell_resumes_from_its_finished_folds(tmp_path, monkeypatch):
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5", 0)
    parts = _interrupt(monkeypatch, cell, tmp_path)
    calls = _counting(monkeypatch)
    rec = runner.run_cell(cell, results_dir=tmp_path)
    assert len(calls) == 2  # only the two missing folds are computed
    assert sorted(rec.query("metric == 'accuracy' and split == 'test'")["fold"]) == [0, 1, 2, 3, 4]
    assert cell.path(tmp_path).exists() and not parts.exists()

    calls.clear()
    again = runner.run_cell(cell, results_dir=tmp_path)  # a finished cell is not recomputed
    assert calls == [] and len(again) == len(rec)
    pd.testing.assert_frame_equal(read_records(tmp_path), again)


def test_a_damaged_checkpoint_is_recomputed_alone(tmp_path, monkeypatch):
    cell = runner.make_cell("nb_gaussian", _dataset(), "cv5")
    parts = _interrupt(monkeypatch, cell, tmp_path)
    damaged = sorted(parts.glob("*.parquet"))[1]
    damaged.write_bytes(damaged.read_bytes()[:40])
    calls = _counting(monkeypatch)
    with pytest.warns(CorruptFileWarning, match=damaged.name):
        records = runner.run_cell(cell, results_dir=tmp_path)
    assert len(calls) == 3  # the two missing folds and the damaged one
    assert sorted(records.query("metric == 'accuracy' and split == 'test'")["fold"]) == list(
        range(5)
    )
    assert not parts.exists() and not lock_path(cell.path(tmp_path)).exists()


def test_read_records_skips_a_damaged_file_with_a_warning(tmp_path):
    ds = _dataset()
    a = runner.evaluate("nb_gaussian", ds, "cv5", results_dir=tmp_path)
    runner.evaluate("nb_ef", ds, "cv5", results_dir=tmp_path)
    (tmp_path / "default" / "toy" / "nb_ef__protocol=cv5.parquet").write_bytes(b"PAR1 cut short")
    with pytest.warns(CorruptFileWarning, match="skipped .*nb_ef__protocol=cv5.parquet"):
        records = read_records(tmp_path)
    pd.testing.assert_frame_equal(records, a)
    with pytest.raises(
        ValueError, match="nb_ef__protocol=cv5.parquet is not a readable result file"
    ):
        read_records(tmp_path / "default" / "toy" / "nb_ef__protocol=cv5.parquet")


def test_checkpoints_left_beside_a_finished_cell_are_removed(tmp_path, monkeypatch):
    """A kill between writing the cell file and removing its ``.parts/``."""
    ds = _dataset()
    cell = runner.make_cell("nb_gaussian", ds, "cv5")
    first = runner.run_cell(cell, results_dir=tmp_path)
    parts = cell.parts_path(tmp_path)
    parts.mkdir()
    first.head(3).to_parquet(parts / "r000_f000.parquet")
    calls = _counting(monkeypatch)
    again = runner.run_cell(cell, results_dir=tmp_path)
    assert calls == [] and not parts.exists()
    pd.testing.assert_frame_equal(again, first)


def test_a_damaged_unit_file_is_recomputed(tmp_path):
    from repro.evaluation.records import record_frame

    def compute():
        return record_frame(
            [("model", "answer", 42.0)], experiment="e", method="m", params={}, dataset="d",
            dataset_key="d", seed=0, protocol="p", chash="h1", n_features=1, n_classes=2,
            n_train=10, n_test=0,
        )  # fmt: skip

    path = tmp_path / "e" / "d" / "m.parquet"
    runner.run_unit(path, "h1", compute)
    path.write_bytes(path.read_bytes()[:-30])
    with pytest.warns(CorruptFileWarning, match="m.parquet is unreadable"):
        records, computed = runner.run_unit(path, "h1", compute)
    assert computed and records["value"].tolist() == [42.0]
    assert runner.run_unit(path, "h1", compute)[1] is False


# --------------------------------------------------------------------------- OpenML
@pytest.fixture
def local_openml(tmp_path, monkeypatch):
    """OpenML's server replaced by a local socket that accepts connections and never answers."""
    import openml

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    port = server.getsockname()[1]
    monkeypatch.setattr(openml.config, "server", f"http://127.0.0.1:{port}/api/v1/xml")
    monkeypatch.setattr(openml.config, "_root_cache_directory", str(tmp_path / "openml"))
    monkeypatch.setenv("REPRO_OPENML_TIMEOUT", "1")
    yield server
    server.close()


def test_openml_that_never_answers_fails_within_seconds(tmp_path, local_openml):
    from repro.datasets.openml_source import download

    start = time.monotonic()
    with pytest.raises(DatasetUnavailableError, match=r"could not be downloaded: ReadTimeout"):
        download("hepatitis", 55, tmp_path / "cache")
    assert time.monotonic() - start < 5
    assert not (tmp_path / "cache" / "55.parquet").exists()


def test_openml_unreachable_fails_at_once_without_retries(tmp_path, local_openml):
    from repro.datasets.openml_source import download

    local_openml.close()  # nothing listens: connection refused
    start = time.monotonic()
    with pytest.raises(DatasetUnavailableError, match="OpenMLUnreachableError: cannot reach"):
        download("hepatitis", 55, tmp_path / "cache")
    assert time.monotonic() - start < 1  # openml-python alone: 10 s of retries


def test_openml_timeout_setting_is_checked(monkeypatch):
    from repro.datasets.openml_source import request_timeout

    monkeypatch.setenv("REPRO_OPENML_TIMEOUT", "60")
    assert request_timeout() == (5.0, 60.0)
    monkeypatch.setenv("REPRO_OPENML_TIMEOUT", "0")
    with pytest.raises(ValueError, match="REPRO_OPENML_TIMEOUT must be a number of seconds > 0"):
        request_timeout()


def test_the_openml_hook_finds_what_it_replaces():
    """The timeouts reach openml-python through the names its API module calls
    (``requests.Session`` and ``minio.Minio`` of ``openml._api_calls``, a private module with no
    upper version bound): a release that stops calling them fails here, not as a hang."""
    import inspect
    import re

    import openml._api_calls as api

    calls = set(re.findall(r"\b((?:requests|minio)\.\w+)\(", inspect.getsource(api)))
    assert calls == {"requests.Session", "minio.Minio"}, calls
    from repro.datasets import openml_source

    with openml_source._bounded_requests():
        assert api.requests.Session.__name__ == "BoundedSession"
        assert api.minio.Minio.__name__ == "bounded_minio"
    assert api.requests.Session.__name__ == "Session"
