"""Run one cell (a method with its parameters on a data set under a protocol) fold by fold.

Folds run in parallel with joblib and stream back as they finish; each finished fold is written
at once to a checkpoint directory (``<cell>.parts/``) so that an interrupted run loses no finished
fold, and the cell file ``<cell>.parquet`` is written atomically when all folds are done. A cell
whose file exists is not recomputed unless ``force``.
"""

from __future__ import annotations

import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, clone
from threadpoolctl import threadpool_limits
from tqdm.auto import tqdm

from repro.evaluation.metrics import predictive_metrics
from repro.evaluation.protocols import Protocol, Split, get_protocol, make_splits
from repro.evaluation.records import (
    config_hash,
    context_columns,
    jsonable,
    read_records,
    write_atomic,
)


@dataclass
class Cell:
    """What one result file holds: a method configuration on a data set under a protocol."""

    method_id: str
    estimator: BaseEstimator
    params: dict
    dataset: object  # repro.datasets.Dataset
    protocol: Protocol
    seed: int = 0
    experiment: str = "default"
    default_params: dict = field(default_factory=dict)

    @property
    def hash(self) -> str:
        return config_hash(
            {
                "method": self.method_id,
                "params": self.params,
                "dataset": self.dataset.name,
                "dataset_params": self.dataset.meta.get("params", {}),
                "protocol": self.protocol.identity(),
                "seed": self.seed,
            }
        )

    @property
    def method_key(self) -> str:
        """File-name key: the id, plus the parameters that differ from the defaults."""
        return _key(self.method_id, self.params, self.default_params)

    @property
    def dataset_key(self) -> str:
        """Directory key: the data set name, plus generator parameters that differ from the
        catalog defaults (``waveform__n_samples=600``)."""
        from repro.datasets.catalog import catalog

        entry = catalog().get(self.dataset.name)
        defaults = entry.params if entry is not None else {}
        params = {k: v for k, v in self.dataset.meta.get("params", {}).items() if k in defaults}
        return _key(self.dataset.name, params, defaults)

    def path(self, results_dir) -> Path:
        """``<results>/<experiment>/<dataset_key>/<method_key>[__seed=S].parquet``."""
        seed = f"__seed={self.seed}" if self.seed != 0 else ""
        name = f"{self.method_key}{seed}.parquet"
        return Path(results_dir) / self.experiment / self.dataset_key / name


def _key(name: str, params: dict, defaults: dict) -> str:
    """``name`` followed by the parameters that differ from ``defaults`` (hashed when long)."""
    changed = {k: v for k, v in params.items() if jsonable(defaults.get(k)) != jsonable(v)}
    if not changed:
        return name
    text = "__".join(f"{k}={jsonable(v)}" for k, v in sorted(changed.items()))
    text = re.sub(r"[^A-Za-z0-9_.=,+-]", "", text.replace(" ", ""))
    if len(text) > 80:
        text = config_hash(changed)
    return f"{name}__{text}"


def _model_size(estimator, n_features: int) -> dict:
    weights = getattr(estimator, "weights_", None)
    n_selected = getattr(estimator, "n_selected_features_", n_features)
    out = {"n_selected": float(n_selected)}
    if weights is not None:
        out["weight_sum"] = float(np.sum(weights))
    report = getattr(estimator, "fit_report_", {})
    if report.get("criterion") is not None:
        out["criterion"] = float(report["criterion"])
    for key, value in report.items():  # stage times (tuning_time, refit_time, ...)
        if key.endswith("_time") and isinstance(value, int | float):
            out[key] = float(value)
    return out


def _aligned_proba(estimator, X, classes: np.ndarray) -> np.ndarray:
    """predict_proba columns reordered to the data set's classes (absent classes get 0)."""
    proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
    out = np.zeros((proba.shape[0], classes.size))
    out[:, np.searchsorted(classes, estimator.classes_)] = proba
    return out


def run_fold(estimator, X: pd.DataFrame, y: np.ndarray, split: Split, limit_threads: bool) -> list:
    """Fit on the training part, predict both parts, and return the fold's metric rows."""
    classes = np.unique(y)
    y_idx = np.searchsorted(classes, y)
    Xtr, Xte = X.iloc[split.train], X.iloc[split.test]
    with threadpool_limits(1 if limit_threads else None):
        model = clone(estimator)
        t0 = time.perf_counter()
        model.fit(Xtr, y[split.train])
        fit_time = time.perf_counter() - t0
        t0 = time.perf_counter()
        p_test = _aligned_proba(model, Xte, classes)
        predict_time = time.perf_counter() - t0
        p_train = _aligned_proba(model, Xtr, classes)
    prior = np.bincount(y_idx[split.train], minlength=classes.size) / split.train.size
    rows = []
    for name, part, proba in (("train", split.train, p_train), ("test", split.test, p_test)):
        for metric, value in predictive_metrics(y_idx[part], proba, prior).items():
            rows.append((name, metric, value))
    model_info = {
        **_model_size(model, X.shape[1]),
        "fit_time": fit_time,
        "predict_time": predict_time,
    }
    rows += [("model", metric, value) for metric, value in model_info.items()]
    return [
        {
            "repetition": split.repetition,
            "fold": split.fold,
            "split": s,
            "metric": m,
            "value": float(v),
            "n_train": int(split.train.size),
            "n_test": int(split.test.size),
        }
        for s, m, v in rows
    ]


