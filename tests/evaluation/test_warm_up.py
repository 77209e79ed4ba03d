"""Compilation is a stage of its own (issue 27): on a cold kernel cache the first fold's
``fit_time`` is a fit's time, not the compilation's, and the progress bar says what happens."""

import numpy as np
import pandas as pd
from conftest import run_module
from sklearn.base import BaseEstimator, ClassifierMixin

from repro.evaluation.warm_up import ROWS_PER_CLASS, warm_up, warmed


class _Recorder(ClassifierMixin, BaseEstimator):
    fits: list = []

    def __init__(self, tag=0):
        self.tag = tag

    def fit(self, X, y):
        type(self).fits.append((len(X), tuple(np.unique(y, return_counts=True)[1])))
        self.classes_ = np.unique(y)
        return self


def test_warm_up_fits_once_per_configuration_on_a_stratified_part():
    X = pd.DataFrame({"a": np.arange(100.0)})
    y = np.repeat([0, 1, 2], [50, 30, 20])
    train = np.arange(0, 100, 2)  # 25, 15 and 10 rows of the classes
    _Recorder.fits = []
    assert warm_up(_Recorder(tag=1), X, y, train) and warmed(_Recorder(tag=1))
    assert not warm_up(_Recorder(tag=1), X, y, train)  # once per process and configuration
    assert not warmed(_Recorder(tag=2)) and warm_up(_Recorder(tag=2), X, y, train)
    per_class = (ROWS_PER_CLASS, ROWS_PER_CLASS, ROWS_PER_CLASS)
    assert _Recorder.fits == [(3 * ROWS_PER_CLASS, per_class)] * 2


def test_first_fold_is_not_charged_with_compilation_on_a_cold_cache(tmp_path):
    proc = run_module(
        "repro", "method=snb_cma", "dataset=waveform", "dataset.n_samples=2000",
        cwd=tmp_path, env={"REPRO_CACHE_DIR": str(tmp_path / "cold")}, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "compiling kernels (first run only: once per machine" in proc.stderr
    (path,) = (tmp_path / "results").rglob("snb_cma.parquet")
    times = pd.read_parquet(path).query("metric == 'fit_time'").sort_values("fold")["value"]
    assert list(tmp_path.joinpath("cold").rglob("*.nbi")), "the kernels compiled into the cache"
    assert times.iloc[0] <= 2 * times.iloc[1:].median(), times.tolist()


def test_the_folds_bar_starts_its_clock_after_the_compile(monkeypatch, capsys):
    """The one-time compile has its own line; the folds' bar (and so its ETA) starts after it:
    a 2 s compile does not show as 2 s elapsed on the folds."""
    import re
    import time

    from repro.evaluation import runner

    calls = []

    def compile_once(*args):  # the cell's warm-up compiles for 2 s; the folds' own are free
        calls.append(args)
        if len(calls) == 1:
            time.sleep(2.0)

    monkeypatch.setattr(runner, "warmed", lambda estimator: False)
    monkeypatch.setattr(runner, "warm_up", compile_once)
    cell = runner.make_cell("nb_gaussian", "iris", protocol="cv10")
    runner.run_cell(cell, progress=True)
    err = capsys.readouterr().err
    assert "compiling kernels (first run only: once per machine, then cached)" in err
    folds = re.findall(r"nb_gaussian on iris: +\d+%.*?\[(\d\d):(\d\d)<", err)
    assert folds, err
    assert all(int(m) * 60 + int(s) < 2 for m, s in folds), folds  # the compile's 2 s left out
    assert len(calls) > 1  # the compile ran (then each fold's warm-up)
