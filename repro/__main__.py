"""``python -m repro``: run one cell (or, with ``-m``, a sweep of cells) from the Hydra configs.

    python -m repro method=cma dataset=waveform
    python -m repro -m method=nb_gaussian,nb_ef dataset=iris,wine,pima
    python -m repro -m method=bma_nb method.gamma=0.5,1.0,1.5 dataset=iris

Method aliases (``cma`` → ``snb_cma``) are resolved, and unknown methods, unknown data sets and
unknown keys of the chosen method's or data set's configuration (``method.nosuch=1``) are
reported with the list of valid names, before Hydra composes anything (exit code 2).

A sweep (``-m``) reads its finished cells before the launch and launches only the others
(:mod:`repro.cli.finished_cells`); it runs every cell even when some fail (each failure is recorded
in an ``.error.json`` file beside the cell's results); it ends with a summary of the failed cells
and their error files, and exit code 1, when any failed. The summary covers the cells of every
launcher, SLURM's included: the jobs report to a folder in the sweep's directory
(:mod:`repro.cli.sweep_status`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import time
from pathlib import Path


def interrupted_while_starting(signum, frame) -> None:
    """Ctrl-C before the first job began (importing, checking the command line, Hydra composing
    the configuration, a sweep reading its finished cells): one line and exit code 130, not the
    traceback of whichever import it fell in, nor the configuration error Hydra makes of it;
    nothing was computed. :func:`hydra_main` restores Python's handler."""
    sys.stderr.write("interrupted while starting: nothing was computed\n")
    sys.stderr.flush()
    os._exit(130)


if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where SIGINT is ignored
    signal.signal(signal.SIGINT, interrupted_while_starting)

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig

from repro.cli.arguments import (
    HELP,
    UsageError,
    check_experiment_files,
    check_top_level,
    close_names,
    list_table,
    results_folder_error,
    resume_hint,
    unknown_data_sets,
    use_config_dirs,
)
from repro.cli.console import (
    OUT_OF_MEMORY_ADVICE,
    drop_unraisable_memory_errors,
    failure_text,
    leave,
    print_warnings_as_one_line,
)
from repro.cli.finished_cells import cell_from_config, failure_file, report_cell, use_sweeper
from repro.cli.sweep_status import report_job_status, status_folder, sweep_reports, sweep_summary
from repro.config import register_dataset_configs
from repro.registry import method_params, resolve_method_id

#: ``method.KEY=...`` / ``dataset.KEY.sub=...``: an override of an existing key (no ``+``)
_KEY = re.compile(r"^(method|dataset)\.([^.=]+)[.=]")


class CommandLineError(Exception):
    """A bad name on the command line (reported without a traceback, exit code 2)."""


#: a name Hydra's override grammar takes unquoted
_PLAIN = re.compile(r"^[A-Za-z0-9_.+\-]+$")


def choice_names(arg: str):
    """(group, names, sweep) of a ``method=`` / ``dataset=`` override, read by Hydra's own
    override parser (quotes, ``a,b`` and ``choice(a,b)`` as Hydra reads them; names NFC
    normalised); ``sweep``: "simple" (``a,b``), "choice" (``choice(a,b)``) or None. A value the
    grammar refuses only because a name is not ASCII (``dataset=dé``) is split on commas.
    None for any other argument."""
    import unicodedata

    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.core.override_parser.types import ChoiceSweep

    match = re.match(r"^(method|dataset)=(.+)$", arg)
    if not match:
        return None
    group, raw = match.groups()
    try:
        value = OverridesParser.create().parse_override(arg).value()
    except Exception:  # Hydra's grammar: e.g. a non-ASCII name without quotes
        if not re.fullmatch(r"[^()\[\]{}'\"=]+", raw):
            return None
        value = ChoiceSweep(list=raw.split(","), simple_form=True) if "," in raw else raw
    if isinstance(value, ChoiceSweep):
        names, sweep = (
            [str(getattr(v, "text", v)) for v in value.list],
            ("simple" if value.simple_form else "choice"),
        )
    elif isinstance(value, str):
        names, sweep = [value], None
    else:  # a range, an interval or a glob: left to Hydra
        return None
    return group, [unicodedata.normalize("NFC", n.strip()) for n in names], sweep


def _override(group: str, names: list[str], sweep) -> str:
    """The override of ``group`` choosing ``names`` (quoted where Hydra's grammar needs it)."""
    quoted = [n if _PLAIN.match(n) else "'" + n.replace("'", "\\'") + "'" for n in names]
    text = ",".join(quoted)
    return f"{group}=choice({text})" if sweep == "choice" else f"{group}={text}"


