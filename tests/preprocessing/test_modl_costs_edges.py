"""Edges of Khiops' MODL costs (repro.preprocessing.modl.criteria) that test_modl_costs.py leaves
open: the ValueError messages, B(n, 1), the granularity of N ≤ 2, the discretization prior with
V = 2 values, g = 1 and V = 7 in the grouping prior, a garbage group of one value, the delta of
small partitions with a garbage group, and the ln k! table and cached tables built from scratch
in a fresh interpreter. Each expected value is computed here by hand from the formulas of
KHIOPS_NOTES (L_B(n; M) = ln C0Max(M) + ln2·log2*(n), B(V, I) = Σ_{k≤I} S(V, k)) with exact
integers where there are some (Stirling numbers, k!)."""

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

# the universal codes written independently of the module (test_modl_costs.py's oracles)
from test_modl_costs import LN2, bounded_code, c0_max, log2_star  # noqa: E402

from repro.preprocessing.modl import criteria


def bell(v: int, k: int) -> int:
    """B(v, k) = Σ_{j≤k} S(v, j), exact integers from S(n, j) = j S(n−1, j) + S(n−1, j−1)."""
    s = [[0] * (v + 1) for _ in range(v + 1)]
    s[0][0] = 1
    for n in range(1, v + 1):
        for j in range(1, n + 1):
            s[n][j] = j * s[n - 1][j] + s[n - 1][j - 1]
    return sum(s[v][1 : k + 1])


def test_value_errors_name_the_argument_and_the_valid_range():
    for n in (0, -3):
        with pytest.raises(ValueError, match=re.escape(f"log2_star needs n ≥ 1, got {n}")):
            criteria.log2_star(n)
    for n, k in ((3, 4), (3, 0), (0, 0)):
        message = f"ln_bell needs 1 ≤ k ≤ n, got n={n}, k={k}"
        with pytest.raises(ValueError, match=re.escape(message)):
            criteria.ln_bell(n, k)


def test_ln_bell_of_one_group_and_small_values():
    # B(n, 1) = S(n, 1) = 1 for every n ≥ 1: ln 1 = 0, from the table (n < 100) and the series
    for n in (1, 2, 5, 99, 100, 150):
        assert criteria.ln_bell(n, 1) == pytest.approx(0.0, abs=1e-12), n
    # B(5, 2) = 1 + 15 = 16, B(5, 5) = 52 (the Bell number), B(1, 1) = 1
    assert bell(5, 2) == 16 and bell(5, 5) == 52
    assert criteria.ln_bell(5, 2) == pytest.approx(math.log(16), rel=1e-12)
    assert criteria.ln_bell(5, 5) == pytest.approx(math.log(52), rel=1e-12)
    assert criteria.ln_bell(1, 1) == 0.0


def test_bell_series_down_to_its_first_term():
    """Khiops' series B(n, k) = Σ_{i≤k} (i^n / i!)·Σ_{j≤k−i} (−1)^j / j! against exact integers.

    The private _ln_bell_series is called directly: ln_bell only uses it for n ≥ 100, where the
    downward loop stops (t < 1e-6/k) before i = 1, or weighs i = 1 by Σ_{j≤1} (−1)^j/j! = 0
    (k = 2); for small n the i = 1 term matters (n = k = 3: 4.5 without it, B(3, 3) = 5)."""
    assert bell(3, 3) == 5 and bell(4, 3) == 14 and bell(6, 4) == 187
    for n in range(3, 13):
        for k in range(1, n + 1):
            expected = math.log(bell(n, k))
            assert criteria._ln_bell_series(n, k) == pytest.approx(expected, rel=1e-8), (n, k)


def test_max_granularity_of_small_samples():
    # G = ⌈log2 N⌉ for N ≥ 2, 0 for N ≤ 1: ⌈log2 2⌉ = 1, ⌈log2 3⌉ = 2, ⌈log2 5⌉ = 3, 2^9 < 1000
    expected = {0: 0, 1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 9: 4, 1000: 10}
    assert {n: criteria.max_granularity(n) for n in expected} == expected


@pytest.mark.parametrize("costs", [criteria.discretization_partition_costs_py,
                                   criteria.discretization_partition_costs])  # fmt: skip
