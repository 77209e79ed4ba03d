"""SPEC §11 over every registered method (issue 15): each refusal is a ValueError whose message
names the column or the target, and each hostile-but-valid input is handled — finite
probabilities that sum to 1, predictions among the training classes.

Discovered from the registry, as the estimator checks are, so that a new method meets the same
cases. ``khiops`` (an external program) is covered by its oracle and estimator-check tests.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import cheap_method

from repro.registry import implemented_methods

METHODS = [m for m in implemented_methods() if m != "khiops"]


def _table(n: int = 48, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Two classes; 'a' numeric and informative, 'b' numeric noise, 'c' nominal and informative."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = pd.DataFrame(
        {
            "a": np.round(rng.normal(size=n) + 2.0 * y, 2),
            "b": np.round(rng.normal(size=n), 2),
            "c": pd.Categorical(np.where(rng.random(n) < 0.8, y, 1 - y).astype(str)),
        }
    )
    return X, y


# ------------------------------------------------------------------------------- refusals
def _single_class():
    X, y = _table()
    return X, np.zeros_like(y), r"only one class"


def _empty():
    X, y = _table()
    return X.iloc[:0], y[:0], r"Empty data: 0 instances"


def _strings_in_numeric():
    X, y = _table()
    X["a"] = X["a"].astype(object)
    X.loc[3, "a"] = "oops"
    return X, y, r"Non-numeric values in numeric column 'a': \['oops'\]"


def _infinite():
    X, y = _table()
    X.loc[5, "b"] = -np.inf
    return X, y, r"'b'.*infinite"


def _nan_target():
    X, y = _table()
    y = y.astype(float)
    y[7] = np.nan
    return X, y, r"target contains 1 missing value\(s\) \(NaN\) at rows \[7\]"


REFUSALS = {
    "single class": _single_class,
    "empty data": _empty,
    "strings in a numeric column": _strings_in_numeric,
    "infinite value": _infinite,
    "NaN in the target": _nan_target,
}


@pytest.mark.parametrize("case", list(REFUSALS))
@pytest.mark.parametrize("method", METHODS)
def test_bad_input_is_refused_with_a_message_naming_it(method, case):
    X, y, message = REFUSALS[case]()
    with pytest.raises(ValueError, match=message):
        cheap_method(method).fit(X, y)


# ------------------------------------------------------------------------ handled inputs
def _missing_values():
    X, y = _table()
    X.loc[[1, 4, 9], "a"] = np.nan
    X.loc[[2, 4], "c"] = None
    test = X.copy()
    test.loc[:5, "b"] = np.nan
    return X, y, test


def _constant_column():
    X, y = _table()
    X["k"] = 3.0
    return X, y, X


def _unseen_category():
    X, y = _table()
    test = X.copy()
    test["c"] = pd.Categorical(["never seen"] * len(X))
    return X, y, test


def _duplicated_rows():
    X, y = _table(24)
    return pd.concat([X, X, X], ignore_index=True), np.tile(y, 3), X


def _single_variable():
    X, y = _table()
    return X[["a"]], y, X[["a"]]


def _two_per_class():
    X, y = _table(4)
    return X, y, X


HANDLED = {
    "missing values at fit and predict": _missing_values,
    "a constant column": _constant_column,
    "an unseen category at predict": _unseen_category,
    "duplicated rows": _duplicated_rows,
    "a single variable": _single_variable,
    "2 instances per class": _two_per_class,
}


def _check_probabilities(model, X_test, classes):
    proba = model.predict_proba(X_test)
    assert proba.shape == (len(X_test), len(classes))
    assert np.all(np.isfinite(proba)) and np.all(proba >= 0)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    assert set(model.predict(X_test)) <= set(classes)


@pytest.mark.parametrize("case", list(HANDLED))
@pytest.mark.parametrize("method", METHODS)
def test_hostile_but_valid_input_is_handled(method, case):
    X, y, test = HANDLED[case]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = cheap_method(method).fit(X, y)  # tuned: inner_cv=2 (2 per class)
        _check_probabilities(model, test, np.unique(y))


@pytest.mark.parametrize("method", METHODS)
def test_no_informative_variable_gives_one_prediction_for_all(method):
    """A constant column carries nothing: whatever a method makes of it, the prediction is the
    same for every row (the null model's)."""
    _, y = _table()
    X = pd.DataFrame({"k": np.full(len(y), 1.5)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = cheap_method(method).fit(X, y)
        _check_probabilities(model, X, np.unique(y))
        assert np.unique(model.predict(X)).size == 1
        np.testing.assert_allclose(
            model.predict_proba(X), model.predict_proba(X)[:1].repeat(len(X), 0)
        )
