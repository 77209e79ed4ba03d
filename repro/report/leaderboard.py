"""Leaderboards of many methods over many data sets, from stored records (never refits).

The numbers of the head-to-head benchmark (``experiment=nb_benchmark``; its report:
:mod:`repro.report.papers.nb_benchmark.figures`), computed here without drawing or writing
anything:

- :func:`score_table`: data sets × methods, the mean of a metric over a cell's folds
  (:data:`METRICS`: the predictive metrics of the test split; ``fit_time`` and ``n_selected``,
  the number of input variables the fitted model uses, from the records' ``model`` split).
- :func:`leaderboard`: per method its average rank (1 = best, ties averaged: Demšar 2006), its
  wins (the data sets on which it is best, a tie for the best counting for each tied method) and
  its mean, over the *ranked* data sets: those on which every ranked method has the metric
  (Friedman needs complete blocks). While a sweep runs, a method with records on fewer than
  ``min_share`` of the data sets would shrink that block to nothing: it is left out of the
  ranking (``ranked`` false) and shown with the mean over its own data sets.
- :func:`correction_for`: Bergmann–Hommel up to :data:`~repro.stats.posthoc.MAX_BERGMANN_K`
  methods, Shaffer's static procedure beyond (García & Herrera 2008).
- :func:`bayesian_vs_leader`: the Bayesian signed-rank test (baycomp) of the leader against
  every other ranked method, with a region of practical equivalence.
- :func:`pareto_front`: the methods no other beats on both a score and the fit time.
- :func:`dataset_kinds` / :func:`by_kind`: the leaderboard within kinds of data (numeric /
  nominal / mixed attributes; small / large by rows; two-class / multi-class).
- :func:`completeness` / :func:`failures`: the cells done, partial, failed or over their time
  budget (the ``*.error.json`` files a sweep leaves beside the records, ``<cell>.parts/``
  checkpoints of unfinished cells), against the planned methods × data sets.

Did not finish: the runner records a fold stopped at its time budget as model rows
``did_not_finish`` = 1 and ``fit_time`` (the time it ran), without test rows
(:mod:`repro.evaluation.fold_budget`). A cell with such a fold is *dnf* (:func:`dnf_cells`): its
means would be over the folds that finished only, so it enters no leaderboard (the method lacks
that data set there) and is listed with its folds instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from repro.stats.posthoc import MAX_BERGMANN_K
from repro.stats.tests import metric_table, rank_table, tie_values

__all__ = [
    "DID_NOT_FINISH",
    "METRICS",
    "SMALL_ROWS",
    "bayesian_vs_leader",
    "by_kind",
    "completeness",
    "correction_for",
    "dataset_kinds",
    "dnf_cells",
    "failures",
    "leaderboard",
    "metric_records",
    "pareto_front",
    "ranked_table",
    "score_table",
]

#: metric → (split of the records, higher is better)
METRICS = {
    "accuracy": ("test", True),
    "auc": ("test", True),
    "compression_rate": ("test", True),
    "balanced_error_rate": ("test", False),
    "fit_time": ("model", False),
    "n_selected": ("model", False),
}
#: a data set with fewer rows is "small" in :func:`dataset_kinds`
SMALL_ROWS = 1000
#: statuses of a cell's error file that mean "did not finish in its time budget"
DNF_STATUSES = ("dnf", "timeout", "over_budget", "budget")
_TIDY = ["method", "dataset", "repetition", "fold", "split", "metric", "value"]
#: the model row of a fold stopped at its time budget (repro.evaluation.fold_budget)
DID_NOT_FINISH = "did_not_finish"


def dnf_cells(records: pd.DataFrame) -> pd.DataFrame:
    """The cells with folds stopped at their time budget: ``method``, ``dataset``,
    ``dnf_folds``, ``folds`` (all of the cell's folds), ``ran_s`` (the longest a stopped fold
    ran)."""
    columns = ["method", "dataset", "dnf_folds", "folds", "ran_s"]
    late = records[(records["metric"] == DID_NOT_FINISH) & (records["value"] > 0)]
    if late.empty:
        return pd.DataFrame(columns=columns)
    keys = ["method", "dataset", "repetition", "fold"]
    stopped = late[keys].drop_duplicates()
    times = records[(records["metric"] == "fit_time") & (records["split"] == "model")]
    ran = stopped.merge(times[[*keys, "value"]], on=keys, how="left")
    cells = records[records["split"].isin(["test", "model"])][keys].drop_duplicates()
    folds = cells.groupby(["method", "dataset"]).size().rename("folds")
    out = ran.groupby(["method", "dataset"]).agg(dnf_folds=("fold", "size"), ran_s=("value", "max"))
    return out.join(folds).reset_index()[columns]


def _finished_rows(records: pd.DataFrame) -> np.ndarray | None:
    """True for the records of the cells that have no fold over its budget (:func:`dnf_cells`);
    None when every cell has none."""
    if DID_NOT_FINISH not in set(records["metric"]):
        return None
    late = dnf_cells(records)
    if late.empty:
        return None
    bad = pd.MultiIndex.from_frame(late[["method", "dataset"]])
    return ~pd.MultiIndex.from_frame(records[["method", "dataset"]]).isin(bad)


def metric_records(records: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The tidy rows of ``metric`` on its split (:data:`METRICS`), relabelled ``split="test"``
    so that :func:`repro.stats.tests.metric_table` and the post-hoc tests read them; the cells
    with a fold over its budget left out (:func:`dnf_cells`)."""
    split = METRICS.get(metric, ("test", True))[0]
    keep = (records["metric"] == metric).to_numpy() & (records["split"] == split).to_numpy()
    finished = _finished_rows(records)
    if finished is not None:
        keep &= finished
    return records.loc[keep, _TIDY].assign(split="test")


