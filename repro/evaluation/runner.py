"""The one runner: cells (a method with its parameters on a data set under a protocol) fold by fold,
and the other resumable units of a study. What a cell is, its hash and where its files lie:
:mod:`repro.evaluation.cells`.

A cell's folds run in parallel with joblib (``backend``: processes, threads or the workers of a
Dask cluster) and stream back as they finish; each finished fold is written at once to a
checkpoint directory (``<cell>.parts/``) so that an interrupted run loses no finished fold, and
the cell file ``<cell>.parquet`` is written atomically when all folds are done.
A cell whose file exists is read, not recomputed, unless ``force``; a file of another
configuration (another hash) is an error. A study may give a cell

- explicit splits (one per random run, sub-sampled training sets, ...) instead of its protocol's;
- hashed context columns (a panel point, ...), stored beside the records;
- an artefact hook, called in the worker on each fitted fold model (:class:`FoldData`), that
  returns ``{kind: [row, ...]}``: the rows go to the cell's artefact file
  (:meth:`~repro.evaluation.cells.Cell.artefact_path`) with ``split = "artefact"``,
  ``metric = "artefact:<kind>"``.

Work that is not a CV cell (a challenge entry, a timing point, one Khiops-agreement data set) is a
*unit*: :func:`run_unit` reads its file when current, else computes and writes it atomically.

Faults: a cell (or unit) is computed under its lock (:mod:`repro.evaluation.locks`), so that two
processes on one cell compute each fold once, the second reading what the first wrote. A cell file
or checkpoint that cannot be read is moved aside with a warning
(:func:`~repro.evaluation.records.quarantine_file`) and what it held is recomputed; a ``.parts/``
folder left beside a finished cell (a kill between writing the cell and removing its checkpoints)
is removed on the next visit.
"""

from __future__ import annotations

import numbers
import os
import shutil
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, parallel_config
from sklearn.base import BaseEstimator, clone
from threadpoolctl import threadpool_limits
from tqdm.auto import tqdm

from repro.evaluation.cells import Cell
from repro.evaluation.extras import require_cluster
from repro.evaluation.fold_budget import check_timeout, did_not_finish_rows, run_with_budget
from repro.evaluation.locks import cell_lock
from repro.evaluation.metrics import predictive_metrics
from repro.evaluation.predictions import with_stored_predictions
from repro.evaluation.processes import Terminated, end_with_parent, terminate_as_interrupt
from repro.evaluation.protocols import Split, get_protocol, synthetic_dataset
from repro.evaluation.records import (
    artefact_frame,
    is_current,
    jsonable,
    read_checked,
    record_frame,
    stored_exists,
    write_atomic,
)
from repro.evaluation.store import as_store
from repro.evaluation.warm_up import warm_up, warmed

#: joblib backends for the folds of a cell: processes, threads, a Dask cluster
BACKENDS = ("loky", "threading", "dask")


@dataclass(frozen=True)
class FoldData:
    """What an artefact hook sees of one fold: the fitted model and the data it was fitted on;
    its test-set probabilities (n_test × J, the data set's sorted classes), the test classes
    as indices into them and the training fold's class shares."""

    model: BaseEstimator
    X_train: pd.DataFrame
    y_train: np.ndarray
    split: Split
    proba_test: np.ndarray | None = None
    y_test: np.ndarray | None = None
    prior: np.ndarray | None = None


#: a study's hook: fitted fold → {artefact kind: rows (dicts, or a DataFrame; a float ``value``
#: column)}
ArtefactHook = Callable[[FoldData], dict[str, list[dict]]]


@dataclass(frozen=True)
class FoldResult:
    """One fold's ``(split, metric, value)`` record rows and the artefacts of the hook."""

    rows: list
    artefacts: dict = field(default_factory=dict)


#: ``fit_report_`` entries recorded for every cell whose model reports them: the variables
#: where the MDL histograms' bound on candidate cuts applied (``max_candidates``)
RECORDED_REPORT_KEYS = ("mdl_bounded_variables",)


