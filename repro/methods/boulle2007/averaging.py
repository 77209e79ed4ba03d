"""Model averaging of selective naive Bayes classifiers: SNB(BMA) and SNB(CMA) (boulle2007 §4, §6).

Averaging the class-conditional information of selective naive Bayes models M_m (subsets a_mk)
with model weights π_m reduces to a weighted naive Bayes with variable weights (boulle2007 eq. 7)

    w_k = Σ_m a_mk π_m / Σ_m π_m ∈ [0, 1].

- BMA (§4.3): π_m = P(M_m | D) ∝ exp(−cost(M_m)), cost = criterion (4); computed relative to the
  best model, π_m = exp(cost_min − cost_m) ≤ 1 (log-sum-exp), so nothing overflows and models
  more than ~745 nats worse than the best underflow to an exact 0 weight;
- CMA (§6.2): π_m = c(M_m) = 1 − cost(M_m)/cost(M_0), the compression coefficient, M_0 the empty
  model; only models with c(M_m) > 0 are averaged ("we ignore the bad models").

The averaged set is the set of models evaluated by MS(FFWBW) (§4.4; each distinct subset counted
once), or all 2^K subsets with ``search="exhaustive"``. When no model compresses (or no variable is
informative), the result is the null model (all weights 0).
"""

from __future__ import annotations

import numpy as np

from repro.methods.boulle2007.criteria import bma_model_weights, cma_model_weights
from repro.methods.boulle2007.search import SearchResult, averaged_weights
from repro.methods.boulle2007.selective import MAPSearchNaiveBayes


def bma_weights(result: SearchResult) -> np.ndarray:
    """b_k = Σ_m a_mk P(M_m|D) / Σ_m P(M_m|D) over the evaluated models (boulle2007 §4.3)."""
    models = result.models
    return averaged_weights(models, bma_model_weights(models.cost, models.first_occurrences()))


def cma_weights(result: SearchResult) -> np.ndarray:
    """c_k = Σ_m a_mk c(M_m) / Σ_m c(M_m) over the evaluated models with c > 0 (boulle2007 §6.2)."""
    models = result.models
    w = cma_model_weights(models.cost, result.null_cost, models.first_occurrences())
    return averaged_weights(models, w)


class AveragingNaiveBayes(MAPSearchNaiveBayes):
    """Averages the models of a criterion-(4) search into variable weights (eq. 7)."""

    _record = True
    _averaging = "bma"

    def _fit_weights(self, Z, y):
        data, result = self._search(Z, y)
        w = np.zeros(data.n_candidates)
        if result is not None:
            w = bma_weights(result) if self._averaging == "bma" else cma_weights(result)
            keep = result.models.first_occurrences()
            compressing = (result.models.cost < result.null_cost) & keep
            self.fit_report_.update(
                n_models=int(keep.sum()),
                n_models_evaluated=len(result.models),
                n_compressing_models=int(compressing.sum()),
            )
        return self._weights_from(data, w)


_PARAMS_DOC = """
    Parameters
    ----------
    search : {"heuristic", "exhaustive"}, default "heuristic"
        The models averaged: those evaluated by MS(FFWBW), or all 2^K subsets of the informative
        variables (K ≤ 24).
    n_starts : int or None, default None (⌊log2(K·N)⌋)
    max_iter : int, default 5
    prior_variables : {"all", "informative"}, default "all"
        K of the prior of criterion (4): all input variables (the paper) or the informative ones.
    random_state : int, Generator or None, default 0
    keep_models : bool, default False
        Keep the search outcome (every evaluated model and its cost) as ``search_result_``,
        for the figures of the waveform study.
    variant, algorithm, output_shrink, m_estimate_prior, categorical_features : as
        :class:`repro.methods.plain.modl_nb.MODLNaiveBayes` (defaults "paper", "optimized_greedy",
        "none", "parts")

    Attributes
    ----------
    weights_ : ndarray (K,) in [0, 1], the averaged variable weights
    fit_report_ : dict, with ``criterion`` (criterion (4) of the MAP model), ``null_cost``,
        ``n_models`` (distinct subsets averaged), ``n_compressing_models``
    search_result_ : :class:`repro.methods.boulle2007.search.SearchResult`, when ``keep_models``

    References
    ----------
    M. Boullé, Compression-based averaging of selective naive Bayes classifiers, JMLR 8, 2007.
"""


class BMASelectiveNaiveBayes(AveragingNaiveBayes):
    __doc__ = (
        """SNB(BMA): Bayesian model averaging of selective naive Bayes (boulle2007 §4).

    Variable weights b_k = Σ_m a_mk P(M_m|D) / Σ_m P(M_m|D), P(M_m|D) ∝ exp(−criterion (4)).
    """
        + _PARAMS_DOC
    )
    _averaging = "bma"


class CMASelectiveNaiveBayes(AveragingNaiveBayes):
    __doc__ = (
        """SNB(CMA): compression-based model averaging of selective naive Bayes (boulle2007 §6).

    Variable weights c_k = Σ_m a_mk c(M_m) / Σ_m c(M_m) over the models with a positive
    compression coefficient c(M) = 1 − cost(M)/cost(M_0).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = CMASelectiveNaiveBayes().fit(X, y)
    >>> bool(((clf.weights_ >= 0) & (clf.weights_ <= 1)).all())
    True
    """
        + _PARAMS_DOC
    )
    _averaging = "cma"


#: the name of SNB(CMA) as a class (``from repro import CMANaiveBayes``)
CMANaiveBayes = CMASelectiveNaiveBayes
