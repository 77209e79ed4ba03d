"""``aode``: averaged one-dependence estimators (Webb, Boughton & Wang 2005).

G. I. Webb, J. R. Boughton & Z. Wang (2005), "Not so naive Bayes: aggregating one-dependence
estimators", Machine Learning 58(1):5–24, eq. (8)–(9):

    P(y, x) ∝ Σ_{i: F(x_i) ≥ m} P̂(y, x_i) Π_{k≠i} P̂(x_k | y, x_i),

the mean over the "super-parents" x_i seen at least m times in training (F = frequency), with
the Laplace estimates of Weka 3.6's ``weka.classifiers.bayes.AODE`` (default ``-F 1``):

    P̂(y, x_i) = (#(y, x_i) + 1) / (N_i + J·|A_i|),
    P̂(x_k | y, x_i) = (#(y, x_i, x_k) + 1) / (#(y, x_i, X_k observed) + |A_k|),

N_i = the training rows where X_i is observed, |A_k| = number of values of X_k. When no value
of the row qualifies as a parent, naive Bayes with Weka's estimates (as Weka's
``NBconditionalProb``): P(y) = (N_y + 1)/(N + J), P(x_k | y) = (#(y, x_k) + 1)/(#(y, X_k
observed) + |A_k|). Missing values are skipped: not counted, neither parent nor child.
"""

from __future__ import annotations

import numpy as np

from repro.methods.baselines.discrete import (
    DiscreteBayesClassifier,
    attribute_totals,
    check_preprocessing,
    observed_totals,
    value_counts,
)
from repro.methods.core.checks import check_int


class AODE(DiscreteBayesClassifier):
    """AODE (Webb, Boughton & Wang 2005, Machine Learning 58), Weka 3.6's estimates.

        P(y, x) ∝ Σ_{i: F(x_i) ≥ m} P̂(y, x_i) Π_{k≠i} P̂(x_k | y, x_i)

    with the Laplace estimates of the module docstring; naive Bayes when no parent qualifies.
    The sum over parents is taken in log space (log-sum-exp): Weka multiplies probabilities,
    which underflow to 0 with hundreds of attributes; otherwise the two agree.

    Parameters
    ----------
    frequency_limit : int ≥ 0, default 1
        m: a value is a super-parent when seen at least m times in training (Weka's ``-F``).
    preprocessing : {"modl", "raw"}, default "modl"
        "modl": MODL discretization/grouping (:func:`~repro.methods.baselines.discrete.
        variable_model`); "raw": nominal values as they are (a numeric column is a ValueError).
    categorical_features : "auto" or mask/indices/names

    Attributes
    ----------
    frequencies_ : ndarray (T,), F of each value slot (:attr:`layout_`)
    parent_log_prior_ : ndarray (J, T), log P̂(y, x_i = a)
    child_log_table_ : ndarray (J, T, T), log P̂(x_k = b | y, x_i = a) (0 on the missing slots
        and on the diagonal: a parent is not its own child)
    nb_log_prior_ : ndarray (J,), nb_log_table_ : ndarray (J, T), the naive Bayes fallback
    and those of :class:`~repro.methods.baselines.discrete.DiscreteBayesClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> AODE().fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(self, *, frequency_limit=1, preprocessing="modl", categorical_features="auto"):
        self.frequency_limit = frequency_limit
        self.preprocessing = preprocessing
        self.categorical_features = categorical_features

    def _check_params(self):
        check_int("frequency_limit", self.frequency_limit, 0)
        check_preprocessing(self.preprocessing)

    def _fit_structure(self, codes, y):
        layout, counts = self.layout_, self.counts_
        n_classes = self.classes_.size
        attr, n_values = layout.attribute, layout.n_values
        diag = value_counts(counts)  # (J, T)
        totals = attribute_totals(counts, layout)  # (J, K)
        self.frequencies_ = diag.sum(axis=0)
        n_observed = totals.sum(axis=0)  # (K,) rows where X_k is observed
        self.parent_log_prior_ = np.log(diag + 1.0) - np.log(
            n_observed[attr] + n_classes * n_values[attr]
        )
        denominator = observed_totals(counts, layout)[:, :, attr] + n_values[attr]  # (J, T, T)
        table = np.log(counts + 1.0) - np.log(denominator)
        table[:, :, layout.missing] = 0.0
        table[:, np.arange(layout.n_slots), np.arange(layout.n_slots)] = 0.0
        self.child_log_table_ = table
        n = self.class_count_.sum()
        self.nb_log_prior_ = np.log(self.class_count_ + 1.0) - np.log(n + n_classes)
        nb = np.log(diag + 1.0) - np.log(totals[:, attr] + n_values[attr])
        nb[:, layout.missing] = 0.0
        self.nb_log_table_ = nb

    def _joint_log_likelihood(self, codes):
        slots = self.layout_.slots(codes)
        n_rows, n_classes = codes.shape[0], self.classes_.size
        qualifies = (codes >= 0) & (self.frequencies_[slots] >= self.frequency_limit)
        total = np.full((n_classes, n_rows), -np.inf)
        for p in range(codes.shape[1]):
            if not qualifies[:, p].any():
                continue
            parent = slots[:, p]
            spode = self.parent_log_prior_[:, parent]  # (J, M)
            spode = spode + self.child_log_table_[:, parent[:, None], slots].sum(axis=2)
            spode = np.where(qualifies[:, p], spode, -np.inf)
            total = np.logaddexp(total, spode)
        nb = self.nb_log_prior_[:, None] + self.nb_log_table_[:, slots].sum(axis=2)
        return np.where(qualifies.any(axis=1), total, nb).T
