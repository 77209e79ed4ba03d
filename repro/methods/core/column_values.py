"""How the estimators read the values of a column.

Reading a table (decided on the training data, applied the same way at predict):

- a column of dates, times, durations, complex numbers, or cells holding lists, dicts or other
  objects is refused (:class:`ColumnTypeError`, a ValueError naming the column and saying how to
  convert it), at fit and at predict;
- nominal values are matched **by value across types**: every value has a canonical key — an
  integer-valued number (int, float, numpy, Decimal) its integer digits (``1``, ``1.0`` and
  ``np.int8(1)`` → ``"1"``), another number its shortest repr (``0.5`` → ``"0.5"``), a string
  itself (bytes decoded as UTF-8), a boolean ``"True"``/``"False"``. A predict value matches the
  training category of the same key; a string that is a decimal number (``"1.0"``, ``" 2"``) also
  matches the numeric category of its value, and a numeric value the string category that reads
  as it (when that reading is unambiguous). So an int category 1 matches the string ``"1"``, the
  float ``1.0`` and the categorical value 1; the string ``"1.0"`` matches too. Booleans are a type
  of their own: ``True`` and ``1`` are two categories of an object column, never one.
- a nominal column whose values at predict match no training category and are all of another
  type than at fit (booleans given as 0/1, numbers given as words) is refused, naming the column;
  a genuinely new category of the training type is "unseen" (no information), as before;
- the categories of a nominal column are the values present at fit: the unused categories of a
  pandas categorical are dropped, so that they never change a prediction;
- a DataFrame with MultiIndex columns is read with its column names joined by ``"_"``
  (:func:`flatten_columns`).
"""

from __future__ import annotations

import datetime
import decimal
import numbers
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api.types import infer_dtype, is_bool_dtype

#: the code of a nominal value of no training category ("unseen")
UNSEEN = -1.0


class ColumnTypeError(ValueError, TypeError):
    """A column of a type the estimators cannot read (dates, durations, complex numbers, lists,
    dicts, other objects). A ValueError naming the column; also a TypeError, as scikit-learn
    expects for cells that are neither strings nor numbers."""


def flatten_columns(X):
    """A DataFrame with MultiIndex columns as one with the levels of each name joined by "_"
    (``("size", "mean")`` → ``"size_mean"``); any other input as it is."""
    if not isinstance(X, pd.DataFrame) or not isinstance(X.columns, pd.MultiIndex):
        return X
    names = ["_".join(str(part) for part in name) for name in X.columns]
    if len(set(names)) < len(names):
        twice = sorted({n for n in names if names.count(n) > 1})[:5]
        raise ValueError(
            f"MultiIndex columns: joining the levels with '_' gives the same name twice "
            f"({twice}); rename the columns (X.columns = [...]) so that each name is unique"
        )
    flat = X.copy(deep=False)
    flat.columns = names
    return flat


_DATES = (
    "holds dates or times ({what}); convert it to numbers first, e.g. seconds since 1970: "
    "({col} - pd.Timestamp('1970-01-01')) / pd.Timedelta('1s') (tz-aware: "
    "{col}.dt.tz_convert(None) first), or to parts such as {col}.dt.year"
)
_DURATIONS = (
    "holds durations ({what}); convert it to numbers first, e.g. seconds: {col}.dt.total_seconds()"
)
_COMPLEX = (
    "holds complex numbers ({what}); give two real columns instead, e.g. the real and imaginary "
    "parts (np.real, np.imag) or the modulus and the angle"
)
#: the message for a complex numpy array (scikit-learn's text, then what to do)
COMPLEX_ARRAY = (
    "Complex data not supported: give two real columns per complex one instead, e.g. the real "
    "and imaginary parts (np.real, np.imag) or the modulus and the angle"
)
_CONTAINERS = (
    "holds {what} in its cells; give one number or one category (a string) per cell, e.g. expand "
    "each list or dict into columns of its own"
)
_OBJECTS = (
    "holds values of type {what}; give numbers or strings (category labels) instead: every "
    "argument must be a string or a number"
)


def _refuse(column: str, template: str, what: str):
    # the column as the user would write it: X['name'] for a frame, X[:, k] for an array
    col = f"X[{column}]" if column.startswith("'") else f"X[:, {column}]"
    raise ColumnTypeError(f"Column {column} {template.format(what=what, col=col)}")


