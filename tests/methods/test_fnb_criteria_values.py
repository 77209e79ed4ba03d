"""Known answers for the criteria of hue2024 (the fractional naive Bayes prior f_F, eq. 17–18, and
the WNB-opt criterion, eq. 11–16, with ξ_δ and its proximal map) and for the compiled kernels of
Khiops' FNB Score(w) (KHIOPS_NOTES §6.1): values computed by hand on tiny data, closed forms, and
the edge cases of the argument checks (issue 32, the mutation run of
results/mutation/2026-11-28-fnb-criteria.md).

Several tests pass float32 inputs: the functions convert their inputs to float64 before any
arithmetic, so the float32 numbers, read exactly as doubles, must give the double-precision answer
(computed here with :mod:`math` on ``float(x)``); arithmetic done in float32 would be ~1e-8 off.
"""

import math

import numpy as np
import pytest

from repro.methods.core.engine import EncodedData
from repro.methods.hue2024.fnb_criterion import fnb_count_cost, fnb_criterion, fnb_prior
from repro.methods.hue2024.wnb_opt_criterion import (
    fc_penalty,
    hue2024_criterion,
    negative_log_likelihood,
    xi_delta,
    xi_delta_derivative,
    xi_delta_prox,
)
from repro.methods.khiops.fnb_criterion import khiops_fnb_move, khiops_fnb_trial_data_cost

LN_C0 = math.log(2.86511)  # L*(1) = ln c0: log2*(1) = 0 (Rissanen's constant, KHIOPS_NOTES §1)


# =============================================================================================
# hue2024 fnb_criterion: f_F (eq. 18) and CR_F (eq. 17)
# =============================================================================================
def test_count_cost_refuses_a_negative_total_with_its_message():
    """W = Σ w_k ≥ 0 is the precondition of eq. 18; the message names it."""
    for bad in (-0.5, float("nan")):
        with pytest.raises(ValueError, match=r"^the total weight must be ≥ 0, got "):
            fnb_count_cost(bad)
    # the boundary W = 0 is the empty model, f = 0 (module docstring); W = 1: L*(1) − ln 1!
    assert fnb_count_cost(0.0) == 0.0
    assert fnb_count_cost(1.0) == pytest.approx(LN_C0, rel=1e-14)


def test_prior_refuses_weights_outside_the_box_with_its_message():
    with pytest.raises(ValueError, match=r"^weights must lie in \[0, 1\]$"):
        fnb_prior([0.5, -0.1], [1.0, 2.0], 0.95)
    with pytest.raises(ValueError, match=r"^weights must lie in \[0, 1\]$"):
        fnb_prior([0.5, float("nan")], [1.0, 2.0], 0.95)


def test_prior_of_float32_weights_is_computed_in_double_precision():
    """f_F(w) = L*(⌈W⌉) − ln⌈W⌉! + Σ B_k w_k^p with the float32 weights read exactly as doubles:
    W = 0.3 + 0.45 (float32) ∈ (0, 1], ⌈W⌉ = 1, so the count cost is L*(1) = ln c0."""
    w32 = np.array([0.3, 0.45], dtype=np.float32)
    costs = [2.5, 4.0]
    w = [float(x) for x in w32]
    expected = LN_C0 + 2.5 * w[0] ** 0.95 + 4.0 * w[1] ** 0.95
    assert fnb_prior(w32, costs, 0.95) == pytest.approx(expected, rel=1e-14)


def test_criterion_of_float32_scores():
    """CR_F = −Σ_n log softmax(S_n)[y_n] + λ f_F(w), the log-sum-exp written out in double
    precision on the float32 scores."""
    S32 = np.array([[0.1, -0.7, 0.3], [1.3, 0.2, -0.4]], dtype=np.float32)
    y = np.array([2, 0])
    rows = [[float(x) for x in row] for row in S32]
    nll = sum(math.log(sum(math.exp(s) for s in row)) - row[c] for row, c in zip(rows, y))
    # w = (1, 0.5): W = 1.5, ⌈W⌉ = 2: L*(2) − ln 2! = ln c0 + ln 2 − ln 2 = ln c0
    prior = LN_C0 + 3.0 * 1.0 + 5.0 * 0.5**0.8
    got = fnb_criterion(S32, y, [1.0, 0.5], [3.0, 5.0], 0.3, 0.8)
    assert got == pytest.approx(nll + 0.3 * prior, rel=1e-13)


def test_criterion_of_float_labels():
    """Class indices given as integral floats are class indices: S = ln of the probabilities
    (0.7, 0.3), (0.2, 0.8); y = (0, 1): −LL = −ln 0.7 − ln 0.8; the empty model, f_F = 0."""
    S = np.log([[0.7, 0.3], [0.2, 0.8]])
    got = fnb_criterion(S, np.array([0.0, 1.0]), [0.0, 0.0], [1.0, 1.0], 2.0, 0.9)
    assert got == pytest.approx(-math.log(0.7) - math.log(0.8), rel=1e-14)


