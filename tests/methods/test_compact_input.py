"""Compact input (issue 16): float32 tables are encoded without a float64 copy, exactly.

The MODL-family estimators read ``Z`` column by column; with ``compact_input`` the encoder keeps
every column float32 holds exactly in float32 (:class:`repro.methods.core.encoding.ColumnTable`).
The models must be the same as on the float64 copy of the same values, the encoder must not
allocate a table-sized temporary, and ``n_jobs`` must change neither the fit nor a cell's
identity.
"""

import tracemalloc

import numpy as np
import pandas as pd
import pytest
from conftest import run_module

from repro import evaluate, make_method
from repro.datasets import load_dataset
from repro.datasets.construction import FeatureConstruction
from repro.methods.core import encoding
from repro.methods.core.encoding import ColumnTable, TabularEncoder, power_of_two_units


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


def test_column_table_reads_the_frame_and_its_own_columns():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(7, 6)))
    S, F, D = ColumnTable.SOURCE, ColumnTable.SINGLE, ColumnTable.DOUBLE
    table = ColumnTable(frame, [S, F, D, S, F, S])
    codes = rng.integers(0, 5, size=(7, 2)).astype(float)
    table[:, [1, 4]] = codes
    table[:, 2] = np.arange(7.0)
    expected = frame.to_numpy().copy()
    expected[:, [1, 4]] = codes
    expected[:, 2] = np.arange(7.0)
    assert table.single.dtype == np.float32 and table.single.shape == (7, 2)
    assert table.double.shape == (7, 1) and table.nbytes == 7 * 2 * 4 + 7 * 8
    for k in range(6):
        np.testing.assert_array_equal(table[:, k], expected[:, k])
        assert table[:, k].dtype == np.float64 and table[:, k].shape == (7,)
    np.testing.assert_array_equal(table[:, [4, 0, 5]], expected[:, [4, 0, 5]])
    # columns asked out of order are read in the order asked, also when their positions span a
    # run of one view ([0, 2, 1, 3]: first to last is 0..3)
    wide = ColumnTable(frame, [S] * 6)
    assert len(wide.runs) == 1
    for cols in ([0, 2, 1, 3], [5, 4, 3, 2, 1, 0], [3, 5, 0], [1, 2, 3]):
        np.testing.assert_array_equal(wide[:, cols], frame.to_numpy()[:, cols])
    np.testing.assert_array_equal(table[:, 1:4], expected[:, 1:4])
    np.testing.assert_array_equal(np.asarray(table), expected)
    with pytest.raises(IndexError, match="whole columns"):
        table[0, 1]
    with pytest.raises(ValueError, match="read from the frame"):
        table[:, 0] = np.zeros(7)


def test_compact_encoding_reads_the_same_values_as_the_float64_matrix(float32_table):
    X, _ = float32_table
    X = X.assign(
        small=np.arange(600, dtype=np.int16),
        big=np.arange(600, dtype=np.int64) * 2**40 + 1,
        nullable=pd.array([1, None, 3] * 200, dtype="Int64"),
    )
    Z = TabularEncoder(compact=True).fit_transform(X)
    assert isinstance(Z, ColumnTable)
    # the category codes are copied (in float32) and the column of pandas' nullable dtype (in
    # float64); every other numeric column is read from the frame
    assert Z.single.shape == (600, 1) and Z.double.shape == (600, 1)
    reference = TabularEncoder().fit_transform(X)  # the float64 matrix
    assert reference.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(Z), reference)


def test_compact_encoding_still_refuses_infinite_values():
    X = pd.DataFrame({"a": np.arange(5.0), "b": [1.0, 2.0, np.inf, 4.0, 5.0]})
    with pytest.raises(ValueError, match="Column 'b' contains infinite values"):
        TabularEncoder(compact=True).fit_transform(X)


def test_compact_encoding_allocates_no_table_sized_memory():
    n, k = 4000, 2000
    X = pd.DataFrame(np.random.default_rng(0).normal(size=(n, k)).astype(np.float32))
    encoder = TabularEncoder(compact=True)
    tracemalloc.start()
    Z = encoder.fit_transform(X)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert Z.nbytes == 0
    # blocks of at most BLOCK_VALUES float64 values read at a time (a copy: 8·n·k = 64 MB)
    assert peak <= 3 * encoding.BLOCK_VALUES * 8 + 2**20 < 8 * n * k


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


@pytest.mark.parametrize(
    ("method", "override"),
    [("cma", "+method.n_jobs=-1"), ("fnb_khiops", "method.n_jobs=-1")],
)
def test_readme_n_jobs_overrides(tmp_path, method, override):
    """The README's ways to give a fit every core; the cell is the one-core cell (same file)."""
    command = [f"method={method}", "dataset=iris", override]
    options = ["protocol=cv5", f"results_dir={tmp_path}", "progress=false"]
    proc = run_module("repro", *command, *options, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (written,) = tmp_path.rglob("*.parquet")
    name = {"cma": "snb_cma", "fnb_khiops": "fnb_khiops"}[method]
    # n_jobs is not in the name; the protocol other than the default cv10 is
    assert written.relative_to(tmp_path).as_posix() == f"default/iris/{name}__protocol=cv5.parquet"
