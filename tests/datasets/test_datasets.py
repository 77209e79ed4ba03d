"""Tests of the data catalog repro.datasets (SPEC §6, §11). Never touch the network."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.datasets import (
    Dataset,
    DatasetUnavailableError,
    catalog,
    get_entry,
    list_datasets,
    load_dataset,
    validate_frame,
)
from repro.datasets import __main__ as cli
from repro.datasets.dataset import coerce_frame
from repro.datasets.generators import (
    GENERATORS,
    LED_BAYES_ACCURACY,
    led_bayes_accuracy,
    led_bayes_predict,
    waveform_base,
)
from repro.datasets.local import default_data_dir, read_manifest
from repro.datasets.parameters import (
    check_dataset_choice,
    check_dataset_float,
    check_dataset_int,
)
from repro.datasets.sklearn_source import SKLEARN

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "datasets"
MANIFEST = read_manifest(DATA)
#: the bundled data sets: one parquet file each in ``datasets/`` (counted on disk, not here)
BUNDLED = sorted(p.stem for p in DATA.glob("*.parquet"))


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """Empty OpenML cache, no downloads, default data directory, for every test."""
    monkeypatch.setenv("REPRO_OPENML_CACHE", str(tmp_path / "openml_cache"))
    monkeypatch.setenv("REPRO_OFFLINE", "1")
    monkeypatch.delenv("REPRO_DATA_DIR", raising=False)


# ------------------------------------------------------------------------------------------------
# Local mirror vs MANIFEST
# ------------------------------------------------------------------------------------------------
def test_default_data_dir_is_the_bundled_copy_of_datasets():
    """The package data ``repro/datasets/bundled`` is the checkout's ``datasets/`` (a symlink)."""
    assert default_data_dir() == DATA
    assert (ROOT / "repro" / "datasets" / "bundled").resolve() == DATA
    # every bundled file has its MANIFEST row, and every row its file (none left to OpenML)
    assert BUNDLED and sorted(MANIFEST) == BUNDLED
    assert all(MANIFEST[name]["file"] == f"{name}.parquet" for name in BUNDLED)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_local_file_matches_manifest(name):
    row = MANIFEST[name]
    ds = load_dataset(name)
    assert ds.meta["source"] == "local"
    summary = ds.summary()
    for key in ("n", "n_numeric", "n_categorical", "n_classes", "majority_pct"):
        assert summary[key] == row[key], key
    assert summary["n_rows_with_missing"] == row["n_rows_with_missing"]
    assert hashlib.sha256((DATA / row["file"]).read_bytes()).hexdigest() == row["sha256"]
    # the type contract
    for column, dtype in ds.X.dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype):
            assert all(isinstance(c, str) for c in dtype.categories), column
        else:
            assert dtype == np.float64, column
    assert ds.y.ndim == 1 and not pd.isna(ds.y).any()


def test_known_class_counts():
    iris = load_dataset("iris")
    assert iris.X.shape == (150, 4)
    assert iris.class_counts().tolist() == [50, 50, 50]
    vote = load_dataset("vote")
    assert dict(vote.class_counts()) == {"democrat": 267, "republican": 168}
    assert vote.categorical.all() and vote.X.isna().any(axis=1).sum() == 203
    glass = load_dataset("glass")
    assert glass.n_classes == 6 and glass.n_samples == 214
    adult = load_dataset("adult")
    assert adult.n_features == 14 and adult.categorical.sum() == 8


def test_dataset_properties_and_repr():
    ds = load_dataset("heart_statlog")
    assert ds.categorical.dtype == bool and ds.categorical.sum() == 3
    assert ds.n_features == 13 and ds.n_samples == 270 and ds.n_classes == 2
    assert list(ds.classes) == sorted(set(ds.y))
    assert repr(ds).startswith("Dataset('heart_statlog', n=270, numeric=10, categorical=3")
    assert ds.meta["papers"] == ["boulle2007", "wu2015", "hue2024"]
    assert ds.meta["openml_id"] == 53 and ds.meta["status"] == "damaged"