def check_column_type(s: pd.Series, column: str) -> None:
    """Refuse (:class:`ColumnTypeError`, naming ``column``) a column of dates, times,
    durations, complex numbers, or whose cells hold lists, dicts, sets or other objects.
    Decided on the dtype; the values are read only for object and other non-numeric columns
    (in C, by pandas' ``infer_dtype``, then one pass over the types of a mixed column)."""
    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype):  # its categories (an Index) decide
        s, dtype = dtype.categories, dtype.categories.dtype
    kind = getattr(dtype, "kind", "O")
    if kind == "M" or isinstance(dtype, pd.PeriodDtype):
        _refuse(column, _DATES, str(dtype))
    if kind == "m":
        _refuse(column, _DURATIONS, str(dtype))
    if kind == "c":
        _refuse(column, _COMPLEX, str(dtype))
    if kind in "biufU" or is_bool_dtype(dtype) or isinstance(dtype, pd.StringDtype):
        return
    if isinstance(dtype, pd.IntervalDtype):
        return
    values = s.to_numpy(dtype=object)
    inferred = infer_dtype(values, skipna=True)
    if inferred in ("datetime", "datetime64", "date", "time", "period"):
        _refuse(column, _DATES, f"{inferred} values")
    if inferred in ("timedelta", "timedelta64"):
        _refuse(column, _DURATIONS, "timedelta values")
    if inferred == "complex":
        _refuse(column, _COMPLEX, "complex values")
    if inferred in ("mixed", "mixed-integer", "unknown-array"):
        for t in pd.unique(np.frompyfunc(type, 1, 1)(values)):
            _check_value_type(t, column)


_READABLE = (str, bytes, bool, np.bool_, numbers.Real, decimal.Decimal, pd.Interval)


def _check_value_type(t: type, column: str) -> None:
    if t is type(None) or t is type(pd.NA) or t is type(pd.NaT):
        return
    if issubclass(t, _READABLE) and not issubclass(t, np.datetime64 | np.timedelta64):
        return
    if issubclass(t, list | tuple | dict | set | frozenset | np.ndarray | pd.Series):
        _refuse(column, _CONTAINERS, f"{t.__name__}s")
    if issubclass(t, datetime.date | datetime.time | np.datetime64):
        _refuse(column, _DATES, f"{t.__name__} values")
    if issubclass(t, datetime.timedelta | np.timedelta64):
        _refuse(column, _DURATIONS, f"{t.__name__} values")
    if issubclass(t, numbers.Complex):
        _refuse(column, _COMPLEX, f"{t.__name__} values")
    _refuse(column, _OBJECTS, t.__name__)


def bool_flags(values: np.ndarray, inferred: str) -> np.ndarray:
    if inferred == "boolean":
        return np.ones(values.size, bool)
    if inferred in ("mixed", "mixed-integer", "unknown-array"):
        is_bool = np.frompyfunc(lambda v: isinstance(v, bool | np.bool_), 1, 1)
        return is_bool(values).astype(bool)
    return np.zeros(values.size, bool)


def nominal_values(s: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """(codes, values) of a column read as nominal: ``codes`` (N,) int64 into the distinct
    ``values`` (object array), −1 for a missing value. A categorical column gives its codes and
    its categories (used or not); any other column its distinct values, where — unlike
    pandas — a boolean is never merged with the number 1 or 0."""
    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        codes = np.asarray(s.array.codes, dtype=np.int64)
        return codes, np.asarray(dtype.categories, dtype=object)
    if isinstance(dtype, np.dtype) and dtype.kind in "biuf":
        codes, uniques = pd.factorize(s.to_numpy())
        return codes.astype(np.int64), np.asarray(uniques, dtype=object)
    values = s.to_numpy(dtype=object)
    missing = np.asarray(pd.isna(values), bool)
    flags = bool_flags(values, infer_dtype(values, skipna=True))
    codes = np.full(values.size, -1, dtype=np.int64)
    uniques = []
    for part in (~missing & ~flags, ~missing & flags):
        if part.any():
            c, u = pd.factorize(values[part])
            codes[part] = c + len(uniques)
            uniques.extend(u.tolist() if isinstance(u, pd.Index) else list(u))
    out = np.empty(len(uniques), dtype=object)
    out[:] = uniques
    return codes, out


#: a decimal number written as a string (no "inf", "nan", "1_000" or hexadecimal)
_DECIMAL = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*\Z")

#: family of a value: how it was given (booleans apart from numbers; bytes are text)
BOOL, NUMBER, TEXT, OTHER = "booleans", "numbers", "text", "other values"


def _number_key(x: float) -> str:
    return str(int(x)) if x.is_integer() else repr(x)


def value_key(v) -> tuple[str, str]:
    """(canonical key, family) of a non-missing nominal value (module docstring): 1, 1.0,
    np.int64(1), Decimal("1") → "1"; 0.5 → "0.5"; "a" → "a"; b"a" → "a"; True → "True"."""
    if isinstance(v, bool | np.bool_):
        return ("True" if v else "False"), BOOL
    if isinstance(v, numbers.Integral):
        return str(int(v)), NUMBER
    if isinstance(v, np.floating):  # its own precision: np.float32(0.1) → "0.1"
        return (str(int(v)) if float(v).is_integer() else str(v)), NUMBER
    if isinstance(v, numbers.Real | decimal.Decimal):
        x = float(v)
        return _number_key(x), NUMBER
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="backslashreplace"), TEXT
    if isinstance(v, str):
        return str(v), TEXT
    return str(v), OTHER


def numeric_alias(text: str) -> str | None:
    """The key of the number a string writes (``"1.0"`` → ``"1"``), None if it writes none."""
    if not _DECIMAL.match(text):
        return None
    x = float(text)
    return _number_key(x) if np.isfinite(x) else None


