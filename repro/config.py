"""Hydra composition in one place: the config directory, the data-set options, experiment configs.

Every configuration the package reads comes through here:

- :data:`CONF_DIR`: ``repro/conf`` (shipped inside the package; ``conf/`` of the checkout);
- :func:`register_dataset_configs`: every catalog entry becomes an option of the ``dataset`` group;
- :func:`compose`: a composed configuration for a list of overrides (what ``python -m repro`` sees);
- :func:`experiment_config`: one experiment's configuration with its sweep parameters resolved;
- :func:`paths`: where results, data sets and published numbers live (``conf/paths/default.yaml``).
"""

from __future__ import annotations

from pathlib import Path

from hydra import compose as hydra_compose
from hydra import initialize_config_dir
from hydra.core.config_store import ConfigStore
from hydra.core.global_hydra import GlobalHydra
from omegaconf import DictConfig, OmegaConf

CONF_DIR = Path(__file__).resolve().parent / "conf"
METHOD_DIR = CONF_DIR / "method"
EXPERIMENT_DIR = CONF_DIR / "experiment"


def experiment_names() -> list[str]:
    """The experiments of ``conf/experiment/`` (the table of contents), sorted."""
    return sorted(p.stem for p in EXPERIMENT_DIR.glob("*.yaml"))


def register_dataset_configs() -> None:
    """Every catalog entry becomes an option of the ``dataset`` group (unless a YAML exists),
    with its generator parameters as keys: ``dataset=waveform dataset.n_samples=1000``."""
    from repro.datasets.catalog import catalog
    from repro.evaluation.records import jsonable

    store = ConfigStore.instance()
    conf_dir = CONF_DIR / "dataset"
    for entry in catalog().values():
        if (conf_dir / f"{entry.name}.yaml").exists():
            continue
        params = {k: jsonable(v) for k, v in entry.params.items()}
        store.store(group="dataset", name=entry.name, node={"name": entry.name, **params})


def compose(overrides: list[str] = (), return_hydra_config: bool = False) -> DictConfig:
    """The root configuration composed with ``overrides`` (outside of a Hydra application)."""
    register_dataset_configs()
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            return hydra_compose(
                "config", overrides=list(overrides), return_hydra_config=return_hydra_config
            )
    finally:
        GlobalHydra.instance().clear()


def experiment_config(name: str, overrides: list[str] = ()) -> dict:
    """The composed configuration of an experiment, with its sweep parameters resolved
    (``out["sweep"]``: key → list of values of the experiment's multirun)."""
    valid = experiment_names()
    if name not in valid:
        raise ValueError(f"Unknown experiment {name!r}; valid experiments: {', '.join(valid)}")
    cfg = compose([f"experiment={name}", *overrides], return_hydra_config=True)
    params = cfg.hydra.sweeper.params
    sweep = OmegaConf.to_container(params, resolve=False) if params else {}
    out = OmegaConf.to_container(cfg, resolve=False)
    out.pop("hydra", None)
    out["sweep"] = {k: [v.strip() for v in str(val).split(",")] for k, val in sweep.items()}
    return out
