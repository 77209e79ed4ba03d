"""The per-variable models of elovaara2008's naive Bayes estimators, built on the histograms:
per-class histogram densities (MDLh, Shimazaki), the bins of one MDL histogram of a column as a
discretization (MDLg), and nominal columns read as numbers (§5.1).
"""

from __future__ import annotations

import numpy as np

from repro.preprocessing.binning import EDGE_TOLERANCE
from repro.preprocessing.histograms.mdl import mdl_histogram
from repro.preprocessing.histograms.shimazaki import shimazaki_bins
from repro.preprocessing.variables import Partition, VariableModel

#: histogram builders of :class:`HistogramDensityModel`
HISTOGRAMS = ("mdl", "shimazaki")


def histogram_edges(
    x: np.ndarray, kind: str, max_bins, cut_set_code: bool = False, max_candidates=None
) -> np.ndarray:
    """Bin edges of the ``kind`` histogram of the values ``x`` (≥ 2 distinct values)."""
    if kind == "mdl":
        return mdl_histogram(x, max_bins, cut_set_code, max_candidates=max_candidates).edges
    n_bins = shimazaki_bins(x, max_bins)
    return np.linspace(np.min(x), np.max(x), n_bins + 1)


def candidate_summary(hist) -> dict:
    """What the ``max_candidates`` bound did to one MDL histogram: distinct values V, exact
    candidates E = 2(V − 1), candidates searched, whether the bound applied."""
    return {
        "n_distinct": int(hist.n_distinct),
        "n_exact_candidates": 2 * (int(hist.n_distinct) - 1),
        "n_candidates": int(hist.n_candidates),
        "bounded": bool(hist.bounded),
    }


class HistogramDensityModel(VariableModel):
    """Per-class histogram density of a numeric variable (MDLh and Shimazaki of elovaara2008).

    For class j, the ``kind`` histogram of its training values; Laplace masses
    (h_k + 1)/(n_j + K_j) (elovaara2008 §4.2: every bin count incremented by one), density =
    mass / L_k, so that no bin inside the range has density zero. A class with one distinct value
    gets one bin centred on it with the width 2ε of the whole column (the smallest gap between
    its distinct values; 1 for a constant column); a class without values a uniform density over
    the column's range. Missing values carry no information (zero row), and a constant column is
    not informative.

    ``out_of_range``, for a value outside the class's histogram [e_0, e_K]:
    "edge": the density of the nearest edge bin (EWB-10's earlier rule, whose edge bins
    are a tenth of the range); "tail": the value falls in an empty bin, one Laplace pseudo-count
    spread over the histogram's length, 1/((n_j + K_j)(e_K − e_0)), never zero and never above the
    density of a bin inside; "column": the pseudo-count spread over the column's training range
    (all classes), 1/((n_j + K_j)(max − min)), so that a class whose own range is narrow does not
    get a high density far from it (the default of Shimazaki and MDLh; autos' class of 3 cars
    otherwise wins almost every prediction; "tail" was MDLh's earlier rule). An MDL histogram's
    edge bin is often one ε-wide cell around the extreme value (ε = half the smallest gap), so
    "edge" would give values beyond the range the highest density of all.

    ``max_candidates``: the MDL search's bound on candidate cuts (:func:`mdl_histogram`);
    ``candidates_`` (kind "mdl"): per class, :func:`candidate_summary` of its histogram (None
    for a class with fewer than two distinct values).
    """

    def __init__(
        self,
        kind: str = "mdl",
        max_bins=None,
        cut_set_code: bool = False,
        out_of_range: str = "tail",
        max_candidates=None,
    ):
        self.kind = kind
        self.max_bins = max_bins
        self.cut_set_code = cut_set_code
        self.out_of_range = out_of_range
        self.max_candidates = max_candidates

    def fit(self, x, y, n_classes):
        observed = ~np.isnan(x)
        xo, yo = x[observed], np.asarray(y)[observed]
        distinct = np.unique(xo)
        width = float(np.min(np.diff(distinct))) if distinct.size > 1 else 1.0
        self.edges_, self.log_density_ = [], []
        self.log_tail_ = np.zeros(n_classes)
        self.candidates_ = [None] * n_classes
        for j in range(n_classes):
            v = xo[yo == j]
            vals = np.unique(v)
            if vals.size >= 2 and self.kind == "mdl":
                hist = mdl_histogram(
                    v, self.max_bins, self.cut_set_code, max_candidates=self.max_candidates
                )
                edges = hist.edges
                self.candidates_[j] = candidate_summary(hist)
            elif vals.size >= 2:
                edges = histogram_edges(v, self.kind, self.max_bins, self.cut_set_code)
            elif vals.size == 1:
                edges = np.array([vals[0] - width / 2, vals[0] + width / 2])
            elif distinct.size:
                edges = np.array([distinct[0] - width / 2, distinct[-1] + width / 2])
            else:
                edges = np.array([0.0, 1.0])
            k = edges.size - 1
            counts = np.bincount(self._bins(v, edges), minlength=k).astype(np.float64)
            mass = (counts + 1.0) / (v.size + k)
            self.edges_.append(edges)
            self.log_density_.append(np.log(mass) - np.log(np.diff(edges)))
            length = edges[-1] - edges[0]
            if self.out_of_range == "column" and distinct.size > 1:
                length = distinct[-1] - distinct[0]
            self.log_tail_[j] = -np.log(v.size + k) - np.log(length)
        self.informative_ = distinct.size > 1
        return self

    @staticmethod
    def _bins(v, edges):
        """Bin of each value; a value within EDGE_TOLERANCE of a bin width below an inner edge
        belongs to the bin the edge opens (Shimazaki's equal bins: as the scan counted them)."""
        inner = edges[1:-1] - EDGE_TOLERANCE * np.diff(edges)[1:]
        return np.searchsorted(inner, v, side="right")

    @property
    def n_bins_(self) -> np.ndarray:
        return np.array([e.size - 1 for e in self.edges_])

    def log_likelihood(self, x):
        ll = np.zeros((x.size, len(self.edges_)))
        if not self.informative_:
            return ll
        observed = ~np.isnan(x)
        xo = x[observed]
        for j, (edges, logd) in enumerate(zip(self.edges_, self.log_density_)):
            col = logd[self._bins(xo, edges)]
            if self.out_of_range != "edge":
                col[(xo < edges[0]) | (xo > edges[-1])] = self.log_tail_[j]
            ll[observed, j] = col
        return ll


