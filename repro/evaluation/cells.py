"""A cell's identity: what one result file holds (a method configuration on a data set under a
protocol), its configuration hash, and where its files lie: the one place that knows the layout
of a cell's files under ``<results>/<experiment>/``:

- ``<dataset_key>/<stem>.parquet``: its records (:meth:`Cell.path`);
- ``<dataset_key>/<stem>.parts/r<rep>_f<fold>[.artefacts].parquet``: the checkpoints of its
  finished folds while it runs (:meth:`Cell.parts_path`, :func:`part_path`);
- ``artefacts/<dataset_key>/<stem>.parquet``: its artefacts (:meth:`Cell.artefact_path`);
- ``<dataset_key>/<name>.error.json``: its error when it failed (:func:`failure_path`).

``stem`` is ``<method_key>[__seed=S]``; a key is a name plus the parameters that differ from its
defaults (:func:`param_key`; data sets: :func:`catalog_key`). Running cells is
:mod:`repro.evaluation.runner`'s.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator

from repro.config import jsonable, safe_name
from repro.evaluation.guarded import write_text
from repro.evaluation.protocols import Protocol, Split, get_protocol, make_splits
from repro.evaluation.records import PARTS_SUFFIX, config_hash, unit_hash

HASH_SCHEMES = ("cell", "unit")

#: the record column (and context key) of the SHA-256 of a user's data file: an edited file
#: gives another configuration hash, and the runner computes its cell afresh
DATA_COLUMN = "data_sha256"
#: estimator parameters that change how fast a fit runs, never its result (the parallel
#: preparation is bit-identical to the serial one): not part of a cell's identity
EXECUTION_PARAMS = ("n_jobs",)


@dataclass
class Cell:
    """What one result file holds: a method configuration on a data set under a protocol.

    ``splits``: explicit folds (default: the protocol's, from ``seed`` and the data set name).
    ``context``: study columns stored with every record and part of the configuration hash; a
    data set read from a user's file adds its content's SHA-256 (:data:`DATA_COLUMN`).
    ``hash_scheme``: "cell" hashes method, params, data set name and parameters, protocol fields,
    seed (+ context and splits when given); "unit" hashes as :func:`records.unit_hash` (data set
    key, protocol name), the scheme of the boulle2007 waveform study's stored cells.
    ``report_keys``: numeric ``fit_report_`` entries recorded as model metrics besides the times
    and the criterion. ``artefacts``: a hook called on each fitted fold
    (:class:`repro.evaluation.runner.FoldData`), whose rows are the cell's artefacts.
    """

    method_id: str
    estimator: BaseEstimator
    params: dict
    dataset: object  # repro.datasets.Dataset
    protocol: Protocol
    seed: int = 0
    experiment: str = "default"
    default_params: dict = field(default_factory=dict)
    dataset_key: str | None = None
    splits: tuple[Split, ...] | None = None
    context: dict = field(default_factory=dict)
    hash_scheme: str = "cell"
    report_keys: tuple[str, ...] = ()
    artefacts: Callable | None = None  # repro.evaluation.runner.ArtefactHook
    default_protocol: object = None  # the experiment's declared protocol (name, dict, Protocol)

    def __post_init__(self):
        if self.hash_scheme not in HASH_SCHEMES:
            raise ValueError(f"hash_scheme must be one of {HASH_SCHEMES}, got {self.hash_scheme!r}")
        if self.dataset_key is None:  # once per cell: it reads the data catalog
            self.dataset_key = catalog_key(self.dataset)
        self.context = dict(self.context or {})
        fingerprint = getattr(self.dataset, "meta", {}).get("fingerprint")
        if fingerprint:  # a user's data file: its content is part of the cell (and recorded)
            self.context.setdefault(DATA_COLUMN, fingerprint)
        self.report_keys = tuple(self.report_keys)
        if self.default_protocol is not None:
            self.default_protocol = get_protocol(self.default_protocol)
        if self.splits is not None:
            self.splits = tuple(self.splits)
            if not self.splits:
                raise ValueError("explicit splits must not be empty")

    def data_changed(self, records) -> bool:
        """True when stored ``records`` are of another content of the cell's data file
        (:data:`DATA_COLUMN`), so the cell is computed afresh rather than refused."""
        now = self.context.get(DATA_COLUMN)
        before = set(records[DATA_COLUMN].dropna()) if DATA_COLUMN in records else set()
        return bool(now or before) and before != {now}

    @property
    def result_params(self) -> dict:
        """``params`` with the execution-only ones (:data:`EXECUTION_PARAMS`, which change how
        fast a fit runs, never its records) at their configured default (dropped when the
        method's configuration has none): the hash and the file name of a cell do not depend
        on them."""
        out = dict(self.params)
        for key in EXECUTION_PARAMS:
            if key in out:
                if key in self.default_params:
                    out[key] = self.default_params[key]
                else:
                    del out[key]
        return out

    @functools.cached_property
    def hash(self) -> str:
        """Configuration hash: what the stored file was computed with (computed once: explicit
        splits are digested index by index)."""
        hashed = dict(self.context)
        if self.splits is not None:
            hashed["splits"] = splits_digest(self.splits)
        if self.hash_scheme == "unit":
            return unit_hash(
                self.method_id,
                self.result_params,
                self.dataset_key,
                self.seed,
                self.protocol.name,
                hashed,
            )
        payload = {
            "method": self.method_id,
            "params": self.result_params,
            "dataset": self.dataset.name,
            "dataset_params": self.dataset.meta.get("params", {}),
            "protocol": self.protocol.identity(),
            "seed": self.seed,
        }
        if hashed:  # absent for plain cells: their hashes stay those of the stored results
            payload["context"] = hashed
        return config_hash(payload)

    @property
    def method_key(self) -> str:
        """File-name key: the id, plus the parameters that differ from the defaults."""
        return param_key(self.method_id, self.result_params, self.default_params)

    @property
    def protocol_key(self) -> str:
        """'' under the protocol the experiment declares (``default_protocol``; None: whatever
        protocol the cell has), else ``__protocol=<name>[,field=value...]``: the name and the
        fields that differ from that named protocol's (``__protocol=cv5``,
        ``__protocol=cv10x30,n_repeats=5``)."""
        if self.default_protocol is None:
            return ""
        if self.protocol.identity() == self.default_protocol.identity():
            return ""
        return f"__protocol={self.protocol.label()}"

    @property
    def stem(self) -> str:
        """Name of the cell's files: ``<method_key>[__protocol=P][__seed=S]`` (no protocol under
        the experiment's own, no seed when it is 0)."""
        stem = f"{self.method_key}{self.protocol_key}"
        return f"{stem}__seed={self.seed}" if self.seed != 0 else stem

    def fold_splits(self) -> list[Split]:
        if self.splits is not None:
            return list(self.splits)
        ds = self.dataset
        return make_splits(self.protocol, ds.y, seed=self.seed, dataset=ds.name)

    @property
    def safe_stem(self) -> str:
        """:attr:`stem`, checked to be one file name (:func:`safe_name`)."""
        return safe_name(self.stem, "method (file name of the cell)")

    def path(self, results_dir) -> Path:
        """``<results>/<experiment>/<dataset_key>/<stem>.parquet``: the cell's records."""
        folder = cell_folder(results_dir, self.experiment, self.dataset_key)
        return folder / f"{self.safe_stem}.parquet"

    def artefact_path(self, results_dir) -> Path:
        """``<results>/<experiment>/artefacts/<dataset_key>/<stem>.parquet``."""
        experiment = safe_name(self.experiment, "experiment name", folders=True)
        root = Path(results_dir) / experiment / "artefacts"
        key = safe_name(self.dataset_key, "data set name", folders=True)
        return root / key / f"{self.safe_stem}.parquet"

    def parts_path(self, results_dir) -> Path:
        """``<results>/<experiment>/<dataset_key>/<stem>.parts``: the checkpoints' folder."""
        folder = cell_folder(results_dir, self.experiment, self.dataset_key)
        return folder / f"{self.safe_stem}{PARTS_SUFFIX}"

    def fold_keys(self) -> list[tuple[int, int]]:
        """The (repetition, fold) of every fold the cell's protocol (or explicit splits) has:
        what a complete cell file holds."""
        if self.splits is not None:
            return [(s.repetition, s.fold) for s in self.splits]
        if self.protocol.kind == "kfold":
            n_folds = self.protocol.n_splits
            return [(r, f) for r in range(self.protocol.n_repeats) for f in range(n_folds)]
        return [(r, 0) for r in range(self.protocol.n_repeats)]

    def failure_path(self, results_dir, name: str | None = None) -> Path:
        """``<results>/<experiment>/<dataset_key>/<name>.error.json`` (``name``: the stem)."""
        return failure_path(results_dir, self.experiment, self.dataset_key, name or self.stem)


def cell_folder(results_dir, experiment: str, dataset_key: str) -> Path:
    """``<results>/<experiment>/<dataset_key>``: the folder of a data set's cells (each name
    checked by :func:`safe_name`: a path never leaves ``results_dir``)."""
    experiment = safe_name(experiment, "experiment name", folders=True)
    return Path(results_dir) / experiment / safe_name(dataset_key, "data set name", folders=True)


def part_path(parts: Path, split: Split, artefacts: bool = False) -> Path:
    """The checkpoint of one fold (or of its artefacts) in a cell's ``.parts`` folder."""
    suffix = ".artefacts" if artefacts else ""
    return Path(parts) / f"r{split.repetition:03d}_f{split.fold:03d}{suffix}.parquet"


def failure_path(results_dir, experiment: str, dataset_key: str, name: str) -> Path:
    """``<results>/<experiment>/<dataset_key>/<name>.error.json``: a failed cell's error, beside
    the results of its data set (``dataset_key``: :func:`catalog_key`)."""
    name = safe_name(name, "method (file name of the failed cell)")
    return cell_folder(results_dir, experiment, dataset_key) / f"{name}.error.json"


def write_failure(path, exc: BaseException, **context) -> Path:
    """Write a failed cell's error file: ``context``, the error and the current traceback."""
    path = Path(path)
    error = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
    payload = {**context, **error}
    return write_text(path, json.dumps(payload, indent=2))  # never through a planted link


def catalog_key(dataset) -> str:
    """Directory key of a data set: its name, plus the generator parameters that differ from the
    catalog defaults (``waveform__n_samples=600``); data sets outside the catalog: the name.

    ``dataset``: a :class:`~repro.datasets.Dataset`, a name or ``{"name": ..., **parameters}``
    (a configuration's data set: the key of the cell it makes)."""
    from repro.datasets.entries import catalog

    if isinstance(dataset, str):
        name, given = dataset, {}
    elif isinstance(dataset, dict):
        given = {k: v for k, v in dataset.items() if k != "name"}
        name = str(dataset["name"])
    else:
        name, given = dataset.name, dataset.meta.get("params", {})
    entry = catalog().get(name)
    defaults = entry.params if entry is not None else {}
    params = {k: v for k, v in given.items() if k in defaults}
    return param_key(name, params, defaults)


def param_key(name: str, params: dict, defaults: dict) -> str:
    """``name`` followed by the parameters that differ from ``defaults`` (hashed when long)."""
    changed = {k: v for k, v in params.items() if jsonable(defaults.get(k)) != jsonable(v)}
    if not changed:
        return name
    text = "__".join(f"{k}={jsonable(v)}" for k, v in sorted(changed.items()))
    text = re.sub(r"[^A-Za-z0-9_.=,+-]", "", text.replace(" ", ""))
    if len(text) > 80:
        text = config_hash(changed)
    return f"{name}__{text}"


def splits_digest(splits) -> str:
    """Short hash of explicit splits (repetition, fold and the train/test indices)."""
    h = hashlib.sha1()
    for s in splits:
        h.update(np.asarray([s.repetition, s.fold], dtype=np.int64).tobytes())
        for part in (s.train, s.test):
            idx = np.asarray(part, dtype=np.int64)
            h.update(np.int64(idx.size).tobytes())
            h.update(idx.tobytes())
    return h.hexdigest()[:12]


__all__ = [
    "EXECUTION_PARAMS",
    "HASH_SCHEMES",
    "Cell",
    "catalog_key",
    "cell_folder",
    "failure_path",
    "param_key",
    "part_path",
    "safe_name",
    "splits_digest",
    "write_failure",
]
