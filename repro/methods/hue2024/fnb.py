"""``fnb``: the fractional naive Bayes of hue2024 (§4.4–4.5, Algorithm 2, criterion 17–18).

Same preparation as ``fnb_khiops``
(:class:`~repro.methods.khiops.prepared.KhiopsPreparedNaiveBayes`: Khiops MODL partitions,
P(part i | j) = (n_ij + ε)/(N_j + I·ε), ε = 1/(N+1), class prior N_j/N, B(X_k) = ln K +
preparation cost), weights by the paper's search:

    minimise  −Σ_n log P_w(y_n | x_n) + λ f_F(w),
              f_F(w) = L*(⌈W⌉) − log(⌈W⌉!) + Σ_k B(X_k) w_k^p,   W = Σ_k w_k         (eq. 17–18)

by :func:`~repro.methods.core.optimisers.fractional_forward_backward` (Algorithm 2) on the score
engine:
each trial move costs O(N·J) (:meth:`~repro.methods.core.engine.ScoreEngine.delta_nll`) plus O(1)
for
the prior (W and Σ_k B_k w_k^p are kept up to date), and no N × K × J array is formed.
"""

from __future__ import annotations

import time

import numpy as np

from repro.methods.core.base import check_output_shrink
from repro.methods.core.checks import check_int, check_real
from repro.methods.core.engine import EncodedData, ScoreEngine
from repro.methods.core.optimisers import (
    OptimisationResult,
    fnb_increments,
    fnb_repetitions,
    fractional_forward_backward,
)
from repro.methods.hue2024.fnb_criterion import fnb_prior, fnb_prior_from_sums
from repro.methods.khiops.prepared import KhiopsPreparedNaiveBayes


class PaperFNBObjective:
    """Criterion (17) over the weights of the candidates of ``data``, O(N·J + 1) a trial move.

    Keys of the weights: the data's candidate column indices (``data.candidates``). The
    likelihood part is the engine's NLL (:class:`~repro.methods.core.engine.ScoreEngine`); the prior
    f_F (:func:`~repro.methods.hue2024.fnb_criterion.fnb_prior_from_sums`) is computed from
    W = Σ_k w_k and C = Σ_k B_k w_k^p, both updated by the change of the moved weight only.
    Starts from the empty model (all weights 0).
    """

    def __init__(self, data: EncodedData, costs, lam: float, p: float):
        self.data, self.lam, self.p = data, float(lam), float(p)
        self.costs = np.asarray(costs, dtype=np.float64)
        if self.costs.shape != (data.n_candidates,):
            raise ValueError(
                f"costs must have one value per candidate ({data.n_candidates}), "
                f"got shape {self.costs.shape}"
            )
        self.index = {int(k): i for i, k in enumerate(data.candidates)}
        self.engine = ScoreEngine(data)
        self.weights = np.zeros(data.n_candidates)
        self.total_weight = 0.0  # W = Σ w_k (sums of multiples of 2^-i: exact in floating point)
        self.weighted_cost = 0.0  # C = Σ B_k w_k^p
        self.value = float(self.engine.nll)
        self.pending = None

    def weight(self, k) -> float:
        return float(self.weights[self.index[k]])

    def trial(self, k, new_weight: float) -> float:
        """Criterion (17) with w_k = ``new_weight`` (not applied; :meth:`accept` applies it)."""
        i = self.index[k]
        old = float(self.weights[i])
        new_weight = float(new_weight)
        total = self.total_weight + (new_weight - old)
        cost = self.weighted_cost + self.costs[i] * (new_weight**self.p - old**self.p)
        nll = self.engine.delta_nll(i, new_weight - old)
        self.pending = (i, new_weight, total, cost)
        return float(nll + self.lam * fnb_prior_from_sums(max(total, 0.0), cost))

    def accept(self) -> None:
        i, new_weight, total, cost = self.pending
        self.engine.apply(i, new_weight - float(self.weights[i]))
        self.weights[i] = new_weight
        self.engine.weights[i] = new_weight  # exact, not the sum of the applied deltas
        self.total_weight, self.weighted_cost = max(total, 0.0), cost
        self.value = float(
            self.engine.nll + self.lam * fnb_prior_from_sums(self.total_weight, cost)
        )
        self.pending = None


