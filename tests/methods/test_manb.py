"""MANB (repro.methods.baselines.manb): the arc posterior on hand-computed tables, its limits,
and the model average against an explicit enumeration of the 2^K naive Bayes structures."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy.special import gammaln
from sklearn.datasets import load_breast_cancer

from repro.methods.baselines.manb import MANB
from repro.methods.baselines.manb_criterion import (
    arc_log_marginals,
    arc_posterior,
    manb_table,
)


def test_arc_posterior_of_a_hand_computed_2x2_table():
    """counts (values × classes) [[3, 1], [1, 3]], s = 1, I = J = 2 (lnΓ(k + 1) = ln k!):

    arc:    J lnΓ(2) − Σ_j lnΓ(2 + 4) + Σ_ij lnΓ(1 + n_ij) = 0 − 2 ln 5! + ln(3!·1!·1!·3!)
            = ln(36 / 14400) = ln(1/400)
    no arc: lnΓ(2) − lnΓ(2 + 8) + Σ_i lnΓ(1 + n_i) = −ln 9! + 2 ln 4! = ln(576/362880) = ln(1/630)
    ρ = 1/2:  p = (1/400) / (1/400 + 1/630) = 630/1030 = 63/103
    ρ = 0.3:  p = .3/400 / (.3/400 + .7/630) = 189/(189 + 280) = 27/67
    """
    counts = np.array([[3, 1], [1, 3]])
    arc, no_arc = arc_log_marginals(counts, 1.0)
    assert arc == pytest.approx(math.log(1 / 400), rel=1e-13)
    assert no_arc == pytest.approx(math.log(1 / 630), rel=1e-13)
    assert arc_posterior(counts, 1.0, 0.5) == pytest.approx(63 / 103, rel=1e-13)
    assert arc_posterior(counts, 1.0, 0.3) == pytest.approx(27 / 67, rel=1e-13)
    # θ(x | y) = (n_ij + 1)/(n_j + 2): columns (4/6, 2/6), (2/6, 4/6); θ(x) = (4 + 1)/(8 + 2)
    p = 63 / 103
    expected = p * np.array([[4 / 6, 2 / 6], [2 / 6, 4 / 6]]) + (1 - p) * 0.5
    np.testing.assert_allclose(manb_table(counts, 1.0, 0.5), expected, rtol=1e-13)


def test_an_independent_feature_loses_its_arc_and_a_deterministic_one_keeps_it():
    # [[2, 2], [2, 2]]: arc 2·ln(1!·2!·2!/5!) = ln(1/900), no arc ln(4!·4!/9!) = ln(1/630):
    # p = 630/(630 + 900) = 7/17 < 1/2
    assert arc_posterior(np.array([[2, 2], [2, 2]]), 1.0, 0.5) == pytest.approx(7 / 17, rel=1e-13)
    # [[n, 0], [0, n]]: arc −2 ln(n + 1), no arc ln(n!² / (2n + 1)!):
    # odds = (2n + 1)! / ((n + 1)² n!²), p = odds / (1 + odds) → 1
    previous = 0.0
    for n in (1, 2, 5, 10, 30):
        odds = Fraction(math.factorial(2 * n + 1), (n + 1) ** 2 * math.factorial(n) ** 2)
        p = arc_posterior(np.array([[n, 0], [0, n]]), 1.0, 0.5)
        assert p == pytest.approx(float(odds / (1 + odds)), rel=1e-12)
        assert 1 - p == pytest.approx(float(1 / (1 + odds)), rel=1e-6)
        assert p > previous
        previous = p
    assert 1 - previous < 1e-14  # n = 30: 1/(1 + odds) ≈ 2e-15


def _toy(n=40, seed=0):
    """Three nominal features of a binary class: informative, weak, and independent of y."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)
    b = np.where(rng.random(n) < 0.3, y, rng.integers(0, 3, n))
    c = rng.integers(0, 2, n)
    X = pd.DataFrame({k: pd.Categorical(v.astype(str)) for k, v in zip("abc", (a, b, c))})
    return X, y


def _log_ml(counts, s):
    """Dirichlet(s) log marginal likelihood of a table of counts, columns = parent states."""
    counts = np.asarray(counts, dtype=float)
    r = counts.shape[0]
    return float(
        np.sum(gammaln(r * s) - gammaln(r * s + counts.sum(0)))
        + np.sum(gammaln(s + counts) - gammaln(s))
    )