# ------------------------------------------------------------------------------------------------
# sklearn copies = local files (known answers)
# ------------------------------------------------------------------------------------------------
def test_sklearn_copies_match_local_files():
    bc, wdbc = load_dataset("breast_cancer"), load_dataset("wdbc")
    np.testing.assert_allclose(bc.X.to_numpy(), wdbc.X.to_numpy(), rtol=1e-6)
    wine, wine_sk = load_dataset("wine"), load_dataset("wine_sklearn")
    np.testing.assert_allclose(wine.X.to_numpy(), wine_sk.X.to_numpy())
    assert list(wine.y) == list(wine_sk.y)
    digits, digits_sk = load_dataset("digits"), load_dataset("digits_sklearn")
    np.testing.assert_array_equal(digits.X.to_numpy(), digits_sk.X.to_numpy())
    assert list(digits.y) == list(digits_sk.y)
    # UCI iris has two data-entry errors (rows 35 and 38, 1-based) that Fisher's copy corrects
    iris, iris_sk = load_dataset("iris"), load_dataset("iris_sklearn")
    differ = np.flatnonzero((iris.X.to_numpy() != iris_sk.X.to_numpy()).any(axis=1))
    assert list(differ + 1) == [35, 38]


@pytest.mark.parametrize("q", [1, 2, 3])
def test_diabetes_quartile_matches_local(q):
    loc, sk = load_dataset(f"diabetes_q{q}"), load_dataset(f"diabetes_q{q}_sklearn")
    assert list(loc.X.columns) == list(sk.X.columns)
    np.testing.assert_allclose(loc.X.to_numpy(), sk.X.to_numpy())
    assert list(loc.y) == list(sk.y)


# ------------------------------------------------------------------------------------------------
# Generators
# ------------------------------------------------------------------------------------------------
def test_waveform_shape_balance_determinism():
    ds = load_dataset("waveform")
    assert ds.X.shape == (5000, 21) and not ds.categorical.any()
    counts = ds.class_counts()
    assert list(counts.index) == [0, 1, 2]
    assert (np.abs(counts / 5000 - 1 / 3) < 0.03).all()
    again = load_dataset("waveform", seed=0)
    pd.testing.assert_frame_equal(ds.X, again.X)
    np.testing.assert_array_equal(ds.y, again.y)
    other = load_dataset("waveform", seed=1)
    assert not np.allclose(ds.X.to_numpy(), other.X.to_numpy())
    assert ds.meta["params"] == {"n_samples": 5000, "seed": 0, "noise": 1.0}


def test_waveform_class_means_are_the_u_mixture():
    h = waveform_base()
    assert h.shape == (3, 21) and h[0, 6] == 6 and h[1, 10] == 6 and h[2, 14] == 6
    assert h[0, 0] == 0 and h[0, 1] == 1 and h[2, 20] == 0
    ds = load_dataset("waveform", n_samples=30000, seed=3)
    X = ds.X.to_numpy()
    for cls, (a, b) in enumerate([(0, 1), (0, 2), (1, 2)]):
        expected = 0.5 * h[a] + 0.5 * h[b]
        np.testing.assert_allclose(X[ds.y == cls].mean(axis=0), expected, atol=0.1)
        # Var = Var(u) (h_a - h_b)^2 + 1 with Var(u) = 1/12
        expected_var = (h[a] - h[b]) ** 2 / 12 + 1
        np.testing.assert_allclose(X[ds.y == cls].var(axis=0), expected_var, rtol=0.1)


def test_waveform_gaussian_nb_accuracy():
    from sklearn.model_selection import cross_val_score
    from sklearn.naive_bayes import GaussianNB

    ds = load_dataset("waveform")
    acc = cross_val_score(GaussianNB(), ds.X, ds.y, cv=10).mean()
    assert 0.78 <= acc <= 0.83


def test_waveform_noise_adds_pure_noise_columns():
    ds = load_dataset("waveform_noise")
    assert ds.X.shape == (5000, 40)
    assert list(ds.X.columns[-2:]) == ["noise18", "noise19"]
    base = load_dataset("waveform")
    np.testing.assert_array_equal(ds.X.iloc[:, :21].to_numpy(), base.X.to_numpy())
    noise = ds.X.iloc[:, 21:].to_numpy()
    assert abs(noise.mean()) < 0.02 and abs(noise.std() - 1) < 0.02
    big = load_dataset("waveform_noise", n_samples=2000, n_noise=979)
    assert big.X.shape == (2000, 1000)


