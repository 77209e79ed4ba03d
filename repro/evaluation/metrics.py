"""Evaluation criteria of the five papers, computed from class probabilities.

All functions take ``y`` as class indices 0..J−1 (columns of ``proba``), ``proba`` (n × J) with
rows summing to 1. Natural logarithms. Probabilities are floored at :data:`PROBA_FLOOR` only where a
logarithm needs it (ILF, compression rate, log-sum); the floor is part of the records' metadata.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score

PROBA_FLOOR = 1e-15


def accuracy(y: np.ndarray, proba: np.ndarray) -> float:
    """ACC: share of instances whose most probable class is the true one."""
    return float(accuracy_score(y, np.argmax(proba, axis=1)))


def auc(y: np.ndarray, proba: np.ndarray) -> float:
    """Multi-class AUC of Provost & Domingos: Σ_j P(c_j)·AUC(c_j vs rest), P(c_j) = test frequency.

    ``roc_auc_score(..., multi_class="ovr", average="weighted")``; binary: AUC of P(class 1).
    Classes absent from the test part have weight 0; they are left out (scikit-learn would
    refuse them), which leaves the weighted mean unchanged. NaN when one class only is present.
    """
    n_classes = proba.shape[1]
    present = np.unique(y)
    if present.size < 2:
        return float("nan")
    if n_classes == 2:
        return float(roc_auc_score(y, proba[:, 1]))
    if present.size == n_classes:
        return float(
            roc_auc_score(
                y, proba, multi_class="ovr", average="weighted", labels=np.arange(n_classes)
            )
        )
    per_class = [roc_auc_score(y == j, proba[:, j]) for j in present]
    weights = np.array([np.mean(y == j) for j in present])
    return float(np.dot(weights, per_class) / weights.sum())


def _log_true_proba(y: np.ndarray, proba: np.ndarray) -> np.ndarray:
    return np.log(np.maximum(proba[np.arange(y.size), y], PROBA_FLOOR))


def log_sum(y: np.ndarray, proba: np.ndarray) -> float:
    """elovaara2008 log-sum: Σ_n log P(y_n | x_n) over the test instances."""
    return float(_log_true_proba(y, proba).sum())


def ilf(y: np.ndarray, proba: np.ndarray) -> float:
    """Index of loss function (boulle2007 §7): mean of −log P(y_n | x_n)."""
    return float(-_log_true_proba(y, proba).mean())


def compression_rate(y: np.ndarray, proba: np.ndarray, train_prior: np.ndarray) -> float:
    """CR = 1 − ILF / ILF_0, ILF_0 = ILF of the null model predicting the training-fold priors."""
    null = np.repeat(np.asarray(train_prior, float)[None, :], y.size, axis=0)
    return float(1.0 - ilf(y, proba) / ilf(y, null))


def balanced_error_rate(y: np.ndarray, proba: np.ndarray) -> float:
    """BER = mean over the classes present of (1 − recall) = 1 − balanced accuracy. A predicted
    class absent from ``y`` (a small fold) has no recall and is not counted, as the definition
    says: scikit-learn's warning that it is absent is silenced here."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="y_pred contains classes not in y_true")
        return float(1.0 - balanced_accuracy_score(y, np.argmax(proba, axis=1)))


def brier_score(y: np.ndarray, proba: np.ndarray) -> float:
    """Brier score (multi-class, Brier 1950): mean over instances of Σ_j (p_nj − [y_n = j])²;
    0 for certain right answers, 2 for certain wrong ones (twice scikit-learn's binary
    ``brier_score_loss``, which scores P(class 1) only)."""
    onehot = np.zeros_like(proba, dtype=np.float64)
    onehot[np.arange(y.size), y] = 1.0
    return float(np.mean(np.sum((proba - onehot) ** 2, axis=1)))


#: equal-width bins of the predicted probability of :func:`reliability_table`
CALIBRATION_BINS = 15


def reliability_table(y: np.ndarray, proba: np.ndarray, n_bins: int = CALIBRATION_BINS):
    """Top-label reliability: the instances binned by the probability of their most probable
    class into ``n_bins`` equal-width bins of [0, 1] (right-closed, the first closed); per
    non-empty bin, ``(count, mean confidence, accuracy)`` as three arrays (Guo et al. 2017)."""
    confidence = proba.max(axis=1)
    right = (np.argmax(proba, axis=1) == y).astype(np.float64)
    bins = np.clip(np.ceil(confidence * n_bins).astype(np.int64) - 1, 0, n_bins - 1)
    count = np.bincount(bins, minlength=n_bins).astype(np.float64)
    used = count > 0
    mean_conf = np.bincount(bins, confidence, n_bins)[used] / count[used]
    accuracy_ = np.bincount(bins, right, n_bins)[used] / count[used]
    return count[used], mean_conf, accuracy_


def expected_calibration_error(
    y: np.ndarray, proba: np.ndarray, n_bins: int = CALIBRATION_BINS
) -> float:
    """ECE = Σ_b (n_b / N) · |accuracy_b − confidence_b| over the bins of
    :func:`reliability_table` (top-label, equal width; Naeini et al. 2015, Guo et al. 2017)."""
    count, confidence, accuracy_ = reliability_table(y, proba, n_bins)
    return float(np.sum(count * np.abs(accuracy_ - confidence)) / count.sum())


PREDICTIVE_METRICS = ("accuracy", "error", "auc", "ilf", "compression_rate",
                      "balanced_error_rate", "log_sum", "brier", "ece")  # fmt: skip

#: metrics of :func:`predictive_metrics` added after results were first stored: records computed
#: before lack them (the committed ones do), and every reader takes a cell without them as it is
ADDED_METRICS = ("brier", "ece")


def predictive_metrics(y: np.ndarray, proba: np.ndarray, train_prior: np.ndarray) -> dict:
    """All the probability-based criteria of one split, by name (:data:`PREDICTIVE_METRICS`):
    ``brier`` is :func:`brier_score`, ``ece`` :func:`expected_calibration_error` (15 bins)."""
    acc = accuracy(y, proba)
    return {
        "accuracy": acc,
        "error": 1.0 - acc,
        "auc": auc(y, proba),
        "ilf": ilf(y, proba),
        "compression_rate": compression_rate(y, proba, train_prior),
        "balanced_error_rate": balanced_error_rate(y, proba),
        "log_sum": log_sum(y, proba),
        "brier": brier_score(y, proba),
        "ece": expected_calibration_error(y, proba),
    }
