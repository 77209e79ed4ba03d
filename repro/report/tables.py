"""Paper-style result tables from stored records, and the package's only Markdown / LaTeX writer.

The layout of boulle2007 Tables 3–4 (and of most comparison tables of the five papers): one row
per method (display name), and per criterion three columns — the mean over data sets of the
per-data-set means, the W/L of the reference method against that method (two-tailed paired
t-test at 5 % over the folds, :func:`repro.stats.tests.paired_t_wins_losses`) and the average
rank over data sets (:func:`repro.stats.tests.average_ranks`).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from repro.report.escape import latex_text, markdown_cell
from repro.stats.tests import average_ranks, metric_table, paired_t_wins_losses

#: criteria where lower is better; every other metric is "higher is better"
LOWER_IS_BETTER = {
    "error",
    "ilf",
    "balanced_error_rate",
    "brier",
    "ece",
    "fit_time",
    "predict_time",
    "n_selected",
    "weight_sum",
}

#: column titles of the metrics as the papers print them
METRIC_TITLES = {
    "accuracy": "ACC",
    "auc": "AUC",
    "compression_rate": "CR",
    "error": "Error",
    "balanced_error_rate": "BER",
    "ilf": "ILF",
    "log_sum": "Log-sum",
    "brier": "Brier",
    "ece": "ECE",
    "fit_time": "Train time (s)",
    "n_selected": "#Var",
}


def comparison_table(
    records: pd.DataFrame,
    metrics: list[str],
    reference: str | None = None,
    methods: list[str] | None = None,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Methods × (metric, statistic) table: Mean, W/L of ``reference`` and average Rank.

    Only data sets on which every method has records are compared (the others are listed in the
    ``attrs["incomplete"]`` of the result), so that means and ranks are over the same data sets;
    a data set where a method has no finite value of a metric (a cell without it) is left out
    of that metric's columns only, its (data set, method) cells in ``attrs["holes"][metric]``.
    """
    test = records[records["split"] == "test"]
    methods = methods or list(dict.fromkeys(test["method"]))
    present = test.groupby("dataset")["method"].apply(set)
    complete = sorted(d for d, ms in present.items() if set(methods) <= ms)
    incomplete = sorted(set(present.index) - set(complete))
    subset = records[records["dataset"].isin(complete) & records["method"].isin(methods)]
    columns, holes = {}, {}
    for metric in metrics:
        higher = metric not in LOWER_IS_BETTER
        table = metric_table(subset, metric).reindex(columns=methods)
        empty = ~np.isfinite(table.to_numpy(dtype=float))
        if empty.any():  # a cell without a value: its data set is left out of this metric
            rows, cols = np.nonzero(empty)
            holes[metric] = [(table.index[r], table.columns[c]) for r, c in zip(rows, cols)]
            table = table[~empty.any(axis=1)]
        if table.empty:
            continue
        kept = subset[subset["dataset"].isin(table.index)]
        columns[(metric, "Mean")] = table.mean(axis=0)
        if reference is not None and len(methods) > 1:
            wl = paired_t_wins_losses(kept, reference, metric, alpha, higher).summary["W/L"]
            columns[(metric, "W/L")] = wl.reindex(methods)
        columns[(metric, "Rank")] = average_ranks(table, higher)
    out = pd.DataFrame(columns).reindex(methods)
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    from repro.registry import display_name  # the writers below need no registry

    out.index = [display_name(m) for m in methods]
    out.attrs.update(datasets=complete, incomplete=incomplete, reference=reference, holes=holes)
    return out


#: LaTeX for the characters that are special to LaTeX or absent from its default fonts


def format_cell(value, digits: int = 4, float_format=None) -> str:
    """Text of one table cell: strings as they are, missing values empty, integers as integers,
    other numbers with ``digits`` decimals (or ``float_format(value)``)."""
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, numbers.Integral):  # int, bool and numpy integers
        return str(value)
    return float_format(value) if float_format is not None else f"{value:.{digits}f}"


def _flat_header(frame: pd.DataFrame) -> list[str]:
    if isinstance(frame.columns, pd.MultiIndex):
        return [f"{METRIC_TITLES.get(m, m)} {s}" for m, s in frame.columns]
    return [METRIC_TITLES.get(str(c), str(c)) for c in frame.columns]


def _rows(frame: pd.DataFrame, digits: int, float_format) -> list[list[str]]:
    """The index and the formatted cells of every row."""
    # itertuples, not iterrows: iterrows casts the int columns of a mixed row to float
    return [
        [str(idx), *(format_cell(v, digits, float_format) for v in row)]
        for idx, *row in frame.itertuples(name=None)
    ]


def to_markdown(
    frame: pd.DataFrame, digits: int = 4, index_title: str = "Method", float_format=None
) -> str:
    """A GitHub-flavoured Markdown table, the index as first column (no extra dependency).

    Metric columns get their paper titles (:data:`METRIC_TITLES`); cells as :func:`format_cell`,
    each made inert (:func:`repro.report.escape.markdown_cell`: one line, no raw HTML, ``|``
    escaped) since names come from records.
    """
    header = [markdown_cell(h) for h in (index_title, *_flat_header(frame))]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += [
        "| " + " | ".join(map(markdown_cell, cells)) + " |"
        for cells in _rows(frame, digits, float_format)
    ]
    return "\n".join(lines) + "\n"


def to_latex(
    frame: pd.DataFrame,
    digits: int = 4,
    caption: str = "",
    label: str = "",
    index_title: str = "Method",
    align: str | None = None,
) -> str:
    """A booktabs LaTeX table, the index as first column; metric groups become multicolumn
    headers. ``align``: the column types of the other columns (default right-aligned)."""
    align = align or "r" * frame.shape[1]
    if len(align) != frame.shape[1]:
        raise ValueError(f"align {align!r} must have one letter per column ({frame.shape[1]})")
    lines = [r"\begin{table}[ht]", r"\centering"]
    if caption:
        lines.append(rf"\caption{{{latex_text(caption)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines += [rf"\begin{{tabular}}{{l{align}}}", r"\toprule"]
    first = latex_text(index_title)
    if isinstance(frame.columns, pd.MultiIndex):
        groups = []
        for metric in dict.fromkeys(frame.columns.get_level_values(0)):
            span = int((frame.columns.get_level_values(0) == metric).sum())
            title = latex_text(METRIC_TITLES.get(metric, metric))
            groups.append(rf"\multicolumn{{{span}}}{{c}}{{{title}}}")
        lines.append(" & " + " & ".join(groups) + r" \\")
        subs = [latex_text(s) for s in frame.columns.get_level_values(1)]
        lines.append(f"{first} & " + " & ".join(subs) + r" \\")
    else:
        lines.append(f"{first} & " + " & ".join(map(latex_text, _flat_header(frame))) + r" \\")
    lines.append(r"\midrule")
    for cells in _rows(frame, digits, None):
        lines.append(" & ".join(map(latex_text, cells)) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"
