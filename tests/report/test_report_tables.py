"""Paper-layout tables and the published-vs-reproduced comparison, on hand-made records."""

import numpy as np
import pandas as pd
import pytest

from repro.report.escape import latex_text
from repro.report.generate import standin_caveat
from repro.report.reproduction import (
    compare_reported,
    judge,
    rank_agreement,
    summarize,
    write_reproduction,
)
from repro.report.tables import comparison_table, to_latex, to_markdown


def _records():
    rows = []
    # method a beats b on every fold of d1 (clear win), equal on d2 (tie); c only on d1
    values = {
        ("a", "d1"): [0.9, 0.92, 0.91, 0.93],
        ("b", "d1"): [0.8, 0.81, 0.79, 0.80],
        ("a", "d2"): [0.7, 0.6, 0.8, 0.7],
        ("b", "d2"): [0.7, 0.6, 0.8, 0.7],
        ("c", "d1"): [0.5, 0.5, 0.5, 0.5],
    }
    for (method, dataset), vals in values.items():
        for fold, v in enumerate(vals):
            for metric, value in (("accuracy", v), ("error", 1 - v)):
                rows.append(dict(method=method, dataset=dataset, repetition=0, fold=fold,
                                 split="test", metric=metric, value=value))  # fmt: skip
    return pd.DataFrame(rows)


def test_comparison_table_means_wl_and_ranks_by_hand():
    table = comparison_table(_records(), ["accuracy", "error"], reference="a", methods=["a", "b"])
    assert table.attrs["datasets"] == ["d1", "d2"]
    assert table.loc["a", ("accuracy", "Mean")] == pytest.approx((0.915 + 0.7) / 2)
    assert table.loc["b", ("accuracy", "Mean")] == pytest.approx((0.80 + 0.7) / 2)
    assert table.loc["b", ("accuracy", "W/L")] == "1/0"  # a wins on d1, ties on d2
    assert table.loc["b", ("error", "W/L")] == "1/0"  # lower error is better: still a win
    assert table.loc["a", ("accuracy", "Rank")] == pytest.approx((1 + 1.5) / 2)
    assert table.loc["a", ("error", "Rank")] == pytest.approx((1 + 1.5) / 2)


def test_incomplete_datasets_are_left_out_of_the_comparison():
    table = comparison_table(_records(), ["accuracy"], reference="a", methods=["a", "b", "c"])
    assert table.attrs["datasets"] == ["d1"] and table.attrs["incomplete"] == ["d2"]
    assert table.loc["c", ("accuracy", "Mean")] == pytest.approx(0.5)


def test_markdown_and_latex_render_every_cell():
    table = comparison_table(_records(), ["accuracy"], reference="a", methods=["a", "b"])
    md = to_markdown(table)
    assert md.splitlines()[0] == "| Method | ACC Mean | ACC W/L | ACC Rank |"
    assert "| b | 0.7500 | 1/0 | 1.7500 |" in md
    tex = to_latex(table, caption="T_1 & more")
    assert r"\multicolumn{3}{c}{ACC}" in tex and r"T\_1 \& more" in tex
    assert tex.count(r"\\") == 2 + 2  # two header rows + two methods