def model_metrics(model, n_features: int, keys=()) -> dict:
    """Model rows of a fitted estimator: number of selected variables, sum of the weights, the
    criterion, the stage times of its ``fit_report_``, :data:`RECORDED_REPORT_KEYS` and the
    numeric report entries ``keys``."""
    weights = getattr(model, "weights_", None)
    n_selected = getattr(model, "n_selected_features_", n_features)
    out = {"n_selected": float(n_selected)}
    if weights is not None:
        out["weight_sum"] = float(np.sum(weights))
    report = getattr(model, "fit_report_", None) or {}
    if report.get("criterion") is not None:
        out["criterion"] = float(report["criterion"])
    for key, value in report.items():  # stage times (tuning_time, refit_time, ...)
        if key.endswith("_time") and isinstance(value, int | float):
            out[key] = float(value)
    for key in (*RECORDED_REPORT_KEYS, *keys):
        if isinstance(report.get(key), int | float):
            out[key] = float(report[key])
    return out


def aligned_proba(model, X, classes: np.ndarray) -> np.ndarray:
    """predict_proba columns reordered to the data set's classes (absent classes get 0)."""
    proba = np.asarray(model.predict_proba(X), dtype=np.float64)
    out = np.zeros((proba.shape[0], classes.size))
    out[:, np.searchsorted(classes, model.classes_)] = proba
    return out


def run_fold(
    estimator,
    X: pd.DataFrame,
    y: np.ndarray,
    split: Split,
    limit_threads: bool,
    report_keys=(),
    artefacts: ArtefactHook | None = None,
) -> FoldResult:
    """Fit on the training part, predict both parts; the fold's metric rows and artefacts."""
    classes = np.unique(y)
    y_idx = np.searchsorted(classes, y)
    Xtr, Xte = X.iloc[split.train], X.iloc[split.test]
    with threadpool_limits(1 if limit_threads else None):
        warm_up(estimator, X, y, split.train)  # compiles kernels, untimed (first fit only)
        model = clone(estimator)
        t0 = time.perf_counter()
        model.fit(Xtr, y[split.train])
        fit_time = time.perf_counter() - t0
        t0 = time.perf_counter()
        p_test = aligned_proba(model, Xte, classes)
        predict_time = time.perf_counter() - t0
        p_train = aligned_proba(model, Xtr, classes)
        prior = np.bincount(y_idx[split.train], minlength=classes.size) / split.train.size
        extra = {}
        if artefacts:
            fold = FoldData(model, Xtr, y[split.train], split, p_test, y_idx[split.test], prior)
            extra = artefacts(fold)
    rows = []
    for name, part, proba in (("train", split.train, p_train), ("test", split.test, p_test)):
        for metric, value in predictive_metrics(y_idx[part], proba, prior).items():
            rows.append((name, metric, value))
    model_info = {
        **model_metrics(model, X.shape[1], report_keys),
        "fit_time": fit_time,
        "predict_time": predict_time,
    }
    rows += [("model", metric, value) for metric, value in model_info.items()]
    return FoldResult(rows, dict(extra))


def _fold_frame(rows: list, cell: Cell, split: Split) -> pd.DataFrame:
    ds = cell.dataset
    return record_frame(
        rows,
        experiment=cell.experiment,
        method=cell.method_id,
        params=cell.params,
        dataset=ds.name,
        dataset_key=cell.dataset_key,
        seed=cell.seed,
        protocol=cell.protocol.label(),
        chash=cell.hash,
        n_features=ds.X.shape[1],
        n_classes=np.unique(ds.y).size,
        n_train=split.train.size,
        n_test=split.test.size,
        repetition=split.repetition,
        fold=split.fold,
        extra=cell.context,
    )


def _artefact_fold_frame(artefacts: dict, cell: Cell, split: Split) -> pd.DataFrame:
    context = {
        "experiment": cell.experiment,
        "method": cell.method_id,
        "dataset": cell.dataset.name,
        "dataset_key": cell.dataset_key,
        "repetition": split.repetition,
        "fold": split.fold,
    }
    parts = [artefact_frame(kind, rows, **context) for kind, rows in artefacts.items() if len(rows)]
    if not parts:
        return pd.DataFrame({"artefact": pd.Series(dtype=str), "value": pd.Series(dtype=float)})
    return pd.concat(parts, ignore_index=True)


