"""The tuning wrapper (repro.methods.wu2015.tuning): same choice as a brute-force loop over the
same inner
folds, determinism, fallbacks and the tuned configurations of wu2015."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics import accuracy_score
from sklearn.model_selection import ParameterGrid, cross_val_score

from repro import load_dataset, make_method
from repro.methods.wu2015.tuning import TunedClassifier, inner_n_splits, inner_splits

GAMMAS = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5]
CB = [0.01, 0.1, 1.0, 10.0, 20.0, 100.0]


def _brute_force_choice(base, grid, X, y, splits):
    best, best_score = None, -np.inf
    for params in ParameterGrid(grid):
        scores = []
        for train, test in splits:
            model = clone(base).set_params(**params).fit(X.iloc[train], y[train])
            scores.append(accuracy_score(y[test], model.predict(X.iloc[test])))
        if np.mean(scores) > best_score:  # strict: the first grid point wins ties
            best, best_score = params, np.mean(scores)
    return best, best_score


@pytest.mark.parametrize(
    "method, grid, dataset",
    [
        ("bma_nb", {"gamma": GAMMAS}, "vote"),
        ("bma_nb", {"gamma": GAMMAS}, "labor"),
        ("lr", {"C": [0.01, 1.0, 100.0], "intercept_scaling": [0.1, 10.0]}, "iris"),
    ],
)
def test_choice_equals_brute_force(method, grid, dataset):
    ds = load_dataset(dataset)
    y = np.asarray(ds.y)
    tuned = TunedClassifier(method=method, grid=grid, inner_cv=5, random_state=3).fit(ds.X, y)
    _, y_idx = np.unique(y, return_inverse=True)
    splits = inner_splits(y_idx, 5, 3)
    best, score = _brute_force_choice(make_method(method), grid, ds.X, y, splits)
    assert tuned.best_params_ == best
    assert tuned.best_score_ == pytest.approx(score)
    for name, value in tuned.best_params_.items():
        assert value in grid[name]
    refit = clone(make_method(method)).set_params(**best).fit(ds.X, y)
    np.testing.assert_allclose(tuned.predict_proba(ds.X), refit.predict_proba(ds.X))


def test_deterministic_and_exposes_the_best_model():
    ds = load_dataset("zoo")
    a = make_method("bma_nb_tuned").fit(ds.X, ds.y)
    b = make_method("bma_nb_tuned").fit(ds.X, ds.y)
    assert a.best_params_ == b.best_params_
    np.testing.assert_array_equal(
        a.cv_results_["mean_test_score"], b.cv_results_["mean_test_score"]
    )
    np.testing.assert_array_equal(a.weights_, a.best_estimator_.weights_)
    assert a.n_selected_features_ == a.best_estimator_.n_selected_features_
    assert (a.selected_ == (a.weights_ > 0.5)).all()
    assert list(a.classes_) == list(np.unique(ds.y))
    report = a.fit_report_
    assert report["n_candidates"] == 11 and report["best_gamma"] == a.best_params_["gamma"]
    assert 0 < report["refit_time"] < report["tuning_time"]


def test_tuned_configs_hold_the_paper_grids():
    assert make_method("bma_nb_tuned").grid == {"gamma": GAMMAS}
    for method in ("lr", "svm"):
        tuned = make_method(f"{method}_tuned")
        assert tuned.method == method
        assert tuned.grid == {"C": CB, "intercept_scaling": CB}
        assert len(list(ParameterGrid(tuned.grid))) == 36


def test_fewer_members_than_folds_reduces_folds():
    y = np.array([0] * 10 + [1] * 3 + [2] * 2)
    assert inner_n_splits(y, 5) == 2
    assert inner_n_splits(np.array([0] * 10 + [1] * 4), 5) == 4
    assert inner_n_splits(np.array([0] * 10 + [1]), 5) == 2  # a singleton class: 2 folds
    assert inner_n_splits(np.array([0, 1, 2]), 5) == 0  # no CV possible
    rng = np.random.default_rng(0)
    X = rng.normal(size=(y.size, 3)) + y[:, None]
    tuned = TunedClassifier(method="bma_nb", grid={"gamma": [0.9, 1.1]}).fit(X, y)
    assert tuned.n_splits_ == 2 and tuned.fit_report_["n_splits"] == 2
    X3 = rng.normal(size=(3, 2))
    tuned = TunedClassifier(method="bma_nb", grid={"gamma": [0.9, 1.1]}).fit(X3, [0, 1, 2])
    assert tuned.n_splits_ == 0 and tuned.best_params_ == {"gamma": 0.9}


def test_single_point_grid_skips_cv_and_estimator_method():
    ds = load_dataset("iris")
    tuned = TunedClassifier(method=make_method("bma_nb", alpha=2.0), grid={"gamma": [1.2]}).fit(
        ds.X, ds.y
    )
    assert tuned.n_splits_ == 0 and tuned.cv_results_ == {}
    assert tuned.best_estimator_.alpha == 2.0 and tuned.best_estimator_.gamma == 1.2
    plain = TunedClassifier(method="nb_laplace").fit(ds.X, ds.y)
    assert plain.best_params_ == {}


def test_usable_in_cross_val_score_and_neg_log_loss():
    ds = load_dataset("iris")
    tuned = TunedClassifier(
        method="bma_nb", grid={"gamma": [0.8, 1.2]}, inner_cv=3, scoring="neg_log_loss"
    )
    scores = cross_val_score(tuned, ds.X, ds.y, cv=3)
    assert scores.mean() > 0.85


def test_svm_tuned_has_decision_function_nb_does_not():
    ds = load_dataset("iris")
    svm = TunedClassifier(method="svm", grid={"C": [1.0]}).fit(ds.X, ds.y)
    assert svm.decision_function(ds.X).shape == (150, 3)
    assert not hasattr(TunedClassifier(method="bma_nb", grid={"gamma": [1.0]}), "decision_function")


@pytest.mark.parametrize(
    "params, message",
    [
        ({"grid": {"beta": [1.0]}}, "unknown parameter 'beta'"),
        ({"grid": [1.0]}, "grid must be a dict"),
        ({"grid": {"gamma": []}}, "no candidate value"),
        ({"inner_cv": 1}, "inner_cv must be an integer"),
        ({"method": "bma_nbb"}, "Unknown method 'bma_nbb'"),
        ({"method": 3}, "method must be a registry id"),
    ],
)
def test_bad_parameters(params, message):
    kwargs = {"method": "bma_nb", "grid": {"gamma": [1.0, 1.1]}, **params}
    with pytest.raises(ValueError, match=message):
        TunedClassifier(**kwargs).fit(np.eye(4), [0, 1, 0, 1])


def test_refit_false_cannot_predict():
    ds = load_dataset("iris")
    tuned = TunedClassifier(method="bma_nb", grid={"gamma": [0.8, 1.2]}, refit=False).fit(
        ds.X, ds.y
    )
    assert tuned.best_params_["gamma"] in (0.8, 1.2)
    with pytest.raises(AttributeError, match="refit=False"):
        tuned.predict(ds.X)