def test_led_bayes_accuracy():
    assert led_bayes_accuracy(0.1) == pytest.approx(LED_BAYES_ACCURACY, abs=1e-10)
    assert led_bayes_accuracy(0.0) == 1.0
    ds = load_dataset("led", n_samples=200_000, seed=7)
    assert ds.categorical.all() and list(ds.X["s1"].cat.categories) == ["0", "1"]
    acc = np.mean(led_bayes_predict(ds.X) == ds.y)
    assert acc == pytest.approx(0.74, abs=0.005)


def test_led_defaults_and_led17():
    led = load_dataset("led")
    assert led.X.shape == (1000, 7) and led.n_classes == 10
    numeric = load_dataset("led", categorical=False)
    assert not numeric.categorical.any()
    np.testing.assert_array_equal(numeric.X.to_numpy(), led.X.astype(float).to_numpy())
    led17 = load_dataset("led17")
    assert led17.X.shape == (10000, 24) and led17.categorical.all()
    noise = led17.X.iloc[:, 7:].astype(float).to_numpy()
    assert abs(noise.mean() - 0.5) < 0.01
    # flip = 0 reproduces the segment patterns exactly
    clean = load_dataset("led", flip=0.0, n_samples=500)
    assert (led_bayes_predict(clean.X) == clean.y).all()


def test_twonorm_gen_and_local_twonorm_are_distinct():
    assert get_entry("twonorm").source == "local"
    gen = load_dataset("twonorm_gen")
    assert gen.X.shape == (7400, 20) and gen.meta["source"] == "generator"
    a = 2 / np.sqrt(20)
    X = gen.X.to_numpy()
    np.testing.assert_allclose(X[gen.y == 0].mean(axis=0), a, atol=0.06)
    np.testing.assert_allclose(X[gen.y == 1].mean(axis=0), -a, atol=0.06)


def test_madelon_like():
    ds = load_dataset("madelon_like", n_samples=300)
    assert ds.X.shape == (300, 500) and set(ds.classes) == {0, 1}


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_generator_catalog_meta_matches_default_sample(name):
    entry = get_entry(name)
    params = {"n_samples": 400} if name == "madelon_like" else {}
    ds = load_dataset(name, **params)
    assert ds.n_features == entry.n_numeric + entry.n_categorical
    assert ds.categorical.sum() == entry.n_categorical
    assert ds.n_classes == entry.n_classes
    if not params:
        assert ds.n_samples == entry.n
        assert ds.summary()["majority_pct"] == pytest.approx(entry.majority_pct, abs=3)


@pytest.mark.parametrize(
    ("name", "params", "match"),
    [
        ("waveform", {"n_samples": 0}, "n_samples must be a positive integer"),
        ("waveform", {"n_samples": -5}, "n_samples"),
        ("waveform", {"n_samples": 10.5}, "n_samples"),
        ("waveform_noise", {"n_noise": -1}, "n_noise must be an integer >= 0"),
        ("waveform", {"noise": -1.0}, "noise"),
        ("led", {"flip": 1.5}, r"flip must be a number in \[0.0, 1.0\]"),
        ("led17", {"seed": -3}, "seed"),
        ("twonorm_gen", {"n_features": 0}, "n_features"),
        ("madelon_like", {"n_informative": 2, "n_clusters_per_class": 16}, "madelon_like"),
    ],
)
def test_bad_generator_parameters(name, params, match):
    with pytest.raises(ValueError, match=match):
        load_dataset(name, **params)


def test_parameter_checks_take_the_name_then_the_value_and_return_it():
    """The order of the estimators' checks (repro.methods.core.checks): name, value, bounds."""
    assert check_dataset_int("n_samples", 3, 1, dataset="waveform") == 3
    assert type(check_dataset_int("n_noise", np.int64(0), 0, dataset="led")) is int
    assert check_dataset_float("flip", 1, low=0.0, high=1.0, dataset="led") == 1.0
    assert check_dataset_choice("neighbours", "all", ("all", "one"), dataset="DI") == "all"
    with pytest.raises(ValueError, match="data set 'led': parameter seed must be an integer >= 0"):
        check_dataset_int("seed", True, 0, dataset="led")
    with pytest.raises(ValueError, match=r"data set 'DI': parameter x must be one of \['a'\]"):
        check_dataset_choice("x", "b", ("a",), dataset="DI")


