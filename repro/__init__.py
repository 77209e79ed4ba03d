"""repro: selective, averaged and weighted naive Bayes classifiers, reproduced.

The stable API::

    make_method(name, **params)   an unfitted scikit-learn classifier for a registry id or alias
    list_methods()                the registry (SPEC §4)
    load_dataset(name, **params)  a Dataset (X DataFrame, y, categorical mask, meta)
    list_datasets()               the data catalog (SPEC §6)
    evaluate(method, dataset, protocol="cv10", seed=0, n_jobs=1)   tidy records (SPEC §9)

Estimator classes are importable from here too (``from repro import GaussianNaiveBayes``).
Attributes are loaded lazily so that ``import repro`` stays cheap.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {
    "make_method": "repro.registry",
    "list_methods": "repro.registry",
    "evaluate": "repro.evaluation.runner",
    "load_dataset": "repro.datasets",
    "list_datasets": "repro.datasets",
    "Dataset": "repro.datasets",
    "GaussianNaiveBayes": "repro.methods.nb",
    "EqualFrequencyNaiveBayes": "repro.methods.nb",
    "EqualWidthNaiveBayes": "repro.methods.nb",
    "LaplaceNaiveBayes": "repro.methods.nb",
    "LogisticRegressionClassifier": "repro.methods.linear",
    "LinearSVMClassifier": "repro.methods.linear",
    "WeightedNaiveBayes": "repro.methods.base",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'repro' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_LAZY))
