"""The WANBIA-CLL objective (Zaidi, Cerquides, Carman & Webb 2013, JMLR 14) and its gradient.

A pure function of the weights and the packed training data; it knows no estimator and no
optimiser. The weighted naive Bayes of WANBIA is

    P_w(y = j | x) = P(j) Π_k θ_k(x_k | j)^{w_k} / Σ_j' P(j') Π_k θ_k(x_k | j')^{w_k}

(the class prior carries no weight), and WANBIA-CLL minimises the negative conditional
log-likelihood of the N training instances

    NCLL(w) = −Σ_n log P_w(y_n | x_n)
            = Σ_n [ log Σ_j exp S_nj(w) − S_{n,y_n}(w) ],
    S_nj(w) = log P(j) + Σ_k w_k log θ_k(x_nk | j)

    ∂NCLL/∂w_k = Σ_n [ −log θ_k(x_nk | y_n) + Σ_j P_w(j | x_n) log θ_k(x_nk | j) ]

without a regulariser, as bnclassify's ``make_cll`` / ``compute_cll_gradients`` /
``cll_gradient_var`` (R/learn-params-wanbia.R): the sum over instances, not the mean, and a
missing value contributes log 1 = 0 to every class (``get_log_leaf_entries``), here the zero
row that ends each variable's table. NCLL is convex in w (a log-sum-exp of affine functions
minus a linear term), so a point that satisfies the KKT conditions on the box is a global
minimum.

Data layout of :class:`repro.methods.core.engine.EncodedData`: ``codes`` (K, N) integer part
codes, ``offsets`` (K,) first row of each variable in ``table`` (R, J), the stacked tables
log θ_k(part | class); log θ_k(x_nk | j) = table[offsets[k] + codes[k, n], j]. One evaluation
gathers each variable's N × J block twice (scores, gradient): O(N·J·K), no N × K × J array.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp


def check_packed(weights, codes, offsets, table, log_prior, y):
    """The arrays of :func:`wanbia_objective` as float64/int64, shapes checked (ValueError)."""
    w = np.asarray(weights, dtype=np.float64)
    codes = np.asarray(codes)
    offsets = np.asarray(offsets, dtype=np.int64)
    table = np.asarray(table, dtype=np.float64)
    log_prior = np.asarray(log_prior, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if w.ndim != 1 or codes.shape != (w.size, y.size) or offsets.shape != (w.size,):
        raise ValueError(
            f"codes {codes.shape} and offsets {offsets.shape} do not match {w.size} weights "
            f"and {y.size} instances"
        )
    if table.ndim != 2 or table.shape[1] != log_prior.size:
        raise ValueError(f"table {table.shape} does not have {log_prior.size} class columns")
    return w, codes, offsets, table, log_prior, y


def weighted_scores(weights, codes, offsets, table, log_prior):
    """S[n, j] = log P(j) + Σ_k w_k log θ_k(x_nk | j) (zero weights skipped)."""
    S = np.repeat(log_prior[None, :], codes.shape[1], axis=0)
    for k in np.flatnonzero(weights):
        S += weights[k] * table[offsets[k] + codes[k].astype(np.int64)]
    return S


def wanbia_objective(weights, codes, offsets, table, log_prior, y):
    """NCLL(w) of WANBIA-CLL and its gradient (module docstring).

    Shapes: weights (K,), codes (K, N) integer, offsets (K,) integer, table (R, J), log_prior
    (J,), y (N,) class indices 0..J−1. Returns (value, gradient (K,)).
    """
    w, codes, offsets, table, log_prior, y = check_packed(
        weights, codes, offsets, table, log_prior, y
    )
    S = weighted_scores(w, codes, offsets, table, log_prior)
    rows = np.arange(y.size)
    log_z = logsumexp(S, axis=1)
    value = float(np.sum(log_z - S[rows, y]))
    residual = np.exp(S - log_z[:, None])  # P_w(j | x_n) − 1[y_n = j]
    residual[rows, y] -= 1.0
    grad = np.empty(w.size)
    for k in range(w.size):
        grad[k] = np.sum(residual * table[offsets[k] + codes[k].astype(np.int64)])
    return value, grad
