"""``fnb``: the fractional naive Bayes of hue2024 (Algorithm 2, criterion 17–18), SPEC §4.9."""

import itertools
import math
import tracemalloc

import numpy as np
import pytest
from scipy.special import logsumexp

from repro.datasets import load_dataset
from repro.methods.core.checks import check_predict_input
from repro.methods.core.engine import EncodedData
from repro.methods.core.optimisers import (
    fnb_increments,
    fnb_repetitions,
    fractional_forward_backward,
)
from repro.methods.hue2024.fnb import (
    FractionalNaiveBayes,
    PaperFNBObjective,
    paper_fnb_weights,
)
from repro.methods.hue2024.fnb_criterion import fnb_count_cost, fnb_criterion, fnb_prior
from repro.methods.khiops.fnb_criterion import khiops_fnb_data_cost, khiops_fnb_prior
from repro.registry import make_method


def log2_star(n: int) -> float:
    """Rissanen's log2*(n) = log2 n + log2 log2 n + … (positive terms), written out."""
    total, x = 0.0, float(n)
    while True:
        x = math.log2(x)
        if x <= 0:
            return total
        total += x


def lstar(n: int) -> float:
    """L*(n) = ln c0 + ln 2 · log2*(n), c0 = 2.86511 (Rissanen 1983), in nats."""
    return math.log(2.86511) + math.log(2) * log2_star(n)


# ------------------------------------------------------------------------------ criterion (18)
def test_fnb_prior_by_hand():
    costs = [2.0, 3.0, 1.5]
    # W = 1.75, ⌈W⌉ = 2: L*(2) = ln c0 + ln 2 (log2*(2) = 1), ln 2! = ln 2
    w = [0.5, 0.25, 1.0]
    expected = math.log(2.86511) + 2.0 * 0.5**0.95 + 3.0 * 0.25**0.95 + 1.5
    assert fnb_prior(w, costs, 0.95) == pytest.approx(expected, rel=1e-12)
    # W = 0.25, ⌈W⌉ = 1: L*(1) = ln c0 (log2*(1) = 0), ln 1! = 0
    assert fnb_prior([0.0, 0.25, 0.0], costs, 0.95) == pytest.approx(
        math.log(2.86511) + 3.0 * 0.25**0.95, rel=1e-12
    )
    # ⌈W⌉ = 5: log2*(5) = log2 5 + log2 log2 5 + log2 log2 log2 5 = 3.8186…
    assert log2_star(5) == pytest.approx(3.81859, abs=1e-5)
    assert fnb_count_cost(4.5) == pytest.approx(lstar(5) - math.log(120), rel=1e-12)
    # the empty model: f_F(0) = 0 (documented convention)
    assert fnb_prior([0.0, 0.0, 0.0], costs, 0.95) == 0.0
    with pytest.raises(ValueError, match="differ in shape"):
        fnb_prior([0.5], costs, 0.95)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        fnb_prior([1.5, 0, 0], costs, 0.95)


def test_fnb_prior_at_boolean_weights_is_the_snb_prior_eq9():
    """f_F(w) = f_B(w) = L*(K_s) − log K_s! + Σ_selected B(X_k) for w ∈ {0,1}^K (and 0 for
    the empty selection, the convention of both)."""
    costs = np.array([2.3, 4.1, 3.7, 5.2, 2.9])
    for w in itertools.product([0, 1], repeat=costs.size):
        ks = sum(w)
        f_b = 0.0 if ks == 0 else lstar(ks) - math.log(math.factorial(ks))
        f_b += sum(b for b, s in zip(costs, w) if s)
        for p in (0.95, 0.5, 1.0):
            assert fnb_prior(np.array(w, float), costs, p) == pytest.approx(f_b, rel=1e-12)


