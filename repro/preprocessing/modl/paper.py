"""MODL supervised discretization and value grouping: criteria and optimisers (SPEC §3.1–§3.2).

Criteria are small pure functions of the contingency table of a partition (rows = parts,
columns = classes); all costs are in nats (``lf(n) = ln n!``):

- 2006 discretization (Boullé, *MODL: a Bayes optimal discretization method*, MLJ 2006):
  ``c = ln N + lbinom(N+I−1, I−1) + Σ_i lbinom(n_i+J−1, J−1) + Σ_i [lf(n_i) − Σ_j lf(n_ij)]``;
- 2005 grouping (Boullé, *A Bayes optimal approach for partitioning the values of categorical
  attributes*, JMLR 2005): ``c = ln V + ln B(V, I) + (same part terms)``, B the generalised Bell
  number Σ_{k≤I} S(V, k).

Both share the per-part term ``lf(n_i+J−1) − lf(J−1) − Σ_j lf(n_ij)`` (:func:`part_cost`) and differ
only in a *partition cost* that depends on the number of parts I (and on constants), so every
optimiser below takes the vector ``pc[I]`` (I = 0..n, ``pc[0]`` unused) and the rows' class counts.

Optimisers of an ordered sequence of rows (distinct values, or values sorted by P(class) for the
two-class grouping):

- :func:`optimise_intervals` with ``algorithm="optimized_greedy"`` (default): greedy bottom-up merge
  driven by a sorted list of merge deltas, continued down to one interval keeping the best size,
  then post-optimisation by Split / MergeSplit / MergeMergeSplit moves. It follows the Khiops
  implementation (``KWDiscretizerMODL``) step by step, including its tie rules (the sorted list
  :class:`KhiopsSortedList`) and its 1e-6 tolerances, so that the same code reproduces Khiops'
  partitions when given Khiops' partition costs (:mod:`repro.preprocessing.modl.khiops`);
- ``algorithm="greedy"``: the plain greedy merge (stops when no merge lowers the cost);
- ``algorithm="optimal"``: exact O(n³) dynamic programme (:func:`optimal_intervals`).

:func:`optimise_groups` is the multi-class grouping heuristic (greedy merge of any two groups down
to one group keeping the best, then moves of single values between groups).
"""

from __future__ import annotations

import functools
import heapq
import math
from itertools import combinations

import numpy as np
from scipy.special import gammaln

from repro.preprocessing.modl import kernels as modl_kernels
from repro.preprocessing.modl.rules import EPSILON, INFINITE_COST, choose_move

ALGORITHMS = ("optimized_greedy", "greedy", "optimal")


# ---------------------------------------------------------------------------------------------
# Elementary functions
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


def _part_cost1(counts: np.ndarray) -> float:
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
# Criteria of the papers (SPEC §3.1, §3.2)
# ---------------------------------------------------------------------------------------------
def discretization_partition_cost_2006(n_instances: int, n_rows: int) -> np.ndarray:
    """pc[I] = ln N + lbinom(N+I−1, I−1), I = 0..n_rows (pc[0] = +inf).

    pc[I] depends on (N, I) only: read from one table per N up to I = N (cached; every variable
    of a data set without missing values shares it), the values computed for ``n_rows`` alone.
    """
    if 0 <= n_rows <= n_instances:
        return _partition_cost_2006_table(int(n_instances))[: n_rows + 1].copy()
    return _partition_cost_2006(n_instances, n_rows)


