"""Khiops' MODL partition costs and Level by hand (repro.preprocessing.modl.criteria): universal
codes, the discretization and grouping prior tables at their edges (V = 1 or 2 values, a garbage
group), and the Level's guards. Each expected value is computed here from the formulas of
KHIOPS_NOTES with exact integers where there are some (Stirling numbers, ln k!)."""

import math

import numpy as np
import pytest

from repro.preprocessing.modl import criteria

LN2 = math.log(2)


def log2_star(n: int) -> float:
    """Σ_{j≥1} of the positive iterates log2(log2(…(n)))."""
    total, x = 0.0, math.log2(n)
    while x > 0:
        total, x = total + x, math.log2(x)
    return total


def c0_max(m: int) -> float:
    return sum(2.0 ** -log2_star(k) for k in range(1, m + 1))


def bounded_code(n: int, m: int) -> float:
    """L_B(n; M) = ln C0Max(M) + ln2·log2*(n)."""
    return math.log(c0_max(m)) + LN2 * log2_star(n)


def ln_bell(v: int, k: int) -> float:
    """ln Σ_{j≤k} S(v, j), Stirling numbers of the second kind by their recurrence."""
    s = [[0] * (v + 1) for _ in range(v + 1)]
    s[0][0] = 1
    for n in range(1, v + 1):
        for j in range(1, n + 1):
            s[n][j] = j * s[n - 1][j] + s[n - 1][j - 1]
    return math.log(sum(s[v][j] for j in range(1, k + 1)))


def test_universal_code_of_two_and_sixteen():
    # log2*(2) = 1, log2*(16) = 4 + 2 + 1
    assert criteria.universal_code(2) == pytest.approx(math.log(2.86511) + LN2)
    assert criteria.universal_code(16) == pytest.approx(math.log(2.86511) + 7 * LN2)
    assert criteria.bounded_universal_code(3, 6) == pytest.approx(bounded_code(3, 6))


@pytest.mark.parametrize("costs", [criteria.discretization_partition_costs_py,
                                   criteria.discretization_partition_costs])  # fmt: skip
def test_discretization_prior_with_one_and_two_values(costs):
    a = math.log(3)
    # N = 1, g = 0: V = 1, no second part possible
    np.testing.assert_array_equal(costs(3, 0, 1, a), [np.inf, LN2, np.inf, np.inf])
    # g = 1, N = 50: V = min(2, 50) = 2, G = ⌈log2 50⌉ = 6; pc[I] = ln2 + A + L_B(1; 6)
    # + L_B(I − 1; 1) + (I − 1)·ln 1 − ln (I − 1)!, L_B(I − 1; 1) = ln2·log2*(I − 1)
    base = LN2 + a + bounded_code(1, 6)
    expected = [np.inf, LN2] + [base + LN2 * log2_star(i - 1) - math.lgamma(i) for i in range(2, 5)]
    np.testing.assert_allclose(costs(4, 1, 50, a), expected, rtol=1e-12)
    assert expected[2] == pytest.approx(base) and expected[3] == pytest.approx(base)


def test_grouping_prior_table_without_garbage():
    # V = 4 values, g = 0, N = 20: pc[I] = ln2 + A + L_B(I − 1; 3) + ln B(4, I), I ≥ 2
    a = math.log(3)
    expected = [np.inf, LN2] + [LN2 + a + bounded_code(i - 1, 3) + ln_bell(4, i) for i in (2, 3, 4)]
    got = criteria.grouping_partition_costs(4, 0, 20, a)
    assert got.shape == (5,)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert [round(math.exp(ln_bell(4, i))) for i in (1, 2, 3, 4)] == [1, 8, 14, 15]
    # V = 8 > 7 values: one more ln2 (the garbage bit); g = 2 of G = ⌈log2 100⌉ = 7: L_B(2; 7)
    expected = [np.inf, LN2] + [
        2 * LN2 + a + bounded_code(2, 7) + bounded_code(i - 1, 7) + ln_bell(8, i)
        for i in range(2, 9)
    ]
    np.testing.assert_allclose(
        criteria.grouping_partition_costs(8, 2, 100, a), expected, rtol=1e-12
    )


def test_grouping_prior_table_with_a_garbage_group():
    """V = 10 values, a garbage group of 3: the informative groups number Ii = I − 1 ≥ 2 of
    the Vi = 7 informative values, so I runs over 3..8; every other I is impossible."""
    a = math.log(5)
    got = criteria.grouping_partition_costs(10, 2, 100, a, garbage=3)
    assert got.shape == (11,)
    finite = np.flatnonzero(np.isfinite(got)).tolist()
    assert finite == [3, 4, 5, 6, 7, 8]
    for i in finite:
        ii = i - 1  # L_B(g; G) + ln2 (V > 7) + L_B(Vi − 1; V − 2) + ln(V^Vi / Vi!) + …
        expected = (
            LN2 + a + bounded_code(2, 7) + LN2 + bounded_code(6, 8)
            + 7 * math.log(10) - math.log(math.factorial(7))
            + bounded_code(ii - 1, 6) + ln_bell(7, ii)
        )  # fmt: skip
        assert got[i] == pytest.approx(expected, rel=1e-12), i
        assert got[i] == criteria.grouping_partition_cost(i, 10, 2, 100, a, garbage=3)