def test_compare_reported_and_reproduction_file(tmp_path):
    reported = pd.DataFrame(
        {
            "method": ["a", "a", "a", "b", "b", "b", "a"],
            "dataset": ["d1", "d3", "mean", "mean", "rank", "wins", "mean"],
            "metric": ["accuracy"] * 6 + ["auc"],
            "value": [0.9, 0.5, 0.8, 0.7, 2.0, 1, 0.9],
            "table": ["Table 1"] * 7,
        }
    )
    comp = compare_reported(reported, _records()).set_index(["method", "dataset", "metric"])
    d1 = comp.loc[("a", "d1", "accuracy")]
    assert d1["reproduced"] == pytest.approx(0.915) and d1["difference"] == pytest.approx(0.015)
    assert np.isnan(comp.loc[("a", "d3", "accuracy"), "reproduced"])
    # aggregates over the data sets both methods ran (d1, d2), reference a (no "wins" rows)
    assert comp.loc[("a", "mean", "accuracy"), "reproduced"] == pytest.approx((0.915 + 0.7) / 2)
    assert comp.loc[("b", "rank", "accuracy"), "reproduced"] == pytest.approx(1.75)
    assert comp.loc[("b", "wins", "accuracy"), "reproduced"] == 1
    assert comp.loc[("a", "mean", "accuracy"), "note"] == "over 2 data sets"
    judged = judge(comp.reset_index(), reported, _records())
    path = write_reproduction(judged, tmp_path / "R.md", "Toy", ["d3"], {"d3": "x"})
    text = path.read_text()
    assert "5 of 7 published numbers have a reproduced value" in text and "## Table 1" in text
    assert "reproduced;" not in text  # compared, never claimed "reproduced"
    # by kind, by hand. a is the reference (no "wins" rows): its mean (0.915, 0.7) → 0.8075 vs
    # 0.8 has only the composition check. b's mean is judged as the paired difference a − b:
    # paper 0.8 − 0.7 = 0.1, ours per data set 0.115 (d1) and 0 (d2); the bootstrap means of two
    # values take {0, 0.0575, 0.115}, so the 95% CI is [0, 0.115] and 0.1 lies inside. The
    # composition check of both absolute means: inside (the same {min, mid, max} argument).
    # Rank b: per data set 2 (d1) and 1.5 (d2, a tie): mean 1.75, SD 0.3536, SE of the
    # difference 0.3536·√(1/2 + 1/2) = 0.35, z = −0.25/0.3536 = −0.71. Wins b 1 of 2 vs 1 of 2:
    # Fisher p = 1. d1 0.915 vs 0.9: no spread published, compared only.
    assert (
        "- means: 2 of 3 compared; median |difference| 0.0287, max 0.0500; **1 of 1 agree** "
        "(the paper's difference to the table's reference method inside the bootstrap 95% CI of "
        "our paired differences over the same data sets); data-set composition check (absolute "
        "means, not counted): 2 of 2 inside our CI." in text
    )  # (0.0075 + 0.05) / 2
    assert "- average ranks: 1 of 1 compared; median |difference| 0.2500, max 0.2500; " in text
    assert "**1 of 1 agree** (two-sample z-test of the average ranks on their standard" in text
    assert "- W/L counts: 1 of 1 compared; median |difference| 0.0000, max 0.0000; **1 of 1" in text
    assert "- per-data-set values: 1 of 2 compared; median |difference| 0.0150, max 0.0150." in text
    by = judged.set_index(["method", "dataset"])
    assert by.loc[("b", "rank"), "detail"] == (
        "difference -0.25, SE of the difference 0.35 (ours over 2 data sets, the paper's over 2), "
        "z = -0.71, p = 0.48"
    )
    assert by.loc[("b", "mean"), "detail"].startswith(
        "reference − this: paper +0.1000, ours +0.0575, 95% CI [+0.0000, +0.1150] over 2 paired"
    )
    reference = judged[(judged["method"] == "a") & (judged["dataset"] == "mean")]
    assert by.loc[("b", "mean"), "agrees"] and reference["agrees"].isna().all()  # not counted
    assert by.loc[("b", "wins"), "detail"].endswith(
        "(the paper's number of data sets not given: ours)"
    )
    # with the paper's own number of data sets (30): 1/30 against our 1/2
    judged = judge(
        comp.reset_index(), reported, _records(), published_table_datasets={"Table 1": 30}
    )
    wins = judged.set_index(["method", "dataset"]).loc[("b", "wins")]
    assert wins["detail"].startswith("paper 1/30 vs ours 1/2, p = ")
    path = write_reproduction(judged, tmp_path / "R.md", "Toy", caveat="Stand-ins.")
    assert path.read_text().splitlines()[2] == "**Stand-ins.**"  # the caveat comes first


