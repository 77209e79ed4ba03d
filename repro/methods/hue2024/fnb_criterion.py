"""The criterion of the paper's fractional naive Bayes (hue2024 §4.4, eq. 17–18): pure functions.

    CR_F(w) = −Σ_n LL_n(w) + λ f_F(w),   w ∈ [0, 1]^K                                   (eq. 17)
    f_F(w)  = L*(⌈W⌉) − log(⌈W⌉!) + Σ_k B(X_k) w_k^p,   W = Σ_k w_k                     (eq. 18)

LL_n(w) = log P_w(y_n | x_n) is the log-likelihood of the weighted naive Bayes (eq. 4–5, no
smoothing of the posterior); L* is Rissanen's universal code of the positive integers
(:func:`repro.preprocessing.modl.criteria.universal_code`, c0 = 2.86511), natural logarithms
throughout (nats, as the MODL costs B(X_k) = construction + preparation cost).

For Boolean weights f_F is the SNB prior f_B of eq. 9, L*(K_s) − log K_s! + Σ_{selected} B(X_k)
(the paper: "for Boolean weights, the FNB criterion exactly coincides with the SNB criterion").

The empty model (w = 0, ⌈0⌉ = 0). L* codes the integers n ≥ 1, so neither eq. 18 nor eq. 9 says
what the empty selection costs. We take f_F(0) = f_B(∅) = 0: the null model codes no variable and
no number of variables, and is the reference (the class prior alone) against which every selection
is charged. A selection of one variable thus costs L*(1) − log 1! = ln 2.86511 ≈ 1.0526 nats more
than its B(X_k) w_k^p (Khiops, instead, charges the empty selection λ(ln 2 + ln C(N+J−1, J−1)),
KHIOPS_NOTES §6.1; that is :func:`repro.methods.khiops.fnb_criterion.khiops_fnb_prior`, not this).
"""

from __future__ import annotations

import math

import numpy as np

from repro.methods.core.criteria import softmax_nll
from repro.preprocessing.modl.criteria import universal_code


def fnb_count_cost(total_weight: float) -> float:
    """L*(⌈W⌉) − log(⌈W⌉!) of eq. 18 (the cost of the "number of variables" ⌈W⌉), 0 at W = 0.

    ``total_weight`` W = Σ_k w_k ≥ 0.
    """
    if not total_weight >= 0:
        raise ValueError(f"the total weight must be ≥ 0, got {total_weight!r}")
    count = math.ceil(total_weight)
    if count == 0:
        return 0.0
    return universal_code(count) - math.lgamma(count + 1)


def fnb_prior_from_sums(total_weight: float, weighted_cost: float) -> float:
    """f_F of eq. 18 from its two sums: W = Σ_k w_k and Σ_k B(X_k) w_k^p.

    The form the optimiser uses: it keeps both sums up to date move by move (O(1) a trial).
    """
    return fnb_count_cost(total_weight) + weighted_cost


def fnb_prior(weights, costs, p: float) -> float:
    """f_F(w) = L*(⌈Σ_k w_k⌉) − log(⌈Σ_k w_k⌉!) + Σ_k B(X_k) w_k^p (hue2024 eq. 18), in nats.

    ``weights`` (K,) in [0, 1], ``costs`` (K,) the B(X_k); f_F(0) = 0 (module docstring).
    For Boolean weights this is the SNB prior f_B of eq. 9.
    """
    w = np.asarray(weights, dtype=np.float64)
    b = np.asarray(costs, dtype=np.float64)
    if w.shape != b.shape:
        raise ValueError(f"weights {w.shape} and costs {b.shape} differ in shape")
    if np.any((w < 0) | (w > 1)) or not np.all(np.isfinite(w)):
        raise ValueError("weights must lie in [0, 1]")
    return fnb_prior_from_sums(float(w.sum()), float(np.dot(b, np.power(w, p))))


def fnb_criterion(scores, y, weights, costs, lam: float, p: float) -> float:
    """Criterion (17) of hue2024: −Σ_n LL_n(w) + λ f_F(w).

    ``scores`` (N × J): the log-scores log P(y = j) + Σ_k w_k log p(x_k | j) of the weights
    (unnormalised; LL_n is their log-softmax at y_n), ``y`` (N,) class indices.
    """
    S = np.ascontiguousarray(scores, dtype=np.float64)
    q = np.empty_like(S)
    nll = float(softmax_nll(S, q, np.asarray(y, dtype=np.int64)))
    return nll + lam * fnb_prior(weights, costs, p)
