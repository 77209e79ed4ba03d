"""Fayyad–Irani MDL discretization of a numeric variable, as Weka 3.6 computes it.

Fayyad & Irani (1993), "Multi-interval discretization of continuous-valued attributes for
classification learning" (IJCAI), in the variant of ``weka.filters.supervised.attribute.Discretize``
(Weka 3.6.14, revision 9090, read on its byte code), which ``weka.attributeSelection.CfsSubsetEval``
applies to every numeric attribute before computing symmetric uncertainties (with
``setUseBetterEncoding(true)``).

The cut points of one attribute (``calculateCutPointsByMDL`` and ``cutPointsForSubset``):

1. The instances are sorted by value; instances with a missing value are left out (they sort last
   and the search runs on the instances before the first missing one). Missing values stay
   missing after discretization.
2. On a subset of the sorted instances (first → last): a subset of fewer than 2 instances is
   not split. The candidate cuts are the boundaries between two consecutive *distinct* values,
   at the midpoint ``(v_i + v_{i+1}) / 2``. Each candidate is scored by the class entropy
   conditioned on the two sides (:func:`conditional_entropy`); the best is the first candidate
   (smallest value) whose entropy is strictly below every earlier one (``<``: ties go to the
   leftmost cut) and strictly below the entropy of the subset itself.
3. The gain ``H(S) − H(S | cut)`` must be > 0, and the MDL criterion must accept the split
   (:func:`fayyad_irani_accepts`)::

       gain > ( log2(n_cuts) + log2(3^k − 2) − [k·H(S) − k1·H(S1) − k2·H(S2)] ) / N

   where N = instances of the subset, k, k1, k2 = classes present in S and in each side, and
   ``n_cuts`` = the number of candidate boundaries of the subset (Weka's "better encoding";
   the filter's own default, not used by CFS, is N − 1).
4. If accepted, both sides are split recursively (left side first); the cut points are returned
   sorted.

Entropies are in bits, evaluated with Weka's own formulas and in its order of floating-point
operations (``weka.core.ContingencyTables.entropy`` / ``entropyConditionedOnRows``:
Σ n·ln n terms accumulated left to right, then divided by N·ln 2), so that equal entropies tie
exactly as they do in Weka. The interval of a value is as ``Discretize.convertInstance``:
value v goes to the first interval i with v ≤ cut_i (right-closed intervals,
:func:`repro.preprocessing.binning.interval_codes`).
"""

from __future__ import annotations

import math

import numpy as np

from repro.preprocessing.binning import interval_codes
from repro.preprocessing.variables import Partition

#: ln 2, the ``log2`` constant of ``weka.core.ContingencyTables`` and ``weka.core.Utils``
LN2 = math.log(2.0)
#: ``weka.core.Utils.SMALL``: the tolerance of ``Utils.eq``
WEKA_SMALL = 1e-6


def weka_eq(a: float, b: float) -> bool:
    """``weka.core.Utils.eq``: a == b, or |a − b| < 1e-6."""
    return a == b or ((a - b) < WEKA_SMALL and (b - a) < WEKA_SMALL)


def ln_func(x):
    """``ContingencyTables.lnFunc``: x·ln x for x > 0, else 0 (elementwise on arrays)."""
    x = np.asarray(x, dtype=np.float64)
    positive = x > 0
    return np.where(positive, x * np.log(np.where(positive, x, 1.0)), 0.0)


def sequential_sum(values: np.ndarray, axis: int = -1) -> np.ndarray:
    """Left-to-right sum along ``axis`` (Java's loop order; ``np.sum`` sums pairwise)."""
    values = np.asarray(values, dtype=np.float64)
    if values.shape[axis] == 0:
        return np.sum(values, axis=axis)
    return np.take(np.cumsum(values, axis=axis), -1, axis=axis)


def entropy(counts) -> np.ndarray:
    """``ContingencyTables.entropy`` (bits) of class counts, one distribution per row.

    H = (−Σ_c n_c ln n_c + N ln N) / (N ln 2), accumulated left to right; 0 when N ≈ 0.
    ``counts``: (J,) or (m, J); returns a float or an (m,) array.
    """
    counts = np.asarray(counts, dtype=np.float64)
    terms = ln_func(counts)
    acc = np.zeros(counts.shape[:-1])
    total = np.zeros(counts.shape[:-1])
    for c in range(counts.shape[-1]):
        acc = acc - terms[..., c]
        total = total + counts[..., c]
    empty = np.abs(total) < WEKA_SMALL
    safe = np.where(empty, 1.0, total)
    out = np.where(empty, 0.0, (acc + ln_func(total)) / (safe * LN2))
    return out if out.ndim else float(out)


