"""Hydra composition in one place: the config directory, the data-set options, experiment configs.

Every configuration the package reads comes through here:

- :data:`CONF_DIR`: ``repro/conf`` (shipped inside the package; ``conf/`` of the checkout);
- :func:`register_dataset_configs`: every catalog entry becomes an option of the ``dataset`` group;
- :func:`compose`: a composed configuration for a list of overrides (what ``python -m repro`` sees);
- :func:`experiment_config`: one experiment's configuration with its sweep parameters resolved;
- :func:`paths`: where results, data sets and published numbers live (``conf/paths/default.yaml``).

The package ships its configs (``repro/conf``), the papers' published numbers
(``repro/published/<paper>/reported.csv``) and the offline data sets (``repro/datasets/bundled``)
as package data: in a checkout these are symlinks to ``conf/``, ``experiments/`` and ``datasets/``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from hydra import compose as hydra_compose
from hydra import initialize_config_dir
from hydra.core.config_store import ConfigStore
from hydra.core.global_hydra import GlobalHydra
from hydra.errors import ConfigCompositionException
from omegaconf import DictConfig, OmegaConf

PACKAGE_DIR = Path(str(resources.files(__package__))).resolve()
CONF_DIR = PACKAGE_DIR / "conf"
METHOD_DIR = CONF_DIR / "method"
EXPERIMENT_DIR = CONF_DIR / "experiment"
#: the published numbers shipped with the package: ``<paper>/reported.csv`` and ``README.md``
PUBLISHED_DIR = (PACKAGE_DIR / "published").resolve()


class PublishedNumbersNotFound(FileNotFoundError):
    """An experiment names a paper whose ``reported.csv`` is not where ``paths.published`` says."""


@dataclass(frozen=True)
class Paths:
    """Resolved locations of ``conf/paths/default.yaml``."""

    results: Path
    data: Path
    published: Path

    def reported(self, paper: str) -> Path:
        """``<published>/<paper>/reported.csv``; :class:`PublishedNumbersNotFound` if absent."""
        path = self.published / paper / "reported.csv"
        if not path.is_file():
            raise PublishedNumbersNotFound(
                f"published numbers of {paper!r} not found: no file {path} "
                "(set paths.published=DIR, a folder holding <paper>/reported.csv)"
            )
        return path


def paths(cfg=None) -> Paths:
    """Where results, data sets and published numbers live: the ``paths`` of a composed
    configuration ``cfg`` (a DictConfig or a dict; default: ``conf/paths/default.yaml``).

    ``results_dir`` (default ``${paths.results}``) wins over ``paths.results``; a null ``data``
    is ``$REPRO_DATA_DIR``, else the bundled data sets; a null ``published`` the bundled numbers.
    """
    from repro.datasets.local import resolve_data_dir

    conf = cfg if isinstance(cfg, DictConfig) else OmegaConf.create(cfg or {})
    node = OmegaConf.select(conf, "paths") or OmegaConf.load(CONF_DIR / "paths" / "default.yaml")
    results = OmegaConf.select(conf, "results_dir") or node.results
    return Paths(
        results=Path(str(results)).expanduser(),
        data=resolve_data_dir(node.data),
        published=Path(str(node.published)).expanduser() if node.published else PUBLISHED_DIR,
    )


#: the user's config folders (``--config-dir``), searched after the package's ``conf/``
_USER_CONFIG_DIRS: list[Path] = []


def add_config_dir(path) -> Path:
    """Search ``path`` (a folder holding ``method/``, ``experiment/``, ... as ``conf/`` does) for
    configs too, as ``--config-dir`` does for ``python -m repro``; a ValueError if it is not a
    folder. Returns the resolved folder."""
    folder = Path(path).expanduser().resolve()
    if not folder.is_dir():
        raise ValueError(f"--config-dir {path}: not a folder")
    if folder not in _USER_CONFIG_DIRS:
        _USER_CONFIG_DIRS.append(folder)
    return folder


def config_dirs() -> list[Path]:
    """The user's config folders added by :func:`add_config_dir`, in order."""
    return list(_USER_CONFIG_DIRS)


def experiment_names() -> list[str]:
    """The experiments of ``conf/experiment/`` and of the user's config folders, sorted."""
    folders = [EXPERIMENT_DIR, *(d / "experiment" for d in _USER_CONFIG_DIRS)]
    return sorted({p.stem for folder in folders for p in folder.glob("*.yaml")})


def declared_protocol(experiment: str | None = None) -> dict:
    """The protocol an experiment declares (its ``override /protocol: NAME`` and its ``protocol:``
    fields over ``conf/protocol/NAME.yaml``), the root config's default without an experiment:
    what a run of it uses when the command line does not choose another."""
    root = OmegaConf.load(CONF_DIR / "config.yaml")
    name = next(
        str(d["protocol"]) for d in root.defaults if isinstance(d, DictConfig) and "protocol" in d
    )
    fields = {}
    if experiment not in (None, "", "null"):
        for folder in [CONF_DIR, *_USER_CONFIG_DIRS]:
            path = folder / "experiment" / f"{experiment}.yaml"
            if path.is_file():
                node = OmegaConf.load(path)
                for item in node.get("defaults") or []:
                    if isinstance(item, DictConfig) and "override /protocol" in item:
                        name = str(item["override /protocol"])
                fields = OmegaConf.to_container(node.get("protocol") or OmegaConf.create({}))
                break
    found = [f / "protocol" / f"{name}.yaml" for f in [CONF_DIR, *_USER_CONFIG_DIRS]]
    base = next((OmegaConf.to_container(OmegaConf.load(f)) for f in found if f.is_file()), {})
    return {**base, **fields}