@functools.lru_cache(maxsize=16)
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
    """2006 MODL cost of a discretization given its interval × class counts (SPEC §3.1)."""
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
# Khiops' sorted list (Norm/base/SortedList.cpp): the tie rule of every greedy step
# ---------------------------------------------------------------------------------------------
class KhiopsSortedList:
    """Priority list with the tie semantics of Khiops' AVL ``SortedList``.

    Items with equal keys form a group whose order is: the first inserted (the group "head"),
    then the others from the newest to the oldest (an insertion goes right after the head). When
    the head is removed the next one (the newest) becomes the head. ``head()`` is the head of the
    group of the smallest key.
    """

    def __init__(self):
        self._groups: dict[float, list] = {}
        self._heap: list[float] = []
        self._key: dict = {}

    def __len__(self):
        return len(self._key)

    def add(self, item, key: float) -> None:
        group = self._groups.get(key)
        if group is None:
            self._groups[key] = [item, []]
            heapq.heappush(self._heap, key)
        else:
            group[1].append(item)
        self._key[item] = key

    def remove(self, item) -> None:
        key = self._key.pop(item)
        group = self._groups[key]
        if group[0] == item:
            if group[1]:
                group[0] = group[1].pop()
            else:
                del self._groups[key]
        else:
            group[1].remove(item)

    def head(self):
        while self._heap[0] not in self._groups:
            heapq.heappop(self._heap)
        return self._groups[self._heap[0]][0]


# ---------------------------------------------------------------------------------------------
# Greedy bottom-up merge (KWDiscretizerMODLOptimization.cpp)
# ---------------------------------------------------------------------------------------------
class _IntervalList:
    """Doubly linked list of intervals over the rows, with their merge candidates."""

    def __init__(self, rows: np.ndarray, ends=None):
        self.rows = rows
        if ends is None:
            ends = np.arange(rows.shape[0])
        ends = list(int(e) for e in ends)
        counts = interval_counts(rows, ends).astype(np.float64)
        m = len(ends)
        self.last = ends  # last row index of each interval (id = position at creation)
        self.counts = [counts[i] for i in range(m)]
        self.cost = [float(c) for c in part_cost(counts)]
        self.prev = [i - 1 if i > 0 else None for i in range(m)]
        self.next = [i + 1 if i + 1 < m else None for i in range(m)]
        self.head = 0
        self.size = m
        self.merge_counts: list = [None] * m
        self.merge_cost = [0.0] * m
        self.merge_delta = [0.0] * m

    def copy(self) -> _IntervalList:
        other = object.__new__(_IntervalList)
        other.rows = self.rows
        other.last = list(self.last)
        other.counts = list(self.counts)
        other.cost = list(self.cost)
        other.prev = list(self.prev)
        other.next = list(self.next)
        other.head = self.head
        other.size = self.size
        other.merge_counts = list(self.merge_counts)
        other.merge_cost = list(self.merge_cost)
        other.merge_delta = list(self.merge_delta)
        return other

    def ids(self):
        i = self.head
        while i is not None:
            yield i
            i = self.next[i]

    def compute_merge(self, i: int) -> None:
        p = self.prev[i]
        merged = self.counts[p] + self.counts[i]
        self.merge_counts[i] = merged
        self.merge_cost[i] = _part_cost1(merged)
        self.merge_delta[i] = self.merge_cost[i] - self.cost[i] - self.cost[p]

    def sorted_merges(self) -> KhiopsSortedList:
        merges = KhiopsSortedList()
        for i in self.ids():
            if self.prev[i] is not None:
                merges.add(i, self.merge_delta[i])
        return merges

    def apply_merge(self, merges: KhiopsSortedList, i: int) -> None:
        """Merge interval i with its predecessor (UpdateMergeSortedList)."""
        p, nx = self.prev[i], self.next[i]
        merges.remove(i)
        if self.prev[p] is not None:
            merges.remove(p)
        if nx is not None:
            merges.remove(nx)
        self.counts[i] = self.merge_counts[i]
        self.cost[i] = self.merge_cost[i]
        pp = self.prev[p]
        self.prev[i] = pp
        if pp is None:
            self.head = i
        else:
            self.next[pp] = i
        self.size -= 1
        if pp is not None:
            self.compute_merge(i)
            merges.add(i, self.merge_delta[i])
        if nx is not None:
            self.compute_merge(nx)
            merges.add(nx, self.merge_delta[nx])

    def ends(self) -> list[int]:
        return [self.last[i] for i in self.ids()]


def _partition_delta(pc: np.ndarray, n_parts: int) -> float:
    """ComputePartitionDeltaCost(I): cost change of coding one part less, pc[I−1] − pc[I]."""
    return float(pc[n_parts - 1] - pc[n_parts])


