"""Histogram density estimators of elovaara2008 (SPEC §3.5): the MDL-optimal histogram of
Kontkanen & Myllymäki (2007) and the Shimazaki–Shinomoto (2007) bin-count choice, and the
per-variable models built on them.

MDL histogram (elovaara2008 §4.1, eqs. 11–16; Kontkanen & Myllymäki, AISTATS 2007)
-------------------------------------------------------------------------------------
The data x_1..x_n are pre-discretised at ε = min |x_i − x_j| / 2 over x_i ≠ x_j (eq. 16). A
histogram with cut points C has K bins on [x_min − ε/2, x_max + ε/2], counts h_k and lengths L_k;
its NML stochastic complexity is (eqs. 14–15)

    SC(x | C) = −Σ_k h_k [log(ε h_k) − log(L_k n)] + log R(K, n),

R(K, n) the parametric complexity of a K-valued multinomial (eqs. 12–13, Kontkanen & Myllymäki
2007b):

    R(1, n) = 1,  R(2, n) = Σ_{h=0..n} binom(n, h) (h/n)^h ((n−h)/n)^(n−h),
    R(K, n) = R(K−1, n) + n/(K−2) · R(K−2, n)   (K > 2).

Candidate cuts. Eq. 11's grid x_min + ε/2 + tε cuts [x_min − ε/2, x_max + ε/2] into cells of
width ε; it holds (x_max − x_min)/ε points, unbounded in n (one close pair makes it huge). Moving
a cut across grid cells that hold no data changes only the lengths L_a + L_b = const of its two
bins, and h_a log L_a + h_b log L_b is concave in the cut's position, so an optimal cut sits at
an end of the empty stretch: at the upper end of the cell of x_j or the lower end of the cell of
x_{j+1}, two consecutive *distinct* values (Kontkanen & Myllymäki's x_j ± ε/2 when values sit at
cell centres). Runs of equal values are merged first, so a column with V distinct values has
E = 2(V − 1) candidates, however large n and the grid: the bound is exact (tested against an
exhaustive search over every subset of the grid).

Exact dynamic programme. With candidates c_0 < … < c_{E+1} (c_0, c_{E+1} the two ends), H_p the
number of values below c_p, w(t, p) = h log(L / h) for the bin (c_t, c_p] (h = H_p − H_t,
L = c_p − c_t; 0 when h = 0) and the constant n log(n/ε) taken out:

    F_1(p) = w(0, p),   F_K(p) = min_{t<p} F_{K−1}(t) + w(t, p),
    SC(K) = F_K(E+1) + n log(n/ε) + log R(K, n)  [+ log binom(E_grid, K−1)].

Pruning that keeps it exact: f(h, L) = h log(L/h) is jointly concave and positively homogeneous,
hence superadditive, w(t, T) ≥ w(t, p) + w(p, T) for t < p < T (splitting a bin never costs
code length). So once F_{K−1}(t) + w(t, p) ≥ F_{K−1}(p), the candidate t is beaten by p as the
last cut for every later T (F_{K−1}(t) + w(t, T) ≥ F_{K−1}(p) + w(p, T)) and is dropped from
layer K (the inequality pruning of PELT, Killick et al. 2012, applied within each layer of the
fixed-K programme).

Which layers are needed. The optimum over K may have many bins (on unrounded data, where ε is
tiny, it is the finest histogram, K = E + 1), and the layers cost O(K·E·live candidates).
Penalised programmes min_C F(C) + β·K (the same pruning, one pass each) at the marginal
complexities β = log R(K+1, n) − log R(K, n), K = 1, 2, 4, …, refined at the slopes of the open
hull edges (as CROPS, Haynes et al. 2017), give the lower convex hull of K ↦ F_K(E+1): exact
histograms, and the lower bound F_K ≥ max_β [G(β) − βK] for every K (also F_K ≥ F_∞, the finest
histogram's code length). The layered programme runs only up to the largest K whose bound plus
log R(K, n) is below the best criterion found, and stops early as soon as no larger K can win;
when no K remains the best hull histogram is the proven optimum. Tested equal to the plain
layered programme (``search="layered"``). ``gap`` reports a certified excess when a work budget
cuts the layered part short (never in the tests, benchmark or experiments checked).

The cut-set code log binom(E, K−1), E = the size of eq. 11's grid (Kontkanen & Myllymäki's
description of the cut positions), is an option (``cut_set_code``), off by default: elovaara2008's
criterion (eqs. 14–15), the one reproduced here, has no such term, and with it the criterion
would charge for the positions of a grid that the pre-discretisation ε makes arbitrarily fine.

Shimazaki–Shinomoto (elovaara2008 §4.2; Shimazaki & Shinomoto, Neural Computation 2007)
----------------------------------------------------------------------------------------
N equal bins of width δ = (x_max − x_min)/N on [x_min, x_max], counts θ_i, mean θ̄ and biased
variance v of the counts; choose N minimising C(δ) = (2θ̄ − v)/δ² (the paper's (nδ)² differs by
the constant n²).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy.special import gammaln, logsumexp

from repro.preprocessing.binning import EDGE_TOLERANCE
from repro.preprocessing.variables import Partition, VariableModel

# ---------------------------------------------------------------------------------------------
# Parametric complexity log R(K, n)
# ---------------------------------------------------------------------------------------------


def log_r2(n: int) -> float:
    """log R(2, n) = log Σ_{h=0..n} binom(n, h) (h/n)^h ((n−h)/n)^(n−h) (elovaara2008 eq. 13),
    summed in log space (0 log 0 = 0) in O(n); log R(2, 0) = 0."""
    if n < 0:
        raise ValueError(f"n must be ≥ 0, got {n}")
    if n == 0:
        return 0.0
    h = np.arange(n + 1, dtype=np.float64)
    g = n - h
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = (
            gammaln(n + 1.0)
            - gammaln(h + 1.0)
            - gammaln(g + 1.0)
            + np.where(h > 0, h * np.log(h / n), 0.0)
            + np.where(g > 0, g * np.log(g / n), 0.0)
        )
    return float(logsumexp(terms))


def log_parametric_complexity(k_max: int, n: int) -> np.ndarray:
    """log R(K, n) for K = 1..k_max (index K − 1), by the linear recurrence of elovaara2008
    eq. 12 in ratio form: r_K = R(K)/R(K−1) = 1 + n / ((K − 2) r_{K−1}), log R(K) = log R(K−1) +
    log r_K, stable for n up to 10⁶ and K up to 10³ (no R is ever formed). O(n + k_max)."""
    if k_max < 1:
        raise ValueError(f"k_max must be ≥ 1, got {k_max}")
    out = np.zeros(k_max)
    if k_max == 1 or n == 0:
        return out
    out[1] = log_r2(n)
    _ratio_recurrence(out, float(n))
    return out


@njit(cache=True)
def _ratio_recurrence(out, n):
    """Fill out[K − 1] = log R(K, n), K ≥ 3, from out[1] = log R(2, n) (see above)."""
    ratio = math.exp(out[1])  # R(2)/R(1); R(2, n) ≤ √(πn/2) + 1 stays small
    for k in range(3, out.size + 1):
        ratio = 1.0 + n / ((k - 2) * ratio)
        out[k - 1] = out[k - 2] + math.log(ratio)


# ---------------------------------------------------------------------------------------------
# MDL histogram
# ---------------------------------------------------------------------------------------------


def prediscretisation_epsilon(values: np.ndarray) -> float:
    """ε = min |x_i − x_j| / 2 over distinct values (elovaara2008 eq. 16); NaN when fewer than two
    distinct values."""
    v = np.unique(np.asarray(values, dtype=np.float64))
    v = v[~np.isnan(v)]
    if v.size < 2:
        return float("nan")
    return float(np.min(np.diff(v)) / 2.0)


def grid_cells(values: np.ndarray, eps: float) -> np.ndarray:
    """Index of the pre-discretisation cell of each value: the cells are [a + tε, a + (t+1)ε],
    a = x_min − ε/2, whose inner ends are eq. 11's grid x_min + ε/2 + tε."""
    v = np.asarray(values, dtype=np.float64)
    return np.floor((v - (v[0] - eps / 2.0)) / eps)


