"""Issue 16, fnb_khiops at scale: the incremental FNB criterion and the parallel preparation.

- :class:`~repro.methods.khiops.fnb_khiops.KhiopsFNBObjective` (running sums, compiled trial data
cost)
  equals the from-scratch reference ``khiops_fnb_prior + khiops_fnb_data_cost`` at every accepted
  step of a whole optimisation, and gives the same weights as the former O(K)-per-trial objective
  (kept below as the reference, not in the package);
- the per-variable models fitted over blocks of variables on two processes (``n_jobs=2``) are
  bit-identical to the serial fit (weights, Levels, costs, tables, probabilities).
"""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_wine

from repro.methods.core.engine import EncodedData
from repro.methods.core.optimisers import halving_coordinate_descent
from repro.methods.khiops.fnb_criterion import (
    khiops_fnb_data_cost,
    khiops_fnb_move,
    khiops_fnb_prior,
    khiops_fnb_trial_data_cost,
)
from repro.methods.khiops.fnb_khiops import (
    KhiopsFNBObjective,
    KhiopsFractionalNaiveBayes,
    ParkMillerRandom,
)


class ReferenceFNBObjective:
    """The former objective of ``fnb_khiops``: the whole criterion from scratch on every trial
    (O(K) prior in Python, an N × J temporary), in the order of the reference functions."""

    def __init__(self, data, costs, lam, alpha):
        self.data, self.costs, self.lam, self.alpha = data, list(costs), lam, alpha
        self.index = {int(k): i for i, k in enumerate(data.candidates)}
        self.weights = [0.0] * data.n_candidates
        self.scores = np.repeat(data.log_prior[None, :], data.n_instances, axis=0)
        self.value = self._score(self.scores, self.weights)
        self._pending = None

    def _score(self, scores, weights):
        d = self.data
        prior = khiops_fnb_prior(
            weights, self.costs, d.n_instances, d.n_classes, self.lam, self.alpha
        )
        return prior + khiops_fnb_data_cost(scores, d.y)

    def weight(self, k):
        return self.weights[self.index[k]]

    def trial(self, k, new_weight):
        i = self.index[k]
        scores = self.scores + (new_weight - self.weights[i]) * self.data.column(i)
        weights = list(self.weights)
        weights[i] = new_weight
        value = self._score(scores, weights)
        self._pending = (scores, weights, value)
        return value

    def accept(self):
        self.scores, self.weights, self.value = self._pending


class CheckedObjective(KhiopsFNBObjective):
    """The incremental objective, checked against the from-scratch criterion at every accept."""

    def __init__(self, *args):
        super().__init__(*args)
        self.errors = []

    def accept(self):
        super().accept()
        d = self.data
        scratch = khiops_fnb_prior(
            self.weights, self.costs, d.n_instances, d.n_classes, self.lam, self.alpha
        ) + khiops_fnb_data_cost(self.scores, d.y)
        self.errors.append(abs(self.value - scratch) / abs(scratch))


def random_problem(seed, n=400, k=30, n_classes=3, max_parts=6):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    codes, tables = [], []
    for _ in range(k):
        parts = int(rng.integers(2, max_parts + 1))
        signal = rng.normal(size=(parts, n_classes)) * rng.uniform(0, 2)
        c = np.clip((y + rng.normal(size=n) * rng.uniform(0.5, 4)).round(), 0, parts - 1)
        codes.append(c.astype(np.int64))
        table = signal - np.log(np.exp(signal).sum(axis=0))
        tables.append(np.vstack([table, np.zeros((1, n_classes))]))
    log_prior = np.log(np.bincount(y, minlength=n_classes) / n)
    data = EncodedData.from_tables(codes, tables, y, log_prior, candidates=np.arange(k) + 100)
    costs = rng.uniform(1.0, 8.0, k)
    return data, costs


def optimise(objective, data):
    n = data.n_instances
    return halving_coordinate_descent(
        objective,
        [int(k) for k in data.candidates],
        n_steps=int(math.ceil(math.log2(n + 1))),
        tolerance=0.01 * (1 + abs(objective.value)) / (n + 1),
        shuffle=ParkMillerRandom(1).shuffle,
    )


