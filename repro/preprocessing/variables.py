"""Per-variable models: the class-conditional ``T_k`` of the weighted naive Bayes and the
class-independent ``P(x_k)`` of a variable removed from the model.

A variable model is fitted on one encoded column ``x`` (float64: numeric value, or category code
with NaN = missing and −1 = unseen, see :mod:`repro.methods.core.encoding`) and the class indices
``y`` ∈ {0..J−1}. ``log_likelihood(x)`` returns the (n × J) matrix log P(x_i | y = j); a row of
zeros means "no information" (a missing value or an unseen category that the model ignores), which
leaves the naive Bayes score unchanged.

Discrete models (:class:`PartitionModel`) expose ``codes(x)`` (part index, ``n_parts_`` for "no
information") and ``log_table_`` ((n_parts_ + 1) × J, last row zeros) so that selection algorithms
gather ``log_table_[codes]`` in O(N·J).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
from scipy.special import logsumexp, ndtr

from repro.preprocessing.binning import (
    equal_frequency_cuts,
    equal_width_bins,
    equal_width_edges,
    interval_codes,
)
from repro.preprocessing.describe import readable_repr
from repro.preprocessing.tables import contingency, laplace_log_table

LOG_2PI = np.log(2.0 * np.pi)


class VariableModel:
    """Base class: fitted estimate of P(x_k | y)."""

    informative_: bool = True

    def fit(self, x: np.ndarray, y: np.ndarray, n_classes: int) -> VariableModel:
        raise NotImplementedError

    def log_likelihood(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        return readable_repr(self)


# ---------------------------------------------------------------------------------------------
# Discrete models: a partition of the values, a contingency table and a probability estimator
# ---------------------------------------------------------------------------------------------
class Partition:
    """Maps values to parts 0..n_parts_−1 (−1 = missing or unseen, handled by PartitionModel)."""

    n_parts_: int

    def fit(self, x: np.ndarray, y: np.ndarray, n_classes: int) -> Partition:
        return self

    def transform(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        return readable_repr(self)


class CategoryPartition(Partition):
    """One part per declared category (no grouping); codes are the encoder's category codes."""

    def __init__(self, n_categories: int):
        self.n_categories = n_categories

    def fit(self, x, y, n_classes):
        self.n_parts_ = max(int(self.n_categories), 1)
        return self

    def transform(self, x):
        codes = np.where(np.isnan(x), -1, x).astype(np.int64)
        codes[(codes < 0) | (codes >= self.n_parts_)] = -1
        return codes


class EqualFrequencyPartition(Partition):
    """Equal-frequency intervals of the training values (NB(EF) of boulle2007)."""

    def __init__(self, n_bins: int = 10):
        self.n_bins = n_bins

    def fit(self, x, y, n_classes):
        self.cuts_ = equal_frequency_cuts(x, self.n_bins)
        self.n_parts_ = self.cuts_.size + 1
        return self

    def transform(self, x):
        return interval_codes(x, self.cuts_)


