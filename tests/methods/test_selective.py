"""SNB(ACC), SNB(AUC), SNB(MAP) of boulle2007: criterion, score engine, searches, estimators.

The references are independent and simple: the score matrix is recomputed from scratch with
scipy's logsumexp, every subset is enumerated with itertools, the greedy searches are re-run
with scikit-learn's metrics.
"""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from repro.evaluation.metrics import auc as reference_auc
from repro.methods.boulle2007.criteria import map_cost, selection_prior_cost
from repro.methods.boulle2007.search import (
    COST_TOLERANCE,
    default_n_starts,
    exhaustive_criterion,
    exhaustive_search,
    forward_greedy,
    ms_ffwbw,
)
from repro.methods.boulle2007.selective import (
    ACCSelectiveNaiveBayes,
    AUCSelectiveNaiveBayes,
    MAPSelectiveNaiveBayes,
)
from repro.methods.core.criteria import training_auc
from repro.methods.core.engine import EncodedData, ScoreEngine


# ---------------------------------------------------------------------------------------------
# Synthetic problems: per-variable codes and log tables (last row = zeros, "no information")
# ---------------------------------------------------------------------------------------------
def make_problem(seed, n=200, n_classes=3, n_latent=3, copies=2, noise_vars=1):
    """Latent informative variables observed through noisy copies (redundant for NB)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    codes = []
    for _ in range(n_latent):
        n_parts = int(rng.integers(2, 5))
        latent = np.where(rng.random(n) < 0.6, y % n_parts, rng.integers(0, n_parts, n))
        for _ in range(copies):
            flip = rng.random(n) < 0.15
            codes.append(np.where(flip, rng.integers(0, n_parts, n), latent))
    for _ in range(noise_vars):
        codes.append(rng.integers(0, 3, n))
    tables = []
    for c in codes:
        n_parts = int(c.max()) + 1
        counts = np.zeros((n_parts, n_classes))
        np.add.at(counts, (c, y), 1)
        log_t = np.log(counts + 0.5) - np.log(counts.sum(0) + 0.5 * n_parts)
        tables.append(np.vstack([log_t, np.zeros((1, n_classes))]))
    # a few "no information" codes (missing values)
    codes[0] = codes[0].copy()
    codes[0][:3] = tables[0].shape[0] - 1
    prior = np.log(np.bincount(y, minlength=n_classes) / n)
    return codes, tables, y, prior


def brute_nll(codes, tables, y, prior, weights):
    S = np.repeat(prior[None, :], y.size, axis=0)
    for k, w in enumerate(weights):
        if w:
            S = S + w * tables[k][codes[k]]
    return float(-(S[np.arange(y.size), y] - logsumexp(S, axis=1)).sum()), S


def brute_cost(problem, subset, n_variables):
    codes, tables, y, prior = problem
    nll, _ = brute_nll(codes, tables, y, prior, subset)
    km = int(np.sum(subset))
    return (
        math.log(n_variables + 1)
        + math.lgamma(n_variables + km)
        - math.lgamma(km + 1)
        - math.lgamma(n_variables)
        + nll
    )


def engine_for(problem):
    return ScoreEngine(EncodedData.from_tables(*problem))


# ---------------------------------------------------------------------------------------------
# Criterion (4)
# ---------------------------------------------------------------------------------------------
def test_prior_cost_by_hand():
    # K = 3: log(4) + log C(3+2-1, 2) = log 4 + log 6
    assert selection_prior_cost(3, 2) == pytest.approx(math.log(24), abs=1e-12)
    assert selection_prior_cost(3, 0) == pytest.approx(math.log(4), abs=1e-12)
    # first variables cost about log K, last ones about log 2 (boulle2007 §3.3)
    costs = selection_prior_cost(1000, np.arange(1001))
    assert np.diff(costs)[0] == pytest.approx(math.log(1000), abs=1e-9)
    assert np.diff(costs)[-1] == pytest.approx(math.log(1999 / 1000), abs=1e-9)
    with pytest.raises(ValueError, match="n_selected"):
        selection_prior_cost(3, 4)


def test_criterion_4_by_hand():
    # y = 0,0,1,1; one variable with P(part|class) = [[.75,.25],[.25,.75]], codes 0,0,1,1:
    # P_M(y_n|x_n) = .75 for all n.  K = 3 variables in the data, K_m = 1.
    y = np.array([0, 0, 1, 1])
    table = np.log(np.array([[0.75, 0.25], [0.25, 0.75], [1.0, 1.0]]))
    data = EncodedData.from_tables([np.array([0, 0, 1, 1])], [table], y, np.log([0.5, 0.5]))
    engine = ScoreEngine(data)
    expected_null = math.log(4) + 4 * math.log(2)
    expected = math.log(4) + math.log(3) - 4 * math.log(0.75)
    assert engine.nll + selection_prior_cost(3, 0) == pytest.approx(expected_null, abs=1e-12)
    assert map_cost(engine.delta_nll(0, 1.0), 3, 1) == pytest.approx(expected, abs=1e-12)
    engine.apply(0, 1.0)
    assert map_cost(engine.nll, 3, 1) == pytest.approx(expected, abs=1e-12)
    result = exhaustive_search(ScoreEngine(data), n_variables=3)
    np.testing.assert_allclose(result.models.cost, [expected_null, expected], atol=1e-12)
    assert result.selected.tolist() == [0]


# ---------------------------------------------------------------------------------------------
# Score engine
# ---------------------------------------------------------------------------------------------
def test_incremental_updates_equal_full_recomputation():
    problem = make_problem(0)
    codes, tables, y, prior = problem
    engine = engine_for(problem)
    weights = np.zeros(len(codes))
    rng = np.random.default_rng(1)
    for _ in range(40):
        k = int(rng.integers(len(codes)))
        delta = float(rng.choice([1.0, -1.0, 0.3, -0.45]))
        predicted = engine.delta_nll(k, delta)
        engine.apply(k, delta)
        weights[k] += delta
        expected, S = brute_nll(codes, tables, y, prior, weights)
        assert predicted == pytest.approx(expected, rel=1e-11)
        assert engine.nll == pytest.approx(expected, rel=1e-11)
        np.testing.assert_allclose(engine.S, S, atol=1e-10)
        np.testing.assert_allclose(engine.q.sum(axis=1), 1.0, atol=1e-12)
    engine.reset(weights)
    assert engine.nll == pytest.approx(brute_nll(codes, tables, y, prior, weights)[0], rel=1e-12)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_training_auc_equals_sklearn(n_classes):
    rng = np.random.default_rng(n_classes)
    y = rng.integers(0, n_classes, 300)
    distinct = rng.normal(size=(40, n_classes))
    S = distinct[rng.integers(0, 40, 300)] + 0.5 * np.eye(n_classes)[y]
    S[::3] = distinct[rng.integers(0, 40, 100)]  # ties between rows
    P = np.exp(S - logsumexp(S, axis=1, keepdims=True))
    assert training_auc(y, S) == pytest.approx(reference_auc(y, P), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Searches
# ---------------------------------------------------------------------------------------------
def test_exhaustive_costs_equal_brute_force():
    problem = make_problem(2, n_latent=2, copies=3)
    n_cand = len(problem[0])
    n_variables = n_cand + 2  # two uninformative variables in the data set
    result = exhaustive_search(engine_for(problem), n_variables)
    for mask in range(1 << n_cand):
        subset = [(mask >> k) & 1 for k in range(n_cand)]
        assert result.models.cost[mask] == pytest.approx(
            brute_cost(problem, subset, n_variables), rel=1e-11
        )
    assert result.cost == pytest.approx(result.models.cost.min())
    assert result.null_cost == pytest.approx(result.models.cost[0])


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_ms_ffwbw_finds_the_exhaustive_map(seed):
    problem = make_problem(seed, n=150 + 40 * seed, copies=3)
    n_cand = len(problem[0])
    exact = exhaustive_search(engine_for(problem), n_cand)
    found = ms_ffwbw(engine_for(problem), n_cand, random_state=0)
    assert 0 < exact.selected.size < n_cand  # a real selection problem
    assert found.cost == pytest.approx(exact.cost, abs=1e-8)
    assert found.selected.tolist() == exact.selected.tolist()
    assert found.info["n_starts"] == default_n_starts(n_cand, problem[2].size)


def test_ms_ffwbw_ends_in_a_local_optimum_between_the_map_and_the_null_model():
    """What Algorithm 1 guarantees, checked against the exhaustive oracle (the cost of every
    subset): it stops when a forward pass (every variable tried for addition) and a backward
    pass (every selected variable tried for removal) bring no improvement, so the kept subset
    is a local optimum for adding or removing any one variable; it keeps the best start, and
    the empty model is its starting best, so MAP cost ≤ its cost ≤ null cost. Redundant copies
    make non-global local optima possible: the heuristic is not asked to always find the MAP."""
    for seed in range(5):
        problem = make_problem(seed, n=150 + 40 * seed, copies=3)
        n_cand = len(problem[0])
        exact = exhaustive_search(engine_for(problem), n_cand)
        cost = exact.models.cost  # indexed by the subset's bit mask
        for random_state in range(5):
            found = ms_ffwbw(engine_for(problem), n_cand, random_state=random_state)
            mask = int(sum(1 << int(k) for k in found.selected))
            assert found.cost == pytest.approx(cost[mask], rel=1e-11)
            assert exact.cost - 1e-8 <= found.cost <= exact.null_cost + 1e-8
            neighbours = cost[[mask ^ (1 << k) for k in range(n_cand)]]
            assert neighbours.min() >= found.cost - COST_TOLERANCE - 1e-8, (seed, random_state)


def test_ms_ffwbw_record_is_exact():
    problem = make_problem(5, n=120)
    n_cand = len(problem[0])
    result = ms_ffwbw(engine_for(problem), n_cand, random_state=3)
    models = result.models
    subsets = models.subsets()
    assert len(models) == result.info["n_evaluations"] + result.info["n_starts"]
    for subset, cost in zip(subsets, models.cost):
        assert cost == pytest.approx(brute_cost(problem, subset, n_cand), rel=1e-11)
    masks = subsets @ (1 << np.arange(n_cand))
    keep = models.first_occurrences()
    assert keep.sum() == np.unique(masks).size
    assert np.unique(masks[keep]).size == keep.sum()
    w = np.random.default_rng(0).random(len(models))
    np.testing.assert_allclose(models.credit(w), (subsets * w[:, None]).sum(axis=0), rtol=1e-10)


def test_ms_ffwbw_is_deterministic():
    problem = make_problem(6)
    a = ms_ffwbw(engine_for(problem), 10, random_state=7)
    b = ms_ffwbw(engine_for(problem), 10, random_state=7)
    assert a.selected.tolist() == b.selected.tolist()
    np.testing.assert_array_equal(a.models.cost, b.models.cost)


def brute_greedy(problem, criterion, stopping):
    """Forward greedy re-computing every candidate model from scratch (scikit-learn metrics)."""
    codes, tables, y, prior = problem

    def value(subset):
        w = np.zeros(len(codes))
        w[list(subset)] = 1.0
        _, S = brute_nll(codes, tables, y, prior, w)
        if criterion == "accuracy":
            return float(np.mean(np.argmax(S, axis=1) == y))
        return reference_auc(y, np.exp(S - logsumexp(S, axis=1, keepdims=True)))

    selected, current = [], value([])
    while len(selected) < len(codes):
        options = [(value(selected + [k]), k) for k in range(len(codes)) if k not in selected]
        best = max(v for v, _ in options)
        k = min(k for v, k in options if v == best)
        if stopping == "no_rise" and not best > current + 1e-12:
            break
        if stopping == "no_decrease" and best < current - 1e-12:
            break
        selected.append(k)
        current = best
    return selected


@pytest.mark.parametrize("criterion", ["accuracy", "auc"])
@pytest.mark.parametrize("stopping", ["no_rise", "no_decrease"])
@pytest.mark.parametrize("seed", [0, 1])
def test_forward_greedy_equals_brute_force(criterion, stopping, seed):
    problem = make_problem(seed + 10, n=120, n_classes=2 + seed)
    result = forward_greedy(engine_for(problem), criterion, stopping)
    assert result["selected"] == brute_greedy(problem, criterion, stopping)


@pytest.mark.parametrize("criterion", ["accuracy", "auc"])
def test_exhaustive_criterion_equals_brute_force(criterion):
    problem = make_problem(7, n=90, n_latent=2, copies=2, noise_vars=1)
    codes, tables, y, prior = problem
    result = exhaustive_criterion(engine_for(problem), criterion)
    best = None
    for r in range(len(codes) + 1):  # fewest variables first, then lexicographic = smallest mask
        for subset in sorted(
            itertools.combinations(range(len(codes)), r), key=lambda s: sum(1 << k for k in s)
        ):
            w = np.zeros(len(codes))
            w[list(subset)] = 1
            _, S = brute_nll(codes, tables, y, prior, w)
            if criterion == "accuracy":
                value = float(np.mean(np.argmax(S, axis=1) == y))
            else:
                value = reference_auc(y, np.exp(S - logsumexp(S, axis=1, keepdims=True)))
            mask = sum(1 << k for k in subset)
            assert result["values"][mask] == pytest.approx(value, abs=1e-12)
            if best is None or value > best[0] + 1e-15:
                best = (value, list(subset))
    assert result["selected"] == best[1]
    assert result["value"] == pytest.approx(best[0], abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------------------------
def redundant_frame(seed, n, n_classes, latent_sd, copy_sd, n_copies, weak_sd, weak_scale=1.0,
                    with_category=False):  # fmt: skip
    """y; ``n_copies`` noisy copies of the latent z = y + N(0, latent_sd) (redundant for NB), then
    a weak variable y·weak_scale + N(0, weak_sd), pure noise and optionally a nominal copy of y."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    z = y + rng.normal(0, latent_sd, n)
    names = "abcdefgh"
    columns = {names[i]: z + rng.normal(0, copy_sd, n) for i in range(n_copies)}
    columns[names[n_copies]] = y * weak_scale + rng.normal(0, weak_sd, n)
    columns["noise"] = rng.normal(size=n)
    if with_category:
        columns["cat"] = pd.Categorical(np.where(rng.random(n) < 0.7, y, 1 - y).astype(str))
    return pd.DataFrame(columns), y


