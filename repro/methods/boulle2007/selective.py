"""Selective naive Bayes of boulle2007: SNB(ACC), SNB(AUC) (§2.3) and SNB(MAP) (§3).

A selective naive Bayes model ``M`` is a subset of the variables (a_k = 1 when variable k is
selected); its class-conditional probabilities are eq. (3) of boulle2007::

    P_M(y=j | x) = softmax_j( log P(y=j) + Σ_k a_k · log P(x_k | y=j) )

The estimators are weighted naive Bayes classifiers (weights 0/1) on the MODL preprocessing of
:class:`repro.methods.plain.modl_nb.MODLNaiveBayes` (variant "paper": MODL 2006 discretization, 2005
grouping, m-estimate). They orchestrate: the criteria are :mod:`repro.methods.core.criteria`, the
training data and scores :mod:`repro.methods.core.engine`, the searches
:mod:`repro.methods.boulle2007.search`.

Only informative variables are candidates (a variable whose MODL partition has a single part has
a constant table and is never selected). In criterion (4), K is the number of input
variables of the data set (boulle2007 §2.1: "the K explanatory variables"; §3.3: "a uniform prior
between 0 and K variables"), including the uninformative ones; ``prior_variables="informative"``
uses the number of candidates instead.
"""

from __future__ import annotations

import time

import numpy as np

from repro.methods.boulle2007.search import (
    SearchResult,
    exhaustive_criterion,
    exhaustive_search,
    forward_greedy,
    ms_ffwbw,
)
from repro.methods.core.checks import check_choice, check_int
from repro.methods.core.engine import EncodedData, ScoreEngine
from repro.methods.core.selection import STOPPING_RULES
from repro.methods.plain.modl_nb import MODLNaiveBayes
from repro.runtime.cores import resolve_n_jobs


class SelectiveNaiveBayes(MODLNaiveBayes):
    """Weighted NB on the MODL preprocessing whose weights come from a search on the engine.

    The candidates are the informative variables (:meth:`EncodedData.from_estimator`); K of the
    prior of criterion (4) is the number of input variables (``prior_variables="all"``) or of
    candidates (``"informative"``).
    """

    def _selection_data(self, Z, y):
        super()._fit_weights(Z, y)  # the NB's bookkeeping (MODL levels_)
        return EncodedData.from_estimator(self, Z, y)

    def _weights_from(self, data: EncodedData, candidate_weights) -> np.ndarray:
        weights = np.zeros(len(self.variables_))
        weights[data.candidates] = np.clip(candidate_weights, 0.0, 1.0)
        return weights

    def _subset_weights(self, data: EncodedData, selected) -> np.ndarray:
        """The 0/1 weights a_k of the selective NB of the candidates ``selected`` (eq. 3)."""
        w = np.zeros(data.n_candidates)
        w[selected] = 1.0
        return self._weights_from(data, w)

    def _n_prior_variables(self, data: EncodedData) -> int:
        if self.prior_variables == "all":
            return max(len(self.variables_), 1)
        return max(data.n_candidates, 1)


class GreedySelectiveNaiveBayes(SelectiveNaiveBayes):
    """Selection on a training criterion (``_criterion``: accuracy or AUC), greedy or exhaustive."""

    _criterion = "accuracy"

    def __init__(
        self,
        *,
        stopping="no_decrease",
        search="greedy",
        variant="paper",
        algorithm="optimized_greedy",
        output_shrink="none",
        m_estimate_prior="parts",
        categorical_features="auto",
        n_jobs=1,
    ):
        super().__init__(
            variant=variant,
            algorithm=algorithm,
            output_shrink=output_shrink,
            m_estimate_prior=m_estimate_prior,
            categorical_features=categorical_features,
            n_jobs=n_jobs,
        )
        self.stopping = stopping
        self.search = search

    def _check_params(self):
        super()._check_params()
        check_choice("stopping", self.stopping, STOPPING_RULES)
        check_choice("search", self.search, ("greedy", "exhaustive"))

    def _fit_weights(self, Z, y):
        data = self._selection_data(Z, y)
        start = time.perf_counter()
        if data.n_candidates == 0:
            selected, value, trace = [], None, []
        elif self.search == "exhaustive":
            result = exhaustive_criterion(ScoreEngine(data), self._criterion)
            selected, value, trace = result["selected"], result["value"], []
        else:
            result = forward_greedy(ScoreEngine(data), self._criterion, self.stopping)
            selected, value, trace = result["selected"], result["trace"][-1], result["trace"]
        self.fit_report_.update(
            criterion=value,
            criterion_name=self._criterion,
            trace=trace,
            n_candidates=data.n_candidates,
            selection_order=[int(data.candidates[i]) for i in selected],
            search_time=time.perf_counter() - start,
        )
        return self._subset_weights(data, selected)


