"""Numba kernels of the MODL optimisers: exact ports of the reference Python code.

Every kernel reproduces the floating-point operations of the Python reference implementation of
:mod:`repro.preprocessing.modl.paper` (run by its optimisers with ``reference=True``, the tests'
oracle) in the same order, so that costs, deltas and therefore tie-breaking and partitions are
bit-identical; the choice rule of the post-optimisation is one function for both
(:func:`repro.preprocessing.modl.rules.choose_move`, compiled here; the Khiops grouping's
Python optimiser takes the same decision with :func:`~repro.preprocessing.modl.rules.pick_move`):

- ``ln n!`` is read from one table (:func:`lf_tables`): row 0 = ``scipy.special.gammaln(k + 1)``
  (the ``lf`` of the vectorised :func:`~repro.preprocessing.modl.criteria.part_cost`), row 1 =
  ``math.lgamma(k)`` (of the scalar ``scalar_part_cost`` of the greedy steps). The two differ in the
  last bit for many k, and so do numba's and CPython's ``lgamma``: hence tables built in Python.
- Sums over the classes follow numpy's pairwise summation (sequential from −0.0 below 8 terms,
  :func:`_pairwise` from 8 to 128; the wrappers use the Python references beyond 128 classes).
- The sorted list of merge deltas reproduces the tie rule of Khiops' ``SortedList`` as
  :class:`~repro.preprocessing.modl.sorted_list.SortedList` does (first inserted item heads its
  group of equal keys, then the others from the newest to the oldest; the next head is pinned).

Design for numba: each algorithm is one loop over int64/float64 arrays (doubly linked list of
intervals, open-addressing hash table keyed by the bits of a float, lazy binary heap); the few
helpers (hash-table probe, heap sift-down, sums) are small functions that LLVM inlines (timed:
as fast as the same code written in place); one signature per kernel, ``cache=True``.
Greedy merge O(n log n); post-optimisation O(n) per move with the best split of each run of rows
memoised across moves. No array variable is rebound inside their loops (buffers are sized once):
numba counts the references of a rebound array atomically on every use, which cost the greedy
merge a quarter of its time.

:func:`discretize_2006_column` is the paper variant's whole discretization of one column (radix
sort, value counts, both optimisers, bounds, contingency table) with no Python between its steps,
:func:`discretize_khiops_column` the Khiops variant's (granularities of the partiles, pure-row
merges, both optimisers, the granularity post-optimisation), and the ``*_block`` kernels run them
over a block of columns on numba's threads (:mod:`repro.preprocessing.modl.batch`);
:func:`human_readable_bounds_kernel` places Khiops' bounds.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange
from scipy.special import gammaln

from repro.preprocessing.modl.rules import EPSILON, INFINITE_COST, choose_move

THRESHOLD = 1.0 - EPSILON
LOG2 = math.log(2.0)

# ---------------------------------------------------------------------------------------------
# ln n! tables (grown on demand, shared by all calls of the process)
# ---------------------------------------------------------------------------------------------
_LFT = np.empty((2, 0))


def lf_tables(size: int) -> np.ndarray:
    """ln n! tables with at least ``size`` columns: row 0 = gammaln(k + 1) (``lf`` of the
    vectorised part_cost), row 1 = math.lgamma(k) (of scalar_part_cost; entry 0 = inf)."""
    global _LFT
    old = _LFT.shape[1]
    if old < size:
        new = max(int(size), 2 * old, 4096)
        table = np.empty((2, new))
        table[0] = gammaln(np.arange(new, dtype=np.float64) + 1.0)
        table[1, :old] = _LFT[1]
        start = max(old, 1)
        table[1, 0] = np.inf
        table[1, start:] = [math.lgamma(k) for k in range(start, new)]
        _LFT = table
    return _LFT


# ---------------------------------------------------------------------------------------------
# Elementary pieces
# ---------------------------------------------------------------------------------------------
MAX_CLASSES = 128
"""numpy's pairwise block size: up to it the sum is one block (no recursion, which numba cannot
cache); the wrappers use the Python reference optimisers beyond it."""


@njit(cache=True, inline="always")
def _pairwise(a, lo, n):
    """numpy's pairwise sum of a[lo:lo+n], n ≤ 128 (same order, hence same rounding, as
    ndarray.sum)."""
    if n < 8:
        res = -0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0 = a[lo]
    r1 = a[lo + 1]
    r2 = a[lo + 2]
    r3 = a[lo + 3]
    r4 = a[lo + 4]
    r5 = a[lo + 5]
    r6 = a[lo + 6]
    r7 = a[lo + 7]
    i = 8
    stop = n - (n % 8)
    while i < stop:
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


_HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64


@njit(cache=True, inline="always")
def _home(key, mask, fbits, ibits):
    """Home slot of a float key in a hash table of mask + 1 slots: a hash of its bit pattern
    (``ibits`` is an int64 view of the one-element float64 buffer ``fbits``)."""
    fbits[0] = key
    h = ibits[0] * _HASH_MULT
    return (h ^ (h >> 32)) & mask


@njit(cache=True, inline="always")
def _find(keys, used, mask, key, fbits, ibits):
    """Slot of ``key`` in an open-addressing table (linear probing), else the free slot where
    it goes."""
    s = _home(key, mask, fbits, ibits)
    while used[s] and keys[s] != key:
        s = (s + 1) & mask
    return s


@njit(cache=True, inline="always")
def _sift_down(heap, n, k, x):
    """Put x at position k of the binary min-heap heap[:n], moved down below smaller children."""
    while True:
        child = 2 * k + 1
        if child >= n:
            break
        if child + 1 < n and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= x:
            break
        heap[k] = heap[child]
        k = child
    heap[k] = x


_choose_move = njit(cache=True)(choose_move)


@njit(cache=True)
def _cost_rows(c, ln_fact, offset, buf):
    """Part cost of each row of c: (T[n+J−1+offset] − T[J−1+offset]) − Σ_j gl[n_ij], where
    ``ln_fact`` = (gl, ml) packed as rows 0/1 of one table; offset 0 → gl (part_cost), offset 1
    → ml (scalar_part_cost)."""
    n_rows = c.shape[0]
    n_classes = c.shape[1]
    out = np.empty(n_rows)
    t = 0 if offset == 0 else 1
    for i in range(n_rows):
        n = 0
        for j in range(n_classes):
            v = c[i, j]
            n += v
            buf[j] = ln_fact[0, v]
        out[i] = (ln_fact[t, n + n_classes - 1 + offset] - ln_fact[t, n_classes - 1 + offset]) - (
            _pairwise(buf, 0, n_classes)
        )
    return out


# ---------------------------------------------------------------------------------------------
# Greedy bottom-up merge (KWDiscretizerMODLOptimization.cpp)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def greedy_merge_kernel(rows, pc, max_parts, best_merge, strict, lft):
    """Interval ends (last row index of each interval) of Khiops' greedy merge.

    ``rows``: int64 (rows × classes); ``pc``: partition costs pc[I]; ``best_merge``: continue
    to one interval on a copy and keep the best size (IntervalListBestMergeOptimization);
    ``strict``: merge only while the total strictly decreases; ``lft``: ln n! tables (gl; ml).

    The list of intervals is a doubly linked list in arrays; the sorted list of merge deltas
    is Khiops' ``SortedList``: groups of equal keys (a hash table key → group, a lazy min-heap
    of the group keys), each group = its head (first inserted item, pinned) then a stack of the
    other items, newest first.
    """
    m = rows.shape[0]
    n_classes = rows.shape[1]
    buf = np.empty(n_classes)
    fbits = np.empty(1)  # a float64 seen as int64: the hash of a key is its bit pattern
    ibits = fbits.view(np.int64)
    # intervals (id = its first elementary row position at creation = its last row index)
    cnt = rows.copy()
    cost = _cost_rows(rows, lft, 0, buf)
    mcost = np.zeros(m)
    mdelta = np.zeros(m)
    prev = np.arange(m) - 1
    nxt = np.arange(m) + 1
    nxt[m - 1] = -1
    head_iv = 0
    # sorted list
    # (the hash table has room for every key at once, at most one per item: it never grows,
    # and no array variable of the loop is ever rebound, which would cost numba an atomic
    # reference count per use, a quarter of the time; the heap is compacted when stale keys
    # dominate it)
    mask = 63
    while mask + 1 < 2 * m + 2:
        mask = 2 * mask + 1
    h_key = np.zeros(mask + 1)
    h_val = np.zeros(mask + 1, dtype=np.int64)
    h_used = np.zeros(mask + 1, dtype=np.bool_)
    n_live = 0
    cap = 3 * m + 8
    heap = np.empty(cap)
    g_head = np.empty(m + 1, dtype=np.int64)  # groups: ids recycled through g_free
    g_top = np.empty(m + 1, dtype=np.int64)
    g_free = np.empty(m + 1, dtype=np.int64)
    n_free = 0
    i_key = np.zeros(m)
    i_up = np.full(m, -1, dtype=np.int64)
    i_down = np.full(m, -1, dtype=np.int64)
    n_heap = 0
    n_groups = 0
    n_items = 0
    # items whose merge is to be computed (flag 1) and/or added to the list, in order
    pending = np.empty(m, dtype=np.int64)
    compute = np.zeros(m, dtype=np.bool_)
    n_pending = 0
    for i in range(1, m):
        pending[n_pending] = i
        compute[n_pending] = True
        n_pending += 1
    removing = np.empty(3, dtype=np.int64)
    # best-merge phase
    phase = 0
    n_parts = m
    n_start = 0
    best_n = 0
    total = 0.0
    best_total = 0.0
    removed = np.empty(m, dtype=np.int64)
    n_merges = 0
    head0 = 0
    nxt0 = np.empty(m, dtype=np.int64)
    while True:
        # ---- compute the pending merges and add them to the sorted list, in order
        for q in range(n_pending):
            it = pending[q]
            if compute[q]:
                p = prev[it]
                n = 0
                acc = -0.0
                for j in range(n_classes):
                    v = cnt[p, j] + cnt[it, j]
                    n += v
                    buf[j] = lft[0, v]
                    acc += buf[j]
                if n_classes >= 8:
                    acc = _pairwise(buf, 0, n_classes)
                c = (lft[1, n + n_classes] - lft[1, n_classes]) - acc
                mcost[it] = c
                mdelta[it] = c - cost[it] - cost[p]
            key = mdelta[it]
            if key == 0.0:
                key = 0.0  # −0.0 and 0.0 are one key, as in a Python dict
            s = _find(h_key, h_used, mask, key, fbits, ibits)
            if not h_used[s]:  # new group: the item heads it
                if n_free > 0:
                    n_free -= 1
                    g = g_free[n_free]
                else:
                    g = n_groups
                    n_groups += 1
                h_key[s] = key
                h_val[s] = g
                h_used[s] = True
                n_live += 1
                g_head[g] = it
                g_top[g] = -1
                if n_heap > 2 * n_live + 64:  # compact the heap: live keys only, heapified
                    n_heap = 0
                    for o in range(mask + 1):
                        if h_used[o] and h_key[o] != key:
                            heap[n_heap] = h_key[o]
                            n_heap += 1
                    for start in range(n_heap // 2 - 1, -1, -1):
                        _sift_down(heap, n_heap, start, heap[start])
                k = n_heap
                n_heap += 1
                while k > 0:
                    parent = (k - 1) >> 1
                    if heap[parent] <= key:
                        break
                    heap[k] = heap[parent]
                    k = parent
                heap[k] = key
            else:  # stacked after the head, newest first
                g = h_val[s]
                t = g_top[g]
                i_down[it] = t
                i_up[it] = -1
                if t != -1:
                    i_up[t] = it
                g_top[g] = it
            i_key[it] = key
            n_items += 1
        n_pending = 0
        # ---- end of a phase
        if n_items == 0:
            stop = True
        else:
            # head of the sorted list: head of the group of the smallest live key
            while True:
                s = _find(h_key, h_used, mask, heap[0], fbits, ibits)
                if h_used[s]:
                    break
                n_heap -= 1  # stale key: pop it (heap[0] = heap[0] when it was the last one)
                _sift_down(heap, n_heap, 0, heap[n_heap])
            i = g_head[h_val[s]]
            delta = (pc[n_parts - 1] - pc[n_parts]) + mdelta[i]
            stop = False
            if phase == 0:
                if abs(delta) < EPSILON:
                    delta = 0.0
                accept = delta < 0 if strict else delta <= 0
                stop = not (accept or (max_parts > 0 and n_parts > max_parts))
        if stop:
            if phase == 1 or not best_merge:
                break
            # IntervalListBestMergeOptimization: merge down to one interval on a copy with a
            # fresh sorted list, keep the size of lowest cumulated cost. Khiops then replays
            # the merges on the original from a fresh list, which repeats the copy's merges:
            # the original list minus the first (n_start − best_n) absorbed intervals.
            phase = 1
            head0 = head_iv
            nxt0[:] = nxt
            h_used[:] = False
            n_live = 0
            n_heap = 0
            n_groups = 0
            n_free = 0
            n_items = 0
            it = head_iv
            while it != -1:
                if prev[it] != -1:
                    pending[n_pending] = it
                    compute[n_pending] = False
                    n_pending += 1
                it = nxt[it]
            n_start = n_pending + 1
            n_parts = n_start
            best_n = n_parts
            continue
        # ---- merge interval i with its predecessor (UpdateMergeSortedList)
        p = prev[i]
        nx = nxt[i]
        if phase == 1:
            removed[n_merges] = p
            n_merges += 1
        n_rem = 1
        removing[0] = i
        if prev[p] != -1:
            removing[n_rem] = p
            n_rem += 1
        if nx != -1:
            removing[n_rem] = nx
            n_rem += 1
        for q in range(n_rem):
            it = removing[q]
            s = _find(h_key, h_used, mask, i_key[it], fbits, ibits)  # present
            g = h_val[s]
            if g_head[g] == it:
                t = g_top[g]
                if t != -1:  # the newest stacked item becomes the (pinned) head
                    g_head[g] = t
                    nt = i_down[t]
                    g_top[g] = nt
                    if nt != -1:
                        i_up[nt] = -1
                else:  # group empty: delete the key (backward-shift deletion)
                    h_used[s] = False
                    n_live -= 1
                    g_free[n_free] = g
                    n_free += 1
                    a = s
                    b = s
                    while True:
                        b = (b + 1) & mask
                        if not h_used[b]:
                            break
                        home = _home(h_key[b], mask, fbits, ibits)
                        if (b > a and (home <= a or home > b)) or (
                            b < a and (home <= a and home > b)
                        ):
                            h_key[a] = h_key[b]
                            h_val[a] = h_val[b]
                            h_used[a] = True
                            h_used[b] = False
                            a = b
            else:
                u = i_up[it]
                d = i_down[it]
                if u == -1:
                    g_top[g] = d
                else:
                    i_down[u] = d
                if d != -1:
                    i_up[d] = u
            n_items -= 1
        for j in range(n_classes):  # the merged counts (the merge of i is recomputed
            cnt[i, j] += cnt[p, j]  # whenever i or its predecessor changes)
        cost[i] = mcost[i]
        pp = prev[p]
        prev[i] = pp
        if pp == -1:
            head_iv = i
        else:
            nxt[pp] = i
        if pp != -1:
            pending[n_pending] = i
            compute[n_pending] = True
            n_pending += 1
        if nx != -1:
            pending[n_pending] = nx
            compute[n_pending] = True
            n_pending += 1
        n_parts -= 1
        if phase == 1:
            total += delta
            if (total <= best_total + EPSILON and n_parts >= 1) or (
                max_parts > 0 and n_parts > max_parts
            ):
                best_total = total
                best_n = n_parts
    dropped = np.zeros(m, dtype=np.bool_)
    if phase == 1:
        head_iv = head0
        nxt[:] = nxt0
        for k in range(n_start - best_n):
            dropped[removed[k]] = True
    n_out = 0
    it = head_iv
    while it != -1:
        if not dropped[it]:
            n_out += 1
        it = nxt[it]
    ends = np.empty(n_out, dtype=np.int64)
    k = 0
    it = head_iv
    while it != -1:
        if not dropped[it]:
            ends[k] = it
            k += 1
        it = nxt[it]
    return ends


# ---------------------------------------------------------------------------------------------
# Post-optimisation: Split / MergeSplit / MergeMergeSplit (KWDiscretizerMODL.cpp)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def post_optimise_kernel(rows, ends, pc, max_parts, lft):
    """Hill-climbing with Split, MergeSplit and MergeMergeSplit moves (paper.post_optimise).

    The best split of a run of rows (right-to-left scan keeping a candidate only if its total
    is < best·(1 − 1e-6)) depends only on the run: it is memoised across moves in a hash table
    (key = run), and the candidate deltas are recomputed from it as the reference code does.
    """
    m = rows.shape[0]
    n_classes = rows.shape[1]
    cum = np.zeros((m + 1, n_classes), dtype=np.int64)
    for i in range(m):
        for j in range(n_classes):
            cum[i + 1, j] = cum[i, j] + rows[i, j]
    buf = np.empty(n_classes)
    buf2 = np.empty(n_classes)
    fbits = np.empty(1)
    ibits = fbits.view(np.int64)
    m_cap = 1 << 10  # (a cache: forgotten when half full)
    m_mask = m_cap - 1
    m_key = np.zeros(m_cap)
    m_total = np.zeros(m_cap)
    m_cut = np.zeros(m_cap, dtype=np.int64)
    m_used = np.zeros(m_cap, dtype=np.bool_)
    m_count = 0
    # the intervals in buffers of m (at most one per row): no array variable of the loop is
    # rebound (numba would count references on every use)
    n_parts = ends.size
    cur = np.empty(m, dtype=np.int64)
    cur[:n_parts] = ends
    starts = np.empty(m, dtype=np.int64)
    costs = np.empty(m)
    best_d = np.empty(3)
    best_i = np.empty(3, dtype=np.int64)
    best_cut = np.empty(3, dtype=np.int64)
    while True:
        starts[0] = 0
        for k in range(1, n_parts):
            starts[k] = cur[k - 1] + 1
        for k in range(n_parts):
            n = 0
            acc = -0.0
            for j in range(n_classes):
                v = cum[cur[k] + 1, j] - cum[starts[k], j]
                n += v
                buf[j] = lft[0, v]
                acc += buf[j]
            if n_classes >= 8:
                acc = _pairwise(buf, 0, n_classes)
            costs[k] = (lft[0, n + n_classes - 1] - lft[0, n_classes - 1]) - acc
        # candidates: Split of i, MergeSplit of (i−1, i), MergeMergeSplit of (i−2, i−1, i)
        best_d[:] = INFINITE_COST
        best_i[:] = -1
        best_cut[:] = -1
        for kind in range(3):
            for i in range(kind, n_parts):
                first = starts[i - kind]
                last = cur[i]
                if kind == 0:
                    initial = costs[i]
                elif kind == 1:
                    initial = costs[i] + costs[i - 1]
                else:
                    initial = costs[i] + costs[i - 1] + costs[i - 2]
                if first >= last or (kind == 1 and first + 1 >= last):
                    continue  # no split (delta = +inf)
                key = float(first * (m + 1) + last)
                s = _find(m_key, m_used, m_mask, key, fbits, ibits)
                if m_used[s]:
                    total = m_total[s]
                    cut = m_cut[s]
                else:
                    # ComputeBestSplit: second part = rows idx..last, idx = last .. first+1
                    best = INFINITE_COST
                    cut = -1
                    total = 0.0
                    t = 0.0
                    for idx in range(last, first, -1):
                        n1 = 0
                        n2 = 0
                        acc1 = -0.0
                        acc2 = -0.0
                        for j in range(n_classes):
                            second = cum[last + 1, j] - cum[idx, j]
                            v = (cum[last + 1, j] - cum[first, j]) - second
                            n1 += v
                            n2 += second
                            buf[j] = lft[0, v]
                            buf2[j] = lft[0, second]
                            acc1 += buf[j]
                            acc2 += buf2[j]
                        if n_classes >= 8:
                            acc1 = _pairwise(buf, 0, n_classes)
                            acc2 = _pairwise(buf2, 0, n_classes)
                        c1 = (lft[0, n1 + n_classes - 1] - lft[0, n_classes - 1]) - acc1
                        c2 = (lft[0, n2 + n_classes - 1] - lft[0, n_classes - 1]) - acc2
                        t = c1 + c2
                        if t < best * THRESHOLD:
                            best = t
                            total = t
                            cut = idx - 1
                    if cut == -1:  # none accepted: numpy's index −1 = the last one scanned
                        total = t
                        cut = first
                    if 2 * (m_count + 1) > m_cap:  # full: forget (a cache only)
                        m_used[:] = False
                        m_count = 0
                        s = _home(key, m_mask, fbits, ibits)
                    m_key[s] = key
                    m_total[s] = total
                    m_cut[s] = cut
                    m_used[s] = True
                    m_count += 1
                d = total - initial
                if abs(d) < EPSILON:
                    d = 0.0
                if d < best_d[kind]:
                    best_d[kind] = d
                    best_i[kind] = i
                    best_cut[kind] = cut
        kind = _choose_move(pc, n_parts, max_parts, best_d[0], best_d[1], best_d[2])
        if kind < 0:
            break
        # ends[:i−kind] + [cut, ends[i]] + ends[i+1:], in place: the tail moves by 1 − kind
        i = best_i[kind]
        lo = i - kind
        last = cur[i]
        if kind == 0:
            for k in range(n_parts - 1, i, -1):
                cur[k + 1] = cur[k]
        elif kind == 2:
            for k in range(i + 1, n_parts):
                cur[k - 1] = cur[k]
        cur[lo] = best_cut[kind]
        cur[lo + 1] = last
        n_parts += 1 - kind
    return cur[:n_parts].copy()


#: the literal powers of ten 1e0..1e309 and 1e-0..1e-309 (as Khiops' tables: exact decimals)
POS10 = np.array([float(f"1e{k}") for k in range(310)])
NEG10 = np.array([float(f"1e-{k}") for k in range(310)])


# ---------------------------------------------------------------------------------------------
# Khiops' reading of numbers (modl_khiops: to_continuous, human_readable_bound), scalar
# ---------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def _power10(k):
    """10^k from the literal power tables (|k| ≤ 309; numba freezes them into the code)."""
    return POS10[k] if k >= 0 else NEG10[-k]


@njit(cache=True, nogil=True, inline="always")
def _exponent10(x):
    """Decimal exponent e with 10^e ≤ x < 10^(e+1), x > 0 (khiops._exponent, scalar): a
    first guess from log10, corrected once each way against the power table."""
    e = min(max(int(math.floor(math.log10(x))), -300), 300)
    if _power10(e) > x:
        e -= 1
    if _power10(e + 1) <= x:
        e += 1
    return e


@njit(cache=True, nogil=True, inline="always")
def _times_power10(x, k):
    """x·10^k in two factors when |k| > 300 (khiops._times_power10, scalar)."""
    first = min(max(k, -300), 300)
    out = x * _power10(first)
    if k != first:
        out = out * _power10(k - first)
    return out


@njit(cache=True, nogil=True, inline="always")
def _to_continuous(x):
    """x rounded to 10 significant digits (khiops.to_continuous, scalar)."""
    if not np.isfinite(x) or x == 0:
        return x
    v = abs(x)
    idx = _exponent10(v) - 9
    m = math.floor(_times_power10(v, -idx) + 0.5)
    if m >= 1e10:
        m = 1e9
        idx += 1
    val = _times_power10(m, idx)
    return -val if x < 0 else val


@njit(cache=True, nogil=True)
def _human_readable(lower, upper):
    """The simplest decimal in [lower, upper] (khiops._human_readable, scalar)."""
    value = (lower + upper) / 2
    max_delta = (upper - lower) / 2
    if value == 0:
        return 0.0
    pos = abs(value)
    full = _exponent10(pos) - 9
    if full >= 0:
        mant = int(pos * NEG10[full] + 0.5)
        new = mant * POS10[full]
        result = new
        while abs(new - pos) < max_delta and full < 200:
            result = new
            mant //= 10
            full += 1
            new = mant * POS10[full]
    else:
        mant = int(_times_power10(pos, -full) + 0.5)
        new = _times_power10(float(mant), full)
        result = new
        while abs(new - pos) < max_delta and full < 200:
            result = new
            mant //= 10
            full += 1
            new = _times_power10(float(mant), full)
    if value < 0:
        result = -result
    result = min(max(result, lower), upper)
    return _to_continuous(result)


@njit(cache=True, nogil=True)
def human_readable_bounds_kernel(lows, highs):
    """Khiops' bound between each lows[i] < highs[i] (khiops.human_readable_bound, the
    reference, with the same float operations): the simplest decimal between the means
    (11·lo + 9·hi)/20 and (9·lo + 11·hi)/20, else lo; −inf when either is not finite."""
    out = np.empty(lows.size)
    for i in range(lows.size):
        a = lows[i]
        b = highs[i]
        if not (np.isfinite(a) and np.isfinite(b)):
            out[i] = -np.inf
            continue
        lo, hi = (a, b) if a <= b else (b, a)
        low_mean = max((11 * lo + 9 * hi) / 20, lo)
        up_mean = min((9 * lo + 11 * hi) / 20, hi)
        mean = _human_readable(low_mean, up_mean)
        out[i] = lo if (mean <= lo or mean >= hi) else mean
    return out


# ---------------------------------------------------------------------------------------------
# The whole 2006 discretization of a numeric column, and of a block of columns on threads
# ---------------------------------------------------------------------------------------------
_SIGN = np.uint64(1 << 63)
_BYTE = np.uint64(0xFF)


@njit(cache=True, nogil=True)
def sorted_order(key):
    """A permutation that sorts the float64 ``key`` (no NaN) in ascending order: a stable
    least-significant-digit radix sort of the keys' bit patterns made order-preserving (sign
    bit set for positives, all bits flipped for negatives: −0.0 sorts just before +0.0), one
    pass per byte, passes skipped where every key has the same byte (the low bytes of values
    read from float32). O(8·(N + 256)): a third of numba's quicksort at N = 4000."""
    n = key.size
    bits = np.empty(n, dtype=np.uint64)
    raw = key.view(np.uint64)
    for i in range(n):
        b = raw[i]
        bits[i] = ~b if (b & _SIGN) else (b | _SIGN)
    order = np.arange(n)
    order_tmp = np.empty(n, dtype=np.int64)
    bits_tmp = np.empty(n, dtype=np.uint64)
    count = np.empty(257, dtype=np.int64)
    for byte in range(8):
        shift = np.uint64(8 * byte)
        count[:] = 0
        for i in range(n):
            count[np.int64((bits[i] >> shift) & _BYTE) + 1] += 1
        if count.max() == n:
            continue  # one digit for all: the pass would keep the order
        for d in range(256):
            count[d + 1] += count[d]
        for i in range(n):
            d = np.int64((bits[i] >> shift) & _BYTE)
            pos = count[d]
            count[d] = pos + 1
            order_tmp[pos] = order[i]
            bits_tmp[pos] = bits[i]
        order, order_tmp = order_tmp, order
        bits, bits_tmp = bits_tmp, bits
    return order


