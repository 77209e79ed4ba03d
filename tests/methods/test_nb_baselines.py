"""Baseline naive Bayes methods and linear baselines against hand-computed answers."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import StandardScaler

from repro import make_method
from repro.methods.plain.nb import (
    EqualFrequencyNaiveBayes,
    EqualWidthNaiveBayes,
    GaussianNaiveBayes,
    LaplaceNaiveBayes,
)
from repro.preprocessing.binning import equal_frequency_cuts
from repro.preprocessing.tables import m_estimate_log_table


def test_laplace_nb_by_hand():
    X = pd.DataFrame({"c": pd.Categorical(["a", "a", "b", "b", "b"])})
    y = np.array([0, 0, 0, 1, 1])
    model = LaplaceNaiveBayes().fit(X, y)
    # prior (3+1)/7, (2+1)/7; P(a|0) = 3/5, P(a|1) = 1/4
    s0, s1 = Fraction(4, 7) * Fraction(3, 5), Fraction(3, 7) * Fraction(1, 4)
    expected = float(s0 / (s0 + s1))
    proba = model.predict_proba(pd.DataFrame({"c": pd.Categorical(["a"], categories=["a", "b"])}))
    assert proba[0, 0] == pytest.approx(expected, abs=1e-12)


def test_gaussian_nb_equals_sklearn_with_same_estimates():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4)) + np.repeat(np.arange(4)[None, :], 200, axis=0)
    y = (X[:, 0] + rng.normal(size=200) > 0.5).astype(int) + (X[:, 1] > 1.5)
    ours = GaussianNaiveBayes(ddof=0, var_smoothing=0.0).fit(X, y).predict_proba(X)
    ref = GaussianNB(var_smoothing=0.0).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-12)


def test_gaussian_ddof1_variance():
    X = np.array([[0.0], [2.0], [10.0], [14.0]])
    y = np.array([0, 0, 1, 1])
    model = GaussianNaiveBayes(ddof=1, var_smoothing=0.0).fit(X, y)
    np.testing.assert_allclose(model.variables_[0].mean_, [1.0, 12.0])
    np.testing.assert_allclose(model.variables_[0].var_, [2.0, 8.0])


def test_equal_frequency_cuts():
    np.testing.assert_allclose(equal_frequency_cuts(np.arange(1.0, 11.0), 5), [2.5, 4.5, 6.5, 8.5])
    # a boundary inside a run of ties moves to the end of the run
    np.testing.assert_allclose(equal_frequency_cuts(np.array([1, 1, 1, 1, 2, 3.0]), 2), [1.5])
    assert equal_frequency_cuts(np.ones(20), 10).size == 0


def test_m_estimate_table_by_hand():
    counts = np.array([[2, 0], [1, 3]])
    table = np.exp(m_estimate_log_table(counts, n_total=6))
    m = 2 / 6
    assert table[0, 0] == pytest.approx((2 + m / 2) / (3 + m))
    assert table[0, 1] == pytest.approx((0 + m / 2) / (3 + m))
    np.testing.assert_allclose(table.sum(axis=0), 1.0)


def test_nb_ef_probability_by_hand():
    x = np.arange(1.0, 11.0)
    y = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    model = EqualFrequencyNaiveBayes(n_bins=2).fit(x[:, None], y)
    # cut at 5.5: counts [[5,0],[0,5]]; m = 2/10; P(part0|0) = (5 + .1/1 ... ) with p = 1/I = 1/2
    m = 0.2
    p00, p01 = (5 + m / 2) / (5 + m), (0 + m / 2) / (5 + m)
    expected = p00 / (p00 + p01)  # equal priors
    assert model.predict_proba([[3.0]])[0, 0] == pytest.approx(expected)


def test_ewb10_density_by_hand():
    X = np.r_[np.arange(10.0), np.arange(10.0) + 100][:, None]
    y = np.r_[np.zeros(10), np.ones(10)].astype(int)
    model = EqualWidthNaiveBayes().fit(X, y)
    # every bin of each class holds one value: mass (1+1)/(10+10), width 0.9
    ll = model.variables_[0].log_likelihood(np.array([4.5, 200.0]))
    assert ll[0, 0] == pytest.approx(np.log(0.1 / 0.9))
    # out of range (the default "column" rule): one pseudo-count over the column's range 109
    assert ll[1, 1] == pytest.approx(-np.log(20 * 109.0))
    edge = EqualWidthNaiveBayes(out_of_range="edge").fit(X, y)  # the earlier rule: the edge bin
    assert edge.variables_[0].log_likelihood(np.array([200.0]))[0, 1] == pytest.approx(
        np.log(0.1 / 0.9)
    )


def _mixed_frame(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame(
        {
            "num": rng.normal(size=n) + y,
            "cat": pd.Categorical(rng.choice(["u", "v", "w"], n)),
            "const": np.ones(n),
        }
    )
    frame.loc[::7, "num"] = np.nan
    frame.loc[::5, "cat"] = np.nan
    return frame, np.array(["a", "b", "c"])[y]


@pytest.mark.parametrize("method", ["nb_gaussian", "nb_ef", "nb_ewb10", "nb_laplace", "lr", "svm"])
def test_missing_unseen_and_invariants(method):
    X, y = _mixed_frame()
    model = make_method(method).fit(X, y)
    new = pd.DataFrame(
        {"num": [np.nan, 0.5, 1e300], "cat": ["zzz", "u", np.nan], "const": [1.0, 1.0, -1e-300]}
    )
    proba = model.predict_proba(new)
    assert np.all(np.isfinite(proba))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(model.predict(new)) <= {"a", "b", "c"}
    assert np.all((model.weights_ >= 0) & (model.weights_ <= 1))
    assert model.n_selected_features_ == model.selected_.sum()


@pytest.mark.parametrize("method", ["nb_gaussian", "nb_laplace", "nb_ewb10"])
def test_unseen_category_is_ignored_like_missing(method):
    X, y = _mixed_frame()
    model = make_method(method).fit(X, y)
    unseen = pd.DataFrame({"num": [0.3], "cat": ["zzz"], "const": [1.0]})
    missing = pd.DataFrame({"num": [0.3], "cat": [np.nan], "const": [1.0]})
    np.testing.assert_allclose(model.predict_proba(unseen), model.predict_proba(missing))


def test_lr_matches_liblinear_on_standardised_data():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 3)) * [1, 10, 100]
    y = (X[:, 0] + X[:, 1] / 10 + rng.normal(size=100) > 0).astype(int)
    ours = make_method("lr", C=10.0, intercept_scaling=1.0).fit(X, y).predict_proba(X)
    Xs = StandardScaler().fit_transform(X)
    ref = LogisticRegression(solver="liblinear", C=10.0).fit(Xs, y).predict_proba(Xs)
    np.testing.assert_allclose(ours, ref, atol=1e-6)


def test_two_instances_per_class_and_single_informative_variable():
    X = np.array([[0.0, 5.0], [0.1, 5.0], [1.0, 5.0], [1.1, 5.0]])
    y = np.array([0, 0, 1, 1])
    # (nb_ewb10 with out_of_range="edge" would not separate them: a value outside a class's range
    # clipped to that class's edge bin gets the same density in both classes)
    for method in ["nb_gaussian", "nb_ef", "nb_ewb10", "nb_laplace", "lr", "svm"]:
        model = make_method(method).fit(X, y)
        assert (model.predict(X) == y).all(), method


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        (np.ones((4, 2)), np.array([1, 1, 1, 1]), "only one class"),
        (np.ones((4, 2)), np.array([0, 1, np.nan, 1]), "missing value"),
        (np.array([[1.0, np.inf], [2, 3], [3, 4], [4, 5]]), np.array([0, 1, 0, 1]), "infinite"),
        (
            pd.DataFrame({"age": ["1", "2", "x?", "4"], "b": [1.0, 2, 3, 4]}),
            np.array([0, 1, 0, 1]),
            "Non-numeric values in numeric column 'age'",
        ),
        (np.empty((0, 3)), np.array([]), "0 sample|0 instances"),
    ],
)
def test_bad_input_clear_errors(X, y, message):
    if message.startswith("Non-numeric"):
        model = GaussianNaiveBayes(categorical_features=[])
    else:
        model = GaussianNaiveBayes()
    with pytest.raises(ValueError, match=message):
        model.fit(X, y)


def test_bad_parameters():
    X, y = np.random.default_rng(0).normal(size=(10, 2)), np.arange(10) % 2
    with pytest.raises(ValueError, match="n_bins"):
        EqualFrequencyNaiveBayes(n_bins=0).fit(X, y)
    with pytest.raises(ValueError, match="alpha"):
        LaplaceNaiveBayes(alpha=-1).fit(X, y)
    with pytest.raises(ValueError, match="C must be a finite number > 0"):
        make_method("lr", C=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="Unknown parameter.*gamma.*valid parameters"):
        make_method("nb_gaussian", gamma=2)


def test_encoder_gives_the_same_codes_for_categorical_and_object_columns():
    from repro.methods.core.column_values import UNSEEN
    from repro.methods.core.encoding import TabularEncoder

    train = pd.DataFrame({"c": pd.Categorical(["b", "a", "c", "a"])})
    enc = TabularEncoder().fit(train)
    values = ["c", None, "zzz", "a"]
    as_object = pd.DataFrame({"c": pd.Series(values, dtype=object)})
    as_cat = pd.DataFrame({"c": pd.Categorical(values, categories=["zzz", "c", "a"])})
    expected = np.array([2.0, np.nan, UNSEEN, 0.0])
    np.testing.assert_array_equal(enc.transform(as_object)[:, 0], expected)
    np.testing.assert_array_equal(enc.transform(as_cat)[:, 0], expected)


def test_modl_nb_probabilities_by_hand():
    """``nb`` on one nominal variable that MODL keeps as two groups: P(y | x) from the
    m-estimate of boulle2007 §2.1 computed by hand (I = J = 2, m = J/N)."""
    x = ["a"] * 20 + ["b"] * 20
    y = [0] * 18 + [1] * 2 + [0] * 3 + [1] * 17
    X = pd.DataFrame({"v": pd.Categorical(x)})
    model = make_method("nb").fit(X, y)
    assert model.variables_[0].n_parts_ == 2 and model.weights_.tolist() == [1.0]
    n, m = 40, 2 / 40
    counts = np.array([[18, 2], [3, 17]])  # parts a, b × classes 0, 1
    class_counts = counts.sum(axis=0)
    cond = (counts + m / 2) / (class_counts + m)  # P(part | class), p = 1/I
    joint = class_counts / n * cond  # P(y) P(x | y), rows: x = a, b
    expected = joint / joint.sum(axis=1, keepdims=True)
    proba = model.predict_proba(pd.DataFrame({"v": pd.Categorical(["a", "b"])}))
    np.testing.assert_allclose(proba, expected, rtol=1e-12)
    # 0.525·18.025/21.05 against 0.475·2.025/19.05
    assert expected[0, 0] == pytest.approx(0.899025, abs=1e-6)
