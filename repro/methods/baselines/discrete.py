"""Shared pieces of the Bayesian-network baselines ``aode``, ``tan`` and ``hnb``.

- the discrete codes: each column is read as parts 0..|A_k|−1 by a fitted
  :class:`~repro.preprocessing.variables.PartitionModel` (``preprocessing="modl"``: the MODL
  discretization of a numeric column or grouping of a nominal one, as ``nb`` builds them,
  :func:`repro.methods.plain.modl_nb.modl_variable_model`; ``"raw"``: one part per category of a
  nominal column, a numeric column refused); a missing value or a category unseen at fit is code
  −1 ("no information");
- the count table of every pair of values and the class, laid out as Weka's AODE and HNB lay
  theirs out: one slot per value of each attribute plus one slot for its missing value
  (:class:`SlotLayout`), ``counts[c, a, b]`` = #(y = c, slot a, slot b), the diagonal
  ``counts[c, a, a]`` = #(y = c, slot a) (:func:`pair_counts`, one matrix product per class on
  blocks of one-hot rows, no loop over rows);
- ``observed_totals``: #(y = c, slot a, attribute k observed), the denominators of the
  conditional estimates when missing values are skipped;
- :func:`conditional_mutual_information` I(X_i; X_j | Y) of every pair, on the rows where both
  are observed;
- :class:`DiscreteBayesClassifier`, the base class (fit the codes, count, predict through
  ``_joint_log_likelihood`` of the codes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from repro.methods.core.base import fit_variable_models
from repro.methods.core.checks import (
    check_choice,
    check_fit_input,
    check_predict_input,
    estimator_tags,
)
from repro.preprocessing.modl.estimators import MODLGroupPartition, MODLIntervalPartition
from repro.preprocessing.variables import CategoryPartition, Partition, PartitionModel

#: values of the ``preprocessing`` parameter: MODL discretization (numeric) and grouping
#: (nominal), as ``nb``; or the nominal values as they are (a numeric column is refused)
PREPROCESSINGS = ("modl", "raw")

#: rows of one-hot codes multiplied at a time by :func:`pair_counts`
COUNT_BLOCK = 4096


def no_table(counts: np.ndarray, n_total: int) -> np.ndarray:
    """The ``estimate`` of the partition models of this family: their tables are not used (the
    methods estimate their own probabilities from :func:`pair_counts`)."""
    return np.zeros(np.shape(counts))


def check_preprocessing(value) -> None:
    """``preprocessing`` must be one of :data:`PREPROCESSINGS` (ValueError naming both)."""
    check_choice("preprocessing", value, PREPROCESSINGS)


def baseline_partition(estimator, k: int, nominal: bool, n_categories: int) -> Partition:
    """The unfitted partition of column k for the estimator's ``preprocessing`` (every method
    of this family): "modl", the MODL grouping (nominal) or discretization (numeric, optimised
    greedy) of ``nb``, both of the paper variant, as
    :func:`repro.methods.plain.modl_nb.modl_variable_model` builds them; "raw", one part per
    category of a nominal column, and a ValueError naming the column for a numeric one."""
    if estimator.preprocessing == "modl":
        n_variables = estimator.n_features_in_
        if nominal:
            labels = estimator.encoder_.categories_[k]
            return MODLGroupPartition("paper", n_variables, labels=labels)
        return MODLIntervalPartition("paper", "optimized_greedy", n_variables)
    if not nominal:
        names = getattr(estimator, "feature_names_in_", None)
        name = names[k] if names is not None else k
        raise ValueError(
            f"preprocessing='raw' takes nominal values as they are, but column {name!r} is "
            f"numeric: discretize it first, or use preprocessing='modl' (the choices are "
            f"{list(PREPROCESSINGS)}), or declare the column nominal with categorical_features"
        )
    return CategoryPartition(n_categories)


def variable_model(
    estimator, k: int, nominal: bool, n_categories: int, estimate=no_table
) -> PartitionModel:
    """The unfitted model of column k: :func:`baseline_partition` with ``estimate`` (missing
    values carry no information)."""
    partition = baseline_partition(estimator, k, nominal, n_categories)
    return PartitionModel(partition, estimate, missing="ignore")


def model_codes(model: PartitionModel, x: np.ndarray) -> np.ndarray:
    """Codes 0..n_parts_−1 of a fitted model, −1 for a missing or unseen value."""
    codes = np.asarray(model.codes(x), dtype=np.int64)
    return np.where(codes >= model.n_parts_, -1, codes)


@dataclass(frozen=True)
class SlotLayout:
    """Slots of the values of K attributes: attribute k has slots ``start[k]`` ..
    ``start[k] + n_values[k] − 1`` for its values and ``missing[k] = start[k] + n_values[k]``
    for its missing value (Weka's AODE layout)."""

    n_values: np.ndarray

    @property
    def start(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.n_values + 1)[:-1]]).astype(np.int64)

    @property
    def missing(self) -> np.ndarray:
        return self.start + self.n_values

    @property
    def n_slots(self) -> int:
        return int(np.sum(self.n_values + 1))

    @property
    def attribute(self) -> np.ndarray:
        """Attribute of each slot."""
        return np.repeat(np.arange(self.n_values.size), self.n_values + 1)

    @property
    def observed(self) -> np.ndarray:
        """True for the slots of values, False for the missing slots."""
        mask = np.ones(self.n_slots, dtype=bool)
        mask[self.missing] = False
        return mask

    def slots(self, codes: np.ndarray) -> np.ndarray:
        """(N, K) slots of codes (−1 = missing → the missing slot)."""
        return np.where(codes < 0, self.missing, self.start + codes)


