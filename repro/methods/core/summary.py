"""What a fitted weighted naive Bayes learned: one row per input variable, and its importance.

The score of class j is additive in the variables,

    score_j(x) = log P(j) + Σ_k t_kj(x_k),   t_kj(v) = w_k · log P(x_k = v | j)

(boulle2007 eq. 3, hue2024 eq. 2; a missing value has the term its variable model gives it: 0
where missing values are skipped, the term of its own part in Khiops' MODL models; BMA-NB and the
interpolated NB of vidaurre2012 have terms of their own, still one per variable). For an
additive score the Shapley value of variable k, with the training rows as the background
distribution, is exact:

    φ_kj(x) = t_kj(x_k) − E_train[t_kj(X_k)],     Σ_k φ_kj(x) = score_j(x) − E_train[score_j(X)]

The explained output is the log-odds of the second class for two classes (φ_k = φ_k1 − φ_k0:
what Khiops 11's ``interpret_predictor`` reports for that class, to its 10 printed digits,
tests/methods/test_shapley_khiops.py), and for J > 2 the scores centred over the classes
(φ_kj − mean_j' φ_kj': the softmax ignores what all classes share). For J > 2 Khiops explains
another quantity, each class against the rest pooled, log P(x_k | j)/P(x_k | ¬j), and weights
its importance by the class priors: its values and ranking differ from these.
The importance of variable k is the mean of |φ_k| over the rows (and over the classes for J > 2).
What is explained is the score; a model that bounds its output afterwards (Khiops' shrink toward
uniform of ``fnb_khiops``, ``output_shrink="khiops"``) is explained before that bound.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from repro.preprocessing.describe import describe_partition


def expected_terms(model, Z) -> np.ndarray:
    """E over the rows of ``Z`` of each variable's term t_kj (K × J; 0 where inactive)."""
    out = np.zeros((len(model.variables_), model.classes_.size))
    for k in model.active_variables():
        out[k] = model.variable_term(k, Z[:, k]).mean(axis=0)
    return out


def explained(phi: np.ndarray) -> np.ndarray:
    """The explained output of Shapley values φ (..., J): the log-odds of the second class for
    J = 2 (shape ...), the scores centred over the classes for J > 2 (shape ..., J)."""
    if phi.shape[-1] == 2:
        return phi[..., 1] - phi[..., 0]
    return phi - phi.mean(axis=-1, keepdims=True)


def importances(model, Z, background: np.ndarray) -> np.ndarray:
    """Mean |Shapley value| of each variable over the rows of ``Z`` (K,), one variable at a time
    (no N × K × J array); ``background``: :func:`expected_terms` of the training rows."""
    out = np.zeros(len(model.variables_))
    for k in model.active_variables():
        phi = model.variable_term(k, Z[:, k]) - background[k]
        out[k] = float(np.mean(np.abs(explained(phi))))
    return out


def shapley_values(model, Z, background: np.ndarray) -> np.ndarray:
    """Shapley values of every variable and row of ``Z`` for the explained output: N × K for two
    classes, N × K × J otherwise (0 for inactive variables)."""
    n, n_vars, n_classes = Z.shape[0], len(model.variables_), model.classes_.size
    phi = np.zeros((n, n_vars, n_classes))
    for k in model.active_variables():
        phi[:, k] = model.variable_term(k, Z[:, k]) - background[k]
    return explained(phi)


def model_summary(model, Z=None, names=None) -> pd.DataFrame:
    """One row per input variable of a fitted weighted naive Bayes (most important first):
    ``variable``, ``kind`` (numeric / nominal), ``model`` and ``partition`` (readable), ``n_parts``,
    ``level`` (MODL compression gain, NaN without one), ``weight``, ``selected``, ``importance``
    (mean |Shapley value| on the training rows) and, when ``Z`` (encoded rows) is given,
    ``importance_on_data`` on those rows."""
    names = names if names is not None else [f"x{k}" for k in range(len(model.variables_))]
    encoder = model.encoder_
    rows = []
    for k, variable in enumerate(model.variables_):
        nominal = bool(encoder.categorical_[k])
        unit = 1.0 if nominal else float(encoder.unit_[k])
        kind, parts, n_parts = describe_partition(variable, unit)
        modl = getattr(getattr(variable, "partition", None), "modl_", None)
        rows.append(
            {
                "variable": str(names[k]),
                "kind": "nominal" if nominal else "numeric",
                "model": kind,
                "partition": parts,
                "n_parts": n_parts,
                "level": float(getattr(modl, "level_", np.nan)),
                "weight": float(model.weights_[k]),
                "selected": bool(model.selected_[k]),
                "importance": float(model.importances_[k]),
            }
        )
    table = pd.DataFrame(rows)
    if Z is not None:
        table["importance_on_data"] = importances(model, Z, model.expected_terms_)
    order = np.argsort(-table["importance"].to_numpy(), kind="stable")
    return table.iloc[order].reset_index(drop=True)
