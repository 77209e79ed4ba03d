"""MODL value grouping as Khiops 11 implements it (KHIOPS_NOTES §3; SPEC §3.3).

A step-by-step port of ``KWGrouperMODL`` (Learning/KWDataPreparation, tag 11.0.1): the same
algorithms, in the same order, with the same tie rules and 1e-6 tolerances, so that the groups
(class counts of the parts) and the Level are those of Khiops on every table.

Criterion (``KWMODLGroupingCosts``, KWUnivariatePartitionCost.cpp; :class:`GroupingCosts`), for V
granularised values, I groups, N instances, J classes, granularity g, G = ⌈log2 N⌉, attribute
cost A::

    no garbage group:   pc(I) = ln2 + [I>1]·(A + L_B(g;G) + [V>7]·ln2 + L_B(I−1; V−1) + lnB(V, I))
    garbage group of Gb values (Vi = V−Gb informative values, Ii = I−1 informative groups):
        pc(I, Gb) = ln2 + [Ii>1]·(A + L_B(g;G) + [V>7]·ln2 + L_B(Vi−1; V−2) + Vi·ln V − ln Vi!
                                 + L_B(Ii−1; Vi−1) + lnB(Vi, Ii))
    part(i) = ln (n_i+J−1)! − ln (J−1)! − Σ_j ln n_ij!          (ln k! tabulated as Σ ln, KWStat)
    cost = pc + Σ_i part(i)

The garbage group is the group holding the most values (each granularised value, the catch-all
included, counts one); Gb is its number of values.

Pipeline (one function per Khiops method; the Khiops name is in each docstring):

* :func:`group_values` — ``KWGrouperMODL::GroupPreprocessedTable``: values sorted by decreasing
  frequency (ties: label order), granularities g = 1..⌊log2 N⌋ (minus one if N is a power of 2);
  ``KWQuantileGroupBuilder::ComputeQuantiles`` keeps the values of frequency ≥ ⌈N/2^g⌉ as singletons
  and puts the others in one catch-all part; a granularity is explored if its number of parts P
  grew by 1.5 since the last explored one and 1.5·P ≤ P_max, or if it is the last (P = P_max or
  g = g_max); the strictly lowest cost wins; ``PostOptimizeGranularity`` then lowers g while the
  partition stays defined.
* :func:`group_frequency_table` — ``GroupFrequencyTable``: ≤ 3 values → ``SmallSourceNumberGroup``
  (exhaustive); J = 2 → ``TwoClassesGroup``; else V < 7 → ``MultipleClassesGroup``, V ≥ 7 →
  ``MultipleClassesGroupWithGarbageSearch``.
* Two classes (``KWGrouperMODLTwoClasses``, KWGrouperMODLInternal.cpp): pure values of a class are
  merged (``MergePureSourceValues``), the rows are sorted by increasing P(first class) (ties: row
  index) and discretised by the MODL discretisation heuristic of ``KWDiscretizerMODL`` (greedy
  merges, best merge, post-optimisation by Split / MergeSplit / MergeMergeSplit, all driven by
  Khiops' sorted lists, :class:`_IntervalOptimizer`). With ≥ 7 rows the search also follows the
  partitions with a garbage interval (the interval with the most values:
  ``IntervalListMergeOptimizationWithGarbagePartitionCost``,
  ``IntervalListBestMergeOptimizationWithGarbage``, ``IntervalListPostOptimizationWithGarbage``)
  and keeps it if strictly cheaper.
* Several classes (KWGrouperMODL.cpp, KWGrouperMODLOptimization.cpp): ``MergePureSourceValues``;
  ``BuildReliableSubGroups`` (the values kept together by all the one-class-versus-rest two-class
  groupings, run without partition cost: :class:`NullCosts`); if there are more than √N sub-groups,
  ``ComputeMinGroupFrequency`` + ``MergeSmallGroups`` (small groups merged by majority class);
  greedy merges of any two groups (``OptimizeGroups``; with garbage search
  ``OptimizeGroupsWithGarbageSearch``); post-optimisation (``PostOptimizeGrouping`` /
  ``PostOptimizeGroupingWithGarbageSearch``: ``ExhaustiveMergeGrouping`` down to 5 groups, moves of
  single sub-groups between groups ``PostOptimizeGroups``, up to 3 unsuccessful forced best merges
  ``ForceBestGroupMerge``, the same with the garbage group, then the single group).

Khiops' ``SortedList`` (Norm/base/SortedList.cpp) decides every tie: :class:`_SortedList`.

Details that decide the result (all from the sources, all needed for the exact agreement):

* granularity: the winner has a strictly lower cost (no 1e-6 margin, unlike the discretiser), and
  g = g_max is always explored;
* two classes: the order is increasing n_first/n with ties by row index (not the reverse of a
  decreasing order); the garbage search runs from 7 rows (after the pure merge), keeps ≥ 2
  intervals for the plain partition and ≥ 3 for the garbage one, allows MergeMergeSplit with
  garbage only above 3 intervals, and for a Split of the garbage interval takes as new garbage size
  max(next largest, first part) if the first part is larger, else max(next largest, second part);
* the one-class-versus-rest groupings of ``BuildReliableSubGroups`` run this same garbage search
  with null partition costs (so its plain partition keeps ≥ 2 intervals);
* more than √N sub-groups (``MultipleClassesGroup``: √N real, target ⌈√N⌉; with garbage search:
  ⌊√N⌋ for both): ``MergeSmallGroups`` merges each small group into the first one met of its
  majority class (first class of maximal count);
* group merges: the merge of smallest delta is the tail of a list sorted by decreasing delta,
  merges go on while Δ < 1e-6 (and, with garbage search, while the garbage partition does not
  degrade, never below 3 groups); the new groups follow the swap-removal order of the active
  groups;
* moves of sub-groups: the first (value, group) of strictly smallest Δ below 1e-6, applied if
  Δ < −1e-6, the group costs being updated incrementally; forced merges: the first pair of
  strictly smallest delta, kept if cost < best + 1e-6; the garbage partition wins if its cost
  < plain + 1e-6; the single group if its cost < plain + 1e-6.
"""

from __future__ import annotations

import math
import sys
from bisect import bisect_left, bisect_right

import numpy as np

from repro.preprocessing.modl.khiops import (
    GARBAGE_MIN_VALUES,
    bounded_universal_code,
    grouping_partition_cost,
    ln_bell,
)

EPSILON = 1e-6
"""``KWGrouperMODL::dEpsilon`` and ``KWDiscretizerMODL::dEpsilon``."""
INFINITE_COST = 1e20
"""``KWDiscretizerMODL::dInfiniteCost``: an impossible Split / MergeSplit / MergeMergeSplit."""
DBL_MAX = sys.float_info.max
MAX_TESTED_FORCED_MERGES = 3
"""``nMaxTestedForcedMergeNumber`` of the post-optimisations."""
REQUIRED_INCREASING_COEFFICIENT = 1.5

_LN_FACT = [0.0]


def _ln_fact_table(n: int) -> list[float]:
    """``KWStat::LnFactorial`` table: lf[i] = lf[i−1] + ln i, up to at least n."""
    table = _LN_FACT
    while len(table) <= n:
        table.append(table[-1] + math.log(1.0 * len(table)))
    return table


# ---------------------------------------------------------------------------------------------
# Costs (KWUnivariatePartitionCost.cpp)
# ---------------------------------------------------------------------------------------------
class GroupingCosts:
    """``KWMODLGroupingCosts`` of V granularised values at granularity g (formulas: module doc)."""

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


# ---------------------------------------------------------------------------------------------
# Khiops' sorted list (Norm/base/SortedList.cpp)
# ---------------------------------------------------------------------------------------------
class _SortedList:
    """A list kept in increasing key order with the tie rule of Khiops' AVL ``SortedList``: an
    element whose key is already present goes right after the first element of that key (so a
    tie group reads: first inserted, then the others from the newest to the oldest)."""

    __slots__ = ("keys", "items", "key_of")

    def __init__(self):
        self.keys: list = []
        self.items: list = []
        self.key_of: dict = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, item, key) -> None:
        keys = self.keys
        pos = bisect_left(keys, key)
        if pos < len(keys) and keys[pos] == key:
            pos += 1
        keys.insert(pos, key)
        self.items.insert(pos, item)
        self.key_of[item] = key

    def remove(self, item) -> None:
        key = self.key_of.pop(item)
        keys, items = self.keys, self.items
        lo, hi = bisect_left(keys, key), bisect_right(keys, key)
        for i in range(lo, hi):
            if items[i] is item:
                del keys[i]
                del items[i]
                return
        raise KeyError(item)  # pragma: no cover

    def head(self):
        return self.items[0]

    def tail(self):
        return self.items[-1]

    def is_head(self, item) -> bool:
        return self.items[0] is item


def _add(a, b) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def _sub(a, b) -> tuple:
    return tuple(x - y for x, y in zip(a, b))


# ---------------------------------------------------------------------------------------------
# Two-class grouping: the discretisation heuristic on sorted rows (KWDiscretizerMODL*.cpp,
# KWGrouperMODLInternal.cpp)
# ---------------------------------------------------------------------------------------------
class _Split:
    """``KWMODLLineSplit``: best cut of a run of rows into two sub-intervals."""

    __slots__ = ("delta", "index", "counts", "mod", "cost1", "cost2")

    def __init__(self):
        self.delta = INFINITE_COST
        self.index = 0
        self.counts = ()
        self.mod = 0
        self.cost1 = 0.0
        self.cost2 = 0.0


