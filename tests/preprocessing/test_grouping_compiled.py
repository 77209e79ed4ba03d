"""The compiled Khiops grouping (:mod:`repro.preprocessing.modl.grouping_kernels`) against its
Python reference, bit for bit (issue 29).

The Python implementation (``engine="python"``) is the oracle: on random tables (two classes and
several, few and many values, rare values that bring the garbage group, duplicated rows that tie
the merge deltas) the compiled path must give the same groups, the same granularity and the same
cost to the last bit, and each compiled step (two-class grouping, group merges, value moves,
forced merge, partition costs) the same output as the Python step it replaces. The agreement of
both with Khiops itself is ``test_khiops_grouping_oracle.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from repro.preprocessing.modl import grouping_kernels as gk
from repro.preprocessing.modl.criteria import GroupingCosts, NullCosts
from repro.preprocessing.modl.grouping import group_values
from repro.preprocessing.modl.grouping_multi_class import Group, build_groups, merge_groups
from repro.preprocessing.modl.grouping_post_optimisation import (
    force_best_group_merge,
    post_optimise_groups,
)
from repro.preprocessing.modl.grouping_two_class import two_class_group


def value_table(rng, n_values, n_classes, n, rare=False, dup=False):
    """Class counts of a nominal variable (rows sorted by decreasing frequency, as the grouping
    takes them): Zipf-like frequencies (``rare``: a few frequent values and many seen 1–3 times),
    a class distribution per value; ``dup``: the rows repeat a few patterns (tied deltas)."""
    if rare:
        n_freq = int(rng.integers(2, 8))
        freq = np.concatenate(
            [rng.uniform(5, 20, n_freq), rng.uniform(0.3, 1.0, n_values - n_freq)]
        )
    else:
        freq = 1.0 / np.arange(1, n_values + 1) ** rng.uniform(0.3, 2.0)
    freq /= freq.sum()
    x = rng.choice(n_values, n, p=freq)
    p = rng.dirichlet(np.full(n_classes, rng.uniform(0.2, 3.0)), n_values)
    y = (rng.random(n)[:, None] < p[x].cumsum(axis=1)).argmax(axis=1)
    counts = np.zeros((n_values, n_classes))
    np.add.at(counts, (x, y), 1.0)
    if dup:
        patterns = counts[rng.integers(0, n_values, 4)]
        counts = patterns[rng.integers(0, 4, n_values)]
    counts = counts[counts.sum(axis=1) > 0]
    return counts[np.argsort(-counts.sum(axis=1), kind="stable")]


def assert_same_grouping(counts, attribute_cost):
    ref = group_values(counts, attribute_cost, engine="python")
    new = group_values(counts, attribute_cost, engine="numba")
    np.testing.assert_array_equal(new[0], ref[0])
    assert new[1] == ref[1]
    assert new[2] == ref[2]  # bit-identical cost
    np.testing.assert_array_equal(new[3], ref[3])
    return ref


def n_groups(result) -> int:
    return int(result[0].max()) + 1


# ---------------------------------------------------------------------------------------------
# known answers
# ---------------------------------------------------------------------------------------------
def test_known_groups_both_engines():
    """Values of two clear class profiles form two groups; values of one profile, one group."""
    rows = [[400, 10], [10, 400], [380, 12], [11, 390], [395, 9], [12, 405], [390, 11]]
    counts = np.array(sorted(rows, key=lambda r: -sum(r)), dtype=float)
    for engine in ("numba", "python"):
        labels, _, _, _ = group_values(counts, 0.0, engine=engine)
        first = counts[:, 0] > counts[:, 1]
        assert len(set(labels[first])) == 1 and len(set(labels[~first])) == 1
        assert labels[first][0] != labels[~first][0]
    same = np.array([[100, 100, 100]] * 8, dtype=float)
    for engine in ("numba", "python"):
        labels, _, _, _ = group_values(same, 0.0, engine=engine)
        assert (labels == 0).all()


def test_engine_switch_restores_and_rejects():
    assert gk.compiled()
    with gk.engine("python"):
        assert not gk.compiled()
    assert gk.compiled()
    with pytest.raises(ValueError):
        group_values(np.ones((3, 2)), 0.0, engine="fortran")


@pytest.mark.parametrize("v", [3, 8, 99, 100, 150, 700, 2100])
def test_partition_costs_bit_identical(v):
    """pc(I, Gb) and its delta as the kernels compute them (Bell table below 100, series beyond;
    C0Max tail beyond 2000) equal GroupingCosts' to the last bit."""
    costs = GroupingCosts(v, 3, 10 * v + 7, 1.7, 3)
    parts, garbage = [], []
    for i in range(1, v + 1, max(1, v // 30)):
        for gb in [0, *range(1, v, max(1, v // 10))]:
            if (gb == 0 and i <= v) or (gb > 0 and 3 <= i - 1 <= v - gb):
                parts.append(i)
                garbage.append(gb)
    pc, pd = gk.partition_costs_kernel(np.array(parts), np.array(garbage), *gk.cost_args(costs))
    for k, (i, gb) in enumerate(zip(parts, garbage)):
        assert pc[k] == costs.partition_cost(i, gb)
        if i >= 2:
            assert pd[k] == costs.partition_delta(i, gb)


# ---------------------------------------------------------------------------------------------
# whole grouping, random tables
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_two_classes_random(seed):
    rng = np.random.default_rng(seed)
    n_values = int(rng.integers(2, 120)) if seed % 4 else int(rng.integers(200, 400))
    n = int(rng.integers(30, 20000))
    counts = value_table(rng, n_values, 2, n, rare=seed % 3 == 1, dup=seed % 5 == 2)
    assert_same_grouping(counts, float(rng.uniform(0, 4)))


@pytest.mark.parametrize("seed", range(10))
def test_several_classes_random(seed):
    rng = np.random.default_rng(100 + seed)
    n_classes = int(rng.integers(3, 7))
    n_values = int(rng.integers(2, 60)) if seed % 3 else int(rng.integers(60, 150))
    n = int(rng.integers(30, 8000))
    counts = value_table(rng, n_values, n_classes, n, rare=seed % 2 == 1, dup=seed % 4 == 3)
    assert_same_grouping(counts, float(rng.uniform(0, 4)))


def rare_values_table(rng, n_classes, n):
    """Class counts of 60–80 values, 2–7 frequent and the others seen 1–3 times, the value
    depending on the class (as the rare-value cases of the Khiops oracle test)."""
    y = rng.choice(n_classes, size=n, p=rng.dirichlet(np.full(n_classes, 2.0)))
    n_values = int(rng.integers(60, 81))
    n_frequent = int(rng.integers(2, 8))
    rare = rng.uniform(1.5, 3.5, n_values - n_frequent) / n
    rare *= min(1.0, 0.7 / rare.sum())
    frequent = rng.uniform(1.0, 5.0, n_frequent)
    frequent *= (1.0 - rare.sum()) / frequent.sum()
    freq = np.concatenate([frequent, rare])
    tilt = rng.normal(0.0, rng.uniform(0.5, 2.0), size=(n_classes, freq.size))
    probs = freq * np.exp(tilt)
    probs /= probs.sum(axis=1, keepdims=True)
    x = (rng.random(n)[:, None] < probs[y].cumsum(axis=1)).argmax(axis=1)
    counts = np.zeros((freq.size, n_classes), dtype=np.int64)
    np.add.at(counts, (x, y), 1)
    counts = counts[counts.sum(axis=1) > 0]
    return counts[np.argsort(-counts.sum(axis=1), kind="stable")]


#: (classes, seed) of rare-value tables whose best grouping (granularity 0) has a garbage group
GARBAGE_CASES = [(2, 4), (2, 15), (3, 2), (3, 4), (5, 8), (5, 18)]


@pytest.mark.parametrize("n_classes, seed", GARBAGE_CASES)
def test_garbage_group_cases(n_classes, seed):
    """Rare-value variables where the partition with a garbage group wins (two classes: the
    garbage interval; several: the garbage search of the groups): both engines keep it, with the
    same groups; the whole grouping agrees too."""
    rng = np.random.default_rng(seed)
    counts = rare_values_table(rng, n_classes, int(rng.integers(150, 700)))
    costs = GroupingCosts(len(counts), 0, int(counts.sum()), 0.0, n_classes)
    rows = [tuple(r) for r in counts.tolist()]
    with gk.engine("python"):
        ref = _table_grouping(rows, costs)
    assert ref[2] > 0  # a garbage group
    assert _table_grouping(rows, costs) == ref
    assert_same_grouping(counts.astype(float), 1.0)


def _table_grouping(rows, costs):
    from repro.preprocessing.modl.grouping import group_frequency_table

    labels, target, garbage = group_frequency_table(rows, costs, costs.n_instances)
    return list(labels), [list(g.counts) for g in target], garbage


# ---------------------------------------------------------------------------------------------
# the compiled steps one by one
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_two_class_group_step(seed):
    """Two-class grouping of unsorted rows with several values per row, with the partition cost
    and without (NullCosts, as BuildReliableSubGroups runs it), ties included."""
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(2, 250))
    rows = [(int(a), int(b)) for a, b in rng.poisson(rng.choice([1, 3, 20]), (n, 2))]
    rows = [r if sum(r) else (0, 1) for r in rows]
    if seed % 2:
        rows = [rows[i] for i in rng.integers(0, max(1, n // 6), n)]  # repeated rows: ties
    mods = [int(m) for m in rng.integers(1, 3, n)]
    total = sum(map(sum, rows))
    for costs in (NullCosts(total), GroupingCosts(sum(mods), 2, total, 1.3, 2)):
        with gk.engine("python"):
            ref = two_class_group(rows, mods, costs)
        assert two_class_group(rows, mods, costs) == ref


def _groups(rng, n, n_classes, dup=False):
    counts = rng.poisson(rng.uniform(0.5, 6), (n, n_classes))
    counts[:, 0] += 1
    if dup:
        counts = counts[rng.integers(0, max(1, n // 4), n)]
    mods = rng.integers(1, 4, n)
    return counts, mods


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("garbage_search", [False, True])
def test_merge_groups_step(seed, garbage_search):
    """Greedy merges of any two groups (all the way and down to a given number), tied deltas
    from repeated groups included."""
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(2, 90))
    counts, mods = _groups(rng, n, int(rng.integers(2, 6)), dup=seed % 2 == 1)
    costs = GroupingCosts(int(mods.sum()), 4, int(counts.sum()), 0.7, counts.shape[1])
    rows = [Group(c, int(m)) for c, m in zip(counts.tolist(), mods.tolist())]
    for n_exact in (0, max(1, n // 3)):
        out = {}
        for engine in ("python", "numba"):
            groups = build_groups(rows, costs)
            with gk.engine(engine):
                n_opt, n_opt_g, new, iv = merge_groups(n_exact, groups, None, costs, garbage_search)
            out[engine] = (n_opt, n_opt_g, [(g.counts, g.mod, g.cost) for g in new], iv)
        assert out["numba"] == out["python"]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("garbage_search", [False, True])
def test_post_optimise_groups_and_forced_merge_steps(seed, garbage_search):
    """Moves of single values between groups (groups and assignment updated in place, empty
    groups dropped) and the forced best merge."""
    rng = np.random.default_rng(400 + seed)
    n_mod = int(rng.integers(4, 120))
    n_classes = int(rng.integers(2, 6))
    src_counts, src_mods = _groups(rng, n_mod, n_classes, dup=seed % 2 == 0)
    n_groups = int(rng.integers(2, min(n_mod, 12) + 1))
    iv0 = rng.integers(0, n_groups, n_mod)
    iv0[:n_groups] = np.arange(n_groups)
    costs = GroupingCosts(int(src_mods.sum()), 2, int(src_counts.sum()), 0.4, n_classes)
    source = [Group(c, int(m)) for c, m in zip(src_counts.tolist(), src_mods.tolist())]
    out = {}
    for engine in ("python", "numba"):
        groups = []
        for g in range(n_groups):
            members = iv0 == g
            groups.append(
                Group(src_counts[members].sum(axis=0).tolist(), int(src_mods[members].sum()))
            )
        iv = iv0.tolist()
        with gk.engine(engine):
            kept = post_optimise_groups(source, groups, iv, costs, garbage_search)
            iv_merge = list(iv)
            merged = (
                force_best_group_merge(kept, iv_merge, costs, garbage_search)
                if len(kept) > 1
                else []
            )
        out[engine] = (
            [(g.counts, g.mod) for g in kept],
            iv,
            [(g.counts, g.mod) for g in merged],
            iv_merge,
        )
    assert out["numba"] == out["python"]
