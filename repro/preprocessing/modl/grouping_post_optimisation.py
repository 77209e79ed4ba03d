"""Post-optimisation of a grouping for more than two classes as Khiops 11 implements it
(KWGrouperMODLOptimization.cpp; KHIOPS_NOTES §3).

``PostOptimizeGrouping`` (:func:`post_optimise_grouping`): ``ExhaustiveMergeGrouping`` down to 5
groups, moves of single sub-groups between groups (``PostOptimizeGroups``), up to 3 unsuccessful
forced best merges (``ForceBestGroupMerge``) each followed by moves, then the single group. With
garbage search (``...WithGarbageSearch``, 7 values or more) the same steps are also run on the
partition whose garbage group is the group with the most values (its size Gb enters the partition
cost pc(I, Gb)), never below 3 groups, and the cheaper partition is kept. One function per Khiops
method, the garbage search a flag of the same function (``garbage_search``).

Moves of sub-groups: the first (value, group) of strictly smallest Δ below 1e-6, applied if
Δ < −1e-6, the group costs being updated incrementally; forced merges: the first pair of strictly
smallest delta, kept if cost < best + 1e-6; the garbage partition wins if its cost < plain + 1e-6;
the single group if its cost < plain + 1e-6.
"""

from __future__ import annotations

import sys

import numpy as np

from repro.preprocessing.modl import grouping_kernels
from repro.preprocessing.modl.grouping_multi_class import (
    Group,
    build_groups,
    diff_cost,
    group_list,
    merge_groups,
    table,
    table_cost,
    union_cost,
)
from repro.preprocessing.modl.rules import EPSILON

DBL_MAX = sys.float_info.max
MAX_TESTED_FORCED_MERGES = 3
"""``nMaxTestedForcedMergeNumber`` of the post-optimisations."""


def post_optimise_groups(source, groups, iv, costs, garbage_search: bool = False) -> list:
    """``PostOptimizeGroups``: best moves of one source row to another group while the part costs
    decrease by more than 1e-6 (the number of groups is fixed). With garbage search
    (``PostOptimizeGroupsWithGarbageSearch``) the partition cost follows the size of the garbage
    group (the one with the most values) and the number of non-empty groups, never below 3, and
    the empty groups are dropped. Returns the groups (modified, as ``iv``)."""
    n_groups = len(groups)
    if n_groups <= 1:
        return groups
    if grouping_kernels.compiled():
        n_true = _post_optimise_groups_compiled(source, groups, iv, costs, garbage_search)
    else:
        n_true = _post_optimise_groups_loop(source, groups, iv, costs, garbage_search)
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


_SOURCE_ARRAYS: list = [None]
"""(source list, its length, class counts, numbers of values) of the last compiled call: the list
is kept alive by the entry, so that ``is`` identifies it."""


def _post_optimise_groups_compiled(source, groups, iv, costs, garbage_search: bool) -> int:
    """The moves of :func:`post_optimise_groups` on
    :func:`~.grouping_kernels.post_optimise_groups_kernel` (groups and iv updated in place).
    Returns the number of non-empty groups."""
    n_classes = len(groups[0].counts)
    cached = _SOURCE_ARRAYS[0]
    if cached is not None and cached[0] is source and cached[1] == len(source):
        src, src_mod = cached[2], cached[3]
    else:  # the source rows do not change between the calls of one post-optimisation
        src = np.array([s.counts for s in source], dtype=np.int64).reshape(len(source), n_classes)
        src_mod = np.array([s.mod for s in source], dtype=np.int64)
        _SOURCE_ARRAYS[0] = (source, len(source), src, src_mod)
    counts = np.array([g.counts for g in groups], dtype=np.int64)
    mods = np.array([g.mod for g in groups], dtype=np.int64)
    iv_arr = np.array(iv, dtype=np.int64)
    n_true = grouping_kernels.post_optimise_groups_kernel(
        src, src_mod, counts, mods, iv_arr, bool(garbage_search), *grouping_kernels.cost_args(costs)
    )
    for g, group in enumerate(groups):
        group.counts = counts[g].tolist()
        group.mod = int(mods[g])
    iv[:] = iv_arr.tolist()
    return int(n_true)


