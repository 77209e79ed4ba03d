"""Two-class value grouping as Khiops 11 implements it (``KWGrouperMODLTwoClasses``,
KWGrouperMODLInternal.cpp; KHIOPS_NOTES §3): the MODL discretisation heuristic of
``KWDiscretizerMODL`` (KWDiscretizerMODL*.cpp) on the values sorted by increasing P(first class).

Greedy merges of adjacent intervals driven by Khiops' sorted lists, best merge (the merges go on
down to one interval on a copy, the best size is rebuilt), then post-optimisation by Split /
MergeSplit / MergeMergeSplit moves (:class:`_IntervalOptimiser`). From 7 rows
(``GARBAGE_MIN_VALUES``) each phase also follows the partition with a garbage interval (the
interval with the most values, whose values are coded apart in the partition cost pc(I, Gb)):
``IntervalListMergeOptimizationWithGarbagePartitionCost``,
``IntervalListBestMergeOptimizationWithGarbage``, ``IntervalListPostOptimizationWithGarbage``;
the garbage partition is kept if strictly cheaper. One method per Khiops method, the garbage
search a flag of the same method (``garbage_search``): the plain and garbage variants share every
step but the partition cost of their moves.

Details that decide the result: the order is increasing n_first/n with ties by row index (not the
reverse of a decreasing order); with garbage search the plain partition keeps ≥ 2 intervals and
the garbage one ≥ 3, merges stop at 3 intervals, MergeMergeSplit with garbage only above 3
intervals, and a Split of the garbage interval takes as new garbage size max(next largest, first
part) if the first part is larger, else max(next largest, second part).
"""

from __future__ import annotations

import numpy as np

from repro.preprocessing.modl import grouping_kernels
from repro.preprocessing.modl.criteria import GARBAGE_MIN_VALUES, GroupingCosts
from repro.preprocessing.modl.grouping_intervals import IntervalList, lines
from repro.preprocessing.modl.rules import EPSILON, INFINITE_COST, pick_move


