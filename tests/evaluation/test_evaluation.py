"""Protocols, the fold runner, records and checkpoints (resume after a kill: reliability/)."""

import numpy as np
import pandas as pd
import pytest

from repro.datasets.dataset import Dataset
from repro.evaluation import runner
from repro.evaluation.protocols import Protocol, get_protocol, make_splits


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
    # CR = 1 − ILF/ILF_0; balanced classes, stratified folds: training priors 1/3, ILF_0 = ln 3;
    # ILF > 0 (no probability reaches 1 exactly on overlapping Gaussians), so CR < 1
    ilf = rec.query("split == 'test' and metric == 'ilf'")["value"].to_numpy()
    cr = rec.query("split == 'test' and metric == 'compression_rate'")["value"].to_numpy()
    assert cr.size == 5 and (ilf > 0).all() and (cr < 1).all()
    np.testing.assert_allclose(cr, 1 - ilf / np.log(3), rtol=1e-12)


def test_same_folds_for_every_method_and_parallel_equals_serial(monkeypatch):
    ds = _dataset()
    # two methods through the runner: the training and test indices of every fold they were
    # given are the same, and those of make_splits(seed, data set); another seed gives others
    seen = {}
    run_fold = runner.run_fold

    def spy(estimator, X, y, split, *args, **kwargs):
        seen.setdefault(type(estimator).__name__, []).append((split.train, split.test))
        return run_fold(estimator, X, y, split, *args, **kwargs)

    monkeypatch.setattr(runner, "run_fold", spy)
    for method in ("nb_gaussian", "nb_ef"):
        runner.evaluate(method, ds, protocol="cv5", seed=2)
    monkeypatch.undo()
    assert set(seen) == {"GaussianNaiveBayes", "EqualFrequencyNaiveBayes"}
    gaussian, equal_frequency = seen.values()
    expected = [(s.train, s.test) for s in make_splits("cv5", ds.y, seed=2, dataset="toy")]
    other = [s.test for s in make_splits("cv5", ds.y, seed=3, dataset="toy")]
    for folds in (gaussian, equal_frequency):
        assert len(folds) == 5
        for (train, test), (e_train, e_test) in zip(folds, expected, strict=True):
            np.testing.assert_array_equal(train, e_train)
            np.testing.assert_array_equal(test, e_test)
        assert np.array_equal(np.sort(np.concatenate([t for _, t in folds])), np.arange(90))
    assert not all(np.array_equal(t, o) for (_, t), o in zip(gaussian, other))
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
    # cv5 is not the default cv10: the protocol is in the name, after the parameters
    assert (tmp_path / "default" / "toy" / "nb_ef__n_bins=3__protocol=cv5.parquet").exists()


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
    # a cell that does not name its protocol (no declared one) and whose file holds cv5's
    cell = runner.make_cell("nb_gaussian", ds, "cv10", seed=0)
    (tmp_path / "default" / "toy" / "nb_gaussian__protocol=cv5.parquet").rename(cell.path(tmp_path))
    with pytest.raises(ValueError, match="another configuration.*force=true"):
        runner.run_cell(cell, results_dir=tmp_path)
    rec = runner.run_cell(cell, results_dir=tmp_path, force=True)
    assert rec["fold"].max() == 9
    # another seed is another cell, stored beside the first
    seeded = runner.make_cell("nb_gaussian", ds, "cv10", seed=1)
    assert seeded.path(tmp_path).name == "nb_gaussian__seed=1.parquet"


def test_dataset_key_is_computed_once_per_cell(monkeypatch):
    import importlib

    catalog_module = importlib.import_module("repro.datasets.entries")
    calls = []
    original = catalog_module.catalog
    monkeypatch.setattr(catalog_module, "catalog", lambda *a: (calls.append(1), original(*a))[1])
    rec = runner.evaluate("nb_gaussian", _dataset(), protocol="cv5")
    assert len(calls) == 1 and set(rec["dataset_key"]) == {"toy"}  # one cell, five folds


def test_make_cell_reads_the_method_yaml_once(monkeypatch):
    from omegaconf import OmegaConf

    import repro.methods.boulle2007.averaging  # noqa: F401  (hydra's first lookup of repro.methods aside)

    reads = []
    load = OmegaConf.load
    monkeypatch.setattr(OmegaConf, "load", lambda path: (reads.append(str(path)), load(path))[1])
    cell = runner.make_cell(("cma", {"max_iter": 2}), _dataset(), "cv5")
    assert cell.method_id == "snb_cma" and cell.params["max_iter"] == 2
    assert cell.default_params["max_iter"] == 5 and cell.method_key == "snb_cma__max_iter=2"
    assert [r.rsplit("/", 2)[-2:] for r in reads] == [["method", "snb_cma.yaml"]]