def grid_size(values: np.ndarray, eps: float) -> int:
    """E = |C| of elovaara2008 eq. 11, the grid points strictly inside [x_min − ε/2, x_max + ε/2]
    (= (x_max − x_min)/ε when the values sit at cell centres)."""
    return max(int(grid_cells(values, eps)[-1]), 1)


def candidate_cuts(
    values: np.ndarray, counts: np.ndarray, eps: float
) -> tuple[np.ndarray, np.ndarray]:
    """Positions c_0..c_{E+1} and cumulative counts H_p of the candidate cuts.

    ``values``: sorted distinct values v_0 < … < v_{V−1}; ``counts``: their multiplicities. The
    candidates are the two ends of every grid cell that holds a value (:func:`grid_cells`), in
    order: lower(v_0), upper(v_0), lower(v_1), …, upper(v_{V−1}) — the points x_j ± ε/2 when the
    values sit at cell centres (gaps multiple of ε), the grid points next to them otherwise. Two
    distinct values are ≥ 2ε apart, so they never share a cell and the candidates are distinct.
    H_p = number of values below c_p; E = 2(V − 1) interior candidates.
    """
    v = np.asarray(values, dtype=np.float64)
    cum = np.cumsum(np.asarray(counts, dtype=np.int64))
    low = v[0] - eps / 2.0
    cells = grid_cells(v, eps)
    pos = np.empty(2 * v.size)
    pos[0::2] = low + cells * eps
    pos[1::2] = low + (cells + 1.0) * eps
    h = np.empty(2 * v.size, dtype=np.int64)
    h[0] = 0
    h[1::2] = cum
    h[2::2] = cum[:-1]
    return pos, h


