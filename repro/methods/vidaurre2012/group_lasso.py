"""The L1/L2 (group-lasso) regularised naive Bayes along the interpolation path (vidaurre2012 §3).

Knows no estimator. The objective of eq. (8)/(9), and its adaptive form (§3.2), is

    −log L(D; Ω) + λ Σ_i s_i·‖Ω_i − Ω_i^(0)‖₂

with s_i = 1 (L1/L2-NB) or s_i = 1/‖Ω_i^(1) − Ω_i^(0)‖₂ (adaptive aL1/L2-NB). The joint
likelihood of naive Bayes factorises, log L = Σ_r log π_{y_r} + Σ_i ℓ_i(Ω_i), so the problem is
separable per predictor. Following the paper ("we update Θ_i toward Θ_i^(1) … This is just a
line-search", §3.2), Ω_i is restricted to the segment Ω_i(α) = αΩ_i^(1) + (1 − α)Ω_i^(0), on which
‖Ω_i(α) − Ω_i^(0)‖₂ = α·‖Ω_i^(1) − Ω_i^(0)‖₂ =: α·c_i, and each predictor solves

    α_i(λ) = argmin_{α ∈ [0,1]} g_i(α),   g_i(α) = −ℓ_i(α) + λ·w_i·α,   w_i = s_i·c_i      (*)

(w_i = c_i for L1/L2-NB, w_i = 1 for the adaptive form), with ℓ_i(α) = Σ_r log P(x_ri | y_r; Ω_i(α))
(:meth:`repro.preprocessing.interpolation.InterpolatedModel.loglik`).

Exclusion threshold. α_i(λ) = 0 iff g_i(α) ≥ g_i(0) for every α ∈ (0, 1], i.e. iff
λ·w_i ≥ r_i(α) := (ℓ_i(α) − ℓ_i(0))/α for every α, so

    λ_i* = sup_{α ∈ (0,1]} r_i(α) / w_i,     and  r_i(0+) = ℓ_i'(0)                      (**)

For λ > λ_i* the predictor is out (α_i = 0), for λ < λ_i* it is in (α_i > 0). When ℓ_i is concave
in α, r_i decreases and the supremum is the limit at 0: λ_i* = ℓ_i'(0)/w_i. That is always the
case for a table (ℓ_i = Σ n_kj log(affine in α) is concave), where

    ℓ_i'(0) = Σ_kj n_kj (θ^(1)_kj − θ^(0)_k)/θ^(0)_k,

which with the MLE (θ^(1)_kj = n_kj/N_j, θ^(0)_k = n_k/N) is N·Σ_kj n_kj²/(N_j·n_k) − N,
Pearson's χ² statistic of the predictor's contingency table: the adaptive threshold is χ², the
plain one χ²/‖θ^(1) − θ^(0)‖₂, and a predictor with little association (small χ²) leaves first.
For a Gaussian, ℓ_i need not be concave (−log σ(α) is convex in α) and λ_i* is the supremum
(**): the larger of the limit at 0 and the best ratio on the line-search grid, refined by a
golden-section search (exact when the supremum is the limit at 0, as in the mean-shift case
σ_j^(1) = σ^(0)). The line search below is global on [0, 1] (up to its grid), so threshold and
solution agree.

Every predictor of a kind is handled at once (:mod:`repro.methods.vidaurre2012.stacked`: the
grid, the root search and the scores of the path are numpy expressions over all (predictor, λ)
pairs), so that a table of 5000 predictors takes seconds, not a Python call per predictor and λ.

- :func:`line_search`: (*) for several λ at once (:func:`line_search_stack`: many predictors);
- :func:`exclusion_threshold`: (**) (:func:`exclusion_thresholds`: many predictors);
- :func:`lambda_grid`: the λ grid, from max_i λ_i* (every predictor out) down geometrically, then 0;
- :func:`group_lasso_path`: α(λ) on the grid, its training error, log-loss and AIC (§6), the
  λ with minimal AIC.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from repro.methods.vidaurre2012.stacked import Stack, stacks
from repro.methods.vidaurre2012.stagewise import aic, errors_and_nll

#: points of the line-search grid on [0, 1] (local minima are bracketed on it, then refined)
LINE_SEARCH_GRID = 100
#: local minima of g whose values differ by less than this (relative) tie: the smaller α wins
G_TIE_TOLERANCE = 1e-10


class PathObjective(Protocol):
    """ℓ(α) and ℓ'(α) of a predictor along the interpolation path, vectorised over α."""

    def loglik(self, alphas) -> np.ndarray: ...

    def dloglik(self, alphas) -> np.ndarray: ...


def _grid(n_grid: int) -> np.ndarray:
    return np.linspace(0.0, 1.0, n_grid + 1)