def test_make_cell_from_a_config_dataset_and_a_baseline():
    cell = runner.make_cell(("nb_ef", {"n_bins": 3}), {"name": "waveform", "n_samples": 300})
    assert cell.dataset_key == "waveform__n_samples=300" and cell.dataset.n_samples == 300
    assert cell.method_key == "nb_ef__n_bins=3"
    study = runner.make_cell(("nb_ef", {"n_bins": 3}), cell.dataset, baseline={"n_bins": 3})
    assert study.method_key == "nb_ef" and study.hash == cell.hash  # the file name only
    with pytest.raises(ValueError, match="hash_scheme"):
        runner.make_cell("nb_ef", cell.dataset, hash_scheme="other")


def _weights_hook(fold):
    """A study hook: the class counts of the fold's training part, one row per class."""
    labels, counts = np.unique(fold.y_train, return_counts=True)
    return {"counts": [{"label": str(c), "value": float(n)} for c, n in zip(labels, counts)]}


def test_artefact_hook_writes_artefacts_beside_the_records(tmp_path):
    ds = _dataset()
    cell = runner.make_cell("nb_gaussian", ds, "cv5", artefacts=_weights_hook)
    rec = runner.run_cell(cell, results_dir=tmp_path, n_jobs=2)
    art_path = tmp_path / "default" / "artefacts" / "toy" / "nb_gaussian.parquet"
    assert cell.artefact_path(tmp_path) == art_path
    art = pd.read_parquet(art_path)
    assert set(art["split"]) == {"artefact"} and set(art["metric"]) == {"artefact:counts"}
    assert len(art) == 5 * 3 and sorted(art["fold"].unique()) == [0, 1, 2, 3, 4]
    assert (art["value"] == 24).all()  # 30 per class, 4 of 5 folds in training
    assert set(art["dataset_key"]) == {"toy"} and set(art["method"]) == {"nb_gaussian"}
    # a finished cell is read back; with its artefacts lost it is recomputed
    stamp = cell.path(tmp_path).stat().st_mtime_ns
    pd.testing.assert_frame_equal(runner.run_cell(cell, results_dir=tmp_path), rec)
    assert cell.path(tmp_path).stat().st_mtime_ns == stamp
    art_path.unlink()
    runner.run_cell(cell, results_dir=tmp_path)
    assert art_path.exists() and cell.path(tmp_path).stat().st_mtime_ns != stamp


def test_explicit_splits_and_context_are_hashed_and_stored(tmp_path):
    from repro.evaluation.protocols import Split

    ds = _dataset()
    plain = runner.make_cell("nb_gaussian", ds, "holdout70")
    idx = np.arange(90)
    splits = [Split(r, 0, idx[idx % 3 != r], idx[idx % 3 == r]) for r in range(3)]
    cell = runner.make_cell(
        "nb_gaussian", ds, "holdout70", splits=splits, context={"K": 2, "panel": "features"},
        dataset_key="toy/features__K=2",
    )  # fmt: skip
    rec = runner.run_cell(cell, results_dir=tmp_path)
    test = rec.query("split == 'test' and metric == 'accuracy'")
    assert test["repetition"].tolist() == [0, 1, 2] and (test["n_test"] == 30).all()
    assert set(rec["K"]) == {2} and set(rec["panel"]) == {"features"}
    assert cell.path(tmp_path) == tmp_path / "default/toy/features__K=2/nb_gaussian.parquet"
    other = runner.make_cell("nb_gaussian", ds, "holdout70", splits=splits[:2])
    assert len({plain.hash, cell.hash, other.hash}) == 3
    with pytest.raises(ValueError, match="must not be empty"):
        runner.make_cell("nb_gaussian", ds, splits=[])


def test_unit_hash_scheme_is_the_record_units_one():
    from repro.evaluation.records import unit_hash

    ds = _dataset()
    cell = runner.make_cell("nb_gaussian", ds, "holdout70", seed=3, hash_scheme="unit")
    assert cell.hash == unit_hash("nb_gaussian", cell.params, "toy", 3, "holdout70")


