"""BER threshold post-optimisation and BER guess (boulle2007 §8.2, SPEC §4.4)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.estimator_checks import check_estimator

from repro.methods.boulle2007.threshold import (
    BERThreshold,
    balanced_error_rate,
    ber_guess,
    optimal_ber_threshold,
)

Y = np.array([1, 1, 0, 1, 0, 0, 0, 0, 1, 0])
S = np.array([0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, 0.2, 0.1])


def test_ber_oracle():
    assert balanced_error_rate(Y, (S >= 0.5).astype(int)) == pytest.approx(0.375)
    tau, ber = optimal_ber_threshold(Y, S)
    assert 0.55 < tau < 0.6
    assert ber == pytest.approx(0.208333, abs=1e-6)
    assert balanced_error_rate(Y, (S >= tau).astype(int)) == pytest.approx(ber)


def test_threshold_never_splits_ties():
    y = np.array([1, 0, 1, 0])
    s = np.array([0.7, 0.7, 0.2, 0.2])
    tau, ber = optimal_ber_threshold(y, s)
    assert ber == pytest.approx(0.5)
    pred = (s >= tau).astype(int)
    assert pred[0] == pred[1] and pred[2] == pred[3]


def test_threshold_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(20):
        y = rng.integers(0, 2, 40)
        y[:2] = [0, 1]
        s = np.round(rng.random(40), 1)
        _, ber = optimal_ber_threshold(y, s)
        candidates = np.concatenate([np.unique(s), [np.inf]])
        best = min(balanced_error_rate(y, (s >= t).astype(int)) for t in candidates)
        assert ber == pytest.approx(best)


class FixedScores(ClassifierMixin, BaseEstimator):
    """Returns the oracle scores: the test's stand-in classifier."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        s = np.asarray(X)[:, 0]
        return np.column_stack([1 - s, s])

    def predict(self, X):
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(int)]


def test_wrapper_uses_the_optimised_threshold():
    X = S[:, None]
    labels = np.where(Y == 1, "pos", "neg")  # classes_ = [neg, pos]
    clf = BERThreshold(estimator=FixedScores()).fit(X, labels)
    assert 0.55 < clf.threshold_ < 0.6
    assert clf.train_ber_ == pytest.approx(0.208333, abs=1e-6)
    pred = clf.predict(X)
    assert balanced_error_rate(labels, pred) == pytest.approx(0.208333, abs=1e-6)
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], S)


def test_wrapper_multiclass_passthrough():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 2)), np.repeat([0, 1, 2], 20)
    clf = BERThreshold(estimator=LogisticRegression()).fit(X, y)
    assert clf.threshold_ is None
    np.testing.assert_array_equal(clf.predict(X), clf.estimator_.predict(X))


def test_ber_guess_is_cv_ber():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + rng.normal(size=200) > 1).astype(int)
    guess = ber_guess(LogisticRegression(), X, y, cv=10, seed=3)
    folds = StratifiedKFold(10, shuffle=True, random_state=3).split(X, y)
    expected = np.mean(
        [
            balanced_error_rate(y[te], LogisticRegression().fit(X[tr], y[tr]).predict(X[te]))
            for tr, te in folds
        ]
    )
    assert guess == pytest.approx(expected)
    assert ber_guess(BERThreshold(estimator=LogisticRegression()), X, y) < 0.5


def test_sklearn_compatible():
    # by design, predict is not argmax(predict_proba): the threshold is moved
    reason = "predict uses the BER-optimised threshold, not argmax(predict_proba)"
    check_estimator(
        BERThreshold(estimator=LogisticRegression()),
        expected_failed_checks={"check_classifiers_train": reason},
    )
