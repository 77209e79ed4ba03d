"""Khiops' output shrink as an option of the weighted naive Bayes (``output_shrink``) and the two
readings of boulle2007's m-estimate prior (p = 1/I, p = 1/J). Known answers computed by hand."""

import numpy as np
import pytest
from sklearn.datasets import load_iris

from repro.methods.boulle2007.averaging import BMASelectiveNaiveBayes, CMASelectiveNaiveBayes
from repro.methods.boulle2007.selective import (
    ACCSelectiveNaiveBayes,
    AUCSelectiveNaiveBayes,
    MAPSelectiveNaiveBayes,
)
from repro.methods.plain.modl_nb import MODLNaiveBayes
from repro.methods.plain.nb import EqualFrequencyNaiveBayes
from repro.preprocessing.tables import khiops_output_shrink, m_estimate_log_table
from repro.registry import make_method, method_spec

BOULLE2007 = [
    EqualFrequencyNaiveBayes,
    MODLNaiveBayes,
    ACCSelectiveNaiveBayes,
    AUCSelectiveNaiveBayes,
    MAPSelectiveNaiveBayes,
    BMASelectiveNaiveBayes,
    CMASelectiveNaiveBayes,
]
IDS = ["nb_ef", "nb", "snb_acc", "snb_auc", "snb_map", "snb_bma", "snb_cma"]


def test_khiops_output_shrink_by_hand():
    """N = 9, J = 2: p̂ = (p + 0.5/20)/(1 + 0.5/10) = (p + 0.025)/1.05."""
    proba = np.array([[1.0, 0.0], [0.5, 0.5], [0.2, 0.8]])
    expected = np.array([[1.025, 0.025], [0.525, 0.525], [0.225, 0.825]]) / 1.05
    np.testing.assert_allclose(khiops_output_shrink(proba, 9, 2), expected, rtol=1e-15)
    # J = 3, N = 4: floor 0.5/15 / 1.1 = 1/33
    out = khiops_output_shrink(np.array([[1.0, 0.0, 0.0]]), 4, 3)
    np.testing.assert_allclose(out, [[(1 + 1 / 30) / 1.1, 1 / 33, 1 / 33]], rtol=1e-15)


# counts (I = 3 parts × J = 2 classes), N = 10: m = J/N = 0.2, N_0 = 4, N_1 = 6
COUNTS = np.array([[3, 0], [1, 4], [0, 2]])


def test_m_estimate_prior_over_parts_by_hand():
    """p = 1/I = 1/3, m·p = 1/15: (n_ij + 1/15)/(N_j + 0.2); each column sums to 1."""
    table = np.exp(m_estimate_log_table(COUNTS, 10, prior="parts"))
    expected = np.array([[46 / 63, 1 / 93], [16 / 63, 61 / 93], [1 / 63, 31 / 93]])
    np.testing.assert_allclose(table, expected, rtol=1e-14)
    np.testing.assert_array_equal(table, np.exp(m_estimate_log_table(COUNTS, 10)))  # default


def test_m_estimate_prior_over_classes_by_hand():
    """The paper's p = 1/J read literally: m·p = 1/N = 0.1, (n_ij + 0.1)/(N_j + 0.2); a column
    sums to (N_j + I/N)/(N_j + J/N) = 43/42 and 63/62, not 1, since I ≠ J."""
    table = np.exp(m_estimate_log_table(COUNTS, 10, prior="classes"))
    expected = np.array([[31 / 42, 1 / 62], [11 / 42, 41 / 62], [1 / 42, 21 / 62]])
    np.testing.assert_allclose(table, expected, rtol=1e-14)
    np.testing.assert_allclose(table.sum(axis=0), [43 / 42, 63 / 62], rtol=1e-14)


def test_m_estimate_readings_agree_when_parts_equal_classes():
    counts = np.array([[5, 1], [0, 4]])
    np.testing.assert_array_equal(
        m_estimate_log_table(counts, 10, prior="parts"),
        m_estimate_log_table(counts, 10, prior="classes"),
    )