def _merge_while_better(
    intervals: _IntervalList, pc: np.ndarray, max_parts: int, strict: bool
) -> None:
    """The merges of :func:`greedy_merge` before its best-merge phase."""
    for i in intervals.ids():
        if intervals.prev[i] is not None:
            intervals.compute_merge(i)
    merges = intervals.sorted_merges()
    n_parts = intervals.size
    while len(merges):
        i = merges.head()
        delta = _partition_delta(pc, n_parts) + intervals.merge_delta[i]
        if abs(delta) < EPSILON:
            delta = 0.0
        accept = delta < 0 if strict else delta <= 0
        if accept or (max_parts > 0 and n_parts > max_parts):
            intervals.apply_merge(merges, i)
            n_parts -= 1
        else:
            break


def _best_merge(intervals: _IntervalList, pc: np.ndarray, max_parts: int) -> None:
    work = intervals.copy()
    merges = work.sorted_merges()
    total = best_total = 0.0
    n_parts = best_n = len(merges) + 1
    while len(merges):
        i = merges.head()
        delta = _partition_delta(pc, n_parts) + work.merge_delta[i]
        work.apply_merge(merges, i)
        n_parts -= 1
        total += delta
        if (total <= best_total + EPSILON and n_parts >= 1) or (
            max_parts > 0 and n_parts > max_parts
        ):
            best_total, best_n = total, n_parts
    merges = intervals.sorted_merges()
    n_parts = len(merges) + 1
    while n_parts > best_n:
        intervals.apply_merge(merges, merges.head())
        n_parts -= 1


# ---------------------------------------------------------------------------------------------
# Post-optimisation: Split / MergeSplit / MergeMergeSplit (KWDiscretizerMODL.cpp)
# ---------------------------------------------------------------------------------------------
def _scan_best(totals: np.ndarray) -> int:
    """Index of the split kept by Khiops' ComputeBestSplit scan over candidate totals (in scan
    order): a candidate replaces the best only if ``total < best·(1 − 1e-6)``."""
    best = INFINITE_COST
    chosen = -1
    threshold = 1.0 - EPSILON
    for k in range(totals.size):
        t = totals[k]
        if t < best * threshold:
            best = t
            chosen = k
    return chosen


try:  # the scan is a tight loop over up to n candidates: compile it when numba is there
    from numba import njit

    _scan_best = njit(cache=True)(_scan_best)
except ImportError:  # pragma: no cover
    pass


class _Splitter:
    """Best split of a run of rows [first, last] (ComputeBestSplit)."""

    def __init__(self, rows: np.ndarray):
        self.rows = rows
        self.cum = np.vstack([np.zeros((1, rows.shape[1])), np.cumsum(rows, axis=0)])
        self.n_classes = rows.shape[1]

    def counts(self, first: int, last: int) -> np.ndarray:
        return self.cum[last + 1] - self.cum[first]

    def best_split(self, first: int, last: int, initial_cost: float):
        """(delta, last index of the first sub-interval, cost1, cost2); delta = +inf if none."""
        if first >= last:
            return INFINITE_COST, last, 0.0, 0.0
        # scan order: second sub-interval = rows idx..last for idx = last, last−1, ..., first+1
        idx = np.arange(last, first, -1)
        total = self.cum[last + 1] - self.cum[first]
        second = self.cum[last + 1][None, :] - self.cum[idx]
        first_counts = total[None, :] - second
        c1 = part_cost(first_counts)
        c2 = part_cost(second)
        totals = c1 + c2
        k = _scan_best(totals)
        delta = float(totals[k] - initial_cost)
        if abs(delta) < EPSILON:
            delta = 0.0
        return delta, int(idx[k] - 1), float(c1[k]), float(c2[k])


