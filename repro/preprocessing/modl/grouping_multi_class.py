"""Value grouping for more than two classes as Khiops 11 implements it (KWGrouperMODL.cpp,
KWGrouperMODLOptimization.cpp; KHIOPS_NOTES §3): the groups and their merges.

``MergePureSourceValues``; ``BuildReliableSubGroups`` (the values kept together by all the
one-class-versus-rest two-class groupings, run without partition cost: ``NullCosts``); if there
are more than √N sub-groups, ``ComputeMinGroupFrequency`` + ``MergeSmallGroups`` (each small group
merged into the first one met of its majority class, the first class of maximal count); greedy
merges of any two groups (:func:`merge_groups`: ``OptimizeGroups``, with garbage search
``OptimizeGroupsWithGarbageSearch``). The post-optimisation is
:mod:`repro.preprocessing.modl.grouping_post_optimisation`.

Group merges: the merge of smallest delta is the tail of a list sorted by decreasing delta; merges
go on while Δ < 1e-6 (and, with garbage search, while the garbage partition does not degrade,
never below 3 groups); the new groups follow the swap-removal order of the active groups.
"""

from __future__ import annotations

import math

import numpy as np

from repro.preprocessing.modl import grouping_kernels
from repro.preprocessing.modl.criteria import GroupingCosts, NullCosts
from repro.preprocessing.modl.grouping_two_class import two_class_group
from repro.preprocessing.modl.rules import EPSILON
from repro.preprocessing.modl.sorted_list import SortedList


class Group:
    """``KWMODLGroup``: class counts, number of values, cost and index of a group."""

    __slots__ = ("counts", "mod", "cost", "index")

    def __init__(self, counts, mod, cost=0.0, index=0):
        self.counts = list(counts)
        self.mod = mod
        self.cost = cost
        self.index = index

    def clone(self) -> Group:
        return Group(self.counts, self.mod, self.cost, self.index)

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


class Merge:
    """``KWMODLGroupMerge``."""

    __slots__ = ("delta", "index1", "index2")

    def __init__(self, delta, index1, index2):
        self.delta = delta
        self.index1 = index1
        self.index2 = index2


def union_cost(costs, a, b) -> float:
    """``ComputeGroupUnionCost``."""
    return costs.part_cost([x + y for x, y in zip(a.counts, b.counts)])


def diff_cost(costs, a, b) -> float:
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
    if grouping_kernels.compiled():
        return _build_reliable_sub_groups_compiled(rows, mods, costs, null)
    keys = [[] for _ in rows]
    for t in range(n_classes):
        bi_rows = [(row[t], sum(row) - row[t]) for row in rows]
        labels, _, _ = two_class_group(bi_rows, mods, null)
        for s, lab in enumerate(labels):
            keys[s].append(lab)
    groups: list[Group] = []
    seen: dict = {}
    index = [0] * len(rows)
    for s, key in enumerate(keys):
        key = tuple(key)
        group = seen.get(key)
        if group is None:
            group = Group([0] * n_classes, 0, 0.0, len(groups))
            groups.append(group)
            seen[key] = group
        group.add(Group(rows[s], mods[s]))
        index[s] = group.index
    for group in groups:
        group.cost = costs.part_cost(group.counts)
    return groups, index


def _build_reliable_sub_groups_compiled(rows, mods, costs, null):
    """:func:`build_reliable_sub_groups` with the two-class groupings compiled and the sub-group
    counts summed by numpy (same groups, same order)."""
    from repro.preprocessing.modl.grouping_two_class import two_class_group_compiled

    table = np.asarray(rows, dtype=np.int64)
    n_rows, n_classes = table.shape
    totals = table.sum(axis=1)
    labels = []
    for t in range(n_classes):
        bi_rows = np.stack([table[:, t], totals - table[:, t]], axis=1)
        labels.append(two_class_group_compiled(bi_rows, mods, null)[0])
    seen: dict = {}
    index = [0] * n_rows
    for s, key in enumerate(zip(*labels)):
        index[s] = seen.setdefault(key, len(seen))
    index_arr = np.asarray(index, dtype=np.int64)
    counts = np.zeros((len(seen), n_classes), dtype=np.int64)
    np.add.at(counts, index_arr, table)
    group_mods = np.bincount(
        index_arr, weights=np.asarray(mods, dtype=np.int64), minlength=len(seen)
    )
    groups = [
        Group(c, int(m), costs.part_cost(c), k)
        for k, (c, m) in enumerate(zip(counts.tolist(), group_mods.astype(np.int64).tolist()))
    ]
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
            merges[(j, i)] = Merge(union_cost(costs, g1, g2) - g1.cost - g2.cost, j, i)
    return merges


def _merge_at(merges, a: int, b: int) -> Merge:
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
            merge.delta = union_cost(costs, g1, group) - g1.cost - group.cost
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