class ACCSelectiveNaiveBayes(GreedySelectiveNaiveBayes):
    """SNB(ACC): forward greedy selection on the training accuracy (boulle2007 §2.3).

    The selective naive Bayes of Langley & Sage (1994) on the MODL preprocessing. By default
    the selection continues as long as the training accuracy does not decrease, as Langley &
    Sage do (``stopping="no_decrease"``); ``stopping="no_rise"`` stops as soon as it no longer
    rises. Only informative variables are candidates.

    Parameters
    ----------
    stopping : {"no_decrease", "no_rise"}, default "no_decrease"
    search : {"greedy", "exhaustive"}, default "greedy"
        "exhaustive": the best training accuracy over all 2^K subsets of the informative
        variables (K ≤ 24), as in the waveform study of boulle2007 §5.3
        (:func:`exhaustive_criterion`); ``stopping`` is then unused.
    variant, algorithm, output_shrink, m_estimate_prior, categorical_features : as
        :class:`repro.methods.plain.modl_nb.MODLNaiveBayes` (defaults "paper", "optimized_greedy",
        "none", "parts")

    Attributes
    ----------
    weights_ : ndarray (K,) of 0/1; fit_report_ : dict with the accuracy ``trace`` and the
    ``selection_order``.
    """

    _criterion = "accuracy"


class AUCSelectiveNaiveBayes(GreedySelectiveNaiveBayes):
    """SNB(AUC): forward greedy selection on the training AUC (Boullé 2006a, boulle2007 §2.3).

    Adds at each step the variable with the best training multi-class AUC and stops as soon as
    the AUC no longer rises (``stopping="no_rise"``, the default, as in the paper);
    ``"no_decrease"`` continues while it does not decrease.

    Parameters
    ----------
    stopping : {"no_rise", "no_decrease"}, default "no_rise"
    search : {"greedy", "exhaustive"}, default "greedy"
        "exhaustive": the best training AUC over all 2^K subsets (K ≤ 24, boulle2007 §5.3).
    variant, algorithm, output_shrink, m_estimate_prior, categorical_features : as
        :class:`repro.methods.plain.modl_nb.MODLNaiveBayes` (defaults "paper", "optimized_greedy",
        "none", "parts")
    """

    _criterion = "auc"

    def __init__(
        self,
        *,
        stopping="no_rise",
        search="greedy",
        variant="paper",
        algorithm="optimized_greedy",
        output_shrink="none",
        m_estimate_prior="parts",
        categorical_features="auto",
        n_jobs=1,
    ):
        super().__init__(
            stopping=stopping,
            search=search,
            variant=variant,
            algorithm=algorithm,
            output_shrink=output_shrink,
            m_estimate_prior=m_estimate_prior,
            categorical_features=categorical_features,
            n_jobs=n_jobs,
        )