class PartitionModel(VariableModel):
    """Discrete class-conditional model over a partition of the values.

    Parameters
    ----------
    partition : Partition
        Unfitted partition of the values.
    estimate : callable (counts (P × J), n_total) -> log table (P × J)
        Probability estimator, e.g. :func:`repro.preprocessing.tables.laplace_log_table`.
    missing : "part" or "ignore"
        "part": when the training column holds missing values they form a part of their own;
        "ignore": missing values carry no information (zero row).
    """

    def __init__(self, partition: Partition, estimate: Callable, missing: str = "ignore"):
        self.partition = partition
        self.estimate = estimate
        self.missing = missing

    def fit(self, x, y, n_classes):
        x = np.asarray(x, dtype=np.float64)  # (a float32 column exactly)
        self.partition.fit(x, y, n_classes)
        self._set_parts(bool(np.isnan(x).any()))
        counts = contingency(self.codes(x), y, self.n_parts_, n_classes)
        return self._set_table(counts, int(np.asarray(y).size))

    def fit_partitioned(
        self, counts: np.ndarray, n_total: int, has_missing: bool
    ) -> PartitionModel:
        """The end of :meth:`fit` once ``partition`` is fitted and the training codes counted:
        ``counts`` = their contingency table (int64, ``n_parts_`` × J), ``n_total`` = N,
        ``has_missing``: whether the training column holds missing values. (The compiled
        discretization of blocks of columns, :mod:`repro.preprocessing.modl.batch`, counts the
        codes itself.)"""
        self._set_parts(has_missing)
        return self._set_table(counts, n_total)

    def _set_parts(self, has_missing: bool) -> None:
        self.missing_part_ = self.missing == "part" and has_missing
        self.n_parts_ = self.partition.n_parts_ + int(self.missing_part_)

    def _set_table(self, counts: np.ndarray, n_total: int) -> PartitionModel:
        self.counts_ = counts
        table = self.estimate(counts, n_total)
        self.log_table_ = np.vstack([table, np.zeros((1, counts.shape[1]))])
        self.informative_ = self.n_parts_ > 1
        return self

    def codes(self, x: np.ndarray) -> np.ndarray:
        """Part index of each value; ``n_parts_`` means "no information" (zero row)."""
        x = np.asarray(x, dtype=np.float64)
        codes = self.partition.transform(x)
        codes = np.where(codes < 0, self.n_parts_, codes)
        if self.missing_part_:
            codes[np.isnan(x)] = self.n_parts_ - 1
        return codes

    def log_likelihood(self, x):
        return self.log_table_[self.codes(x)]


def laplace_category_model(n_categories: int, alpha: float = 1.0) -> PartitionModel:
    """Nominal variable: one part per category, Laplace estimate (wu2015 §2), missing ignored."""
    estimate = partial(_laplace_estimate, alpha=alpha)
    return PartitionModel(CategoryPartition(n_categories), estimate, missing="ignore")


def _laplace_estimate(counts, n_total, alpha):
    return laplace_log_table(counts, alpha)


# ---------------------------------------------------------------------------------------------
# Continuous models
# ---------------------------------------------------------------------------------------------
class GaussianModel(VariableModel):
    """Per-class normal density N(μ_j, σ_j²) of a numeric variable (elovaara2008 §3, wu2015 §2).

    σ_j² uses the ``ddof`` denominator (n_j − ddof; elovaara2008 uses N − 1) plus
    ``var_smoothing`` × the largest per-class variance of the column (as scikit-learn's
    GaussianNB) so that a constant class stays finite. A class without observed values takes the
    pooled mean and variance. Missing values carry no information, and so does a variable that is
    constant on the training data (zero log-likelihood rows).
    """

    def __init__(self, ddof: int = 1, var_smoothing: float = 1e-9):
        self.ddof = ddof
        self.var_smoothing = var_smoothing

    def fit(self, x, y, n_classes):
        observed = ~np.isnan(x)
        xo, yo = x[observed], np.asarray(y)[observed]
        n_j = np.bincount(yo, minlength=n_classes).astype(np.float64)
        s1 = np.bincount(yo, weights=xo, minlength=n_classes)
        pooled_mean = xo.mean() if xo.size else 0.0
        mean = np.where(n_j > 0, s1 / np.maximum(n_j, 1), pooled_mean)
        dev2 = np.bincount(yo, weights=(xo - mean[yo]) ** 2, minlength=n_classes)
        denom = n_j - self.ddof
        pooled_var = xo.var() if xo.size > 1 else 0.0
        var = np.where(denom > 0, dev2 / np.maximum(denom, 1), pooled_var)
        scale = max(var.max(initial=0.0), pooled_var) or 1.0
        var = var + self.var_smoothing * scale
        var = np.maximum(var, np.finfo(float).tiny)
        self.mean_, self.var_ = mean, var
        self.informative_ = bool(xo.size) and np.ptp(xo) > 0
        return self

    def log_likelihood(self, x):
        if not self.informative_:
            return np.zeros((x.size, self.mean_.size))
        # standardised distance, clipped so that its square stays finite for extreme values
        z = np.clip((x[:, None] - self.mean_[None, :]) / np.sqrt(self.var_)[None, :], -1e150, 1e150)
        ll = -0.5 * (LOG_2PI + np.log(self.var_)[None, :] + z * z)
        ll[np.isnan(x)] = 0.0
        return ll


