"""Known answers of repro.stats.posthoc (the mutation run of 2026-11-28,
results/mutation/2026-11-28-stats.md).

Expected values: Bell numbers (OEIS A000110), restricted growth strings and the 14 exhaustive sets
of k = 4 written out by hand, Shaffer's (1986) S(6) from its recursion, the z-test p-values of a
2 × 3 table from the normal tail 2Φ(−z) = erfc(z/√2), Demšar's (2006) Table 5a of q_α, and
Bergmann–Hommel values computed by an independent loop over the hand-written sets.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.stats.posthoc import (
    CORRECTIONS,
    MAX_BERGMANN_K,
    adjust_pairwise,
    bell_number,
    exhaustive_sets,
    nemenyi_critical_difference,
    pair_index,
    pairwise_comparisons,
    posthoc,
    set_partitions,
    shaffer_counts,
    shaffer_multipliers,
    ztest_pvalues,
)

PAIRS4 = ["AB", "AC", "AD", "BC", "BD", "CD"]  # pair_index(4) order
#: the 14 exhaustive sets of k = 4: one block of 4, four blocks of 3, three 2 + 2 splits, six
#: single pairs (García & Herrera 2008 §3: partitions with a block of ≥ 2 methods)
SETS4 = [
    {"AB", "AC", "AD", "BC", "BD", "CD"},
    {"AB", "AC", "BC"},
    {"AB", "AD", "BD"},
    {"AC", "AD", "CD"},
    {"BC", "BD", "CD"},
    {"AB", "CD"},
    {"AC", "BD"},
    {"AD", "BC"},
    *({p} for p in PAIRS4),
]


def _matrix(k: int, pvec) -> pd.DataFrame:
    names = [chr(ord("A") + i) for i in range(k)]
    p = np.ones((k, k))
    for q, (i, j) in enumerate(itertools.combinations(range(k), 2)):
        p[i, j] = p[j, i] = pvec[q]
    return pd.DataFrame(p, index=names, columns=names)


def _pairs_of(adj) -> list[float]:
    a = np.asarray(adj)
    return [a[i, j] for i, j in itertools.combinations(range(a.shape[0]), 2)]


def _hand_bergmann4(p: dict[str, float]) -> dict[str, float]:
    """v_i = max over the hand-written exhaustive sets I ∋ i of |I| · min_{j ∈ I} p_j."""
    return {
        q: max(len(s) * min(p[x] for x in s) for s in SETS4 if q in s) for q in PAIRS4
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# combinatorics
# ---------------------------------------------------------------------------------------------
def test_bell_numbers_and_pairs():
    # OEIS A000110
    assert [bell_number(k) for k in range(10)] == [1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147]
    with pytest.raises(ValueError, match="^k must be >= 0, got -1$"):
        bell_number(-1)
    ii, jj = pair_index(2)
    assert (ii.tolist(), jj.tolist()) == ([0], [1])
    ii, jj = pair_index(4)
    assert ["ABCD"[i] + "ABCD"[j] for i, j in zip(ii, jj)] == PAIRS4
    with pytest.raises(ValueError, match="^need at least 2 methods, got k=1$"):
        pair_index(1)


def test_set_partitions_are_the_restricted_growth_strings():
    assert set_partitions(1).tolist() == [[0]]
    assert set_partitions(2).tolist() == [[0, 0], [0, 1]]
    assert set_partitions(3).tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2]]
    # k = 5: every string a with a_0 = 0, a_i ≤ 1 + max(a_<i), in lexicographic order
    rgs = [
        list(a)
        for a in itertools.product(range(5), repeat=5)
        if a[0] == 0 and all(a[i] <= 1 + max(a[:i]) for i in range(1, 5))
    ]
    got = set_partitions(5)
    assert got.tolist() == rgs and len(rgs) == 52
    assert got.dtype == np.int8 and not got.flags.writeable
    with pytest.raises(ValueError, match="^k must be >= 1, got 0$"):
        set_partitions(0)


def test_exhaustive_sets_k4_by_hand():
    member = exhaustive_sets(4)
    got = [{PAIRS4[q] for q in np.flatnonzero(row)} for row in member]
    assert len(got) == 14 and sorted(map(sorted, got)) == sorted(map(sorted, SETS4))
    assert member.dtype == bool and not member.flags.writeable
    # k = 2: the one pair
    assert exhaustive_sets(2).tolist() == [[True]]
    with pytest.raises(ValueError, match="^need at least 2 methods, got k=1$"):
        exhaustive_sets(1)
    assert MAX_BERGMANN_K == 11
    with pytest.raises(
        ValueError, match=r"^exhaustive sets .* k <= 11 methods \(B\(12\) = 4213597 partitions\)"
    ):
        exhaustive_sets(12)


def test_shaffer_counts_k6_and_small_k():
    """Shaffer (1986): S(k) = ∪_j {C(j,2) + x : x ∈ S(k − j)}. By hand for k = 6 from
    S(5) = {0,1,2,3,4,6,10}, S(4) = {0,1,2,3,6}, S(3) = {0,1,3}, S(2) = {0,1}, S(1) = S(0) = {0}:
    j=1: S(5); j=2: 1 + S(4) = {1,2,3,4,7}; j=3: 3 + S(3) = {3,4,6}; j=4: 6 + S(2) = {6,7};
    j=5: {10}; j=6: {15}."""
    assert shaffer_counts(0) == (0,) and shaffer_counts(1) == (0,)
    assert shaffer_counts(2) == (0, 1)
    assert shaffer_counts(6) == (0, 1, 2, 3, 4, 6, 7, 10, 15)
    assert all(type(s) is int for s in shaffer_counts(6))  # numbers of hypotheses: integers
    with pytest.raises(ValueError, match="^k must be >= 0, got -1$"):
        shaffer_counts(-1)
    # t_j = max{s ∈ S(6) : s ≤ 16 − j}, j = 1 … 15
    assert shaffer_multipliers(6).tolist() == [15, 10, 10, 10, 10, 10, 7, 7, 7, 6, 4, 4, 3, 2, 1]
    assert shaffer_multipliers(3).tolist() == [3, 1, 1]
    assert shaffer_multipliers(2).tolist() == [1]


# ---------------------------------------------------------------------------------------------
# z-test on average ranks
# ---------------------------------------------------------------------------------------------
# ranks (1, 2, 3) and (1, 3, 2): rank sums A 2, B 5, C 5, N = 2, k = 3;
# SE = sqrt(k(k+1)/(6N)) = 1, z_AB = z_AC = |2 − 5|/2 = 1.5, z_BC = 0
TINY = pd.DataFrame({"A": [0.9, 0.9], "B": [0.8, 0.7], "C": [0.7, 0.8]}, index=["d1", "d2"])
P15 = math.erfc(1.5 / math.sqrt(2.0))  # 2Φ(−1.5) = 0.13361


def test_ztest_pvalues_by_hand():
    raw = ztest_pvalues(TINY)
    expected = [[1, P15, P15], [P15, 1, 1], [P15, 1, 1]]
    np.testing.assert_allclose(raw.to_numpy(), expected, rtol=1e-12)
    assert raw.index.tolist() == raw.columns.tolist() == ["A", "B", "C"]
    # lower is better reverses the ranks (sums 6, 3, 3): the same |differences|
    np.testing.assert_allclose(ztest_pvalues(TINY, False).to_numpy(), expected, rtol=1e-12)
    # N = 3 data sets, k = 4, each ranking A > B > C > D: rank sums (3, 6, 9, 12)
    t = pd.DataFrame({"A": [4.0] * 3, "B": [3.0] * 3, "C": [2.0] * 3, "D": [1.0] * 3})
    # SE = sqrt(20/18), z_AB = 3/(3 · SE) = 1/SE
    se = math.sqrt(20 / 18)
    raw4 = ztest_pvalues(t).to_numpy()
    for i, j in itertools.combinations(range(4), 2):
        assert raw4[i, j] == pytest.approx(math.erfc((j - i) / se / math.sqrt(2)), rel=1e-12)


def test_pairwise_comparisons_tiny_table_by_hand():
    long = pairwise_comparisons(TINY)
    assert long.columns.tolist() == [
        "i", "hypothesis", "method_a", "method_b", "rank_a", "rank_b", "z", "p",
        "p_bonferroni", "p_nemenyi", "p_holm", "p_shaffer", "p_bergmann",
    ]  # fmt: skip
    assert long["i"].tolist() == [1, 2, 3]
    assert long["hypothesis"].tolist() == ["A vs B", "A vs C", "B vs C"]  # tie: pair order
    assert long["method_a"].tolist() == ["A", "A", "B"]
    assert long["method_b"].tolist() == ["B", "C", "C"]
    assert long["rank_a"].tolist() == [1.0, 1.0, 2.5]
    assert long["rank_b"].tolist() == [2.5, 2.5, 2.5]
    assert long["z"].tolist() == pytest.approx([1.5, 1.5, 0.0], rel=1e-12)
    assert long["p"].tolist() == pytest.approx([P15, P15, 1.0], rel=1e-12)
    # m = 3: Bonferroni 3p; Holm 3p, max(3p, 2p), max(3p, 1·1); Shaffer t = (3, 1, 1):
    # 3p, max(3p, p), 1; Bergmann: AB and AC: the full set 3·min = 3p (> p alone);
    # BC: max(3p from the full set, 1 alone) = 1
    three = 3 * P15
    assert long["p_bonferroni"].tolist() == pytest.approx([three, three, 1.0])
    assert long["p_holm"].tolist() == pytest.approx([three, three, 1.0])
    assert long["p_shaffer"].tolist() == pytest.approx([three, three, 1.0])
    assert long["p_bergmann"].tolist() == pytest.approx([three, three, 1.0])
    # uncapped: Bonferroni BC = 3 · 1
    unc = pairwise_comparisons(TINY, corrections=["bonferroni"], cap=False)
    assert unc.columns.tolist()[-1] == "p_bonferroni"
    assert unc["p_bonferroni"].tolist() == pytest.approx([three, three, 3.0])
    # lower is better: the ranks are reversed, the p-values are not
    low = pairwise_comparisons(TINY, higher_is_better=False)
    assert low["rank_a"].tolist() == [3.0, 3.0, 1.5]
    assert low["p"].tolist() == pytest.approx([P15, P15, 1.0], rel=1e-12)


# ---------------------------------------------------------------------------------------------
# adjustments
# ---------------------------------------------------------------------------------------------
P4 = dict(zip(PAIRS4, [0.002, 0.002, 0.02, 0.01, 0.3, 0.04]))


def test_adjustments_k4_against_hand_written_sets():
    raw = _matrix(4, [P4[q] for q in PAIRS4])
    berg = _hand_bergmann4(P4)
    assert _pairs_of(adjust_pairwise(raw, "bergmann")) == pytest.approx([berg[q] for q in PAIRS4])
    # by hand: AB: full 6·0.002 = 0.012; AD: ABD 3·0.002, ACD 3·0.002, AD|BC 2·0.01 = 0.02,
    # AD alone 0.02, full 0.012 → 0.02; BD: BCD 3·0.01 = 0.03, AC|BD 0.004, BD 0.3 → 0.3
    assert berg["AB"] == pytest.approx(0.012) and berg["AD"] == pytest.approx(0.02)
    assert berg["BD"] == pytest.approx(0.3)
    # sorted raw: AB .002, AC .002, BC .01, AD .02, CD .04, BD .3 (ties in pair order)
    # Holm: 6·.002, max(.012, 5·.002), 4·.01, 3·.02, max(.06, 2·.04), max(.08, .3)
    holm = dict(AB=0.012, AC=0.012, BC=0.04, AD=0.06, CD=0.08, BD=0.3)
    assert _pairs_of(adjust_pairwise(raw, "holm")) == pytest.approx([holm[q] for q in PAIRS4])
    # Shaffer t = (6, 3, 3, 3, 2, 1): .012, max(.012, .006), 3·.01, 3·.02, 2·.04, .3
    shaffer = dict(AB=0.012, AC=0.012, BC=0.03, AD=0.06, CD=0.08, BD=0.3)
    got = _pairs_of(adjust_pairwise(raw, "shaffer"))
    assert got == pytest.approx([shaffer[q] for q in PAIRS4])
    bonferroni = [min(6 * P4[q], 1.0) for q in PAIRS4]  # BD: 6·.3 = 1.8, capped at 1
    assert _pairs_of(adjust_pairwise(raw, "bonferroni")) == pytest.approx(bonferroni)


def test_monotone_treats_tied_raw_pvalues_as_one_step():
    """Raw AB = AC = 0.1 (tied, AB first in pair order), BC 0.001, BD 0.02, AD = CD = 0.5.

    Bergmann by hand (sets of SETS4): BC: full 6·.001 = .006 (ABC .003, BCD .003, AD|BC .002,
    BC .001); BD: ABD 3·.02 = .06 (full .006, BCD .003, AC|BD .04, BD .02); AB: AB|CD 2·.1 = .2
    (full .006, ABC .003, ABD .06, AB .1); AC: ACD 3·.1 = .3 (AC|BD .04, AC .1); AD: AD .5;
    CD: CD .5. So v_AB = .2 < v_AC = .3 with equal raw p. scmamp's step v_i ← max{v_j : p_j ≤
    p_i} gives AB max(.006, .06, .2, .3) = .3 — a running maximum in pair order would give .2.
    """
    pvec = [0.1, 0.1, 0.5, 0.001, 0.02, 0.5]
    raw = _matrix(4, pvec)
    plain = _pairs_of(adjust_pairwise(raw, "bergmann"))
    assert plain == pytest.approx([0.2, 0.3, 0.5, 0.006, 0.06, 0.5])
    assert plain == pytest.approx([_hand_bergmann4(dict(zip(PAIRS4, pvec)))[q] for q in PAIRS4])
    mono = _pairs_of(adjust_pairwise(raw, "bergmann", monotone=True))
    assert mono == pytest.approx([0.3, 0.3, 0.5, 0.006, 0.06, 0.5])


def test_adjust_pairwise_input_checks_and_labels():
    arr = _matrix(3, [0.01, 0.02, 0.03]).to_numpy()
    out = adjust_pairwise(arr, "holm")
    assert out.index.tolist() == [0, 1, 2] and out.columns.tolist() == [0, 1, 2]
    assert np.diag(out.to_numpy()).tolist() == [1.0, 1.0, 1.0]
    assert _pairs_of(out) == pytest.approx([0.03, 0.04, 0.04])
    with pytest.raises(
        ValueError, match="^raw p-values must be a square methods × methods matrix, got \\(3,\\)$"
    ):
        adjust_pairwise(np.ones(3))
    with pytest.raises(ValueError, match="square"):
        adjust_pairwise(np.ones((2, 2, 2)))
    asym = arr.copy()
    asym[1, 0] = 0.02  # AB 0.01 above, 0.02 below
    with pytest.raises(ValueError, match="^raw p-value matrix is not symmetric$"):
        adjust_pairwise(asym)
    tiny = arr.copy()
    tiny[1, 0] += 1e-14  # beyond the 1e-15 tolerance
    with pytest.raises(ValueError, match="^raw p-value matrix is not symmetric$"):
        adjust_pairwise(tiny)
    for bad in (np.nan, np.inf, -0.01, 1.01):
        m = arr.copy()
        m[0, 1] = m[1, 0] = bad
        with pytest.raises(ValueError, match=r"^raw p-values must be finite and in \[0, 1\]$"):
            adjust_pairwise(m)
    # the bounds themselves are valid
    m = arr.copy()
    m[0, 1] = m[1, 0] = 0.0
    m[1, 2] = m[2, 1] = 1.0
    assert _pairs_of(adjust_pairwise(m, "bonferroni")) == [0.0, 0.06, 1.0]
    with pytest.raises(ValueError, match="^correction must be one of"):
        adjust_pairwise(arr, "hochberg")


def test_cap_and_posthoc_pass_through():
    big = _matrix(4, [0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    # Holm uncapped: 6·.3, max(1.8, 5·.4), max(2, 4·.5), max(2, 3·.6), max(2, 2·.7), max(2, .8)
    holm = _pairs_of(adjust_pairwise(big, "holm", cap=False))
    assert holm == pytest.approx([1.8, 2.0, 2.0, 2.0, 2.0, 2.0])
    assert _pairs_of(adjust_pairwise(big, "holm")) == [1.0] * 6
    # posthoc = z-test then adjust, with monotone and cap passed on
    for corr in [c for c in CORRECTIONS if c != "nemenyi"]:  # Nemenyi: its own test below
        for monotone in (False, True):
            for cap in (False, True):
                got = posthoc(TINY, corr, monotone=monotone, cap=cap)
                expected = [3 * P15, 3 * P15, 3.0 if (corr == "bonferroni" and not cap) else 1.0]
                assert _pairs_of(got) == pytest.approx(expected)
                assert got.index.tolist() == ["A", "B", "C"]
    assert _pairs_of(posthoc(TINY)) == pytest.approx([3 * P15, 3 * P15, 1.0])  # bergmann
    low = posthoc(TINY, "bonferroni", higher_is_better=False, cap=False)
    assert _pairs_of(low) == pytest.approx([3 * P15, 3 * P15, 3.0])


def test_bergmann_k11_largest_k_and_every_chunk():
    """k = 11 = MAX_BERGMANN_K is accepted: Bell(11) − 1 = 678 569 exhaustive sets over 55
    pairs, processed in chunks of 2^17 rows (restricted growth strings in lexicographic order).

    Raw p = 1e-9 for every pair but (9, 10), whose p is 0.5. A set holding (9, 10) and any other
    pair has min p = 1e-9, so v(9, 10) = 0.5, from the set {(9, 10)} alone: the partition
    0|1|…|8|{9, 10}, the last but one string, in the last chunk. Every other pair's best set is
    the full set, 55 · 1e-9 (the string 0…0, the first row of the first chunk)."""
    k, m = 11, 55
    assert exhaustive_sets(k).shape == (bell_number(k) - 1, m) == (678569, 55)
    pvec = [1e-9] * (m - 1) + [0.5]
    got = _pairs_of(adjust_pairwise(_matrix(k, pvec), "bergmann"))
    assert got == pytest.approx([55e-9] * (m - 1) + [0.5], rel=1e-9)


def test_posthoc_defaults_on_garcia_herrera():
    """García & Herrera (2008) Bergmann–Hommel values (as quoted by scmamp): k-NN vs Kernel
    0.032 and k-NN vs NaiveBayes 0.0303 (smaller although its raw p is larger: the procedure is
    not monotone). posthoc's defaults are Bergmann, not monotone, capped; monotone=True lifts
    0.0303 to 0.032. Methods that tie on every data set have raw p = 1 and Bergmann's
    uncapped 3 · 1 = 3 for k = 3; capped: 1."""
    gh = pd.read_csv(Path(__file__).parents[1] / "data" / "gh2008_accuracies.csv", index_col=0)
    adj = posthoc(gh)
    assert adj.loc["k-NN(k=1)", "Kernel"] == pytest.approx(0.032, rel=0.02)
    assert adj.loc["k-NN(k=1)", "NaiveBayes"] == pytest.approx(0.0303, rel=0.02)
    mono = posthoc(gh, monotone=True)
    assert mono.loc["k-NN(k=1)", "NaiveBayes"] == pytest.approx(0.032, rel=0.02)
    same = pd.DataFrame({"a": [0.1, 0.5], "b": [0.1, 0.5], "c": [0.1, 0.5]})
    assert _pairs_of(posthoc(same)) == [1.0, 1.0, 1.0]
    assert _pairs_of(posthoc(same, cap=False)) == pytest.approx([3.0, 3.0, 3.0])
    assert _pairs_of(posthoc(same, "bonferroni", cap=False)) == pytest.approx([3.0, 3.0, 3.0])


def test_pairwise_comparisons_ties_keep_the_pair_order():
    """k = 7, one data set ranking A > B > … > G: rank sums 1 … 7, |ΔR| = j − i, so the 21
    hypotheses share 6 raw p-values. Sorted by raw p (largest |ΔR| first), ties in pair order:
    an independent stable sort of the pairs by −(j − i)."""
    names = list("ABCDEFG")
    table = pd.DataFrame([np.arange(7.0, 0.0, -1.0)], columns=names)
    pairs = list(itertools.combinations(range(7), 2))
    expected = [f"{names[i]} vs {names[j]}" for i, j in sorted(pairs, key=lambda q: q[0] - q[1])]
    long = pairwise_comparisons(table, corrections=["holm"])
    assert long["hypothesis"].tolist() == expected
    # SE = sqrt(7·8/6) and z = (j − i)/SE
    se = math.sqrt(56 / 6)
    assert long["z"].tolist() == pytest.approx(
        [(j - i) / se for i, j in sorted(pairs, key=lambda q: q[0] - q[1])], rel=1e-12
    )


def test_nemenyi_critical_difference_demsar_table_5a():
    """Demšar (2006) Table 5a: q_α for k = 2 … 10 (α = 0.05 and 0.10), CD = q sqrt(k(k+1)/(6N)),
    to the table's three decimals (±0.001: its k = 7 entry 2.949 is 2.9483 rounded up)."""
    q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
    for k, a, b in zip(range(2, 11), q05, q10):
        for n in (1, 14):
            se = math.sqrt(k * (k + 1) / (6 * n))
            assert nemenyi_critical_difference(k, n) == pytest.approx(a * se, abs=1e-3 * se)
            got = nemenyi_critical_difference(k, n, alpha=0.10)
            assert got == pytest.approx(b * se, abs=1e-3 * se)
    for k, n in ((1, 5), (5, 0)):
        with pytest.raises(
            ValueError, match=f"^need k >= 2 methods and n >= 1 data sets, got k={k}, n={n}$"
        ):
            nemenyi_critical_difference(k, n)


