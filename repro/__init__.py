"""repro: selective, averaged and weighted naive Bayes classifiers, reproduced.

The stable API::

    make_method(name, **params)   an unfitted scikit-learn classifier for a registry id or alias
    list_methods()                the method registry (``python -m repro list methods``)
    load_dataset(name, **params)  a Dataset (X DataFrame, y, categorical mask, meta)
    list_datasets()               the data catalog (``python -m repro list datasets``)
    evaluate(method, dataset, protocol="cv10", seed=0, n_jobs=1)   tidy records, one row per
                                  (repetition, fold, split, metric)

The estimator class of every registered method is importable from here too
(``from repro import GaussianNaiveBayes``); attributes are loaded lazily so that ``import repro``
stays cheap. ``__all__`` lists the public names, and the ``TYPE_CHECKING`` imports below show them
to type checkers and IDEs (the package ships ``py.typed``). ``__version__`` is the installed
distribution's version (the one in pyproject.toml).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the lazy __getattr__ below returns, for static tools only
    from repro.datasets import Dataset, list_datasets, load_dataset
    from repro.datasets.construction import FeatureConstruction
    from repro.evaluation.runner import evaluate
    from repro.methods.baselines.aode import AODE
    from repro.methods.baselines.hnb import HNB
    from repro.methods.baselines.manb import MANB
    from repro.methods.baselines.tan import TAN
    from repro.methods.baselines.wanbia import WANBIA
    from repro.methods.boulle2007.averaging import (
        BMASelectiveNaiveBayes,
        CMANaiveBayes,
        CMASelectiveNaiveBayes,
    )
    from repro.methods.boulle2007.selective import (
        ACCSelectiveNaiveBayes,
        AUCSelectiveNaiveBayes,
        MAPSelectiveNaiveBayes,
    )
    from repro.methods.boulle2007.threshold import BERThreshold
    from repro.methods.core.base import WeightedNaiveBayes
    from repro.methods.hue2024.fnb import FractionalNaiveBayes
    from repro.methods.hue2024.wnb_opt import OptimisedWeightedNaiveBayes
    from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes
    from repro.methods.khiops.peer import KhiopsPeerClassifier
    from repro.methods.plain.histogram_nb import (
        MDLDiscretizedNaiveBayes,
        MDLHistogramNaiveBayes,
        ShimazakiNaiveBayes,
    )
    from repro.methods.plain.modl_nb import MODLNaiveBayes
    from repro.methods.plain.nb import (
        EqualFrequencyNaiveBayes,
        EqualWidthNaiveBayes,
        GaussianNaiveBayes,
        LaplaceNaiveBayes,
    )
    from repro.methods.vidaurre2012.cfs_nb import CFSNaiveBayes
    from repro.methods.vidaurre2012.regularised_nb import AdaptiveL1L2NaiveBayes, L1L2NaiveBayes
    from repro.methods.vidaurre2012.selective_nb import MLSelectiveNaiveBayes
    from repro.methods.vidaurre2012.stagewise_nb import ForwardStagewiseNaiveBayes
    from repro.methods.vidaurre2012.wnb import FerreiraWeightedNaiveBayes
    from repro.methods.wu2015.bma_nb import BMANaiveBayes
    from repro.methods.wu2015.linear import LinearSVMClassifier, LogisticRegressionClassifier
    from repro.methods.wu2015.tuning import TunedClassifier
    from repro.registry import list_methods, make_method

    __version__: str

__all__ = [
    # the functions and classes of the API
    "make_method",
    "list_methods",
    "evaluate",
    "load_dataset",
    "list_datasets",
    "Dataset",
    "WeightedNaiveBayes",
    "CMANaiveBayes",
    "BERThreshold",
    "FeatureConstruction",
    # the estimator class of every registered method (conf/method/*.yaml)
    "ACCSelectiveNaiveBayes",
    "AODE",
    "AUCSelectiveNaiveBayes",
    "AdaptiveL1L2NaiveBayes",
    "BMANaiveBayes",
    "BMASelectiveNaiveBayes",
    "CFSNaiveBayes",
    "CMASelectiveNaiveBayes",
    "EqualFrequencyNaiveBayes",
    "EqualWidthNaiveBayes",
    "FerreiraWeightedNaiveBayes",
    "ForwardStagewiseNaiveBayes",
    "FractionalNaiveBayes",
    "GaussianNaiveBayes",
    "HNB",
    "KhiopsFractionalNaiveBayes",
    "KhiopsPeerClassifier",
    "L1L2NaiveBayes",
    "LaplaceNaiveBayes",
    "LinearSVMClassifier",
    "LogisticRegressionClassifier",
    "MANB",
    "MAPSelectiveNaiveBayes",
    "MDLDiscretizedNaiveBayes",
    "MDLHistogramNaiveBayes",
    "MLSelectiveNaiveBayes",
    "MODLNaiveBayes",
    "OptimisedWeightedNaiveBayes",
    "ShimazakiNaiveBayes",
    "TAN",
    "TunedClassifier",
    "WANBIA",
]

_API = {
    "make_method": "repro.registry",
    "list_methods": "repro.registry",
    "evaluate": "repro.evaluation.runner",
    "load_dataset": "repro.datasets",
    "list_datasets": "repro.datasets",
    "Dataset": "repro.datasets",
    "WeightedNaiveBayes": "repro.methods.core.base",
    "CMANaiveBayes": "repro.methods.boulle2007.averaging",  # SNB(CMA) under its short name
    "BERThreshold": "repro.methods.boulle2007.threshold",
    "FeatureConstruction": "repro.datasets.construction",
}


def _estimator_classes() -> dict[str, str]:
    """Class name -> module of every registered method (read from conf/method/*.yaml)."""
    from repro.registry import estimator_targets

    return {t.rsplit(".", 1)[1]: t.rsplit(".", 1)[0] for t in estimator_targets()}


def _version() -> str:
    """The installed distribution's version, from its metadata (``"unknown"`` when this package
    runs from a copy that was never installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("repro")
    except PackageNotFoundError:
        return "unknown"


def __getattr__(name):
    if name == "__version__":
        value = globals()["__version__"] = _version()
        return value
    module = _API.get(name) or (None if name.startswith("_") else _estimator_classes().get(name))
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'repro' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_API) | set(_estimator_classes()) | {"__version__"})
