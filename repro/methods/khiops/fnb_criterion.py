"""The Score(w) of the fractional naive Bayes of Khiops 11, the criterion of ``fnb_khiops``.

- :func:`khiops_fnb_prior`, :func:`khiops_fnb_data_cost`: the prior and data parts of Score(w), the
  reference; :func:`khiops_fnb_trial_data_cost` and :func:`khiops_fnb_move`: its data cost for one
  trial move, and the move itself, in O(N·J) compiled loops (the incremental objective of
  ``fnb_khiops``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from repro.methods.core.criteria import softmax_row
from repro.preprocessing.modl.criteria import lbinom, universal_code


def khiops_fnb_prior(weights, costs, n_instances: int, n_classes: int, lam: float, alpha: float):
    """Prior part of Khiops' Score(w), in nats:

        λ[ln 2 + (W = 0 ? lbinom(N+J−1, J−1) : L*(⌈W⌉) − ln ⌈W⌉!)] + λ Σ_{k: w_k > 0} w_k^α B_k

    W = Σ_k w_k, B_k = ln K + the preparation cost of variable k, L* the universal code of the
    integers. ``weights`` and ``costs`` are sequences over the same variables, summed in order.
    """
    total_w = sum(weights)
    if total_w == 0:
        prior = lam * (math.log(2.0) + float(lbinom(n_instances + n_classes - 1, n_classes - 1)))
    else:
        c = math.ceil(total_w)
        prior = lam * (math.log(2.0) + universal_code(c) - math.lgamma(c + 1))
    return prior + lam * sum(w**alpha * b for w, b in zip(weights, costs) if w > 0)


def khiops_fnb_data_cost(scores: np.ndarray, y: np.ndarray) -> float:
    """Data part of Khiops' Score(w): Σ_n −ln[(N·P_w(y_n | x_n) + 0.5/J)/(N + 0.5)].

    ``scores`` (N × J) are the unnormalised log-scores of the weighted naive Bayes.
    """
    n, n_classes = scores.shape
    top = scores.max(axis=1)  # log-sum-exp by hand: scipy's adds ~1 ms of checks per call
    log_z = top + np.log(np.exp(scores - top[:, None]).sum(axis=1))
    log_p = scores[np.arange(n), y] - log_z
    return float(-np.log((n * np.exp(log_p) + 0.5 / n_classes) / (n + 0.5)).sum())


@njit(cache=True)
def khiops_fnb_trial_data_cost(q, codes_i, shifted, offset, n_rows, delta, y):
    """:func:`khiops_fnb_data_cost` of S + δ·T_i[codes_i], given q = softmax(S), in O(N·J).

    ``shifted`` holds the stacked log tables T shifted row-wise so that δ·shifted ≤ 0 (T − row
    max for δ > 0, T − row min for δ < 0; a per-row constant leaves the posterior unchanged);
    variable i owns its rows ``offset … offset + n_rows − 1``. With e = exp(δ·shifted_i) (n_rows·J
    exponentials, e ∈ (0, 1]), the posterior of the true class after the move is

        P_n = q[n, y_n]·e[c_n, y_n] / Σ_j q[n, j]·e[c_n, j],

    and the cost Σ_n −ln[(N·P_n + 0.5/J)/(N + 0.5)] is accumulated as a product of its factors
    (each in (0, 1]) with a logarithm only when the product falls below 1e-200: no N × J
    temporary, no exponential per instance, a few logarithms per call. Equal to the reference
    on the explicit S + δ·T_i up to rounding (~1e-15 relative).
    """
    n, n_classes = q.shape
    e = np.empty((n_rows, n_classes))
    for r in range(n_rows):
        for j in range(n_classes):
            e[r, j] = math.exp(delta * shifted[offset + r, j])
    big = float(n)
    smooth = 0.5 / n_classes
    denom = n + 0.5
    s = 0.0
    prod = 1.0
    for t in range(n):
        row = codes_i[t]
        acc = 0.0
        for j in range(n_classes):
            acc += q[t, j] * e[row, j]
        p = q[t, y[t]] * e[row, y[t]] / acc
        prod *= (big * p + smooth) / denom
        if prod < 1e-200:
            s += math.log(prod)
            prod = 1.0
    return -(s + math.log(prod))


@njit(cache=True)
def khiops_fnb_move(S, q, codes_i, table, offset, delta):
    """Applies a move in place: S += δ·T_i[codes_i], then q ← softmax(S) row-wise, O(N·J).

    S[n, j] + δ·T[row, j] is the same floating-point operation as the NumPy expression
    ``S + δ * column``, so S stays bit-identical to a from-scratch NumPy update.
    """
    n, n_classes = S.shape
    for t in range(n):
        row = offset + codes_i[t]
        for j in range(n_classes):
            S[t, j] = S[t, j] + delta * table[row, j]
        softmax_row(S, q, t)