def test_fnb_criterion_is_nll_plus_lambda_prior():
    S = np.log(np.array([[0.7, 0.3], [0.2, 0.8], [0.5, 0.5]]))
    y = np.array([0, 1, 1])
    nll = -math.log(0.7) - math.log(0.8) - math.log(0.5)
    w, b = [0.5, 1.0], [2.0, 3.0]
    expected = nll + 0.25 * (lstar(2) - math.log(2) + 2.0 * 0.5**0.95 + 3.0)
    assert fnb_criterion(S + 4.0, y, w, b, 0.25, 0.95) == pytest.approx(expected, rel=1e-12)


# ------------------------------------------------------------------------------ schedule
def test_increments_and_repetitions():
    assert fnb_increments(8) == [0.5, 0.25]  # 1/8 is not > 1/8
    assert fnb_increments(9) == [0.5, 0.25, 0.125]
    assert fnb_increments(3) == [0.5] and fnb_increments(2) == []
    inc = fnb_increments(1000)
    assert inc == [0.5**i for i in range(1, 10)]  # 1/512 > 1/1000 ≥ 1/1024
    # R = ⌈1 + log K / log N⌉, exact at the boundaries K = N^m
    assert fnb_repetitions(100, 1) == 1
    assert fnb_repetitions(100, 2) == 2 and fnb_repetitions(100, 100) == 2
    assert fnb_repetitions(100, 101) == 3 and fnb_repetitions(100, 10_000) == 3
    assert fnb_repetitions(100, 10_001) == 4
    for n, k in [(50, 7), (1000, 30), (4000, 100_000), (300, 2000)]:
        assert fnb_repetitions(n, k) == math.ceil(1 + math.log(k) / math.log(n))


