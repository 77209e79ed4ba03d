"""repro: selective, averaged and weighted naive Bayes classifiers, reproduced.

The stable API::

    make_method(name, **params)   an unfitted scikit-learn classifier for a registry id or alias
    list_methods()                the registry (SPEC §4)
    load_dataset(name, **params)  a Dataset (X DataFrame, y, categorical mask, meta)
    list_datasets()               the data catalog (SPEC §6)
    evaluate(method, dataset, protocol="cv10", seed=0, n_jobs=1)   tidy records (SPEC §9)

The estimator class of every registered method is importable from here too
(``from repro import GaussianNaiveBayes``); attributes are loaded lazily so that ``import repro``
stays cheap.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_API = {
    "make_method": "repro.registry",
    "list_methods": "repro.registry",
    "evaluate": "repro.evaluation.runner",
    "load_dataset": "repro.datasets",
    "list_datasets": "repro.datasets",
    "Dataset": "repro.datasets",
    "WeightedNaiveBayes": "repro.methods.core.base",
    "CMANaiveBayes": "repro.methods.boulle2007.averaging",  # the name SPEC §1 uses for SNB(CMA)
    "BERThreshold": "repro.methods.boulle2007.threshold",
    "FeatureConstruction": "repro.datasets.construction",
}


def _estimator_classes() -> dict[str, str]:
    """Class name -> module of every registered method (read from conf/method/*.yaml)."""
    from repro.registry import estimator_targets

    return {t.rsplit(".", 1)[1]: t.rsplit(".", 1)[0] for t in estimator_targets()}


def __getattr__(name):
    module = _API.get(name) or (None if name.startswith("_") else _estimator_classes().get(name))
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'repro' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_API) | set(_estimator_classes()))