def test_unknown_parameter_lists_allowed():
    with pytest.raises(
        ValueError, match=r"no parameter 'n_sample'.*'n_samples'.*Allowed: n_samples"
    ):
        load_dataset("waveform", n_sample=10)
    with pytest.raises(ValueError, match="Allowed: target"):
        load_dataset("iris", seed=1)
    with pytest.raises(ValueError, match="'breast_cancer'"):
        load_dataset("breast_cancer", n_samples=10)


def test_unknown_name_suggests_and_lists():
    with pytest.raises(ValueError, match=r"Unknown data set 'irsi'\. Did you mean 'iris'") as err:
        load_dataset("irsi")
    assert "waveform" in str(err.value) and "twonorm_gen" in str(err.value)
    assert load_dataset("IRIS").name == "iris"  # case-insensitive fallback


# ------------------------------------------------------------------------------------------------
# Catalog
# ------------------------------------------------------------------------------------------------
def test_list_datasets_table():
    df = list_datasets()
    assert list(df.columns) == [
        "name",
        "source",
        "n",
        "n_numeric",
        "n_categorical",
        "n_classes",
        "majority_pct",
        "status",
        "papers",
        "openml_id",
        "offline",
        "notes",
    ]
    assert df["name"].is_unique
    by = df.set_index("name")
    assert by.loc["iris", "source"] == "local" and by.loc["iris", "offline"]
    assert by.loc["waveform", "source"] == "generator"
    assert by.loc["breast_cancer", "source"] == "sklearn"
    assert by.loc["hepatitis", "source"] == "openml" and by.loc["hepatitis", "openml_id"] == 55
    assert not by.loc["hepatitis", "offline"]  # empty cache
    assert by.loc["thrombin", "status"] == "unavailable"
    assert pd.isna(by.loc["thrombin", "openml_id"])
    assert by.loc["anneal", "n"] == 798  # parsed from the paper shape "798, K=38, C=6"
    assert set(df["source"]) == {"local", "generator", "sklearn", "openml"}
    assert (df["source"] != "openml").sum() == len(BUNDLED) + len(GENERATORS) + len(SKLEARN)


def test_every_offline_entry_loads():
    entries = catalog()
    offline = [e for e in entries.values() if e.offline()]
    assert len(offline) == len(BUNDLED) + len(GENERATORS) + len(SKLEARN)
    for entry in offline:
        params = {"n_samples": 300} if entry.name == "madelon_like" else {}
        ds = load_dataset(entry.name, **params)
        assert isinstance(ds, Dataset) and ds.n_classes >= 2, entry.name
        assert ds.meta["source"] == entry.source


def test_missing_local_file_falls_back_to_openml(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "MANIFEST.csv").write_bytes((DATA / "MANIFEST.csv").read_bytes())
    (data / "iris.parquet").write_bytes((DATA / "iris.parquet").read_bytes())
    entry = get_entry("vote", data_dir=data)
    assert entry.source == "openml" and entry.openml_id == 56
    assert "absent" in entry.notes
    assert get_entry("iris", data_dir=data).source == "local"


# ------------------------------------------------------------------------------------------------
# Files dropped into a data directory: CSV / ARFF / Parquet
# ------------------------------------------------------------------------------------------------
def _frame():
    return pd.DataFrame(
        {
            "size": [1.5, 2.0, np.nan, 4.25, 5.0, 6.0],
            "colour": ["red", "blue", "red", None, "green", "blue"],
            "code": ["1", "2", "2", "10", "1", "2"],
            "class": ["yes", "no", "yes", "no", "yes", "no"],
        }
    )


