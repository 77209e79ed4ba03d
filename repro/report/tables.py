"""Paper-style result tables from stored records, rendered as Markdown and LaTeX.

The layout of boulle2007 Tables 3–4 (and of most comparison tables of the five papers): one row
per method (display name), and per criterion three columns — the mean over data sets of the
per-data-set means, the W/L of the reference method against that method (two-tailed paired
t-test at 5 % over the folds, :func:`repro.stats.tests.paired_t_wins_losses`) and the average
rank over data sets (:func:`repro.stats.tests.average_ranks`).
"""

from __future__ import annotations

import math
import numbers

import pandas as pd

from repro.registry import display_name
from repro.stats.tests import average_ranks, metric_table, paired_t_wins_losses

#: criteria where lower is better; every other metric is "higher is better"
LOWER_IS_BETTER = {
    "error",
    "ilf",
    "balanced_error_rate",
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
    ``attrs["incomplete"]`` of the result), so that means and ranks are over the same data sets.
    """
    test = records[records["split"] == "test"]
    methods = methods or list(dict.fromkeys(test["method"]))
    present = test.groupby("dataset")["method"].apply(set)
    complete = sorted(d for d, ms in present.items() if set(methods) <= ms)
    incomplete = sorted(set(present.index) - set(complete))
    subset = records[records["dataset"].isin(complete) & records["method"].isin(methods)]
    columns = {}
    for metric in metrics:
        higher = metric not in LOWER_IS_BETTER
        table = metric_table(subset, metric)[methods]
        columns[(metric, "Mean")] = table.mean(axis=0)
        if reference is not None and len(methods) > 1:
            wl = paired_t_wins_losses(subset, reference, metric, alpha, higher).summary["W/L"]
            columns[(metric, "W/L")] = wl.reindex(methods)
        columns[(metric, "Rank")] = average_ranks(table, higher)
    out = pd.DataFrame(columns).reindex(methods)
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    out.index = [display_name(m) for m in methods]
    out.attrs.update(datasets=complete, incomplete=incomplete, reference=reference)
    return out


def _cell(value, digits: int) -> str:
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, numbers.Integral):  # int, bool and numpy integers
        return str(value)
    return f"{value:.{digits}f}"


def _flat_header(frame: pd.DataFrame) -> list[str]:
    if isinstance(frame.columns, pd.MultiIndex):
        return [f"{METRIC_TITLES.get(m, m)} {s}" for m, s in frame.columns]
    return [METRIC_TITLES.get(str(c), str(c)) for c in frame.columns]


def to_markdown(frame: pd.DataFrame, digits: int = 4, index_title: str = "Method") -> str:
    """A GitHub-flavoured Markdown table (no extra dependency)."""
    header = [index_title, *_flat_header(frame)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for idx, *row in frame.itertuples(name=None):  # not iterrows: it casts int columns to float
        cells = [str(idx), *(_cell(v, digits) for v in row)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _latex_escape(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"),
                 ("#", r"\#")):  # fmt: skip
        text = text.replace(a, b)
    return text


def to_latex(frame: pd.DataFrame, digits: int = 4, caption: str = "", label: str = "") -> str:
    """A booktabs LaTeX table; metric groups become multicolumn headers."""
    ncol = frame.shape[1]
    lines = [r"\begin{table}[ht]", r"\centering"]
    if caption:
        lines.append(rf"\caption{{{_latex_escape(caption)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines += [rf"\begin{{tabular}}{{l{'r' * ncol}}}", r"\toprule"]
    if isinstance(frame.columns, pd.MultiIndex):
        groups = []
        for metric in dict.fromkeys(frame.columns.get_level_values(0)):
            span = int((frame.columns.get_level_values(0) == metric).sum())
            title = _latex_escape(METRIC_TITLES.get(metric, metric))
            groups.append(rf"\multicolumn{{{span}}}{{c}}{{{title}}}")
        lines.append(" & " + " & ".join(groups) + r" \\")
        subs = [_latex_escape(s) for s in frame.columns.get_level_values(1)]
        lines.append("Method & " + " & ".join(subs) + r" \\")
    else:
        titles = " & ".join(_latex_escape(h) for h in _flat_header(frame))
        lines.append("Method & " + titles + r" \\")
    lines.append(r"\midrule")
    for idx, row in frame.iterrows():
        cells = [_latex_escape(str(idx)), *(_latex_escape(_cell(v, digits)) for v in row.tolist())]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"
