"""Shared figure helpers: saving in PNG and PDF, method display order and names, named figures."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from repro.registry import display_name  # noqa: E402
from repro.report.figure_files import save_figure  # noqa: E402
from repro.stats.tests import metric_table  # noqa: E402


def save(fig, out_dir, name: str) -> list[Path]:
    """Lay out the figure (tight), write ``name``.png and .pdf into ``out_dir``, close it."""
    fig.tight_layout()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{name}.png", out_dir / f"{name}.pdf"]
    save_figure(fig, paths[0], dpi=150, bbox_inches="tight")
    save_figure(fig, paths[1], bbox_inches="tight")
    plt.close(fig)
    return paths


def sweep_plan(report_cfg, methods, experiment: str) -> tuple[list[str], set[tuple[str, str]]]:
    """(the planned data sets, the (method, data set) cells the sweep's bound leaves out).

    Data sets: ``report.datasets``, else the sweep of ``report.experiment`` (default:
    ``experiment``). Bound: ``report.exclude``, else, when the plan is the experiment's sweep,
    its ``hydra.sweeper.exclude`` (:func:`repro.config.exclude_entries`). An entry of ``method``
    and ``dataset`` keys only leaves out cells (every planned value of a key it omits); one with
    another key (``seed``, a method parameter) leaves out configurations, not cells."""
    from repro.config import exclude_entries, experiment_config

    datasets, entries = report_cfg.get("datasets"), report_cfg.get("exclude")
    if not datasets:
        cfg = experiment_config(report_cfg.get("experiment") or experiment)
        datasets = cfg["sweep"].get("dataset", [])
        entries = cfg["sweep_exclude"] if entries is None else entries
    datasets = list(datasets)
    cells = set()
    for entry in exclude_entries(entries):
        if set(entry) <= {"method", "dataset"}:
            picked = [entry.get("method", methods), entry.get("dataset", datasets)]
            cells |= {(m, d) for m in picked[0] for d in picked[1]}
    return datasets, cells


def common_tables(records: pd.DataFrame, metrics: list[str], methods: list[str]) -> dict:
    """Data sets × methods tables of each metric, restricted to the data sets all methods ran."""
    tables = {m: metric_table(records, m)[methods] for m in metrics}
    complete = set.intersection(*(set(t.dropna().index) for t in tables.values()))
    return {m: t.loc[sorted(complete)] for m, t in tables.items()}


def method_labels(methods: list[str]) -> list[str]:
    return [display_name(m) for m in methods]


def bind(draw, name: str, doc: str):
    """The report figure ``name`` (a ``report: figures:`` entry): the function of (records,
    out_dir, report_cfg) that calls ``draw(records, out_dir, report_cfg, name=name)``."""

    def figure(records, out_dir, report_cfg) -> list[Path]:
        return draw(records, out_dir, report_cfg, name=name)

    figure.__name__ = figure.__qualname__ = name
    figure.__module__, figure.__doc__ = draw.__module__, doc
    return figure