def test_judge_uses_standard_errors_one_split_intervals_and_never_compares_stand_ins():
    """Known answers of repro.stats.agreement through judge (hand-made records)."""
    d = 0.10 * np.sqrt(99 / 100)  # 100 runs alternating m ± d: sample SD exactly 0.10
    rows = []
    for method, mean in (("a", 0.48), ("b", 0.47)):
        for r in range(100):
            v = mean + (d if r % 2 == 0 else -d)
            rows.append(dict(method=method, dataset="s", repetition=r, fold=0, split="test",
                             metric="error", value=v))  # fmt: skip
    for f in range(20):  # c: 20 splits with errors 0.10, 0.11, ..., 0.29
        rows.append(dict(method="c", dataset="s", repetition=f, fold=0, split="test",
                         metric="error", value=0.10 + f / 100))  # fmt: skip
    records = pd.DataFrame(rows)
    reported = pd.DataFrame(
        {
            "method": ["a", "a", "b", "b", "c", "c", "c", "c", "a"],
            "dataset": ["s"] * 8 + ["t"],
            "metric": ["error", "error_sd"] * 2 + ["error", "error_ci95"] * 2 + ["error"],
            "value": [0.50, 0.10, 0.50, 0.10, 0.29, 0.05, 0.30, 0.05, 0.5],
            "table": ["T1"] * 4 + ["T2", "T2", "T3", "T3"] + ["T1"],
        }
    )
    values = reported[~reported["metric"].str.endswith(("_sd", "_ci95"))]
    judged = judge(compare_reported(values, records), reported, records, published_runs={"T1": 100})
    j = judged[judged["dataset"] == "s"].set_index(["method", "table"])
    assert judged.set_index("dataset").loc["t", "rule"] == ""  # no records: not judged
    # Welch on the standard errors: t = −0.02/√(2·0.01/100) = −1.41 agrees, −0.03/… = −2.12 not
    assert j.loc[("a", "T1"), "agrees"] and j.loc[("a", "T1"), "detail"].startswith("t = -1.41")
    assert not j.loc[("b", "T1"), "agrees"] and j.loc[("b", "T1"), "detail"].startswith("t = -2.12")
    # one split against 20 of ours: the interval is [min, max] = [0.10, 0.29]
    assert j.loc[("c", "T2"), "agrees"] and not j.loc[("c", "T3"), "agrees"]
    assert "90.5% prediction interval [0.1000, 0.2900]" in j.loc[("c", "T2"), "detail"]
    # a stand-in data set: never compared
    judged = judge(compare_reported(values, records), reported, records, standins=["s"])
    assert set(judged.loc[judged["reproduced"].notna(), "rule"]) == {"on stand-ins"}
    summary = summarize(judged).set_index("kind").loc["per-data-set values"]
    assert (summary["compared"], summary["on_standins"], summary["testable"]) == (0, 4, 0)


def test_summary_counts_what_the_rules_decided_and_rank_order_by_hand():
    rows = [  # (method, dataset, published, reproduced, rule, agrees)
        ("a", "mean", 0.80, 0.85, "r1", True),
        ("b", "mean", 0.75, 0.60, "r1", False),
        ("c", "mean", 0.70, 0.71, "on stand-ins", None),
        ("a", "rank", 1.0, 1.5, "r2", True),
        ("b", "rank", 2.0, 1.2, "r2", True),
        ("c", "rank", 3.0, 3.3, "r2", True),
        ("b", "wins", 4, 4, "r3", True),
        ("c", "wins", 2, 5, "r3", False),
        ("c", "losses", 1, np.nan, "", None),
    ]
    columns = ["method", "dataset", "published", "reproduced", "rule", "agrees"]
    comp = pd.DataFrame(rows, columns=columns)
    comp = comp.assign(table="T", metric="accuracy", difference=comp.reproduced - comp.published)
    summary = summarize(comp).set_index("kind")
    assert summary.index.tolist() == ["means", "average ranks", "W/L counts"]
    means = summary.loc["means"]
    assert (means["compared"], means["on_standins"], means["testable"], means["agree"]) == (
        2, 1, 2, 1,
    )  # fmt: skip
    assert means["median_abs_difference"] == pytest.approx((0.05 + 0.15) / 2)
    assert summary.loc["average ranks", "max_abs_difference"] == pytest.approx(0.8)
    w = summary.loc["W/L counts"]
    assert (w["published"], w["compared"], w["agree"], w["max_abs_difference"]) == (3, 2, 1, 3)
    unjudged = summarize(comp.drop(columns=["rule", "agrees"])).set_index("kind")
    assert unjudged["testable"].tolist() == [0, 0, 0] and unjudged.loc["means", "compared"] == 3
    # reproduced ranks order b, a, c against published a, b, c: ρ = 1 − 6·(1 + 1)/(3·8) = 0.5
    agreement = rank_agreement(comp)
    assert agreement["spearman"].tolist() == pytest.approx([0.5])