def _post_optimise_groups_loop(source, groups, iv, costs, garbage_search: bool) -> int:
    """The moves of :func:`post_optimise_groups` (Python reference). Returns the number of
    non-empty groups."""
    n_groups = len(groups)
    n_mod = len(source)
    group_costs = [costs.part_cost(g.counts) for g in groups]
    out_delta = [0.0] * n_mod
    in_delta = [0.0] * (n_mod * n_groups)
    for m in range(n_mod):
        cur = iv[m]
        out_delta[m] = diff_cost(costs, groups[cur], source[m]) - group_costs[cur]
    for m in range(n_mod):
        cur = iv[m]
        for g in range(n_groups):
            if g != cur:
                in_delta[m * n_groups + g] = (
                    union_cost(costs, groups[g], source[m]) - group_costs[g]
                )
    n_true = n_groups  # non-empty groups (garbage search)
    freq = group_list(groups) if garbage_search else None
    while freq is None or n_true > 3:
        if freq is None:
            best_delta, best_m, best_g = _best_move(iv, out_delta, in_delta, n_groups)
        else:
            best_delta, best_m, best_g = _best_garbage_move(
                source, groups, iv, out_delta, in_delta, freq, n_true, costs
            )
        if not best_delta < -EPSILON:
            break
        out_g, in_g = iv[best_m], best_g
        group_costs[out_g] += out_delta[best_m]
        group_costs[in_g] += in_delta[best_m * n_groups + in_g]
        out_delta[best_m] = -in_delta[best_m * n_groups + in_g]
        if freq is not None:
            freq.remove(groups[in_g])
            freq.remove(groups[out_g])
            if groups[in_g].mod == 0:
                n_true += 1
        groups[in_g].add(source[best_m])
        groups[out_g].remove(source[best_m])
        if freq is not None:
            if groups[out_g].mod == 0:
                n_true -= 1
            freq.add(groups[in_g], -groups[in_g].mod)
            freq.add(groups[out_g], -groups[out_g].mod)
        iv[best_m] = in_g
        base = best_m * n_groups
        for g in range(n_groups):
            if g != in_g:
                in_delta[base + g] = union_cost(costs, groups[g], source[best_m]) - group_costs[g]
            else:
                in_delta[base + g] = 0.0
        for m in range(n_mod):
            if m == best_m:
                continue
            cur = iv[m]
            if cur == out_g or cur == in_g:
                out_delta[m] = diff_cost(costs, groups[cur], source[m]) - group_costs[cur]
            if out_g != cur:
                in_delta[m * n_groups + out_g] = (
                    union_cost(costs, groups[out_g], source[m]) - group_costs[out_g]
                )
            if in_g != cur:
                in_delta[m * n_groups + in_g] = (
                    union_cost(costs, groups[in_g], source[m]) - group_costs[in_g]
                )
    return n_true


def _best_move(iv, out_delta, in_delta, n_groups: int):
    """The first move (source row m to group g) of strictly smallest part-cost delta below 1e-6:
    (delta, m, g), m = g = −1 if none."""
    best_delta = EPSILON
    best_m = best_g = -1
    for m in range(len(out_delta)):
        cur = iv[m]
        base = m * n_groups
        om = out_delta[m]
        for g in range(n_groups):
            if g != cur:
                delta = om + in_delta[base + g]
                if delta < best_delta:
                    best_delta, best_m, best_g = delta, m, g
    return best_delta, best_m, best_g


def _best_garbage_move(source, groups, iv, out_delta, in_delta, freq, n_true: int, costs):
    """:func:`_best_move` where the delta adds the change of pc(I, Gb): the number of non-empty
    groups (never below 3) and the size of the garbage group after the move."""
    pc = costs.partition_cost
    n_groups = len(groups)
    best_delta = EPSILON
    best_m = best_g = -1
    garbage = freq.head().mod
    for m in range(len(source)):
        cur = iv[m]
        moved = source[m].mod
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
    return best_delta, best_m, best_g


def force_best_group_merge(groups, iv, costs, garbage_search: bool = False):
    """``ForceBestGroupMerge``: the merge of the two groups of smallest delta (part costs; with
    garbage search, ``ForceBestGroupMergeWithGarbageSearch``, also the change of pc(I, Gb)).
    Returns the new table; iv is updated."""
    n = len(groups)
    if grouping_kernels.compiled():
        best1, best2 = grouping_kernels.best_group_merge_kernel(
            np.array([g.counts for g in groups], dtype=np.int64),
            np.array([g.mod for g in groups], dtype=np.int64),
            bool(garbage_search),
            *grouping_kernels.cost_args(costs),
        )
        return _merge_table(groups, iv, int(best1), int(best2))
    pc = costs.partition_cost
    group_costs = [costs.part_cost(g.counts) for g in groups]
    best_delta = DBL_MAX
    best1 = best2 = -1
    garbage = max(g.mod for g in groups) if garbage_search else 0
    for g1 in range(n):
        for g2 in range(g1 + 1, n):
            delta = union_cost(costs, groups[g1], groups[g2]) - group_costs[g1] - group_costs[g2]
            if garbage_search:
                merged = groups[g1].mod + groups[g2].mod
                delta += costs.merged_garbage_cost(n, garbage, merged) - pc(n, garbage)
            if delta < best_delta:
                best_delta, best1, best2 = delta, g1, g2
    return _merge_table(groups, iv, best1, best2)


def _merge_table(target, iv, best1: int, best2: int):
    n = len(target)
    new_index = [g if g < best2 else g - 1 for g in range(n)]
    new_index[best2] = best1
    new = []
    for g in range(n):
        if g == best2:
            new[best1].add(target[g])
        elif g == best1:
            row = Group([0] * len(target[g].counts), 0)
            row.add(target[g])
            new.append(row)
        else:
            new.append(Group(target[g].counts, target[g].mod))
    for i in range(len(iv)):
        iv[i] = new_index[iv[i]]
    return new