def pair_counts(slots: np.ndarray, y: np.ndarray, n_classes: int, n_slots: int) -> np.ndarray:
    """(J, T, T) counts #(y = c, slot a, slot b) of every pair of slots of one row (a row's own
    slot pairs with itself: the diagonal holds #(y = c, slot a)). One product of one-hot
    matrices per class and block of rows (float64: exact integers)."""
    counts = np.zeros((n_classes, n_slots, n_slots))
    n, k = slots.shape
    for c in range(n_classes):
        rows = np.flatnonzero(y == c)
        for b0 in range(0, rows.size, COUNT_BLOCK):
            block = slots[rows[b0 : b0 + COUNT_BLOCK]]
            onehot = np.zeros((block.shape[0], n_slots))
            onehot[np.arange(block.shape[0])[:, None], block] = 1.0
            counts[c] += onehot.T @ onehot
    return counts


def observed_totals(counts: np.ndarray, layout: SlotLayout) -> np.ndarray:
    """(J, T, K): #(y = c, slot a, attribute k observed) = Σ over the value slots b of k of
    ``counts[c, a, b]``."""
    observed = counts[:, :, layout.observed]
    starts = np.concatenate([[0], np.cumsum(layout.n_values)[:-1]]).astype(np.int64)
    return np.add.reduceat(observed, starts, axis=2)


def value_counts(counts: np.ndarray) -> np.ndarray:
    """(J, T): #(y = c, slot a), the diagonal of the pair counts."""
    return np.diagonal(counts, axis1=1, axis2=2).copy()


def attribute_totals(counts: np.ndarray, layout: SlotLayout) -> np.ndarray:
    """(J, K): #(y = c, attribute k observed)."""
    diag = value_counts(counts)[:, layout.observed]
    starts = np.concatenate([[0], np.cumsum(layout.n_values)[:-1]]).astype(np.int64)
    return np.add.reduceat(diag, starts, axis=1)