def check_backend(backend) -> str:
    """The joblib backend of a cell's folds, one of :data:`BACKENDS` (else a ValueError naming
    ``backend`` and the valid choices; ``dask`` without the cluster extra: an ImportError naming
    it)."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(
            f"backend must be one of {', '.join(BACKENDS)} (joblib's backend for the folds of a "
            f"cell), got {backend!r}"
        )
    if backend == "dask":  # Dask's distributed comes with the cluster extra
        require_cluster("distributed", "backend='dask' (the folds of a cell on a Dask cluster)")
    return backend


def _parallel(n_jobs: int, backend: str) -> Parallel:
    """joblib's ``Parallel`` over the folds; ``dask`` needs a ``distributed.Client`` (the current
    one: ``dask.address=`` on the command line connects it)."""
    if backend != "dask":
        return Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered")
    distributed = require_cluster(
        "distributed", "backend='dask' (the folds of a cell on a Dask cluster)"
    )
    try:
        distributed.get_client()
    except ValueError as exc:  # no client
        raise ValueError(
            "backend='dask' runs the folds on a Dask cluster and needs a client: give the "
            "scheduler's address (dask.address=tcp://HOST:8786 on the command line) or create a "
            "distributed.Client before evaluate()"
        ) from exc
    with parallel_config(backend="dask"):  # registers joblib's Dask backend on first use
        return Parallel(n_jobs=n_jobs, return_as="generator_unordered")


def check_fold_jobs(n_jobs) -> int:
    """The folds' parallelism: an integer ≥ 1, or -1 (every core); else a ValueError naming
    ``n_jobs`` (``1.5``, ``0``, ``-2``, ``True`` are refused, not rounded). An estimator's own
    ``n_jobs`` follows joblib's rule instead: :func:`repro.methods.core.base.check_n_jobs`."""
    value = n_jobs.strip() if isinstance(n_jobs, str) else n_jobs
    if isinstance(value, str) and value.lstrip("+-").isdigit():
        value = int(value)
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or not (value >= 1 or value == -1)
    ):
        raise ValueError(
            f"n_jobs must be an integer ≥ 1 (folds run in parallel) or -1 (one per core), "
            f"got {n_jobs!r}"
        )
    return int(value)


def run_cell(
    cell: Cell,
    results_dir=None,
    n_jobs: int = 1,
    force: bool = False,
    progress: bool = False,
    backend: str = "loky",
    timeout: float | None = None,
) -> pd.DataFrame:
    """Records of a cell: read from its file when it exists, else computed (and stored).

    With a ``results_dir`` the cell is computed under its lock: a concurrent process on the same
    cell waits, then reads the file this one wrote (see the module docstring for the faults).
    ``backend`` is joblib's backend for the folds (:data:`BACKENDS`); ``dask`` sends them to the
    workers of the current ``distributed.Client`` (``n_jobs`` is then the cluster's).
    ``timeout``: seconds per fold; a fold past it is stopped and recorded as did-not-finish
    (:mod:`repro.evaluation.fold_budget`; processes only, ``backend="loky"``)."""
    return cell_records(cell, results_dir, n_jobs, force, progress, backend, timeout)[0]


def cell_records(
    cell: Cell,
    results_dir=None,
    n_jobs: int = 1,
    force: bool = False,
    progress: bool = False,
    backend: str = "loky",
    timeout: float | None = None,
) -> tuple[pd.DataFrame, bool]:
    """:func:`run_cell`'s records and whether they were computed (False: read from a finished
    cell file)."""
    backend = check_backend(backend)
    n_jobs = check_fold_jobs(n_jobs)
    timeout = check_timeout(timeout)
    if timeout is not None and backend != "loky":
        raise ValueError(f"timeout (a budget per fold) needs backend=loky, got backend={backend}")
    if results_dir is None:
        return _compute(cell, None, n_jobs, progress, backend, timeout), True
    store = as_store(results_dir)
    path, parts = store.cell_file(cell), store.checkpoints(cell)  # names checked here
    if not force:  # the common case of a finished cell: read without the lock
        records = store.finished(cell)
        if records is not None:
            return records, False
    with cell_lock(path, what=f"cell {path}"):
        records = store.stored(cell, force, locked=True)
        if records is not None:  # finished meanwhile, or checkpoints left after the cell file
            if parts.exists():
                shutil.rmtree(parts, ignore_errors=True)
            return records, False
        if force and parts.exists():
            shutil.rmtree(parts)
        with terminate_as_interrupt():  # SIGTERM: the lock released, the folds kept
            return _compute(cell, store, n_jobs, progress, backend, timeout), True