@pytest.fixture(scope="module")
def pima_like():
    return redundant_frame(0, 400, 2, 0.8, 0.3, 2, 1.0, weak_scale=0.8, with_category=True)


def test_map_estimator_heuristic_equals_exhaustive(pima_like):
    X, y = pima_like
    heuristic = MAPSelectiveNaiveBayes().fit(X, y)
    exhaustive = MAPSelectiveNaiveBayes(search="exhaustive").fit(X, y)
    assert heuristic.weights_.tolist() == exhaustive.weights_.tolist()
    assert heuristic.fit_report_["criterion"] == pytest.approx(
        exhaustive.fit_report_["criterion"], abs=1e-8
    )
    # the uninformative variable is never selected; K of the prior counts all 5 variables
    assert heuristic.weights_[3] == 0
    assert set(np.flatnonzero(heuristic.weights_)) <= {
        k for k, m in enumerate(heuristic.variables_) if m.informative_
    }


def test_map_estimator_cost_by_brute_force(pima_like):
    X, y = pima_like
    model = MAPSelectiveNaiveBayes(search="exhaustive").fit(X, y)
    Z = model.encoder_.transform(X)
    y_idx = np.searchsorted(model.classes_, y)
    informative = [k for k, m in enumerate(model.variables_) if m.informative_]
    columns = {k: model.variables_[k].log_likelihood(Z[:, k]) for k in informative}
    best = None
    for r in range(len(informative) + 1):
        for subset in itertools.combinations(informative, r):
            S = model.class_log_prior_ + sum((columns[k] for k in subset), np.zeros((y.size, 2)))
            nll = -(S[np.arange(y.size), y_idx] - logsumexp(S, axis=1)).sum()
            cost = map_cost(nll, X.shape[1], r)
            if best is None or cost < best[0]:
                best = (cost, subset)
    assert model.fit_report_["criterion"] == pytest.approx(best[0], rel=1e-11)
    assert np.flatnonzero(model.weights_).tolist() == list(best[1])