def resolve_overrides(args: list[str]) -> list[str]:
    """Rewrite ``method=`` aliases to registry ids and check method and data set names (read
    with Hydra's override grammar: :func:`choice_names`)."""
    import unicodedata

    from repro.datasets import catalog

    out = []
    for arg in args:
        parsed = choice_names(arg)
        if parsed is None:
            out.append(arg)
            continue
        group, names, sweep = parsed
        if group == "method":
            names = [_method_id(n) for n in names]
        else:
            # names only: the catalog from file names, no data file read (list_datasets would
            # read every file of REPRO_DATA_PATH without a manifest row to count its rows)
            valid = {unicodedata.normalize("NFC", str(v)): v for v in catalog()}
            by_lower = {}
            for v in valid:
                by_lower.setdefault(v.lower(), []).append(v)
            # the catalog is case-insensitive (repro.datasets.get_entry): IRIS is iris
            names = [
                n if n in valid or len(by_lower.get(n.lower(), [])) != 1 else by_lower[n.lower()][0]
                for n in names
            ]
            unknown = [n for n in names if n not in valid]
            paths = [n for n in unknown if "/" in n or "\\" in n or Path(n).suffix]
            if paths:  # a file given by its path: a data set is named, its file found
                raise CommandLineError(
                    f"dataset={paths[0]} is a path; a data set is given by its name: put the "
                    f"file in a folder and name the folder with REPRO_DATA_PATH, e.g. "
                    f"REPRO_DATA_PATH={Path(paths[0]).parent or '.'} python -m repro "
                    f"dataset={Path(paths[0]).name.split('.')[0]} ... (.csv, .tsv, .parquet, "
                    ".arff; the target column `class`, or the last)"
                )
            if unknown:
                raise CommandLineError(unknown_data_sets(unknown, sorted(valid)))
            names = [valid[n] for n in names]
        out.append(_override(group, names, sweep))
    check_override_keys(out)
    return out


def _method_id(name: str) -> str:
    """The registry id of a method name or alias, else a :class:`CommandLineError`; a name in
    other case (``NB_Gaussian``) is the lower-case one's."""
    try:
        return resolve_method_id(name)
    except ValueError as exc:
        if name.lower() != name:
            with contextlib.suppress(ValueError):
                return resolve_method_id(name.lower())
        raise CommandLineError(str(exc)) from exc


def _chosen(args: list[str], group: str) -> list[str] | None:
    """The options of ``group`` the command line selects (the config's default when it does
    not); None when an experiment may choose them."""
    for arg in args:
        parsed = choice_names(arg)
        if parsed and parsed[0] == group:
            return parsed[1]
    if any(arg.startswith(("experiment=", "+experiment=")) for arg in args):
        return None
    from omegaconf import OmegaConf

    from repro.config import CONF_DIR

    for item in OmegaConf.load(CONF_DIR / "config.yaml").defaults:
        if isinstance(item, DictConfig) and group in item:
            return [str(item[group])]
    return None


def _method_keys(method_id: str) -> tuple[list[str], list[str]]:
    """(keys of the method's configuration, other parameters of its estimator)."""
    from repro.registry import estimator_class, method_config

    config = method_config(method_id)
    keys = sorted(method_params(config))
    extra = sorted(set(estimator_class(config["_target_"])._get_param_names()) - set(keys))
    return keys, extra


def _dataset_keys(name: str) -> tuple[list[str], list[str]]:
    """(keys of the data set's configuration, parameters to add to it)."""
    from omegaconf import OmegaConf

    from repro.config import CONF_DIR
    from repro.datasets import get_entry
    from repro.datasets.entries import COMMON_PARAMS

    entry = get_entry(name)
    yaml = CONF_DIR / "dataset" / f"{entry.name}.yaml"
    keys = list(OmegaConf.load(yaml)) if yaml.exists() else ["name", *entry.params]
    extra = [k for k in (*entry.allowed_params(), *COMMON_PARAMS) if k not in keys]
    return sorted(keys), extra