class MAPSearchNaiveBayes(SelectiveNaiveBayes):
    """Shared by SNB(MAP), SNB(BMA), SNB(CMA): criterion (4) searched by MS(FFWBW)/exhaustive."""

    _record = False

    def __init__(
        self,
        *,
        search="heuristic",
        n_starts=None,
        max_iter=5,
        prior_variables="all",
        random_state=0,
        keep_models=False,
        variant="paper",
        algorithm="optimized_greedy",
        output_shrink="none",
        m_estimate_prior="parts",
        categorical_features="auto",
        n_jobs=1,
    ):
        self.search = search
        self.n_starts = n_starts
        self.max_iter = max_iter
        self.prior_variables = prior_variables
        self.random_state = random_state
        self.keep_models = keep_models
        super().__init__(
            variant=variant,
            algorithm=algorithm,
            output_shrink=output_shrink,
            m_estimate_prior=m_estimate_prior,
            categorical_features=categorical_features,
            n_jobs=n_jobs,
        )

    def _check_params(self):
        super()._check_params()
        check_choice("search", self.search, ("heuristic", "exhaustive"))
        check_choice("prior_variables", self.prior_variables, ("all", "informative"))
        check_int("max_iter", self.max_iter, 1)
        check_int("n_starts", self.n_starts, 1, allow_none=True)

    def _search(self, Z, y) -> tuple[EncodedData, SearchResult | None]:
        data = self._selection_data(Z, y)
        self.n_iter_ = 1  # FFWBW iterations (largest over the starts), scikit-learn convention
        if data.n_candidates == 0:
            self.fit_report_.update(n_candidates=0, criterion=None, search_time=0.0)
            return data, None
        start = time.perf_counter()
        engine = ScoreEngine(data)
        n_variables = self._n_prior_variables(data)
        if self.search == "exhaustive":
            result = exhaustive_search(engine, n_variables)
        else:
            result = ms_ffwbw(
                engine,
                n_variables,
                n_starts=self.n_starts,
                max_iter=self.max_iter,
                random_state=self.random_state,
                record=self._record or self.keep_models,
                n_threads=resolve_n_jobs(self.n_jobs),
            )
        self.fit_report_.update(
            criterion=result.cost,
            criterion_name="map_cost",
            null_cost=result.null_cost,
            n_candidates=data.n_candidates,
            map_selection=[int(data.candidates[i]) for i in result.selected],
            search_time=time.perf_counter() - start,
            **result.info,
        )
        self.n_iter_ = max(result.info.get("iterations", [1]))
        if self.keep_models:
            self.search_result_ = result
        return data, result


class MAPSelectiveNaiveBayes(MAPSearchNaiveBayes):
    """SNB(MAP): the most probable selective naive Bayes, criterion (4) of boulle2007 §3.

    Minimises ``log(K+1) + log C(K+K_m−1, K_m) − Σ_n log P_M(y_n | x_n)`` over the subsets of
    the informative variables, with MS(FFWBW) (``search="heuristic"``, Algorithm 1: ⌊log2(K·N)⌋
    starts unless ``n_starts`` is given, ``max_iter`` = 5, seeded by ``random_state``) or by
    enumerating all 2^K subsets (``search="exhaustive"``, at most 24 informative variables).

    Parameters
    ----------
    search : {"heuristic", "exhaustive"}, default "heuristic"
    n_starts : int or None, default None (⌊log2(K·N)⌋)
    max_iter : int, default 5
    prior_variables : {"all", "informative"}, default "all"
        K of the prior: all input variables (the paper's K) or only the informative ones.
    random_state : int, Generator or None, default 0
    keep_models : bool, default False
        Keep the search outcome, with every evaluated model and its cost, as ``search_result_``.
    variant, algorithm, output_shrink, m_estimate_prior, categorical_features : as
        :class:`repro.methods.plain.modl_nb.MODLNaiveBayes` (defaults "paper", "optimized_greedy",
        "none", "parts")

    Attributes
    ----------
    weights_ : ndarray (K,) of 0/1
    n_iter_ : int, the largest number of FFWBW iterations of a start (1 when exhaustive)
    search_result_ : :class:`SearchResult`, when ``keep_models``
    fit_report_ : dict, with ``criterion`` (criterion (4) of the MAP, nats),
        ``null_cost``, ``n_evaluations``, ``iterations`` (per start).

    References
    ----------
    M. Boullé, Compression-based averaging of selective naive Bayes classifiers, JMLR 8, 2007.
    """

    def _fit_weights(self, Z, y):
        data, result = self._search(Z, y)
        return self._subset_weights(data, [] if result is None else result.selected)
