"""Input and parameter checks shared by every estimator: clear errors for bad input.

``check_fit_input`` validates (X, y), fits the estimator's :class:`TabularEncoder` (``encoder_``)
and sets ``classes_``, ``n_features_in_`` and ``feature_names_in_``; ``check_predict_input``
validates X at predict time against what fit saw. ``check_choice``, ``check_int`` and
``check_real`` are the one way hyper-parameters are validated: each estimator calls them from its
``_check_params`` hook, which ``fit`` runs before touching the data. Their arguments come in one
order, the name, the value, then the bounds or choices; the data set generators' checks
(:mod:`repro.datasets.parameters`, ``check_dataset_int`` and friends, in a layer below) take
theirs in the same order.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_array,
    check_consistent_length,
    column_or_1d,
    validate_data,
)

from repro.methods.core.column_values import COMPLEX_ARRAY, check_column_type, flatten_columns
from repro.methods.core.encoding import TabularEncoder


def check_choice(name: str, value, allowed) -> None:
    """``value`` must be one of ``allowed``."""
    try:
        ok = value in allowed
    except (TypeError, ValueError):  # unhashable or array-like values
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")


def check_int(name: str, value, minimum: int, allow_none: bool = False) -> None:
    """``value`` must be an integer ≥ ``minimum`` (or None when ``allow_none``)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer ≥ {minimum}, got {value!r}")


def check_real(name: str, value, low=None, high=None, low_open=False, high_open=False) -> None:
    """``value`` must be a finite real number in the interval [low, high] (or open ends)."""
    bounds = []
    if low is not None:
        bounds.append(f"{'>' if low_open else '≥'} {low}")
    if high is not None:
        bounds.append(f"{'<' if high_open else '≤'} {high}")
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and np.isfinite(value)
    if ok and low is not None:
        ok = value > low if low_open else value >= low
    if ok and high is not None:
        ok = value < high if high_open else value <= high
    if not ok:
        text = " and ".join(bounds)
        raise ValueError(
            f"{name} must be a finite number{' ' + text if text else ''}, got {value!r}"
        )


def estimator_tags(tags):
    """Tags of our classifiers: NaN allowed (missing values), nominal and string columns."""
    tags.input_tags.allow_nan = True
    tags.input_tags.categorical = True
    tags.input_tags.string = True
    return tags


def check_X_shape(X, fitting: bool = True):
    """X as an array or frame of 2 dimensions with ≥ 1 row and column (sparse: TypeError); a
    DataFrame with MultiIndex columns gets their levels joined by "_" (``flatten_columns``)."""
    X = flatten_columns(X)
    if sp.issparse(X):
        raise TypeError(
            "Sparse input is not supported: pass a dense array or DataFrame (X.toarray())"
        )
    if isinstance(X, pd.DataFrame) or (hasattr(X, "dtype") and X.dtype == object):
        arr = X
    elif hasattr(X, "__array__") or isinstance(X, list | tuple):
        arr = np.asarray(X)
        if arr.dtype.kind in "biuf":
            # numeric arrays: scikit-learn's own checks (1-D, empty, complex), NaN allowed;
            # float32 kept as it is (no copy: the encoder reads it, exactly, in its own dtype)
            return check_array(arr, dtype=(np.float64, np.float32), ensure_all_finite=False)
        if arr.dtype.kind == "c":
            raise ValueError(COMPLEX_ARRAY)
    else:
        arr = X
    shape = getattr(arr, "shape", None)
    if shape is not None and len(shape) == 2:
        if shape[0] == 0:
            raise ValueError(f"Empty data: 0 instances (shape={shape}); at least 1 is required")
        if shape[1] == 0:
            raise ValueError(
                f"0 feature(s) (shape={shape}) while a minimum of 1 is required: "
                "the data have no input variable"
            )
    return arr


def check_object_values(X):
    """Cells of an object array that are neither strings nor numbers (lists, dicts, dates, …):
    a ``ColumnTypeError`` naming the column (a ValueError, and a TypeError as scikit-learn's
    convention has it). DataFrames are checked column by column by the encoder."""
    if isinstance(X, np.ndarray) and X.dtype == object and X.ndim == 2:
        for k in range(X.shape[1]):
            check_column_type(pd.Series(X[:, k], dtype=object), str(k))


def check_target(y, n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Validate the target (1-D, no missing label, ≥ 2 classes); returns (classes, index)."""
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    if isinstance(y, list | tuple):  # numpy would turn [1, "a"] into ["1", "a"]
        as_objects = np.asarray(y, dtype=object)
        if as_objects.ndim == 1:
            _check_label_types(as_objects[~pd.isna(as_objects)])
    y = column_or_1d(y, warn=True)
    if n_samples != y.shape[0]:
        check_consistent_length(np.empty(n_samples), y)
    missing = pd.isna(y)
    if missing.any():
        rows = np.flatnonzero(missing)[:5].tolist()
        raise ValueError(
            f"The target contains {int(missing.sum())} missing value(s) (NaN) at rows {rows}; "
            "drop those instances or give them a label"
        )
    _check_label_types(y)
    check_classification_targets(y)
    try:
        classes, y_idx = np.unique(y, return_inverse=True)
    except TypeError as exc:
        raise ValueError(f"The target mixes label types that cannot be ordered: {exc}") from exc
    if classes.size < 2:
        raise ValueError(
            f"The target has only one class ({classes[0]!r}); a classifier needs at least 2 classes"
        )
    return classes, y_idx.ravel()


_LABEL_KINDS = (
    ("booleans", (bool, np.bool_)),
    ("numbers", (numbers.Number,)),
    ("strings", (str, bytes)),
)


def _label_kind(t: type) -> str:
    for name, types in _LABEL_KINDS:
        if issubclass(t, types):
            return name
    return t.__name__


def _check_label_types(y: np.ndarray) -> None:
    """Labels of one kind only: booleans, numbers or strings (pandas/numpy would merge True and
    1, and cannot order 1 and "a")."""
    if y.dtype != object or y.size == 0:
        return
    types = pd.unique(np.frompyfunc(type, 1, 1)(y))
    kinds: dict[str, object] = {}
    for t in types:
        kind = _label_kind(t)
        if kind not in kinds:
            kinds[kind] = next(v for v in y if type(v) is t)
    if len(kinds) > 1:
        shown = " and ".join(f"{kind} (e.g. {example!r})" for kind, example in kinds.items())
        raise ValueError(
            f"The target mixes label types that cannot be ordered or told apart: {shown}; give "
            "every label the same type, e.g. y.astype(str)"
        )


def check_fit_input(estimator, X, y):
    """Validate training data; returns (Z, y_idx) and sets the fitted input attributes."""
    X = check_X_shape(X, fitting=True)
    check_object_values(X)
    validate_data(estimator, X, skip_check_array=True, reset=True)
    n_samples = X.shape[0]
    estimator.classes_, y_idx = check_target(y, n_samples)
    spec = getattr(estimator, "categorical_features", "auto")
    units = getattr(estimator, "numeric_units", "extreme")
    compact = getattr(estimator, "compact_input", False)
    estimator.encoder_ = TabularEncoder(
        categorical_features=spec, numeric_units=units, compact=compact
    )
    Z = estimator.encoder_.fit_transform(X)
    return Z, y_idx


def check_predict_input(estimator, X) -> np.ndarray:
    """Validate prediction data against the fitted schema; returns the encoded matrix Z."""
    X = check_X_shape(X, fitting=False)
    check_object_values(X)
    validate_data(estimator, X, skip_check_array=True, reset=False)
    return estimator.encoder_.transform(X)