@njit(cache=True, nogil=True)
def _sorted_value_rows(x, n_classes, y):
    """(distinct values of x in ascending order, NaN as −inf; their class counts (values × J))."""
    n = x.size
    key = np.empty(n)
    for i in range(n):
        v = x[i]
        key[i] = -np.inf if np.isnan(v) else v
    order = sorted_order(key)
    m = 0
    for i in range(n):
        if i == 0 or key[order[i]] != key[order[i - 1]]:
            m += 1
    values = np.empty(m)
    rows = np.zeros((m, n_classes), dtype=np.int64)
    r = -1
    for i in range(n):
        k = key[order[i]]
        if r < 0 or k != values[r]:  # (−0.0 and 0.0 are one value, as for np.unique)
            r += 1
            values[r] = k
        rows[r, y[order[i]]] += 1
    return values, rows


@njit(cache=True, nogil=True)
def discretize_2006_column(x, y, n_classes, pc_table, lft, bounds, counts, table):
    """MODL 2006 discretization of one column, as ``MODLDiscretizer(variant="paper").fit`` with
    the optimised greedy, then the contingency table of the training values over its bounds.

    Steps of the Python path with no Python between them: sort (missing values, NaN, as −inf:
    a value of their own that sorts first; :func:`sorted_order`), class counts of each distinct
    value, greedy merge and post-optimisation (:func:`greedy_merge_kernel`,
    :func:`post_optimise_kernel`) with the partition costs ``pc_table[:m+1]`` (m distinct
    values; ``pc_table`` = pc[I] of N up to N), interval counts, bounds ``(v_e + v_{e+1})/2``
    (−inf after the missing values) and ``searchsorted(bounds, x, "left")`` of every value
    (NaN → 0) counted per class. Writes ``counts`` and ``table`` (zeroed; I × J) and ``bounds``
    (I − 1) and returns I, or −1 without writing when I exceeds their capacity.
    """
    n = x.size
    values, rows = _sorted_value_rows(x, n_classes, y)
    m = values.size
    pc = pc_table[: m + 1]
    if m <= 1:
        ends = np.zeros(1, dtype=np.int64)
    else:
        ends = greedy_merge_kernel(rows, pc, 0, True, False, lft)
        ends = post_optimise_kernel(rows, ends, pc, 0, lft)
    n_parts = ends.size
    if n_parts > counts.shape[0]:
        return -1
    start = 0
    for p in range(n_parts):
        for r in range(start, ends[p] + 1):
            for j in range(n_classes):
                counts[p, j] += rows[r, j]
        start = ends[p] + 1
    for p in range(n_parts - 1):
        a = values[ends[p]]
        bounds[p] = 0.5 * (a + values[ends[p] + 1]) if np.isfinite(a) else -np.inf
    for i in range(n):
        v = x[i]
        lo = 0
        if not np.isnan(v):
            hi = n_parts - 1
            while lo < hi:
                mid = (lo + hi) >> 1
                if bounds[mid] < v:
                    lo = mid + 1
                else:
                    hi = mid
        table[lo, y[i]] += 1
    return n_parts


