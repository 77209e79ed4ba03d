"""MODL value grouping as Khiops 11 implements it (KHIOPS_NOTES §3).

A step-by-step port of ``KWGrouperMODL`` (Learning/KWDataPreparation, tag 11.0.1): the same
algorithms, in the same order, with the same tie rules and 1e-6 tolerances, so that the groups
(class counts of the parts) and the Level are those of Khiops on every table.

Criterion (``KWMODLGroupingCosts``, KWUnivariatePartitionCost.cpp; ``GroupingCosts``), for V
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
* Two classes (:mod:`~repro.preprocessing.modl.grouping_two_class`): pure values of a class are
  merged (``MergePureSourceValues``), the rows are sorted by increasing P(first class) (ties: row
  index) and discretised by the MODL discretisation heuristic of ``KWDiscretizerMODL`` (greedy
  merges, best merge, post-optimisation by Split / MergeSplit / MergeMergeSplit). With ≥ 7 rows
  the search also follows the partitions with a garbage interval (the interval with the most
  values) and keeps it if strictly cheaper.
* Several classes (:func:`multiple_classes_group`; the groups and their greedy merges:
  :mod:`~repro.preprocessing.modl.grouping_multi_class`, the post-optimisation:
  :mod:`~repro.preprocessing.modl.grouping_post_optimisation`): ``MergePureSourceValues``;
  ``BuildReliableSubGroups`` (the values kept together by all the one-class-versus-rest two-class
  groupings, run without partition cost: ``NullCosts``); if there are more than √N sub-groups,
  ``ComputeMinGroupFrequency`` + ``MergeSmallGroups`` (small groups merged by majority class);
  greedy merges of any two groups (``OptimizeGroups``; with garbage search
  ``OptimizeGroupsWithGarbageSearch``); post-optimisation (``PostOptimizeGrouping`` /
  ``PostOptimizeGroupingWithGarbageSearch``: ``ExhaustiveMergeGrouping`` down to 5 groups, moves of
  single sub-groups between groups ``PostOptimizeGroups``, up to 3 unsuccessful forced best merges
  ``ForceBestGroupMerge``, the same with the garbage group, then the single group).

Khiops' ``SortedList`` (Norm/base/SortedList.cpp) decides every tie:
:class:`~repro.preprocessing.modl.sorted_list.SortedList`. The costs are
:class:`~repro.preprocessing.modl.criteria.GroupingCosts`.

Details that decide the result (all from the sources, all needed for the exact agreement; those
of each step are in the docstring of its module):

* granularity: the winner has a strictly lower cost (no 1e-6 margin, unlike the discretiser), and
  g = g_max is always explored;
* the one-class-versus-rest groupings of ``BuildReliableSubGroups`` run the two-class garbage
  search with null partition costs (so its plain partition keeps ≥ 2 intervals);
* more than √N sub-groups (``MultipleClassesGroup``: √N real, target ⌈√N⌉; with garbage search:
  ⌊√N⌋ for both).

Compiled path (the default, ``group_values(..., engine="numba")``): the two-class grouping, the
greedy group merges, the value moves, the forced merges and the partition costs run as numba
kernels (:mod:`~repro.preprocessing.modl.grouping_kernels`) that reproduce the Python functions
operation by operation, ties included; ``engine="python"`` runs the Python functions of these
modules, which stay the reference (same groups and the same cost to the last bit, checked by
``tests/preprocessing/test_grouping_compiled.py``).

Known simplification: ``PostOptimizeGranularity`` reads its group vector past its end in Khiops
(the vector is over the granularised values of the winning granularity); here the values beyond it
are taken in the catch-all's group.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from repro.preprocessing.modl import grouping_kernels
from repro.preprocessing.modl.criteria import GARBAGE_MIN_VALUES, GroupingCosts
from repro.preprocessing.modl.grouping_multi_class import (
    Group,
    build_reliable_sub_groups,
    compute_min_group_frequency,
    merge_groups,
    merge_pure_source_values,
    merge_small_groups,
    table_cost,
)
from repro.preprocessing.modl.grouping_post_optimisation import post_optimise_grouping
from repro.preprocessing.modl.grouping_two_class import two_class_group
from repro.preprocessing.modl.rules import EPSILON

DBL_MAX = sys.float_info.max
REQUIRED_INCREASING_COEFFICIENT = 1.5


# ---------------------------------------------------------------------------------------------
# Several classes (KWGrouperMODL.cpp)
# ---------------------------------------------------------------------------------------------
def multiple_classes_group(rows, mods, costs, n_instances: int, garbage_search: bool = False):
    """``MultipleClassesGroup`` (fewer than 7 values; from 7 values, with garbage search,
    ``MultipleClassesGroupWithGarbageSearch``): pure values merged, reliable sub-groups, small
    groups merged if more than √N (down to ⌈√N⌉ groups; with garbage search ⌊√N⌋), greedy merges,
    post-optimisation. Without garbage search the post-optimisation moves the values (after the
    pure merge), with garbage search the initial groups. Returns (group of each row, table,
    garbage size)."""
    pre_rows, pre_mods, pre_index = merge_pure_source_values(rows, mods)
    groups, sub_index = build_reliable_sub_groups(pre_rows, pre_mods, costs, n_instances)
    few_index = None
    if len(groups) > math.sqrt(1.0 * n_instances):
        root = math.sqrt(1.0 * n_instances)
        n_max = int(root) if garbage_search else int(math.ceil(root))
        min_f = compute_min_group_frequency(groups, n_instances, n_max)
        groups, few_index = merge_small_groups(groups, min_f, costs)
    initial = [g.clone() for g in groups]
    _, _, new_groups, iv_opt = merge_groups(0, groups, None, costs, garbage_search)
    if garbage_search:
        target, garbage, iv_opt = post_optimise_grouping(initial, new_groups, iv_opt, costs, True)
    if few_index is not None:
        pre_to_opt = [iv_opt[few_index[sub_index[i]]] for i in range(len(pre_rows))]
    else:
        pre_to_opt = [iv_opt[sub_index[i]] for i in range(len(pre_rows))]
    if not garbage_search:
        source = [Group(r, m) for r, m in zip(pre_rows, pre_mods)]
        target, garbage, pre_to_opt = post_optimise_grouping(source, new_groups, pre_to_opt, costs)
    labels = [pre_to_opt[pre_index[s]] for s in range(len(rows))]
    return labels, target, garbage


# -- small tables and the dispatch -----------------------------------------------------------------
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
        return [0] * n, [Group(r, 1) for r in rows], 0
    if n == 2:
        two = costs.partition_cost(2, 0) + costs.part_cost(rows[0]) + costs.part_cost(rows[1])
        if one < two + EPSILON:
            return [0, 0], [Group(whole, 2)], 0
        return [0, 1], [Group(rows[0], 1), Group(rows[1], 1)], 0
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
        return [0, 0, 0], [Group(whole, 3)], 0
    if two < three + EPSILON:
        labels = [1, 1, 1]
        labels[best_index] = 0
        rest = [x + y for x, y in zip(rows[(best_index + 1) % 3], rows[(best_index + 2) % 3])]
        return labels, [Group(rows[best_index], 1), Group(rest, 2)], 0
    return [0, 1, 2], [Group(r, 1) for r in rows], 0


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
        table = [Group(p, 0) for p in parts]
        return [labels[pre_index[s]] for s in range(n)], table, garbage
    return multiple_classes_group(rows, mods, costs, n_instances, n >= GARBAGE_MIN_VALUES)


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
    value_counts: np.ndarray, attribute_cost: float, engine: str | None = None
) -> tuple[np.ndarray, int, float, np.ndarray]:
    """Khiops grouping of V values (rows: class counts, sorted by decreasing frequency).

    Returns (group label of each value, granularity, cost, catch-all mask of the values).
    ``engine``: ``"numba"`` (the compiled kernels of
    :mod:`~repro.preprocessing.modl.grouping_kernels`, the default), ``"python"`` (the Python
    reference, the tests' oracle; same groups and costs), None: the current one.
    """
    with grouping_kernels.engine(engine):
        return _group_values(value_counts, attribute_cost)


def _group_values(value_counts: np.ndarray, attribute_cost: float):
    """:func:`group_values` on the current engine."""
    value_counts = np.asarray(value_counts, dtype=np.float64)
    if grouping_kernels.compiled():  # np.rint: round half to even, as round()
        rows = [tuple(r) for r in np.rint(value_counts).astype(np.int64).tolist()]
    else:
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
    rows_arr = np.array(rows, dtype=np.int64)
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
            if grouping_kernels.compiled():
                # parts: singletons, then one catch-all part (quantile_groups)
                last = rows_arr[p - 1 :].sum(axis=0, keepdims=True)
                table = [tuple(r) for r in np.vstack([rows_arr[: p - 1], last]).tolist()]
            else:
                table = []
                for members in parts:
                    row = [0] * n_classes
                    for i in members:
                        row = [a + b for a, b in zip(row, rows[i])]
                    table.append(tuple(row))
            costs = GroupingCosts(p, g, n, attribute_cost, n_classes)
            labels, target, garbage = group_frequency_table(table, costs, n)
            cost = table_cost(costs, target, garbage)
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
    cost = table_cost(costs, target, garbage)
    # labels numbered by first value (empty groups, if any, disappear)
    _, first = np.unique(value_labels, return_index=True)
    renumber = {int(value_labels[i]): k for k, i in enumerate(sorted(first))}
    value_labels = np.array([renumber[int(x)] for x in value_labels], dtype=np.int64)
    return value_labels, g_best, cost, catch
