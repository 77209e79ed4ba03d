"""Public MODL estimators: :class:`MODLDiscretizer` (numeric) and :class:`MODLGrouper` (nominal).

``variant="paper"``: the 2006 discretization / 2005 grouping criteria (SPEC §3.1, §3.2);
``variant="khiops"``: the Khiops ≥ 10 criteria and heuristics (SPEC §3.3,
:mod:`repro.preprocessing.modl.khiops`).

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

    @staticmethod
    def _keys(x):
        keys = np.empty(len(x), dtype=object)  # filled one by one: np.array() of equal tuples
        for i, v in enumerate(x):  # (the unseen-category key) would make a 2-D array
            keys[i] = "\x00<missing>" if _is_missing(v) else v
        return keys

    def fit(self, x, y, n_classes=None):
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        y, n_classes = _class_index(y, n_classes)
        keys = self._keys(x)
        labels = {}
        codes = np.empty(keys.size, dtype=np.int64)
        for i, k in enumerate(keys):
            codes[i] = labels.setdefault(k, len(labels))
        names = list(labels)
        counts = np.zeros((len(names), n_classes))
        np.add.at(counts, (codes, y), 1.0)
        freqs = counts.sum(axis=1)
        # sort values by decreasing frequency, then by label
        order = sorted(range(len(names)), key=lambda i: (-freqs[i], str(names[i])))
        counts = counts[order]
        names = [names[i] for i in order]
        int(counts.sum())
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
        keys = self._keys(x)
        return np.array([self.group_of_.get(k, self.default_group_) for k in keys], dtype=np.int64)


def _is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _unkey(k):
    return np.nan if k == "\x00<missing>" else k


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

    def _values(self, x):
        x = np.asarray(x, dtype=np.float64)
        out = np.empty(x.size, dtype=object)
        labels = self.labels
        for i, v in enumerate(x):
            if np.isnan(v):
                out[i] = None
            elif v < 0:
                out[i] = ("\x01<unseen>",)
            else:
                out[i] = str(labels[int(v)]) if labels is not None else int(v)
        return out

    def fit(self, x, y, n_classes):
        self.modl_ = MODLGrouper(self.variant, None, self.n_variables)
        self.modl_.fit(self._values(x), y, n_classes)
        self.n_parts_ = self.modl_.n_groups_
        return self

    def transform(self, x):
        return self.modl_.transform(self._values(x))
