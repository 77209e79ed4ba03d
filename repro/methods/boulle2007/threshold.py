"""BER threshold post-optimisation and the BER guess (boulle2007 §8.2).

For a two-class problem, boulle2007 sorts the training instances by decreasing P(+|x), which
gives N+1 candidate thresholds, scans them updating the confusion matrix one instance at a time
(O(N) after the O(N log N) sort) and keeps the threshold of the best balanced error rate (the
paper writes "maximizes", a typo: the BER is minimised). Instances with equal scores are never
separated (the candidate cuts lie between distinct scores). An instance is predicted positive when
its score is ≥ τ; the kept τ is the midpoint between the two scores around the best cut.

The *BER guess* of the challenge entries is the BER of a stratified 10-fold cross-validation on the
training set (:func:`ber_guess`).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.validation import check_is_fitted


def balanced_error_rate(y_true, y_pred) -> float:
    """BER = mean over the classes present in ``y_true`` of (1 − recall)."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    classes = np.unique(y_true)
    return float(np.mean([np.mean(y_pred[y_true == c] != c) for c in classes]))


def optimal_ber_threshold(y, scores) -> tuple[float, float]:
    """Threshold τ minimising the BER of "positive ⇔ score ≥ τ" on (y, scores); returns (τ, BER).

    ``y`` holds 0/1 (1 = positive), ``scores`` the positive-class scores. Ties in BER keep the
    first cut found scanning from the highest score (the fewest positives). Both classes must
    be present.
    """
    y = np.asarray(y).astype(bool)
    s = np.asarray(scores, dtype=np.float64)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        raise ValueError("optimal_ber_threshold needs both classes in y")
    order = np.argsort(-s, kind="mergesort")
    s_sorted, y_sorted = s[order], y[order]
    tp = np.concatenate([[0], np.cumsum(y_sorted)])  # top i predicted positive
    fp = np.concatenate([[0], np.cumsum(~y_sorted)])
    ber = 0.5 * ((n_pos - tp) / n_pos + fp / n_neg)
    # a cut after position i (0 < i < N) is valid only between distinct scores
    valid = np.ones(s.size + 1, dtype=bool)
    valid[1:-1] = s_sorted[:-1] > s_sorted[1:]
    ber = np.where(valid, ber, np.inf)
    i = int(np.argmin(ber))
    if i == 0:
        tau = np.nextafter(s_sorted[0], np.inf)
    elif i == s.size:
        tau = s_sorted[-1]
    else:
        tau = 0.5 * (s_sorted[i - 1] + s_sorted[i])
        if not s_sorted[i] < tau <= s_sorted[i - 1]:  # midpoint rounding on adjacent floats
            tau = s_sorted[i - 1]
    return float(tau), float(ber[i])


class BERThreshold(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Any probabilistic binary classifier with its decision threshold optimised for the BER.

    Fits ``estimator``, then chooses τ on the training set with :func:`optimal_ber_threshold`
    applied to P(classes_[1] | x); ``predict`` answers classes_[1] when P ≥ τ. With more than two
    classes no threshold applies and predictions are the estimator's (``threshold_`` is None).

    Parameters
    ----------
    estimator : classifier with ``predict_proba``

    Attributes
    ----------
    estimator_ : the fitted clone; classes_ ; threshold_ : float or None
    train_ber_ : float, training BER at ``threshold_``

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = BERThreshold(LogisticRegression(max_iter=5000)).fit(X, y)
    >>> 0.0 <= clf.threshold_ <= 1.0
    True
    """

    def __init__(self, *, estimator):
        self.estimator = estimator

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = self.estimator.__sklearn_tags__()
        tags.input_tags = inner.input_tags
        return tags

    def fit(self, X, y):
        if not hasattr(self.estimator, "predict_proba"):
            raise ValueError(
                f"BERThreshold needs a probabilistic classifier (predict_proba); "
                f"{type(self.estimator).__name__} has none"
            )
        self.estimator_ = clone(self.estimator).fit(X, y)
        self.classes_ = self.estimator_.classes_
        if hasattr(self.estimator_, "n_features_in_"):
            self.n_features_in_ = self.estimator_.n_features_in_
        if hasattr(self.estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.estimator_.feature_names_in_
        self.threshold_ = None
        self.train_ber_ = None
        if self.classes_.size == 2:
            proba = self.estimator_.predict_proba(X)[:, 1]
            positive = np.asarray(y) == self.classes_[1]
            self.threshold_, self.train_ber_ = optimal_ber_threshold(positive, proba)
        return self

    def predict_proba(self, X):
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_proba(X)

    def predict_log_proba(self, X):
        return np.log(np.maximum(self.predict_proba(X), np.finfo(float).tiny))

    def predict(self, X):
        check_is_fitted(self, "estimator_")
        if self.threshold_ is None:
            return self.estimator_.predict(X)
        positive = self.predict_proba(X)[:, 1] >= self.threshold_
        return self.classes_[positive.astype(int)]


def ber_guess(estimator, X, y, cv: int = 10, seed: int = 0) -> float:
    """BER guess of boulle2007 §8.2: mean test BER of a stratified ``cv``-fold CV on (X, y).

    The estimator is cloned and refitted on each training part (a :class:`BERThreshold` thus
    re-optimises its threshold inside each fold).
    """
    y = np.asarray(y)
    folds = StratifiedKFold(n_splits=cv, shuffle=True, random_state=seed)
    take = (lambda idx: X.iloc[idx]) if hasattr(X, "iloc") else (lambda idx: np.asarray(X)[idx])
    bers = []
    for train, test in folds.split(np.zeros(y.size), y):
        model = clone(estimator).fit(take(train), y[train])
        bers.append(balanced_error_rate(y[test], model.predict(take(test))))
    return float(np.mean(bers))