@njit(cache=True)
def _bin_cost(h, length):
    """w = h log(L / h) of one bin (0 for an empty bin)."""
    if h == 0:
        return 0.0
    return h * (math.log(length) - math.log(h))


@njit(cache=True)
def _scan(f, alive, n_alive, vals, pos, cum, p, nseg):
    """min over the live candidates t of f[t] + w(t, p) (ties: fewer bins in ``nseg``); stores
    each candidate's value in ``vals``. Returns (value, argmin)."""
    bv = np.inf
    bt = alive[0]
    for i in range(n_alive):
        t = alive[i]
        val = f[t] + _bin_cost(cum[p] - cum[t], pos[p] - pos[t])
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
def _mdl_dp(pos, cum, k_max, log_r, const, bound, best0):
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
    for k in range(2, k_max + 1):
        if bound[k - 1] >= best:
            break  # no histogram with ≥ k bins can beat the best one found
        for p in range(k - 1):
            cur[p] = np.inf
        n_alive = 0
        for p in range(k - 1, m):
            alive[n_alive] = p - 1
            n_alive += 1
            cur[p], back[k - 1, p] = _scan(prev, alive, n_alive, vals, pos, cum, p, no_ties)
            # drop every t beaten by p for all later ends: F_{k-1}(t) + w(t, p) ≥ F_{k-1}(p)
            n_alive = _prune(alive, n_alive, vals, prev[p])
        crit[k - 1] = cur[m - 1] + const + log_r[k - 1]
        if crit[k - 1] < best:
            best = crit[k - 1]
        for p in range(m):
            prev[p] = cur[p]
    return crit, back


@njit(cache=True)
def _penalised_dp(pos, cum, beta):
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
    n_alive = 0
    for p in range(1, m):
        alive[n_alive] = p - 1
        n_alive += 1
        bv, bt = _scan(f, alive, n_alive, vals, pos, cum, p, nseg)
        f[p] = bv + beta
        nseg[p] = nseg[bt] + 1
        last[p] = bt
        # drop every t with F(t) + w(t, p) ≥ F(p): beaten by p for every later end
        n_alive = _prune(alive, n_alive, vals, f[p])
    return f[m - 1], nseg[m - 1], last


