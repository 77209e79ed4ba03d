"""``wnb_opt``: the weighted naive Bayes of hue2024 by direct optimisation of its criterion (§3).

    min_{w ∈ [0,1]^K} CR(w) = F_N(w) + λ f_C(w)                                        (eq. 11–13)

over the informative variables of Khiops' MODL preparation (:mod:`repro.methods.khiops.prepared`,
B(X_k) = ln K + preparation cost), with one of the paper's eight algorithms (§3.2):

- one stage on CR: ``sg`` (projected gradient with backtracking, weights reaching 0 stay 0) and
  ``am`` (alternating minimisation between the weights and W = Σ_k w_k);
- two stages ``x_y``: stage 1 ``x`` ∈ {``sg``, ``ug``, ``cg``} minimises the convex relaxation
  C̃R (eq. 15) with W₀ = Σ_k w⁰_k from the start w⁰; stage 2 ``y`` ∈ {``cf``, ``ue``} minimises
  ĈR (eq. 16) with W̃ = Σ_k w̃_k from the stage-1 point w̃.

The criteria are :mod:`repro.methods.hue2024.wnb_opt_criterion`, the algorithms
:mod:`repro.methods.hue2024.box_optimisers`; this class only orchestrates them.
"""

from __future__ import annotations

import time

import numpy as np

from repro.methods.boulle2007.averaging import cma_weights
from repro.methods.boulle2007.search import ms_ffwbw
from repro.methods.core.base import check_output_shrink
from repro.methods.core.checks import check_choice, check_int, check_real
from repro.methods.core.engine import EncodedData, ScoreEngine
from repro.methods.hue2024.box_optimisers import (
    alternating_minimisation,
    composite_gradient,
    conditional_gradient,
    projected_gradient,
    universal_gradient,
    upper_estimator_gradient,
)
from repro.methods.hue2024.wnb_opt_criterion import (
    check_xi_parameters,
    fc_penalty,
    hue2024_criterion,
    negative_log_likelihood,
    separable_penalty,
    xi_delta_prox,
)
from repro.methods.khiops.prepared import KhiopsPreparedNaiveBayes

#: the eight algorithms of hue2024 §3.2 (one-stage sg, am; two-stage stage1_stage2)
ALGORITHMS = ("sg", "am", "sg_cf", "sg_ue", "ug_cf", "ug_ue", "cg_cf", "cg_ue")
#: starting points of the optimisation (hue2024 §4.4)
INITS = ("uniform", "snb", "fnb")


