"""The interval lists of the two-class value grouping (``KWMODLLine*`` of KWDiscretizerMODL.cpp,
KWDiscretizerMODLOptimization.cpp), as Khiops 11 implements them.

An interval of the rows of a sorted table is a :class:`Line` of a doubly linked list with its
merge (with its predecessor), Split, MergeSplit and MergeMergeSplit candidates (:class:`Split`:
the best cut of a run of rows, ``ComputeBestSplit``, scanned from right to left, a candidate kept
if its cost < best·(1 − 1e-6)). :class:`IntervalList` builds and clones the lists, and applies
merges and moves while keeping Khiops' sorted lists of the candidates up to date
(``UpdateMergeSortedList``, ``UpdatePostOptimizationSortedListsWith*``): the order of these lists
decides every tie of the optimiser (:mod:`repro.preprocessing.modl.grouping_two_class`).
"""

from __future__ import annotations

from repro.preprocessing.modl.criteria import GroupingCosts
from repro.preprocessing.modl.rules import EPSILON, INFINITE_COST
from repro.preprocessing.modl.sorted_list import SortedList


def _add(a, b) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def _sub(a, b) -> tuple:
    return tuple(x - y for x, y in zip(a, b))


class Split:
    """``KWMODLLineSplit``: best cut of a run of rows into two sub-intervals."""

    __slots__ = ("delta", "index", "counts", "mod", "cost1", "cost2")

    def __init__(self):
        self.delta = INFINITE_COST
        self.index = 0
        self.counts = ()
        self.mod = 0
        self.cost1 = 0.0
        self.cost2 = 0.0


class Line:
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
        self.split = Split()
        self.msplit = Split()
        self.mmsplit = Split()


def lines(head):
    line = head
    while line is not None:
        yield line
        line = line.next


def _neighbours(line):
    """The two intervals before ``line`` and the two after it (None where there is none)."""
    prev, nxt = line.prev, line.next
    pp = prev.prev if prev is not None else None
    nn = nxt.next if nxt is not None else None
    return prev, pp, nxt, nn


