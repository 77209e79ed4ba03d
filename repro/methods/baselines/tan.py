"""``tan``: tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997).

N. Friedman, D. Geiger & M. Goldszmidt (1997), "Bayesian network classifiers", Machine Learning
29:131–163, §4.1 (Chow–Liu with the class): every attribute has the class and at most one other
attribute as parents, the tree being the maximum weight spanning tree of the weights

    I(X_i; X_j | Y) = Σ P(x_i, x_j, y) log[ P(x_i, x_j | y) / (P(x_i | y) P(x_j | y)) ],

and P(y | x) ∝ P(y) Π_k P(x_k | y, x_π(k)).

As Weka 3.6's ``BayesNet -Q weka.classifiers.bayes.net.search.local.TAN -S ENTROPY -E
SimpleEstimator -A α``: the weight of the arc tail → head is Weka's log-likelihood gain
N·Î = LL(head | y, tail) − LL(head | y), each LL summed in Weka's order (class value, tail value,
head value) so that ties resolve as Weka's do; the tree grows from the strongest link, each step
adding the strongest link between a linked and an unlinked attribute (the first one found,
heads outer, tails inner, strict >), and the links are directed as Weka's ``TAN.buildStructure``
directs them. Parameters are SimpleEstimator's: P(y) = (N_y + α)/(N + J·α),
P(x_k | y, x_π) = (#(x_k, y, x_π) + α)/(#(y, x_π) + |A_k|·α).

Missing values are skipped (Weka replaces them by the training mode): the counts of a pair use
the rows where both are observed, a missing x_k leaves its factor out, and a missing parent
value x_π gives x_k its factor without the parent, (#(x_k, y) + α)/(#(y, X_k observed) + |A_k|·α).
"""

from __future__ import annotations

import numpy as np

from repro.methods.baselines.discrete import (
    DiscreteBayesClassifier,
    attribute_totals,
    check_preprocessing,
    value_counts,
)
from repro.methods.core.checks import check_real


def sequential_sum(values: np.ndarray) -> float:
    """Left-to-right sum of the flattened values (Java's loop order and rounding)."""
    flat = np.ravel(values)
    return float(np.cumsum(flat)[-1]) if flat.size else 0.0


def entropy_score(counts: np.ndarray) -> float:
    """Weka's ENTROPY score of a node: Σ_config Σ_v n log(n / Σ_v n) over the cells n > 0,
    ``counts`` of shape (parent configurations…, values), summed in C order."""
    sums = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts * np.log(counts / sums), 0.0)
    return sequential_sum(terms)


def link_gains(counts: np.ndarray, layout) -> np.ndarray:
    """(K, K) gains G[head, tail] = LL(head | y, tail) − LL(head | y) (Weka's ENTROPY score with
    the extra parent minus without it) = N_ht · Î(X_head; X_tail | Y) in nats, on the N_ht rows
    where both are observed; the diagonal is 0."""
    n_attributes = layout.n_values.size
    gains = np.zeros((n_attributes, n_attributes))
    start, n_values = layout.start, layout.n_values
    for head in range(n_attributes):
        h = slice(start[head], start[head] + n_values[head])
        for tail in range(n_attributes):
            if tail == head:
                continue
            t = slice(start[tail], start[tail] + n_values[tail])
            block = counts[:, t, h]  # (J, |tail|, |head|): configuration (y, tail), value head
            gains[head, tail] = entropy_score(block) - entropy_score(block.sum(axis=1))
    return gains


def weka_tan_tree(gains: np.ndarray) -> np.ndarray:
    """Parents (−1 = the class only) of Weka's TAN search on the gains G[head, tail].

    1. the strongest link (head, tail): the first maximum of G in row-major order;
    2. K − 2 times, the strongest link between a linked and an unlinked attribute (same order);
    3. link (head, tail) gives ``tail`` the parent ``head`` unless ``tail`` has one already, then
       ``head`` the parent ``tail`` (Weka's ``TAN.buildStructure``).
    """
    n = gains.shape[0]
    parents = np.full(n, -1, dtype=np.int64)
    if n < 2:
        return parents
    off_diagonal = ~np.eye(n, dtype=bool)
    linked = np.zeros(n, dtype=bool)
    links = []
    for step in range(n - 1):
        if step == 0:
            allowed = off_diagonal
        else:
            allowed = off_diagonal & (linked[:, None] ^ linked[None, :])
        masked = np.where(allowed, gains, -np.inf)
        head, tail = divmod(int(np.argmax(masked)), n)
        links.append((head, tail))
        linked[[head, tail]] = True
    has_parent = np.zeros(n, dtype=bool)
    for head, tail in links:
        if not has_parent[tail]:
            parents[tail], has_parent[tail] = head, True
        else:
            parents[head], has_parent[head] = tail, True
    return parents


