"""The reference method against every other on the folds of each data set: what one data set
allows (``python -m repro.report compare results=DIR metric=auc test=paired|wilcoxon``).

- ``test=paired``: the two-tailed paired Student t-test over the folds, paired by (repetition,
  fold), and its win/loss/tie at level ``alpha`` (boulle2007 §7.1, Tables 3–4;
  :func:`repro.stats.tests.paired_t_wins_losses`);
- ``test=wilcoxon``: Wilcoxon's signed-rank test of the same paired differences (scipy's, exact
  for small samples; zero differences dropped, "wilcox"), the same win/loss/tie rule; every
  difference zero is a tie with p = 1.

Writes ``compare_<metric>_<test>.md`` (the table per data set and method: both means, the number
of paired folds, the statistic, p, the outcome for the reference) and ``.csv`` (the same), and
prints the table and the W/L line per method.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from repro.evaluation.guarded import write_text
from repro.report.escape import markdown_cell, say, write_csv
from repro.report.tables import LOWER_IS_BETTER, to_markdown
from repro.stats.tests import paired_t_wins_losses

#: the values of ``test=`` this module answers
FOLD_TESTS = ("paired", "wilcoxon")
#: the columns of the table of :func:`run_fold_tests`
COLUMNS = ["dataset", "method", "mean_reference", "mean_method", "n_pairs", "statistic",
           "p_value", "outcome"]  # fmt: skip


def _wilcoxon(ref: np.ndarray, other: np.ndarray) -> tuple[float, float]:
    diff = ref - other
    if diff.size == 0:
        return float("nan"), float("nan")
    if np.all(diff == 0):
        return 0.0, 1.0
    res = stats.wilcoxon(ref, other, zero_method="wilcox")
    return float(res.statistic), float(res.pvalue)


def _outcome(p: float, better: bool, alpha: float) -> str:
    if not np.isfinite(p) or p >= alpha:
        return "tie"
    return "win" if better else "loss"


def run_fold_tests(
    records: pd.DataFrame,
    metric: str,
    test: str,
    reference: str,
    alpha: float = 0.05,
    higher_is_better: bool | None = None,
    split: str | None = "test",
) -> pd.DataFrame:
    """One row per data set and method other than ``reference`` (:data:`COLUMNS`)."""
    if test not in FOLD_TESTS:
        raise ValueError(f"test must be one of {list(FOLD_TESTS)}, got {test!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if higher_is_better is None:
        higher_is_better = metric not in LOWER_IS_BETTER
    result = paired_t_wins_losses(records, reference, metric, alpha, higher_is_better, split)
    table = result.details.rename(columns={"t": "statistic"}).reset_index(drop=True)
    if test == "wilcoxon":
        sub = records if split is None else records[records["split"] == split]
        sub = sub[sub["metric"] == metric]
        wide = sub.pivot_table(index=["dataset", "repetition", "fold"], columns="method",
                               values="value", aggfunc="mean")  # fmt: skip
        for i, row in table.iterrows():
            pair = wide.loc[row["dataset"], [reference, row["method"]]].dropna()
            w, p = _wilcoxon(pair[reference].to_numpy(float), pair[row["method"]].to_numpy(float))
            diff = row["mean_reference"] - row["mean_method"]
            table.loc[i, ["statistic", "p_value"]] = [w, p]
            table.loc[i, "outcome"] = _outcome(p, diff > 0 if higher_is_better else diff < 0, alpha)
    return table[COLUMNS]


def wins_losses(table: pd.DataFrame) -> pd.DataFrame:
    """Per method: wins, losses and ties of the reference against it."""
    counts = table.groupby("method", sort=False)["outcome"].value_counts().unstack(fill_value=0)
    return counts.reindex(columns=["win", "loss", "tie"], fill_value=0)


def compare_folds(
    records: pd.DataFrame,
    metric: str,
    test: str,
    reference: str,
    out,
    alpha: float = 0.05,
    higher_is_better: bool | None = None,
    split: str | None = "test",
    echo: bool = False,
) -> list[Path]:
    """:func:`run_fold_tests`, written into ``out`` (module docstring); returns the paths."""
    table = run_fold_tests(records, metric, test, reference, alpha, higher_is_better, split)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"compare_{metric}_{test}"
    name = "paired t-test" if test == "paired" else "Wilcoxon signed-rank test"
    counts = wins_losses(table)
    lines = [
        f"# {markdown_cell(reference)} against each method on the folds of each data set: "
        f"{name} on {markdown_cell(metric)}, α = {alpha:g}\n\n",
        to_markdown(table.set_index(["dataset", "method"])),
        "\nW/L/T of the reference: "
        + "; ".join(f"{markdown_cell(m)} {r.win}/{r.loss}/{r.tie}" for m, r in counts.iterrows())
        + ".\n",
    ]
    md = write_text(out / f"{stem}.md", "".join(lines))
    csv = out / f"{stem}.csv"
    write_csv(table, csv, index=False)
    if echo:
        say(table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
        for method, row in counts.iterrows():
            say(f"{reference} against {method}: {row.win} wins, {row.loss} losses, {row.tie} ties")
    return [md, csv]