@njit(cache=True)
def _cut_path(last, m):
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


#: default budget of the layered programme (layers × candidates, about a second of work)
MAX_WORK = 2e8


@dataclass(frozen=True)
class MDLHistogram:
    """A fitted MDL histogram: ``edges`` (K + 1, increasing), ``counts`` (K), ε, the stochastic
    complexity ``sc`` of the chosen K (nats), ``criterion`` (per K, NaN where not computed) and
    ``gap``: 0 when ``sc`` is the proven optimum, else a certified bound on its excess (nats)."""

    edges: np.ndarray
    counts: np.ndarray
    epsilon: float
    sc: float
    criterion: np.ndarray
    gap: float = 0.0

    @property
    def n_bins(self) -> int:
        return int(self.counts.size)


def _distinct(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64)
    x = x[~np.isnan(x)]
    if x.size == 0:
        raise ValueError("the MDL histogram needs at least one non-missing value")
    if not np.all(np.isfinite(x)):
        raise ValueError("the MDL histogram needs finite values (got ±inf)")
    return np.unique(x, return_counts=True)


def mdl_histogram(
    x: np.ndarray,
    max_bins: int | None = None,
    cut_set_code: bool = False,
    search: str = "hull",
    max_work: float = MAX_WORK,
    max_refinements: int = 64,
) -> MDLHistogram:
    """The MDL-optimal histogram of the values ``x`` (NaN ignored), exactly.

    Parameters
    ----------
    x : array of float
    max_bins : int ≥ 1 or None
        Largest K allowed (None: E + 1, every K).
    cut_set_code : bool, default False
        Add log binom(E, K − 1), E = :func:`grid_size` (off: elovaara2008 eqs. 14–15).
    search : {"hull", "layered"}, default "hull"
        "layered": the plain layered programme over every K (the reference, slow when the
        optimum has many bins); "hull": the same optimum, searched as below.
    max_work : float, default :data:`MAX_WORK`
        Budget of the layered programme, in layers × candidates. When the bound leaves more
        work than this, the best histogram of the convex hull is returned with its certified
        optimality ``gap`` (criterion − lower bound of every other K, nats); otherwise gap = 0
        and the result is the exact optimum.
    max_refinements : int, default 64
        Rounds of hull refinement (a penalised programme at the slope of each open hull edge,
        as CROPS, Haynes et al. 2017) before the layered programme.

    Search: penalised programmes min_C F(C) + β·K (:func:`_penalised_dp`) at the marginal
    complexities β = log R(K+1, n) − log R(K, n) of K = 1, 2, 4, … give exact histograms (the
    points of the lower convex hull of K ↦ F_K) and lower bounds F_K ≥ G(β) − βK for every K;
    the layered programme (:func:`_mdl_dp`) then runs only up to the largest K whose bound
    log R(K, n) + max_β [G(β) − βK] is below the best criterion found. When the optimum is a
    hull point (e.g. the finest histogram of unrounded continuous data, where ε is tiny) no layer
    is needed. A single distinct value gives one bin of width 1 centred on it (ε undefined).
    """
    if max_bins is not None and (isinstance(max_bins, bool) or int(max_bins) < 1):
        raise ValueError(f"max_bins must be an integer ≥ 1 or None, got {max_bins!r}")
    if search not in ("hull", "layered"):
        raise ValueError(f"search must be one of ['hull', 'layered'], got {search!r}")
    values, counts = _distinct(x)
    n = int(counts.sum())
    if values.size == 1:
        edges = np.array([values[0] - 0.5, values[0] + 0.5])
        return MDLHistogram(edges, counts.astype(np.int64), float("nan"), 0.0, np.zeros(1))
    eps = float(np.min(np.diff(values)) / 2.0)
    pos, cum = candidate_cuts(values, counts, eps)
    m = pos.size
    k_cap = m - 1 if max_bins is None else min(int(max_bins), m - 1)
    log_r = log_parametric_complexity(m - 1, n)
    if cut_set_code:
        e = grid_size(values, eps)
        k = np.arange(m - 1, dtype=np.float64)
        with np.errstate(invalid="ignore"):
            code = gammaln(e + 1.0) - gammaln(k + 1.0) - gammaln(e - k + 1.0)
        log_r = log_r + np.where(k <= e, code, np.inf)
    const = n * math.log(n / eps)
    ks = np.arange(1, m)
    floor = float(np.sum(counts * (math.log(eps) - np.log(counts))))  # the finest histogram
    lower = np.full(m - 1, floor)  # F_K ≥ lower[K − 1]
    best, best_idx = np.inf, None
    hull: dict[int, float] = {}

    def penalised(beta):
        nonlocal best, best_idx, lower
        g, k_beta, last = _penalised_dp(pos, cum, beta)
        k_beta = int(k_beta)
        f_k = g - beta * k_beta
        hull[k_beta] = f_k
        lower = np.maximum(lower, g - beta * ks)
        crit_k = f_k + const + log_r[k_beta - 1]
        if k_beta <= k_cap and crit_k < best:
            best, best_idx = crit_k, _cut_path(last, m)  # compiled: m can be 10⁶
        return k_beta

    if search == "hull":
        for k in sorted({min(2**i, m - 2) for i in range(int(math.log2(m)) + 2)} - {0}):
            penalised(float(log_r[k] - log_r[k - 1]))  # the marginal complexity of bin k + 1
        edges_done: set[tuple[int, int]] = set()
        for _ in range(max_refinements):  # refine the hull where the bound is below the best
            total = lower + const + log_r
            open_edges = []
            points = sorted(hull)
            for ka, kb in zip(points[:-1], points[1:]):
                if (ka, kb) not in edges_done and np.any(total[ka : kb - 1] < best):
                    open_edges.append((ka, kb))
            if not open_edges:
                break
            for ka, kb in open_edges:
                k_new = penalised((hull[ka] - hull[kb]) / (kb - ka))
                if k_new in (ka, kb):
                    edges_done.add((ka, kb))
    total = (lower + const + log_r)[:k_cap]
    bound = np.minimum.accumulate(total[::-1])[::-1]  # ≤ criterion of every K' ≥ K
    tol = 1e-12 * max(abs(best), 1.0) if np.isfinite(best) else 0.0
    need = np.flatnonzero(total < best - tol)
    crit = np.full(k_cap, np.nan)
    gap = 0.0
    if need.size and (search == "layered" or (int(need[-1]) + 1) * m <= max_work):
        k_max = int(need[-1]) + 1
        crit_dp, back = _mdl_dp(pos, cum, k_max, log_r, const, bound, best)
        crit[:k_max] = crit_dp
        k_dp = int(np.nanargmin(crit_dp)) + 1
        if crit_dp[k_dp - 1] < best:
            best = float(crit_dp[k_dp - 1])
            idx = [m - 1]
            for k in range(k_dp, 1, -1):
                idx.append(int(back[k - 1, idx[-1]]))
            idx.append(0)
            best_idx = np.array(idx[::-1])
    elif need.size:
        gap = float(best - total[need].min())
    crit[best_idx.size - 2] = best
    edges, hist = pos[best_idx], np.diff(cum[best_idx])
    if cut_set_code and max_bins is None:
        edges, hist, best = _more_cuts_than_candidates(values, counts, eps, edges, hist, best)
    return MDLHistogram(
        edges=edges,
        counts=hist,
        epsilon=eps,
        sc=float(best),
        criterion=crit,
        gap=gap,
    )