def exhaustive_merge_grouping(n_min: int, groups, costs, garbage_search: bool = False):
    """``ExhaustiveMergeGrouping``: greedy merges of ``groups`` (index = position) down to
    ``n_min`` groups, then the best number of groups met is rebuilt by the same merges. With
    garbage search (``ExhaustiveMergeGroupingWithGarbageSearch``) the best numbers without and
    with garbage are both rebuilt, the larger first and the other from it. Returns (groups
    without garbage, their group of each group, groups with garbage or None, theirs or None)."""
    initial = [g.clone() for g in groups]
    n_plain, n_garbage, new_groups, iv = merge_groups(n_min, groups, None, costs, garbage_search)
    if not garbage_search:
        if n_plain != len(new_groups):
            new_groups, iv = _merge_down(n_plain, initial, costs)
        return new_groups, iv, None, None
    plain_first = n_plain > n_garbage
    n_first, n_second = (n_plain, n_garbage) if plain_first else (n_garbage, n_plain)
    first, iv_first = _merge_down(n_first, initial, costs)
    renumbered = []
    for k, group in enumerate(first):
        copy = group.clone()
        copy.index = k
        renumbered.append(copy)
    second, iv_second = _merge_down(n_second, renumbered, costs)
    iv_second = [iv_second[g] for g in iv_first]
    if plain_first:
        return first, iv_first, second, iv_second
    return second, iv_second, first, iv_first


def _merge_down(n_groups: int, groups, costs):
    """The greedy merges of :func:`merge_groups` down to ``n_groups`` groups: (groups, iv)."""
    _, _, new_groups, iv = merge_groups(n_groups, groups, None, costs)
    return new_groups, iv


def forced_merge_search(source, groups, iv, costs, garbage_search: bool = False):
    """The value moves and forced merges of ``PostOptimizeGrouping`` (``...WithGarbageSearch``):
    value moves on ``groups``, then up to MAX_TESTED_FORCED_MERGES unsuccessful forced merges,
    each followed by value moves, the best table kept (ties to fewer groups; the count restarts
    at each success), down to 1 group (with garbage search: 3, the partition cost with the
    garbage group). ``groups`` and ``iv`` are modified. Returns (best table, its garbage size,
    group of each source row, its cost, whether the single group was met)."""
    n_min = 3 if garbage_search else 1
    singleton_tested = len(groups) == 1
    groups = post_optimise_groups(source, groups, iv, costs, garbage_search)
    garbage = max(g.mod for g in groups) if garbage_search else 0
    best = table(groups)
    best_cost = table_cost(costs, best, garbage)
    tested = 0
    current = groups
    iv_new = list(iv)
    while len(current) > n_min and tested < MAX_TESTED_FORCED_MERGES:
        tested += 1
        new = force_best_group_merge(current, iv_new, costs, garbage_search)
        if len(new) == 1:
            singleton_tested = True
        new = post_optimise_groups(source, new, iv_new, costs, garbage_search)
        new_garbage = max(g.mod for g in new) if garbage_search else 0
        new_cost = table_cost(costs, new, new_garbage)
        if new_cost < best_cost + EPSILON:
            best_cost, best, garbage = new_cost, table(new), new_garbage
            iv = list(iv_new)
            tested = 0
        current = new
    return best, garbage, iv, best_cost, singleton_tested


def post_optimise_grouping(source, groups, iv, costs, garbage_search: bool = False):
    """``PostOptimizeGrouping``: ExhaustiveMerge down to 5 groups, then
    :func:`forced_merge_search` (value moves and forced merges), then the single group. With
    garbage search (``PostOptimizeGroupingWithGarbageSearch``) the search is also run on the
    partition with garbage (from 3 groups) and the cheaper is kept (ties to the garbage), then the
    single group. ``source``: the rows moved between groups, ``iv`` their group. Returns (table,
    garbage size, group of each source row)."""
    if len(groups) <= 1:
        return table(groups), 0, iv
    iv_plain = iv_garbage = iv
    groups_garbage = groups
    if len(groups) > MAX_TESTED_FORCED_MERGES + 2:
        groups, iv_em, groups_em, iv_em_garbage = exhaustive_merge_grouping(
            MAX_TESTED_FORCED_MERGES + 2, build_groups(groups, costs), costs, garbage_search
        )
        iv_plain = [iv_em[g] for g in iv]
        if garbage_search:
            groups_garbage = groups_em
            iv_garbage = [iv_em_garbage[g] for g in iv]
    target, _, iv, best_cost, singleton_tested = forced_merge_search(
        source, table(groups), list(iv_plain), costs
    )
    garbage = 0
    if garbage_search and len(groups_garbage) > 2:
        target_garbage, garbage_size, iv_new, cost, _ = forced_merge_search(
            source, groups_garbage, list(iv_garbage), costs, garbage_search
        )
        if cost < best_cost + EPSILON:
            target, garbage, iv = target_garbage, garbage_size, iv_new
    _SOURCE_ARRAYS[0] = None
    if not singleton_tested:
        single = [Group([0] * len(target[0].counts), 0)]
        for row in target:
            single[0].add(row)
        if table_cost(costs, single) < best_cost + EPSILON:
            target, garbage = single, 0
            iv = [0] * len(iv)
    return target, garbage, iv
