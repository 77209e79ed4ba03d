"""Published vs reproduced numbers: ``<paths.published>/<paper>/reported.csv`` against records.

``reported.csv`` columns: ``method`` (registry id), ``dataset`` (a catalog name, or one of the
aggregates ``mean``, ``rank``, ``wins``, ``losses`` of a table's summary rows), ``metric`` (record
metric name, in the records' units: accuracies as fractions, not percentages), ``value``,
``table`` (e.g. "Table 3"); an optional ``note``. The reproduced value of a data-set row is the
mean of the metric over the test folds; aggregates are recomputed, as the paper does, over the
data sets on which every method of the table ran (:func:`comparison_table`): the mean of the
per-data-set means, the average rank, and the wins/losses of the table's reference method (the
one method without ``wins`` rows) by paired t-tests over the folds.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from repro.report.tables import comparison_table, to_markdown

#: aggregate rows of a paper table (the ``dataset`` column): the summary statistics of
#: :func:`repro.report.tables.comparison_table` over the data sets every method ran on
AGGREGATES = ("mean", "rank", "wins", "losses")
REQUIRED = ("method", "dataset", "metric", "value", "table")


def read_reported(path) -> pd.DataFrame:
    """The published numbers of a paper, checked for the required columns."""
    reported = pd.read_csv(path)
    missing = [c for c in REQUIRED if c not in reported.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; required: {list(REQUIRED)}")
    return reported


def _aggregates(group: pd.DataFrame, records: pd.DataFrame) -> tuple[dict, str]:
    """(method, statistic, metric) -> reproduced value for a table's aggregate rows."""
    ran = set(records.loc[records["split"] == "test", "method"])
    methods = [m for m in dict.fromkeys(group["method"]) if m in ran]
    rows = group[group["dataset"].isin(AGGREGATES)]
    if rows.empty or not methods:
        return {}, ""
    with_wins = set(group.loc[group["dataset"] == "wins", "method"])
    candidates = [m for m in dict.fromkeys(group["method"]) if m not in with_wins]
    reference = candidates[0] if len(candidates) == 1 and candidates[0] in methods else None
    known = set(records["metric"])
    metrics = [m for m in dict.fromkeys(rows["metric"]) if m in known]
    if not metrics:
        return {}, ""
    table = comparison_table(records, metrics, reference=reference, methods=methods)
    out = {}
    for method, label in zip(methods, table.index):
        for metric in metrics:
            out[(method, "mean", metric)] = table.loc[label, (metric, "Mean")]
            out[(method, "rank", metric)] = table.loc[label, (metric, "Rank")]
            wl = table.loc[label, (metric, "W/L")] if (metric, "W/L") in table.columns else ""
            if wl:
                wins, losses = (int(v) for v in wl.split("/"))
                out[(method, "wins", metric)], out[(method, "losses", metric)] = wins, losses
    n_methods = len(dict.fromkeys(group["method"]))
    note = f"over {len(table.attrs['datasets'])} data sets"
    if len(methods) < n_methods:
        note += f", {len(methods)} of {n_methods} methods (ranks not comparable)"
    return out, note


def compare_reported(reported: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """One row per published number with the reproduced value and the difference."""
    test = records[records["split"] == "test"]
    per_dataset = test.groupby(["method", "dataset", "metric"])["value"].mean()
    rows = []
    for table, group in reported.groupby("table", sort=False):
        aggregates, agg_note = _aggregates(group, records)
        for row in group.itertuples(index=False):
            key = (row.method, row.dataset, row.metric)
            if row.dataset in AGGREGATES:
                value = float(aggregates.get(key, np.nan))
                note = agg_note if key in aggregates else "not reproduced (no method or metric)"
            elif key in per_dataset.index:
                value, note = float(per_dataset[key]), ""
            else:
                value, note = np.nan, "not reproduced (data set or method missing)"
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