def test_summary_counts_every_metric_and_orders_the_methods_per_metric(tmp_path):
    """Two metrics in one table: each kind counts the numbers of both, the differences of both
    enter the median and max, and the order of the methods is compared per metric."""
    rows = [  # (method, dataset, metric, published, reproduced, rule, agrees); |difference|
        ("a", "mean", "accuracy", 0.80, 0.85, "r1", True),  # .05
        ("b", "mean", "accuracy", 0.75, 0.60, "r1", False),  # .15
        ("a", "mean", "auc", 0.90, 0.70, "r1", False),  # .20
        ("b", "mean", "auc", 0.85, 0.86, "r1", True),  # .01
        ("a", "rank", "accuracy", 1.0, 1.5, "r2", True),  # .5
        ("b", "rank", "accuracy", 2.0, 1.2, "r2", True),  # .8
        ("c", "rank", "accuracy", 3.0, 3.3, "r2", True),  # .3
        ("a", "rank", "auc", 1.0, 1.1, "r2", True),  # .1
        ("b", "rank", "auc", 2.0, 2.2, "r2", True),  # .2
        ("c", "rank", "auc", 3.0, 2.9, "r2", False),  # .1
        ("a", "d1", "auc", 0.90, 0.88, "r4", True),  # .02
    ]
    columns = ["method", "dataset", "metric", "published", "reproduced", "rule", "agrees"]
    comp = pd.DataFrame(rows, columns=columns)
    comp = comp.assign(table="T", difference=comp.reproduced - comp.published, detail="", note="")
    summary = summarize(comp).set_index("kind")
    assert summary.index.tolist() == ["means", "average ranks", "per-data-set values"]
    means = summary.loc["means"]
    assert (means["published"], means["compared"], means["testable"], means["agree"]) == (
        4,
        4,
        4,
        2,
    )
    # |differences| .05 .15 .20 .01: median (.05 + .15) / 2, max .20 (an auc row)
    assert means["median_abs_difference"] == pytest.approx(0.10)
    assert means["max_abs_difference"] == pytest.approx(0.20)
    ranks = summary.loc["average ranks"]
    assert (ranks["published"], ranks["testable"], ranks["agree"]) == (6, 6, 5)
    # |differences| .1 .1 .2 .3 .5 .8: median (.2 + .3) / 2
    assert ranks["median_abs_difference"] == pytest.approx(0.25)
    assert ranks["max_abs_difference"] == pytest.approx(0.8)
    per_set = summary.loc["per-data-set values"]
    assert (per_set["published"], per_set["agree"], per_set["rules"]) == (1, 1, "r4")
    assert per_set["max_abs_difference"] == pytest.approx(0.02)
    # reproduced accuracy ranks order b, a, c: ρ = 1 − 6·(1 + 1)/(3·8) = 0.5; auc a, b, c: ρ = 1
    agreement = rank_agreement(comp).set_index("metric")
    assert agreement["spearman"].to_dict() == pytest.approx({"accuracy": 0.5, "auc": 1.0})
    assert agreement["n_methods"].tolist() == [3, 3]
    text = write_reproduction(comp, tmp_path / "R.md", "Toy").read_text()
    assert (
        "- means: 4 of 4 compared; median |difference| 0.1000, max 0.2000; **2 of 4 agree**" in text
    )
    assert "Spearman ρ published vs reproduced: accuracy 0.50, auc 1.00." in text


def test_standin_caveat_names_the_replaced_sets():
    cfg = {
        "table4": {"challenge_sets": list("abcdefghij"), "standins": {"s1": {}, "s2": {}}},
        "report": {"title": "x"},
    }
    text = standin_caveat(cfg)
    assert text.startswith("2 stand-ins (s1, s2, generated offline) replace the paper's 10")
    assert standin_caveat({"table3": {"methods": ["a"]}}) is None


def test_markdown_keeps_integer_columns_integer():
    """A row mixing int and float columns: counts print as counts, not 2.0000."""
    frame = pd.DataFrame({"wins": np.array([2, 12]), "p": [0.5, 0.01234]}, index=["a", "b"])
    lines = to_markdown(frame, digits=3, index_title="m").splitlines()
    assert lines[2:] == ["| a | 2 | 0.500 |", "| b | 12 | 0.012 |"]


def test_markdown_float_format_and_index_title():
    """``float_format`` formats the non-integer numbers only; missing values are empty."""
    frame = pd.DataFrame({"p": [0.5, 2e-05, np.nan], "n": [1, 2, 3]}, index=["x", "y", "z"])
    md = to_markdown(frame, index_title="i", float_format=lambda v: f"{v:.1e}")
    assert md == (
        "| i | p | n |\n|---|---|---|\n| x | 5.0e-01 | 1 |\n| y | 2.0e-05 | 2 |\n| z |  | 3 |\n"
    )


def test_latex_escape_known_answers():
    assert latex_text(r"a_b & 50% #1 $x$ {y} ~^\ ") == (
        r"a\_b \& 50\% \#1 \$x\$ \{y\} \textasciitilde{}\textasciicircum{}\textbackslash{} "
    )
    assert latex_text("τ = 0.5, Γ ± 1 − 2") == r"$\tau$ = 0.5, $\Gamma$ $\pm$ 1 $-$ 2"


