"""MODL optimisers of the 2005/2006 papers, on the criteria of
:mod:`repro.preprocessing.modl.criteria`: every optimiser takes the partition costs ``pc[I]``
(I = 0..n, ``pc[0]`` unused) and the rows' class counts, so that the same code serves the papers'
costs and Khiops' (:mod:`repro.preprocessing.modl.khiops`).

Optimisers of an ordered sequence of rows (distinct values, or values sorted by P(class) for the
two-class grouping):

- :func:`optimise_intervals` with ``algorithm="optimized_greedy"`` (default): greedy bottom-up merge
  driven by a sorted list of merge deltas, continued down to one interval keeping the best size,
  then post-optimisation by Split / MergeSplit / MergeMergeSplit moves. It follows the Khiops
  implementation (``KWDiscretizerMODL``) step by step, including its tie rules (the sorted list
  :class:`~repro.preprocessing.modl.sorted_list.SortedList`) and its 1e-6 tolerances, so that the
  same code reproduces Khiops' partitions when given Khiops' partition costs;
- ``algorithm="greedy"``: the plain greedy merge (stops when no merge lowers the cost);
- ``algorithm="optimal"``: exact O(n³) dynamic programme (:func:`optimal_intervals`).

:func:`greedy_grouping` is the multi-class grouping heuristic of the 2005 paper (greedy merge of any
two groups down to one group keeping the best, then moves of single values between groups).

Each optimiser runs a compiled kernel (:mod:`repro.preprocessing.modl.kernels`) on integer counts;
``reference=True`` runs the pure-Python reference below (the tests' oracle, also used for
non-integer rows).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from repro.preprocessing.modl import kernels as modl_kernels
from repro.preprocessing.modl.criteria import interval_counts, part_cost, scalar_part_cost
from repro.preprocessing.modl.rules import EPSILON, INFINITE_COST, choose_move
from repro.preprocessing.modl.sorted_list import SortedList

ALGORITHMS = ("optimized_greedy", "greedy", "optimal")


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
        self.merge_cost[i] = scalar_part_cost(merged)
        self.merge_delta[i] = self.merge_cost[i] - self.cost[i] - self.cost[p]

    def sorted_merges(self) -> SortedList:
        merges = SortedList()
        for i in self.ids():
            if self.prev[i] is not None:
                merges.add(i, self.merge_delta[i])
        return merges

    def apply_merge(self, merges: SortedList, i: int) -> None:
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
    ``strict=True`` merges only while the cost strictly decreases (the "plain greedy" reading
    of the 2006 paper, which stops at 9.757 on y = 00011000; Khiops' rule "≤ 0" goes on through
    the zero-delta merge). ``reference=True``: the pure-Python reference (also used for
    non-integer rows).
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


def greedy_grouping(counts: np.ndarray, pc: np.ndarray, *, reference: bool = False) -> np.ndarray:
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
        return _greedy_grouping_py(counts, pc)
    pc = np.ascontiguousarray(pc, dtype=np.float64)
    return _renumber(modl_kernels.greedy_grouping_kernel(icounts, pc, _tables_for(icounts)))


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
# Multi-class grouping heuristic
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


def _greedy_grouping_py(counts: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Reference :func:`greedy_grouping`."""
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
            c = scalar_part_cost(merged)
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
            c_src = scalar_part_cost(without)
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