def _more_cuts_than_candidates(values, counts, eps, edges, hist, best):
    """With the cut-set code, histograms with more bins than the candidates allow can win:
    log binom(E, K − 1) falls again once K − 1 > E/2. Extra cuts can only split empty stretches,
    so their likelihood term is the finest histogram's; the best such K is checked in closed
    form and, when it wins, its extra cuts are put at free grid points of the empty stretches."""
    n = int(counts.sum())
    e = grid_size(values, eps)
    k_min = 2 * values.size  # more bins than the 2V − 1 of the finest candidate histogram
    if k_min > e + 1:
        return edges, hist, best
    k = np.arange(k_min, e + 2)
    log_r = log_parametric_complexity(e + 1, n)[k_min - 1 :]
    code = gammaln(e + 1.0) - gammaln(k.astype(float)) - gammaln(e - k + 2.0)
    floor = float(np.sum(counts * (math.log(eps) - np.log(counts))))
    total = floor + n * math.log(n / eps) + log_r + code
    i = int(np.argmin(total))
    if total[i] >= best:
        return edges, hist, best
    low = values[0] - eps / 2.0
    grid = low + eps * np.arange(e + 2)
    finest = np.unique(
        np.r_[low + grid_cells(values, eps) * eps, low + (grid_cells(values, eps) + 1) * eps]
    )
    free = np.setdiff1d(grid[1:-1], finest)
    new = np.sort(np.r_[finest, free[: int(k[i]) - (finest.size - 1)]])
    h = np.bincount(np.searchsorted(new[1:-1], values, side="right"), counts, new.size - 1)
    return new, h.astype(np.int64), float(total[i])


