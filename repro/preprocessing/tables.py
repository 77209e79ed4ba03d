"""Class-conditional log-probability tables from a partition's contingency table.

A partition of variable k has ``counts`` (parts × classes), ``n_ij`` = training instances of class j
in part i. The tables below are ``log P(part i | class j)`` (parts × classes); every column sums
to 1 in probability space.
"""

from __future__ import annotations

from functools import partial

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


#: readings of the m-estimate's prior p for P(part i | class j): 1/I (parts) or 1/J (classes)
M_ESTIMATE_PRIORS = ("parts", "classes")


def m_estimate_log_table(counts: np.ndarray, n_total: int, prior: str = "parts") -> np.ndarray:
    """m-estimate of boulle2007 §2.1: (support + m·p) / (coverage + m), m = J/N.

    Reading for P(part i | class j): support = n_ij, coverage = N_j (the class count), and p is
    the uniform prior of the estimated outcome, here a part: p = 1/I (``prior="parts"``, the
    default). The paper writes p = 1/J, which read literally (``prior="classes"``) gives
    (n_ij + 1/N)/(N_j + J/N): a column then sums to (N_j + I/N)/(N_j + J/N), not 1, when I ≠ J.
    p = 1/I makes every column a distribution over the I parts. With m = J/N the correction is
    tiny and only avoids zeros.

    Which reading is kept was decided on boulle2007 Table 3: NB and NB(EF) refitted with both on
    the stored stratified 10-fold splits of its 25 data sets (experiments/boulle2007/README.md).
    Mean test CR, p = 1/I vs p = 1/J (published: NB .476, NB(EF) .401):

    ===========================  =============  =============
    output                       NB             NB(EF)
    ===========================  =============  =============
    no shrink                    .2155 / .2139  .0601 / .0677
    Khiops' output shrink        .3662 / .3649  .2262 / .2278
    ===========================  =============  =============

    p = 1/J is closer for NB(EF) (its 10 bins make I > J, so 1/J puts more mass, 1/N instead of
    J/(10N), into empty cells; better on 18 of 25 sets without the shrink), farther for NB.
    Summed over the two, the literal reading closes the gap to the published means by .006
    without the shrink and by .0003 with it, against remaining gaps of .11 to .34: the two
    readings are practically as far from the published numbers, and the data cannot choose.
    The default stays p = 1/I, the reading that gives a probability distribution over the
    parts and the one of every stored result; ``prior="classes"`` is the option to compare.
    """
    if prior not in M_ESTIMATE_PRIORS:
        raise ValueError(f"prior must be one of {list(M_ESTIMATE_PRIORS)}, got {prior!r}")
    counts = np.asarray(counts, dtype=np.float64)
    n_parts, n_classes = counts.shape
    m = n_classes / max(n_total, 1)
    m_p = m / (n_parts if prior == "parts" else n_classes)  # m·p, as m / I before (bit-identical)
    return np.log(counts + m_p) - np.log(counts.sum(axis=0) + m)


def m_estimate(prior: str = "parts"):
    """The estimator ``(counts, n_total) -> log table`` of :func:`m_estimate_log_table` with the
    given reading of p ("parts": the function itself, "classes": p = 1/J)."""
    if prior not in M_ESTIMATE_PRIORS:
        raise ValueError(f"prior must be one of {list(M_ESTIMATE_PRIORS)}, got {prior!r}")
    return m_estimate_log_table if prior == "parts" else partial(m_estimate_log_table, prior=prior)


def khiops_output_shrink(proba: np.ndarray, n_train: int, n_classes: int) -> np.ndarray:
    """Khiops' bound on the output probabilities (``KWDRNBClassifier::ComputeTargetProbs``):

        p̂_j = (p_j + 0.5/(J(N+1))) / (1 + 0.5/(N+1)),   N training instances, J classes.

    An affine shrink of every row toward the uniform distribution: rows still sum to 1, the class
    order of each row is kept, and no probability is below 0.5/(J(N+1)) / (1 + 0.5/(N+1)).
    """
    proba = np.asarray(proba, dtype=np.float64)
    n, j = n_train, n_classes
    return (proba + 0.5 / (j * (n + 1))) / (1 + 0.5 / (n + 1))


def class_log_prior(class_counts: np.ndarray, alpha: float = 0.0) -> np.ndarray:
    """log P(y = j) = log((N_j + α) / (N + α·J)); α = 0 is the plain frequency estimate."""
    class_counts = np.asarray(class_counts, dtype=np.float64)
    return np.log(class_counts + alpha) - np.log(class_counts.sum() + alpha * class_counts.size)
