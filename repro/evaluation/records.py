"""Tidy result records (SPEC §9) and their files.

One row per (experiment, method, params, dataset, repetition, fold, split, metric) with ``value``
and the context needed to trust and merge it: sizes, seed, protocol, ``p_<param>`` columns, the
configuration hash, package version, git revision and timestamp. One Parquet file per cell
(experiment × method+params × data set); files from many machines merge by concatenation.
Writes are atomic (temporary file + ``os.replace``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from repro.evaluation.metrics import PROBA_FLOOR

KEY_COLUMNS = ["experiment", "method", "dataset", "repetition", "fold", "split", "metric"]


def jsonable(value):
    """A JSON/Parquet-friendly version of a parameter value."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def config_hash(payload: dict) -> str:
    """Short stable hash of a JSON-able configuration."""
    text = json.dumps(jsonable(payload), sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


@functools.lru_cache(maxsize=1)
def git_revision() -> str:
    root = Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def package_version() -> str:
    from repro import __version__

    return __version__


def param_columns(params: dict) -> dict:
    """``p_<name>`` columns; non-scalar values are stored as JSON text."""
    cols = {}
    for name, value in params.items():
        value = jsonable(value)
        if isinstance(value, list | dict):
            value = json.dumps(value, sort_keys=True)
        cols[f"p_{name}"] = value
    return cols


def context_columns(*, experiment, method, params, dataset, seed, protocol, chash) -> dict:
    return {
        "experiment": experiment,
        "method": method,
        "params": json.dumps(jsonable(params), sort_keys=True, default=str),
        "dataset": dataset,
        "seed": int(seed),
        "protocol": protocol,
        **param_columns(params),
        "config_hash": chash,
        "version": package_version(),
        "git_revision": git_revision(),
        "proba_floor": PROBA_FLOOR,
    }


def write_atomic(frame: pd.DataFrame, path: Path) -> None:
    """Write a Parquet file so that readers never see a partial file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def read_records(path) -> pd.DataFrame:
    """All records under a file or directory (``**/*.parquet``, checkpoints excluded)."""
    path = Path(path)
    if path.is_file():
        return pd.read_parquet(path)
    files = sorted(p for p in path.rglob("*.parquet") if ".parts" not in p.parent.name)
    if not files:
        raise FileNotFoundError(f"No result records (*.parquet) under {path}")
    return pd.concat([pd.read_parquet(p) for p in files], ignore_index=True)


def summarize(records: pd.DataFrame, metrics=None) -> pd.DataFrame:
    """Mean and standard deviation over folds of each metric (test split; times from both)."""
    metrics = metrics or [
        "accuracy",
        "auc",
        "compression_rate",
        "balanced_error_rate",
        "log_sum",
        "n_selected",
        "fit_time",
    ]
    test = records[records["split"] == "test"]
    model = records[records["split"] == "model"]
    rows = []
    group_cols = ["method", "dataset"]
    for keys, grp in pd.concat([test, model]).groupby(group_cols, sort=False):
        row = dict(zip(group_cols, keys))
        for metric in metrics:
            values = grp.loc[grp["metric"] == metric, "value"].astype(float)
            if len(values):
                row[metric] = (
                    f"{values.mean():.4f} ± {values.std(ddof=1) if len(values) > 1 else 0:.4f}"
                )
        row["folds"] = int(test.loc[
            (test["method"] == row["method"]) & (test["dataset"] == row["dataset"]),
            ["repetition", "fold"],
        ].drop_duplicates().shape[0])  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)