def _post_optimise_py(rows: np.ndarray, ends, pc: np.ndarray, max_parts: int) -> list[int]:
    """Reference :func:`post_optimise`."""
    rows = np.asarray(rows, dtype=np.float64)
    splitter = _Splitter(rows)
    ends = list(ends)
    while True:
        n_parts = len(ends)
        starts = [0] + [e + 1 for e in ends[:-1]]
        costs = part_cost(interval_counts(rows, ends))
        # Split
        best_split = (INFINITE_COST, None, None)
        for i in range(n_parts):
            d, cut, _, _ = splitter.best_split(starts[i], ends[i], costs[i])
            if d < best_split[0]:
                best_split = (d, i, cut)
        # MergeSplit (needs at least 3 rows, else the only split is the current one)
        best_ms = (INFINITE_COST, None, None)
        for i in range(1, n_parts):
            if starts[i - 1] + 1 < ends[i]:
                d, cut, _, _ = splitter.best_split(starts[i - 1], ends[i], costs[i] + costs[i - 1])
            else:
                d, cut = INFINITE_COST, None
            if d < best_ms[0]:
                best_ms = (d, i, cut)
        # MergeMergeSplit
        best_mms = (INFINITE_COST, None, None)
        for i in range(2, n_parts):
            d, cut, _, _ = splitter.best_split(
                starts[i - 2], ends[i], costs[i] + costs[i - 1] + costs[i - 2]
            )
            if d < best_mms[0]:
                best_mms = (d, i, cut)
        kind = choose_move(pc, n_parts, max_parts, best_split[0], best_ms[0], best_mms[0])
        if kind < 0:
            break
        _, i, cut = (best_split, best_ms, best_mms)[kind]
        ends = ends[: i - kind] + [cut, ends[i]] + ends[i + 1 :]
    return ends


# ---------------------------------------------------------------------------------------------
# The optimisers: compiled kernels (repro.preprocessing.modl.kernels) on integer counts, exact
# ports of the pure-Python references above (``reference=True``, used as the tests' oracle)
# ---------------------------------------------------------------------------------------------
def integer_counts(rows: np.ndarray):
    """rows as an int64 array if they are non-negative integer counts, else None."""
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.size == 0 or rows.shape[1] > modl_kernels.MAX_CLASSES:
        return None
    if rows.dtype == np.int64:  # already counts (the Khiops discretization's tables)
        return np.ascontiguousarray(rows) if rows.min() >= 0 else None
    as_int = rows.astype(np.int64)
    if not np.array_equal(as_int, rows) or as_int.min() < 0:
        return None
    return np.ascontiguousarray(as_int)


def _tables_for(counts: np.ndarray):
    return modl_kernels.lf_tables(int(counts.sum()) + counts.shape[1] + 2)


def greedy_merge(
    rows: np.ndarray,
    pc: np.ndarray,
    max_parts: int = 0,
    best_merge: bool = True,
    strict: bool = False,
    *,
    reference: bool = False,
) -> list[int]:
    """Greedy bottom-up merge of adjacent rows (Khiops' IntervalListMergeOptimization).

    Merges the adjacent pair with the smallest part-cost delta while the total delta
    ``Δparts + pc[I−1] − pc[I]`` is ≤ 0 (|Δ| < 1e-6 counts as 0) or while I > ``max_parts``.
    With ``best_merge`` the merges then continue down to one interval on a copy, the size of
    lowest cumulated cost is kept (≤ best + 1e-6, so ties favour fewer intervals) and the merges
    are replayed to that size (IntervalListBestMergeOptimization). Returns the interval ends.
    ``strict=True`` merges only while the cost strictly decreases (the "plain greedy" of SPEC
    §3.1, which stops at 9.757 on y = 00011000; Khiops' rule "≤ 0" goes on through the zero-delta
    merge). ``reference=True``: the pure-Python reference (also used for non-integer rows).
    """
    counts = None if reference else integer_counts(rows)
    if counts is None or counts.shape[0] <= 1:
        intervals = _IntervalList(np.asarray(rows, dtype=np.float64))
        _merge_while_better(intervals, pc, max_parts, strict)
        if best_merge:
            _best_merge(intervals, pc, max_parts)
        return intervals.ends()
    ends = modl_kernels.greedy_merge_kernel(
        counts,
        np.ascontiguousarray(pc, dtype=np.float64),
        int(max_parts),
        bool(best_merge),
        bool(strict),
        _tables_for(counts),
    )
    return ends.tolist()


