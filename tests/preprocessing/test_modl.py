"""MODL 2006/2005 criteria and optimisers (SPEC §3.1, §3.2): oracle values and brute force."""

import itertools

import numpy as np
import pytest

from repro.preprocessing.modl import criteria
from repro.preprocessing.modl import paper as modl
from repro.preprocessing.modl.estimators import MODLDiscretizer, MODLGrouper
from repro.preprocessing.modl.sorted_list import SortedList


def rows_of(labels, n_classes=2):
    return np.eye(n_classes)[[int(c) for c in labels]]


def test_discretization_cost_oracles():
    assert criteria.discretization_cost_2006([[3, 0], [0, 3]]) == pytest.approx(
        6.510258340523146, abs=1e-12
    )
    assert criteria.discretization_cost_2006([[3, 3]]) == pytest.approx(
        6.733401891837358, abs=1e-12
    )
    assert criteria.discretization_cost_2006([[3, 3, 4]]) == pytest.approx(
        14.83507963929193, abs=1e-12
    )
    assert criteria.discretization_cost_2006([[3, 0, 0], [0, 3, 4]]) == pytest.approx(
        14.141932458731986, abs=1e-12
    )
    assert criteria.discretization_cost_2006([[6, 2]]) == pytest.approx(
        7.608870629191257, abs=1e-12
    )


def test_grouping_cost_oracles():
    assert criteria.grouping_cost_2005([[10, 10]], 4) == pytest.approx(16.55760811344577, abs=1e-12)
    assert criteria.grouping_cost_2005([[9, 1], [1, 9]], 4) == pytest.approx(
        12.866696634384564, abs=1e-12
    )


def test_log_bell_matches_bell_numbers():
    bell = [1, 1, 2, 5, 15, 52, 203, 877]
    for v in range(1, 8):
        assert np.exp(criteria.log_bell(v)[v]) == pytest.approx(bell[v], rel=1e-12)
    # B(4, 2) = S(4,1) + S(4,2) = 1 + 7
    assert np.exp(criteria.log_bell(4)[2]) == pytest.approx(8.0)
    # the enumeration of the partitions (the brute force below): B(v) distinct ones
    for v in range(1, 8):
        labels = {tuple(lab) for lab in modl.set_partitions(v)}
        assert len(labels) == bell[v]
        assert all(lab[0] == 0 and max(lab) < len(set(lab)) for lab in labels)


@pytest.mark.parametrize("algorithm", modl.ALGORITHMS)
def test_oracle_partitions(algorithm):
    y = "0001121222"
    pc = criteria.discretization_partition_cost_2006(10, 10)
    ends = modl.optimise_intervals(rows_of(y, 3), pc, algorithm)
    assert criteria.partition_total_cost(rows_of(y, 3), ends, pc) == pytest.approx(
        14.141932458731986
    )
    y = "000111"
    pc = criteria.discretization_partition_cost_2006(6, 6)
    assert modl.optimise_intervals(rows_of(y), pc, algorithm) == [2, 5]


def test_best_merge_is_essential():
    """Plain greedy (strict decrease) stops at 9.757 on 00011000; optimised greedy: 7.609."""
    y = "00011000"
    rows, pc = rows_of(y), criteria.discretization_partition_cost_2006(8, 8)
    assert criteria.partition_total_cost(rows, [2, 4, 7], pc) == pytest.approx(9.757305042358047)
    strict = modl.greedy_merge(rows, pc, best_merge=False, strict=True)
    assert criteria.partition_total_cost(rows, strict, pc) == pytest.approx(9.757305042358047)
    best = modl.optimise_intervals(rows, pc, "optimized_greedy")
    assert best == [7]
    assert criteria.partition_total_cost(rows, best, pc) == pytest.approx(7.608870629191257)


def brute_force(rows, pc):
    n = rows.shape[0]
    best = (np.inf, None)
    for k in range(n):
        for cuts in itertools.combinations(range(n - 1), k):
            ends = list(cuts) + [n - 1]
            c = criteria.partition_total_cost(rows, ends, pc)
            if c < best[0] - 1e-9:
                best = (c, ends)
    return best