def paper_fnb_weights(
    data: EncodedData, costs, lam: float, p: float, rng: np.random.Generator
) -> OptimisationResult:
    """The FNB weights of hue2024 Algorithm 2 from the empty model on ``data``.

    ``costs``: B(X_k) of each candidate, in the order of ``data.candidates``; ``rng`` a numpy
    Generator (the shuffles). Returns an :class:`~repro.methods.core.optimisers.OptimisationResult`
    whose ``weights`` are keyed by the candidates' column indices (``data.candidates``:
    ``[result.weights[k] for k in data.candidates]``), ``value`` criterion (17) of those weights
    recomputed from their sums (f_F from scratch, the NLL of the engine's score matrix), and
    ``trace`` one row per pass. The number K of log K / log N is the number of candidates.
    """
    objective = PaperFNBObjective(data, costs, lam, p)
    keys = [int(k) for k in data.candidates]
    result = fractional_forward_backward(objective, keys, data.n_instances, data.n_candidates, rng)
    weights = np.array([result.weights[k] for k in keys])
    result.value = float(objective.engine.nll + lam * fnb_prior(weights, objective.costs, p))
    return result


def check_random_state(value) -> None:
    """``random_state``: None, an integer ≥ 0 or a numpy Generator."""
    if not isinstance(value, np.random.Generator):
        check_int("random_state", value, 0, allow_none=True)


