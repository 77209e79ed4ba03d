"""Khiops ≥ 10 MODL (SPEC §3.3): costs vs KHIOPS_NOTES reference numbers, brute force."""

import math

import numpy as np
import pytest

from repro.experiments.khiops_agreement import split, waveform
from repro.preprocessing.modl import criteria
from repro.preprocessing.modl import grouping as kgp
from repro.preprocessing.modl import khiops as mk
from repro.preprocessing.modl import paper as modl
from repro.preprocessing.modl.estimators import MODLDiscretizer, MODLGrouper
from repro.preprocessing.modl.sorted_list import SortedList


def test_universal_codes():
    assert criteria.log2_star(1) == 0.0
    assert criteria.log2_star(2) == pytest.approx(1.0)
    assert criteria.log2_star(16) == pytest.approx(4 + 2 + 1)
    assert criteria.c0_max(1) == 1.0
    assert criteria.c0_max(2) == pytest.approx(1.5)
    # the tail approximation continues the exact table smoothly
    exact = 1 + sum(2.0 ** -criteria._log2_star_raw(k) for k in range(2, 2101))
    assert criteria.c0_max(2100) == pytest.approx(exact, rel=1e-6)
    assert criteria.universal_code(1) == pytest.approx(math.log(2.86511))
    assert criteria.bounded_universal_code(1, 1) == pytest.approx(0.0)


def test_ln_bell_table_and_series():
    assert math.exp(criteria.ln_bell(5, 5)) == pytest.approx(52)
    assert math.exp(criteria.ln_bell(4, 2)) == pytest.approx(8)
    # series (n ≥ 100) vs exact log-space recurrence
    exact = criteria.log_bell(120)
    for k in (2, 10, 50, 120):
        assert criteria.ln_bell(120, k) == pytest.approx(exact[k], rel=1e-6)


def test_to_continuous_and_bounds():
    # mantissa × 10^-10 as in C: 3333333333 * 1e-10
    assert mk.to_continuous(np.array([1 / 3]))[0] == 3333333333 * 1e-10
    assert mk.to_continuous(np.array([-123456789.987654]))[0] == -123456790.0
    assert np.isnan(mk.to_continuous(np.array([np.nan]))[0])
    assert mk.human_readable_bound(101.7, 101.9) == pytest.approx(101.8)
    b = mk.human_readable_bound(0.1091, 0.11)
    assert b == pytest.approx(0.10955, rel=1e-12)  # the example of KHIOPS_NOTES §2.6


def test_compiled_human_readable_bounds_equal_the_reference():
    """human_readable_bounds (numba) against human_readable_bound (Python, above) on pairs of
    consecutive Khiops values at every scale, near powers of 10, signed zeros, subnormals and
    non-finite values: the same bits."""
    rng = np.random.default_rng(0)
    lows, highs = [], []
    for scale in (1e-310, 1e-300, 1e-20, 1e-3, 1.0, 10.0, 1e9, 1e10, 1e17, 1e300):
        a = mk.to_continuous(rng.normal(size=300) * scale)
        gap = np.abs(rng.normal(size=300)) * scale * rng.choice([1e-9, 1e-6, 1e-3, 1, 10], 300)
        lows.append(a)
        highs.append(mk.to_continuous(a + gap))
    lows.append(
        np.array([0.0, -1.0, 0.1, 9.9999999995, 99999.99999, -0.0, 1e-323, np.nan, -np.inf])
    )
    highs.append(np.array([1e-300, 0.0, 0.2, 10.0, 100000.0, 5e-324, 2e-323, 1.0, 0.0]))
    lows, highs = np.concatenate(lows), np.concatenate(highs)
    want = np.array([mk.human_readable_bound(a, b) for a, b in zip(lows.tolist(), highs.tolist())])
    got = mk.human_readable_bounds(lows, highs)
    assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
    assert got[-2:].tolist() == [-np.inf, -np.inf]


def test_quantile_partiles_ties_collapse():
    freqs = np.array([1, 1, 10, 1, 1])
    ends = mk.quantile_partiles(freqs, 4)
    assert ends[-1] == 4 and np.all(np.diff(ends) > 0)
    assert mk.quantile_partiles(np.ones(8, int), 4).tolist() == [1, 3, 5, 7]


