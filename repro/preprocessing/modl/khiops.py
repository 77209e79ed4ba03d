"""MODL as Khiops ≥ 10 implements it (SPEC §3.3, ../shared/KHIOPS_NOTES.md §1–§4).

Differences from the 2006/2005 papers: universal codes for the number of parts (bounded
``L_B(n; M) = ln C0Max(M) + ln2·log2*(n)``), a granularity g explored from 1 to ⌈log2 N⌉ on
equal-frequency partiles (discretization) or frequency thresholds with a catch-all part (grouping),
a null/informative bit ln 2 and the attribute selection cost A = ln K. The optimiser is the greedy
merge + post-optimisation of :mod:`repro.preprocessing.modl.paper` with Khiops' tie rules.

Values are read as Khiops reads them: numbers rounded to 10 significant digits
(:func:`to_continuous`, ``KWContinuous::StringToContinuous``), missing values sort first, and the
interval bounds are Khiops' "human readable" means (:func:`human_readable_bound`).

Grouping (``group_values``) is a step-by-step port of Khiops' ``KWGrouperMODL`` in
:mod:`repro.preprocessing.modl.grouping`: two-class grouping by the discretisation heuristic
on the values sorted by class proportion (with the garbage-interval search from 7 values), and for
more classes the reliable sub-groups, greedy merges, post-optimisation and garbage-group search of
``MultipleClassesGroup(WithGarbageSearch)``; the garbage group enters the partition cost through
:func:`grouping_partition_cost`. Known simplification: ``PostOptimizeGranularity`` of the grouping
reads its group vector past its end in Khiops (the vector is over the granularised values of the
winning granularity); here the values beyond it are taken in the catch-all's group.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from repro.preprocessing.modl import kernels as modl_kernels
from repro.preprocessing.modl.paper import (
    EPSILON,
    integer_counts,
    interval_counts,
    lbinom,
    lf,
    optimise_intervals,
    part_cost,
)

LOG2 = math.log(2.0)
LN_STAR_TABLE_SIZE = 2000
LN_BELL_TABLE_SIZE = 100
C0_RISSANEN = 2.86511
GARBAGE_MIN_VALUES = 7
"""``KWFrequencyTable::nMinimumNumberOfModalitiesForGarbage``."""


# ---------------------------------------------------------------------------------------------
# Universal codes and Bell numbers (KWStat.cpp)
# ---------------------------------------------------------------------------------------------
def _log2_star_raw(n: int) -> float:
    cost = 0.0
    x = math.log(1.0 * n) / LOG2
    while x > 0:
        cost += x
        x = math.log(x) / LOG2
    return cost


@lru_cache(maxsize=1)
def _tables():
    ln_star = np.zeros(LN_STAR_TABLE_SIZE)
    c0 = np.ones(LN_STAR_TABLE_SIZE)
    for i in range(1, LN_STAR_TABLE_SIZE):
        ln_star[i] = _log2_star_raw(i + 1)
        c0[i] = c0[i - 1] + math.pow(2.0, -ln_star[i])
    return ln_star, c0


def log2_star(n: int) -> float:
    """log2*(n) = Σ_{j≥1} max(log2^(j)(n), 0), base 2 (KWStat::LnStar); log2*(1) = 0."""
    if n < 1:
        raise ValueError(f"log2_star needs n ≥ 1, got {n}")
    ln_star, _ = _tables()
    return float(ln_star[n - 1]) if n < LN_STAR_TABLE_SIZE else _log2_star_raw(n)


def c0_max(m: int) -> float:
    """C0Max(M) = Σ_{k=1..M} 2^{−log2*(k)}: exact table below 2000, integral tail beyond."""
    _, c0 = _tables()
    if m < LN_STAR_TABLE_SIZE:
        return float(c0[m - 1])
    size = float(LN_STAR_TABLE_SIZE)
    e3 = 65536

    def l4(x):
        return math.log(math.log(math.log(math.log(x) / LOG2) / LOG2) / LOG2) / LOG2

    value = float(c0[-1])
    if m < e3:
        value += LOG2**4 * (l4(m * 1.0) - l4(size))
    else:
        value += LOG2**4 * (1 - l4(size)) + LOG2**5 * (math.log(l4(m * 1.0)) / LOG2)
    return value


def bounded_universal_code(n: int, n_max: int) -> float:
    """L_B(n; M) = ln C0Max(M) + ln2·log2*(n) (KWStat::BoundedNaturalNumbersUniversalCodeLength)."""
    return (math.log(c0_max(n_max)) / LOG2 + log2_star(n)) * LOG2


def universal_code(n: int) -> float:
    """L*(n) = ln 2.86511 + ln2·log2*(n) (KWStat::NaturalNumbersUniversalCodeLength)."""
    return (math.log(C0_RISSANEN) / LOG2 + log2_star(n)) * LOG2


def log2_star_array(n: np.ndarray) -> np.ndarray:
    """:func:`log2_star` of each n ≥ 1 (table below 2000, the same loop compiled beyond)."""
    n = np.asarray(n, dtype=np.int64)
    ln_star, _ = _tables()
    out = np.empty(n.size)
    small = n < LN_STAR_TABLE_SIZE
    out[small] = ln_star[n[small] - 1]
    if not small.all():
        big = n[~small]
        out[~small] = modl_kernels.log2_star_raw_kernel(big)
    return out


def _lgamma_table(size: int) -> np.ndarray:
    """math.lgamma(k), k = 0..size−1 (entry 0 = inf), shared with the optimisers."""
    return modl_kernels.lf_tables(size)[1, :size]


@lru_cache(maxsize=1)
def _ln_bell_table() -> np.ndarray:
    size = LN_BELL_TABLE_SIZE
    s = np.zeros((size, size))
    for i in range(size):
        s[i, 0] = 1.0
        if i > 0:
            s[i, 1] = 2.0**i - 1
        if i > 1:
            s[i, i] = 1.0
        if i > 2:
            s[i, i - 1] = i * (i + 1) // 2
    for i in range(1, size):
        for j in range(2, i - 1):
            s[i, j] = s[i - 1, j - 1] + (j + 1) * s[i - 1, j]
    table = np.full((size, size), np.nan)
    for i in range(size):
        bell = 0.0
        for j in range(i + 1):
            bell += s[i, j]
            table[i, j] = math.log(bell)
    return table


def _main_bell_term_index(n: int, k: int) -> int:
    i_min = int(math.floor(n / math.log(1.0 * n)))
    i_max = int(math.ceil(n / (math.log(1.0 * n) - math.log(math.log(1.0 * n)))))
    while i_max - i_min > 1:
        i_new = (i_min + i_max) // 2
        if i_new * math.log(1.0 * i_new) > n:
            i_max = i_new
        else:
            i_min = i_new
    return i_min if i_min < k else k


def _ln_bell_series(n: int, k: int) -> float:
    eps = 1e-6 / k
    if n == 1:
        return 0.0
    if n == 2:
        return math.log(1.0 * k)
    inv_exp = math.exp(-1.0)
    serie = [1.0]
    factor, term = 1.0, 1.0
    for i in range(1, 20):
        factor *= -i
        term += 1 / factor
        serie.append(term)
    i0 = _main_bell_term_index(n, k)
    ln_i0 = n * math.log(1.0 * i0) - math.lgamma(i0 + 1)
    total = 0.0
    for i in range(i0, k + 1):
        f = inv_exp if k - i >= 20 else serie[k - i]
        t = math.exp(n * math.log(1.0 * i) - math.lgamma(i + 1) - ln_i0)
        total += t * f
        if t < eps:
            break
    for i in range(i0 - 1, 0, -1):
        f = inv_exp if k - i >= 20 else serie[k - i]
        t = math.exp(n * math.log(i * 1.0 / i0) + math.lgamma(i0 + 1) - math.lgamma(i + 1))
        total += t * f
        if t < eps:
            break
    return math.log(total) + ln_i0


def ln_bell(n: int, k: int) -> float:
    """ln B(n, k) = ln Σ_{i≤k} S(n, i) (KWStat::LnBell: table for n < 100, series beyond)."""
    if not 1 <= k <= n:
        raise ValueError(f"ln_bell needs 1 ≤ k ≤ n, got n={n}, k={k}")
    if n < LN_BELL_TABLE_SIZE:
        return float(_ln_bell_table()[n - 1, k - 1])
    return _ln_bell_series(n, k)


# ---------------------------------------------------------------------------------------------
# Costs (KWUnivariatePartitionCost.cpp)
# ---------------------------------------------------------------------------------------------
def max_granularity(n_instances: int) -> int:
    """G = ⌈log2 N⌉."""
    return int(math.ceil(math.log(n_instances * 1.0) / LOG2)) if n_instances > 1 else 0


def _discretization_costs_start(
    n_parts_max: int, granularity: int, n_instances: int, attribute_cost: float
) -> tuple[int, np.ndarray, float]:
    """V, pc with pc[0] = +inf, pc[1] = ln2 (the rest to fill), and the constant term
    ln2 + A + L_B(g; G) of pc[I > 1]."""
    v = min(2**granularity, n_instances) if granularity > 0 else n_instances
    pc = np.full(n_parts_max + 1, np.inf)
    if n_parts_max >= 1:
        pc[1] = LOG2
    g_max = max_granularity(n_instances)
    g_code = bounded_universal_code(granularity, g_max) if granularity > 0 else 0.0
    return v, pc, LOG2 + attribute_cost + g_code


def discretization_partition_costs(
    n_parts_max: int, granularity: int, n_instances: int, attribute_cost: float
) -> np.ndarray:
    """pc[I], I = 0..n_parts_max, of KWMODLDiscretizationCosts (pc[0] = +inf).

    pc[I] = ln2 + [I>1]·(A + L_B(g; G) + L_B(I−1; V−1) + (I−1)·ln(V−1) − lf(I−1)), with
    V = min(2^g, N) and G = ⌈log2 N⌉. Each pc[I] depends on (I, g, N, A) only: the values are
    read from one table per (g, N, A) up to I = N (cached: every variable of a data set without
    missing values shares them), the same values as computed for ``n_parts_max`` alone.
    """
    if 0 <= n_parts_max <= n_instances:
        table = _partition_costs_table(granularity, n_instances, attribute_cost)
        return table[: n_parts_max + 1].copy()
    return _discretization_partition_costs(n_parts_max, granularity, n_instances, attribute_cost)


@lru_cache(maxsize=64)
def _partition_costs_table(granularity: int, n_instances: int, attribute_cost: float):
    table = _discretization_partition_costs(n_instances, granularity, n_instances, attribute_cost)
    table.flags.writeable = False
    return table


def _discretization_partition_costs(
    n_parts_max: int, granularity: int, n_instances: int, attribute_cost: float
) -> np.ndarray:
    v, pc, base = _discretization_costs_start(n_parts_max, granularity, n_instances, attribute_cost)
    if n_parts_max < 2 or v - 1 < 1:
        return pc
    # vectorised form of the loop of discretization_partition_costs_py: the same float64
    # operations in the same order (log2* and lgamma from exact tables), hence the same values
    k = np.arange(1, n_parts_max, dtype=np.int64)  # k = i − 1
    code = (math.log(c0_max(v - 1)) / LOG2 + log2_star_array(k)) * LOG2
    pc[2:] = ((base + code) + k.astype(np.float64) * math.log(v - 1.0)) - _lgamma_table(
        n_parts_max + 1
    )[2:]
    return pc


def discretization_partition_costs_py(
    n_parts_max: int, granularity: int, n_instances: int, attribute_cost: float
) -> np.ndarray:
    """Reference (scalar loop) :func:`discretization_partition_costs`."""
    v, pc, base = _discretization_costs_start(n_parts_max, granularity, n_instances, attribute_cost)
    for i in range(2, n_parts_max + 1):
        if v - 1 < 1:
            break
        pc[i] = (
            base
            + bounded_universal_code(i - 1, v - 1)
            + (i - 1) * math.log(v - 1.0)
            - math.lgamma(i)
        )
    return pc


def grouping_partition_cost(
    n_parts: int,
    n_values: int,
    granularity: int,
    n_instances: int,
    attribute_cost: float,
    garbage: int = 0,
) -> float:
    """pc(I, Gb) of ``KWMODLGroupingCosts::ComputePartitionCost`` (KWUnivariatePartitionCost.cpp).

    V values, I groups, garbage group of Gb values (0: none), Vi = V − Gb, Ii = I − [Gb>0]:
    ``ln2 + [Ii>1 and Vi>1]·(A + [g>0]·L_B(g;G) + [V>7]·ln2 + prior)`` with prior =
    ``L_B(I−1; V−1) + lnB(V, I)`` without garbage, and with a garbage group
    ``L_B(Vi−1; V−2) + Vi·ln V − ln Vi! + L_B(Ii−1; Vi−1) + lnB(Vi, Ii)`` (which values are
    informative, then their partition).
    """
    v = n_values
    n_info_values = v - garbage
    n_info_parts = n_parts - 1 if garbage > 0 else n_parts
    cost = LOG2
    if n_info_parts > 1 and n_info_values > 1:
        cost += attribute_cost
        if granularity > 0:
            cost += bounded_universal_code(granularity, max_granularity(n_instances))
        if v > GARBAGE_MIN_VALUES:
            cost += LOG2
        if garbage == 0:
            cost += bounded_universal_code(n_info_parts - 1, n_info_values - 1)
            cost += ln_bell(n_info_values, n_info_parts)
        else:
            cost += bounded_universal_code(n_info_values - 1, v - 2)
            cost += n_info_values * math.log(v * 1.0) - math.lgamma(n_info_values + 1.0)
            cost += bounded_universal_code(n_info_parts - 1, n_info_values - 1)
            cost += ln_bell(n_info_values, n_info_parts)
    return cost


def grouping_partition_costs(
    n_values: int, granularity: int, n_instances: int, attribute_cost: float, garbage: int = 0
) -> np.ndarray:
    """pc[I], I = 0..V, of :func:`grouping_partition_cost` (pc[0] and impossible I: +inf).

    Without garbage: pc[I] = ln2 + [I>1]·(A + L_B(g; G) + [V>7]·ln2 + L_B(I−1; V−1) + ln B(V, I)).
    """
    v = n_values
    pc = np.full(v + 1, np.inf)
    for i in range(1, v + 1):
        if garbage > 0 and not 1 < i - 1 <= v - garbage:
            continue
        pc[i] = grouping_partition_cost(i, v, granularity, n_instances, attribute_cost, garbage)
    return pc


def null_cost(class_counts) -> float:
    """ln2 + ln C(N+J−1, J−1) + ln(N!/Π_j N_j!) (KWLearningSpec::ComputeNullCost)."""
    class_counts = np.asarray(class_counts, dtype=np.float64)
    n, j = class_counts.sum(), class_counts.size
    return float(LOG2 + lbinom(n + j - 1, j - 1) + lf(n) - lf(class_counts).sum())


def level(cost: float, null: float, n_parts: int) -> float:
    """Level = 1 − cost/null; forced to 0 below 1e-10 or for a single part."""
    value = 1.0 - cost / null if null > 0 else 0.0
    return 0.0 if (value < 1e-10 or n_parts <= 1) else value


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


def _blocks_to_rows(table_ends: np.ndarray, block_ends) -> np.ndarray:
    """Map interval ends over blocks (rows of a coarser table) to ends over the source rows."""
    return np.asarray([table_ends[e] for e in block_ends], dtype=np.int64)


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
