"""A sweep over one parameter, drawn: a metric against the parameter's values, one line per
method and data set (``python -m repro.report sweep results=DIR param=NAME metric=auc``).

The records of a sweep (``python -m repro -m method=fnb +method.max_selected=1,2,4,8
dataset=waveform``) carry each method parameter as a ``p_<name>`` column. :func:`sweep_table`
gives, per method, data set and value of the parameter, the mean of the metric over the test
folds and its standard error (SD / √n, the resolution of a mean over n folds; a data-set
parameter is read from ``dataset_params`` the same way); :func:`sweep_figure` draws one panel per
metric, the means joined by lines with ± 1 SE bars. Numeric values are placed on a numeric axis,
others in the order of their first appearance.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from repro.report.escape import short_label
from repro.report.tables import LOWER_IS_BETTER

#: the columns of :func:`sweep_table`
COLUMNS = ["method", "dataset", "metric", "value", "mean", "se", "n_folds"]


def parameter_column(records: pd.DataFrame, param: str) -> pd.Series:
    """The value of ``param`` in every record: its ``p_<param>`` column, else the key of the
    records' ``dataset_params`` (ValueError naming the parameters the records vary)."""
    if f"p_{param}" in records.columns:
        return records[f"p_{param}"]
    if "dataset_params" in records.columns:
        parsed = {t: json.loads(t) if isinstance(t, str) and t else {}
                  for t in records["dataset_params"].unique()}  # fmt: skip
        if any(param in p for p in parsed.values()):
            return records["dataset_params"].map(lambda t: parsed[t].get(param))
    raise ValueError(
        f"no parameter {param!r} in these records; the parameters they vary: "
        f"{', '.join(varied_parameters(records)) or 'none'}"
    )


def varied_parameters(records: pd.DataFrame) -> list[str]:
    """The ``p_`` parameters that take more than one value in ``records``."""
    return sorted(
        c[2:]
        for c in records.columns
        if c.startswith("p_") and records[c].nunique(dropna=False) > 1
    )


def sweep_table(records: pd.DataFrame, param: str, metrics: list[str]) -> pd.DataFrame:
    """Per metric, method, data set and parameter value: the mean over the test folds, its
    standard error and the number of folds (:data:`COLUMNS`; ``value``: the parameter's value as
    text, in the order the records first give it)."""
    known = sorted(records["metric"].unique())
    unknown = [m for m in metrics if m not in known]
    if unknown:
        raise ValueError(f"unknown metric(s) {unknown}; these records have: {', '.join(known)}")
    test = records.assign(param_value=parameter_column(records, param).astype(str))
    test = test[(test["split"] == "test") & test["metric"].isin(metrics)]
    order = {v: i for i, v in enumerate(pd.unique(test["param_value"]))}
    stats = (
        test.groupby(["metric", "method", "dataset", "param_value"], sort=False)["value"]
        .agg(["mean", "std", "count"])
        .reset_index()
    )
    stats["se"] = stats["std"] / np.sqrt(stats["count"])
    stats = stats.rename(columns={"param_value": "value", "count": "n_folds"})
    stats["rank"] = stats["value"].map(order)
    stats = stats.sort_values(["metric", "method", "dataset", "rank"], kind="stable")
    return stats[COLUMNS].reset_index(drop=True)


def _positions(values: pd.Series) -> tuple[np.ndarray, bool]:
    """x positions of the parameter's values: the numbers themselves when every value is one,
    else 0, 1, … in order of first appearance."""
    numbers = pd.to_numeric(values, errors="coerce")
    if numbers.notna().all():
        return numbers.to_numpy(float), True
    order = {v: i for i, v in enumerate(pd.unique(values))}
    return values.map(order).to_numpy(float), False


def sweep_figure(table: pd.DataFrame, param: str):
    """One panel per metric of :func:`sweep_table`: the mean against the parameter, ± 1 SE, a
    line per method and data set."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = list(pd.unique(table["metric"]))
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.6 * len(metrics), 3.8), squeeze=False)
    x_all, numeric = _positions(table["value"])
    table = table.assign(x=x_all)
    for ax, metric in zip(axes[0], metrics, strict=True):
        part = table[table["metric"] == metric]
        for (method, dataset), line in part.groupby(["method", "dataset"], sort=False):
            label = short_label(f"{method} on {dataset}")
            ax.errorbar(line["x"], line["mean"], yerr=line["se"].fillna(0.0), marker="o",
                        ms=3, capsize=2, lw=1, label=label)  # fmt: skip
        better = "lower" if metric in LOWER_IS_BETTER else "higher"
        ax.set_title(f"{metric} ({better} is better)", fontsize=10)
        ax.set_xlabel(param)
        ax.grid(alpha=0.3)
        if not numeric:
            ticks = part.drop_duplicates("value")
            ax.set_xticks(ticks["x"], [short_label(v) for v in ticks["value"]], rotation=30)
    axes[0][0].set_ylabel("mean over the test folds (± 1 SE)")
    axes[0][-1].legend(fontsize=7, frameon=False, loc="best")
    fig.tight_layout()
    return fig


def best_values(table: pd.DataFrame) -> pd.DataFrame:
    """Per metric, method and data set, the parameter value with the best mean (the first of
    equal ones), its mean and SE."""
    rows = []
    for (metric, _, _), part in table.groupby(["metric", "method", "dataset"], sort=False):
        lower = metric in LOWER_IS_BETTER
        rows.append(part.loc[part["mean"].idxmin() if lower else part["mean"].idxmax()])
    return pd.DataFrame(rows, columns=COLUMNS).reset_index(drop=True)
