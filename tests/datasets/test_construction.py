"""F(2D)/F(3D) feature construction (boulle2007 §8.2, SPEC §4.5)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import check_estimator

from repro.datasets.construction import FeatureConstruction


@pytest.mark.parametrize("order", [2, 3])
def test_constructed_features_are_sums(order):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 7))
    fc = FeatureConstruction(n_features=300, order=order, random_state=1, block_size=64)
    out = fc.fit_transform(X)
    assert out.shape == (50, 307) and out.dtype == np.float32
    np.testing.assert_allclose(out[:, :7], X, rtol=1e-6)
    assert fc.operands_.shape == (300, order)
    assert all(len(set(row)) == order for row in fc.operands_.tolist())  # distinct operands
    expected = X[:, fc.operands_].sum(axis=2)
    np.testing.assert_allclose(out[:, 7:], expected, rtol=1e-5, atol=1e-5)
    # every original feature is used, roughly uniformly
    assert np.bincount(fc.operands_.ravel(), minlength=7).min() > 0


def test_seeded_and_deterministic():
    X = np.random.default_rng(0).normal(size=(20, 5))
    a = FeatureConstruction(n_features=40, random_state=3).fit_transform(X)
    b = FeatureConstruction(n_features=40, random_state=3).fit_transform(X)
    c = FeatureConstruction(n_features=40, random_state=4).fit_transform(X)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_dataframe_keeps_nominal_columns_and_missing_values():
    X = pd.DataFrame(
        {
            "u": [1.0, 2.0, np.nan, 4.0],
            "v": [0.5, 0.5, 1.0, 1.0],
            "w": [1, 2, 3, 4],
            "cat": pd.Categorical(["a", "b", "a", "b"]),
        }
    )
    fc = FeatureConstruction(n_features=10, order=2, random_state=0)
    out = fc.fit_transform(X)
    assert list(out.columns[:4]) == ["u", "v", "w", "cat"]
    assert out.shape == (4, 14)
    assert (out.dtypes.iloc[4:] == np.float32).all()
    assert set(fc.operands_.ravel()) <= {0, 1, 2}  # the nominal column is not an operand
    pd.testing.assert_frame_equal(out.iloc[:, :4], X)
    for j, (a, b) in enumerate(fc.operands_):
        expected = X.iloc[:, a].to_numpy(float) + X.iloc[:, b].to_numpy(float)
        np.testing.assert_allclose(out.iloc[:, 4 + j].to_numpy(float), expected, rtol=1e-6)
    assert list(fc.get_feature_names_out()[-2:]) == ["F2D_8", "F2D_9"]


def test_bad_input():
    with pytest.raises(ValueError, match="at least 3 numeric features, the data have 2"):
        FeatureConstruction(n_features=5, order=3).fit(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="n_features"):
        FeatureConstruction(n_features=-1).fit(np.zeros((4, 2)))


def test_sklearn_compatible():
    check_estimator(FeatureConstruction(n_features=5))