# --------------------------------------------------------------------------------------------
# 1. The incremental criterion
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trial_kernel_equals_the_reference_on_the_explicit_scores(seed):
    data, _ = random_problem(seed, n=300, k=8, n_classes=int(2 + seed))
    rng = np.random.default_rng(seed)
    S = data.log_prior + rng.normal(size=(data.n_instances, data.n_classes)) * 5
    q = np.exp(S - S.max(axis=1, keepdims=True))
    q /= q.sum(axis=1, keepdims=True)
    table = data.table
    for i in range(data.n_candidates):
        for delta in (1.0, 0.5, 0.125, -1.0, -0.25, 3.0):
            shifted = table - (table.max if delta > 0 else table.min)(axis=1, keepdims=True)
            rows = int(data.codes[i].max()) + 1
            got = khiops_fnb_trial_data_cost(
                q, data.codes[i], shifted, int(data.offsets[i]), rows, delta, data.y
            )
            expected = khiops_fnb_data_cost(S + delta * data.column(i), data.y)
            assert got == pytest.approx(expected, rel=1e-13)


def test_move_kernel_is_bit_identical_to_the_numpy_update():
    data, _ = random_problem(3, n=200, k=5)
    S = np.repeat(data.log_prior[None, :], data.n_instances, axis=0)
    q = np.empty_like(S)
    expected = S.copy()
    for i, delta in [(0, 1.0), (3, 0.375), (0, -0.5), (4, 0.0078125), (3, -0.375)]:
        khiops_fnb_move(S, q, data.codes[i], data.table, int(data.offsets[i]), delta)
        expected = expected + delta * data.column(i)
        assert np.array_equal(S, expected)
        top = expected.max(axis=1, keepdims=True)
        e = np.exp(expected - top)
        np.testing.assert_allclose(q, e / e.sum(axis=1, keepdims=True), rtol=1e-14, atol=0)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_incremental_value_equals_the_from_scratch_criterion_at_every_accepted_step(seed):
    data, costs = random_problem(seed, n=500, k=40)
    objective = CheckedObjective(data, costs, 0.1, 0.95)
    result = optimise(objective, data)
    assert len(objective.errors) > 40  # a real optimisation: many accepted moves
    assert max(objective.errors) < 1e-12
    assert result.value == objective.value


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_final_weights_equal_those_of_the_former_objective(seed):
    data, costs = random_problem(seed, n=600, k=25)
    new = optimise(KhiopsFNBObjective(data, costs, 0.1, 0.95), data)
    old = optimise(ReferenceFNBObjective(data, costs, 0.1, 0.95), data)
    assert new.weights == old.weights
    assert [row["n_accepted"] for row in new.trace] == [row["n_accepted"] for row in old.trace]
    assert new.value == pytest.approx(old.value, rel=1e-12)


def test_estimator_weights_equal_those_of_the_former_objective(monkeypatch):
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    new = KhiopsFractionalNaiveBayes().fit(X, y)
    import repro.methods.khiops.fnb_khiops as fractional

    monkeypatch.setattr(fractional, "KhiopsFNBObjective", ReferenceFNBObjective)
    old = KhiopsFractionalNaiveBayes().fit(X, y)
    assert np.array_equal(new.weights_, old.weights_)
    assert new.criterion_ == pytest.approx(old.criterion_, rel=1e-12)


def test_non_dyadic_moves_and_the_empty_selection():
    """Weights that are not sums of powers of two: W = 0 by the count of positive weights, ⌈W⌉
    re-summed near an integer, so the value stays the from-scratch one."""
    data, costs = random_problem(7, n=200, k=4)
    objective = CheckedObjective(data, costs, 0.1, 0.95)
    start = objective.value
    for k, w in [(100, 0.1), (101, 0.2), (102, 0.7), (100, 0.0), (101, 0.3), (101, 0.0)]:
        objective.trial(k, w)
        objective.accept()
    for k in (102,):
        objective.trial(k, 0.0)
        objective.accept()
    assert objective.n_positive == 0
    assert objective.value == pytest.approx(start, rel=1e-13)
    assert max(objective.errors) < 1e-12
    # a trial that is not accepted changes nothing
    before = (list(objective.weights), objective.value, objective.scores.copy())
    objective.trial(103, 1.0)
    assert (list(objective.weights), objective.value) == before[:2]
    assert np.array_equal(objective.scores, before[2])


