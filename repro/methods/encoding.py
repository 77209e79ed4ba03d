"""Tabular input for the estimators: one float64 matrix for numeric and nominal columns.

Every estimator of the package accepts a pandas DataFrame (numeric columns float64, nominal columns
categorical/object/bool) or a numpy array (all numeric unless ``categorical_features`` says
otherwise). :class:`TabularEncoder` turns either into a float64 matrix ``Z`` (N × K):

- numeric column k: the value, NaN for missing;
- nominal column k: the category code 0..C_k−1, NaN for missing, ``UNSEEN`` (−1) for a category
  that was not seen at fit time.

Numbers at the edge of float64 (SPEC §11): a numeric column whose largest |value| lies outside
[2^−64, 2^64] is divided by a power of two near that value (``unit_``; exact, order- and
tie-preserving), so that means, variances, widths and squared distances computed on it neither
overflow (|x| ≈ 1e300) nor underflow (|x| ≈ 1e-300). Ordinary data keep unit 1 and are untouched.
Estimators that must read the raw numbers (the Khiops-compatible ones, whose decimal reading of
numbers is scale-free by itself) set ``numeric_units = "raw"``.

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


#: a numeric column with max |x| outside [2^−EXTREME_EXPONENT, 2^EXTREME_EXPONENT] is rescaled
EXTREME_EXPONENT = 64
#: ``numeric_units`` of :class:`TabularEncoder`
NUMERIC_UNITS = ("extreme", "raw")


def power_of_two_units(Z: np.ndarray, numeric: np.ndarray, always: bool = False) -> np.ndarray:
    """A power of two per numeric column at its largest |value| (1 for the other columns).

    2^⌈log₂ max|z|⌉: dividing by it is exact and brings the column into (1/2, 1]. With
    ``always=False`` only the columns outside [2^−EXTREME_EXPONENT, 2^EXTREME_EXPONENT] get a
    unit other than 1 (and all-zero or all-missing columns keep 1), and the extreme columns on
    one side share the unit of the largest of them unless that would take a column below
    2^−EXTREME_EXPONENT: a table scaled as a whole keeps the ratios between its columns, on
    which some criteria depend (vidaurre2012's penalty on the Gaussians' parameters).
    """
    numeric = np.asarray(numeric, bool)
    with np.errstate(all="ignore"):
        finite = np.where(numeric & np.isfinite(Z), np.abs(Z), 0.0)
        top = finite.max(axis=0, initial=0.0)  # 0 for an empty or all-missing column
    exponent = np.zeros(Z.shape[1])
    positive = top > 0
    exponent[positive] = np.ceil(np.log2(top[positive]))
    if not always:
        exponent[np.abs(exponent) <= EXTREME_EXPONENT] = 0.0
        for side in (exponent > 0, exponent < 0):
            if side.any():
                shared = exponent[side].max()
                exponent[side & (exponent >= shared - EXTREME_EXPONENT)] = shared
    return np.where(numeric, np.ldexp(1.0, exponent.astype(np.int64)), 1.0)


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
    numeric_units : {"extreme", "raw"}, default "extreme"
        "extreme": columns of extreme magnitude are divided by ``unit_`` (module docstring);
        "raw": every numeric value as given.

    Attributes
    ----------
    unit_ : ndarray (K,)
        The divisor of each column (1 for nominal columns and ordinary numeric ones).
    """

    categorical_features: object = "auto"
    numeric_units: str = "extreme"
    feature_names_: np.ndarray | None = None
    categorical_: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    categories_: list = field(default_factory=list)
    unit_: np.ndarray = field(default_factory=lambda: np.ones(0))

    # ------------------------------------------------------------------ fit
    def fit(self, X) -> TabularEncoder:
        self.fit_transform(X)
        return self

    def _fit_schema(self, X) -> None:
        if self.numeric_units not in NUMERIC_UNITS:
            raise ValueError(
                f"numeric_units must be one of {list(NUMERIC_UNITS)}, got {self.numeric_units!r}"
            )
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
        self.unit_ = np.ones(n_features)

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
        return self._rescale(self._encode(X))

    def _rescale(self, Z: np.ndarray) -> np.ndarray:
        rescaled = np.flatnonzero(self.unit_ != 1.0)
        if rescaled.size:
            Z[:, rescaled] /= self.unit_[rescaled]
        return Z

    def _encode(self, X) -> np.ndarray:
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
        self._fit_schema(X)
        Z = self._encode(X)
        if self.numeric_units == "extreme":
            self.unit_ = power_of_two_units(Z, ~self.categorical_)
        return self._rescale(Z)


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