def post_optimise(
    rows: np.ndarray,
    ends: list[int],
    pc: np.ndarray,
    max_parts: int = 0,
    *,
    reference: bool = False,
) -> list[int]:
    """Hill-climbing with Split, MergeSplit and MergeMergeSplit moves (Khiops post-optimisation).

    Each step applies the move of :func:`~repro.preprocessing.modl.rules.choose_move` among the
    best candidate of each kind; among equal deltas the leftmost candidate is taken (Khiops'
    sorted lists order ties by insertion, which coincides on the first step).
    ``reference=True``: the pure-Python reference (also used for non-integer rows).
    """
    counts = None if reference else integer_counts(rows)
    if counts is None:
        return _post_optimise_py(rows, ends, pc, max_parts)
    out = modl_kernels.post_optimise_kernel(
        counts,
        np.asarray(ends, dtype=np.int64),
        np.ascontiguousarray(pc, dtype=np.float64),
        int(max_parts),
        _tables_for(counts),
    )
    return out.tolist()


def optimise_groups(counts: np.ndarray, pc: np.ndarray, *, reference: bool = False) -> np.ndarray:
    """Group the values (rows of ``counts``) by greedy merges + single-value moves.

    1. greedy bottom-up merge of the two groups whose merge lowers the part costs most, down to
       one group, keeping the best total cost (ties → fewer groups);
    2. moves of one value to another group while the total cost decreases by more than 1e-9
       (a move to a new singleton is not needed: the greedy already explored the merges).

    Returns the group index of each value (0..I−1, groups numbered by first value).
    ``reference=True``: the pure-Python reference (also used for non-integer counts).
    """
    icounts = None if reference else integer_counts(counts)
    if icounts is None or icounts.shape[0] <= 1:
        return _optimise_groups_py(counts, pc)
    pc = np.ascontiguousarray(pc, dtype=np.float64)
    return _renumber(modl_kernels.optimise_groups_kernel(icounts, pc, _tables_for(icounts)))


# ---------------------------------------------------------------------------------------------
# Exact dynamic programme
# ---------------------------------------------------------------------------------------------
def optimal_intervals(rows: np.ndarray, pc: np.ndarray, max_parts: int = 0) -> list[int]:
    """Exact optimum over all partitions of the ordered rows into intervals, O(n³).

    best[I][j] = min_i best[I−1][i] + part(i+1..j); the total adds pc[I]. Ties keep the
    smallest I.
    """
    rows = np.asarray(rows, dtype=np.float64)
    n = rows.shape[0]
    cum = np.vstack([np.zeros((1, rows.shape[1])), np.cumsum(rows, axis=0)])
    # part cost of rows a..b (inclusive), a ≤ b: matrix (n × n), upper triangle
    seg = cum[None, 1:, :] - cum[:-1, None, :]  # seg[a, b] = rows a..b
    upper = np.triu(np.ones((n, n), bool))
    seg = np.where(upper[:, :, None], seg, 0.0)
    seg_cost = np.where(upper, part_cost(seg.reshape(-1, rows.shape[1])).reshape(n, n), np.inf)
    i_max = n if max_parts <= 0 else min(n, max_parts)
    best = seg_cost[0].copy()  # one interval: rows 0..j
    back = [np.full(n, -1, dtype=np.int64)]
    best_total, best_i = pc[1] + best[n - 1], 1
    for n_int in range(2, i_max + 1):
        # new[j] = min_{i<j} best[i] + seg_cost[i+1, j]
        cand = best[:-1, None] + seg_cost[1:, :]  # (i, j) with i = 0..n−2
        arg = np.argmin(cand, axis=0)
        new = cand[arg, np.arange(n)]
        back.append(arg)
        best = new
        total = pc[n_int] + best[n - 1]
        if total < best_total - 1e-9:
            best_total, best_i = total, n_int
    # backtrack
    ends = [n - 1]
    j = n - 1
    for n_int in range(best_i, 1, -1):
        j = int(back[n_int - 1][j])
        ends.append(j)
    return sorted(ends)