def test_dp_equals_enumeration_and_heuristic_close():
    rng = np.random.default_rng(0)
    gaps = []
    for _ in range(40):
        n, j = rng.integers(2, 10), rng.integers(2, 4)
        rows = rng.multinomial(rng.integers(1, 6), np.ones(j) / j, size=n).astype(float)
        rows[rows.sum(axis=1) == 0, 0] = 1
        pc = criteria.discretization_partition_cost_2006(int(rows.sum()), n)
        best_cost, _ = brute_force(rows, pc)
        dp = modl.optimise_intervals(rows, pc, "optimal")
        assert criteria.partition_total_cost(rows, dp, pc) == pytest.approx(best_cost, abs=1e-9)
        heur = modl.optimise_intervals(rows, pc, "optimized_greedy")
        gaps.append(criteria.partition_total_cost(rows, heur, pc) - best_cost)
    gaps = np.array(gaps)
    assert (gaps >= -1e-9).all()
    # the heuristic finds the optimum on the vast majority of small cases
    assert (gaps < 1e-6).mean() >= 0.9


def test_grouping_heuristic_vs_enumeration():
    rng = np.random.default_rng(1)
    for _ in range(15):
        v, j = rng.integers(2, 7), rng.integers(2, 4)
        counts = rng.multinomial(8, np.ones(j) / j, size=v).astype(float)
        pc = criteria.grouping_partition_cost_2005(v)
        best = np.inf
        for labels in modl.set_partitions(v):
            k = max(labels) + 1
            g = np.zeros((k, j))
            np.add.at(g, labels, counts)
            best = min(best, pc[k] + criteria.part_cost(g).sum())
        labels = modl.greedy_grouping(counts, pc)
        k = labels.max() + 1
        g = np.zeros((k, j))
        np.add.at(g, labels, counts)
        assert pc[k] + criteria.part_cost(g).sum() <= best + 0.5  # heuristic: close to the optimum
        assert pc[k] + criteria.part_cost(g).sum() >= best - 1e-9


def test_khiops_sorted_list_tie_rule():
    s = SortedList()
    for item in "abcd":
        s.add(item, 1.0)
    s.add("z", 0.5)
    assert s.head() == "z"
    s.remove("z")
    assert s.head() == "a"  # first inserted heads its tie group
    s.remove("a")
    assert s.head() == "d"  # then the newest
    s.remove("c")
    s.remove("d")
    assert s.head() == "b"


def test_discretizer_paper_basic():
    x = np.array([1.0, 2, 3, 4, 5, 6, np.nan])
    y = np.array([0, 0, 0, 1, 1, 1, 0])
    d = MODLDiscretizer().fit(x, y)
    assert d.n_intervals_ == 2 and d.bounds_.tolist() == [3.5]
    assert d.level_ > 0 and d.informative_
    assert d.transform(np.array([3.0, 3.5, 3.6, np.nan])).tolist() == [0, 0, 1, 0]
    assert d.counts_.sum() == 7
    flat = MODLDiscretizer().fit(np.arange(8.0), np.array([0, 1] * 4))
    assert not flat.informative_ and flat.level_ == 0 and flat.bounds_.size == 0


def test_grouper_paper_oracle_and_unseen():
    x = ["a"] * 5 + ["b"] * 5 + ["c"] * 5 + ["d"] * 5
    y = [0] * 5 + [0] * 4 + [1] + [1] * 5 + [1] * 4 + [0]
    g = MODLGrouper().fit(np.array(x, dtype=object), np.array(y))
    assert sorted(map(sorted, g.groups_)) == [["a", "b"], ["c", "d"]]
    assert g.cost_ == pytest.approx(12.866696634384564)
    assert g.null_cost_ == pytest.approx(16.55760811344577)
    codes = g.transform(np.array(["a", "c", "zzz"], dtype=object))
    assert codes[0] != codes[1] and 0 <= codes[2] < 2


def test_invalid_parameters():
    with pytest.raises(ValueError, match="variant"):
        MODLDiscretizer(variant="nope").fit([1.0, 2.0], [0, 1])
    with pytest.raises(ValueError, match="algorithm"):
        MODLDiscretizer(algorithm="nope").fit([1.0, 2.0], [0, 1])