def test_m_estimate_bad_prior():
    with pytest.raises(ValueError, match=r"prior must be one of \['parts', 'classes'\]"):
        m_estimate_log_table(COUNTS, 10, prior="1/J")


@pytest.mark.parametrize("cls", BOULLE2007)
def test_output_shrink_is_a_parameter_default_none(cls):
    assert cls().get_params()["output_shrink"] == "none"
    assert cls(output_shrink="khiops").get_params()["output_shrink"] == "khiops"


@pytest.mark.parametrize("cls", BOULLE2007)
def test_bad_output_shrink_names_parameter_and_choices(cls):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=r"output_shrink must be one of \['none', 'khiops'\]"):
        cls(output_shrink="laplace").fit(X, y)


@pytest.mark.parametrize("cls", [EqualFrequencyNaiveBayes, MODLNaiveBayes, CMASelectiveNaiveBayes])
def test_khiops_shrink_is_the_formula_on_the_unshrunk_output(cls):
    X, y = load_iris(return_X_y=True)
    idx = np.arange(0, 150, 2)
    plain = cls().fit(X[idx], y[idx])
    shrunk = cls(output_shrink="khiops").fit(X[idx], y[idx])
    np.testing.assert_array_equal(shrunk.weights_, plain.weights_)
    p = plain.predict_proba(X)
    n, j = 75, 3  # (p + 0.5/(3·76))/(1 + 0.5/76)
    expected = (p + 0.5 / 228) / (1 + 0.5 / 76)
    np.testing.assert_allclose(shrunk.predict_proba(X), expected, rtol=1e-13)
    assert shrunk.predict_proba(X).min() >= (0.5 / (j * (n + 1))) / (1 + 0.5 / (n + 1)) - 1e-16
    np.testing.assert_array_equal(shrunk.predict(X), plain.predict(X))


@pytest.mark.parametrize("method", IDS)
def test_registry_keeps_output_shrink_out_of_the_yaml(method):
    """The default is not written in conf/method/<id>.yaml (the stored cells' hashes stay);
    the option is set as an override and then enters the cell's parameters."""
    spec = method_spec(method)
    for key, default in (("output_shrink", "none"), ("m_estimate_prior", "parts")):
        assert key not in spec.defaults and key not in spec.params
        assert spec.estimator.get_params()[key] == default
    spec = method_spec(method, output_shrink="khiops")
    assert spec.params["output_shrink"] == "khiops"
    assert make_method(method, output_shrink="khiops").output_shrink == "khiops"


def _three_value_column():
    """One nominal variable with the counts of COUNTS: a → [3, 0], b → [1, 4], c → [0, 2]."""
    import pandas as pd

    values = ["a"] * 3 + ["b"] * 5 + ["c"] * 2
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    return pd.DataFrame({"v": pd.Categorical(values, categories=["a", "b", "c"])}), y


@pytest.mark.parametrize(
    "prior, expected",
    [
        ("parts", [[46 / 63, 1 / 93], [16 / 63, 61 / 93], [1 / 63, 31 / 93]]),
        ("classes", [[31 / 42, 1 / 62], [11 / 42, 41 / 62], [1 / 42, 21 / 62]]),
    ],
)
def test_nb_ef_m_estimate_prior_reaches_the_tables(prior, expected):
    X, y = _three_value_column()
    model = EqualFrequencyNaiveBayes(m_estimate_prior=prior).fit(X, y)
    np.testing.assert_allclose(np.exp(model.variables_[0].log_table_[:3]), expected, rtol=1e-14)
    # P(y = 0 | a) = 0.4·(46/63) / (0.4·(46/63) + 0.6·(1/93)) for p = 1/I
    post = 0.4 * expected[0][0] / (0.4 * expected[0][0] + 0.6 * expected[0][1])
    np.testing.assert_allclose(model.predict_proba(X.iloc[:1])[0, 0], post, rtol=1e-13)


@pytest.mark.parametrize("cls", BOULLE2007)
def test_m_estimate_prior_parameter(cls):
    assert cls().get_params()["m_estimate_prior"] == "parts"
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=r"m_estimate_prior must be one of \['parts', 'classes'\]"):
        cls(m_estimate_prior="1/J").fit(X, y)