def stochastic_complexity(
    x: np.ndarray, edges: np.ndarray, eps: float, cut_set_code: bool = False
) -> float:
    """SC of elovaara2008 eq. 15 for the histogram with ``edges`` (K + 1 increasing, covering
    the values) of the values ``x`` at pre-discretisation ``eps`` (a direct evaluation, the
    oracle of the dynamic programme)."""
    x = np.asarray(x, dtype=np.float64)
    x = x[~np.isnan(x)]
    n = x.size
    edges = np.asarray(edges, dtype=np.float64)
    k = edges.size - 1
    h = np.bincount(np.searchsorted(edges[1:-1], x, side="right"), minlength=k)
    length = np.diff(edges)
    nz = h > 0
    sc = -np.sum(h[nz] * (np.log(eps * h[nz]) - np.log(length[nz] * n)))
    sc += log_parametric_complexity(k, n)[-1]
    if cut_set_code:
        v = np.unique(x)
        e = grid_size(v, eps)
        sc += gammaln(e + 1.0) - gammaln(k) - gammaln(e - k + 2.0)
    return float(sc)


# ---------------------------------------------------------------------------------------------
# Shimazaki–Shinomoto
# ---------------------------------------------------------------------------------------------


def shimazaki_cost(x: np.ndarray, n_bins: int) -> float:
    """C(δ) = (2θ̄ − v)/δ² for ``n_bins`` equal bins on [min, max] (biased variance v of the bin
    counts; δ = (max − min)/n_bins). Values equal to max fall in the last bin."""
    x = np.asarray(x, dtype=np.float64)
    x = x[~np.isnan(x)]
    lo, hi = float(x.min()), float(x.max())
    delta = (hi - lo) / n_bins
    if delta <= 0:
        raise ValueError("Shimazaki's cost needs at least two distinct values")
    counts = _equal_width_counts(np.sort(x), lo, delta, n_bins)
    return float((2.0 * counts.mean() - counts.var()) / delta**2)


@njit(cache=True)
def _equal_width_counts(sorted_x, lo, delta, n_bins):
    """Counts of the bins of :func:`~repro.preprocessing.binning.equal_width_bins` (same rule,
    compiled for the scan over bin numbers)."""
    counts = np.zeros(n_bins)
    for v in sorted_x:
        b = int(math.floor((v - lo) / delta + EDGE_TOLERANCE))
        if b >= n_bins:
            b = n_bins - 1
        elif b < 0:
            b = 0
        counts[b] += 1.0
    return counts


