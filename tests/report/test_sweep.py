"""A sweep over one parameter drawn (repro.report.sweep, ``python -m repro.report sweep``):
hand-made records with known means and standard errors."""

import json

import numpy as np
import pandas as pd
import pytest

from repro.report.__main__ import main
from repro.report.sweep import best_values, sweep_table

#: (method, parameter value) → test-fold AUCs; a train row that must not count
FOLDS = {("a", 1): [0.6, 0.8], ("a", 2): [0.7, 0.9, 0.8], ("b", 1): [0.5, 0.5]}


def _records(param_column=True):
    rows = []
    for (method, value), aucs in FOLDS.items():
        for fold, auc in enumerate(aucs):
            for split, v in (("test", auc), ("train", 1.0)):
                row = {"method": method, "dataset": "d", "split": split, "fold": fold,
                       "metric": "auc", "value": v, "p_other": 0}  # fmt: skip
                if param_column:
                    row["p_k"] = value
                else:
                    row["dataset_params"] = json.dumps({"k": value})
                rows.append(row)
    return pd.DataFrame(rows)


def test_means_and_standard_errors_of_the_test_folds():
    table = sweep_table(_records(), "k", ["auc"])
    assert list(zip(table["method"], table["value"], table["n_folds"], strict=True)) == [
        ("a", "1", 2), ("a", "2", 3), ("b", "1", 2)]  # fmt: skip
    np.testing.assert_allclose(table["mean"], [0.7, 0.8, 0.5])
    # SE = SD / √n: SD(0.6, 0.8) = 0.1414, SD(0.7, 0.9, 0.8) = 0.1
    np.testing.assert_allclose(table["se"], [np.sqrt(0.02) / np.sqrt(2), 0.1 / np.sqrt(3), 0.0])
    best = best_values(table)
    assert list(zip(best["method"], best["value"], strict=True)) == [("a", "2"), ("b", "1")]


def test_a_data_set_parameter_is_read_from_its_params():
    table = sweep_table(_records(param_column=False), "k", ["auc"])
    np.testing.assert_allclose(table["mean"], [0.7, 0.8, 0.5])


def test_an_unknown_parameter_or_metric_names_the_valid_ones():
    with pytest.raises(ValueError, match="no parameter 'kk'.*they vary: k$"):
        sweep_table(_records(), "kk", ["auc"])
    with pytest.raises(ValueError, match=r"unknown metric\(s\) \['acc'\]; these records have: auc"):
        sweep_table(_records(), "k", ["acc"])


def test_the_command_writes_the_figure_and_table_and_names_the_best_value(tmp_path, capsys):
    folder = tmp_path / "results" / "d"
    folder.mkdir(parents=True)
    _records().to_parquet(folder / "all.parquet", index=False)
    args = [f"results={tmp_path / 'results'}", "param=k", "metric=auc", f"out={tmp_path}"]
    assert main(["sweep", *args]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [str(tmp_path / "sweep_k_auc.png"), str(tmp_path / "sweep_k_auc.csv")]
    assert (tmp_path / "sweep_k_auc.png").read_bytes()[:4] == b"\x89PNG"
    assert "best k for auc of a on d: 2 (0.8000 ± 0.0577, 3 folds)" in out
    assert pd.read_csv(tmp_path / "sweep_k_auc.csv")["mean"].round(6).tolist() == [0.7, 0.8, 0.5]