def _range_sf(q: float, k: int) -> float:
    """P(range of k standard normals > q), by quadrature of
    1 − k ∫ φ(x) (Φ(x + q) − Φ(x))^(k−1) dx: an oracle independent of scipy's distribution."""
    from scipy import integrate
    from scipy.stats import norm

    inside = integrate.quad(
        lambda x: k * norm.pdf(x) * (norm.cdf(x + q) - norm.cdf(x)) ** (k - 1), -12, 12
    )[0]
    return 1.0 - inside


def test_nemenyi_is_the_studentized_range_test_of_its_critical_difference():
    """Nemenyi's p of a pair is P(Q_k > √2 z): by quadrature on TINY (k = 3, z = 1.5); a pair of
    rank difference exactly the critical difference has p = α; it never exceeds Bonferroni's m·p
    and for two methods it is the raw p."""
    got = posthoc(TINY, "nemenyi")
    assert _pairs_of(got) == pytest.approx(
        [_range_sf(1.5 * math.sqrt(2), 3), _range_sf(1.5 * math.sqrt(2), 3), 1.0], rel=1e-7
    )
    assert _pairs_of(got)[0] == pytest.approx(0.29090, abs=1e-5) and 0.29 < 3 * P15
    for k, n, alpha in ((5, 30, 0.05), (4, 14, 0.10), (10, 50, 0.05)):
        cd = nemenyi_critical_difference(k, n, alpha)
        z = cd / math.sqrt(k * (k + 1) / (6 * n))
        raw = _matrix(k, [math.erfc(z / math.sqrt(2))] * (k * (k - 1) // 2))
        assert _pairs_of(adjust_pairwise(raw, "nemenyi"))[0] == pytest.approx(alpha, rel=1e-6)
    raw = _matrix(2, [0.04])
    assert _pairs_of(adjust_pairwise(raw, "nemenyi")) == pytest.approx([0.04], rel=1e-9)