@njit(cache=True, nogil=True)
def _partiles(freqs, n_instances, n_partiles):
    """Khiops' partiles of the rows: every row when there are at least N partiles."""
    if n_partiles >= n_instances:
        return np.arange(freqs.size)
    return quantile_partiles_kernel(freqs, n_partiles)


@njit(cache=True, nogil=True)
def discretize_khiops_column(x, y, n_classes, pcs, g_max, lft, lows, highs, counts):
    """Khiops' discretization of one column (``khiops.discretize_table`` after the sort, no
    bound on the number of intervals): for each granularity g = 1..``g_max`` whose 2^g
    partiles are selected, pure adjacent partiles merged, the optimised greedy with the
    partition costs ``pcs[g]`` (pc[I] of (g, N, A) up to N), the cost pc[I] + Σ parts kept when
    lower by more than 1e-6; then the smallest granularity whose partiles hold every bound.

    ``x``: the values (NaN = missing), read as Khiops does (10 significant digits,
    ``khiops.to_continuous``).
    Writes the interval counts (I × J) and, for each bound, the last value of the interval
    below it and the first above (``lows``, ``highs``: Khiops' human-readable bound lies
    between; −inf below after the missing values), and returns (I, g); (−1, 0) when the column
    is outside the kernel's scope (a single value, more intervals than ``counts`` holds at
    some granularity): ``fit`` then does it.
    """
    n = x.size
    read = np.empty(n)
    for i in range(n):
        read[i] = _to_continuous(x[i])
    values, rows = _sorted_value_rows(read, n_classes, y)
    m = values.size
    capacity = counts.shape[0]
    if m <= 1:
        return -1, 0
    freqs = np.zeros(m, dtype=np.int64)
    cum = np.zeros((m + 1, n_classes), dtype=np.int64)
    for r in range(m):
        for j in range(n_classes):
            freqs[r] += rows[r, j]
            cum[r + 1, j] = cum[r, j] + rows[r, j]
    buf = np.empty(n_classes)
    best_cost = np.inf
    best_ends = np.zeros(1, dtype=np.int64)
    best_counts = np.zeros((1, n_classes), dtype=np.int64)
    g_best = 0
    prev_p = 0
    current = -1
    last_explored = -1
    g = 1
    is_last = False
    while g <= g_max and not is_last:
        p_ends = np.arange(m) if 2**g >= n else _partiles(freqs, n, 2**g)
        p = p_ends.size
        is_last = p == m
        if (p >= 1.5 * prev_p and p * 1.5 <= m) or is_last:
            last_explored = current
            current = g
            table = run_counts_kernel(cum, p_ends)
            block_ends = p_ends[merge_pure_rows_kernel(table)]
            merged = run_counts_kernel(cum, block_ends)
            pc = pcs[g, : merged.shape[0] + 1]
            if merged.shape[0] <= 1:
                ends = np.zeros(1, dtype=np.int64)
            else:
                ends = greedy_merge_kernel(merged, pc, 0, True, False, lft)
                ends = post_optimise_kernel(merged, ends, pc, 0, lft)
            n_parts = ends.size
            if n_parts > capacity or n_parts > MAX_CLASSES:
                return -1, 0  # (Σ parts as numpy's pairwise sum: one block of ≤ 128)
            row_ends = block_ends[ends]
            interval_counts = run_counts_kernel(cum, row_ends)
            parts = _cost_rows(interval_counts, lft, 0, buf)
            cost = pc[n_parts] + _pairwise(parts, 0, n_parts)
            if cost < best_cost - EPSILON:
                best_cost = cost
                best_ends = row_ends
                best_counts = interval_counts
                g_best = g
        prev_p = p
        g += 1
    n_parts = best_ends.size
    if last_explored != -1 and g_best > last_explored + 1:
        # _post_optimise_granularity: the smallest granularity whose partiles hold the bounds
        best = g_best
        g = g_best - 1
        while g != last_explored:
            q = 2**g
            if q < n_parts:
                break
            p_ends = np.arange(m) if q >= n else _partiles(freqs, n, q)
            if p_ends.size < n_parts:
                break
            held = True
            k = 0
            for e in best_ends:  # both sorted: is cum_freq[e] one of cum_freq[p_ends]?
                while k < p_ends.size and p_ends[k] < e:
                    k += 1
                if k == p_ends.size or p_ends[k] != e:
                    held = False
                    break
            if not held:
                break
            best = g
            g -= 1
        g_best = best
    counts[:n_parts] = best_counts
    for p in range(n_parts - 1):
        lows[p] = values[best_ends[p]]
        highs[p] = values[best_ends[p] + 1]
    return n_parts, g_best


