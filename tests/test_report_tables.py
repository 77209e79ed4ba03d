"""Paper-layout tables and the published-vs-reproduced comparison, on hand-made records."""

import numpy as np
import pandas as pd
import pytest

from repro.report.reproduction import compare_reported, write_reproduction
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
            "method": ["a", "a", "a", "b"],
            "dataset": ["d1", "d3", "mean", "mean"],
            "metric": ["accuracy"] * 4,
            "value": [0.9, 0.5, 0.8, 0.7],
            "table": ["Table 1"] * 4,
        }
    )
    comp = compare_reported(reported, _records())
    d1 = comp.query("dataset == 'd1'").iloc[0]
    assert d1["reproduced"] == pytest.approx(0.915) and d1["difference"] == pytest.approx(0.015)
    assert np.isnan(comp.query("dataset == 'd3'")["reproduced"].iloc[0])
    mean_a = comp.query("dataset == 'mean' and method == 'a'").iloc[0]
    assert mean_a["reproduced"] == pytest.approx(0.915)  # only d1 of the table's d1, d3
    assert mean_a["note"] == "partial: 1 of 2 data sets"
    path = write_reproduction(comp, tmp_path / "REPRODUCTION.md", "Toy", ["d3"], {"d3": "none"})
    text = path.read_text()
    assert "3 of 4 published numbers reproduced" in text and "## Table 1" in text
