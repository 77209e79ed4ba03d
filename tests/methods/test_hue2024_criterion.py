"""The criterion of hue2024 (eq. 11–16): values by hand, gradients by finite differences,
convexity of the likelihood part, and the shape of ξ_δ."""

import math

import numpy as np
import pytest

from repro.methods.core.engine import EncodedData, ScoreEngine
from repro.methods.hue2024.wnb_opt_criterion import (
    fc_penalty,
    hue2024_criterion,
    negative_log_likelihood,
    relaxed_criterion,
    stage2_criterion,
    xi_delta,
    xi_delta_derivative,
)


# ---------------------------------------------------------------------------------------------
# A tiny case by hand: 2 variables with 2 parts each, 4 rows, 2 classes, equal priors
# ---------------------------------------------------------------------------------------------
def tiny():
    # variable 1: P(part | class) = [[3/4, 1/4], [1/4, 3/4]] → log-odds class1 − class0 = ∓log 3
    # variable 2: P(part | class) = [[4/5, 1/5], [1/5, 4/5]] → log-odds ∓log 4
    t1 = np.log([[0.75, 0.25], [0.25, 0.75]])
    t2 = np.log([[0.8, 0.2], [0.2, 0.8]])
    codes = [np.array([0, 1, 0, 1]), np.array([0, 1, 1, 0])]
    y = np.array([0, 1, 0, 0])
    return EncodedData.from_tables(codes, [t1, t2], y, np.log([0.5, 0.5]))


def test_value_by_hand():
    d = tiny()
    w = np.array([1.0, 0.5])
    # s1 − s0 = w1·(∓log 3) + w2·(∓log 4) = ∓log 3 ∓ log 2; −LL_n = log(1 + exp(−(s_y − s_other)))
    # row 0: parts (0, 0), y=0: s0 − s1 = log 6    → log(1 + 1/6) = log(7/6)
    # row 1: parts (1, 1), y=1: s1 − s0 = log 6    → log(7/6)
    # row 2: parts (0, 1), y=0: s0 − s1 = log 3/2  → log(1 + 2/3) = log(5/3)
    # row 3: parts (1, 0), y=0: s0 − s1 = −log 3/2 → log(1 + 3/2) = log(5/2)
    # F_N = log(49/36 · 5/3 · 5/2) = log(1225/216)
    f_n = math.log(1225 / 216)
    value, _ = negative_log_likelihood(w, d.codes, d.offsets, d.table, d.log_prior, d.y)
    assert value == pytest.approx(f_n, rel=1e-12)

    # f_C with B = (2, 3), p = 1/2, δ = 1/4: ξ_δ(0) = (1 − p)δ^p = 1/4, 1 − ξ_δ(0) = 3/4
    # ξ(1) = (1 − 1/4)/(3/4) = 1;  ξ(0.5) = (√0.5 − 1/4)/(3/4);  W = 1.5 → log(W + 1) = log 2.5
    xi_half = (math.sqrt(0.5) - 0.25) / 0.75
    f_c = (1 - math.log(2.5) + 2) * 1.0 + (1 - math.log(2.5) + 3) * xi_half
    costs = np.array([2.0, 3.0])
    assert fc_penalty(w, costs, 0.5, 0.25)[0] == pytest.approx(f_c, rel=1e-12)
    value, _ = hue2024_criterion(
        w, d.codes, d.offsets, d.table, d.log_prior, d.y, costs, 2.0, 0.5, 0.25
    )
    assert value == pytest.approx(f_n + 2.0 * f_c, rel=1e-12)

    # inside [0, δ]: ξ_δ(1/8) = δ^p + p δ^(p−1)(1/8 − δ) = 1/2 + (1/2)(2)(−1/8) = 3/8,
    # rescaled (3/8 − 1/4)/(3/4) = 1/6
    assert xi_delta(0.125, 0.5, 0.25) == pytest.approx(1 / 6, rel=1e-12)
    w = np.array([1.0, 0.125])  # W = 1.125
    f_c = (3 - math.log(2.125)) * 1.0 + (4 - math.log(2.125)) / 6
    assert fc_penalty(w, costs, 0.5, 0.25)[0] == pytest.approx(f_c, rel=1e-12)


