"""MODL discretization as Khiops ≥ 10 implements it (../shared/KHIOPS_NOTES.md §1–§4).

Differences from the 2006 paper: Khiops' costs (:mod:`repro.preprocessing.modl.criteria`:
universal codes for the number of parts, a null/informative bit ln 2, the attribute selection cost
A = ln K) and a granularity g explored from 1 to ⌈log2 N⌉ on equal-frequency partiles
(:func:`discretize_table`). The optimiser is the greedy merge + post-optimisation of
:mod:`repro.preprocessing.modl.paper` with Khiops' tie rules.

Values are read as Khiops reads them: numbers rounded to 10 significant digits
(:func:`to_continuous`, ``KWContinuous::StringToContinuous``), missing values sort first, and the
interval bounds are Khiops' "human readable" means (:func:`human_readable_bound`).

Grouping (``group_values``) is a step-by-step port of Khiops' ``KWGrouperMODL`` in
:mod:`repro.preprocessing.modl.grouping`.
"""

from __future__ import annotations

import math

import numpy as np

from repro.preprocessing.modl import kernels as modl_kernels
from repro.preprocessing.modl.criteria import (
    discretization_partition_costs,
    interval_counts,
    max_granularity,
    part_cost,
)
from repro.preprocessing.modl.paper import integer_counts, optimise_intervals
from repro.preprocessing.modl.rules import EPSILON

# ---------------------------------------------------------------------------------------------
# Reading numbers as Khiops does (KWContinuous.cpp)
# ---------------------------------------------------------------------------------------------
#: the literal powers of ten 1e0..1e309 and 1e-0..1e-309 (as Khiops' tables: exact decimals)
POS10, NEG10 = modl_kernels.POS10, modl_kernels.NEG10
DIGITS = 10


def _exponent(x: np.ndarray) -> np.ndarray:
    """Decimal exponent e with 10^e ≤ x < 10^(e+1) (x > 0), via the literal power table."""
    e = np.floor(np.log10(x)).astype(np.int64)
    e = np.clip(e, -300, 300)
    pw = np.where(e >= 0, POS10[np.clip(e, 0, 309)], NEG10[np.clip(-e, 0, 309)])
    e = np.where(pw > x, e - 1, e)
    pw1 = np.where(e + 1 >= 0, POS10[np.clip(e + 1, 0, 309)], NEG10[np.clip(-(e + 1), 0, 309)])
    return np.where(pw1 <= x, e + 1, e)


def to_continuous(x) -> np.ndarray:
    """Round to 10 significant digits as KWContinuous::DoubleToContinuous (NaN kept)."""
    x = np.asarray(x, dtype=np.float64)
    out = x.copy()
    ok = np.isfinite(x) & (x != 0)
    if not ok.any():
        return out
    v = np.abs(x[ok])
    e = _exponent(v)
    idx = e - DIGITS + 1
    m = np.floor(_times_power10(v, -idx) + 0.5)
    carry = m >= 1e10
    m = np.where(carry, 1e9, m)
    idx = np.where(carry, idx + 1, idx)
    val = _times_power10(m, idx)
    out[ok] = np.where(x[ok] < 0, -val, val)
    return out


def _times_power10(x, k):
    """x·10^k with the literal power table (vectorised over x and k), in two factors when
    |k| > 300, so that 10^k neither overflows to inf nor becomes subnormal for |x| near 1e±300
    (a single factor otherwise, as Khiops: the same bits there)."""
    x = np.asarray(x, dtype=np.float64)
    k = np.asarray(k, dtype=np.int64)
    first = np.clip(k, -300, 300)
    rest = k - first
    out = x * np.where(first >= 0, POS10[np.abs(first)], NEG10[np.abs(first)])
    out = np.where(
        rest == 0, out, out * np.where(rest >= 0, POS10[np.abs(rest)], NEG10[np.abs(rest)])
    )
    return float(out) if out.ndim == 0 else out


