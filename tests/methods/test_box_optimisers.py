"""The box optimisers of hue2024 §3.2 and the exact prox of the CF step, on problems with a known
optimum: a separable quadratic on the box (solution clip(c, 0, U)), the same plus the concave
penalty Σ c_k ξ_δ(w_k) (solution: a grid search per coordinate), and invariants (monotone
traces, frozen zeros, the UG accuracy slack)."""

import numpy as np
import pytest

from repro.methods.hue2024.box_optimisers import (
    alternating_minimisation,
    composite_gradient,
    conditional_gradient,
    projected_gradient,
    universal_gradient,
    upper_estimator_gradient,
)
from repro.methods.hue2024.wnb_opt_criterion import separable_penalty, xi_delta, xi_delta_prox

GRID = np.linspace(0.0, 1.0, 100_001)


def quadratic(h, c):
    """f(w) = ½ Σ h_k (w_k − c_k)², gradient h (w − c): its box minimiser is clip(c, 0, 1)."""

    def fun(w):
        d = w - c
        return 0.5 * float(h @ (d * d)), h * d

    def value(w):
        d = w - c
        return 0.5 * float(h @ (d * d))

    return fun, value


@pytest.fixture
def problem():
    rng = np.random.default_rng(7)
    k = 40
    h = rng.uniform(0.5, 20.0, k)  # condition number 40
    c = rng.uniform(-0.5, 1.5, k)  # a third outside the box on either side
    return h, c


def test_quadratic_minimiser_known(problem):
    h, c = problem
    fun, value = quadratic(h, c)
    solution = np.clip(c, 0.0, 1.0)
    w0 = np.full(h.size, 0.5)
    for result in (
        projected_gradient(fun, value, w0, epsilon=1e-8, max_iter=20_000),
        composite_gradient(
            fun, value, lambda w: (0.0, 0 * w), lambda v, L, u: np.clip(v, 0, u), w0, 1e-8, 20_000
        ),
    ):
        assert result.converged
        np.testing.assert_allclose(result.weights, solution, atol=1e-6)


def test_universal_gradient_within_its_rate(problem):
    # Nesterov (2015), FGM with ν = 1: M_k ≤ 2L gives A_k ≥ (k+1)²/(8L), and
    # f(y_k) − f* ≤ ‖x₀ − x*‖²/(2A_k) + ε/2 ≤ 4 L R²/(k+1)² + ε/2
    h, c = problem
    fun, value = quadratic(h, c)
    solution = np.clip(c, 0.0, 1.0)
    w0 = np.full(h.size, 0.5)
    r2 = float(((w0 - solution) ** 2).sum())
    accuracy = 1e-6
    for k in (5, 20, 100, 400):
        result = universal_gradient(fun, value, w0, accuracy, epsilon=0.0, max_iter=k)
        assert result.value - value(solution) <= 4 * h.max() * r2 / (k + 1) ** 2 + accuracy / 2
    result = universal_gradient(fun, value, w0, 1e-12, epsilon=1e-8, max_iter=20_000)
    assert result.converged
    np.testing.assert_allclose(result.weights, solution, atol=1e-4)


def test_conditional_gradient_within_its_rate(problem):
    # Frank–Wolfe: f(w_t) − f* ≤ 2 L D² / (t + 2) with L = max h (the curvature) and D² = K the
    # squared diameter of the box (Jaggi 2013, Theorem 1); the iterates never leave the box
    h, c = problem
    fun, value = quadratic(h, c)
    f_star = value(np.clip(c, 0.0, 1.0))
    for t in (10, 100, 1000):
        result = conditional_gradient(fun, value, np.full(h.size, 0.5), 1e-12, max_iter=t)
        assert result.value - f_star <= 2 * h.max() * h.size / (t + 2)
        assert np.all((result.weights >= 0) & (result.weights <= 1))
        assert np.all(np.diff([r["value"] for r in result.rows]) <= 1e-12)


