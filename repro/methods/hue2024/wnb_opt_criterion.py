"""The regularised criterion of hue2024 (weighted naive Bayes by optimisation), with its gradient.

Pure functions of weights, packed per-variable log tables and costs; nothing here knows an
estimator or an optimiser (issue 13). Notation of the paper (Hue & Boullé 2024):

    P_w(y = j | x) = softmax_j(log P(y = j) + Σ_k w_k log p(x_k | j))                 (eq. 2)
    F_N(w)  = −Σ_n LL_n(w),  LL_n(w) = log P_w(y_n | x_n)                             (eq. 10, 14)
    CR(w)   = F_N(w) + λ f_C(w),  w ∈ [0, 1]^K                                        (eq. 11, 13)
    f_C(w)  = Σ_k (1 − log(⟨ē, w⟩ + 1) + B(X_k)) ξ_δ(w_k),  ⟨ē, w⟩ = Σ_k w_k          (eq. 12)
    C̃R(w)  = F_N(w) + λ Σ_k (1 − log(W_0 + 1) + B(X_k)) w_k                           (eq. 15)
    ĈR(w)  = F_N(w) + λ Σ_k (1 − log(W̃ + 1) + B(X_k)) ξ_δ(w_k)                        (eq. 16)

ξ(τ) = τ^p (p ≤ 1) replaced by its tangent at δ on [0, δ] and rescaled to ξ(0) = 0, ξ(1) = 1
(§3.1, item 2); natural logarithms throughout (nats, as the MODL costs B(X_k)).

Data layout = the score engine's (:class:`repro.methods.core.engine.EncodedData`): ``codes`` (K, N)
part codes, ``offsets`` (K,) first row of each variable in ``table`` (R, J), the stacked tables
log p(part | class), so that L_k[n, j] = table[offsets[k] + codes[k, n], j]. One evaluation
builds S(w) = log P(y) + Σ_k w_k L_k once (O(N·J·K), zero weights skipped) and the gradient of
F_N by one gather per variable (O(N·J) each); no N × K × J array is formed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from repro.methods.core.criteria import softmax_nll


# ---------------------------------------------------------------------------------------------
# ξ_δ: the linearised, rescaled power function (§3.1, item 2)
# ---------------------------------------------------------------------------------------------
def check_xi_parameters(p: float, delta: float) -> None:
    """0 < p ≤ 1 (concave, increasing ξ: conditions C1) and 0 < δ ≤ 1."""
    if not 0.0 < float(p) <= 1.0:
        raise ValueError(f"p must lie in (0, 1], got {p!r}")
    if not 0.0 < float(delta) <= 1.0:
        raise ValueError(f"delta must lie in (0, 1], got {delta!r}")


def xi_delta(tau, p: float, delta: float):
    """ξ_δ of hue2024 §3.1 (used in eq. 12 and 16), rescaled, vectorised over ``tau``.

        ξ(τ) = τ^p
        ξ_δ(τ) = ξ(τ)                        τ ≥ δ
               = ξ(δ) + ξ'(δ)(τ − δ)         0 ≤ τ ≤ δ      (tangent at δ: C¹ at δ)
        returned: (ξ_δ(τ) − ξ_δ(0)) / (1 − ξ_δ(0)),   ξ_δ(0) = (1 − p) δ^p

    so the result is 0 at τ = 0, 1 at τ = 1, increasing, concave, with the finite slope
    p δ^(p−1)/(1 − ξ_δ(0)) at 0. Below 0 the linear piece is extended (for finite differences).
    """
    check_xi_parameters(p, delta)
    tau = np.asarray(tau, dtype=np.float64)
    d_p = delta**p
    origin = (1.0 - p) * d_p
    linear = d_p + p * delta ** (p - 1.0) * (tau - delta)
    power = np.power(np.maximum(tau, delta), p)
    value = (np.where(tau >= delta, power, linear) - origin) / (1.0 - origin)
    return float(value) if value.ndim == 0 else value


def xi_delta_derivative(tau, p: float, delta: float):
    """dξ_δ/dτ of the rescaled ξ_δ (:func:`xi_delta`), vectorised:

        p τ^(p−1) / (1 − ξ_δ(0))   τ ≥ δ;     p δ^(p−1) / (1 − ξ_δ(0))   τ ≤ δ

    continuous at δ (the linear piece is the tangent there)."""
    check_xi_parameters(p, delta)
    tau = np.asarray(tau, dtype=np.float64)
    origin = (1.0 - p) * delta**p
    value = p * np.power(np.maximum(tau, delta), p - 1.0) / (1.0 - origin)
    return float(value) if value.ndim == 0 else value


# ---------------------------------------------------------------------------------------------
# Penalties
# ---------------------------------------------------------------------------------------------
def separable_penalty(weights, coefficients, p: float, delta: float):
    """Σ_k a_k ξ_δ(w_k) and its gradient a_k ξ_δ'(w_k): the penalty of eq. 16 with
    a_k = 1 − log(W̃ + 1) + B(X_k) (W̃ fixed), separable, as the composite step (CF) needs it.

    Returns (value, gradient (K,)).
    """
    w = np.asarray(weights, dtype=np.float64)
    a = np.asarray(coefficients, dtype=np.float64)
    value = float(np.dot(a, xi_delta(w, p, delta)))
    return value, a * xi_delta_derivative(w, p, delta)


def fc_penalty(weights, costs, p: float, delta: float):
    """f_C of hue2024 eq. 12 and its gradient.

        f_C(w) = Σ_k (1 − log(W + 1) + B_k) ξ_δ(w_k),   W = Σ_k' w_k'
        ∂f_C/∂w_k = (1 − log(W + 1) + B_k) ξ_δ'(w_k) − (1/(W + 1)) Σ_k' ξ_δ(w_k')

    (the second term is the coupling through W). ``costs`` B_k (K,): construction + preparation
    cost of variable k; the paper assumes 1 − log(W + 1) + B_k > 0 on [0, 1]^K.
    Returns (value, gradient (K,)).
    """
    w = np.asarray(weights, dtype=np.float64)
    b = np.asarray(costs, dtype=np.float64)
    if w.shape != b.shape:
        raise ValueError(f"weights {w.shape} and costs {b.shape} differ in shape")
    xi = np.asarray(xi_delta(w, p, delta))
    total = float(w.sum())
    a = 1.0 - np.log1p(total) + b
    value = float(np.dot(a, xi))
    grad = a * xi_delta_derivative(w, p, delta) - float(np.sum(xi)) / (total + 1.0)
    return value, grad


# ---------------------------------------------------------------------------------------------
# The likelihood part F_N (eq. 10, 14)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def weighted_scores(weights, codes, offsets, table, log_prior):
    """S[n, j] = log P(y = j) + Σ_k w_k table[offsets[k] + codes[k, n], j] (eq. 2, in logs)."""
    n_rows = codes.shape[1]
    n_classes = log_prior.size
    S = np.empty((n_rows, n_classes))
    for n in range(n_rows):
        for j in range(n_classes):
            S[n, j] = log_prior[j]
    for k in range(codes.shape[0]):
        wk = weights[k]
        if wk == 0.0:
            continue
        off = offsets[k]
        for n in range(n_rows):
            row = off + codes[k, n]
            for j in range(n_classes):
                S[n, j] += wk * table[row, j]
    return S


@njit(cache=True)
def nll_weight_gradient(q, y, codes, offsets, table):
    """g_k = Σ_n Σ_j (q[n, j] − 1[y_n = j]) · table[offsets[k] + codes[k, n], j], one gather
    per variable (O(N·J) each); ``q`` = softmax of the score matrix."""
    n_vars, n_rows = codes.shape
    n_classes = q.shape[1]
    g = np.zeros(n_vars)
    for k in range(n_vars):
        off = offsets[k]
        s = 0.0
        for n in range(n_rows):
            row = off + codes[k, n]
            acc = 0.0
            for j in range(n_classes):
                acc += q[n, j] * table[row, j]
            s += acc - table[row, y[n]]
        g[k] = s
    return g


def negative_log_likelihood(weights, codes, offsets, table, log_prior, y, gradient=True):
    """F_N(w) = −Σ_n log P_w(y_n | x_n) (eq. 10, 14) and its gradient (the value alone when
    ``gradient`` is False: half the work, for line searches).

        ∂F_N/∂w_k = Σ_n Σ_j (P_w(j | x_n) − 1[y_n = j]) · log p(x_k^n | C_j)

    Shapes: weights (K,), codes (K, N) integer, offsets (K,) integer, table (R, J),
    log_prior (J,), y (N,) integer class indices. Returns (value, gradient (K,)). F_N is convex
    in w (eq. 14: a constant, a linear term and a log-sum-exp of affine functions).
    """
    w = np.ascontiguousarray(weights, dtype=np.float64)
    codes = np.asarray(codes)
    table = np.ascontiguousarray(table, dtype=np.float64)
    offsets = np.asarray(offsets, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    log_prior = np.ascontiguousarray(log_prior, dtype=np.float64)
    if codes.shape != (w.size, y.size) or offsets.shape != (w.size,):
        raise ValueError(
            f"codes {codes.shape} and offsets {offsets.shape} do not match "
            f"{w.size} weights and {y.size} instances"
        )
    S = weighted_scores(w, codes, offsets, table, log_prior)
    q = np.empty_like(S)
    value = float(softmax_nll(S, q, y))
    if not gradient:
        return value
    return value, nll_weight_gradient(q, y, codes, offsets, table)


# ---------------------------------------------------------------------------------------------
# The criteria (eq. 11, 15, 16)
# ---------------------------------------------------------------------------------------------
def hue2024_criterion(weights, codes, offsets, table, log_prior, y, costs, lam, p, delta):
    """CR(w) = F_N(w) + λ f_C(w) of hue2024 eq. 11–12 and its gradient ∇F_N + λ ∇f_C.

    Arguments as :func:`negative_log_likelihood` (the engine's packed data) and
    :func:`fc_penalty` (``costs`` B_k (K,), ``p``, ``delta``); ``lam`` = λ ≥ 0.
    Returns (value, gradient (K,)).
    """
    value, grad = negative_log_likelihood(weights, codes, offsets, table, log_prior, y)
    if lam == 0:
        return value, grad
    pen, pen_grad = fc_penalty(weights, costs, p, delta)
    return value + lam * pen, grad + lam * pen_grad


def relaxed_criterion(weights, codes, offsets, table, log_prior, y, costs, lam, total_prior):
    """C̃R(w) of hue2024 eq. 15 (stage 1, convex), and its gradient:

        C̃R(w) = F_N(w) + λ Σ_k (1 − log(W_0 + 1) + B_k) w_k
        ∇C̃R = ∇F_N + λ (1 − log(W_0 + 1) + B)

    ``total_prior`` = W_0, the a-priori estimate of W = Σ_k w_k. Returns (value, gradient).
    """
    value, grad = negative_log_likelihood(weights, codes, offsets, table, log_prior, y)
    a = 1.0 - np.log1p(float(total_prior)) + np.asarray(costs, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    return value + lam * float(np.dot(a, w)), grad + lam * a


def stage2_criterion(weights, codes, offsets, table, log_prior, y, costs, lam, total, p, delta):
    """ĈR(w) of hue2024 eq. 16 (stage 2), and its gradient:

        ĈR(w) = F_N(w) + λ Σ_k (1 − log(W̃ + 1) + B_k) ξ_δ(w_k)
        ∇ĈR = ∇F_N + λ (1 − log(W̃ + 1) + B) ξ_δ'(w)

    ``total`` = W̃, the sum of the stage-1 weights (fixed: the penalty is separable,
    :func:`separable_penalty`). Returns (value, gradient).
    """
    value, grad = negative_log_likelihood(weights, codes, offsets, table, log_prior, y)
    a = 1.0 - np.log1p(float(total)) + np.asarray(costs, dtype=np.float64)
    pen, pen_grad = separable_penalty(weights, a, p, delta)
    return value + lam * pen, grad + lam * pen_grad


# ---------------------------------------------------------------------------------------------
# The proximal map of the separable penalty (composite step CF, Nesterov 2013)
# ---------------------------------------------------------------------------------------------
def xi_delta_prox(v, c, lipschitz, p: float, delta: float, upper=1.0, n_bisections: int = 60):
    """Exact per-coordinate minimiser of the composite step of hue2024 §3.2.2 (CF):

        u_k = argmin_{u ∈ [0, U_k]} h_k(u),   h_k(u) = (L/2)(u − v_k)² + c_k ξ_δ(u),   c_k ≥ 0

    (ξ_δ rescaled, :func:`xi_delta`). On [0, δ] ξ_δ is linear with slope s₀ = pδ^(p−1)/(1 − ξ_δ(0)):
    h is a convex quadratic, minimised at clip(v − c s₀/L, 0, δ). On [δ, U], h'' = L −
    c p(1−p) u^(p−2)/(1 − ξ_δ(0)) increases with u: h is concave up to the inflection
    u_i = (c p(1−p)/(L(1 − ξ_δ(0))))^(1/(2−p)), then convex, so its minimum there is at δ, at U
    or at the root of h' on [max(δ, u_i), U] (bisection). The smallest of these candidates wins
    (ties to the smaller u: the sparser model). Vectorised over k; ``upper`` U (scalar or (K,)) ≥ 0.
    """
    check_xi_parameters(p, delta)
    v = np.asarray(v, dtype=np.float64)
    c = np.broadcast_to(np.asarray(c, dtype=np.float64), v.shape)
    upper = np.broadcast_to(np.asarray(upper, dtype=np.float64), v.shape)
    L = float(lipschitz)
    if not L > 0 or np.any(c < 0) or np.any(upper < 0):
        raise ValueError("xi_delta_prox needs L > 0, c ≥ 0 and upper ≥ 0")
    origin = (1.0 - p) * delta**p
    slope0 = p * delta ** (p - 1.0) / (1.0 - origin)

    def h(u):
        return 0.5 * L * (u - v) ** 2 + c * xi_delta(u, p, delta)

    lin_hi = np.minimum(delta, upper)
    candidates = [np.clip(v - c * slope0 / L, 0.0, lin_hi), lin_hi, upper]
    if p < 1.0:
        inflection = (c * p * (1.0 - p) / (L * (1.0 - origin))) ** (1.0 / (2.0 - p))
        lo = np.minimum(np.maximum(delta, inflection), upper)
    else:
        lo = lin_hi
    candidates.append(lo)

    def dh(u):
        return L * (u - v) + c * p * np.power(np.maximum(u, delta), p - 1.0) / (1.0 - origin)

    hi = upper.copy()
    bracket = (upper > delta) & (dh(lo) < 0) & (dh(hi) > 0)
    a, b = lo.copy(), hi.copy()
    for _ in range(n_bisections if bracket.any() else 0):
        mid = 0.5 * (a + b)
        neg = dh(mid) < 0
        a = np.where(neg, mid, a)
        b = np.where(neg, b, mid)
    candidates.append(np.where(bracket, 0.5 * (a + b), lo))
    stack = np.vstack(candidates)
    values = np.vstack([h(u) for u in candidates])
    order = np.lexsort((stack, values), axis=0)[0]  # smallest h, then smallest u
    return np.take_along_axis(stack, order[None, :], axis=0)[0]