def _human_readable(lower: float, upper: float) -> float:
    """KWContinuous::ComputeHumanReadableContinuous: the simplest decimal in [lower, upper]."""
    value = (lower + upper) / 2
    max_delta = (upper - lower) / 2
    if value == 0:
        return 0.0
    pos = abs(value)
    e = int(_exponent(np.array([pos]))[0])
    full = e - DIGITS + 1
    if full >= 0:
        mant = int(pos * NEG10[full] + 0.5)
        new = mant * POS10[full]
        result = new
        while abs(new - pos) < max_delta and full < 200:
            result = new
            mant //= 10
            full += 1
            new = mant * POS10[full]
    else:
        mant = int(_times_power10(pos, -full) + 0.5)
        new = _times_power10(mant, full)
        result = new
        while abs(new - pos) < max_delta and full < 200:
            result = new
            mant //= 10
            full += 1
            new = _times_power10(mant, full)
    if value < 0:
        result = -result
    result = min(max(result, lower), upper)
    return float(to_continuous(np.array([result]))[0])


def human_readable_bounds(lows, highs) -> np.ndarray:
    """:func:`human_readable_bound` of each pair (lows[i], highs[i]), compiled (same values)."""
    return modl_kernels.human_readable_bounds_kernel(
        np.ascontiguousarray(lows, dtype=np.float64),
        np.ascontiguousarray(highs, dtype=np.float64),
    )