def test_csv_round_trip(tmp_path):
    df = _frame()
    df.to_csv(tmp_path / "toy.csv", index=False, na_rep="?")
    ds = load_dataset("toy", data_dir=tmp_path)
    assert ds.meta["source"] == "local" and ds.meta["format"] == "csv"
    assert list(ds.X.columns) == ["size", "colour", "code"]
    assert ds.X["size"].dtype == np.float64 and np.isnan(ds.X["size"][2])
    # numbers-only columns of CSV are numeric
    assert ds.X["code"].dtype == np.float64
    assert list(ds.X["colour"].cat.categories) == ["blue", "green", "red"]
    assert pd.isna(ds.X["colour"][3])
    assert list(ds.y) == list(df["class"])
    row = list_datasets(data_dir=tmp_path).set_index("name").loc["toy"]
    assert row["n"] == 6 and row["n_numeric"] == 2 and row["n_categorical"] == 1
    assert row["status"] == "user" and row["offline"]


def test_csv_without_class_column_uses_last(tmp_path):
    (tmp_path / "nolabel.csv").write_text("a,b,label\n1,x,p\n2,y,q\n3,x,p\n")
    ds = load_dataset("nolabel", data_dir=tmp_path)
    assert list(ds.X.columns) == ["a", "b"] and list(ds.y) == ["p", "q", "p"]
    ds2 = load_dataset("nolabel", data_dir=tmp_path, target="b")
    assert list(ds2.X.columns) == ["a", "label"] and list(ds2.y) == ["x", "y", "x"]


def test_arff_round_trip(tmp_path):
    import arff

    df = _frame()
    rows = [[None if pd.isna(v) else v for v in r] for r in df.itertuples(index=False)]
    text = arff.dumps(
        {
            "relation": "toy",
            "attributes": [
                ("size", "REAL"),
                ("colour", ["red", "green", "blue", "purple"]),
                ("code", ["1", "2", "10"]),
                ("class", ["yes", "no"]),
            ],
            "data": rows,
        }
    )
    (tmp_path / "toy_arff.arff").write_text(text)
    ds = load_dataset("toy_arff", data_dir=tmp_path)
    assert ds.meta["format"] == "arff"
    assert ds.X["size"].dtype == np.float64 and np.isnan(ds.X["size"][2])
    np.testing.assert_allclose(ds.X["size"].dropna(), [1.5, 2.0, 4.25, 5.0, 6.0])
    # nominal keeps the declared levels (also unused ones), in declared order
    assert list(ds.X["colour"].cat.categories) == ["red", "green", "blue", "purple"]
    assert list(ds.X["code"].cat.categories) == ["1", "2", "10"]
    assert list(ds.X["code"].astype(str)) == list(df["code"])
    assert pd.isna(ds.X["colour"][3])
    assert list(ds.y) == list(df["class"])


def test_parquet_types_are_normalised(tmp_path):
    df = pd.DataFrame(
        {
            "i": np.arange(6, dtype=np.int64),
            "b": [True, False] * 3,
            "c": pd.Categorical(["1", "2", "3", "1", "2", "3"]),
            "s": ["a", "b", "a", "b", "a", "b"],
            "class": pd.Categorical(["x", "y"] * 3),
        }
    )
    df.to_parquet(tmp_path / "typed.parquet")
    pd.DataFrame({"only": [1, 2]}).to_csv(tmp_path / "typed.csv", index=False)  # shadowed
    ds = load_dataset("typed", data_dir=tmp_path)
    assert ds.X["i"].dtype == np.float64 and ds.X["b"].dtype == np.float64
    assert list(ds.X["c"].cat.categories) == ["1", "2", "3"]
    assert list(ds.X["s"].cat.categories) == ["a", "b"]  # Parquet strings stay nominal
    assert list(ds.categorical) == [False, False, True, True]
    assert "typed.csv" in get_entry("typed", data_dir=tmp_path).notes


def test_coerce_frame_categories_become_strings():
    df = pd.DataFrame(
        {
            "ints": pd.Categorical([1, 2, 3, 1]),
            "floats": pd.Categorical([1.0, 2.5, 1.0, 2.5]),
            "nullable": pd.array([1, None, 3, 4], dtype="Int64"),
        },
        index=[10, 11, 12, 13],
    )
    out = coerce_frame(df, "demo")
    assert list(out["ints"].cat.categories) == ["1", "2", "3"]
    assert list(out["floats"].cat.categories) == ["1", "2.5"]
    assert out["nullable"].dtype == np.float64 and np.isnan(out["nullable"][1])
    assert list(out.index) == [0, 1, 2, 3]


