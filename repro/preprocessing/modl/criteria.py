"""The MODL criteria: the 2005/2006 papers' and Khiops' (KHIOPS_NOTES §1–§3).

All costs are in nats (``lf(n) = ln n!``) and are functions of the contingency table of a
partition (rows = parts, columns = classes).

Papers:

- 2006 discretization (Boullé, *MODL: a Bayes optimal discretization method*, MLJ 2006):
  ``c = ln N + lbinom(N+I−1, I−1) + Σ_i lbinom(n_i+J−1, J−1) + Σ_i [lf(n_i) − Σ_j lf(n_ij)]``;
- 2005 grouping (Boullé, *A Bayes optimal approach for partitioning the values of categorical
  attributes*, JMLR 2005): ``c = ln V + ln B(V, I) + (same part terms)``, B the generalised Bell
  number Σ_{k≤I} S(V, k).

Both share the per-part term ``lf(n_i+J−1) − lf(J−1) − Σ_j lf(n_ij)`` (:func:`part_cost`) and differ
only in a *partition cost* that depends on the number of parts I (and on constants), so every
optimiser takes the vector ``pc[I]`` (I = 0..n, ``pc[0]`` unused) and the rows' class counts.

Khiops ≥ 10 (KWStat.cpp, KWUnivariatePartitionCost.cpp): universal codes for the number of parts
(bounded ``L_B(n; M) = ln C0Max(M) + ln2·log2*(n)``), a granularity g among ⌈log2 N⌉, a
null/informative bit ln 2 and the attribute selection cost A = ln K
(:func:`discretization_partition_costs`, :func:`grouping_partition_cost` with its garbage group),
the null cost and the Level; :class:`GroupingCosts` is the cost object of Khiops' grouping
optimisers (``KWMODLGroupingCosts``, memoised, with Khiops' own ln k! table).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.special import gammaln

from repro.preprocessing.modl import kernels as modl_kernels

LOG2 = math.log(2.0)
LN_STAR_TABLE_SIZE = 2000
LN_BELL_TABLE_SIZE = 100
C0_RISSANEN = 2.86511
GARBAGE_MIN_VALUES = 7
"""``KWFrequencyTable::nMinimumNumberOfModalitiesForGarbage``."""


# ---------------------------------------------------------------------------------------------
# ln n!, binomials, part costs, Bell numbers
# ---------------------------------------------------------------------------------------------
def lf(n):
    """ln n! (vectorised)."""
    return gammaln(np.asarray(n, dtype=np.float64) + 1.0)


def lbinom(n, k):
    """ln C(n, k)."""
    return lf(n) - lf(k) - lf(np.asarray(n) - np.asarray(k))


def part_cost(counts) -> np.ndarray:
    """Per-part cost ``lf(n_i+J−1) − lf(J−1) − Σ_j lf(n_ij)`` of each row of ``counts``.

    = ln C(n_i+J−1, J−1) (prior of the class distribution of the part) + ln(n_i! / Π_j n_ij!)
    (likelihood): the part terms common to the 2006/2005 criteria and to Khiops.
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    n_classes = counts.shape[1]
    n = counts.sum(axis=1)
    return lf(n + n_classes - 1) - lf(n_classes - 1) - lf(counts).sum(axis=1)


def scalar_part_cost(counts: np.ndarray) -> float:
    """:func:`part_cost` of one count vector, as a Python float (hot path of the optimisers)."""
    n_classes = counts.shape[0]
    n = counts.sum()
    return float(math.lgamma(n + n_classes) - math.lgamma(n_classes) - gammaln(counts + 1.0).sum())


def log_stirling2_table(v_max: int) -> np.ndarray:
    """Table L[v, k] = ln S(v, k) (Stirling numbers of the second kind), −inf where S = 0."""
    table = np.full((v_max + 1, v_max + 1), -np.inf)
    table[0, 0] = 0.0
    for v in range(1, v_max + 1):
        k = np.arange(1, v + 1)
        # S(v, k) = k S(v−1, k) + S(v−1, k−1)
        table[v, 1 : v + 1] = np.logaddexp(np.log(k) + table[v - 1, 1 : v + 1], table[v - 1, 0:v])
    return table


