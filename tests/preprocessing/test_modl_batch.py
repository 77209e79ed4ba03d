"""The compiled MODL preparation of blocks of variables (repro.preprocessing.modl.batch).

Oracle: the same models fitted one by one by their own ``fit`` (sort with numpy, the optimisers
through their Python wrappers, the contingency table from ``searchsorted`` codes). Every fitted
attribute must be identical, bit for bit, on columns chosen for their edge cases.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from repro import make_method
from repro.datasets import load_dataset
from repro.methods.plain.modl_nb import modl_variable_model
from repro.preprocessing.modl import batch as modl_batch
from repro.preprocessing.modl.estimators import MODLIntervalPartition
from repro.preprocessing.modl.kernels import sorted_order
from repro.preprocessing.tables import m_estimate
from repro.preprocessing.variables import PartitionModel, laplace_category_model
from repro.runtime.cores import POLICY_VARIABLE

DISCRETIZER_ATTRIBUTES = (
    "bounds_",
    "counts_",
    "n_intervals_",
    "cost_",
    "null_cost_",
    "level_",
    "informative_",
    "data_cost_",
    "construction_cost_",
    "preparation_cost_",
    "granularity_",
)
_ODD = np.nextafter(1.0, 2.0)  # 1 + 2^-52: odd last bit
MODEL_ATTRIBUTES = ("n_parts_", "missing_part_", "counts_", "log_table_", "informative_")


def _model(variant="paper", n_variables=10, algorithm="optimized_greedy", missing="ignore"):
    partition = MODLIntervalPartition(variant, algorithm, n_variables)
    return PartitionModel(partition, m_estimate("parts"), missing=missing)


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def _assert_identical(batch, single):
    for got, want in zip(batch, single, strict=True):
        for name in MODEL_ATTRIBUTES:
            assert _same(getattr(got, name), getattr(want, name)), name
        for name in DISCRETIZER_ATTRIBUTES:
            g, w = getattr(got.partition.modl_, name), getattr(want.partition.modl_, name)
            assert _same(g, w), name
        assert got.partition.n_parts_ == want.partition.n_parts_


def _edge_columns(rng, n=400):
    """Columns (variables × n) with the cases where a re-implementation could differ."""
    y = rng.integers(0, 3, n)
    cols = [
        rng.normal(size=n) + y,  # informative, all values distinct
        rng.normal(size=n),  # noise: one interval
        np.round(rng.normal(size=n) + 0.8 * y, 1),  # many ties
        np.where(rng.random(n) < 0.2, np.nan, rng.normal(size=n) + y),  # missing values
        np.full(n, 3.5),  # constant
        np.where(y == 1, 1.0, 0.0),  # two values, pure
        np.where(rng.random(n) < 0.5, -0.0, 0.0) + (y == 2),  # signed zeros
        np.where(rng.random(n) < 0.5, 5e-324, -5e-324) * (1 + y),  # denormals
        np.full(n, np.nan),  # all missing
        (rng.normal(size=n) + y).astype(np.float32).astype(np.float64),  # float32 values
        np.where(y == 0, -1e300, 1e300) * rng.random(n),  # huge, both signs
        (rng.normal(size=n) + y) * 10.0 ** rng.integers(-300, 300, n),  # every decimal exponent
        np.round(rng.normal(size=n) + y, 9) * 1e-5,  # 10 significant digits and fewer
        # adjacent floats a < b whose midpoint rounds to b: the training value b then falls
        # in the lower interval (searchsorted "left"), and the table differs from the counts
        np.where(y == 1, np.nextafter(_ODD, 2.0), _ODD),
    ]
    return np.ascontiguousarray(np.vstack(cols)), y


def _fit_both(columns, y, n_classes, n_threads=1, **model_args):
    """(models fitted by modl_batch.fit_models, the same fitted one by one by ``fit``)."""
    models = [_model(**model_args) for _ in range(columns.shape[0])]
    single = [copy.deepcopy(m).fit(columns[i], y, n_classes) for i, m in enumerate(models)]
    batch = modl_batch.fit_models(models, columns, y, n_classes, n_threads)
    return batch, single


@pytest.mark.parametrize("variant", ["paper", "khiops"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batch_models_identical_to_one_by_one_fits(seed, variant):
    columns, y = _edge_columns(np.random.default_rng(seed))
    batch, single = _fit_both(columns, y, 3, variant=variant)
    _assert_identical(batch, single)
    informative = [m.partition.modl_.informative_ for m in batch]
    assert informative[0] and not informative[4] and not informative[8]


@pytest.mark.parametrize("variant", ["paper", "khiops"])
def test_batch_identical_on_two_threads_and_on_waveform(variant, monkeypatch):
    monkeypatch.setenv(POLICY_VARIABLE, "off")  # two threads, whatever the machine's load
    ds = load_dataset("waveform")
    y = np.unique(np.asarray(ds.y)[:1500], return_inverse=True)[1]
    columns = np.ascontiguousarray(np.asarray(ds.X, dtype=np.float64)[:1500].T)
    batch, single = _fit_both(columns, y, 3, n_threads=2, variant=variant)
    _assert_identical(batch, single)
    assert sum(m.partition.modl_.informative_ for m in batch) >= 15  # x1..x21: 19 informative
    if variant == "khiops":
        assert {m.partition.modl_.granularity_ for m in batch} - {0} != set()


@pytest.mark.parametrize("variant", ["paper", "khiops"])
def test_more_intervals_than_the_kernel_keeps_room_for(variant):
    """x determines y in 150 runs of 20: MODL keeps 150 intervals > CAPACITY, fitted again by
    ``fit`` with the same result."""
    n_runs, run = 150, 20
    x = np.arange(n_runs * run, dtype=np.float64)
    y = np.repeat(np.arange(n_runs) % 2, run)
    batch, single = _fit_both(x[None, :], y, 2, variant=variant)
    _assert_identical(batch, single)
    assert batch[0].partition.modl_.n_intervals_ == n_runs > modl_batch.CAPACITY


def test_which_models_the_kernel_fits():
    assert modl_batch.batch_fittable(_model(), 3)
    assert modl_batch.batch_fittable(_model("khiops"), 3)
    assert modl_batch.batch_fittable(_model("khiops", algorithm="optimal"), 3)  # (not used)
    assert not modl_batch.batch_fittable(_model(algorithm="optimal"), 3)
    assert not modl_batch.batch_fittable(_model(algorithm="greedy"), 3)
    assert not modl_batch.batch_fittable(_model(missing="part"), 3)
    assert not modl_batch.batch_fittable(_model("khiops", missing="part"), 3)
    assert not modl_batch.batch_fittable(_model(), 200)  # > MAX_CLASSES
    assert not modl_batch.batch_fittable(laplace_category_model(4), 3)


def test_mixed_models_keep_their_order():
    """Both variants (two kernel calls; two values of K for the Khiops one) and a model no
    kernel fits, in one block: each model fitted as by its own ``fit``, in its place."""
    rng = np.random.default_rng(5)
    columns, y = _edge_columns(rng)
    models = [_model() for _ in range(columns.shape[0])]
    models[1], models[3], models[5] = _model("khiops", 3), _model("khiops", 30), _model("khiops")
    models[2] = _model(algorithm="optimal")
    other = laplace_category_model(2)
    single = [copy.deepcopy(m).fit(columns[i], y, 3) for i, m in enumerate(models)]
    single_other = copy.deepcopy(other).fit(columns[5], y, 3)
    batch = modl_batch.fit_models([*models, other], np.vstack([columns, columns[5]]), y, 3)
    assert [m.partition.variant for m in batch[:6]] == ["paper", "khiops"] * 3
    _assert_identical(batch[:-1], single)
    assert np.array_equal(batch[-1].log_table_, single_other.log_table_)


def test_sorted_order_is_numpys_stable_argsort():
    rng = np.random.default_rng(0)
    keys = [
        rng.normal(size=3000),
        rng.normal(size=3000).astype(np.float32).astype(np.float64),
        rng.integers(-3, 3, 500).astype(np.float64),  # ties: stable order
        np.array([3.0, -np.inf, 1e-300, -1e-300, 5e-324, -5e-324, 1e308, -1e308, 2.0, 2.0]),
        np.array([7.0]),
    ]
    for key in keys:
        assert np.array_equal(sorted_order(key), np.argsort(key, kind="stable"))
    # −0.0 sorts just before +0.0 (numpy keeps them in input order: equal keys)
    order = sorted_order(np.array([0.0, -0.0, 1.0, -1.0]))
    assert order.tolist() == [3, 1, 0, 2]


@pytest.mark.parametrize("method", ["nb", "snb_cma", "fnb_khiops"])
def test_estimators_identical_with_and_without_the_kernel(method, monkeypatch):
    """The MODL estimators give the same models through the compiled block path (1 and 2
    threads) as through the one-by-one fits."""
    ds = load_dataset("pima")
    reference = make_method(method).fit(ds.X, ds.y)
    for n_jobs in (1, 2):
        got = make_method(method, n_jobs=n_jobs).fit(ds.X, ds.y)
        assert np.array_equal(got.weights_, reference.weights_)
        assert np.array_equal(got.predict_proba(ds.X), reference.predict_proba(ds.X))
    monkeypatch.setattr(modl_batch, "batch_fittable", lambda model, n_classes: False)
    one_by_one = make_method(method).fit(ds.X, ds.y)
    levels = [m.partition.modl_.level_ for m in one_by_one.variables_]
    assert levels == [m.partition.modl_.level_ for m in reference.variables_]
    assert np.array_equal(one_by_one.weights_, reference.weights_)
    assert np.array_equal(one_by_one.predict_proba(ds.X), reference.predict_proba(ds.X))


def test_variable_model_helper_is_batch_fittable():
    """``nb``'s numeric variables are the kernel's (the speed-up reaches the estimators)."""
    model = modl_variable_model(None, 0, False, "paper", 8, m_estimate("parts"), "optimized_greedy")
    assert modl_batch.batch_fittable(model, 2)