# --------------------------------------------------------------------------------------------
# 2. The per-variable preparation on several processes
# --------------------------------------------------------------------------------------------
def mixed_frame(seed=0):
    """Wine's 13 numeric columns (with missing values) and nominal ones derived from them."""
    X, y = load_wine(return_X_y=True, as_frame=True)
    rng = np.random.default_rng(seed)
    X = X.copy()
    X.loc[rng.random(len(X)) < 0.05, "alcohol"] = np.nan
    for c, n_bins in [("hue", 4), ("proline", 7), ("color_intensity", 3)]:
        codes = pd.qcut(X[c], n_bins, labels=False).astype(int)
        noisy = np.where(rng.random(len(X)) < 0.2, rng.integers(0, n_bins, len(X)), codes)
        X[f"{c}_cat"] = pd.Series([f"v{v}" for v in noisy], dtype=object)
    X["noise_cat"] = pd.Series([f"n{v}" for v in rng.integers(0, 5, len(X))], dtype=object)
    X.loc[rng.random(len(X)) < 0.05, "noise_cat"] = None
    return X, y.to_numpy()


@pytest.mark.parametrize("n_jobs", [2, -1])
def test_parallel_preparation_is_bit_identical_to_the_serial_one(n_jobs):
    X, y = mixed_frame()
    serial = KhiopsFractionalNaiveBayes(n_jobs=1).fit(X, y)
    parallel = KhiopsFractionalNaiveBayes(n_jobs=n_jobs).fit(X, y)
    assert serial.encoder_.categorical_.any() and not serial.encoder_.categorical_.all()
    assert (serial.weights_ > 0).sum() >= 3
    for attr in ("weights_", "levels_", "variable_costs_", "class_log_prior_"):
        assert np.array_equal(getattr(serial, attr), getattr(parallel, attr), equal_nan=True), attr
    assert serial.criterion_ == parallel.criterion_
    Z = serial.encoder_.transform(X)
    for k, (a, b) in enumerate(zip(serial.variables_, parallel.variables_, strict=True)):
        assert np.array_equal(a.log_table_, b.log_table_)
        assert np.array_equal(a.counts_, b.counts_)
        assert a.partition.modl_.preparation_cost_ == b.partition.modl_.preparation_cost_
        assert np.array_equal(a.codes(Z[:, k]), b.codes(Z[:, k]))
    assert np.array_equal(serial.predict_proba(X), parallel.predict_proba(X))
    assert serial.fit_report_["trace"] == parallel.fit_report_["trace"]


def test_n_jobs_is_validated_and_cloned():
    from sklearn.base import clone

    X, y = mixed_frame()
    for bad in (0, 1.5, "2", True):
        with pytest.raises(ValueError, match="n_jobs"):
            KhiopsFractionalNaiveBayes(n_jobs=bad).fit(X, y)
    assert clone(KhiopsFractionalNaiveBayes(n_jobs=2)).get_params()["n_jobs"] == 2
    model = KhiopsFractionalNaiveBayes(n_jobs=None).fit(X, y)
    assert model.fit_cpu_["preparation"] > 0 and model.fit_cpu_["weighting"] >= 0


def test_compiled_shuffle_equals_khiops_random_draws():
    """The compiled shuffle draws the same Park–Miller sequence as the Python generator."""
    ref, fast = ParkMillerRandom(1), ParkMillerRandom(1)
    for n in (0, 1, 2, 7, 100, 5000, 3, 100):
        items = [f"v{i}" for i in range(n)]
        a = list(items)
        for i in range(1, n):
            j = ref.random_int(i)
            a[i], a[j] = a[j], a[i]
        assert fast.shuffle(items) == a
        assert fast.seed == ref.seed
    assert ref.random_double() == fast.random_double()