def log_bell(n_values: int, max_parts: int | None = None) -> np.ndarray:
    """ln B(V, I) = ln Σ_{k≤I} S(V, k), I = 0..V (generalised Bell numbers; ln B(V, 0) = −inf)."""
    v = int(n_values)
    row = log_stirling2_table(v)[v] if v > 0 else np.array([0.0])
    out = np.logaddexp.accumulate(row)
    if v > 0:
        out[0] = -np.inf
    return out


# ---------------------------------------------------------------------------------------------
# Criteria of the papers
# ---------------------------------------------------------------------------------------------
def discretization_partition_cost_2006(n_instances: int, n_rows: int) -> np.ndarray:
    """pc[I] = ln N + lbinom(N+I−1, I−1), I = 0..n_rows (pc[0] = +inf).

    pc[I] depends on (N, I) only: read from one table per N up to I = N (cached; every variable
    of a data set without missing values shares it), the values computed for ``n_rows`` alone.
    """
    if 0 <= n_rows <= n_instances:
        return _partition_cost_2006_table(int(n_instances))[: n_rows + 1].copy()
    return _partition_cost_2006(n_instances, n_rows)


@lru_cache(maxsize=16)
def _partition_cost_2006_table(n_instances: int) -> np.ndarray:
    table = _partition_cost_2006(n_instances, n_instances)
    table.flags.writeable = False
    return table


def _partition_cost_2006(n_instances: int, n_rows: int) -> np.ndarray:
    i = np.arange(n_rows + 1, dtype=np.float64)
    pc = np.log(n_instances) + lbinom(n_instances + i - 1, i - 1)
    pc[0] = np.inf
    return pc


def discretization_cost_2006(counts) -> float:
    """2006 MODL cost of a discretization given its interval × class counts."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    n, n_parts = counts.sum(), counts.shape[0]
    return float(np.log(n) + lbinom(n + n_parts - 1, n_parts - 1) + part_cost(counts).sum())


def grouping_partition_cost_2005(n_values: int) -> np.ndarray:
    """pc[I] = ln V + ln B(V, I), I = 0..V (pc[0] = +inf)."""
    pc = np.log(max(n_values, 1)) + log_bell(n_values)
    pc[0] = np.inf
    return pc


def grouping_cost_2005(counts, n_values: int) -> float:
    """2005 MODL cost of a grouping of ``n_values`` values into the groups of ``counts``."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    pc = grouping_partition_cost_2005(n_values)
    return float(pc[counts.shape[0]] + part_cost(counts).sum())


def partition_total_cost(rows: np.ndarray, ends, pc: np.ndarray) -> float:
    """Cost of the intervals of ``rows`` ending (inclusive) at the row indices ``ends``."""
    counts = interval_counts(rows, ends)
    return float(pc[len(ends)] + part_cost(counts).sum())


def interval_counts(rows: np.ndarray, ends) -> np.ndarray:
    """Class counts of the intervals ending (inclusive) at ``ends``."""
    cum = np.vstack([np.zeros((1, rows.shape[1]), rows.dtype), np.cumsum(rows, axis=0)])
    ends = np.asarray(ends, dtype=np.int64)
    starts = np.concatenate([[0], ends[:-1] + 1])
    return cum[ends + 1] - cum[starts]


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
def ln_bell_table() -> np.ndarray:
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


def main_bell_term_index(n: int, k: int) -> int:
    """Index of the largest term of the Bell series (Khiops' search; plain Python, so that the
    grouping kernels compile the same function)."""
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
    i0 = main_bell_term_index(n, k)
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
        return float(ln_bell_table()[n - 1, k - 1])
    return _ln_bell_series(n, k)


# ---------------------------------------------------------------------------------------------
# Khiops' costs (KWUnivariatePartitionCost.cpp)
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
# The cost object of Khiops' grouping optimisers (KWUnivariatePartitionCost.cpp)
# ---------------------------------------------------------------------------------------------
_LN_FACT = [0.0]


