"""nb_mdlh, nb_mdlg, nb_shimazaki (repro.methods.plain.histogram_nb): behaviour and SPEC §11."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from repro import make_method
from repro.methods.plain.histogram_nb import (
    MDLDiscretizedNaiveBayes,
    MDLHistogramNaiveBayes,
    ShimazakiNaiveBayes,
)
from repro.methods.plain.nb import EqualWidthNaiveBayes, GaussianNaiveBayes
from repro.preprocessing.histograms.mdl import mdl_histogram
from repro.preprocessing.histograms.shimazaki import shimazaki_bins, shimazaki_cost

METHODS = ["nb_mdlh", "nb_mdlg", "nb_shimazaki"]


@pytest.mark.parametrize("method", ["nb_mdlh", "nb_mdlg"])  # Shimazaki: an exact test of its bins
def test_iris_training_accuracy(method):
    X, y = load_iris(return_X_y=True)
    assert make_method(method).fit(X, y).score(X, y) > 0.9


def test_mdlh_density_is_the_laplace_smoothed_mdl_histogram():
    rng = np.random.default_rng(0)
    x = np.round(rng.normal(size=200), 1)
    y = (rng.random(200) < 0.5).astype(int)
    model = MDLHistogramNaiveBayes().fit(x[:, None], y)
    var = model.variables_[0]
    for j in (0, 1):
        hist = mdl_histogram(x[y == j], None, True)  # the default reading: with the cut-set code
        np.testing.assert_allclose(var.edges_[j], hist.edges)
        mass = (hist.counts + 1) / (hist.counts.sum() + hist.n_bins)
        np.testing.assert_allclose(np.exp(var.log_density_[j]) * np.diff(hist.edges), mass)
    # out of range (default "column"): one pseudo-count over the column's training range, below
    # every bin inside ("tail": over the class's histogram); missing: no information
    new = np.array([-50.0, 50.0, np.nan])
    ll = var.log_likelihood(new)
    tail = MDLHistogramNaiveBayes(out_of_range="tail").fit(x[:, None], y).variables_[0]
    for j in (0, 1):
        n_j, k_j, edges = np.sum(y == j), var.edges_[j].size - 1, var.edges_[j]
        column = -np.log((n_j + k_j) * (x.max() - x.min()))
        np.testing.assert_allclose(ll[:2, j], column)
        assert column <= var.log_density_[j].min()
        own = -np.log((n_j + k_j) * (edges[-1] - edges[0]))
        np.testing.assert_allclose(tail.log_likelihood(new)[:2, j], own)
    np.testing.assert_array_equal(ll[2], [0.0, 0.0])


def test_mdlg_is_a_laplace_nb_on_the_global_histogram_bins():
    x = np.r_[np.zeros(20), np.ones(20), np.full(20, 5.0)]
    y = np.r_[np.zeros(25), np.ones(35)].astype(int)
    model = MDLDiscretizedNaiveBayes().fit(x[:, None], y)
    cuts = mdl_histogram(x, None, True).edges[1:-1]
    np.testing.assert_allclose(model.variables_[0].partition.cuts_, cuts)
    bins = np.searchsorted(cuts, x, side="right")
    n_bins = cuts.size + 1
    counts = np.array([[np.sum((bins == b) & (y == j)) for j in (0, 1)] for b in range(n_bins)])
    expected = np.log((counts + 1) / (counts.sum(axis=0) + n_bins))
    np.testing.assert_allclose(model.variables_[0].log_table_[:-1], expected)
    # the class prior is the frequency (eq. 4)
    np.testing.assert_allclose(np.exp(model.class_log_prior_), [25 / 60, 35 / 60])
    # every cut lies strictly between two distinct training values
    assert all(not np.any(np.isclose(c, x)) for c in cuts)


def test_shimazaki_density_uses_the_chosen_number_of_bins():
    rng = np.random.default_rng(1)
    x = np.r_[rng.normal(0, 1, 300), rng.normal(6, 1, 300)]
    y = np.r_[np.zeros(300), np.ones(300)].astype(int)
    model = ShimazakiNaiveBayes().fit(x[:, None], y)
    var = model.variables_[0]
    chosen = []
    for j in (0, 1):
        edges = var.edges_[j]
        v = x[y == j]
        # the number of bins is Shimazaki's choice on the class's training values: the N of
        # least cost C(δ) over 1..200 (brute force), the same as shimazaki_bins
        k = shimazaki_bins(v)
        costs = [shimazaki_cost(v, n) for n in range(1, 201)]
        assert k == 1 + int(np.argmin(costs))
        assert edges.size - 1 == k
        chosen.append(k)
        # and the model uses those k equal bins on [min, max]: Laplace masses (h + 1)/(n_j + k)
        # over the width of a bin
        np.testing.assert_allclose(edges, np.linspace(v.min(), v.max(), k + 1))
        counts, _ = np.histogram(v, bins=k, range=(v.min(), v.max()))
        assert counts.sum() == v.size
        width = (v.max() - v.min()) / k
        density = (counts + 1) / (v.size + k) / width
        np.testing.assert_allclose(np.exp(var.log_density_[j]), density)
        bins = np.minimum(((v - v.min()) / width).astype(int), k - 1)
        np.testing.assert_allclose(var.log_likelihood(v)[:, j], np.log(density[bins]))
    np.testing.assert_array_equal(var.n_bins_, chosen)


def _mixed(n=80, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame(
        {
            "num": np.round(rng.normal(size=n) + y, 1),
            "cat": pd.Categorical(rng.choice(["u", "v", "w"], n)),
            "const": np.ones(n),
        }
    )
    frame.loc[::7, "num"] = np.nan
    frame.loc[::5, "cat"] = np.nan
    return frame, np.array(["a", "b", "c"])[y]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("nominal", ["numeric", "categorical"])
def test_missing_unseen_out_of_range_and_extremes(method, nominal):
    X, y = _mixed()
    model = make_method(method, nominal=nominal).fit(X, y)
    new = pd.DataFrame(
        {
            "num": [np.nan, 0.5, 1e300, -1e300, 1e-300],
            "cat": ["zzz", "u", np.nan, "v", "w"],
            "const": [1.0, 1.0, -1e-300, 7.0, 1.0],
        }
    )
    proba = model.predict_proba(new)
    assert np.all(np.isfinite(proba)) and np.all(proba > 0)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # an unseen category is no information, as a missing value
    unseen = pd.DataFrame({"num": [0.3], "cat": ["zzz"], "const": [1.0]})
    missing = pd.DataFrame({"num": [0.3], "cat": [np.nan], "const": [1.0]})
    np.testing.assert_allclose(model.predict_proba(unseen), model.predict_proba(missing))


def test_nominal_as_numbers_is_the_default_and_uses_a_histogram():
    X, y = _mixed()
    numeric = make_method("nb_mdlh").fit(X, y)
    categorical = make_method("nb_mdlh", nominal="categorical").fit(X, y)
    assert numeric.nominal == "numeric"
    assert type(numeric.variables_[1]).__name__ == "NumericCodes"
    assert type(categorical.variables_[1]).__name__ == "PartitionModel"


@pytest.mark.parametrize("cls", [EqualWidthNaiveBayes, GaussianNaiveBayes])
def test_baselines_accept_nominal_as_numbers(cls):
    X, y = _mixed()
    a = cls(nominal="numeric").fit(X, y).predict_proba(X)
    b = cls().fit(X, y).predict_proba(X)
    assert np.all(np.isfinite(a)) and not np.allclose(a, b)


def test_two_instances_per_class_and_constant_columns():
    X = np.array([[0.0, 5.0], [0.1, 5.0], [1.0, 5.0], [1.1, 5.0]])
    y = np.array([0, 0, 1, 1])
    for method in METHODS:
        model = make_method(method).fit(X, y)
        assert np.all(np.isfinite(model.predict_proba(X)))
        assert not model.variables_[1].informative_


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"nominal": "ordinal"}, r"nominal must be one of \['numeric', 'categorical'\]"),
        ({"max_bins": 0}, "max_bins must be an integer ≥ 1"),
        ({"max_bins": 2.5}, "max_bins must be an integer ≥ 1"),
    ],
)
@pytest.mark.parametrize("method", METHODS)
def test_bad_parameters_name_the_parameter_and_choices(method, params, message):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=message):
        make_method(method, **params).fit(X, y)


def test_bad_cut_set_code_and_unknown_parameter():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=r"cut_set_code must be one of \[False, True\]"):
        make_method("nb_mdlh", cut_set_code="yes").fit(X, y)
    with pytest.raises(ValueError, match="Unknown parameter.*valid parameters"):
        make_method("nb_mdlg", epsilon=0.1)


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        (np.ones((4, 2)), np.array([1, 1, 1, 1]), "only one class"),
        (np.ones((4, 2)), np.array([0, 1, np.nan, 1]), "missing value"),
        (np.array([[1.0, np.inf], [2, 3], [3, 4], [4, 5]]), np.array([0, 1, 0, 1]), "infinite"),
        (np.empty((0, 3)), np.array([]), "0 sample|0 instances"),
    ],
)
@pytest.mark.parametrize("method", METHODS)
def test_bad_input_clear_errors(method, X, y, message):
    with pytest.raises(ValueError, match=message):
        make_method(method).fit(X, y)


def test_non_numeric_strings_name_the_column():
    X = pd.DataFrame({"age": ["1", "2", "x?", "4"], "b": [1.0, 2, 3, 4]})
    with pytest.raises(ValueError, match="Non-numeric values in numeric column 'age'"):
        MDLHistogramNaiveBayes(categorical_features=[]).fit(X, [0, 1, 0, 1])


def test_cut_set_code_is_the_default_reading():
    # full-precision data: eqs. 14–15 alone choose the finest histogram (2V − 1 bins); with the
    # cut-set code log binom(E, K − 1) the per-class histograms of 200 normal values are coarse
    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    y = np.r_[np.zeros(100), np.ones(100)].astype(int)
    assert make_method("nb_mdlh").cut_set_code is True
    assert make_method("nb_mdlg").cut_set_code is True
    with_code = make_method("nb_mdlh").fit(x[:, None], y).variables_[0]
    without = make_method("nb_mdlh", cut_set_code=False).fit(x[:, None], y).variables_[0]
    for j in (0, 1):
        assert without.edges_[j].size - 1 == 2 * 100 - 1
        np.testing.assert_allclose(with_code.edges_[j], mdl_histogram(x[y == j], None, True).edges)
        assert with_code.edges_[j].size - 1 < 20