def test_pure_merge_first_row_never_merges():
    rows = np.array([[2, 0], [3, 0], [1, 0], [0, 2], [1, 1]], float)
    assert mk.merge_pure_rows(rows).tolist() == [0, 2, 3, 4]


@pytest.fixture(scope="module")
def breast_cancer_split():
    return split("breast_cancer")


def test_reference_costs_breast_cancer(breast_cancer_split):
    """KHIOPS_NOTES §7: worst perimeter, level 0.646029, costs (4.09434, 23.1283, 66.9874)."""
    Xtr, _, ytr, _ = breast_cancer_split
    d = MODLDiscretizer("khiops", n_variables=30).fit(Xtr["worst perimeter"].to_numpy(), ytr)
    assert d.n_intervals_ == 3
    assert d.bounds_.tolist() == [101.8, 114.8]
    assert d.construction_cost_ == pytest.approx(4.09434, abs=1e-5)
    assert d.preparation_cost_ == pytest.approx(23.1283, abs=1e-4)
    assert d.data_cost_ == pytest.approx(66.9874, abs=1e-4)
    assert d.level_ == pytest.approx(0.646029, abs=1e-6)
    area = MODLDiscretizer("khiops", n_variables=30).fit(Xtr["worst area"].to_numpy(), ytr)
    assert area.n_intervals_ == 3 and area.granularity_ == 7


def test_null_cost_and_level_definition(breast_cancer_split):
    _, _, ytr, _ = breast_cancer_split
    counts = np.unique(ytr, return_counts=True)[1]
    n = counts.sum()
    null = math.log(2) + criteria.lbinom(n + 1, 1) + criteria.lf(n) - criteria.lf(counts).sum()
    assert criteria.null_cost(counts) == pytest.approx(null)
    assert criteria.level(null, null, 3) == 0.0
    assert criteria.level(0.5 * null, null, 1) == 0.0
    assert criteria.level(0.5 * null, null, 2) == pytest.approx(0.5)


def test_heuristic_vs_exact_dp_per_granularity():
    """At a fixed granularity the greedy heuristic is never below the exact optimum (DP), and
    reaches it on most random small tables (Khiops is not guaranteed optimal, KHIOPS_NOTES §2.4)."""
    rng = np.random.default_rng(3)
    hits = 0
    for _trial in range(40):
        n_rows, j = rng.integers(3, 14), rng.integers(2, 4)
        rows = rng.multinomial(rng.integers(2, 9), np.ones(j) / j, size=n_rows).astype(float)
        rows[rows.sum(axis=1) == 0, 0] = 1
        n = int(rows.sum())
        g = criteria.max_granularity(n)
        pc = criteria.discretization_partition_costs(n_rows, g, n, math.log(5))
        dp = modl.optimise_intervals(rows, pc, "optimal")
        heur = modl.optimise_intervals(rows, pc, "optimized_greedy")
        c_dp = criteria.partition_total_cost(rows, dp, pc)
        c_h = criteria.partition_total_cost(rows, heur, pc)
        assert c_h >= c_dp - 1e-9
        hits += c_h < c_dp + 1e-6
    assert hits >= 36


def test_small_grouping_is_exhaustive():
    """≤ 3 values: Khiops enumerates the 5 partitions; check against brute force."""
    rng = np.random.default_rng(5)
    for _ in range(10):
        counts = rng.multinomial(30, [0.3, 0.3, 0.4], size=3)
        rows = [tuple(int(v) for v in r) for r in counts]
        costs = criteria.GroupingCosts(3, 1, int(counts.sum()), 0.0, 3)
        _, table, garbage = kgp.small_source_number_group(rows, costs)
        assert garbage == 0
        cost = costs.global_cost([t.counts for t in table])
        best, _, _ = _brute_force(rows, costs, garbage=False)
        assert cost == pytest.approx(best)


def _brute_force(rows, costs, garbage=True):
    """Lowest Khiops cost over all the partitions of the rows (and, from 7 values and 3 groups,
    with the largest group as garbage group): (cost, sorted part counts, garbage size)."""
    v, n_classes = len(rows), len(rows[0])
    best = (math.inf, None, 0)
    for labels in modl.set_partitions(v):
        k = max(labels) + 1
        parts = [[0] * n_classes for _ in range(k)]
        sizes = [0] * k
        for row, lab in zip(rows, labels):
            parts[lab] = [a + b for a, b in zip(parts[lab], row)]
            sizes[lab] += 1
        options = [0] + ([max(sizes)] if garbage and v >= 7 and k >= 3 else [])
        for gb in options:
            cost = costs.global_cost(parts, gb)
            if cost < best[0]:
                best = (cost, sorted(tuple(p) for p in parts), gb)
    return best


