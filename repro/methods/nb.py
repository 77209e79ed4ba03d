"""Plain naive Bayes classifiers over fixed univariate models (all weights 1).

- :class:`GaussianNaiveBayes` (``nb_gaussian``, elovaara2008 "Gaussian"),
- :class:`EqualFrequencyNaiveBayes` (``nb_ef``, boulle2007 NB(EF)),
- :class:`EqualWidthNaiveBayes` (``nb_ewb10``, elovaara2008 EWB-10),
- :class:`LaplaceNaiveBayes` (``nb_laplace``, the NB of wu2015).
"""

from __future__ import annotations

from functools import partial

from repro.methods.base import WeightedNaiveBayes
from repro.methods.variables import (
    CategoryPartition,
    EqualFrequencyPartition,
    EqualWidthDensityModel,
    GaussianModel,
    PartitionModel,
)
from repro.preprocessing.tables import class_log_prior, laplace_log_table, m_estimate_log_table


def _laplace_categorical(n_categories: int, alpha: float) -> PartitionModel:
    """Nominal variable: one part per category, Laplace estimate, missing values ignored."""
    estimate = partial(_laplace, alpha=alpha)
    return PartitionModel(CategoryPartition(n_categories), estimate, missing="ignore")


def _laplace(counts, n_total, alpha):
    return laplace_log_table(counts, alpha)


def _check_positive(name, value, allow_zero=False):
    if not (value > 0 or (allow_zero and value == 0)):
        bound = "≥ 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be {bound}, got {value!r}")


def _check_ddof(ddof):
    if ddof not in (0, 1):
        raise ValueError(f"ddof must be 0 or 1, got {ddof!r}")


def _check_n_bins(n_bins):
    if not isinstance(n_bins, int) or n_bins < 1:
        raise ValueError(f"n_bins must be an integer ≥ 1, got {n_bins!r}")


class GaussianNaiveBayes(WeightedNaiveBayes):
    """Naive Bayes with per-class normal densities for numeric variables (elovaara2008).

    Nominal variables use the Laplace estimate (α = ``alpha``); missing values are ignored.

    Parameters
    ----------
    ddof : int, default 1
        Variance denominator n_j − ddof (elovaara2008 uses N − 1; scikit-learn's GaussianNB 0).
    var_smoothing : float, default 1e-9
        Added variance, relative to the largest class variance of the column.
    alpha : float, default 1.0
        Laplace pseudo-count for nominal variables.
    categorical_features : "auto" or mask/indices/names
        Which columns are nominal (see :class:`repro.methods.encoding.TabularEncoder`).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> GaussianNaiveBayes().fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(self, ddof=1, var_smoothing=1e-9, alpha=1.0, categorical_features="auto"):
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.alpha = alpha
        self.categorical_features = categorical_features

    def _check_params(self):
        _check_ddof(self.ddof)
        _check_positive("var_smoothing", self.var_smoothing, allow_zero=True)
        _check_positive("alpha", self.alpha)

    def _make_variable_model(self, k, nominal, n_categories):
        if nominal:
            return _laplace_categorical(n_categories, self.alpha)
        return GaussianModel(ddof=self.ddof, var_smoothing=self.var_smoothing)


class EqualFrequencyNaiveBayes(WeightedNaiveBayes):
    """NB(EF) of boulle2007 §7: equal-frequency discretization, no value grouping.

    Numeric variables are cut into ``n_bins`` equal-frequency intervals, nominal values are kept
    as they are; missing values form a part of their own when the training data have some.
    Conditional probabilities are the m-estimate of boulle2007 §2.1
    (:func:`repro.preprocessing.tables.m_estimate_log_table`).
    """

    def __init__(self, n_bins=10, categorical_features="auto"):
        self.n_bins = n_bins
        self.categorical_features = categorical_features

    def _check_params(self):
        _check_n_bins(self.n_bins)

    def _make_variable_model(self, k, nominal, n_categories):
        partition = (
            CategoryPartition(n_categories) if nominal else EqualFrequencyPartition(self.n_bins)
        )
        return PartitionModel(partition, m_estimate_log_table, missing="part")


class EqualWidthNaiveBayes(WeightedNaiveBayes):
    """EWB-10 of elovaara2008 §4: per-class equal-width histogram densities.

    Nominal variables use the Laplace estimate (α = 1); missing values are ignored.
    """

    def __init__(self, n_bins=10, categorical_features="auto"):
        self.n_bins = n_bins
        self.categorical_features = categorical_features

    def _check_params(self):
        _check_n_bins(self.n_bins)

    def _make_variable_model(self, k, nominal, n_categories):
        if nominal:
            return _laplace_categorical(n_categories, 1.0)
        return EqualWidthDensityModel(self.n_bins)


class LaplaceNaiveBayes(WeightedNaiveBayes):
    """The naive Bayes of wu2015 §2 (the BMA-NB special case).

    Nominal variables and the class prior use the Laplace estimate
    (#(v, y) + α)/(#y + α·M); numeric variables a per-class Gaussian. Missing values are ignored
    (counts are over the non-missing values of each variable, as the authors' code does).
    ``var_smoothing`` is the Gaussian variance floor relative to the column's largest class
    variance (see :class:`~repro.methods.variables.GaussianModel`): a variable constant within a
    class (zoo's ``legs``) gets a near-zero variance with the default 1e-9.
    """

    def __init__(self, alpha=1.0, ddof=1, var_smoothing=1e-9, categorical_features="auto"):
        self.alpha = alpha
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.categorical_features = categorical_features

    def _check_params(self):
        _check_positive("alpha", self.alpha)
        _check_ddof(self.ddof)
        _check_positive("var_smoothing", self.var_smoothing, allow_zero=True)

    def _class_log_prior(self, class_count):
        return class_log_prior(class_count, alpha=self.alpha)

    def _make_variable_model(self, k, nominal, n_categories):
        if nominal:
            return _laplace_categorical(n_categories, self.alpha)
        return GaussianModel(ddof=self.ddof, var_smoothing=self.var_smoothing)