def test_selective_estimators_run_and_are_deterministic(pima_like):
    X, y = pima_like
    for cls in (ACCSelectiveNaiveBayes, AUCSelectiveNaiveBayes, MAPSelectiveNaiveBayes):
        a, b = cls().fit(X, y), cls().fit(X, y)
        assert set(np.unique(a.weights_)) <= {0.0, 1.0}
        np.testing.assert_array_equal(a.weights_, b.weights_)
        np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
        assert a.weights_[3] == 0  # noise
        assert a.score(X, y) > 0.7


@pytest.mark.parametrize("cls", [ACCSelectiveNaiveBayes, AUCSelectiveNaiveBayes])
def test_exhaustive_greedy_estimators(cls, pima_like):
    X, y = pima_like
    greedy = cls().fit(X, y)
    exhaustive = cls(search="exhaustive").fit(X, y)
    assert exhaustive.fit_report_["criterion"] >= greedy.fit_report_["criterion"] - 1e-12
    assert exhaustive.weights_[3] == 0


def test_no_informative_variable_gives_the_null_model():
    n = np.arange(30)
    X = np.column_stack([n // 2, np.ones(30), (n // 2) % 3])  # every value: one of each class
    y = n % 2
    for cls in (ACCSelectiveNaiveBayes, AUCSelectiveNaiveBayes, MAPSelectiveNaiveBayes):
        model = cls().fit(X, y)
        assert model.weights_.tolist() == [0.0, 0.0, 0.0]
        np.testing.assert_allclose(model.predict_proba(X), 0.5)


def test_bad_parameters():
    X, y = np.random.default_rng(0).normal(size=(20, 2)), np.array([0, 1] * 10)
    with pytest.raises(ValueError, match="search must be one of"):
        MAPSelectiveNaiveBayes(search="greedy").fit(X, y)
    with pytest.raises(ValueError, match="max_iter"):
        MAPSelectiveNaiveBayes(max_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="stopping"):
        ACCSelectiveNaiveBayes(stopping="never").fit(X, y)


def test_exhaustive_refuses_too_many_variables():
    problem = make_problem(0, n=40, n_latent=5, copies=5)
    with pytest.raises(ValueError, match="at most 24"):
        exhaustive_search(engine_for(problem), 25)
