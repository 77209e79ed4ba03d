"""``compare test=paired|wilcoxon`` (repro.report.fold_tests): the reference against every other
method on the folds of a single data set, with known answers."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from repro.report.compare_command import main
from repro.report.fold_tests import run_fold_tests

REF = np.array([0.80, 0.82, 0.84, 0.86, 0.88, 0.90])
#: ref − b = 0.01 … 0.06 (all positive); ref − c: as many up as down, the same sizes
OTHERS = {"b": REF - np.arange(1, 7) / 100, "c": REF + np.array([1, -1, 2, -2, 3, -3]) / 100}


def _records():
    rows = []
    for method, values in {"a": REF, **OTHERS}.items():
        for fold, v in enumerate(values):
            rows += [{"method": method, "dataset": "mine", "repetition": 0, "fold": fold,
                      "split": split, "metric": "auc", "value": value}
                     for split, value in (("test", v), ("train", 1.0))]  # fmt: skip
    return pd.DataFrame(rows)


def test_wilcoxon_on_six_positive_differences_is_the_exact_two_sided_1_over_32():
    table = run_fold_tests(_records(), "auc", "wilcoxon", "a").set_index("method")
    assert table.loc["b", "p_value"] == pytest.approx(2 / 2**6)  # W = 0: 2 · P(all positive)
    assert table.loc["b", "statistic"] == 0 and table.loc["b", "outcome"] == "win"
    assert table.loc["c", "outcome"] == "tie" and table.loc["c", "p_value"] == pytest.approx(1.0)
    assert table.loc["b", "n_pairs"] == 6


def test_paired_t_against_scipys_ttest_rel():
    table = run_fold_tests(_records(), "auc", "paired", "a").set_index("method")
    for method, values in OTHERS.items():
        t, p = stats.ttest_rel(REF, values)
        assert table.loc[method, "statistic"] == pytest.approx(t, rel=1e-9)
        assert table.loc[method, "p_value"] == pytest.approx(p, rel=1e-9)
    assert table.loc["b", "outcome"] == "win" and table.loc["c", "outcome"] == "tie"
    np.testing.assert_allclose(table.loc["b", ["mean_reference", "mean_method"]].astype(float),
                               [REF.mean(), OTHERS["b"].mean()])  # fmt: skip


def test_one_data_set_on_the_command_line(tmp_path, capsys):
    folder = tmp_path / "results" / "mine"
    folder.mkdir(parents=True)
    _records().to_parquet(folder / "all.parquet", index=False)
    results, out = tmp_path / "results", tmp_path / "out"
    assert main([f"results={results}", "metric=auc", f"out={out}"]) == 2  # Friedman: 2 sets
    assert "test=paired or test=wilcoxon" in capsys.readouterr().err
    assert main([f"results={results}", "metric=auc", "test=paired", f"out={out}"]) == 0
    said = capsys.readouterr().out
    assert "a against b: 1 wins, 0 losses, 0 ties" in said
    assert "a against c: 0 wins, 0 losses, 1 ties" in said
    written = pd.read_csv(out / "compare_auc_paired.csv")
    assert (
        list(written["method"]) == ["b", "c"]
        and "W/L/T" in (out / "compare_auc_paired.md").read_text()
    )
    assert main([f"results={results}", "metric=auc", "test=wilcoxon", "correction=holm"]) == 2
    assert "['correction'] do not apply to test=wilcoxon" in capsys.readouterr().err
