"""``manb``: model-averaged naive Bayes (Dash & Cooper 2002), as bnclassify implements it.

Exact Bayesian model averaging over the 2^K naive Bayes structures in which each arc y → x_k is
present or absent; the average is again a naive Bayes, with per-variable tables mixed by the
arc's posterior probability (:mod:`repro.methods.baselines.manb_criterion`).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from repro.methods.baselines.discrete import PREPROCESSINGS, baseline_partition
from repro.methods.baselines.manb_criterion import arc_posterior, manb_log_table
from repro.methods.core.base import WeightedNaiveBayes
from repro.methods.core.checks import check_choice, check_real
from repro.preprocessing.tables import class_log_prior
from repro.preprocessing.variables import Partition, PartitionModel


class MANBVariableModel(PartitionModel):
    """A discrete variable of MANB: over the parts of ``partition``,

        log θ_k(i | j) = log [p_k (n_ij + s)/(n_j + I·s) + (1 − p_k)(n_i + s)/(n + I·s)]

    with p_k the arc posterior of its contingency table
    (:func:`~repro.methods.baselines.manb_criterion.arc_posterior`). Missing values and
    unseen categories are left out of the counts and carry no information (zero row).
    """

    def __init__(self, partition: Partition, smooth: float = 1.0, prior: float = 0.5):
        super().__init__(
            partition, partial(manb_log_table, smooth=smooth, prior=prior), missing="ignore"
        )
        self.smooth = smooth
        self.prior = prior

    @property
    def arc_posterior_(self) -> float:
        """p_k, the posterior probability of the arc y → x_k (after fit)."""
        return arc_posterior(self.counts_, self.smooth, self.prior)


class MANB(WeightedNaiveBayes):
    """MANB of Dash & Cooper (2002), "Exact model averaging with naive Bayesian classifiers",
    ICML; bnclassify's ``lp(nb(...), manb_prior = ρ, smooth = s)`` (R/learn-params-manb.R).

        P(y = j | x) ∝ P(j) Π_k [p_k θ(x_k | j) + (1 − p_k) θ(x_k)]

    the joint P(y, x) averaged over the 2^K structures with their posterior probabilities,
    normalised over y. p_k = ρ P(D_k | arc) / (ρ P(D_k | arc) + (1 − ρ) P(D_k | no arc)), the
    Dirichlet(s) marginal likelihoods of :mod:`repro.methods.baselines.manb_criterion`;
    θ(i | j) = (n_ij + s)/(n_j + I·s), θ(i) = (n_i + s)/(n + I·s), P(j) = (N_j + s)/(N + J·s)
    (bnclassify's smoothing of every table).

    Every weight is 1: the averaging is in the tables (:class:`MANBVariableModel`), and weights
    p_k on the conditional tables (θ(x|y)^{p_k}) would be a different model, not the average.

    What differs from bnclassify: the variables are the package's MODL parts by default
    (bnclassify takes discrete data), so the marginal likelihoods are those of the MODL parts,
    chosen on the same data; and a missing value or an unseen category carries no information.

    Parameters
    ----------
    preprocessing : {"modl", "raw"}, default "modl"
        "modl": MODL discretization/grouping; "raw": nominal values as they are (a numeric
        column is a ValueError). See :func:`repro.methods.baselines.discrete.baseline_partition`.
    prior : float in [0, 1], default 0.5
        ρ, the prior probability of each arc y → x_k (bnclassify's ``manb_prior``).
    smooth : float > 0, default 1.0
        s, the Dirichlet hyper-parameter of every table (bnclassify's ``smooth``).
    categorical_features : "auto" or mask/indices/names

    Attributes
    ----------
    arc_posteriors_ : ndarray (K,), p_k
    weights_ : ndarray (K,) of ones

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> MANB().fit(X, y).score(X, y) > 0.9
    True
    """

    #: Z read column by column through MODL models: float32 input stays float32 (exact)
    compact_input = True

    def __init__(self, *, preprocessing="modl", prior=0.5, smooth=1.0, categorical_features="auto"):
        self.preprocessing = preprocessing
        self.prior = prior
        self.smooth = smooth
        self.categorical_features = categorical_features

    def _check_params(self):
        check_choice("preprocessing", self.preprocessing, PREPROCESSINGS)
        check_real("prior", self.prior, low=0, high=1)
        check_real("smooth", self.smooth, low=0, low_open=True)

    def _class_log_prior(self, class_count):
        return class_log_prior(class_count, alpha=self.smooth)

    def _make_variable_model(self, k, nominal, n_categories):
        partition = baseline_partition(self, k, nominal, n_categories)
        return MANBVariableModel(partition, float(self.smooth), float(self.prior))

    def _fit_weights(self, Z, y):
        self.arc_posteriors_ = np.array([m.arc_posterior_ for m in self.variables_])
        return np.ones(Z.shape[1])
