"""Public MODL estimators: :class:`MODLDiscretizer` (numeric) and :class:`MODLGrouper` (nominal).

``variant="paper"``: the 2006 discretization / 2005 grouping criteria;
``variant="khiops"``: the Khiops ≥ 10 criteria and heuristics
(:mod:`repro.preprocessing.modl.khiops`).

Missing values (NaN) are a value of their own that sorts first (as in Khiops): for the
discretizer they fall in the first interval, for the grouper they form a value ("missing" group
member). The adapters :class:`MODLIntervalPartition` and :class:`MODLGroupPartition` plug both into
:class:`repro.preprocessing.variables.PartitionModel`.
"""

from __future__ import annotations

import math

import numpy as np

from repro.preprocessing.modl import criteria
from repro.preprocessing.modl import grouping as modl_khiops_grouping
from repro.preprocessing.modl import khiops as modl_khiops
from repro.preprocessing.modl import paper as modl
from repro.preprocessing.variables import Partition

VARIANTS = ("paper", "khiops")


def _check_common(variant, algorithm):
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    if algorithm not in modl.ALGORITHMS:
        raise ValueError(f"algorithm must be one of {modl.ALGORITHMS}, got {algorithm!r}")


def _class_index(y, n_classes=None):
    y = np.asarray(y)
    if n_classes is None or y.dtype.kind not in "iu":
        classes, y = np.unique(y, return_inverse=True)
        n_classes = classes.size
    return y.astype(np.int64), int(n_classes)


def _data_cost(counts) -> float:
    counts = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    return float((criteria.lf(counts.sum(axis=1)) - criteria.lf(counts).sum(axis=1)).sum())


def attribute_cost(n_variables) -> float:
    """Khiops' attribute cost A = ln K of a data set of K variables (0 when K is unknown)."""
    return math.log(n_variables) if n_variables else 0.0