class _Line:
    """``KWMODLLineDeepOptimization``: an interval of rows [prev.index+1, index] with its merge,
    Split, MergeSplit and MergeMergeSplit candidates."""

    __slots__ = (
        "index",
        "counts",
        "mod",
        "cost",
        "prev",
        "next",
        "m_counts",
        "m_mod",
        "m_cost",
        "m_delta",
        "split",
        "msplit",
        "mmsplit",
    )

    def __init__(self, index, counts, mod, cost):
        self.index = index
        self.counts = counts
        self.mod = mod
        self.cost = cost
        self.prev = None
        self.next = None
        self.m_counts = counts
        self.m_mod = 0
        self.m_cost = 0.0
        self.m_delta = 0.0
        self.split = _Split()
        self.msplit = _Split()
        self.mmsplit = _Split()


def _lines(head):
    line = head
    while line is not None:
        yield line
        line = line.next


class _IntervalOptimizer:
    """The interval-list optimisation of ``KWDiscretizerMODL`` on the rows of a sorted table, as
    ``KWGrouperMODLTwoClasses`` uses it (``mods``: number of values of each row)."""

    def __init__(self, rows, mods, costs: GroupingCosts):
        self.rows = rows
        self.mods = mods
        self.costs = costs
        width = len(rows[0])
        cum = [(0,) * width]
        cum_mod = [0]
        for row, mod in zip(rows, mods):
            cum.append(_add(cum[-1], row))
            cum_mod.append(cum_mod[-1] + mod)
        self.cum = cum
        self.cum_mod = cum_mod
        self.freq: _SortedList | None = None  # working list of the garbage search

    # -- lists ----------------------------------------------------------------------------
    def build_lines(self):
        """``BuildIntervalListFromFrequencyTable``: one interval per row."""
        head = prev = None
        part_cost = self.costs.part_cost
        for i, (row, mod) in enumerate(zip(self.rows, self.mods)):
            line = _Line(i, row, mod, part_cost(row))
            if prev is None:
                head = line
            else:
                prev.next = line
                line.prev = prev
            prev = line
        return head

    @staticmethod
    def clone(head, with_merge: bool):
        """``CloneIntervalList`` (and the copy of the merge information)."""
        new_head = prev = None
        for line in _lines(head):
            copy = _Line(line.index, line.counts, line.mod, line.cost)
            if with_merge:
                copy.m_counts, copy.m_mod = line.m_counts, line.m_mod
                copy.m_cost, copy.m_delta = line.m_cost, line.m_delta
            if prev is None:
                new_head = copy
            else:
                prev.next = copy
                copy.prev = prev
            prev = copy
        return new_head

    def _freq_add(self, line) -> None:
        if self.freq is not None:
            self.freq.add(line, -line.mod)

    def _freq_remove(self, line) -> None:
        if self.freq is not None:
            self.freq.remove(line)

    @staticmethod
    def frequency_list(head) -> _SortedList:
        """``InitializeFrequencySortedList``: intervals by decreasing number of values."""
        freq = _SortedList()
        for line in _lines(head):
            freq.add(line, -line.mod)
        return freq

    # -- merges (KWDiscretizerMODLOptimization.cpp) -----------------------------------------
    def compute_merge(self, line) -> None:
        """``ComputeIntervalMerge``."""
        prev = line.prev
        line.m_counts = _add(prev.counts, line.counts)
        line.m_mod = prev.mod + line.mod
        line.m_cost = self.costs.part_cost(line.m_counts)
        line.m_delta = line.m_cost - line.cost - prev.cost

    def init_merges(self, head) -> None:
        """``InitializeMergeList``."""
        for line in _lines(head.next):
            self.compute_merge(line)

    @staticmethod
    def merge_list(head) -> _SortedList:
        """``InitializeMergeSortedList``."""
        merges = _SortedList()
        for line in _lines(head.next):
            merges.add(line, line.m_delta)
        return merges

    def update_merge(self, merges: _SortedList, head, line):
        """``UpdateMergeSortedList``: merge ``line`` with its predecessor; returns the head."""
        prev, nxt = line.prev, line.next
        self._freq_remove(line)
        self._freq_remove(prev)
        merges.remove(line)
        if prev.prev is not None:
            merges.remove(prev)
        if nxt is not None:
            merges.remove(nxt)
        line.counts, line.mod, line.cost = line.m_counts, line.m_mod, line.m_cost
        self._freq_add(line)
        pp = prev.prev
        line.prev = pp
        if pp is None:
            head = line
        else:
            pp.next = line
        if pp is not None:
            self.compute_merge(line)
            merges.add(line, line.m_delta)
        if nxt is not None:
            self.compute_merge(nxt)
            merges.add(nxt, nxt.m_delta)
        return head

    def merge_optimization(self, head):
        """``IntervalListMergeOptimization``."""
        self.init_merges(head)
        merges = self.merge_list(head)
        n_parts = len(merges) + 1
        while len(merges):
            line = merges.head()
            delta = self.costs.partition_delta(n_parts, 0)
            delta += line.m_delta
            if abs(delta) < EPSILON:
                delta = 0.0
            if delta <= 0:
                head = self.update_merge(merges, head, line)
                n_parts -= 1
            else:
                break
        return head

    def best_merge_optimization(self, head):
        """``IntervalListBestMergeOptimization``."""
        copy = self.clone(head, True)
        merges = self.merge_list(copy)
        total = best_total = 0.0
        n_parts = best_n = len(merges) + 1
        while len(merges):
            line = merges.head()
            delta = self.costs.partition_delta(n_parts, 0)
            delta += line.m_delta
            copy = self.update_merge(merges, copy, line)
            n_parts -= 1
            total += delta
            if total <= best_total + EPSILON and n_parts >= 1:
                best_total, best_n = total, n_parts
        merges = self.merge_list(head)
        n_parts = len(merges) + 1
        while n_parts > best_n:
            head = self.update_merge(merges, head, merges.head())
            n_parts -= 1
        return head

    # -- splits (ComputeBestSplit) ----------------------------------------------------------
    def best_split(self, first: int, last: int, initial_cost: float, rec: _Split) -> None:
        """``ComputeBestSplit`` of rows [first, last] (rec.counts/mod: their totals): the cut is
        scanned from right to left, a candidate is kept if cost < best·(1 − 1e-6)."""
        part_cost = self.costs.part_cost
        rec.delta = INFINITE_COST
        rec.index = last
        rec.cost1 = part_cost(rec.counts)
        rec.cost2 = 0.0
        if first >= last:
            return
        cum, cum_mod = self.cum, self.cum_mod
        base, top = cum[first], cum[last + 1]
        best_total = INFINITE_COST
        threshold = 1 - EPSILON
        found = None
        for idx in range(last, first, -1):
            mid = cum[idx]
            c1 = part_cost(_sub(mid, base))
            c2 = part_cost(_sub(top, mid))
            total = c1 + c2
            if total < best_total * threshold:
                best_total = total
                found = (idx, c1, c2, total)
        idx, c1, c2, total = found
        rec.index = idx - 1
        rec.counts = _sub(cum[idx], base)
        rec.mod = cum_mod[idx] - cum_mod[first]
        rec.cost1, rec.cost2 = c1, c2
        delta = total - initial_cost
        rec.delta = 0.0 if abs(delta) < EPSILON else delta

    def compute_split(self, line) -> None:
        """``ComputeIntervalSplit``."""
        rec = line.split
        rec.counts, rec.mod = line.counts, line.mod
        rec.delta = INFINITE_COST
        first = 0 if line.prev is None else line.prev.index + 1
        last = line.index
        if first < last:
            self.best_split(first, last, line.cost, rec)

    def compute_merge_split(self, line) -> None:
        """``ComputeIntervalMergeSplit``."""
        prev = line.prev
        rec = line.msplit
        rec.counts = _add(prev.counts, line.counts)
        rec.mod = prev.mod + line.mod
        rec.delta = INFINITE_COST
        first = 0 if prev.prev is None else prev.prev.index + 1
        last = line.index
        if first + 1 < last:
            self.best_split(first, last, line.cost + prev.cost, rec)

    def compute_merge_merge_split(self, line) -> None:
        """``ComputeIntervalMergeMergeSplit``."""
        prev = line.prev
        pp = prev.prev
        rec = line.mmsplit
        rec.counts = _add(_add(pp.counts, prev.counts), line.counts)
        rec.mod = pp.mod + prev.mod + line.mod
        rec.delta = INFINITE_COST
        first = 0 if pp.prev is None else pp.prev.index + 1
        self.best_split(first, line.index, line.cost + prev.cost + pp.cost, rec)

    def init_post_lists(self, head):
        """``Initialize{Split,MergeSplit,MergeMergeSplit}{List,SortedList}``."""
        for line in _lines(head):
            self.compute_split(line)
        for line in _lines(head.next):
            self.compute_merge_split(line)
        if head.next is not None:
            for line in _lines(head.next.next):
                self.compute_merge_merge_split(line)
        splits, msplits, mmsplits = _SortedList(), _SortedList(), _SortedList()
        for line in _lines(head):
            splits.add(line, line.split.delta)
        for line in _lines(head.next):
            msplits.add(line, line.msplit.delta)
        if head.next is not None:
            for line in _lines(head.next.next):
                mmsplits.add(line, line.mmsplit.delta)
        return splits, msplits, mmsplits

    # -- post-optimisation moves (KWDiscretizerMODL.cpp) --------------------------------------
    def apply_split(self, lists, line) -> None:
        """``UpdatePostOptimizationSortedListsWithSplit``."""
        splits, msplits, mmsplits = lists
        prev = line.prev
        pp = prev.prev if prev is not None else None
        nxt = line.next
        nn = nxt.next if nxt is not None else None
        splits.remove(line)
        if prev is not None:
            msplits.remove(line)
        if nxt is not None:
            msplits.remove(nxt)
        if pp is not None:
            mmsplits.remove(line)
        if nxt is not None and prev is not None:
            mmsplits.remove(nxt)
        if nn is not None:
            mmsplits.remove(nn)
        self._freq_remove(line)
        rec = line.split
        new = _Line(line.index, _sub(line.counts, rec.counts), line.mod - rec.mod, rec.cost2)
        new.next = nxt
        if nxt is not None:
            nxt.prev = new
        line.next = new
        new.prev = line
        line.counts, line.mod = rec.counts, rec.mod
        line.index = rec.index
        line.cost = rec.cost1
        self._freq_add(new)
        self._freq_add(line)
        self.compute_split(line)
        splits.add(line, line.split.delta)
        self.compute_split(new)
        splits.add(new, new.split.delta)
        if prev is not None:
            self.compute_merge_split(line)
            msplits.add(line, line.msplit.delta)
        self.compute_merge_split(new)
        msplits.add(new, new.msplit.delta)
        if nxt is not None:
            self.compute_merge_split(nxt)
            msplits.add(nxt, nxt.msplit.delta)
        if pp is not None:
            self.compute_merge_merge_split(line)
            mmsplits.add(line, line.mmsplit.delta)
        if prev is not None:
            self.compute_merge_merge_split(new)
            mmsplits.add(new, new.mmsplit.delta)
        if nxt is not None:
            self.compute_merge_merge_split(nxt)
            mmsplits.add(nxt, nxt.mmsplit.delta)
        if nn is not None:
            self.compute_merge_merge_split(nn)
            mmsplits.add(nn, nn.mmsplit.delta)

    def apply_merge_split(self, lists, line) -> None:
        """``UpdatePostOptimizationSortedListsWithMergeSplit``."""
        splits, msplits, mmsplits = lists
        prev = line.prev
        pp = prev.prev
        nxt = line.next
        nn = nxt.next if nxt is not None else None
        splits.remove(line)
        splits.remove(prev)
        msplits.remove(line)
        if pp is not None:
            msplits.remove(prev)
        if nxt is not None:
            msplits.remove(nxt)
        if pp is not None and pp.prev is not None:
            mmsplits.remove(prev)
        if pp is not None:
            mmsplits.remove(line)
        if nxt is not None:
            mmsplits.remove(nxt)
        if nn is not None:
            mmsplits.remove(nn)
        self._freq_remove(line)
        self._freq_remove(prev)
        rec = line.msplit
        prev.index = rec.index
        prev.cost = rec.cost1
        line.cost = rec.cost2
        line.counts = _sub(_add(prev.counts, line.counts), rec.counts)
        line.mod = prev.mod + line.mod - rec.mod
        prev.counts, prev.mod = rec.counts, rec.mod
        self._freq_add(prev)
        self._freq_add(line)
        self.compute_split(prev)
        splits.add(prev, prev.split.delta)
        self.compute_split(line)
        splits.add(line, line.split.delta)
        line.msplit.delta = 0.0
        msplits.add(line, 0.0)
        if pp is not None:
            self.compute_merge_split(prev)
            msplits.add(prev, prev.msplit.delta)
        if nxt is not None:
            self.compute_merge_split(nxt)
            msplits.add(nxt, nxt.msplit.delta)
        if pp is not None and pp.prev is not None:
            self.compute_merge_merge_split(prev)
            mmsplits.add(prev, prev.mmsplit.delta)
        if pp is not None:
            self.compute_merge_merge_split(line)
            mmsplits.add(line, line.mmsplit.delta)
        if nxt is not None:
            self.compute_merge_merge_split(nxt)
            mmsplits.add(nxt, nxt.mmsplit.delta)
        if nn is not None:
            self.compute_merge_merge_split(nn)
            mmsplits.add(nn, nn.mmsplit.delta)

    def apply_merge_merge_split(self, lists, line) -> None:
        """``UpdatePostOptimizationSortedListsWithMergeMergeSplit``."""
        splits, msplits, mmsplits = lists
        prev = line.prev
        pp = prev.prev
        nxt = line.next
        nn = nxt.next if nxt is not None else None
        splits.remove(pp)
        splits.remove(prev)
        splits.remove(line)
        if pp.prev is not None:
            msplits.remove(pp)
        msplits.remove(prev)
        msplits.remove(line)
        if nxt is not None:
            msplits.remove(nxt)
        mmsplits.remove(line)
        if pp.prev is not None:
            mmsplits.remove(prev)
            if pp.prev.prev is not None:
                mmsplits.remove(pp)
        if nxt is not None:
            mmsplits.remove(nxt)
        if nn is not None:
            mmsplits.remove(nn)
        self._freq_remove(line)
        self._freq_remove(prev)
        self._freq_remove(pp)
        rec = line.mmsplit
        pp.index = rec.index
        pp.cost = rec.cost1
        line.cost = rec.cost2
        line.counts = _sub(_add(_add(pp.counts, prev.counts), line.counts), rec.counts)
        line.mod = pp.mod + prev.mod + line.mod - rec.mod
        pp.counts, pp.mod = rec.counts, rec.mod
        pp.next = line
        line.prev = pp
        self._freq_add(pp)
        self._freq_add(line)
        self.compute_split(pp)
        splits.add(pp, pp.split.delta)
        self.compute_split(line)
        splits.add(line, line.split.delta)
        if pp.prev is not None:
            self.compute_merge_split(pp)
            msplits.add(pp, pp.msplit.delta)
        self.compute_merge_split(line)
        msplits.add(line, line.msplit.delta)
        if nxt is not None:
            self.compute_merge_split(nxt)
            msplits.add(nxt, nxt.msplit.delta)
        if pp.prev is not None:
            self.compute_merge_merge_split(line)
            mmsplits.add(line, line.mmsplit.delta)
            if pp.prev.prev is not None:
                self.compute_merge_merge_split(pp)
                mmsplits.add(pp, pp.mmsplit.delta)
        if nxt is not None:
            self.compute_merge_merge_split(nxt)
            mmsplits.add(nxt, nxt.mmsplit.delta)
        if nn is not None:
            self.compute_merge_merge_split(nn)
            mmsplits.add(nn, nn.mmsplit.delta)

    @staticmethod
    def _choose(d_split, d_ms, d_mms):
        """The move of ``IntervalListPostOptimization``: 0 split, 1 MergeSplit, 2
        MergeMergeSplit, None to stop."""
        if abs(d_split) < EPSILON:
            d_split = 0.0
        if abs(d_ms) < EPSILON:
            d_ms = 0.0
        if abs(d_mms) < EPSILON:
            d_mms = 0.0
        best = d_split
        if d_ms < best + EPSILON:
            best = d_ms
        if d_mms < best + EPSILON:
            best = d_mms
        if best > 0:
            return None
        if best == d_mms:
            return 2
        if best == 0:
            return None
        if best == d_ms:
            return 1
        return 0

    def post_optimization(self, head):
        """``IntervalListPostOptimization``."""
        lists = self.init_post_lists(head)
        splits, msplits, mmsplits = lists
        n_parts = len(splits)
        pd = self.costs.partition_delta
        while True:
            split_line = splits.head()
            if split_line.split.delta < INFINITE_COST:
                d_split = -pd(n_parts + 1, 0) + split_line.split.delta
            else:
                d_split = INFINITE_COST
            if len(msplits):
                ms_line = msplits.head()
                d_ms = ms_line.msplit.delta
            else:
                d_ms = INFINITE_COST
            if len(mmsplits):
                mms_line = mmsplits.head()
                d_mms = pd(n_parts, 0) + mms_line.mmsplit.delta
            else:
                d_mms = INFINITE_COST
            move = self._choose(d_split, d_ms, d_mms)
            if move is None:
                break
            if move == 2:
                self.apply_merge_merge_split(lists, mms_line)
                n_parts -= 1
            elif move == 1:
                self.apply_merge_split(lists, ms_line)
            else:
                self.apply_split(lists, split_line)
                n_parts += 1
        while head.prev is not None:
            head = head.prev
        return head

    def optimization(self):
        """``IntervalListOptimization`` (OptimizedGreedyMerge): merges, best merge,
        post-optimisation."""
        head = self.build_lines()
        head = self.merge_optimization(head)
        head = self.best_merge_optimization(head)
        return self.post_optimization(head)

    # -- the garbage search (KWGrouperMODLInternal.cpp) -------------------------------------
    def merge_optimization_with_garbage(self, head):
        """``IntervalListMergeOptimizationWithGarbagePartitionCost``."""
        costs = self.costs
        self.init_merges(head)
        merges = self.merge_list(head)
        self.freq = self.frequency_list(head)
        n_parts = len(merges) + 1
        garbage = self.freq.head().mod
        pc_garbage = costs.partition_cost(n_parts, garbage)
        delta_garbage = pc_garbage - costs.partition_cost(n_parts, 0)
        cum_garbage = delta_garbage
        cum_plain = 0.0
        prev_pc_garbage = pc_garbage
        while len(merges) > 0:
            line = merges.head()
            delta = costs.partition_delta(n_parts, 0)
            delta += line.m_delta
            cum_plain += delta
            if n_parts > 3:
                higher = self.freq.head().mod
                merged = line.mod + line.prev.mod
                garbage = higher if higher > merged else merged
                pc_garbage = costs.partition_cost(n_parts - 1, garbage)
                delta_garbage = (pc_garbage - prev_pc_garbage) + line.m_delta
                prev_pc_garbage = pc_garbage
                cum_garbage += delta_garbage
            else:
                break
            profitable = cum_garbage < cum_plain
            if abs(delta) < EPSILON:
                delta = 0.0
            if abs(delta_garbage) < EPSILON:
                delta_garbage = 0.0
            if (
                delta <= 0
                and n_parts > 3
                and ((profitable and delta_garbage <= 0) or not profitable)
            ):
                head = self.update_merge(merges, head, line)
                n_parts -= 1
            else:
                break
        self.freq = None
        return head

    def best_merge_optimization_with_garbage(self, head):
        """``IntervalListBestMergeOptimizationWithGarbage``: (plain list, garbage list, size of
        the garbage)."""
        costs = self.costs
        copy = self.clone(head, True)
        merges = self.merge_list(copy)
        self.freq = self.frequency_list(copy)
        total = best_total = 0.0
        n_parts = len(merges) + 1
        best_n_garbage = best_n_plain = n_parts
        total_garbage = best_total_garbage = 0.0
        prev_pc_garbage = 0.0
        if n_parts > 2:
            pc_garbage = costs.partition_cost(n_parts, self.freq.head().mod)
            prev_pc_garbage = pc_garbage
        while len(merges) > 0:
            line = merges.head()
            delta = costs.partition_delta(n_parts, 0)
            delta += line.m_delta
            if n_parts > 3:
                higher = self.freq.head().mod
                merged = line.mod + line.prev.mod
                garbage = higher if higher > merged else merged
                pc_garbage = costs.partition_cost(n_parts - 1, garbage)
                delta_garbage = (pc_garbage - prev_pc_garbage) + line.m_delta
                total_garbage += delta_garbage
                prev_pc_garbage = pc_garbage
            copy = self.update_merge(merges, copy, line)
            n_parts -= 1
            total += delta
            if total <= best_total + EPSILON and n_parts >= 2:
                best_total, best_n_plain = total, n_parts
            if total_garbage <= best_total_garbage + EPSILON and n_parts >= 3:
                best_total_garbage, best_n_garbage = total_garbage, n_parts
        self.freq = None
        head_garbage = self.clone(head, True)
        merges = self.merge_list(head)
        self.freq = self.frequency_list(head)
        n_parts = len(merges) + 1
        while n_parts > best_n_plain:
            head = self.update_merge(merges, head, merges.head())
            n_parts -= 1
        merges = self.merge_list(head_garbage)
        self.freq = self.frequency_list(head_garbage)
        n_parts = len(merges) + 1
        garbage = self.freq.head().mod
        while n_parts > best_n_garbage:
            head_garbage = self.update_merge(merges, head_garbage, merges.head())
            n_parts -= 1
            garbage = self.freq.head().mod
        self.freq = None
        return head, head_garbage, garbage

    def _other_largest(self, excluded) -> int:
        """Number of values of the first interval of the frequency list not in ``excluded``."""
        for line in self.freq.items:
            if all(line is not e for e in excluded):
                return line.mod
        return 0  # pragma: no cover

    def post_optimization_with_garbage(self, head):
        """``IntervalListPostOptimizationWithGarbage``."""
        costs = self.costs
        pc, pd = costs.partition_cost, costs.partition_delta
        self.freq = freq = self.frequency_list(head)
        lists = self.init_post_lists(head)
        splits, msplits, mmsplits = lists
        n_parts = len(splits)
        while True:
            garbage = freq.head().mod
            split_line = splits.head()
            if split_line.split.delta < INFINITE_COST:
                if not freq.is_head(split_line):
                    d_split = -pd(n_parts + 1, garbage) + split_line.split.delta
                else:
                    new_garbage = self._other_largest((split_line,))
                    first = split_line.split.mod
                    second = split_line.mod - first
                    if first > new_garbage:
                        new_garbage = first
                    elif second > new_garbage:
                        new_garbage = second
                    d_split = (
                        pc(n_parts + 1, new_garbage) - pc(n_parts, garbage) + split_line.split.delta
                    )
            else:
                split_line = None
                d_split = INFINITE_COST
            ms_line = None
            d_ms = INFINITE_COST
            if len(msplits):
                ms_line = msplits.head()
                if ms_line.msplit.delta == INFINITE_COST:
                    ms_line = None
                else:
                    new_garbage = self._other_largest((ms_line, ms_line.prev))
                    first = ms_line.msplit.mod
                    if first > new_garbage:
                        new_garbage = first
                    second = ms_line.mod + ms_line.prev.mod - first
                    if second > new_garbage:
                        new_garbage = second
                    d_ms = ms_line.msplit.delta
                    if new_garbage != garbage:
                        d_ms += pc(n_parts, new_garbage) - pc(n_parts, garbage)
            mms_line = None
            d_mms = INFINITE_COST
            if len(mmsplits) and (garbage == 0 or n_parts > 3):
                mms_line = mmsplits.head()
                if mms_line.mmsplit.delta == INFINITE_COST:
                    mms_line = None
                else:
                    prev = mms_line.prev
                    new_garbage = self._other_largest((mms_line, prev, prev.prev))
                    first = mms_line.mmsplit.mod
                    if first > new_garbage:
                        new_garbage = first
                    second = mms_line.mod + prev.mod + prev.prev.mod - first
                    if second > new_garbage:
                        new_garbage = second
                    d_mms = mms_line.mmsplit.delta
                    if new_garbage == garbage:
                        d_mms += pd(n_parts, garbage)
                    else:
                        d_mms += pc(n_parts - 1, new_garbage) - pc(n_parts, garbage)
            move = self._choose(d_split, d_ms, d_mms)
            if move is None:
                break
            if move == 2:
                self.apply_merge_merge_split(lists, mms_line)
                n_parts -= 1
            elif move == 1:
                self.apply_merge_split(lists, ms_line)
            else:
                self.apply_split(lists, split_line)
                n_parts += 1
        self.freq = None
        while head.prev is not None:
            head = head.prev
        return head

    def optimization_with_garbage(self):
        """``IntervalListOptimizationWithGarbage``: (plain list, garbage list, garbage size)."""
        head = self.build_lines()
        head = self.merge_optimization_with_garbage(head)
        head, head_garbage, garbage = self.best_merge_optimization_with_garbage(head)
        head = self.post_optimization(head)
        head_garbage = self.post_optimization_with_garbage(head_garbage)
        return head, head_garbage