def random_problem(n, k, n_classes=2, seed=0, strength=2.0):
    """EncodedData of k variables with 2–3 parts whose tables fit y (informative) and costs."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    codes, tables = [], []
    for _ in range(k):
        m = int(rng.integers(2, 4))
        c = np.where(rng.random(n) < 0.6, y % m, rng.integers(0, m, n))
        counts = np.bincount(c * n_classes + y, minlength=m * n_classes).reshape(m, n_classes)
        eps = strength / (n + 1)
        tables.append(np.log(counts + eps) - np.log(counts.sum(0) + m * eps))
        codes.append(c)
    prior = np.log(np.bincount(y, minlength=n_classes) / n)
    costs = math.log(k) + rng.uniform(0.5, 2.0, k)
    return EncodedData.from_tables(codes, tables, y, prior), costs


def criterion_from_scratch(data, costs, weights, lam, p):
    """(17) by summing the weighted columns: S = log P(y) + Σ_k w_k log p(x_k | y)."""
    S = np.repeat(data.log_prior[None, :], data.n_instances, axis=0)
    for i, w in enumerate(weights):
        S = S + w * data.column(i)
    return fnb_criterion(S, data.y, weights, costs, lam, p)


def reference_fnb(data, costs, lam, p, rng):
    """Algorithm 2 written out naively: (17) recomputed from scratch at every trial."""
    n, k = data.n_instances, data.n_candidates
    w = np.zeros(k)
    value = criterion_from_scratch(data, costs, w, lam, p)
    for delta in fnb_increments(n):
        for _ in range(fnb_repetitions(n, k)):
            for sign in (1, -1):
                for i in rng.permutation(k):
                    if (sign > 0 and w[i] >= 1) or (sign < 0 and w[i] <= 0):
                        continue
                    trial = w.copy()
                    trial[i] = min(1.0, w[i] + delta) if sign > 0 else max(0.0, w[i] - delta)
                    v = criterion_from_scratch(data, costs, trial, lam, p)
                    if v < value:
                        w, value = trial, v
    return w, value


@pytest.mark.parametrize("seed", range(4))
def test_algorithm2_against_a_from_scratch_reference_and_local_optimality(seed):
    """Same weights as Algorithm 2 written naively on (17) (same shuffles); the value is (17)
    recomputed from scratch; the last forward and backward passes kept no move, and no single
    ± move of the last increment lowers (17) (brute force over the 2K neighbours)."""
    n, k, lam, p = 40, 3, 0.25, 0.95
    data, costs = random_problem(n, k, seed=seed)
    result = paper_fnb_weights(data, costs, lam, p, np.random.default_rng(seed))
    w = np.array([result.weights[c] for c in data.candidates])
    ref_w, ref_value = reference_fnb(data, costs, lam, p, np.random.default_rng(seed))
    np.testing.assert_array_equal(w, ref_w)
    assert result.value == pytest.approx(criterion_from_scratch(data, costs, w, lam, p), rel=1e-12)
    assert result.value == pytest.approx(ref_value, rel=1e-12)
    last = fnb_increments(n)[-1]
    assert np.all(w / last == np.round(w / last))  # on the grid of the last increment
    assert w.any()  # the problem is informative: something was selected
    # the trace: a row per pass, 2R per increment, in schedule order; values never rise
    rows = result.trace
    reps = fnb_repetitions(n, k)
    assert [r["increment"] for r in rows] == [d for d in fnb_increments(n) for _ in range(2 * reps)]
    assert [r["direction"] for r in rows[:2]] == ["forward", "backward"]
    values = [r["value"] for r in rows]
    assert all(b <= a for a, b in zip(values, values[1:]))
    # Algorithm 2 ends at a local optimum of the last grid when its last round keeps no move
    # (R = 2 rounds of the last increment suffice on these problems)
    assert rows[-1]["n_accepted"] == 0 and rows[-2]["n_accepted"] == 0
    for i in range(k):
        for move in (last, -last):
            nb = w.copy()
            nb[i] = min(1.0, max(0.0, w[i] + move))
            if nb[i] != w[i]:
                v = criterion_from_scratch(data, costs, nb, lam, p)
                assert v >= result.value - 1e-9 * abs(result.value), (i, move)


def test_seeds():
    """Same seed, same weights; two identical variables (same table, same cost): criterion (17)
    is symmetric in them, and the seeded shuffle decides which one gets the weight."""
    data, costs = random_problem(60, 2, seed=5)
    twin = EncodedData.from_tables(
        [data.codes[0], data.codes[0], data.codes[1]],
        [data.table[: data.offsets[1]]] * 2 + [data.table[data.offsets[1] :]],
        data.y,
        data.log_prior,
    )
    costs3 = np.array([costs[0], costs[0], costs[1]])
    runs = [paper_fnb_weights(twin, costs3, 0.25, 0.95, np.random.default_rng(s)) for s in range(8)]
    again = paper_fnb_weights(twin, costs3, 0.25, 0.95, np.random.default_rng(3))
    assert again.weights == runs[3].weights and again.value == runs[3].value
    pairs = {(r.weights[0], r.weights[1]) for r in runs}
    assert len(pairs) > 1  # different seeds, different weights
    assert any(a != b and (b, a) in pairs for a, b in pairs)  # the twins swapped by the seed
    for r in runs:  # (17) is symmetric in the twins
        w = np.array([r.weights[i] for i in range(3)])
        swapped = w[[1, 0, 2]]
        assert criterion_from_scratch(twin, costs3, swapped, 0.25, 0.95) == pytest.approx(
            r.value, rel=1e-12
        )


# ------------------------------------------------------------------------------ estimator
def test_fnb_and_fnb_khiops_on_the_same_data():
    """The documented differences on german, N = 512 = 2^9 (a power of 2, where the last
    increments differ): the paper's schedule 1/2 … 1/256 (2^i < N) with 2R passes each and
    weights on the 1/256 grid, vs Khiops' 1 … 1/512 (T = ⌈log2(N+1)⌉ = 10) with ≤ 2 rounds
    each; (17) vs Khiops' Score (λ ln 2, Laplace 0.5/J); plain softmax vs Khiops' shrink."""
    ds = load_dataset("german")
    X, y = ds.X.iloc[:512], np.asarray(ds.y)[:512]
    n = 512
    fnb = make_method("fnb").fit(X, y)
    kh = make_method("fnb_khiops").fit(X, y)
    assert fnb.lambda_ == 0.25 and kh.prior_weight == 0.1
    # schedule and grid
    inc = fnb.fit_report_["increments"]
    assert inc == [0.5**i for i in range(1, 9)]
    n_cand = fnb.fit_report_["n_candidates"]
    reps = math.ceil(1 + math.log(n_cand) / math.log(n))
    assert fnb.fit_report_["repetitions"] == reps == 2
    assert fnb.fit_report_["n_passes"] == len(fnb.fit_report_["trace"]) == 2 * reps * len(inc)
    assert np.all(fnb.weights_ * 256 == np.round(fnb.weights_ * 256))
    deltas = [row["delta"] for row in kh.fit_report_["trace"]]
    assert deltas[0] == 1.0 and deltas[-1] == 1 / 512
    assert all(deltas.count(d) <= 2 for d in set(deltas))
    assert np.all(kh.weights_ * 512 == np.round(kh.weights_ * 512))
    # both: informative variables only
    assert np.all(fnb.levels_[fnb.selected_] > 0) and np.all(kh.levels_[kh.selected_] > 0)
    # the criteria
    order = [k for k in range(X.shape[1]) if fnb.levels_[k] > 0]
    Z = check_predict_input(fnb, X)
    data = EncodedData.from_estimator(fnb, Z, fnb.classes_.searchsorted(y), columns=order)
    costs = fnb.variable_costs_[order]
    w_fnb, w_kh = fnb.weights_[order], kh.weights_[order]
    assert fnb.criterion_ == pytest.approx(
        criterion_from_scratch(data, costs, w_fnb, 0.25, 0.95), rel=1e-10
    )
    S = np.repeat(data.log_prior[None, :], n, axis=0)
    for i, wk in enumerate(w_kh):
        S = S + wk * data.column(i)
    khiops_score = khiops_fnb_prior(w_kh, costs, n, 2, 0.1, 0.95) + khiops_fnb_data_cost(S, data.y)
    assert kh.criterion_ == pytest.approx(khiops_score, rel=1e-10)
    lse = logsumexp(S, axis=1)
    nll = float(np.sum(lse - S[np.arange(n), data.y]))
    smoothed = float(np.sum(-np.log((n * np.exp(S[np.arange(n), data.y] - lse) + 0.25) / 512.5)))
    paper_form = criterion_from_scratch(data, costs, w_kh, 0.1, 0.95)
    assert khiops_score - paper_form == pytest.approx(0.1 * math.log(2) + smoothed - nll, abs=1e-8)
    # outputs: fnb's is the plain softmax; Khiops' floor is 0.5/(J(N+1))/(1 + 0.5/(N+1))
    floor = 0.25 / 513 / (1 + 0.5 / 513)
    jll = fnb._joint_log_likelihood(Z)
    np.testing.assert_allclose(
        fnb.predict_proba(X), np.exp(jll - logsumexp(jll, axis=1, keepdims=True)), rtol=1e-12
    )
    assert kh.predict_proba(X).min() >= floor - 1e-15
    shrunk = make_method("fnb", output_shrink="khiops").fit(X, y)
    assert shrunk.predict_proba(X).min() >= floor - 1e-15
    np.testing.assert_array_equal(shrunk.weights_, fnb.weights_)


def test_null_model_and_single_informative_variable():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = np.column_stack([y + 0.1 * rng.normal(size=200), rng.normal(size=200)])
    m = FractionalNaiveBayes().fit(X, y)
    assert m.weights_[1] == 0 and 0 < m.weights_[0] <= 1  # optimised, not set to 1
    assert m.fit_report_["n_candidates"] == 1 and m.fit_report_["repetitions"] == 1
    y0 = rng.integers(0, 2, 50)
    m0 = FractionalNaiveBayes().fit(rng.normal(size=(50, 2)), y0)
    assert m0.weights_.tolist() == [0.0, 0.0] and m0.fit_report_["trace"] == []
    counts = np.bincount(y0)
    assert m0.criterion_ == pytest.approx(-np.sum(counts * np.log(counts / 50)), rel=1e-12)
    P = m0.predict_proba(rng.normal(size=(5, 2)))
    np.testing.assert_allclose(P, np.tile(counts / 50, (5, 1)), rtol=1e-12)


@pytest.mark.parametrize(
    "param,value",
    [
        ("lambda_", -0.1),
        ("lambda_", float("nan")),
        ("lambda_", "big"),
        ("p", 0.0),
        ("p", 1.5),
        ("random_state", -1),
        ("random_state", 1.5),
        ("output_shrink", "laplace"),
    ],
)
def test_bad_parameters(param, value):
    X, y = np.arange(20.0).reshape(10, 2), np.repeat([0, 1], 5)
    with pytest.raises(ValueError, match=param):
        FractionalNaiveBayes(**{param: value}).fit(X, y)


def test_registry_and_defaults():
    m = make_method("fnb")
    assert isinstance(m, FractionalNaiveBayes)
    assert m.get_params() == {
        "lambda_": 0.25,
        "p": 0.95,
        "random_state": 0,
        "output_shrink": "none",
        "categorical_features": "auto",
        "max_selected": None,  # not in the method's config: the stored cells' hashes unchanged
    }


# ------------------------------------------------------------------------------ memory
def test_optimisation_memory_has_no_n_by_k_by_j_array():
    """K = 20,000 candidates, N = 256, J = 3: the peak of the Python/NumPy allocations of the
    optimisation (engine built inside it) stays below what the engine needs, derived term by term:

    - ScoreEngine: 4 arrays the size of the packed table (rows shifted for adding/dropping and
      their exponentials) and the two N × J matrices S, Q;
    - per variable, 6 float64/int64 vectors (ty_add, ty_drop, the engine's and the objective's
      weights, the costs, the permutation): 48 bytes, and 4 Python containers with an entry per
      variable (the objective's index and the result's weights, dicts; the optimiser's order and
      the caller's list, lists): ≤ 64 bytes of container + ≤ 64 of boxed keys/values each, 512.

    An N × K × J float64 array alone (123 MB) is > 5× this bound. One increment, one round (the
    optimiser's schedule inputs set so), to keep the test fast: the later passes allocate the same
    (a trace row each). The numba kernels are loaded before the trace starts.
    """
    n, k, j = 256, 20_000, 3
    rng = np.random.default_rng(1)
    y = np.arange(n) % j
    codes = np.where(rng.random((k, n)) < 0.6, y, rng.integers(0, 3, (k, n)))  # 3 parts each
    counts = np.bincount(
        (np.arange(k)[:, None] * 9 + codes * 3 + y).ravel(), minlength=9 * k
    ).reshape(k, 3, 3)
    tables = np.log(counts + 1 / (n + 1)) - np.log(counts.sum(1, keepdims=True) + 3 / (n + 1))
    data = EncodedData.from_tables(list(codes), list(tables), y, np.log(np.full(j, 1 / j)))
    costs = math.log(k) + rng.uniform(0.5, 2.0, k)
    bound = 4 * data.table.nbytes + 2 * n * j * 8 + k * (48 + 512)
    assert n * k * j * 8 > 5 * bound
    small, small_costs = random_problem(20, 3)  # loads the numba kernels outside the trace
    paper_fnb_weights(small, small_costs, 0.25, 0.95, np.random.default_rng(0))
    tracemalloc.start()
    try:
        objective = PaperFNBObjective(data, costs, 0.25, 0.95)
        result = fractional_forward_backward(
            objective, list(range(k)), 3, 1, np.random.default_rng(0)
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [r["direction"] for r in result.trace] == ["forward", "backward"]
    assert result.trace[0]["n_trials"] == k
    assert peak < bound, (peak, bound)
