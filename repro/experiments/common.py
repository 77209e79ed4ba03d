"""What every task function reads from its composed configuration, and how it reports progress."""

from __future__ import annotations

from pathlib import Path

from omegaconf import OmegaConf

from repro.evaluation.store import ResultsStore


def section(cfg, key: str) -> dict:
    """The plain ``dict`` of a configuration section (``{}`` when absent)."""
    node = cfg.get(key) if hasattr(cfg, "get") else None
    if node is None:
        return {}
    return OmegaConf.to_container(node, resolve=True) if OmegaConf.is_config(node) else dict(node)


def results_root(cfg) -> Path:
    """``<results_dir>/<experiment_name>``: where a task writes its records."""
    return ResultsStore(str(cfg.results_dir)).folder(str(cfg.experiment_name))


def run_options(cfg) -> dict:
    """The runner's options of a task: ``n_jobs``, ``force``, ``progress``, ``backend`` (joblib's
    backend of the folds; ``dask``: the client ``python -m repro`` connects to ``dask.address``)."""
    return {
        "n_jobs": int(cfg.get("n_jobs", 1)),
        "backend": str(cfg.get("backend", "loky")),
        "force": bool(cfg.get("force", False)),
        "progress": bool(cfg.get("progress", True)),
    }


def log(message: str) -> None:
    """One line per finished unit (done / total, elapsed, ETA) and every notice."""
    print(message, flush=True)
