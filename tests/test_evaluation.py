"""Protocols, the fold runner, records, resume and checkpoints."""

import numpy as np
import pandas as pd
import pytest

from repro.datasets.dataset import Dataset
from repro.evaluation import runner
from repro.evaluation.protocols import Protocol, get_protocol, make_splits
from repro.evaluation.records import read_records


def _dataset(n=90, seed=0, name="toy"):
    rng = np.random.default_rng(seed)
    y = np.repeat(["a", "b", "c"], n // 3)
    X = pd.DataFrame({"x1": rng.normal(size=n) + (y == "b") * 2, "x2": rng.normal(size=n)})
    return Dataset(name=name, X=X, y=y, meta={"source": "test"})


def test_splits_are_stratified_partitions_and_depend_only_on_seed_dataset_rep():
    y = np.repeat([0, 1, 2], [30, 40, 50])
    splits = make_splits("cv10", y, seed=3, dataset="d")
    assert len(splits) == 10
    tests = np.concatenate([s.test for s in splits])
    assert np.array_equal(np.sort(tests), np.arange(120))  # each instance tested once
    for s in splits:
        assert np.array_equal(np.bincount(y[s.test]), [3, 4, 5])
        assert np.intersect1d(s.train, s.test).size == 0
    again = make_splits("cv10", y, seed=3, dataset="d")
    assert all(np.array_equal(a.test, b.test) for a, b in zip(splits, again))
    other = make_splits("cv10", y, seed=3, dataset="e")
    assert not all(np.array_equal(a.test, b.test) for a, b in zip(splits, other))
    reps = make_splits(Protocol("r", "kfold", 5, 3), y, seed=3, dataset="d")
    assert len(reps) == 15 and not np.array_equal(reps[0].test, reps[5].test)


def test_holdout70():
    y = np.repeat([0, 1], [70, 30])
    (split,) = make_splits("holdout70", y, seed=0, dataset="d")
    assert split.test.size == 30 and np.bincount(y[split.test]).tolist() == [21, 9]


def test_more_folds_than_class_members_is_a_clear_error():
    y = np.array([0] * 20 + [1] * 3)
    with pytest.raises(ValueError, match=r"at least 10 instances of every class.*class 1: 3"):
        make_splits("cv10", y, dataset="tiny")


def test_unknown_protocol():
    with pytest.raises(ValueError, match="Unknown protocol 'cv11'.*cv10"):
        get_protocol("cv11")
    with pytest.raises(ValueError, match="n_splits"):
        get_protocol({"kind": "kfold", "n_splits": 1})


def test_evaluate_records_schema_and_values():
    ds = _dataset()
    rec = runner.evaluate("nb_gaussian", ds, protocol="cv5", seed=1)
    assert set(rec["split"]) == {"train", "test", "model"}
    test_acc = rec.query("split == 'test' and metric == 'accuracy'")
    assert len(test_acc) == 5 and test_acc["fold"].tolist() == [0, 1, 2, 3, 4]
    for col in ["experiment", "method", "dataset", "repetition", "value", "n_train", "n_test",
                "n_features", "n_classes", "seed", "p_ddof", "config_hash", "version",
                "git_revision", "timestamp"]:  # fmt: skip
        assert col in rec.columns, col
    assert (rec["method"] == "nb_gaussian").all() and (rec["n_test"] == 18).all()
    # error = 1 - accuracy, fold by fold; compression rate below 1; n_selected = 2 variables
    err = rec.query("split == 'test' and metric == 'error'")["value"].to_numpy()
    np.testing.assert_allclose(err, 1 - test_acc["value"].to_numpy())
    assert (rec.query("metric == 'n_selected'")["value"] == 2).all()


def test_same_folds_for_every_method_and_parallel_equals_serial():
    ds = _dataset()
    a = runner.evaluate("nb_gaussian", ds, protocol="cv5", seed=2)
    b = runner.evaluate("nb_gaussian", ds, protocol="cv5", seed=2, n_jobs=2)
    keep = ["repetition", "fold", "split", "metric"]
    va = a[a.metric != "fit_time"].sort_values(keep)
    vb = b[b.metric != "fit_time"].sort_values(keep)
    va, vb = va[~va.metric.str.endswith("time")], vb[~vb.metric.str.endswith("time")]
    np.testing.assert_allclose(va["value"].to_numpy(), vb["value"].to_numpy())


def test_evaluate_accepts_estimator_and_params_pair(tmp_path):
    from sklearn.naive_bayes import GaussianNB

    ds = _dataset()
    rec = runner.evaluate(GaussianNB(), ds, protocol="cv5")
    assert (rec["method"] == "GaussianNB").all()
    rec2 = runner.evaluate(("nb_ef", {"n_bins": 3}), ds, protocol="cv5", results_dir=tmp_path)
    assert (rec2["p_n_bins"] == 3).all()
    assert (tmp_path / "default" / "toy" / "nb_ef__n_bins=3.parquet").exists()


def test_resume_and_lost_folds(tmp_path, monkeypatch):
    ds = _dataset()
    cell = runner.make_cell("nb_gaussian", ds, "cv5", 0)
    calls = []
    original = runner.run_fold

    def failing_after_three(estimator, X, y, split, limit_threads):
        if len(calls) == 3:
            raise KeyboardInterrupt  # the run is interrupted after three folds
        calls.append(split.fold)
        return original(estimator, X, y, split, limit_threads)

    monkeypatch.setattr(runner, "run_fold", failing_after_three)
    with pytest.raises(KeyboardInterrupt):
        runner.run_cell(cell, results_dir=tmp_path)
    parts = cell.path(tmp_path).with_suffix(".parts")
    assert len(list(parts.glob("*.parquet"))) == 3 and not cell.path(tmp_path).exists()

    calls.clear()
    monkeypatch.setattr(runner, "run_fold", lambda *a: (calls.append(a[3].fold), original(*a))[1])
    rec = runner.run_cell(cell, results_dir=tmp_path)
    assert len(calls) == 2  # only the two missing folds are computed
    assert sorted(rec.query("metric == 'accuracy' and split == 'test'")["fold"]) == [0, 1, 2, 3, 4]
    assert cell.path(tmp_path).exists() and not parts.exists()

    calls.clear()
    again = runner.run_cell(cell, results_dir=tmp_path)  # a finished cell is not recomputed
    assert calls == [] and len(again) == len(rec)
    pd.testing.assert_frame_equal(read_records(tmp_path), again)


def test_small_classes_allowed_on_demand_with_the_same_folds_otherwise():
    y = np.array([0] * 20 + [1] * 9)
    splits = make_splits(Protocol("cv10", small_classes="allow"), y, dataset="g")
    assert len(splits) == 10 and sum(s.test.size for s in splits) == 29
    y_ok = np.array([0] * 20 + [1] * 10)
    a = make_splits(Protocol("cv10"), y_ok, dataset="g")
    b = make_splits(Protocol("cv10", small_classes="allow"), y_ok, dataset="g")
    assert all(np.array_equal(s.test, t.test) for s, t in zip(a, b))
    with pytest.raises(ValueError, match="small_classes"):
        Protocol("cv10", small_classes="ignore")


def test_a_stored_cell_of_another_configuration_is_not_reused(tmp_path):
    ds = _dataset()
    runner.evaluate("nb_gaussian", ds, protocol="cv5", seed=0, results_dir=tmp_path)
    cell = runner.make_cell("nb_gaussian", ds, "cv10", seed=0)  # same file, other folds
    with pytest.raises(ValueError, match="another configuration.*force=true"):
        runner.run_cell(cell, results_dir=tmp_path)
    rec = runner.run_cell(cell, results_dir=tmp_path, force=True)
    assert rec["fold"].max() == 9
    # another seed is another cell, stored beside the first
    seeded = runner.make_cell("nb_gaussian", ds, "cv10", seed=1)
    assert seeded.path(tmp_path).name == "nb_gaussian__seed=1.parquet"
