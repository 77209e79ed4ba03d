"""Plain naive Bayes classifiers over fixed univariate models (all weights 1).

- :class:`GaussianNaiveBayes` (``nb_gaussian``, elovaara2008 "Gaussian"),
- :class:`EqualFrequencyNaiveBayes` (``nb_ef``, boulle2007 NB(EF)),
- :class:`EqualWidthNaiveBayes` (``nb_ewb10``, elovaara2008 EWB-10),
- :class:`LaplaceNaiveBayes` (``nb_laplace``, the NB of wu2015).
"""

from __future__ import annotations

from repro.methods.core.base import WeightedNaiveBayes, check_output_shrink
from repro.methods.core.checks import check_choice, check_int, check_real
from repro.preprocessing.histograms import NOMINALS, NumericCodes
from repro.preprocessing.tables import M_ESTIMATE_PRIORS, class_log_prior, m_estimate
from repro.preprocessing.variables import (
    OUT_OF_RANGE,
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
    elovaara2008 eqs. 18–20: per-class mean and the N − 1 variance (``ddof=1``);
    the ``var_smoothing`` floor (1e-9 of the largest class variance) only keeps a class that is
    constant on a variable finite.

    Parameters
    ----------
    ddof : int, default 1
        Variance denominator n_j − ddof (elovaara2008 uses N − 1; scikit-learn's GaussianNB 0).
    var_smoothing : float, default 1e-9
        Added variance, relative to the largest class variance of the column.
    alpha : float, default 1.0
        Laplace pseudo-count for nominal variables.
    categorical_features : "auto" or mask/indices/names
        Which columns are nominal (see :class:`repro.methods.core.encoding.TabularEncoder`).
    nominal : {"categorical", "numeric"}, default "categorical"
        "numeric": nominal variables get their category codes 0..C−1 as values and a Gaussian,
        as elovaara2008 §5.1 treats them ("arbitrary non-overlapping numerical values");
        "categorical": the Laplace estimate above. Unseen categories carry no information.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> GaussianNaiveBayes().fit(X, y).score(X, y) > 0.9
    True
    """

    def __init__(
        self,
        *,
        ddof=1,
        var_smoothing=1e-9,
        alpha=1.0,
        categorical_features="auto",
        nominal="categorical",
    ):
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.alpha = alpha
        self.categorical_features = categorical_features
        self.nominal = nominal

    def _check_params(self):
        check_gaussian_params(self.ddof, self.var_smoothing)
        check_real("alpha", self.alpha, low=0, low_open=True)
        check_choice("nominal", getattr(self, "nominal", "categorical"), NOMINALS)

    def _make_variable_model(self, k, nominal, n_categories):
        gaussian = GaussianModel(ddof=self.ddof, var_smoothing=self.var_smoothing)
        if not nominal:
            return gaussian
        if getattr(self, "nominal", "categorical") == "numeric":
            return NumericCodes(gaussian)
        return laplace_category_model(n_categories, self.alpha)


class BinnedNaiveBayes(WeightedNaiveBayes):
    """Base of the naive Bayes classifiers that cut numeric variables into ``n_bins`` bins."""

    def __init__(self, *, n_bins=10, categorical_features="auto"):
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
        Khiops' output shrink, as :class:`repro.methods.plain.modl_nb.MODLNaiveBayes` (where the
        default is explained: the paper does not support "khiops").
    m_estimate_prior : {"parts", "classes"}, default "parts"
        p = 1/I or 1/J in the m-estimate, as :class:`repro.methods.plain.modl_nb.MODLNaiveBayes`.
    categorical_features : "auto" or mask/indices/names
    """

    def __init__(
        self,
        *,
        n_bins=10,
        output_shrink="none",
        m_estimate_prior="parts",
        categorical_features="auto",
    ):
        super().__init__(n_bins=n_bins, categorical_features=categorical_features)
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

    ``n_bins`` equal-width bins on [min, max] of the class's training values, Laplace masses
    (n_b + 1)/(n_j + n_bins), density = mass / width
    (:class:`~repro.preprocessing.variables.EqualWidthDensityModel`). Missing values are ignored.

    Parameters
    ----------
    n_bins : int ≥ 1, default 10
    categorical_features : "auto" or mask/indices/names
    nominal : {"categorical", "numeric"}, default "categorical"
        "numeric": nominal variables get their category codes as values and the same histogram
        (elovaara2008 §5.1); "categorical": the Laplace estimate (α = 1) per category.
    out_of_range : {"column", "tail", "edge"}, default "column"
        A value outside a class's range: "column", an empty bin's density, one Laplace pseudo-count
        spread over the column's training range, 1/((n_j + n_bins)(max − min)); "tail", spread over
        the class's own range (MDLh's earlier rule); "edge", the density of the nearest edge bin
        (the earlier rule). With per-class ranges, "edge" can give a value far beyond a class's
        range that class's highest density: on shuttle it took accuracy below the majority-class
        rate (experiments/elovaara2008/README.md).
    """

    def __init__(
        self,
        *,
        n_bins=10,
        categorical_features="auto",
        nominal="categorical",
        out_of_range="column",
    ):
        super().__init__(n_bins=n_bins, categorical_features=categorical_features)
        self.nominal = nominal
        self.out_of_range = out_of_range

    def _check_params(self):
        super()._check_params()
        check_choice("nominal", self.nominal, NOMINALS)
        check_choice("out_of_range", self.out_of_range, OUT_OF_RANGE)

    def _make_variable_model(self, k, nominal, n_categories):
        if not nominal:
            return EqualWidthDensityModel(self.n_bins, self.out_of_range)
        if self.nominal == "numeric":
            return NumericCodes(EqualWidthDensityModel(self.n_bins, self.out_of_range))
        return laplace_category_model(n_categories, 1.0)


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
        Which columns are nominal (see :class:`repro.methods.core.encoding.TabularEncoder`).
    """

    def __init__(
        self,
        *,
        alpha=1.0,
        ddof=1,
        var_smoothing=1e-9,
        categorical_features="auto",
        gaussian="density",
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