def _two_class_discretize(rows, mods, costs: GroupingCosts):
    """``KWGrouperMODLTwoClasses::DiscretizeFrequencyTable`` of sorted rows: (interval ends,
    interval counts, garbage size)."""
    optimizer = _IntervalOptimizer(rows, mods, costs)
    if len(rows) < GARBAGE_MIN_VALUES:
        head = optimizer.optimization()
        lines = list(_lines(head))
        return [line.index for line in lines], [line.counts for line in lines], 0
    head, head_garbage = optimizer.optimization_with_garbage()
    plain = list(_lines(head))
    with_garbage = list(_lines(head_garbage))
    garbage = max(line.mod for line in with_garbage)
    cost_plain = costs.global_cost([line.counts for line in plain], 0)
    cost_garbage = costs.global_cost([line.counts for line in with_garbage], garbage)
    if cost_garbage < cost_plain:
        return [ln.index for ln in with_garbage], [ln.counts for ln in with_garbage], garbage
    return [line.index for line in plain], [line.counts for line in plain], 0


def two_class_group(rows, mods, costs: GroupingCosts):
    """``KWGrouperMODLTwoClasses::Group``: rows sorted by increasing proportion of the first class
    (ties: row index), then discretised. Returns (group of each row, group counts, garbage)."""
    n = len(rows)
    if n <= 1:
        return [0] * n, [tuple(r) for r in rows], 0
    order = sorted(range(n), key=lambda i: (rows[i][0] * 1.0 / (rows[i][0] + rows[i][1]), i))
    ends, parts, garbage = _two_class_discretize(
        [rows[i] for i in order], [mods[i] for i in order], costs
    )
    labels = [0] * n
    k = 0
    for pos, i in enumerate(order):
        labels[i] = k
        if pos == ends[k]:
            k += 1
    return labels, parts, garbage