@njit(cache=True, nogil=True)
def _block_outputs(n_vars, capacity, n_classes):
    """The output arrays of the block kernels (I per variable, bounds, counts, tables)."""
    n_parts = np.empty(n_vars, dtype=np.int64)
    bounds = np.zeros((n_vars, capacity))
    counts = np.zeros((n_vars, capacity, n_classes), dtype=np.int64)
    table = np.zeros((n_vars, capacity, n_classes), dtype=np.int64)
    return n_parts, bounds, counts, table


@njit(cache=True, parallel=True)
def discretize_2006_block(columns, y, n_classes, pc_table, lft, capacity):
    """:func:`discretize_2006_column` of every row of ``columns`` (variables × N), in parallel
    over the variables (numba's threads; each variable is computed alone, so the result does
    not depend on their number). Returns (I or −1 per variable, bounds (variables × capacity),
    interval counts and contingency tables (variables × capacity × J))."""
    n_parts, bounds, counts, table = _block_outputs(columns.shape[0], capacity, n_classes)
    for c in prange(columns.shape[0]):
        n_parts[c] = discretize_2006_column(
            columns[c], y, n_classes, pc_table, lft, bounds[c], counts[c], table[c]
        )
    return n_parts, bounds, counts, table


@njit(cache=True, nogil=True)
def discretize_2006_block_serial(columns, y, n_classes, pc_table, lft, capacity):
    """:func:`discretize_2006_block` on the calling thread alone (no parallel launch: safe from
    concurrent Python threads whatever numba's threading layer)."""
    n_parts, bounds, counts, table = _block_outputs(columns.shape[0], capacity, n_classes)
    for c in range(columns.shape[0]):
        n_parts[c] = discretize_2006_column(
            columns[c], y, n_classes, pc_table, lft, bounds[c], counts[c], table[c]
        )
    return n_parts, bounds, counts, table


