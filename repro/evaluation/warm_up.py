"""Compilation as a stage of its own: a method is fitted once, untimed, on a small part of a
fold's training data before its first timed fold in a process.

The numba kernels of the package compile on their first call (seconds of CPU on a cold cache:
about 12 s for SNB(CMA)'s); without this stage that time would be stored as the first fold's
``fit_time``. The warm-up fits a clone on at most :data:`ROWS_PER_CLASS` rows of each class of
the training part, once per process and method configuration, and ignores its errors (the timed
fit raises them where they belong). A fit is deterministic given its data and parameters, so the
warm-up changes no record but the times.
"""

from __future__ import annotations

import json

import numpy as np
from sklearn.base import clone

__all__ = ["ROWS_PER_CLASS", "warm_up", "warmed"]

#: rows per class of the warm-up fit (enough for the inner 5-fold CV of the tuned methods)
ROWS_PER_CLASS = 10

_WARMED: set[str] = set()


def _key(estimator) -> str:
    params = json.dumps(estimator.get_params(deep=False), sort_keys=True, default=repr)
    return f"{type(estimator).__module__}.{type(estimator).__qualname__}:{params}"


def warmed(estimator) -> bool:
    """True when this process has warmed up this method configuration."""
    return _key(estimator) in _WARMED


def warm_up(estimator, X, y, train) -> bool:
    """Fit a clone of ``estimator`` on a small stratified part of ``X.iloc[train]`` (the first
    :data:`ROWS_PER_CLASS` rows of each class), once per process and configuration; True when it
    ran now."""
    key = _key(estimator)
    if key in _WARMED:
        return False
    _WARMED.add(key)
    train = np.asarray(train)
    labels = np.asarray(y)[train]
    rows = np.concatenate([train[labels == c][:ROWS_PER_CLASS] for c in np.unique(labels)])
    rows.sort()
    try:
        clone(estimator).fit(X.iloc[rows], np.asarray(y)[rows])
    except Exception:  # noqa: BLE001 - the timed fit reports what is wrong with the method
        pass
    return True
