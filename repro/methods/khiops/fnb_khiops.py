"""``fnb_khiops``: the fractional naive Bayes exactly as Khiops 11 trains it.

Preprocessing: Khiops MODL (:mod:`repro.preprocessing.modl.khiops`), A = ln K. Conditional
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
import os
import time

import numpy as np
from numba import njit

from repro.methods.core.base import check_n_jobs, map_variable_blocks
from repro.methods.core.checks import check_real
from repro.methods.core.engine import EncodedData, shifted_tables
from repro.methods.core.optimisers import halving_coordinate_descent
from repro.methods.khiops.fnb_criterion import (
    khiops_fnb_data_cost,
    khiops_fnb_move,
    khiops_fnb_prior,
    khiops_fnb_trial_data_cost,
)
from repro.methods.khiops.prepared import KhiopsPreparedNaiveBayes
from repro.preprocessing.modl.criteria import universal_code


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
        """A shuffled copy of ``items`` (ObjectArray::Shuffle: swap a[i] and a[RandomInt(i)] for
        i = 1 … n−1), the random draws compiled (:func:`park_miller_permutation`)."""
        a = list(items)
        permutation, self.seed = park_miller_permutation(self.seed, len(a))
        return [a[p] for p in permutation.tolist()]


@njit(cache=True)
def park_miller_permutation(seed, n):
    """(permutation, next seed) of :meth:`ParkMillerRandom.shuffle` on n items: the same integer
    and float operations as :meth:`ParkMillerRandom.random_int`, in a compiled loop."""
    perm = np.arange(n)
    for i in range(1, n):
        s = seed ^ 123459876
        k = s // 127773
        s = 16807 * (s - k * 127773) - 2836 * k
        if s < 0:
            s += 2147483647
        u = (1.0 / 2147483647) * float(s)
        seed = s ^ 123459876
        j = i if u == 1 else int(math.floor((i + 1.0) * u))
        perm[i], perm[j] = perm[j], perm[i]
    return perm, seed


class KhiopsFractionalNaiveBayes(KhiopsPreparedNaiveBayes):
    """Fractional naive Bayes of Khiops 11 (bit-compatible weights).

    Parameters
    ----------
    prior_weight : float, default 0.1 (λ)
    prior_exponent : float, default 0.95 (α)
    categorical_features : "auto" or mask/indices/names
    n_jobs : int or None, default 1
        Threads (numeric variables only) or processes (with nominal ones) for the per-variable
        MODL preparation (joblib's convention: None = 1, −1 = every core); the fitted model is
        bit-identical for every value
        (:func:`repro.methods.core.base.fit_variable_models`). Keep 1 when the folds already run in
        parallel.
    max_selected : int ≥ 1 or None, default None
        At most this many variables of weight > 0, the weights re-optimised under the cap
        (:mod:`repro.methods.khiops.prepared`; Khiops 11 drops the weakest instead).

    Attributes
    ----------
    weights_ : ndarray (K,), multiples of 2^−(T−1)
    levels_ : ndarray (K,), Khiops Level of each variable
    criterion_ : float, final Score(w)
    """

    def __init__(
        self,
        *,
        prior_weight=0.1,
        prior_exponent=0.95,
        categorical_features="auto",
        n_jobs=1,
        max_selected=None,
    ):
        self.prior_weight = prior_weight
        self.prior_exponent = prior_exponent
        self.categorical_features = categorical_features
        self.n_jobs = n_jobs
        self.max_selected = max_selected

    def _check_params(self):
        self._check_max_selected()
        check_real("prior_weight", self.prior_weight, low=0)
        check_real("prior_exponent", self.prior_exponent, low=0, high=1, low_open=True)
        check_n_jobs(self.n_jobs)

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
        data = self._encoded_candidates(Z, y, order0)
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

    def _encoded_candidates(self, Z, y, order0) -> EncodedData:
        """:meth:`EncodedData.from_estimator` of the candidates, their training codes computed
        over blocks of contiguous columns (the same codes; at waveform + 10k F(2D) 6.5 s of CPU
        instead of 11). Serial: on two processes, shipping the columns and the models costs the
        parent more than the codes themselves (measured, issue 16)."""
        models = [self.variables_[k] for k in order0]
        if not all(hasattr(m, "codes") and hasattr(m, "log_table_") for m in models):
            return EncodedData.from_estimator(self, Z, y, columns=order0)
        codes, _ = map_variable_blocks(encode_variable_block, models, Z, order0, 1)
        tables = [m.log_table_ for m in models]
        return EncodedData.from_tables(codes, tables, y, self.class_log_prior_, list(order0))

    def _output_shrink(self):
        """Always Khiops' output shrink (``KWDRNBClassifier::ComputeTargetProbs``)."""
        return "khiops"


def encode_variable_block(models, columns, *args):
    """Task of :meth:`KhiopsFractionalNaiveBayes._encoded_candidates`: the part codes of
    ``columns[i]`` under ``models[i]``, in the smallest unsigned type of its table's rows."""
    start = time.process_time()
    out = []
    for i, model in enumerate(models):
        rows = model.log_table_.shape[0]
        dtype = np.uint8 if rows <= 256 else np.uint16 if rows <= 65536 else np.int64
        out.append(model.codes(columns[i]).astype(dtype))
    return out, time.process_time() - start, os.getpid()


class KhiopsFNBObjective:
    """Khiops' Score(w) over the weights of the candidate columns, updated incrementally.

    The value is that of the reference criterion
    (:func:`~repro.methods.khiops.fnb_criterion.khiops_fnb_prior`
    + :func:`~repro.methods.khiops.fnb_criterion.khiops_fnb_data_cost`) on the training scores
    S = log P(y) + Σ_k w_k T_k[codes_k] of :class:`~repro.methods.core.engine.EncodedData`; the
    keys of
    the weights are the data's candidate column indices. A trial move of one weight costs

    - O(1) for the prior: W = Σ_k w_k and Σ_k w_k^α B_k are running sums (the second one
      compensated, Neumaier), the count term λ[ln 2 + L*(⌈W⌉) − ln⌈W⌉!] is cached per ⌈W⌉, and
      W = 0 is decided by the number of positive weights, not by the float sum;
    - O(N·J) for the data cost: one compiled pass over q = softmax(S), without an N × J
      temporary (:func:`~repro.methods.khiops.fnb_criterion.khiops_fnb_trial_data_cost`).

    :meth:`accept` updates S and q in place
    (:func:`~repro.methods.khiops.fnb_criterion.khiops_fnb_move`): S
    stays bit-identical to the NumPy sum of the accepted moves, and the value differs from the
    from-scratch one by rounding only (≈1e-15 relative). W is exact for the dyadic weights of
    :func:`~repro.methods.core.optimisers.halving_coordinate_descent`; for other weights it is
    re-summed with ``math.fsum`` whenever it falls within 1e-9 of an integer without being one,
    so that ⌈W⌉ never jumps on a rounding error.
    """

    def __init__(self, data: EncodedData, costs, lam: float, alpha: float):
        self.data, self.costs, self.lam, self.alpha = data, list(costs), lam, alpha
        self.index = {int(k): i for i, k in enumerate(data.candidates)}
        self.weights = [0.0] * data.n_candidates
        self.scores = np.repeat(data.log_prior[None, :], data.n_instances, axis=0)
        top = self.scores.max(axis=1, keepdims=True) if self.scores.size else 0.0
        e = np.exp(self.scores - top)
        self.q = e / e.sum(axis=1, keepdims=True)
        self._shift_add, self._shift_drop = shifted_tables(data.table)
        self._offsets = [int(o) for o in data.offsets]
        # rows of each candidate's table that its codes use (a trial exponentiates them)
        self._n_rows = [int(c.max()) + 1 if c.size else 0 for c in data.codes]
        self._codes = list(data.codes)  # one contiguous row per candidate
        self._count_cache: dict[int, float] = {}
        self.n_positive = 0
        self.total_weight = 0.0
        self._cost_sum = self._cost_comp = 0.0  # Σ w_k^α B_k, Neumaier-compensated
        self.data_cost = khiops_fnb_data_cost(self.scores, data.y)
        prior = khiops_fnb_prior(
            self.weights, self.costs, data.n_instances, data.n_classes, lam, alpha
        )
        self.value = prior + self.data_cost
        self._pending = None

    def weight(self, k) -> float:
        return self.weights[self.index[k]]

    def _count_prior(self, n_positive: int, total: float) -> float:
        """λ[ln 2 + (W = 0 ? lbinom(N+J−1, J−1) : L*(⌈W⌉) − ln⌈W⌉!)], cached per ⌈W⌉."""
        c = 0 if n_positive == 0 else math.ceil(total)
        value = self._count_cache.get(c)
        if value is None:
            d = self.data
            if c == 0:  # the reference's own expression, on no weight
                value = khiops_fnb_prior([], [], d.n_instances, d.n_classes, self.lam, self.alpha)
            else:
                value = self.lam * (math.log(2.0) + universal_code(c) - math.lgamma(c + 1))
            self._count_cache[c] = value
        return value

    def _weighted_cost(self, i: int, w: float) -> float:
        return w**self.alpha * self.costs[i] if w > 0 else 0.0

    def trial(self, k, new_weight: float) -> float:
        i = self.index[k]
        old = self.weights[i]
        new_weight = float(new_weight)
        delta = new_weight - old
        n_positive = self.n_positive + (new_weight > 0) - (old > 0)
        total = self.total_weight + delta
        if n_positive and total != round(total) and abs(total - round(total)) < 1e-9:
            weights = list(self.weights)
            weights[i] = new_weight
            total = math.fsum(weights)
        change = self._weighted_cost(i, new_weight) - self._weighted_cost(i, old)
        cost_sum, cost_comp = _neumaier_add(self._cost_sum, self._cost_comp, change)
        if delta == 0.0:
            data_cost = self.data_cost
        else:
            data_cost = khiops_fnb_trial_data_cost(
                self.q,
                self._codes[i],
                self._shift_add if delta > 0 else self._shift_drop,
                self._offsets[i],
                self._n_rows[i],
                delta,
                self.data.y,
            )
        prior = self._count_prior(n_positive, total) + self.lam * (cost_sum + cost_comp)
        value = prior + data_cost
        self._pending = (i, new_weight, delta, n_positive, total, cost_sum, cost_comp, data_cost)
        self._pending_value = value
        return value

    def accept(self) -> None:
        i, new_weight, delta, n_positive, total, cost_sum, cost_comp, data_cost = self._pending
        if delta != 0.0:
            d = self.data
            khiops_fnb_move(self.scores, self.q, self._codes[i], d.table, self._offsets[i], delta)
        self.weights[i] = new_weight
        self.n_positive, self.total_weight = n_positive, total
        self._cost_sum, self._cost_comp = cost_sum, cost_comp
        self.data_cost = data_cost
        self.value = self._pending_value
        self._pending = None


def _neumaier_add(s: float, c: float, x: float) -> tuple[float, float]:
    """(s, c) + x with Neumaier's compensation: s + c is the running sum, c the lost bits."""
    t = s + x
    if abs(s) >= abs(x):
        c += (s - t) + x
    else:
        c += (x - t) + s
    return t, c