def test_latex_flat_table_with_index_title_and_alignment():
    frame = pd.DataFrame(
        {"construction": ["2k F(2D)", ""], "Test BER": [0.19851, 0.5]},
        index=pd.Index(["madelon_like", "Overall"], name="dataset"),
    )
    tex = to_latex(frame, caption="Best τ", label="tab:x_y", index_title="dataset", align="lr")
    assert tex.splitlines() == [
        r"\begin{table}[ht]",
        r"\centering",
        r"\caption{Best $\tau$}",
        r"\label{tab:x_y}",  # labels are not escaped
        r"\begin{tabular}{llr}",
        r"\toprule",
        r"dataset & construction & Test BER \\",
        r"\midrule",
        r"madelon\_like & 2k F(2D) & 0.1985 \\",
        r"Overall &  & 0.5000 \\",
        r"\bottomrule",
        r"\end{tabular}",
        r"\end{table}",
    ]
    with pytest.raises(ValueError, match="one letter per column"):
        to_latex(frame, align="l")


def test_bind_names_a_figure_function():
    """``bind`` makes the ``f(records, out_dir, report_cfg)`` of a ``report: figures:`` entry."""
    from repro.report.figure_common import bind
    from repro.report.papers.boulle2007 import figures as boulle2007

    def draw(records, out_dir, report_cfg, name):
        return [records, out_dir, report_cfg, name]

    fig = bind(draw, "fig0", "Fig. 0: a test.")
    assert fig("r", "o", {"k": 1}) == ["r", "o", {"k": 1}, "fig0"]
    assert (fig.__name__, fig.__doc__) == ("fig0", "Fig. 0: a test.")
    assert [boulle2007.fig3.__name__, boulle2007.fig8.__name__] == ["fig3", "fig8"]
    assert boulle2007.fig9.__doc__.startswith("Fig. 9:")


def test_agreement_totals_by_hand():
    """The agreement table's totals sentence (repro.report.papers.khiops_agreement.figures.totals)
    on two rows."""
    from repro.report.papers.khiops_agreement.figures import totals

    frame = pd.DataFrame(
        {
            "variables": [3, 4],
            "nominal": [0, 2],
            "partitions_identical": [3, 3],
            "part_counts_identical": [3, 3],
            "levels_identical": [3, 4],
            "same_informative": [True, False],
            "selected_khiops": [2, 3],
            "selected_ours": [2, 3],
            "weights_identical": [2, 1],
            "max_weight_diff": [1e-11, 0.25],
            "max_proba_diff": [2e-11, 0.125],
        }
    )
    assert totals(frame) == (
        "Totals over 2 data sets and 7 variables (2 nominal): partitions identical 6, class"
        " counts of the parts identical 6, Levels within 1e-6 7; informative sets identical in 1"
        " data sets; selections and weights (1e-9) identical in 1 data sets (3 of 5 variables"
        " Khiops selects); largest |Δweight| 0.25, largest |Δprobability| 0.125."
    )


def test_variants_side_by_side_by_hand():
    """REPRODUCTION.md's variants section: each published number next to each stored variant;
    per-data-set means as "a → b" (repro.report.reproduction)."""
    from repro.report.reproduction import per_dataset_side_by_side, variants_side_by_side

    keys = dict(table=["T3", "T3"], method=["nb", "nb"], dataset=["mean", "rank"])
    a = pd.DataFrame({**keys, "metric": "cr", "published": [0.5, 2.0], "reproduced": [0.2, 1.5]})
    b = a.assign(reproduced=[0.4, 1.0]).iloc[::-1]  # another row order: matched by key
    out = variants_side_by_side({"no shrink": a, "shrink": b})
    assert out["no shrink"].tolist() == [0.2, 1.5] and out["shrink"].tolist() == [0.4, 1.0]
    assert out["published"].tolist() == [0.5, 2.0]

    def records(values):
        return pd.DataFrame(
            {
                "split": "test",
                "metric": "cr",
                "method": "nb",
                "dataset": ["d1", "d1", "d2"],
                "value": values,
            }
        )

    table = per_dataset_side_by_side(
        {"x": records([0.1, 0.3, -1.0]), "y": records([0.2, 0.4, 0.5])}, "cr"
    )
    assert table.loc["d1", "nb"] == "0.200 → 0.300" and table.loc["d2", "nb"] == "-1.000 → 0.500"
