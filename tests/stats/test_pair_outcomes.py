"""One pair of methods read from a fold cube: the same answer as the table of means and the
per-data-set paired t-tests, a mean that does not turn on summation order, and Wilcoxon ties
that are not broken by the last bits of a mean."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from repro.report.claims.evidence import compare, signed_differences
from repro.stats.tests import (
    cube_pair,
    fold_cube,
    metric_table,
    pair_outcomes,
    paired_t_wins_losses,
)


def _records(seed: int, methods=("a", "b", "c"), datasets=("d1", "d2", "d3", "d4")) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for d_i, d in enumerate(datasets):
        for m_i, m in enumerate(methods):
            for r in range(2):
                for f in range(5):
                    value = 0.7 + 0.02 * m_i + 0.01 * d_i + rng.normal(0, 0.01)
                    rows.append((m, d, r, f, "test", "accuracy", value))
    frame = pd.DataFrame(
        rows, columns=["method", "dataset", "repetition", "fold", "split", "metric", "value"]
    )
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_pair_from_the_cube_is_the_table_of_means_and_the_paired_t_tests(seed):
    records = _records(seed)
    # holes: a fold without a value, a data set where c never ran, a NaN fold of b
    records = records[~((records.method == "c") & (records.dataset == "d2"))]
    records = records.drop(records.index[(records.method == "a") & (records.fold == 3)][:1])
    records.loc[records.index[(records.method == "b") & (records.dataset == "d4")][0], "value"] = (
        np.nan
    )
    cube = fold_cube(records, "accuracy")
    table = metric_table(records, "accuracy")
    for a, b in [("a", "b"), ("b", "c"), ("c", "a")]:
        pairs = cube_pair(cube, a, b)
        details = paired_t_wins_losses(records, a, "accuracy").details
        details = details[details.method == b].set_index("dataset")
        both = table[[a, b]].dropna()
        assert list(pairs.index) == list(both.index)
        np.testing.assert_allclose(pairs["mean_a"], both[a], rtol=1e-14)
        np.testing.assert_allclose(pairs["mean_b"], both[b], rtol=1e-14)
        np.testing.assert_allclose(
            pairs["p_value"], details.loc[pairs.index, "p_value"], rtol=1e-12
        )
        assert list(pairs["n_pairs"]) == list(details.loc[pairs.index, "n_pairs"])
        assert list(pairs["outcome"]) == list(details.loc[pairs.index, "outcome"])
        assert pair_outcomes(records, a, b, "accuracy").equals(pairs)
    assert "d2" not in cube_pair(cube, "a", "c").index  # c never ran there


def test_a_pair_on_chosen_data_sets_and_its_refusals():
    records = _records(3)
    cube = fold_cube(records, "accuracy")
    assert list(cube_pair(cube, "a", "b", datasets=["d3", "d1"]).index) == ["d1", "d3"]
    with pytest.raises(ValueError, match="no test records of 'z' for 'accuracy'"):
        cube_pair(cube, "a", "z")
    with pytest.raises(ValueError, match="not compared with itself"):
        cube_pair(cube, "a", "a")
    with pytest.raises(ValueError, match="alpha"):
        cube_pair(cube, "a", "b", alpha=1.5)
    # a method holding two configurations is refused (a mean would pool them), as metric_table
    two = records.copy()
    two["seed"] = np.where(two.index % 2 == 0, 1, 2)
    with pytest.raises(ValueError, match="several configurations"):
        cube_pair(fold_cube(two, "accuracy"), "a", "b")
    with pytest.raises(ValueError, match="several configurations"):
        metric_table(two, "accuracy")


def test_a_mean_does_not_depend_on_the_order_of_its_folds():
    # summed left to right these give 0.6000000000000001 and 0.6: the same folds in another
    # order must give the same mean (the exactly rounded sum over 3), or a tie becomes a
    # difference of 1e-16
    values = [0.1, 0.2, 0.3]
    assert (0.1 + 0.2) + 0.3 != (0.3 + 0.2) + 0.1
    rows = [("a", "d", 0, f, "test", "m", v) for f, v in enumerate(values)]
    rows += [("b", "d", 0, f, "test", "m", v) for f, v in zip((2, 1, 0), values[::-1])]
    records = pd.DataFrame(
        rows, columns=["method", "dataset", "repetition", "fold", "split", "metric", "value"]
    )
    pairs = cube_pair(fold_cube(records, "m"), "a", "b")
    assert pairs.loc["d", "mean_a"] == pairs.loc["d", "mean_b"] == 0.6 / 3
    assert pairs.loc["d", "outcome"] == "tie"


def test_summation_noise_neither_breaks_a_tie_nor_makes_a_difference():
    x = np.array([0.6, 0.30000000000000004, 0.8, 0.5])
    y = np.array([0.6000000000000001, 0.2, 0.7, 0.55])
    d = signed_differences(x, y)
    assert d[0] == 0.0  # 1e-16 apart: a tie, dropped by Wilcoxon
    assert d[1] == d[2]  # 0.1 and 0.1 up to noise: one tied rank
    assert d[3] == pytest.approx(-0.05)
    # Wilcoxon over the cleaned differences: the zero dropped, |d| = 0.1, 0.1, 0.05 ranked
    # 2.5, 2.5, 1: T+ = 5, T- = 1
    res = stats.wilcoxon(d)
    assert res.statistic == 1.0


def test_compare_counts_a_tie_of_means_as_neither_ahead():
    rows = []
    for d_i, d in enumerate(["d1", "d2", "d3", "d4", "d5", "d6"]):
        for f in range(3):
            base = [0.1, 0.2, 0.3][f] + d_i
            rows.append(("a", d, 0, f, "test", "m", base))
            rows.append(("b", d, 0, 2 - f, "test", "m", [0.1, 0.2, 0.3][2 - f] + d_i))
    records = pd.DataFrame(
        rows, columns=["method", "dataset", "repetition", "fold", "split", "metric", "value"]
    )
    c = compare(records, "a", "b", "m")
    assert (c.wins, c.losses, c.a_ahead, c.b_ahead, c.p_wilcoxon) == (0, 0, False, False, 1.0)