# ---------------------------------------------------------------------------------------------
# Compiled optimisers (repro.preprocessing.modl.kernels) vs the pure-Python references: identical
# partitions, including on tie-heavy tables (Khiops' sorted-list tie rule) and with max_parts
# ---------------------------------------------------------------------------------------------
def _random_tables(seed, count):
    rng = np.random.default_rng(seed)
    for t in range(count):
        n_rows, j = int(rng.integers(2, 70)), int(rng.integers(2, 5))
        kind = t % 3
        if kind == 0:  # random small counts
            rows = rng.multinomial(int(rng.integers(1, 5)), np.ones(j) / j, size=n_rows)
        elif kind == 1:  # pure rows in runs: many equal merge deltas
            rows = np.eye(j, dtype=int)[np.repeat(rng.integers(0, j, n_rows), 3)[:n_rows]]
        else:  # a few distinct rows repeated: ties everywhere
            rows = rng.multinomial(2, np.ones(j) / j, size=3)[rng.integers(0, 3, n_rows)]
        rows = rows.astype(float)
        rows[rows.sum(axis=1) == 0, 0] = 1
        yield rows


def test_compiled_greedy_and_post_optimisation_match_reference():
    for rows in _random_tables(11, 90):
        pc = criteria.discretization_partition_cost_2006(int(rows.sum()), rows.shape[0])
        for max_parts in (0, 2):
            for best_merge, strict in ((True, False), (False, True), (False, False)):
                args = (rows, pc, max_parts, best_merge, strict)
                ref = modl.greedy_merge(*args, reference=True)
                assert modl.greedy_merge(*args) == ref
            ends = modl.greedy_merge(rows, pc, max_parts, True, False, reference=True)
            # start the post-optimisation from a poor partition too (many moves)
            poor = list(range(0, rows.shape[0] - 1, 3)) + [rows.shape[0] - 1]
            for start in (ends, poor):
                ref = modl.post_optimise(rows, start, pc, max_parts, reference=True)
                assert modl.post_optimise(rows, start, pc, max_parts) == ref


def test_compiled_grouping_matches_reference():
    rng = np.random.default_rng(12)
    for _ in range(30):
        v, j = int(rng.integers(2, 25)), int(rng.integers(3, 5))
        counts = rng.multinomial(int(rng.integers(2, 12)), np.ones(j) / j, size=v).astype(float)
        counts[counts.sum(axis=1) == 0, 0] = 1
        pc = criteria.grouping_partition_cost_2005(v)
        np.testing.assert_array_equal(
            modl.greedy_grouping(counts, pc), modl.greedy_grouping(counts, pc, reference=True)
        )


def test_non_integer_rows_use_the_reference():
    rows = np.array([[0.5, 1.0], [2.0, 0.0], [0.0, 3.0]])
    pc = criteria.discretization_partition_cost_2006(7, 3)
    assert modl.greedy_merge(rows, pc) == modl.greedy_merge(rows, pc, reference=True)


def test_cached_2006_partition_costs_are_the_values_computed_alone():
    """pc of the 2006 criterion read from the per-N table = the vector computed for its size
    (bit for bit), and the reference formula ln N + ln C(N+I−1, I−1)."""
    import math

    from repro.preprocessing.modl.criteria import discretization_partition_cost_2006

    for n in (1, 2, 7, 150, 4000):
        for m in sorted({1, 2, min(n, 3), n // 2 + 1, n}):
            pc = discretization_partition_cost_2006(n, m)
            i = np.arange(m + 1, dtype=np.float64)
            alone = np.log(n) + criteria.lbinom(n + i - 1, i - 1)
            alone[0] = np.inf
            np.testing.assert_array_equal(pc, alone)
            for k in range(1, m + 1):
                exact = math.log(n) + math.lgamma(n + k) - math.lgamma(k) - math.lgamma(n + 1)
                assert pc[k] == pytest.approx(exact, rel=1e-12, abs=1e-12)
    # beyond N rows (not a discretization of N instances): computed directly
    assert discretization_partition_cost_2006(3, 5).shape == (6,)