class OptimisedWeightedNaiveBayes(KhiopsPreparedNaiveBayes):
    """Weighted naive Bayes by direct optimisation of hue2024's criterion (11) ("WNB", §3).

    Parameters
    ----------
    algorithm : one of :data:`ALGORITHMS`, default "sg_cf" (the paper's choice, §4.2)
    lambda_ : float ≥ 0, default 0.25 (λ of eq. 11; the paper's best test AUC, §4.3)
    p : float in (0, 1], default 0.95 (exponent of ξ(w) = w^p, §4.3)
    delta : float in (0, 1], default 1e-3
        ξ is replaced by its tangent on [0, δ] (§3.1, item 2; the paper gives no value). 1e-3
        keeps the slope of ξ_δ at 0 finite (p δ^(p−1) ≈ 1.4 at p = .95, 11 at p = .65) and the
        linear piece below any weight that matters (the FNB's finest increment is 2^−10 at
        N = 1000); weights in [0, δ] are soft-thresholded to 0 by the CF step.
    epsilon : float > 0, default 0.01 (§4.3): a stage stops when no weight moves by more than ε
    init : {"uniform", "snb", "fnb"}, default "uniform" (§4.4)
        "uniform": w⁰ = 0.5·ē; "snb": the SNB(CMA) weights of MS(FFWBW) on the same preparation
        (boulle2007, the paper's SNB); "fnb": the weights of the paper's FNB (Algorithm 2).
    normalise_init : bool, default False
        Scale w⁰ by CR(0)/CR(w⁰) when the start is worse than the null model (§4.2: the fix the
        paper tried for UG on JapaneseVowels).
    max_iter : int, default 500, iterations per stage (per round for ``am``)
    random_state : int, default 0 (the "snb" and "fnb" initialisations)
    output_shrink : {"none", "khiops"}, default "none"
    categorical_features : "auto" or mask/indices/names
    max_selected : int ≥ 1 or None, default None
        At most this many variables of weight > 0, the weights re-optimised under the cap
        (:mod:`repro.methods.khiops.prepared`).

    Attributes
    ----------
    weights_ : ndarray (K,) in [0, 1] (0 for uninformative variables)
    criterion_ : float, CR(w) of eq. 11 at the returned weights
    n_iter_ : int, iterations of all stages (≥ 1)
    fit_report_ : dict with ``criterion``, ``null_criterion`` (CR(0)), ``n_iterations``,
        ``total_prior`` (W₀) and ``stage1_total`` (W̃) for the two-stage algorithms,
        ``n_evaluations``, ``converged``, ``init_time``, ``stage1_time``, ``stage2_time``,
        ``optimisation_time`` and ``trace`` (one row per iteration: stage, iteration, value of
        the stage's objective, number of non-zero weights, time).
    """

    def __init__(
        self,
        *,
        algorithm="sg_cf",
        lambda_=0.25,
        p=0.95,
        delta=1e-3,
        epsilon=0.01,
        init="uniform",
        normalise_init=False,
        max_iter=500,
        random_state=0,
        output_shrink="none",
        categorical_features="auto",
        max_selected=None,
    ):
        self.algorithm = algorithm
        self.lambda_ = lambda_
        self.p = p
        self.delta = delta
        self.epsilon = epsilon
        self.init = init
        self.normalise_init = normalise_init
        self.max_iter = max_iter
        self.random_state = random_state
        self.output_shrink = output_shrink
        self.categorical_features = categorical_features
        self.max_selected = max_selected

    def _check_params(self):
        self._check_max_selected()
        check_choice("algorithm", self.algorithm, ALGORITHMS)
        check_real("lambda_", self.lambda_, low=0)
        check_real("p", self.p, low=0, high=1, low_open=True)
        check_real("delta", self.delta, low=0, high=1, low_open=True)
        check_real("epsilon", self.epsilon, low=0, low_open=True)
        check_choice("init", self.init, INITS)
        check_choice("normalise_init", self.normalise_init, (True, False))
        check_int("max_iter", self.max_iter, 1)
        check_int("random_state", self.random_state, 0)
        check_output_shrink(self.output_shrink)
        check_xi_parameters(self.p, self.delta)

    # ---------------------------------------------------------------- criteria on the data
    def _nll(self, data: EncodedData):
        args = (data.codes, data.offsets, data.table, data.log_prior, data.y)

        def fun(w):
            return negative_log_likelihood(w, *args)

        def value(w):
            return negative_log_likelihood(w, *args, gradient=False)

        return fun, value

    def _criterion(self, data: EncodedData, costs):
        """CR (eq. 11) as (fun, value) callables."""
        lam, p, delta = float(self.lambda_), float(self.p), float(self.delta)
        args = (data.codes, data.offsets, data.table, data.log_prior, data.y)
        _, nll_value = self._nll(data)

        def fun(w):
            return hue2024_criterion(w, *args, costs, lam, p, delta)

        def value(w):
            return nll_value(w) + lam * fc_penalty(w, costs, p, delta)[0]

        return fun, value

    def _separable(self, costs, total):
        """Penalty λ Σ a_k ξ_δ(w_k), a = 1 − log(W + 1) + B (eq. 16), and its exact prox."""
        lam, p, delta = float(self.lambda_), float(self.p), float(self.delta)
        a = 1.0 - np.log1p(float(total)) + costs

        def penalty(w):
            value, grad = separable_penalty(w, a, p, delta)
            return lam * value, lam * grad

        def prox(v, lipschitz, upper):
            return xi_delta_prox(v, lam * a, lipschitz, p, delta, upper)

        return penalty, prox

    def _relaxed(self, data: EncodedData, costs, total_prior):
        """C̃R (eq. 15) as (fun, value): F_N + λ Σ (1 − log(W₀ + 1) + B_k) w_k."""
        lam = float(self.lambda_)
        a = lam * (1.0 - np.log1p(float(total_prior)) + costs)
        nll_fun, nll_value = self._nll(data)

        def fun(w):
            value, grad = nll_fun(w)
            return value + float(a @ w), grad + a

        def value(w):
            return nll_value(w) + float(a @ w)

        return fun, value

    # ----------------------------------------------------------------------- the start
    def _start(self, data: EncodedData, costs) -> np.ndarray:
        n = data.n_candidates
        if self.init == "uniform":
            return np.full(n, 0.5)
        if self.init == "snb":
            result = ms_ffwbw(
                ScoreEngine(data), self.n_features_in_, random_state=self.random_state
            )
            return np.clip(cma_weights(result), 0.0, 1.0)
        from repro.methods.hue2024.fnb import paper_fnb_weights

        rng = np.random.default_rng(self.random_state)
        result = paper_fnb_weights(data, costs, float(self.lambda_), float(self.p), rng)
        return np.array([result.weights[int(k)] for k in data.candidates], dtype=np.float64)

    # -------------------------------------------------------------------------- the fit
    def _fit_weights(self, Z, y):
        order, cost_of = self.prepared_candidates()
        weights = np.zeros(Z.shape[1])
        data = EncodedData.from_estimator(self, Z, y, columns=order)
        costs = np.array([cost_of[k] for k in order], dtype=np.float64)
        cr_fun, cr_value = self._criterion(data, costs)
        null = cr_value(np.zeros(data.n_candidates))
        self.fit_report_.update(null_criterion=null, n_candidates=data.n_candidates)
        self.n_iter_ = 1  # iterations of all stages (scikit-learn's convention: ≥ 1)
        if not order:
            self.criterion_ = null
            self.fit_report_.update(criterion=null, n_iterations=0, trace=[])
            return weights
        t0 = time.perf_counter()
        w0 = self._start(data, costs)
        if self.normalise_init:
            start_value = cr_value(w0)
            if start_value > null > 0:
                w0 = w0 * (null / start_value)
        t1 = time.perf_counter()
        stages = self._optimise(data, costs, w0, cr_fun, cr_value)
        t2 = time.perf_counter()
        w = stages[-1][1].weights
        self.criterion_ = float(cr_value(w))
        trace = [{"stage": name, **row} for name, result in stages for row in result.rows]
        times = {
            f"stage{i + 1}_time": r.rows[-1]["time"] if r.rows else 0.0
            for i, (_, r) in enumerate(stages)
        }
        self.fit_report_.update(
            criterion=self.criterion_,
            criterion_name="hue2024_cr",
            n_iterations=sum(r.n_iterations for _, r in stages),
            n_evaluations=sum(r.n_evaluations for _, r in stages),
            converged=all(r.converged for _, r in stages),
            init_time=t1 - t0,
            optimisation_time=t2 - t1,
            trace=trace,
            **times,
        )
        self.n_iter_ = max(1, self.fit_report_["n_iterations"])
        weights[order] = w
        return weights

    def _optimise(self, data, costs, w0, cr_fun, cr_value):
        """[(stage name, OptimisationTrace)] of the chosen algorithm from w0."""
        eps, max_iter = float(self.epsilon), int(self.max_iter)
        nll_fun, nll_value = self._nll(data)
        if self.algorithm == "sg":
            return [
                ("sg", projected_gradient(cr_fun, cr_value, w0, eps, max_iter, freeze_zeros=True))
            ]
        if self.algorithm == "am":

            def stage_problem(total):
                return (nll_fun, nll_value, *self._separable(costs, total))

            return [("am", alternating_minimisation(stage_problem, np.sum, w0, eps, max_iter))]
        first, second = self.algorithm.split("_")
        fun, value = self._relaxed(data, costs, float(np.sum(w0)))
        if first == "sg":
            stage1 = projected_gradient(fun, value, w0, eps, max_iter)
        elif first == "ug":
            stage1 = universal_gradient(fun, value, w0, eps * abs(value(w0)), eps, max_iter)
        else:
            stage1 = conditional_gradient(fun, value, w0, eps, max_iter)
        w1 = stage1.weights
        self.fit_report_.update(total_prior=float(np.sum(w0)), stage1_total=float(np.sum(w1)))
        penalty, prox = self._separable(costs, float(np.sum(w1)))
        if second == "cf":
            stage2 = composite_gradient(nll_fun, nll_value, penalty, prox, w1, eps, max_iter)
        else:
            stage2 = upper_estimator_gradient(nll_fun, nll_value, penalty, w1, eps, max_iter)
        return [(first, stage1), (second, stage2)]
