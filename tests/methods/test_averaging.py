"""SNB(BMA) and SNB(CMA) of boulle2007: variable weights against a brute force over the subsets."""

import itertools
import math

import numpy as np
import pytest
from scipy.special import logsumexp
from test_selective import brute_cost, make_problem, redundant_frame

from repro.methods.boulle2007.averaging import (
    BMASelectiveNaiveBayes,
    CMASelectiveNaiveBayes,
    bma_weights,
    cma_weights,
)
from repro.methods.boulle2007.search import exhaustive_search, ms_ffwbw
from repro.methods.core.engine import EncodedData, ScoreEngine


def brute_force_weights(subsets, costs, null_cost):
    """b_k and c_k written from the paper's formulas, one model at a time."""
    subsets = np.asarray(subsets, dtype=float)
    log_post = -np.asarray(costs)
    post = np.exp(log_post - logsumexp(log_post))  # P(M_m | D), normalised
    b = (subsets * post[:, None]).sum(axis=0) / post.sum()
    c_m = np.array([1 - cost / null_cost for cost in costs])
    good = c_m > 0
    if not good.any():
        return b, np.zeros(subsets.shape[1])
    c = (subsets[good] * c_m[good, None]).sum(axis=0) / c_m[good].sum()
    return b, c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weights_over_all_models_equal_brute_force(seed):
    problem = make_problem(seed, n=80 + 30 * seed, n_latent=3, copies=2, noise_vars=1)
    n_cand = len(problem[0])
    n_variables = n_cand + 1
    result = exhaustive_search(ScoreEngine(EncodedData.from_tables(*problem)), n_variables)
    subsets = list(itertools.product([0, 1], repeat=n_cand))
    costs = [brute_cost(problem, s, n_variables) for s in subsets]
    null_cost = brute_cost(problem, [0] * n_cand, n_variables)
    b, c = brute_force_weights(subsets, costs, null_cost)
    np.testing.assert_allclose(bma_weights(result), b, atol=1e-10)
    np.testing.assert_allclose(cma_weights(result), c, atol=1e-10)
    assert 0 < c.min() and c.max() < 1  # soft selection


def test_weights_over_visited_models_equal_brute_force():
    problem = make_problem(3, n=150)
    n_cand = len(problem[0])
    result = ms_ffwbw(ScoreEngine(EncodedData.from_tables(*problem)), n_cand, random_state=1)
    visited = {tuple(s) for s in result.models.subsets().astype(int)}
    subsets = sorted(visited)
    costs = [brute_cost(problem, s, n_cand) for s in subsets]
    b, c = brute_force_weights(subsets, costs, brute_cost(problem, [0] * n_cand, n_cand))
    np.testing.assert_allclose(bma_weights(result), b, atol=1e-10)
    np.testing.assert_allclose(cma_weights(result), c, atol=1e-10)


def test_bma_is_log_space_safe():
    # a large data set: posteriors differ by thousands of nats, exp(−cost) underflows
    problem = make_problem(4, n=6000, n_latent=2, copies=2, noise_vars=0)
    result = exhaustive_search(ScoreEngine(EncodedData.from_tables(*problem)), 4)
    assert result.models.cost.min() > 1000  # exp(−cost) = 0 in double precision
    b = bma_weights(result)
    assert np.isfinite(b).all() and (b >= 0).all() and (b <= 1).all()
    subsets = list(itertools.product([0, 1], repeat=4))
    costs = [brute_cost(problem, s, 4) for s in subsets]
    expected, _ = brute_force_weights(subsets, costs, costs[0])
    np.testing.assert_allclose(b, expected, atol=1e-9)


@pytest.fixture(scope="module")
def data():
    return redundant_frame(1, 300, 3, 0.9, 0.4, 3, 1.5)


@pytest.mark.parametrize("cls", [BMASelectiveNaiveBayes, CMASelectiveNaiveBayes])
def test_estimator_exhaustive_equals_brute_force(cls, data):
    X, y = data
    model = cls(search="exhaustive").fit(X, y)
    Z = model.encoder_.transform(X)
    y_idx = np.searchsorted(model.classes_, y)
    informative = [k for k, m in enumerate(model.variables_) if m.informative_]
    subsets, costs = [], []
    for a in itertools.product([0, 1], repeat=len(informative)):
        S = np.repeat(model.class_log_prior_[None, :], y.size, axis=0)
        for k, bit in zip(informative, a):
            if bit:
                S = S + model.variables_[k].log_likelihood(Z[:, k])
        nll = -(S[np.arange(y.size), y_idx] - logsumexp(S, axis=1)).sum()
        K, km = X.shape[1], sum(a)
        prior = math.log(K + 1) + math.lgamma(K + km) - math.lgamma(km + 1) - math.lgamma(K)
        subsets.append(a)
        costs.append(prior + nll)
    b, c = brute_force_weights(subsets, costs, costs[0])
    expected = np.zeros(X.shape[1])
    expected[informative] = b if cls is BMASelectiveNaiveBayes else c
    np.testing.assert_allclose(model.weights_, expected, atol=1e-10)


@pytest.mark.parametrize("cls", [BMASelectiveNaiveBayes, CMASelectiveNaiveBayes])
def test_estimator_weights_deterministic_and_in_unit_interval(cls, data):
    X, y = data
    a = cls(random_state=3).fit(X, y)
    b = cls(random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)
    assert ((a.weights_ >= 0) & (a.weights_ <= 1)).all()
    assert a.weights_[4] == 0  # noise: uninformative
    proba = a.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert a.fit_report_["n_models"] <= a.fit_report_["n_models_evaluated"]


def test_cma_is_softer_than_map(data):
    X, y = data
    cma = CMASelectiveNaiveBayes(search="exhaustive", keep_models=True).fit(X, y)
    assert cma.search_result_.models.cost.size == 2 ** cma.fit_report_["n_candidates"]
    informative = cma.weights_[:4]
    assert (informative > 0).all() and (informative < 1).all()


def test_no_informative_variable_gives_the_null_model():
    n = np.arange(30)
    X = np.column_stack([n // 2, np.ones(30)])
    y = n % 2
    for cls in (BMASelectiveNaiveBayes, CMASelectiveNaiveBayes):
        for search in ("heuristic", "exhaustive"):
            model = cls(search=search).fit(X, y)
            assert model.weights_.tolist() == [0.0, 0.0]
            np.testing.assert_allclose(model.predict_proba(X), 0.5)
