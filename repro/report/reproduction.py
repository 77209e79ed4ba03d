"""Published vs reproduced numbers: ``experiments/<paper>/reported.csv`` against the records.

``reported.csv`` columns: ``method`` (registry id), ``dataset`` (catalog name, or ``mean`` for a
table's average over its data sets), ``metric`` (record metric name, in the records' units:
accuracies as fractions, not percentages), ``value``, ``table`` (e.g. "Table 3"); an optional
``note``. The reproduced value of a data-set row is the mean of the metric over the test folds;
of a ``mean`` row, the mean over the data sets reproduced for that method and table — flagged
as partial when some of the table's data sets are missing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from repro.report.tables import to_markdown

AGGREGATE = "mean"
REQUIRED = ("method", "dataset", "metric", "value", "table")


def read_reported(path) -> pd.DataFrame:
    """The published numbers of a paper, checked for the required columns."""
    reported = pd.read_csv(path)
    missing = [c for c in REQUIRED if c not in reported.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; required: {list(REQUIRED)}")
    return reported


def compare_reported(reported: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """One row per published number with the reproduced value and the difference."""
    test = records[records["split"] == "test"]
    per_dataset = test.groupby(["method", "dataset", "metric"])["value"].mean()
    rows = []
    for table, group in reported.groupby("table", sort=False):
        table_datasets = sorted(set(group["dataset"]) - {AGGREGATE})
        for row in group.itertuples(index=False):
            value, note = np.nan, ""
            if row.dataset == AGGREGATE:
                have = [
                    d for d in table_datasets if (row.method, d, row.metric) in per_dataset.index
                ]
                if have:
                    value = float(np.mean([per_dataset[(row.method, d, row.metric)] for d in have]))
                    if len(have) < len(table_datasets):
                        note = f"partial: {len(have)} of {len(table_datasets)} data sets"
                elif table_datasets:
                    note = "no data set reproduced"
            elif (row.method, row.dataset, row.metric) in per_dataset.index:
                value = float(per_dataset[(row.method, row.dataset, row.metric)])
            else:
                note = "not reproduced (data set or method missing)"
            rows.append(
                {
                    "table": table,
                    "method": row.method,
                    "dataset": row.dataset,
                    "metric": row.metric,
                    "published": float(row.value),
                    "reproduced": value,
                    "difference": value - float(row.value),
                    "note": note,
                }
            )
    return pd.DataFrame(rows)


def write_reproduction(
    comparison: pd.DataFrame,
    path,
    title: str,
    missing_datasets: list[str] = (),
    substitutions: dict | None = None,
) -> Path:
    """REPRODUCTION.md: published vs reproduced, differences, missing and substituted data."""
    path = Path(path)
    done = comparison["reproduced"].notna()
    lines = [f"# Reproduction: {title}", ""]
    lines.append(
        f"{int(done.sum())} of {len(comparison)} published numbers reproduced; "
        f"median |difference| {comparison.loc[done, 'difference'].abs().median():.4f}."
        if done.any()
        else "No published number reproduced yet."
    )
    lines.append("")
    if missing_datasets:
        lines += ["## Data sets missing here", "", ", ".join(sorted(missing_datasets)), ""]
    if substitutions:
        lines += ["## Substitutions", ""]
        lines += [f"- {a}: {b}" for a, b in substitutions.items()]
        lines.append("")
    for table, group in comparison.groupby("table", sort=False):
        shown = group.set_index("method")[
            ["dataset", "metric", "published", "reproduced", "difference", "note"]
        ]
        lines += [f"## {table}", "", to_markdown(shown, digits=4), ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))
    return path
