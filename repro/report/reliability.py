"""Reliability diagram: how well the predicted probabilities are calibrated.

The instances are binned by the probability of their most probable class
(:func:`repro.evaluation.metrics.reliability_table`); each bin is a point at (mean confidence,
accuracy), the diagonal is perfect calibration, and the legend gives the expected calibration
error (:func:`repro.evaluation.metrics.expected_calibration_error`).

``python -m repro.report calibration results=DIR`` draws it from the test-fold probabilities
stored with ``store_proba=true`` (:mod:`repro.evaluation.predictions`): one diagram per data set,
a curve per method of its test predictions pooled over the folds, and a table of the Brier score
and ECE per method and data set, the mean over the folds ± its standard error
(:func:`calibration_table`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from repro.evaluation.metrics import (
    CALIBRATION_BINS,
    brier_score,
    expected_calibration_error,
    reliability_table,
)
from repro.evaluation.predictions import fold_predictions, has_predictions

#: the columns of :func:`calibration_table`
COLUMNS = ["dataset", "method", "metric", "mean", "se", "n_folds", "pooled"]


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


def cell_predictions(records: pd.DataFrame) -> dict:
    """(data set, method) → the stored test predictions of its folds, a list of ``(y, proba)``
    (ValueError when ``records`` hold none: the cells were run without ``store_proba=true``)."""
    if not has_predictions(records):
        raise ValueError(
            "no stored predictions in these records: run the cells with store_proba=true "
            "(python -m repro ... store_proba=true) to store their test-fold probabilities"
        )
    folds: dict = {}
    for keys, y, proba, _ in fold_predictions(records):
        folds.setdefault((keys["dataset"], keys["method"]), []).append((y, proba))
    return dict(sorted(folds.items()))


def pooled(folds: list) -> tuple[np.ndarray, np.ndarray]:
    """``(y, proba)`` of a cell's folds (:func:`cell_predictions`) taken together."""
    return np.concatenate([y for y, _ in folds]), np.concatenate([p for _, p in folds])


#: the calibration metrics of :func:`calibration_table`
CALIBRATION_METRICS = {"brier": brier_score, "ece": expected_calibration_error}


def calibration_table(predictions: dict) -> pd.DataFrame:
    """Per data set, method and metric (``brier``, ``ece``) of :func:`cell_predictions`: the mean
    over the folds, its standard error (SD / √n over the n folds; 0 for one fold), n, and
    ``pooled``: the metric of the predictions of all folds together."""
    rows = []
    for (dataset, method), folds in predictions.items():
        for metric, score in CALIBRATION_METRICS.items():
            values = np.array([score(y, proba) for y, proba in folds])
            se = float(np.std(values, ddof=1) / np.sqrt(values.size)) if values.size > 1 else 0.0
            whole = score(*pooled(folds))
            rows.append([dataset, method, metric, float(values.mean()), se, values.size, whole])
    return pd.DataFrame(rows, columns=COLUMNS)


def calibration_figures(predictions: dict, out) -> list:
    """One reliability diagram per data set of :func:`cell_predictions` (``calibration_<data
    set>.png`` in ``out``), a curve per method of its folds pooled; the paths written."""
    from pathlib import Path

    from repro.report.escape import file_stem
    from repro.report.figure_files import save_figure

    by_dataset: dict = {}
    for (dataset, method), folds in predictions.items():
        by_dataset.setdefault(dataset, {})[method] = pooled(folds)
    paths = []
    for dataset, curves in by_dataset.items():
        ax = reliability_diagram(curves)
        ax.set_title(f"{dataset}: test folds pooled", fontsize="medium")
        fig = ax.figure
        paths.append(save_figure(fig, Path(out) / f"calibration_{file_stem(dataset)}.png", dpi=100))
        plt.close(fig)
    return paths