def conditional_entropy(left, right) -> np.ndarray:
    """``ContingencyTables.entropyConditionedOnRows`` (bits) of the 2-row tables [left; right].

    H(class | side) = −(Σ n ln n over the cells of row 1 − n1 ln n1 + … of row 2 − n2 ln n2)
    / (N ln 2), in Weka's order. ``left``, ``right``: (J,) or (m, J) (one candidate per row).
    """
    left = np.asarray(left, dtype=np.float64)
    right = np.asarray(right, dtype=np.float64)
    acc = np.zeros(left.shape[:-1])
    total = np.zeros(left.shape[:-1])
    for row in (left, right):
        terms = ln_func(row)
        row_sum = np.zeros(row.shape[:-1])
        for c in range(row.shape[-1]):
            acc = acc + terms[..., c]
            row_sum = row_sum + row[..., c]
        acc = acc - ln_func(row_sum)
        total = total + row_sum
    empty = np.abs(total) < WEKA_SMALL
    safe = np.where(empty, 1.0, total)
    out = np.where(empty, 0.0, -acc / (safe * LN2))
    return out if out.ndim else float(out)


def fayyad_irani_accepts(prior_counts, left, right, n_instances: float, n_cut_points: int) -> bool:
    """The MDL stopping criterion (``Discretize.FayyadAndIranisMDL``): True if the split is kept.

    gain = H(S) − H(S | cut); delta = log2(3^k − 2) − (k·H(S) − k_right·H(S_right)
    − k_left·H(S_left)); accept when gain > (log2(n_cut_points) + delta) / N, with k, k_left,
    k_right the numbers of classes with a positive count in S and in each side.
    """
    prior_counts = np.asarray(prior_counts, dtype=np.float64)
    left = np.asarray(left, dtype=np.float64)
    right = np.asarray(right, dtype=np.float64)
    prior_entropy = entropy(prior_counts)
    gain = prior_entropy - conditional_entropy(left, right)
    k = int(np.count_nonzero(prior_counts > 0))
    k_left = int(np.count_nonzero(left > 0))
    k_right = int(np.count_nonzero(right > 0))
    delta = math.log(3.0**k - 2.0) / LN2 - (
        k * prior_entropy - k_right * entropy(right) - k_left * entropy(left)
    )
    return bool(gain > (math.log(n_cut_points) / LN2 + delta) / n_instances)


def _subset_cut_points(values, y_onehot, first, last, better_encoding, out):
    """``cutPointsForSubset`` on the sorted instances [first, last); appends cuts to ``out``."""
    if last - first < 2:
        return
    block = y_onehot[first:last]
    prior = block.sum(axis=0)
    left = np.cumsum(block, axis=0)[:-1]  # left counts after instance i (i = first..last-2)
    right = prior[None, :] - left
    v = values[first:last]
    boundary = np.flatnonzero(v[:-1] < v[1:])
    prior_entropy = entropy(prior)
    n_cut_points = boundary.size if better_encoding else (last - first) - 1
    if boundary.size == 0:
        return
    scores = np.atleast_1d(conditional_entropy(left[boundary], right[boundary]))
    best = int(np.argmin(scores))  # the first of equal minima: Weka keeps a cut only if "<"
    if not scores[best] < prior_entropy:
        return
    if prior_entropy - scores[best] <= 0:
        return
    i = int(boundary[best])
    n_instances = float(last - first)
    if not fayyad_irani_accepts(prior, left[i], right[i], n_instances, n_cut_points):
        return
    cut = (v[i] + v[i + 1]) / 2.0
    _subset_cut_points(values, y_onehot, first, first + i + 1, better_encoding, out)
    out.append(cut)
    _subset_cut_points(values, y_onehot, first + i + 1, last, better_encoding, out)


def mdl_cut_points(x, y, n_classes: int, better_encoding: bool = True) -> np.ndarray:
    """Sorted cut points of Weka's Fayyad–Irani MDL discretization of one numeric variable.

    Parameters
    ----------
    x : array (n,) of float, NaN = missing (left out of the search)
    y : array (n,) of class indices 0..n_classes−1
    n_classes : int
    better_encoding : bool, default True
        The number of possible cut points in the MDL criterion: the candidate boundaries of the
        subset (True, ``-E``, as CfsSubsetEval sets it) or N − 1 (False, the filter's default).
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length, got {x.shape} and {y.shape}")
    observed = ~np.isnan(x)
    order = np.argsort(x[observed], kind="stable")
    values = x[observed][order]
    y_onehot = np.zeros((values.size, max(int(n_classes), 1)))
    y_onehot[np.arange(values.size), y[observed][order]] = 1.0
    cuts: list[float] = []
    _subset_cut_points(values, y_onehot, 0, values.size, better_encoding, cuts)
    return np.asarray(cuts, dtype=np.float64)


class MDLPartition(Partition):
    """Weka's Fayyad–Irani MDL intervals (:func:`mdl_cut_points`) of a numeric variable.

    A variable without an accepted cut has one part (Weka's single interval "'All'").
    """

    def __init__(self, better_encoding: bool = True):
        self.better_encoding = better_encoding

    def fit(self, x, y, n_classes):
        self.cuts_ = mdl_cut_points(x, y, n_classes, self.better_encoding)
        self.n_parts_ = self.cuts_.size + 1
        return self

    def transform(self, x):
        return interval_codes(x, self.cuts_)
