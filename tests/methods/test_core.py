"""The shared core of the weighted naive Bayes: weights ≥ 0, pure criteria, optimisers, the
class-independent models. Known answers: hand-computed values and brute-force oracles."""

import itertools
import math

import numpy as np
import pytest
from scipy.special import gammaln, logsumexp

from repro.methods.boulle2007.criteria import bma_model_weights, cma_model_weights
from repro.methods.core.base import WeightedNaiveBayes
from repro.methods.core.criteria import softmax_nll
from repro.methods.core.optimisers import halving_coordinate_descent
from repro.methods.khiops.fnb_criterion import khiops_fnb_data_cost, khiops_fnb_prior
from repro.preprocessing.modl.criteria import universal_code
from repro.preprocessing.variables import (
    GaussianModel,
    MarginalGaussian,
    MarginalTable,
    conditional_evidence,
    laplace_category_model,
    marginal_model,
)

X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 3.0], [0.5, 1.5], [2.5, 2.0]])
Y = np.array([0, 0, 1, 1, 0, 1])


class FixedWeights(WeightedNaiveBayes):
    """Gaussian variables with the weights given as a parameter (WNB-like, may exceed 1)."""

    def __init__(self, weights=(1.0, 1.0)):
        self.weights = weights

    def _make_variable_model(self, k, nominal, n_categories):
        return GaussianModel()

    def _fit_weights(self, Z, y):
        return np.asarray(self.weights, dtype=float)


def test_weights_above_one_are_a_weighted_naive_bayes():
    """vidaurre2012 eq. 6: w_k may exceed 1; the score is log P(y) + Σ w_k log P(x_k|y)."""
    model = FixedWeights((2.5, 0.0)).fit(X, Y)
    assert model.weights_.tolist() == [2.5, 0.0]
    assert model.selected_.tolist() == [True, False]
    jll = model.class_log_prior_ + 2.5 * model.variables_[0].log_likelihood(X[:, 0])
    expected = jll - logsumexp(jll, axis=1, keepdims=True)
    np.testing.assert_allclose(model.predict_log_proba(X), expected, atol=1e-12)


class ShrunkFixedWeights(FixedWeights):
    """FixedWeights with the base's ``output_shrink`` parameter."""

    def __init__(self, weights=(1.0, 1.0), output_shrink="none"):
        super().__init__(weights)
        self.output_shrink = output_shrink


def test_base_output_shrink_by_hand():
    """N = 6, J = 2: p̂ = (p + 0.5/14)/(1 + 0.5/7); an estimator without the parameter, or with
    "none", returns the plain softmax."""
    plain = FixedWeights((2.5, 0.0)).fit(X, Y).predict_proba(X)
    np.testing.assert_array_equal(
        ShrunkFixedWeights((2.5, 0.0), "none").fit(X, Y).predict_proba(X), plain
    )
    shrunk = ShrunkFixedWeights((2.5, 0.0), "khiops").fit(X, Y).predict_proba(X)
    np.testing.assert_allclose(shrunk, (plain + 1 / 28) / (15 / 14), rtol=1e-14)
    assert shrunk.min() >= (1 / 28) / (15 / 14) and np.allclose(shrunk.sum(axis=1), 1)


@pytest.mark.parametrize("weights", [(-0.5, 1.0), (np.nan, 1.0), (np.inf, 0.0), (1.0,)])
def test_invalid_weights_are_refused(weights):
    with pytest.raises(RuntimeError, match="invalid weights"):
        FixedWeights(weights).fit(X, Y)


def test_softmax_nll_by_hand():
    S = np.array([[0.0, math.log(3.0)], [math.log(2.0), math.log(2.0)]])
    q = np.empty_like(S)
    nll = softmax_nll(S, q, np.array([1, 0]))
    np.testing.assert_allclose(q, [[0.25, 0.75], [0.5, 0.5]], atol=1e-15)
    assert nll == pytest.approx(-math.log(0.75) - math.log(0.5), abs=1e-14)


def test_model_averaging_weights_by_hand():
    cost = np.array([10.0, 11.0, 12.0, 25.0])
    np.testing.assert_allclose(bma_model_weights(cost), np.exp([0.0, -1.0, -2.0, -15.0]))
    keep = np.array([True, False, True, True])
    np.testing.assert_allclose(bma_model_weights(cost, keep), [1.0, 0.0, np.exp(-2), np.exp(-15)])
    np.testing.assert_allclose(cma_model_weights(cost, 20.0), [0.5, 0.45, 0.4, 0.0])


