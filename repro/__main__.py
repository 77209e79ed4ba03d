"""``python -m repro``: run one cell (or, with ``-m``, a sweep of cells) from the Hydra configs.

    python -m repro method=cma dataset=waveform
    python -m repro -m method=nb_gaussian,nb_ef dataset=iris,wine,pima
    python -m repro -m method=bma_nb method.gamma=0.5,1.0,1.5 dataset=iris

Method aliases (``cma`` → ``snb_cma``) are resolved, and unknown or not yet implemented methods and
unknown data sets are reported with the list of valid names, before Hydra composes anything.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
import traceback

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig, OmegaConf

from repro.config import register_dataset_configs
from repro.registry import method_params, resolve_method_id

_CHOICE = re.compile(r"^(method|dataset)=([^()\[\]{}]+)$")


class CommandLineError(Exception):
    """A bad name on the command line (reported without a traceback, exit code 2)."""


def resolve_overrides(args: list[str]) -> list[str]:
    """Rewrite ``method=`` aliases to registry ids and check method and data set names."""
    from repro.datasets import list_datasets

    out = []
    for arg in args:
        match = _CHOICE.match(arg)
        if not match:
            out.append(arg)
            continue
        group, values = match.groups()
        names = [v.strip() for v in values.split(",")]
        if group == "method":
            try:
                names = [resolve_method_id(n) for n in names]
            except (ValueError, NotImplementedError) as exc:
                raise CommandLineError(str(exc)) from exc
        else:
            valid = set(list_datasets()["name"])
            unknown = [n for n in names if n not in valid]
            if unknown:
                close = difflib.get_close_matches(unknown[0], valid, n=3)
                hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
                raise CommandLineError(
                    f"Unknown data set(s) {unknown}.{hint} Valid data sets: "
                    f"{', '.join(sorted(valid))} (python -m repro.datasets list)"
                )
        out.append(f"{group}={','.join(names)}")
    return out


def run_cell_from_config(cfg: DictConfig) -> dict:
    """Build the cell described by a composed configuration, run it and report."""
    from hydra.utils import get_method

    from repro.evaluation.records import summarize
    from repro.evaluation.runner import make_cell, run_cell

    method = HydraConfig.get().runtime.choices["method"]
    overrides = method_params(OmegaConf.to_container(cfg.method, resolve=True))
    hook = cfg.get("artefacts")  # an experiment's artefact hook, "module.function"
    cell = make_cell(
        (method, overrides),
        OmegaConf.to_container(cfg.dataset, resolve=True),
        OmegaConf.to_container(cfg.protocol, resolve=True),
        seed=int(cfg.seed),
        experiment=str(cfg.experiment_name),
        report_keys=tuple(cfg.get("report_keys") or ()),
        artefacts=get_method(hook) if hook else None,
    )
    path = cell.path(cfg.results_dir)
    cached = path.exists() and not cfg.force
    records = run_cell(
        cell, results_dir=cfg.results_dir, n_jobs=int(cfg.n_jobs), force=bool(cfg.force),
        progress=bool(cfg.progress),
    )  # fmt: skip
    _failure_path(cfg).unlink(missing_ok=True)
    table = summarize(records)
    with_pd_options(lambda: print(table.to_string(index=False)))
    print(f"{'already computed, read from' if cached else 'records written to'} {path}")
    return {"path": str(path), "cached": cached}


def with_pd_options(fn):
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_columns", 20):
        fn()


@hydra.main(version_base="1.3", config_path="conf", config_name="config")
def hydra_main(cfg: DictConfig):
    multirun = HydraConfig.get().mode == RunMode.MULTIRUN
    try:
        task = cfg.get("task")
        if task:  # an experiment with its own procedure (figures that need more than records)
            from hydra.utils import get_method

            return get_method(task)(cfg)
        return run_cell_from_config(cfg)
    except Exception as exc:  # a failing cell is recorded and does not stop a sweep
        if not multirun:
            print(f"error: {exc}", file=sys.stderr)
            sys.exit(1)
        _record_failure(cfg, exc)
        print(f"cell failed (recorded, sweep continues): {exc}", file=sys.stderr)
        return {"error": str(exc)}


def _failure_path(cfg: DictConfig):
    """Where a failed cell leaves its error (removed when the cell later succeeds)."""
    from pathlib import Path

    from repro.evaluation.records import config_hash

    overrides = sorted(HydraConfig.get().overrides.task)
    method = HydraConfig.get().runtime.choices["method"]
    where = Path(cfg.results_dir) / str(cfg.experiment_name) / str(cfg.dataset.name)
    return where / f"{method}.{config_hash({'overrides': overrides})}.error.json"


def _record_failure(cfg: DictConfig, exc: Exception) -> None:
    path = _failure_path(cfg)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "method": HydraConfig.get().runtime.choices["method"],
        "overrides": list(HydraConfig.get().overrides.task),
        "error": f"{type(exc).__name__}: {exc}",
        "traceback": traceback.format_exc(),
    }
    path.write_text(json.dumps(payload, indent=2))


def apply_data_path(args: list[str]) -> None:
    """``paths.data=DIR`` on the command line: the data directory of this run (and of its parallel
    fold workers), set before any data set is named or loaded (as ``$REPRO_DATA_DIR``)."""
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lstrip("+") == "paths.data" and value not in ("", "null"):
            os.environ["REPRO_DATA_DIR"] = value


def main() -> None:
    apply_data_path(sys.argv[1:])
    try:
        sys.argv[1:] = resolve_overrides(sys.argv[1:])
    except CommandLineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    register_dataset_configs()
    hydra_main()


if __name__ == "__main__":
    main()