def _fold_frame(rows: list, cell: Cell) -> pd.DataFrame:
    ds = cell.dataset
    frame = pd.DataFrame(rows)
    ctx = context_columns(
        experiment=cell.experiment,
        method=cell.method_id,
        params=cell.params,
        dataset=ds.name,
        seed=cell.seed,
        protocol=cell.protocol.name,
        chash=cell.hash,
    )
    for col, value in ctx.items():
        frame[col] = value
    frame["dataset_key"] = cell.dataset_key
    frame["n_features"] = ds.X.shape[1]
    frame["n_classes"] = int(np.unique(ds.y).size)
    frame["timestamp"] = pd.Timestamp.now(tz="UTC").isoformat(timespec="seconds")
    return frame


def _part_path(parts: Path, split: Split) -> Path:
    return parts / f"r{split.repetition:03d}_f{split.fold:03d}.parquet"


def run_cell(
    cell: Cell,
    results_dir=None,
    n_jobs: int = 1,
    force: bool = False,
    progress: bool = False,
) -> pd.DataFrame:
    """Records of a cell: read from its file when it exists, else computed (and stored)."""
    ds = cell.dataset
    path = cell.path(results_dir) if results_dir is not None else None
    if path is not None and path.exists() and not force:
        records = pd.read_parquet(path)
        stored = set(records["config_hash"])
        if stored != {cell.hash}:
            raise ValueError(
                f"{path} holds results of another configuration (config hash {sorted(stored)} "
                f"≠ {cell.hash}: a different protocol, seed or data set parameters?); use "
                "force=true to recompute it or another experiment_name/results_dir"
            )
        return records
    splits = make_splits(cell.protocol, ds.y, seed=cell.seed, dataset=ds.name)
    frames = {}
    parts = path.with_suffix(".parts") if path is not None else None
    if parts is not None:
        if force and parts.exists():
            shutil.rmtree(parts)
        for split in splits:
            part = _part_path(parts, split)
            if part.exists():
                frame = pd.read_parquet(part)
                if frame["config_hash"].iloc[0] == cell.hash:
                    frames[(split.repetition, split.fold)] = frame
    todo = [s for s in splits if (s.repetition, s.fold) not in frames]
    bar = tqdm(
        total=len(splits),
        initial=len(splits) - len(todo),
        desc=f"{cell.method_key} on {ds.name}",
        unit="fold",
        disable=not progress,
        leave=False,
    )
    parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
    jobs = (delayed(_run_split)(cell.estimator, ds.X, ds.y, s, n_jobs != 1) for s in todo)
    with bar:
        for split, rows in parallel(jobs):
            frame = _fold_frame(rows, cell)
            frames[(split.repetition, split.fold)] = frame
            if parts is not None:
                write_atomic(frame, _part_path(parts, split))
            bar.update(1)
    records = pd.concat([frames[k] for k in sorted(frames)], ignore_index=True)
    if path is not None:
        write_atomic(records, path)
        if parts.exists():
            shutil.rmtree(parts)
    return records


def _run_split(estimator, X, y, split, limit_threads):
    return split, run_fold(estimator, X, y, split, limit_threads)


def evaluate(
    method,
    dataset,
    protocol="cv10",
    seed: int = 0,
    n_jobs: int = 1,
    *,
    experiment: str = "default",
    results_dir=None,
    force: bool = False,
    progress: bool = False,
) -> pd.DataFrame:
    """Evaluate a method on a data set under a protocol; returns the tidy records (SPEC §9).

    Parameters
    ----------
    method : str, (str, dict) or estimator
        A registry id or alias, an (id, params) pair, or any scikit-learn classifier.
    dataset : str or Dataset
        A catalog name or a loaded :class:`repro.datasets.Dataset`.
    protocol : str, dict or Protocol
        "cv10", "cv5", "cv10x30", "holdout70" or the fields of a :class:`Protocol`.
    seed : int
        Base seed of the folds; splits depend only on (seed, data set, repetition).
    n_jobs : int
        Folds run in parallel with joblib.
    results_dir : path, optional
        When given, the cell's records are stored (and resumed) under it.
    """
    cell = make_cell(method, dataset, protocol, seed, experiment)
    return run_cell(cell, results_dir=results_dir, n_jobs=n_jobs, force=force, progress=progress)


def make_cell(method, dataset, protocol="cv10", seed=0, experiment="default") -> Cell:
    from repro.datasets.dataset import Dataset
    from repro.registry import make_method, method_config, method_params, resolve_method_id

    if isinstance(method, BaseEstimator):
        estimator = method
        method_id = type(method).__name__
        params = {k: jsonable(v) for k, v in method.get_params(deep=False).items()}
        defaults = {}
    else:
        name, overrides = (method, {}) if isinstance(method, str) else method
        method_id = resolve_method_id(name)
        estimator = make_method(method_id, **dict(overrides))
        defaults = method_params(method_config(method_id))
        params = {**defaults, **dict(overrides)}
    if not isinstance(dataset, Dataset):
        from repro.datasets import load_dataset

        dataset = load_dataset(dataset)
    return Cell(
        method_id=method_id,
        estimator=estimator,
        params=params,
        dataset=dataset,
        protocol=get_protocol(protocol),
        seed=seed,
        experiment=experiment,
        default_params=defaults,
    )


__all__ = ["Cell", "evaluate", "make_cell", "read_records", "run_cell", "run_fold"]