# ---------------------------------------------------------------------------------------------
# Several classes (KWGrouperMODL.cpp, KWGrouperMODLOptimization.cpp)
# ---------------------------------------------------------------------------------------------
class _Group:
    """``KWMODLGroup``: class counts, number of values, cost and index of a group."""

    __slots__ = ("counts", "mod", "cost", "index")

    def __init__(self, counts, mod, cost=0.0, index=0):
        self.counts = list(counts)
        self.mod = mod
        self.cost = cost
        self.index = index

    def clone(self) -> _Group:
        return _Group(self.counts, self.mod, self.cost, self.index)

    def add(self, other) -> None:
        """``AddFrequencyVector``."""
        counts = self.counts
        for k, f in enumerate(other.counts):
            counts[k] += f
        self.mod += other.mod

    def remove(self, other) -> None:
        """``RemoveFrequencyVector``."""
        counts = self.counts
        for k, f in enumerate(other.counts):
            counts[k] -= f
        self.mod -= other.mod

    def total(self) -> int:
        return sum(self.counts)


class _Merge:
    """``KWMODLGroupMerge``."""

    __slots__ = ("delta", "index1", "index2")

    def __init__(self, delta, index1, index2):
        self.delta = delta
        self.index1 = index1
        self.index2 = index2


def _union_cost(costs, a, b) -> float:
    """``ComputeGroupUnionCost``."""
    return costs.part_cost([x + y for x, y in zip(a.counts, b.counts)])


