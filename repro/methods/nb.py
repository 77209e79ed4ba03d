"""Plain naive Bayes classifiers over fixed univariate models (all weights 1).

- :class:`GaussianNaiveBayes` (``nb_gaussian``, elovaara2008 "Gaussian"),
- :class:`EqualFrequencyNaiveBayes` (``nb_ef``, boulle2007 NB(EF)),
- :class:`EqualWidthNaiveBayes` (``nb_ewb10``, elovaara2008 EWB-10),
- :class:`LaplaceNaiveBayes` (``nb_laplace``, the NB of wu2015).
"""

from __future__ import annotations

from repro.methods.base import WeightedNaiveBayes, check_output_shrink
from repro.methods.checks import check_choice, check_int, check_real
from repro.preprocessing.tables import M_ESTIMATE_PRIORS, class_log_prior, m_estimate
from repro.preprocessing.variables import (
    CategoryPartition,
    EqualFrequencyPartition,
    EqualWidthDensityModel,
    GaussianModel,
    PartitionModel,
    WekaGaussianModel,
    laplace_category_model,
)

#: values of the ``gaussian`` parameter of ``nb_laplace`` / ``bma_nb``: the normal density with a
#: relative variance floor (:class:`~repro.preprocessing.variables.GaussianModel`), or Weka's
#: NormalEstimator, a bucket mass (:class:`~repro.preprocessing.variables.WekaGaussianModel`)
GAUSSIANS = ("density", "weka")


def check_gaussian_params(ddof, var_smoothing) -> None:
    """The Gaussian variable model's parameters: ddof ∈ {0, 1}, var_smoothing ≥ 0."""
    check_choice("ddof", ddof, (0, 1))
    check_real("var_smoothing", var_smoothing, low=0)


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
        check_gaussian_params(self.ddof, self.var_smoothing)
        check_real("alpha", self.alpha, low=0, low_open=True)

    def _make_variable_model(self, k, nominal, n_categories):
        if nominal:
            return laplace_category_model(n_categories, self.alpha)
        return GaussianModel(ddof=self.ddof, var_smoothing=self.var_smoothing)


class BinnedNaiveBayes(WeightedNaiveBayes):
    """Base of the naive Bayes classifiers that cut numeric variables into ``n_bins`` bins."""

    def __init__(self, n_bins=10, categorical_features="auto"):
        self.n_bins = n_bins
        self.categorical_features = categorical_features

    def _check_params(self):
        check_int("n_bins", self.n_bins, 1)


class EqualFrequencyNaiveBayes(BinnedNaiveBayes):
    """NB(EF) of boulle2007 §7: equal-frequency discretization, no value grouping.

    Numeric variables are cut into ``n_bins`` equal-frequency intervals, nominal values are kept
    as they are; missing values form a part of their own when the training data have some.
    Conditional probabilities are the m-estimate of boulle2007 §2.1
    (:func:`repro.preprocessing.tables.m_estimate_log_table`).

    Parameters
    ----------
    n_bins : int, default 10
    output_shrink : {"none", "khiops"}, default "none"
        Khiops' output shrink, as :class:`repro.methods.modl_nb.MODLNaiveBayes` (where the
        default is explained: the paper does not support "khiops").
    m_estimate_prior : {"parts", "classes"}, default "parts"
        p = 1/I or 1/J in the m-estimate, as :class:`repro.methods.modl_nb.MODLNaiveBayes`.
    categorical_features : "auto" or mask/indices/names
    """

    def __init__(
        self,
        n_bins=10,
        output_shrink="none",
        m_estimate_prior="parts",
        categorical_features="auto",
    ):
        super().__init__(n_bins, categorical_features)
        self.output_shrink = output_shrink
        self.m_estimate_prior = m_estimate_prior

    def _check_params(self):
        super()._check_params()
        check_output_shrink(self.output_shrink)
        check_choice("m_estimate_prior", self.m_estimate_prior, M_ESTIMATE_PRIORS)

    def _make_variable_model(self, k, nominal, n_categories):
        partition = (
            CategoryPartition(n_categories) if nominal else EqualFrequencyPartition(self.n_bins)
        )
        return PartitionModel(partition, m_estimate(self.m_estimate_prior), missing="part")


class EqualWidthNaiveBayes(BinnedNaiveBayes):
    """EWB-10 of elovaara2008 §4: per-class equal-width histogram densities.

    Nominal variables use the Laplace estimate (α = 1); missing values are ignored.
    """

    def _make_variable_model(self, k, nominal, n_categories):
        if nominal:
            return laplace_category_model(n_categories, 1.0)
        return EqualWidthDensityModel(self.n_bins)


class LaplaceNaiveBayes(GaussianNaiveBayes):
    """The naive Bayes of wu2015 §2 (the BMA-NB special case).

    Nominal variables and the class prior use the Laplace estimate
    (#(v, y) + α)/(#y + α·M); numeric variables a per-class Gaussian. Missing values are ignored
    (counts are over the non-missing values of each variable, as the authors' code does).

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Laplace pseudo-count of the nominal tables and of the class prior.
    ddof : {0, 1}, default 1
        Variance denominator n_j − ddof of ``gaussian="density"``.
    var_smoothing : float ≥ 0, default 1e-9
        Added variance of ``gaussian="density"``, relative to the column's largest class variance
        (see :class:`~repro.preprocessing.variables.GaussianModel`): a variable constant within a
        class (zoo's ``legs``) gets a near-zero variance with the default 1e-9.
    gaussian : {"density", "weka"}, default "density"
        The numeric model. "density": the normal density N(μ_j, σ_j²) of the paper's text, with
        ``ddof`` and ``var_smoothing``. "weka": Weka 3.6's ``NormalEstimator`` as in
        ``weka.classifiers.bayes.NaiveBayes`` (the authors' code is Weka-based): values rounded to
        a per-variable precision p (the mean gap between sorted distinct training values),
        N-denominator sd with the floor p/6, and P(x | j) the normal mass of the width-p bucket
        of x, floored at 1e-75 (:class:`~repro.preprocessing.variables.WekaGaussianModel`;
        ``ddof`` and ``var_smoothing`` are then unused). With α = 1 and "weka" the predicted
        probabilities are those of Weka's NaiveBayes (default options).
    categorical_features : "auto" or mask/indices/names
        Which columns are nominal (see :class:`repro.methods.encoding.TabularEncoder`).
    """

    def __init__(
        self, alpha=1.0, ddof=1, var_smoothing=1e-9, categorical_features="auto", gaussian="density"
    ):
        self.alpha = alpha
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.categorical_features = categorical_features
        self.gaussian = gaussian

    def _check_params(self):
        super()._check_params()
        check_choice("gaussian", self.gaussian, GAUSSIANS)

    def _make_variable_model(self, k, nominal, n_categories):
        if not nominal and self.gaussian == "weka":
            return WekaGaussianModel()
        return super()._make_variable_model(k, nominal, n_categories)

    def _class_log_prior(self, class_count):
        return class_log_prior(class_count, alpha=self.alpha)
