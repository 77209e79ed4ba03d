"""Naive Bayes with histogram attribute models (elovaara2008 §4): MDLh, MDLg and Shimazaki.

- :class:`MDLHistogramNaiveBayes` (``nb_mdlh``): per-class MDL-optimal histogram densities as
  P(x_k | y) (§4.1 "MDLh").
- :class:`MDLDiscretizedNaiveBayes` (``nb_mdlg``): one MDL histogram per attribute on all
  training data, its bins used as a discretization, then a discrete naive Bayes (§4.1 "MDLg").
- :class:`ShimazakiNaiveBayes` (``nb_shimazaki``): per-class Shimazaki–Shinomoto histogram
  densities (§4.2).

The estimators only choose the per-variable models; the histograms are in
:mod:`repro.preprocessing.histograms`. Class prior: the frequency N_j/N (eq. 4).
"""

from __future__ import annotations

from functools import partial

from repro.methods.core.base import WeightedNaiveBayes
from repro.methods.core.checks import check_choice, check_int
from repro.preprocessing.histograms import (
    NOMINALS,
    HistogramDensityModel,
    MDLPartition,
    NumericCodes,
    check_bound,
)
from repro.preprocessing.tables import laplace_log_table
from repro.preprocessing.variables import OUT_OF_RANGE, PartitionModel, laplace_category_model


def _laplace(counts, n_total, alpha=1.0):
    """(n_ij + α)/(n_j + α·I): the Laplace smoothing of elovaara2008 §4.2."""
    return laplace_log_table(counts, alpha)


class _HistogramNaiveBayes(WeightedNaiveBayes):
    """Shared parameters and checks; subclasses give the numeric model."""

    def __init__(self, *, nominal="numeric", max_bins=None, categorical_features="auto"):
        self.nominal = nominal
        self.max_bins = max_bins
        self.categorical_features = categorical_features

    def _check_params(self):
        check_choice("nominal", self.nominal, NOMINALS)
        check_int("max_bins", self.max_bins, 1, allow_none=True)

    def _numeric_model(self):
        raise NotImplementedError

    def _make_variable_model(self, k, nominal, n_categories):
        if not nominal:
            return self._numeric_model()
        if self.nominal == "numeric":
            return NumericCodes(self._numeric_model())
        return laplace_category_model(n_categories, 1.0)


def _candidate_report(variables) -> dict:
    """``fit_report_`` entries of the bound: ``mdl_candidates`` (per variable, the
    :func:`~repro.preprocessing.histograms.variable_models.candidate_summary` of each of its
    histograms, one per class for MDLh; [] for a variable without one) and the numeric
    ``mdl_bounded_variables`` (variables where the bound applied to some histogram) and
    ``mdl_max_distinct`` (largest V over the histograms)."""
    per_variable = []
    for model in variables:
        inner = getattr(model, "model", model)  # NumericCodes wraps the numeric model
        inner = getattr(inner, "partition", inner)  # PartitionModel wraps MDLPartition
        found = getattr(inner, "candidates_", None)
        if isinstance(found, dict):
            found = [found]
        per_variable.append([c for c in (found or []) if c is not None])
    summaries = [c for v in per_variable for c in v]
    return {
        "mdl_candidates": per_variable,
        "mdl_bounded_variables": sum(any(c["bounded"] for c in v) for v in per_variable),
        "mdl_max_distinct": max((c["n_distinct"] for c in summaries), default=0),
    }


class _ReportsCandidates:
    """The ``fit`` of the MDL classifiers: the bound's effect added to ``fit_report_``."""

    def fit(self, X, y):
        super().fit(X, y)
        self.fit_report_.update(_candidate_report(self.variables_))
        return self