def merge_groups(n_exact: int, groups, merges, costs, garbage_search: bool = False):
    """``OptimizeGroups``: greedy merges of the two groups of smallest merge delta while the cost
    decreases (or down to ``n_exact`` groups, if not 0). With garbage search
    (``OptimizeGroupsWithGarbageSearch``) also follows the cost of the partition whose garbage
    group is the group with the most values, stops as soon as a merge degrades either cost, and
    never goes below 3 groups. Returns (best number of groups met, the same with garbage or None,
    new groups, new group of each initial group). The groups are modified. ``merges``: those of
    :func:`build_group_merges` (None: built here)."""
    if grouping_kernels.compiled():
        return _merge_groups_compiled(n_exact, groups, costs, garbage_search)
    if merges is None:
        merges = build_group_merges(groups, costs)
    n_init = len(groups)
    iv = list(range(n_init))
    merge_list = SortedList()
    for i in range(n_init):
        for j in range(i):
            merge = merges[(j, i)]
            merge_list.add(merge, -merge.delta)
    active = list(range(n_init))
    new_index = list(range(n_init))
    cont = True
    total = best_total = 0.0
    n_groups = n_opt = n_init
    n_opt_garbage = None
    n_min = 2
    if garbage_search:
        n_min = 4
        freq = group_list(groups)
        cum_garbage = best_cum_garbage = 0.0
        n_opt_garbage = n_groups
        prev_pc_garbage = 0.0
        if n_groups > 2:
            prev_pc_garbage = costs.partition_cost(n_groups, freq.head().mod)
            cum_garbage = best_cum_garbage = prev_pc_garbage - costs.partition_cost(n_groups, 0)
    while cont and n_groups >= n_min and n_groups > n_exact:
        best = merge_list.tail()
        delta = best.delta + costs.partition_delta(n_groups, 0)
        cont = delta < EPSILON
        g1, g2 = groups[best.index1], groups[best.index2]
        if garbage_search:
            pc_garbage = costs.merged_garbage_cost(n_groups, freq.head().mod, g1.mod + g2.mod)
            delta_garbage = (pc_garbage - prev_pc_garbage) + best.delta
            if cont:
                cont = delta_garbage < EPSILON
            prev_pc_garbage = pc_garbage
            cum_garbage += delta_garbage
        total += delta
        if total < best_total + EPSILON:
            best_total = total
            n_opt = n_groups - 1
        if garbage_search and cum_garbage < best_cum_garbage + EPSILON:
            best_cum_garbage = cum_garbage
            n_opt_garbage = n_groups - 1
        if n_exact != 0:
            cont = n_groups > n_exact
        if cont:
            n_groups -= 1
            if garbage_search:
                freq.remove(g1)
                freq.remove(g2)
            g1.add(g2)
            g1.cost = costs.part_cost(g1.counts)
            if garbage_search:
                freq.add(g1, -g1.mod)
            iv[g2.index] = g1.index
            _remove_merged_group(active, new_index, g2)
            _update_merges(merge_list, merges, groups, active, g1, g2, costs)
    new_groups, iv = _final_groups(groups, active, iv)
    return n_opt, n_opt_garbage, new_groups, iv


def _merge_groups_compiled(n_exact: int, groups, costs, garbage_search: bool):
    """:func:`merge_groups` on :func:`~.grouping_kernels.merge_groups_kernel` (the same merges,
    deltas and ties; the merged groups are updated in place as by the Python loop)."""
    n_classes = len(groups[0].counts)
    counts = np.array([g.counts for g in groups], dtype=np.int64).reshape(len(groups), n_classes)
    mods = np.array([g.mod for g in groups], dtype=np.int64)
    gcosts = np.array([g.cost for g in groups], dtype=np.float64)
    n_opt, n_opt_garbage, active, new_counts, new_mods, new_costs, iv = (
        grouping_kernels.merge_groups_kernel(
            counts,
            mods,
            gcosts,
            int(n_exact),
            bool(garbage_search),
            *grouping_kernels.cost_args(costs),
        )
    )
    new_groups = []
    for k, a in enumerate(active.tolist()):
        group = groups[a]
        group.counts = new_counts[k].tolist()
        group.mod = int(new_mods[k])
        group.cost = float(new_costs[k])
        new_groups.append(group)
    return int(n_opt), int(n_opt_garbage) if garbage_search else None, new_groups, iv.tolist()


def group_list(groups) -> SortedList:
    """The groups by decreasing number of values (the first one: the garbage group)."""
    freq = SortedList()
    for group in groups:
        freq.add(group, -group.mod)
    return freq


def table(groups) -> list:
    """``BuildTable``: rows (as groups: counts and number of values) copied from groups."""
    return [Group(g.counts, g.mod) for g in groups]


def build_groups(rows, costs) -> list:
    """``BuildGroups``: groups (index = position, cost) from the rows of a table."""
    return [Group(r.counts, r.mod, costs.part_cost(r.counts), i) for i, r in enumerate(rows)]


def table_cost(costs, rows, garbage: int = 0) -> float:
    """``ComputePartitionGlobalCost`` of a table of groups with a garbage group of ``garbage``
    values (0: none)."""
    return costs.global_cost([r.counts for r in rows], garbage)