@njit(cache=True, nogil=True)
def _khiops_outputs(n_vars, capacity, n_classes):
    """The output arrays of the Khiops block kernels (I, g, lows, highs, counts)."""
    n_parts = np.empty(n_vars, dtype=np.int64)
    granularity = np.empty(n_vars, dtype=np.int64)
    lows = np.zeros((n_vars, capacity))
    highs = np.zeros((n_vars, capacity))
    counts = np.zeros((n_vars, capacity, n_classes), dtype=np.int64)
    return n_parts, granularity, lows, highs, counts


@njit(cache=True, parallel=True)
def discretize_khiops_block(columns, y, n_classes, pcs, g_max, lft, capacity):
    """:func:`discretize_khiops_column` of every row of ``columns`` on numba's threads; returns
    (I or −1, g, lows, highs, counts) per variable."""
    n_parts, granularity, lows, highs, counts = _khiops_outputs(
        columns.shape[0], capacity, n_classes
    )
    for c in prange(columns.shape[0]):
        n_parts[c], granularity[c] = discretize_khiops_column(
            columns[c], y, n_classes, pcs, g_max, lft, lows[c], highs[c], counts[c]
        )
    return n_parts, granularity, lows, highs, counts


@njit(cache=True, nogil=True)
def discretize_khiops_block_serial(columns, y, n_classes, pcs, g_max, lft, capacity):
    """:func:`discretize_khiops_block` on the calling thread alone."""
    n_parts, granularity, lows, highs, counts = _khiops_outputs(
        columns.shape[0], capacity, n_classes
    )
    for c in range(columns.shape[0]):
        n_parts[c], granularity[c] = discretize_khiops_column(
            columns[c], y, n_classes, pcs, g_max, lft, lows[c], highs[c], counts[c]
        )
    return n_parts, granularity, lows, highs, counts


