"""Data sets bundled with scikit-learn (source ``sklearn``), read offline from its package data.

Labels are strings, as in the local mirror (``target_names`` where sklearn has them, else the
class number). The local files ``iris``, ``wine``, ``digits``, ``diabetes_q1..q3`` hold the same
data and win for those names, so the sklearn copies are registered as ``<name>_sklearn``;
``breast_cancer`` is sklearn's copy of WDBC (local ``wdbc``).

``diabetes_quartile(q)`` (vidaurre2012 Table 2): Efron's diabetes in original units
(``load_diabetes(scaled=False)``), class ``'1'`` when the progression target exceeds its q-th
quartile ``numpy.quantile(target, q/4)``, else ``'0'``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

__all__ = ["SKLEARN", "SklearnSpec", "diabetes_quartile", "load_bundled"]


def load_bundled(loader_name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """``sklearn.datasets.<loader_name>()`` as (float64 frame, string labels)."""
    from sklearn import datasets

    bunch = getattr(datasets, loader_name)()
    names = [str(n) for n in getattr(bunch, "feature_names", [])] or [
        f"x{j}" for j in range(1, bunch.data.shape[1] + 1)
    ]
    X = pd.DataFrame(np.asarray(bunch.data, dtype=np.float64), columns=names)
    target_names = getattr(bunch, "target_names", None)
    codes = np.asarray(bunch.target)
    if target_names is not None and len(target_names) > codes.max():
        y = np.asarray([str(v) for v in np.asarray(target_names)[codes]], dtype=object)
    else:
        y = np.asarray([str(v) for v in codes], dtype=object)
    return X, y


def diabetes_quartile(q: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Diabetes with class ``'1'`` = target > ``numpy.quantile(target, q/4)`` (q = 1, 2, 3)."""
    from sklearn.datasets import load_diabetes

    if q not in (1, 2, 3):
        raise ValueError(f"diabetes_quartile: q must be 1, 2 or 3, got {q!r}")
    bunch = load_diabetes(scaled=False)
    X = pd.DataFrame(np.asarray(bunch.data, dtype=np.float64), columns=list(bunch.feature_names))
    target = np.asarray(bunch.target, dtype=np.float64)
    y = np.where(target > np.quantile(target, q / 4), "1", "0").astype(object)
    return X, y


@dataclass(frozen=True)
class SklearnSpec:
    func: object
    n: int
    n_numeric: int
    n_classes: int
    majority_pct: float
    papers: tuple[str, ...] = ()
    notes: str = ""
    status: str = "exact"


def _spec(func, n, n_numeric, n_classes, majority_pct, papers=(), notes=""):
    return SklearnSpec(func, n, n_numeric, n_classes, majority_pct, tuple(papers), notes)


SKLEARN: dict[str, SklearnSpec] = {
    "breast_cancer": _spec(
        partial(load_bundled, "load_breast_cancer"), n=569, n_numeric=30, n_classes=2,
        majority_pct=62.7, papers=["hue2024"],
        notes="scikit-learn's copy of WDBC (same data as local wdbc).",
    ),
    "iris_sklearn": _spec(
        partial(load_bundled, "load_iris"), n=150, n_numeric=4, n_classes=3, majority_pct=33.3,
        notes="scikit-learn's iris (Fisher's corrected rows 35 and 38; local iris has the UCI "
        "errors).",
    ),
    "wine_sklearn": _spec(
        partial(load_bundled, "load_wine"), n=178, n_numeric=13, n_classes=3, majority_pct=39.9,
        notes="scikit-learn's copy of UCI wine (same data as local wine).",
    ),
    "digits_sklearn": _spec(
        partial(load_bundled, "load_digits"), n=1797, n_numeric=64, n_classes=10,
        majority_pct=10.2, notes="scikit-learn's 8x8 digits (same data as local digits).",
    ),
    **{
        f"diabetes_q{q}_sklearn": _spec(
            partial(diabetes_quartile, q), n=442, n_numeric=10, n_classes=2, majority_pct=pct,
            papers=["vidaurre2012"],
            notes=f"Diabetes, class '1' = progression > quartile {q}, computed from "
            f"scikit-learn (same as local diabetes_q{q}).",
        )
        for q, pct in ((1, 74.7), (2, 50.0), (3, 74.9))
    },
}  # fmt: skip