@njit(cache=True)
def _shimazaki_scan(sorted_x, lo, span, n_max):
    best_n, best_c = 1, np.inf
    for nb in range(1, n_max + 1):
        delta = span / nb
        counts = _equal_width_counts(sorted_x, lo, delta, nb)
        mean = counts.mean()
        var = 0.0
        for c in counts:
            var += (c - mean) * (c - mean)
        var /= nb
        cost = (2.0 * mean - var) * nb * nb  # C(δ)·span², δ = span/nb: no overflow at any scale
        if cost < best_c:
            best_c, best_n = cost, nb
    return best_n


def shimazaki_bins(x: np.ndarray, max_bins: int = 200) -> int:
    """The N ∈ 1..N_max minimising :func:`shimazaki_cost`, N_max = min(``max_bins``, n,
    ⌈(max − min)/min gap⌉ + 1).

    The cost has no minimum for values on a lattice (it falls without bound once bins are finer
    than the lattice step, each bin holding one value or none), so bins are not made finer than
    the smallest gap between distinct values: at most one bin per point of the lattice (values
    0..15: 16 bins of width 15/16, one value each; binary values: 2 bins), and at most
    ``max_bins``. 1 bin for fewer than two distinct values.
    """
    x = np.sort(np.asarray(x, dtype=np.float64)[~np.isnan(x)])
    v = np.unique(x)
    if v.size < 2:
        return 1
    span = float(v[-1] - v[0])
    resolution = math.ceil(span / float(np.min(np.diff(v))) - 1e-9) + 1  # lattice points
    n_max = max(1, min(int(max_bins), x.size, resolution))
    return int(_shimazaki_scan(x, float(v[0]), span, n_max))


# ---------------------------------------------------------------------------------------------
# Per-variable models
# ---------------------------------------------------------------------------------------------
#: histogram builders of :class:`HistogramDensityModel`
HISTOGRAMS = ("mdl", "shimazaki")


def histogram_edges(x: np.ndarray, kind: str, max_bins, cut_set_code: bool = False) -> np.ndarray:
    """Bin edges of the ``kind`` histogram of the values ``x`` (≥ 2 distinct values)."""
    if kind == "mdl":
        return mdl_histogram(x, max_bins, cut_set_code).edges
    n_bins = shimazaki_bins(x, max_bins)
    return np.linspace(np.min(x), np.max(x), n_bins + 1)


