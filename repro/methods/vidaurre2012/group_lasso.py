"""The L1/L2 (group-lasso) regularised naive Bayes along the interpolation path (vidaurre2012 §3).

Knows no estimator. The objective of eq. (8)/(9), and its adaptive form (§3.2), is

    −log L(D; Ω) + λ Σ_i s_i·‖Ω_i − Ω_i^(0)‖₂

with s_i = 1 (L1/L2-NB) or s_i = 1/‖Ω_i^(1) − Ω_i^(0)‖₂ (adaptive aL1/L2-NB, SPEC §4.7). The joint
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
bounded Brent search (exact when the supremum is the limit at 0, as in the mean-shift case
σ_j^(1) = σ^(0)). The line search below is global on [0, 1] (up to its grid), so threshold and
solution agree.

- :func:`line_search`: (*) for several λ at once;
- :func:`exclusion_threshold`: (**);
- :func:`lambda_grid`: the λ grid, from max_i λ_i* (every predictor out) down geometrically, then 0;
- :func:`group_lasso_path`: α(λ) on the grid, its training error, log-loss and AIC (§6), the
  λ with minimal AIC.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from repro.methods.vidaurre2012.stagewise import aic, errors_and_nll, interpolated_scores

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


def line_search(objective: PathObjective, penalties, n_grid: int = LINE_SEARCH_GRID) -> np.ndarray:
    """α minimising g(α) = −ℓ(α) + c·α on [0, 1] for each penalty slope c (eq. * above).

    g' = −ℓ' + c is evaluated on a grid of ``n_grid`` intervals; the local minima are α = 0 when
    g'(0) ≥ 0, α = 1 when g'(1) ≤ 0, and a root of g' (Brent, to 1e-14) in each interval where
    g' goes from < 0 to ≥ 0. The one with the lowest g wins, the smallest α on ties (within
    :data:`G_TIE_TOLERANCE`, relative), so that a flat objective gives α = 0. α = 0 is a
    candidate only when g'(0) ≥ 0: just below the exclusion threshold the answer is > 0 however
    small the gain. For a concave ℓ (a table) g is convex and this is exact.
    """
    grid = _grid(n_grid)
    dll = objective.dloglik(grid)
    out = []
    for c in np.atleast_1d(np.asarray(penalties, dtype=np.float64)):
        gp = c - dll
        cands = []
        if gp[0] >= 0:
            cands.append(0.0)
        for k in np.flatnonzero((gp[:-1] < 0) & (gp[1:] >= 0)):
            if gp[k + 1] == 0:
                cands.append(float(grid[k + 1]))
                continue

            def slope(a, c=c):
                return c - float(objective.dloglik([a])[0])

            cands.append(brentq(slope, grid[k], grid[k + 1], xtol=1e-14))
        if gp[-1] <= 0:
            cands.append(1.0)
        cands = np.unique(cands) if cands else np.zeros(1)  # (none only if ℓ' is not finite)
        g = c * cands - objective.loglik(cands)
        tie = G_TIE_TOLERANCE * max(1.0, float(np.abs(g).max()))
        out.append(float(cands[np.flatnonzero(g <= g.min() + tie)[0]]))
    return np.asarray(out)


def exclusion_threshold(
    objective: PathObjective, weight: float, n_grid: int = LINE_SEARCH_GRID
) -> float:
    """λ* above which the predictor gets α = 0 (eq. ** above), clipped at 0.

    sup_{α ∈ (0,1]} (ℓ(α) − ℓ(0))/α / w: the larger of the limit at 0, ℓ'(0), and the maximum of
    the ratio on the line-search grid refined by a bounded Brent search around it (to 1e-12);
    ℓ'(0)/w when ℓ is concave. ``weight`` = w (> 0): ‖Ω^(1) − Ω^(0)‖₂ for L1/L2-NB, 1 for the
    adaptive form.
    """
    grid = _grid(n_grid)
    ll0 = float(objective.loglik([0.0])[0])

    def ratio(a):
        return (float(objective.loglik([a])[0]) - ll0) / a

    ratios = (objective.loglik(grid[1:]) - ll0) / grid[1:]
    best = max(float(objective.dloglik([0.0])[0]), float(ratios.max()))
    k = int(np.argmax(ratios)) + 1  # grid index of the best ratio
    if ratios.max() >= best:
        lo, hi = grid[k - 1], grid[min(k + 1, n_grid)]
        found = minimize_scalar(
            lambda a: -ratio(a),
            bounds=(max(lo, 1e-12), hi),
            method="bounded",
            options={"xatol": 1e-12},
        )
        best = max(best, -float(found.fun))
    return max(0.0, best / float(weight))


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
    """The group-lasso NB on a λ grid, λ chosen by AIC (vidaurre2012 §3.2, §6; SPEC §4.7).

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
    thresholds = np.zeros(p)
    for i in candidates:
        thresholds[i] = exclusion_threshold(objectives[i], weights[i])
    lambdas = lambda_grid(float(thresholds.max(initial=0.0)), n_lambdas, min_ratio)
    path = np.zeros((lambdas.size, p))
    for i in candidates:
        path[:, i] = line_search(objectives[i], lambdas * weights[i])
    rows = []
    for k, lam in enumerate(lambdas):
        S = interpolated_scores(columns, log_prior, path[k])
        errors, nll = errors_and_nll(S, y)
        d = int(np.sum(path[k] > 0))
        penalised = sum(
            float(-objectives[i].loglik([path[k, i]])[0]) + lam * weights[i] * path[k, i]
            for i in candidates
        )
        rows.append((errors, nll, d, aic(nll, d, y.size), penalised))
    errors, nll, d, crit, penalised = (np.asarray(col) for col in zip(*rows))
    best = int(np.argmin(crit))
    return GroupLassoResult(
        lambdas, path, errors, nll, d, crit, penalised, thresholds, best, path[best].copy()
    )