def test_run_unit_reads_current_files_and_recomputes_stale_ones(tmp_path):
    from repro.evaluation.records import record_frame, unit_hash

    calls = []

    def compute(chash):
        calls.append(chash)
        return record_frame(
            [("model", "answer", 42.0)], experiment="e", method="m", params={}, dataset="d",
            dataset_key="d", seed=0, protocol="p", chash=chash, n_features=1, n_classes=2,
            n_train=10, n_test=0, extra={"study": "unit"},
        )  # fmt: skip

    path = tmp_path / "e" / "d" / "m.parquet"
    first = unit_hash("m", {}, "d", 0, "p")
    rec, computed = runner.run_unit(path, first, lambda: compute(first))
    assert computed and rec["value"].tolist() == [42.0] and set(rec["study"]) == {"unit"}
    again, computed = runner.run_unit(path, first, lambda: compute(first))
    assert not computed and calls == [first]
    pd.testing.assert_frame_equal(again, rec)
    second = unit_hash("m", {}, "d", 1, "p")
    _, computed = runner.run_unit(path, second, lambda: compute(second))
    assert computed and pd.read_parquet(path)["config_hash"].iloc[0] == second
    with pytest.raises(ValueError, match="carry config hash"):
        runner.run_unit(tmp_path / "x.parquet", second, lambda: compute(first))


def test_git_revision_outside_a_checkout_is_unknown(tmp_path):
    import importlib.util
    import shutil

    from repro.evaluation import records

    copy = tmp_path / "records.py"
    shutil.copy(records.__file__, copy)
    spec = importlib.util.spec_from_file_location("records_copy", copy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.git_revision() == "unknown"
    assert len(records.git_revision()) == 12  # this checkout


@pytest.mark.parametrize(
    ("mean", "sd", "text"),
    [
        (0.83164, 0.01731, "0.832 ± 0.017"),
        (0.95921, 0.00642, "0.9592 ± 0.0064"),
        (-191.7464, 19.1884, "-192 ± 19"),
        (19.0, 0.0, "19"),  # a constant count prints as an integer, not 19.0000
        (0.123456, 0.0, "0.1235"),
        (12.3456, 1.5, "12.3 ± 1.5"),
    ],
)
def test_a_summary_prints_the_digits_the_spread_carries(mean, sd, text):
    from repro.evaluation.records import meaningful

    assert meaningful(mean, sd) == text


def test_summarize_returns_numbers():
    from repro.evaluation.records import format_summary, summarize

    rows = [
        dict(method="nb", dataset="iris", repetition=0, fold=f, split=s, metric=m, value=v)
        for f, acc in enumerate([0.9, 1.0])
        for s, m, v in [("test", "accuracy", acc), ("model", "n_selected", 4.0)]
    ]
    summary = summarize(pd.DataFrame(rows), ["accuracy", "n_selected"])
    row = summary.iloc[0]
    assert row["accuracy_mean"] == pytest.approx(0.95)
    assert row["accuracy_sd"] == pytest.approx(np.std([0.9, 1.0], ddof=1))
    assert (row["n_selected_mean"], row["n_selected_sd"], row["folds"]) == (4.0, 0.0, 2)
    assert format_summary(summary).iloc[0]["accuracy"] == "0.950 ± 0.071"
    assert format_summary(summary).iloc[0]["n_selected"] == "4"


def test_evaluate_takes_your_own_x_y_and_a_wrong_dataset_gets_a_short_message():
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    X, y = load_iris(return_X_y=True, as_frame=True)
    own = runner.evaluate(GaussianNB(), (X, y))
    catalog = runner.evaluate(GaussianNB(), Dataset("data", X.to_numpy(), y.to_numpy()))
    cols = ["repetition", "fold", "split", "metric", "value"]
    keep = ~own["metric"].str.endswith("_time")
    pd.testing.assert_frame_equal(  # the same data, name and labels: the same folds and scores
        own.loc[keep, cols].reset_index(drop=True), catalog.loc[keep, cols].reset_index(drop=True)
    )
    assert set(own["dataset"]) == {"data"}
    with pytest.raises(ValueError, match=r"or a tuple \(X, y\); got a list") as err:
        runner.evaluate(GaussianNB(), [X, y])
    assert len(str(err.value)) < 200  # no DataFrame printed into the message
    with pytest.raises(ValueError, match="150 rows of attributes but 10 target values"):
        runner.evaluate(GaussianNB(), (X, y[:10]))
