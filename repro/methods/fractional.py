"""``fnb_khiops``: the fractional naive Bayes exactly as Khiops 11 trains it (SPEC §4.10).

Preprocessing: Khiops MODL (:mod:`repro.preprocessing.modl_khiops`), A = ln K. Conditional
probabilities P(part i | j) = (n_ij + ε)/(N_j + I·ε), ε = 1/(N+1); class prior N_j/N. Weights by
Khiops' direct optimisation of

    Score(w) = λ[ln2 + (W=0 ? lbinom(N+J−1, J−1) : L*(⌈W⌉) − lf(⌈W⌉))] + λ Σ_k w_k^α B_k
               + Σ_n −ln[(N·P_w(y_n|x_n) + 0.5/J)/(N + 0.5)],     B_k = ln K + preparation cost_k

with fast forward / fast backward passes over increments δ = 1, 1/2, …, 2^−(T−1),
T = ⌈log2(N+1)⌉ (KHIOPS_NOTES §6). Output probabilities get Khiops' shrink
P̂ = (p + 0.5/(J(N+1)))/(1 + 0.5/(N+1)).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp
from sklearn.utils.validation import check_is_fitted

from repro.methods.base import WeightedNaiveBayes
from repro.methods.checks import check_predict_input
from repro.methods.modl_nb import modl_variable_model
from repro.preprocessing.modl import lbinom
from repro.preprocessing.modl_khiops import universal_code


def khiops_log_table(counts, n_total):
    """log P(part i | j) = log((n_ij + ε)/(N_j + I·ε)), ε = 1/(N+1) (KWProbabilityTable)."""
    counts = np.asarray(counts, dtype=np.float64)
    eps = 1.0 / (n_total + 1.0)
    return np.log(counts + eps) - np.log(counts.sum(axis=0) + counts.shape[0] * eps)


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


class KhiopsFractionalNaiveBayes(WeightedNaiveBayes):
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

    def fit(self, X, y):
        if not self.prior_weight >= 0:
            raise ValueError(f"prior_weight must be ≥ 0, got {self.prior_weight!r}")
        if not 0 < self.prior_exponent <= 1:
            raise ValueError(f"prior_exponent must be in (0, 1], got {self.prior_exponent!r}")
        super().fit(X, y)
        self.n_train_ = int(self.class_count_.sum())
        return self

    def _make_variable_model(self, k, nominal, n_categories):
        return modl_variable_model(
            self.encoder_,
            k,
            nominal,
            "khiops",
            self.n_features_in_,
            khiops_log_table,
            "optimized_greedy",
        )

    def _variable_names(self):
        names = getattr(self, "feature_names_in_", None)
        return (
            [str(n) for n in names]
            if names is not None
            else [str(k) for k in range(self.n_features_in_)]
        )

    def _fit_weights(self, Z, y):
        n_vars = Z.shape[1]
        self.levels_ = np.array([m.partition.modl_.level_ for m in self.variables_])
        weights = np.zeros(n_vars)
        informative = [k for k in range(n_vars) if self.levels_[k] > 0]
        self.criterion_ = np.nan
        if not informative:
            return weights
        if len(informative) == 1:
            weights[informative[0]] = 1.0
            return weights
        names = self._variable_names()
        order0 = sorted(informative, key=lambda k: (-self.levels_[k], names[k]))
        costs = {
            k: math.log(n_vars) + self.variables_[k].partition.modl_.preparation_cost_
            for k in informative
        }
        weights, self.criterion_ = self._optimise(Z, y, order0, costs, weights)
        return weights

    def _optimise(self, Z, y, order0, costs, weights):
        n = Z.shape[0]
        n_classes = self.classes_.size
        lam, alpha = float(self.prior_weight), float(self.prior_exponent)
        columns = {k: self.variables_[k].log_likelihood(Z[:, k]) for k in order0}
        scores = np.repeat(self.class_log_prior_[None, :], n, axis=0)
        rows = np.arange(n)
        null_prep = float(lbinom(n + n_classes - 1, n_classes - 1))
        ln2 = math.log(2.0)
        shrink = 0.5 / n_classes

        def criterion(s, w):
            total_w = sum(w[k] for k in order0)
            if total_w == 0:
                prior = lam * (ln2 + null_prep)
            else:
                c = math.ceil(total_w)
                prior = lam * (ln2 + universal_code(c) - math.lgamma(c + 1))
            prior += lam * sum(w[k] ** alpha * costs[k] for k in order0 if w[k] > 0)
            top = s.max(axis=1)  # log-sum-exp by hand: scipy's adds ~1 ms of checks per call
            log_p = s[rows, y] - (top + np.log(np.exp(s - top[:, None]).sum(axis=1)))
            data = -np.log((n * np.exp(log_p) + shrink) / (n + 0.5)).sum()
            return prior + float(data)

        w = {k: 0.0 for k in order0}
        best = criterion(scores, w)
        eps = 0.01 * (1 + abs(best)) / (n + 1)
        last = best
        rng = ParkMillerRandom(1)
        delta = 1.0
        order = list(order0)
        n_steps = int(math.ceil(math.log2(n + 1)))
        for _ in range(n_steps):
            run = 0
            while True:
                for k in order:  # fast forward
                    new_w = min(1.0, w[k] + delta)
                    step = new_w - w[k]
                    if step <= 0:
                        continue
                    trial = scores + step * columns[k]
                    old = w[k]
                    w[k] = new_w
                    value = criterion(trial, w)
                    if value < best - eps:
                        best, scores = value, trial
                    else:
                        w[k] = old
                order = rng.shuffle(order0)
                if any(w[k] > 0 for k in order0):
                    for k in reversed(order):  # fast backward
                        if w[k] <= 0:
                            continue
                        new_w = max(0.0, w[k] - delta)
                        step = new_w - w[k]
                        trial = scores + step * columns[k]
                        old = w[k]
                        w[k] = new_w
                        value = criterion(trial, w)
                        if value < best + eps:
                            best, scores = value, trial
                        else:
                            w[k] = old
                    order = rng.shuffle(order0)
                run = run + 1 if best < last - eps else 2
                last = best
                if run == 2:
                    break
            delta /= 2
        for k in order0:
            weights[k] = w[k]
        return weights, best

    def predict_log_proba(self, X):
        check_is_fitted(self, "weights_")
        jll = self._joint_log_likelihood(check_predict_input(self, X))
        jll -= jll.max(axis=1, keepdims=True)
        p = np.exp(jll - logsumexp(jll, axis=1, keepdims=True))
        n, j = self.n_train_, self.classes_.size
        p = (p + 0.5 / (j * (n + 1))) / (1 + 0.5 / (n + 1))
        return np.log(p)