def optimise_intervals(
    rows: np.ndarray, pc: np.ndarray, algorithm: str = "optimized_greedy", max_parts: int = 0
) -> list[int]:
    """Best partition of ordered rows into intervals for the partition costs ``pc``.

    Returns the (inclusive) last row index of each interval.
    """
    rows = np.asarray(rows)
    if rows.dtype != np.int64 or algorithm == "optimal":  # (int64 counts go to the kernels)
        rows = rows.astype(np.float64)
    if rows.shape[0] <= 1:
        return [rows.shape[0] - 1]
    if algorithm == "optimal":
        return optimal_intervals(rows, pc, max_parts)
    if algorithm == "greedy":
        return greedy_merge(rows, pc, max_parts, best_merge=False, strict=True)
    if algorithm == "optimized_greedy":
        ends = greedy_merge(rows, pc, max_parts, best_merge=True)
        return post_optimise(rows, ends, pc, max_parts)
    raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {algorithm!r}")


# ---------------------------------------------------------------------------------------------
# Multi-class grouping heuristic (SPEC §3.2)
# ---------------------------------------------------------------------------------------------
def set_partitions(n: int):
    """All partitions of range(n) as label lists (restricted growth strings), B(n) of them."""

    def rec(i, labels, k):
        if i == n:
            yield list(labels)
            return
        for lab in range(k + 1):
            labels.append(lab)
            yield from rec(i + 1, labels, max(k, lab + 1))
            labels.pop()

    yield from rec(0, [], 0)


def _optimise_groups_py(counts: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Reference :func:`optimise_groups`."""
    counts = np.asarray(counts, dtype=np.float64)
    v = counts.shape[0]
    if v <= 1:
        return np.zeros(v, dtype=np.int64)
    groups = [[i] for i in range(v)]
    g_counts = [counts[i].copy() for i in range(v)]
    g_cost = [float(c) for c in part_cost(counts)]
    total = pc[v] + sum(g_cost)
    best_total, best_groups = total, [list(g) for g in groups]
    while len(groups) > 1:
        best = (np.inf, None, None, None)
        for a, b in combinations(range(len(groups)), 2):
            merged = g_counts[a] + g_counts[b]
            c = _part_cost1(merged)
            d = c - g_cost[a] - g_cost[b]
            if d < best[0] - 1e-12:
                best = (d, a, b, (merged, c))
        d, a, b, (merged, c) = best
        total += d + pc[len(groups) - 1] - pc[len(groups)]
        groups[a] = groups[a] + groups[b]
        g_counts[a], g_cost[a] = merged, c
        del groups[b], g_counts[b], g_cost[b]
        if total <= best_total + 1e-9:
            best_total, best_groups = total, [list(g) for g in groups]
    labels = np.empty(v, dtype=np.int64)
    for k, g in enumerate(best_groups):
        labels[g] = k
    return _move_values_py(counts, labels, pc)


def _move_values_py(counts: np.ndarray, labels: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Hill-climb: move single values between existing groups while the cost drops."""
    labels = labels.copy()
    n_groups = labels.max() + 1
    g_counts = np.zeros((n_groups, counts.shape[1]))
    np.add.at(g_counts, labels, counts)
    improved = True
    while improved and n_groups > 1:
        improved = False
        g_cost = part_cost(g_counts)
        best = (-1e-9, None, None)
        for i in range(counts.shape[0]):
            src = labels[i]
            without = g_counts[src] - counts[i]
            if without.sum() == 0:
                continue  # moving the last value would empty a group: a merge, already explored
            c_src = _part_cost1(without)
            targets = g_counts + counts[i][None, :]
            c_t = part_cost(targets)
            deltas = (c_src - g_cost[src]) + (c_t - g_cost)
            deltas[src] = np.inf
            t = int(np.argmin(deltas))
            if deltas[t] < best[0]:
                best = (deltas[t], i, t)
        if best[1] is not None:
            i, t = best[1], best[2]
            g_counts[labels[i]] -= counts[i]
            g_counts[t] += counts[i]
            labels[i] = t
            improved = True
    return _renumber(labels)


def _renumber(labels: np.ndarray) -> np.ndarray:
    """Renumber groups by first value."""
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    remap = np.empty(order.size, dtype=np.int64)
    remap[np.unique(labels)[order]] = np.arange(order.size)
    return remap[labels]
