"""Criteria of the weighted naive Bayes: pure functions of scores, costs and weights.

Nothing here knows an estimator; the estimators of :mod:`repro.methods` evaluate these on the
score engine (:mod:`repro.methods.engine`) inside the searches and optimisers.

- :func:`softmax_nll`: the training negative log-likelihood −Σ_n log P(y_n | x_n) of a score matrix
  (the data cost l(D|M) of boulle2007 eq. 4);
- :func:`selection_prior_cost`, :func:`map_cost`: the prior of a variable selection and criterion
  (4) of boulle2007 §3;
- :func:`training_auc` (:func:`multiclass_auc`, :func:`rank_auc`): the multi-class AUC of Provost &
  Domingos (boulle2007 §5.2) on training scores;
- :func:`bma_model_weights`, :func:`cma_model_weights`: the model weights of Bayesian and
  compression-based model averaging (boulle2007 §4.3, §6.2);
- :func:`khiops_fnb_prior`, :func:`khiops_fnb_data_cost`: the Score(w) of the fractional naive
  Bayes of Khiops 11 (KHIOPS_NOTES §6), the reference; :func:`khiops_fnb_trial_data_cost` and
  :func:`khiops_fnb_move`: its data cost for one trial move, and the move itself, in O(N·J)
  compiled loops (the incremental objective of ``fnb_khiops``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from repro.preprocessing.modl import lbinom
from repro.preprocessing.modl_khiops import universal_code


@njit(cache=True)
def softmax_nll(S, q, y):
    """q ← softmax(S) row-wise; returns the negative log-likelihood Σ_n −log q[n, y_n].

    S (N × J) holds unnormalised log-scores log P(y=j) + Σ_k w_k log P(x_k | y=j).
    """
    nll = 0.0
    for n in range(S.shape[0]):
        nll += softmax_row(S, q, n) - S[n, y[n]]
    return nll


@njit(cache=True)
def softmax_row(S, q, n):
    """q[n] ← softmax(S[n]) (max-shifted); returns log Σ_j exp S[n, j]."""
    n_classes = S.shape[1]
    m = S[n, 0]
    for j in range(1, n_classes):
        if S[n, j] > m:
            m = S[n, j]
    z = 0.0
    for j in range(n_classes):
        e = math.exp(S[n, j] - m)
        q[n, j] = e
        z += e
    for j in range(n_classes):
        q[n, j] /= z
    return m + math.log(z)


def selection_prior_cost(n_variables: int, n_selected) -> np.ndarray | float:
    """Code length l(M) of a variable selection (boulle2007 §3.3), in nats.

        l(M) = log(K + 1) + log C(K + K_m − 1, K_m)

    uniform prior on the number K_m ∈ [0, K] of selected variables, then every multiset of K_m
    variables among K equiprobable (combinations with replacement). Vectorised over ``n_selected``.
    """
    K = int(n_variables)
    km = np.asarray(n_selected, dtype=np.float64)
    if K < 1:
        raise ValueError(f"n_variables must be ≥ 1, got {n_variables!r}")
    if np.any((km < 0) | (km > K)):
        raise ValueError(f"n_selected must lie in [0, {K}], got {n_selected!r}")
    value = math.log(K + 1) + lbinom(K + km - 1, km)
    return float(value) if np.ndim(value) == 0 else value


def map_cost(nll: float, n_variables: int, n_selected: int) -> float:
    """Criterion (4) of boulle2007: l(M) + l(D|M) = l(M) − Σ_n log P_M(y_n | x_n)."""
    return float(selection_prior_cost(n_variables, n_selected)) + float(nll)


def training_auc(y: np.ndarray, scores: np.ndarray) -> float:
    """Multi-class AUC of Provost & Domingos (boulle2007 §5.2) of a score matrix (N × J).

    Σ_j P(c_j)·AUC(c_j vs rest), P(c_j) the class frequency in ``y``; for J = 2 the AUC of
    class 1. ``scores`` may be unnormalised log-scores: they are normalised (softmax) per row.
    Ties count one half. Same value
    as :func:`repro.evaluation.metrics.auc` (scikit-learn), computed here without its overhead
    because the greedy searches evaluate it O(K²) times.
    """
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    return float(multiclass_auc(np.asarray(y, dtype=np.int64), scores))


@njit(cache=True)
def rank_auc(values, positive, n_pos):
    """AUC of ``values`` for the positive instances, ties counted one half (Mann–Whitney)."""
    n = values.size
    order = np.argsort(values, kind="mergesort")
    rank_sum = 0.0
    start = 0
    while start < n:
        stop = start + 1
        while stop < n and values[order[stop]] == values[order[start]]:
            stop += 1
        mean_rank = 0.5 * (start + 1 + stop)  # ranks start+1 .. stop
        for t in range(start, stop):
            if positive[order[t]]:
                rank_sum += mean_rank
        start = stop
    n_neg = n - n_pos
    return (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


@njit(cache=True)
def multiclass_auc(y, S):
    n_rows, n_classes = S.shape
    counts = np.zeros(n_classes, dtype=np.int64)
    for n in range(n_rows):
        counts[y[n]] += 1
    P = np.empty((n_rows, n_classes))
    softmax_nll(S, P, y)
    if n_classes == 2:
        if counts[0] == 0 or counts[1] == 0:
            return np.nan
        positive = np.empty(n_rows, dtype=np.bool_)
        for n in range(n_rows):
            positive[n] = y[n] == 1
        return rank_auc(np.ascontiguousarray(P[:, 1]), positive, counts[1])
    total = 0.0
    weight = 0.0
    values = np.empty(n_rows)
    positive = np.empty(n_rows, dtype=np.bool_)
    for j in range(n_classes):
        if counts[j] == 0 or counts[j] == n_rows:
            continue
        for n in range(n_rows):
            values[n] = P[n, j]
            positive[n] = y[n] == j
        total += counts[j] * rank_auc(values, positive, counts[j])
        weight += counts[j]
    if weight == 0:
        return np.nan
    return total / weight


# ---------------------------------------------------------------------------------------------
# Model averaging (boulle2007 §4.3, §6.2)
# ---------------------------------------------------------------------------------------------
def bma_model_weights(cost: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """Posterior weights P(M_m | D) ∝ exp(−cost_m) of the kept models, as exp(cost_min − cost_m)
    (≤ 1, no overflow; 0 for the others). ``cost`` = criterion (4) in nats."""
    cost = np.asarray(cost, dtype=np.float64)
    keep = np.ones(cost.size, bool) if keep is None else np.asarray(keep, bool)
    w = np.zeros(cost.size)
    if keep.any():
        w[keep] = np.exp(cost[keep].min() - cost[keep])
    return w


def cma_model_weights(
    cost: np.ndarray, null_cost: float, keep: np.ndarray | None = None
) -> np.ndarray:
    """Compression coefficients c(M) = 1 − cost(M)/cost(M_0), kept where c > 0 (else 0)."""
    cost = np.asarray(cost, dtype=np.float64)
    keep = np.ones(cost.size, bool) if keep is None else np.asarray(keep, bool)
    c = 1.0 - cost / float(null_cost)
    return np.where(keep & (c > 0), c, 0.0)


# ---------------------------------------------------------------------------------------------
# The fractional naive Bayes of Khiops 11 (KHIOPS_NOTES §6)
# ---------------------------------------------------------------------------------------------
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