class HistogramDensityModel(VariableModel):
    """Per-class histogram density of a numeric variable (MDLh and Shimazaki of elovaara2008).

    For class j, the ``kind`` histogram of its training values; Laplace masses
    (h_k + 1)/(n_j + K_j) (elovaara2008 §4.2: every bin count incremented by one), density =
    mass / L_k, so that no bin inside the range has density zero. A class with one distinct value
    gets one bin centred on it with the width 2ε of the whole column (the smallest gap between
    its distinct values; 1 for a constant column); a class without values a uniform density over
    the column's range. Missing values carry no information (zero row), and a constant column is
    not informative.

    ``out_of_range``, for a value outside the class's histogram [e_0, e_K]:
    "edge": the density of the nearest edge bin (SPEC §3.5's rule for EWB-10, whose edge bins
    are a tenth of the range); "tail": the value falls in an empty bin, one Laplace pseudo-count
    spread over the histogram's length, 1/((n_j + K_j)(e_K − e_0)), never zero and never above the
    density of a bin inside. An MDL histogram's edge bin is often one ε-wide cell around the
    extreme value (ε = half the smallest gap), so "edge" would give values beyond the range the
    highest density of all: "tail" is the rule for MDLh.
    """

    def __init__(
        self,
        kind: str = "mdl",
        max_bins=None,
        cut_set_code: bool = False,
        out_of_range: str = "tail",
    ):
        self.kind = kind
        self.max_bins = max_bins
        self.cut_set_code = cut_set_code
        self.out_of_range = out_of_range

    def fit(self, x, y, n_classes):
        observed = ~np.isnan(x)
        xo, yo = x[observed], np.asarray(y)[observed]
        distinct = np.unique(xo)
        width = float(np.min(np.diff(distinct))) if distinct.size > 1 else 1.0
        self.edges_, self.log_density_ = [], []
        self.log_tail_ = np.zeros(n_classes)
        for j in range(n_classes):
            v = xo[yo == j]
            vals = np.unique(v)
            if vals.size >= 2:
                edges = histogram_edges(v, self.kind, self.max_bins, self.cut_set_code)
            elif vals.size == 1:
                edges = np.array([vals[0] - width / 2, vals[0] + width / 2])
            elif distinct.size:
                edges = np.array([distinct[0] - width / 2, distinct[-1] + width / 2])
            else:
                edges = np.array([0.0, 1.0])
            k = edges.size - 1
            counts = np.bincount(self._bins(v, edges), minlength=k).astype(np.float64)
            mass = (counts + 1.0) / (v.size + k)
            self.edges_.append(edges)
            self.log_density_.append(np.log(mass) - np.log(np.diff(edges)))
            self.log_tail_[j] = -np.log(v.size + k) - np.log(edges[-1] - edges[0])
        self.informative_ = distinct.size > 1
        return self

    @staticmethod
    def _bins(v, edges):
        """Bin of each value; a value within EDGE_TOLERANCE of a bin width below an inner edge
        belongs to the bin the edge opens (Shimazaki's equal bins: as the scan counted them)."""
        inner = edges[1:-1] - EDGE_TOLERANCE * np.diff(edges)[1:]
        return np.searchsorted(inner, v, side="right")

    @property
    def n_bins_(self) -> np.ndarray:
        return np.array([e.size - 1 for e in self.edges_])

    def log_likelihood(self, x):
        ll = np.zeros((x.size, len(self.edges_)))
        if not self.informative_:
            return ll
        observed = ~np.isnan(x)
        xo = x[observed]
        for j, (edges, logd) in enumerate(zip(self.edges_, self.log_density_)):
            col = logd[self._bins(xo, edges)]
            if self.out_of_range == "tail":
                col[(xo < edges[0]) | (xo > edges[-1])] = self.log_tail_[j]
            ll[observed, j] = col
        return ll


class MDLPartition(Partition):
    """The bins of the MDL histogram of a whole column as a discretization (MDLg of elovaara2008
    §4.1): a value goes to the bin that holds it; values beyond the histogram's ends go to the
    edge bins. The cuts lie strictly between distinct training values."""

    def __init__(self, max_bins=None, cut_set_code: bool = False):
        self.max_bins = max_bins
        self.cut_set_code = cut_set_code

    def fit(self, x, y, n_classes):
        xo = x[~np.isnan(x)]
        if np.unique(xo).size < 2:
            self.cuts_ = np.empty(0)
        else:
            self.cuts_ = mdl_histogram(xo, self.max_bins, self.cut_set_code).edges[1:-1]
        self.n_parts_ = self.cuts_.size + 1
        return self

    def transform(self, x):
        codes = np.searchsorted(self.cuts_, x, side="right").astype(np.int64)
        codes[np.isnan(x)] = -1
        return codes


#: how a histogram-based naive Bayes treats nominal columns: as numbers (elovaara2008 §5.1) or
#: with one Laplace-estimated probability per category
NOMINALS = ("numeric", "categorical")


class NumericCodes(VariableModel):
    """A numeric variable model applied to a nominal column's category codes 0..C−1: elovaara2008
    §5.1 gives nominal values "arbitrary non-overlapping numerical values" and handles them as
    numbers. A category unseen at fit time (code −1) carries no information, like a missing
    value."""

    def __init__(self, model: VariableModel):
        self.model = model

    @staticmethod
    def _values(x):
        return np.where(x < 0, np.nan, x)

    def fit(self, x, y, n_classes):
        self.model.fit(self._values(x), y, n_classes)
        self.informative_ = self.model.informative_
        return self

    def log_likelihood(self, x):
        return self.model.log_likelihood(self._values(x))