def _ln_fact_table(n: int) -> list[float]:
    """``KWStat::LnFactorial`` table: lf[i] = lf[i−1] + ln i, up to at least n."""
    table = _LN_FACT
    while len(table) <= n:
        table.append(table[-1] + math.log(1.0 * len(table)))
    return table


class GroupingCosts:
    """``KWMODLGroupingCosts`` of V granularised values at granularity g: the partition cost
    pc(I, Gb) of :func:`grouping_partition_cost` (memoised), its delta as Khiops computes it, and
    the part cost ln (n+J−1)! − ln (J−1)! − Σ_j ln n_j! with ln k! tabulated as Σ ln (KWStat)."""

    def __init__(
        self,
        n_values: int,
        granularity: int,
        n_instances: int,
        attribute_cost: float,
        n_classes: int,
    ):
        self.n_values = n_values
        self.granularity = granularity
        self.n_classes = n_classes
        self.attribute_cost = attribute_cost
        self.n_instances = n_instances
        self.lf = _ln_fact_table(n_instances + n_classes + 1)
        self._pc: dict = {}
        self._pd: dict = {}

    def partition_cost(self, n_parts: int, garbage: int = 0) -> float:
        """``ComputePartitionCost(I, Gb)``."""
        key = (n_parts, garbage)
        cost = self._pc.get(key)
        if cost is None:
            cost = self._pc[key] = self._partition_cost(n_parts, garbage)
        return cost

    def _partition_cost(self, n_parts: int, garbage: int) -> float:
        return grouping_partition_cost(
            n_parts,
            self.n_values,
            self.granularity,
            self.n_instances,
            self.attribute_cost,
            garbage,
        )

    def partition_delta(self, n_parts: int, garbage: int = 0) -> float:
        """``ComputePartitionDeltaCost(I, Gb)`` = pc(I−1, Gb) − pc(I, Gb), as Khiops computes it."""
        key = (n_parts, garbage)
        delta = self._pd.get(key)
        if delta is None:
            n_info_values = self.n_values - garbage
            n_info_parts = n_parts - 1 if garbage > 0 else n_parts
            if n_info_parts > 2:
                delta = bounded_universal_code(
                    n_info_parts - 2, n_info_values - 1
                ) - bounded_universal_code(n_info_parts - 1, n_info_values - 1)
                delta += ln_bell(n_info_values, n_info_parts - 1) - ln_bell(
                    n_info_values, n_info_parts
                )
            else:
                delta = self.partition_cost(n_parts - 1, garbage) - self.partition_cost(
                    n_parts, garbage
                )
            self._pd[key] = delta
        return delta

    def merged_garbage_cost(self, n_parts: int, largest: int, merged: int) -> float:
        """pc(I−1, Gb) of the partition with garbage after the merge of two of its I parts into
        one of ``merged`` values: the garbage (the part with the most values) is the merged part or
        the largest part before the merge (``largest`` values), the larger of the two."""
        return self.partition_cost(n_parts - 1, largest if largest > merged else merged)

    def part_cost(self, counts) -> float:
        """``ComputePartCost``: ln (n+J−1)! − ln (J−1)! − Σ_j ln n_j!."""
        lf = self.lf
        cost = 0.0
        n = 0
        for f in counts:
            cost -= lf[f]
            n += f
        cost += lf[n + self.n_classes - 1]
        cost -= lf[self.n_classes - 1]
        return cost

    def global_cost(self, rows, garbage: int = 0) -> float:
        """``ComputePartitionGlobalCost`` of a table (its rows are the parts)."""
        cost = self.partition_cost(len(rows), garbage)
        for row in rows:
            cost += self.part_cost(row)
        return cost


class NullCosts(GroupingCosts):
    """``KWUnivariateNullPartitionCosts`` over two-class grouping costs: no partition cost (the
    one-class-versus-rest groupings of ``BuildReliableSubGroups``)."""

    def __init__(self, n_instances: int):
        self.n_classes = 2
        self.lf = _ln_fact_table(n_instances + 3)

    def partition_cost(self, n_parts: int, garbage: int = 0) -> float:
        return 0.0

    def partition_delta(self, n_parts: int, garbage: int = 0) -> float:
        return 0.0
