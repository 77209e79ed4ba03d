"""``wanbia``: weighted naive Bayes with weights that minimise the conditional log-loss.

WANBIA-CLL of Zaidi, Cerquides, Carman & Webb (2013), "Alleviating naive Bayes attribute
independence assumption by attribute weighting", JMLR 14:1947–1988, as bnclassify implements it
(``compute_wanbia_weights``, R/learn-params-wanbia.R):

    P_w(y = j | x) ∝ P(j) Π_k θ_k(x_k | j)^{w_k},     0 ≤ w_k ≤ 1,

with the tables fixed before the weights are learned, and w minimising the negative
conditional log-likelihood of the training data (:mod:`repro.methods.baselines.wanbia_criterion`).
The "modl" and "raw" readings of the variables are those of the whole family
(:func:`repro.methods.baselines.discrete.baseline_partition`).
"""

from __future__ import annotations

from functools import partial

import numpy as np
from scipy.optimize import minimize

from repro.methods.baselines.discrete import PREPROCESSINGS, baseline_partition
from repro.methods.baselines.wanbia_criterion import wanbia_objective
from repro.methods.core.base import WeightedNaiveBayes
from repro.methods.core.checks import check_choice, check_int, check_real
from repro.methods.core.engine import EncodedData
from repro.preprocessing.tables import class_log_prior, laplace_log_table
from repro.preprocessing.variables import PartitionModel

#: R's ``optim`` L-BFGS-B default ``factr`` = 1e7 times the float64 epsilon: the relative
#: reduction of the objective below which it stops (scipy's ``ftol``)
R_FTOL = 1e7 * float(np.finfo(np.float64).eps)


def laplace_estimate(counts, n_total, alpha):
    """The ``estimate`` of a :class:`~repro.preprocessing.variables.PartitionModel`:
    log (n_ij + α)/(n_j + α·I), bnclassify's ``smooth`` (n_total unused)."""
    return laplace_log_table(counts, alpha)


class WANBIA(WeightedNaiveBayes):
    """WANBIA-CLL (Zaidi, Cerquides, Carman & Webb 2013, JMLR 14), bnclassify's reading::

        P_w(y = j | x) ∝ P(j) Π_k θ_k(x_k | j)^{w_k}
        w = argmin_{0 ≤ w ≤ max_weight} −Σ_n log P_w(y_n | x_n)

    - the class prior gets no weight (bnclassify's ``set_weights`` exponentiates the features'
      tables only), and no regulariser is added (bnclassify's ``make_cll``);
    - the tables are Laplace estimates with ``smooth`` pseudo-counts, fixed before the weights:
      θ_k(i | j) = (n_ij + s)/(n_j + s·I_k) over the I_k parts of variable k, and the class
      prior P(j) = (N_j + s)/(N + s·J) (bnclassify's ``lp(..., smooth = 1)``);
    - L-BFGS-B (``scipy.optimize.minimize``) from w = 1 with R ``optim``'s defaults: at most
      ``max_iter`` = 100 iterations, stop when the relative decrease of the objective is below
      ``tol`` = 1e7·ε (``factr`` = 1e7), no projected-gradient test (``pgtol`` = 0);
      the analytic gradient of :func:`~repro.methods.baselines.wanbia_criterion.wanbia_objective`.

    A variable in one part has a zero table (log 1): its gradient is 0, its weight stays 1
    and it has no effect.

    What differs from bnclassify: the variables are the package's MODL parts by default
    (bnclassify takes discrete data; the paper discretizes with MDL), and a missing value or a
    category unseen in training carries no information (log 1 = 0 in every class, as bnclassify's
    missing values).

    Parameters
    ----------
    preprocessing : {"modl", "raw"}, default "modl"
        "modl": MODL discretization/grouping (:func:`baseline_partition`); "raw": nominal values
        as they are (a numeric column is a ValueError).
    smooth : float > 0, default 1.0
        Laplace pseudo-count of the tables and of the class prior.
    max_weight : float > 0 or None, default 1.0
        Upper bound of the weights: 1 as the paper and bnclassify; None leaves them unbounded
        above ([0, ∞)).
    max_iter : int ≥ 1, default 100
    tol : float > 0, default 1e7·ε ≈ 2.22e-9
        scipy's ``ftol`` of L-BFGS-B.
    categorical_features : "auto" or mask/indices/names

    Attributes
    ----------
    weights_ : ndarray (K,), the optimised weights
    n_iter_ : int, L-BFGS-B iterations (at least 1)
    fit_report_ : dict, besides the times ``criterion`` (NCLL at the weights), ``nb_criterion``
        (NCLL at w = 1, the naive Bayes), ``n_iterations``, ``converged`` (1 or 0)

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> WANBIA().fit(X, y).score(X, y) > 0.9
    True
    """

    #: Z read column by column through MODL models: float32 input stays float32 (exact)
    compact_input = True

    def __init__(
        self,
        *,
        preprocessing="modl",
        smooth=1.0,
        max_weight=1.0,
        max_iter=100,
        tol=R_FTOL,
        categorical_features="auto",
    ):
        self.preprocessing = preprocessing
        self.smooth = smooth
        self.max_weight = max_weight
        self.max_iter = max_iter
        self.tol = tol
        self.categorical_features = categorical_features

    def _check_params(self):
        check_choice("preprocessing", self.preprocessing, PREPROCESSINGS)
        check_real("smooth", self.smooth, low=0, low_open=True)
        if self.max_weight is not None:
            check_real("max_weight", self.max_weight, low=0, low_open=True)
        check_int("max_iter", self.max_iter, 1)
        check_real("tol", self.tol, low=0, low_open=True)

    def _class_log_prior(self, class_count):
        return class_log_prior(class_count, alpha=self.smooth)

    def _make_variable_model(self, k, nominal, n_categories):
        partition = baseline_partition(self, k, nominal, n_categories)
        estimate = partial(laplace_estimate, alpha=float(self.smooth))
        return PartitionModel(partition, estimate, missing="ignore")

    def _fit_weights(self, Z, y):
        K = Z.shape[1]
        data = EncodedData.from_estimator(self, Z, y, columns=range(K))

        def objective(w):
            return wanbia_objective(w, data.codes, data.offsets, data.table, data.log_prior, y)

        start = np.ones(K)
        nb_value, _ = objective(start)
        upper = None if self.max_weight is None else float(self.max_weight)
        result = minimize(
            objective,
            start,
            jac=True,
            method="L-BFGS-B",
            bounds=[(0.0, upper)] * K,
            options={"maxiter": int(self.max_iter), "ftol": float(self.tol), "gtol": 0.0},
        )
        weights = np.clip(result.x, 0.0, upper)
        self.n_iter_ = max(1, int(result.nit))
        self.fit_report_.update(
            criterion=float(objective(weights)[0]),
            nb_criterion=float(nb_value),
            n_iterations=int(result.nit),
            converged=int(result.success),
        )
        return weights
