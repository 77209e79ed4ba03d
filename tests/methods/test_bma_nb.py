"""BMA-NB of wu2015 (repro.methods.wu2015.bma_nb): the SPEC §4.6 oracle, the NB special case, a
brute-force
average over all 2^K subsets, numerical safety and bad input."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from repro import load_dataset, make_method
from repro.methods.plain.nb import LaplaceNaiveBayes
from repro.methods.wu2015.bma_nb import BMANaiveBayes, feature_log_odds

X_ORACLE = np.array([[0, 0], [0, 1], [1, 0], [0, 1], [1, 1], [2, 0], [2, 1], [1, 1], [2, 0]])
Y_ORACLE = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1])


def test_spec_oracle():
    model = BMANaiveBayes(gamma=1.0, categorical_features=[0, 1]).fit(X_ORACLE, Y_ORACLE)
    np.testing.assert_allclose(model.weights_, [0.948573, 0.509618], atol=1e-6)
    proba = model.predict_proba(np.array([[0, 0], [2, 1], [1, 0]]))
    np.testing.assert_allclose(proba[:, 1], [0.218878, 0.762464, 0.410783], atol=1e-6)
    assert model.selected_.tolist() == [True, True] and model.n_selected_features_ == 2


def test_registry_defaults():
    model = make_method("bma_nb")
    assert isinstance(model, BMANaiveBayes)
    assert (model.gamma, model.alpha, model.marginal) == (1.0, 1.0, "pooled")


def test_log_odds_formula():
    # w_k = sigmoid(S1 − S0 − (N+1) log Γ)   (wu2015 eq. 11, 13)
    np.testing.assert_allclose(feature_log_odds([-10.0], [-12.0], 1.5, 9), [2.0 - 10 * np.log(1.5)])


def _brute_force_bma(X, y, x_new, gamma, alpha=1.0):
    """P(y | x) by summing explicitly over the 2^K subsets (wu2015 eq. 7-10), from raw counts."""
    n, n_features = X.shape
    classes = np.unique(y)
    n_classes = classes.size
    n_values = X.max(axis=0) + 1
    log_prior = np.log(np.bincount(y) + alpha) - np.log(n + alpha * n_classes)
    cond, marg = [], []
    for k in range(n_features):
        counts = np.zeros((n_values[k], n_classes))
        np.add.at(counts, (X[:, k], y), 1)
        cond.append(np.log(counts + alpha) - np.log(counts.sum(0) + alpha * n_values[k]))
        marg.append(np.log(counts.sum(1) + alpha) - np.log(n + alpha * n_values[k]))
    log_beta = (n + 1) * np.log(gamma)
    out = []
    for x in x_new:
        terms = []  # one per (model f, class)
        for f in itertools.product([0, 1], repeat=n_features):
            log_p = -log_beta * sum(f) + log_prior.copy()  # prior of f, P(y) for the new point
            for k in range(n_features):
                if f[k]:
                    log_p = log_p + cond[k][X[:, k], y].sum() + cond[k][x[k]]
                else:
                    log_p = log_p + marg[k][X[:, k]].sum() + marg[k][x[k]]
            terms.append(log_p)
        joint = logsumexp(np.array(terms), axis=0)
        out.append(np.exp(joint - logsumexp(joint)))
    return np.array(out)


@pytest.mark.parametrize("gamma", [0.7, 1.0, 1.05, 1.3])
def test_brute_force_over_all_subsets(gamma):
    rng = np.random.default_rng(3)
    n, n_features = 60, 8
    y = rng.integers(0, 3, n)
    X = rng.integers(0, 3, (n, n_features))
    X[:, :3] = (y[:, None] + rng.integers(0, 2, (n, 3))) % 4  # three informative variables
    x_new = rng.integers(0, 3, (7, n_features))
    x_new[:, :3] = rng.integers(0, 4, (7, 3))
    model = BMANaiveBayes(gamma=gamma, categorical_features=list(range(n_features)))
    model.fit(X, y)
    np.testing.assert_allclose(model.predict_proba(x_new), _brute_force_bma(X, y, x_new, gamma))


def test_brute_force_with_numeric_variables():
    """Mixed data: average over the 2^K subsets using the fitted per-variable models."""
    ds = load_dataset("labor")
    X = ds.X.iloc[:, :9]
    model = BMANaiveBayes(gamma=1.02).fit(X, ds.y)
    from repro.methods.core.checks import check_predict_input

    Z = check_predict_input(model, X)
    n = Z.shape[0]
    y_idx = np.searchsorted(model.classes_, ds.y)
    cond = [m.log_likelihood(Z[:, k]) for k, m in enumerate(model.variables_)]
    marg = [m.log_prob(Z[:, k]) for k, m in enumerate(model.marginals_)]
    s1 = np.array([c[np.arange(n), y_idx].sum() for c in cond])
    s0 = np.array([m.sum() for m in marg])
    np.testing.assert_allclose(model.evidence_, np.column_stack([s0, s1]), rtol=1e-12)
    terms = []
    for f in itertools.product([0, 1], repeat=Z.shape[1]):
        t = model.class_log_prior_[None, :] - (n + 1) * np.log(1.02) * sum(f)
        for k, fk in enumerate(f):
            t = t + (s1[k] + cond[k] if fk else s0[k] + marg[k][:, None])
        terms.append(t)
    joint = logsumexp(np.stack(terms), axis=0)
    expected = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
    np.testing.assert_allclose(model.predict_proba(X), expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", ["iris", "vote", "zoo", "labor", "autos"])
def test_gamma_to_zero_is_nb_laplace(name):
    ds = load_dataset(name)
    bma = BMANaiveBayes(gamma=1e-12).fit(ds.X, ds.y)
    nb = LaplaceNaiveBayes().fit(ds.X, ds.y)
    informative = [m.informative_ for m in bma.variables_]
    np.testing.assert_allclose(bma.weights_[informative], 1.0)
    np.testing.assert_allclose(bma.predict_proba(ds.X), nb.predict_proba(ds.X), atol=1e-12)
    assert (bma.predict(ds.X) == nb.predict(ds.X)).all()


def test_large_gamma_excludes_uninformative_variables():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    X = np.column_stack([y + 0.3 * rng.normal(size=400), rng.normal(size=(400, 3))])
    model = BMANaiveBayes(gamma=1.1).fit(X, y)
    assert model.weights_[0] > 0.999 and np.all(model.weights_[1:] < 1e-3)
    assert model.selected_.tolist() == [True, False, False, False]
    weights = [BMANaiveBayes(gamma=g).fit(X, y).weights_.sum() for g in (0.9, 1.0, 1.05, 1.2)]
    assert np.all(np.diff(weights) <= 1e-12)  # a larger Γ never includes more


@pytest.mark.parametrize("gamma", [1.5, 1e-300, 1e300])
def test_no_overflow_large_n(gamma):
    rng = np.random.default_rng(1)
    n = 1_000_000
    y = rng.integers(0, 3, n)
    X = pd.DataFrame(
        {
            "num": y + rng.normal(size=n),
            "noise": rng.normal(size=n),
            "cat": pd.Categorical(rng.integers(0, 4, n).astype(str)),
        }
    )
    model = BMANaiveBayes(gamma=gamma).fit(X, y)
    proba = model.predict_proba(X.iloc[:1000])
    assert np.isfinite(model.weights_).all() and np.all(
        (model.weights_ >= 0) & (model.weights_ <= 1)
    )
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    if gamma == 1.5:
        assert model.weights_.tolist() == [0.0, 0.0, 0.0]  # 0.41 nats per instance is a lot
    if gamma == 1e-300:
        assert model.weights_.tolist() == [1.0, 1.0, 1.0]


def test_missing_values_and_unseen_categories():
    X = pd.DataFrame(
        {
            "a": pd.Categorical(["x", "y", None, "x", "y", "y", "x", None]),
            "b": [1.0, np.nan, 2.0, 1.5, 3.0, np.nan, 0.5, 2.5],
        }
    )
    y = np.array([0, 1, 1, 0, 1, 1, 0, 0])
    model = BMANaiveBayes().fit(X, y)
    assert np.isfinite(model.evidence_).all()
    X_new = pd.DataFrame({"a": pd.Categorical(["z", None, "x"]), "b": [np.nan, np.nan, 1e200]})
    proba = model.predict_proba(X_new)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # nothing known about row 1: the class prior (Laplace)
    np.testing.assert_allclose(proba[1], np.exp(model.class_log_prior_))
    # an unseen category counts as missing
    np.testing.assert_allclose(proba[0], proba[1])


def test_constant_column_and_mixture_marginal():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 100)
    X = np.column_stack([np.ones(100), y + rng.normal(size=100)])
    for marginal in ("pooled", "mixture"):
        model = BMANaiveBayes(marginal=marginal).fit(X, y)
        assert model.evidence_[0].tolist() == [0.0, 0.0]
        assert np.isfinite(model.predict_log_proba(X)).all()


@pytest.mark.parametrize(
    "params, message",
    [
        ({"gamma": 0}, "gamma must be a finite number > 0, got 0"),
        ({"gamma": -1.0}, "gamma must be a finite number > 0, got -1.0"),
        ({"gamma": np.inf}, "gamma must be a finite number"),
        ({"gamma": "big"}, "gamma must be a finite number"),
        ({"alpha": 0}, "alpha must be a finite number > 0"),
        ({"marginal": "both"}, "marginal must be one of"),
        ({"ddof": 2}, r"ddof must be one of \[0, 1\], got 2"),
    ],
)
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        BMANaiveBayes(**params).fit(X_ORACLE, Y_ORACLE)
