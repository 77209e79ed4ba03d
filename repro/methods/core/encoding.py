"""Tabular input for the estimators: one matrix of floats for numeric and nominal columns.

Every estimator of the package accepts a pandas DataFrame (numeric columns float64, nominal columns
categorical/object/bool) or a numpy array (all numeric unless ``categorical_features`` says
otherwise). :class:`TabularEncoder` turns either into a float64 matrix ``Z`` (N × K) — or, for
an estimator that asks for a compact encoding, a :class:`ColumnTable` of the same values that
reads the numeric columns from the input itself:

- numeric column k: the value, NaN for missing;
- nominal column k: the category code 0..C_k−1, NaN for missing, ``UNSEEN`` (−1) for a category
  that was not seen at fit time.

Numbers at the edge of float64: a numeric column whose largest |value| lies outside
[2^−64, 2^64] is divided by a power of two near that value (``unit_``; exact, order- and
tie-preserving), so that means, variances, widths and squared distances computed on it neither
overflow (|x| ≈ 1e300) nor underflow (|x| ≈ 1e-300). Ordinary data keep unit 1 and are untouched.
Estimators that must read the raw numbers (the Khiops-compatible ones, whose decimal reading of
numbers is scale-free by itself) set ``numeric_units = "raw"``.

The encoder validates its input and raises a :class:`ValueError` that names the column for
non-numeric strings in a numeric column and for ±inf; it never lets a numpy traceback through.

How the values of a column are read (refused types, nominal values matched by value across
types, unused categories dropped, MultiIndex names joined): :mod:`repro.methods.core.column_values`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pandas.api.types import infer_dtype, is_bool_dtype, is_numeric_dtype

from repro.methods.core.column_values import (
    COMPLEX_ARRAY,
    NominalReader,
    bool_flags,
    check_column_type,
    flatten_columns,
)

#: a numeric column with max |x| outside [2^−EXTREME_EXPONENT, 2^EXTREME_EXPONENT] is rescaled
EXTREME_EXPONENT = 64
#: ``numeric_units`` of :class:`TabularEncoder`
NUMERIC_UNITS = ("extreme", "raw")
#: at most this many values in one block of columns read or scanned at a time (8 MB of float64)
BLOCK_VALUES = 2**20
#: category codes below this are exact in float32 (2^24)
FLOAT32_MAX_CODES = 2**24


def power_of_two_units(Z: np.ndarray, numeric: np.ndarray, always: bool = False) -> np.ndarray:
    """A power of two per numeric column at its largest |value| (1 for the other columns).

    2^⌈log₂ max|z|⌉: dividing by it is exact and brings the column into (1/2, 1]. With
    ``always=False`` only the columns outside [2^−EXTREME_EXPONENT, 2^EXTREME_EXPONENT] get a
    unit other than 1 (and all-zero or all-missing columns keep 1), and the extreme columns on
    one side share the unit of the largest of them unless that would take a column below
    2^−EXTREME_EXPONENT: a table scaled as a whole keeps the ratios between its columns, on
    which some criteria depend (vidaurre2012's penalty on the Gaussians' parameters). The
    column maxima are taken over blocks of columns (no temporary of the table's size).
    """
    numeric = np.asarray(numeric, bool)
    top = np.zeros(Z.shape[1])  # 0 for an empty or all-missing column
    width = max(1, BLOCK_VALUES // max(1, Z.shape[0]))
    with np.errstate(all="ignore"):
        for b0 in range(0, Z.shape[1], width):
            block = np.abs(Z[:, b0 : b0 + width])
            block[~np.isfinite(block)] = 0.0
            top[b0 : b0 + width] = block.max(axis=0, initial=0.0)
    top[~numeric] = 0.0
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
    strings in the column are errors (typos, '?') rather than categories. A column holding
    booleans is nominal (True and 1 are two categories, not one number)."""
    values = s.dropna()
    if len(values) == 0:
        return True
    raw = values.to_numpy(dtype=object)
    if bool_flags(raw, infer_dtype(raw, skipna=True)).any():
        return False
    parsed = pd.to_numeric(values.astype(str), errors="coerce")
    return float(parsed.notna().mean()) >= NUMERIC_SHARE


def _column_name(names, k) -> str:
    return f"'{names[k]}'" if names is not None else f"{k}"


class ColumnTable:
    """An N × K table of floats that reads its numeric columns from the input frame itself and
    keeps only its other columns (category codes, numbers given as strings) in matrices of its
    own: a float32 one (codes below 2^24, exact) and a float64 one. Reads give float64.

    The compact form of ``Z`` (:class:`TabularEncoder` with ``compact=True``): encoding a table
    of 100k numeric features copies nothing. Supports what the estimators that ask for it do
    with ``Z``: ``shape``, ``Z[:, k]`` (a float64 column), ``Z[:, columns]`` (a float64
    N × len(columns) matrix, ``columns`` a slice or integer array) and ``np.asarray(Z)``.
    The frame must not change while the table is in use (during a fit or a prediction).
    """

    dtype = np.dtype(np.float64)
    ndim = 2
    SOURCE, SINGLE, DOUBLE = 0, 1, 2

    def __init__(self, frame: pd.DataFrame, storage: np.ndarray):
        storage = np.asarray(storage, dtype=np.int8)
        self.shape = (int(frame.shape[0]), storage.size)
        self.storage = storage
        self.position = np.empty(storage.size, dtype=np.int64)
        for kind in (self.SINGLE, self.DOUBLE):
            self.position[storage == kind] = np.arange(int((storage == kind).sum()))
        # the frame's columns as views: one per run of consecutive columns of one numpy dtype
        # (``iloc`` of a column slice of one block copies nothing), read from then on without
        # pandas (whose per-column access costs ~0.1 ms on a wide frame)
        self.runs: list[np.ndarray] = []
        self.run = np.full(storage.size, -1, dtype=np.int64)
        source = np.flatnonzero(storage == self.SOURCE)
        if source.size:
            dtypes = np.array([str(d) for d in frame.dtypes], dtype=object)[source]
            cut = np.flatnonzero((np.diff(source) != 1) | (dtypes[1:] != dtypes[:-1])) + 1
            for cols in np.split(source, cut):
                self.run[cols] = len(self.runs)
                self.position[cols] = np.arange(cols.size)
                self.runs.append(frame.iloc[:, cols[0] : cols[-1] + 1].to_numpy())
        n = self.shape[0]
        # column-major: a column is one contiguous run of memory
        self.single = np.empty((n, int((storage == self.SINGLE).sum())), np.float32, order="F")
        self.double = np.empty((n, int((storage == self.DOUBLE).sum())), np.float64, order="F")

    def _columns(self, key) -> tuple[np.ndarray, bool]:
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] == slice(None)):
            raise IndexError(f"ColumnTable reads whole columns: Z[:, k], got Z[{key!r}]")
        col = key[1]
        if isinstance(col, int | np.integer):
            return np.array([np.arange(self.shape[1])[col]]), True
        return np.arange(self.shape[1])[col], False

    def __getitem__(self, key) -> np.ndarray:
        cols, single = self._columns(key)
        if single:
            k = cols[0]
            kind = self.storage[k]
            if kind == self.SOURCE:
                source = self.runs[self.run[k]]
            else:
                source = self.single if kind == self.SINGLE else self.double
            return source[:, self.position[k]].astype(np.float64)
        out = np.empty((self.shape[0], cols.size), order="F")
        kinds = self.storage[cols]
        for kind, matrix in ((self.SINGLE, self.single), (self.DOUBLE, self.double)):
            here = kinds == kind
            if here.any():
                out[:, here] = matrix[:, _as_slice(self.position[cols[here]])]
        runs = self.run[cols]
        for r in np.unique(runs[kinds == self.SOURCE]):
            here = runs == r
            out[:, here] = self.runs[r][:, _as_slice(self.position[cols[here]])]
        return out

    def __setitem__(self, key, values) -> None:
        """Write columns kept here (not those read from the frame)."""
        cols, single = self._columns(key)
        values = np.asarray(values).reshape(self.shape[0], cols.size)
        for kind, matrix in ((self.SINGLE, self.single), (self.DOUBLE, self.double)):
            here = self.storage[cols] == kind
            if here.any():
                matrix[:, _as_slice(self.position[cols[here]])] = values[:, here]
        if (self.storage[cols] == self.SOURCE).any():
            raise ValueError("ColumnTable: the numeric columns are read from the frame")

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        full = self[:, :]
        return full if dtype is None else full.astype(dtype)

    @property
    def nbytes(self) -> int:
        """Bytes of the table's own matrices (the frame's columns are not copied)."""
        return self.single.nbytes + self.double.nbytes


