"""CFS+NB of vidaurre2012 §7: naive Bayes on the variables that Hall's CFS selects.

vidaurre2012 compares its methods with "NB on a subset of predictors, selected by (prefiltering)
correlation-based feature selection [Hall]", without further detail; the usual tool, and the
one reproduced here, is Weka's ``CfsSubsetEval`` with ``BestFirst`` at their default options
(Weka 3.6). The selection is :func:`repro.methods.vidaurre2012.cfs.cfs_select` on the training data:
numeric variables discretized by Weka's Fayyad–Irani MDL
(:mod:`repro.preprocessing.mdl_discretization`), nominal ones as they are; symmetric
uncertainties with Weka's treatment of missing values; best-first forward search stopping after
5 non-improving expansions; then the locally predictive attributes. The selected subset is the
one Weka prints (tests/methods/test_cfs_nb.py compares them on bundled data sets).

The naive Bayes is the repo's :class:`~repro.methods.plain.nb.GaussianNaiveBayes`, with the
per-variable
models of vidaurre2012 §2 as the paper's other methods build them: a class-conditional table for
a discrete variable, a per-class Gaussian N(μ_j, σ_j²) for a continuous one (the MLE, ``ddof=0``),
and the class prior N_j/N (eq. 4), fitted on the original (undiscretized) variables; CFS only
decides which of them get weight 1. With the defaults (``ddof=0``, ``alpha=1``) these are the
models of :mod:`repro.preprocessing.interpolation` at α = 1 (fsNB and L1/L2-NB with a predictor
fully in): the same probabilities. The paper's tables are the MLE θ_ijk = N_ijk/N_j (α → 0);
α must stay > 0 so that a value never seen with a class keeps a finite log-probability.
Missing values are left out of the NB's estimates and carry no information at predict time.
"""

from __future__ import annotations

import time

import numpy as np

from repro.methods.core.checks import check_choice, check_int
from repro.methods.plain.nb import GaussianNaiveBayes
from repro.methods.vidaurre2012.cfs import MISSING_MODES, cfs_select
from repro.preprocessing.mdl_discretization import MDLPartition


class CFSNaiveBayes(GaussianNaiveBayes):
    """CFS+NB: Hall's correlation-based feature selection (Weka 3.6 defaults), then NB.

    Parameters
    ----------
    max_stale : int ≥ 1, default 5
        BestFirst's ``-N``: consecutive non-improving node expansions before the search stops.
    locally_predictive : bool, default True
        CfsSubsetEval's default: after the search, add the attributes whose correlation with the
        class is at least their correlation with every selected attribute (``-L`` = False).
    missing : {"distribute", "separate"}, default "distribute"
        CfsSubsetEval's default spreads the counts of missing values over the observed values in
        proportion to their frequencies; "separate" (``-M``) counts "missing" as a value.
    lookup_cache_size : int ≥ 0, default 1
        BestFirst's ``-S``: the cache of evaluated subsets is emptied after more than
        ``lookup_cache_size × (K + 1)`` insertions.
    ddof : {0, 1}, default 0
        Variance denominator of the Gaussians (0: the MLE of the paper).
    var_smoothing, alpha, categorical_features :
        The naive Bayes, as :class:`~repro.methods.plain.nb.GaussianNaiveBayes` (defaults 1e-9, 1).

    Attributes
    ----------
    weights_ : ndarray (K,) of 0/1, selected_, n_selected_features_
    cut_points_ : list of the MDL cut points of each numeric variable (None for nominal ones)
    fit_report_ : dict
        ``merit`` (of the best-first subset), ``search_selected`` (that subset),
        ``locally_predictive_added``, ``selected``, ``n_evaluations`` (Weka's "Total number of
        subsets evaluated"), ``n_expansions``, ``trace`` (per expansion: the expanded subset,
        its merit, the best merit), ``class_correlations`` (r_ci, NaN where never computed),
        ``n_intervals`` (per variable, after discretization) and timings.

    Examples
    --------
    >>> from repro import load_dataset
    >>> d = load_dataset("iris")
    >>> CFSNaiveBayes().fit(d.X, d.y).fit_report_["selected"]
    [2, 3]
    """

    def __init__(
        self,
        *,
        max_stale=5,
        locally_predictive=True,
        missing="distribute",
        lookup_cache_size=1,
        ddof=0,
        var_smoothing=1e-9,
        alpha=1.0,
        categorical_features="auto",
    ):
        self.max_stale = max_stale
        self.locally_predictive = locally_predictive
        self.missing = missing
        self.lookup_cache_size = lookup_cache_size
        super().__init__(
            ddof=ddof,
            var_smoothing=var_smoothing,
            alpha=alpha,
            categorical_features=categorical_features,
        )

    def _check_params(self):
        super()._check_params()
        check_int("max_stale", self.max_stale, 1)
        check_choice("locally_predictive", self.locally_predictive, (True, False))
        check_choice("missing", self.missing, MISSING_MODES)
        check_int("lookup_cache_size", self.lookup_cache_size, 0)

    def _discretized(self, Z, y):
        """(codes, n_values, cut points) of every column: MDL intervals or nominal codes."""
        n_classes = self.classes_.size
        codes, n_values, cuts = [], [], []
        for k in range(Z.shape[1]):
            column = Z[:, k]
            if self.encoder_.categorical_[k]:
                codes.append(np.where(np.isnan(column), -1, column).astype(np.int64))
                n_values.append(len(self.encoder_.categories_[k]))
                cuts.append(None)
            else:
                partition = MDLPartition().fit(column, y, n_classes)
                codes.append(partition.transform(column))
                n_values.append(partition.n_parts_)
                cuts.append(partition.cuts_.tolist())
        return codes, n_values, cuts

    def _fit_weights(self, Z, y):
        start = time.perf_counter()
        codes, n_values, cuts = self._discretized(Z, y)
        discretized = time.perf_counter()
        result = cfs_select(
            codes,
            n_values,
            y,
            self.classes_.size,
            max_stale=self.max_stale,
            locally_predictive=bool(self.locally_predictive),
            missing=self.missing,
            cache_size=self.lookup_cache_size,
        )
        self.cut_points_ = cuts
        self.fit_report_.update(
            merit=result.merit,
            search_selected=result.search_selected,
            locally_predictive_added=sorted(set(result.selected) - set(result.search_selected)),
            selected=result.selected,
            n_evaluations=result.n_evaluations,
            n_expansions=result.n_expansions,
            trace=result.trace,
            class_correlations=result.correlations[-1, :-1].tolist(),
            n_intervals=[int(v) for v in n_values],
            discretization_time=discretized - start,
            search_time=time.perf_counter() - discretized,
        )
        weights = np.zeros(Z.shape[1])
        weights[result.selected] = 1.0
        return weights
