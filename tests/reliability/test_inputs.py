"""Issue 15, "Inputs that reach the core unchecked": each case of the issue as an assertion.

A hand-built ``Dataset`` is checked once, when it is built, with the messages of ``load_dataset``;
``categorical_features`` given one column name; a tuned wrapper's grid and data checked before the
inner search; the Khiops peer before fit. (The command-line messages: test_cli_faults.py.)
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import FitFailedWarning, NotFittedError

import repro
from repro import make_method
from repro.datasets import load_dataset
from repro.datasets.dataset import Dataset


def _data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.array(["a", "b"], dtype=object), n // 2)
    X = pd.DataFrame({"x1": rng.normal(size=n) + (y == "b") * 2.0, "x2": rng.normal(size=n)})
    return X, y


def _test_values(records):
    test = records.query("split == 'test' and not metric.str.endswith('time')")
    return test.sort_values(["fold", "metric"])["value"].to_numpy()


# ------------------------------------------------------------------ hand-built data sets
@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("y shorter than X", "data set 'mine': 40 rows of attributes but 39 target values"),
        ("X shorter than y", "data set 'mine': 39 rows of attributes but 40 target values"),
        (
            "None in y",
            r"data set 'mine': the target \(class\) has 1 missing value\(s\) \(rows \[3\]\)",
        ),
        ("NaN in a float y", r"the target \(class\) has 2 missing value\(s\) \(rows \[0, 5\]\)"),
        ("NaN in a Series y", r"the target \(class\) has 1 missing value\(s\) \(rows \[7\]\)"),
        ("one class", "data set 'mine' has only one class"),
        ("no row", r"data set 'mine' is empty \(0 rows\)"),
        ("inf in X", r"numeric column 'x2' holds 1 infinite value\(s\) \(rows \[4\]\)"),
        ("mixed labels", "data set 'mine': the target mixes label types that cannot be ordered"),
        ("y 2-D", r"data set 'mine': the target must be 1-D, got shape \(40, 2\)"),
        ("X 1-D", "data set 'mine': the attributes X must be a table"),
        ("duplicated columns", r"data set 'mine': duplicated column name\(s\) \['x1'\]"),
    ],
)
def test_a_hand_built_dataset_is_refused_with_the_loaders_message(case, message):
    X, y = _data()
    if case == "y shorter than X":
        y = y[:-1]
    elif case == "X shorter than y":
        X = X.iloc[:-1]
    elif case == "None in y":
        y = y.copy()
        y[3] = None
    elif case == "NaN in a float y":
        y = (y == "b").astype(float)
        y[[0, 5]] = np.nan
    elif case == "NaN in a Series y":
        y = pd.Series(pd.Categorical(y), index=np.arange(100, 140))
        y.iloc[7] = np.nan
    elif case == "one class":
        y = np.full(40, "a", dtype=object)
    elif case == "no row":
        X, y = X.iloc[:0], y[:0]
    elif case == "inf in X":
        X.loc[4, "x2"] = np.inf
    elif case == "mixed labels":
        y = y.copy()
        y[0] = 7
    elif case == "y 2-D":
        y = np.stack([y, y], axis=1)
    elif case == "X 1-D":
        X = X["x1"].to_numpy()
    elif case == "duplicated columns":
        X.columns = ["x1", "x1"]
    with pytest.raises(ValueError, match=message):
        Dataset("mine", X, y)


def test_the_same_message_as_load_dataset(tmp_path):
    """A file with a missing class label, loaded from the catalog or built by hand: one text."""
    X, y = _data()
    frame = X.assign(**{"class": pd.Series(y, dtype=object)})
    frame.loc[[2, 9], "class"] = None
    frame.to_parquet(tmp_path / "mine.parquet")
    with pytest.raises(ValueError) as loaded:
        load_dataset("mine", data_dir=tmp_path)
    with pytest.raises(ValueError) as built:
        Dataset("mine", frame.drop(columns="class"), frame["class"])
    assert str(built.value) == str(loaded.value)
    assert "rows [2, 9]" in str(built.value)


def test_an_array_X_and_a_series_y_with_any_index_are_normalised():
    X, y = _data()
    reference = repro.evaluate("nb_gaussian", Dataset("mine", X, y), protocol="cv5")
    ds = Dataset("mine", X.to_numpy(), pd.Series(y, index=np.arange(500, 540)))
    assert isinstance(ds.X, pd.DataFrame) and list(ds.X.columns) == [0, 1]
    assert (ds.X.dtypes == np.float64).all()
    assert isinstance(ds.y, np.ndarray) and list(ds.y) == list(y)
    records = repro.evaluate("nb_gaussian", ds, protocol="cv5")
    np.testing.assert_allclose(_test_values(records), _test_values(reference))
    shuffled = pd.Series(y, index=np.random.default_rng(1).permutation(40))  # rows by position
    assert list(Dataset("mine", X, shuffled).y) == list(y)


def test_a_valid_dataset_is_unchanged_and_load_dataset_still_works():
    X, y = _data()
    ds = Dataset("mine", X, y, None)
    assert ds.X is X and ds.y is y and ds.meta == {}
    iris = load_dataset("iris")
    assert iris.n_samples == 150 and iris.n_classes == 3


# ------------------------------------------------------------ categorical_features
def test_categorical_features_one_column_name_is_that_column():
    ds = load_dataset("iris")
    X = ds.X.assign(petallength=ds.X["petallength"].round())
    one = make_method("nb_ef", categorical_features="petallength").fit(X, ds.y)
    listed = make_method("nb_ef", categorical_features=["petallength"]).fit(X, ds.y)
    assert one.encoder_.categorical_.tolist() == [False, False, True, False]
    np.testing.assert_array_equal(one.predict_proba(X), listed.predict_proba(X))
    index = make_method("nb_ef", categorical_features=2).fit(X, ds.y)
    assert index.encoder_.categorical_.tolist() == [False, False, True, False]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("petal_length", "unknown column 'petal_length'; the columns are 'sepallength', "),
        (9, r"column index 9 out of range; the data have 4 columns \(indices 0..3\)"),
        ([1.5], "1.5 is neither a column name nor an index"),
    ],
)
def test_categorical_features_errors_name_the_columns(spec, message):
    ds = load_dataset("iris")
    with pytest.raises(ValueError, match=message):
        make_method("nb_ef", categorical_features=spec).fit(ds.X, ds.y)


# ------------------------------------------------------------------ tuned wrappers
def _no_search(monkeypatch):
    """Fail the test if the inner grid search starts."""
    from sklearn.model_selection import GridSearchCV

    def refuse(*args, **kwargs):
        raise AssertionError("the inner search ran")

    monkeypatch.setattr(GridSearchCV, "fit", refuse)


def test_a_tuned_grid_out_of_range_is_refused_before_the_search(monkeypatch):
    ds = load_dataset("iris")
    _no_search(monkeypatch)
    model = make_method("bma_nb_tuned", grid={"gamma": [0.0, -5.0, 1.0]})
    with pytest.raises(
        ValueError, match=r"grid of bma_nb: gamma must be a finite number > 0, got 0.0"
    ):
        model.fit(ds.X, ds.y)


def test_bad_data_for_a_tuned_method_get_the_methods_message_before_the_search(monkeypatch):
    ds = load_dataset("iris")
    X = ds.X.astype(object)
    X.iloc[0, 0] = "abc"
    _no_search(monkeypatch)
    for method in ("bma_nb_tuned", "lr_tuned", "svm_tuned"):
        with pytest.raises(ValueError, match=r"Non-numeric values in numeric column 'sepallength'"):
            make_method(method).fit(X, ds.y)


def test_a_grid_point_failing_everywhere_is_our_error_not_all_fits_failed():
    """lr has no parameter hook: the point fails in every inner fit, and its message is raised
    (not scikit-learn's "All the N fits failed" nor a FitFailedWarning)."""
    ds = load_dataset("iris")
    for grid in ({"C": [-1.0, 1.0]}, {"C": [-1.0, -2.0]}):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(ValueError) as err:
                make_method("lr_tuned", grid=grid, inner_cv=2).fit(ds.X, ds.y)
        assert "grid of lr: the point {'C': -1.0} failed on every inner fold" in str(err.value)
        assert "C must be a finite number > 0, got -1.0" in str(err.value)
        assert "fits failed" not in str(err.value)
        assert not [w for w in caught if issubclass(w.category, FitFailedWarning)]


def test_a_valid_grid_still_tunes():
    """Γ ∈ {0.5, 1.5} by 2 inner stratified folds (shuffled, seed 0) on iris: brute force gives
    inner accuracies 71/75 and 71/75 for Γ = 0.5, 72/75 and 71/75 for Γ = 1.5: Γ = 1.5, mean
    accuracy 143/150."""
    from sklearn.model_selection import StratifiedKFold

    ds = load_dataset("iris")
    model = make_method("bma_nb_tuned", grid={"gamma": [0.5, 1.5]}, inner_cv=2).fit(ds.X, ds.y)
    folds = StratifiedKFold(2, shuffle=True, random_state=0).split(ds.X, ds.y)
    correct = {0.5: [], 1.5: []}
    for train, test in folds:
        for gamma in correct:
            inner = make_method("bma_nb", gamma=gamma).fit(ds.X.iloc[train], ds.y[train])
            correct[gamma].append(int(np.sum(inner.predict(ds.X.iloc[test]) == ds.y[test])))
    assert correct == {0.5: [71, 71], 1.5: [72, 71]}
    assert model.best_params_ == {"gamma": 1.5} and model.n_splits_ == 2
    assert model.best_score_ == pytest.approx(143 / 150)
    assert model.best_estimator_.gamma == 1.5  # refitted with the chosen Γ


# ------------------------------------------------------------------------ Khiops peer
def test_khiops_before_fit_is_not_fitted():
    X, y = _data()
    model = make_method("khiops")
    for method in ("predict", "predict_proba", "predict_log_proba"):
        with pytest.raises(NotFittedError):
            getattr(model, method)(X)
