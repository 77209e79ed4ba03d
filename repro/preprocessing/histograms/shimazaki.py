"""The Shimazaki–Shinomoto choice of the number of equal bins (elovaara2008 §4.2; Shimazaki &
Shinomoto, Neural Computation 2007).

N equal bins of width δ = (x_max − x_min)/N on [x_min, x_max], counts θ_i, mean θ̄ and biased
variance v of the counts; choose N minimising C(δ) = (2θ̄ − v)/δ² (the paper's (nδ)² differs by
the constant n²).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from repro.preprocessing.binning import EDGE_TOLERANCE


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