def test_discretization_prior_with_two_values(costs):
    """N = 2 instances, V = 2 values (g = 0: V = N; g = 1: V = min(2, N)), G = ⌈log2 2⌉ = 1.

    pc[I] = ln2 + A + [g>0]·L_B(g; 1) + L_B(I − 1; 1) + (I − 1)·ln 1 − ln (I − 1)!, and
    L_B(n; 1) = ln C0Max(1) + ln2·log2*(n) = ln2·log2*(n) (C0Max(1) = 2^−log2*(1) = 1):
    pc[2] = ln2 + A (log2*(1) = 0), pc[3] = ln2 + A + ln2·log2*(2) − ln 2! = ln2 + A."""
    a = 0.75
    for g in (0, 1):
        # n_parts_max = 2 = N: the cached table of N = 2; n_parts_max = 3 > N: computed alone
        np.testing.assert_allclose(costs(2, g, 2, a), [np.inf, LN2, LN2 + a], rtol=1e-12)
        np.testing.assert_allclose(costs(3, g, 2, a), [np.inf, LN2, LN2 + a, LN2 + a], rtol=1e-12)
    # N = 1: V = 1, a single part only
    np.testing.assert_array_equal(costs(2, 1, 1, a), [np.inf, LN2, np.inf])


@pytest.mark.parametrize("costs", [criteria.discretization_partition_costs_py,
                                   criteria.discretization_partition_costs])  # fmt: skip
def test_discretization_prior_of_a_single_part(costs):
    # n_parts_max = 1: pc = [+inf, ln2] (the null/informative bit only), whatever g, N and A
    for g, n in ((0, 1), (0, 10), (3, 10), (1, 2)):
        np.testing.assert_array_equal(costs(1, g, n, 0.5), [np.inf, LN2])
    np.testing.assert_array_equal(costs(0, 0, 10, 0.5), [np.inf])


def test_grouping_prior_at_granularity_one_and_seven_values():
    # V = 3, I = 2, g = 1 of G = ⌈log2 4⌉ = 2: ln2 + A + L_B(1; 2) + L_B(1; 2) + ln B(3, 2),
    # L_B(1; 2) = ln C0Max(2) = ln(1 + 2^−1) = ln 1.5, B(3, 2) = 1 + 3 = 4: ln(2·1.5²·4·A) = ln 54
    a = math.log(3)
    assert criteria.grouping_partition_cost(2, 3, 1, 4, a) == pytest.approx(math.log(54))
    # g = 0: no granularity code, ln(2·1.5·4·3) = ln 36
    assert criteria.grouping_partition_cost(2, 3, 0, 4, a) == pytest.approx(math.log(36))
    # V = 7 values is not more than 7 (no garbage bit): ln2 + L_B(1; 6) + ln B(7, 2),
    # B(7, 2) = 1 + 63; V = 8: one more ln2, L_B(1; 7) and B(8, 2) = 1 + 127
    assert bell(7, 2) == 64 and bell(8, 2) == 128
    assert criteria.grouping_partition_cost(2, 7, 0, 7, 0.0) == pytest.approx(
        LN2 + math.log(c0_max(6)) + math.log(64), rel=1e-12
    )
    assert criteria.grouping_partition_cost(2, 8, 0, 8, 0.0) == pytest.approx(
        2 * LN2 + math.log(c0_max(7)) + math.log(128), rel=1e-12
    )


def test_grouping_prior_table_with_a_garbage_group_of_one_value():
    """V = 8 values, a garbage group of Gb = 1 value: the Ii = I − 1 ≥ 2 informative groups of
    the Vi = 7 other values, so I runs over 3..8 and pc[0..2] are +inf.

    pc[I] = ln2 + A + ln2 (V > 7) + L_B(Vi − 1; V − 2) + Vi·ln V − ln Vi! + L_B(Ii − 1; Vi − 1)
    + ln B(Vi, Ii), g = 0."""
    a = 0.5
    got = criteria.grouping_partition_costs(8, 0, 50, a, garbage=1)
    assert got.shape == (9,)
    assert np.flatnonzero(np.isfinite(got)).tolist() == [3, 4, 5, 6, 7, 8]
    for i in range(3, 9):
        expected = (
            2 * LN2 + a + bounded_code(6, 6) + 7 * math.log(8) - math.log(math.factorial(7))
            + bounded_code(i - 2, 6) + math.log(bell(7, i - 1))
        )  # fmt: skip
        assert got[i] == pytest.approx(expected, rel=1e-12), i


