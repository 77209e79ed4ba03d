"""Linear baselines of wu2015 §5: liblinear logistic regression and linear SVM.

Inputs are prepared as the paper's LibLinear runs need them: nominal variables one-hot encoded
(unseen categories → all-zero indicators, missing → all zeros), numeric variables standardised
(missing → the training mean, i.e. 0 after scaling). ``C`` and ``intercept_scaling`` (the paper's
bias B) are parameters; their tuning over the paper's grid is done by the tuning wrapper.

Per-variable ``weights_`` (for the n_selected/weight_sum records) are the largest absolute
coefficient of each input variable over classes and indicator columns, divided by the largest over
all variables, so that they lie in [0, 1]; ``selected_`` marks the variables with a non-zero
coefficient.

``LinearSVC`` has no probabilities: ``predict_proba`` of :class:`LinearSVMClassifier` is the
softmax of the decision values (a sigmoid for two classes), which ranks like the SVM (AUC is
exact) but is not calibrated (ILF and compression rate are indicative only).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted

from repro.methods.core.checks import (
    check_fit_input,
    check_predict_input,
    check_real,
    estimator_tags,
)
from repro.methods.core.encoding import power_of_two_units


def _design_matrix(encoder, Z, mean, scale, unit):
    """One-hot nominal columns and standardised numeric columns ((z/unit − mean)/scale);
    returns (D, variable of col)."""
    blocks, owner = [], []
    for k in range(Z.shape[1]):
        z = Z[:, k]
        if encoder.categorical_[k]:
            n_cat = len(encoder.categories_[k])
            onehot = np.zeros((z.size, n_cat))
            ok = ~np.isnan(z) & (z >= 0)
            onehot[np.flatnonzero(ok), z[ok].astype(np.int64)] = 1.0
            blocks.append(onehot)
            owner += [k] * n_cat
        else:
            col = np.where(np.isnan(z), mean[k], z / unit[k])
            blocks.append(((col - mean[k]) / scale[k])[:, None])
            owner.append(k)
    return np.hstack(blocks), np.asarray(owner)


class _LiblinearBaseline(ClassifierMixin, BaseEstimator):
    """The liblinear peers of wu2015 (logistic regression, linear SVM) on the package's encoding.

    Parameters
    ----------
    C : float > 0, default 1.0
        Inverse of the L2 regularisation strength (liblinear's C; wu2015 tunes it).
    intercept_scaling : float, default 1.0
        liblinear's bias feature value (the paper's B).
    categorical_features : "auto" or mask/indices/names
        Which columns are nominal (one-hot encoded).
    """

    def __init__(self, *, C=1.0, intercept_scaling=1.0, categorical_features="auto"):
        self.C = C
        self.intercept_scaling = intercept_scaling
        self.categorical_features = categorical_features

    def __sklearn_tags__(self):
        return estimator_tags(super().__sklearn_tags__())

    def _make_model(self):
        raise NotImplementedError

    def fit(self, X, y):
        for name in ("C", "intercept_scaling"):
            check_real(name, getattr(self, name), low=0, low_open=True)
        Z, y_idx = check_fit_input(self, X, y)
        numeric = ~self.encoder_.categorical_
        self.unit_ = power_of_two_units(Z, numeric, always=True)  # exact; column max near 1
        U = Z / self.unit_
        with np.errstate(all="ignore"):
            mean = np.where(numeric, np.nanmean(np.where(numeric, U, 0.0), axis=0), 0.0)
            std = np.where(numeric, np.nanstd(np.where(numeric, U, 0.0), axis=0), 1.0)
        self.mean_ = np.nan_to_num(mean)
        self.scale_ = np.where(np.isfinite(std) & (std > 0), std, 1.0)
        D, owner = _design_matrix(self.encoder_, Z, self.mean_, self.scale_, self.unit_)
        model = self._make_model()
        if self.classes_.size > 2:  # liblinear is binary: one-vs-rest, as LibLinear itself does
            model = OneVsRestClassifier(model)
        self.model_ = model.fit(D, y_idx)
        binaries = getattr(self.model_, "estimators_", [self.model_])
        coef = np.abs(np.vstack([b.coef_ for b in binaries])).max(axis=0)
        per_var = np.zeros(Z.shape[1])
        np.maximum.at(per_var, owner, coef)
        top = per_var.max()
        self.weights_ = per_var / top if top > 0 else per_var
        self.selected_ = self.weights_ > 0
        self.n_selected_features_ = int(self.selected_.sum())
        self.fit_report_ = {"n_iter": int(max(np.max(b.n_iter_) for b in binaries))}
        return self

    def predict_log_proba(self, X):
        return np.log(np.clip(self.predict_proba(X), np.finfo(float).tiny, None))

    def decision_function(self, X):
        check_is_fitted(self, "model_")
        Z = check_predict_input(self, X)
        D, _ = _design_matrix(self.encoder_, Z, self.mean_, self.scale_, self.unit_)
        return self.model_.decision_function(D)

    def predict(self, X):
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


class LogisticRegressionClassifier(_LiblinearBaseline):
    """L2-regularised logistic regression with scikit-learn's liblinear solver (wu2015 "LR").

    Parameters: as :class:`_LiblinearBaseline`.
    """

    def _make_model(self):
        return LogisticRegression(
            solver="liblinear", C=self.C, intercept_scaling=self.intercept_scaling, max_iter=1000
        )

    def predict_proba(self, X):
        check_is_fitted(self, "model_")
        Z = check_predict_input(self, X)
        D, _ = _design_matrix(self.encoder_, Z, self.mean_, self.scale_, self.unit_)
        return self.model_.predict_proba(D)


class LinearSVMClassifier(_LiblinearBaseline):
    """L2-regularised linear SVM (LinearSVC, liblinear) of wu2015 "SVM".

    ``predict_proba`` is the softmax of the decision values (uncalibrated; see the module notes).

    Parameters: as :class:`_LiblinearBaseline`.
    """

    def _make_model(self):
        return LinearSVC(C=self.C, intercept_scaling=self.intercept_scaling, max_iter=5000)

    def predict_proba(self, X):
        scores = self.decision_function(X)
        if scores.ndim == 1:
            p1 = expit(scores)
            return np.column_stack([1.0 - p1, p1])
        return softmax(scores, axis=1)
