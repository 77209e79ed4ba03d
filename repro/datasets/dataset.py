"""The ``Dataset`` container and the checks every loaded data set passes.

Types: numeric attributes are ``float64``, nominal attributes are unordered pandas
``Categorical`` with string categories, missing values are NaN in both; the target ``y`` is a 1-D
array of hashable labels without missing values.

Bad input is reported by :func:`validate_frame` with a ``ValueError`` that names the
data set and the column: a missing target, a target with NaN, a single class, empty data, ±inf in
a numeric column, and non-numeric strings in a numeric column. A :class:`Dataset` runs these
checks once, when it is built, whoever builds it (:func:`~repro.datasets.load_dataset`, a study, a
user's own data): a hand-built data set gets the messages of a loaded one.

A column of strings is *numeric* when at least half of its non-missing values parse as numbers
(:data:`NUMERIC_SHARE`); then every other string in it is an error rather than a silent NaN.
Below that share the column is nominal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = [
    "NUMERIC_SHARE",
    "Dataset",
    "DatasetUnavailableError",
    "as_labels",
    "checked_data",
    "coerce_frame",
    "validate_frame",
]

#: share of number-like values from which a column of strings is taken to be numeric
NUMERIC_SHARE = 0.5


class DatasetUnavailableError(ValueError):
    """A catalog entry whose data cannot be obtained here (not cached and no network, no id)."""


@dataclass(repr=False)
class Dataset:
    """A classification data set: attributes ``X``, labels ``y`` and catalog metadata.

    Built from a loader or by hand, the data are checked once here (:func:`checked_data`): the
    same ``ValueError`` as :func:`~repro.datasets.load_dataset` for a target of another length,
    missing labels, a single class, empty data, ±inf, ...; ``X`` given as an array becomes a
    DataFrame (columns 0..K-1), ``y`` given as a Series (any index), list or Categorical becomes
    an array of labels in row order.

    Parameters
    ----------
    name : str
        Catalog name (``load_dataset(name)``).
    X : pandas.DataFrame
        Numeric columns ``float64``, nominal columns ``Categorical`` with string categories;
        NaN marks a missing value.
    y : numpy.ndarray
        1-D class labels (strings or integers), no missing value.
    meta : dict
        ``source`` (generator | local | sklearn | openml), ``openml_id``, ``papers`` (list),
        ``status``, ``notes``, ``params`` (the effective generator/loader parameters), ...
    """

    name: str
    X: pd.DataFrame
    y: np.ndarray
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        """Validate (and normalise) the data once, at the boundary (:func:`checked_data`)."""
        self.X, self.y = checked_data(self.X, self.y, self.name)
        if self.meta is None:
            self.meta = {}

    @property
    def categorical(self) -> np.ndarray:
        """Boolean mask over the columns of ``X``: True for nominal (Categorical) columns."""
        return np.array(
            [isinstance(dtype, pd.CategoricalDtype) for dtype in self.X.dtypes], dtype=bool
        )

    @property
    def feature_names(self) -> list[str]:
        return [str(c) for c in self.X.columns]

    @property
    def classes(self) -> np.ndarray:
        """Sorted distinct labels."""
        return np.unique(self.y)

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def n_samples(self) -> int:
        return len(self.X)

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    def class_counts(self) -> pd.Series:
        """Instances per class, in the order of :attr:`classes`."""
        labels, counts = np.unique(self.y, return_counts=True)
        return pd.Series(counts, index=pd.Index(labels, name="class"), name="count")

    def summary(self) -> dict:
        """The catalog statistics of this sample (the MANIFEST.csv columns)."""
        counts = self.class_counts()
        n_cat = int(self.categorical.sum())
        return {
            "n": self.n_samples,
            "n_numeric": self.n_features - n_cat,
            "n_categorical": n_cat,
            "n_classes": self.n_classes,
            "majority_pct": round(100.0 * float(counts.max()) / self.n_samples, 1),
            "n_rows_with_missing": int(self.X.isna().any(axis=1).sum()),
        }

    def __repr__(self) -> str:
        n_cat = int(self.categorical.sum())
        return (
            f"Dataset({self.name!r}, n={self.n_samples}, numeric={self.n_features - n_cat}, "
            f"categorical={n_cat}, classes={self.n_classes}, "
            f"source={self.meta.get('source', '?')!r})"
        )


# --------------------------------------------------------------------------------------------
# Type coercion
# --------------------------------------------------------------------------------------------
def _label_str(value) -> str:
    """String form of a category: integral numbers without a trailing ``.0``."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _is_text(dtype) -> bool:
    """Strings (pandas ``str``) or Python objects: untyped values to inspect."""
    return pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype)


