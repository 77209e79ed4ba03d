"""Reliability diagram: how well the predicted probabilities are calibrated.

The instances are binned by the probability of their most probable class
(:func:`repro.evaluation.metrics.reliability_table`); each bin is a point at (mean confidence,
accuracy), the diagonal is perfect calibration, and the legend gives the expected calibration
error (:func:`repro.evaluation.metrics.expected_calibration_error`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.evaluation.metrics import (
    CALIBRATION_BINS,
    expected_calibration_error,
    reliability_table,
)


def reliability_diagram(curves: dict, ax=None, n_bins: int = CALIBRATION_BINS):
    """Draw one reliability curve per entry of ``curves`` (label → ``(y, proba)``: class indices
    and the n × J class probabilities) on ``ax`` (a new figure when None); returns ``ax``."""
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], color="0.6", linestyle="--", linewidth=1, label="calibrated")
    for label, (y, proba) in curves.items():
        y, proba = np.asarray(y), np.asarray(proba, dtype=np.float64)
        _, confidence, accuracy = reliability_table(y, proba, n_bins)
        ece = expected_calibration_error(y, proba, n_bins)
        ax.plot(confidence, accuracy, marker="o", label=f"{label} (ECE {ece:.3f})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("confidence (probability of the predicted class)")
    ax.set_ylabel("accuracy")
    ax.legend(loc="upper left", fontsize="small")
    return ax