# ---------------------------------------------------------------------------------------------
# Weka's NormalEstimator (weka.classifiers.bayes.NaiveBayes, Weka 3.6): a normal bucket mass
# ---------------------------------------------------------------------------------------------
#: precision of a numeric attribute with fewer than two distinct training values
#: (NaiveBayes.DEFAULT_NUM_PRECISION)
WEKA_DEFAULT_PRECISION = 0.01
#: floor of every per-attribute probability in NaiveBayes.distributionForInstance
WEKA_MIN_PROB = 1e-75
#: a standard deviation at or below this is "no idea of scale yet" (NormalEstimator.addValue)
WEKA_MIN_STD = 1e-10


def weka_precision(x: np.ndarray) -> float:
    """Precision of a numeric attribute, as ``weka.classifiers.bayes.NaiveBayes.buildClassifier``.

    With v_1 < … < v_V the distinct non-missing training values,
    precision = Σ_{i<V} (v_{i+1} − v_i) / (V − 1), the mean gap between adjacent distinct values
    (= (v_V − v_1)/(V − 1), summed left to right as Weka does); 0.01 when V < 2.
    """
    xo = np.unique(x[~np.isnan(x)])
    if xo.size < 2:
        return WEKA_DEFAULT_PRECISION
    return float(np.cumsum(np.diff(xo))[-1] / (xo.size - 1))


def weka_round(x: np.ndarray, precision: float) -> np.ndarray:
    """``NormalEstimator.round``: rint(x / precision) · precision (halves to even, Math.rint)."""
    return np.rint(x / precision) * precision


def weka_normal_fit(values: np.ndarray, precision: float) -> tuple[float, float]:
    """(mean, sd) of ``weka.estimators.NormalEstimator`` after adding ``values`` (weight 1 each).

    Values are rounded (:func:`weka_round`); mean = Σr/n and sd_N = sqrt(Σ(r − mean)²/n) (the N
    denominator); sd = max(precision/6, sd_N) ("at most 3 sd's within one interval"), and
    precision/6 when sd_N ≤ 1e-10 or there are no values (then mean = 0). Weka accumulates
    Σr and Σr² and takes |Σr² − mean·Σr|/n, equal up to rounding.
    """
    floor = precision / 6.0
    if values.size == 0:
        return 0.0, floor
    r = weka_round(values, precision)
    mean = float(r.mean())
    sd = float(np.sqrt(np.mean((r - mean) ** 2)))
    return mean, (max(floor, sd) if sd > WEKA_MIN_STD else floor)


def weka_log_prob(x: np.ndarray, mean, sd, precision: float) -> np.ndarray:
    """log P(x) of ``NormalEstimator.getProbability`` with NaiveBayes' floor, broadcast.

    The normal probability mass of the bucket of the rounded value r = :func:`weka_round` (x):
    Φ((r − μ + p/2)/σ) − Φ((r − μ − p/2)/σ), evaluated as that difference (as Weka does: a bucket
    far in the upper tail gets 0), then max(·, 1e-75) as ``distributionForInstance``. NaN → NaN.
    """
    r = weka_round(x, precision)
    half = precision / 2.0
    mass = ndtr((r - mean + half) / sd) - ndtr((r - mean - half) / sd)
    return np.log(np.maximum(mass, WEKA_MIN_PROB))