# ---------------------------------------------------------------------------------------------
# Khiops preprocessing helpers
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def quantile_partiles_kernel(freqs, n_partiles):
    """Last value index of each equal-frequency partile (KWQuantileIntervalBuilder)."""
    m = freqs.size
    cum = np.cumsum(freqs)
    n = cum[m - 1]
    out = np.empty(min(n_partiles, m) + 1, dtype=np.int64)
    k = 0
    r = 0
    last = -1
    half = n_partiles / 2
    for q in range(n_partiles):
        t = n * (q + 1) / n_partiles
        if q < half:
            t = t - 1e-10
        else:
            t = t + 1e-10
        ti = math.floor(t + 0.5)
        while r < m - 1 and cum[r] < ti:
            r += 1
        prev_cum = cum[r - 1] if r > 0 else 0
        if abs(t - prev_cum) <= abs(cum[r] - t):
            up = r - 1
        else:
            up = r
        if up > last:
            out[k] = up
            k += 1
            last = up
    if k == 0 or out[k - 1] != m - 1:
        out[k] = m - 1
        k += 1
    return out[:k].copy()


@njit(cache=True)
def run_counts_kernel(cum, ends):
    """Class counts of the runs of rows ending (inclusive) at ``ends``, from the cumulated
    table ``cum`` ((rows + 1) × classes, first row 0): cum[e+1] − cum[previous end + 1]."""
    n_classes = cum.shape[1]
    out = np.empty((ends.size, n_classes), dtype=cum.dtype)
    start = 0
    for i in range(ends.size):
        stop = ends[i] + 1
        for j in range(n_classes):
            out[i, j] = cum[stop, j] - cum[start, j]
        start = stop
    return out


