"""The method registry: the one place where configurations become estimators.

A method is registered by its config file ``conf/method/<id>.yaml`` (``_target_`` = the estimator
class, ``_convert_: all``, then its default parameters); the file stem is the method id, the
``method`` column of the results. :data:`METHODS` gives each method of the package
its display name as spelled in the papers and its paper. :data:`ALIASES` are the short names users
may type.

A user's own method joins the registry of the running process with :func:`register_method` (a YAML
file of the same form, or its mapping, under a new id): ``make_method``, ``evaluate``, the
records and the report tables then treat it as any registered method. :func:`unregister_method`
removes it. ``python -m repro`` reads ``conf/method/`` only: a method meant for the command line
gets its file there.
"""

from __future__ import annotations

import copy
import difflib
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from hydra.utils import get_class, instantiate
from omegaconf import DictConfig, OmegaConf
from sklearn.base import BaseEstimator

from repro.config import CONF_DIR, METHOD_DIR  # noqa: F401  (re-exported)

#: id -> (display name as in the papers, paper key)
METHODS: dict[str, tuple[str, str]] = {
    "nb_ef": ("NB(EF)", "boulle2007"),
    "nb": ("NB (MODL)", "boulle2007"),
    "snb_acc": ("SNB(ACC)", "boulle2007"),
    "snb_auc": ("SNB(AUC)", "boulle2007"),
    "snb_map": ("SNB(MAP)", "boulle2007"),
    "snb_bma": ("SNB(BMA)", "boulle2007"),
    "snb_cma": ("SNB(CMA)", "boulle2007"),
    "bma_nb": ("BMA-NB", "wu2015"),
    "nb_laplace": ("NB (Laplace)", "wu2015"),
    "lr": ("LR", "wu2015"),
    "svm": ("SVM", "wu2015"),
    "bma_nb_tuned": ("BMA-NB (tuned Γ)", "wu2015"),
    "lr_tuned": ("LR (tuned C, B)", "wu2015"),
    "svm_tuned": ("SVM (tuned C, B)", "wu2015"),
    "wnb": ("WNB", "vidaurre2012"),
    "l1l2_nb": ("L1/L2-NB", "vidaurre2012"),
    "al1l2_nb": ("AL1/L2-NB", "vidaurre2012"),
    "fsnb": ("fsNB", "vidaurre2012"),
    "fsnb_p1": ("fsNB (patience 1)", "vidaurre2012"),
    "fsnb_index": ("fsNB (index ties)", "vidaurre2012"),
    "nb_ml": ("NB (ML)", "vidaurre2012"),
    "snb_ml": ("SNB", "vidaurre2012"),
    "cfs_nb": ("CFS+NB", "vidaurre2012"),
    "wnb_opt": ("WNB-opt", "hue2024"),
    "fnb": ("FNB", "hue2024"),
    "fnb_khiops": ("FNB (Khiops 11)", "khiops"),
    "khiops": ("Khiops", "khiops"),
    "nb_gaussian": ("Gaussian", "elovaara2008"),
    "nb_ewb10": ("EWB-10", "elovaara2008"),
    "nb_shimazaki": ("Shimazaki", "elovaara2008"),
    "nb_mdlh": ("MDLh", "elovaara2008"),
    "nb_mdlg": ("MDLg", "elovaara2008"),
    "aode": ("AODE", "baselines"),
    "tan": ("TAN", "baselines"),
    "hnb": ("HNB", "baselines"),
    "wanbia": ("WANBIA", "baselines"),
    "manb": ("MANB", "baselines"),
}

#: short names -> registry ids
ALIASES: dict[str, str] = {"cma": "snb_cma", "bma": "snb_bma", "map": "snb_map"}

#: configuration keys of a method file that are not estimator parameters
RESERVED_KEYS = ("_target_", "_convert_", "_recursive_", "_partial_")


#: a method id: it names a result file and the ``method`` column of the records
METHOD_ID_PATTERN = re.compile(r"[a-z][a-z0-9_]*")

#: methods registered in this process by :func:`register_method`: id -> (config, display name)
_USER_METHODS: dict[str, tuple[dict, str]] = {}


def package_methods() -> list[str]:
    """Ids that have a config file in ``conf/method/`` (sorted)."""
    return sorted(p.stem for p in METHOD_DIR.glob("*.yaml") if p.stem not in ALIASES)


def implemented_methods() -> list[str]:
    """Ids that have a config: the files of ``conf/method/`` and the user methods (sorted)."""
    return sorted(set(package_methods()) | set(_USER_METHODS))


def user_methods() -> list[str]:
    """Ids registered in this process by :func:`register_method` (sorted)."""
    return sorted(_USER_METHODS)