class MODLDiscretizer:
    """MODL supervised discretization of one numeric variable.

    Parameters
    ----------
    variant : "paper" or "khiops"
    algorithm : "optimized_greedy", "greedy" or "optimal"
        Optimiser (paper variant; the Khiops variant always uses Khiops' optimised greedy).
    max_intervals : int or None
        Upper bound on the number of intervals (forced merges, as Khiops' ``max_parts``).
    n_variables : int or None
        K, the number of input variables: the Khiops attribute cost is A = ln K.

    Attributes
    ----------
    bounds_ : ndarray, sorted cut values; interval i is ]bounds_[i−1], bounds_[i]] (right-closed)
    n_intervals_ : int
    counts_ : ndarray (intervals × classes)
    cost_, null_cost_, level_ : float (level = 1 − cost/null_cost, 0 if uninformative)
    construction_cost_, preparation_cost_, data_cost_ : float (Khiops' split of the cost)
    granularity_ : int (khiops variant; 0 for the paper variant)
    informative_ : bool
    """

    def __init__(
        self, variant="paper", algorithm="optimized_greedy", max_intervals=None, n_variables=None
    ):
        self.variant = variant
        self.algorithm = algorithm
        self.max_intervals = max_intervals
        self.n_variables = n_variables

    def _values(self, x):
        x = np.asarray(x, dtype=np.float64)
        return modl_khiops.to_continuous(x) if self.variant == "khiops" else x

    def fit(self, x, y, n_classes=None):
        _check_common(self.variant, self.algorithm)
        y, n_classes = _class_index(y, n_classes)
        x = self._values(x)
        key = np.where(np.isnan(x), -np.inf, x)
        values, inverse = np.unique(key, return_inverse=True)
        flat = inverse.ravel() * n_classes + y
        rows = np.bincount(flat, minlength=values.size * n_classes).astype(np.float64)
        rows = rows.reshape(values.size, n_classes)
        n = int(rows.sum())
        max_parts = int(self.max_intervals or 0)
        class_counts = rows.sum(axis=0)
        if self.variant == "paper":
            pc = criteria.discretization_partition_cost_2006(max(n, 1), values.size)
            ends = modl.optimise_intervals(rows, pc, self.algorithm, max_parts)
            return self.set_intervals_2006(
                criteria.interval_counts(rows, ends), self._bounds(values, ends), class_counts
            )
        a = attribute_cost(self.n_variables)
        ends, g, cost = modl_khiops.discretize_table(rows, a, max_parts)
        counts = criteria.interval_counts(rows, np.asarray(ends, dtype=np.int64))
        return self._set_khiops(counts, self._bounds(values, ends), class_counts, g, cost)

    def set_intervals_khiops(self, counts, lows, highs, class_counts, granularity):
        """The fitted state of the Khiops variant from its intervals (the output of the
        compiled discretization of blocks of columns, :mod:`repro.preprocessing.modl.batch`):
        ``counts`` (intervals × classes, float64), for each bound the last value below it and
        the first above (``lows``, ``highs``: Khiops' human-readable bound is placed between),
        ``class_counts``, the granularity g. Cost = pc[I] of (g, N, A = ln K) + Σ parts."""
        n_parts = counts.shape[0]
        pc = criteria.discretization_partition_costs(
            n_parts, granularity, int(class_counts.sum()), attribute_cost(self.n_variables)
        )
        cost = float(pc[n_parts] + criteria.part_cost(counts).sum())
        bounds = self._bounds_between(lows, highs)
        return self._set_khiops(counts, bounds, class_counts, granularity, cost)

    def _set_khiops(self, counts, bounds, class_counts, granularity, cost):
        a = attribute_cost(self.n_variables)
        self.granularity_ = int(granularity)
        construction = math.log(2.0) + (a if counts.shape[0] > 1 else 0.0)
        null = criteria.null_cost(class_counts)
        return self._set_partition(counts, bounds, class_counts, cost, null, construction)

    def set_intervals_2006(self, counts, bounds, class_counts) -> MODLDiscretizer:
        """The fitted state of the paper variant from its intervals: ``counts`` (intervals ×
        classes, float64), ``bounds`` (cut values), ``class_counts`` of the training values.

        The end of :meth:`fit`, also called with the output of the compiled discretization of
        whole blocks of columns (:mod:`repro.preprocessing.modl.batch`). Cost = pc[I] + Σ parts
        (the 2006 criterion, pc of N = Σ counts), null cost = pc[1] + the one part's cost.
        """
        n = int(class_counts.sum())
        pc = criteria.discretization_partition_cost_2006(max(n, 1), counts.shape[0])
        cost = float(pc[counts.shape[0]] + criteria.part_cost(counts).sum())  # partition_total_cost
        null = float(pc[1] + criteria.part_cost(class_counts).sum())
        self.granularity_ = 0
        return self._set_partition(counts, bounds, class_counts, cost, null, 0.0)

    def _bounds(self, values, ends) -> np.ndarray:
        """Cut values between the last value of interval i and the first value of interval i+1."""
        ends = np.asarray(ends, dtype=np.int64)[:-1]
        return self._bounds_between(values[ends], values[ends + 1])

    def _bounds_between(self, lows, highs) -> np.ndarray:
        """The cut value between each ``lows[i]`` < ``highs[i]`` (−inf above the missing values):
        their mean (paper), Khiops' human-readable value between them (khiops; compiled,
        :func:`~repro.preprocessing.modl.khiops.human_readable_bounds`)."""
        lows = np.asarray(lows, dtype=np.float64)
        highs = np.asarray(highs, dtype=np.float64)
        if self.variant == "khiops":
            return modl_khiops.human_readable_bounds(lows, highs)
        finite = np.isfinite(lows)
        return np.where(finite, 0.5 * (np.where(finite, lows, 0.0) + highs), -np.inf)

    def _set_partition(self, counts, bounds, class_counts, cost, null, construction):
        self.counts_ = counts
        self.n_intervals_ = int(counts.shape[0])
        self.cost_ = float(cost)
        self.null_cost_ = float(null)
        if self.variant == "khiops":
            self.level_ = criteria.level(self.cost_, self.null_cost_, self.n_intervals_)
        else:
            lev = 1.0 - self.cost_ / self.null_cost_
            self.level_ = lev if (lev > 1e-10 and self.n_intervals_ > 1) else 0.0
        self.informative_ = self.level_ > 0
        self.data_cost_ = _data_cost(self.counts_)
        self.construction_cost_ = float(construction)
        self.preparation_cost_ = self.cost_ - self.construction_cost_ - self.data_cost_
        self.bounds_ = bounds
        if not self.informative_:
            self.bounds_ = np.empty(0)
            self.counts_ = class_counts[None, :]
            self.n_intervals_ = 1
        return self

    def transform(self, x) -> np.ndarray:
        """Interval index of each value; missing values go to the first interval."""
        x = self._values(x)
        codes = np.searchsorted(self.bounds_, x, side="left").astype(np.int64)
        codes[np.isnan(x)] = 0
        return codes


