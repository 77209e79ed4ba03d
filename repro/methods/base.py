"""The weighted naive Bayes that almost every method of the project is (SPEC §2).

    score_j(x) = log P(y=j) + Σ_k w_k · log P(x_k | y=j),   P_w(y=j | x) = softmax_j(score)
    (boulle2007 eq. 3, hue2024 eq. 2)

Subclasses choose the per-variable models (:meth:`_make_variable_model`), the class prior
(:meth:`_class_log_prior`) and the weights (:meth:`_fit_weights`), and validate their
hyper-parameters in :meth:`_check_params` (with :mod:`repro.methods.checks`); the base class
runs that check, validates the input, fits the variable models once, and predicts. Weights are
finite and ≥ 0: selection gives 0/1, averaging [0, 1], and WNB (vidaurre2012 eq. 6) may exceed 1.
Training log-likelihood columns are obtained one variable at a time (:meth:`_training_columns`)
so that selection and weighting algorithms can update an N × J score matrix in O(N·J) per
variable, never materialising N × K × J.

Output bound: the estimators with an ``output_shrink`` parameter ("none" or "khiops") may pass
the posterior through Khiops' shrink toward uniform,
p̂ = (p + 0.5/(J(N+1)))/(1 + 0.5/(N+1)) (:func:`repro.preprocessing.tables.khiops_output_shrink`);
:meth:`WeightedNaiveBayes._output_shrink` says which one a fitted model applies.
"""

from __future__ import annotations

import time

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from repro.methods.checks import (
    check_choice,
    check_fit_input,
    check_predict_input,
    estimator_tags,
)
from repro.preprocessing.tables import class_log_prior, khiops_output_shrink
from repro.preprocessing.variables import VariableModel

#: values of the ``output_shrink`` parameter: no bound, or Khiops' shrink toward uniform
OUTPUT_SHRINKS = ("none", "khiops")


def check_output_shrink(value) -> None:
    """``output_shrink`` must be one of :data:`OUTPUT_SHRINKS` (ValueError naming both)."""
    check_choice("output_shrink", value, OUTPUT_SHRINKS)


class WeightedNaiveBayes(ClassifierMixin, BaseEstimator):
    """Base class of the weighted naive Bayes classifiers.

    Attributes (after fit)
    ----------------------
    classes_ : ndarray (J,)
    class_count_ : ndarray (J,)
    class_log_prior_ : ndarray (J,)
    variables_ : list of fitted :class:`~repro.preprocessing.variables.VariableModel`
        (one per column)
    weights_ : ndarray (K,), finite and ≥ 0
    selected_ : ndarray (K,) of bool, ``weights_ > 0``
    n_selected_features_ : int
    n_features_in_, feature_names_in_ : as scikit-learn
    fit_report_ : dict (criterion value, iterations, stage times)
    """

    #: nominal-column detection, see :class:`repro.methods.encoding.TabularEncoder`
    categorical_features = "auto"

    def __sklearn_tags__(self):
        return estimator_tags(super().__sklearn_tags__())

    def __sklearn_is_fitted__(self) -> bool:
        """Fitted once ``weights_`` exists (a parameter may end in "_": ``lambda_``)."""
        return hasattr(self, "weights_")

    # ------------------------------------------------------------------ hooks
    def _check_params(self) -> None:
        """Raise a ValueError naming a hyper-parameter that is out of range (called by fit)."""

    def _make_variable_model(self, k: int, nominal: bool, n_categories: int) -> VariableModel:
        raise NotImplementedError

    def _class_log_prior(self, class_count: np.ndarray) -> np.ndarray:
        return class_log_prior(class_count)

    def _selection(self, weights: np.ndarray) -> np.ndarray:
        """``selected_``: the variables the model uses (weight > 0 unless a subclass says)."""
        return weights > 0

    def _fit_weights(self, Z: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Weights w_k ≥ 0 (finite); the plain naive Bayes gives weight 1 to every variable."""
        return np.ones(Z.shape[1])

    def _output_shrink(self) -> str:
        """The output bound applied by :meth:`predict_log_proba`, one of :data:`OUTPUT_SHRINKS`:
        the ``output_shrink`` parameter of the estimators that have one, else "none"
        (a subclass that always bounds its output, as Khiops' FNB, returns "khiops")."""
        return getattr(self, "output_shrink", "none")

    # -------------------------------------------------------------------- fit
    def fit(self, X, y):
        start = time.perf_counter()
        self._check_params()
        Z, y_idx = check_fit_input(self, X, y)
        n_classes = self.classes_.size
        self.class_count_ = np.bincount(y_idx, minlength=n_classes).astype(np.float64)
        self.class_log_prior_ = np.asarray(self._class_log_prior(self.class_count_), float)
        self.variables_ = []
        for k in range(Z.shape[1]):
            nominal = bool(self.encoder_.categorical_[k])
            cats = self.encoder_.categories_[k]
            model = self._make_variable_model(k, nominal, 0 if cats is None else len(cats))
            self.variables_.append(model.fit(Z[:, k], y_idx, n_classes))
        prepared = time.perf_counter()
        self.fit_report_ = {"preparation_time": prepared - start}
        weights = np.asarray(self._fit_weights(Z, y_idx), dtype=np.float64)
        if weights.shape != (Z.shape[1],) or not np.all(np.isfinite(weights) & (weights >= 0)):
            raise RuntimeError(
                f"{type(self).__name__} produced invalid weights: {Z.shape[1]} finite values "
                f"≥ 0 expected, got {weights!r}"
            )
        self.weights_ = weights
        self.selected_ = self._selection(weights)
        self.n_selected_features_ = int(self.selected_.sum())
        self.fit_report_["weighting_time"] = time.perf_counter() - prepared
        return self

    def _training_columns(self, Z: np.ndarray):
        """Yield (k, log P(x_k | y) on the rows of Z) one variable at a time."""
        for k, model in enumerate(self.variables_):
            yield k, model.log_likelihood(Z[:, k])

    # ---------------------------------------------------------------- predict
    def _joint_log_likelihood(self, Z: np.ndarray) -> np.ndarray:
        jll = np.repeat(self.class_log_prior_[None, :], Z.shape[0], axis=0)
        for k in np.flatnonzero(self.weights_):
            jll += self.weights_[k] * self.variables_[k].log_likelihood(Z[:, k])
        return jll

    def predict_log_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "weights_")
        jll = self._joint_log_likelihood(check_predict_input(self, X))
        jll -= jll.max(axis=1, keepdims=True)  # keeps precision when scores are huge
        log_proba = jll - logsumexp(jll, axis=1, keepdims=True)
        if self._output_shrink() == "khiops":
            n_train = int(self.class_count_.sum())
            return np.log(khiops_output_shrink(np.exp(log_proba), n_train, self.classes_.size))
        return log_proba

    def predict_proba(self, X) -> np.ndarray:
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "weights_")
        return self.classes_[np.argmax(self.predict_log_proba(X), axis=1)]
