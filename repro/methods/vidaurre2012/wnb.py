"""``wnb``: the weighted NB of Ferreira, Denison & Hand (2001), as vidaurre2012 §3.1 uses it.

    w_i = sqrt( Σ_{j=1..J} Σ_{k=1..M_i} [P(Y = j | X_i = k) − P(Y = j)]² )            (eq. 6)
    P(Y = j | x) ∝ π_j · Π_i P(X_i = x_i | Y = j)^{w_i}                                  (eq. 7)

The sum over the states k of X_i is unweighted, as eq. (6) is printed (no P(X_i = k) factor), and
the weights may exceed 1 (at most sqrt(2·M_i)). The method "is conceived only for discrete
predictors" (§3.1, §8): numeric predictors are discretised first.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from repro.methods.core.base import WeightedNaiveBayes
from repro.methods.core.checks import check_choice, check_int, check_real
from repro.preprocessing.modl.estimators import MODLIntervalPartition
from repro.preprocessing.tables import laplace_log_table
from repro.preprocessing.variables import (
    CategoryPartition,
    EqualFrequencyPartition,
    PartitionModel,
)

#: discretizers of the numeric predictors
DISCRETIZERS = ("modl", "equal_frequency")


def fdh_weight(counts) -> float:
    """Ferreira–Denison–Hand weight of a predictor from its contingency table (eq. 6).

    ``counts`` (M × J): n_kj, the training instances with X_i = k and Y = j (observed values).
    P(Y = j | X_i = k) = n_kj/n_k and P(Y = j) = N_j/N are the frequencies over the instances where
    X_i is observed (missing values ignored, as in the tables); states with n_k = 0 (a category
    never seen in training) have no P(Y | X_i = k) and are left out of the sum.
    """
    counts = np.asarray(counts, dtype=np.float64)
    n_k = counts.sum(axis=1)
    total = n_k.sum()
    if total == 0:
        return 0.0
    seen = n_k > 0
    posterior = counts[seen] / n_k[seen, None]
    prior = counts.sum(axis=0) / total
    return float(np.sqrt(np.sum((posterior - prior[None, :]) ** 2)))


class ObservedMODLPartition(MODLIntervalPartition):
    """MODL discretization (2006 criterion) of the observed values; missing values carry no
    information (code −1), instead of joining the first interval."""

    def fit(self, x, y, n_classes):
        observed = ~np.isnan(x)
        if not observed.any():  # nothing to discretise: one part, never used
            self.modl_, self.n_parts_ = None, 1
            return self
        return super().fit(x[observed], np.asarray(y)[observed], n_classes)

    def transform(self, x):
        codes = np.zeros(x.size, dtype=np.int64) if self.modl_ is None else super().transform(x)
        codes[np.isnan(x)] = -1
        return codes


def laplace_table(counts, n_total, alpha):
    """Estimator of :class:`PartitionModel`: the Laplace table (n_kj + a)/(N_j + a·M)."""
    return laplace_log_table(counts, alpha)


class FerreiraWeightedNaiveBayes(WeightedNaiveBayes):
    """Weighted naive Bayes (WNB) of Ferreira, Denison & Hand, with the weights of eq. (6).

    Nominal predictors keep their categories; numeric ones are discretised, by default with the
    MODL discretization (2006 criterion) of the observed values. Why MODL: eq. (6)
    sums over the states without weighting them, so a weight grows with the number of bins of
    an unsupervised discretization even for an irrelevant predictor (sampling noise of every
    bin adds up: 10 equal-frequency bins give noise predictors weights of order
    sqrt(10·(J−1)/(N/10))), while MODL, the supervised discretization of the package, puts an
    irrelevant predictor in one interval (weight 0 exactly) and a relevant one in few intervals
    with well-estimated frequencies. ``discretizer="equal_frequency"`` (``n_bins`` intervals)
    is the unsupervised alternative. Tables P(X_i = k | Y = j) use the Laplace estimate
    (n_kj + a)/(N_j + a·M); missing values carry no information.

    Parameters
    ----------
    discretizer : {"modl", "equal_frequency"}, default "modl"
    n_bins : int ≥ 1, default 10
        Intervals of ``discretizer="equal_frequency"``.
    alpha : float > 0, default 1.0
        Pseudo-count a of the tables (the weights use the plain frequencies of eq. 6).
    categorical_features : "auto" or mask/indices/names

    Attributes
    ----------
    weights_ : ndarray (K,), w_i ≥ 0 of eq. (6) (may exceed 1)
    selected_ : w_i > 0; n_selected_features_ : int
    fit_report_ : dict with ``weights`` and ``n_parts`` per predictor

    References
    ----------
    J.T.A.S. Ferreira, D.G.T. Denison, D.J. Hand. Data mining with products of trees. Advances
    in Intelligent Data Analysis, LNCS 2189, 167–176, 2001.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> FerreiraWeightedNaiveBayes().fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(self, *, discretizer="modl", n_bins=10, alpha=1.0, categorical_features="auto"):
        self.discretizer = discretizer
        self.n_bins = n_bins
        self.alpha = alpha
        self.categorical_features = categorical_features

    def _check_params(self):
        check_choice("discretizer", self.discretizer, DISCRETIZERS)
        check_int("n_bins", self.n_bins, 1)
        check_real("alpha", self.alpha, low=0, low_open=True)

    def _make_variable_model(self, k, nominal, n_categories):
        if nominal:
            partition = CategoryPartition(n_categories)
        elif self.discretizer == "modl":
            partition = ObservedMODLPartition("paper", "optimized_greedy", self.n_features_in_)
        else:
            partition = EqualFrequencyPartition(self.n_bins)
        return PartitionModel(partition, partial(laplace_table, alpha=self.alpha), missing="ignore")

    def _fit_weights(self, Z, y):
        weights = np.array([fdh_weight(m.counts_) for m in self.variables_])
        self.fit_report_.update(
            weights=weights.tolist(), n_parts=[int(m.n_parts_) for m in self.variables_]
        )
        return weights