class WekaGaussianModel(VariableModel):
    """Per-class ``weka.estimators.NormalEstimator`` of Weka's NaiveBayes (3.6), a bucket mass.

    One precision p per variable from all training values (:func:`weka_precision`); per class j,
    μ_j and σ_j of :func:`weka_normal_fit` (rounded values, N denominator, σ_j ≥ p/6; a class
    without values has μ_j = 0, σ_j = p/6); P(x | j) = the N(μ_j, σ_j²) mass of the width-p
    bucket around the rounded x, floored at 1e-75 (:func:`weka_log_prob`). Missing values carry
    no information (zero rows). The wu2015 authors' code (wuga214/PAPER_AAAI15_BMA_NaiveBayes,
    ``ProbabilityGenerator``) is a copy of this estimator, floor included.
    """

    def fit(self, x, y, n_classes):
        observed = ~np.isnan(x)
        xo, yo = x[observed], np.asarray(y)[observed]
        self.precision_ = weka_precision(xo)
        params = [weka_normal_fit(xo[yo == j], self.precision_) for j in range(n_classes)]
        self.mean_ = np.array([m for m, _ in params], dtype=np.float64)
        self.sd_ = np.array([s for _, s in params], dtype=np.float64)
        self.informative_ = bool(xo.size) and np.ptp(xo) > 0
        return self

    def log_likelihood(self, x):
        ll = weka_log_prob(x[:, None], self.mean_[None, :], self.sd_[None, :], self.precision_)
        ll[np.isnan(x)] = 0.0
        return ll


class MarginalWekaGaussian:
    """log P(x) of a numeric variable under one Weka NormalEstimator fitted on all its training
    values, with the precision of the class-conditional :class:`WekaGaussianModel` (the f_k = 0
    model of the wu2015 authors' BMA code). Missing values get 0."""

    def __init__(self, model: WekaGaussianModel, x: np.ndarray):
        self.precision_ = model.precision_
        self.mean_, self.sd_ = weka_normal_fit(x[~np.isnan(x)], self.precision_)
        self.evidence_ = float(np.sum(self.log_prob(x)))

    def log_prob(self, x: np.ndarray) -> np.ndarray:
        out = weka_log_prob(x, self.mean_, self.sd_, self.precision_)
        return np.where(np.isnan(x), 0.0, out)


#: what a per-class histogram density gives a value outside the class's range: "column", one
#: Laplace pseudo-count spread over the column's training range (all classes); "tail", spread over
#: the class's own histogram; "edge", the nearest edge bin's density
OUT_OF_RANGE = ("column", "tail", "edge")


