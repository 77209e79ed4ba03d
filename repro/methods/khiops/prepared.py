"""The weighted naive Bayes over Khiops' MODL preparation, shared by the FNB family.

hue2024 (footnote 1, §2.1, §3.1) estimates every P(x_k | y) by the MODL discretization/grouping of
Khiops, and charges each variable its prior cost

    B(X_k) = construction cost + preparation cost = ln K + cost of the MODL partition of X_k

(K native variables: choosing one among K costs ln K; KHIOPS_NOTES §6.2). Only informative
variables (MODL Level > 0) take part in the weighting, as in Khiops.

:class:`KhiopsPreparedNaiveBayes` gives its subclasses (``fnb_khiops``, ``fnb``, ``wnb_opt``) the
variable models — Khiops MODL partitions with P(part i | j) = (n_ij + ε)/(N_j + I·ε),
ε = 1/(N+1) (:func:`khiops_log_table`) — the Levels, the informative variables in Khiops' order
(Level descending, then name) and their costs B_k (:meth:`prepared_candidates`). A subclass with
an ``n_jobs`` parameter (``fnb_khiops``) prepares its variables on that many threads (numeric
variables: one compiled discretization each) or processes (with nominal ones)
(:func:`repro.methods.core.base.fit_variable_models`).

``max_selected`` (all three, default None: no cap): at most M variables of weight > 0. When the
optimised weights select more, the M most important (mean |Shapley value| on the training rows,
ties by column) are kept and the weights re-optimised over them alone (the same search, the
others fixed at 0), not the weakest dropped from the optimum as Khiops 11's
``max_selected_variables`` does (KHIOPS_NOTES §6.3): the kept variables take up what the others
explained. ``fit_report_["n_selected_uncapped"]`` is the count before the cap.
"""

from __future__ import annotations

import math

import numpy as np

from repro.methods.core.base import WeightedNaiveBayes
from repro.methods.core.checks import check_int
from repro.methods.core.summary import expected_terms, importances
from repro.methods.plain.modl_nb import modl_variable_model


def khiops_log_table(counts, n_total):
    """log P(part i | j) = log((n_ij + ε)/(N_j + I·ε)), ε = 1/(N+1) (KWProbabilityTable)."""
    counts = np.asarray(counts, dtype=np.float64)
    eps = 1.0 / (n_total + 1.0)
    return np.log(counts + eps) - np.log(counts.sum(axis=0) + counts.shape[0] * eps)


class KhiopsPreparedNaiveBayes(WeightedNaiveBayes):
    """Base of the weighted naive Bayes classifiers over Khiops' MODL preparation.

    Attributes (after fit)
    ----------------------
    levels_ : ndarray (K,), Khiops Level (compression gain) of each variable
    variable_costs_ : ndarray (K,), B(X_k) = ln K + preparation cost (NaN for uninformative ones)
    """

    #: at most this many variables of weight > 0 (None: no cap; module docstring)
    max_selected = None

    #: Khiops' decimal reading of numbers is scale-free by itself and must see the raw values
    numeric_units = "raw"
    #: Z read column by column through MODL models: float32 input stays float32 (exact)
    compact_input = True

    def _make_variable_model(self, k, nominal, n_categories):
        return modl_variable_model(
            self.encoder_,
            k,
            nominal,
            "khiops",
            self.n_features_in_,
            khiops_log_table,
            "optimized_greedy",
        )

    def _variable_names(self) -> list[str]:
        names = getattr(self, "feature_names_in_", None)
        if names is not None:
            return [str(n) for n in names]
        return [str(k) for k in range(self.n_features_in_)]

    def prepared_candidates(self) -> tuple[list[int], dict[int, float]]:
        """The informative columns in Khiops' order (Level desc, name asc) and their B(X_k).

        Sets ``levels_`` and ``variable_costs_``. B_k = ln K + preparation cost of column k,
        K = the number of input columns (hue2024 §2.1: selection among K native variables).
        """
        n_vars = self.n_features_in_
        self.levels_ = np.array([m.partition.modl_.level_ for m in self.variables_])
        names = self._variable_names()
        informative = [k for k in range(n_vars) if self.levels_[k] > 0]
        kept = getattr(self, "_kept_under_cap", None)
        if kept is not None:  # the re-optimisation under max_selected: the kept variables only
            informative = [k for k in informative if k in kept]
        order = sorted(informative, key=lambda k: (-self.levels_[k], names[k]))
        costs = {
            k: math.log(n_vars) + self.variables_[k].partition.modl_.preparation_cost_
            for k in order
        }
        self.variable_costs_ = np.full(n_vars, np.nan)
        for k, b in costs.items():
            self.variable_costs_[k] = b
        return order, costs

    def _check_max_selected(self) -> None:
        check_int("max_selected", self.max_selected, 1, allow_none=True)

    def _limit_selection(self, Z, y, weights):
        """``max_selected`` (module docstring): the weights re-optimised over the M most
        important variables when more than M are selected."""
        cap, selected = self.max_selected, int(np.count_nonzero(weights))
        self.fit_report_["n_selected_uncapped"] = selected
        if cap is None or selected <= cap:
            return weights
        self.weights_ = weights  # the uncapped model, to rank its variables
        importance = importances(self, Z, expected_terms(self, Z))
        ranked = sorted(np.flatnonzero(weights), key=lambda k: (-importance[k], int(k)))
        self._kept_under_cap = {int(k) for k in ranked[:cap]}
        try:
            return self._fit_weights(Z, y)
        finally:
            del self._kept_under_cap
