"""A cell's test-fold class probabilities, stored beside its records on demand, and every
probability-based metric computed back from them without refitting.

``store_proba=true`` (``python -m repro``; ``evaluate(..., store_proba=True)``) wraps the cell's
artefact hook in :class:`StoredPredictions`: each fold adds two artefact kinds to the cell's
artefact file (``<results>/<experiment>/artefacts/<data set>/<stem>.parquet``), checkpointed
and resumed with the fold as every artefact:

- ``proba``: one row per test instance: ``row`` (its position in the data set), ``y`` (the index
  of its class among the data set's sorted classes) and ``proba_0`` … ``proba_{J−1}`` (float32:
  4 bytes a probability, about 1e-7 relative);
- ``prior``: one row per class, ``class`` and ``value``, the training fold's class shares (what
  the compression rate compares with).

:func:`prediction_metrics` turns them into test-split records of every metric of
:func:`~repro.evaluation.metrics.predictive_metrics` (so a metric added later, Brier and ECE
for cells stored before them, is computed from stored predictions); float32 moves a metric by
~1e-7 relative from the one computed on the float64 probabilities of the fit.

A finished cell without stored probabilities is computed again when asked for them (its records
come out the same: the folds are deterministic).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from repro.evaluation.metrics import predictive_metrics

#: the artefact kinds of stored predictions
PROBA_KIND = "proba"
PRIOR_KIND = "prior"
#: the record columns that name a cell's fold in the rows :func:`prediction_metrics` returns
FOLD_KEYS = ["experiment", "method", "dataset", "dataset_key", "repetition", "fold"]


class StoredPredictions:
    """Artefact hook (:data:`repro.evaluation.runner.ArtefactHook`) adding a fold's test-set
    probabilities and training priors (:data:`PROBA_KIND`, :data:`PRIOR_KIND`) to the artefacts
    of ``inner`` (a study's own hook, or None). Picklable: it travels to the fold workers."""

    def __init__(self, inner=None):
        self.inner = inner

    def __call__(self, fold) -> dict:
        out = dict(self.inner(fold)) if self.inner is not None else {}
        proba = np.asarray(fold.proba_test, dtype=np.float32)
        columns = {
            "row": np.asarray(fold.split.test, dtype=np.int64),
            "y": np.asarray(fold.y_test, dtype=np.int64),
        }
        columns.update({f"proba_{j}": proba[:, j] for j in range(proba.shape[1])})
        out[PROBA_KIND] = pd.DataFrame(columns)
        prior = np.asarray(fold.prior, dtype=np.float64)
        out[PRIOR_KIND] = pd.DataFrame({"class": np.arange(prior.size), "value": prior})
        return out


def with_stored_predictions(hook=None) -> StoredPredictions:
    """``hook`` (a study's artefact hook or None) with the fold's predictions added; a hook that
    stores them already is returned as it is."""
    return hook if isinstance(hook, StoredPredictions) else StoredPredictions(hook)


def has_predictions(artefacts: pd.DataFrame | None) -> bool:
    """True when an artefact frame holds stored predictions."""
    return (
        artefacts is not None
        and "artefact" in artefacts
        and bool(artefacts["artefact"].eq(PROBA_KIND).any())
    )


def fold_predictions(artefacts: pd.DataFrame):
    """``(keys, y, proba, prior)`` per fold of the stored predictions in an artefact frame:
    ``keys`` the fold's :data:`FOLD_KEYS` values (a dict), ``y`` the class indices, ``proba``
    the n × J probabilities (float64 of the stored float32), ``prior`` the training shares."""
    keys = [k for k in FOLD_KEYS if k in artefacts]
    proba_rows = artefacts[artefacts["artefact"] == PROBA_KIND]
    prior_rows = artefacts[artefacts["artefact"] == PRIOR_KIND]
    columns = sorted(
        (c for c in artefacts.columns if c.startswith("proba_") and c[6:].isdigit()),
        key=lambda c: int(c[6:]),
    )
    priors = {k: g for k, g in prior_rows.groupby(keys, sort=False, dropna=False)}
    for key, grp in proba_rows.groupby(keys, sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        prior = priors.get(key)
        if prior is None:
            raise ValueError(f"stored predictions of {dict(zip(keys, key))} have no priors")
        n_classes = int(prior["class"].max()) + 1  # a data set with fewer classes: fewer columns
        proba = grp[columns[:n_classes]].to_numpy(np.float64)
        shares = prior.sort_values("class")["value"].to_numpy(np.float64)
        yield dict(zip(keys, key)), grp["y"].to_numpy(np.int64), proba, shares


def prediction_metrics(artefacts: pd.DataFrame) -> pd.DataFrame:
    """Test-split records (``FOLD_KEYS``, ``split`` = "test", ``metric``, ``value``) of every
    metric of :func:`~repro.evaluation.metrics.predictive_metrics` computed from the stored
    predictions of an artefact frame; empty when it holds none."""
    rows = []
    if has_predictions(artefacts):
        for keys, y, proba, prior in fold_predictions(artefacts):
            for metric, value in predictive_metrics(y, proba, prior).items():
                rows.append({**keys, "split": "test", "metric": metric, "value": value})
    columns = [*FOLD_KEYS, "split", "metric", "value"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["value"] = frame["value"].astype(float)
    return frame


def with_prediction_metrics(records: pd.DataFrame) -> pd.DataFrame:
    """``records`` (as :func:`~repro.evaluation.records.read_records` reads a folder: records
    and artefacts) with the test-split rows of every predictive metric that a fold with stored
    predictions lacks, computed from them (:func:`prediction_metrics`); each new row carries the
    context of its fold's other test rows (parameters, hash, sizes). Records without stored
    predictions are returned as they are."""
    if not has_predictions(records):
        return records
    stored = records[records["artefact"].isin([PROBA_KIND, PRIOR_KIND])]
    computed = prediction_metrics(stored)
    test = records[records["split"] == "test"]
    have = pd.MultiIndex.from_frame(test[[*FOLD_KEYS, "metric"]])
    keys = pd.MultiIndex.from_frame(computed[[*FOLD_KEYS, "metric"]])
    lacking = computed[~keys.isin(have)]
    if lacking.empty:
        return records
    template = test.drop_duplicates(FOLD_KEYS).drop(columns=["metric", "value"])
    added = lacking.drop(columns=["split"]).merge(template, on=FOLD_KEYS, how="inner")
    return pd.concat(
        [records, added[[c for c in records.columns if c in added]]], ignore_index=True
    )


__all__ = [
    "FOLD_KEYS",
    "PRIOR_KIND",
    "PROBA_KIND",
    "StoredPredictions",
    "fold_predictions",
    "has_predictions",
    "prediction_metrics",
    "with_prediction_metrics",
    "with_stored_predictions",
]