def _reading_family(key: str, family: str) -> str:
    """A string that writes a number reads as a number."""
    return NUMBER if family == TEXT and numeric_alias(key) is not None else family


@dataclass
class NominalReader:
    """The categories of one nominal column and how predict values are matched to them.

    ``categories``: one value per category (the first seen of each key), in the order of the
    codes: the categorical order for a pandas categorical (its unused categories dropped),
    sorted otherwise; ``keys``: their canonical keys; ``lookup``/``targets``: every key a
    value may match (the keys, then the numeric readings of string categories where they are
    unambiguous) and its code; ``families``: the families of the training values.
    """

    categories: np.ndarray
    keys: np.ndarray
    lookup: pd.Index
    targets: np.ndarray
    families: frozenset

    @classmethod
    def fit(cls, s: pd.Series) -> NominalReader:
        codes, uniques = nominal_values(s)
        used = np.zeros(uniques.size, bool)
        used[codes[codes >= 0]] = True
        reps, keys, families, seen = [], [], [], set()
        for i in np.flatnonzero(used):
            key, family = value_key(uniques[i])
            if key not in seen:
                seen.add(key)
                reps.append(uniques[i])
                keys.append(key)
                families.append(family)
        order = np.arange(len(reps))
        if not isinstance(s.dtype, pd.CategoricalDtype) and len(reps) > 1:
            order = _sorted_order(reps, keys, families)
        categories = np.empty(len(reps), dtype=object)
        categories[:] = [reps[i] for i in order]
        keys = [keys[i] for i in order]
        # the numeric reading of a string category is a key too, when no other category has it
        aliases: dict[str, int] = {}
        for code, key in enumerate(keys):
            alias = numeric_alias(key) if families[order[code]] == TEXT else None
            if alias is not None and alias != key:
                aliases[alias] = -1 if alias in aliases else code
        extra = [(a, c) for a, c in aliases.items() if c >= 0 and a not in seen]
        lookup = pd.Index(keys + [a for a, _ in extra], dtype=object)
        targets = np.array(list(range(len(keys))) + [c for _, c in extra], dtype=np.float64)
        return cls(
            categories,
            np.asarray(keys, dtype=object),
            lookup,
            targets,
            frozenset(families),
        )

    def encode(self, s: pd.Series, column: str) -> np.ndarray:
        """Category codes of a column (NaN missing, ``UNSEEN`` for a value of no category)."""
        codes, uniques = nominal_values(s)
        read = [value_key(v) for v in uniques]
        mapping = np.full(uniques.size, UNSEEN)
        if uniques.size and len(self.lookup):
            position = self.lookup.get_indexer([k for k, _ in read])
            # a string that writes a number matches the category of that number
            for i in np.flatnonzero(position < 0):
                key, family = read[i]
                alias = numeric_alias(key) if family == TEXT else None
                if alias is not None:
                    position[i] = self.lookup.get_indexer([alias])[0]
            found = position >= 0
            mapping[found] = self.targets[position[found]]
        present = np.flatnonzero(np.bincount(codes[codes >= 0], minlength=uniques.size))
        if present.size and np.all(mapping[present] == UNSEEN):
            self._check_same_type([read[i] for i in present], [uniques[i] for i in present], column)
        out = mapping[np.maximum(codes, 0)] if mapping.size else np.full(codes.size, UNSEEN)
        return np.where(codes < 0, np.nan, out)

    def _check_same_type(self, read, values, column: str) -> None:
        """No value matched: refuse when they are all of another type than at fit (a type
        change, not new categories), e.g. booleans given as 0/1 or numbers given as words."""
        if not len(self.categories):  # no value at fit: any value now is unseen (missing)
            return
        given = {family for _, family in read}
        as_read = {_reading_family(k, f) for k, f in read}
        trained = {_reading_family(k, f) for k, f in zip(self.keys, self._families_of_keys())}
        if given & self.families or as_read & trained:
            return
        shown = ", ".join(repr(v) for v in values[:5]) + (", ..." if len(values) > 5 else "")
        known = ", ".join(repr(v) for v in self.categories[:5])
        known += ", ..." if len(self.categories) > 5 else ""
        raise ValueError(
            f"Column {column}: none of its values ({shown}) is a category seen at fit "
            f"({known}): they are {' and '.join(sorted(as_read))} where the model was fitted on "
            f"{' and '.join(sorted(trained))}; give the column the type it had at fit"
        )

    def _families_of_keys(self) -> list[str]:
        return [value_key(v)[1] for v in self.categories]


def _sorted_order(reps: list, keys: list, families: list) -> np.ndarray:
    """Categories of one family in their natural order (numbers by value, strings
    alphabetically), of several families by key (as text)."""
    if len(set(families)) == 1:
        values = np.empty(len(reps), dtype=object)
        values[:] = reps
        try:
            return np.argsort(values, kind="stable")
        except TypeError:
            pass
    return np.argsort(np.asarray(keys, dtype=object), kind="stable")