class TAN(DiscreteBayesClassifier):
    """TAN (Friedman, Geiger & Goldszmidt 1997, Machine Learning 29), as Weka 3.6's BayesNet
    with the TAN search (ENTROPY score) and SimpleEstimator.

        P(y | x) ∝ P(y) Π_k P(x_k | y, x_π(k)),   π = Chow–Liu tree of I(X_i; X_j | Y)

    (formulas and tie rule in the module docstring).

    Parameters
    ----------
    alpha : float > 0, default 0.5
        SimpleEstimator's pseudo-count (Weka's ``-A``).
    preprocessing : {"modl", "raw"}, default "modl"
    categorical_features : "auto" or mask/indices/names

    Attributes
    ----------
    parents_ : ndarray (K,), the attribute parent of each attribute, −1 for the root (the class
        only)
    gains_ : ndarray (K, K), the link gains G[head, tail] = N·Î(X_head; X_tail | Y) (nats)
    class_log_prior_ : ndarray (J,)
    log_tables_ : list of K ndarrays (J, |A_π| + 1, |A_k| + 1): log P(x_k | y, x_π); the last row
        is the factor without the parent (parent missing, and the only row of the root), the last
        column 0 (x_k missing)
    and those of :class:`~repro.methods.baselines.discrete.DiscreteBayesClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> TAN().fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(self, *, alpha=0.5, preprocessing="modl", categorical_features="auto"):
        self.alpha = alpha
        self.preprocessing = preprocessing
        self.categorical_features = categorical_features

    def _check_params(self):
        check_real("alpha", self.alpha, low=0, low_open=True)
        check_preprocessing(self.preprocessing)

    def _fit_structure(self, codes, y):
        layout, counts, alpha = self.layout_, self.counts_, float(self.alpha)
        n_classes = self.classes_.size
        self.class_log_prior_ = np.log(self.class_count_ + alpha) - np.log(
            self.class_count_.sum() + n_classes * alpha
        )
        self.gains_ = link_gains(counts, layout)
        self.parents_ = weka_tan_tree(self.gains_)
        diag, totals = value_counts(counts), attribute_totals(counts, layout)
        start, n_values = layout.start, layout.n_values
        self.log_tables_ = []
        for k, parent in enumerate(self.parents_):
            values = slice(start[k], start[k] + n_values[k])
            alone = np.log(diag[:, values] + alpha) - np.log(
                totals[:, [k]] + n_values[k] * alpha
            )  # (J, |A_k|)
            if parent >= 0:
                rows = slice(start[parent], start[parent] + n_values[parent])
                block = counts[:, rows, values]  # (J, |A_π|, |A_k|)
                with_parent = np.log(block + alpha) - np.log(
                    block.sum(axis=2, keepdims=True) + n_values[k] * alpha
                )
                table = np.concatenate([with_parent, alone[:, None, :]], axis=1)
            else:
                table = alone[:, None, :]
            table = np.concatenate([table, np.zeros(table.shape[:2] + (1,))], axis=2)
            self.log_tables_.append(table)

    def _joint_log_likelihood(self, codes):
        jll = np.repeat(self.class_log_prior_[None, :], codes.shape[0], axis=0)
        for k, parent in enumerate(self.parents_):
            table = self.log_tables_[k]
            child = np.where(codes[:, k] < 0, table.shape[2] - 1, codes[:, k])
            if parent >= 0:
                row = np.where(codes[:, parent] < 0, table.shape[1] - 1, codes[:, parent])
            else:
                row = np.zeros(codes.shape[0], dtype=np.int64)
            jll += table[:, row, child].T
        return jll