def _diff_cost(costs, a, b) -> float:
    """``ComputeGroupDiffCost``."""
    return costs.part_cost([x - y for x, y in zip(a.counts, b.counts)])


def merge_pure_source_values(rows, mods):
    """``MergePureSourceValues``: the values pure on one class are merged per class (the merged
    row takes the place of the first of them). Returns (rows, mods, row index of each value)."""
    n_classes = len(rows[0])
    pure_index = [-1] * n_classes
    pure_freq = [0] * n_classes
    pure_mod = [0] * n_classes
    index = [0] * len(rows)
    new = 0
    for s, row in enumerate(rows):
        total = sum(row)
        target = -1
        for t in range(n_classes):
            if row[t] > 0:
                if row[t] == total:
                    target = t
                break
        if target == -1:
            index[s] = new
            new += 1
        else:
            pure_freq[target] += row[target]
            pure_mod[target] += mods[s]
            if pure_index[target] == -1:
                pure_index[target] = new
                index[s] = new
                new += 1
            else:
                index[s] = pure_index[target]
    out_rows = [None] * new
    out_mods = [0] * new
    for s, row in enumerate(rows):
        out_rows[index[s]] = tuple(row)
        out_mods[index[s]] = mods[s]
    for t in range(n_classes):
        if pure_index[t] != -1:
            row = [0] * n_classes
            row[t] = pure_freq[t]
            out_rows[pure_index[t]] = tuple(row)
            out_mods[pure_index[t]] = pure_mod[t]
    return out_rows, out_mods, index


def build_reliable_sub_groups(rows, mods, costs: GroupingCosts, n_instances: int):
    """``BuildReliableSubGroups``: the sub-groups of values grouped together by every
    one-class-versus-rest two-class grouping (run without partition cost). Returns (groups,
    sub-group index of each row)."""
    n_classes = len(rows[0])
    null = NullCosts(n_instances)
    keys = [[] for _ in rows]
    for t in range(n_classes):
        bi_rows = [(row[t], sum(row) - row[t]) for row in rows]
        labels, _, _ = two_class_group(bi_rows, mods, null)
        for s, lab in enumerate(labels):
            keys[s].append(lab)
    groups: list[_Group] = []
    seen: dict = {}
    index = [0] * len(rows)
    for s, key in enumerate(keys):
        key = tuple(key)
        group = seen.get(key)
        if group is None:
            group = _Group([0] * n_classes, 0, 0.0, len(groups))
            groups.append(group)
            seen[key] = group
        group.add(_Group(rows[s], mods[s]))
        index[s] = group.index
    for group in groups:
        group.cost = costs.part_cost(group.counts)
    return groups, index


def compute_min_group_frequency(groups, n_instances: int, n_max_groups: int) -> int:
    """``ComputeMinGroupFrequency``: the frequency below which the groups are merged by
    :func:`merge_small_groups` to get fewer than ``n_max_groups`` groups."""
    sup = int(math.ceil(n_instances * 1.0 / n_max_groups))
    numbers = [0] * (sup + 1)
    for group in groups:
        f = group.total()
        if f <= sup:
            numbers[f] += 1
    out = 1
    n_groups = len(groups)
    for f in range(1, sup + 1):
        if n_groups < n_max_groups:
            out = f
            break
        n_groups -= numbers[f]
    return out


def merge_small_groups(groups, min_frequency: int, costs):
    """``MergeSmallGroups`` (one host group per majority class). Returns (groups, new index of
    each group)."""
    n_classes = len(groups[0].counts) if groups else 0
    hosts = [None] * n_classes
    host_index = [0] * n_classes
    index = [0] * len(groups)
    out = []
    for i, group in enumerate(groups):
        if group.total() >= min_frequency:
            index[i] = len(out)
            group.index = len(out)
            out.append(group)
        else:
            best, best_f = -1, -1
            for t in range(n_classes):
                if group.counts[t] > best_f:
                    best_f, best = group.counts[t], t
            if hosts[best] is None:
                hosts[best] = group
                host_index[best] = len(out)
                index[i] = len(out)
                group.index = len(out)
                out.append(group)
            else:
                index[i] = host_index[best]
                hosts[best].add(group)
    for host in hosts:
        if host is not None:
            host.cost = costs.part_cost(host.counts)
    return out, index


def build_group_merges(groups, costs) -> dict:
    """``BuildGroupMerges``: the merge of every pair (j < i), keyed (j, i)."""
    merges = {}
    for i, g1 in enumerate(groups):
        for j in range(i):
            g2 = groups[j]
            merges[(j, i)] = _Merge(_union_cost(costs, g1, g2) - g1.cost - g2.cost, j, i)
    return merges


def _merge_at(merges, a: int, b: int) -> _Merge:
    return merges[(a, b)] if a < b else merges[(b, a)]


def _remove_merged_group(active, new_index, g2) -> None:
    """The swap-removal of ``group2`` from the active groups (OptimizeGroups)."""
    pos = new_index[g2.index]
    new_index[g2.index] = len(active) - 1
    last = active[-1]
    active[pos] = last
    active.pop()
    new_index[last] = pos


def _update_merges(merge_list, merges, groups, active, g1, g2, costs) -> None:
    for n_index in active:
        merge_list.remove(_merge_at(merges, g2.index, n_index))
        if n_index != g1.index:
            merge = _merge_at(merges, g1.index, n_index)
            merge_list.remove(merge)
            group = groups[n_index]
            merge.delta = _union_cost(costs, g1, group) - g1.cost - group.cost
            merge_list.add(merge, -merge.delta)


def _final_groups(groups, active, iv):
    """New groups in the order of the active array, and the group of each initial group."""
    new_index = [0] * len(iv)
    new_groups = []
    for i, a in enumerate(active):
        new_groups.append(groups[a])
        new_index[a] = i
    for i in range(len(iv)):
        idx = iv[i]
        while iv[idx] < idx:
            idx = iv[idx]
        iv[i] = idx
    for i in range(len(iv)):
        iv[i] = new_index[iv[i]]
    return new_groups, iv


def optimize_groups(n_exact: int, groups, merges, costs):
    """``OptimizeGroups``: greedy merges of the two groups of smallest merge delta while the cost
    decreases (or down to ``n_exact`` groups). Returns (best number of groups met, new groups,
    new group of each initial group). The groups are modified."""
    n_init = len(groups)
    iv = list(range(n_init))
    merge_list = _SortedList()
    for i in range(n_init):
        for j in range(i):
            merge = merges[(j, i)]
            merge_list.add(merge, -merge.delta)
    active = list(range(n_init))
    new_index = list(range(n_init))
    cont = True
    total = best_total = 0.0
    n_groups = n_opt = n_init
    while cont and n_groups >= 2 and n_groups > n_exact:
        best = merge_list.tail()
        delta = best.delta + costs.partition_delta(n_groups, 0)
        cont = delta < EPSILON
        total += delta
        if total < best_total + EPSILON:
            best_total = total
            n_opt = n_groups - 1
        if n_exact != 0:
            cont = n_groups > n_exact
        if cont:
            n_groups -= 1
            g1, g2 = groups[best.index1], groups[best.index2]
            g1.add(g2)
            g1.cost = costs.part_cost(g1.counts)
            iv[g2.index] = g1.index
            _remove_merged_group(active, new_index, g2)
            _update_merges(merge_list, merges, groups, active, g1, g2, costs)
    new_groups, iv = _final_groups(groups, active, iv)
    return n_opt, new_groups, iv


def _group_list(groups) -> _SortedList:
    freq = _SortedList()
    for group in groups:
        freq.add(group, -group.mod)
    return freq


def optimize_groups_with_garbage_search(n_exact: int, groups, merges, costs):
    """``OptimizeGroupsWithGarbageSearch``: :func:`optimize_groups` that also follows the cost of
    the partition whose garbage group is the group with the most values, and stops as soon as a
    merge degrades either cost (never below 3 groups). Returns ((best number without garbage,
    with garbage), new groups, new group of each initial group, copy of the initial groups)."""
    n_init = len(groups)
    iv = list(range(n_init))
    copies = [g.clone() for g in groups]
    freq = _SortedList()
    merge_list = _SortedList()
    for i in range(n_init):
        freq.add(groups[i], -groups[i].mod)
        for j in range(i):
            merge = merges[(j, i)]
            merge_list.add(merge, -merge.delta)
    active = list(range(n_init))
    new_index = list(range(n_init))
    cont = True
    total = best_total = 0.0
    n_groups = n_opt = n_init
    cum_garbage = best_cum_garbage = 0.0
    n_opt_garbage = n_groups
    prev_pc_garbage = 0.0
    pc, pd = costs.partition_cost, costs.partition_delta
    if n_groups > 2:
        pc_garbage = pc(n_groups, freq.head().mod)
        initial_delta = pc_garbage - pc(n_groups, 0)
        prev_pc_garbage = pc_garbage
        cum_garbage = best_cum_garbage = initial_delta
    while cont and n_groups > 3 and n_groups > n_exact:
        best = merge_list.tail()
        delta = best.delta + pd(n_groups, 0)
        cont = delta < EPSILON
        if n_groups > 3:
            higher = freq.head().mod
            g1, g2 = groups[best.index1], groups[best.index2]
            merged = g1.mod + g2.mod
            garbage = higher if higher > merged else merged
            pc_garbage = pc(n_groups - 1, garbage)
            delta_garbage = (pc_garbage - prev_pc_garbage) + best.delta
            if cont:
                cont = delta_garbage < EPSILON
            prev_pc_garbage = pc_garbage
            cum_garbage += delta_garbage
        total += delta
        if total < best_total + EPSILON:
            best_total = total
            n_opt = n_groups - 1
        if cum_garbage < best_cum_garbage + EPSILON:
            best_cum_garbage = cum_garbage
            n_opt_garbage = n_groups - 1
        if n_exact != 0:
            cont = n_groups > n_exact
        if cont:
            n_groups -= 1
            g1, g2 = groups[best.index1], groups[best.index2]
            freq.remove(g1)
            freq.remove(g2)
            g1.add(g2)
            g1.cost = costs.part_cost(g1.counts)
            freq.add(g1, -g1.mod)
            iv[g2.index] = g1.index
            _remove_merged_group(active, new_index, g2)
            _update_merges(merge_list, merges, groups, active, g1, g2, costs)
    new_groups, iv = _final_groups(groups, active, iv)
    return (n_opt, n_opt_garbage), new_groups, iv, copies