def _as_slice(positions: np.ndarray):
    """A run of consecutive positions as a slice (a view, fast to read and write), else as is."""
    if positions.size and (positions.size == 1 or (np.diff(positions) == 1).all()):
        return slice(int(positions[0]), int(positions[-1]) + 1)
    return positions


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
    compact : bool, default False
        True: Z is a :class:`ColumnTable` that reads the numeric columns from the input frame
        (no copy of them) and keeps the category codes in float32: encoding costs no memory of
        the table's size. For estimators that read Z only column by column (the MODL family).
        False: a float64 matrix.

    Attributes
    ----------
    unit_ : ndarray (K,)
        The divisor of each column (1 for nominal columns and ordinary numeric ones).
    categories_ : list of (ndarray or None)
        The categories of each nominal column, present at fit (module docstring); None for a
        numeric column.
    readers_ : list of (NominalReader or None)
        How each nominal column's values are matched to its categories at predict.
    """

    categorical_features: object = "auto"
    numeric_units: str = "extreme"
    compact: bool = False
    feature_names_: np.ndarray | None = None
    categorical_: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    categories_: list = field(default_factory=list)
    unit_: np.ndarray = field(default_factory=lambda: np.ones(0))
    readers_: list = field(default_factory=list)

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
        _check_column_types(frame, names)
        mask = self._resolve_mask(frame, names, n_features)
        self.categorical_ = mask
        self.categories_ = [None] * n_features
        self.readers_ = [None] * n_features
        for k in np.flatnonzero(mask):
            self.readers_[k] = NominalReader.fit(frame.iloc[:, k])
            self.categories_[k] = self.readers_[k].categories
        self.unit_ = np.ones(n_features)

    def _resolve_mask(self, frame, names, n_features) -> np.ndarray:
        spec = self.categorical_features
        if isinstance(spec, str) and spec == "auto":
            # decided on the dtypes (one pass over them); only columns of strings are read
            mask = np.zeros(n_features, bool)
            for k, dtype in enumerate(frame.dtypes):
                if isinstance(dtype, pd.CategoricalDtype) or is_bool_dtype(dtype):
                    mask[k] = True
                elif not is_numeric_dtype(dtype):
                    # text with no value at fit is nominal with no category: what it holds at
                    # predict is unseen, hence missing, as for any nominal column
                    column = frame.iloc[:, k]
                    mask[k] = not column.notna().any() or not looks_numeric(column)
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
    def transform(self, X):
        """Return the matrix Z (N × K) described in the module docstring."""
        return self._rescale(self._encode(X))

    def _rescale(self, Z):
        rescaled = np.flatnonzero(self.unit_ != 1.0)
        if rescaled.size:
            Z = np.asarray(Z)  # float64 (float32 could flush a column's smallest values to 0)
            Z[:, rescaled] /= self.unit_[rescaled]
        return Z

    def _encode(self, X):
        frame, _ = _as_frame(X)
        n, n_features = frame.shape
        _check_column_types(frame, self.feature_names_)
        dtypes = list(frame.dtypes)
        nominal = self.categorical_
        # numeric columns of a numeric dtype are read in blocks of columns straight into Z, in
        # Z's dtype; nominal columns and numbers given as strings one by one
        direct = np.array(
            [not nominal[k] and _is_numeric_column(d) for k, d in enumerate(dtypes)], bool
        )
        compact = self.compact and n > 0
        if compact:
            # numeric columns are read from the frame itself; codes in float32 when exact
            numpy_numeric = np.array([isinstance(d, np.dtype) for d in dtypes], bool)
            storage = np.where(direct & numpy_numeric, ColumnTable.SOURCE, ColumnTable.DOUBLE)
            for k in np.flatnonzero(nominal):
                if len(self.categories_[k]) < FLOAT32_MAX_CODES:
                    storage[k] = ColumnTable.SINGLE
            Z = ColumnTable(frame, storage)
        else:
            Z = np.empty((n, n_features), dtype=np.float64)
        names = self.feature_names_
        for k in np.flatnonzero(~direct):
            s = frame.iloc[:, k]
            if nominal[k]:
                Z[:, k] = self.readers_[k].encode(s, _column_name(names, k))
            else:
                Z[:, k] = _encode_numeric(s, _column_name(names, k))
        columns = np.flatnonzero(direct)
        width = max(1, BLOCK_VALUES // max(1, n))
        for b0 in range(0, columns.size, width):  # read in blocks of columns, checked for ±inf
            block = columns[b0 : b0 + width]
            values = frame.iloc[:, block].to_numpy(dtype=np.float64, na_value=np.nan)
            infinite = np.isinf(values).any(axis=0)
            if infinite.any():
                raise ValueError(_infinite(_column_name(names, block[np.argmax(infinite)])))
            if not compact:
                Z[:, block] = values
            elif (kept := storage[block] != ColumnTable.SOURCE).any():  # (pandas' own dtypes)
                Z[:, block[kept]] = values[:, kept]
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


def _check_column_types(frame: pd.DataFrame, names) -> None:
    """:func:`check_column_type` on every column whose dtype is not a plain number."""
    for k, dtype in enumerate(frame.dtypes):
        if not (isinstance(dtype, np.dtype) and dtype.kind in "biuf"):
            check_column_type(frame.iloc[:, k], _column_name(names, k))


def _as_frame(X) -> tuple[pd.DataFrame, np.ndarray | None]:
    if isinstance(X, pd.DataFrame):
        X = flatten_columns(X)
        return X, np.asarray([str(c) for c in X.columns], dtype=object)
    arr = np.asarray(X)
    if arr.ndim == 1:
        raise ValueError(
            "Expected a 2-D table (instances × variables), got a 1-D array; reshape it with "
            "X.reshape(-1, 1) for a single variable"
        )
    if arr.ndim != 2:
        raise ValueError(f"Expected a 2-D table, got an array with {arr.ndim} dimensions")
    if np.iscomplexobj(arr):
        raise ValueError(COMPLEX_ARRAY)
    return pd.DataFrame(arr), None


def _encode_numeric(s: pd.Series, column: str) -> np.ndarray:
    if is_bool_dtype(s.dtype):
        values = s.astype(np.float64).to_numpy()
    elif _is_numeric_column(s.dtype):
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
        raise ValueError(_infinite(column))
    return values


def _infinite(column: str) -> str:
    return (
        f"Column {column} contains infinite values (±inf); replace them by NaN (missing) "
        "or by finite values"
    )


def _is_numeric_column(dtype) -> bool:
    """A numeric (or bool) dtype that pandas converts to floats itself (not categorical)."""
    return is_numeric_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype)