def finished_records(cell: Cell, results_dir) -> pd.DataFrame | None:
    """The records of a finished cell, read without its lock
    (:meth:`~repro.evaluation.store.ResultsStore.finished`)."""
    return as_store(results_dir).finished(cell)


def _compute(cell: Cell, store, n_jobs: int, progress: bool, backend="loky", timeout=None):
    """Compute the folds a cell lacks (resuming from its checkpoints) and store the cell (with a
    ``store``, a :class:`~repro.evaluation.store.ResultsStore`)."""
    ds = cell.dataset
    splits = cell.fold_splits()
    frames, art_frames = store.saved_folds(cell, splits) if store is not None else ({}, {})
    todo = [s for s in splits if (s.repetition, s.fold) not in frames]
    desc = f"{cell.method_key} on {ds.name}"
    if todo and not warmed(cell.estimator):  # before the folds' bar: its ETA leaves it out
        with tqdm(
            desc=f"{desc}: compiling kernels (first run only: once per machine, then cached)",
            bar_format="{desc} [{elapsed}]",
            disable=not progress,
            leave=False,
        ):
            warm_up(cell.estimator, ds.X, ds.y, todo[0].train)  # the workers load it compiled
    bar = tqdm(
        total=len(splits),
        initial=len(splits) - len(todo),
        desc=desc,
        unit="fold",
        disable=not progress,
        leave=False,
    )
    limit_threads = n_jobs != 1 or backend == "dask"  # a Dask worker runs several folds
    parent = os.getpid() if backend == "loky" else None  # workers end with this process
    if timeout is None:
        results = _parallel(n_jobs, backend)(
            delayed(_run_split)(
                cell.estimator, ds.X, ds.y, s, limit_threads, cell.report_keys, cell.artefacts,
                parent,
            )
            for s in todo
        )  # fmt: skip
    else:  # in worker processes, even for n_jobs=1: a fold past its budget is stopped
        call = partial(
            _run_split, cell.estimator, ds.X, ds.y, limit_threads=limit_threads,
            report_keys=cell.report_keys, artefacts=cell.artefacts, parent=parent,
        )  # fmt: skip
        results = _budgeted(call, todo, n_jobs, timeout, desc)
    with bar:
        for split, result in results:
            key = (split.repetition, split.fold)
            frames[key] = _fold_frame(result.rows, cell, split)
            if cell.artefacts:
                art_frames[key] = _artefact_fold_frame(result.artefacts, cell, split)
            if store is not None:
                store.save_fold(cell, split, frames[key], art_frames.get(key))
            bar.update(1)
    records = pd.concat([frames[k] for k in sorted(frames)], ignore_index=True)
    if store is not None:
        arts = pd.concat([art_frames[k] for k in sorted(art_frames)]) if cell.artefacts else None
        store.save_cell(cell, records, arts)
    return records


def _budgeted(call, todo, n_jobs: int, timeout: float, desc: str):
    """``(split, FoldResult)`` of the folds run under a budget; a fold stopped at it gives the
    did-not-finish rows (and a warning naming it)."""
    for split, outcome, elapsed in run_with_budget(call, todo, n_jobs, timeout):
        if outcome is not None:
            yield outcome  # (split, FoldResult), as _run_split returns it
            continue
        warnings.warn(
            f"{desc}: fold r{split.repetition}f{split.fold} did not finish within its budget"
            f" of {timeout:g} s (stopped after {elapsed:.1f} s; recorded as did-not-finish)",
            stacklevel=2,
        )
        yield split, FoldResult(did_not_finish_rows(elapsed))