def test_likelihood_matches_the_score_engine():
    d = random_data(np.random.default_rng(0))
    w = np.random.default_rng(1).uniform(size=d.n_candidates)
    engine = ScoreEngine(d)
    engine.reset(w)
    value, _ = negative_log_likelihood(w, d.codes, d.offsets, d.table, d.log_prior, d.y)
    assert value == pytest.approx(engine.nll, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Gradients against central finite differences
# ---------------------------------------------------------------------------------------------
def random_data(rng, n=60, k=5, j=3):
    tables, codes = [], []
    for _ in range(k):
        parts = int(rng.integers(2, 5))
        counts = rng.integers(1, 20, size=(parts, j)).astype(float)
        tables.append(np.log(counts / counts.sum(axis=0)))
        codes.append(rng.integers(0, parts, size=n))
    y = rng.integers(0, j, size=n)
    prior = np.bincount(y, minlength=j) + 1.0
    return EncodedData.from_tables(codes, tables, y, np.log(prior / prior.sum()))


def check_gradient(fun, w, h=1e-6):
    _, grad = fun(w)
    fd = np.empty_like(w)
    for k in range(w.size):
        e = np.zeros_like(w)
        e[k] = h
        fd[k] = (fun(w + e)[0] - fun(w - e)[0]) / (2 * h)
    err = np.abs(grad - fd) / np.maximum(1.0, np.abs(fd))
    assert err.max() < 1e-6, (grad, fd)


P, DELTA = 0.75, 0.05


def random_point(rng, k):
    """Interior points, a third of them inside (0, δ) where ξ_δ is linear, away from δ."""
    w = rng.uniform(0.1, 0.95, size=k)
    inside = rng.uniform(size=k) < 1 / 3
    w[inside] = rng.uniform(0.005, DELTA - 0.005, size=inside.sum())
    return w


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("lam", [0.0, 0.25, 3.0])
def test_criterion_gradient(seed, lam):
    rng = np.random.default_rng(seed)
    d = random_data(rng)
    costs = np.log(d.n_candidates) + rng.uniform(0.5, 4.0, size=d.n_candidates)

    def fun(w):
        return hue2024_criterion(
            w, d.codes, d.offsets, d.table, d.log_prior, d.y, costs, lam, P, DELTA
        )

    for _ in range(3):
        check_gradient(fun, random_point(rng, d.n_candidates))


@pytest.mark.parametrize("seed", range(3))
def test_relaxation_and_stage2_gradients(seed):
    rng = np.random.default_rng(100 + seed)
    d = random_data(rng, k=6, j=2)
    costs = rng.uniform(1.0, 5.0, size=d.n_candidates)
    args = (d.codes, d.offsets, d.table, d.log_prior, d.y, costs, 0.5)
    for _ in range(3):
        w = random_point(rng, d.n_candidates)
        check_gradient(lambda v: relaxed_criterion(v, *args, 2.5), w)
        check_gradient(lambda v: stage2_criterion(v, *args, 1.7, P, DELTA), w)
    # at W_0 = W̃ = Σw the stage-2 value is CR(w); the relaxation is CR with ξ = id
    w = random_point(rng, d.n_candidates)
    total = float(w.sum())
    cr = hue2024_criterion(w, *args, P, DELTA)[0]
    assert stage2_criterion(w, *args, total, P, DELTA)[0] == pytest.approx(cr, rel=1e-12)
    assert relaxed_criterion(w, *args, total)[0] == pytest.approx(
        hue2024_criterion(w, *args, 1.0, DELTA)[0], rel=1e-12
    )


# ---------------------------------------------------------------------------------------------
# Convexity of F_N along random segments (eq. 14)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_likelihood_is_convex_along_segments(seed):
    rng = np.random.default_rng(200 + seed)
    d = random_data(rng, n=80, k=6, j=3)

    def f_n(w):
        return negative_log_likelihood(w, d.codes, d.offsets, d.table, d.log_prior, d.y)[0]

    for _ in range(100):
        a, b = rng.uniform(size=(2, d.n_candidates))
        t = rng.uniform()
        mid = f_n(t * a + (1 - t) * b)
        assert mid <= t * f_n(a) + (1 - t) * f_n(b) + 1e-9


# ---------------------------------------------------------------------------------------------
# ξ_δ
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("p, delta", [(0.95, 0.01), (0.65, 0.1), (0.5, 0.25), (1.0, 0.01)])
def test_xi_delta(p, delta):
    assert xi_delta(0.0, p, delta) == pytest.approx(0.0, abs=1e-15)
    assert xi_delta(1.0, p, delta) == pytest.approx(1.0, rel=1e-14)
    eps = 1e-9
    # continuity of the value and of the derivative at δ (the linear piece is the tangent)
    assert xi_delta(delta - eps, p, delta) == pytest.approx(xi_delta(delta + eps, p, delta))
    assert xi_delta_derivative(delta - eps, p, delta) == pytest.approx(
        xi_delta_derivative(delta + eps, p, delta), rel=1e-6
    )
    # linear on [0, δ] with slope p δ^(p−1)/(1 − (1 − p) δ^p); a power of τ above, rescaled
    tau = np.linspace(0.0, delta, 7)
    slope = p * delta ** (p - 1) / (1 - (1 - p) * delta**p)
    np.testing.assert_allclose(xi_delta(tau, p, delta), slope * tau, atol=1e-14)
    np.testing.assert_allclose(xi_delta_derivative(tau, p, delta), slope)
    tau = np.linspace(delta, 1.0, 9)
    origin = (1 - p) * delta**p
    np.testing.assert_allclose(xi_delta(tau, p, delta), (tau**p - origin) / (1 - origin))
    # increasing and concave on [0, 1] (conditions C1); derivative = finite differences
    grid = np.linspace(0.0, 1.0, 401)
    values = xi_delta(grid, p, delta)
    assert np.all(np.diff(values) > 0)
    assert np.all(np.diff(values, 2) <= 1e-12)
    mid = 0.5 * (grid[1:] + grid[:-1])
    np.testing.assert_allclose(
        np.diff(values) / np.diff(grid), xi_delta_derivative(mid, p, delta), rtol=2e-3
    )


def test_xi_delta_rejects_bad_parameters():
    with pytest.raises(ValueError, match="p must"):
        xi_delta(0.5, 1.5, 0.1)
    with pytest.raises(ValueError, match="delta must"):
        xi_delta(0.5, 0.9, 0.0)
