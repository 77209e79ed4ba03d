"""``fnb_khiops``: the fractional naive Bayes exactly as Khiops 11 trains it (SPEC §4.10).

Preprocessing: Khiops MODL (:mod:`repro.preprocessing.modl_khiops`), A = ln K. Conditional
probabilities P(part i | j) = (n_ij + ε)/(N_j + I·ε), ε = 1/(N+1); class prior N_j/N. Weights by
Khiops' direct optimisation of

    Score(w) = λ[ln2 + (W=0 ? lbinom(N+J−1, J−1) : L*(⌈W⌉) − lf(⌈W⌉))] + λ Σ_k w_k^α B_k
               + Σ_n −ln[(N·P_w(y_n|x_n) + 0.5/J)/(N + 0.5)],     B_k = ln K + preparation cost_k

with fast forward / fast backward passes over increments δ = 1, 1/2, …, 2^−(T−1),
T = ⌈log2(N+1)⌉ (KHIOPS_NOTES §6). Output probabilities get Khiops' shrink
P̂ = (p + 0.5/(J(N+1)))/(1 + 0.5/(N+1)): the base's ``output_shrink`` mechanism, always "khiops"
here (:meth:`KhiopsFractionalNaiveBayes._output_shrink`; no parameter).
"""

from __future__ import annotations

import math

import numpy as np

from repro.methods.checks import check_real
from repro.methods.criteria import khiops_fnb_data_cost, khiops_fnb_prior
from repro.methods.engine import EncodedData
from repro.methods.khiops_prepared import KhiopsPreparedNaiveBayes
from repro.methods.optimisers import halving_coordinate_descent


class ParkMillerRandom:
    """Khiops' RandomDouble/RandomInt (Norm/base/Standard.cpp), seed 1."""

    IA, IM, IQ, IR, MASK = 16807, 2147483647, 127773, 2836, 123459876

    def __init__(self, seed=1):
        self.seed = seed

    def random_double(self):
        s = self.seed ^ self.MASK
        k = s // self.IQ
        s = self.IA * (s - k * self.IQ) - self.IR * k
        if s < 0:
            s += self.IM
        ans = (1.0 / self.IM) * float(s)
        self.seed = s ^ self.MASK
        return ans

    def random_int(self, n_max):
        u = self.random_double()
        return n_max if u == 1 else int(math.floor((n_max + 1.0) * u))

    def shuffle(self, items):
        a = list(items)
        for i in range(1, len(a)):
            j = self.random_int(i)
            a[i], a[j] = a[j], a[i]
        return a


class KhiopsFractionalNaiveBayes(KhiopsPreparedNaiveBayes):
    """Fractional naive Bayes of Khiops 11 (bit-compatible weights).

    Parameters
    ----------
    prior_weight : float, default 0.1 (λ)
    prior_exponent : float, default 0.95 (α)
    categorical_features : "auto" or mask/indices/names

    Attributes
    ----------
    weights_ : ndarray (K,), multiples of 2^−(T−1)
    levels_ : ndarray (K,), Khiops Level of each variable
    criterion_ : float, final Score(w)
    """

    def __init__(self, prior_weight=0.1, prior_exponent=0.95, categorical_features="auto"):
        self.prior_weight = prior_weight
        self.prior_exponent = prior_exponent
        self.categorical_features = categorical_features

    def _check_params(self):
        check_real("prior_weight", self.prior_weight, low=0)
        check_real("prior_exponent", self.prior_exponent, low=0, high=1, low_open=True)

    def _fit_weights(self, Z, y):
        self.n_train_, n_vars = Z.shape
        order0, costs = self.prepared_candidates()
        weights = np.zeros(n_vars)
        self.criterion_ = np.nan
        if not order0:
            return weights
        if len(order0) == 1:
            weights[order0[0]] = 1.0
            return weights
        weights, self.criterion_ = self._optimise(Z, y, order0, costs, weights)
        return weights

    def _optimise(self, Z, y, order0, costs, weights):
        data = EncodedData.from_estimator(self, Z, y, columns=order0)
        objective = KhiopsFNBObjective(
            data, [costs[k] for k in order0], float(self.prior_weight), float(self.prior_exponent)
        )
        n = Z.shape[0]
        result = halving_coordinate_descent(
            objective,
            order0,
            n_steps=int(math.ceil(math.log2(n + 1))),
            tolerance=0.01 * (1 + abs(objective.value)) / (n + 1),
            shuffle=ParkMillerRandom(1).shuffle,
        )
        for k in order0:
            weights[k] = result.weights[k]
        self.fit_report_["trace"] = result.trace
        return weights, result.value

    def _output_shrink(self):
        """Always Khiops' output shrink (``KWDRNBClassifier::ComputeTargetProbs``)."""
        return "khiops"


class KhiopsFNBObjective:
    """Khiops' Score(w) over the weights of the candidate columns, with O(N·J) trial moves.

    Binds the criterion (:func:`~repro.methods.criteria.khiops_fnb_prior` +
    :func:`~repro.methods.criteria.khiops_fnb_data_cost`) to the training scores
    S = log P(y) + Σ_k w_k T_k[codes_k] of :class:`~repro.methods.engine.EncodedData`; the keys of
    the weights are the data's candidate column indices.
    """

    def __init__(self, data: EncodedData, costs, lam: float, alpha: float):
        self.data, self.costs, self.lam, self.alpha = data, list(costs), lam, alpha
        self.index = {int(k): i for i, k in enumerate(data.candidates)}
        self.weights = [0.0] * data.n_candidates
        self.scores = np.repeat(data.log_prior[None, :], data.n_instances, axis=0)
        self.value = self._score(self.scores, self.weights)
        self._pending = None

    def _score(self, scores, weights) -> float:
        d = self.data
        prior = khiops_fnb_prior(
            weights, self.costs, d.n_instances, d.n_classes, self.lam, self.alpha
        )
        return prior + khiops_fnb_data_cost(scores, d.y)

    def weight(self, k) -> float:
        return self.weights[self.index[k]]

    def trial(self, k, new_weight: float) -> float:
        i = self.index[k]
        scores = self.scores + (new_weight - self.weights[i]) * self.data.column(i)
        weights = list(self.weights)
        weights[i] = new_weight
        value = self._score(scores, weights)
        self._pending = (scores, weights, value)
        return value

    def accept(self) -> None:
        self.scores, self.weights, self.value = self._pending