class MDLPartition(Partition):
    """The bins of the MDL histogram of a whole column as a discretization (MDLg of elovaara2008
    §4.1): a value goes to the bin that holds it; values beyond the histogram's ends go to the
    edge bins. The cuts lie strictly between distinct training values. ``max_candidates``: the
    search's bound on candidate cuts (:func:`mdl_histogram`); ``candidates_``:
    :func:`candidate_summary` of the histogram (None for fewer than two distinct values)."""

    def __init__(self, max_bins=None, cut_set_code: bool = False, max_candidates=None):
        self.max_bins = max_bins
        self.cut_set_code = cut_set_code
        self.max_candidates = max_candidates

    def fit(self, x, y, n_classes):
        xo = x[~np.isnan(x)]
        self.candidates_ = None
        if np.unique(xo).size < 2:
            self.cuts_ = np.empty(0)
        else:
            hist = mdl_histogram(
                xo, self.max_bins, self.cut_set_code, max_candidates=self.max_candidates
            )
            self.cuts_ = hist.edges[1:-1]
            self.candidates_ = candidate_summary(hist)
        self.n_parts_ = self.cuts_.size + 1
        return self

    def transform(self, x):
        codes = np.searchsorted(self.cuts_, x, side="right").astype(np.int64)
        codes[np.isnan(x)] = -1
        return codes


#: how a histogram-based naive Bayes treats nominal columns: as numbers (elovaara2008 §5.1) or
#: with one Laplace-estimated probability per category
NOMINALS = ("numeric", "categorical")


class NumericCodes(VariableModel):
    """A numeric variable model applied to a nominal column's category codes 0..C−1: elovaara2008
    §5.1 gives nominal values "arbitrary non-overlapping numerical values" and handles them as
    numbers. A category unseen at fit time (code −1) carries no information, like a missing
    value."""

    def __init__(self, model: VariableModel):
        self.model = model

    @staticmethod
    def _values(x):
        return np.where(x < 0, np.nan, x)

    def fit(self, x, y, n_classes):
        self.model.fit(self._values(x), y, n_classes)
        self.informative_ = self.model.informative_
        return self

    def log_likelihood(self, x):
        return self.model.log_likelihood(self._values(x))