class EqualWidthDensityModel(VariableModel):
    """EWB-10 of elovaara2008 §4: per-class histogram density with equal-width bins.

    For class j, ``n_bins`` equal-width bins span [min, max] of the class-j training values;
    Laplace masses (n_b + 1)/(n_j + n_bins), density = mass / width; a value on an edge goes to
    the bin the edge opens (``equal_width_bins`` of :mod:`repro.preprocessing.binning`). A class
    whose values are all equal gets the width (max − min)/n_bins of the whole column (or 1 when
    the column is constant) so that its density stays finite.

    ``out_of_range``, for a value outside the class's bins [low, low + n_bins · width]:
    "column" (default): the value falls in an empty bin, one Laplace pseudo-count spread over the
    column's training range (all classes), 1/((n_j + n_bins) · (max − min)): never zero, never
    above the density of a bin inside, and not larger for a class whose own range is narrow;
    "tail": the pseudo-count spread over the class's own bins, 1/((n_j + n_bins) · n_bins ·
    width); "edge": the density of the nearest edge bin (the earlier rule), which can
    give a value beyond a class's range that class's highest density. A class without values
    keeps its uniform density everywhere.
    """

    def __init__(self, n_bins: int = 10, out_of_range: str = "column"):
        self.n_bins = n_bins
        self.out_of_range = out_of_range

    def fit(self, x, y, n_classes):
        observed = ~np.isnan(x)
        xo, yo = x[observed], np.asarray(y)[observed]
        span = np.ptp(xo) if xo.size else 0.0
        fallback = span / self.n_bins if span > 0 else 1.0
        self.low_ = np.zeros(n_classes)
        self.width_ = np.full(n_classes, fallback)
        self.log_density_ = np.zeros((n_classes, self.n_bins))
        self.range_ = np.tile([-np.inf, np.inf], (n_classes, 1))  # a class without values: none
        self.log_tail_ = np.zeros(n_classes)
        for j in range(n_classes):
            v = xo[yo == j]
            if v.size:
                edges = equal_width_edges(v, self.n_bins)
                width = (edges[-1] - edges[0]) / self.n_bins
                self.low_[j] = edges[0]
                self.width_[j] = width if width > 0 else fallback
                high = edges[-1] if width > 0 else edges[0] + self.n_bins * fallback
                self.range_[j] = edges[0], high
            counts = self._counts(v, j)
            mass = (counts + 1.0) / (v.size + self.n_bins)
            self.log_density_[j] = np.log(mass) - np.log(self.width_[j])
            length = span if self.out_of_range == "column" and span > 0 else None
            length = length or self.n_bins * self.width_[j]
            self.log_tail_[j] = -np.log(v.size + self.n_bins) - np.log(length)
        self.informative_ = span > 0
        return self

    def _bins(self, v, j):
        return equal_width_bins(v, self.low_[j], self.width_[j], self.n_bins)

    def _counts(self, v, j):
        return np.bincount(self._bins(v, j), minlength=self.n_bins).astype(np.float64)

    def log_likelihood(self, x):
        n_classes = self.low_.size
        ll = np.zeros((x.size, n_classes))
        observed = ~np.isnan(x)
        xo = x[observed]
        for j in range(n_classes):
            col = self.log_density_[j, self._bins(xo, j)]
            if self.out_of_range != "edge":
                col[(xo < self.range_[j, 0]) | (xo > self.range_[j, 1])] = self.log_tail_[j]
            ll[observed, j] = col
        return ll


# ---------------------------------------------------------------------------------------------
# Class-independent models P(x_k): a variable removed from the model
# ---------------------------------------------------------------------------------------------
MARGINALS = ("pooled", "mixture")


class MarginalTable:
    """log P(v) of a discrete variable over the parts of its class-conditional PartitionModel.

    "pooled": Laplace on all training data, (#v + α)/(N_k + α·M), N_k = non-missing values;
    "mixture": Σ_j P(j)·P(v | j) with the model's own class prior and conditional table.
    Missing values and unseen categories get 0 (no information), as in the conditional model.
    """

    def __init__(self, model: PartitionModel, alpha: float, mode: str, log_prior: np.ndarray):
        self.model = model
        table = model.log_table_[:-1]
        if mode == "pooled":
            counts = model.counts_.sum(axis=1).astype(np.float64)
            log_p = np.log(counts + alpha) - np.log(counts.sum() + alpha * counts.size)
        else:
            log_p = logsumexp(table + log_prior[None, :], axis=1)
        self.log_table_ = np.append(log_p, 0.0)
        self.evidence_ = float(np.sum(model.counts_.sum(axis=1) * log_p))

    def log_prob(self, x: np.ndarray) -> np.ndarray:
        return self.log_table_[self.model.codes(x)]


