"""vidaurre2012 studies (Vidaurre, Bielza, Larrañaga 2012; SPEC §8): what the sweeps keep of each
fitted fold beyond the metrics.

Tables 1 and 2 are plain method × data set sweeps (``conf/experiment/vidaurre2012_table1.yaml``,
``..._table2.yaml``; protocol ``synthetic`` for Table 1, ``cv10`` for Table 2). Their configs name
:func:`selected_variables` as the artefact hook (``artefacts:`` key), so that the report can count
the selected variables of each group of the §7.1 scenarios (V1 relevant, V2 redundant, V3 noise)
from the stored records alone.
"""

from __future__ import annotations

import numpy as np

from repro.evaluation.runner import FoldData


def selection_mask(model, n_features: int) -> np.ndarray:
    """The variables a fitted model uses: ``selected_`` (a mask or indices), else all."""
    selected = getattr(model, "selected_", None)
    if selected is None:
        return np.ones(n_features, dtype=bool)
    selected = np.asarray(selected)
    if selected.dtype == bool:
        return selected
    mask = np.zeros(n_features, dtype=bool)
    mask[selected.astype(int)] = True
    return mask


def selected_variables(fold: FoldData) -> dict[str, list[dict]]:
    """Artefact hook: one row per input variable, ``selected`` ∈ {0, 1} and its weight (or α)."""
    names = [str(c) for c in fold.X_train.columns]
    mask = selection_mask(fold.model, len(names))
    weights = getattr(fold.model, "weights_", None)
    if weights is None:
        weights = getattr(fold.model, "alphas_", None)
    weights = np.ones(len(names)) if weights is None else np.asarray(weights, dtype=float)
    return {
        "selected": [
            {"variable": name, "selected": int(mask[k]), "value": float(weights[k])}
            for k, name in enumerate(names)
        ]
    }
