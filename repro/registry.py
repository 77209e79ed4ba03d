"""The method registry: the one place where configurations become estimators.

A method is registered by its config file ``conf/method/<id>.yaml`` (``_target_`` = the estimator
class, ``_convert_: all``, then its default parameters); the file stem is the method id, the
``method`` column of the results. :data:`METHODS` lists every method of the five papers (SPEC §4)
with its display name as spelled in the papers, so that ids that are planned but not implemented
yet give a clear error rather than "unknown". :data:`ALIASES` are the short names users may type.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import pandas as pd
from hydra.utils import get_class, instantiate
from omegaconf import OmegaConf

from repro.config import CONF_DIR, METHOD_DIR  # noqa: F401  (re-exported)

#: id -> (display name as in the papers, paper key)
METHODS: dict[str, tuple[str, str]] = {
    "nb_ef": ("NB(EF)", "boulle2007"),
    "nb": ("NB", "boulle2007"),
    "snb_acc": ("SNB(ACC)", "boulle2007"),
    "snb_auc": ("SNB(AUC)", "boulle2007"),
    "snb_map": ("SNB(MAP)", "boulle2007"),
    "snb_bma": ("SNB(BMA)", "boulle2007"),
    "snb_cma": ("SNB(CMA)", "boulle2007"),
    "bma_nb": ("BMA-NB", "wu2015"),
    "nb_laplace": ("NB", "wu2015"),
    "lr": ("LR", "wu2015"),
    "svm": ("SVM", "wu2015"),
    "bma_nb_tuned": ("BMA-NB (tuned Γ)", "wu2015"),
    "lr_tuned": ("LR (tuned C, B)", "wu2015"),
    "svm_tuned": ("SVM (tuned C, B)", "wu2015"),
    "wnb": ("WNB", "vidaurre2012"),
    "l1l2_nb": ("L1/L2-NB", "vidaurre2012"),
    "al1l2_nb": ("AL1/L2-NB", "vidaurre2012"),
    "fsnb": ("fsNB", "vidaurre2012"),
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
}

#: short names -> registry ids (SPEC §1)
ALIASES: dict[str, str] = {"cma": "snb_cma", "bma": "snb_bma", "map": "snb_map"}

#: configuration keys of a method file that are not estimator parameters
RESERVED_KEYS = ("_target_", "_convert_", "_recursive_", "_partial_")


class MethodNotImplementedError(NotImplementedError):
    """A method of the papers that the package does not implement yet."""


def implemented_methods() -> list[str]:
    """Ids that have a config file (sorted)."""
    return sorted(p.stem for p in METHOD_DIR.glob("*.yaml") if p.stem not in ALIASES)


def estimator_targets() -> list[str]:
    """The distinct ``_target_`` classes of the method configs (dotted paths)."""
    targets = {OmegaConf.load(p).get("_target_") for p in METHOD_DIR.glob("*.yaml")}
    return sorted(t for t in targets if t)


def valid_method_names() -> list[str]:
    return sorted(set(implemented_methods()) | set(METHODS) | set(ALIASES))


def resolve_method_id(name: str) -> str:
    """Canonical id of a method name or alias; clear errors for unknown and planned methods."""
    if not isinstance(name, str):
        raise ValueError(f"A method name must be a string, got {name!r}")
    method_id = ALIASES.get(name, name)
    implemented = implemented_methods()
    if method_id in implemented:
        return method_id
    if method_id in METHODS:
        display, paper = METHODS[method_id]
        raise MethodNotImplementedError(
            f"Method {method_id!r} ({display}, {paper}) is not implemented yet; "
            f"implemented methods: {', '.join(implemented)}"
        )
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
    return OmegaConf.to_container(OmegaConf.load(METHOD_DIR / f"{method_id}.yaml"), resolve=True)


def method_params(config: dict) -> dict:
    """The estimator parameters of a method configuration (reserved keys removed)."""
    return {k: v for k, v in config.items() if k not in RESERVED_KEYS}


def build_method(config: dict, method_id: str = "method"):
    """Instantiate an estimator from a method configuration; unknown parameters are an error.

    A wrapper of a registry method (parameters ``method``, a registry id, and ``params``, as
    :class:`~repro.methods.tuning.TunedClassifier`) passes the keys it does not have itself to
    its inner method through ``params``: ``bma_nb_tuned`` with ``gaussian=weka`` fits every grid
    point of ``bma_nb`` with ``gaussian="weka"``.
    """
    config = dict(config)
    config.setdefault("_convert_", "all")
    cls = get_class(config["_target_"])
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
    except (ValueError, NotImplementedError):
        return False
    inner_allowed = set(get_class(inner["_target_"])._get_param_names())
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
    """The registry: id, display name, paper, implemented, estimator class, aliases."""
    implemented = set(implemented_methods())
    rows = []
    for method_id in sorted(set(METHODS) | implemented):
        display, paper = METHODS.get(method_id, (method_id, ""))
        target = method_config(method_id)["_target_"] if method_id in implemented else ""
        aliases = [a for a, b in ALIASES.items() if b == method_id]
        rows.append(
            {
                "id": method_id,
                "display_name": display,
                "paper": paper,
                "implemented": method_id in implemented,
                "estimator": target.rsplit(".", 1)[-1],
                "aliases": ",".join(aliases),
            }
        )
    return pd.DataFrame(rows)


def display_name(method_id: str) -> str:
    """The method's name as the papers spell it (the id itself for user methods)."""
    return METHODS.get(method_id, (method_id, ""))[0]
