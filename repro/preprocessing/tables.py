"""Class-conditional log-probability tables from a partition's contingency table (SPEC §3.4).

A partition of variable k has ``counts`` (parts × classes), ``n_ij`` = training instances of class j
in part i. The tables below are ``log P(part i | class j)`` (parts × classes); every column sums
to 1 in probability space.
"""

from __future__ import annotations

import numpy as np


def contingency(codes: np.ndarray, y: np.ndarray, n_parts: int, n_classes: int) -> np.ndarray:
    """Counts n_ij of the instances with part code i (0 ≤ i < n_parts) and class j.

    Codes outside [0, n_parts) (missing, unseen) are left out.
    """
    codes = np.asarray(codes)
    keep = (codes >= 0) & (codes < n_parts)
    flat = codes[keep].astype(np.int64) * n_classes + np.asarray(y)[keep]
    return np.bincount(flat, minlength=n_parts * n_classes).reshape(n_parts, n_classes)


def laplace_log_table(counts: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """Laplace estimate (wu2015 §2): P(v | y) = (#(v, y) + α) / (#y + α·M), M = number of values.

    ``#y`` is the number of class-y instances with a non-missing value (column sum of counts).
    """
    counts = np.asarray(counts, dtype=np.float64)
    n_values = counts.shape[0]
    return np.log(counts + alpha) - np.log(counts.sum(axis=0) + alpha * n_values)


def m_estimate_log_table(counts: np.ndarray, n_total: int) -> np.ndarray:
    """m-estimate of boulle2007 §2.1: (support + m·p) / (coverage + m), m = J/N.

    Reading for P(part i | class j): support = n_ij, coverage = N_j (the class count), and p is
    the uniform prior of the estimated outcome, here a part: p = 1/I. (The paper's p = 1/J is the
    uniform prior over classes, the outcome of P(class | part); p = 1/I makes every column a
    distribution over the I parts.) With m = J/N the correction is tiny and only avoids zeros.
    """
    counts = np.asarray(counts, dtype=np.float64)
    n_parts, n_classes = counts.shape
    m = n_classes / max(n_total, 1)
    return np.log(counts + m / n_parts) - np.log(counts.sum(axis=0) + m)


def class_log_prior(class_counts: np.ndarray, alpha: float = 0.0) -> np.ndarray:
    """log P(y = j) = log((N_j + α) / (N + α·J)); α = 0 is the plain frequency estimate."""
    class_counts = np.asarray(class_counts, dtype=np.float64)
    return np.log(class_counts + alpha) - np.log(class_counts.sum() + alpha * class_counts.size)