class MODLGrouper:
    """MODL supervised grouping of the values of one nominal variable.

    Values are any hashable labels (NaN/None = missing, a value of its own). Unseen values go
    to ``default_group_``: the group holding the catch-all part (khiops) or the group holding the
    least frequent value.

    Attributes
    ----------
    groups_ : list of lists of values
    default_group_ : int
    counts_ : ndarray (groups × classes)
    cost_, null_cost_, level_, granularity_, informative_ : as :class:`MODLDiscretizer`
    """

    def __init__(self, variant="paper", max_groups=None, n_variables=None):
        self.variant = variant
        self.max_groups = max_groups
        self.n_variables = n_variables

    def fit(self, x, y, n_classes=None):
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        y, n_classes = _class_index(y, n_classes)
        atoms, keys = _atoms(x)
        return self.fit_atoms(atoms, keys, y, n_classes)

    def fit_atoms(self, atoms, keys, y, n_classes) -> MODLGrouper:
        """:meth:`fit` from the values factorized: ``atoms`` (int64, one per row) indexes
        ``keys``, the value's key (a missing value: :data:`MISSING_KEY`) of each atom, atoms
        numbered in the order of their first row (equal keys are one value); ``y`` class
        indices (int64) of ``n_classes`` classes."""
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        labels = {}  # the values in the order of their first row, as a dict of the rows' keys
        atom_value = np.array([labels.setdefault(k, len(labels)) for k in keys], dtype=np.int64)
        names = list(labels)
        codes = atom_value[atoms]
        counts = _value_class_counts(codes, y, len(names), n_classes)
        freqs = counts.sum(axis=1)
        # sort values by decreasing frequency, then by label
        order = sorted(range(len(names)), key=lambda i: (-freqs[i], str(names[i])))
        counts = counts[order]
        names = [names[i] for i in order]
        class_counts = counts.sum(axis=0)
        if self.variant == "khiops":
            a = attribute_cost(self.n_variables)
            value_labels, g, cost, catch = modl_khiops_grouping.group_values(counts, a)
            null = criteria.null_cost(class_counts)
            self.granularity_ = int(g)
        else:
            value_labels, cost = _group_paper(counts)
            null = float(
                criteria.grouping_partition_cost_2005(len(names))[1]
                + criteria.part_cost(class_counts).sum()
            )
            catch = np.zeros(len(names), bool)
            self.granularity_ = 0
        n_groups = int(value_labels.max()) + 1 if value_labels.size else 1
        self.cost_, self.null_cost_ = float(cost), float(null)
        lev = 1.0 - self.cost_ / self.null_cost_ if self.null_cost_ > 0 else 0.0
        self.level_ = lev if (lev > 1e-10 and n_groups > 1) else 0.0
        self.informative_ = self.level_ > 0
        if not self.informative_:
            value_labels = np.zeros(len(names), dtype=np.int64)
            n_groups = 1
        self.counts_ = np.zeros((n_groups, n_classes))
        np.add.at(self.counts_, value_labels, counts)
        self.data_cost_ = _data_cost(self.counts_)
        a = attribute_cost(self.n_variables) if self.variant == "khiops" else 0.0
        self.construction_cost_ = math.log(2.0) + (a if self.informative_ else 0.0)
        self.preparation_cost_ = self.cost_ - self.construction_cost_ - self.data_cost_
        self.groups_ = [
            [_unkey(names[i]) for i in np.flatnonzero(value_labels == k)] for k in range(n_groups)
        ]
        if catch.any():
            self.default_group_ = int(value_labels[np.flatnonzero(catch)[0]])
        else:
            self.default_group_ = int(value_labels[len(names) - 1]) if names else 0
        self.group_of_ = {names[i]: int(value_labels[i]) for i in range(len(names))}
        self.n_groups_ = n_groups
        self.catch_all_ = [_unkey(names[i]) for i in np.flatnonzero(catch)]
        return self

    def transform(self, x) -> np.ndarray:
        return self.transform_atoms(*_atoms(x))

    def transform_atoms(self, atoms, keys) -> np.ndarray:
        """:meth:`transform` from the values factorized (as :meth:`fit_atoms`): the group of
        each atom's key (unseen keys: ``default_group_``) indexed by the atoms."""
        get, default = self.group_of_.get, self.default_group_
        lookup = np.array([get(k, default) for k in keys], dtype=np.int64)
        return lookup[np.asarray(atoms, dtype=np.int64)]


