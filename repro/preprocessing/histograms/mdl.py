"""The MDL-optimal histogram of elovaara2008 §4.1 (eqs. 11–16; Kontkanen & Myllymäki,
AISTATS 2007), exactly, and its stochastic complexity.

The data x_1..x_n are pre-discretised at ε = min |x_i − x_j| / 2 over x_i ≠ x_j (eq. 16). A
histogram with cut points C has K bins on [x_min − ε/2, x_max + ε/2], counts h_k and lengths L_k;
its NML stochastic complexity is (eqs. 14–15)

    SC(x | C) = −Σ_k h_k [log(ε h_k) − log(L_k n)] + log R(K, n),

R(K, n) the parametric complexity of a K-valued multinomial (eqs. 12–13, :mod:`.complexity`).

Candidate cuts. Eq. 11's grid x_min + ε/2 + tε cuts [x_min − ε/2, x_max + ε/2] into cells of
width ε; it holds (x_max − x_min)/ε points, unbounded in n (one close pair makes it huge). Moving
a cut across grid cells that hold no data changes only the lengths L_a + L_b = const of its two
bins, and h_a log L_a + h_b log L_b is concave in the cut's position, so an optimal cut sits at
an end of the empty stretch: at the upper end of the cell of x_j or the lower end of the cell of
x_{j+1}, two consecutive *distinct* values (Kontkanen & Myllymäki's x_j ± ε/2 when values sit at
cell centres). Runs of equal values are merged first, so a column with V distinct values has
E = 2(V − 1) candidates, however large n and the grid: the bound is exact (tested against an
exhaustive search over every subset of the grid).

The exact dynamic programme over these candidates, and the pruning that keeps it exact, are
those of :mod:`.mdl_kernels`.

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
description of the cut positions), is an option (``cut_set_code``): off here, eqs. 14–15 as
printed; on in the classifiers (MDLh, MDLg), the full criterion of the reference the paper defers
to. On unrounded data E is 10⁸ or more, each cut costs about log E nats and the histogram is
coarse; the penalised programmes then cost O(m²/K) each, so their starting penalties are thinned
(``ladder_tolerance``) and histograms with more bins than candidates are checked in closed form.

A bound on the candidates (``max_candidates``). On smooth unrounded data the optimum has few bins,
the pruning keeps most candidates alive and each programme costs O(E²): 10⁵ distinct values take
minutes. With ``max_candidates`` = B and E > B, the search is restricted to B/2 of the V − 1 gaps
between consecutive distinct values, at the data's quantiles (:func:`quantile_gaps`; the first
and the last gap always kept, so that an extreme value can have its own bin), each with its two
candidates: the exact optimum over the histograms whose cuts are among them, under the same
criterion (ε, the grid E of the cut-set code and n unchanged), so its code length is ≥ the exact
one (within 0.25 % at B = 2048 on 2000 values of seven catalog sets, tested). E ≤ B: the
exact search, unchanged.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from repro.preprocessing.histograms.complexity import (
    log_parametric_complexity,
    log_parametric_complexity_at,
)
from repro.preprocessing.histograms.mdl_kernels import cut_path, mdl_dp, penalised_dp


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


#: the bound of ``max_candidates="auto"`` beyond :data:`AUTO_EXACT_LIMIT`: measured in
#: benchmarks/bench_histograms.py (part 3), nb_mdlh and nb_mdlg on 10⁵ rows × 40 unrounded
#: variables fit in 6 s on 2 cores (the exact search: over 150 s)
MAX_CANDIDATES = 4096
#: ``max_candidates="auto"`` (the classifiers' default) searches exactly while E ≤ this: every
#: data set of the package's experiments (the largest, adult's fnlwgt: V = 28,523, E = 57,044)
#: keeps the paper's exact search and its stored records
AUTO_EXACT_LIMIT = 65536


def resolve_bound(n_exact: int, max_candidates) -> int | None:
    """The bound applied to a histogram of ``n_exact`` = E candidates: ``max_candidates`` as
    given (None: none), and for ``"auto"`` none while E ≤ :data:`AUTO_EXACT_LIMIT`, else
    :data:`MAX_CANDIDATES`."""
    if isinstance(max_candidates, str) and max_candidates == "auto":
        return None if n_exact <= AUTO_EXACT_LIMIT else MAX_CANDIDATES
    return max_candidates


#: default budget of the layered programme (layers × candidates, about a second of work)
MAX_WORK = 2e8


@dataclass(frozen=True)
class MDLHistogram:
    """A fitted MDL histogram: ``edges`` (K + 1, increasing), ``counts`` (K), ε, the stochastic
    complexity ``sc`` of the chosen K (nats), ``criterion`` (per K, NaN where not computed) and
    ``gap``: 0 when ``sc`` is the proven optimum, else a certified bound on its excess (nats).
    ``n_distinct``: V, the distinct values; ``n_candidates``: the interior candidate cuts
    searched (E = 2(V − 1) exactly, fewer when ``bounded``: the ``max_candidates`` bound applied,
    and ``sc`` is then the optimum over those candidates)."""

    edges: np.ndarray
    counts: np.ndarray
    epsilon: float
    sc: float
    criterion: np.ndarray
    gap: float = 0.0
    n_distinct: int = 1
    n_candidates: int = 0
    bounded: bool = False

    @property
    def n_bins(self) -> int:
        return int(self.counts.size)


def quantile_gaps(counts: np.ndarray, n_gaps: int) -> np.ndarray:
    """Indices j (increasing, unique) of at most ``n_gaps`` ≥ 2 of the V − 1 gaps (v_j, v_{j+1})
    between sorted distinct values with multiplicities ``counts``: the first and the last gap,
    and the gaps where the data's quantiles q·n/(n_gaps − 1), q = 1..n_gaps − 2, fall (the
    first gap whose values below hold ≥ that many; ties can merge quantiles, so fewer)."""
    below = np.cumsum(np.asarray(counts, dtype=np.int64))[:-1]  # values ≤ v_j, gap j
    n = float(below[-1] + counts[-1])
    ranks = np.arange(1, n_gaps - 1) * (n / (n_gaps - 1))
    inner = np.minimum(np.searchsorted(below, ranks, side="left"), below.size - 1)
    return np.unique(np.r_[0, inner, below.size - 1])


def bounded_candidates(counts: np.ndarray, max_candidates) -> np.ndarray | None:
    """Indices into :func:`candidate_cuts`' arrays of the candidates searched under the bound
    (:func:`resolve_bound`: an integer, None, or "auto"): None when E = 2(V − 1) ≤ the bound (or
    no bound: every candidate, the exact search); else the two ends and both candidates of each
    of :func:`quantile_gaps` (max_candidates // 2 gaps)."""
    e = 2 * (counts.size - 1)
    max_candidates = resolve_bound(e, max_candidates)
    if max_candidates is None or e <= max_candidates:
        return None
    gaps = quantile_gaps(counts, max(int(max_candidates) // 2, 2))
    idx = np.empty(2 * gaps.size + 2, dtype=np.int64)
    idx[0], idx[-1] = 0, 2 * counts.size - 1
    idx[1:-1:2] = 2 * gaps + 1  # upper end of the cell of v_j
    idx[2:-1:2] = 2 * gaps + 2  # lower end of the cell of v_{j+1}
    return idx


def check_bound(max_candidates) -> None:
    """``max_candidates`` is an integer ≥ 2, "auto" or None (else a ValueError naming it)."""
    if max_candidates is None or (isinstance(max_candidates, str) and max_candidates == "auto"):
        return
    integer = isinstance(max_candidates, numbers.Integral) and not isinstance(max_candidates, bool)
    if not integer or max_candidates < 2:
        raise ValueError(
            f"max_candidates must be an integer ≥ 2, 'auto' or None, got {max_candidates!r}"
        )


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
    ladder_tolerance: float = 4.0,
    max_candidates: int | None = None,
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
    ladder_tolerance : float, default 4.0
        The starting penalties are the marginal complexities of K = 1, 2, 4, …, thinned so that
        no two lie within this many nats (with the cut-set code they crowd around log E, and
        each costs a programme; the refinement then adds the hull points that are needed).
        Only speed depends on it: the result is exact for every value.
    max_candidates : int ≥ 2, "auto" or None, default None
        Bound on the candidate cuts: when E = 2(V − 1) exceeds it, only max_candidates // 2 gaps
        between distinct values, at the data's quantiles, are searched (:func:`bounded_candidates`;
        the result records ``bounded``). None, or E under it: the exact search. "auto": exact
        while E ≤ :data:`AUTO_EXACT_LIMIT`, else :data:`MAX_CANDIDATES`.

    Search: penalised programmes min_C F(C) + β·K (:func:`penalised_dp`) at the marginal
    complexities β = log R(K+1, n) − log R(K, n) of K = 1, 2, 4, … give exact histograms (the
    points of the lower convex hull of K ↦ F_K) and lower bounds F_K ≥ G(β) − βK for every K;
    the layered programme (:func:`mdl_dp`) then runs only up to the largest K whose bound
    log R(K, n) + max_β [G(β) − βK] is below the best criterion found. When the optimum is a
    hull point (e.g. the finest histogram of unrounded continuous data, where ε is tiny) no layer
    is needed. A single distinct value gives one bin of width 1 centred on it (ε undefined).
    """
    if max_bins is not None and (isinstance(max_bins, bool) or int(max_bins) < 1):
        raise ValueError(f"max_bins must be an integer ≥ 1 or None, got {max_bins!r}")
    check_bound(max_candidates)
    if search not in ("hull", "layered"):
        raise ValueError(f"search must be one of ['hull', 'layered'], got {search!r}")
    values, counts = _distinct(x)
    n = int(counts.sum())
    if values.size == 1:
        edges = np.array([values[0] - 0.5, values[0] + 0.5])
        return MDLHistogram(edges, counts.astype(np.int64), float("nan"), 0.0, np.zeros(1))
    eps = float(np.min(np.diff(values)) / 2.0)
    pos, cum = candidate_cuts(values, counts, eps)
    if not np.all(np.diff(pos) > 0):  # the grid's points collide in float64
        raise ValueError(
            f"MDL histogram: the values span [{values[0]:g}, {values[-1]:g}] with gaps down to "
            f"{2 * eps:g}, finer than float64 resolves across that range (grid points of step "
            f"{eps:g} collide); round or rescale the values (or use a histogram of fixed bins, "
            "e.g. nb_ewb10)"
        )
    keep = bounded_candidates(counts, max_candidates)
    if keep is not None:
        pos, cum = pos[keep], cum[keep]
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
        g, k_beta, last = penalised_dp(pos, cum, beta)
        k_beta = int(k_beta)
        f_k = g - beta * k_beta
        hull[k_beta] = f_k
        lower = np.maximum(lower, g - beta * ks)
        crit_k = f_k + const + log_r[k_beta - 1]
        if k_beta <= k_cap and crit_k < best:
            best, best_idx = crit_k, cut_path(last, m)  # compiled: m can be 10⁶
        return k_beta

    if search == "hull":
        ladder = sorted({min(2**i, m - 2) for i in range(int(math.log2(m)) + 2)} - {0})
        betas = np.array([log_r[k] - log_r[k - 1] for k in ladder])  # marginal complexities
        for beta in _spread(betas, ladder_tolerance):
            penalised(float(beta))
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
        crit_dp, back = mdl_dp(pos, cum, k_max, log_r, const, bound, best)
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
        n_distinct=int(values.size),
        n_candidates=m - 2,
        bounded=keep is not None,
    )


#: longest stretch of bin counts K checked one by one by :func:`_more_cuts_than_candidates`
EXACT_STRETCH = 10**6
#: most bins of a histogram built on the grid (its edges: 80 MB); beyond, a clear error
MAX_GRID_BINS = 10**7


def _more_cuts_than_candidates(values, counts, eps, edges, hist, best, stretch=EXACT_STRETCH):
    """With the cut-set code, histograms with more bins than the candidates allow can win:
    log binom(E, K − 1) falls again once K − 1 > E/2. Extra cuts can only split empty stretches,
    so their likelihood term is the finest histogram's and their criterion is

        floor + n log(n/ε) + log R(K, n) + log binom(E, K − 1),   2V ≤ K ≤ E + 1.

    Up to ``stretch`` values of K it is checked one by one; beyond (unrounded data, where E is
    10⁸ or more) only at the two ends: log R(K, n) and log binom(E, K − 1) are both concave in K
    (the ratio R(K)/R(K − 1) falls with K; tested), so their sum is lowest at an end of the
    stretch, and log R(E + 1, n) comes from the O(n) sum. When such a K wins, its extra cuts are
    put at free grid points of the empty stretches."""
    n = int(counts.sum())
    e = grid_size(values, eps)
    k_min = 2 * values.size  # more bins than the 2V − 1 of the finest candidate histogram
    if k_min > e + 1:
        return edges, hist, best
    floor = float(np.sum(counts * (math.log(eps) - np.log(counts)))) + n * math.log(n / eps)
    if e + 2 - k_min <= stretch:
        k = np.arange(k_min, e + 2)
        log_r = log_parametric_complexity(e + 1, n)[k_min - 1 :]
    else:
        k = np.array([k_min, e + 1])
        log_r = np.array(
            [log_parametric_complexity(k_min, n)[-1], log_parametric_complexity_at(e + 1, n)]
        )
    # in floats: E of a wide range with tiny gaps is beyond int64 (a Python int here)
    kf, ef = k.astype(float), float(e)
    code = gammaln(ef + 1.0) - gammaln(kf) - gammaln(ef - kf + 2.0)
    total = floor + log_r + code
    i = int(np.argmin(total))
    if total[i] >= best:
        return edges, hist, best
    if k[i] > MAX_GRID_BINS:
        raise ValueError(
            f"the MDL histogram with the cut-set code has {int(k[i])} bins (every point of a grid"
            f" of step {eps:g}): too many to build; round the values or set cut_set_code=False"
        )
    low = values[0] - eps / 2.0
    grid = low + eps * np.arange(e + 2)
    finest = np.unique(
        np.r_[low + grid_cells(values, eps) * eps, low + (grid_cells(values, eps) + 1) * eps]
    )
    free = np.setdiff1d(grid[1:-1], finest)
    new = np.sort(np.r_[finest, free[: int(k[i]) - (finest.size - 1)]])
    h = np.bincount(np.searchsorted(new[1:-1], values, side="right"), counts, new.size - 1)
    return new, h.astype(np.int64), float(total[i])


def _spread(betas: np.ndarray, tolerance: float) -> list[float]:
    """The penalties ``betas`` thinned, largest first, so that no two kept lie within
    ``tolerance`` of each other (the smallest is always kept)."""
    kept: list[float] = []
    for beta in sorted(betas, reverse=True):
        if not kept or kept[-1] - beta > tolerance:
            kept.append(float(beta))
    smallest = float(np.min(betas))
    if kept[-1] != smallest:
        kept.append(smallest)
    return kept


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
