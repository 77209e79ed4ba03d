"""The committed head-to-head leaderboard and critical-difference ranks, recomputed from the
committed records by hand (pandas and scipy only, none of repro's report code): the mean
accuracy of every method per data set over its 10 test folds, ranked per data set (1 = best,
ties share the average rank; means equal to 10 decimals are ties: an accuracy mean over 10 folds
of at most a few thousand rows moves in steps above 1e-6, so only summation noise is below it)
over the data sets where every ranked method has a value."""

import re
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import rankdata

RESULTS = Path(__file__).resolve().parents[2] / "results" / "nb_benchmark"


def ranks_of(table: pd.DataFrame) -> pd.DataFrame:
    return table.round(10).apply(
        lambda row: pd.Series(rankdata(-row.to_numpy()), index=row.index), axis=1
    )


@pytest.fixture(scope="module")
def means() -> pd.DataFrame:
    """Data sets × methods: mean test accuracy of each finished cell (checkpoints left out), read
    from the experiment's pack (``packed.parquet``: every cell's rows, one after the other) and
    any loose cell file beside it."""
    columns = ["method", "dataset", "split", "metric", "value"]
    frames = [pd.read_parquet(RESULTS / "packed.parquet", columns=columns)]
    frames += [pd.read_parquet(p, columns=columns) for p in sorted(RESULTS.glob("*/*.parquet"))]
    frame = pd.concat(frames, ignore_index=True)
    acc = frame[(frame["split"] == "test") & (frame["metric"] == "accuracy")]
    counts = acc.groupby(["dataset", "method"]).size()
    assert (counts == 10).all(), counts[counts != 10]  # one value per fold of the 10-fold CV
    assert len(counts) > 1000  # the 27 methods on the 52 data sets, less what did not run
    return acc.pivot_table(index="dataset", columns="method", values="value", aggfunc="mean")


def test_leaderboard_ranks_and_means_recomputed_from_the_records(means):
    board = pd.read_csv(RESULTS / "leaderboard_accuracy.csv", index_col="method")
    ranked = board.index[board["ranked"]].tolist()
    table = means[ranked].dropna()  # the data sets where all the ranked methods ran
    ranks = ranks_of(table)
    assert ranks.mean().to_numpy() == pytest.approx(
        board.loc[ranked, "average_rank"].to_numpy(), abs=1e-12
    )
    assert table.mean().to_numpy() == pytest.approx(board.loc[ranked, "mean"].to_numpy(), abs=1e-12)
    # a method's own mean is over every data set where it ran
    assert board.loc["snb_cma", "mean_own"] == pytest.approx(means["snb_cma"].mean(), abs=1e-12)
    assert board.loc["snb_cma", "datasets"] == means["snb_cma"].notna().sum()


def test_cd_diagram_ranks_recomputed_from_the_records(means):
    text = (RESULTS / "compare_accuracy_shaffer.md").read_text()
    datasets = re.search(r"^Data sets \(\d+\): (.*)\.$", text, re.M).group(1).split(", ")
    rows = re.findall(r"^\| (\w+) \| [^|]+ \| ([\d.]+) \| [\d.]+ \|$", text, re.M)
    shown = {method: float(rank) for method, rank in rows}
    table = means.loc[datasets, list(shown)]
    assert not table.isna().any().any()
    ranks = ranks_of(table)
    for method, rank in shown.items():  # printed to 4 decimals
        assert ranks[method].mean() == pytest.approx(rank, abs=5e-5), method