class FractionalNaiveBayes(KhiopsPreparedNaiveBayes):
    """Fractional naive Bayes of hue2024 (Algorithm 2, criterion 17–18): the paper's FNB.

    Starts from the empty model; for each increment δ = 1/2, 1/4, … while δ > 1/N, repeats
    ⌈1 + log K / log N⌉ times a shuffled fast forward (w_k ← min(1, w_k + δ)) and a shuffled fast
    backward (w_k ← max(0, w_k − δ)) pass, a move being kept iff criterion (17) strictly drops;
    returns the best weights (the last, as every kept move improves). K = the number of
    informative variables (MODL Level > 0), the only ones that take part; none: all weights 0.

    Differences from ``fnb_khiops``
    (:class:`~repro.methods.khiops.fnb_khiops.KhiopsFractionalNaiveBayes`,
    Khiops 11, KHIOPS_NOTES §6.5):

    - increments: 1/2, 1/4, …, 2^−I while 2^−I > 1/N (I = ⌈log2 N⌉ − 1) vs Khiops' 1, 1/2, …,
      2^−(T−1), T = ⌈log2(N+1)⌉: no step of 1 (no weight reaches 1 in one move), and the same
      finest increment except when N is a power of 2 (N = 2^m: 2^−(m−1) here, 2^−m = 1/N there);
      the weights are multiples of the finest increment;
    - repetitions: ⌈1 + log K / log N⌉ forward/backward rounds per increment, always, vs at most 2
      (the second one only when the first improved by more than eps);
    - acceptance: a move is kept iff the criterion strictly drops (no threshold), vs Khiops'
      "Score < S − eps" to add and "Score < S + eps" to drop, eps = 0.01(1 + |S∅|)/(N+1);
    - order: every pass in a fresh random order (numpy Generator, ``random_state``), the backward
      pass in that order, vs Khiops' first forward pass in Level order, later passes shuffled by
      its Park–Miller generator (seed 1) and the backward pass in reversed order;
    - λ = 0.25 (the paper's choice, §4.3, and Khiops 10's PriorWeight) vs 0.1 (Khiops 11);
    - prior: eq. 18 as written, f_F(0) = 0, no λ·ln 2 term and no null preparation cost
      λ·ln C(N+J−1, J−1) for the empty model (:mod:`repro.methods.hue2024.fnb_criterion`);
    - data cost: the plain NLL −Σ_n log P_w(y_n | x_n), vs Khiops' Laplace-smoothed
      −Σ_n log[(N·P_w(y_n | x_n) + 0.5/J)/(N + 0.5)];
    - output: ``output_shrink`` ("none" by default: the softmax of the weighted NB) vs Khiops'
      shrink p̂ = (p + 0.5/(J(N+1)))/(1 + 0.5/(N+1)) always;
    - one informative variable: optimised as any other case (Algorithm 2 with K = 1) vs weight 1
      without optimisation.

    Same as ``fnb_khiops``: the MODL preparation, ε = 1/(N+1) tables, B(X_k) = ln K + preparation
    cost (K there: all input columns), p (α) = 0.95, only informative variables, all-zero weights
    without one.

    Parameters
    ----------
    lambda_ : float ≥ 0, default 0.25
        λ of criterion (17) (hue2024 §4.3: "λ = 0.25 stands out as the optimal value").
    p : float in (0, 1], default 0.95
        Exponent of the weights in f_F (§4.3).
    random_state : int ≥ 0, numpy Generator or None, default 0
        Seed of the shuffles.
    output_shrink : {"none", "khiops"}, default "none"
    categorical_features : "auto" or mask/indices/names
    max_selected : int ≥ 1 or None, default None
        At most this many variables of weight > 0, the weights re-optimised under the cap
        (:mod:`repro.methods.khiops.prepared`).

    Attributes
    ----------
    weights_ : ndarray (K,), multiples of the last increment 2^−I, I = ⌈log2 N⌉ − 1
    levels_, variable_costs_ : as :class:`~repro.methods.khiops.prepared.KhiopsPreparedNaiveBayes`
    criterion_ : float, criterion (17) of the final weights (of the null model when no variable
        is informative)
    n_iter_ : int, number of increments run
    fit_report_ : dict with ``criterion``, ``increments``, ``repetitions``, ``n_passes`` (=
        ``n_iterations``: forward and backward passes), ``n_trials``, ``n_accepted``,
        ``search_time`` and ``trace`` (a row per pass)
    """

    def __init__(
        self,
        *,
        lambda_=0.25,
        p=0.95,
        random_state=0,
        output_shrink="none",
        categorical_features="auto",
        max_selected=None,
    ):
        self.lambda_ = lambda_
        self.p = p
        self.random_state = random_state
        self.output_shrink = output_shrink
        self.categorical_features = categorical_features
        self.max_selected = max_selected

    def _check_params(self):
        check_real("lambda_", self.lambda_, low=0)
        check_real("p", self.p, low=0, high=1, low_open=True)
        check_random_state(self.random_state)
        check_output_shrink(self.output_shrink)
        self._check_max_selected()

    def _fit_weights(self, Z, y):
        start = time.perf_counter()
        n, n_vars = Z.shape
        order, costs = self.prepared_candidates()
        weights = np.zeros(n_vars)
        increments = fnb_increments(n)
        repetitions = fnb_repetitions(n, len(order))
        if not order:
            # the null model: criterion (17) = −Σ_n log P(y_n), f_F(0) = 0
            self.criterion_ = float(-np.dot(self.class_count_, self.class_log_prior_))
            trace = []
        else:
            data = EncodedData.from_estimator(self, Z, y, columns=order)
            rng = np.random.default_rng(self.random_state)
            result = paper_fnb_weights(
                data, [costs[k] for k in order], float(self.lambda_), float(self.p), rng
            )
            for k in order:
                weights[k] = result.weights[k]
            self.criterion_ = result.value
            trace = result.trace
        self.n_iter_ = len(increments)
        self.fit_report_.update(
            criterion=self.criterion_,
            criterion_name="hue2024 eq. 17",
            n_candidates=len(order),
            increments=increments,
            repetitions=repetitions,
            n_passes=len(trace),
            n_iterations=len(trace),
            n_trials=int(sum(row["n_trials"] for row in trace)),
            n_accepted=int(sum(row["n_accepted"] for row in trace)),
            search_time=time.perf_counter() - start,
            trace=trace,
        )
        return weights
