"""The papers' own numbers as a records source: a claim's rule run on what the paper printed.

``experiments/<paper>/reported.csv`` (columns ``method, dataset, metric, value, table, note``)
holds the numbers a paper prints. :func:`published_records` turns the rows of some of its tables
into a records frame in the tidy layout the rules read (one row per method × data set × metric,
``value`` the published number, ``repetition`` = ``fold`` = 0, ``split`` = "test", plus the
``table``, ``note`` and ``source`` = "published" of each row); :func:`published_evidence` serves
such frames to the rules under the experiments' names (``Evidence(results_dir, cache=...)``)::

    ev = published_evidence("boulle2007", {"boulle2007_table3": ["Table 3"]})
    boulle2007.wins_increase(ev, "boulle2007_table3", "snb_cma", [...], [...])

A published table is one number per cell (a mean over the folds or over the data sets, a count
of wins): rules that need the folds (paired t-tests, Wilcoxon over data sets, equivalence
intervals) cannot run on it, and say so by raising. Rules that read aggregates (the W/L counts,
the means and average ranks of Tables 3 and 4 of boulle2007) read the rows whose ``dataset`` is
:data:`SUMMARY_ROWS` directly (:func:`is_published`, :func:`summary`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from repro.config import paths
from repro.report.claims.engine import Evidence

#: the ``dataset`` names a reported.csv uses for aggregates over the data sets
SUMMARY_ROWS = ("mean", "rank", "wins", "losses")
COLUMNS = [
    "method", "dataset", "repetition", "fold", "split", "metric", "value", "table", "note",
    "source",
]  # fmt: skip


def reported(paper: str, published_dir=None) -> pd.DataFrame:
    """The rows of ``<published_dir>/<paper>/reported.csv`` (default: the package's published
    numbers, ``paths.published``)."""
    path = Path(published_dir or paths().published) / paper / "reported.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no published numbers of {paper}: {path}")
    return pd.read_csv(path, dtype={"method": str, "dataset": str, "metric": str})


def published_records(
    paper: str, tables=None, published_dir=None, extra: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The published numbers of ``paper`` (only the rows of ``tables``, e.g. ["Table 3"], when
    given) as records (module docstring); ``extra``: rows typed in from the paper's text or
    figures (columns method, dataset, metric, value, optionally table, note), appended."""
    rows = reported(paper, published_dir)
    if tables is not None:
        rows = rows[rows["table"].isin(list(tables))]
    if extra is not None:
        rows = pd.concat([rows, extra], ignore_index=True)
    if rows.empty:
        raise ValueError(f"no published rows of {paper} in tables {tables}")
    out = rows.assign(
        repetition=0,
        fold=0,
        split="test",
        value=pd.to_numeric(rows["value"], errors="coerce"),
        table=rows["table"] if "table" in rows else "",
        note=rows["note"].fillna("") if "note" in rows else "",
        source="published",
    )
    return out[COLUMNS].reset_index(drop=True)


def published_evidence(
    paper: str, experiments: dict, published_dir=None, results_dir=None
) -> Evidence:
    """An :class:`Evidence` serving, for each ``experiment: tables`` of ``experiments``, the
    published rows of those tables (a ready frame may stand for the tables); any other
    experiment is read from ``results_dir`` (default ``paths.results``) as usual."""
    cache = {}
    for experiment, tables in experiments.items():
        if isinstance(tables, pd.DataFrame):
            cache[experiment] = tables
        else:
            cache[experiment] = published_records(paper, tables, published_dir)
    return Evidence(results_dir or paths().results, cache=cache)


def is_published(records: pd.DataFrame) -> bool:
    """Records built by :func:`published_records` (the paper's numbers, not our folds)."""
    return "source" in records and bool((records["source"] == "published").all())


def summary(records: pd.DataFrame, kind: str, metric: str) -> pd.Series:
    """method → the published aggregate ``kind`` (mean | rank | wins | losses) of ``metric``."""
    if kind not in SUMMARY_ROWS:
        raise ValueError(f"kind must be one of {SUMMARY_ROWS}, got {kind!r}")
    rows = records[(records["dataset"] == kind) & (records["metric"] == metric)]
    return rows.groupby("method")["value"].first()
