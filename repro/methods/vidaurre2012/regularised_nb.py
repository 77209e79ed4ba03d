"""``l1l2_nb`` and ``al1l2_nb``: the group-lasso regularised naive Bayes (vidaurre2012 §3).

The estimators orchestrate: the interpolated per-variable models are
:mod:`repro.preprocessing.interpolation`, the line search, the exclusion thresholds and the λ path
:mod:`repro.methods.vidaurre2012.group_lasso` (where the formulas and the threshold derivation are).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from repro.methods.core.checks import check_int, check_real
from repro.methods.vidaurre2012.group_lasso import group_lasso_path
from repro.methods.vidaurre2012.interpolated import InterpolatedNaiveBayes


class L1L2NaiveBayes(InterpolatedNaiveBayes):
    """L1/L2-regularised naive Bayes (van Gerven & Heskes 2008; vidaurre2012 §3.1–3.2).

    Minimises −log L(D; Ω) + λ Σ_i ‖Ω_i − Ω_i^(0)‖₂ (eq. 8 for Gaussians over (μ, σ), eq. 9 for
    tables over θ; mixed data sets use one λ for both, the paper's §8 caveat), per predictor by
    the paper's line search on α_i ∈ [0, 1] along Ω_i(α) = αΩ_i^(1) + (1 − α)Ω_i^(0), where the
    penalty is λ·α·‖Ω_i^(1) − Ω_i^(0)‖₂. λ runs over a grid and is chosen by AIC
    = −(2/N)Σ log P(y|x) + 2d/N, d = #{α_i > 0} (§6).

    The λ grid (the paper gives none): λ_max = the largest exclusion threshold λ_i* (above it
    every predictor is out, :func:`repro.methods.vidaurre2012.group_lasso.exclusion_threshold`),
    then
    ``n_lambdas`` − 1 values geometrically down to λ_max·``lambda_min_ratio``, then λ = 0.
    λ is on the scale of the summed log-likelihood (nats), as in eq. (8)–(9).

    Parameters
    ----------
    n_lambdas : int ≥ 2, default 50
    lambda_min_ratio : float in (0, 1), default 1e-3
    alpha, ddof, var_smoothing, categorical_features : as
        :class:`repro.methods.vidaurre2012.interpolated.InterpolatedNaiveBayes` (defaults 1.0, 0,
        1e-9)

    Attributes
    ----------
    alphas_ : ndarray (K,), α at the chosen λ; weights_ : the same
    lambda_ : float, the chosen λ
    thresholds_ : ndarray (K,), λ_i* (0 for uninformative predictors)
    fit_report_ : dict
        ``path``: DataFrame with one row per λ (``lambda``, ``d``, ``errors``, ``error``,
        ``nll``, ``log_loss``, ``aic``, ``penalised`` objective without the class-prior term,
        ``alphas``); ``alpha_path`` (L × K); ``best_index``; ``criterion`` (minimal AIC).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> L1L2NaiveBayes().fit(X, y).score(X, y) > 0.9
    True
    """

    #: divide predictor i's penalty by ‖Ω_i^(1) − Ω_i^(0)‖₂ (the adaptive form)
    _adaptive = False

    def __init__(
        self,
        *,
        n_lambdas=50,
        lambda_min_ratio=1e-3,
        alpha=1.0,
        ddof=0,
        var_smoothing=1e-9,
        categorical_features="auto",
    ):
        super().__init__(
            alpha=alpha,
            ddof=ddof,
            var_smoothing=var_smoothing,
            categorical_features=categorical_features,
        )
        self.n_lambdas = n_lambdas
        self.lambda_min_ratio = lambda_min_ratio

    def _check_params(self):
        super()._check_params()
        check_int("n_lambdas", self.n_lambdas, 2)
        check_real("lambda_min_ratio", self.lambda_min_ratio, 0, 1, low_open=True, high_open=True)

    def _penalty_weights(self) -> np.ndarray:
        """w_i: slope of the penalty in α_i per unit λ (‖Ω^(1) − Ω^(0)‖₂, or 1 when adaptive)."""
        distance = np.array([m.distance_ for m in self.variables_])
        return np.ones_like(distance) if self._adaptive else distance

    def _fit_alphas(self, columns, candidates, y):
        start = time.perf_counter()
        weights = self._penalty_weights()
        # a predictor with Ω^(1) = Ω^(0) has a flat ℓ: it never enters (and has no adaptive weight)
        candidates = np.array([i for i in candidates if self.variables_[i].distance_ > 0], int)
        result = group_lasso_path(
            columns,
            self.variables_,
            weights,
            self.class_log_prior_,
            y,
            n_lambdas=self.n_lambdas,
            min_ratio=self.lambda_min_ratio,
            candidates=candidates,
        )
        n = y.size
        path = pd.DataFrame(
            {
                "lambda": result.lambdas,
                "d": result.d,
                "errors": result.errors,
                "error": result.errors / n,
                "nll": result.nll,
                "log_loss": result.nll / n,
                "aic": result.aic,
                "penalised": result.penalised,
                "alphas": list(result.alpha_path),
            }
        )
        self.lambda_ = float(result.lambdas[result.best])
        self.thresholds_ = result.thresholds
        self.fit_report_.update(
            path=path,
            alpha_path=result.alpha_path,
            best_index=result.best,
            criterion=float(result.aic[result.best]),
            criterion_name="aic",
            lambda_=self.lambda_,
            search_time=time.perf_counter() - start,
        )
        return result.alphas


class AdaptiveL1L2NaiveBayes(L1L2NaiveBayes):
    """Adaptive L1/L2-regularised naive Bayes (aL1/L2-NB, vidaurre2012 §3.2).

    As :class:`L1L2NaiveBayes`, with predictor i's penalty divided by ‖Ω_i^(1) − Ω_i^(0)‖₂
    (the adaptive-lasso idea of Zou 2006: each penalty scaled by the size of the unpenalised
    estimate), so that along the interpolation path it is λ·α_i for every predictor:
    the exclusion threshold is ℓ_i'(0) (Pearson's χ² of a table with the MLE), independent of
    the units of a numeric predictor. Same parameters and attributes.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> AdaptiveL1L2NaiveBayes().fit(X, y).score(X, y) > 0.9
    True
    """

    _adaptive = True