def _numeric_view(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """(parsed numbers, mask of non-missing values that do not parse) for a column of strings."""
    present = values.notna()
    text = values.astype(object).where(present, None)
    parsed = pd.to_numeric(
        text.map(lambda v: v.strip() if isinstance(v, str) else v), errors="coerce"
    )
    return parsed.astype("float64"), present & parsed.isna()


def _non_numeric_error(name: str, column, bad: pd.Series, values: pd.Series) -> ValueError:
    examples = sorted({str(v) for v in values[bad]})[:5]
    rows = list(values.index[bad][:5])
    return ValueError(
        f"data set {name!r}: column {column!r} is numeric ({int((~bad & values.notna()).sum())} "
        f"of {int(values.notna().sum())} values are numbers) but holds {int(bad.sum())} "
        f"non-numeric string(s) {examples} (rows {rows}); fix them, mark them missing ('?' or "
        f"empty), or store the file as ARFF/Parquet to declare the column nominal"
    )


def _sorted_categories(values) -> list[str]:
    """Observed values as strings, sorted numerically when all are numbers (README convention)."""
    cats = sorted({_label_str(v) for v in values})
    try:
        return sorted(cats, key=float)
    except ValueError:
        return cats


def _to_categorical(col: pd.Series) -> pd.Categorical:
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = list(col.cat.categories)
        new = [_label_str(c) for c in cats]
        if len(set(new)) != len(new):
            raise ValueError(f"categories {cats} are not distinct as strings")
        return pd.Categorical.from_codes(col.cat.codes.to_numpy(), categories=new)
    present = col.notna()
    as_str = (
        col.astype(object)
        .where(present, None)
        .map(lambda v: None if v is None else _label_str(v).strip())
    )
    return pd.Categorical(as_str, categories=_sorted_categories(as_str[present]))


def coerce_frame(df: pd.DataFrame, name: str, *, infer_numeric: bool = False) -> pd.DataFrame:
    """Return ``df`` with numeric columns as ``float64`` and nominal ones as string Categoricals.

    Booleans and integers (also nullable ones) become ``float64``; Categoricals get string
    categories (integral numbers written without ``.0``); columns of strings become Categorical,
    or, when ``infer_numeric`` (untyped sources such as CSV) and at least :data:`NUMERIC_SHARE`
    of their values are numbers, ``float64`` -- any remaining non-numeric string is then an
    error naming the column.
    """
    if not df.columns.is_unique:
        dup = sorted({str(c) for c in df.columns[df.columns.duplicated()]})
        raise ValueError(f"data set {name!r}: duplicated column name(s) {dup}")
    out = {}
    for column in df.columns:
        col = df[column]
        dtype = col.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            try:
                out[column] = _to_categorical(col)
            except ValueError as exc:
                raise ValueError(f"data set {name!r}: column {column!r}: {exc}") from exc
        elif pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
            if pd.api.types.is_complex_dtype(dtype):
                raise ValueError(f"data set {name!r}: column {column!r} is complex ({dtype})")
            out[column] = col.to_numpy(dtype="float64", na_value=np.nan)
        elif _is_text(dtype):
            parsed, bad = _numeric_view(col)
            n_present = int(col.notna().sum())
            numeric = n_present > 0 and (n_present - int(bad.sum())) >= NUMERIC_SHARE * n_present
            if infer_numeric and numeric:
                if bad.any():
                    raise _non_numeric_error(name, column, bad, col)
                out[column] = parsed.to_numpy()
            else:
                out[column] = _to_categorical(col)
        else:
            raise ValueError(
                f"data set {name!r}: column {column!r} has unsupported dtype {dtype} "
                f"(expected numbers or nominal values)"
            )
    return pd.DataFrame(out, index=pd.RangeIndex(len(df)), columns=list(df.columns))


def as_labels(values) -> np.ndarray:
    """1-D label array: strings (object dtype) for nominal/str targets, ints for integral numbers.

    Missing labels stay NaN/None, for :func:`validate_frame` to report.
    """
    s = pd.Series(values) if not isinstance(values, pd.Series) else values
    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(dtype):
        present = s.notna()
        return np.asarray(
            s.astype(object)
            .where(present, None)
            .map(lambda v: None if v is None else _label_str(v)),
            dtype=object,
        )
    if pd.api.types.is_bool_dtype(dtype):
        return s.to_numpy()
    if pd.api.types.is_numeric_dtype(dtype):
        arr = s.to_numpy(dtype="float64", na_value=np.nan)
        finite = np.isfinite(arr)
        if finite.all() and np.all(arr == np.round(arr)):
            return arr.astype(np.int64)
        return arr
    return s.to_numpy(dtype=object)


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------
def checked_data(X, y, name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """``(X, y)`` of a :class:`Dataset`: validated by :func:`validate_frame` and normalised.

    ``X``: a DataFrame is kept as it is; an array (or nested list) of rows becomes a DataFrame with
    columns 0..K-1 and the types of :func:`coerce_frame` (numbers ``float64``, strings nominal).
    ``y``: an array is kept; a Series (whatever its index), Index, Categorical, list or tuple
    becomes an array of labels in row order (:func:`as_labels`, as the loaders do).
    """
    if X is not None and not isinstance(X, pd.DataFrame):
        X = _table(X, name)
    if y is not None and not isinstance(y, np.ndarray):
        if np.ndim(y) == 0:
            raise ValueError(
                f"data set {name!r}: the target must be a 1-D sequence of labels, got {y!r}"
            )
        y = as_labels(pd.Series(y).reset_index(drop=True)) if np.ndim(y) == 1 else np.asarray(y)
    validate_frame(X, y, name)
    return X, y


def _table(X, name: str) -> pd.DataFrame:
    """An array or list of rows as a DataFrame (columns 0..K-1), types as :func:`coerce_frame`."""
    try:
        arr = np.asarray(X)
    except (TypeError, ValueError) as exc:  # ragged rows
        raise ValueError(
            f"data set {name!r}: the attributes X must be a table (a DataFrame or a 2-D array of "
            f"rows × columns): {exc}"
        ) from exc
    if arr.ndim != 2:
        raise ValueError(
            f"data set {name!r}: the attributes X must be a table (a DataFrame or a 2-D array of "
            f"rows × columns), got {type(X).__name__} of shape {arr.shape}"
        )
    return coerce_frame(pd.DataFrame(arr), name)


#: columns checked for ±inf at a time (bounds the copy made of a wide table)
_INF_CHUNK = 256


def _first_inf_column(X: pd.DataFrame, numeric: list):
    """(column, rows with ±inf) of the first numeric column holding an infinite value, or None."""
    for start in range(0, len(numeric), _INF_CHUNK):
        columns = numeric[start : start + _INF_CHUNK]
        values = X[columns].to_numpy(dtype="float64", na_value=np.nan)
        inf = np.isinf(values)
        if inf.any():
            j = int(np.flatnonzero(inf.any(axis=0))[0])
            return columns[j], np.flatnonzero(inf[:, j])
    return None


def validate_frame(X, y, name: str) -> None:
    """Raise a ``ValueError`` naming ``name`` (and the column) unless (X, y) is usable.

    Checks: attributes and a target are given, with one label per row and none missing; at
    least one row and one attribute column, with distinct names; at least two classes, of label
    types that can be sorted together; no ±inf in a numeric column; no non-numeric string in a
    column that is mostly numbers. Missing values in ``X`` are allowed.
    """
    if y is None:
        raise ValueError(f"data set {name!r} has no target (class) column")
    if X is None:
        raise ValueError(f"data set {name!r} has no attributes (X is None)")
    if not isinstance(X, pd.DataFrame):
        X = pd.DataFrame(X)
    if not X.columns.is_unique:
        dup = sorted({str(c) for c in X.columns[X.columns.duplicated()]})
        raise ValueError(f"data set {name!r}: duplicated column name(s) {dup}")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"data set {name!r}: the target must be 1-D, got shape {y.shape}")
    if len(y) != len(X):
        raise ValueError(
            f"data set {name!r}: {len(X)} rows of attributes but {len(y)} target values"
        )
    if len(X) == 0:
        raise ValueError(f"data set {name!r} is empty (0 rows)")
    if X.shape[1] == 0:
        raise ValueError(f"data set {name!r} has no attribute columns (only the target)")
    missing = np.asarray(pd.isna(y), dtype=bool)
    if missing.any():
        rows = np.flatnonzero(missing)[:5].tolist()
        raise ValueError(
            f"data set {name!r}: the target (class) has {int(missing.sum())} missing value(s) "
            f"(rows {rows}); drop those rows or give them a label"
        )
    classes = pd.unique(pd.Series(y, dtype=object))
    if len(classes) < 2:
        raise ValueError(
            f"data set {name!r} has only one class ({classes[0]!r}); classification needs at "
            f"least 2"
        )
    kinds = {type(c) for c in classes}
    if len(kinds) > 1:
        try:
            np.unique(y)
        except TypeError as exc:
            raise ValueError(
                f"data set {name!r}: the target mixes label types that cannot be ordered "
                f"({', '.join(sorted(k.__name__ for k in kinds))}); give every label one type, "
                "e.g. strings"
            ) from exc
    numeric = [
        c
        for c, dtype in X.dtypes.items()
        if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
    ]
    found = _first_inf_column(X, numeric)
    if found is not None:
        column, rows = found
        raise ValueError(
            f"data set {name!r}: numeric column {column!r} holds {rows.size} infinite value(s) "
            f"(rows {rows[:5].tolist()}); replace them by finite values or NaN"
        )
    for column, dtype in X.dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype):
            continue
        if _is_text(dtype):
            col = X[column]
            _, bad = _numeric_view(col)
            n_present = int(col.notna().sum())
            if bad.any() and (n_present - int(bad.sum())) >= NUMERIC_SHARE * n_present:
                raise _non_numeric_error(name, column, bad, col)