MISSING_KEY = "\x00<missing>"
UNSEEN_VALUE = ("\x01<unseen>",)
# element types of an object column whose equality pandas' hash table (factorize) shares with a
# dict's: anything else is coded through a dict, row by row
_FACTORIZE_TYPES = frozenset({str, int, float, type(None)})


def _is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _key(v):
    """The key of value ``v`` (missing values: :data:`MISSING_KEY`)."""
    return MISSING_KEY if _is_missing(v) else v


def _unkey(k):
    return np.nan if k == MISSING_KEY else k


def _factorize(values: np.ndarray):
    """(codes, first): ``values`` (1-D array) coded 0, 1, … in the order of their first row
    (pandas' hash table; NaN is a value, −0.0 = 0.0), ``first`` the row where each first
    occurs."""
    import pandas as pd

    codes, _ = pd.factorize(values, use_na_sentinel=False)
    codes = np.asarray(codes, dtype=np.int64)
    if codes.size == 0:
        return codes, np.empty(0, dtype=np.int64)
    running = np.maximum.accumulate(codes)
    first = np.flatnonzero(np.concatenate(([True], running[1:] > running[:-1])))
    if codes[0] != 0 or not np.array_equal(codes[first], np.arange(first.size)):
        _, first = np.unique(codes, return_index=True)  # numbered in another order: renumber
        order = np.argsort(first, kind="stable")
        rank = np.empty(order.size, dtype=np.int64)
        rank[order] = np.arange(order.size)
        codes, first = rank[codes], first[order]
    return codes, first


def _atoms(x):
    """(atoms, keys): the rows of ``x`` coded by value, as :meth:`MODLGrouper.fit_atoms` takes
    them. The key of a row is the row itself (as iterating over ``x`` gives it; missing values —
    None, float NaN — :data:`MISSING_KEY`): 1-D numpy columns of numbers, strings, or objects
    that are str, int, float or None are factorized at once (each atom's key is that of its
    first row); others (a float32 NaN is a new value at each row, tuples, …) row by row."""
    arr = x
    if not isinstance(arr, np.ndarray):
        try:
            arr = np.fromiter(x, dtype=object, count=len(x))  # the objects iterating gives
        except (TypeError, ValueError):
            arr = None
    if arr is not None and arr.ndim == 1:
        kind = arr.dtype.kind
        if kind == "O":
            fast = set(map(type, arr)) <= _FACTORIZE_TYPES
        else:
            fast = kind in "iubUS" or (
                kind == "f" and (arr.dtype == np.float64 or not np.isnan(arr).any())
            )
        if fast:
            atoms, first = _factorize(arr.astype(object) if kind in "US" else arr)
            return atoms, [_key(v) for v in arr[first]]
        x = arr
    labels = {}
    atoms = np.array([labels.setdefault(_key(v), len(labels)) for v in x], dtype=np.int64)
    return atoms, list(labels)


