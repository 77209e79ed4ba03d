"""``snb_ml``: the selective naive Bayes of vidaurre2012 §3.1, over maximum-likelihood estimates.

§3.1: "The SNB approach obeys Eq. (4) and, hence, makes use of the MLE. However, it is applied
over only a subset of predictors. A forward greedy search finds this subset of predictors, where
predictors are included in the model as long as the prediction accuracy (over training data)
keeps increasing." The per-variable models are those of the paper's NB (``nb_ml``,
:class:`repro.methods.plain.nb.GaussianNaiveBayes` with ``ddof=0``): a per-class Gaussian with
the MLE variance for a continuous predictor, the class-conditional table N_ijk/N_j (with the
pseudo-count ``alpha``) for a discrete one, the class prior N_j/N. The estimator orchestrates:
the training scores are :mod:`repro.methods.core.engine`, the search
:func:`repro.methods.core.selection.forward_greedy` (the one SNB(ACC) of boulle2007 uses over
MODL parts).
"""

from __future__ import annotations

import time

import numpy as np

from repro.methods.core.checks import check_choice
from repro.methods.core.engine import EncodedData, ScoreEngine
from repro.methods.core.selection import STOPPING_RULES, forward_greedy
from repro.methods.plain.nb import GaussianNaiveBayes


class MLSelectiveNaiveBayes(GaussianNaiveBayes):
    """SNB of Vidaurre, Bielza & Larrañaga (2012) §3.1 (Langley & Sage's forward selection).

    From the empty model (class prior only), each step adds the predictor whose inclusion gives
    the highest training accuracy (ties: lowest column index) while that accuracy *strictly*
    increases ("keeps increasing", ``stopping="no_rise"``); ``stopping="no_decrease"`` also adds
    on a tie (Langley & Sage's reading, that of ``snb_acc``). The selected predictors keep their
    maximum-likelihood models with weight 1 (eq. 4); the others are left out.

    Parameters
    ----------
    stopping : {"no_rise", "no_decrease"}, default "no_rise"
    ddof : {0, 1}, default 0
        Variance denominator of the Gaussians (0: the MLE of the paper).
    var_smoothing : float ≥ 0, default 1e-9
        Added variance relative to the column's largest class variance (keeps a constant class
        finite).
    alpha : float > 0, default 1.0
        Pseudo-count of the discrete tables, (N_ijk + α)/(N_j + α·M_i). The paper's MLE is
        α → 0 and it does not say how it treats a state never seen with a class; α = 1 keeps
        every log-probability finite and is what fsNB and CFS+NB use here, so that SNB, fsNB at
        α_i = 1 and CFS+NB share their per-variable models.
    categorical_features : "auto" or mask/indices/names
        Which columns are nominal (:class:`repro.methods.core.encoding.TabularEncoder`).

    Attributes
    ----------
    weights_ : ndarray (K,) of 0/1; selected_; n_selected_features_
    fit_report_ : dict
        ``trace`` (training accuracy of the empty model, then after each addition),
        ``selection_order`` (column indices in order of addition), ``criterion`` (the final
        training accuracy), ``n_candidates``, ``n_evaluations`` (models evaluated),
        ``search_time``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> MLSelectiveNaiveBayes().fit(X, y).n_selected_features_ <= 4
    True
    """

    def __init__(
        self,
        *,
        stopping="no_rise",
        ddof=0,
        var_smoothing=1e-9,
        alpha=1.0,
        categorical_features="auto",
    ):
        super().__init__(
            ddof=ddof,
            var_smoothing=var_smoothing,
            alpha=alpha,
            categorical_features=categorical_features,
        )
        self.stopping = stopping

    def _check_params(self):
        super()._check_params()
        check_choice("stopping", self.stopping, STOPPING_RULES)

    def _fit_weights(self, Z, y):
        weights = np.zeros(Z.shape[1])
        data = EncodedData.from_estimator(self, Z, y)
        start = time.perf_counter()
        selected, trace = [], [None]
        if data.n_candidates:
            result = forward_greedy(ScoreEngine(data), "accuracy", self.stopping)
            selected, trace = result["selected"], result["trace"]
        k = data.n_candidates
        steps = len(selected) + (1 if len(selected) < k else 0)  # the last step may add nothing
        self.fit_report_.update(
            criterion=trace[-1],
            criterion_name="accuracy",
            trace=trace,
            n_candidates=k,
            n_evaluations=sum(k - s for s in range(steps)),
            selection_order=[int(data.candidates[i]) for i in selected],
            search_time=time.perf_counter() - start,
        )
        weights[data.candidates[selected]] = 1.0
        return weights
