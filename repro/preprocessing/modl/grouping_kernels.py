"""Numba kernels of Khiops' value grouping: exact ports of the Python reference.

The Python implementation (:mod:`repro.preprocessing.modl.grouping`,
:mod:`~repro.preprocessing.modl.grouping_two_class`,
:mod:`~repro.preprocessing.modl.grouping_intervals`,
:mod:`~repro.preprocessing.modl.grouping_multi_class`,
:mod:`~repro.preprocessing.modl.grouping_post_optimisation`) stays the tests' oracle: run it with
``group_values(..., engine="python")``. Each kernel does the same floating-point operations in the
same order, and keeps its candidates in lists with the tie rule of Khiops' ``SortedList``
(:class:`~repro.preprocessing.modl.sorted_list.SortedList`), so the groups and the costs are
bit-identical:

- :func:`two_class_kernel`: the whole two-class grouping of a sorted table
  (``KWGrouperMODLTwoClasses``: greedy merges, best merge, Split / MergeSplit / MergeMergeSplit
  post-optimisation, with and without the garbage interval), on a pool of intervals (doubly linked
  list, integer and float fields in two arrays) and sorted arrays (insertion after the first equal
  key, as the ``SortedList``);
- :func:`merge_groups_kernel`: the greedy merges of any two groups (``OptimizeGroups`` and
  ``...WithGarbageSearch``); the merge list (O(n²) merges, the smallest delta read at its tail) is a
  binary heap over the distinct keys, each key holding its merges in the ``SortedList`` order (a
  linked list: the first inserted, then the newer ones after it), found through a hash table of the
  keys' bits;
- :func:`post_optimise_groups_kernel`: the moves of single values between groups
  (``PostOptimizeGroups`` and ``...WithGarbageSearch``);
- :func:`best_group_merge_kernel`: the pair of ``ForceBestGroupMerge``.

The Python functions dispatch on :func:`compiled` (the ``engine`` context manager, or
``group_values(..., engine=...)``); the orchestration (granularities, pure values, small groups,
tables) stays in Python, where it costs little.

The partition cost pc(I, Gb) is computed in the kernels from tables built in Python (ln C0Max,
log2*, ln k! of Khiops, ``math.lgamma`` of integers, the exact Bell table), the Bell series beyond
the table ported operation by operation; ln and exp are the C library's, as in CPython.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types
from numba.typed import Dict

from repro.preprocessing.modl.criteria import main_bell_term_index
from repro.preprocessing.modl.rules import EPSILON, INFINITE_COST, pick_move

LOG2 = math.log(2.0)
DBL_MAX = 1.7976931348623157e308
BELL_SIZE = 100

# ---------------------------------------------------------------------------------------------
# Costs: ctx = (lf, a1, a2, bell, lg, fp, ip, memo_pc0, memo_pd0, memo)
#   lf: Khiops' ln k! (GroupingCosts.lf); a1[m] = ln C0Max(m)/ln2; a2[n] = log2*(n);
#   bell: ln Bell table; lg[k] = math.lgamma(k); fp = [A, L_B(g; G), ln V];
#   ip = [V, g, null (NullCosts), J]
# ---------------------------------------------------------------------------------------------


_main_bell_term_index = njit(cache=True)(main_bell_term_index)  # the criteria's own search


@njit(cache=True)
def _ln_bell(n, k, bell, lg):
    """criteria.ln_bell (table below 100, the series beyond)."""
    if n < BELL_SIZE:
        return bell[n - 1, k - 1]
    eps = 1e-6 / k
    if n == 1:
        return 0.0
    if n == 2:
        return math.log(1.0 * k)
    inv_exp = math.exp(-1.0)
    serie = np.empty(20)
    serie[0] = 1.0
    factor = 1.0
    term = 1.0
    for i in range(1, 20):
        factor *= -i
        term += 1 / factor
        serie[i] = term
    i0 = _main_bell_term_index(n, k)
    ln_i0 = n * math.log(1.0 * i0) - lg[i0 + 1]
    total = 0.0
    for i in range(i0, k + 1):
        f = inv_exp if k - i >= 20 else serie[k - i]
        t = math.exp(n * math.log(1.0 * i) - lg[i + 1] - ln_i0)
        total += t * f
        if t < eps:
            break
    for i in range(i0 - 1, 0, -1):
        f = inv_exp if k - i >= 20 else serie[k - i]
        t = math.exp(n * math.log(i * 1.0 / i0) + lg[i0 + 1] - lg[i + 1])
        total += t * f
        if t < eps:
            break
    return math.log(total) + ln_i0


@njit(cache=True, inline="always")
def _buc(n, n_max, a1, a2):
    return (a1[n_max] + a2[n]) * LOG2


@njit(cache=True)
def _pc_raw(ctx, n_parts, garbage):
    a1, a2, bell, lg, fp, ip = ctx[1], ctx[2], ctx[3], ctx[4], ctx[5], ctx[6]
    v = ip[0]
    n_info_values = v - garbage
    n_info_parts = n_parts - 1 if garbage > 0 else n_parts
    cost = LOG2
    if n_info_parts > 1 and n_info_values > 1:
        cost += fp[0]
        if ip[1] > 0:
            cost += fp[1]
        if v > 7:
            cost += LOG2
        if garbage == 0:
            cost += _buc(n_info_parts - 1, n_info_values - 1, a1, a2)
            cost += _ln_bell(n_info_values, n_info_parts, bell, lg)
        else:
            cost += _buc(n_info_values - 1, v - 2, a1, a2)
            cost += n_info_values * fp[2] - lg[n_info_values + 1]
            cost += _buc(n_info_parts - 1, n_info_values - 1, a1, a2)
            cost += _ln_bell(n_info_values, n_info_parts, bell, lg)
    return cost


@njit(cache=True)
def _pc(ctx, n_parts, garbage):
    """GroupingCosts.partition_cost (NullCosts: 0)."""
    ip = ctx[6]
    if ip[2]:
        return 0.0
    if garbage == 0 and 0 <= n_parts < ctx[7].size:
        memo0 = ctx[7]
        c = memo0[n_parts]
        if c != c:
            c = _pc_raw(ctx, n_parts, garbage)
            memo0[n_parts] = c
        return c
    memo = ctx[9]
    key = (n_parts * (ip[0] + 2) + garbage) * 2
    if key in memo:
        return memo[key]
    c = _pc_raw(ctx, n_parts, garbage)
    memo[key] = c
    return c


@njit(cache=True)
def _pd_raw(ctx, n_parts, garbage):
    a1, a2, bell, lg, ip = ctx[1], ctx[2], ctx[3], ctx[4], ctx[6]
    n_info_values = ip[0] - garbage
    n_info_parts = n_parts - 1 if garbage > 0 else n_parts
    if n_info_parts > 2:
        delta = _buc(n_info_parts - 2, n_info_values - 1, a1, a2) - _buc(
            n_info_parts - 1, n_info_values - 1, a1, a2
        )
        delta += _ln_bell(n_info_values, n_info_parts - 1, bell, lg) - _ln_bell(
            n_info_values, n_info_parts, bell, lg
        )
    else:
        delta = _pc(ctx, n_parts - 1, garbage) - _pc(ctx, n_parts, garbage)
    return delta


@njit(cache=True)
def _pd(ctx, n_parts, garbage):
    """GroupingCosts.partition_delta (NullCosts: 0)."""
    ip = ctx[6]
    if ip[2]:
        return 0.0
    if garbage == 0 and 0 <= n_parts < ctx[8].size:
        memo0 = ctx[8]
        c = memo0[n_parts]
        if c != c:
            c = _pd_raw(ctx, n_parts, garbage)
            memo0[n_parts] = c
        return c
    memo = ctx[9]
    key = (n_parts * (ip[0] + 2) + garbage) * 2 + 1
    if key in memo:
        return memo[key]
    c = _pd_raw(ctx, n_parts, garbage)
    memo[key] = c
    return c


@njit(cache=True, inline="always")
def _mgc(ctx, n_parts, largest, merged):
    """GroupingCosts.merged_garbage_cost."""
    return _pc(ctx, n_parts - 1, largest if largest > merged else merged)


@njit(cache=True)
def _make_ctx(lf, a1, a2, bell, lg, fp, ip):
    v = ip[0]
    memo0 = np.full(v + 3, np.nan)
    memo_pd0 = np.full(v + 3, np.nan)
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    return (lf, a1, a2, bell, lg, fp, ip, memo0, memo_pd0, memo)


@njit(cache=True)
def partition_costs_kernel(n_parts, garbage, lf, a1, a2, bell, lg, fp, ip):
    """pc(I, Gb) and ΔI = pc(I−1, Gb) − pc(I, Gb) (as ``GroupingCosts.partition_delta``) of each
    (n_parts[i], garbage[i]), as the kernels compute them (for the tests)."""
    ctx = _make_ctx(lf, a1, a2, bell, lg, fp, ip)
    pc = np.empty(n_parts.size)
    pd = np.empty(n_parts.size)
    for i in range(n_parts.size):
        pc[i] = _pc(ctx, n_parts[i], garbage[i])
        pd[i] = _pd(ctx, n_parts[i], garbage[i])
    return pc, pd


@njit(cache=True, inline="always")
def _part2(lf, c0, c1):
    """part_cost of two class counts (J = 2)."""
    cost = 0.0
    cost -= lf[c0]
    cost -= lf[c1]
    cost += lf[c0 + c1 + 1]
    cost -= lf[1]
    return cost


@njit(cache=True, inline="always")
def _part_row(lf, counts, j_classes):
    """part_cost of a row of class counts."""
    cost = 0.0
    n = 0
    for j in range(counts.size):
        f = counts[j]
        cost -= lf[f]
        n += f
    cost += lf[n + j_classes - 1]
    cost -= lf[j_classes - 1]
    return cost


@njit(cache=True, inline="always")
def _part_sum(lf, a, b, j_classes):
    """part_cost of a + b (rows of class counts)."""
    cost = 0.0
    n = 0
    for j in range(a.size):
        f = a[j] + b[j]
        cost -= lf[f]
        n += f
    cost += lf[n + j_classes - 1]
    cost -= lf[j_classes - 1]
    return cost


@njit(cache=True, inline="always")
def _part_diff(lf, a, b, j_classes):
    """part_cost of a − b."""
    cost = 0.0
    n = 0
    for j in range(a.size):
        f = a[j] - b[j]
        cost -= lf[f]
        n += f
    cost += lf[n + j_classes - 1]
    cost -= lf[j_classes - 1]
    return cost


# ---------------------------------------------------------------------------------------------
# Sorted arrays with the SortedList tie rule: list L of (keys, items, sizes, keyof)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _sl_add(keys, items, sizes, keyof, lst, item, key):
    n = sizes[lst]
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[lst, mid] < key:
            lo = mid + 1
        else:
            hi = mid
    pos = lo
    if pos < n and keys[lst, pos] == key:
        pos += 1
    for i in range(n, pos, -1):
        keys[lst, i] = keys[lst, i - 1]
        items[lst, i] = items[lst, i - 1]
    keys[lst, pos] = key
    items[lst, pos] = item
    sizes[lst] = n + 1
    keyof[lst, item] = key


@njit(cache=True)
def _sl_remove(keys, items, sizes, keyof, lst, item):
    key = keyof[lst, item]
    n = sizes[lst]
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[lst, mid] < key:
            lo = mid + 1
        else:
            hi = mid
    i = lo
    while i < n and items[lst, i] != item:
        i += 1
    if i == n:
        raise KeyError("item not in sorted list")
    for k in range(i, n - 1):
        keys[lst, k] = keys[lst, k + 1]
        items[lst, k] = items[lst, k + 1]
    sizes[lst] = n - 1


# ---------------------------------------------------------------------------------------------
# Two classes: interval pool and lists
# ---------------------------------------------------------------------------------------------
# int fields of an interval (line)
IDX, C0, C1, MOD, PREV, NEXT, MC0, MC1, MMOD = 0, 1, 2, 3, 4, 5, 6, 7, 8
N_INT = 21  # + split records r = 0, 1, 2 (Split, MergeSplit, MergeMergeSplit) at 9 + 4r
# float fields
COST, MCOST, MDELTA = 0, 1, 2
N_FLOAT = 12  # + split records at 3 + 3r: cost1, cost2, delta
# sorted lists
MERGES, SPLITS, MSPLITS, MMSPLITS, FREQ = 0, 1, 2, 3, 4
# state: st[0] next unused line, st[1] free-stack size, st[2] frequency list on
NONE = -1


@njit(cache=True, inline="always")
def _si(r):
    return 9 + 4 * r


@njit(cache=True, inline="always")
def _sf(r):
    return 3 + 3 * r


@njit(cache=True)
def _new_line(w, index, c0, c1, mod, cost):
    li, lf_, st, fs = w[0], w[1], w[6], w[7]
    if st[1] > 0:
        st[1] -= 1
        k = fs[st[1]]
    else:
        k = st[0]
        st[0] += 1
    li[k, IDX] = index
    li[k, C0] = c0
    li[k, C1] = c1
    li[k, MOD] = mod
    li[k, PREV] = NONE
    li[k, NEXT] = NONE
    li[k, MC0] = c0
    li[k, MC1] = c1
    li[k, MMOD] = 0
    lf_[k, COST] = cost
    lf_[k, MCOST] = 0.0
    lf_[k, MDELTA] = 0.0
    for r in range(3):
        b = _si(r)
        li[k, b] = 0
        li[k, b + 1] = 0
        li[k, b + 2] = 0
        li[k, b + 3] = 0
        f = _sf(r)
        lf_[k, f] = 0.0
        lf_[k, f + 1] = 0.0
        lf_[k, f + 2] = INFINITE_COST
    return k


@njit(cache=True)
def _free_line(w, k):
    st, fs = w[6], w[7]
    fs[st[1]] = k
    st[1] += 1


@njit(cache=True, inline="always")
def _freq_add(w, k):
    if w[6][2]:
        _sl_add(w[2], w[3], w[4], w[5], FREQ, k, -1.0 * w[0][k, MOD])


@njit(cache=True, inline="always")
def _freq_remove(w, k):
    if w[6][2]:
        _sl_remove(w[2], w[3], w[4], w[5], FREQ, k)


@njit(cache=True)
def _frequency_list(w, head):
    w[4][FREQ] = 0
    w[6][2] = 1
    k = head
    while k != NONE:
        _sl_add(w[2], w[3], w[4], w[5], FREQ, k, -1.0 * w[0][k, MOD])
        k = w[0][k, NEXT]


@njit(cache=True)
def _freq_off(w):
    w[6][2] = 0
    w[4][FREQ] = 0


@njit(cache=True)
def _build_lines(w, rows, mods, lf):
    head = NONE
    prev = NONE
    li = w[0]
    for i in range(rows.shape[0]):
        k = _new_line(w, i, rows[i, 0], rows[i, 1], mods[i], _part2(lf, rows[i, 0], rows[i, 1]))
        if prev == NONE:
            head = k
        else:
            li[prev, NEXT] = k
            li[k, PREV] = prev
        prev = k
    return head


@njit(cache=True)
def _clone(w, head, with_merge):
    li, lf_ = w[0], w[1]
    new_head = NONE
    prev = NONE
    k = head
    while k != NONE:
        c = _new_line(w, li[k, IDX], li[k, C0], li[k, C1], li[k, MOD], lf_[k, COST])
        if with_merge:
            li[c, MC0] = li[k, MC0]
            li[c, MC1] = li[k, MC1]
            li[c, MMOD] = li[k, MMOD]
            lf_[c, MCOST] = lf_[k, MCOST]
            lf_[c, MDELTA] = lf_[k, MDELTA]
        if prev == NONE:
            new_head = c
        else:
            li[prev, NEXT] = c
            li[c, PREV] = prev
        prev = c
        k = li[k, NEXT]
    return new_head


@njit(cache=True)
def _free_list(w, head):
    k = head
    while k != NONE:
        nxt = w[0][k, NEXT]
        _free_line(w, k)
        k = nxt


@njit(cache=True)
def _compute_merge(w, lf, k):
    li, lf_ = w[0], w[1]
    p = li[k, PREV]
    c0 = li[p, C0] + li[k, C0]
    c1 = li[p, C1] + li[k, C1]
    li[k, MC0] = c0
    li[k, MC1] = c1
    li[k, MMOD] = li[p, MOD] + li[k, MOD]
    lf_[k, MCOST] = _part2(lf, c0, c1)
    lf_[k, MDELTA] = lf_[k, MCOST] - lf_[k, COST] - lf_[p, COST]


@njit(cache=True)
def _merge_list(w, head):
    w[4][MERGES] = 0
    k = w[0][head, NEXT]
    while k != NONE:
        _sl_add(w[2], w[3], w[4], w[5], MERGES, k, w[1][k, MDELTA])
        k = w[0][k, NEXT]


@njit(cache=True)
def _update_merge(w, lf, head, k):
    li, lf_ = w[0], w[1]
    keys, items, sizes, keyof = w[2], w[3], w[4], w[5]
    p = li[k, PREV]
    nxt = li[k, NEXT]
    _freq_remove(w, k)
    _freq_remove(w, p)
    _sl_remove(keys, items, sizes, keyof, MERGES, k)
    if li[p, PREV] != NONE:
        _sl_remove(keys, items, sizes, keyof, MERGES, p)
    if nxt != NONE:
        _sl_remove(keys, items, sizes, keyof, MERGES, nxt)
    li[k, C0] = li[k, MC0]
    li[k, C1] = li[k, MC1]
    li[k, MOD] = li[k, MMOD]
    lf_[k, COST] = lf_[k, MCOST]
    _freq_add(w, k)
    pp = li[p, PREV]
    li[k, PREV] = pp
    if pp == NONE:
        head = k
    else:
        li[pp, NEXT] = k
    _free_line(w, p)
    if pp != NONE:
        _compute_merge(w, lf, k)
        _sl_add(keys, items, sizes, keyof, MERGES, k, lf_[k, MDELTA])
    if nxt != NONE:
        _compute_merge(w, lf, nxt)
        _sl_add(keys, items, sizes, keyof, MERGES, nxt, lf_[nxt, MDELTA])
    return head


@njit(cache=True)
def _merge_down(w, lf, head, n_wanted):
    _merge_list(w, head)
    n_parts = w[4][MERGES] + 1
    while n_parts > n_wanted:
        head = _update_merge(w, lf, head, w[3][MERGES, 0])
        n_parts -= 1
    return head


@njit(cache=True)
def _merge_optimisation(w, ctx, head, gs):
    lf = ctx[0]
    li, lf_ = w[0], w[1]
    k = li[head, NEXT]
    while k != NONE:
        _compute_merge(w, lf, k)
        k = li[k, NEXT]
    _merge_list(w, head)
    sizes, items = w[4], w[3]
    n_parts = sizes[MERGES] + 1
    prev_pcg = 0.0
    cum_g = 0.0
    cum_p = 0.0
    if gs:
        _frequency_list(w, head)
        prev_pcg = _pc(ctx, n_parts, li[items[FREQ, 0], MOD])
        cum_g = prev_pcg - _pc(ctx, n_parts, 0)
        cum_p = 0.0
    while sizes[MERGES] > 0:
        line = items[MERGES, 0]
        delta = _pd(ctx, n_parts, 0)
        delta += lf_[line, MDELTA]
        accept = True
        if gs:
            cum_p += delta
            if n_parts <= 3:
                break
            merged = li[line, MOD] + li[li[line, PREV], MOD]
            pcg = _mgc(ctx, n_parts, li[items[FREQ, 0], MOD], merged)
            delta_g = (pcg - prev_pcg) + lf_[line, MDELTA]
            prev_pcg = pcg
            cum_g += delta_g
            profitable = cum_g < cum_p
            if abs(delta_g) < EPSILON:
                delta_g = 0.0
            accept = (not profitable) or delta_g <= 0
        if abs(delta) < EPSILON:
            delta = 0.0
        if delta <= 0 and accept:
            head = _update_merge(w, lf, head, line)
            n_parts -= 1
        else:
            break
    _freq_off(w)
    return head


@njit(cache=True)
def _best_merge_optimisation(w, ctx, head, gs):
    lf = ctx[0]
    li, lf_ = w[0], w[1]
    sizes, items = w[4], w[3]
    copy = _clone(w, head, True)
    _merge_list(w, copy)
    total = 0.0
    best_total = 0.0
    n_parts = sizes[MERGES] + 1
    best_n = n_parts
    best_n_g = n_parts
    min_parts = 1
    total_g = 0.0
    best_total_g = 0.0
    prev_pcg = 0.0
    if gs:
        min_parts = 2
        _frequency_list(w, copy)
        if n_parts > 2:
            prev_pcg = _pc(ctx, n_parts, li[items[FREQ, 0], MOD])
    while sizes[MERGES] > 0:
        line = items[MERGES, 0]
        delta = _pd(ctx, n_parts, 0)
        delta += lf_[line, MDELTA]
        if gs and n_parts > 3:
            merged = li[line, MOD] + li[li[line, PREV], MOD]
            pcg = _mgc(ctx, n_parts, li[items[FREQ, 0], MOD], merged)
            total_g += (pcg - prev_pcg) + lf_[line, MDELTA]
            prev_pcg = pcg
        copy = _update_merge(w, lf, copy, line)
        n_parts -= 1
        total += delta
        if total <= best_total + EPSILON and n_parts >= min_parts:
            best_total = total
            best_n = n_parts
        if gs and total_g <= best_total_g + EPSILON and n_parts >= 3:
            best_total_g = total_g
            best_n_g = n_parts
    _freq_off(w)
    _free_list(w, copy)
    head_g = NONE
    if gs:
        head_g = _merge_down(w, lf, _clone(w, head, True), best_n_g)
    return _merge_down(w, lf, head, best_n), head_g


# -- splits ------------------------------------------------------------------------------------
@njit(cache=True)
def _best_split(w, lf, first, last, initial_cost, k, r):
    li, lf_, cum, cum_mod = w[0], w[1], w[8], w[9]
    b = _si(r)
    f = _sf(r)
    lf_[k, f + 2] = INFINITE_COST
    li[k, b] = last
    lf_[k, f] = _part2(lf, li[k, b + 1], li[k, b + 2])
    lf_[k, f + 1] = 0.0
    if first >= last:
        return
    base0 = cum[first, 0]
    base1 = cum[first, 1]
    top0 = cum[last + 1, 0]
    top1 = cum[last + 1, 1]
    best_total = INFINITE_COST
    threshold = 1 - EPSILON
    f_idx = -1
    f_c1 = 0.0
    f_c2 = 0.0
    f_total = 0.0
    for idx in range(last, first, -1):
        m0 = cum[idx, 0]
        m1 = cum[idx, 1]
        c1 = _part2(lf, m0 - base0, m1 - base1)
        c2 = _part2(lf, top0 - m0, top1 - m1)
        total = c1 + c2
        if total < best_total * threshold:
            best_total = total
            f_idx = idx
            f_c1 = c1
            f_c2 = c2
            f_total = total
    li[k, b] = f_idx - 1
    li[k, b + 1] = cum[f_idx, 0] - base0
    li[k, b + 2] = cum[f_idx, 1] - base1
    li[k, b + 3] = cum_mod[f_idx] - cum_mod[first]
    lf_[k, f] = f_c1
    lf_[k, f + 1] = f_c2
    delta = f_total - initial_cost
    lf_[k, f + 2] = 0.0 if abs(delta) < EPSILON else delta


@njit(cache=True)
def _insert_split(w, lf, k):
    li, lf_ = w[0], w[1]
    b = _si(0)
    li[k, b + 1] = li[k, C0]
    li[k, b + 2] = li[k, C1]
    li[k, b + 3] = li[k, MOD]
    lf_[k, _sf(0) + 2] = INFINITE_COST
    p = li[k, PREV]
    first = 0 if p == NONE else li[p, IDX] + 1
    last = li[k, IDX]
    if first < last:
        _best_split(w, lf, first, last, lf_[k, COST], k, 0)
    _sl_add(w[2], w[3], w[4], w[5], SPLITS, k, lf_[k, _sf(0) + 2])


@njit(cache=True)
def _insert_merge_split(w, lf, k):
    li, lf_ = w[0], w[1]
    p = li[k, PREV]
    b = _si(1)
    li[k, b + 1] = li[p, C0] + li[k, C0]
    li[k, b + 2] = li[p, C1] + li[k, C1]
    li[k, b + 3] = li[p, MOD] + li[k, MOD]
    lf_[k, _sf(1) + 2] = INFINITE_COST
    pp = li[p, PREV]
    first = 0 if pp == NONE else li[pp, IDX] + 1
    last = li[k, IDX]
    if first + 1 < last:
        _best_split(w, lf, first, last, lf_[k, COST] + lf_[p, COST], k, 1)
    _sl_add(w[2], w[3], w[4], w[5], MSPLITS, k, lf_[k, _sf(1) + 2])


@njit(cache=True)
def _insert_merge_merge_split(w, lf, k):
    li, lf_ = w[0], w[1]
    p = li[k, PREV]
    pp = li[p, PREV]
    b = _si(2)
    li[k, b + 1] = li[pp, C0] + li[p, C0] + li[k, C0]
    li[k, b + 2] = li[pp, C1] + li[p, C1] + li[k, C1]
    li[k, b + 3] = li[pp, MOD] + li[p, MOD] + li[k, MOD]
    lf_[k, _sf(2) + 2] = INFINITE_COST
    ppp = li[pp, PREV]
    first = 0 if ppp == NONE else li[ppp, IDX] + 1
    _best_split(w, lf, first, li[k, IDX], lf_[k, COST] + lf_[p, COST] + lf_[pp, COST], k, 2)
    _sl_add(w[2], w[3], w[4], w[5], MMSPLITS, k, lf_[k, _sf(2) + 2])


@njit(cache=True)
def _init_post_lists(w, lf, head):
    li = w[0]
    sizes = w[4]
    sizes[SPLITS] = 0
    sizes[MSPLITS] = 0
    sizes[MMSPLITS] = 0
    k = head
    while k != NONE:
        _insert_split(w, lf, k)
        k = li[k, NEXT]
    k = li[head, NEXT]
    while k != NONE:
        _insert_merge_split(w, lf, k)
        k = li[k, NEXT]
    if li[head, NEXT] != NONE:
        k = li[li[head, NEXT], NEXT]
        while k != NONE:
            _insert_merge_merge_split(w, lf, k)
            k = li[k, NEXT]


@njit(cache=True)
def _remove_next(w, nxt, nn, nxt_has_mms):
    keys, items, sizes, keyof = w[2], w[3], w[4], w[5]
    if nxt != NONE:
        _sl_remove(keys, items, sizes, keyof, MSPLITS, nxt)
        if nxt_has_mms:
            _sl_remove(keys, items, sizes, keyof, MMSPLITS, nxt)
    if nn != NONE:
        _sl_remove(keys, items, sizes, keyof, MMSPLITS, nn)


@njit(cache=True)
def _insert_next(w, lf, nxt, nn):
    if nxt != NONE:
        _insert_merge_split(w, lf, nxt)
        _insert_merge_merge_split(w, lf, nxt)
    if nn != NONE:
        _insert_merge_merge_split(w, lf, nn)


@njit(cache=True)
def _neighbours(li, k):
    p = li[k, PREV]
    nxt = li[k, NEXT]
    pp = li[p, PREV] if p != NONE else NONE
    nn = li[nxt, NEXT] if nxt != NONE else NONE
    return p, pp, nxt, nn


@njit(cache=True)
def _apply_split(w, lf, k):
    li, lf_ = w[0], w[1]
    keys, items, sizes, keyof = w[2], w[3], w[4], w[5]
    p, pp, nxt, nn = _neighbours(li, k)
    _sl_remove(keys, items, sizes, keyof, SPLITS, k)
    if p != NONE:
        _sl_remove(keys, items, sizes, keyof, MSPLITS, k)
    if pp != NONE:
        _sl_remove(keys, items, sizes, keyof, MMSPLITS, k)
    _remove_next(w, nxt, nn, p != NONE)
    _freq_remove(w, k)
    b = _si(0)
    f = _sf(0)
    new = _new_line(
        w,
        li[k, IDX],
        li[k, C0] - li[k, b + 1],
        li[k, C1] - li[k, b + 2],
        li[k, MOD] - li[k, b + 3],
        lf_[k, f + 1],
    )
    li[new, NEXT] = nxt
    if nxt != NONE:
        li[nxt, PREV] = new
    li[k, NEXT] = new
    li[new, PREV] = k
    li[k, C0] = li[k, b + 1]
    li[k, C1] = li[k, b + 2]
    li[k, MOD] = li[k, b + 3]
    li[k, IDX] = li[k, b]
    lf_[k, COST] = lf_[k, f]
    _freq_add(w, new)
    _freq_add(w, k)
    _insert_split(w, lf, k)
    _insert_split(w, lf, new)
    if p != NONE:
        _insert_merge_split(w, lf, k)
    _insert_merge_split(w, lf, new)
    if pp != NONE:
        _insert_merge_merge_split(w, lf, k)
    if p != NONE:
        _insert_merge_merge_split(w, lf, new)
    _insert_next(w, lf, nxt, nn)


@njit(cache=True)
def _apply_merge_split(w, lf, k):
    li, lf_ = w[0], w[1]
    keys, items, sizes, keyof = w[2], w[3], w[4], w[5]
    p, pp, nxt, nn = _neighbours(li, k)
    _sl_remove(keys, items, sizes, keyof, SPLITS, k)
    _sl_remove(keys, items, sizes, keyof, SPLITS, p)
    _sl_remove(keys, items, sizes, keyof, MSPLITS, k)
    if pp != NONE:
        _sl_remove(keys, items, sizes, keyof, MSPLITS, p)
        _sl_remove(keys, items, sizes, keyof, MMSPLITS, k)
        if li[pp, PREV] != NONE:
            _sl_remove(keys, items, sizes, keyof, MMSPLITS, p)
    _remove_next(w, nxt, nn, True)
    _freq_remove(w, k)
    _freq_remove(w, p)
    b = _si(1)
    f = _sf(1)
    li[p, IDX] = li[k, b]
    lf_[p, COST] = lf_[k, f]
    lf_[k, COST] = lf_[k, f + 1]
    li[k, C0] = li[p, C0] + li[k, C0] - li[k, b + 1]
    li[k, C1] = li[p, C1] + li[k, C1] - li[k, b + 2]
    li[k, MOD] = li[p, MOD] + li[k, MOD] - li[k, b + 3]
    li[p, C0] = li[k, b + 1]
    li[p, C1] = li[k, b + 2]
    li[p, MOD] = li[k, b + 3]
    _freq_add(w, p)
    _freq_add(w, k)
    _insert_split(w, lf, p)
    _insert_split(w, lf, k)
    lf_[k, f + 2] = 0.0
    _sl_add(keys, items, sizes, keyof, MSPLITS, k, 0.0)
    if pp != NONE:
        _insert_merge_split(w, lf, p)
        if li[pp, PREV] != NONE:
            _insert_merge_merge_split(w, lf, p)
        _insert_merge_merge_split(w, lf, k)
    _insert_next(w, lf, nxt, nn)


@njit(cache=True)
def _apply_merge_merge_split(w, lf, k):
    li, lf_ = w[0], w[1]
    keys, items, sizes, keyof = w[2], w[3], w[4], w[5]
    p, pp, nxt, nn = _neighbours(li, k)
    _sl_remove(keys, items, sizes, keyof, SPLITS, pp)
    _sl_remove(keys, items, sizes, keyof, SPLITS, p)
    _sl_remove(keys, items, sizes, keyof, SPLITS, k)
    _sl_remove(keys, items, sizes, keyof, MSPLITS, p)
    _sl_remove(keys, items, sizes, keyof, MSPLITS, k)
    _sl_remove(keys, items, sizes, keyof, MMSPLITS, k)
    ppp = li[pp, PREV]
    if ppp != NONE:
        _sl_remove(keys, items, sizes, keyof, MSPLITS, pp)
        _sl_remove(keys, items, sizes, keyof, MMSPLITS, p)
        if li[ppp, PREV] != NONE:
            _sl_remove(keys, items, sizes, keyof, MMSPLITS, pp)
    _remove_next(w, nxt, nn, True)
    _freq_remove(w, k)
    _freq_remove(w, p)
    _freq_remove(w, pp)
    b = _si(2)
    f = _sf(2)
    li[pp, IDX] = li[k, b]
    lf_[pp, COST] = lf_[k, f]
    lf_[k, COST] = lf_[k, f + 1]
    li[k, C0] = li[pp, C0] + li[p, C0] + li[k, C0] - li[k, b + 1]
    li[k, C1] = li[pp, C1] + li[p, C1] + li[k, C1] - li[k, b + 2]
    li[k, MOD] = li[pp, MOD] + li[p, MOD] + li[k, MOD] - li[k, b + 3]
    li[pp, C0] = li[k, b + 1]
    li[pp, C1] = li[k, b + 2]
    li[pp, MOD] = li[k, b + 3]
    li[pp, NEXT] = k
    li[k, PREV] = pp
    _free_line(w, p)
    _freq_add(w, pp)
    _freq_add(w, k)
    _insert_split(w, lf, pp)
    _insert_split(w, lf, k)
    if ppp != NONE:
        _insert_merge_split(w, lf, pp)
    _insert_merge_split(w, lf, k)
    if ppp != NONE:
        _insert_merge_merge_split(w, lf, k)
        if li[ppp, PREV] != NONE:
            _insert_merge_merge_split(w, lf, pp)
    _insert_next(w, lf, nxt, nn)


@njit(cache=True)
def _other_largest(w, e1, e2, e3):
    """Number of values of the first interval of the frequency list not in (e1, e2, e3)."""
    items, sizes, li = w[3], w[4], w[0]
    for i in range(sizes[FREQ]):
        k = items[FREQ, i]
        if k != e1 and k != e2 and k != e3:
            return li[k, MOD]
    return 0


@njit(cache=True)
def _post_optimisation(w, ctx, head, gs):
    lf = ctx[0]
    li, lf_ = w[0], w[1]
    items, sizes = w[3], w[4]
    if gs:
        _frequency_list(w, head)
    _init_post_lists(w, lf, head)
    n_parts = sizes[SPLITS]
    fs = _sf(0)
    fm = _sf(1)
    fmm = _sf(2)
    while True:
        ms_line = NONE
        mms_line = NONE
        d_ms = INFINITE_COST
        d_mms = INFINITE_COST
        split_line = items[SPLITS, 0]
        if not gs:
            if lf_[split_line, fs + 2] < INFINITE_COST:
                d_split = -_pd(ctx, n_parts + 1, 0) + lf_[split_line, fs + 2]
            else:
                d_split = INFINITE_COST
            if sizes[MSPLITS] > 0:
                ms_line = items[MSPLITS, 0]
                d_ms = lf_[ms_line, fm + 2]
            if sizes[MMSPLITS] > 0:
                mms_line = items[MMSPLITS, 0]
                d_mms = _pd(ctx, n_parts, 0) + lf_[mms_line, fmm + 2]
        else:
            garbage = li[items[FREQ, 0], MOD]
            if lf_[split_line, fs + 2] < INFINITE_COST:
                if items[FREQ, 0] != split_line:
                    d_split = -_pd(ctx, n_parts + 1, garbage) + lf_[split_line, fs + 2]
                else:
                    new_g = _other_largest(w, split_line, NONE, NONE)
                    first = li[split_line, _si(0) + 3]
                    second = li[split_line, MOD] - first
                    if first > new_g:
                        new_g = first
                    elif second > new_g:
                        new_g = second
                    d_split = (
                        _pc(ctx, n_parts + 1, new_g)
                        - _pc(ctx, n_parts, garbage)
                        + lf_[split_line, fs + 2]
                    )
            else:
                split_line = NONE
                d_split = INFINITE_COST
            if sizes[MSPLITS] > 0:
                ms_line = items[MSPLITS, 0]
                if lf_[ms_line, fm + 2] == INFINITE_COST:
                    ms_line = NONE
                else:
                    mp = li[ms_line, PREV]
                    new_g = _other_largest(w, ms_line, mp, NONE)
                    first = li[ms_line, _si(1) + 3]
                    if first > new_g:
                        new_g = first
                    second = li[ms_line, MOD] + li[mp, MOD] - first
                    if second > new_g:
                        new_g = second
                    d_ms = lf_[ms_line, fm + 2]
                    if new_g != garbage:
                        d_ms += _pc(ctx, n_parts, new_g) - _pc(ctx, n_parts, garbage)
            if sizes[MMSPLITS] > 0 and (garbage == 0 or n_parts > 3):
                mms_line = items[MMSPLITS, 0]
                if lf_[mms_line, fmm + 2] == INFINITE_COST:
                    mms_line = NONE
                else:
                    mp = li[mms_line, PREV]
                    mpp = li[mp, PREV]
                    new_g = _other_largest(w, mms_line, mp, mpp)
                    first = li[mms_line, _si(2) + 3]
                    if first > new_g:
                        new_g = first
                    second = li[mms_line, MOD] + li[mp, MOD] + li[mpp, MOD] - first
                    if second > new_g:
                        new_g = second
                    d_mms = lf_[mms_line, fmm + 2]
                    if new_g == garbage:
                        d_mms += _pd(ctx, n_parts, garbage)
                    else:
                        d_mms += _pc(ctx, n_parts - 1, new_g) - _pc(ctx, n_parts, garbage)
        move = pick_move(d_split, d_ms, d_mms, -1)
        if move < 0:
            break
        if move == 2:
            _apply_merge_merge_split(w, lf, mms_line)
            n_parts -= 1
        elif move == 1:
            _apply_merge_split(w, lf, ms_line)
        else:
            _apply_split(w, lf, split_line)
            n_parts += 1
    _freq_off(w)
    while li[head, PREV] != NONE:
        head = li[head, PREV]
    return head


@njit(cache=True)
def _global_cost2(w, ctx, head, garbage):
    li = w[0]
    n = 0
    k = head
    while k != NONE:
        n += 1
        k = li[k, NEXT]
    cost = _pc(ctx, n, garbage)
    k = head
    while k != NONE:
        cost += _part2(ctx[0], li[k, C0], li[k, C1])
        k = li[k, NEXT]
    return cost


@njit(cache=True)
def two_class_kernel(rows, mods, lf, a1, a2, bell, lg, fp, ip, garbage_min):
    """``KWGrouperMODLTwoClasses::DiscretizeFrequencyTable`` of sorted rows (n × 2, n ≥ 2):
    (interval ends, interval counts, garbage size), as ``_two_class_discretize``."""
    ctx = _make_ctx(lf, a1, a2, bell, lg, fp, ip)
    n = rows.shape[0]
    cap = 3 * n + 8
    li = np.zeros((cap, N_INT), dtype=np.int64)
    lf_ = np.zeros((cap, N_FLOAT))
    keys = np.zeros((5, n + 2))
    items = np.zeros((5, n + 2), dtype=np.int64)
    sizes = np.zeros(5, dtype=np.int64)
    keyof = np.zeros((5, cap))
    st = np.zeros(3, dtype=np.int64)
    fs = np.zeros(cap, dtype=np.int64)
    cum = np.zeros((n + 1, 2), dtype=np.int64)
    cum_mod = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        cum[i + 1, 0] = cum[i, 0] + rows[i, 0]
        cum[i + 1, 1] = cum[i, 1] + rows[i, 1]
        cum_mod[i + 1] = cum_mod[i] + mods[i]
    w = (li, lf_, keys, items, sizes, keyof, st, fs, cum, cum_mod)
    gs = n >= garbage_min
    head = _build_lines(w, rows, mods, lf)
    head = _merge_optimisation(w, ctx, head, gs)
    head, head_g = _best_merge_optimisation(w, ctx, head, gs)
    head = _post_optimisation(w, ctx, head, False)
    if gs:
        head_g = _post_optimisation(w, ctx, head_g, True)
    out = head
    garbage = 0
    if gs:
        garbage = 0
        k = head_g
        while k != NONE:
            if li[k, MOD] > garbage:
                garbage = li[k, MOD]
            k = li[k, NEXT]
        cost_plain = _global_cost2(w, ctx, head, 0)
        cost_g = _global_cost2(w, ctx, head_g, garbage)
        if cost_g < cost_plain:
            out = head_g
        else:
            garbage = 0
    m = 0
    k = out
    while k != NONE:
        m += 1
        k = li[k, NEXT]
    ends = np.empty(m, dtype=np.int64)
    parts = np.empty((m, 2), dtype=np.int64)
    k = out
    i = 0
    while k != NONE:
        ends[i] = li[k, IDX]
        parts[i, 0] = li[k, C0]
        parts[i, 1] = li[k, C1]
        i += 1
        k = li[k, NEXT]
    return ends, parts, garbage


# ---------------------------------------------------------------------------------------------
# Several classes: greedy merges of any two groups (OptimizeGroups)
# ---------------------------------------------------------------------------------------------
_HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64


@njit(cache=True, inline="always")
def _hash_home(bits, mask):
    h = bits ^ (bits >> 29)
    h = h * _HASH_MULT
    h = h ^ (h >> 32)
    return h & mask


# tie list: tl = (m, sl, s_key, h, heap, st, fbuf, ibuf)
#   m[item] = (prev, next, slot) of the merges; sl[slot] = (first, last, count, in heap) and
#   s_key[slot] of the distinct keys; h[k] = (key bits, slot or -1) the hash table;
#   heap: max-heap of the slots on s_key; st = (slots used, heap size)
T_PREV, T_NEXT, T_SLOT = 0, 1, 2
S_FIRST, S_LAST, S_COUNT, S_INHEAP = 0, 1, 2, 3


@njit(cache=True, inline="always")
def _tl_add(tl, item, key):
    """Add ``item`` with ``key`` to the tie list (see :func:`merge_groups_kernel`)."""
    m, sl, s_key, h, heap, st, fbuf, ibuf = tl
    fbuf[0] = key + 0.0
    bits = ibuf[0]
    mask = h.shape[0] - 1
    k = _hash_home(bits, mask)
    while h[k, 1] != -1 and h[k, 0] != bits:
        k = (k + 1) & mask
    if h[k, 1] == -1:
        s = st[0]
        st[0] += 1
        h[k, 1] = s
        h[k, 0] = bits
        s_key[s] = fbuf[0]
        sl[s, S_COUNT] = 0
        sl[s, S_INHEAP] = 0
    s = h[k, 1]
    if sl[s, S_COUNT] == 0:
        sl[s, S_FIRST] = item
        sl[s, S_LAST] = item
        m[item, T_PREV] = -1
        m[item, T_NEXT] = -1
    else:
        hd = sl[s, S_FIRST]
        nx = m[hd, T_NEXT]
        m[item, T_PREV] = hd
        m[item, T_NEXT] = nx
        m[hd, T_NEXT] = item
        if nx != -1:
            m[nx, T_PREV] = item
        else:
            sl[s, S_LAST] = item
    sl[s, S_COUNT] += 1
    m[item, T_SLOT] = s
    if not sl[s, S_INHEAP]:
        sl[s, S_INHEAP] = 1
        # sift up (max-heap on s_key)
        k = st[1]
        st[1] += 1
        x = s_key[s]
        while k > 0:
            parent = (k - 1) >> 1
            if s_key[heap[parent]] < x:
                heap[k] = heap[parent]
                k = parent
            else:
                break
        heap[k] = s


@njit(cache=True, inline="always")
def _tl_remove(tl, item):
    m, sl = tl[0], tl[1]
    s = m[item, T_SLOT]
    p = m[item, T_PREV]
    nx = m[item, T_NEXT]
    if p != -1:
        m[p, T_NEXT] = nx
    else:
        sl[s, S_FIRST] = nx
    if nx != -1:
        m[nx, T_PREV] = p
    else:
        sl[s, S_LAST] = p
    sl[s, S_COUNT] -= 1


@njit(cache=True, inline="always")
def _tl_tail(tl):
    """The last item of the list (largest key; in its tie group, the last one)."""
    sl, s_key, heap, st = tl[1], tl[2], tl[4], tl[5]
    while True:
        s = heap[0]
        if sl[s, S_COUNT] > 0:
            return sl[s, S_LAST]
        # pop the empty slot
        sl[s, S_INHEAP] = 0
        st[1] -= 1
        n = st[1]
        x = heap[n]
        xk = s_key[x]
        k = 0
        while True:
            c = 2 * k + 1
            if c >= n:
                break
            if c + 1 < n and s_key[heap[c + 1]] > s_key[heap[c]]:
                c += 1
            if s_key[heap[c]] > xk:
                heap[k] = heap[c]
                k = c
            else:
                break
        heap[k] = x


@njit(cache=True)
def _tie_list(n_items, n_adds):
    size = 1
    while size < 2 * n_adds + 2:
        size *= 2
    fbuf = np.empty(1)
    h = np.empty((size, 2), dtype=np.int64)
    h[:, 1] = -1
    return (
        np.empty((n_items, 3), dtype=np.int64),
        np.empty((n_adds + 1, 4), dtype=np.int64),
        np.empty(n_adds + 1),
        h,
        np.empty(n_adds + 1, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        fbuf,
        fbuf.view(np.int64),
    )


@njit(cache=True, inline="always")
def _pair(a, b):
    if a < b:
        return b * (b - 1) // 2 + a
    return a * (a - 1) // 2 + b


@njit(cache=True)
def merge_groups_kernel(
    counts, mods, gcosts, n_exact, garbage_search, lf, a1, a2, bell, lg, fp, ip
):
    """``OptimizeGroups`` (``...WithGarbageSearch``) as ``grouping_multi_class.merge_groups``.

    The merge list (key −Δ, the best merge at its tail) keeps the ``SortedList`` order: keys in
    increasing order; among equal keys, the first inserted, then the others from the newest to the
    oldest (a new one goes right after the first; when the first leaves, the next one leads).
    Each distinct key is a slot holding its merges in that order (a linked list); the slots are
    found by a hash table of the keys' bits and ordered by a lazy max-heap.

    Returns (n_opt, n_opt_garbage (−1: none), active groups in order, their counts, numbers of
    values and costs, group of each initial group)."""
    ctx = _make_ctx(lf, a1, a2, bell, lg, fp, ip)
    j_classes = ip[3]
    n_init = counts.shape[0]
    counts = counts.copy()
    mods = mods.copy()
    gcosts = gcosts.copy()
    n_items = max(n_init * (n_init - 1) // 2, 1)
    tl = _tie_list(n_items, 2 * n_items)
    m_delta = np.empty(n_items)
    for i in range(n_init):
        for j in range(i):
            mid = _pair(j, i)
            m_delta[mid] = _part_sum(lf, counts[i], counts[j], j_classes) - gcosts[i] - gcosts[j]
    for i in range(n_init):
        for j in range(i):
            mid = _pair(j, i)
            _tl_add(tl, mid, -m_delta[mid])
    iv = np.arange(n_init)
    active = np.arange(n_init)
    n_active = n_init
    new_index = np.arange(n_init)
    cont = True
    total = 0.0
    best_total = 0.0
    n_groups = n_init
    n_opt = n_init
    n_opt_g = -1
    n_min = 2
    fkeys = np.zeros((1, n_init + 1))
    fitems = np.zeros((1, n_init + 1), dtype=np.int64)
    fsizes = np.zeros(1, dtype=np.int64)
    fkeyof = np.zeros((1, n_init + 1))
    cum_g = 0.0
    best_cum_g = 0.0
    prev_pcg = 0.0
    if garbage_search:
        n_min = 4
        for g in range(n_init):
            _sl_add(fkeys, fitems, fsizes, fkeyof, 0, g, -1.0 * mods[g])
        n_opt_g = n_groups
        if n_groups > 2:
            prev_pcg = _pc(ctx, n_groups, mods[fitems[0, 0]])
            cum_g = prev_pcg - _pc(ctx, n_groups, 0)
            best_cum_g = cum_g
    # pair index -> (index1, index2)
    while cont and n_groups >= n_min and n_groups > n_exact:
        best = _tl_tail(tl)
        # decode the pair (j < i)
        i2 = int((1.0 + math.sqrt(1.0 + 8.0 * best)) / 2.0)
        while i2 * (i2 - 1) // 2 > best:
            i2 -= 1
        while (i2 + 1) * i2 // 2 <= best:
            i2 += 1
        i1 = best - i2 * (i2 - 1) // 2
        b_delta = m_delta[best]
        delta = b_delta + _pd(ctx, n_groups, 0)
        cont = delta < EPSILON
        if garbage_search:
            pcg = _mgc(ctx, n_groups, mods[fitems[0, 0]], mods[i1] + mods[i2])
            delta_g = (pcg - prev_pcg) + b_delta
            if cont:
                cont = delta_g < EPSILON
            prev_pcg = pcg
            cum_g += delta_g
        total += delta
        if total < best_total + EPSILON:
            best_total = total
            n_opt = n_groups - 1
        if garbage_search and cum_g < best_cum_g + EPSILON:
            best_cum_g = cum_g
            n_opt_g = n_groups - 1
        if n_exact != 0:
            cont = n_groups > n_exact
        if cont:
            n_groups -= 1
            if garbage_search:
                _sl_remove(fkeys, fitems, fsizes, fkeyof, 0, i1)
                _sl_remove(fkeys, fitems, fsizes, fkeyof, 0, i2)
            for j in range(counts.shape[1]):
                counts[i1, j] += counts[i2, j]
            mods[i1] += mods[i2]
            gcosts[i1] = _part_row(lf, counts[i1], j_classes)
            if garbage_search:
                _sl_add(fkeys, fitems, fsizes, fkeyof, 0, i1, -1.0 * mods[i1])
            iv[i2] = i1
            # swap-removal of group i2 from the active groups
            pos = new_index[i2]
            new_index[i2] = n_active - 1
            last = active[n_active - 1]
            active[pos] = last
            n_active -= 1
            new_index[last] = pos
            # merges of the new group
            for a in range(n_active):
                other = active[a]
                _tl_remove(tl, _pair(i2, other))
                if other != i1:
                    mid = _pair(i1, other)
                    _tl_remove(tl, mid)
                    m_delta[mid] = (
                        _part_sum(lf, counts[i1], counts[other], j_classes)
                        - gcosts[i1]
                        - gcosts[other]
                    )
                    _tl_add(tl, mid, -m_delta[mid])
    final_index = np.zeros(n_init, dtype=np.int64)
    for i in range(n_active):
        final_index[active[i]] = i
    for i in range(n_init):
        idx = iv[i]
        while iv[idx] < idx:
            idx = iv[idx]
        iv[i] = idx
    for i in range(n_init):
        iv[i] = final_index[iv[i]]
    act = active[:n_active].copy()
    return n_opt, n_opt_g, act, counts[act], mods[act], gcosts[act], iv


# ---------------------------------------------------------------------------------------------
# Several classes: moves of single values between groups (PostOptimizeGroups)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def post_optimise_groups_kernel(
    src, src_mod, counts, mods, iv, garbage_search, lf, a1, a2, bell, lg, fp, ip
):
    """``PostOptimizeGroups`` (``...WithGarbageSearch``) as
    ``grouping_post_optimisation.post_optimise_groups``: ``counts``, ``mods`` and ``iv`` are
    modified in place. Returns the number of non-empty groups."""
    ctx = _make_ctx(lf, a1, a2, bell, lg, fp, ip)
    j_classes = ip[3]
    n_groups = counts.shape[0]
    n_mod = src.shape[0]
    group_costs = np.empty(n_groups)
    for g in range(n_groups):
        group_costs[g] = _part_row(lf, counts[g], j_classes)
    out_delta = np.zeros(n_mod)
    in_delta = np.zeros(n_mod * n_groups)
    for m in range(n_mod):
        cur = iv[m]
        out_delta[m] = _part_diff(lf, counts[cur], src[m], j_classes) - group_costs[cur]
    for m in range(n_mod):
        cur = iv[m]
        for g in range(n_groups):
            if g != cur:
                in_delta[m * n_groups + g] = (
                    _part_sum(lf, counts[g], src[m], j_classes) - group_costs[g]
                )
    n_true = n_groups
    fkeys = np.zeros((1, n_groups + 1))
    fitems = np.zeros((1, n_groups + 1), dtype=np.int64)
    fsizes = np.zeros(1, dtype=np.int64)
    fkeyof = np.zeros((1, n_groups + 1))
    if garbage_search:
        for g in range(n_groups):
            _sl_add(fkeys, fitems, fsizes, fkeyof, 0, g, -1.0 * mods[g])
    while (not garbage_search) or n_true > 3:
        best_delta = EPSILON
        best_m = -1
        best_g = -1
        if not garbage_search:
            for m in range(n_mod):
                cur = iv[m]
                base = m * n_groups
                om = out_delta[m]
                for g in range(n_groups):
                    if g != cur:
                        delta = om + in_delta[base + g]
                        if delta < best_delta:
                            best_delta = delta
                            best_m = m
                            best_g = g
        else:
            garbage = mods[fitems[0, 0]]
            pc_now = _pc(ctx, n_true, garbage)
            for m in range(n_mod):
                cur = iv[m]
                moved = src_mod[m]
                cur_is_head = fitems[0, 0] == cur
                for g in range(n_groups):
                    if g == cur:
                        continue
                    delta = out_delta[m] + in_delta[m * n_groups + g]
                    new_g = garbage
                    if cur_is_head:
                        new_g -= moved
                        second = mods[fitems[0, 1]]
                        if new_g < second:
                            new_g = second
                    if new_g < mods[g] + moved:
                        new_g = mods[g] + moved
                    new_n = n_true
                    if moved == mods[cur]:
                        new_n -= 1
                    if mods[g] == 0:
                        new_n += 1
                    if garbage != new_g or new_n != n_true:
                        if new_n < 3:
                            delta = DBL_MAX
                        else:
                            delta += _pc(ctx, new_n, new_g) - pc_now
                    if delta < best_delta:
                        best_delta = delta
                        best_m = m
                        best_g = g
        if not best_delta < -EPSILON:
            break
        out_g = iv[best_m]
        in_g = best_g
        group_costs[out_g] += out_delta[best_m]
        group_costs[in_g] += in_delta[best_m * n_groups + in_g]
        out_delta[best_m] = -in_delta[best_m * n_groups + in_g]
        if garbage_search:
            _sl_remove(fkeys, fitems, fsizes, fkeyof, 0, in_g)
            _sl_remove(fkeys, fitems, fsizes, fkeyof, 0, out_g)
            if mods[in_g] == 0:
                n_true += 1
        for j in range(counts.shape[1]):
            counts[in_g, j] += src[best_m, j]
            counts[out_g, j] -= src[best_m, j]
        mods[in_g] += src_mod[best_m]
        mods[out_g] -= src_mod[best_m]
        if garbage_search:
            if mods[out_g] == 0:
                n_true -= 1
            _sl_add(fkeys, fitems, fsizes, fkeyof, 0, in_g, -1.0 * mods[in_g])
            _sl_add(fkeys, fitems, fsizes, fkeyof, 0, out_g, -1.0 * mods[out_g])
        iv[best_m] = in_g
        base = best_m * n_groups
        for g in range(n_groups):
            if g != in_g:
                in_delta[base + g] = (
                    _part_sum(lf, counts[g], src[best_m], j_classes) - group_costs[g]
                )
            else:
                in_delta[base + g] = 0.0
        for m in range(n_mod):
            if m == best_m:
                continue
            cur = iv[m]
            if cur == out_g or cur == in_g:
                out_delta[m] = _part_diff(lf, counts[cur], src[m], j_classes) - group_costs[cur]
            if out_g != cur:
                in_delta[m * n_groups + out_g] = (
                    _part_sum(lf, counts[out_g], src[m], j_classes) - group_costs[out_g]
                )
            if in_g != cur:
                in_delta[m * n_groups + in_g] = (
                    _part_sum(lf, counts[in_g], src[m], j_classes) - group_costs[in_g]
                )
    return n_true


@njit(cache=True)
def best_group_merge_kernel(counts, mods, garbage_search, lf, a1, a2, bell, lg, fp, ip):
    """The pair of ``ForceBestGroupMerge`` (``...WithGarbageSearch``) as
    ``grouping_post_optimisation.force_best_group_merge``: (best1, best2)."""
    ctx = _make_ctx(lf, a1, a2, bell, lg, fp, ip)
    j_classes = ip[3]
    n = counts.shape[0]
    group_costs = np.empty(n)
    for g in range(n):
        group_costs[g] = _part_row(lf, counts[g], j_classes)
    garbage = 0
    if garbage_search:
        garbage = mods[0]
        for g in range(1, n):
            if mods[g] > garbage:
                garbage = mods[g]
    best_delta = DBL_MAX
    best1 = -1
    best2 = -1
    for g1 in range(n):
        for g2 in range(g1 + 1, n):
            delta = _part_sum(lf, counts[g1], counts[g2], j_classes) - group_costs[g1]
            delta = delta - group_costs[g2]
            if garbage_search:
                merged = mods[g1] + mods[g2]
                delta += _mgc(ctx, n, garbage, merged) - _pc(ctx, n, garbage)
            if delta < best_delta:
                best_delta = delta
                best1 = g1
                best2 = g2
    return best1, best2


# ---------------------------------------------------------------------------------------------
# Python side: the engine switch and the cost tables of a GroupingCosts
# ---------------------------------------------------------------------------------------------
ENGINES = ("numba", "python")
_ENGINE = ["numba"]


def compiled() -> bool:
    """Whether the grouping runs its numba kernels (else the Python reference)."""
    return _ENGINE[0] == "numba"


class engine:  # noqa: N801 (a context manager used as a function)
    """``with engine("python"):`` runs the grouping on the Python reference (the tests' oracle),
    ``engine("numba")`` on the kernels; the previous engine is restored on exit."""

    def __init__(self, name: str | None):
        if name is not None and name not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {name!r}")
        self.name = name

    def __enter__(self):
        self.previous = _ENGINE[0]
        if self.name is not None:
            _ENGINE[0] = self.name
        return self

    def __exit__(self, *exc):
        _ENGINE[0] = self.previous
        return False


_LF = [np.zeros(0)]
_CODES = [np.zeros(0), np.zeros(0)]


def _lf_array(lf_list) -> np.ndarray:
    """The shared ln k! list of GroupingCosts as an array (rebuilt when the list has grown)."""
    if _LF[0].size < len(lf_list):
        _LF[0] = np.array(lf_list, dtype=np.float64)
    return _LF[0]


def _code_tables(size: int):
    """a1[m] = ln C0Max(m)/ln 2 and a2[n] = log2*(n), m, n < size (grown on demand)."""
    from repro.preprocessing.modl.criteria import c0_max, log2_star

    if _CODES[0].size < size:
        size = max(size, 2 * _CODES[0].size, 256)
        a1 = np.empty(size)
        a2 = np.zeros(size)
        for m in range(size):
            a1[m] = math.log(c0_max(m)) / LOG2
        for n in range(1, size):
            a2[n] = log2_star(n)
        _CODES[0], _CODES[1] = a1, a2
    return _CODES[0], _CODES[1]


def cost_args(costs):
    """(lf, a1, a2, bell, lg, fp, ip) of a GroupingCosts (or NullCosts) for the kernels (built
    once per cost object and kept on it)."""
    args = costs.__dict__.get("_kernel_args")
    if args is None:
        args = costs.__dict__["_kernel_args"] = _cost_args(costs)
    return args


def _cost_args(costs):
    from repro.preprocessing.modl import kernels as modl_kernels
    from repro.preprocessing.modl.criteria import (
        NullCosts,
        bounded_universal_code,
        ln_bell_table,
        max_granularity,
    )

    lf = _lf_array(costs.lf)
    bell = ln_bell_table()
    if isinstance(costs, NullCosts):
        v = 0
        fp = np.zeros(3)
        ip = np.array([0, 0, 1, costs.n_classes], dtype=np.int64)
    else:
        v = int(costs.n_values)
        g = int(costs.granularity)
        lg_code = bounded_universal_code(g, max_granularity(costs.n_instances)) if g > 0 else 0.0
        log_v = math.log(v * 1.0) if v > 0 else 0.0
        fp = np.array([float(costs.attribute_cost), lg_code, log_v])
        ip = np.array([v, g, 0, costs.n_classes], dtype=np.int64)
    a1, a2 = _code_tables(v + 4)
    lg = modl_kernels.lf_tables(v + 8)[1]
    return lf, a1, a2, bell, lg, fp, ip
