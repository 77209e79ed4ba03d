"""A predictor's parameters interpolated between "in the model" and "removed" (vidaurre2012).

For predictor X_i, Ω_i^(1) are its class-conditional estimates and Ω_i^(0) its class-independent
ones: equal for every class, so that the predictor no longer changes the posterior ("predictor
removed", vidaurre2012 §2). Eq. (13) of the paper interpolates between the two::

    Ω_i(α) = α·Ω_i^(1) + (1 − α)·Ω_i^(0),      α ∈ [0, 1]                              (eq. 13)

forward stagewise NB (Algorithm 1, :mod:`repro.methods.vidaurre2012.stagewise`) moves α_i up in
steps of ε,
and the L1/L2-regularised NB (§3.2, :mod:`repro.methods.vidaurre2012.group_lasso`) line-searches
α_i for the
group-lasso objective, whose penalty along the path is ‖Ω_i(α) − Ω_i^(0)‖₂ = α·‖Ω_i^(1) − Ω_i^(0)‖₂.
Both use the per-variable models of this module; discrete and continuous predictors mix freely.

- :class:`InterpolatedTable` (a nominal predictor, one part per category): the conditional
  probability table θ_kj = P(X_i = k | Y = j) (paper §2, eq. 2) is interpolated entrywise,
  θ_kj(α) = α·θ^(1)_kj + (1 − α)·θ^(0)_k, with θ^(1)_kj = (n_kj + a)/(N_j + a·M) and
  θ^(0)_k = (n_k + a)/(N + a·M) (a = ``alpha``, M categories). The paper uses the MLE (a → 0);
  a > 0 keeps every probability positive, so that log P stays finite at α = 1 for a category
  never seen with some class; a = 1 (Laplace) is the default of the estimators. Each
  column θ_·j(α) is a convex combination of two distributions, hence a distribution.
- :class:`InterpolatedGaussian` (a numeric predictor, X_i | Y = j ~ N(μ_ij, σ_ij), paper §2,
  eq. 3): the mean and the **standard deviation** are interpolated,
  μ_j(α) = α·μ_j^(1) + (1 − α)·μ^(0) and σ_j(α) = α·σ_j^(1) + (1 − α)·σ^(0), because eq. (13) and
  the penalty of eq. (8) are written in σ (the paper's σ_ij is "the standard deviation"), not in
  σ². μ_j^(1), σ_j^(1) are the per-class estimates of
  :class:`~repro.preprocessing.variables.GaussianModel` (``ddof`` = 0: the MLE of the paper;
  ``var_smoothing`` keeps a constant class finite) and μ^(0), σ^(0) the pooled ones of
  :class:`~repro.preprocessing.variables.MarginalGaussian` (same ``ddof`` and smoothing).

Missing values (and categories unseen at fit time) carry no information: their rows of
log P(x | y; α) are zeros, for every α, as in the other naive Bayes models of the package; the
training statistics count the observed values only. A predictor constant on the training data is
uninformative (``informative_`` False): all its rows are zeros.

Besides ``log_likelihood(x, alpha)`` (n × J), each model gives, for the searches,

- ``training_column(x)``: the predictor's training column as ``codes`` (N,) into log tables
  ``tables(alphas)`` (T × rows × J), the shape of :class:`repro.methods.core.engine.EncodedData`
  (a discrete model: its parts plus a zero row; a Gaussian: one row per instance);
- ``loglik(alphas)`` and ``dloglik(alphas)``: ℓ_i(α) = Σ_r log P(x_ri | y_r; Ω_i(α)), the
  predictor's term of the joint log-likelihood log L (eq. 1), and its derivative in α, from
  sufficient statistics (O(M·J) or O(J) per α);
- ``distance_`` = ‖Ω_i^(1) − Ω_i^(0)‖₂: sqrt(Σ_j Σ_k (θ^(1)_kj − θ^(0)_k)²) (eq. 9), or
  sqrt(Σ_j (μ_j^(1) − μ^(0))² + (σ_j^(1) − σ^(0))²) (eq. 8).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from repro.preprocessing.variables import (
    LOG_2PI,
    GaussianModel,
    MarginalGaussian,
    MarginalTable,
    VariableModel,
    laplace_category_model,
)


def check_alphas(alphas) -> np.ndarray:
    """The interpolation coefficients as a 1-D float array in [0, 1] (ValueError otherwise)."""
    a = np.atleast_1d(np.asarray(alphas, dtype=np.float64))
    if a.ndim != 1 or not np.all((a >= 0.0) & (a <= 1.0)):
        raise ValueError(f"interpolation coefficients α must lie in [0, 1], got {alphas!r}")
    return a


@dataclass
class TrainingColumn:
    """A predictor's training column for the searches: ``codes`` (N,) into ``tables(alphas)``."""

    model: VariableModel
    x: np.ndarray

    @property
    def codes(self) -> np.ndarray:
        return self.model.table_codes(self.x)

    def tables(self, alphas) -> np.ndarray:
        """log P(x | y; α) tables, (len(alphas) × rows × J), rows indexed by ``codes``."""
        return self.model.tables(alphas, self.x)


