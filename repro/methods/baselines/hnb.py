"""``hnb``: hidden naive Bayes (Zhang, Jiang & Su 2005).

H. Zhang, L. Jiang & J. Su (2005), "Hidden naive Bayes", AAAI-05, 919–924, eq. (2)–(5): each
attribute gets a hidden parent, a mixture of the one-dependence estimates,

    P(y | x) ∝ P(y) Π_i P(x_i | h_i, y),   P(x_i | h_i, y) = Σ_{j≠i} W_ij P(x_i | x_j, y),
    W_ij = I_P(X_i; X_j | Y) / Σ_{j≠i} I_P(X_i; X_j | Y),

with the estimates of Weka 3.6's ``weka.classifiers.bayes.HNB``:

    P(y) = (N_y + 1/J) / (N + 1),
    P(x_i | x_j, y) = (#(y, x_j, x_i) + 1/|A_i|) / (#(y, x_j) + 1),
    I_P in bits from the frequencies, a term counting 0 when P(y, x_i, x_j)·P(y) or
    P(y, x_i)·P(y, x_j) is below 1e-6,

and, for an attribute whose weights sum to 0 or less, the naive Bayes factor
(#(y, x_i) + 1/|A_i|)/(N_y + 1).

Missing values (Weka's HNB refuses them) are skipped: the counts and frequencies of a pair use the
rows where both are observed (#(y, x_j) then counts the rows where X_i is observed too); a missing
x_i leaves its factor out, a missing x_j leaves its term out of the mixture and out of the sum
of the weights.
"""

from __future__ import annotations

import numpy as np

from repro.methods.baselines.discrete import (
    DiscreteBayesClassifier,
    attribute_totals,
    check_preprocessing,
    conditional_mutual_information,
    observed_totals,
    value_counts,
)

#: Weka's HNB: a term of I_P whose numerator or denominator is below this counts 0
WEKA_CMI_FLOOR = 1e-6


class HNB(DiscreteBayesClassifier):
    """Hidden naive Bayes (Zhang, Jiang & Su 2005, AAAI), Weka 3.6's estimates.

        P(y | x) ∝ P(y) Π_i Σ_{j≠i} W_ij P(x_i | x_j, y),
        W_ij = I_P(X_i; X_j | Y) / Σ_{j≠i} I_P(X_i; X_j | Y)

    (estimates in the module docstring). No hyper-parameter besides the reading of the
    variables.

    Parameters
    ----------
    preprocessing : {"modl", "raw"}, default "modl"
    categorical_features : "auto" or mask/indices/names

    Attributes
    ----------
    cmi_ : ndarray (K, K), I_P(X_i; X_j | Y) in bits (zero diagonal)
    weights_ : ndarray (K, K), W_ij (each row sums to 1; a row of zeros where the row of
        ``cmi_`` sums to 0 or less: that attribute takes the naive Bayes factor)
    class_log_prior_ : ndarray (J,)
    hidden_table_ : ndarray (J, T, T), P(x_i = b | x_j = a, y) (slots of :attr:`layout_`)
    nb_table_ : ndarray (J, T), the naive Bayes factor P(x_i = b | y)
    and those of :class:`~repro.methods.baselines.discrete.DiscreteBayesClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> HNB().fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(self, *, preprocessing="modl", categorical_features="auto"):
        self.preprocessing = preprocessing
        self.categorical_features = categorical_features

    def _check_params(self):
        check_preprocessing(self.preprocessing)

    def _fit_structure(self, codes, y):
        layout, counts = self.layout_, self.counts_
        n_classes = self.classes_.size
        attr, n_values = layout.attribute, layout.n_values
        n = self.class_count_.sum()
        self.class_log_prior_ = np.log(self.class_count_ + 1.0 / n_classes) - np.log(n + 1.0)
        self.cmi_ = conditional_mutual_information(counts, layout, WEKA_CMI_FLOOR, base=2.0)
        sums = self.cmi_.sum(axis=1, keepdims=True)
        positive = sums > 0
        self.weights_ = np.where(positive, self.cmi_ / np.where(positive, sums, 1.0), 0.0)
        denominator = observed_totals(counts, layout)[:, :, attr] + 1.0  # (J, T, T)
        self.hidden_table_ = (counts + 1.0 / n_values[attr]) / denominator
        totals = attribute_totals(counts, layout)
        self.nb_table_ = (value_counts(counts) + 1.0 / n_values[attr]) / (totals[:, attr] + 1.0)

    def _joint_log_likelihood(self, codes):
        slots = self.layout_.slots(codes)
        observed = codes >= 0  # (M, K)
        jll = np.repeat(self.class_log_prior_[None, :], codes.shape[0], axis=0)
        for i in range(codes.shape[1]):
            here = observed[:, i]
            if not here.any():
                continue
            rows = np.flatnonzero(here)
            child = slots[rows, i]
            weights = self.cmi_[i][None, :] * observed[rows]  # (m, K), 0 on the diagonal
            weight_sum = weights.sum(axis=1)
            terms = self.hidden_table_[:, slots[rows], child[:, None]]  # (J, m, K)
            mixture = (terms * weights[None]).sum(axis=2) / np.where(
                weight_sum > 0, weight_sum, 1.0
            )
            factor = np.where(weight_sum > 0, mixture, self.nb_table_[:, child])  # (J, m)
            # a mixture with a negative I_P weight (the 1e-6 floor can leave one) stays > 0
            jll[rows] += np.log(np.maximum(factor, np.finfo(float).tiny)).T
        return jll