def register_dataset_configs() -> None:
    """Every catalog entry becomes an option of the ``dataset`` group (unless a YAML exists),
    with its generator parameters as keys: ``dataset=waveform dataset.n_samples=1000``."""
    from repro.datasets.entries import catalog

    store = ConfigStore.instance()
    conf_dir = CONF_DIR / "dataset"
    for entry in catalog().values():
        if (conf_dir / f"{entry.name}.yaml").exists():
            continue
        node = {"name": entry.name, **{k: jsonable(v) for k, v in entry.params.items()}}
        if _REGISTERED.get(entry.name) != node:  # stored once per process (each compose asks)
            store.store(group="dataset", name=entry.name, node=node)
            _REGISTERED[entry.name] = node


#: the dataset options this process has put in Hydra's config store
_REGISTERED: dict[str, dict] = {}


def compose(overrides: list[str] = (), return_hydra_config: bool = False) -> DictConfig:
    """The root configuration composed with ``overrides`` (outside of a Hydra application)."""
    with one_hydra():
        search = [f"hydra.searchpath=[{','.join(f'file://{d}' for d in _USER_CONFIG_DIRS)}]"]
        return hydra_compose(
            "config",
            overrides=[*(search if _USER_CONFIG_DIRS else []), *overrides],
            return_hydra_config=return_hydra_config,
        )


#: whether :func:`one_hydra` holds Hydra initialised
_HELD = [False]


@contextlib.contextmanager
def one_hydra():
    """Hydra initialised on the package's configs for the ``with`` block: the configurations
    composed inside (:func:`compose`) share one initialisation (a fifth of the time of 30
    experiment configurations) and, when nested, the outer one."""
    if _HELD[0]:
        yield
        return
    register_dataset_configs()
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            _HELD[0] = True
            yield
    finally:
        _HELD[0] = False
        GlobalHydra.instance().clear()


def experiment_config(name: str, overrides: list[str] = ()) -> dict:
    """The composed configuration of an experiment, with its sweep parameters resolved
    (``out["sweep"]``: key → list of values of the experiment's multirun; ``out["sweep_exclude"]``:
    the entries of ``hydra.sweeper.exclude``, the cells its bound leaves out)."""
    valid = experiment_names()
    if name not in valid:
        raise ValueError(f"Unknown experiment {name!r}; valid experiments: {', '.join(valid)}")
    try:
        cfg = compose([f"experiment={name}", *overrides], return_hydra_config=True)
    except ConfigCompositionException as exc:  # a bad override: a one-line error, no traceback
        raise ValueError(str(exc).replace("\n", " ")) from exc
    params = cfg.hydra.sweeper.params
    sweep = OmegaConf.to_container(params, resolve=False) if params else {}
    out = OmegaConf.to_container(cfg, resolve=False)
    out.pop("hydra", None)
    out["sweep"] = {k: [v.strip() for v in str(val).split(",")] for k, val in sweep.items()}
    exclude = cfg.hydra.sweeper.get("exclude")
    out["sweep_exclude"] = OmegaConf.to_container(exclude, resolve=True) if exclude else []
    return out


def exclude_entries(exclude) -> list[dict[str, set[str]]]:
    """The entries of ``hydra.sweeper.exclude``, checked: each a mapping ``{key: value or
    [values]}`` made ``{key: {values as str}}``; a cell (job) is left out of a sweep when, for
    every key of one entry, its override of that key has one of the values. Anything else is a
    ValueError with an example."""
    entries = []
    for entry in exclude or []:
        if not isinstance(entry, Mapping) or not entry:
            raise ValueError(
                "hydra.sweeper.exclude must be a list of {key: value or [values]} entries, "
                f"e.g. [{{method: svm_tuned, dataset: pendigits}}]; got the entry {entry!r}"
            )
        listed = {k: v if isinstance(v, Sequence) and not isinstance(v, str) else [v]
                  for k, v in entry.items()}  # fmt: skip
        entries.append({str(k): {str(x) for x in v} for k, v in listed.items()})
    return entries


def jsonable(value):
    """A JSON/Parquet/YAML-friendly version of a configuration or parameter value."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def safe_name(name, what: str, folders: bool = False) -> str:
    """``name`` when it names a file (or, with ``folders``, a relative folder path such as a
    study's ``toy/features__K=2``) that stays where it is put: no part empty, ``.`` or ``..``,
    no ``\\`` or NUL, not absolute; one part only without ``folders``. The experiment, data set
    and method names that become the paths of a cell's files are checked so that they stay
    inside the results folder; else a ValueError naming ``what`` and the name."""
    text = str(name)
    parts = text.split("/") if folders else [text]
    if "\\" in text or "\x00" in text or any(p.strip() in ("", ".", "..") for p in parts):
        sep = "" if folders else "'/', "
        raise ValueError(
            f"{what} {text!r} would put files outside the results folder: a name must not be "
            f"empty, '.' or '..', start with '/' nor contain {sep}'\\' or '/../' (it becomes a "
            "folder or file name of <results_dir>/<experiment>/<data set>/<method>.parquet)"
        )
    if not folders and "/" in text:
        raise ValueError(
            f"{what} {text!r} would put files outside the results folder: a name must not "
            "contain '/' (it becomes a file name of <results_dir>/<experiment>/<data set>/"
            "<method>.parquet)"
        )
    return text