class InterpolatedModel(VariableModel):
    """Base of the interpolated per-variable models (see the module docstring)."""

    def training_column(self, x: np.ndarray) -> TrainingColumn:
        return TrainingColumn(self, np.asarray(x, dtype=np.float64))

    def table_codes(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def tables(self, alphas, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def log_likelihood(self, x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
        """log P(x_n | y = j; Ω(α)) (n × J); α = 1 is the class-conditional model."""
        codes = self.table_codes(x)
        return self.tables([alpha], x)[0][codes]


class InterpolatedTable(InterpolatedModel):
    """Discrete predictor: θ_kj(α) = α·θ^(1)_kj + (1 − α)·θ^(0)_k (vidaurre2012 eq. 13).

    Parameters
    ----------
    n_categories : int
        Declared categories (codes 0..M−1 of the encoder; −1 unseen and NaN missing carry no
        information).
    alpha : float > 0, default 1.0
        Pseudo-count a of θ^(1)_kj = (n_kj + a)/(N_j + a·M) and θ^(0)_k = (n_k + a)/(N + a·M).

    Attributes
    ----------
    counts_ : ndarray (M × J), n_kj over the observed values
    theta1_ : ndarray (M × J); theta0_ : ndarray (M,)
    distance_ : float, ‖θ^(1) − θ^(0)‖₂ over the M·J entries
    informative_ : bool, more than one category
    """

    def __init__(self, n_categories: int, alpha: float = 1.0):
        self.n_categories = n_categories
        self.alpha = alpha

    def fit(self, x, y, n_classes):
        model = laplace_category_model(self.n_categories, self.alpha)
        model.fit(x, y, n_classes)
        pooled = MarginalTable(model, self.alpha, "pooled", np.zeros(n_classes))
        self.partition_model_ = model
        self.counts_ = model.counts_.astype(np.float64)
        self.theta1_ = np.exp(model.log_table_[:-1])
        self.theta0_ = np.exp(pooled.log_table_[:-1])
        self.distance_ = float(np.sqrt(np.sum((self.theta1_ - self.theta0_[:, None]) ** 2)))
        self.informative_ = bool(model.informative_)
        return self

    def theta(self, alphas) -> np.ndarray:
        """θ(α) for each α: (T × M × J)."""
        a = check_alphas(alphas)[:, None, None]
        return a * self.theta1_[None] + (1.0 - a) * self.theta0_[None, :, None]

    def table_codes(self, x):
        return self.partition_model_.codes(x)

    def tables(self, alphas, x=None):
        """log θ(α) with the zero row of "no information" appended: (T × (M+1) × J)."""
        log_theta = np.log(self.theta(alphas))
        zero = np.zeros((log_theta.shape[0], 1, log_theta.shape[2]))
        return np.concatenate([log_theta, zero], axis=1)

    def loglik(self, alphas) -> np.ndarray:
        """ℓ(α) = Σ_kj n_kj log θ_kj(α) for each α."""
        return np.einsum("kj,tkj->t", self.counts_, np.log(self.theta(alphas)))

    def dloglik(self, alphas) -> np.ndarray:
        """ℓ'(α) = Σ_kj n_kj (θ^(1)_kj − θ^(0)_k)/θ_kj(α) for each α."""
        diff = self.theta1_ - self.theta0_[:, None]
        return np.einsum("kj,tkj->t", self.counts_ * diff, 1.0 / self.theta(alphas))


class InterpolatedGaussian(InterpolatedModel):
    """Numeric predictor: μ_j(α) = α·μ_j + (1 − α)·μ0, σ_j(α) = α·σ_j + (1 − α)·σ0 (eq. 13).

    σ is the standard deviation (the paper's parameter, also in the penalty of eq. 8).

    Parameters
    ----------
    ddof : {0, 1}, default 0
        Variance denominator n_j − ddof of σ_j^(1) and N − ddof of σ^(0) (0: the MLE).
    var_smoothing : float ≥ 0, default 1e-9
        Added variance relative to the column's largest variance (as
        :class:`~repro.preprocessing.variables.GaussianModel`).

    A column whose largest |value| is beyond 1e±100 is first divided by a power of 2
    (``scale_``, :func:`column_scale`, else 1) so that squares stay finite; the parameters below
    are then in units of x/``scale_`` (densities and ℓ are of x itself: a constant −log
    ``scale_`` per value, the same for every class and every α).

    Attributes
    ----------
    scale_ : float
    mean1_, sd1_ : ndarray (J,), class-conditional μ_j^(1), σ_j^(1)
    mean0_, sd0_ : float, pooled μ^(0), σ^(0)
    distance_ : float, sqrt(Σ_j (μ_j^(1) − μ^(0))² + (σ_j^(1) − σ^(0))²)
    n_, xbar_, v_ : ndarray (J,), per-class count, mean and biased variance of the observed values
    informative_ : bool, the column is not constant
    """

    def __init__(self, ddof: int = 0, var_smoothing: float = 1e-9):
        self.ddof = ddof
        self.var_smoothing = var_smoothing

    def fit(self, x, y, n_classes):
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y)
        self.scale_ = column_scale(x)
        x = x / self.scale_
        conditional = GaussianModel(ddof=self.ddof, var_smoothing=self.var_smoothing)
        conditional.fit(x, y, n_classes)
        pooled = MarginalGaussian(conditional, x, "pooled", np.zeros(n_classes))
        self.mean1_ = conditional.mean_.astype(np.float64)
        self.sd1_ = np.sqrt(conditional.var_)
        self.mean0_ = float(pooled.mean_)
        self.sd0_ = float(np.sqrt(pooled.var_))
        observed = ~np.isnan(x)
        xo, yo = x[observed], y[observed]
        n = np.bincount(yo, minlength=n_classes).astype(np.float64)
        xbar = np.bincount(yo, weights=xo, minlength=n_classes) / np.maximum(n, 1)
        v = np.bincount(yo, weights=(xo - xbar[yo]) ** 2, minlength=n_classes) / np.maximum(n, 1)
        self.n_, self.xbar_, self.v_ = n, xbar, v
        self.distance_ = float(
            np.sqrt(np.sum((self.mean1_ - self.mean0_) ** 2 + (self.sd1_ - self.sd0_) ** 2))
        )
        self.informative_ = bool(conditional.informative_)
        return self

    def params(self, alphas) -> tuple[np.ndarray, np.ndarray]:
        """(μ(α), σ(α)), each (T × J)."""
        a = check_alphas(alphas)[:, None]
        mean = a * self.mean1_[None] + (1.0 - a) * self.mean0_
        sd = a * self.sd1_[None] + (1.0 - a) * self.sd0_
        return mean, sd

    def table_codes(self, x):
        return np.arange(np.asarray(x).size)

    def tables(self, alphas, x):
        """log N(x_n; μ_j(α), σ_j(α)²) for each α: (T × n × J); zero rows for missing values."""
        x = np.asarray(x, dtype=np.float64) / self.scale_
        mean, sd = self.params(alphas)
        if not self.informative_:
            return np.zeros((mean.shape[0], x.size, mean.shape[1]))
        z = (x[None, :, None] - mean[:, None, :]) / sd[:, None, :]
        z = np.clip(z, -1e150, 1e150)  # extreme values: the square stays finite
        out = -0.5 * (LOG_2PI + z * z) - np.log(sd * self.scale_)[:, None, :]
        out[:, np.isnan(x), :] = 0.0
        return out

    def loglik(self, alphas) -> np.ndarray:
        """ℓ(α) = Σ_j [−n_j/2·log 2π − n_j log σ_j(α) − n_j(v_j + (x̄_j − μ_j(α))²)/(2σ_j(α)²)]."""
        if not self.informative_:
            return np.zeros(check_alphas(alphas).size)
        mean, sd = self.params(alphas)
        sq = self.v_ + (self.xbar_ - mean) ** 2
        terms = -self.n_ * (0.5 * LOG_2PI + np.log(sd * self.scale_) + sq / (2.0 * sd * sd))
        return terms.sum(axis=1)

    def dloglik(self, alphas) -> np.ndarray:
        """ℓ'(α) = Σ_j n_j [−Δσ_j/σ_j(α) + (x̄_j − μ_j(α))Δμ_j/σ_j(α)²
        + (v_j + (x̄_j − μ_j(α))²)Δσ_j/σ_j(α)³], Δμ_j = μ_j^(1) − μ^(0), Δσ_j = σ_j^(1) − σ^(0)."""
        if not self.informative_:
            return np.zeros(check_alphas(alphas).size)
        mean, sd = self.params(alphas)
        dmean = self.mean1_ - self.mean0_
        dsd = self.sd1_ - self.sd0_
        gap = self.xbar_ - mean
        terms = self.n_ * (-dsd / sd + gap * dmean / sd**2 + (self.v_ + gap * gap) * dsd / sd**3)
        return terms.sum(axis=1)


def column_scale(x: np.ndarray) -> float:
    """A power of 2 that brings the largest |value| of a column near 1 when it is beyond
    1e±100 (where squares overflow or underflow), else 1."""
    xo = np.abs(x[~np.isnan(x)])
    top = float(xo.max()) if xo.size else 0.0
    if top > 1e100 or 0.0 < top < 1e-100:
        return float(2.0 ** np.round(np.log2(top)))
    return 1.0


def interpolated_model(
    nominal: bool,
    n_categories: int,
    alpha: float = 1.0,
    ddof: int = 0,
    var_smoothing: float = 1e-9,
) -> InterpolatedModel:
    """The interpolated model of a column: a table for a nominal one, a Gaussian otherwise."""
    if nominal:
        return InterpolatedTable(n_categories, alpha)
    return InterpolatedGaussian(ddof, var_smoothing)
