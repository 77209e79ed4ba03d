"""A cell without a value does not refuse a report: its data set is left out of that metric only,
and the report names the cell; the statistics refuse with the cells named, not a Python call."""

import pandas as pd
import pytest

from repro.report.tables import comparison_table
from repro.stats.tests import average_ranks


def _records() -> pd.DataFrame:
    """3 methods × 3 data sets × 2 folds of accuracy and AUC, each fold's value known; B has no
    AUC on d2 (its records lack it)."""
    rows = []
    values = {"A": 0.9, "B": 0.8, "C": 0.7}
    for d, shift in (("d1", 0.0), ("d2", 0.05), ("d3", -0.05)):
        for m, base in values.items():
            for fold in (0, 1):
                for metric in ("accuracy", "auc"):
                    if (d, m, metric) == ("d2", "B", "auc"):
                        continue
                    value = base + shift + (0.01 if fold else -0.01)
                    rows.append((m, d, 0, fold, "test", metric, value))
    columns = ["method", "dataset", "repetition", "fold", "split", "metric", "value"]
    return pd.DataFrame(rows, columns=columns)


def test_a_cell_without_a_value_leaves_its_data_set_out_of_that_metric_only():
    table = comparison_table(_records(), ["accuracy", "auc"], methods=["A", "B", "C"])
    assert table.attrs["holes"] == {"auc": [("d2", "B")]}
    assert table.attrs["datasets"] == ["d1", "d2", "d3"]
    # accuracy over the three data sets: the shifts (0, +.05, −.05) cancel; AUC over d1 and d3
    # only: (0 − .05) / 2 below each method's base
    assert table[("accuracy", "Mean")].tolist() == pytest.approx([0.9, 0.8, 0.7])
    assert table[("auc", "Mean")].tolist() == pytest.approx([0.875, 0.775, 0.675])
    assert table[("auc", "Rank")].tolist() == [1.0, 2.0, 3.0]


def test_ranking_a_table_with_an_empty_cell_names_the_cell():
    table = pd.DataFrame({"A": [0.9, 0.8], "B": [float("nan"), 0.7]}, index=["d1", "d2"])
    with pytest.raises(ValueError, match=r"^no finite value for d1 \(B\) \(data set \(method\)\)"):
        average_ranks(table)