def test_khiops_fnb_prior_by_hand():
    """λ[ln2 + L*(⌈W⌉) − ln⌈W⌉!] + λ Σ w^α B (KHIOPS_NOTES §6); W = 0: λ[ln2 + lbinom]."""
    lam, alpha, n, j = 0.1, 0.95, 100, 3
    empty = khiops_fnb_prior([0.0, 0.0], [5.0, 7.0], n, j, lam, alpha)
    lbinom = gammaln(n + j) - gammaln(j) - gammaln(n + 1)
    assert empty == pytest.approx(lam * (math.log(2) + lbinom), rel=1e-13)
    value = khiops_fnb_prior([1.0, 0.5], [5.0, 7.0], n, j, lam, alpha)
    expected = lam * (math.log(2) + universal_code(2) - math.log(2.0))
    expected += lam * (5.0 + 0.5**alpha * 7.0)
    assert value == pytest.approx(expected, rel=1e-13)


def test_khiops_fnb_data_cost_by_hand():
    scores = np.log(np.array([[0.8, 0.2], [0.4, 0.6], [0.5, 0.5]]))
    y = np.array([0, 0, 1])
    p = np.array([0.8, 0.4, 0.5])
    expected = -np.log((3 * p + 0.25) / 3.5).sum()
    assert khiops_fnb_data_cost(scores, y) == pytest.approx(expected, rel=1e-13)


class SeparableQuadratic:
    """Σ_k (w_k − t_k)² with coordinate trials: the grid optimum is the nearest grid point."""

    def __init__(self, target):
        self.target = np.asarray(target, float)
        self.w = np.zeros(self.target.size)
        self.value = self.of(self.w)

    def of(self, w):
        return float(np.sum((w - self.target) ** 2))

    def weight(self, k):
        return self.w[k]

    def trial(self, k, new_weight):
        self.pending = self.w.copy()
        self.pending[k] = new_weight
        return self.of(self.pending)

    def accept(self):
        self.w = self.pending
        self.value = self.of(self.w)


def test_halving_coordinate_descent_reaches_the_grid_optimum():
    target = [0.7, 0.0, 1.0, 0.3, 0.45]
    objective = SeparableQuadratic(target)
    result = halving_coordinate_descent(
        objective, range(5), n_steps=3, tolerance=1e-12, shuffle=lambda v: list(v)
    )
    grid = np.arange(5) / 4  # multiples of 2^−(3−1) in [0, 1]
    best = min(itertools.product(grid, repeat=5), key=lambda w: objective.of(np.array(w)))
    assert [result.weights[k] for k in range(5)] == list(best)
    assert result.value == pytest.approx(objective.of(np.array(best)), abs=1e-15)
    assert result.trace[-1]["delta"] == 0.25


def test_class_independent_models_by_hand():
    """Pooled marginals: Laplace over all values, one Gaussian over all values; their evidence
    is Σ_i log P(x_i), and the class-conditional evidence Σ_i log P(x_i | y_i)."""
    x = np.array([0.0, 1.0, 1.0, 2.0, np.nan, 1.0])
    y = np.array([0, 0, 1, 1, 1, 0])
    log_prior = np.log([0.5, 0.5])
    table = laplace_category_model(3, alpha=1.0).fit(x, y, 2)
    marginal = marginal_model(table, x, "pooled", log_prior, alpha=1.0)
    assert isinstance(marginal, MarginalTable)
    p = np.array([2, 4, 2]) / 8  # (#v + 1)/(5 + 3)
    np.testing.assert_allclose(marginal.log_prob(np.array([0.0, 1.0, 2.0, np.nan])),
                               np.append(np.log(p), 0.0))  # fmt: skip
    assert marginal.evidence_ == pytest.approx(np.log(p[[0, 1, 1, 2, 1]]).sum())
    cond = np.log(np.array([[2, 1], [3, 2], [1, 2]]) / np.array([6, 5]))  # Laplace per class
    assert conditional_evidence(table, x, y) == pytest.approx(
        cond[[0, 1, 1, 2, 1], [0, 0, 1, 1, 0]].sum()
    )
    gauss = GaussianModel(ddof=1, var_smoothing=0.0).fit(x, y, 2)
    pooled = marginal_model(gauss, x, "pooled", log_prior)
    assert isinstance(pooled, MarginalGaussian)
    xo = x[~np.isnan(x)]
    var = xo.var(ddof=1)
    expected = -0.5 * np.log(2 * np.pi * var) - 0.5 * (xo - xo.mean()) ** 2 / var
    assert pooled.evidence_ == pytest.approx(expected.sum(), rel=1e-12)
    with pytest.raises(ValueError, match="marginal must be one of"):
        marginal_model(gauss, x, "both", log_prior)