def _value_class_counts(codes, y, n_values, n_classes) -> np.ndarray:
    """Class counts (float64, ``n_values`` × ``n_classes``) of the rows' value ``codes``."""
    y = np.asarray(y)
    if codes.shape == y.shape and (y.size == 0 or (y.min() >= 0 and y.max() < n_classes)):
        flat = np.bincount(codes * n_classes + y, minlength=n_values * n_classes)
        return flat.astype(np.float64).reshape(n_values, n_classes)
    counts = np.zeros((n_values, n_classes))
    np.add.at(counts, (codes, y), 1.0)  # (raises as before)
    return counts


def _group_paper(counts: np.ndarray):
    """2005 grouping: two classes → optimal order by P(class 1); else greedy merges + moves."""
    v = counts.shape[0]
    pc = criteria.grouping_partition_cost_2005(v)
    if v <= 1:
        return np.zeros(v, dtype=np.int64), float(
            pc[1] + criteria.part_cost(counts.sum(axis=0)).sum()
        )
    if counts.shape[1] == 2:
        p1 = counts[:, 1] / counts.sum(axis=1)
        order = np.argsort(p1, kind="stable")
        ends = modl.optimise_intervals(counts[order], pc, "optimized_greedy")
        labels = np.empty(v, dtype=np.int64)
        start = 0
        for k, e in enumerate(ends):
            labels[order[start : e + 1]] = k
            start = e + 1
    else:
        labels = modl.greedy_grouping(counts, pc)
    k = labels.max() + 1
    g = np.zeros((k, counts.shape[1]))
    np.add.at(g, labels, counts)
    return labels, float(pc[k] + criteria.part_cost(g).sum())


# ---------------------------------------------------------------------------------------------
# Adapters for repro.preprocessing.variables.PartitionModel
# ---------------------------------------------------------------------------------------------
class MODLIntervalPartition(Partition):
    """MODL discretization of a numeric column, as a :class:`~.variables.Partition`."""

    def __init__(self, variant="paper", algorithm="optimized_greedy", n_variables=None):
        self.variant = variant
        self.algorithm = algorithm
        self.n_variables = n_variables

    def fit(self, x, y, n_classes):
        discretizer = MODLDiscretizer(self.variant, self.algorithm, None, self.n_variables)
        return self.set_discretizer(discretizer.fit(x, y, n_classes))

    def set_discretizer(self, discretizer: MODLDiscretizer) -> MODLIntervalPartition:
        """The partition of a fitted ``discretizer`` (the end of :meth:`fit`)."""
        self.modl_ = discretizer
        self.n_parts_ = discretizer.n_intervals_
        return self

    def transform(self, x):
        return self.modl_.transform(x)


class MODLGroupPartition(Partition):
    """MODL grouping of encoded category codes (NaN missing, −1 unseen) as a Partition.

    ``labels`` are the category labels of the codes (used for Khiops' ordering of equal
    frequencies); unseen codes go to the default group.
    """

    def __init__(self, variant="paper", n_variables=None, labels=None):
        self.variant = variant
        self.n_variables = n_variables
        self.labels = labels

    def _value(self, v):
        """The value of code ``v``: None (NaN), :data:`UNSEEN_VALUE` (< 0), else its label
        (as str) or, without labels, the code (int)."""
        if np.isnan(v):
            return None
        if v < 0:
            return UNSEEN_VALUE
        return str(self.labels[int(v)]) if self.labels is not None else int(v)

    def _atoms(self, x):
        """The codes factorized (atoms: distinct code values, in the order of their first row)
        and the key of each atom's value (:meth:`MODLGrouper.fit_atoms`)."""
        x = np.asarray(x, dtype=np.float64).ravel()
        atoms, first = _factorize(x)
        return atoms, [_key(self._value(v)) for v in x[first]]

    def fit(self, x, y, n_classes):
        self.modl_ = MODLGrouper(self.variant, None, self.n_variables)
        y, n_classes = _class_index(y, n_classes)
        self.modl_.fit_atoms(*self._atoms(x), y, n_classes)
        self.n_parts_ = self.modl_.n_groups_
        return self

    def transform(self, x):
        return self.modl_.transform_atoms(*self._atoms(x))