def _table(groups) -> list:
    """``BuildTable``: rows (as groups: counts and number of values) copied from groups."""
    return [_Group(g.counts, g.mod) for g in groups]


def _build_groups(table, costs) -> list:
    """``BuildGroups``: groups (index = position, cost) from the rows of a table."""
    return [_Group(r.counts, r.mod, costs.part_cost(r.counts), i) for i, r in enumerate(table)]


def _table_cost(costs, table, garbage: int = 0) -> float:
    return costs.global_cost([r.counts for r in table], garbage)


def post_optimize_groups(source, target, iv, costs) -> None:
    """``PostOptimizeGroups``: best moves of one source row to another group while the part
    costs decrease by more than 1e-6 (the number of groups is fixed). Modifies target and iv."""
    n_groups = len(target)
    if n_groups <= 1:
        return
    n_mod = len(source)
    group_costs = [costs.part_cost(g.counts) for g in target]
    out_delta = [0.0] * n_mod
    in_delta = [0.0] * (n_mod * n_groups)
    for m in range(n_mod):
        cur = iv[m]
        out_delta[m] = _diff_cost(costs, target[cur], source[m]) - group_costs[cur]
    for m in range(n_mod):
        cur = iv[m]
        for g in range(n_groups):
            if g != cur:
                in_delta[m * n_groups + g] = (
                    _union_cost(costs, target[g], source[m]) - group_costs[g]
                )
    while True:
        best_delta = EPSILON
        best_m = best_g = -1
        for m in range(n_mod):
            cur = iv[m]
            base = m * n_groups
            om = out_delta[m]
            for g in range(n_groups):
                if g != cur:
                    delta = om + in_delta[base + g]
                    if delta < best_delta:
                        best_delta, best_m, best_g = delta, m, g
        if not best_delta < -EPSILON:
            break
        out_g, in_g = iv[best_m], best_g
        group_costs[out_g] += out_delta[best_m]
        group_costs[in_g] += in_delta[best_m * n_groups + in_g]
        out_delta[best_m] = -in_delta[best_m * n_groups + in_g]
        target[in_g].add(source[best_m])
        target[out_g].remove(source[best_m])
        iv[best_m] = in_g
        base = best_m * n_groups
        for g in range(n_groups):
            if g != in_g:
                in_delta[base + g] = _union_cost(costs, target[g], source[best_m]) - group_costs[g]
            else:
                in_delta[base + g] = 0.0
        for m in range(n_mod):
            if m == best_m:
                continue
            cur = iv[m]
            if cur == out_g or cur == in_g:
                out_delta[m] = _diff_cost(costs, target[cur], source[m]) - group_costs[cur]
            if out_g != cur:
                in_delta[m * n_groups + out_g] = (
                    _union_cost(costs, target[out_g], source[m]) - group_costs[out_g]
                )
            if in_g != cur:
                in_delta[m * n_groups + in_g] = (
                    _union_cost(costs, target[in_g], source[m]) - group_costs[in_g]
                )


def force_best_group_merge(target, iv, costs):
    """``ForceBestGroupMerge``: the merge of the two groups of smallest part-cost delta. Returns
    the new table; iv is updated."""
    n = len(target)
    group_costs = [costs.part_cost(g.counts) for g in target]
    best_delta = DBL_MAX
    best1 = best2 = -1
    for g1 in range(n):
        for g2 in range(g1 + 1, n):
            delta = _union_cost(costs, target[g1], target[g2]) - group_costs[g1] - group_costs[g2]
            if delta < best_delta:
                best_delta, best1, best2 = delta, g1, g2
    return _merge_table(target, iv, best1, best2)


def _merge_table(target, iv, best1: int, best2: int):
    n = len(target)
    new_index = [g if g < best2 else g - 1 for g in range(n)]
    new_index[best2] = best1
    new = []
    for g in range(n):
        if g == best2:
            new[best1].add(target[g])
        elif g == best1:
            row = _Group([0] * len(target[g].counts), 0)
            row.add(target[g])
            new.append(row)
        else:
            new.append(_Group(target[g].counts, target[g].mod))
    for i in range(len(iv)):
        iv[i] = new_index[iv[i]]
    return new


def exhaustive_merge_grouping(n_min: int, source, costs):
    """``ExhaustiveMergeGrouping``: forced merges down to ``n_min`` groups, then the best number
    of groups met is rebuilt. Returns (table, group of each source row)."""
    groups = _build_groups(source, costs)
    n_opt, new_groups, iv = optimize_groups(n_min, groups, build_group_merges(groups, costs), costs)
    if n_opt == len(source):
        return [_Group(r.counts, r.mod) for r in source], list(range(len(source)))
    if n_opt == len(new_groups):
        return _table(new_groups), iv
    groups = _build_groups(source, costs)
    _, new_groups, iv = optimize_groups(n_opt, groups, build_group_merges(groups, costs), costs)
    return _table(new_groups), iv


def _singleton_table(table):
    row = _Group([0] * len(table[0].counts), 0)
    for r in table:
        row.add(r)
    return [row]


def forced_merge_search(source, target, iv, costs):
    """The forced-merge loop shared by ``PostOptimizeGrouping`` and the garbage variant: value
    moves on ``target``, then up to MAX_TESTED_FORCED_MERGES unsuccessful forced merges, each
    followed by value moves, the best table kept (ties to fewer groups; the count restarts at
    each success). ``target`` and ``iv`` are updated in place by the first value moves.
    Returns (best table, group of each source row, its cost, whether the single group was met).
    """
    singleton_tested = len(target) == 1
    if len(target) > 1:
        post_optimize_groups(source, target, iv, costs)
    best_cost = _table_cost(costs, target)
    tested = 0
    if len(target) > 1:
        current = [_Group(r.counts, r.mod) for r in target]
        iv_new = list(iv)
        while len(current) > 1 and tested < MAX_TESTED_FORCED_MERGES:
            tested += 1
            new = force_best_group_merge(current, iv_new, costs)
            if len(new) == 1:
                singleton_tested = True
            post_optimize_groups(source, new, iv_new, costs)
            new_cost = _table_cost(costs, new)
            if new_cost < best_cost + EPSILON:
                best_cost = new_cost
                iv = list(iv_new)
                target = [_Group(r.counts, r.mod) for r in new]
                tested = 0
            current = new
    return target, iv, best_cost, singleton_tested


def post_optimize_grouping(source, target, iv, costs):
    """``PostOptimizeGrouping``: ExhaustiveMerge down to 5 groups, value moves, up to 3
    unsuccessful forced merges each followed by value moves (the best kept, ties to fewer
    groups), then the single group. Returns (table, group of each source row)."""
    if len(target) <= 1:
        return target, iv
    if len(target) > MAX_TESTED_FORCED_MERGES + 2:
        target, iv_em = exhaustive_merge_grouping(MAX_TESTED_FORCED_MERGES + 2, target, costs)
        iv = [iv_em[g] for g in iv]
    target, iv, best_cost, singleton_tested = forced_merge_search(source, target, iv, costs)
    if not singleton_tested:
        single = _singleton_table(target)
        if _table_cost(costs, single) < best_cost + EPSILON:
            target = single
            iv = [0] * len(iv)
    return target, iv


def multiple_classes_group(rows, mods, costs, n_instances: int):
    """``MultipleClassesGroup`` (fewer than 7 values). Returns (group of each row, table, 0)."""
    pre_rows, pre_mods, pre_index = merge_pure_source_values(rows, mods)
    groups, sub_index = build_reliable_sub_groups(pre_rows, pre_mods, costs, n_instances)
    few_index = None
    if len(groups) > math.sqrt(1.0 * n_instances):
        min_f = compute_min_group_frequency(
            groups, n_instances, int(math.ceil(math.sqrt(1.0 * n_instances)))
        )
        groups, few_index = merge_small_groups(groups, min_f, costs)
    _, new_groups, iv_opt = optimize_groups(0, groups, build_group_merges(groups, costs), costs)
    target = _table(new_groups)
    if few_index is not None:
        pre_to_opt = [iv_opt[few_index[sub_index[i]]] for i in range(len(pre_rows))]
    else:
        pre_to_opt = [iv_opt[sub_index[i]] for i in range(len(pre_rows))]
    source = [_Group(r, m) for r, m in zip(pre_rows, pre_mods)]
    target, pre_to_opt = post_optimize_grouping(source, target, pre_to_opt, costs)
    labels = [pre_to_opt[pre_index[s]] for s in range(len(rows))]
    return labels, target, 0


