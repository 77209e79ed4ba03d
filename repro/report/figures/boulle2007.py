"""Figures of boulle2007 recreated from stored records."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.report.figures.common import common_tables, method_labels, save

CRITERIA = [("accuracy", "ACC"), ("auc", "AUC"), ("compression_rate", "CR")]


def mean_criteria(records, out_dir, report_cfg, name: str = "fig9"):
    """Fig. 9 / Fig. 10: mean of the ACC, AUC and CR criteria per method over the data sets.

    One panel per criterion; a bar per method (the mean over the data sets every method ran on)
    with the per-data-set means as dots, methods in the order of the experiment.
    """
    methods = list(dict.fromkeys(report_cfg.get("methods") or records["method"]))
    methods = [m for m in methods if m in set(records["method"])]
    tables = common_tables(records, [c for c, _ in CRITERIA], methods)
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    x = np.arange(len(methods))
    for ax, (metric, title) in zip(axes, CRITERIA):
        table = tables[metric]
        ax.bar(x, table.mean(axis=0).to_numpy(), color="0.75", edgecolor="0.2")
        for i, method in enumerate(methods):
            jitter = np.linspace(-0.2, 0.2, len(table)) if len(table) > 1 else [0.0]
            ax.plot(i + np.asarray(jitter), table[method], ".", color="C0", alpha=0.5, ms=3)
        ax.set_xticks(x, method_labels(methods), rotation=60, ha="right")
        ax.set_title(f"{title} (mean over {len(table)} data sets)")
        low = min(0.0, float(np.nanmin(table.to_numpy()))) if metric == "compression_rate" else None
        if low is not None:
            ax.set_ylim(bottom=low)
    fig.tight_layout()
    return save(fig, out_dir, name)


def fig9(records, out_dir, report_cfg):
    """Fig. 9: mean ACC, AUC, CR on the UCI data sets (Table 3's experiment)."""
    return mean_criteria(records, out_dir, report_cfg, "fig9")


def fig10(records, out_dir, report_cfg):
    """Fig. 10: mean ACC, AUC, CR on the challenge data sets (Table 4's experiment)."""
    return mean_criteria(records, out_dir, report_cfg, "fig10")
