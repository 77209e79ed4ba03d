"""Unsupervised discretizations of a numeric variable.

Cut points are sorted; a value v falls in interval i when ``cuts[i-1] < v <= cuts[i]``
(right-closed intervals, as MODL), i.e. ``np.searchsorted(cuts, v, side="left")``.
"""

from __future__ import annotations

import numpy as np


def equal_frequency_cuts(x: np.ndarray, n_bins: int = 10) -> np.ndarray:
    """Cut points of an equal-frequency discretization in at most ``n_bins`` intervals.

    Cuts are placed at the boundaries of the sorted sample of the non-missing values between
    ranks ⌊i·n/n_bins⌋ (i = 1..n_bins−1), halfway between two distinct values; a boundary inside a
    run of equal values moves to the end of the run, so fewer bins come out when values repeat
    (NB(EF) of boulle2007 §7).
    """
    if n_bins < 1:
        raise ValueError(f"n_bins must be ≥ 1, got {n_bins}")
    v = np.sort(np.asarray(x, dtype=np.float64)[~np.isnan(x)])
    n = v.size
    if n == 0 or n_bins == 1:
        return np.empty(0)
    ranks = (np.arange(1, n_bins) * n) // n_bins  # first index of the next bin
    cuts = []
    for r in ranks:
        if r <= 0 or r >= n:
            continue
        # move r to the end of the run of values equal to v[r-1]
        r = np.searchsorted(v, v[r - 1], side="right")
        if r >= n:
            continue
        cut = 0.5 * (v[r - 1] + v[r])
        if not cuts or cut > cuts[-1]:
            cuts.append(cut)
    return np.asarray(cuts)


#: a value within this fraction of a bin width below an equal-width edge belongs to the bin that
#: the edge opens: values on an edge in exact arithmetic (lattice data: iris's 0.1 steps) then go
#: to the same bin whatever the float rounding of (v − lo)/width, at every scale of the data
EDGE_TOLERANCE = 1e-9


def equal_width_bins(v: np.ndarray, lo: float, width: float, n_bins: int) -> np.ndarray:
    """Index 0..n_bins−1 of each value in the equal bins [lo + kw, lo + (k+1)w):
    ⌊(v − lo)/w + :data:`EDGE_TOLERANCE`⌋, clipped (values beyond the range go to the edge bin)."""
    b = np.floor((np.asarray(v, dtype=np.float64) - lo) / width + EDGE_TOLERANCE)
    return np.clip(b, 0, n_bins - 1).astype(np.int64)


def equal_width_edges(x: np.ndarray, n_bins: int = 10) -> np.ndarray:
    """``n_bins + 1`` edges of equal-width bins on [min, max] of the non-missing values."""
    v = np.asarray(x, dtype=np.float64)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return np.linspace(0.0, 1.0, n_bins + 1)
    return np.linspace(v.min(), v.max(), n_bins + 1)


def interval_codes(x: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Interval index 0..len(cuts) of each value (right-closed); −1 for missing values."""
    x = np.asarray(x, dtype=np.float64)
    codes = np.searchsorted(cuts, x, side="left").astype(np.int64)
    codes[np.isnan(x)] = -1
    return codes