def check_override_keys(args: list[str]) -> None:
    """``method.KEY=`` / ``dataset.KEY=`` must name a key of the chosen method's (data set's)
    configuration: else a :class:`CommandLineError` with the valid keys (Hydra would only say
    "Key 'KEY' is not in struct")."""
    for arg in args:
        match = _KEY.match(arg)
        if not match:
            continue
        group, key = match.groups()
        choices = _chosen(args, group)
        for choice in choices or ():
            keys, extra = (_method_keys if group == "method" else _dataset_keys)(choice)
            if key in keys or key.startswith("_"):
                continue
            what = f"method {choice!r}" if group == "method" else f"data set {choice!r}"
            close = close_names(key, keys + extra, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            added = (
                f"; parameters to add with +{group}.NAME=VALUE: {', '.join(extra)}" if extra else ""
            )
            raise CommandLineError(
                f"Could not override {group}.{key}: {what} has no key {key!r}.{hint} "
                f"Valid keys: {', '.join(keys) or '(none)'} ({group}.KEY=VALUE){added}"
            )


def run_cell_from_config(cfg: DictConfig, short: bool = False) -> dict:
    """Build the cell described by a composed configuration, run it and report: its summary
    table, or one line when ``short`` (a cell of a sweep)."""
    from repro.evaluation.runner import cell_records, check_backend, check_fold_jobs

    choices = HydraConfig.get().runtime.choices
    cell = cell_from_config(cfg, choices["method"], choices.get("experiment"))
    path = cell.path(cfg.results_dir)  # its names checked: inside results_dir
    backend = check_backend(cfg.get("backend", "loky"))
    n_jobs = check_fold_jobs(cfg.n_jobs)  # 1.5 is an error, not 1
    start = time.perf_counter()
    with dask_client(cfg.get("dask", {}).get("address") if backend == "dask" else None):
        records, computed = cell_records(
            cell, results_dir=cfg.results_dir, n_jobs=n_jobs, force=bool(cfg.force),
            progress=bool(cfg.progress), backend=backend, timeout=cfg.get("timeout"),
        )  # fmt: skip
    cached = not computed
    seconds = time.perf_counter() - start
    with contextlib.suppress(OSError):
        _failure_path(cfg).unlink(missing_ok=True)
    report_cell(cell, path, records, cached, seconds, short)
    return {"path": str(path), "cached": cached, "seconds": seconds}


def dask_client(address):
    """A ``distributed.Client`` connected to the scheduler at ``address`` for the folds of
    ``backend=dask`` (closed afterwards; the cluster is left running); none when ``address`` is
    null (``dask.address=null``: start nothing)."""
    import contextlib

    if address in (None, "", "null"):
        return contextlib.nullcontext()
    from repro.evaluation.extras import require_cluster

    distributed = require_cluster(
        "distributed", "dask.address= (the folds of a cell on a Dask cluster)"
    )
    return distributed.Client(str(address))


#: ``hydra/launcher=NAME`` -> the module of the Hydra plugin it needs, from the cluster extra
#: (``slurm`` is this project's conf/hydra/launcher/slurm.yaml, which extends ``submitit_slurm``)
LAUNCHERS = {
    "joblib": "hydra_plugins.hydra_joblib_launcher",
    "submitit_local": "hydra_plugins.hydra_submitit_launcher",
    "submitit_slurm": "hydra_plugins.hydra_submitit_launcher",
    "slurm": "hydra_plugins.hydra_submitit_launcher",
}
_LAUNCHER = re.compile(r"^\+{0,2}hydra/launcher=(.+)$")
_BACKEND = re.compile(r"^\+{0,2}backend=(.+)$")


def check_extras(args: list[str]) -> None:
    """The optional packages a command line asks for are installed: the Hydra plugin of
    ``hydra/launcher=NAME``, Dask's distributed for ``backend=dask``; else a
    :class:`CommandLineError` naming the cluster extra, before anything runs (Hydra itself would
    only list the launchers it found)."""
    needed = []
    for arg in args:
        if match := _LAUNCHER.match(arg):
            name = match[1].strip()
            if name in LAUNCHERS:
                needed.append(
                    (LAUNCHERS[name], f"hydra/launcher={name} (the cells of a sweep as jobs)")
                )
        elif (match := _BACKEND.match(arg)) and "dask" in re.split(r"\s*,\s*", match[1].strip()):
            needed.append(("distributed", "backend=dask (the folds of a cell on a Dask cluster)"))
    if needed:
        from repro.evaluation.extras import require_cluster

        try:
            for module, purpose in needed:
                require_cluster(module, purpose)
        except ImportError as exc:
            raise CommandLineError(str(exc)) from exc


@hydra.main(version_base="1.3", config_path="conf", config_name="config")
def hydra_main(cfg: DictConfig):
    if signal.getsignal(signal.SIGINT) is interrupted_while_starting:  # the first job begins:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C keeps its folds
    multirun = HydraConfig.get().mode == RunMode.MULTIRUN
    try:
        task = cfg.get("task")
        if task:  # an experiment with its own procedure (figures that need more than records)
            from hydra.utils import get_method

            from repro.evaluation.runner import check_backend

            backend = check_backend(cfg.get("backend", "loky"))
            with dask_client(cfg.get("dask", {}).get("address") if backend == "dask" else None):
                result = get_method(task)(cfg)
            failed = result.get("failed") if isinstance(result, dict) else None
            if failed:  # a task that runs its own cells reports them like a sweep does
                raise RuntimeError(f"{len(failed)} cells failed: " + "; ".join(map(str, failed)))
        else:
            result = run_cell_from_config(cfg, short=multirun and not cfg.get("verbose", False))
    except Exception as exc:  # a failing cell is recorded and does not stop a sweep
        if not multirun:
            try:
                choices = HydraConfig.get().runtime.choices
                where = f"{choices.get('method')} on {choices.get('dataset')}"
                text = results_folder_error(exc, cfg.results_dir) or failure_text(exc, where)
            except MemoryError:  # too little left even to word it
                text = "out of memory" + OUT_OF_MEMORY_ADVICE
            print(f"error: {text}", file=sys.stderr)
            leave(exc, 1)
        try:
            error_file = str(_record_failure(cfg, exc))
        except Exception as write_exc:  # a full disk, a name that is no path: still summarised
            error_file = f"(not written: {type(write_exc).__name__}: {write_exc})"
        report_job_status(error=f"{type(exc).__name__}: {exc}", error_file=error_file)
        print(f"cell failed (recorded, sweep continues): {exc}", file=sys.stderr)
        return {"error": str(exc)}
    if multirun:
        cell = result if isinstance(result, dict) else {}
        report_job_status(cached=bool(cell.get("cached")), seconds=cell.get("seconds"))
    return result


def _failure_path(cfg: DictConfig):
    """Where this job's cell leaves its error (:func:`repro.cli.finished_cells.failure_file`)."""
    hydra_cfg = HydraConfig.get()
    return failure_file(cfg, hydra_cfg.runtime.choices["method"], hydra_cfg.overrides.task)


def _record_failure(cfg: DictConfig, exc: Exception):
    from repro.evaluation.cells import write_failure

    hydra_cfg = HydraConfig.get()
    return write_failure(
        _failure_path(cfg),
        exc,
        method=hydra_cfg.runtime.choices["method"],
        overrides=list(hydra_cfg.overrides.task),
    )


def apply_data_path(args: list[str]) -> None:
    """``paths.data=DIR`` on the command line: the data directory of this run (and of its parallel
    fold workers), set before any data set is named or loaded (as ``$REPRO_DATA_DIR``)."""
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lstrip("+") == "paths.data" and value not in ("", "null"):
            os.environ["REPRO_DATA_DIR"] = value


def main() -> None:
    print_warnings_as_one_line()
    drop_unraisable_memory_errors()
    argv = sys.argv[1:]
    if any(a in ("--help", "-h") for a in argv):
        print(HELP)
        sys.exit(0)
    if argv == ["--version"]:  # repro's, not Hydra's (which Hydra's own flag would print)
        from repro.evaluation.records import package_version

        print(f"repro {package_version()}")
        sys.exit(0)
    if argv[:1] == ["list"]:
        try:
            if argv[1:2] == ["params"] and len(argv) > 2:
                from repro.cli.parameters import params_table

                print(params_table(argv[2]))
            else:
                print(list_table(argv[1] if len(argv) > 1 else ""))
        except (UsageError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            sys.exit(2)
        sys.exit(0)
    from repro.runtime.memory_limit import supervise

    code = supervise("repro", argv)  # under `ulimit -v`: in a child, an abort becomes one line
    if code is not None:
        sys.exit(code)
    apply_data_path(argv)
    try:
        use_config_dirs(argv)
        check_extras(argv)  # hydra/launcher=joblib, backend=dask: the cluster extra's packages
        check_top_level(argv)
        check_experiment_files(argv)  # the names inside the experiment file(s) chosen
        sys.argv[1:] = resolve_overrides(argv)
    except (CommandLineError, UsageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    register_dataset_configs()
    use_sweeper()  # conf/hydra/sweeper/repro.yaml: finished cells read before the launch
    from repro.evaluation.runner import Terminated, terminate_as_interrupt

    start = time.perf_counter()
    with status_folder() as folder:  # this sweep's own (also for the launcher's workers)
        try:
            with terminate_as_interrupt():
                hydra_main()
        except KeyboardInterrupt as exc:  # Ctrl-C (exit code 130) or SIGTERM (143)
            print(resume_hint(argv), file=sys.stderr)
            sys.exit(143 if isinstance(exc, Terminated) else 130)
        total, failed = sweep_summary(folder())
        reports = sweep_reports(folder())
    if total > 1:
        read = sum(1 for r in reports if r.get("cached") and "error" not in r)
        print(
            f"\nsweep: {total} cells: {total - read - len(failed)} computed, {read} read, "
            f"{len(failed)} failed ({time.perf_counter() - start:.1f} s)"
        )
    if failed:
        print(f"\n{len(failed)} of {total} cells failed:", file=sys.stderr)
        for report in failed:
            print(f"  {' '.join(report['overrides'])}: {report['error']}", file=sys.stderr)
            print(f"    error file: {report['error_file']}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
