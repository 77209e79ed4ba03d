"""The criteria of boulle2007: the prior of a variable selection, criterion (4) and the model
weights of Bayesian and compression-based model averaging (§3.3, §4.3, §6.2).

- :func:`selection_prior_cost`, :func:`map_cost`: the prior of a variable selection and criterion
  (4) of boulle2007 §3;
- :func:`bma_model_weights`, :func:`cma_model_weights`: the model weights of Bayesian and
  compression-based model averaging (boulle2007 §4.3, §6.2).
"""

from __future__ import annotations

import math

import numpy as np

from repro.preprocessing.modl.criteria import lbinom


def selection_prior_cost(n_variables: int, n_selected) -> np.ndarray | float:
    """Code length l(M) of a variable selection (boulle2007 §3.3), in nats.

        l(M) = log(K + 1) + log C(K + K_m − 1, K_m)

    uniform prior on the number K_m ∈ [0, K] of selected variables, then every multiset of K_m
    variables among K equiprobable (combinations with replacement). Vectorised over ``n_selected``.
    """
    K = int(n_variables)
    km = np.asarray(n_selected, dtype=np.float64)
    if K < 1:
        raise ValueError(f"n_variables must be ≥ 1, got {n_variables!r}")
    if np.any((km < 0) | (km > K)):
        raise ValueError(f"n_selected must lie in [0, {K}], got {n_selected!r}")
    value = math.log(K + 1) + lbinom(K + km - 1, km)
    return float(value) if np.ndim(value) == 0 else value


def map_cost(nll: float, n_variables: int, n_selected: int) -> float:
    """Criterion (4) of boulle2007: l(M) + l(D|M) = l(M) − Σ_n log P_M(y_n | x_n)."""
    return float(selection_prior_cost(n_variables, n_selected)) + float(nll)


# ---------------------------------------------------------------------------------------------
# Model averaging (boulle2007 §4.3, §6.2)
# ---------------------------------------------------------------------------------------------
def bma_model_weights(cost: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """Posterior weights P(M_m | D) ∝ exp(−cost_m) of the kept models, as exp(cost_min − cost_m)
    (≤ 1, no overflow; 0 for the others). ``cost`` = criterion (4) in nats."""
    cost = np.asarray(cost, dtype=np.float64)
    keep = np.ones(cost.size, bool) if keep is None else np.asarray(keep, bool)
    w = np.zeros(cost.size)
    if keep.any():
        w[keep] = np.exp(cost[keep].min() - cost[keep])
    return w


def cma_model_weights(
    cost: np.ndarray, null_cost: float, keep: np.ndarray | None = None
) -> np.ndarray:
    """Compression coefficients c(M) = 1 − cost(M)/cost(M_0), kept where c > 0 (else 0)."""
    cost = np.asarray(cost, dtype=np.float64)
    keep = np.ones(cost.size, bool) if keep is None else np.asarray(keep, bool)
    c = 1.0 - cost / float(null_cost)
    return np.where(keep & (c > 0), c, 0.0)