class MDLHistogramNaiveBayes(_ReportsCandidates, _HistogramNaiveBayes):
    """MDLh of elovaara2008 §4.1: per-class MDL-optimal histogram densities.

    For each class and numeric attribute, the histogram minimising the NML stochastic
    complexity (Kontkanen & Myllymäki 2007; :func:`repro.preprocessing.histograms.mdl_histogram`)
    of the class's values, ε = half the smallest gap between them (eq. 16); bin masses with the
    Laplace +1 of §4.2, density = mass / bin length
    (:class:`~repro.preprocessing.histograms.HistogramDensityModel`). A value outside a class's
    histogram falls in an empty bin (``out_of_range``; never zero, never above a bin inside: the
    edge bin, often one ε-wide cell, would favour values beyond the range); missing values are
    ignored.

    Parameters
    ----------
    nominal : {"numeric", "categorical"}, default "numeric"
        "numeric": nominal attributes get their category codes 0..C−1 as values and an MDL
        histogram like any numeric attribute (the paper, §5.1); "categorical": one Laplace
        probability per category. An unseen category carries no information.
    max_bins : int ≥ 1 or None, default None
        Largest number of bins (None: no limit; the optimum is exact either way).
    cut_set_code : bool, default True
        Add Kontkanen & Myllymäki's (2007) cut-set code log binom(E, K−1), the description of
        which K − 1 of the E candidate cut points of eq. 11's grid are used, to the criterion of
        eqs. 14–15 (the paper defers to that reference for the criterion). False: eqs. 14–15
        alone, the earlier reading, under which ε = half the smallest gap (eq. 16) makes the
        finest histogram win on data at full float precision.
    out_of_range : {"column", "tail", "edge"}, default "column"
        A value outside a class's histogram [e_0, e_K], as EWB-10 and Shimazaki: "column", an
        empty bin, one Laplace pseudo-count spread over the column's training range (all
        classes), 1/((n_j + K_j)(max − min)); "tail", spread over the class's own histogram,
        1/((n_j + K_j)(e_K − e_0)) (the rule of MDLh before this parameter: with the cut-set
        code, autos' class of 3 cars gets a coarse narrow histogram, a high density far outside
        it, and wins most predictions, accuracy .247); "edge", the density of the nearest edge
        bin (often one ε-wide cell: the highest density of all).
    max_candidates : int ≥ 2, "auto" or None, default "auto"
        Bound on the candidate cut points of each MDL histogram search. The exact search (the
        paper's, Kontkanen & Myllymäki's) has E = 2(V − 1) candidates for V distinct values and
        costs up to O(E²) per histogram on smooth unrounded data (10⁵ values: minutes). When E
        exceeds the bound, only max_candidates // 2 gaps between distinct values, at the data's
        quantiles (the first and last gap kept), are searched, under the same criterion; the
        exact search whenever E is under it. None: always exact. "auto": exact while
        E ≤ 65,536 (every data set of the package's experiments, whose records it keeps), else
        a bound of 4096 (:data:`repro.preprocessing.histograms.mdl.MAX_CANDIDATES`, measured:
        10⁵ rows × 40 unrounded variables fit in 6 s on 2 cores, the exact search over 150 s;
        at 2048 the code length is within 0.25 % of the exact one on the catalog sets tested).
        ``fit_report_["mdl_candidates"]`` gives, per variable, the distinct values, exact and
        searched candidates and whether the bound applied;
        ``fit_report_["mdl_bounded_variables"]`` counts the bounded variables.
    categorical_features : "auto" or mask/indices/names

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> MDLHistogramNaiveBayes().fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(
        self,
        *,
        nominal="numeric",
        max_bins=None,
        cut_set_code=True,
        out_of_range="column",
        max_candidates="auto",
        categorical_features="auto",
    ):
        super().__init__(
            nominal=nominal, max_bins=max_bins, categorical_features=categorical_features
        )
        self.cut_set_code = cut_set_code
        self.out_of_range = out_of_range
        self.max_candidates = max_candidates

    def _check_params(self):
        super()._check_params()
        check_choice("cut_set_code", self.cut_set_code, (False, True))
        check_choice("out_of_range", self.out_of_range, OUT_OF_RANGE)
        check_bound(self.max_candidates)

    def _numeric_model(self):
        return HistogramDensityModel(
            "mdl", self.max_bins, bool(self.cut_set_code), self.out_of_range, self.max_candidates
        )


class MDLDiscretizedNaiveBayes(_ReportsCandidates, _HistogramNaiveBayes):
    """MDLg of elovaara2008 §4.1: MDL histograms of whole attributes as a discretization.

    Each numeric attribute is cut at the bins of the MDL-optimal histogram of all its training
    values (not per class); a value goes to the bin that holds it, values beyond the ends to the
    edge bins (:class:`~repro.preprocessing.histograms.MDLPartition`). The discrete naive Bayes
    of eq. 8 is then learnt on the bin indices. Probability estimator: eq. 8's frequency
    n_ij / n_j with the Laplace smoothing that §4.2 applies to every histogram's bin masses,
    P(bin i | j) = (n_ij + 1)/(n_j + I): the paper states no other estimator for MDLg, and the
    plain frequency gives probability 0 to a bin that a class never reached in training (a
    log-sum of −∞). Missing values are ignored. Parameters as
    :class:`MDLHistogramNaiveBayes`, without ``out_of_range``: the bins are the column's, not a
    class's, so no class has a range of its own to fall outside. A value inside the column's range
    in a bin that class j never reached gets the empty bin's (0 + 1)/(n_j + I); one beyond the
    column's training range goes to the edge bin for every class (the bins of a discretization cover
    the whole line).

    Parameters
    ----------
    nominal : {"numeric", "categorical"}, default "numeric"
        As :class:`MDLHistogramNaiveBayes`.
    max_bins : int ≥ 1 or None, default None
        Largest number of bins (None: no limit), as :class:`MDLHistogramNaiveBayes`.
    cut_set_code : bool, default True
        Add the cut-set code to the criterion, as :class:`MDLHistogramNaiveBayes`.
    max_candidates : int ≥ 2, "auto" or None, default "auto"
        Bound on the candidate cut points of the MDL search (None: the exact search), as
        :class:`MDLHistogramNaiveBayes`; recorded in ``fit_report_`` as there.
    categorical_features : "auto" or mask/indices/names
        Which columns are nominal (:class:`repro.methods.core.encoding.TabularEncoder`).
    """

    def __init__(
        self,
        *,
        nominal="numeric",
        max_bins=None,
        cut_set_code=True,
        max_candidates="auto",
        categorical_features="auto",
    ):
        super().__init__(
            nominal=nominal, max_bins=max_bins, categorical_features=categorical_features
        )
        self.cut_set_code = cut_set_code
        self.max_candidates = max_candidates

    def _check_params(self):
        super()._check_params()
        check_choice("cut_set_code", self.cut_set_code, (False, True))
        check_bound(self.max_candidates)

    def _numeric_model(self):
        return PartitionModel(
            MDLPartition(self.max_bins, bool(self.cut_set_code), self.max_candidates),
            partial(_laplace, alpha=1.0),
        )


class ShimazakiNaiveBayes(_HistogramNaiveBayes):
    """Shimazaki classifier of elovaara2008 §4.2: per-class equal-width histograms whose number
    of bins N minimises Shimazaki & Shinomoto's cost C(δ) = (2θ̄ − v)/δ²
    (:func:`repro.preprocessing.histograms.shimazaki_bins`), Laplace masses, density =
    mass / width.

    Parameters
    ----------
    nominal : {"numeric", "categorical"}, default "numeric"
        As :class:`MDLHistogramNaiveBayes`.
    max_bins : int ≥ 1, default 200
        Largest N tried (N is also at most n and no finer than the smallest gap between values).
    out_of_range : {"column", "tail", "edge"}, default "column"
        A value outside a class's histogram: "column", an empty bin's density, one Laplace
        pseudo-count spread over the column's training range (all classes; as MDLh); "tail", spread
        over the class's own histogram (MDLh's earlier rule); "edge", the density of the nearest
        edge bin (the earlier rule). With "tail" or "edge", a class with a narrow range (autos' 3
        cars of symboling −2, one bin each) gets a high density far outside it and wins almost every
        prediction.
    categorical_features : "auto" or mask/indices/names
    """

    def __init__(
        self, *, nominal="numeric", max_bins=200, out_of_range="column", categorical_features="auto"
    ):
        super().__init__(
            nominal=nominal, max_bins=max_bins, categorical_features=categorical_features
        )
        self.out_of_range = out_of_range

    def _check_params(self):
        check_choice("nominal", self.nominal, NOMINALS)
        check_int("max_bins", self.max_bins, 1)
        check_choice("out_of_range", self.out_of_range, OUT_OF_RANGE)

    def _numeric_model(self):
        return HistogramDensityModel("shimazaki", self.max_bins, out_of_range=self.out_of_range)