class MarginalGaussian:
    """log P(x) of a numeric variable.

    "pooled": one normal density on all training values (same ``ddof`` and variance smoothing as
    the per-class model); "mixture": Σ_j P(j)·N(x; μ_j, σ_j²). Missing values get 0, and so does
    every value of a variable that the class-conditional model treats as uninformative (constant
    column), so that such a variable drops out of both branches.
    """

    def __init__(self, model: GaussianModel, x: np.ndarray, mode: str, log_prior: np.ndarray):
        self.model, self.mode, self.log_prior = model, mode, log_prior
        xo = x[~np.isnan(x)]
        n = xo.size
        biased = xo.var() if n else 0.0
        var = biased * n / (n - model.ddof) if n > model.ddof else 0.0
        scale = max(float(np.max(model.var_, initial=0.0)), var) or 1.0
        self.mean_ = xo.mean() if n else 0.0
        self.var_ = max(var + model.var_smoothing * scale, np.finfo(float).tiny)
        if not model.informative_:
            self.evidence_ = 0.0
        elif mode == "pooled":  # Σ_i log N(x_i; μ, σ²) from the sufficient statistics
            self.evidence_ = float(-0.5 * n * (LOG_2PI + np.log(self.var_) + biased / self.var_))
        else:
            self.evidence_ = float(np.sum(self.log_prob(x)))

    def log_prob(self, x: np.ndarray) -> np.ndarray:
        if not self.model.informative_:
            return np.zeros(x.size)
        if self.mode == "pooled":
            z = np.clip((x - self.mean_) / np.sqrt(self.var_), -1e150, 1e150)
            out = -0.5 * (LOG_2PI + np.log(self.var_) + z * z)
        else:
            out = logsumexp(self.model.log_likelihood(x) + self.log_prior[None, :], axis=1)
        return np.where(np.isnan(x), 0.0, out)


class MarginalMixture:
    """Mixture marginal Σ_j P(j)·P(x | j) of any variable model (no closed form needed)."""

    def __init__(self, model: VariableModel, x: np.ndarray, log_prior: np.ndarray):
        self.model, self.log_prior = model, log_prior
        self.evidence_ = float(np.sum(self.log_prob(x)))

    def log_prob(self, x: np.ndarray) -> np.ndarray:
        ll = self.model.log_likelihood(x)
        out = logsumexp(ll + self.log_prior[None, :], axis=1)
        return np.where(np.all(ll == 0, axis=1), 0.0, out)


def marginal_model(
    model: VariableModel, x: np.ndarray, mode: str, log_prior: np.ndarray, alpha: float = 1.0
):
    """The class-independent model P(x_k) matching a fitted class-conditional ``model``.

    ``mode`` ∈ :data:`MARGINALS`; ``x`` is the training column, ``log_prior`` log P(y), ``alpha``
    the Laplace pseudo-count of a pooled discrete marginal.
    """
    if mode not in MARGINALS:
        raise ValueError(f"marginal must be one of {MARGINALS}, got {mode!r}")
    if isinstance(model, PartitionModel):
        return MarginalTable(model, alpha, mode, log_prior)
    if isinstance(model, GaussianModel):
        return MarginalGaussian(model, x, mode, log_prior)
    if isinstance(model, WekaGaussianModel) and mode == "pooled":
        return MarginalWekaGaussian(model, x)
    return MarginalMixture(model, x, log_prior)


def conditional_evidence(model: VariableModel, x: np.ndarray, y: np.ndarray) -> float:
    """Σ_i log P(x_ik | y_i) over the training column, in O(N) (or O(parts·J))."""
    if isinstance(model, PartitionModel):
        return float(np.sum(model.counts_ * model.log_table_[:-1]))
    if isinstance(model, GaussianModel):
        if not model.informative_:
            return 0.0
        observed = ~np.isnan(x)
        xo, yo = x[observed], y[observed]
        n_j = np.bincount(yo, minlength=model.mean_.size)
        dev2 = np.bincount(yo, weights=(xo - model.mean_[yo]) ** 2, minlength=model.mean_.size)
        return float(np.sum(-0.5 * n_j * (LOG_2PI + np.log(model.var_)) - 0.5 * dev2 / model.var_))
    ll = model.log_likelihood(x)
    return float(np.sum(ll[np.arange(x.size), y]))
