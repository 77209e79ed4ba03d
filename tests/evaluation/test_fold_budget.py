"""The time budget per fold (``timeout=``): a fold past it is stopped and recorded as
did-not-finish, the other folds are kept, and the run goes on."""

import time

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB

from repro import evaluate
from repro.evaluation.fold_budget import check_timeout

MARKER = 1000.0


class StallsWithoutMarker(GaussianNB):
    """Sleeps a minute in the one fold whose training part lacks the marker row (the fold that
    tests it); fits at once in the others."""

    def fit(self, X, y, sample_weight=None):
        if MARKER not in np.asarray(X, dtype=float)[:, 0]:
            time.sleep(60)
        return super().fit(X, y, sample_weight)


def _data():
    rng = np.random.default_rng(0)
    x = np.r_[rng.normal(0, 1, 20), rng.normal(3, 1, 20)]
    x[0] = MARKER
    return pd.DataFrame({"x": x}), np.repeat(["a", "b"], 20)


def test_a_fold_past_its_budget_is_recorded_as_did_not_finish(tmp_path):
    """Two workers: the fold running beside the stalled one is stopped with it and run again to
    its end in a fresh pool; every other fold finishes with its metrics."""
    X, y = _data()
    start = time.monotonic()
    with pytest.warns(UserWarning, match="did not finish within its budget of 3 s"):
        records = evaluate(
            StallsWithoutMarker(), (X, y), "cv5", timeout=3, results_dir=tmp_path, n_jobs=2
        )
    assert time.monotonic() - start < 45  # stopped, not waited for (60 s)
    folds = records.groupby("fold")["metric"].apply(set)
    stopped = [f for f, metrics in folds.items() if "did_not_finish" in metrics]
    assert len(stopped) == 1 and len(folds) == 5  # kept with the four that finished
    late = records[records["fold"] == stopped[0]].set_index("metric")["value"]
    assert set(late.index) == {"did_not_finish", "fit_time"}
    assert late["did_not_finish"] == 1.0 and 3 <= late["fit_time"] < 45
    finished = records[(records["fold"] != stopped[0]) & (records["metric"] == "accuracy")]
    assert len(finished[finished["split"] == "test"]) == 4
    # the cell is complete: the same call reads it back, stopping nothing
    again = evaluate(StallsWithoutMarker(), (X, y), protocol="cv5", timeout=3, results_dir=tmp_path)
    pd.testing.assert_frame_equal(again, records)


@pytest.mark.parametrize("bad", [0, -1, "ten", True, float("nan")])
def test_bad_timeout_names_the_key(bad):
    with pytest.raises(ValueError, match="timeout must be a number of seconds > 0"):
        check_timeout(bad)


def test_timeout_needs_worker_processes():
    X, y = _data()
    with pytest.raises(ValueError, match="timeout .* needs backend=loky"):
        evaluate("nb_gaussian", (X, y), timeout=5, backend="threading")