def test_grouping_costs_default_partition_has_no_garbage():
    # V = 3 values, g = 0: pc(2) = ln2 + L_B(1; 2) + ln B(3, 2) = ln(2·1.5·4) = ln 12,
    # pc(3) = ln2 + L_B(2; 2) + ln B(3, 3) = ln(2·1.5·2·5) = ln 30 (log2*(2) = 1, B(3, 3) = 5)
    costs = criteria.GroupingCosts(3, 0, 10, 0.0, 2)
    assert costs.partition_cost(1) == pytest.approx(LN2)
    assert costs.partition_cost(2) == pytest.approx(math.log(12))
    assert costs.partition_cost(3) == pytest.approx(math.log(30))
    assert costs.global_cost([[3, 1], [0, 6]]) == pytest.approx(
        math.log(12) + math.log(math.factorial(5) / math.factorial(3))
        + math.log(math.factorial(7) / math.factorial(6))
    )  # fmt: skip


def test_partition_delta_of_small_partitions_with_a_garbage_group():
    """V = 10 values, g = 0, a garbage group of Gb = 5 values (Vi = 5 informative ones).

    I = 3 parts: Ii = 2, delta = pc(2, Gb) − pc(3, Gb), and pc(2, Gb) = ln2 (a single
    informative group), pc(3, Gb) = ln2 + A + ln2 (V > 7) + L_B(4; 8) + 5·ln 10 − ln 5!
    + L_B(1; 4) + ln B(5, 2), L_B(4; 8) = ln C0Max(8) + 3·ln2 (log2*(4) = 2 + 1),
    L_B(1; 4) = ln C0Max(4), B(5, 2) = 16. I = 2: Ii = 1, delta = ln2 − ln2 = 0."""
    a = math.log(3)
    costs = criteria.GroupingCosts(10, 0, 100, a, 2)
    pc3 = (
        LN2 + a + LN2 + math.log(c0_max(8)) + 3 * LN2 + 5 * math.log(10) - math.log(120)
        + math.log(c0_max(4)) + math.log(16)
    )  # fmt: skip
    assert costs.partition_delta(3, 5) == pytest.approx(LN2 - pc3, rel=1e-12)
    assert costs.partition_delta(2, 5) == pytest.approx(0.0, abs=1e-12)
    assert costs.partition_cost(3, 5) == pytest.approx(pc3, rel=1e-12)
    # the same I = 3 without garbage: pc(2) − pc(3), Ii = I, L_B(1; 9) + ln B(10, 2) and
    # L_B(2; 9) + ln B(10, 3) (B(10, 2) = 512, B(10, 3) = 9842)
    assert bell(10, 2) == 512 and bell(10, 3) == 9842
    expected = (math.log(c0_max(9)) + math.log(512)) - (math.log(c0_max(9)) + LN2 + math.log(9842))
    assert costs.partition_delta(3) == pytest.approx(expected, rel=1e-12)


# The ln k! table of GroupingCosts (KWStat::LnFactorial: lf[k] = lf[k − 1] + ln k) is a module
# list that only grows, and the log2*/C0Max table, the Bell table and the discretization prior
# tables are lru_caches: in one process the first test to ask for a size builds them and every
# later one reads them (so does each child that mutmut forks from its process). The values below
# are computed once here and once in a fresh interpreter that imports the same source file,
# where the list starts as [0.0] and the caches are empty, so the sizes each cost object asks for
# and the code that builds the tables run from scratch.
_VALUES = """
LOG2_STAR_N = [1, 2, 3, 4, 5, 16, 17, 1000, 1999]
C0_MAX_M = [1, 2, 3, 6, 100, 1999]
LN_BELL_NK = [(n, k) for n in range(1, 13) for k in range(1, n + 1)] + [
    (n, k) for n in (50, 99) for k in (1, 2, 3, n // 2, n - 2, n - 1, n)
]


def values(criteria):
    out = {"file": criteria.__file__}
    null = criteria.NullCosts(100)  # first: the fresh table has only the size it asks for
    out["null"] = [null.part_cost(c) for c in ([60, 40], [100, 0], [0, 1])]
    costs = criteria.GroupingCosts(5, 0, 1000, 0.0, 3)
    out["lf"] = list(costs.lf[:1003])
    out["part"] = [costs.part_cost(c) for c in ([500, 300, 200], [0, 1000, 0], [0, 0, 1])]
    out["disc"] = [list(criteria.discretization_partition_costs(2, g, 2, 0.25)) for g in (0, 1)]
    out["one_part"] = list(criteria.discretization_partition_costs(1, 0, 1, 0.25))
    out["pc2006"] = list(criteria.discretization_partition_cost_2006(5, 5))
    out["log2_star"] = [criteria.log2_star(n) for n in LOG2_STAR_N]
    out["c0_max"] = [criteria.c0_max(m) for m in C0_MAX_M]
    out["ln_bell"] = [criteria.ln_bell(n, k) for n, k in LN_BELL_NK]
    out["ln_bell_table_dtype"] = criteria.ln_bell_table().dtype.str
    return out
"""
_NS: dict = {}
exec(_VALUES, _NS)  # the same code as the fresh interpreter runs