def test_local_file_replaces_generator(tmp_path):
    (tmp_path / "waveform.csv").write_text("a,class\n1,p\n2,q\n")
    entry = get_entry("waveform", data_dir=tmp_path)
    assert entry.source == "local" and "replaces the generator entry" in entry.notes
    assert load_dataset("waveform", data_dir=tmp_path).n_samples == 2
    with pytest.raises(ValueError, match="no parameter 'n_samples'"):
        load_dataset("waveform", data_dir=tmp_path, n_samples=10)


def test_own_data_folders_are_searched_besides_the_bundled_sets(tmp_path, monkeypatch):
    """``REPRO_DATA_PATH`` (what ``--config-dir=DIR`` sets for ``DIR/dataset``): its files join the
    bundled catalog, the first folder winning a name and every folder winning over the bundled."""
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "mine.csv").write_text("u,class\n1,p\n2,q\n3,p\n")
    (second / "mine.csv").write_text("u,class\n1,p\n2,q\n")
    (second / "iris.csv").write_text("u,class\n1,p\n2,q\n")
    monkeypatch.setenv("REPRO_DATA_PATH", f"{first}{os.pathsep}{second}")
    assert load_dataset("mine").n_samples == 3
    assert load_dataset("iris").n_samples == 2
    assert "replaces the file" in get_entry("iris").notes
    assert get_entry("wine").source == "local"  # the bundled sets are still there
    monkeypatch.delenv("REPRO_DATA_PATH")
    assert load_dataset("iris").n_samples == 150
    with pytest.raises(ValueError, match="DIR/dataset/ with --config-dir=DIR"):
        get_entry("mine")


def test_import_is_cheap():
    code = "import sys, repro.datasets; print('openml' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert out.stdout.strip() == "False", out.stderr


def test_data_dir_from_environment(tmp_path, monkeypatch):
    (tmp_path / "envset.csv").write_text("a,class\n1,p\n2,q\n")
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path))
    assert load_dataset("envset").n_samples == 2
    assert get_entry("waveform").source == "generator"
    assert get_entry("vote").source == "openml"  # the repository MANIFEST, file absent here


# ------------------------------------------------------------------------------------------------
# Bad input (SPEC §11)
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "params", "match"),
    [
        ("a,b,class\n1,x,p\n2,y,\n3,x,q\n", {}, r"'bad'.*target.*1 missing value"),
        ("a,b,class\n1,x,p\n2,y,p\n", {}, r"'bad' has only one class \('p'\)"),
        ("a,b,class\n", {}, r"'bad' is empty"),
        ("a,b,class\n1,x,p\ninf,y,q\n", {}, r"'bad'.*column 'a'.*infinite"),
        ("a,b,class\n1,x,p\n-inf,y,q\n", {}, r"column 'a'.*infinite"),
        ("a,b,class\n1,x,p\n2,y,q\n3,z,p\nfoo,z,q\n", {}, r"'bad'.*column 'a'.*'foo'"),
        ("a,b,class\n1,x,p\n2,y,q\n", {"target": "label"}, r"'bad'.*target column 'label'"),
        ("class\np\nq\n", {}, r"'bad' has no attribute columns"),
    ],
)
def test_bad_csv_files(tmp_path, text, params, match):
    (tmp_path / "bad.csv").write_text(text)
    with pytest.raises(ValueError, match=match):
        load_dataset("bad", data_dir=tmp_path, **params)


def test_bad_file_is_reported_in_list(tmp_path):
    (tmp_path / "bad.csv").write_text("a,class\n1,p\n2,p\n")
    row = list_datasets(data_dir=tmp_path).set_index("name").loc["bad"]
    assert row["status"].startswith("error:") and "only one class" in row["status"]


