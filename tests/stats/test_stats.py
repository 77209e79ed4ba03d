"""repro.stats: paired t W/L, ranks, Friedman/Iman–Davenport, Wilcoxon, post-hoc corrections
(Bonferroni–Dunn, Nemenyi, Holm, Shaffer, Bergmann–Hommel) and the figures.

Known answers come from hand computation (k = 3, 4), from independent brute-force paths written
here (ranks by sorting, exhaustive sets by testing all 2^m subsets of pairs for transitivity),
and from the García & Herrera (2008) example (tests/data/gh2008_accuracies.csv): their published
average ranks, and the z-test p-values and Iman–Davenport statistic printed by R's scmamp
(friedmanPost / imanDavenportTest on data.gh.2008).
"""

from __future__ import annotations

import itertools
import math
import time
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from repro.stats import (  # noqa: E402  (the public API, as users import it)
    CORRECTIONS,
    RANK_RTOL,
    adjust_pairwise,
    average_ranks,
    cd_cliques,
    cd_diagram,
    exhaustive_sets,
    friedman,
    metric_table,
    nemenyi_critical_difference,
    paired_t_wins_losses,
    pairwise_comparisons,
    posthoc,
    rank_table,
    significance_heatmap,
    tie_values,
    wilcoxon_pairs,
    ztest_pvalues,
)
from repro.stats.posthoc import (  # noqa: E402  (building blocks checked by brute force)
    bell_number,
    pair_index,
    set_partitions,
    shaffer_counts,
    shaffer_multipliers,
)

DATA = Path(__file__).parents[1] / "data" / "gh2008_accuracies.csv"


@pytest.fixture(scope="module")
def gh2008() -> pd.DataFrame:
    return pd.read_csv(DATA, index_col=0)


def _matrix(k: int, pvec) -> pd.DataFrame:
    ii, jj = pair_index(k)
    p = np.ones((k, k))
    p[ii, jj] = pvec
    p[jj, ii] = pvec
    names = [chr(ord("A") + i) for i in range(k)]
    return pd.DataFrame(p, index=names, columns=names)


def _pairs_of(adj: pd.DataFrame) -> np.ndarray:
    ii, jj = pair_index(adj.shape[0])
    return adj.to_numpy()[ii, jj]


# ---------------------------------------------------------------------------------------------
# Records → table, paired t-test W/L
# ---------------------------------------------------------------------------------------------
def _records(values: dict, metric="accuracy", split="test") -> pd.DataFrame:
    """values[(dataset, method)] = list of per-fold values (one repetition)."""
    rows = []
    for (dataset, method), folds in values.items():
        for fold, v in enumerate(folds):
            rows.append(
                dict(
                    experiment="x", method=method, dataset=dataset, repetition=0, fold=fold,
                    split=split, metric=metric, value=float(v),
                )
            )  # fmt: skip
    return pd.DataFrame(rows)


def test_metric_table_means_over_repetitions_and_folds():
    rec = _records({("d1", "b"): [1, 2, 3], ("d1", "a"): [2, 2, 2], ("d2", "a"): [0, 1, 2]})
    rec2 = rec.copy()
    rec2["repetition"] = 1
    rec2["value"] += 1.0
    other = _records({("d1", "a"): [9, 9, 9]}, split="train")
    table = metric_table(pd.concat([rec, rec2, other]), "accuracy")
    assert list(table.columns) == ["b", "a"]  # order of first appearance
    assert table.loc["d1", "b"] == pytest.approx(2.5)
    assert table.loc["d1", "a"] == pytest.approx(2.5)
    assert table.loc["d2", "a"] == pytest.approx(1.5)
    assert np.isnan(table.loc["d2", "b"])
    with pytest.raises(ValueError, match="metric 'auc' not found"):
        metric_table(rec, "auc")
    with pytest.raises(ValueError, match="lack the column"):
        metric_table(rec.drop(columns="fold"), "accuracy")