def _run_split(estimator, X, y, split, limit_threads, report_keys, artefacts, parent=None):
    if parent is not None and parent != os.getpid():  # a loky worker of process ``parent``
        end_with_parent(parent)
    return split, run_fold(estimator, X, y, split, limit_threads, report_keys, artefacts)


def run_unit(path, chash: str, compute: Callable[[], pd.DataFrame], *, force: bool = False):
    """A resumable unit of work that is not a CV cell: ``(records, computed)``.

    The records are read from ``path`` when it holds configuration hash ``chash`` (and not
    ``force``); else ``compute()`` builds them (its ``config_hash`` column must be ``chash``) and
    they are written atomically to ``path``. A file of another hash is recomputed."""
    path = Path(path)
    if not force and is_current(path, chash):
        stored = read_checked(path)
        if stored is not None:
            return stored, False
    with cell_lock(path, what=f"unit {path}"):
        if not force and stored_exists(path):  # computed meanwhile elsewhere, or unreadable
            stored = read_checked(path, quarantine=True, require=("config_hash",))
            if stored is not None and len(stored) and stored["config_hash"].iloc[0] == chash:
                return stored, False
        records = compute()
        stored = set(records["config_hash"]) if "config_hash" in records else set()
        if stored != {chash}:
            raise ValueError(
                f"the records computed for {path} carry config hash {sorted(stored)}, not {chash}"
            )
        write_atomic(records, path)
    return records, True


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
    backend: str = "loky",
    timeout: float | None = None,
    store_proba: bool = False,
) -> pd.DataFrame:
    """Evaluate a method on a data set under a protocol; returns the tidy records.

    Parameters
    ----------
    method : str, (str, dict) or estimator
        A registry id or alias, an (id, params) pair, or any scikit-learn classifier.
    dataset : str, dict, Dataset or (X, y)
        A catalog name, ``{"name": ..., **generator parameters}``, a loaded
        :class:`repro.datasets.Dataset`, or your own ``(X, y)`` (a DataFrame or array and the
        labels; its records name the data set "data").
    protocol : str, dict or Protocol
        "cv10", "cv5", "cv10x30", "holdout70", "synthetic" or the fields of a :class:`Protocol`
        (kind "synthetic": ``dataset`` must be a generator, sampled afresh per repetition).
    seed : int
        Base seed of the folds; splits depend only on (seed, data set, repetition).
    n_jobs : int
        Folds run in parallel with joblib.
    results_dir : path, optional
        When given, the cell's records are stored (and resumed) under it, named as ``python -m
        repro`` names them: with ``experiment="default"``, a protocol other than cv10 is in the
        file name (``nb__protocol=cv5.parquet``).
    backend : {"loky", "threading", "dask"}
        joblib's backend for the folds: processes (default), threads, or the workers of a Dask
        cluster (``"dask"``: create a ``distributed.Client`` first); the records do not depend on
        it.
    timeout : float, optional
        A budget in seconds per fold: a fold past it is stopped and recorded as did-not-finish
        (metric ``did_not_finish`` = 1, its ``fit_time`` the time it ran; no other metric).
    store_proba : bool
        Store each fold's test-set class probabilities (and training priors) in the cell's
        artefact file, so that a metric is computed later without refitting
        (:func:`repro.evaluation.predictions.prediction_metrics`); needs ``results_dir``.
    """
    check_backend(backend)
    check_fold_jobs(n_jobs)
    declared = None
    if experiment == "default":  # as `python -m repro` without an experiment: cv10 by default
        from repro.config import declared_protocol

        declared = declared_protocol(None)
    if store_proba and results_dir is None:
        raise ValueError("store_proba=True stores the predictions under results_dir: give one")
    cell = make_cell(
        method, dataset, protocol, seed, experiment, default_protocol=declared,
        store_proba=bool(store_proba),
    )  # fmt: skip
    return run_cell(
        cell, results_dir=results_dir, n_jobs=n_jobs, force=force, progress=progress,
        backend=backend, timeout=timeout,
    )  # fmt: skip


#: the largest base seed: numpy's and scikit-learn's ``random_state`` take 0 .. 2**32 - 1
MAX_SEED = 2**32 - 1


