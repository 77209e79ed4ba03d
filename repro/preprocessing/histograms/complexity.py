"""The parametric complexity log R(K, n) of a K-valued multinomial (elovaara2008 eqs. 12–13;
Kontkanen & Myllymäki 2007b), the model-cost term of the MDL histogram's stochastic complexity:

    R(1, n) = 1,  R(2, n) = Σ_{h=0..n} binom(n, h) (h/n)^h ((n−h)/n)^(n−h),
    R(K, n) = R(K−1, n) + n/(K−2) · R(K−2, n)   (K > 2).

For one very large K (far beyond n), the sum of Mononen & Myllymäki (2008),

    R(K, n) = Σ_{k=0..n} n!/((n−k)! n^k) · binom(K + k − 2, k),

costs O(n) whatever K (:func:`log_parametric_complexity_at`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from scipy.special import gammaln, logsumexp


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


def log_parametric_complexity_at(k: int, n: int) -> float:
    """log R(K, n) for one K ≥ 1 by the O(n) sum above (equal to the recurrence, tested), for
    K too large to run the recurrence up to (e.g. the 10¹⁰ cells of a fine grid)."""
    if k < 1:
        raise ValueError(f"K must be ≥ 1, got {k}")
    if k == 1 or n == 0:
        return 0.0
    j = np.arange(n + 1, dtype=np.float64)
    terms = (
        gammaln(n + 1.0)
        - gammaln(n - j + 1.0)
        - j * math.log(n)
        + gammaln(k + j - 1.0)
        - gammaln(j + 1.0)
        - gammaln(k - 1.0)
    )
    return float(logsumexp(terms))


@njit(cache=True)
def _ratio_recurrence(out, n):
    """Fill out[K − 1] = log R(K, n), K ≥ 3, from out[1] = log R(2, n) (see above)."""
    ratio = math.exp(out[1])  # R(2)/R(1); R(2, n) ≤ √(πn/2) + 1 stays small
    for k in range(3, out.size + 1):
        ratio = 1.0 + n / ((k - 2) * ratio)
        out[k - 1] = out[k - 2] + math.log(ratio)