#: the roots of g' are found to this width of their bracket
ROOT_TOLERANCE = 1e-14
#: at most this many steps of the root search (bisection alone needs 40 from a grid interval)
ROOT_STEPS = 100
#: golden-section steps of the best ratio around its grid maximum (width 2/grid → < 1e-13)
RATIO_STEPS = 60


def line_search(objective: PathObjective, penalties, n_grid: int = LINE_SEARCH_GRID) -> np.ndarray:
    """α minimising g(α) = −ℓ(α) + c·α on [0, 1] for each penalty slope c (eq. * above).

    g' = −ℓ' + c is evaluated on a grid of ``n_grid`` intervals; the local minima are α = 0 when
    g'(0) ≥ 0, α = 1 when g'(1) ≤ 0, and a root of g' (bisection, to 1e-15) in each interval
    where g' goes from < 0 to ≥ 0. The one with the lowest g wins, the smallest α on ties
    (within :data:`G_TIE_TOLERANCE`, relative), so that a flat objective gives α = 0. α = 0 is a
    candidate only when g'(0) ≥ 0: just below the exclusion threshold the answer is > 0 however
    small the gain. For a concave ℓ (a table) g is convex and this is exact.
    """
    penalties = np.atleast_1d(np.asarray(penalties, dtype=np.float64))
    (stack,) = stacks([objective])
    return line_search_stack(stack, np.zeros(1, np.int64), penalties[None, :], n_grid)[0]


