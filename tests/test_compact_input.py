"""Compact input (issue 16): float32 tables are encoded without a float64 copy, exactly.

The MODL-family estimators read ``Z`` column by column; with ``compact_input`` the encoder keeps
every column float32 holds exactly in float32 (:class:`repro.methods.encoding.ColumnTable`).
The models must be the same as on the float64 copy of the same values, the encoder must not
allocate a table-sized temporary, and ``n_jobs`` must change neither the fit nor a cell's
identity.
"""

import tracemalloc

import numpy as np
import pandas as pd
import pytest

from repro import evaluate, make_method
from repro.datasets import load_dataset
from repro.datasets.construction import FeatureConstruction
from repro.methods import encoding
from repro.methods.encoding import ColumnTable, TabularEncoder, power_of_two_units


@pytest.fixture(scope="module")
def float32_table():
    """waveform (float64 originals) + 60 F(2D) float32 features, and a nominal column."""
    ds = load_dataset("waveform")
    X = pd.DataFrame(ds.X).iloc[:600].reset_index(drop=True)
    y = np.asarray(ds.y)[:600]
    Xc = FeatureConstruction(n_features=60, random_state=0).fit_transform(X)
    Xc["colour"] = pd.Categorical(np.array(["red", "green", "blue"])[np.arange(600) % 3])
    Xc.iloc[::17, 30] = np.nan
    return Xc, y


def test_column_table_reads_what_was_written():
    rng = np.random.default_rng(0)
    narrow = np.array([True, False, True, True, False, True])
    values = rng.normal(size=(7, 6))
    values[:, narrow] = values[:, narrow].astype(np.float32)
    table = ColumnTable(7, narrow)
    table[:, np.arange(6)] = values
    assert table.single.dtype == np.float32 and table.single.shape == (7, 4)
    assert table.double.shape == (7, 2)
    for k in range(6):
        np.testing.assert_array_equal(table[:, k], values[:, k])
        assert table[:, k].dtype == np.float64
    np.testing.assert_array_equal(table[:, [4, 0, 5]], values[:, [4, 0, 5]])
    np.testing.assert_array_equal(table[:, 1:4], values[:, 1:4])
    np.testing.assert_array_equal(np.asarray(table), values)
    table[:, 3] = np.arange(7.0)
    np.testing.assert_array_equal(table[:, 3], np.arange(7.0))
    with pytest.raises(IndexError, match="whole columns"):
        table[0, 1]


def test_encoder_keeps_float32_columns_and_float64_ones(float32_table):
    X, _ = float32_table
    Z = TabularEncoder(compact=True).fit_transform(X)
    assert isinstance(Z, ColumnTable)
    # 21 float64 originals in float64, the 60 float32 features and the category codes in float32
    assert Z.double.shape[1] == 21 and Z.single.shape[1] == 61
    reference = TabularEncoder().fit_transform(X)  # the float64 matrix
    assert reference.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(Z), reference)


def test_encoder_float64_when_nothing_is_float32_exact():
    X = pd.DataFrame({"a": np.arange(5, dtype=np.int32), "b": np.linspace(0, 1, 5)})
    Z = TabularEncoder(compact=True).fit_transform(X)
    assert isinstance(Z, np.ndarray) and Z.dtype == np.float64
    # int16 is exact in float32, int32 is not
    Z = TabularEncoder(compact=True).fit_transform(X.astype({"a": np.int16}))
    assert isinstance(Z, ColumnTable) and Z.narrow.tolist() == [True, False]


def test_encoder_of_a_float32_table_allocates_no_table_sized_temporary():
    n, k = 2000, 1000
    X = pd.DataFrame(np.random.default_rng(0).normal(size=(n, k)).astype(np.float32))
    encoder = TabularEncoder(compact=True)
    tracemalloc.start()
    Z = encoder.fit_transform(X)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    table_bytes = n * k * 4
    assert Z.nbytes == table_bytes
    # Z itself plus blocks of at most BLOCK_VALUES float64 values (a float64 copy: 2x the table)
    assert peak <= table_bytes + 4 * encoding.BLOCK_VALUES * 8 + 2**20


def test_power_of_two_units_by_blocks_equals_the_whole_table(monkeypatch):
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(50, 9)) * np.array([1e300, 1, 1e-300, 1e80, 1, 1, 1e-90, 3, 1])
    Z[::7, 2] = np.nan
    numeric = np.array([True] * 8 + [False])
    whole = power_of_two_units(Z, numeric)
    monkeypatch.setattr(encoding, "BLOCK_VALUES", 100)  # 2 columns per block
    np.testing.assert_array_equal(power_of_two_units(Z, numeric), whole)
    # brute force: one column at a time
    expected = np.ones(9)
    top = np.nanmax(np.abs(Z[:, :8]), axis=0)
    exponent = np.ceil(np.log2(top))
    exponent[np.abs(exponent) <= encoding.EXTREME_EXPONENT] = 0
    for side in (exponent > 0, exponent < 0):
        shared = exponent[side].max()
        exponent[side & (exponent >= shared - encoding.EXTREME_EXPONENT)] = shared
    expected[:8] = np.ldexp(1.0, exponent.astype(int))
    np.testing.assert_array_equal(whole, expected)


@pytest.mark.parametrize("method", ["snb_cma", "fnb_khiops", "nb"])
def test_float32_input_fits_the_same_model_as_its_float64_copy(float32_table, method):
    X, y = float32_table
    wide = X.astype({c: np.float64 for c in X.columns if X[c].dtype == np.float32})
    compact = make_method(method).fit(X, y)
    plain = make_method(method).fit(wide, y)
    np.testing.assert_array_equal(compact.weights_, plain.weights_)
    np.testing.assert_array_equal(compact.predict_proba(X), plain.predict_proba(wide))
    np.testing.assert_array_equal(compact.predict_proba(wide), plain.predict_proba(X))


@pytest.mark.parametrize("method", ["snb_cma", "nb"])
def test_n_jobs_is_bit_identical(float32_table, method):
    X, y = float32_table
    one = make_method(method).fit(X, y)
    two = make_method(method, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.weights_, two.weights_)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))


def test_n_jobs_is_not_part_of_a_cells_identity(tmp_path):
    one = evaluate("nb", "iris", protocol="cv5", results_dir=tmp_path)
    files = sorted(p.name for p in tmp_path.rglob("*.parquet"))
    two = evaluate(("nb", {"n_jobs": 2}), "iris", protocol="cv5", results_dir=tmp_path)
    assert sorted(p.name for p in tmp_path.rglob("*.parquet")) == files  # read, not a new cell
    assert one["config_hash"].iloc[0] == two["config_hash"].iloc[0]
    pd.testing.assert_frame_equal(
        one.drop(columns=["timestamp"], errors="ignore"),
        two.drop(columns=["timestamp"], errors="ignore"),
    )