def test_level_guards():
    # Level = 1 − cost/null
    assert criteria.level(0.1, 0.5, 3) == pytest.approx(0.8)
    assert criteria.level(3.0, 4.0, 2) == pytest.approx(0.25)
    # no null cost to compare with, one part, or a Level under 1e-10: 0
    assert criteria.level(1.0, 0.0, 3) == 0.0
    assert criteria.level(1.0, -1.0, 3) == 0.0
    assert criteria.level(0.1, 0.5, 1) == 0.0
    assert criteria.level(1.0, 1.0 + 5e-11, 3) == 0.0
    assert criteria.level(1.0, 1.0 + 2e-10, 3) == pytest.approx(2e-10, rel=1e-3)
    assert criteria.level(2.0, 1.0, 3) == 0.0  # worse than the null model


def test_stirling_and_bell_tables_exactly():
    table = criteria.log_stirling2_table(4)
    assert table.shape == (5, 5)
    stirling = [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 1, 3, 1, 0], [0, 1, 7, 6, 1]]
    np.testing.assert_allclose(np.exp(table), stirling, atol=1e-12)
    bell = criteria.log_bell(4)
    assert bell.shape == (5,) and bell[0] == -np.inf
    np.testing.assert_allclose(np.exp(bell[1:]), [1, 8, 14, 15], rtol=1e-12)
    np.testing.assert_array_equal(criteria.log_bell(1), [-np.inf, 0.0])
    np.testing.assert_array_equal(criteria.log_bell(0), [0.0])  # B(0, 0) = 1
    # the 2005 prior: pc[I] = ln V + ln B(V, I), pc[0] = +inf
    np.testing.assert_array_equal(criteria.grouping_partition_cost_2005(0), [np.inf])
    np.testing.assert_array_equal(criteria.grouping_partition_cost_2005(1), [np.inf, 0.0])
    np.testing.assert_allclose(
        criteria.grouping_partition_cost_2005(4),
        [np.inf] + [math.log(4) + math.log(b) for b in (1, 8, 14, 15)],
        rtol=1e-12,
    )


def test_uncached_tables():
    """The functions behind the cached tables, called for sizes no cache holds."""
    # log2* of each n: the table below 2000, the compiled loop beyond
    n = np.array([1, 2, 3, 16, 1999, 2000, 2001, 70_000])
    np.testing.assert_allclose(criteria.log2_star_array(n), [log2_star(k) for k in n], rtol=1e-12)
    np.testing.assert_allclose(criteria.log2_star_array([5]), [log2_star(5)], rtol=1e-12)
    # lgamma(k), k = 0..5
    expected = [np.inf, 0.0, 0.0, math.log(2), math.log(6), math.log(24)]
    np.testing.assert_allclose(criteria._lgamma_table(6), expected, rtol=1e-12)
    # the 2006 prior ln N + ln C(N + I − 1, I − 1) beyond n_rows = N (not the cached table)
    pc = criteria.discretization_partition_cost_2006(5, 7)
    binomials = [1, 6, 21, 56, 126, 252, 462]  # C(5 + I − 1, I − 1), I = 1..7
    np.testing.assert_allclose(pc, [np.inf] + [math.log(5 * b) for b in binomials], rtol=1e-12)
    np.testing.assert_allclose(criteria._partition_cost_2006(5, 3), pc[:4], rtol=1e-12)
    # Khiops' discretization prior beyond n_parts_max = N: g = 2, N = 3: V = min(4, 3) = 3,
    # G = 2; pc[I] = ln2 + A + L_B(2; 2) + L_B(I − 1; 2) + (I − 1)·ln 2 − ln (I − 1)!
    a = math.log(7)
    pc = criteria.discretization_partition_costs(5, 2, 3, a)
    expected = [np.inf, LN2] + [
        LN2 + a + bounded_code(2, 2) + bounded_code(i - 1, 2) + (i - 1) * LN2 - math.lgamma(i)
        for i in range(2, 6)
    ]
    np.testing.assert_allclose(pc, expected, rtol=1e-12)
    np.testing.assert_allclose(
        criteria._discretization_partition_costs(4, 2, 10, a),
        [np.inf, LN2] + [
            LN2 + a + bounded_code(2, 4) + bounded_code(i - 1, 3) + (i - 1) * math.log(3)
            - math.lgamma(i)
            for i in range(2, 5)
        ],
        rtol=1e-12,
    )  # fmt: skip


def test_bell_series_small_cases_and_grouping_cost_objects():
    # the series' exact small cases: B(1, 1) = 1, B(2, k) = 2 for k ≥ 2 (ln k as Khiops writes)
    assert criteria._ln_bell_series(1, 1) == 0.0
    assert criteria._ln_bell_series(2, 2) == pytest.approx(LN2)
    a = math.log(5)
    costs = criteria.GroupingCosts(10, 2, 100, a, 2)
    # after merging two of 5 parts into one of 3 values, the garbage is the largest part: 4
    assert costs.merged_garbage_cost(5, 4, 3) == criteria.grouping_partition_cost(
        4, 10, 2, 100, a, 4
    )
    assert costs.merged_garbage_cost(5, 2, 6) == criteria.grouping_partition_cost(
        4, 10, 2, 100, a, 6
    )
    # the delta as Khiops computes it is pc(I − 1) − pc(I)
    for i in (2, 3, 5):
        expected = criteria.grouping_partition_cost(i - 1, 10, 2, 100, a) - (
            criteria.grouping_partition_cost(i, 10, 2, 100, a)
        )
        assert costs.partition_delta(i) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    # part cost ln (n + J − 1)! − ln (J − 1)! − Σ ln n_j!: [2, 1] → ln 4! − ln 2! = ln 12
    assert costs.part_cost([2, 1]) == pytest.approx(math.log(12))
    null = criteria.NullCosts(10)
    assert null.partition_cost(3) == 0.0 and null.partition_delta(3) == 0.0
    # [6, 1]: ln 8! − ln 6! = ln 56
    assert null.global_cost([[2, 1], [6, 1]]) == pytest.approx(math.log(12) + math.log(56))