# Tables (values × classes, by decreasing frequency) whose Khiops 11.0.1 grouping (one variable,
# A = 0) was checked once against the Khiops report: parts and Level.
THREE_CLASSES = [[2, 1, 33], [30, 2, 1], [28, 3, 2], [1, 30, 2], [3, 2, 27], [2, 25, 3]]
THREE_CLASSES_GARBAGE = [
    [40, 2, 2],
    [14, 14, 14],
    [2, 36, 3],
    [14, 13, 14],
    [13, 14, 14],
    [14, 14, 13],
    [13, 13, 14],
    [14, 13, 13],
    [13, 14, 13],
]
TWO_CLASSES_GARBAGE = [
    [45, 3],
    [4, 44],
    [21, 22],
    [21, 21],
    [22, 20],
    [20, 22],
    [21, 20],
    [20, 21],
    [20, 20],
]


@pytest.mark.parametrize(
    "table, granularity, garbage, level",
    [
        # MultipleClassesGroup (6 values): one group per majority class
        (THREE_CLASSES, 3, 0, 0.496),
        # MultipleClassesGroupWithGarbageSearch (9 values): the 7 mixed values in a garbage group
        (THREE_CLASSES_GARBAGE, 4, 7, 0.0940441),
        # TwoClassesGroup with the garbage-interval search: the mixed values in the garbage
        (TWO_CLASSES_GARBAGE, 4, 7, 0.104528),
    ],
)
def test_grouping_reaches_brute_force_optimum(table, granularity, garbage, level):
    """At the granularity where every value is kept, the Khiops heuristic finds the partition of
    lowest cost (enumerated over all set partitions, with or without garbage group), and the whole
    pipeline reports Khiops' Level (printed with 6 significant digits)."""
    rows = [tuple(r) for r in table]
    n = int(np.sum(table))
    assert len(kgp.quantile_groups([sum(r) for r in rows], 2**granularity)) == len(rows)
    costs = criteria.GroupingCosts(len(rows), granularity, n, 0.0, len(rows[0]))
    labels, target, gb = kgp.group_frequency_table(rows, costs, n)
    best_cost, best_parts, best_gb = _brute_force(rows, costs)
    assert sorted(tuple(t.counts) for t in target) == best_parts
    assert gb == best_gb == garbage
    assert costs.global_cost([t.counts for t in target], gb) == pytest.approx(best_cost)
    x = np.array([f"v{i}" for i, row in enumerate(table) for c in row for _ in range(c)])
    y = np.array([j for row in table for j, c in enumerate(row) for _ in range(c)])
    g = MODLGrouper("khiops", n_variables=1).fit(x, y, len(table[0]))
    assert sorted(tuple(int(v) for v in r) for r in g.counts_) == best_parts
    assert g.level_ == pytest.approx(level, abs=5e-7 * 10 ** math.ceil(math.log10(level)))


def test_khiops_sorted_list_ties():
    """Norm/base/SortedList: a key already present goes right after the first element of that key
    (order: first inserted, then newest to oldest); removing the first promotes the next."""
    sl = SortedList()
    for name, key in [("a", 1.0), ("b", 1.0), ("c", 0.5), ("d", 1.0), ("e", 2.0)]:
        sl.add(name, key)
    assert sl.items == ["c", "a", "d", "b", "e"]
    sl.remove("a")
    assert sl.items == ["c", "d", "b", "e"]
    sl.add("f", 1.0)
    assert sl.items == ["c", "d", "f", "b", "e"]
    assert sl.head() == "c" and sl.tail() == "e"


