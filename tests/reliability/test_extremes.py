"""Numbers at the edge of float64 (issue 15): every registered method gives the same predictions
on X and on X scaled by 1e300 and 1e-300 (iris), or refuses with a clear error.

Discretizers and rank-based methods are scale-free by construction; the Khiops MODL reading of
numbers (10 significant digits, human-readable bounds) scales by powers of ten itself; every other
method reads extreme columns in a power-of-two unit (:mod:`repro.methods.core.encoding`), and
equal-width bins put a value on an edge in the bin it opens, whatever the rounding.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import cheap_method

from repro.datasets import load_dataset
from repro.methods.core.encoding import TabularEncoder
from repro.preprocessing.binning import equal_width_bins
from repro.registry import implemented_methods, make_method

METHODS = [m for m in implemented_methods() if m != "khiops"]  # Khiops: tested in its oracle


def cases():
    for method in METHODS:
        for scale in (1e300, 1e-300):
            yield pytest.param(method, scale, id=f"{method}-{scale:g}")


@pytest.fixture(scope="module")
def iris():
    ds = load_dataset("iris")
    return ds.X, ds.y


@pytest.mark.parametrize("method, scale", list(cases()))
def test_same_predictions_at_extreme_scales(iris, method, scale):
    X, y = iris
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = cheap_method(method).fit(X, y).predict(X)
        model = cheap_method(method).fit(X * scale, y)
        proba = model.predict_proba(X * scale)
        predicted = model.predict(X * scale)
    assert np.all(np.isfinite(proba))
    np.testing.assert_array_equal(predicted, reference)


# ------------------------------------------------------------------- the power-of-two units
def test_ordinary_columns_keep_unit_one_and_their_values():
    X = np.array([[1.5, -3.0e18], [2.5, 7.0e-19], [np.nan, 1.0]])
    encoder = TabularEncoder()
    Z = encoder.fit_transform(X)
    np.testing.assert_array_equal(encoder.unit_, [1.0, 1.0])  # 3e18 < 2^64 ≈ 1.8e19
    np.testing.assert_array_equal(Z, X)


def test_extreme_columns_divided_exactly_by_a_hand_computed_power_of_two():
    # column 0: max |x| = 3·2^100 → ⌈log₂⌉ = 102; column 1: max 2^-80 → −80; column 2: ordinary
    X = np.array([[3.0 * 2.0**100, 2.0**-80, 5.0], [-(2.0**99), 2.0**-81, 6.0]])
    encoder = TabularEncoder()
    Z = encoder.fit_transform(X)
    np.testing.assert_array_equal(encoder.unit_, [2.0**102, 2.0**-80, 1.0])
    np.testing.assert_array_equal(Z[:, 0], [0.75, -0.125])  # exact
    np.testing.assert_array_equal(Z[:, 1], [1.0, 0.5])
    # predict-time data go through the fitted units, including values beyond the training range
    np.testing.assert_array_equal(encoder.transform(X * 2.0)[:, :2], Z[:, :2] * 2.0)


def test_extreme_columns_on_one_side_share_a_unit_unless_too_far_apart():
    X = np.array([[2.0**300, 2.0**290, 2.0**200, 2.0**-300, 2.0**-280]])
    units = TabularEncoder().fit(X).unit_
    # 290 is within 64 of 300: shared; 200 is not: its own; below 1 the largest is −280
    np.testing.assert_array_equal(units, [2.0**300, 2.0**300, 2.0**200, 2.0**-280, 2.0**-280])


def test_nominal_columns_and_raw_estimators_are_not_rescaled():
    X = pd.DataFrame({"x": [1e300, 2e300, 3e300], "c": pd.Categorical(["a", "b", "a"])})
    encoder = TabularEncoder(numeric_units="raw")
    np.testing.assert_array_equal(encoder.fit_transform(X)[:, 0], X["x"].to_numpy())
    assert TabularEncoder().fit(X).unit_[1] == 1.0
    # the Khiops-compatible estimators read the raw numbers (their decimal reading is scale-free)
    assert make_method("fnb_khiops").numeric_units == "raw"
    assert make_method("nb", variant="khiops").numeric_units == "raw"
    assert make_method("nb").numeric_units == "extreme"
    with pytest.raises(ValueError, match=r"numeric_units must be one of \['extreme', 'raw'\]"):
        TabularEncoder(numeric_units="log").fit(X)


def test_a_gaussian_fitted_at_1e300_has_the_mean_of_the_rescaled_column():
    X = np.array([[1e300], [3e300], [2e300], [4e300]])
    model = make_method("nb_gaussian").fit(X, [0, 0, 1, 1])
    unit = model.encoder_.unit_[0]
    np.testing.assert_allclose(model.variables_[0].mean_ * unit, [2e300, 3e300], rtol=1e-15)


# ------------------------------------------------------------------- equal-width bin edges
def test_a_value_on_an_edge_goes_to_the_bin_it_opens_despite_rounding():
    # (0.3 − 0)/0.1 = 2.9999999999999996 in floating point: floor gives 2, the edge rule 3
    assert (0.3 - 0.0) / 0.1 < 3.0
    np.testing.assert_array_equal(
        equal_width_bins(np.array([0.3, 0.7, 0.29]), 0.0, 0.1, 10), [3, 7, 2]
    )
    # and at every scale of the same lattice
    for scale in (1e300, 1e-300, 3.0):
        np.testing.assert_array_equal(
            equal_width_bins(np.array([0.3, 0.7]) * scale, 0.0, 0.1 * scale, 10), [3, 7]
        )