def test_upper_bounds_are_respected(problem):
    h, c = problem
    fun, value = quadratic(h, c)
    upper = np.where(np.arange(h.size) % 3 == 0, 0.0, 0.6)
    result = projected_gradient(fun, value, np.full(h.size, 0.5), 1e-10, 20_000, upper=upper)
    np.testing.assert_allclose(result.weights, np.clip(c, 0.0, upper), atol=1e-7)


def test_freeze_zeros_keeps_a_weight_at_zero():
    # coordinate 0 is pushed to 0 first (c = −1) — then c would pull it back in a later
    # problem; with one fixed f, check instead that a weight starting at 0 stays there even
    # though the unconstrained optimum is 1
    h, c = np.array([1.0, 1.0]), np.array([1.0, 1.0])
    fun, value = quadratic(h, c)
    frozen = projected_gradient(fun, value, np.array([0.0, 0.2]), 1e-9, 1000, freeze_zeros=True)
    free = projected_gradient(fun, value, np.array([0.0, 0.2]), 1e-9, 1000)
    np.testing.assert_allclose(frozen.weights, [0.0, 1.0], atol=1e-7)
    np.testing.assert_allclose(free.weights, [1.0, 1.0], atol=1e-7)


def grid_minimiser(L, v, c, p, delta, upper=1.0):
    grid = GRID[GRID <= upper + 1e-15]
    values = 0.5 * L * (grid - v) ** 2 + c * xi_delta(grid, p, delta)
    return grid[np.argmin(values)], values.min()


@pytest.mark.parametrize("p, delta", [(0.95, 1e-3), (0.65, 1e-3), (0.5, 0.05), (1.0, 0.01)])
def test_prox_is_the_exact_minimiser(p, delta):
    rng = np.random.default_rng(3)
    v = rng.uniform(-0.5, 1.5, 300)
    c = rng.uniform(0.0, 3.0, 300)
    L = 2.0
    upper = np.where(np.arange(300) % 5 == 0, 0.4, 1.0)
    u = xi_delta_prox(v, c, L, p, delta, upper)
    assert np.all((u >= 0) & (u <= upper))
    for k in range(300):
        _, best = grid_minimiser(L, v[k], c[k], p, delta, upper[k])
        mine = 0.5 * L * (u[k] - v[k]) ** 2 + c[k] * xi_delta(u[k], p, delta)
        # never worse than the 1e-5 grid, and at most its resolution better
        assert mine <= best + 1e-12
        assert mine >= best - L * 1e-5


def test_prox_limits():
    # v ≤ 0: h increases on [0, U], so u = 0; c = 0: the plain projection clip(v, 0, U)
    v = np.array([-2.0, -0.1, 0.0, 0.3, 0.7, 1.4])
    u = xi_delta_prox(v, 2.0, 3.0, 0.8, 1e-3)
    np.testing.assert_array_equal(u[:3], 0.0)
    np.testing.assert_allclose(xi_delta_prox(v, 0.0, 3.0, 0.8, 1e-3, 0.9), np.clip(v, 0, 0.9))


def test_prox_rejects_bad_arguments():
    with pytest.raises(ValueError, match="L > 0"):
        xi_delta_prox(np.zeros(2), 1.0, 0.0, 0.95, 1e-3)
    with pytest.raises(ValueError, match="p must lie"):
        xi_delta_prox(np.zeros(2), 1.0, 1.0, 1.5, 1e-3)


def composite_problem(h, v, coef, p, delta):
    """f = ½ Σ h (w − v)², ψ = Σ coef ξ_δ(w): separable; per coordinate the minimiser is the
    grid minimiser of (h_k/2)(u − v_k)² + coef_k ξ_δ(u)."""
    fun, value = quadratic(h, v)

    def penalty(w):
        return separable_penalty(w, coef, p, delta)

    def prox(x, L, upper):
        return xi_delta_prox(x, coef, L, p, delta, upper)

    return fun, value, penalty, prox