class _IntervalOptimiser(IntervalList):
    """The interval-list optimisation of ``KWDiscretizerMODL`` (``IntervalList*Optimization*``)
    on the rows of a sorted table, as ``KWGrouperMODLTwoClasses`` uses it."""

    def merge_optimisation(self, head, garbage_search: bool = False):
        """``IntervalListMergeOptimization``: merges of smallest delta while the total delta
        (partition delta + part delta, |Δ| < 1e-6 counting as 0) is ≤ 0. With garbage search
        (``IntervalListMergeOptimizationWithGarbagePartitionCost``) they also stop at 3 intervals,
        and at a merge that degrades the partition with garbage while its cumulated cost is the
        lower one."""
        costs = self.costs
        self.init_merges(head)
        merges = self.merge_list(head)
        n_parts = len(merges) + 1
        if garbage_search:
            self.freq = self.frequency_list(head)
            prev_pc_garbage = costs.partition_cost(n_parts, self.freq.head().mod)
            cum_garbage = prev_pc_garbage - costs.partition_cost(n_parts, 0)
            cum_plain = 0.0
        while len(merges):
            line = merges.head()
            delta = costs.partition_delta(n_parts, 0)
            delta += line.m_delta
            accept = True
            if garbage_search:
                cum_plain += delta
                if n_parts <= 3:
                    break
                merged = line.mod + line.prev.mod
                pc_garbage = costs.merged_garbage_cost(n_parts, self.freq.head().mod, merged)
                delta_garbage = (pc_garbage - prev_pc_garbage) + line.m_delta
                prev_pc_garbage = pc_garbage
                cum_garbage += delta_garbage
                profitable = cum_garbage < cum_plain
                if abs(delta_garbage) < EPSILON:
                    delta_garbage = 0.0
                accept = not profitable or delta_garbage <= 0
            if abs(delta) < EPSILON:
                delta = 0.0
            if delta <= 0 and accept:
                head = self.update_merge(merges, head, line)
                n_parts -= 1
            else:
                break
        self.freq = None
        return head

    def best_merge_optimisation(self, head, garbage_search: bool = False):
        """``IntervalListBestMergeOptimization``: the merges go on down to one interval on a copy,
        and the number of intervals of lowest cumulated cost met (≤ best + 1e-6: ties to fewer) is
        rebuilt by the same merges. With garbage search
        (``IntervalListBestMergeOptimizationWithGarbage``) that number is at least 2, and the best
        number for the partition with garbage (at least 3) is rebuilt on a copy of the list.
        Returns (list, list with garbage or None)."""
        costs = self.costs
        copy = self.clone(head, True)
        merges = self.merge_list(copy)
        total = best_total = 0.0
        n_parts = best_n = best_n_garbage = len(merges) + 1
        min_parts = 1
        if garbage_search:
            min_parts = 2
            self.freq = self.frequency_list(copy)
            total_garbage = best_total_garbage = 0.0
            prev_pc_garbage = 0.0
            if n_parts > 2:
                prev_pc_garbage = costs.partition_cost(n_parts, self.freq.head().mod)
        while len(merges):
            line = merges.head()
            delta = costs.partition_delta(n_parts, 0)
            delta += line.m_delta
            if garbage_search and n_parts > 3:
                merged = line.mod + line.prev.mod
                pc_garbage = costs.merged_garbage_cost(n_parts, self.freq.head().mod, merged)
                total_garbage += (pc_garbage - prev_pc_garbage) + line.m_delta
                prev_pc_garbage = pc_garbage
            copy = self.update_merge(merges, copy, line)
            n_parts -= 1
            total += delta
            if total <= best_total + EPSILON and n_parts >= min_parts:
                best_total, best_n = total, n_parts
            if garbage_search and total_garbage <= best_total_garbage + EPSILON and n_parts >= 3:
                best_total_garbage, best_n_garbage = total_garbage, n_parts
        self.freq = None
        head_garbage = None
        if garbage_search:
            head_garbage = self.merge_down(self.clone(head, True), best_n_garbage)
        return self.merge_down(head, best_n), head_garbage

    def post_optimisation(self, head, garbage_search: bool = False):
        """``IntervalListPostOptimization``: the best move among the best Split, MergeSplit and
        MergeMergeSplit (their deltas with the partition cost, :func:`pick_move`) while it lowers
        the cost. With garbage search (``IntervalListPostOptimizationWithGarbage``) the partition
        cost is that of the partition whose garbage is the interval with the most values
        (:meth:`garbage_moves`)."""
        if garbage_search:
            self.freq = self.frequency_list(head)
        lists = self.init_post_lists(head)
        n_parts = len(lists[0])
        moves = self.garbage_moves if garbage_search else self.plain_moves
        while True:
            split_line, d_split, ms_line, d_ms, mms_line, d_mms = moves(lists, n_parts)
            move = pick_move(d_split, d_ms, d_mms)
            if move < 0:
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

    def plain_moves(self, lists, n_parts: int):
        """The best Split, MergeSplit and MergeMergeSplit with their total deltas (partition
        deltas without garbage): (split line, Δ, MergeSplit line, Δ, MergeMergeSplit line, Δ)."""
        splits, msplits, mmsplits = lists
        pd = self.costs.partition_delta
        split_line = splits.head()
        if split_line.split.delta < INFINITE_COST:
            d_split = -pd(n_parts + 1, 0) + split_line.split.delta
        else:
            d_split = INFINITE_COST
        ms_line = mms_line = None
        d_ms = d_mms = INFINITE_COST
        if len(msplits):
            ms_line = msplits.head()
            d_ms = ms_line.msplit.delta
        if len(mmsplits):
            mms_line = mmsplits.head()
            d_mms = pd(n_parts, 0) + mms_line.mmsplit.delta
        return split_line, d_split, ms_line, d_ms, mms_line, d_mms

    def garbage_moves(self, lists, n_parts: int):
        """:meth:`plain_moves` for the partition with garbage: each delta adds the change of
        pc(I, Gb), the garbage size Gb following the intervals the move creates."""
        splits, msplits, mmsplits = lists
        pc, pd = self.costs.partition_cost, self.costs.partition_delta
        freq = self.freq
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
        return split_line, d_split, ms_line, d_ms, mms_line, d_mms

    def _other_largest(self, excluded) -> int:
        """Number of values of the first interval of the frequency list not in ``excluded``."""
        for line in self.freq.items:
            if all(line is not e for e in excluded):
                return line.mod
        return 0  # pragma: no cover

    def optimisation(self, garbage_search: bool = False):
        """``IntervalListOptimization`` (OptimizedGreedyMerge; with garbage search
        ``IntervalListOptimizationWithGarbage``): merges, best merge, post-optimisation.
        Returns (list, list with garbage or None)."""
        head = self.build_lines()
        head = self.merge_optimisation(head, garbage_search)
        head, head_garbage = self.best_merge_optimisation(head, garbage_search)
        head = self.post_optimisation(head)
        if garbage_search:
            head_garbage = self.post_optimisation(head_garbage, garbage_search)
        return head, head_garbage


def _two_class_discretize(rows, mods, costs: GroupingCosts):
    """``KWGrouperMODLTwoClasses::DiscretizeFrequencyTable`` of sorted rows: (interval ends,
    interval counts, garbage size)."""
    optimiser = _IntervalOptimiser(rows, mods, costs)
    head, head_garbage = optimiser.optimisation(len(rows) >= GARBAGE_MIN_VALUES)
    plain = list(lines(head))
    if head_garbage is not None:
        with_garbage = list(lines(head_garbage))
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
    if grouping_kernels.compiled():
        return two_class_group_compiled(rows, mods, costs)
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


def two_class_group_compiled(rows, mods, costs: GroupingCosts):
    """:func:`two_class_group` on the kernel :func:`~.grouping_kernels.two_class_kernel` (same
    order of the rows, same groups, same costs)."""
    table = np.asarray(rows, dtype=np.int64).reshape(len(rows), 2)
    ratio = table[:, 0] * 1.0 / (table[:, 0] + table[:, 1])
    order = np.argsort(ratio, kind="stable")
    sorted_rows = np.ascontiguousarray(table[order])
    sorted_mods = np.asarray(mods, dtype=np.int64)[order]
    ends, parts, garbage = grouping_kernels.two_class_kernel(
        sorted_rows, sorted_mods, *grouping_kernels.cost_args(costs), GARBAGE_MIN_VALUES
    )
    labels = np.empty(len(rows), dtype=np.int64)
    labels[order] = np.searchsorted(ends, np.arange(len(rows)), side="left")
    return labels.tolist(), [tuple(p) for p in parts.tolist()], int(garbage)