# =============================================================================================
# wnb_opt_criterion: ξ_δ, f_C, F_N, CR, the proximal map
# =============================================================================================
def test_xi_parameter_bounds():
    """0 < p ≤ 1 and 0 < δ ≤ 1: p = 0 and δ > 1 refused; δ = 1 allowed, where ξ_δ is its
    tangent at 1 on all of [0, 1]: (1 + p(τ − 1) − (1 − p))/p = τ, the identity, slope 1."""
    with pytest.raises(ValueError, match="p must lie in"):
        xi_delta(0.5, 0.0, 0.1)
    with pytest.raises(ValueError, match="delta must lie in"):
        xi_delta(0.5, 0.5, 1.5)
    tau = np.array([0.0, 0.2, 0.55, 1.0])
    for p in (0.3, 0.95):
        np.testing.assert_allclose(xi_delta(tau, p, 1.0), tau, rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(xi_delta_derivative(tau, p, 1.0), 1.0, rtol=1e-14)


def test_xi_of_float32_arguments_is_computed_in_double_precision():
    """ξ_δ and ξ_δ' of §3.1 (p = 1/2, δ = 1/4: ξ_δ(0) = (1 − p)δ^p = 1/4, rescaling by 3/4):
    τ ≥ δ: (√τ − 1/4)/(3/4), slope (1/2)τ^(−1/2)/(3/4); τ ≤ δ: the tangent, slope 4/3."""
    t32 = np.array([0.05, 0.3, 0.7], dtype=np.float32)
    t = [float(x) for x in t32]
    value = [
        (0.5 + (t[0] - 0.25)) / 0.75 - 1 / 3,  # 1/2 + (1/2)(1/4)^(−1/2)(τ − 1/4) = 1/2 + τ − 1/4
        (math.sqrt(t[1]) - 0.25) / 0.75,
        (math.sqrt(t[2]) - 0.25) / 0.75,
    ]
    slope = [4 / 3, 0.5 / math.sqrt(t[1]) / 0.75, 0.5 / math.sqrt(t[2]) / 0.75]
    np.testing.assert_allclose(xi_delta(t32, 0.5, 0.25), value, rtol=1e-14)
    np.testing.assert_allclose(xi_delta_derivative(t32, 0.5, 0.25), slope, rtol=1e-14)


def tiny():
    """2 variables × 2 parts, 4 rows, 2 classes, equal priors (as test_hue2024_criterion.tiny):
    variable 1: log-odds class 1 − class 0 = ∓ln 3 on parts 0/1; variable 2: ∓ln 4."""
    t1 = np.log([[0.75, 0.25], [0.25, 0.75]])
    t2 = np.log([[0.8, 0.2], [0.2, 0.8]])
    codes = [np.array([0, 1, 0, 1]), np.array([0, 1, 1, 0])]
    y = np.array([0, 1, 0, 0])
    return EncodedData.from_tables(codes, [t1, t2], y, np.log([0.5, 0.5]))


def test_a_zero_weight_before_a_positive_one():
    """w = (0, 1): only variable 2 counts. Rows (part of variable 2, y): (0, 0), (1, 1), (1, 0),
    (0, 0); −LL_n = ln(1 + e^(−margin)) with margin ±ln 4: ln 5/4, ln 5/4, ln 5, ln 5/4, so
    F_N = ln(625/64). Gradient: ∂F_N/∂w_k = Σ_n Σ_j (q_nj − 1[y_n = j]) L_k[n, j]; with
    q(true class) = 4/5 on rows 0, 1, 3 and 1/5 on row 2, each row contributes
    (1 − q_true)(L_k[n, other] − L_k[n, true]); variable 2: 3·(1/5)(−ln 4) + (4/5)(ln 4);
    variable 1 (parts 0, 1, 0, 1, margins of its own ±ln 3 toward the true class on rows 0, 1, 2
    and against on row 3): (1/5)(−ln 3) + (1/5)(−ln 3) + (4/5)(−ln 3) + (1/5)(ln 3)."""
    d = tiny()
    value, grad = negative_log_likelihood(
        np.array([0.0, 1.0]), d.codes, d.offsets, d.table, d.log_prior, d.y
    )
    assert value == pytest.approx(math.log(625 / 64), rel=1e-13)
    ln3, ln4 = math.log(3), math.log(4)
    expected = [(-0.2 - 0.2 - 0.8 + 0.2) * ln3, (-0.6 + 0.8) * ln4]
    np.testing.assert_allclose(grad, expected, rtol=1e-12)


def test_float_labels_and_offsets_are_indices():
    """y and offsets converted to integers: integral floats give the same F_N = ln(625/64)."""
    d = tiny()
    value, _ = negative_log_likelihood(
        np.array([0.0, 1.0]),
        d.codes,
        d.offsets.astype(float),
        d.table,
        d.log_prior,
        d.y.astype(float),
    )
    assert value == pytest.approx(math.log(625 / 64), rel=1e-13)


def test_likelihood_refuses_mismatched_codes_or_offsets():
    d = tiny()
    w = np.array([1.0, 0.5])
    bad_codes = d.codes[:, :3]  # 3 instances for 4 labels, offsets right
    with pytest.raises(ValueError, match=r"^codes \(2, 3\) and offsets \(2,\) do not match 2 "):
        negative_log_likelihood(w, bad_codes, d.offsets, d.table, d.log_prior, d.y)
    with pytest.raises(ValueError, match=r"and offsets \(3,\) do not match"):
        negative_log_likelihood(w, d.codes, np.array([0, 2, 4]), d.table, d.log_prior, d.y)


def test_criterion_at_lambda_one_by_hand():
    """CR = F_N + λ f_C at λ = 1 on tiny() with w = (1, 1/2), B = (2, 3), p = 1/2, δ = 1/4:
    F_N = ln(1225/216) (test_hue2024_criterion.test_value_by_hand), W = 3/2,
    f_C = (3 − ln 2.5)·1 + (4 − ln 2.5)(√(1/2) − 1/4)/(3/4)."""
    d = tiny()
    f_c = (3 - math.log(2.5)) + (4 - math.log(2.5)) * (math.sqrt(0.5) - 0.25) / 0.75
    value, _ = hue2024_criterion(
        np.array([1.0, 0.5]), d.codes, d.offsets, d.table, d.log_prior, d.y, [2.0, 3.0],
        1, 0.5, 0.25,
    )  # fmt: skip
    assert value == pytest.approx(math.log(1225 / 216) + f_c, rel=1e-13)


def test_fc_penalty_of_float32_weights_and_its_shape_check():
    """f_C(w) = Σ_k (1 − ln(W + 1) + B_k) ξ_δ(w_k) with W the double-precision sum of the float32
    weights (p = 1: ξ_δ = identity; δ = 1/2)."""
    w32 = np.array([0.1, 0.7, 0.3, 0.9, 0.6, 0.2], dtype=np.float32)
    w = [float(x) for x in w32]
    costs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    total = math.fsum(w)
    expected = sum((1 - math.log1p(total) + b) * x for b, x in zip(costs, w))
    assert fc_penalty(w32, costs, 1.0, 0.5)[0] == pytest.approx(expected, rel=1e-14)
    with pytest.raises(ValueError, match=r"^weights \(6,\) and costs \(2,\) differ in shape$"):
        fc_penalty(w32, costs[:2], 1.0, 0.5)


def test_prox_default_box_and_boundaries():
    """u = argmin_{[0, U]} (L/2)(u − v)² + c ξ_δ(u). p = 1 (ξ_δ = identity): u = clip(v − c/L,
    0, U), U = 1 by default; U = 0 allowed (u = 0)."""
    v = np.array([5.0, 0.3, -1.0])
    u = xi_delta_prox(v, 0.5, 2.0, 1.0, 0.5)
    assert u[0] == 1.0 and u[2] == 0.0  # the bounds exactly
    assert u[1] == pytest.approx(0.05, rel=1e-14)
    np.testing.assert_array_equal(xi_delta_prox(v, 0.5, 2.0, 1.0, 0.5, upper=0.0), 0.0)


def test_prox_of_float32_coefficients():
    """p = 1, δ = 1/2: u = v − c/L inside [0, δ], with c the float32 number read exactly."""
    c32 = np.array([0.3, 0.1], dtype=np.float32)
    expected = [0.4 - float(c32[0]) / 3.0, 0.45 - float(c32[1]) / 3.0]
    got = xi_delta_prox(np.array([0.4, 0.45]), c32, 3.0, 1.0, 0.5)
    np.testing.assert_allclose(got, expected, rtol=1e-15)


def test_prox_refuses_bad_arguments_with_its_message():
    message = r"^xi_delta_prox needs L > 0, c ≥ 0 and upper ≥ 0$"
    with pytest.raises(ValueError, match=message):
        xi_delta_prox(np.zeros(2), -1.0, 1.0, 0.5, 0.1)  # c < 0, U = 1
    with pytest.raises(ValueError, match=message):
        xi_delta_prox(np.zeros(2), 1.0, 1.0, 0.5, 0.1, upper=-0.5)  # U < 0, c ≥ 0
    with pytest.raises(ValueError, match=message):
        xi_delta_prox(np.zeros(2), 1.0, 0.0, 0.5, 0.1)


def test_prox_finds_a_minimum_past_the_inflection():
    """A case built so that the minimiser is the root of h' beyond the inflection point of h.

    p = 1/2, δ = 0.36 (√δ = 0.6): ξ_δ(0) = (1 − p)δ^p = 0.3, so on [δ, 1] ξ_δ(u) = (√u − 0.3)/0.7
    and h'(u) = L(u − v) + c/(1.4√u), h''(u) = L − c/(2.8 u^(3/2)): with L = c = 1, h is concave
    up to u_i = 2.8^(−2/3) ≈ 0.503, convex after. v = 0.64 + 1/(1.4·0.8) makes h'(0.64) = 0: the
    convex-side root is u* = 0.64. It is the global minimiser on [0, 1]: on [0, δ] ξ_δ is linear
    (slope 0.5/(0.6·0.7)), h there is minimised at v − 1/0.84, and h(u*) is smaller by ~2e-3
    (checked below on a fine grid, an oracle independent of the bisection). h'(δ) > 0 there:
    the minimiser is only found by starting the bisection at the true inflection point."""
    p, delta = 0.5, 0.36
    v = 0.64 + 1.0 / (1.4 * 0.8)
    grid = np.linspace(0.0, 1.0, 200001)
    h = 0.5 * (grid - v) ** 2 + xi_delta(grid, p, delta)
    h_star = 0.5 * (0.64 - v) ** 2 + (0.8 - 0.3) / 0.7
    assert h_star <= h.min() + 1e-15
    assert h[grid < 0.45].min() > h_star + 1e-3  # the rival local minimum, left of u_i
    assert 0.64 - v + 1.0 / (1.4 * math.sqrt(delta)) > 0  # h'(δ) > 0
    u = xi_delta_prox(np.array([v]), 1.0, 1.0, p, delta)
    assert u[0] == pytest.approx(0.64, abs=1e-12)


# =============================================================================================
# khiops fnb_criterion: the trial and move kernels of Score(w)
# =============================================================================================
def test_trial_data_cost_closed_form_past_the_underflow_guard():
    """DataCost = Σ_n −ln[(N·P_n + 0.5/J)/(N + 0.5)] (KHIOPS_NOTES §6.1) after the move δ = 1 of a
    variable whose (shifted) rows are ln(1/2, 1) and ln(1, 1/4), stacked at offset 1:
    P_n = q[n, y]·e[y]/Σ_j q[n, j]·e[j]. Rows 0–299: code 0, y = 0, q = (0.02, 0.98):
    P = 0.01/0.99; rows 300–599: code 1, y = 1, q = (1/2, 1/2): P = 0.125/0.625 = 1/5.
    The cost (~1.8e3 nats) takes the product of the factors below 1e-200 several times."""
    n = 600
    q = np.empty((n, 2))
    q[:300] = (0.02, 0.98)
    q[300:] = (0.5, 0.5)
    codes = np.repeat(np.array([0, 1], dtype=np.int64), 300)
    y = np.repeat(np.array([0, 1], dtype=np.int64), 300)
    shifted = np.array([[0.0, -1.0], [-math.log(2.0), 0.0], [0.0, -math.log(4.0)]])
    expected = -300 * math.log((n * (0.01 / 0.99) + 0.25) / (n + 0.5))
    expected -= 300 * math.log((n * 0.2 + 0.25) / (n + 0.5))
    got = khiops_fnb_trial_data_cost(q, codes, shifted, 1, 2, 1.0, y)
    assert expected > 460 * 3  # e^−460 ≈ 1e-200: the guard fires
    assert got == pytest.approx(expected, rel=1e-13)


def test_move_by_hand():
    """S += δ·T[offset + code], q ← softmax(S): δ = 1/2, rows ln(3, 1) and ln(1, 4) at offset 1:
    S = (ln √3, 0) and (0, ln 2), q = (√3, 1)/(1 + √3) and (1/3, 2/3)."""
    S = np.zeros((2, 2))
    q = np.zeros((2, 2))
    table = np.array([[9.0, 9.0], [math.log(3.0), 0.0], [0.0, math.log(4.0)]])
    khiops_fnb_move(S, q, np.array([0, 1], dtype=np.int64), table, 1, 0.5)
    np.testing.assert_allclose(S, [[0.5 * math.log(3.0), 0.0], [0.0, math.log(2.0)]], rtol=1e-15)
    r3 = math.sqrt(3.0)
    np.testing.assert_allclose(q, [[r3 / (1 + r3), 1 / (1 + r3)], [1 / 3, 2 / 3]], rtol=1e-14)