def test_validate_frame():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": ["x", "y", "x"]})
    validate_frame(X, np.array(["p", "q", "p"]), "ok")  # object column of names is nominal
    with pytest.raises(ValueError, match=r"'demo' has no target"):
        validate_frame(X, None, "demo")
    with pytest.raises(ValueError, match=r"'demo'.*target.*missing"):
        validate_frame(X, np.array(["p", None, "q"], dtype=object), "demo")
    with pytest.raises(ValueError, match=r"'demo'.*target.*missing"):
        validate_frame(X, np.array([0.0, np.nan, 1.0]), "demo")
    with pytest.raises(ValueError, match=r"'demo' has only one class"):
        validate_frame(X, np.array([1, 1, 1]), "demo")
    with pytest.raises(ValueError, match=r"'demo' is empty"):
        validate_frame(X.iloc[:0], np.array([]), "demo")
    with pytest.raises(ValueError, match=r"column 'a'.*infinite"):
        validate_frame(X.assign(a=[1.0, np.inf, 0.0]), np.array([0, 1, 0]), "demo")
    with pytest.raises(ValueError, match=r"column 'n'.*non-numeric.*'oops'"):
        validate_frame(
            X.assign(n=np.array(["1", "2.5", "oops"], dtype=object)), np.array([0, 1, 0]), "demo"
        )
    with pytest.raises(ValueError, match="3 rows of attributes but 2 target values"):
        validate_frame(X, np.array([0, 1]), "demo")


