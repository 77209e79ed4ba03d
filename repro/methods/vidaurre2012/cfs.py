"""Hall's correlation-based feature selection (CFS) as Weka 3.6 runs it: the pure pieces.

``weka.attributeSelection.CfsSubsetEval`` (Weka 3.6.14, revision 11851) with
``weka.attributeSelection.BestFirst -D 1 -N 5`` (revision 1.29), both read on the byte code of
Debian's ``weka.jar`` (the Java sources of those revisions agree), nominal class:

- Every numeric attribute is discretized by Fayyad–Irani MDL
  (:mod:`repro.preprocessing.mdl_discretization`, "better encoding" on); nominal attributes are
  used as they are.
- The correlation r_ab of two discrete attributes (the class included) is the symmetric
  uncertainty SU = 2·[H(a) + H(b) − H(a, b)] / [H(a) + H(b)] (:func:`symmetrical_uncertainty`) of
  their contingency table, after the counts of missing values are distributed
  (:func:`distribute_missing`; ``-M`` keeps missing as a value of its own). An SU equal to 0
  (within 1e-6) becomes 0 when the class is one of the two and **1** between two attributes
  (two unrelated attributes count as fully redundant). Correlations are stored as 32-bit floats,
  computed lazily the first time a subset needs them (:class:`CFSCorrelations`).
- merit(S) = Σ_{i∈S} r_ci / sqrt(k + 2·Σ_{i<j∈S} r_ij) (Hall 1998, eq. 4.1; :func:`cfs_merit`),
  0 for the empty set.
- Best-first forward search from the empty set (:func:`best_first_search`).
- The "locally predictive" post-processing, on by default in Weka 3.6 (``-L`` turns it off;
  :func:`add_locally_predictive`). When the search selects nothing (every merit 0), this step
  still adds the attribute with the highest class correlation (the first one if all are 0):
  Weka's CFS never returns an empty subset with its defaults.

:func:`cfs_select` runs the whole selection on discretized codes. Every sum is evaluated in
Weka's order and the correlations are rounded to float as Weka stores them, so that equal merits
and equal entropies tie exactly as in Weka and its tie rules (first index, first arrival) decide.
The one difference left is the logarithm: Java's ``Math.log`` and the C library's agree on all
but a handful of arguments (4 of the integers up to 200 000, by one unit in the last place),
which could only matter for a tie decided in the last bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from repro.preprocessing.mdl_discretization import ln_func, sequential_sum, weka_eq

#: ways of counting missing values in the contingency tables of CfsSubsetEval
MISSING_MODES = ("distribute", "separate")
#: a correlation not computed yet (``m_corr_matrix`` holds -999 for these)
_UNKNOWN = np.float32(-999.0)
#: BestFirst's improvement threshold in forward search: merit − best > 1e-5
BEST_FIRST_MIN_IMPROVEMENT = 1e-5


# ---------------------------------------------------------------------------------------------
# Symmetric uncertainty of a contingency table
# ---------------------------------------------------------------------------------------------
def symmetrical_uncertainty(table) -> float:
    """``weka.core.ContingencyTables.symmetricalUncertainty`` of a (rows × columns) count table.

    SU = 2·IG / (H_rows + H_cols) with IG = H_cols − H(cols | rows), all as Σ n ln n sums in
    Weka's order (column totals, then rows left to right); 0 when either marginal entropy is 0
    (within 1e-6 on the N·ln-scaled sums).
    """
    m = np.asarray(table, dtype=np.float64)
    col_sums = sequential_sum(m, axis=0)
    total = sequential_sum(col_sums)
    column_entropy = sequential_sum(ln_func(col_sums)) - ln_func(total)
    row_sums = sequential_sum(m, axis=1)
    cell_terms = sequential_sum(ln_func(m).ravel())
    row_terms = sequential_sum(ln_func(row_sums))
    conditional = cell_terms - row_terms
    row_entropy = row_terms - ln_func(total)
    gain = column_entropy - conditional
    if weka_eq(float(column_entropy), 0.0) or weka_eq(float(row_entropy), 0.0):
        return 0.0
    return float(2.0 * (gain / (column_entropy + row_entropy)))


def distribute_missing(counts, n_instances: float | None = None) -> np.ndarray:
    """CfsSubsetEval's default treatment of missing values in a contingency table.

    ``counts`` is (n_a + 1) × (n_b + 1) with the last row / column counting the missing values of
    a / b. Unless every instance misses a or b: the instances missing only a are spread over the
    rows in proportion to the row totals, those missing only b over the columns in proportion to
    the column totals, and those missing both over the cells in proportion to the cells' counts
    (with the original counts); the missing row and column become 0. Weka's order of
    operations is kept. Returns a new table.
    """
    c = np.array(counts, dtype=np.float64)
    orig = c.copy()
    n_a, n_b = c.shape[0] - 1, c.shape[1] - 1
    row_tot = orig.sum(axis=1)
    col_tot = orig.sum(axis=0)
    total = float(orig.sum()) if n_instances is None else float(n_instances)
    if not (row_tot[-1] < total and col_tot[-1] < total):
        return c
    total_missing = row_tot[-1] + col_tot[-1] - orig[-1, -1]
    if row_tot[-1] > 0:
        share = row_tot[:-1] / (total - row_tot[-1])
        for j in np.flatnonzero(c[-1, :n_b] > 0):
            c[:n_a, j] += share * c[-1, j]
            c[-1, j] = 0.0
    if col_tot[-1] > 0:
        share = col_tot[:-1] / (total - col_tot[-1])
        for i in np.flatnonzero(c[:n_a, -1] > 0):
            c[i, :n_b] += share * c[i, -1]
            c[i, -1] = 0.0
    if orig[-1, -1] > 0 and total_missing != total:
        c[:n_a, :n_b] += (orig[:n_a, :n_b] / (total - total_missing)) * orig[-1, -1]
        c[-1, -1] = 0.0
    return c


def contingency_with_missing(a, n_a: int, b, n_b: int) -> np.ndarray:
    """(n_a + 1) × (n_b + 1) counts of two code columns (codes < 0 = missing → last row/col)."""
    a = np.where(np.asarray(a) < 0, n_a, a).astype(np.int64)
    b = np.where(np.asarray(b) < 0, n_b, b).astype(np.int64)
    flat = np.bincount(a * (n_b + 1) + b, minlength=(n_a + 1) * (n_b + 1))
    return flat.reshape(n_a + 1, n_b + 1).astype(np.float64)


def cfs_correlation(
    a, n_a: int, b, n_b: int, involves_class: bool, missing: str = "distribute"
) -> np.float32:
    """``CfsSubsetEval.symmUncertCorr`` cast to float: the SU of codes ``a`` (rows) and ``b``.

    An SU within 1e-6 of 0 gives 0 if one of the two is the class, else 1.0.
    """
    table = contingency_with_missing(a, n_a, b, n_b)
    if missing == "distribute":
        table = distribute_missing(table, float(np.asarray(a).size))
    su = symmetrical_uncertainty(table)
    if weka_eq(su, 0.0):
        su = 0.0 if involves_class else 1.0
    return np.float32(su)


class CFSCorrelations:
    """The lazily filled correlation matrix of CfsSubsetEval (``m_corr_matrix``, floats).

    ``codes`` are the K discretized attributes (int, −1 = missing) with ``n_values`` values each;
    the class (``y``, J values) is attribute K. ``get(a, b)`` returns r_ab, computing it on first
    use with ``a`` as the rows of the table, as Weka does (the orientation changes the last bits
    of the sums; the cached float is then shared by (a, b) and (b, a)).
    """

    def __init__(self, codes: Sequence[np.ndarray], n_values, y, n_classes: int, missing: str):
        if missing not in MISSING_MODES:
            raise ValueError(f"missing must be one of {list(MISSING_MODES)}, got {missing!r}")
        self.columns = [np.asarray(c) for c in codes] + [np.asarray(y)]
        self.n_values = [int(v) for v in n_values] + [int(n_classes)]
        self.class_index = len(codes)
        self.missing = missing
        size = self.class_index + 1
        self.matrix = np.full((size, size), _UNKNOWN, dtype=np.float32)
        np.fill_diagonal(self.matrix, np.float32(1.0))
        self.n_computed = 0

    def get(self, a: int, b: int) -> np.float32:
        hi, lo = (a, b) if a > b else (b, a)
        value = self.matrix[hi, lo]
        if value == _UNKNOWN:
            involves = self.class_index in (a, b)
            value = cfs_correlation(
                self.columns[a],
                self.n_values[a],
                self.columns[b],
                self.n_values[b],
                involves,
                self.missing,
            )
            self.matrix[hi, lo] = value
            self.n_computed += 1
        return value

    def class_correlation(self, i: int) -> np.float32:
        return self.get(i, self.class_index)


# ---------------------------------------------------------------------------------------------
# Merit and search
# ---------------------------------------------------------------------------------------------
def cfs_merit(subset: Sequence[int], corr: CFSCorrelations) -> float:
    """``CfsSubsetEval.evaluateSubset``: Σ r_ci / sqrt(k + 2 Σ_{i<j} r_ij), 0 for k = 0.

    Sums run in Weka's order (attributes ascending; the denominator adds 1 for attribute i,
    then 2·r_ij for every selected j < i) on the float correlations widened to double.
    """
    s = sorted(int(i) for i in subset)
    if not s:
        return 0.0
    numerator = sequential_sum(np.array([float(corr.class_correlation(i)) for i in s]))
    terms = []
    for pos, i in enumerate(s):
        terms.append(1.0)
        terms.extend(2.0 * float(corr.get(i, j)) for j in s[:pos])
    denominator = float(sequential_sum(np.array(terms)))
    if denominator == 0.0:
        return 0.0
    return abs(float(numerator) / math.sqrt(abs(denominator)))


class BestFirstOpenList:
    """BestFirst's ``LinkedList2``: at most ``max_size`` (merit, subset) nodes, best first.

    A node goes before the first node of strictly lower merit (equal merits keep their order of
    arrival); when the list is full it drops the last node, and a node no better than the last
    one is not inserted.
    """

    def __init__(self, max_size: int):
        self.max_size = max_size
        self.nodes: list[tuple[float, frozenset]] = []

    def add(self, subset: frozenset, merit: float) -> None:
        nodes = self.nodes
        if not nodes:
            nodes.append((merit, subset))
            return
        if merit > nodes[0][0]:
            if len(nodes) == self.max_size:
                nodes.pop()
            nodes.insert(0, (merit, subset))
            return
        size = len(nodes)
        if size == self.max_size and merit <= nodes[-1][0]:
            return
        for i in range(size):
            if merit > nodes[i][0]:
                if size == self.max_size:
                    nodes.pop()
                nodes.insert(i, (merit, subset))
                return
        nodes.append((merit, subset))

    def pop_head(self) -> tuple[float, frozenset]:
        return self.nodes.pop(0)

    def __len__(self) -> int:
        return len(self.nodes)


@dataclass
class BestFirstResult:
    """Outcome of :func:`best_first_search`."""

    selected: list[int]
    merit: float
    n_evaluations: int
    n_expansions: int
    trace: list[dict] = field(default_factory=list)


def best_first_search(
    evaluate: Callable[[frozenset], float],
    n_features: int,
    max_stale: int = 5,
    cache_size: int = 1,
) -> BestFirstResult:
    """``weka.attributeSelection.BestFirst`` forward (``-D 1 -N max_stale -S cache_size``).

    From the empty set (merit ``evaluate(∅)``): take the head of the open list (at most
    ``max_stale`` nodes, :class:`BestFirstOpenList`) and evaluate every subset with one more
    attribute (ascending index); each child is put in the open list, and becomes the best subset
    when its merit exceeds the best by more than 1e-5. An expansion that finds no new best
    increments the stale count (reset by an improvement); the search stops after ``max_stale``
    consecutive stale expansions or when the list is empty.

    Weka's lookup cache: merits already evaluated are looked up instead of recomputed, and the
    child is put in the open list again all the same (so a list can hold duplicates). The cache
    is emptied when more than ``cache_size × (n_features + 1)`` subsets (Weka counts the class
    attribute) have been inserted since it was last emptied, so a subset may be evaluated twice.
    Returns the best subset (sorted indices), its merit, the number of evaluations (Weka's
    "Total number of subsets evaluated", the empty start not counted) and, per expansion, the
    expanded subset, its merit and the best merit after it.
    """
    best = frozenset()
    best_merit = float(evaluate(best))
    open_list = BestFirstOpenList(max_stale)
    open_list.add(best, best_merit)
    lookup: dict[frozenset, float] = {best: best_merit}
    limit = cache_size * (n_features + 1)
    inserted = 0
    n_evaluations = 0
    stale = 0
    trace = []
    while stale < max_stale:
        if not len(open_list):
            break
        head_merit, head = open_list.pop_head()
        improved = False
        for i in range(n_features):
            if i in head:
                continue
            child = head | {i}
            if child in lookup:
                merit = lookup[child]
            else:
                merit = float(evaluate(child))
                n_evaluations += 1
                if inserted > limit:
                    lookup = {}
                    inserted = 0
                lookup[child] = merit
                inserted += 1
            open_list.add(child, merit)
            if merit - best_merit > BEST_FIRST_MIN_IMPROVEMENT:
                improved = True
                stale = 0
                best_merit = merit
                best = child
        if not improved:
            stale += 1
        trace.append({"expanded": sorted(head), "merit": head_merit, "best_merit": best_merit})
    return BestFirstResult(sorted(best), best_merit, n_evaluations, len(trace), trace)


def add_locally_predictive(selected: Sequence[int], corr: CFSCorrelations) -> list[int]:
    """``CfsSubsetEval.addLocallyPredictive`` (threshold 0): the post-processing step.

    Repeatedly take the attribute not yet considered with the highest class correlation (ties:
    lowest index; attributes with r_c = 0 are considered too) and add it when no attribute of the
    growing selection is correlated with it more than it is with the class (r_ij > r_jc
    rejects it). With an empty selection the first candidate is always added. Returns the sorted
    selection.
    """
    group = set(int(i) for i in selected)
    considered = set(group)
    n_features = corr.class_index
    while True:
        best_value, candidate = -1.0, -1
        for i in range(n_features):
            if i in considered:
                continue
            value = float(corr.class_correlation(i))
            if value > best_value:
                best_value, candidate = value, i
        if candidate < 0:
            break
        considered.add(candidate)
        ok = all(float(corr.get(i, candidate)) <= best_value for i in sorted(group))
        if ok:
            group.add(candidate)
    return sorted(group)


@dataclass
class CFSResult:
    """Outcome of :func:`cfs_select`."""

    selected: list[int]
    search_selected: list[int]
    merit: float
    n_evaluations: int
    n_expansions: int
    correlations: np.ndarray
    trace: list[dict]


def cfs_select(
    codes: Sequence[np.ndarray],
    n_values: Sequence[int],
    y,
    n_classes: int,
    max_stale: int = 5,
    locally_predictive: bool = True,
    missing: str = "distribute",
    cache_size: int = 1,
) -> CFSResult:
    """CFS with best-first forward search on discrete attributes, as Weka 3.6 selects them.

    Parameters
    ----------
    codes : K arrays (n,) of value codes 0..n_values[k]−1, −1 = missing
    n_values : number of values of each attribute
    y : (n,) class indices 0..n_classes−1
    max_stale, cache_size : BestFirst's ``-N`` and ``-S``
    locally_predictive : CfsSubsetEval's default True (``-L`` = False)
    missing : "distribute" (default) or "separate" (``-M``)

    Returns a :class:`CFSResult`: ``selected`` (sorted, after the locally predictive step),
    ``search_selected`` (the best-first subset), its merit, the search statistics and the
    correlation matrix (lower triangle, the class last; NaN where never computed).
    """
    corr = CFSCorrelations(codes, n_values, y, n_classes, missing)
    n_features = len(codes)
    result = best_first_search(
        lambda subset: cfs_merit(subset, corr), n_features, max_stale, cache_size
    )
    selected = (
        add_locally_predictive(result.selected, corr)
        if locally_predictive
        else list(result.selected)
    )
    matrix = corr.matrix.astype(np.float64)
    matrix[corr.matrix == _UNKNOWN] = np.nan
    return CFSResult(
        selected=selected,
        search_selected=list(result.selected),
        merit=result.merit,
        n_evaluations=result.n_evaluations,
        n_expansions=result.n_expansions,
        correlations=matrix,
        trace=result.trace,
    )