def test_composite_gradient_on_equal_curvatures_is_one_prox():
    # with h_k = L for all k, one CF step from any point lands on the exact minimiser
    rng = np.random.default_rng(11)
    k, p, delta = 30, 0.75, 1e-3
    h, v, coef = np.full(k, 4.0), rng.uniform(-0.2, 1.2, k), rng.uniform(0, 2.0, k)
    fun, value, penalty, prox = composite_problem(h, v, coef, p, delta)
    result = composite_gradient(fun, value, penalty, prox, np.full(k, 0.5), 1e-10, 1000)
    for i in range(k):
        u, _ = grid_minimiser(h[i], v[i], coef[i], p, delta)
        assert abs(result.weights[i] - u) <= 2e-5


def test_stage2_methods_monotone_and_local_minima():
    rng = np.random.default_rng(5)
    k, p, delta = 25, 0.95, 1e-3
    h, v, coef = rng.uniform(1, 10, k), rng.uniform(-0.2, 1.2, k), rng.uniform(0, 1.0, k)
    fun, value, penalty, prox = composite_problem(h, v, coef, p, delta)
    w0 = np.full(k, 0.5)
    for method in ("cf", "ue"):
        if method == "cf":
            result = composite_gradient(fun, value, penalty, prox, w0, 1e-9, 10_000)
        else:
            result = upper_estimator_gradient(fun, value, penalty, w0, 1e-9, 10_000)
        values = [r["value"] for r in result.rows]
        assert np.all(np.diff(values) <= 1e-9), method
        # the separable objective: each coordinate is a local minimiser of its 1-D problem
        for i in range(k):
            w = result.weights[i]
            f1 = 0.5 * h[i] * (GRID - v[i]) ** 2 + coef[i] * xi_delta(GRID, p, delta)
            near = np.abs(GRID - w) <= 0.02
            f_w = 0.5 * h[i] * (w - v[i]) ** 2 + coef[i] * xi_delta(w, p, delta)
            assert f_w <= f1[near].min() + 1e-6, (method, i)


def test_universal_gradient_slack_lets_a_far_start_jump():
    # a loose absolute accuracy accepts the first long step at a small M: UG leaves w0 for a
    # vertex of the box at once (hue2024 §4.2: UG "converges towards the null model within
    # one single iteration" from a start far above the optimum); a tight one does not
    h, c = np.full(5, 100.0), np.full(5, 0.3)
    fun, value = quadratic(h, c)
    loose = universal_gradient(fun, value, np.full(5, 1.0), accuracy=1e3, epsilon=1e-9, max_iter=1)
    tight = universal_gradient(fun, value, np.full(5, 1.0), accuracy=1e-9, epsilon=1e-9, max_iter=1)
    np.testing.assert_array_equal(loose.weights, 0.0)
    assert np.all(tight.weights > 0)


def test_alternating_minimisation_reaches_its_fixed_point():
    # AM on f = ½Σh(w − v)² + Σ (1 − log(W + 1) + B_k) ξ(w_k): at the end w is the stage
    # minimiser for the W it ends with
    rng = np.random.default_rng(2)
    k, p, delta = 10, 0.9, 1e-3
    h, v, b = rng.uniform(20, 60, k), rng.uniform(0.2, 1.2, k), rng.uniform(2.5, 4, k)
    fun, value = quadratic(h, v)

    def stage(total):
        coef = 1.0 - np.log1p(total) + b
        return (fun, value, *composite_problem(h, v, coef, p, delta)[2:])

    result = alternating_minimisation(stage, np.sum, np.full(k, 0.5), 1e-9, 10_000)
    assert result.converged
    coef = 1.0 - np.log1p(result.weights.sum()) + b
    for i in range(k):
        u, _ = grid_minimiser(h[i], v[i], coef[i], p, delta)
        assert abs(result.weights[i] - u) <= 1e-4