# ------------------------------------------------------------------------------------------------
# OpenML: cache, fake download, offline error
# ------------------------------------------------------------------------------------------------
def test_openml_from_cache(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    fake = pd.DataFrame(
        {
            "age": [30.0, 50.0, 40.0, 60.0],
            "sex": pd.Categorical(["male", "female", "male", "female"]),
            "class": pd.Categorical(["DIE", "LIVE", "LIVE", "LIVE"]),
        }
    )
    fake.to_parquet(cache / "55.parquet")
    ds = load_dataset("hepatitis", cache_dir=cache)
    assert ds.meta["source"] == "openml" and ds.meta["openml_id"] == 55
    assert ds.X.shape == (4, 2) and list(ds.y) == ["DIE", "LIVE", "LIVE", "LIVE"]
    assert ds.meta["papers"] == ["boulle2007", "hue2024", "wu2015"]
    row = list_datasets(cache_dir=cache).set_index("name").loc["hepatitis"]
    assert row["offline"]
    assert get_entry("hepatitis", cache_dir=cache).offline(cache)


class _FakeOpenMLDataset:
    name = "fake-hepatitis"
    version = 1
    default_target_attribute = "Class"

    def get_data(self, target=None, dataset_format="dataframe", **kwargs):
        X = pd.DataFrame(
            {
                "AGE": pd.array([30, 50, None, 60], dtype="Int64"),
                "SEX": pd.Categorical(["male", "female", "male", None]),
                "BILIRUBIN": [1.0, 0.5, 2.5, 0.7],
            }
        )
        y = pd.Series(pd.Categorical(["DIE", "LIVE", "LIVE", "LIVE"]), name=target)
        return X, y, [False, True, False], list(X.columns)


def test_openml_fake_download_writes_cache(tmp_path, monkeypatch):
    import openml

    calls = []

    def fake_get_dataset(dataset_id, **kwargs):
        calls.append(dataset_id)
        if len(calls) > 1:
            raise AssertionError("second call should have used our cache")
        return _FakeOpenMLDataset()

    monkeypatch.setattr(openml.datasets, "get_dataset", fake_get_dataset)
    monkeypatch.delenv("REPRO_OFFLINE")
    cache = tmp_path / "cache"
    ds = load_dataset("hepatitis", cache_dir=cache)
    assert calls == [55]
    assert ds.X["AGE"].dtype == np.float64 and np.isnan(ds.X["AGE"][2])
    assert list(ds.X["SEX"].cat.categories) == ["female", "male"]
    assert list(ds.y) == ["DIE", "LIVE", "LIVE", "LIVE"]
    assert (cache / "55.parquet").is_file()
    meta = json.loads((cache / "55.json").read_text())
    assert meta["openml_id"] == 55 and meta["target"] == "Class" and meta["n"] == 4
    assert not [p for p in cache.iterdir() if p.name.endswith(".tmp")]
    again = load_dataset("hepatitis", cache_dir=cache)  # from the cache, no second call
    pd.testing.assert_frame_equal(ds.X, again.X)
    assert list(again.y) == list(ds.y)
    row = list_datasets(cache_dir=cache).set_index("name").loc["hepatitis"]
    assert row["offline"] and row["n_numeric"] == 2 and row["n_categorical"] == 1


def test_openml_offline_error(tmp_path, monkeypatch):
    import openml

    def no_network(dataset_id, **kwargs):
        raise ConnectionError("network unreachable")

    monkeypatch.setattr(openml.datasets, "get_dataset", no_network)
    monkeypatch.delenv("REPRO_OFFLINE")
    cache = tmp_path / "cache"
    with pytest.raises(DatasetUnavailableError) as err:
        load_dataset("hepatitis", cache_dir=cache)
    msg = str(err.value)
    for part in (
        "'hepatitis'",
        "OpenML id 55",
        str(cache / "55.parquet"),
        "fetch hepatitis",
        "ConnectionError",
    ):
        assert part in msg, part
    assert isinstance(err.value, ValueError)
    assert not (cache / "55.parquet").exists()
    # the command line reports it with exit code 1
    assert cli.main(["--cache-dir", str(cache), "fetch", "hepatitis"]) == 1


def test_openml_download_disabled_and_unknown_id(tmp_path):
    with pytest.raises(DatasetUnavailableError, match=r"REPRO_OFFLINE.*fetch madelon"):
        load_dataset("madelon", cache_dir=tmp_path)
    with pytest.raises(DatasetUnavailableError, match=r"'thrombin' has no known OpenML id"):
        load_dataset("thrombin")
    with pytest.raises(ValueError, match="no parameter 'seed'"):
        load_dataset("hepatitis", seed=0)


def test_cli_fetch_with_fake_openml(tmp_path, monkeypatch, capsys):
    import openml

    monkeypatch.setattr(openml.datasets, "get_dataset", lambda i, **kw: _FakeOpenMLDataset())
    monkeypatch.delenv("REPRO_OFFLINE")
    assert cli.main(["fetch", "hepatitis", "--cache-dir", str(tmp_path)]) == 0
    assert str(tmp_path / "55.parquet") in capsys.readouterr().out
    assert cli.main(["fetch", "waveform"]) == 0
    assert "nothing to fetch" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------
# Command line in a subprocess
# ------------------------------------------------------------------------------------------------
def test_cli_list_and_show(python_m):  # python_m: tests/conftest.py
    out = python_m("repro.datasets", "list")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == [
        "name",
        "n",
        "numeric",
        "categorical",
        "classes",
        "source",
        "status",
        "offline",
    ]
    iris = next(line.split() for line in lines if line.split()[:1] == ["iris"])
    assert iris == ["iris", "150", "4", "0", "3", "local", "exact", "yes"]
    show = python_m("repro.datasets", "show", "iris")
    assert show.returncode == 0, show.stderr
    assert "openml_id" in show.stdout and "61" in show.stdout
    assert "Iris-setosa" in show.stdout and "33.3%" in show.stdout


def test_cli_errors_exit_2(python_m):
    unknown = python_m("repro.datasets", "show", "irsi")
    assert unknown.returncode == 2 and "Did you mean 'iris'" in unknown.stderr
    bad = python_m("repro.datasets", "frobnicate")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
    assert python_m("repro.datasets").returncode == 2


def test_khiops_agreement_covers_every_nominal_data_set():
    """issue 11 §1: the Khiops agreement table lists every bundled data set with a nominal input
    (found by reading the data folder) and the yaml runs them all."""
    from repro.config import experiment_config
    from repro.experiments import khiops_agreement as ka

    assert ka.nominal_datasets() == sorted(ka.NOMINAL_DATASETS)
    assert "census_income_kdd" in ka.NOMINAL_DATASETS and "iris" not in ka.NOMINAL_DATASETS
    cfg = experiment_config("khiops_agreement")
    assert cfg["khiops_agreement"]["datasets"] == ka.DATASETS
