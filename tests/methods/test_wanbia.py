"""WANBIA-CLL (repro.methods.baselines.wanbia): the objective on a hand-computed case, its
gradient against finite differences, the KKT conditions at the fitted weights on real data, the
prediction formula against tables counted here, and a duplicated attribute's known answer."""

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp
from sklearn.datasets import load_breast_cancer

from repro.methods.baselines.wanbia import WANBIA
from repro.methods.baselines.wanbia_criterion import wanbia_objective
from repro.methods.core.engine import EncodedData

LOG = np.log


def _hand_case():
    """2 variables, 2 classes, P(y) = (1/2, 1/2); rows = parts, columns = classes, then the zero
    row ("no information") that ends each table:

        θ1(x1 | y):  x1=0: (.8, .2)   x1=1: (.2, .8)
        θ2(x2 | y):  x2=0: (.5, .25)  x2=1: (.5, .75)

    instances  A: x = (0, 0), y = 0;  B: x = (1, 1), y = 1;  C: x = (missing, 0), y = 1.
    """
    t1 = np.log([[0.8, 0.2], [0.2, 0.8]])
    t2 = np.log([[0.5, 0.25], [0.5, 0.75]])
    table = np.vstack([t1, np.zeros((1, 2)), t2, np.zeros((1, 2))])
    offsets = np.array([0, 3])
    codes = np.array([[0, 1, 2], [0, 1, 0]])  # x1 of C is the zero row (code 2)
    return codes, offsets, table, np.log([0.5, 0.5]), np.array([0, 1, 1])


def test_objective_and_gradient_on_a_hand_computed_case():
    codes, offsets, table, log_prior, y = _hand_case()
    # w = (1, 1):  A: P(0|x) = .8·.5 / (.8·.5 + .2·.25) = 8/9;
    # B: P(1|x) = .8·.75 / (.8·.75 + .2·.5) = 6/7;
    # C: P(1|x) = .25 / (.5 + .25) = 1/3  ->  NCLL = log(9/8) + log(7/6) + log 3
    value, grad = wanbia_objective(np.ones(2), codes, offsets, table, log_prior, y)
    assert value == pytest.approx(LOG(9 / 8) + LOG(7 / 6) + LOG(3), rel=1e-14)
    # g_k = Σ_n Σ_j (P(j|x_n) − 1[y_n = j]) log θ_k(x_nk | j); residuals A (−1/9, 1/9),
    # B (1/7, −1/7), C (2/3, −2/3):
    # g_1 = (1/9) log(.2/.8) + (1/7) log(.2/.8) + 0 = −(16/63) log 4
    # g_2 = (1/9) log(.25/.5) + (1/7) log(.5/.75) + (2/3) log(.5/.25)
    g1 = -(16 / 63) * LOG(4)
    g2 = -(1 / 9) * LOG(2) + (1 / 7) * LOG(2 / 3) + (2 / 3) * LOG(2)
    np.testing.assert_allclose(grad, [g1, g2], rtol=1e-13)
    # w = (1, 0): A: P(0|x) = .8; B: P(1|x) = .8; C: P(1|x) = 1/2 (no information left)
    value, _ = wanbia_objective(np.array([1.0, 0.0]), codes, offsets, table, log_prior, y)
    assert value == pytest.approx(-2 * LOG(0.8) + LOG(2), rel=1e-14)


def test_gradient_matches_central_finite_differences():
    rng = np.random.default_rng(0)
    n, n_classes, sizes = 60, 3, [2, 4, 3, 5]
    tables = [np.log(rng.dirichlet(np.ones(s), size=n_classes).T) for s in sizes]
    tables = [np.vstack([t, np.zeros((1, n_classes))]) for t in tables]
    codes = np.array([rng.integers(0, s + 1, n) for s in sizes])  # code s: missing (zero row)
    data = EncodedData.from_tables(
        codes, tables, rng.integers(0, n_classes, n), np.log([0.2, 0.3, 0.5])
    )
    args = (data.codes, data.offsets, data.table, data.log_prior, data.y)
    for w in (np.ones(4), np.array([0.0, 0.3, 1.7, 0.9]), rng.uniform(0, 2, 4)):
        _, grad = wanbia_objective(w, *args)
        h = 1e-6
        numeric = [
            (wanbia_objective(w + h * e, *args)[0] - wanbia_objective(w - h * e, *args)[0])
            / (2 * h)
            for e in np.eye(4)
        ]
        np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-7)


def _training_objective(model, X, y):
    Z = model.encoder_.transform(X)
    data = EncodedData.from_estimator(model, Z, y, columns=range(Z.shape[1]))
    return lambda w: wanbia_objective(w, data.codes, data.offsets, data.table, data.log_prior, y)


def test_the_fitted_weights_satisfy_the_kkt_conditions_on_breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    model = WANBIA(tol=1e-15, max_iter=1000).fit(X, y)
    w = model.weights_
    objective = _training_objective(model, X, y)
    value, grad = objective(w)
    assert value == pytest.approx(model.fit_report_["criterion"], rel=1e-12)
    scale = np.abs(objective(np.ones(w.size))[1]).max()  # the gradient at the start, w = 1
    free, low, high = (w > 0) & (w < 1), w == 0, w == 1
    assert free.any() and low.any()
    # stationary on the free coordinates; at a bound, the gradient points out of the box
    assert np.abs(grad[free]).max() <= 1e-5 * scale
    assert np.all(grad[low] >= -1e-5 * scale)
    assert np.all(grad[high] <= 1e-5 * scale)
    # NCLL is convex: a KKT point is the global minimum over the box
    rng = np.random.default_rng(1)
    others = np.vstack(
        [rng.uniform(0, 1, (100, w.size)), np.clip(w + rng.normal(0, 0.05, (100, w.size)), 0, 1)]
    )
    assert value <= min(objective(v)[0] for v in others)
    assert value < model.fit_report_["nb_criterion"]