# -- with garbage search ----------------------------------------------------------------------
def exhaustive_merge_grouping_with_garbage_search(n_min: int, groups, costs):
    """``ExhaustiveMergeGroupingWithGarbageSearch``: the best numbers of groups without and with
    garbage met by forced merges down to ``n_min`` groups, then both groupings rebuilt (the larger
    first). Returns (groups without garbage, iv, groups with garbage, iv)."""
    (n_plain, n_garbage), _, _, groups = optimize_groups_with_garbage_search(
        n_min, groups, build_group_merges(groups, costs), costs
    )
    if n_plain > n_garbage:
        _, plain, iv_plain = optimize_groups(
            n_plain, groups, build_group_merges(groups, costs), costs
        )
        groups = []
        for k, group in enumerate(plain):
            copy = group.clone()
            copy.index = k
            groups.append(copy)
        _, garbage, iv_second = optimize_groups(
            n_garbage, groups, build_group_merges(groups, costs), costs
        )
        iv_garbage = [iv_second[g] for g in iv_plain]
    else:
        _, garbage, iv_garbage = optimize_groups(
            n_garbage, groups, build_group_merges(groups, costs), costs
        )
        groups = []
        for group in garbage:
            copy = group.clone()
            copy.index = iv_garbage[group.index]
            groups.append(copy)
        _, plain, iv_second = optimize_groups(
            n_plain, groups, build_group_merges(groups, costs), costs
        )
        iv_plain = [iv_second[g] for g in iv_garbage]
    return plain, iv_plain, garbage, iv_garbage


def post_optimize_groups_with_garbage_search(initial, groups, iv, freq, costs) -> list:
    """``PostOptimizeGroupsWithGarbageSearch``: :func:`post_optimize_groups` on the partition
    with garbage (the group with the most values): the partition cost follows the size of the
    garbage and the number of non-empty groups (never below 3). Returns the non-empty groups
    (iv renumbered); ``freq`` is the list of the groups by number of values."""
    n_groups = len(groups)
    if n_groups <= 1:
        return groups
    pc = costs.partition_cost
    n_mod = len(initial)
    n_true = n_groups
    group_costs = [costs.part_cost(g.counts) for g in groups]
    out_delta = [0.0] * n_mod
    in_delta = [0.0] * (n_mod * n_groups)
    for m in range(n_mod):
        cur = iv[m]
        out_delta[m] = _diff_cost(costs, groups[cur], initial[m]) - group_costs[cur]
    for m in range(n_mod):
        cur = iv[m]
        for g in range(n_groups):
            if g != cur:
                in_delta[m * n_groups + g] = (
                    _union_cost(costs, groups[g], initial[m]) - group_costs[g]
                )
    cont = n_true > 3
    while cont:
        best_delta = EPSILON
        best_m = best_g = -1
        garbage = freq.head().mod
        for m in range(n_mod):
            cur = iv[m]
            moved = initial[m].mod
            cur_group = groups[cur]
            for g in range(n_groups):
                if g == cur:
                    continue
                delta = out_delta[m] + in_delta[m * n_groups + g]
                new_garbage = garbage
                if freq.is_head(cur_group):
                    new_garbage -= moved
                    second = freq.items[1]
                    if new_garbage < second.mod:
                        new_garbage = second.mod
                if new_garbage < groups[g].mod + moved:
                    new_garbage = groups[g].mod + moved
                new_n = n_true
                if moved == cur_group.mod:
                    new_n -= 1
                if groups[g].mod == 0:
                    new_n += 1
                if garbage != new_garbage or new_n != n_true:
                    if new_n < 3:
                        delta = DBL_MAX
                    else:
                        delta += pc(new_n, new_garbage) - pc(n_true, garbage)
                if delta < best_delta:
                    best_delta, best_m, best_g = delta, m, g
        cont = best_delta < -EPSILON and n_true > 3
        if not cont:
            break
        out_g, in_g = iv[best_m], best_g
        group_costs[out_g] += out_delta[best_m]
        group_costs[in_g] += in_delta[best_m * n_groups + in_g]
        out_delta[best_m] = -in_delta[best_m * n_groups + in_g]
        freq.remove(groups[in_g])
        freq.remove(groups[out_g])
        if groups[in_g].mod == 0:
            n_true += 1
        groups[in_g].add(initial[best_m])
        groups[out_g].remove(initial[best_m])
        if groups[out_g].mod == 0:
            n_true -= 1
        freq.add(groups[in_g], -groups[in_g].mod)
        freq.add(groups[out_g], -groups[out_g].mod)
        iv[best_m] = in_g
        base = best_m * n_groups
        for g in range(n_groups):
            if g != in_g:
                in_delta[base + g] = _union_cost(costs, groups[g], initial[best_m]) - group_costs[g]
            else:
                in_delta[base + g] = 0.0
        for m in range(n_mod):
            if m == best_m:
                continue
            cur = iv[m]
            if cur == out_g or cur == in_g:
                out_delta[m] = _diff_cost(costs, groups[cur], initial[m]) - group_costs[cur]
            if out_g != cur:
                in_delta[m * n_groups + out_g] = (
                    _union_cost(costs, groups[out_g], initial[m]) - group_costs[out_g]
                )
            if in_g != cur:
                in_delta[m * n_groups + in_g] = (
                    _union_cost(costs, groups[in_g], initial[m]) - group_costs[in_g]
                )
    if n_true < n_groups:
        non_empty = [-1] * n_groups
        kept = []
        for g, group in enumerate(groups):
            if group.mod > 0:
                non_empty[g] = len(kept)
                kept.append(group)
        for m in range(len(iv)):
            new = non_empty[iv[m]]
            iv[m] = 0 if new == -1 else new
        return kept
    return groups


def force_best_group_merge_with_garbage_search(groups, iv, freq, costs):
    """``ForceBestGroupMergeWithGarbageSearch``: :func:`force_best_group_merge` where the delta
    includes the change of the partition cost with garbage."""
    n = len(groups)
    pc = costs.partition_cost
    group_costs = [costs.part_cost(g.counts) for g in groups]
    best_delta = DBL_MAX
    best1 = best2 = -1
    garbage = freq.head().mod
    for g1 in range(n):
        for g2 in range(g1 + 1, n):
            delta = _union_cost(costs, groups[g1], groups[g2]) - group_costs[g1] - group_costs[g2]
            merged = groups[g1].mod + groups[g2].mod
            if merged > garbage:
                delta += pc(n - 1, merged) - pc(n, garbage)
            else:
                delta += pc(n - 1, garbage) - pc(n, garbage)
            if delta < best_delta:
                best_delta, best1, best2 = delta, g1, g2
    return _merge_table(groups, iv, best1, best2)


def post_optimize_grouping_with_garbage_search(initial, groups, iv, costs):
    """``PostOptimizeGroupingWithGarbageSearch``: the post-optimisation of the partition without
    garbage (as :func:`post_optimize_grouping`) and of the one with garbage (value moves and
    forced merges with the garbage costs); the cheaper is kept (ties to the garbage), then the
    single group. Returns (table, garbage size, group of each initial group)."""
    if len(groups) <= 1:
        return _table(groups), 0, iv
    iv_garbage = list(iv)
    iv_plain = list(iv)
    groups_garbage = None
    if len(groups) > MAX_TESTED_FORCED_MERGES + 2:
        for group in groups:
            group.index = iv[group.index]
        groups, iv_em, groups_garbage, iv_em_garbage = (
            exhaustive_merge_grouping_with_garbage_search(
                MAX_TESTED_FORCED_MERGES + 2, groups, costs
            )
        )
        iv_plain = [iv_em[g] for g in iv]
        iv_garbage = [iv_em_garbage[g] for g in iv]
    source = _table(initial)
    target = _table(groups)
    target, iv_plain, best_cost, singleton_tested = forced_merge_search(
        source, target, iv_plain, costs
    )
    if groups_garbage is not None:
        groups = groups_garbage
    best_cost_garbage = best_cost + EPSILON
    target_garbage = None
    garbage_size = 0
    if len(groups) > 2:
        freq = _group_list(groups)
        groups = post_optimize_groups_with_garbage_search(initial, groups, iv_garbage, freq, costs)
        garbage_size = freq.head().mod
        target_garbage = _table(groups)
        best_cost_garbage = _table_cost(costs, target_garbage, garbage_size)
        tested = 0
        if len(target_garbage) > 3:
            iv_new = list(iv_garbage)
            current = [g.clone() for g in groups]
            while len(current) > 3 and tested < MAX_TESTED_FORCED_MERGES:
                tested += 1
                freq = _group_list(current)
                new = force_best_group_merge_with_garbage_search(current, iv_new, freq, costs)
                if len(new) == 1:
                    singleton_tested = True  # pragma: no cover
                freq = _group_list(new)
                new = post_optimize_groups_with_garbage_search(initial, new, iv_new, freq, costs)
                current = [g.clone() for g in new]
                new_garbage = freq.head().mod
                new_table = _table(new)
                new_cost = _table_cost(costs, new_table, new_garbage)
                if new_cost < best_cost_garbage + EPSILON:
                    best_cost_garbage = new_cost
                    iv_garbage = list(iv_new)
                    target_garbage = new_table
                    garbage_size = new_garbage
                    tested = 0
    if best_cost_garbage < best_cost + EPSILON:
        target, garbage, iv = target_garbage, garbage_size, iv_garbage
    else:
        garbage, iv = 0, iv_plain
    if not singleton_tested:
        single = _singleton_table(target)
        if _table_cost(costs, single) < best_cost + EPSILON:
            target, garbage = single, 0
            iv = [0] * len(iv)
    return target, garbage, iv