def conditional_mutual_information(
    counts: np.ndarray, layout: SlotLayout, floor: float = 0.0, base: float = np.e
) -> np.ndarray:
    """(K, K) conditional mutual information, zero diagonal:

        I(X_i; X_j | Y) = Σ_{c,u,v} P(c,u,v) log[ P(c,u,v) P(c) / (P(c,u) P(c,v)) ]

    with the frequencies of the rows where both X_i and X_j are observed. ``floor``: a term whose
    numerator P(c,u,v)·P(c) or denominator P(c,u)·P(c,v) is below it counts 0 (Weka's HNB takes
    1e-6, in bits: ``base=2``); with 0, only the empty cells count 0.
    """
    obs = layout.observed
    table = counts[:, obs][:, :, obs]  # (J, T', T') value slots only
    starts = np.concatenate([[0], np.cumsum(layout.n_values)[:-1]]).astype(np.int64)
    attr = np.repeat(np.arange(layout.n_values.size), layout.n_values)
    rows = np.add.reduceat(table, starts, axis=2)  # (J, T', K): #(c, u, X_l observed)
    per_class = np.add.reduceat(rows, starts, axis=1)  # (J, K, K): #(c, both observed)
    n_pair = per_class.sum(axis=0)  # (K, K)
    scale = 1.0 / np.maximum(n_pair, 1.0)[attr][:, attr]  # (T', T')
    p_joint = table * scale
    p_class = per_class[:, attr][:, :, attr] * scale
    p_u = rows[:, :, attr] * scale  # P(c, u) on the rows where X_j (of v) is observed
    p_v = np.swapaxes(p_u, 1, 2)  # P(c, v) on the rows where X_i (of u) is observed
    numerator, denominator = p_joint * p_class, p_u * p_v
    keep = (numerator > 0) & (denominator > 0) & (numerator >= floor) & (denominator >= floor)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(keep, p_joint * (np.log(numerator / denominator) / np.log(base)), 0.0)
    cmi = np.add.reduceat(np.add.reduceat(terms.sum(axis=0), starts, axis=0), starts, axis=1)
    np.fill_diagonal(cmi, 0.0)
    return cmi


class DiscreteBayesClassifier(ClassifierMixin, BaseEstimator):
    """Base class of ``aode``, ``tan`` and ``hnb``: classifiers of discrete codes.

    ``fit`` validates the parameters (``_check_params``) and the input, fits one partition model
    per column (:func:`variable_model`), counts every pair of values with the class
    (:func:`pair_counts`) and calls ``_fit_structure``; ``predict_log_proba`` normalises
    ``_joint_log_likelihood(codes)`` (log P(y, x) up to a constant per row).

    Attributes (after fit)
    ----------------------
    classes_ : ndarray (J,)
    class_count_ : ndarray (J,)
    variables_ : list of fitted :class:`~repro.preprocessing.variables.PartitionModel`
    n_values_ : ndarray (K,), number of parts |A_k| of each variable
    layout_ : :class:`SlotLayout` of the values
    counts_ : ndarray (J, T, T), :func:`pair_counts` of the training codes
    n_features_in_, feature_names_in_ : as scikit-learn
    """

    #: nominal-column detection, see :class:`repro.methods.core.encoding.TabularEncoder`
    categorical_features = "auto"

    def __sklearn_tags__(self):
        return estimator_tags(super().__sklearn_tags__())

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "counts_")

    # ------------------------------------------------------------------ hooks
    def _check_params(self) -> None:
        check_preprocessing(self.preprocessing)

    def _fit_structure(self, codes: np.ndarray, y: np.ndarray) -> None:
        raise NotImplementedError

    def _joint_log_likelihood(self, codes: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    # -------------------------------------------------------------------- fit
    def fit(self, X, y):
        self._check_params()
        Z, y_idx = check_fit_input(self, X, y)
        models = []
        for k in range(Z.shape[1]):
            nominal = bool(self.encoder_.categorical_[k])
            cats = self.encoder_.categories_[k]
            models.append(variable_model(self, k, nominal, 0 if cats is None else len(cats)))
        self.variables_, _ = fit_variable_models(models, Z, y_idx, self.classes_.size)
        codes = self._codes(Z)
        self.n_values_ = np.array([m.n_parts_ for m in self.variables_], dtype=np.int64)
        self.layout_ = SlotLayout(self.n_values_)
        self.class_count_ = np.bincount(y_idx, minlength=self.classes_.size).astype(np.float64)
        self.counts_ = pair_counts(
            self.layout_.slots(codes), y_idx, self.classes_.size, self.layout_.n_slots
        )
        self._fit_structure(codes, y_idx)
        return self

    def _codes(self, Z) -> np.ndarray:
        """(N, K) codes of the encoded matrix (−1 = no information)."""
        columns = [model_codes(m, Z[:, k]) for k, m in enumerate(self.variables_)]
        return np.stack(columns, axis=1) if columns else np.zeros((Z.shape[0], 0), np.int64)

    # ---------------------------------------------------------------- predict
    def predict_log_proba(self, X) -> np.ndarray:
        check_is_fitted(self)
        codes = self._codes(check_predict_input(self, X))
        jll = self._joint_log_likelihood(codes)
        jll -= jll.max(axis=1, keepdims=True)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        best = np.argmax(self.predict_log_proba(X), axis=1)  # checks the fit first
        return self.classes_[best]