def check_seed(seed) -> int:
    """The base seed as an int in 0 .. :data:`MAX_SEED` (an integer, or its text from a
    configuration); else a ValueError naming ``seed``, raised before any fold runs."""
    value = seed.strip() if isinstance(seed, str) else seed
    if isinstance(value, str) and value.lstrip("+-").isdigit():
        value = int(value)
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or not 0 <= value <= MAX_SEED
    ):
        raise ValueError(
            f"seed must be an integer from 0 to 2**32 - 1 = {MAX_SEED} (the base seed of the "
            f"folds, a numpy random state), got {seed!r}"
        )
    return int(value)


def make_cell(
    method,
    dataset,
    protocol="cv10",
    seed: int = 0,
    experiment: str = "default",
    *,
    baseline: dict | None = None,
    store_proba: bool = False,
    **fields,
) -> Cell:
    """The one builder of a :class:`Cell` (``evaluate``, ``python -m repro``, the studies).

    ``method`` and ``dataset`` as in :func:`evaluate` (``method`` also a resolved
    :class:`~repro.registry.MethodSpec`). ``baseline``: parameter values taken as
    this cell's defaults, left out of its file name (a study's own settings). ``store_proba``:
    store each fold's test-set probabilities beside the records
    (:mod:`repro.evaluation.predictions`; not part of the cell's identity). ``fields``: the
    cell's other fields (:class:`~repro.evaluation.cells.Cell`: ``dataset_key``, ``splits``,
    ``context``, ``hash_scheme``, ``report_keys``, ``artefacts``).
    """
    from repro.datasets.dataset import Dataset
    from repro.registry import MethodSpec, method_spec

    if isinstance(method, BaseEstimator):
        estimator = method
        method_id = type(method).__name__
        params = {k: jsonable(v) for k, v in method.get_params(deep=False).items()}
        defaults = {}
    else:  # a MethodSpec: resolved already (the cells of a sweep share it)
        spec = method if isinstance(method, MethodSpec) else None
        if spec is None:
            name, overrides = (method, {}) if isinstance(method, str) else method
            spec = method_spec(name, **dict(overrides))
        method_id, estimator, params, defaults = spec.id, spec.estimator, spec.params, spec.defaults
    if baseline:
        defaults = {**defaults, **baseline}
    seed = check_seed(seed)
    protocol = get_protocol(protocol)
    if isinstance(dataset, tuple):  # your own (X, y), checked as a catalog data set is
        if len(dataset) != 2:
            raise ValueError(
                f"dataset as a tuple must be (X, y), got a tuple of {len(dataset)} items"
            )
        dataset = Dataset("data", *dataset, meta={"source": "arrays"})
    if protocol.kind == "synthetic":  # fresh generator samples, one block per repetition
        dataset = synthetic_dataset(dataset, protocol, seed)
    elif isinstance(dataset, dict):
        from repro.datasets import load_dataset

        spec_ds = dict(dataset)
        dataset = load_dataset(spec_ds.pop("name"), **spec_ds)
    elif not isinstance(dataset, Dataset):
        from repro.datasets import load_dataset

        if not isinstance(dataset, str):
            raise ValueError(
                "dataset must be a catalog name, a dict of a name and generator parameters, a "
                f"repro.datasets.Dataset or a tuple (X, y); got a {type(dataset).__name__}"
            )
        dataset = load_dataset(dataset)
    if store_proba:
        fields["artefacts"] = with_stored_predictions(fields.get("artefacts"))
    return Cell(
        method_id, estimator, params, dataset, protocol, seed, experiment, defaults, **fields
    )


__all__ = [
    "BACKENDS",
    "ArtefactHook",
    "Terminated",
    "Cell",
    "FoldData",
    "FoldResult",
    "aligned_proba",
    "MAX_SEED",
    "cell_records",
    "check_backend",
    "check_fold_jobs",
    "check_seed",
    "end_with_parent",
    "evaluate",
    "finished_records",
    "make_cell",
    "model_metrics",
    "run_cell",
    "run_fold",
    "run_unit",
    "terminate_as_interrupt",
]
