"""The cell of a composed configuration, and the finished cells of a sweep read before its launch.

``python -m repro`` builds a job's cell with :func:`cell_from_config` and reports it with
:func:`report_cell`. Before the launcher starts one job per cell, the sweeper
(``conf/hydra/sweeper/repro.yaml``) hands the jobs to :func:`pending_jobs`: each job whose cell is
finished (its records file holds every fold of this configuration: the runner's own test,
:func:`repro.evaluation.runner.finished_records`) is read and reported here, as its job would
have done, without a Hydra job; only the other jobs are launched. A job that would not simply read
its records (``force=true``, an experiment's own ``task``, ``backend=dask``, a bad value, a
corrupt, partial or foreign file, a failure) is launched as before.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from omegaconf import DictConfig, OmegaConf

from repro.cli.sweep_configs import JobConfig, job_configs
from repro.cli.sweep_status import report_read_cell
from repro.config import declared_protocol, exclude_entries
from repro.registry import method_params

#: the keys of a job's configuration that building and reading its cell looks at
READ_KEYS = (
    "method", "dataset", "protocol", "seed", "experiment_name", "results_dir", "artefacts",
    "report_keys", "task", "force", "verbose", "backend", "n_jobs", "timeout", "store",
    "large_protocol",
)  # fmt: skip

#: the keys of how a cell runs (cores, time budget, console, backend), which its records do not
#: depend on
RUN_KEYS = ("n_jobs", "timeout", "progress", "verbose", "backend", "force")

#: where :func:`use_sweeper` finds the sweeper's Hydra plugin (``hydra_plugins.repro_sweeper``)
PLUGIN_ROOT = Path(__file__).resolve().parents[1] / "plugins"


def store_name(cfg: DictConfig) -> str:
    """The experiment folder of a configuration's cells: ``store`` when it names one (the cells
    several experiments share), else ``experiment_name``."""
    return str(cfg.get("store") or cfg.experiment_name)


def sized_protocol(protocol: dict, rule, n_instances: int) -> dict:
    """``protocol`` with the fields of ``rule`` (``large_protocol``: ``{above: N, FIELD: VALUE,
    ...}``) on a data set of more than ``above`` instances; as it is else, or without a rule."""
    if not rule:
        return protocol
    fields = dict(rule)
    above = fields.pop("above", None)
    if isinstance(above, bool) or not isinstance(above, int) or above < 0 or not fields:
        raise ValueError(
            "large_protocol must be {above: N, FIELD: VALUE, ...} (N an integer ≥ 0), e.g. "
            f"{{above: 100000, name: cv5, n_splits: 5}}; got {rule!r}"
        )
    return {**protocol, **fields} if n_instances > above else protocol


def cell_from_config(cfg: DictConfig, method: str, experiment: str | None, known=None):
    """The :class:`~repro.evaluation.cells.Cell` of a composed configuration; ``method`` and
    ``experiment``: Hydra's choices of those groups. ``known``: a dict where the cells of one
    sweep keep what they share (the method's resolved configuration, the data set loaded and its
    key, the experiment's protocol), found once. The cell is stored in :func:`store_name`'s
    folder; ``large_protocol`` changes the protocol of the large data sets (:func:`sized_protocol`:
    the experiment's declared protocol too, so that such a cell's file name has no protocol)."""
    from hydra.utils import get_method

    from repro.evaluation.protocols import get_protocol
    from repro.evaluation.runner import make_cell
    from repro.registry import method_spec

    overrides = method_params(OmegaConf.to_container(cfg.method, resolve=True))
    dataset = OmegaConf.to_container(cfg.dataset, resolve=True)
    protocol = OmegaConf.to_container(cfg.protocol, resolve=True)
    hook = cfg.get("artefacts")  # an experiment's artefact hook, "module.function"
    rule = cfg.get("large_protocol")
    rule = OmegaConf.to_container(rule, resolve=True) if isinstance(rule, DictConfig) else rule
    fields = {}
    sampled = get_protocol(protocol).kind == "synthetic"  # sampled afresh from its generator
    if known is None:
        fields["default_protocol"] = declared_protocol(experiment)
        if rule and not sampled:  # the rule needs the data set's size
            dataset, fields["dataset_key"] = _load(dataset)
    else:
        key = json.dumps([method, overrides], sort_keys=True, default=str)
        method = _once(known, ("method", key), lambda _: method_spec(method, **overrides))
        fields["default_protocol"] = _once(known, ("experiment", experiment), declared_protocol)
        if not sampled:
            key = ("dataset", json.dumps(dataset, sort_keys=True, default=str))
            dataset, fields["dataset_key"] = _once(known, key, lambda _: _load(dataset))
    if rule and not sampled:
        size = dataset.y.size
        protocol = sized_protocol(protocol, rule, size)
        fields["default_protocol"] = sized_protocol(fields["default_protocol"], rule, size)
    return make_cell(
        (method, overrides) if isinstance(method, str) else method,
        dataset,
        protocol,
        seed=cfg.seed,  # checked by make_cell (an integer ≥ 0, the message names it)
        experiment=store_name(cfg),
        report_keys=tuple(cfg.get("report_keys") or ()),
        artefacts=get_method(hook) if hook else None,
        store_proba=bool(cfg.get("store_proba", False)),
        **fields,
    )


def report_cell(cell, path, records, cached: bool, seconds: float, short: bool) -> None:
    """Print a cell's outcome: one line in a sweep (``short``), else its summary table."""
    from repro.evaluation.records import format_summary, summarize

    summary = summarize(records, ["accuracy", "auc"] if short else None)
    flag = majority_flag(records, cell.dataset.y)
    if short:  # a sweep: one line per cell
        row = format_summary(summary).iloc[0]
        print(
            f"{'read' if cached else 'computed'} {cell.method_key} on {cell.dataset_key}: "
            f"accuracy {row['accuracy']}, AUC {row.get('auc', '')} ({row['folds']} folds, "
            f"{seconds:.1f} s) -> {path}{flag}"
        )
    else:
        import pandas as pd

        with pd.option_context("display.width", 200, "display.max_columns", 20):
            print(format_summary(summary).to_string(index=False))
        print(f"{'already computed, read from' if cached else 'records written to'} {path}{flag}")


def majority_flag(records, y) -> str:
    """`` — at or below the majority rate …`` when the mean test accuracy of ``records`` is at
    most the share of the largest class of ``y`` (the model does no better than always
    predicting that class), within the dashboard's tolerance for the same flag (a constant
    prediction's mean over stratified folds differs from the share by a few 1e-5), else ``""``."""
    import numpy as np

    from repro.report.dashboard.points import MAJORITY_ROUNDING

    test = records[(records["split"] == "test") & (records["metric"] == "accuracy")]
    if not len(test):
        return ""
    _, counts = np.unique(np.asarray(y), return_counts=True)
    majority = counts.max() / counts.sum()
    accuracy = float(test["value"].mean())
    if accuracy > majority + MAJORITY_ROUNDING:
        return ""
    return (
        f" — at or below the majority rate: accuracy {accuracy:.3f} ≤ {majority:.3f}, the share "
        "of the largest class (no better than always predicting it)"
    )


def failure_file(
    cfg: DictConfig, method: str, overrides: Sequence[str], dataset_key: str | None = None
) -> Path:
    """Where a failed cell leaves its error, beside the results of its data set (removed when the
    cell later succeeds): ``<method>.<hash of the overrides>.error.json``, named from the
    command line, as the cell may fail before it exists (``dataset_key``: the key of
    ``cfg.dataset``, when known). Overrides of how a cell runs, not of what it computes
    (:data:`RUN_KEYS`: ``n_jobs=2``, ``timeout=1800``, ...), are not in the name: a cell that
    failed with them and succeeds without them clears its error."""
    from repro.evaluation.cells import catalog_key, failure_path
    from repro.evaluation.records import config_hash

    key = dataset_key or catalog_key(OmegaConf.to_container(cfg.dataset, resolve=True))
    named = [o for o in overrides if o.partition("=")[0].lstrip("+~") not in RUN_KEYS]
    name = f"{method}.{config_hash({'overrides': sorted(named)})}"
    return failure_path(cfg.results_dir, store_name(cfg), key, name)


def pending_jobs(
    compose: Callable[[list[str]], DictConfig], jobs: Sequence[Sequence[str]]
) -> list[list[str]]:
    """The jobs of a sweep whose cells are not finished, in order; the finished ones are read,
    reported (a line each, a status for the sweep's summary) and left out.
    ``compose(overrides)``: Hydra's composition of one job."""
    jobs = [list(job) for job in jobs]
    compose = _memo(compose)
    if not jobs or not _may_hold_records(compose, jobs):
        return jobs
    known: dict = {}
    pending = []
    configs = job_configs(compose, jobs, READ_KEYS)
    for number, (job, config) in enumerate(zip(jobs, configs, strict=True)):
        read = None
        if config is not None:
            try:
                read = _read_finished(config, known)
            except Exception:  # its job fails or repairs it, as without this pass
                read = None
        if read is None:
            pending.append(job)
            continue
        report_read_cell(number, config.overrides, read)
        sys.stdout.flush()
    return pending


def excluded_jobs(
    jobs: Sequence[Sequence[str]], exclude
) -> tuple[list[list[str]], list[list[str]]]:
    """(the jobs to keep, the jobs left out by a sweep's bound), each in order.

    ``exclude`` (``hydra.sweeper.exclude``, :func:`repro.config.exclude_entries`): a job is left
    out when, for every key of one entry, the job's override of that key (``method=svm_tuned``)
    has one of the entry's values. An entry ``{method: [lr_tuned, svm_tuned], dataset:
    pendigits}`` leaves out two cells."""
    entries = exclude_entries(exclude)
    kept, dropped = [], []
    for job in jobs:
        given = dict(o.partition("=")[::2] for o in job)
        left_out = any(
            all(given.get(k) in values for k, values in entry.items()) for entry in entries
        )
        (dropped if left_out else kept).append(list(job))
    return kept, dropped


def _may_hold_records(compose, jobs) -> bool:
    """False when no job of the sweep can be read: its experiment folder holds no records file,
    or its jobs run an experiment's own ``task`` or ``force=true`` (unless a job overrides
    them); the jobs then go to the launcher without a composition of their own here."""
    try:
        cfg = compose(list(jobs[0]))
        folder = Path(str(cfg.results_dir)) / store_name(cfg)
        keys = {o.partition("=")[0].lstrip("+~") for job in jobs for o in job}
        if (cfg.get("task") and "task" not in keys) or (cfg.force and "force" not in keys):
            return False
    except Exception:
        return True
    return folder.is_dir() and next(folder.rglob("*.parquet"), None) is not None


def _memo(compose):
    """``compose`` that composes each list of overrides once."""
    done = {}

    @functools.wraps(compose)
    def composed(overrides):
        key = tuple(overrides)
        if key not in done:
            done[key] = compose(list(overrides))
        return done[key]

    return composed


def _read_finished(job: JobConfig, known: dict) -> float | None:
    """Read and report the cell of a job when it is finished: the seconds its reading took;
    None when the job must run (it would compute, fail or do more than read). ``known``: what
    the sweep's cells share (:func:`cell_from_config`)."""
    from repro.evaluation.cells import catalog_key
    from repro.evaluation.fold_budget import check_timeout
    from repro.evaluation.runner import check_backend, check_fold_jobs, finished_records

    cfg = job.config
    if cfg.get("task") or bool(cfg.force):
        return None
    if check_backend(cfg.get("backend", "loky")) == "dask":  # connects a client first
        return None
    check_fold_jobs(cfg.n_jobs)
    check_timeout(cfg.get("timeout"))
    method = job.choices["method"]
    cell = cell_from_config(cfg, method, job.choices.get("experiment"), known)
    path = cell.path(cfg.results_dir)
    start = time.perf_counter()
    records = finished_records(cell, cfg.results_dir)
    seconds = time.perf_counter() - start
    if records is None:
        return None
    spec = OmegaConf.to_container(cfg.dataset, resolve=True)
    key = ("key", json.dumps(spec, sort_keys=True, default=str))
    key = _once(known, key, lambda _: catalog_key(spec))  # as the failed job named its file
    with contextlib.suppress(OSError):
        failure_file(cfg, method, job.overrides, key).unlink(missing_ok=True)
    report_cell(cell, path, records, True, seconds, short=not cfg.get("verbose", False))
    return seconds


def _once(known: dict, key, find):
    """``find(key)``, found once per sweep."""
    if key not in known:
        known[key] = find(key)
    return known[key]


def _load(spec: dict):
    """The data set of a configuration's ``dataset`` node, and the key of its folder."""
    from repro.datasets import load_dataset
    from repro.evaluation.cells import catalog_key

    params = dict(spec)
    dataset = load_dataset(params.pop("name"), **params)
    return dataset, catalog_key(dataset)


def use_sweeper() -> None:
    """Make the sweeper of ``conf/hydra/sweeper/repro.yaml`` known to Hydra (a plugin lives in
    the ``hydra_plugins`` namespace: its folder joins the module path)."""
    import importlib

    from hydra.core.plugins import Plugins

    if str(PLUGIN_ROOT) not in sys.path:
        sys.path.append(str(PLUGIN_ROOT))
    module = importlib.import_module("hydra_plugins.repro_sweeper")
    Plugins.instance().register(module.FinishedCellsSweeper)


__all__ = [
    "PLUGIN_ROOT",
    "cell_from_config",
    "failure_file",
    "pending_jobs",
    "report_cell",
    "sized_protocol",
    "store_name",
    "use_sweeper",
]