def register_method(
    method_id: str, config, *, display_name: str | None = None, replace: bool = False
) -> str:
    """Register a user method under ``method_id`` in this process, as a file
    ``conf/method/<method_id>.yaml`` would.

    ``config`` is the path of a YAML file or a mapping of the same form: ``_target_`` (the
    dotted path of a scikit-learn classifier class, e.g. ``mypackage.MyNaiveBayes`` or
    ``__main__.MyNaiveBayes`` for a class of a notebook or script), optionally ``_convert_``,
    then the default parameters. The class must import and accept those parameters
    (``ValueError`` otherwise, naming the problem). An id of the package (a file of
    ``conf/method/``, a method of the papers or an alias) is refused, and so is an id already
    registered here unless ``replace=True``. ``display_name`` is the row label of the report
    tables (default: the id). Returns the id.
    """
    if not isinstance(method_id, str) or not METHOD_ID_PATTERN.fullmatch(method_id):
        raise ValueError(
            f"A method id must be lower-case letters, digits and '_', starting with a letter "
            f"(it names result files), got {method_id!r}"
        )
    if method_id in ALIASES:
        raise ValueError(f"{method_id!r} is an alias of {ALIASES[method_id]!r}; choose another id")
    if method_id in METHODS or method_id in package_methods():
        raise ValueError(
            f"{method_id!r} is already a method of the package registry; choose another id "
            f"(taken: {', '.join(sorted(set(METHODS) | set(package_methods())))})"
        )
    if method_id in _USER_METHODS and not replace:
        raise ValueError(
            f"{method_id!r} is already registered as a user method; pass replace=True to replace "
            "it, or unregister_method() it first"
        )
    config = _user_config(method_id, config)
    build_method(config, method_id)  # the class imports and takes these parameters
    _USER_METHODS[method_id] = (config, display_name or method_id)
    return method_id


def unregister_method(method_id: str) -> None:
    """Remove a method registered by :func:`register_method` (``ValueError`` for any other)."""
    if method_id not in _USER_METHODS:
        names = ", ".join(user_methods()) or "(none)"
        raise ValueError(f"{method_id!r} is not a user method; user methods: {names}")
    del _USER_METHODS[method_id]


def _user_config(method_id: str, config) -> dict:
    """The validated configuration (a plain dict, ``_convert_`` set) of a user method."""
    if isinstance(config, str | Path):
        path = Path(config).expanduser()
        if not path.is_file():
            raise ValueError(f"No config file {path} for method {method_id!r}")
        node = OmegaConf.load(path)
        where = str(path)
    elif isinstance(config, Mapping | DictConfig):
        node = OmegaConf.create(config if isinstance(config, DictConfig) else dict(config))
        where = "the mapping"
    else:
        raise TypeError(
            f"config of method {method_id!r} must be the path of a YAML file or a mapping, "
            f"got {type(config).__name__}"
        )
    if not isinstance(node, DictConfig):
        raise ValueError(f"{where} must hold a mapping with a _target_, got a list")
    out = OmegaConf.to_container(node, resolve=True)
    target = out.get("_target_")
    if not isinstance(target, str) or not target:
        raise ValueError(
            f"{where} has no _target_ (the dotted path of the estimator class of {method_id!r})"
        )
    try:
        cls = estimator_class(target)
    except Exception as exc:  # hydra wraps ImportError / AttributeError in its own errors
        raise ValueError(
            f"_target_ {target!r} of method {method_id!r} does not import: {exc}"
        ) from exc
    if not (isinstance(cls, type) and issubclass(cls, BaseEstimator)):
        raise ValueError(
            f"_target_ {target!r} of method {method_id!r} is not a scikit-learn estimator class"
        )
    out.setdefault("_convert_", "all")
    return out


def estimator_class(target: str) -> type:
    """The class a ``_target_`` names (Hydra's ``get_class``), without the line Hydra logs before
    it re-raises a failed import: the caller's error says it once."""
    log = logging.getLogger("hydra.utils")
    level = log.level
    log.setLevel(logging.CRITICAL + 1)
    try:
        return get_class(target)
    finally:
        log.setLevel(level)


def estimator_targets() -> list[str]:
    """The distinct ``_target_`` classes of the package's method configs, ``conf/method/``
    (dotted paths; user methods are not exported by the package)."""
    targets = {OmegaConf.load(p).get("_target_") for p in METHOD_DIR.glob("*.yaml")}
    return sorted(t for t in targets if t)


def valid_method_names() -> list[str]:
    return sorted(set(implemented_methods()) | set(ALIASES))