def test_grouping_partition_cost_with_garbage():
    """KWMODLGroupingCosts with a garbage group of Gb values (KHIOPS_NOTES §3.1): the census
    ``detailed_industry_recode`` case, Khiops' 3 groups with a garbage group of 13 values at
    g = 7 (V = 19, N = 4200, A = ln 41) has preparation cost 43.9459."""
    n, a = 4200, math.log(41)
    parts = np.array([[2158, 25], [1632, 175], [153, 57]], dtype=float)
    pc = criteria.grouping_partition_cost(3, 19, 7, n, a, garbage=13)
    data = sum(criteria.lf(r.sum()) - criteria.lf(r).sum() for r in parts)
    prep = pc + criteria.part_cost(parts).sum() - (math.log(2) + a) - data
    assert prep == pytest.approx(43.9459, abs=1e-4)
    # without garbage the same groups cost more
    assert criteria.grouping_partition_cost(3, 19, 7, n, a) > pc
    assert criteria.grouping_partition_costs(19, 7, n, a, garbage=13)[3] == pc


def test_grouper_khiops_default_group_and_missing():
    x = np.array(["a"] * 40 + ["b"] * 40 + ["c"] * 1 + [None] * 19, dtype=object)
    y = np.array([0] * 38 + [1] * 2 + [1] * 38 + [0] * 2 + [1] + [0] * 19)
    g = MODLGrouper("khiops").fit(x, y)
    assert g.informative_
    codes = g.transform(np.array(["a", "b", "zzz", None], dtype=object))
    assert codes[2] == g.default_group_
    assert codes[0] != codes[1]


@pytest.mark.parametrize("missing_class", [0, 1])
def test_discretizer_khiops_missing_first(missing_class):
    """Missing values sort first (below every number): with the class of the negative values
    they join the first interval (one cut near 0, no −inf bound); with the other class they
    form an interval of their own, bounded by −inf, before the negative and positive ones."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=300)
    y = (x > 0).astype(int)
    x[:40] = np.nan
    y[:40] = missing_class
    d = MODLDiscretizer("khiops").fit(x, y)
    assert d.informative_
    probe = np.array([np.nan, -2.0, -0.5, 0.5, 2.0])
    if missing_class == 0:
        assert d.bounds_.size == 1 and abs(d.bounds_[0]) < 0.05
        assert d.transform(probe).tolist() == [0, 0, 0, 1, 1]
    else:
        assert d.bounds_.size == 2 and np.isneginf(d.bounds_[0]) and abs(d.bounds_[1]) < 0.05
        assert d.transform(probe).tolist() == [0, 1, 1, 2, 2]


def test_compiled_helpers_match_reference():
    """Kernels of quantile partiles, pure-row merging and partition costs vs the Python loops."""
    rng = np.random.default_rng(21)
    for _ in range(40):
        m = int(rng.integers(2, 300))
        freqs = rng.integers(1, 6, m) * (rng.random(m) < 0.9) + 1
        for q in (2, 4, 16, 64, 256):
            np.testing.assert_array_equal(
                mk.quantile_partiles(freqs, q), mk.quantile_partiles_py(freqs, q)
            )
        rows = np.eye(3)[rng.integers(0, 3, m)] * rng.integers(1, 3, (m, 1))
        rows[rng.random(m) < 0.3] += 1
        np.testing.assert_array_equal(mk.merge_pure_rows(rows), mk.merge_pure_rows_py(rows))
    for n in (3, 100, 5000, 300_000):
        for g in range(0, criteria.max_granularity(n) + 1, 3):
            m = min(n, 2500)
            np.testing.assert_array_equal(
                criteria.discretization_partition_costs(m, g, n, math.log(7)),
                criteria.discretization_partition_costs_py(m, g, n, math.log(7)),
            )


def test_oracle_waveform_is_the_khiops_notes_sample():
    """KHIOPS_NOTES §8: class counts [1651, 1675, 1674]; the base waves are those of the
    catalog's generator (a relabelling), centred at 11, 15 and 7 for waves 1, 2, 3."""
    X, y = waveform()
    assert np.bincount(y).tolist() == [1651, 1675, 1674]
    assert X.shape == (5000, 21)
    # class 0 mixes the waves centred at 11 and 15 with u ~ U(0, 1): E[x_i] = (h_11(i) + h_15(i))/2
    i = np.arange(1, 22)
    expected = (np.maximum(6 - np.abs(i - 11), 0) + np.maximum(6 - np.abs(i - 15), 0)) / 2
    assert X[y == 0].mean().to_numpy() == pytest.approx(expected, abs=0.1)