class IntervalList:
    """The interval lists of ``KWDiscretizerMODL`` on the rows of a sorted table, as
    ``KWGrouperMODLTwoClasses`` uses them (``mods``: number of values of each row): their
    construction, merges, best splits and moves, each keeping its sorted lists up to date (and
    the frequency list of the garbage search, ``freq``, when there is one)."""

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
        self.freq: SortedList | None = None  # working list of the garbage search

    # -- lists ----------------------------------------------------------------------------
    def build_lines(self):
        """``BuildIntervalListFromFrequencyTable``: one interval per row."""
        head = prev = None
        part_cost = self.costs.part_cost
        for i, (row, mod) in enumerate(zip(self.rows, self.mods)):
            line = Line(i, row, mod, part_cost(row))
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
        for line in lines(head):
            copy = Line(line.index, line.counts, line.mod, line.cost)
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
    def frequency_list(head) -> SortedList:
        """``InitializeFrequencySortedList``: intervals by decreasing number of values."""
        freq = SortedList()
        for line in lines(head):
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
        for line in lines(head.next):
            self.compute_merge(line)

    @staticmethod
    def merge_list(head) -> SortedList:
        """``InitializeMergeSortedList``."""
        merges = SortedList()
        for line in lines(head.next):
            merges.add(line, line.m_delta)
        return merges

    def update_merge(self, merges: SortedList, head, line):
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

    def merge_down(self, head, n_parts_wanted: int):
        """The merges of smallest delta (the merge list of the list as it is) down to
        ``n_parts_wanted`` intervals; returns the head."""
        merges = self.merge_list(head)
        n_parts = len(merges) + 1
        while n_parts > n_parts_wanted:
            head = self.update_merge(merges, head, merges.head())
            n_parts -= 1
        return head

    # -- splits (ComputeBestSplit) ----------------------------------------------------------
    def best_split(self, first: int, last: int, initial_cost: float, rec: Split) -> None:
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
        splits, msplits, mmsplits = SortedList(), SortedList(), SortedList()
        for line in lines(head):
            self.insert_split(splits, line)
        for line in lines(head.next):
            self.insert_merge_split(msplits, line)
        if head.next is not None:
            for line in lines(head.next.next):
                self.insert_merge_merge_split(mmsplits, line)
        return splits, msplits, mmsplits

    def insert_split(self, splits: SortedList, line) -> None:
        """The best Split of ``line`` computed and inserted in its sorted list."""
        self.compute_split(line)
        splits.add(line, line.split.delta)

    def insert_merge_split(self, msplits: SortedList, line) -> None:
        """The best MergeSplit of ``line`` computed and inserted in its sorted list."""
        self.compute_merge_split(line)
        msplits.add(line, line.msplit.delta)

    def insert_merge_merge_split(self, mmsplits: SortedList, line) -> None:
        """The best MergeMergeSplit of ``line`` computed and inserted in its sorted list."""
        self.compute_merge_merge_split(line)
        mmsplits.add(line, line.mmsplit.delta)

    # -- post-optimisation moves (KWDiscretizerMODL.cpp) --------------------------------------
    # Each move takes the candidates of the intervals it changes out of the sorted lists, changes
    # the intervals, then computes and inserts their new candidates in Khiops' order (the order
    # of insertion into a list decides its ties; the order of removal does not).
    @staticmethod
    def _remove_next(lists, nxt, nn, nxt_has_mms: bool) -> None:
        """The candidates of the two intervals after a move that change with it: the MergeSplit
        and MergeMergeSplit of ``nxt``, the MergeMergeSplit of ``nn``."""
        _, msplits, mmsplits = lists
        if nxt is not None:
            msplits.remove(nxt)
            if nxt_has_mms:
                mmsplits.remove(nxt)
        if nn is not None:
            mmsplits.remove(nn)

    def _insert_next(self, lists, nxt, nn) -> None:
        """The new candidates of :meth:`_remove_next` (after those of the moved intervals)."""
        _, msplits, mmsplits = lists
        if nxt is not None:
            self.insert_merge_split(msplits, nxt)
            self.insert_merge_merge_split(mmsplits, nxt)
        if nn is not None:
            self.insert_merge_merge_split(mmsplits, nn)

    def apply_split(self, lists, line) -> None:
        """``UpdatePostOptimizationSortedListsWithSplit``."""
        splits, msplits, mmsplits = lists
        prev, pp, nxt, nn = _neighbours(line)
        splits.remove(line)
        if prev is not None:
            msplits.remove(line)
        if pp is not None:
            mmsplits.remove(line)
        self._remove_next(lists, nxt, nn, prev is not None)
        self._freq_remove(line)
        rec = line.split
        new = Line(line.index, _sub(line.counts, rec.counts), line.mod - rec.mod, rec.cost2)
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
        self.insert_split(splits, line)
        self.insert_split(splits, new)
        if prev is not None:
            self.insert_merge_split(msplits, line)
        self.insert_merge_split(msplits, new)
        if pp is not None:
            self.insert_merge_merge_split(mmsplits, line)
        if prev is not None:
            self.insert_merge_merge_split(mmsplits, new)
        self._insert_next(lists, nxt, nn)

    def apply_merge_split(self, lists, line) -> None:
        """``UpdatePostOptimizationSortedListsWithMergeSplit``."""
        splits, msplits, mmsplits = lists
        prev, pp, nxt, nn = _neighbours(line)
        splits.remove(line)
        splits.remove(prev)
        msplits.remove(line)
        if pp is not None:
            msplits.remove(prev)
            mmsplits.remove(line)
            if pp.prev is not None:
                mmsplits.remove(prev)
        self._remove_next(lists, nxt, nn, True)
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
        self.insert_split(splits, prev)
        self.insert_split(splits, line)
        line.msplit.delta = 0.0
        msplits.add(line, 0.0)
        if pp is not None:
            self.insert_merge_split(msplits, prev)
            if pp.prev is not None:
                self.insert_merge_merge_split(mmsplits, prev)
            self.insert_merge_merge_split(mmsplits, line)
        self._insert_next(lists, nxt, nn)

    def apply_merge_merge_split(self, lists, line) -> None:
        """``UpdatePostOptimizationSortedListsWithMergeMergeSplit``."""
        splits, msplits, mmsplits = lists
        prev, pp, nxt, nn = _neighbours(line)
        splits.remove(pp)
        splits.remove(prev)
        splits.remove(line)
        msplits.remove(prev)
        msplits.remove(line)
        mmsplits.remove(line)
        if pp.prev is not None:
            msplits.remove(pp)
            mmsplits.remove(prev)
            if pp.prev.prev is not None:
                mmsplits.remove(pp)
        self._remove_next(lists, nxt, nn, True)
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
        self.insert_split(splits, pp)
        self.insert_split(splits, line)
        if pp.prev is not None:
            self.insert_merge_split(msplits, pp)
        self.insert_merge_split(msplits, line)
        if pp.prev is not None:
            self.insert_merge_merge_split(mmsplits, line)
            if pp.prev.prev is not None:
                self.insert_merge_merge_split(mmsplits, pp)
        self._insert_next(lists, nxt, nn)