def test_paired_t_wins_losses_hand_values_and_degenerate_cases():
    ref_d1 = [0.90, 0.92, 0.91, 0.93, 0.90]
    oth_d1 = [0.80, 0.83, 0.80, 0.82, 0.81]
    rec = _records(
        {
            ("d1", "ref"): ref_d1,
            ("d1", "m"): oth_d1,
            ("d2", "ref"): [0.5, 0.6, 0.7, 0.8, 0.9],  # identical folds → tie, p = 1
            ("d2", "m"): [0.5, 0.6, 0.7, 0.8, 0.9],
            ("d3", "ref"): [0.5, 0.6, 0.5, 0.6, 0.5],  # noisy small loss → tie
            ("d3", "m"): [0.6, 0.5, 0.6, 0.6, 0.55],
            ("d4", "ref"): [0.1, 0.2, 0.3, 0.4, 0.5],  # constant shift of −0.1 → loss
            ("d4", "m"): [0.2, 0.3, 0.4, 0.5, 0.6],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        details, summary = paired_t_wins_losses(rec, "ref", "accuracy")
    d = details.set_index("dataset")
    # hand t: d = ref − m, t = mean(d) / (sd(d)/sqrt(n))
    diff = np.array(ref_d1) - np.array(oth_d1)
    t = diff.mean() / (diff.std(ddof=1) / math.sqrt(diff.size))
    assert d.loc["d1", "t"] == pytest.approx(t)
    assert d.loc["d1", "p_value"] == pytest.approx(2 * stats.t.sf(abs(t), diff.size - 1))
    assert d.loc["d1", "outcome"] == "win"
    assert d.loc["d2", "p_value"] == 1.0 and d.loc["d2", "outcome"] == "tie"
    assert d.loc["d3", "outcome"] == "tie"
    assert d.loc["d4", "p_value"] == 0.0 and d.loc["d4", "outcome"] == "loss"
    assert summary.loc["m", "W/L"] == "1/1"
    assert (summary.loc["m", "wins"], summary.loc["m", "losses"], summary.loc["m", "ties"]) == (
        1,
        1,
        2,
    )
    assert summary.loc["ref", "W/L"] == ""
    assert summary.loc["ref", "mean"] == pytest.approx(np.mean([np.mean(ref_d1), 0.7, 0.54, 0.3]))
    # lower is better flips wins and losses
    _, low = paired_t_wins_losses(rec, "ref", "accuracy", higher_is_better=False)
    assert low.loc["m", "W/L"] == "1/1"
    assert low.loc["m", "wins"] == 1  # d4: lower values → win
    with pytest.raises(ValueError, match="reference method 'zz'"):
        paired_t_wins_losses(rec, "zz", "accuracy")


def test_paired_t_pairs_by_repetition_and_fold():
    # the same values in a different row order must give the same result
    rec = _records({("d", "a"): [1, 2, 3, 4], ("d", "b"): [1.5, 2.1, 3.6, 4.2]})
    shuffled = rec.sample(frac=1.0, random_state=0)
    a = paired_t_wins_losses(rec, "a", "accuracy").details
    b = paired_t_wins_losses(shuffled, "a", "accuracy").details
    assert a["p_value"].iloc[0] == pytest.approx(b["p_value"].iloc[0])
    assert a["p_value"].iloc[0] == pytest.approx(
        stats.ttest_rel([1, 2, 3, 4], [1.5, 2.1, 3.6, 4.2]).pvalue
    )


def test_paired_t_is_scipy_ttest_rel_on_every_data_set():
    """The t statistic and p-value of every (data set, method) are scipy's paired t-test's, to
    a relative 1e-12: 2 to 40 folds, differences of either sign, spreads from 1e-3 to 2."""
    rng = np.random.default_rng(3)
    values, expected = {}, {}
    for i in range(150):
        n = int(rng.integers(2, 41))
        ref = rng.normal(size=n)
        other = ref + rng.normal(rng.choice([-0.2, 0.2]), rng.uniform(1e-3, 2), size=n)
        values[(f"d{i:03d}", "ref")], values[(f"d{i:03d}", "m")] = ref, other
        res = stats.ttest_rel(ref, other)
        expected[f"d{i:03d}"] = (res.statistic, res.pvalue)
    d = paired_t_wins_losses(_records(values), "ref", "accuracy").details
    assert len(d) == 150
    for row in d.itertuples():
        t, p = expected[row.dataset]
        assert row.t == pytest.approx(t, rel=1e-12) and row.p_value == pytest.approx(p, rel=1e-12)


def test_paired_t_tests_only_where_both_ran_on_their_common_folds():
    rec = _records(
        {
            ("d1", "ref"): [1, 2, 3, 4],
            ("d1", "m"): [1.5, 2.1, 3.6, 4.2],
            ("d1", "k"): [0, 0, 0, 0],
            ("d2", "m"): [1, 2, 3],  # no reference here: no test on d2
            ("d2", "k"): [1, 2, 3],
            ("d3", "ref"): [1, 2, 3, 4],  # k did not run on d3
            ("d3", "m"): [2, 2, 4, 5],
        }
    )
    rec = rec[~((rec["dataset"] == "d3") & (rec["method"] == "m") & (rec["fold"] == 1))]
    d = paired_t_wins_losses(rec, "ref", "accuracy").details
    assert sorted(zip(d["dataset"], d["method"])) == [("d1", "k"), ("d1", "m"), ("d3", "m")]
    d3 = d[d["dataset"] == "d3"].iloc[0]
    assert d3["n_pairs"] == 3  # fold 1 of m is missing: pairs of folds 0, 2, 3
    assert d3["p_value"] == pytest.approx(stats.ttest_rel([1, 3, 4], [2, 4, 5]).pvalue)
    assert d3["mean_reference"] == pytest.approx(8 / 3) and d3["mean_method"] == pytest.approx(
        11 / 3
    )


# ---------------------------------------------------------------------------------------------
# Ranks and Friedman
# ---------------------------------------------------------------------------------------------
SMALL = pd.DataFrame(
    {"A": [0.9, 0.8, 0.9, 0.9], "B": [0.8, 0.9, 0.7, 0.8], "C": [0.7, 0.7, 0.8, 0.8]},
    index=["d1", "d2", "d3", "d4"],
)


def test_ranks_with_ties():
    r = rank_table(SMALL)
    assert r.loc["d4"].tolist() == [1.0, 2.5, 2.5]
    assert average_ranks(SMALL).tolist() == pytest.approx([1.25, 2.125, 2.625])
    # lower is better reverses: rank = k + 1 − rank
    assert average_ranks(SMALL, higher_is_better=False).tolist() == pytest.approx(
        [2.75, 1.875, 1.375]
    )
    with pytest.raises(ValueError, match=r"no finite value for d2 \(A\) "):
        average_ranks(SMALL.assign(A=[0.9, np.nan, 0.9, 0.9]))


def test_summation_noise_is_a_tie():
    """Two methods whose means differ by 1e-16 (the same folds summed in another order) tie.

    By hand, on d1: A = 0.8 + 1e-16 (one ulp above 0.8 is 0.8 + 1.1e-16), B = 0.8, C = 0.7,
    so A and B share ranks 1 and 2 → 1.5, 1.5, 3; on d2: B = 0.9 > A = 0.8 > C = 0.6 → 2, 1, 3.
    Average ranks A = (1.5 + 2)/2 = 1.75, B = (1.5 + 1)/2 = 1.25, C = 3 (without the tolerance
    A would get 1.5 and B 1.5).
    """
    a = sum([0.1] * 8)  # 0.7999999999999999, not 0.8: summation noise
    assert a != 0.8 and abs(a - 0.8) < 2e-16
    table = pd.DataFrame({"A": [0.8, 0.8], "B": [a, 0.9], "C": [0.7, 0.6]}, index=["d1", "d2"])
    assert rank_table(table).loc["d1"].tolist() == [1.5, 1.5, 3.0]
    assert average_ranks(table).tolist() == [1.75, 1.25, 3.0]
    assert average_ranks(table, higher_is_better=False).tolist() == [2.25, 2.75, 1.0]
    assert average_ranks(table, rtol=0.0).tolist() == [1.5, 1.5, 3.0]  # the noise decides
    # Friedman from the tied ranks: 12·2/(3·4)·(1.75² + 1.25² + 3² − 3·16/4) = 2·1.625 = 3.25
    assert friedman(table)["chi2"] == pytest.approx(3.25)
    # Wilcoxon sees a zero difference, not a win of A
    pair = wilcoxon_pairs(table).iloc[0]
    assert (pair["n_nonzero"], pair["a_better"], pair["b_better"]) == (1, 0, 1)
    # a real difference of 1e-9 (≫ RANK_RTOL) is not a tie; tie_values keeps the group's anchor
    assert RANK_RTOL == 1e-12
    np.testing.assert_array_equal(tie_values([0.5, 0.5 + 1e-9, a, 0.8]), [0.5, 0.5 + 1e-9, a, a])


def test_friedman_hand_values():
    fr = friedman(SMALL)
    # χ²_F = 12N/(k(k+1)) [ΣR² − k(k+1)²/4] = 4 · (12.96875 − 12) = 3.875
    assert fr["chi2"] == pytest.approx(3.875)
    assert fr["chi2_pvalue"] == pytest.approx(stats.chi2.sf(3.875, 2))
    # F_F = (N−1)χ²/(N(k−1) − χ²) = 3·3.875/(8 − 3.875)
    assert fr["ff"] == pytest.approx(11.625 / 4.125)
    assert (fr["ff_df1"], fr["ff_df2"]) == (2, 6)
    assert fr["ff_pvalue"] == pytest.approx(stats.f.sf(11.625 / 4.125, 2, 6))
    # scipy divides by the tie correction 1 − Σ(t³−t)/(Nk(k²−1)) = 1 − 6/96
    assert fr["chi2_scipy"] == pytest.approx(3.875 / (1 - 6 / 96))
    assert fr["chi2_scipy"] == pytest.approx(stats.friedmanchisquare(*SMALL.T.to_numpy()).statistic)


def test_friedman_without_ties_equals_scipy():
    rng = np.random.default_rng(3)
    table = pd.DataFrame(rng.random((12, 5)), columns=list("abcde"))
    fr = friedman(table)
    ref = stats.friedmanchisquare(*table.T.to_numpy())
    assert fr["chi2"] == pytest.approx(ref.statistic)
    assert fr["chi2_pvalue"] == pytest.approx(ref.pvalue)
    assert fr["chi2_scipy"] == pytest.approx(ref.statistic)


def _brute_force_ranks(table: pd.DataFrame) -> list[float]:
    """Average ranks by sorting each row in plain Python (ties: mean of the spanned ranks)."""
    totals = [0.0] * table.shape[1]
    for row in table.itertuples(index=False):
        vals = list(row)
        for j, v in enumerate(vals):
            better = sum(1 for w in vals if w > v)
            equal = sum(1 for w in vals if w == v)
            totals[j] += better + (equal + 1) / 2
    return [t / table.shape[0] for t in totals]


def test_gh2008_ranks_and_friedman(gh2008):
    ranks = average_ranks(gh2008)
    # published in García & Herrera (2008): 2.100, 3.250, 2.200, 4.333, 3.117
    assert ranks.tolist() == pytest.approx([2.100, 3.250, 2.200, 4.333, 3.117], abs=1e-3)
    assert ranks.tolist() == pytest.approx(_brute_force_ranks(gh2008))
    fr = friedman(gh2008)
    n, k = 30, 5
    r = np.array(_brute_force_ranks(gh2008))
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    assert fr["chi2"] == pytest.approx(chi2)
    assert fr["chi2"] == pytest.approx(39.6467, abs=1e-4)
    assert fr["chi2_pvalue"] == pytest.approx(5.1214e-8, rel=1e-3)
    # scmamp imanDavenportTest(data.gh.2008): 14.309, df 4 and 116, p = 1.593e-09
    assert fr["ff"] == pytest.approx(14.309, abs=1e-3)
    assert (fr["ff_df1"], fr["ff_df2"]) == (4, 116)
    assert fr["ff_pvalue"] == pytest.approx(1.593e-9, rel=1e-3)


# ---------------------------------------------------------------------------------------------
# Wilcoxon
# ---------------------------------------------------------------------------------------------
def test_wilcoxon_pairs_matches_scipy_and_handles_zeros(gh2008):
    res = wilcoxon_pairs(gh2008)
    assert len(res) == 10
    row = res[(res.method_a == "C4.5") & (res.method_b == "Kernel")].iloc[0]
    assert row.p_value == pytest.approx(stats.wilcoxon(gh2008["C4.5"], gh2008["Kernel"]).pvalue)
    assert row.a_better == 27 and row.b_better == 3
    for zm in ("wilcox", "pratt", "zsplit"):
        r = wilcoxon_pairs(gh2008[["C4.5", "k-NN(k=1)"]], zero_method=zm).iloc[0]
        ref = stats.wilcoxon(gh2008["C4.5"], gh2008["k-NN(k=1)"], zero_method=zm)
        assert r.p_value == pytest.approx(ref.pvalue)
        assert r.n_nonzero == 29
    same = pd.DataFrame({"a": [0.1, 0.2, 0.3], "b": [0.1, 0.2, 0.3]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = wilcoxon_pairs(same).iloc[0]
    assert r.p_value == 1.0 and np.isnan(r.statistic)
    with pytest.raises(ValueError, match="zero_method"):
        wilcoxon_pairs(same, zero_method="drop")


# ---------------------------------------------------------------------------------------------
# Combinatorics
# ---------------------------------------------------------------------------------------------
def _brute_force_exhaustive(k: int) -> set[frozenset]:
    """Non-empty sets of pairs closed under transitivity = within-block pairs of a partition."""
    pairs = list(itertools.combinations(range(k), 2))
    found = set()
    for mask in range(1, 1 << len(pairs)):
        chosen = {pairs[q] for q in range(len(pairs)) if mask >> q & 1}
        linked = {(a, b) for a, b in chosen} | {(b, a) for a, b in chosen}
        closed = all(
            (a, c) in linked or a == c for (a, b) in linked for (b2, c) in linked if b == b2
        )
        if closed:
            found.add(frozenset(chosen))
    return found


def _as_sets(k: int) -> set[frozenset]:
    ii, jj = pair_index(k)
    return {
        frozenset((int(ii[q]), int(jj[q])) for q in np.flatnonzero(row))
        for row in exhaustive_sets(k)
    }


def test_exhaustive_sets_by_hand_k3():
    expected = {
        frozenset({(0, 1), (0, 2), (1, 2)}),
        frozenset({(0, 1)}),
        frozenset({(0, 2)}),
        frozenset({(1, 2)}),
    }
    assert _as_sets(3) == expected


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_exhaustive_sets_equal_brute_force(k):
    assert _as_sets(k) == _brute_force_exhaustive(k)


def test_exhaustive_set_counts_and_sizes():
    counts = {k: exhaustive_sets(k).shape[0] for k in range(3, 10)}
    assert counts == {3: 4, 4: 14, 5: 51, 6: 202, 7: 876, 8: 4139, 9: 21146}
    assert all(bell_number(k) - 1 == c for k, c in counts.items())
    # k = 4: one set of 6 pairs, four triangles (3), three 2+2 splits (2), six single pairs
    sizes = np.bincount(exhaustive_sets(4).sum(axis=1))
    assert sizes.tolist() == [0, 6, 3, 4, 0, 0, 1]
    rgs = set_partitions(4)
    assert len({tuple(r) for r in rgs}) == 15 and (rgs[:, 0] == 0).all()
    with pytest.raises(ValueError, match="use correction='shaffer'"):
        exhaustive_sets(12)


def test_shaffer_counts():
    assert shaffer_counts(3) == (0, 1, 3)
    assert shaffer_counts(4) == (0, 1, 2, 3, 6)
    assert shaffer_counts(5) == (0, 1, 2, 3, 4, 6, 10)
    assert shaffer_multipliers(4).tolist() == [6, 3, 3, 3, 2, 1]
    assert shaffer_multipliers(5).tolist() == [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]
    # S(k) is the set of sizes of exhaustive sets (and 0)
    for k in range(3, 8):
        sizes = set(exhaustive_sets(k).sum(axis=1).tolist()) | {0}
        assert sizes == set(shaffer_counts(k))


# ---------------------------------------------------------------------------------------------
# Adjustments: hand values
# ---------------------------------------------------------------------------------------------
def test_adjustments_by_hand_k3():
    raw = _matrix(3, [0.01, 0.04, 0.03])  # pairs AB, AC, BC
    assert _pairs_of(adjust_pairwise(raw, "bonferroni")) == pytest.approx([0.03, 0.12, 0.09])
    # Holm: 3·0.01; max(0.03, 2·0.03); max(0.06, 1·0.04)
    assert _pairs_of(adjust_pairwise(raw, "holm")) == pytest.approx([0.03, 0.06, 0.06])
    # Shaffer, t = (3, 1, 1)
    assert _pairs_of(adjust_pairwise(raw, "shaffer")) == pytest.approx([0.03, 0.04, 0.03])
    # Bergmann: sets {AB,AC,BC} → 3·0.01, {AB} → .01, {AC} → .04, {BC} → .03
    assert _pairs_of(adjust_pairwise(raw, "bergmann")) == pytest.approx([0.03, 0.04, 0.03])
    adj = adjust_pairwise(raw, "bergmann")
    assert list(adj.index) == ["A", "B", "C"] and np.allclose(np.diag(adj), 1.0)


def test_adjustments_by_hand_k4():
    # pairs AB, AC, AD, BC, BD, CD
    raw = _matrix(4, [0.001, 0.01, 0.02, 0.03, 0.04, 0.5])
    berg = _pairs_of(adjust_pairwise(raw, "bergmann"))
    # AB: all six → 6·.001, triangles ABC/ABD → 3·.001, AB|CD → 2·.001, AB → .001
    assert berg[0] == pytest.approx(0.006)
    # BD: ABD → 3·.001; BCD (BC, BD, CD) → 3·.03; AC|BD → 2·.01; BD alone → .04
    assert berg[4] == pytest.approx(0.09)
    # CD: ACD → 3·.01, BCD → .09, AB|CD → .002, CD → .5
    assert berg[5] == pytest.approx(0.5)
    # Holm: 6·.001, 5·.01, 4·.02, 3·.03, 2·.04, .5 with running max
    assert _pairs_of(adjust_pairwise(raw, "holm")) == pytest.approx(
        [0.006, 0.05, 0.08, 0.09, 0.09, 0.5]
    )
    # Shaffer t = 6, 3, 3, 3, 2, 1
    assert _pairs_of(adjust_pairwise(raw, "shaffer")) == pytest.approx(
        [0.006, 0.03, 0.06, 0.09, 0.09, 0.5]
    )


def _brute_force_bergmann(p: np.ndarray, k: int) -> np.ndarray:
    sets = _brute_force_exhaustive(k)
    ii, jj = pair_index(k)
    index = {(int(a), int(b)): q for q, (a, b) in enumerate(zip(ii, jj))}
    v = np.zeros(p.size)
    for s in sets:
        qs = [index[pair] for pair in s]
        val = len(qs) * min(p[q] for q in qs)
        for q in qs:
            v[q] = max(v[q], val)
    return v


@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_bergmann_equals_brute_force(k):
    rng = np.random.default_rng(k)
    m = k * (k - 1) // 2
    p = rng.random(m) ** 3
    adj = adjust_pairwise(_matrix(k, p), "bergmann", cap=False)
    assert _pairs_of(adj) == pytest.approx(_brute_force_bergmann(p, k))


def test_monotone_and_cap():
    # k = 3 with Bergmann non-monotone: raw AB .01 < BC .02 < AC .03
    raw = _matrix(3, [0.01, 0.03, 0.02])
    plain = _pairs_of(adjust_pairwise(raw, "bergmann"))
    assert plain == pytest.approx([0.03, 0.03, 0.03])
    raw = _matrix(4, [0.001, 0.01, 0.02, 0.03, 0.04, 0.5])
    plain = _pairs_of(adjust_pairwise(raw, "bergmann"))
    mono = _pairs_of(adjust_pairwise(raw, "bergmann", monotone=True))
    order = np.argsort(_pairs_of(raw))
    assert np.all(np.diff(mono[order]) >= 0)
    assert np.all(mono >= plain)
    # uncapped values may exceed 1; capped = min(uncapped, 1)
    big = _matrix(4, [0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    for corr in CORRECTIONS:
        unc = _pairs_of(adjust_pairwise(big, corr, cap=False))
        cap = _pairs_of(adjust_pairwise(big, corr))
        assert cap == pytest.approx(np.minimum(unc, 1.0))
    assert _pairs_of(adjust_pairwise(big, "bonferroni", cap=False)).max() == pytest.approx(4.8)
    assert _pairs_of(adjust_pairwise(big, "bergmann", cap=False)).max() > 1


def _random_table(rng, n, k) -> pd.DataFrame:
    # rounded values create ties within data sets (and tied rank differences)
    values = np.round(rng.random((n, k)) + np.linspace(0, 0.6, k), 1)
    return pd.DataFrame(values, columns=[f"m{j}" for j in range(k)])


@pytest.mark.parametrize("seed", range(6))
def test_properties_order_and_permutation(seed):
    rng = np.random.default_rng(seed)
    k = 4 + seed % 4
    table = _random_table(rng, 12 + seed, k)
    raw = ztest_pvalues(table)
    for cap in (True, False):
        adj = {c: adjust_pairwise(raw, c, cap=cap).to_numpy() for c in CORRECTIONS}
        mono = adjust_pairwise(raw, "bergmann", monotone=True, cap=cap).to_numpy()
        tol = 1e-12
        assert np.all(adj["bergmann"] >= raw.to_numpy() - tol)
        assert np.all(adj["bergmann"] <= adj["shaffer"] + tol)
        assert np.all(mono <= adj["shaffer"] + tol)
        assert np.all(mono >= adj["bergmann"] - tol)
        assert np.all(adj["shaffer"] <= adj["holm"] + tol)
        assert np.all(adj["holm"] <= adj["bonferroni"] + tol)
        assert np.all(adj["nemenyi"] <= adj["bonferroni"] + tol)
        assert np.all(adj["nemenyi"] >= raw.to_numpy() - tol)
        for a in adj.values():
            assert np.allclose(a, a.T)
    perm = list(rng.permutation(table.columns))
    permuted = table[perm]
    for corr in CORRECTIONS:
        for monotone in (False, True):
            base = posthoc(table, corr, monotone=monotone)
            other = posthoc(permuted, corr, monotone=monotone)
            pd.testing.assert_frame_equal(base.loc[perm, perm], other, rtol=0, atol=1e-15)


def test_bergmann_k9_is_fast():
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.random((40, 9)), columns=[f"m{j}" for j in range(9)])
    start = time.perf_counter()
    adj = posthoc(table, "bergmann")
    assert time.perf_counter() - start < 5.0
    assert adj.shape == (9, 9)


# ---------------------------------------------------------------------------------------------
# García & Herrera (2008) example
# ---------------------------------------------------------------------------------------------
# scmamp friedmanPost(data.gh.2008): raw p of the z-test on ranks
SCMAMP_RAW = {
    ("C4.5", "k-NN(k=1)"): 0.004848763,
    ("C4.5", "NaiveBayes"): 0.8064959,
    ("C4.5", "Kernel"): 4.486991e-08,
    ("C4.5", "CN2"): 0.012763008,
    ("k-NN(k=1)", "NaiveBayes"): 0.010112334,
    ("k-NN(k=1)", "Kernel"): 0.007963489,
    ("k-NN(k=1)", "CN2"): 0.743971478,
    ("NaiveBayes", "Kernel"): 1.736118e-07,
    ("NaiveBayes", "CN2"): 0.024744672,
    ("Kernel", "CN2"): 0.002880485,
}


def test_gh2008_raw_pvalues(gh2008):
    raw = ztest_pvalues(gh2008)
    for (a, b), p in SCMAMP_RAW.items():
        assert raw.loc[a, b] == pytest.approx(p, rel=1e-6)
        assert raw.loc[b, a] == raw.loc[a, b]


def test_gh2008_adjusted_table(gh2008):
    long = pairwise_comparisons(gh2008)
    assert long["hypothesis"].tolist()[:4] == [
        "C4.5 vs Kernel",
        "NaiveBayes vs Kernel",
        "Kernel vs CN2",
        "C4.5 vs k-NN(k=1)",
    ]
    assert np.all(np.diff(long["p"]) >= 0)
    p = long["p"].to_numpy()
    m = 10
    holm = np.minimum(np.maximum.accumulate((m - np.arange(m)) * p), 1)
    shaffer = np.minimum(np.maximum.accumulate(np.array([10, 6, 6, 6, 6, 4, 4, 3, 2, 1]) * p), 1)
    assert long["p_bonferroni"].to_numpy() == pytest.approx(np.minimum(10 * p, 1))
    assert long["p_holm"].to_numpy() == pytest.approx(holm)
    assert long["p_shaffer"].to_numpy() == pytest.approx(shaffer)
    # Bergmann–Hommel: independent brute force, and the values (from the rounded raw p)
    # of García & Herrera (2008) as quoted in scmamp's documentation
    ii, jj = pair_index(5)
    names = list(gh2008.columns)
    raw = ztest_pvalues(gh2008).to_numpy()[ii, jj]
    brute = dict(zip(zip(ii, jj), _brute_force_bergmann(raw, 5)))
    for row in long.itertuples():
        a, b = names.index(row.method_a), names.index(row.method_b)
        assert row.p_bergmann == pytest.approx(min(brute[(a, b)], 1.0))
    published = [4.487e-7, 1.0416e-6, 0.0116, 0.0288, 0.032, 0.0303, 0.0384, 0.0384, 1, 1]
    assert long["p_bergmann"].to_numpy() == pytest.approx(published, rel=0.02)
    # scmamp's monotone step lifts i = 6 (k-NN vs NaiveBayes) to the value of i = 5
    mono = pairwise_comparisons(gh2008, corrections=["bergmann"], monotone=True)
    assert long["p_bergmann"].iloc[4] > long["p_bergmann"].iloc[5]
    assert mono["p_bergmann"].iloc[5] == pytest.approx(long["p_bergmann"].iloc[4])
    assert np.all(np.diff(mono["p_bergmann"]) >= 0)
    # at α = 0.05 Bergmann–Hommel retains only C4.5 ~ NaiveBayes and k-NN ~ CN2
    kept = set(long.loc[long["p_bergmann"] >= 0.05, "hypothesis"])
    assert kept == {"C4.5 vs NaiveBayes", "k-NN(k=1) vs CN2"}
    assert (long["p_bonferroni"] < 0.05).sum() == 4
    assert (long["p_holm"] < 0.05).sum() == 5
    assert (long["p_shaffer"] < 0.05).sum() == 6
    assert (long["p_bergmann"] < 0.05).sum() == 8


def test_nemenyi_critical_difference():
    # Demšar (2006) Table 5a: q_0.05 = 2.728 for k = 5
    cd = nemenyi_critical_difference(5, 30)
    assert cd == pytest.approx(2.728 * math.sqrt(5 * 6 / (6 * 30)), rel=1e-3)


def test_errors():
    with pytest.raises(ValueError, match="correction must be one of"):
        posthoc(SMALL, "sidak")
    with pytest.raises(ValueError, match="square"):
        adjust_pairwise(np.ones((2, 3)))
    with pytest.raises(ValueError, match="at least 2 methods"):
        average_ranks(SMALL[["A"]])


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------
def test_cd_cliques_hand_cases():
    ranks = pd.Series({"B": 2.0, "A": 1.0, "C": 3.0, "D": 4.0})
    #                       AB    AC    AD    BC    BD    CD
    p = _matrix(4, [0.20, 0.01, 0.001, 0.30, 0.01, 0.02])
    assert cd_cliques(ranks, p) == [("A", "B"), ("B", "C")]
    # everything non-significant → one group
    assert cd_cliques(ranks, _matrix(4, [0.5] * 6)) == [("A", "B", "C", "D")]
    # everything significant → no bar
    assert cd_cliques(ranks, _matrix(4, [0.001] * 6)) == []
    # A ~ C but A ≠ B: a bar from A to C would hide A ≠ B, so only B–C–D and no A group
    p = _matrix(4, [0.01, 0.3, 0.001, 0.4, 0.2, 0.3])
    assert cd_cliques(ranks, p) == [("B", "C", "D")]
    # with a critical difference: |ΔR| < CD
    assert cd_cliques(ranks, 1.5) == [("A", "B"), ("B", "C"), ("C", "D")]
    assert cd_cliques(ranks, 2.5) == [("A", "B", "C"), ("B", "C", "D")]


def test_cd_cliques_gh2008(gh2008):
    ranks = average_ranks(gh2008)
    berg = posthoc(gh2008, "bergmann")
    assert cd_cliques(ranks, berg) == [("C4.5", "NaiveBayes"), ("CN2", "k-NN(k=1)")]
    cd = nemenyi_critical_difference(5, 30)
    assert cd_cliques(ranks, cd) == [
        ("C4.5", "NaiveBayes", "CN2"),
        ("NaiveBayes", "CN2", "k-NN(k=1)"),
        ("k-NN(k=1)", "Kernel"),
    ]


def test_figures_render(tmp_path, gh2008):
    ranks = average_ranks(gh2008)
    berg = posthoc(gh2008, "bergmann")
    fig = cd_diagram(ranks, berg, title="Bergmann")
    bars = [ln for ln in fig.axes[0].lines if ln.get_linewidth() == pytest.approx(3.5)]
    assert len(bars) == len(cd_cliques(ranks, berg)) == 2
    fig.savefig(tmp_path / "cd.png", bbox_inches="tight")
    fig2, ax = plt.subplots()
    assert cd_diagram(ranks, nemenyi_critical_difference(5, 30), ax=ax) is fig2
    fig2.savefig(tmp_path / "cd_nemenyi.png", bbox_inches="tight")
    fig3 = significance_heatmap(posthoc(gh2008, "bergmann", cap=False), alpha=0.05)
    fig3.savefig(tmp_path / "heat.png")
    for name in ("cd.png", "cd_nemenyi.png", "heat.png"):
        assert (tmp_path / name).stat().st_size > 1000
    plt.close("all")