def _nominal_toy(n=80, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.75, y, 1 - y)
    b = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    X = pd.DataFrame({"a": pd.Categorical(a.astype(str)), "b": pd.Categorical(b.astype(str))})
    return X, np.where(y == 1, "yes", "no")


def _laplace_log_tables(X, y, smooth):
    """log (n_ij + s)/(n_j + s·I) per column, counted here (rows: categories in sorted order)."""
    return [
        np.log(
            (pd.crosstab(X[c], y).to_numpy() + smooth)
            / (pd.crosstab(X[c], y).to_numpy().sum(0) + smooth * X[c].nunique())
        )
        for c in X.columns
    ]


@pytest.mark.parametrize("smooth", [1.0, 0.5])
def test_raw_predictions_are_the_weighted_product_of_laplace_tables(smooth):
    X, y = _nominal_toy()
    model = WANBIA(preprocessing="raw", smooth=smooth).fit(X, y)
    classes, n_j = np.unique(y, return_counts=True)
    log_prior = np.log((n_j + smooth) / (n_j.sum() + smooth * classes.size))
    tables = _laplace_log_tables(X, y, smooth)
    scores = log_prior + sum(
        w * t[X[c].cat.codes.to_numpy()] for w, t, c in zip(model.weights_, tables, X.columns)
    )
    expected = np.exp(scores - logsumexp(scores, axis=1, keepdims=True))
    np.testing.assert_allclose(model.predict_proba(X), expected, rtol=1e-12)
    y_idx = np.searchsorted(classes, y)
    ncll = -np.sum(np.log(expected[np.arange(y.size), y_idx]))
    assert model.fit_report_["criterion"] == pytest.approx(ncll, rel=1e-12)


def test_a_duplicated_attribute_shares_the_weight_of_the_single_one():
    """NCLL depends on w_a and w_a' of two identical columns through w_a + w_a' only; from the
    symmetric start w = 1 the weights stay equal, so each is half the optimum w* of the column
    alone (found here by a 1-D search on the NCLL computed from the counts)."""
    X, y = _nominal_toy(n=120, seed=5)
    X = X[["a"]]
    classes, n_j = np.unique(y, return_counts=True)
    log_prior = np.log((n_j + 1) / (n_j.sum() + 2))
    (table,) = _laplace_log_tables(X, y, 1.0)
    rows, y_idx = X["a"].cat.codes.to_numpy(), np.searchsorted(classes, y)

    def ncll(w):
        s = log_prior + w * table[rows]
        return float(np.sum(logsumexp(s, axis=1) - s[np.arange(y.size), y_idx]))

    best = minimize_scalar(ncll, bounds=(0, 20), method="bounded", options={"xatol": 1e-10}).x
    assert 0 < best < 20  # interior
    single = WANBIA(preprocessing="raw", max_weight=None, tol=1e-15).fit(X, y)
    np.testing.assert_allclose(single.weights_, [best], rtol=1e-5)
    double = WANBIA(preprocessing="raw", max_weight=None, tol=1e-15).fit(X.assign(a2=X["a"]), y)
    np.testing.assert_allclose(double.weights_, [best / 2, best / 2], rtol=1e-5)
    bounded = WANBIA(preprocessing="raw", tol=1e-15).fit(X.assign(a2=X["a"]), y)
    np.testing.assert_allclose(bounded.weights_, np.minimum([best / 2, best / 2], 1), rtol=1e-5)


def test_a_row_of_missing_values_gets_the_smoothed_class_prior():
    X, y = _nominal_toy()
    model = WANBIA(preprocessing="raw").fit(X, y)
    blank = pd.DataFrame(
        {
            "a": pd.Categorical([np.nan], categories=["0", "1"]),
            "b": pd.Categorical([np.nan], categories=["0", "1", "2"]),
        }
    )
    _, n_j = np.unique(y, return_counts=True)
    np.testing.assert_allclose(
        model.predict_proba(blank)[0], (n_j + 1) / (n_j.sum() + 2), rtol=1e-12
    )


def test_raw_refuses_a_numeric_column_naming_it_and_the_choices():
    X, y = _nominal_toy()
    X = X.assign(size=np.linspace(0, 1, len(X)))
    with pytest.raises(ValueError, match=r"'size'.*\['modl', 'raw'\]"):
        WANBIA(preprocessing="raw").fit(X, y)
    assert WANBIA().fit(X, y).weights_.shape == (3,)  # "modl" discretizes it


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"preprocessing": "mdl"}, "preprocessing"),
        ({"smooth": 0.0}, "smooth"),
        ({"max_weight": -1.0}, "max_weight"),
        ({"max_iter": 0}, "max_iter"),
        ({"tol": 0}, "tol"),
    ],
)
def test_bad_parameters_are_refused_by_name(params, name):
    X, y = _nominal_toy()
    with pytest.raises(ValueError, match=name):
        WANBIA(**params).fit(X, y)