@njit(cache=True)
def merge_pure_rows_kernel(rows):
    """Last row index of each block after merging adjacent rows pure on the same class."""
    m = rows.shape[0]
    n_classes = rows.shape[1]
    out = np.empty(m, dtype=np.int64)
    k = 0
    prev_pure = -1
    for i in range(m):
        total = 0
        cls = -1
        for j in range(n_classes):
            total += rows[i, j]
            if cls == -1 and rows[i, j] != 0:
                cls = j
        if cls == -1:
            cls = 0
        pure = rows[i, cls] == total
        if i == 0:
            out[k] = 0
            k += 1
            continue
        if pure:
            if prev_pure > -1 and prev_pure == cls:
                out[k - 1] = i
            else:
                prev_pure = cls
                out[k] = i
                k += 1
        else:
            prev_pure = -1
            out[k] = i
            k += 1
    return out[:k].copy()


@njit(cache=True)
def log2_star_raw_kernel(n_values):
    """log2*(n) = Σ_j max(log2^(j)(n), 0) for each n (same operations as _log2_star_raw)."""
    out = np.empty(n_values.size)
    for k in range(n_values.size):
        cost = 0.0
        x = math.log(1.0 * n_values[k]) / LOG2
        while x > 0:
            cost += x
            x = math.log(x) / LOG2
        out[k] = cost
    return out