def multiple_classes_group_with_garbage_search(rows, mods, costs, n_instances: int):
    """``MultipleClassesGroupWithGarbageSearch`` (7 values or more). Returns (group of each row,
    table, garbage size)."""
    pre_rows, pre_mods, pre_index = merge_pure_source_values(rows, mods)
    groups, sub_index = build_reliable_sub_groups(pre_rows, pre_mods, costs, n_instances)
    few_index = None
    n_max = int(math.sqrt(1.0 * n_instances))
    if len(groups) > n_max:
        min_f = compute_min_group_frequency(groups, n_instances, n_max)
        groups, few_index = merge_small_groups(groups, min_f, costs)
    _, new_groups, iv_opt, initial = optimize_groups_with_garbage_search(
        0, groups, build_group_merges(groups, costs), costs
    )
    target, garbage, iv_opt = post_optimize_grouping_with_garbage_search(
        initial, new_groups, iv_opt, costs
    )
    if few_index is not None:
        pre_to_opt = [iv_opt[few_index[sub_index[i]]] for i in range(len(pre_rows))]
    else:
        pre_to_opt = [iv_opt[sub_index[i]] for i in range(len(pre_rows))]
    labels = [pre_to_opt[pre_index[s]] for s in range(len(rows))]
    return labels, target, garbage


# -- small tables -------------------------------------------------------------------------------
def small_source_number_group(rows, costs):
    """``SmallSourceNumberGroup``: the best of the partitions of ≤ 3 values (ties: fewer
    groups). Returns (group of each row, table, 0)."""
    n = len(rows)
    n_classes = len(rows[0])
    whole = [0] * n_classes
    for r in rows:
        whole = [a + b for a, b in zip(whole, r)]
    one = costs.partition_cost(1, 0) + costs.part_cost(whole)
    if n <= 1:
        return [0] * n, [_Group(r, 1) for r in rows], 0
    if n == 2:
        two = costs.partition_cost(2, 0) + costs.part_cost(rows[0]) + costs.part_cost(rows[1])
        if one < two + EPSILON:
            return [0, 0], [_Group(whole, 2)], 0
        return [0, 1], [_Group(rows[0], 1), _Group(rows[1], 1)], 0
    c = [costs.part_cost(r) for r in rows]
    three = costs.partition_cost(3, 0) + c[0] + c[1] + c[2]
    best, best_index = DBL_MAX, -1
    for k in range(3):
        a, b = rows[(k + 1) % 3], rows[(k + 2) % 3]
        cost = costs.part_cost([x + y for x, y in zip(a, b)]) + c[k]
        if cost < best:
            best, best_index = cost, k
    two = costs.partition_cost(2, 0) + best
    if one < two + EPSILON and one < three + EPSILON:
        return [0, 0, 0], [_Group(whole, 3)], 0
    if two < three + EPSILON:
        labels = [1, 1, 1]
        labels[best_index] = 0
        rest = [x + y for x, y in zip(rows[(best_index + 1) % 3], rows[(best_index + 2) % 3])]
        return labels, [_Group(rows[best_index], 1), _Group(rest, 2)], 0
    return [0, 1, 2], [_Group(r, 1) for r in rows], 0


def group_frequency_table(rows, costs: GroupingCosts, n_instances: int):
    """``KWGrouperMODL::GroupFrequencyTable`` of a granularised table (rows: class counts of the
    values, each counting as one value). Returns (group of each row, table of the groups,
    garbage size)."""
    n = len(rows)
    mods = [1] * n
    if n <= 3:
        return small_source_number_group(rows, costs)
    if len(rows[0]) == 2:
        pre_rows, pre_mods, pre_index = merge_pure_source_values(rows, mods)
        labels, parts, garbage = two_class_group(pre_rows, pre_mods, costs)
        table = [_Group(p, 0) for p in parts]
        return [labels[pre_index[s]] for s in range(n)], table, garbage
    if n < GARBAGE_MIN_VALUES:
        return multiple_classes_group(rows, mods, costs, n_instances)
    return multiple_classes_group_with_garbage_search(rows, mods, costs, n_instances)


# ---------------------------------------------------------------------------------------------
# Granularity loop (KWGrouperMODL::GroupPreprocessedTable)
# ---------------------------------------------------------------------------------------------
def quantile_groups(freqs, n_quantiles: int) -> list[list[int]]:
    """``KWQuantileGroupBuilder::ComputeQuantiles`` on values sorted by decreasing frequency: the
    values of frequency ≥ ⌈N/Q⌉ (at most Q) as singletons, the others in one last group."""
    v = len(freqs)
    min_f = int(math.ceil(sum(freqs) * 1.0 / n_quantiles))
    last = v - 1 if n_quantiles >= v else n_quantiles - 1
    index = 0
    for i in range(last + 1):
        if freqs[i] >= min_f:
            index = i
    n_groups = index + 1
    if n_groups < v and (index > 0 or freqs[0] >= min_f):
        n_groups += 1
    groups = [[i] for i in range(n_groups - 1)]
    groups.append(list(range(n_groups - 1, v)))
    return groups


def _granularity_max(n: int) -> int:
    g_max = int(math.floor(math.log(n * 1.0) / math.log(2.0)))
    if 2.0**g_max == n and g_max > 1:
        g_max -= 1
    return g_max


def group_values(
    value_counts: np.ndarray, attribute_cost: float
) -> tuple[np.ndarray, int, float, np.ndarray]:
    """Khiops grouping of V values (rows: class counts, sorted by decreasing frequency).

    Returns (group label of each value, granularity, cost, catch-all mask of the values).
    """
    value_counts = np.asarray(value_counts, dtype=np.float64)
    rows = [tuple(int(round(x)) for x in r) for r in value_counts]
    n = sum(sum(r) for r in rows)
    v_all = len(rows)
    n_classes = value_counts.shape[1] if value_counts.ndim == 2 else 1
    single = np.zeros(v_all, dtype=np.int64)
    if v_all <= 1 or n == 0 or n_classes < 2:
        costs = GroupingCosts(1, 0, max(n, 1), attribute_cost, max(n_classes, 1))
        whole = tuple(int(x) for x in value_counts.sum(axis=0)) if v_all else (0,)
        return single, 0, costs.global_cost([whole]), np.zeros(v_all, bool)
    freqs = [sum(r) for r in rows]
    g_max = _granularity_max(n)
    p_max = sum(1 for f in freqs if f > 1) + (1 if any(f <= 1 for f in freqs) else 0)
    best = None
    best_cost = DBL_MAX
    prev_p = 0
    current_explored = last_explored = -1
    g = 1
    is_last = False
    while g <= g_max and not is_last:
        q = 2**g
        if q >= n:
            parts = [[i] for i in range(v_all)]
        else:
            parts = quantile_groups(freqs, q)
            if len(parts) == v_all:
                parts = [[i] for i in range(v_all)]
        p = len(parts)
        is_last = p == p_max or g == g_max
        selected = p >= prev_p * REQUIRED_INCREASING_COEFFICIENT and (
            p * REQUIRED_INCREASING_COEFFICIENT <= p_max
        )
        if selected or is_last:
            last_explored, current_explored = current_explored, g
            table = []
            for members in parts:
                row = [0] * n_classes
                for i in members:
                    row = [a + b for a, b in zip(row, rows[i])]
                table.append(tuple(row))
            costs = GroupingCosts(p, g, n, attribute_cost, n_classes)
            labels, target, garbage = group_frequency_table(table, costs, n)
            cost = _table_cost(costs, target, garbage)
            if cost < best_cost:
                best_cost = cost
                value_labels = np.empty(v_all, dtype=np.int64)
                for k, members in enumerate(parts):
                    value_labels[members] = labels[k]
                best = (value_labels, g, p, target, garbage, parts)
            prev_p = p
        g += 1
    value_labels, g_best, p_best, target, garbage, parts = best
    catch = np.zeros(v_all, bool)
    if len(parts[-1]) > 1:
        catch[parts[-1]] = True
    if last_explored != -1 and g_best > last_explored + 1:
        n_groups = len(target)
        g = g_best - 1
        while True:
            q = 2**g
            compatible = False
            if q >= n_groups:
                parts_g = quantile_groups(freqs, q)
                if len(parts_g) >= n_groups:
                    labels_g = value_labels[parts_g[-1]]
                    compatible = bool((labels_g == labels_g[0]).all())
            if not compatible:
                break
            g_post = g
            catch = np.zeros(v_all, bool)
            if len(parts_g[-1]) > 1:
                catch[parts_g[-1]] = True
            g_best = g_post
            g -= 1
            if g == last_explored:
                break
    costs = GroupingCosts(p_best, g_best, n, attribute_cost, n_classes)
    cost = _table_cost(costs, target, garbage)
    # labels numbered by first value (empty groups, if any, disappear)
    _, first = np.unique(value_labels, return_index=True)
    renumber = {int(value_labels[i]): k for k, i in enumerate(sorted(first))}
    value_labels = np.array([renumber[int(x)] for x in value_labels], dtype=np.int64)
    return value_labels, g_best, cost, catch