@pytest.mark.parametrize(
    ("prior", "smooth"), [(0.5, 1.0), (0.3, 1.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)]
)
def test_the_model_average_equals_the_enumeration_of_the_2_to_k_structures(prior, smooth):
    """Every structure S (a subset of the arcs y → x_k) weighted by prior × marginal likelihood,
    P(S | D) ∝ Π_k ρ^{a_k} (1 − ρ)^{1 − a_k} · P(D_y) Π_k P(D_k | S), then the joint
    P(y, x | S, D) = P(y) Π_k θ_S,k(x_k | y) averaged over S and normalised over y."""
    X, y = _toy()
    model = MANB(preprocessing="raw", prior=prior, smooth=smooth).fit(X, y)
    s = smooth
    tables = [pd.crosstab(X[c], y).to_numpy() for c in X.columns]  # values × classes
    n_j = np.bincount(y)
    log_py = np.log((n_j + s) / (n_j.sum() + 2 * s))
    ml_y = _log_ml(n_j[:, None], s)  # the class node: the same in every structure
    conditional = [(t + s) / (t.sum(0) + s * t.shape[0]) for t in tables]
    marginal = [(t.sum(1) + s) / (t.sum() + s * t.shape[0]) for t in tables]
    rows = [X[c].cat.codes.to_numpy() for c in X.columns]
    structures = list(itertools.product((0, 1), repeat=3))
    log_w, joint = [], []
    for arcs in structures:
        prior_s = np.prod([prior if a else 1 - prior for a in arcs])
        ml = ml_y + sum(
            _log_ml(t, s) if a else _log_ml(t.sum(1)[:, None], s) for t, a in zip(tables, arcs)
        )
        with np.errstate(divide="ignore"):
            log_w.append(np.log(prior_s) + ml)
        p = np.exp(log_py)[None, :].repeat(len(y), 0)
        for k, a in enumerate(arcs):
            p = p * (conditional[k][rows[k]] if a else marginal[k][rows[k]][:, None])
        joint.append(p)
    log_w = np.array(log_w)
    weights = np.exp(log_w - log_w.max())
    weights /= weights.sum()
    # the arc posteriors are the marginals of the structure posterior
    arc_marginals = [sum(w for w, arcs in zip(weights, structures) if arcs[k]) for k in range(3)]
    np.testing.assert_allclose(model.arc_posteriors_, arc_marginals, rtol=1e-10, atol=1e-15)
    averaged = sum(w * p for w, p in zip(weights, joint))
    np.testing.assert_allclose(
        model.predict_proba(X), averaged / averaged.sum(1, keepdims=True), rtol=1e-10
    )
    np.testing.assert_array_equal(model.weights_, np.ones(3))
    if 0 < prior < 1:  # averaging the structures' class posteriors is another model
        posteriors = sum(w * p / p.sum(1, keepdims=True) for w, p in zip(weights, joint))
        assert not np.allclose(posteriors, model.predict_proba(X), rtol=1e-6)


def test_an_exactly_independent_column_loses_its_arc_and_a_copy_of_the_class_keeps_it():
    """n = 50 instances per class; ``a`` = y, ``c`` half 0 and half 1 within each class:
    a's table is [[50, 0], [0, 50]] (p = odds/(1 + odds), odds = 101!/(51² 50!²) ≈ 1.3e27),
    c's [[25, 25], [25, 25]] (independent: below the prior)."""
    y = np.tile([0, 1], 50)
    rng = np.random.default_rng(4)
    X = pd.DataFrame(
        {
            "a": pd.Categorical(y.astype(str)),
            "b": pd.Categorical(rng.integers(0, 3, y.size).astype(str)),
            "c": pd.Categorical(np.tile([0, 0, 1, 1], 25).astype(str)),
        }
    )
    p = MANB(preprocessing="raw").fit(X, y).arc_posteriors_
    tables = [pd.crosstab(X[c], y).to_numpy() for c in X.columns]
    np.testing.assert_array_equal(tables[2], [[25, 25], [25, 25]])
    np.testing.assert_allclose(p, [arc_posterior(t, 1.0, 0.5) for t in tables], rtol=1e-13)
    odds = Fraction(math.factorial(101), 51**2 * math.factorial(50) ** 2)
    assert p[0] == pytest.approx(float(odds / (1 + odds)), rel=1e-15)
    assert p[2] < 0.5


def test_a_one_part_modl_variable_keeps_the_prior():
    """With I = 1 part both marginal likelihoods are 0 (J lnΓ(s) − Σ_j lnΓ(s + n_j) +
    Σ_j lnΓ(s + n_j) − J lnΓ(s) = 0, and lnΓ(s) − lnΓ(s + n) + lnΓ(s + n) − lnΓ(s) = 0): p = ρ."""
    X, y = load_breast_cancer(return_X_y=True)
    for prior in (0.5, 0.2):
        model = MANB(prior=prior).fit(X, y)
        one_part = np.array([m.n_parts_ == 1 for m in model.variables_])
        assert one_part.any() and (~one_part).any()
        np.testing.assert_allclose(model.arc_posteriors_[one_part], prior, rtol=1e-15)
        np.testing.assert_allclose(
            model.arc_posteriors_[~one_part],
            [arc_posterior(m.counts_, 1.0, prior) for m in np.array(model.variables_)[~one_part]],
            rtol=1e-15,
        )


def test_missing_values_are_left_out_of_the_counts_and_carry_no_information():
    X, y = _toy(n=60, seed=2)
    X.loc[:9, "a"] = np.nan
    model = MANB(preprocessing="raw").fit(X, y)
    observed = X["a"].notna().to_numpy()
    counts = pd.crosstab(X["a"][observed], y[observed]).to_numpy()
    assert model.arc_posteriors_[0] == pytest.approx(arc_posterior(counts, 1.0, 0.5), rel=1e-13)
    without_a = MANB(preprocessing="raw").fit(X[["b", "c"]], y)
    np.testing.assert_allclose(
        model.predict_proba(X.iloc[:10]),
        without_a.predict_proba(X[["b", "c"]].iloc[:10]),
        rtol=1e-12,
    )


def test_raw_refuses_a_numeric_column_naming_it_and_the_choices():
    X, y = _toy()
    X = X.assign(size=np.linspace(0, 1, len(X)))
    with pytest.raises(ValueError, match=r"'size'.*\['modl', 'raw'\]"):
        MANB(preprocessing="raw").fit(X, y)
    assert MANB().fit(X, y).arc_posteriors_.shape == (4,)  # "modl" discretizes it


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"preprocessing": "none"}, "preprocessing"),
        ({"prior": 1.5}, "prior"),
        ({"prior": -0.1}, "prior"),
        ({"smooth": 0}, "smooth"),
    ],
)
def test_bad_parameters_are_refused_by_name(params, name):
    X, y = _toy()
    with pytest.raises(ValueError, match=name):
        MANB(**params).fit(X, y)
