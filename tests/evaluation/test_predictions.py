"""Stored test-fold probabilities (``store_proba``, repro.evaluation.predictions): off by
default, the model's own probabilities of each test fold (a fold refitted by hand), every
predictive metric computed back from them equal to the recorded one, a metric the records lack
filled in from them, the same serial and parallel; the calibration report on a hand-made case."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from repro.evaluation.metrics import PREDICTIVE_METRICS, brier_score
from repro.evaluation.predictions import (
    FOLD_KEYS,
    PRIOR_KIND,
    PROBA_KIND,
    prediction_metrics,
    with_prediction_metrics,
)
from repro.evaluation.records import artefact_frame, read_records
from repro.evaluation.runner import evaluate, make_cell
from repro.report.__main__ import main as report_main
from repro.report.reliability import calibration_table, cell_predictions


def _run(tmp_path, **kwargs):
    return evaluate("nb_gaussian", "iris", protocol="cv5", results_dir=tmp_path, **kwargs)


def _artefacts(root):
    (path,) = (root / "default" / "artefacts" / "iris").glob("*.parquet")
    return pd.read_parquet(path)


def test_off_by_default_and_needs_a_results_folder(tmp_path):
    _run(tmp_path)
    assert not (tmp_path / "default" / "artefacts").exists()
    with pytest.raises(ValueError, match="store_proba=True stores the predictions under"):
        evaluate("nb_gaussian", "iris", protocol="cv5", store_proba=True)


def test_stored_probabilities_are_the_models_and_give_the_recorded_metrics(tmp_path):
    records = _run(tmp_path, store_proba=True)
    arts = _artefacts(tmp_path)
    proba = arts[arts["artefact"] == PROBA_KIND]
    assert len(proba) == 150 and sorted(proba["row"].astype(int)) == list(range(150))
    assert proba["proba_0"].dtype == np.float32
    # fold (0, 2) refitted by hand: the same probabilities, the training shares as its prior
    cell = make_cell("nb_gaussian", "iris", "cv5")
    split = next(s for s in cell.fold_splits() if (s.repetition, s.fold) == (0, 2))
    X, y = cell.dataset.X, cell.dataset.y
    model = clone(cell.estimator).fit(X.iloc[split.train], y[split.train])
    mine = proba[(proba["repetition"] == 0) & (proba["fold"] == 2)]
    np.testing.assert_array_equal(mine["row"].astype(int), split.test)
    expected = model.predict_proba(X.iloc[split.test]).astype(np.float32)
    np.testing.assert_array_equal(mine[["proba_0", "proba_1", "proba_2"]].to_numpy(), expected)
    np.testing.assert_array_equal(mine["y"], np.searchsorted(np.unique(y), y[split.test]))
    prior = arts[(arts["artefact"] == PRIOR_KIND) & (arts["fold"] == 2)]
    np.testing.assert_allclose(prior["value"], [40 / 120] * 3)
    # every metric back from the stored float32 probabilities: the recorded one to 1e-6
    back = prediction_metrics(arts).set_index(["repetition", "fold", "metric"])["value"]
    test = records[records["split"] == "test"].set_index(["repetition", "fold", "metric"])
    assert set(back.index.get_level_values("metric")) == set(PREDICTIVE_METRICS)
    joined = test["value"].reindex(back.index)
    np.testing.assert_allclose(back, joined, rtol=1e-6, atol=1e-7)
    acc = back.index.get_level_values("metric") == "accuracy"
    np.testing.assert_array_equal(back[acc], joined[acc])


def test_a_metric_the_records_lack_is_computed_from_the_stored_predictions(tmp_path):
    _run(tmp_path, store_proba=True)
    full = read_records(tmp_path / "default")
    old = full[~full["metric"].isin(["brier", "ece"])]  # as records stored before them
    filled = with_prediction_metrics(old)
    key = [*FOLD_KEYS, "metric"]

    def test_rows(frame):
        return frame[frame["split"] == "test"].sort_values(key).reset_index(drop=True)

    a, b = test_rows(filled), test_rows(full)
    assert len(a) == len(b) and (a[key] == b[key]).all().all()
    np.testing.assert_allclose(a["value"], b["value"], rtol=1e-6, atol=1e-7)
    for col in ("config_hash", "params", "n_test", "protocol"):  # the fold's context
        assert (a[col] == b[col]).all()
    assert with_prediction_metrics(full).shape == full.shape  # nothing lacking: unchanged
    plain = full[full["split"] != "artefact"].drop(columns="artefact", errors="ignore")
    assert with_prediction_metrics(plain) is plain  # no predictions: as it is


def test_serial_and_parallel_store_the_same_predictions(tmp_path):
    _run(tmp_path / "one", store_proba=True)
    _run(tmp_path / "two", store_proba=True, n_jobs=2)
    a, b = (_artefacts(tmp_path / k) for k in ("one", "two"))
    pd.testing.assert_frame_equal(a, b)


def _hand_made():
    """Two folds of one method on one data set, two classes: fold 0 rows (.9, .1) class 0 and
    (.4, .6) class 1; fold 1 rows (.8, .2) class 1 and (.5, .5) class 0."""
    frames = []
    for fold, rows, ys in (
        (0, [[0.9, 0.1], [0.4, 0.6]], [0, 1]),
        (1, [[0.8, 0.2], [0.5, 0.5]], [1, 0]),
    ):
        ctx = dict(
            experiment="e", method="m", dataset="d", dataset_key="d", repetition=0, fold=fold
        )
        proba = pd.DataFrame({"row": [0, 1], "y": ys, "proba_0": [r[0] for r in rows],
                              "proba_1": [r[1] for r in rows]})  # fmt: skip
        frames.append(artefact_frame(PROBA_KIND, proba, **ctx))
        prior = pd.DataFrame({"class": [0, 1], "value": [0.5, 0.5]})
        frames.append(artefact_frame(PRIOR_KIND, prior, **ctx))
    return pd.concat(frames, ignore_index=True)


def test_calibration_table_by_hand():
    table = calibration_table(cell_predictions(_hand_made())).set_index("metric")
    # Brier: fold 0 (.02 + .32)/2 = .17, fold 1 (1.28 + .5)/2 = .89; mean .53, SE .36
    assert table.loc["brier", "mean"] == pytest.approx(0.53)
    assert table.loc["brier", "se"] == pytest.approx(0.36)
    assert table.loc["brier", "pooled"] == pytest.approx(0.53)
    # ECE (15 bins): fold 0 confidences .9 and .6, both right: (.1 + .4)/2 = .25; fold 1 .8
    # wrong and .5 right: (.8 + .5)/2 = .65; pooled: (.1 + .4 + .8 + .5)/4 = .45
    assert table.loc["ece", "mean"] == pytest.approx(0.45)
    assert table.loc["ece", "pooled"] == pytest.approx(0.45)
    assert table.loc["ece", "n_folds"] == 2
    rows = _hand_made()
    y = rows.loc[rows["artefact"] == PROBA_KIND, "y"].to_numpy(int)
    p = rows.loc[rows["artefact"] == PROBA_KIND, ["proba_0", "proba_1"]].to_numpy()
    assert brier_score(y, p) == pytest.approx(0.53)


def test_calibration_report_from_the_command_line(tmp_path, capsys):
    _run(tmp_path, store_proba=True)
    assert report_main(["calibration", f"results={tmp_path / 'default'}"]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "default" / "calibration_iris.png").is_file()
    table = pd.read_csv(tmp_path / "default" / "calibration.csv")
    assert set(table["metric"]) == {"brier", "ece"} and (table["n_folds"] == 5).all()
    assert "best calibrated on iris: nb_gaussian (ECE" in out


def test_calibration_without_stored_predictions_is_one_line(tmp_path, capsys):
    _run(tmp_path)
    assert report_main(["calibration", f"results={tmp_path / 'default'}"]) == 2  # bad input
    err = capsys.readouterr().err
    assert "store_proba=true" in err and "Traceback" not in err