def _fresh_values() -> dict:
    root = Path(criteria.__file__).resolve().parents[3]  # the folder holding this `repro`
    code = "\n".join(
        [
            "import json, sys",
            f"sys.path.insert(0, {str(root)!r})",
            "from repro.preprocessing.modl import criteria",
            _VALUES,
            "print(json.dumps(values(criteria)))",
        ]
    )
    env = dict(os.environ)
    # mutmut's statistics pass records calls into its own process only: a child runs plain code
    if env.get("MUTANT_UNDER_TEST") == "stats":
        env["MUTANT_UNDER_TEST"] = ""
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def _check_values(got: dict) -> None:
    # ln k! = Σ_{i≤k} ln i: exact factorials up to 20, lgamma(k + 1) up to N + J − 1 = 1002
    lf = got["lf"]
    assert len(lf) == 1003
    for k in range(21):
        assert lf[k] == pytest.approx(math.log(math.factorial(k)), rel=1e-14, abs=1e-15), k
    np.testing.assert_allclose(lf, [math.lgamma(k + 1) for k in range(1003)], rtol=1e-12)
    # part cost ln (n + J − 1)! − ln (J − 1)! − Σ_j ln n_j!, J = 3, N = 1000
    assert got["part"][0] == pytest.approx(
        math.lgamma(1003) - math.log(2) - math.lgamma(501) - math.lgamma(301) - math.lgamma(201),
        rel=1e-10,
    )
    assert got["part"][1] == pytest.approx(math.log(1001 * 1002 / 2), rel=1e-10)  # C(1002, 2)
    assert got["part"][2] == pytest.approx(math.log(3), rel=1e-12)  # 3!/2!
    # J = 2 (null costs): ln (n + 1)! − Σ_j ln n_j!: [60, 40] → ln(101 · C(100, 40))
    assert got["null"][0] == pytest.approx(math.log(101 * math.comb(100, 40)), rel=1e-10)
    assert got["null"][1] == pytest.approx(math.log(101), rel=1e-10)
    assert got["null"][2] == pytest.approx(math.log(2), rel=1e-12)
    # discretization prior with V = 2 values (see test_discretization_prior_with_two_values)
    for pc in got["disc"]:
        np.testing.assert_allclose(pc, [np.inf, LN2, LN2 + 0.25], rtol=1e-12)
    np.testing.assert_array_equal(got["one_part"], [np.inf, LN2])  # N = 1: one part only
    # the 2006 prior ln N + ln C(N + I − 1, I − 1), N = 5: C(4 + I, I − 1) = 1, 6, 21, 56, 126
    expected = [np.inf] + [math.log(5 * b) for b in (1, 6, 21, 56, 126)]
    np.testing.assert_allclose(got["pc2006"], expected, rtol=1e-12)
    # the log2* and C0Max tables (below 2000) and the Bell table (n < 100), by the oracles above
    expected = [log2_star(n) for n in _NS["LOG2_STAR_N"]]
    np.testing.assert_allclose(got["log2_star"], expected, rtol=1e-12)
    expected = [c0_max(m) for m in _NS["C0_MAX_M"]]
    np.testing.assert_allclose(got["c0_max"], expected, rtol=1e-12)
    expected = [math.log(bell(n, k)) for n, k in _NS["LN_BELL_NK"]]
    np.testing.assert_allclose(got["ln_bell"], expected, rtol=1e-12, atol=1e-14)
    assert got["ln_bell_table_dtype"] == "<f8"  # float64: the compiled grouping kernels read it


def test_ln_fact_table_and_cached_tables_built_from_scratch():
    here = _NS["values"](criteria)
    _check_values(here)
    fresh = _fresh_values()
    assert fresh["file"] == here["file"]  # the fresh interpreter imported the same module file
    _check_values(fresh)
