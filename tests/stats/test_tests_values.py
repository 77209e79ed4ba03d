"""Known answers of repro.stats.tests on tiny tables (the mutation run of 2026-11-28,
results/mutation/2026-11-28-stats.md).

Every expected value is computed here by hand or by an independent oracle written in this file:
closed forms of the t(2), F(1, 2) and χ²(1), χ²(2) tails, the exact Wilcoxon distribution by
enumerating all 2^n sign assignments, and the textbook normal approximation with continuity
correction. No expected value is taken from the code under test.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from repro.stats.tests import (
    average_ranks,
    friedman,
    metric_table,
    missing_lines,
    missing_values,
    paired_t_wins_losses,
    rank_table,
    tie_values,
    wilcoxon_pairs,
)


def _records(values: dict, metric="accuracy", split="test", repetition=0) -> pd.DataFrame:
    """values[(dataset, method)] = per-fold values of one repetition."""
    rows = [
        dict(method=method, dataset=dataset, repetition=repetition, fold=fold, split=split,
             metric=metric, value=float(v))
        for (dataset, method), folds in values.items()
        for fold, v in enumerate(folds)
    ]  # fmt: skip
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# records: checks, metric_table, missing folds
# ---------------------------------------------------------------------------------------------
def test_record_checks_name_what_is_missing():
    rec = pd.concat(
        [
            _records({("d", "a"): [1, 2]}),
            _records({("d", "a"): [5, 5]}, metric="auc", split="train"),
        ]
    )
    with pytest.raises(
        ValueError,
        match=r"^records lack the column\(s\) \['fold', 'value'\]; expected at least \['method',",
    ):
        metric_table(rec.drop(columns=["value", "fold"]), "accuracy")
    with pytest.raises(
        ValueError,
        match=r"^metric 'ilf' not found in records; available metrics: \['accuracy', 'auc'\]$",
    ):
        metric_table(rec, "ilf")
    # auc exists only on train: the split filter empties it and names the splits present
    with pytest.raises(
        ValueError, match=r"^no 'auc' records with split='test'; splits: \['test', 'train'\]$"
    ):
        metric_table(rec, "auc")
    with pytest.raises(ValueError, match=r"no 'auc' records with split='test'"):
        paired_t_wins_losses(rec, "a", "auc")
    # split=None keeps the train rows: mean of 5 and 5
    assert metric_table(rec, "auc", split=None).loc["d", "a"] == 5.0


def test_metric_table_labels_and_split():
    # train rows of the same method and folds must not enter the test means
    rec = pd.concat(
        [
            _records({("d2", "b"): [1, 3], ("d1", "a"): [2, 4], ("d2", "a"): [0, 1]}),
            _records({("d2", "b"): [100, 100]}, split="train"),
        ]
    )
    table = metric_table(rec, "accuracy")
    assert table.index.tolist() == ["d1", "d2"]  # sorted data sets
    assert table.columns.tolist() == ["b", "a"]  # first appearance
    assert table.columns.name == "method"
    assert table.loc["d2", "b"] == 2.0 and table.loc["d1", "a"] == 3.0
    assert table.loc["d2", "a"] == 0.5 and np.isnan(table.loc["d1", "b"])
    # split=None: d2/b pools the 2 test and 2 train folds, (1 + 3 + 100 + 100) / 4
    assert metric_table(rec, "accuracy", split=None).loc["d2", "b"] == 51.0


def test_missing_values_and_lines_by_hand():
    nan = float("nan")
    rec = _records(
        {
            ("d3", "b"): [7.0] + [nan] * 12,  # 12 missing: 10 named and "2 more"
            ("d2", "a"): [nan, nan],  # none
            ("d1", "b"): [1, 2, 3, 4],  # complete: no row
            ("d1", "a"): [1, nan, 3, nan],  # 2 of 4 folds
        }
    )  # rows out of order: the result is sorted by method, then data set
    miss = missing_values(rec, "accuracy")
    assert miss.columns.tolist() == ["method", "dataset", "n", "folds", "missing"]
    assert miss[["method", "dataset", "n", "folds"]].values.tolist() == [
        ["a", "d1", 2, 4],
        ["a", "d2", 0, 2],
        ["b", "d3", 1, 13],
    ]
    assert miss["missing"].tolist() == [
        [(0, 1), (0, 3)],
        [(0, 0), (0, 1)],
        [(0, f) for f in range(1, 13)],
    ]
    folds = ", ".join(f"r0f{f}" for f in range(1, 11))
    assert missing_lines(miss, "accuracy") == [
        "a on d1: no accuracy on fold(s) r0f1, r0f3; mean over the other 2 of 4 folds (n = 2)",
        "a on d2: no accuracy on fold(s) r0f0, r0f1; no value on any fold: left out",
        f"b on d3: no accuracy on fold(s) {folds} and 2 more; mean over the other 1 of 13 "
        "folds (n = 1)",
    ]
    # exactly 10 missing folds: all named, no "more"; 11: one more
    ten = missing_values(_records({("d", "a"): [nan] * 10 + [1.0]}), "accuracy")
    line = missing_lines(ten, "accuracy")[0]
    assert line.endswith("r0f9; mean over the other 1 of 11 folds (n = 1)")
    eleven = missing_values(_records({("d", "a"): [nan] * 11 + [1.0]}), "accuracy")
    line = missing_lines(eleven, "accuracy")[0]
    assert line.endswith("r0f9 and 1 more; mean over the other 1 of 12 folds (n = 1)")
    # the mean is over the folds with a value: (1 + 3) / 2
    assert metric_table(rec, "accuracy").loc["d1", "a"] == 2.0
    # no missing fold: an empty frame with the columns
    empty = missing_values(_records({("d", "a"): [1, 2]}), "accuracy")
    assert empty.empty and empty.columns.tolist() == ["method", "dataset", "n", "folds", "missing"]
    assert missing_lines(empty, "accuracy") == []
    # the split filter applies: a NaN on the train split is not a missing test fold
    train = _records({("d", "a"): [nan, 1.0]}, split="train")
    both = pd.concat([_records({("d", "a"): [1, 2]}), train])
    assert missing_values(both, "accuracy").empty
    assert len(missing_values(both, "accuracy", split="train")) == 1


# ---------------------------------------------------------------------------------------------
# paired t-test W/L
# ---------------------------------------------------------------------------------------------
# ref − m = (1, 2, 2): mean 5/3, sd² = (4/9 + 1/9 + 1/9)/2 = 1/3, t = (5/3)/(sqrt(1/3)/sqrt(3))
# = 5 exactly, 2 d.o.f.; for t(2), P(T > t) = (1 − t/sqrt(t² + 2))/2, so the two-tailed
# p = 1 − 5/sqrt(27) = 0.03775: a win at α = 0.05, a tie at α = 0.01.
P_T5 = 1.0 - 5.0 / math.sqrt(27.0)


def _hand_records():
    return pd.concat(
        [
            _records(
                {
                    ("d1", "ref"): [1, 2, 3],
                    ("d1", "m"): [0, 0, 1],
                    ("d1", "k"): [1, 2, 3],  # identical → tie, p = 1
                    ("d2", "ref"): [0.5, 0.5],
                    ("d2", "m"): [0.25, 0.25],  # constant shift of +0.25 → t = +inf, p = 0
                    ("d3", "ref"): [0.4],
                    ("d3", "m"): [0.1],  # one pair: no test, t = p = NaN, tie
                }
            ),
            # train rows with other values: never used (split="test")
            _records({("d1", "ref"): [9, 9, 9], ("d1", "m"): [0, 5, 1]}, split="train"),
        ]
    )


def test_paired_t_hand_values():
    details, summary = paired_t_wins_losses(_hand_records(), "ref", "accuracy")
    assert details.columns.tolist() == [
        "dataset", "method", "mean_reference", "mean_method", "n_pairs", "t", "p_value",
        "outcome",
    ]  # fmt: skip
    d = details.set_index(["dataset", "method"])
    assert list(d.index) == [("d1", "m"), ("d1", "k"), ("d2", "m"), ("d3", "m")]
    assert d.loc[("d1", "m"), "t"] == pytest.approx(5.0, rel=1e-12)
    assert d.loc[("d1", "m"), "p_value"] == pytest.approx(P_T5, rel=1e-9)
    assert d.loc[("d1", "m"), "outcome"] == "win"
    assert d.loc[("d1", "m"), "n_pairs"] == 3
    assert (d.loc[("d1", "m"), "mean_reference"], d.loc[("d1", "m"), "mean_method"]) == (
        2.0,
        pytest.approx(1 / 3),
    )
    assert tuple(d.loc[("d1", "k"), ["t", "p_value", "outcome"]]) == (0.0, 1.0, "tie")
    assert tuple(d.loc[("d2", "m"), ["t", "p_value", "outcome"]]) == (np.inf, 0.0, "win")
    row = d.loc[("d3", "m")]
    assert np.isnan(row["t"]) and np.isnan(row["p_value"]) and row["outcome"] == "tie"
    assert row["n_pairs"] == 1
    # summary: reference first (order of appearance), means over data sets of the test means
    assert summary.index.tolist() == ["ref", "m", "k"] and summary.index.name == "method"
    assert summary.columns.tolist() == ["mean", "wins", "losses", "ties", "W/L"]
    assert summary.loc["ref", "mean"] == pytest.approx((2.0 + 0.5 + 0.4) / 3)
    assert summary.loc["m", "mean"] == pytest.approx((1 / 3 + 0.25 + 0.1) / 3)
    assert summary.loc["k", "mean"] == 2.0
    assert summary.loc["m"].tolist()[1:] == [2, 0, 1, "2/0"]
    assert summary.loc["k"].tolist()[1:] == [0, 0, 1, "0/0"]
    assert summary.loc["ref"].tolist()[1:] == [0, 0, 0, ""]


def test_paired_t_alpha_and_direction():
    rec = _hand_records()
    # p = 0.03775: a tie at α = 0.01 and at α = 0.03, a win at 0.04 (α is used, not 0.05)
    for alpha, outcome in ((0.01, "tie"), (0.03, "tie"), (0.04, "win"), (0.5, "win")):
        d = paired_t_wins_losses(rec, "ref", "accuracy", alpha=alpha).details
        assert d.iloc[0]["outcome"] == outcome
    # lower is better: the same tests, the reference's higher values are losses
    details, summary = paired_t_wins_losses(rec, "ref", "accuracy", higher_is_better=False)
    assert details["outcome"].tolist() == ["loss", "tie", "loss", "tie"]
    assert summary.loc["m"].tolist()[1:] == [0, 2, 1, "0/2"]
    # from the other side: m against ref has t = −5 and t = −inf, two losses
    d = paired_t_wins_losses(rec, "m", "accuracy").details.set_index(["dataset", "method"])
    assert d.loc[("d1", "ref"), "t"] == pytest.approx(-5.0, rel=1e-12)
    assert d.loc[("d2", "ref"), "t"] == -np.inf
    assert d.loc[("d1", "ref"), "outcome"] == "loss" and d.loc[("d2", "ref"), "outcome"] == "loss"
    for alpha in (0.0, 1.0, -0.1, 1.5):
        with pytest.raises(ValueError, match=rf"^alpha must be in \(0, 1\), got {alpha}$"):
            paired_t_wins_losses(rec, "ref", "accuracy", alpha=alpha)


def test_paired_t_summation_noise_is_a_constant_difference():
    """0.1 + 0.2 = 0.30000000000000004: differences equal up to summation noise (ptp ~ 5e-17)
    are a constant shift (t = ±inf) or, when they are all noise, no difference at all."""
    rec = _records(
        {
            ("d1", "ref"): [0.1 + 0.2, 0.3, 0.3],
            ("d1", "m"): [0.2, 0.2, 0.2],  # +0.1 on every fold, up to 5.5e-17
            ("d2", "ref"): [0.1 + 0.2, 0.1 + 0.2],
            ("d2", "m"): [0.3, 0.3],  # differences 5.5e-17: equal values
            ("d3", "ref"): [100.0, 200.0 + 2e-11, 300.0],
            ("d3", "m"): [0.0, 100.0, 200.0],  # +100, +100 + 2e-11 (rel 2e-13), +100
        }
    )
    d = paired_t_wins_losses(rec, "ref", "accuracy").details.set_index("dataset")
    assert tuple(d.loc["d1", ["t", "p_value", "outcome"]]) == (np.inf, 0.0, "win")
    assert tuple(d.loc["d2", ["t", "p_value", "outcome"]]) == (0.0, 1.0, "tie")
    assert tuple(d.loc["d3", ["t", "p_value", "outcome"]]) == (np.inf, 0.0, "win")


def test_paired_t_spread_above_the_tolerance_is_a_t_test():
    """Differences (0.1, 0.1 + e, 0.1), e ≈ 1.5e-12 > 1e-12 (differences below 1 in size: the
    tolerance is 1e-12 absolute): an ordinary t-test, t = mean(d)/(sd(d)/√3) with
    sd = e/√3, so t = 3·mean(d)/e ≈ 2e11 — finite, not the constant-shift limit."""
    ref = [0.3, 0.3 + 1.5e-12, 0.3]
    rec = _records({("d", "ref"): ref, ("d", "m"): [0.2, 0.2, 0.2]})
    row = paired_t_wins_losses(rec, "ref", "accuracy").details.iloc[0]
    d = np.array(ref) - 0.2
    e = d[1] - d[0]
    assert 1.2e-12 < e < 1.8e-12 and d[2] == d[0]
    assert np.isfinite(row["t"]) and row["t"] == pytest.approx(3 * d.mean() / e, rel=1e-6)
    assert row["outcome"] == "win"


def test_paired_t_tolerances_are_inclusive():
    """The tolerances are "<=": differences (0, 1e-12) spread by exactly 1e-12 are a constant
    shift, and a shift of exactly 1e-12 is no shift (t = 0, p = 1, a tie); a p-value equal to
    α is not significant (p < α)."""
    rec = _records(
        {
            ("d1", "ref"): [0.0, 1e-12],
            ("d1", "m"): [0.0, 0.0],  # a t-test would give t = 1, p = 0.5
            ("d2", "ref"): [1e-12, 1e-12],
            ("d2", "m"): [0.0, 0.0],  # without the tolerance: t = +inf, p = 0, a win
        }
    )
    d = paired_t_wins_losses(rec, "ref", "accuracy").details.set_index("dataset")
    assert tuple(d.loc["d1", ["t", "p_value", "outcome"]]) == (0.0, 1.0, "tie")
    assert tuple(d.loc["d2", ["t", "p_value", "outcome"]]) == (0.0, 1.0, "tie")
    rec = _hand_records()
    p = paired_t_wins_losses(rec, "ref", "accuracy").details["p_value"].iloc[0]
    assert p == pytest.approx(P_T5)
    at = paired_t_wins_losses(rec, "ref", "accuracy", alpha=p).details["outcome"].iloc[0]
    assert at == "tie"


def test_paired_t_without_a_common_fold():
    """ref ran on folds 0, 1 and m on folds 2, 3 of the same data set: no pair, so no test
    (t = p = NaN, a tie) and no mean over the (empty) pairs."""
    rec = pd.concat(
        [
            _records({("d", "ref"): [0.9, 0.8]}),
            _records({("d", "m"): [0.1, 0.2, 0.3, 0.4]}).query("fold >= 2"),
        ]
    )
    row = paired_t_wins_losses(rec, "ref", "accuracy").details.iloc[0]
    assert row["n_pairs"] == 0 and row["outcome"] == "tie"
    for col in ("mean_reference", "mean_method", "t", "p_value"):
        assert np.isnan(row[col])


def test_paired_t_a_method_without_values_does_not_stop_the_others():
    """m has no value on d1 (it failed there); k, listed after m, still has its test on d1."""
    nan = float("nan")
    rec = _records(
        {
            ("d1", "ref"): [1, 2, 3],
            ("d1", "m"): [nan, nan, nan],
            ("d1", "k"): [0, 0, 1],  # the t = 5 case: a win
            ("d2", "ref"): [1, 2],
            ("d2", "m"): [1, 2],
        }
    )
    details, summary = paired_t_wins_losses(rec, "ref", "accuracy")
    assert list(zip(details["dataset"], details["method"])) == [("d1", "k"), ("d2", "m")]
    assert summary.loc["k", "W/L"] == "1/0" and summary.loc["m", "ties"] == 1


def test_paired_t_on_another_split():
    """split="train": the tests and the summary means use the train rows only."""
    rec = pd.concat(
        [
            _records({("d", "ref"): [5, 5, 5], ("d", "m"): [0, 0, 0]}),
            _records({("d", "ref"): [1, 2, 3], ("d", "m"): [0, 0, 1]}, split="train"),
        ]
    )
    details, summary = paired_t_wins_losses(rec, "ref", "accuracy", split="train")
    assert details["t"].iloc[0] == pytest.approx(5.0, rel=1e-12)
    assert summary["mean"].tolist() == pytest.approx([2.0, 1 / 3])
    both = paired_t_wins_losses(rec, "ref", "accuracy", split=None).summary
    assert both["mean"].tolist() == pytest.approx([3.5, 1 / 6])


def test_paired_t_method_without_values_and_no_common_data_set():
    nan = float("nan")
    rec = _records(
        {
            ("d1", "ref"): [1, 2, 3],
            ("d1", "m"): [nan, nan, nan],  # m has no value on d1: no test
            ("d2", "m"): [1, 2],  # no reference on d2
        }
    )
    details, summary = paired_t_wins_losses(rec, "ref", "accuracy")
    assert details.empty
    assert details.columns.tolist()[-1] == "outcome"
    assert summary.loc["m"].tolist()[1:] == [0, 0, 0, "0/0"]
    assert summary.loc["m", "mean"] == 1.5  # its one data set with values (d2)
    assert summary["wins"].dtype.kind == "i"


# ---------------------------------------------------------------------------------------------
# tie_values, ranks
# ---------------------------------------------------------------------------------------------
def test_tie_values_anchors_on_the_groups_smallest_value():
    # 1 + 0.6e-12 joins 1 (|Δ| ≤ 1e-12 · 1.0000000000006); 1 + 1.2e-12 is 1.2e-12 from the
    # anchor 1 (not from its neighbour): a new group
    x = np.array([1.0 + 1.2e-12, 1.0, 1.0 + 0.6e-12])
    out = tie_values(x)
    assert out.tolist() == [1.0 + 1.2e-12, 1.0, 1.0]
    assert x.tolist() == [1.0 + 1.2e-12, 1.0, 1.0 + 0.6e-12]  # the input is not modified
    # a larger rtol merges all three; rtol = 0 merges none
    assert tie_values(x, rtol=1e-11).tolist() == [1.0, 1.0, 1.0]
    assert tie_values(x, rtol=0.0).tolist() == x.tolist()
    # the tolerance is inclusive: |2 − 1| = 0.5 · max(1, 2) joins 2 to 1 at rtol = 0.5
    assert tie_values([2.0, 1.0], rtol=0.5).tolist() == [1.0, 1.0]
    # integers come back as floats
    assert tie_values([3, 1, 2]).dtype == np.float64
    # negative values: the tolerance is relative to the magnitudes
    neg = tie_values([-1.0, -1.0 + 0.5e-12, -3.0])
    assert neg.tolist() == [-1.0, -1.0, -3.0]
    # rows of a 2-d array are independent; the shape is kept
    two = tie_values([[2.0, 2.0 + 1e-12, 5.0], [2.0 + 1e-12, 7.0, 7.0 - 3e-12]])
    assert two.tolist() == [[2.0, 2.0, 5.0], [2.0 + 1e-12, 7.0 - 3e-12, 7.0 - 3e-12]]


def test_rank_table_direction_and_rtol():
    t = pd.DataFrame({"a": [0.5, 1.0], "b": [0.5 + 1e-13, 2.0], "c": [0.2, 3.0]})
    assert rank_table(t).to_numpy().tolist() == [[1.5, 1.5, 3.0], [3.0, 2.0, 1.0]]
    assert rank_table(t, higher_is_better=False).to_numpy().tolist() == [
        [2.5, 2.5, 1.0],
        [1.0, 2.0, 3.0],
    ]
    assert rank_table(t, rtol=0.0).loc[0].tolist() == [2.0, 1.0, 3.0]
    assert rank_table(t, higher_is_better=False, rtol=1e-14).loc[0].tolist() == [2.0, 3.0, 1.0]
    with pytest.raises(
        ValueError, match=r"^table must be a DataFrame of data sets \(rows\) × methods \(columns\)$"
    ):
        rank_table(t.to_numpy())
    with pytest.raises(ValueError, match=r"^table has no data set \(row\)$"):
        rank_table(t.iloc[:0])
    with pytest.raises(
        ValueError,
        match=r"^no finite value for 1 \(c\) \(data set \(method\)\); leave those data sets "
        r"out before ranking$",
    ):
        rank_table(t.assign(c=[0.2, np.inf]))
    # a pandas missing value (pd.NA of a nullable column) is a missing value too
    nullable = t.assign(c=pd.array([0.2, None], dtype="Float64"))
    with pytest.raises(ValueError, match=r"no finite value for 1 \(c\) "):
        rank_table(nullable)
    assert average_ranks(t).name == "average_rank"
    assert average_ranks(t).tolist() == [2.25, 1.75, 2.0]
    with pytest.raises(ValueError, match=r"^duplicated method names in \['a', 'b', 'a'\]$"):
        rank_table(t.set_axis(["a", "b", "a"], axis=1))


# ---------------------------------------------------------------------------------------------
# Friedman / Iman–Davenport
# ---------------------------------------------------------------------------------------------
def test_friedman_k2_with_a_tie_closed_forms():
    """Ranks (1, 2), (1, 2), (1.5, 1.5): R = (7/6, 11/6), ΣR² = 42.5/9, k(k+1)²/4 = 4.5,
    χ²_F = 12·3/(2·3) · (42.5 − 40.5)/9 = 4/3; tie correction 1 − 6/(3·2·3) = 2/3, so scipy's
    χ² = 2; F_F = 2 · (4/3) / (3 − 4/3) = 1.6 with (1, 2) d.o.f. F(1, 2) = t(2)²:
    P(F > 1.6) = 1 − sqrt(1.6/3.6) = 1/3. χ²(1) tail: P(X > x) = erfc(sqrt(x/2))."""
    table = pd.DataFrame({"a": [1.0, 1.0, 0.5], "b": [0.0, 0.0, 0.5]})
    fr = friedman(table)
    assert fr.name == "friedman"
    assert fr.index.tolist() == [
        "n_datasets", "n_methods", "chi2", "chi2_df", "chi2_pvalue", "chi2_scipy",
        "chi2_scipy_pvalue", "ff", "ff_df1", "ff_df2", "ff_pvalue",
    ]  # fmt: skip
    assert (fr["n_datasets"], fr["n_methods"], fr["chi2_df"]) == (3, 2, 1)
    assert (fr["ff_df1"], fr["ff_df2"]) == (1, 2)
    assert fr["chi2"] == pytest.approx(4 / 3, rel=1e-12)
    assert fr["chi2_pvalue"] == pytest.approx(math.erfc(math.sqrt(2 / 3)), rel=1e-9)
    assert fr["chi2_scipy"] == pytest.approx(2.0, rel=1e-12)
    assert fr["chi2_scipy_pvalue"] == pytest.approx(math.erfc(1.0), rel=1e-9)
    assert fr["ff"] == pytest.approx(1.6, rel=1e-12)
    assert fr["ff_pvalue"] == pytest.approx(1 / 3, rel=1e-9)


def test_friedman_k3_two_data_sets_closed_forms():
    """Ranks (1, 2, 3) and (1, 3, 2): R = (1, 2.5, 2.5), χ² = 12·2/12 · (13.5 − 12) = 3;
    χ²(2) tail exp(−3/2); F_F = (N − 1)χ²/(N(k − 1) − χ²) = 3/1 = 3 with (2, 2) d.o.f., and
    F(2, 2) has P(F > x) = 1/(1 + x): p = 0.25."""
    fr = friedman(pd.DataFrame({"A": [0.9, 0.9], "B": [0.8, 0.7], "C": [0.7, 0.8]}))
    assert fr["chi2"] == pytest.approx(3.0, rel=1e-12)
    assert fr["chi2_pvalue"] == pytest.approx(math.exp(-1.5), rel=1e-9)
    assert fr["ff"] == pytest.approx(3.0, rel=1e-12)
    assert (fr["ff_df1"], fr["ff_df2"]) == (2, 2)
    assert fr["ff_pvalue"] == pytest.approx(0.25, rel=1e-9)


def test_friedman_perfect_agreement_one_data_set_and_all_ties():
    # three data sets, the same order: R = (1, 2, 3), χ² = 12·3/12 · (14 − 12) = 6 = N(k − 1),
    # the F_F denominator N(k − 1) − χ² is 0: F_F = inf, p = 0; χ²(2) tail exp(−x/2)
    agree = pd.DataFrame({"a": [0.9, 0.8, 0.7], "b": [0.5, 0.4, 0.3], "c": [0.1, 0.2, 0.0]})
    fr = friedman(agree)
    assert fr["chi2"] == pytest.approx(6.0, rel=1e-12)
    assert fr["chi2_pvalue"] == pytest.approx(math.exp(-3.0), rel=1e-9)
    assert (fr["ff"], fr["ff_pvalue"]) == (np.inf, 0.0)
    assert fr["chi2_scipy"] == pytest.approx(6.0, rel=1e-12)  # no tie: no correction
    # lower is better reverses every rank: the statistic is the same (Σ(k+1−R)² = ΣR²)
    assert friedman(agree, higher_is_better=False)["chi2"] == pytest.approx(6.0, rel=1e-12)
    # one data set: χ² = 12/12 · (14 − 12) = 2, no F_F ((k − 1)(N − 1) = 0 d.o.f.)
    one = friedman(agree.iloc[:1])
    assert one["chi2"] == pytest.approx(2.0, rel=1e-12)
    assert one["chi2_pvalue"] == pytest.approx(math.exp(-1.0), rel=1e-9)
    assert one["ff_df2"] == 0 and np.isnan(one["ff"]) and np.isnan(one["ff_pvalue"])
    # every value tied: χ² = 0, p = 1, F_F = 0 with p = 1; the tie correction 1 − 48/48 = 0
    # leaves scipy's statistic undefined (NaN)
    flat = friedman(pd.DataFrame({"a": [0.5, 0.2], "b": [0.5, 0.2], "c": [0.5, 0.2]}))
    assert (flat["chi2"], flat["chi2_pvalue"], flat["ff"], flat["ff_pvalue"]) == (0, 1, 0, 1)
    assert np.isnan(flat["chi2_scipy"]) and np.isnan(flat["chi2_scipy_pvalue"])
    # 4 methods, two tied pairs on the first of two data sets: ranks (1.5, 1.5, 3.5, 3.5) and
    # (1, 2, 3, 4): R = (1.25, 1.75, 3.25, 3.75), ΣR² = 29.25, k(k+1)²/4 = 25,
    # χ² = 24/20 · 4.25 = 5.1; ties 2·6 = 12, correction 1 − 12/(2·4·15) = 0.9, scipy 5.1/0.9;
    # F_F = (N − 1)χ²/(N(k − 1) − χ²) = 5.1/0.9 with 3 and 3 d.o.f.
    t4 = pd.DataFrame({"a": [1, 4], "b": [1, 3], "c": [0, 2], "d": [0, 1]}, dtype=float)
    fr4 = friedman(t4)
    assert fr4["chi2"] == pytest.approx(5.1, rel=1e-12)
    assert fr4["chi2_scipy"] == pytest.approx(5.1 / 0.9, rel=1e-12)
    assert fr4["ff"] == pytest.approx(5.1 / 0.9, rel=1e-12)
    assert (fr4["chi2_df"], fr4["ff_df1"], fr4["ff_df2"]) == (3, 3, 3)


# ---------------------------------------------------------------------------------------------
# Wilcoxon signed ranks
# ---------------------------------------------------------------------------------------------
def _exact_wilcoxon(d: np.ndarray, alternative: str) -> tuple[float, float]:
    """(statistic, p) by enumerating all 2^n sign assignments of the ranks of |d| (no zeros,
    no ties): under H0 each assignment has probability 2^-n. Two-sided: T = min(R+, R−),
    p = min(1, 2 · min(P(R+ ≤ r), P(R+ ≥ r))); one-sided: T = R+."""
    n = d.size
    ranks = np.argsort(np.argsort(np.abs(d))) + 1
    r_plus = int(ranks[d > 0].sum())
    sums = [sum(r for r, s in zip(range(1, n + 1), signs) if s) for signs in
            itertools.product((0, 1), repeat=n)]  # fmt: skip
    le = sum(s <= r_plus for s in sums) / 2**n
    ge = sum(s >= r_plus for s in sums) / 2**n
    if alternative == "greater":
        return float(r_plus), ge
    if alternative == "less":
        return float(r_plus), le
    total = n * (n + 1) // 2
    return float(min(r_plus, total - r_plus)), min(1.0, 2 * min(le, ge))


# a − b = (0.05, 0.01, −0.02, 0.04, 0.06, −0.03): ranks of |d| 5, 1, 2, 4, 6, 3; R+ = 16,
# R− = 5; P(R+ ≤ 5) = 10/64 (subsets of {1..6} summing to ≤ 5), two-sided p = 20/64 = 0.3125
WTABLE = pd.DataFrame(
    {
        "a": [0.90, 0.81, 0.70, 0.64, 0.96, 0.50],
        "b": [0.85, 0.80, 0.72, 0.60, 0.90, 0.53],
        "c": [0.10, 0.20, 0.30, 0.40, 0.50, 0.60],
    }
)


def test_wilcoxon_exact_p_by_enumeration():
    res = wilcoxon_pairs(WTABLE)
    assert res.columns.tolist() == [
        "method_a", "method_b", "n", "n_nonzero", "a_better", "b_better", "statistic", "p_value",
    ]  # fmt: skip
    assert list(zip(res.method_a, res.method_b)) == [("a", "b"), ("a", "c"), ("b", "c")]
    ab = res.iloc[0]
    assert (ab.n, ab.n_nonzero, ab.a_better, ab.b_better) == (6, 6, 4, 2)
    assert ab.statistic == 5.0
    assert ab.p_value == pytest.approx(0.3125, rel=1e-12)
    for row in res.itertuples():
        d = (WTABLE[row.method_a] - WTABLE[row.method_b]).to_numpy()
        stat, p = _exact_wilcoxon(d, "two-sided")
        assert (row.statistic, row.p_value) == (stat, pytest.approx(p, rel=1e-12))
    for alternative in ("greater", "less"):
        one = wilcoxon_pairs(WTABLE, alternative=alternative)
        for row in one.itertuples():
            d = (WTABLE[row.method_a] - WTABLE[row.method_b]).to_numpy()
            stat, p = _exact_wilcoxon(d, alternative)
            assert (row.statistic, row.p_value) == (stat, pytest.approx(p, rel=1e-12))
    # "greater" for a − b: P(R+ ≥ 16) = 10/64 by symmetry
    assert wilcoxon_pairs(WTABLE[["a", "b"]], alternative="greater").p_value[0] == pytest.approx(
        10 / 64
    )
    # lower is better: the counts of who is better swap, the test does not change
    low = wilcoxon_pairs(WTABLE, higher_is_better=False).iloc[0]
    assert (low.a_better, low.b_better, low.p_value) == (2, 4, ab.p_value)


def test_wilcoxon_normal_approximation_with_continuity_correction():
    """T = 5, n = 6: μ = n(n+1)/4 = 10.5, σ² = n(n+1)(2n+1)/24 = 22.75; the textbook
    z = (|T − μ| − 0.5)/σ with the correction, |T − μ|/σ without; p = erfc(z/√2)."""
    sigma = math.sqrt(22.75)
    for correction, shift in ((False, 0.0), (True, 0.5)):
        row = wilcoxon_pairs(WTABLE[["a", "b"]], correction=correction, method="approx").iloc[0]
        z = (5.5 - shift) / sigma
        assert row.statistic == 5.0
        assert row.p_value == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-9)


def test_wilcoxon_zero_differences_by_hand():
    """a − b = (0, 0.3, −0.1, 0.2, 0.4): one zero.

    - wilcox: drop it; ranks of (0.3, 0.1, 0.2, 0.4) = 3, 1, 2, 4; R− = 1, T = 1;
      exact two-sided p = 2 · P(R+ ≤ 1) = 2 · 2/16 = 0.25 (scipy's exact path).
    - pratt: rank the zero too (rank 1), drop it: ranks 4, 2, 3, 5; R− = 2, R+ = 12, T = 2.
    - zsplit: the zero's rank 1 is split 0.5/0.5: R+ = 12.5, R− = 2.5, T = 2.5.
    With method="approx", the normal approximation: zsplit over all n = 5, μ = n(n+1)/4 = 7.5,
    σ² = n(n+1)(2n+1)/24 = 13.75, z = |2.5 − 7.5|/σ; Pratt (Cureton's moments without the
    n0 = 1 zero) μ = 7.5 − n0(n0+1)/4 = 7, σ² = 13.75 − n0(n0+1)(2n0+1)/24 = 13.5,
    z = |2 − 7|/σ; p = erfc(z/√2).
    """
    t = pd.DataFrame({"a": [0.5, 0.8, 0.4, 0.7, 0.9], "b": [0.5, 0.5, 0.5, 0.5, 0.5]})
    wil = wilcoxon_pairs(t, method="exact").iloc[0]
    assert (wil.n, wil.n_nonzero, wil.a_better, wil.b_better) == (5, 4, 3, 1)
    assert wil.statistic == 1.0 and wil.p_value == pytest.approx(0.25)
    # lower is better: a is better where it is lower (−0.1 once); the zero is nobody's win
    low = wilcoxon_pairs(t, method="exact", higher_is_better=False).iloc[0]
    assert (low.a_better, low.b_better, low.p_value) == (1, 3, wil.p_value)
    pratt = wilcoxon_pairs(t, zero_method="pratt", method="approx").iloc[0]
    assert pratt.statistic == 2.0
    assert pratt.p_value == pytest.approx(math.erfc(5 / math.sqrt(13.5) / math.sqrt(2)))
    zsplit = wilcoxon_pairs(t, zero_method="zsplit", method="approx").iloc[0]
    assert zsplit.statistic == 2.5
    assert zsplit.p_value == pytest.approx(math.erfc(5 / math.sqrt(13.75) / math.sqrt(2)))
    with pytest.raises(
        ValueError, match="^zero_method must be 'wilcox', 'pratt' or 'zsplit', got 'x'$"
    ):
        wilcoxon_pairs(t, zero_method="x")
    # a difference of exactly RANK_RTOL · max(|a|, |b|) is a zero (the tolerance is
    # inclusive): xa − xb = 4504 · 2^-52 = 1e-12 · xa to the last bit
    xa, xb = 1.000088900582341, 1.000088900581341
    assert xa - xb == 1e-12 * xa
    edge = wilcoxon_pairs(pd.DataFrame({"a": [xa, 0.9, 0.8], "b": [xb, 0.5, 0.6]})).iloc[0]
    assert (edge.n_nonzero, edge.a_better, edge.b_better) == (2, 2, 0)
    # only zeros under "wilcox" (after the noise tolerance): NaN and p = 1, no scipy call
    same = pd.DataFrame({"a": [1e6, 2e6], "b": [1e6 + 1e-7, 2e6]})  # relative 1e-13
    row = wilcoxon_pairs(same).iloc[0]
    assert (row.n_nonzero, row.a_better, row.b_better, row.p_value) == (0, 0, 0, 1.0)
    assert np.isnan(row.statistic)
