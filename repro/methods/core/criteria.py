"""Criteria shared by several families of weighted naive Bayes: pure functions of scores.

Nothing here knows an estimator; the estimators evaluate these on the score engine
(:mod:`repro.methods.core.engine`) inside the searches and optimisers.

- :func:`softmax_nll`: the training negative log-likelihood −Σ_n log P(y_n | x_n) of a score matrix
  (the data cost l(D|M) of boulle2007 eq. 4); :func:`softmax_row` normalises one row;
- :func:`training_auc` (:func:`multiclass_auc`, :func:`rank_auc`): the multi-class AUC of Provost &
  Domingos (boulle2007 §5.2) on training scores.

The criteria of one family live in it: boulle2007's selection prior and model weights in
:mod:`repro.methods.boulle2007.criteria`, Khiops' Score(w) in
:mod:`repro.methods.khiops.fnb_criterion`,
hue2024's in :mod:`repro.methods.hue2024.wnb_opt_criterion` and
:mod:`repro.methods.hue2024.fnb_criterion`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


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
