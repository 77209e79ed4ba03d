"""Tabular input for the estimators: one float64 matrix for numeric and nominal columns.

Every estimator of the package accepts a pandas DataFrame (numeric columns float64, nominal columns
categorical/object/bool) or a numpy array (all numeric unless ``categorical_features`` says
otherwise). :class:`TabularEncoder` turns either into a float64 matrix ``Z`` (N × K):

- numeric column k: the value, NaN for missing;
- nominal column k: the category code 0..C_k−1, NaN for missing, ``UNSEEN`` (−1) for a category
  that was not seen at fit time.

The encoder validates its input and raises a :class:`ValueError` that names the column for
non-numeric strings in a numeric column and for ±inf; it never lets a numpy traceback through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

UNSEEN = -1.0
"""Code of a category absent from the training data."""


NUMERIC_SHARE = 0.5
"""A column of strings is numeric when at least this share of its values parse as numbers."""


def looks_numeric(s: pd.Series) -> bool:
    """True when ≥ NUMERIC_SHARE of the non-missing values parse as numbers; then the other
    strings in the column are errors (typos, '?') rather than categories."""
    values = s.dropna()
    if len(values) == 0:
        return True
    parsed = pd.to_numeric(values.astype(str), errors="coerce")
    return float(parsed.notna().mean()) >= NUMERIC_SHARE


def _is_nominal_series(s: pd.Series) -> bool:
    return isinstance(s.dtype, pd.CategoricalDtype) or is_bool_dtype(s.dtype)


def _column_name(names, k) -> str:
    return f"'{names[k]}'" if names is not None else f"{k}"


@dataclass
class TabularEncoder:
    """Fit-time schema of a table: column names, nominal mask and categories.

    Parameters
    ----------
    categorical_features : "auto", None, str, int, array-like of bool, of int or of str
        "auto": pandas categorical/bool columns are nominal, object columns are nominal unless
        :func:`looks_numeric`; numpy arrays are all numeric (object arrays: per
        column as for DataFrames). None: all numeric. Otherwise a mask, indices or names of the
        nominal columns; a single name (``"petallength"``) or index is one column.
    """

    categorical_features: object = "auto"
    feature_names_: np.ndarray | None = None
    categorical_: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    categories_: list = field(default_factory=list)

    # ------------------------------------------------------------------ fit
    def fit(self, X) -> TabularEncoder:
        frame, names = _as_frame(X)
        self.feature_names_ = names
        n_features = frame.shape[1]
        mask = self._resolve_mask(frame, names, n_features)
        self.categorical_ = mask
        self.categories_ = []
        for k in range(n_features):
            s = frame.iloc[:, k]
            if mask[k]:
                self.categories_.append(_categories_of(s))
            else:
                self.categories_.append(None)
        return self

    def _resolve_mask(self, frame, names, n_features) -> np.ndarray:
        spec = self.categorical_features
        if isinstance(spec, str) and spec == "auto":
            mask = np.zeros(n_features, bool)
            for k in range(n_features):
                s = frame.iloc[:, k]
                if _is_nominal_series(s):
                    mask[k] = True
                elif not is_numeric_dtype(s.dtype):
                    mask[k] = not looks_numeric(s)
            return mask
        if spec is None:
            return np.zeros(n_features, bool)
        if isinstance(spec, str | int | np.integer):  # one column: a name or an index
            spec = [spec]
        spec = np.asarray(spec)
        if spec.dtype == bool:
            if spec.shape != (n_features,):
                raise ValueError(
                    f"categorical_features mask has {spec.size} entries for {n_features} columns"
                )
            return spec.copy()
        if spec.ndim != 1:
            raise ValueError(
                "categorical_features must be 'auto', None, a column name or index, or a list "
                f"of names, of indices or of booleans (one per column), got {spec.tolist()!r}"
            )
        columns = list(names) if names is not None else []
        mask = np.zeros(n_features, bool)
        for item in spec.tolist():
            if isinstance(item, float) and item.is_integer():
                item = int(item)
            if isinstance(item, str):
                if item not in columns:
                    raise ValueError(_unknown_column(item, columns))
                mask[columns.index(item)] = True
            elif isinstance(item, int) and not isinstance(item, bool):
                if not 0 <= item < n_features:
                    raise ValueError(
                        f"categorical_features: column index {item} out of range; the data "
                        f"have {n_features} columns (indices 0..{n_features - 1})"
                    )
                mask[item] = True
            else:
                raise ValueError(
                    f"categorical_features: {item!r} is neither a column name nor an index"
                )
        return mask

    # ------------------------------------------------------------ transform
    def transform(self, X) -> np.ndarray:
        """Return the float64 matrix Z (N × K) described in the module docstring."""
        frame, _ = _as_frame(X)
        n, n_features = frame.shape
        Z = np.empty((n, n_features), dtype=np.float64)
        names = self.feature_names_
        for k, (_, s) in enumerate(frame.items()):
            if self.categorical_[k]:
                Z[:, k] = _encode_nominal(s, self.categories_[k])
            else:
                Z[:, k] = _encode_numeric(s, _column_name(names, k))
        return Z

    def fit_transform(self, X) -> np.ndarray:
        return self.fit(X).transform(X)


def _unknown_column(item: str, columns: list) -> str:
    if not columns:
        return (
            f"categorical_features: unknown column {item!r}: the data have no column names "
            "(a numpy array); give column indices instead, or a DataFrame"
        )
    shown = ", ".join(repr(c) for c in columns[:20]) + (", ..." if len(columns) > 20 else "")
    return f"categorical_features: unknown column {item!r}; the columns are {shown}"


def _as_frame(X) -> tuple[pd.DataFrame, np.ndarray | None]:
    if isinstance(X, pd.DataFrame):
        return X, np.asarray(X.columns.astype(str), dtype=object)
    arr = np.asarray(X)
    if arr.ndim == 1:
        raise ValueError(
            "Expected a 2-D table (instances × variables), got a 1-D array; reshape it with "
            "X.reshape(-1, 1) for a single variable"
        )
    if arr.ndim != 2:
        raise ValueError(f"Expected a 2-D table, got an array with {arr.ndim} dimensions")
    if np.iscomplexobj(arr):
        raise ValueError("Complex data not supported")
    return pd.DataFrame(arr), None


def _categories_of(s: pd.Series) -> np.ndarray:
    if isinstance(s.dtype, pd.CategoricalDtype):
        cats = np.asarray(s.cat.categories, dtype=object)
    else:
        cats = np.asarray(pd.unique(s.dropna()), dtype=object)
        try:
            cats = np.sort(cats)
        except TypeError:
            cats = np.asarray(sorted(cats, key=str), dtype=object)
    return cats


def _encode_nominal(s: pd.Series, categories: np.ndarray) -> np.ndarray:
    lookup = pd.Index(categories)
    if isinstance(s.dtype, pd.CategoricalDtype):
        # map the column's own categories once, then gather by its integer codes
        mapping = lookup.get_indexer(np.asarray(s.cat.categories, dtype=object)).astype(np.float64)
        mapping[mapping < 0] = UNSEEN
        codes = s.cat.codes.to_numpy()
        return (
            np.where(codes < 0, np.nan, mapping[np.maximum(codes, 0)])
            if mapping.size
            else (np.where(codes < 0, np.nan, UNSEEN))
        )
    values = np.asarray(s.astype(object), dtype=object)
    missing = pd.isna(values)
    codes = lookup.get_indexer(values).astype(np.float64)
    codes[codes < 0] = UNSEEN
    codes[missing] = np.nan
    return codes


def _encode_numeric(s: pd.Series, column: str) -> np.ndarray:
    if is_bool_dtype(s.dtype):
        values = s.astype(np.float64).to_numpy()
    elif is_numeric_dtype(s.dtype) and not isinstance(s.dtype, pd.CategoricalDtype):
        values = s.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        raw = s.astype(object)
        parsed = pd.to_numeric(raw, errors="coerce")
        bad = parsed.isna() & ~raw.isna()
        if bad.any():
            examples = sorted({str(v) for v in raw[bad].tolist()})[:5]
            raise ValueError(
                f"Non-numeric values in numeric column {column}: {examples}; declare the column "
                "categorical (pandas 'category' dtype or categorical_features=...) or clean it"
            )
        values = parsed.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isinf(values).any():
        raise ValueError(
            f"Column {column} contains infinite values (±inf); replace them by NaN (missing) "
            "or by finite values"
        )
    return values