def human_readable_bound(a: float, b: float) -> float:
    """Bound between consecutive values a < b (KWContinuous::GetHumanReadableLowerMeanValue)."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return -np.inf
    lo, hi = (a, b) if a <= b else (b, a)
    low_mean = (11 * lo + 9 * hi) / 20
    up_mean = (9 * lo + 11 * hi) / 20
    low_mean = max(low_mean, lo)
    up_mean = min(up_mean, hi)
    mean = _human_readable(low_mean, up_mean)
    if mean <= lo or mean >= hi:
        return lo
    return mean


# ---------------------------------------------------------------------------------------------
# Discretization (KWDiscretizerMODL.cpp)
# ---------------------------------------------------------------------------------------------
def quantile_partiles(freqs: np.ndarray, n_partiles: int) -> np.ndarray:
    """Last value index of each equal-frequency partile (KWQuantileIntervalBuilder).

    Compiled kernel; :func:`quantile_partiles_py` is the reference (same result).
    """
    freqs = np.ascontiguousarray(freqs, dtype=np.int64)
    if n_partiles >= int(freqs.sum()):
        return np.arange(freqs.size)
    return modl_kernels.quantile_partiles_kernel(freqs, int(n_partiles))


def quantile_partiles_py(freqs: np.ndarray, n_partiles: int) -> np.ndarray:
    """Reference (pure Python) :func:`quantile_partiles`."""
    freqs = np.asarray(freqs, dtype=np.int64)
    n = int(freqs.sum())
    m = freqs.size
    if n_partiles >= n:
        return np.arange(m)
    cum = np.cumsum(freqs)
    ends = []
    r = 0
    last = -1
    half = n_partiles / 2
    for q in range(n_partiles):
        t = n * (q + 1) / n_partiles
        t = t - 1e-10 if q < half else t + 1e-10
        ti = math.floor(t + 0.5)
        while r < m - 1 and cum[r] < ti:
            r += 1
        prev_cum = cum[r - 1] if r > 0 else 0
        up = r - 1 if abs(t - prev_cum) <= abs(cum[r] - t) else r
        if up > last:
            ends.append(up)
            last = up
    if not ends or ends[-1] != m - 1:
        ends.append(m - 1)
    return np.asarray(ends, dtype=np.int64)


def merge_pure_rows(rows: np.ndarray) -> np.ndarray:
    """Last row index of each block after merging adjacent rows pure on the same class.

    As ``MergeFrequencyTablePureIntervals``: the first row never merges with the second.
    Compiled kernel for integer counts; :func:`merge_pure_rows_py` is the reference.
    """
    counts = integer_counts(rows)
    if counts is None:
        return merge_pure_rows_py(rows)
    return modl_kernels.merge_pure_rows_kernel(counts)


def merge_pure_rows_py(rows: np.ndarray) -> np.ndarray:
    """Reference (pure Python) :func:`merge_pure_rows`."""
    ends = []
    prev_pure = -1
    for i in range(rows.shape[0]):
        total = rows[i].sum()
        nz = np.flatnonzero(rows[i])
        cls = nz[0] if nz.size else 0
        pure = rows[i, cls] == total
        if i == 0:
            ends.append(0)
            continue
        if pure:
            if prev_pure > -1 and prev_pure == cls:
                ends[-1] = i
            else:
                prev_pure = cls
                ends.append(i)
        else:
            prev_pure = -1
            ends.append(i)
    return np.asarray(ends, dtype=np.int64)


def discretize_table(
    rows: np.ndarray, attribute_cost: float, max_parts: int = 0
) -> tuple[np.ndarray, int, float]:
    """Khiops discretization of a table of distinct sorted values × class counts.

    Returns (interval ends over the rows, granularity, cost).
    """
    rows = np.asarray(rows, dtype=np.float64)
    n = int(rows.sum())
    m = rows.shape[0]
    if n == 0 or m == 1:
        pc = discretization_partition_costs(1, 0, max(n, 1), attribute_cost)
        return np.array([m - 1]), 0, float(pc[1] + part_cost(rows.sum(axis=0)).sum())
    freqs = rows.sum(axis=1).astype(np.int64)
    int_rows = integer_counts(rows)
    if int_rows is not None:
        # counts of any run of rows from one cumulated table of integers, as integers (the
        # optimisers' kernels take them as they are)
        cum = np.zeros((m + 1, rows.shape[1]), dtype=np.int64)
        np.cumsum(int_rows, axis=0, out=cum[1:])

        def counts_of(row_ends):
            return modl_kernels.run_counts_kernel(cum, np.asarray(row_ends, dtype=np.int64))
    else:

        def counts_of(row_ends):
            return interval_counts(rows, row_ends)

    g_max = max_granularity(n)
    best = (np.inf, None, None)
    prev_p = 0
    current, last_explored = -1, -1
    g = 1
    is_last = False
    while g <= g_max and not is_last:
        if 2**g >= n:
            p_ends = np.arange(m)
        else:
            p_ends = quantile_partiles(freqs, 2**g)
        p = p_ends.size
        is_last = p == m
        selected = p >= 1.5 * prev_p and p * 1.5 <= m
        if selected or is_last:
            last_explored, current = current, g
            table = counts_of(p_ends)
            blocks = merge_pure_rows(table)
            merged = counts_of(p_ends[blocks])
            pc = discretization_partition_costs(merged.shape[0], g, n, attribute_cost)
            ends = optimise_intervals(merged, pc, "optimized_greedy", max_parts)
            counts = counts_of(p_ends[blocks[np.asarray(ends)]])
            cost = float(pc[len(ends)] + part_cost(counts).sum())
            if cost < best[0] - EPSILON:
                row_ends = p_ends[blocks[np.asarray(ends)]]
                best = (cost, row_ends, g)
        prev_p = p
        g += 1
    cost, row_ends, g_best = best
    if last_explored != -1 and g_best > last_explored + 1:
        g_best = _post_optimise_granularity(freqs, row_ends, g_best, last_explored)
    counts = counts_of(row_ends)
    pc = discretization_partition_costs(len(row_ends), g_best, n, attribute_cost)
    cost = float(pc[len(row_ends)] + part_cost(counts).sum())
    return row_ends, g_best, cost


def _post_optimise_granularity(freqs, row_ends, g_best, last_explored) -> int:
    """Smallest granularity (down to last_explored+1) at which every bound is a partile bound."""
    cum = np.cumsum(freqs)
    interval_cum = cum[np.asarray(row_ends)]
    n_int = len(row_ends)
    n = int(cum[-1])
    best = g_best
    g = g_best - 1
    while g != last_explored:
        q = 2**g
        if q < n_int:
            break
        p_ends = np.arange(freqs.size) if q >= n else quantile_partiles(freqs, q)
        if p_ends.size < n_int:
            break
        if not np.isin(interval_cum, cum[p_ends]).all():
            break
        best = g
        g -= 1
    return best
