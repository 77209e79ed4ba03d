"""The compiled dynamic programmes of the MDL histogram search (:mod:`.mdl`).

With candidates c_0 < … < c_{E+1} (c_0, c_{E+1} the two ends), H_p the number of values below
c_p, w(t, p) = h log(L / h) for the bin (c_t, c_p] (h = H_p − H_t, L = c_p − c_t; 0 when h = 0)
and the constant n log(n/ε) taken out:

    F_1(p) = w(0, p),   F_K(p) = min_{t<p} F_{K−1}(t) + w(t, p),
    SC(K) = F_K(E+1) + n log(n/ε) + log R(K, n)  [+ log binom(E_grid, K−1)].

Pruning that keeps it exact: f(h, L) = h log(L/h) is jointly concave and positively homogeneous,
hence superadditive, w(t, T) ≥ w(t, p) + w(p, T) for t < p < T (splitting a bin never costs
code length). So once F_{K−1}(t) + w(t, p) ≥ F_{K−1}(p), the candidate t is beaten by p as the
last cut for every later T (F_{K−1}(t) + w(t, T) ≥ F_{K−1}(p) + w(p, T)) and is dropped from
layer K (the inequality pruning of PELT, Killick et al. 2012, applied within each layer of the
fixed-K programme). :func:`mdl_dp` is that layered programme, :func:`penalised_dp` the
penalised one (min over all cut sets of Σ w + β·K, one pass), :func:`cut_path` reads a
penalised optimum back.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def _bin_cost(h, length):
    """w = h log(L / h) of one bin (0 for an empty bin)."""
    if h == 0:
        return 0.0
    return h * (math.log(length) - math.log(h))


@njit(cache=True)
def _h_log_h(n):
    """h log h for h = 0..n (0 log 0 = 0): the count half of every bin cost, looked up."""
    out = np.zeros(n + 1)
    for h in range(2, n + 1):
        out[h] = h * math.log(h)
    return out


@njit(cache=True)
def _scan(f, alive, n_alive, vals, pos, cum, p, nseg, hlogh):
    """min over the live candidates t of f[t] + w(t, p) (ties: fewer bins in ``nseg``); stores
    each candidate's value in ``vals``. Returns (value, argmin). ``hlogh``: :func:`_h_log_h`."""
    bv = np.inf
    bt = alive[0]
    cp = cum[p]
    xp = pos[p]
    for i in range(n_alive):
        t = alive[i]
        h = cp - cum[t]
        val = f[t]
        if h > 0:
            val += h * math.log(xp - pos[t]) - hlogh[h]
        vals[i] = val
        if val < bv or (val == bv and nseg[t] < nseg[bt]):
            bv = val
            bt = t
    return bv, bt


@njit(cache=True)
def _prune(alive, n_alive, vals, limit):
    """Keep the candidates whose value is below ``limit`` (the others are beaten by p for every
    later end, by superadditivity); returns the new count."""
    j = 0
    for i in range(n_alive):
        if vals[i] < limit:
            alive[j] = alive[i]
            j += 1
    return j


@njit(cache=True)
def mdl_dp(pos, cum, k_max, log_r, const, bound, best0):
    """Layered DP over cut sets with exact inequality pruning (see the module docstring).

    Returns (criterion per K (k_max,), NaN beyond the last layer computed; back-pointers
    (k_max, m) int32: back[K−1, p] = last cut before c_p of the best K-bin histogram of
    [c_0, c_p]). ``log_r[K−1]`` = log R(K, n) (+ cut-set code), ``const`` = n log(n/ε);
    ``bound[K−1]`` ≤ the criterion of every histogram with ≥ K bins and ``best0`` the criterion
    of a known histogram (stopping rule).
    """
    m = pos.size
    crit = np.full(k_max, np.nan)
    back = np.full((k_max, m), -1, dtype=np.int32)
    prev = np.empty(m)
    cur = np.empty(m)
    for p in range(m):
        prev[p] = _bin_cost(cum[p] - cum[0], pos[p] - pos[0])
        back[0, p] = 0
    crit[0] = prev[m - 1] + const + log_r[0]
    best = min(crit[0], best0)
    alive = np.empty(m, dtype=np.int64)
    vals = np.empty(m)
    no_ties = np.zeros(m, dtype=np.int64)
    hlogh = _h_log_h(cum[m - 1] - cum[0])
    for k in range(2, k_max + 1):
        if bound[k - 1] >= best:
            break  # no histogram with ≥ k bins can beat the best one found
        for p in range(k - 1):
            cur[p] = np.inf
        n_alive = 0
        for p in range(k - 1, m):
            alive[n_alive] = p - 1
            n_alive += 1
            cur[p], back[k - 1, p] = _scan(prev, alive, n_alive, vals, pos, cum, p, no_ties, hlogh)
            # drop every t beaten by p for all later ends: F_{k-1}(t) + w(t, p) ≥ F_{k-1}(p)
            n_alive = _prune(alive, n_alive, vals, prev[p])
        crit[k - 1] = cur[m - 1] + const + log_r[k - 1]
        if crit[k - 1] < best:
            best = crit[k - 1]
        for p in range(m):
            prev[p] = cur[p]
    return crit, back


@njit(cache=True)
def penalised_dp(pos, cum, beta):
    """min over all cut sets of Σ_k w_k + β·K (PELT, Killick et al. 2012, exact pruning).

    Returns (G(β), K, last cut before each c_p of the optimum of [c_0, c_p]).
    """
    m = pos.size
    f = np.empty(m)
    nseg = np.zeros(m, dtype=np.int64)
    last = np.zeros(m, dtype=np.int64)
    f[0] = 0.0
    alive = np.empty(m, dtype=np.int64)
    vals = np.empty(m)
    hlogh = _h_log_h(cum[m - 1] - cum[0])
    n_alive = 0
    for p in range(1, m):
        alive[n_alive] = p - 1
        n_alive += 1
        bv, bt = _scan(f, alive, n_alive, vals, pos, cum, p, nseg, hlogh)
        f[p] = bv + beta
        nseg[p] = nseg[bt] + 1
        last[p] = bt
        # drop every t with F(t) + w(t, p) ≥ F(p): beaten by p for every later end
        n_alive = _prune(alive, n_alive, vals, f[p])
    return f[m - 1], nseg[m - 1], last


@njit(cache=True)
def cut_path(last, m):
    """Indices 0 = p_0 < … < p_K = m − 1 of the cuts, read back from the last-cut pointers."""
    n = 1
    p = m - 1
    while p > 0:
        p = last[p]
        n += 1
    idx = np.empty(n, dtype=np.int64)
    p = m - 1
    for i in range(n - 1, -1, -1):
        idx[i] = p
        p = last[p]
    return idx
