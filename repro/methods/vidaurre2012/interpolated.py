"""Naive Bayes over interpolated per-variable models: the base of fsNB and L1/L2-NB (vidaurre2012).

Each predictor X_i has parameters Ω_i(α_i) = α_i·Ω_i^(1) + (1 − α_i)·Ω_i^(0) between its
class-conditional estimate (α_i = 1) and its class-independent one (α_i = 0, the predictor
removed), eq. (13); :mod:`repro.preprocessing.interpolation` holds the models (tables for nominal
predictors, Gaussians with interpolated mean and standard deviation for numeric ones, mixed
freely). The classifier is eq. (4) with these parameters::

    P(y = j | x) ∝ π_j · Π_i P(x_i | y = j; Ω_i(α_i))

It is not a weighted product (log P(x_i | y; Ω_i(α)) is not linear in α), so
:meth:`_joint_log_likelihood` is overridden; ``weights_`` holds the α's (in [0, 1]) so that
``selected_`` (α_i > 0) and the model metrics of the runner read as for the other methods.
Subclasses choose the α's in :meth:`_fit_alphas` with the pure searches of
:mod:`repro.methods.vidaurre2012.stagewise` and :mod:`repro.methods.vidaurre2012.group_lasso`.
"""

from __future__ import annotations

import numpy as np

from repro.methods.core.base import WeightedNaiveBayes
from repro.methods.core.checks import check_choice, check_real
from repro.preprocessing.interpolation import interpolated_model


class InterpolatedNaiveBayes(WeightedNaiveBayes):
    """Base class: naive Bayes whose predictors sit between "in" (α = 1) and "out" (α = 0).

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Pseudo-count of the nominal tables, θ^(1)_kj = (n_kj + a)/(N_j + a·M) and
        θ^(0)_k = (n_k + a)/(N + a·M). The paper uses the MLE (a → 0) and does not say how it
        treats a category never seen with a class; a > 0 keeps every log-probability finite.
    ddof : {0, 1}, default 0
        Variance denominator of the Gaussians (0: the MLE of the paper).
    var_smoothing : float ≥ 0, default 1e-9
        Added variance relative to the column's largest variance (keeps a constant class finite).
    categorical_features : "auto" or mask/indices/names
        Which columns are nominal (:class:`repro.methods.core.encoding.TabularEncoder`).

    Attributes
    ----------
    alphas_ : ndarray (K,) in [0, 1], the interpolation coefficient of each predictor
    weights_ : ndarray (K,), equal to ``alphas_``
    selected_ : ndarray (K,) of bool, α_i > 0; n_selected_features_ : int
    """

    def __init__(self, *, alpha=1.0, ddof=0, var_smoothing=1e-9, categorical_features="auto"):
        self.alpha = alpha
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.categorical_features = categorical_features

    def _check_params(self):
        check_real("alpha", self.alpha, low=0, low_open=True)
        check_choice("ddof", self.ddof, (0, 1))
        check_real("var_smoothing", self.var_smoothing, low=0)

    def _make_variable_model(self, k, nominal, n_categories):
        return interpolated_model(nominal, n_categories, self.alpha, self.ddof, self.var_smoothing)

    def _fit_alphas(self, columns, candidates, y) -> np.ndarray:
        raise NotImplementedError

    def _fit_weights(self, Z, y):
        columns = [m.training_column(Z[:, k]) for k, m in enumerate(self.variables_)]
        candidates = np.array([k for k, m in enumerate(self.variables_) if m.informative_], int)
        self.fit_report_["n_candidates"] = int(candidates.size)
        alphas = np.zeros(len(self.variables_))
        if candidates.size:
            alphas = np.asarray(self._fit_alphas(columns, candidates, y), dtype=np.float64)
        self.alphas_ = alphas
        return alphas

    def active_variables(self) -> np.ndarray:
        return np.flatnonzero(self.alphas_ > 0)

    def variable_term(self, k, column):
        """log of the interpolated P(x_k | j) at α_k (the score's term of variable k)."""
        return self.variables_[k].log_likelihood(column, float(self.alphas_[k]))

    def _feature_names(self) -> list[str]:
        names = getattr(self, "feature_names_in_", None)
        if names is None:
            return [f"x{k}" for k in range(len(self.variables_))]
        return [str(n) for n in names]