def resolve_method_id(name: str) -> str:
    """Canonical id of a method name or alias; a clear error (close names) for an unknown one."""
    if not isinstance(name, str):
        raise ValueError(f"A method name must be a string, got {name!r}")
    method_id = ALIASES.get(name, name)
    implemented = implemented_methods()
    if method_id in implemented:
        return method_id
    close = difflib.get_close_matches(name, valid_method_names(), n=3)
    hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ValueError(
        f"Unknown method {name!r}.{hint} Valid methods: {', '.join(implemented)} "
        f"(aliases: {', '.join(f'{a}→{b}' for a, b in ALIASES.items())})"
    )


def method_config(name: str) -> dict:
    """The default configuration (``_target_`` and parameters) of a method."""
    return _read_config(resolve_method_id(name))


def _read_config(method_id: str) -> dict:
    if method_id in _USER_METHODS:
        return copy.deepcopy(_USER_METHODS[method_id][0])
    return OmegaConf.to_container(OmegaConf.load(METHOD_DIR / f"{method_id}.yaml"), resolve=True)


def method_params(config: dict) -> dict:
    """The estimator parameters of a method configuration (reserved keys removed)."""
    return {k: v for k, v in config.items() if k not in RESERVED_KEYS}


def build_method(config: dict, method_id: str = "method"):
    """Instantiate an estimator from a method configuration; unknown parameters are an error.

    A wrapper of a registry method (parameters ``method``, a registry id, and ``params``, as
    :class:`~repro.methods.wu2015.tuning.TunedClassifier`) passes the keys it does not have
    itself to its inner method through ``params``: ``bma_nb_tuned`` with ``gaussian=weka`` fits
    every grid point of ``bma_nb`` with ``gaussian="weka"``.
    """
    config = dict(config)
    config.setdefault("_convert_", "all")
    cls = estimator_class(config["_target_"])
    allowed = cls._get_param_names()
    unknown = sorted(set(method_params(config)) - set(allowed))
    if unknown and _forwards_to_inner(config, allowed, unknown):
        inner = {k: config.pop(k) for k in unknown}
        config["params"] = {**(config.get("params") or {}), **inner}
        unknown = []
    if unknown:
        raise ValueError(
            f"Unknown parameter(s) {unknown} for method {method_id!r}; "
            f"valid parameters: {', '.join(allowed) or '(none)'}"
        )
    return instantiate(config)


def _forwards_to_inner(config: dict, allowed, keys) -> bool:
    """True when ``config`` wraps a registry method (``method`` id and a ``params`` parameter)
    whose estimator has every one of ``keys`` as a parameter."""
    inner_id = config.get("method")
    if "params" not in allowed or not isinstance(inner_id, str):
        return False
    try:
        inner = _read_config(resolve_method_id(inner_id))
    except ValueError:
        return False
    inner_allowed = set(estimator_class(inner["_target_"])._get_param_names())
    return set(keys) <= inner_allowed


@dataclass(frozen=True)
class MethodSpec:
    """A method resolved once: its id, the defaults of its YAML, the parameters in force (the
    defaults updated with the overrides) and the unfitted estimator built from them."""

    id: str
    defaults: dict
    params: dict
    estimator: object


def method_spec(name: str, **overrides) -> MethodSpec:
    """The :class:`MethodSpec` of a registry id or alias: the id resolved and
    ``conf/method/<id>.yaml`` read once; unknown parameters are a ``ValueError``."""
    method_id = resolve_method_id(name)
    config = _read_config(method_id)
    defaults = method_params(config)
    config.update(overrides)
    estimator = build_method(config, method_id)
    return MethodSpec(method_id, defaults, method_params(config), estimator)


def make_method(name: str, **params):
    """An unfitted scikit-learn classifier for a registry id or alias, with ``params`` overriding
    the defaults of ``conf/method/<id>.yaml``."""
    return method_spec(name, **params).estimator


def list_methods() -> pd.DataFrame:
    """The registry: id, display name, paper ("user" for user methods), estimator class,
    aliases."""
    rows = []
    for method_id in implemented_methods():
        display, paper = METHODS.get(method_id, (method_id, ""))
        if method_id in _USER_METHODS:
            display, paper = _USER_METHODS[method_id][1], "user"
        target = method_config(method_id)["_target_"]
        aliases = [a for a, b in ALIASES.items() if b == method_id]
        rows.append(
            {
                "id": method_id,
                "display_name": display,
                "paper": paper,
                "estimator": target.rsplit(".", 1)[-1],
                "aliases": ",".join(aliases),
            }
        )
    return pd.DataFrame(rows)


def display_name(method_id: str) -> str:
    """The method's name as the papers spell it (for user methods: the display name given to
    :func:`register_method`, else the id itself)."""
    if method_id in _USER_METHODS:
        return _USER_METHODS[method_id][1]
    return METHODS.get(method_id, (method_id, ""))[0]