# ---------------------------------------------------------------------------------------------
# Multi-class grouping heuristic (paper.greedy_grouping: _greedy_grouping_py, _move_values_py)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def greedy_grouping_kernel(counts, pc, lft):
    """Greedy merges of any two groups down to one keeping the best (ties → fewer groups), then
    moves of single values between groups while the cost drops by more than 1e-9.

    Returns group labels (not renumbered). The pair deltas of the merge phase are cached: a
    merge changes only the pairs of the merged group; the scan order (lexicographic over the
    surviving groups, tolerance 1e-12) is the reference one.
    """
    v = counts.shape[0]
    n_classes = counts.shape[1]
    buf = np.empty(n_classes)
    one = np.empty((1, n_classes), dtype=np.int64)
    g_counts = counts.copy()
    g_cost = _cost_rows(counts, lft, 0, buf)
    s = 0.0
    for a in range(v):
        s += g_cost[a]
    total = pc[v] + s
    slot = np.arange(v)  # group (slot) of each value
    alive = np.ones(v, dtype=np.bool_)
    delta = np.zeros((v, v))
    for a in range(v):
        for b in range(a + 1, v):
            for j in range(n_classes):
                one[0, j] = g_counts[a, j] + g_counts[b, j]
            delta[a, b] = _cost_rows(one, lft, 1, buf)[0] - g_cost[a] - g_cost[b]
    best_total = total
    best_slot = slot.copy()
    n_groups = v
    while n_groups > 1:
        best_d = np.inf
        ba = -1
        bb = -1
        for a in range(v):
            if alive[a]:
                for b in range(a + 1, v):
                    if alive[b] and delta[a, b] < best_d - 1e-12:
                        best_d = delta[a, b]
                        ba = a
                        bb = b
        for j in range(n_classes):
            one[0, j] = g_counts[ba, j] + g_counts[bb, j]
        c = _cost_rows(one, lft, 1, buf)[0]
        total += (best_d + pc[n_groups - 1]) - pc[n_groups]
        for j in range(n_classes):
            g_counts[ba, j] = one[0, j]
        g_cost[ba] = c
        alive[bb] = False
        for i in range(v):
            if slot[i] == bb:
                slot[i] = ba
        n_groups -= 1
        for x in range(v):
            if alive[x] and x != ba:
                lo = min(x, ba)
                hi = max(x, ba)
                for j in range(n_classes):
                    one[0, j] = g_counts[lo, j] + g_counts[hi, j]
                delta[lo, hi] = _cost_rows(one, lft, 1, buf)[0] - g_cost[lo] - g_cost[hi]
        if total <= best_total + 1e-9:
            best_total = total
            best_slot = slot.copy()
    # labels = rank of the slot among the slots used
    rank = np.full(v, -1, dtype=np.int64)
    for i in range(v):
        rank[best_slot[i]] = 0
    k = 0
    for a in range(v):
        if rank[a] == 0:
            rank[a] = k
            k += 1
        else:
            rank[a] = -1
    labels = np.empty(v, dtype=np.int64)
    for i in range(v):
        labels[i] = rank[best_slot[i]]
    # single-value moves (_move_values)
    n_groups = k
    g_counts = np.zeros((n_groups, n_classes), dtype=np.int64)
    for i in range(v):
        for j in range(n_classes):
            g_counts[labels[i], j] += counts[i, j]
    targets = np.empty((n_groups, n_classes), dtype=np.int64)
    improved = True
    while improved and n_groups > 1:
        improved = False
        g_cost = _cost_rows(g_counts, lft, 0, buf)
        best = -1e-9
        bi = -1
        bt = -1
        for i in range(v):
            src = labels[i]
            tot = 0
            for j in range(n_classes):
                one[0, j] = g_counts[src, j] - counts[i, j]
                tot += one[0, j]
            if tot == 0:
                continue  # moving the last value would empty a group
            c_src = _cost_rows(one, lft, 1, buf)[0]
            for g in range(n_groups):
                for j in range(n_classes):
                    targets[g, j] = g_counts[g, j] + counts[i, j]
            c_t = _cost_rows(targets, lft, 0, buf)
            base = c_src - g_cost[src]
            t = -1
            dt = np.inf
            for g in range(n_groups):
                d = np.inf if g == src else base + (c_t[g] - g_cost[g])
                if t == -1 or d < dt:
                    t = g
                    dt = d
            if dt < best:
                best = dt
                bi = i
                bt = t
        if bi != -1:
            for j in range(n_classes):
                g_counts[labels[bi], j] -= counts[bi, j]
                g_counts[bt, j] += counts[bi, j]
            labels[bi] = bt
            improved = True
    return labels