def score_table(records: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Data sets × methods: the mean of ``metric`` over each cell's folds (NaN: no records)."""
    sub = metric_records(records, metric)
    if sub.empty:
        return pd.DataFrame()
    return metric_table(sub, metric)


def higher_is_better(metric: str) -> bool:
    return METRICS.get(metric, ("test", True))[1]


def ranked_table(table: pd.DataFrame, min_share: float = 0.5) -> tuple[pd.DataFrame, list]:
    """The complete block of ``table`` that the ranks use, and the methods left out of it.

    A method enters when it has the metric on at least ``min_share`` of the data sets that
    have any record; the block is then the data sets on which every entered method has it."""
    table = table.dropna(axis=0, how="all")
    if table.empty:
        return table, list(table.columns)
    share = table.notna().mean(axis=0)
    kept = [m for m in table.columns if share[m] >= min_share]
    excluded = [m for m in table.columns if m not in kept]
    return table[kept].dropna(axis=0, how="any"), excluded


def _wins(table: pd.DataFrame, higher: bool) -> pd.Series:
    """Per method: the data sets on which it is best (ties for the best count for each)."""
    values = tie_values(table.to_numpy(dtype=float))
    best = values.max(axis=1) if higher else values.min(axis=1)
    return pd.Series((values == best[:, None]).sum(axis=0), index=table.columns, dtype=int)


def leaderboard(
    records: pd.DataFrame,
    metric: str,
    methods=None,
    min_share: float = 0.5,
    datasets=None,
) -> pd.DataFrame:
    """One row per method, best first: ``datasets`` (with records), ``ranked``, ``average_rank``,
    ``wins`` and ``mean`` over the ranked data sets, ``mean_own`` (over its own data sets).

    ``methods``: the methods and their order (default: those in the records); ``datasets``:
    restrict to these. ``attrs``: ``ranked_datasets``, ``left_out`` (data sets outside the
    complete block), ``excluded`` (methods too incomplete to rank), ``higher_is_better``."""
    higher = higher_is_better(metric)
    full = score_table(records, metric)
    if datasets is not None:
        full = full.reindex(index=[d for d in full.index if d in set(datasets)])
    if methods is not None:
        full = full.reindex(columns=list(methods))
    block, excluded = ranked_table(full, min_share)
    out = pd.DataFrame(index=pd.Index(full.columns, name="method"))
    out["datasets"] = full.notna().sum(axis=0).astype(int)
    out["ranked"] = [m in block.columns for m in out.index]
    out["average_rank"] = np.nan
    out["wins"] = 0
    out["mean"] = np.nan
    if block.shape[0] >= 1 and block.shape[1] >= 2:
        ranks = rank_table(block, higher).mean(axis=0)
        out.loc[block.columns, "average_rank"] = ranks
        out.loc[block.columns, "wins"] = _wins(block, higher)
        out.loc[block.columns, "mean"] = block.mean(axis=0)
    elif block.shape[0] >= 1 and block.shape[1] == 1:
        out.loc[block.columns, ["average_rank", "wins"]] = [1.0, block.shape[0]]
        out.loc[block.columns, "mean"] = block.mean(axis=0)
    else:
        out["ranked"] = False
    out["mean_own"] = full.mean(axis=0)
    own = out["mean_own"] if higher else -out["mean_own"]
    out = out.assign(_own=-own, _unranked=~out["ranked"])
    out = out.sort_values(["_unranked", "average_rank", "_own"], kind="stable")
    out = out.drop(columns=["_own", "_unranked"])
    out.attrs.update(
        ranked_datasets=list(block.index),
        left_out=sorted(set(full.dropna(how="all").index) - set(block.index)),
        excluded=excluded,
        higher_is_better=higher,
        metric=metric,
    )
    return out


def correction_for(n_methods: int) -> str:
    """Bergmann–Hommel when it is computable (k ≤ MAX_BERGMANN_K), else Shaffer."""
    return "bergmann" if n_methods <= MAX_BERGMANN_K else "shaffer"


def bayesian_vs_leader(
    block: pd.DataFrame,
    leader: str,
    higher: bool = True,
    rope: float = 0.01,
    seed: int = 0,
    nsamples: int = 50000,
) -> pd.DataFrame:
    """Bayesian signed-rank test (baycomp) of ``leader`` against every other column of the
    complete data sets × methods ``block``: P(leader better), P(equivalent within ``rope``),
    P(other better), one row per other method, in the column order."""
    from repro.stats.bayesian import signed_rank

    rows = []
    for other in block.columns:
        if other == leader:
            continue
        res = signed_rank(block[leader], block[other], rope, higher, seed, nsamples)
        rows.append((other, res.p_left, res.p_rope, res.p_right))
    frame = pd.DataFrame(
        rows, columns=["method", "p_leader_better", "p_equivalent", "p_other_better"]
    ).set_index("method")
    frame.attrs.update(leader=leader, rope=rope, n_datasets=block.shape[0])
    return frame


def pareto_front(score: pd.Series, cost: pd.Series, higher: bool = True) -> pd.Series:
    """True for the methods that no other method dominates: at least as good a score and at
    most the cost, one of the two strictly."""
    s = score.to_numpy(dtype=float) * (1 if higher else -1)
    c = cost.reindex(score.index).to_numpy(dtype=float)
    front = []
    for i in range(s.size):
        dominated = (s >= s[i]) & (c <= c[i]) & ((s > s[i]) | (c < c[i]))
        front.append(not dominated.any())
    return pd.Series(front, index=score.index)


def dataset_kinds(datasets, records: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per data set: ``type`` (numeric / nominal / mixed attributes), ``size`` (small below
    :data:`SMALL_ROWS` rows, else large) and ``classes`` (two-class / multi-class), from the
    catalog; a data set outside it: its size and classes from the records, its type unknown."""
    from repro.datasets import list_datasets

    catalog = list_datasets().set_index("name")
    rows = {}
    for name in datasets:
        if name in catalog.index:
            e = catalog.loc[name]
            n, n_num, n_cat = int(e["n"]), int(e["n_numeric"]), int(e["n_categorical"])
            k = int(e["n_classes"])
            kind = "mixed" if n_num and n_cat else ("numeric" if n_num else "nominal")
        else:
            kind = "unknown"
            sub = records[records["dataset"] == name] if records is not None else pd.DataFrame()
            if sub.empty:
                n, k = 0, 0
            else:
                n = int((sub["n_train"] + sub["n_test"]).max())
                k = int(sub["n_classes"].max())
        rows[name] = {
            "type": kind,
            "size": "small" if n < SMALL_ROWS else "large",
            "classes": "two-class" if k == 2 else "multi-class",
            "rows": n,
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("dataset")


def by_kind(
    records: pd.DataFrame, metric: str, kinds: pd.DataFrame, methods=None, min_share=0.5
) -> pd.DataFrame:
    """The leaderboard of ``metric`` within each kind of data: one row per (grouping, group,
    method) with the group's ranked data sets ``n``, ``average_rank``, ``wins``, ``mean``."""
    parts = []
    for grouping in ("type", "size", "classes"):
        for group, sub in kinds.groupby(grouping, sort=True):
            board = leaderboard(records, metric, methods, min_share, datasets=list(sub.index))
            n = len(board.attrs["ranked_datasets"])
            if n == 0:
                continue
            board = board[board["ranked"]]
            parts.append(
                pd.DataFrame(
                    {
                        "grouping": grouping,
                        "group": group,
                        "method": board.index,
                        "n": n,
                        "average_rank": board["average_rank"].to_numpy(),
                        "wins": board["wins"].to_numpy(),
                        "mean": board["mean"].to_numpy(),
                    }
                )
            )
    columns = ["grouping", "group", "method", "n", "average_rank", "wins", "mean"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def failures(folder) -> pd.DataFrame:
    """The failed and unfinished cells under an experiment's results ``folder``: one row per
    ``<dataset>/<method>.*.error.json`` (``status``: the file's own ``status`` when it has one —
    ``dnf`` for a cell over its time budget — else ``failed``; ``error``: its first line) and
    per ``<dataset>/<cell>.parts/`` checkpoint folder (``status`` ``unfinished``, the folds it
    holds)."""
    folder = Path(folder)
    rows = []
    for path in sorted(folder.glob("*/*.error.json")):
        try:
            payload = json.loads(path.read_text())
        except (OSError, ValueError, RecursionError):  # unreadable, not JSON, nested too deep
            payload = {}
        if not isinstance(payload, dict):  # a list, a number: not an error file of ours
            payload = {}
        method = str(payload.get("method") or path.name.split(".")[0])
        status = str(payload.get("status") or "failed").lower()
        error = str(payload.get("error") or "").strip().splitlines()
        folds = payload.get("folds_done")
        rows.append(
            {
                "dataset": path.parent.name,
                "method": method,
                "status": "dnf" if status in DNF_STATUSES else status,
                "folds_done": float(folds) if isinstance(folds, int | float) else np.nan,
                "error": error[0][:200] if error else "",
                "file": str(path.relative_to(folder)),
            }
        )
    for parts in sorted(folder.glob("*/*.parts")):
        if not parts.is_dir():
            continue
        done = len([p for p in parts.glob("r*_f*.parquet") if ".artefacts" not in p.name])
        rows.append(
            {
                "dataset": parts.parent.name,
                "method": parts.name[: -len(".parts")].split("__")[0],
                "status": "unfinished",
                "folds_done": float(done),
                "error": "",
                "file": str(parts.relative_to(folder)),
            }
        )
    columns = ["dataset", "method", "status", "folds_done", "error", "file"]
    return pd.DataFrame(rows, columns=columns)


def completeness(
    records: pd.DataFrame,
    methods,
    datasets,
    n_folds: int = 10,
    failed: pd.DataFrame | None = None,
    excluded=(),
) -> pd.DataFrame:
    """Per method: ``bound`` (its cells in ``excluded``, the (method, data set) pairs a bound
    leaves out of the plan), ``planned`` cells (one per other data set), ``done`` (all
    ``n_folds`` test folds stored), ``partial`` (some), ``dnf`` (a fold stopped at its time
    budget in the records, :func:`dnf_cells`, or an error file with that status), ``failed`` (an
    error file, :func:`failures`), ``unfinished`` (checkpoints only), ``missing`` (nothing yet).
    A last row ``all`` sums them. A cell counts once, in the first of done, dnf, failed,
    partial, unfinished."""
    datasets = list(datasets)
    test = records[(records["split"] == "test") & records["dataset"].isin(datasets)]
    folds = (
        test[["method", "dataset", "repetition", "fold"]]
        .drop_duplicates()
        .groupby(["method", "dataset"])
        .size()
    )
    failed = failed if failed is not None else pd.DataFrame(columns=["dataset", "method", "status"])
    late = {(r.method, r.dataset) for r in dnf_cells(records).itertuples(index=False)}
    status_of = {}
    for row in failed.itertuples(index=False):
        key = (row.method, row.dataset)
        # an error file beats a checkpoint folder: the cell stopped
        if key not in status_of or status_of[key] == "unfinished":
            status_of[key] = row.status
    excluded = set(excluded)
    rows = []
    for m in methods:
        counts = dict.fromkeys(["done", "dnf", "failed", "partial", "unfinished", "missing"], 0)
        planned = [d for d in datasets if (m, d) not in excluded]
        for d in planned:
            k = int(folds.get((m, d), 0))
            status = status_of.get((m, d))
            if (m, d) in late:  # a fold stopped at its budget: in the records themselves
                counts["dnf"] += 1
            elif k >= n_folds:
                counts["done"] += 1
            elif status in ("dnf", "failed"):
                counts[status] += 1
            elif k > 0:
                counts["partial"] += 1
            elif status == "unfinished":
                counts["unfinished"] += 1
            elif status is not None:
                counts["failed"] += 1
            else:
                counts["missing"] += 1
        bound = len(datasets) - len(planned)
        rows.append({"method": m, "bound": bound, "planned": len(planned), **counts})
    frame = pd.DataFrame(rows).set_index("method")
    frame.loc["all"] = frame.sum(axis=0)
    return frame.astype(int)