def line_search_stack(stack: Stack, v, penalties, n_grid: int = LINE_SEARCH_GRID) -> np.ndarray:
    """:func:`line_search` for the predictors ``v`` of a stack at once: ``penalties`` (V × L),
    one row of slopes per predictor; returns α (V × L). Blocks of predictors, each in a few
    numpy expressions over all its (predictor, slope, grid interval) triples."""
    v = np.asarray(v, dtype=np.int64)
    penalties = np.asarray(penalties, dtype=np.float64).reshape(v.size, -1)
    out = np.zeros(penalties.shape)
    width = max(1, (BLOCK_PAIRS // max(1, penalties.shape[1] * (n_grid + 1))))
    for b0 in range(0, v.size, width):
        out[b0 : b0 + width] = _line_search_block(
            stack, v[b0 : b0 + width], penalties[b0 : b0 + width], n_grid
        )
    return out


#: at most this many (predictor, slope, grid point) triples in one block of the line search
BLOCK_PAIRS = 2**21


def _line_search_block(stack, v, c, n_grid):
    n_v, n_c = c.shape
    grid = _grid(n_grid)
    dll = stack.dloglik(np.repeat(v, grid.size), np.tile(grid, v.size)).reshape(n_v, grid.size)
    gp = c[:, :, None] - dll[:, None, :]  # g' (V × L × G)
    pair = np.arange(n_v * n_c).reshape(n_v, n_c)
    # candidates: α = 0, grid points where g' = 0 after < 0, roots inside intervals, α = 1
    cand_pair, cand_alpha = [], []
    at0 = gp[:, :, 0] >= 0
    cand_pair.append(pair[at0])
    cand_alpha.append(np.zeros(int(at0.sum())))
    rising = (gp[:, :, :-1] < 0) & (gp[:, :, 1:] >= 0)
    exact = rising & (gp[:, :, 1:] == 0)
    pv, pl, pk = np.nonzero(exact)
    cand_pair.append(pair[pv, pl])
    cand_alpha.append(grid[pk + 1])
    pv, pl, pk = np.nonzero(rising & ~exact)
    roots = _roots(
        stack, v[pv], c[pv, pl], grid[pk], grid[pk + 1], gp[pv, pl, pk], gp[pv, pl, pk + 1]
    )
    cand_pair.append(pair[pv, pl])
    cand_alpha.append(roots)
    at1 = gp[:, :, -1] <= 0
    cand_pair.append(pair[at1])
    cand_alpha.append(np.ones(int(at1.sum())))
    cand_pair = np.concatenate(cand_pair)
    cand_alpha = np.concatenate(cand_alpha)
    # the lowest g of each pair, the smallest α within the tie tolerance
    n_pairs = n_v * n_c
    g = c.ravel()[cand_pair] * cand_alpha - stack.loglik(v[cand_pair // n_c], cand_alpha)
    g_min = np.full(n_pairs, np.inf)
    np.minimum.at(g_min, cand_pair, g)
    g_top = np.ones(n_pairs)
    np.maximum.at(g_top, cand_pair, np.abs(g))
    tie = G_TIE_TOLERANCE * g_top
    best = np.full(n_pairs, np.inf)
    keep = g <= g_min[cand_pair] + tie[cand_pair]
    np.minimum.at(best, cand_pair[keep], cand_alpha[keep])
    best[~np.isfinite(best)] = 0.0  # no candidate: ℓ' not finite
    return best.reshape(n_v, n_c)


def _roots(stack, owners, slopes, lo, hi, f_lo, f_hi):
    """The root of g'(α) = slope − ℓ'(α) in each bracket [lo, hi] (g'(lo) < 0 ≤ g'(hi)), to
    :data:`ROOT_TOLERANCE`: the Illinois variant of regula falsi (superlinear, a bracket kept),
    all brackets at once, each dropped once converged; bisection for a step that falls out."""
    lo, hi, f_lo, f_hi = lo.copy(), hi.copy(), f_lo.copy(), f_hi.copy()
    out = 0.5 * (lo + hi)
    side = np.zeros(lo.size, dtype=np.int8)  # which end moved last (−1 lo, +1 hi)
    active = np.arange(lo.size)
    for _ in range(ROOT_STEPS):
        if not active.size:
            break
        a, b, fa, fb = lo[active], hi[active], f_lo[active], f_hi[active]
        with np.errstate(all="ignore"):
            x = b - fb * (b - a) / (fb - fa)
        inside = (x > a) & (x < b) & np.isfinite(x)
        x = np.where(inside, x, 0.5 * (a + b))
        fx = slopes[active] - stack.dloglik(owners[active], x)
        up = fx < 0  # the root is above x: x is the new lo
        last = side[active]
        # Illinois: an end kept twice in a row has its value halved
        f_hi[active] = np.where(up, np.where(last == -1, 0.5 * fb, fb), fx)
        f_lo[active] = np.where(up, fx, np.where(last == 1, 0.5 * fa, fa))
        lo[active] = np.where(up, x, a)
        hi[active] = np.where(up, b, x)
        side[active] = np.where(up, -1, 1)
        out[active] = x
        done = (fx == 0) | (hi[active] - lo[active] <= ROOT_TOLERANCE)
        active = active[~done]
    return out


def exclusion_threshold(
    objective: PathObjective, weight: float, n_grid: int = LINE_SEARCH_GRID
) -> float:
    """λ* above which the predictor gets α = 0 (eq. ** above), clipped at 0.

    sup_{α ∈ (0,1]} (ℓ(α) − ℓ(0))/α / w: the larger of the limit at 0, ℓ'(0), and the maximum of
    the ratio on the line-search grid refined by a golden-section search around it (to 1e-13);
    ℓ'(0)/w when ℓ is concave. ``weight`` = w (> 0): ‖Ω^(1) − Ω^(0)‖₂ for L1/L2-NB, 1 for the
    adaptive form.
    """
    (stack,) = stacks([objective])
    return float(exclusion_thresholds(stack, np.zeros(1, np.int64), [weight], n_grid)[0])


def exclusion_thresholds(stack: Stack, v, weights, n_grid: int = LINE_SEARCH_GRID) -> np.ndarray:
    """:func:`exclusion_threshold` of the predictors ``v`` of a stack at once."""
    v = np.asarray(v, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    out = np.zeros(v.size)
    width = max(1, BLOCK_PAIRS // (n_grid + 1))
    for b0 in range(0, v.size, width):
        out[b0 : b0 + width] = _thresholds_block(
            stack, v[b0 : b0 + width], weights[b0 : b0 + width], n_grid
        )
    return out


def _thresholds_block(stack, v, weights, n_grid):
    grid = _grid(n_grid)
    inner = grid[1:]
    ll0 = stack.loglik(v, 0.0)
    ll = stack.loglik(np.repeat(v, inner.size), np.tile(inner, v.size)).reshape(v.size, -1)
    ratios = (ll - ll0[:, None]) / inner
    top = ratios.max(axis=1)
    best = np.maximum(stack.dloglik(v, 0.0), top)
    refine = np.flatnonzero(top >= best)  # the grid's best ratio beats the limit at 0
    if refine.size:
        k = np.argmax(ratios[refine], axis=1) + 1  # grid index of the best ratio
        lo = np.maximum(grid[k - 1], 1e-12)
        hi = grid[np.minimum(k + 1, n_grid)]
        owners, base = v[refine], ll0[refine]

        def ratio(a):
            return (stack.loglik(owners, a) - base) / a

        # golden-section search of the largest ratio on [lo, hi]
        inv = (np.sqrt(5.0) - 1.0) / 2.0
        a1, a2 = hi - inv * (hi - lo), lo + inv * (hi - lo)
        r1, r2 = ratio(a1), ratio(a2)
        found = np.maximum(r1, r2)
        for _ in range(RATIO_STEPS):
            left = r1 >= r2  # the maximum lies in [lo, a2]: a2 ← a1, a new a1; else mirrored
            hi = np.where(left, a2, hi)
            lo = np.where(left, lo, a1)
            a1, a2 = (
                np.where(left, hi - inv * (hi - lo), a2),
                np.where(left, a1, lo + inv * (hi - lo)),
            )
            fresh = ratio(np.where(left, a1, a2))
            r1, r2 = np.where(left, fresh, r2), np.where(left, r1, fresh)
            found = np.maximum(found, fresh)
        best[refine] = np.maximum(best[refine], found)
    return np.maximum(0.0, best / weights)


def lambda_grid(lambda_max: float, n_lambdas: int, min_ratio: float) -> np.ndarray:
    """Decreasing λ grid: λ_max·min_ratio^(k/(n−2)), k = 0..n−2, then 0 (n = ``n_lambdas`` ≥ 2).

    λ_max = max_i λ_i* (every predictor out); 0 is the unpenalised end (α_i = argmax ℓ_i). With
    λ_max ≤ 0 no predictor ever enters and the grid is [0].
    """
    if lambda_max <= 0:
        return np.zeros(1)
    head = lambda_max * np.geomspace(1.0, min_ratio, n_lambdas - 1)
    return np.append(head, 0.0)


@dataclass
class GroupLassoResult:
    """Outcome of :func:`group_lasso_path`.

    ``lambdas`` (L,) decreasing; ``alpha_path`` (L × p); ``errors``, ``nll``, ``d``, ``aic``,
    ``penalised`` (Σ_i [−ℓ_i(α_i) + λ w_i α_i], the objective up to the class-prior term), each
    (L,); ``thresholds`` (p,) λ_i* (0 for the variables that are not candidates); ``best``: index
    of the minimal AIC (the largest λ on ties); ``alphas``: α there.
    """

    lambdas: np.ndarray
    alpha_path: np.ndarray
    errors: np.ndarray
    nll: np.ndarray
    d: np.ndarray
    aic: np.ndarray
    penalised: np.ndarray
    thresholds: np.ndarray
    best: int
    alphas: np.ndarray


def group_lasso_path(
    columns: Sequence,
    objectives: Sequence,
    weights,
    log_prior,
    y,
    n_lambdas: int = 50,
    min_ratio: float = 1e-3,
    candidates=None,
) -> GroupLassoResult:
    """The group-lasso NB on a λ grid, λ chosen by AIC (vidaurre2012 §3.2, §6).

    ``columns`` (training columns, as
    :func:`repro.methods.vidaurre2012.stagewise.forward_stagewise`),
    ``objectives`` (ℓ_i and ℓ_i') and ``weights`` (w_i > 0, see the module docstring) per
    variable; only ``candidates`` (default all) may enter, the others keep α = 0. For each λ of
    :func:`lambda_grid` (λ_max = the largest threshold), α_i(λ) = :func:`line_search`; the model
    is scored on the training data and AIC = −(2/N)Σ log P(y|x) + 2d/N, d = #{α_i > 0}.
    """
    y = np.asarray(y, dtype=np.int64)
    p = len(columns)
    candidates = np.arange(p) if candidates is None else np.asarray(candidates, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    groups = stacks(objectives, candidates)  # the candidates by kind, evaluated together
    thresholds = np.zeros(p)
    for stack in groups:
        here = np.arange(stack.members.size)
        thresholds[stack.members] = exclusion_thresholds(stack, here, weights[stack.members])
    lambdas = lambda_grid(float(thresholds.max(initial=0.0)), n_lambdas, min_ratio)
    path = np.zeros((lambdas.size, p))
    penalised = np.zeros(lambdas.size)
    for stack in groups:
        here = np.arange(stack.members.size)
        w = weights[stack.members]
        alphas = line_search_stack(stack, here, w[:, None] * lambdas[None, :])  # (V × L)
        path[:, stack.members] = alphas.T
        ll = stack.loglik(np.repeat(here, lambdas.size), alphas.ravel()).reshape(alphas.shape)
        penalised += (-ll + lambdas[None, :] * w[:, None] * alphas).sum(axis=0)
    log_prior = np.asarray(log_prior, dtype=np.float64)
    rows = []
    for k in range(lambdas.size):
        S = np.repeat(log_prior[None, :], y.size, axis=0)
        for stack in groups:
            stack.add_scores(S, columns, path[k, stack.members])
        errors, nll = errors_and_nll(S, y)
        d = int(np.sum(path[k] > 0))
        rows.append((errors, nll, d, aic(nll, d, y.size), float(penalised[k])))
    errors, nll, d, crit, penalised = (np.asarray(col) for col in zip(*rows))
    best = int(np.argmin(crit))
    return GroupLassoResult(
        lambdas, path, errors, nll, d, crit, penalised, thresholds, best, path[best].copy()
    )
