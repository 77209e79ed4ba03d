"""Issue 31, estimator side: hostile tables over every registered method.

Discovered from the registry (as the estimator checks are), each method once per class of input,
several checks per fit, on 30 rows:

- a type change between fit and predict (an int category given as digit strings, floats, float
  strings, objects, pyarrow strings; strings given as a categorical; numbers given as strings;
  booleans as "True"/"False") gives the same probabilities as without it;
- unused categories of a pandas categorical never change a prediction;
- MultiIndex columns are read with their names joined by "_";
- dates, tz-aware dates, durations, periods, complex numbers, lists and dicts are refused with a
  ValueError naming the column, at fit and at predict; so is a target mixing label types.

``khiops`` (an external program, ≈ 2 s a fit) runs the same checks in the slow suite, where
installed. The encoder's reading rules themselves (canonical keys, True ≠ 1, …) are tested on the
encoder, and the λ path of l1l2_nb on a wide table at the end.
"""

import datetime
import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import cheap_method

from repro.methods.core.column_values import UNSEEN, ColumnTypeError, value_key
from repro.methods.core.encoding import TabularEncoder
from repro.methods.khiops.peer import khiops_missing
from repro.registry import implemented_methods

#: methods that run an external program: run in the slow suite, skipped where it is absent
EXTERNAL = {"khiops": khiops_missing}


def _methods():
    for method in implemented_methods():
        if method in EXTERNAL:
            why = EXTERNAL[method]()
            marks = [pytest.mark.slow] + ([pytest.mark.skip(reason=why)] if why else [])
            yield pytest.param(method, marks=marks, id=method)
        else:
            yield pytest.param(method, id=method)


METHODS = list(_methods())
N = 30


def _table() -> tuple[pd.DataFrame, np.ndarray]:
    """30 rows, two classes: 'c' int categories, informative; 'x' numeric, informative;
    's' strings; 'b' booleans."""
    rng = np.random.default_rng(0)
    y = np.arange(N) % 2
    c = np.where(rng.random(N) < 0.8, y + 1, 3 - y)  # 1 or 2, mostly the class
    c[::7] = 3
    X = pd.DataFrame(
        {
            "c": pd.Categorical(c),
            "x": np.round(rng.normal(size=N) + 1.5 * y, 2),
            "s": pd.Series(np.where(rng.random(N) < 0.5, "red", "blue"), dtype=object),
            "b": rng.random(N) < 0.5,
        }
    )
    return X, y


def _fit(method, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cheap_method(method).fit(X, y)


def _proba(model, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.predict_proba(X)


def _retyped(X: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The same values in other types (what a CSV or a pyarrow table may give at predict)."""
    ints = X.c.astype(int)
    return {
        "int categories as digit strings": X.assign(c=ints.astype(str)),
        "int categories as floats": X.assign(c=ints.astype(float)),
        "int categories as float strings": X.assign(c=ints.astype(float).astype(str)),
        "int categories as objects": X.assign(c=ints.astype(object)),
        "int categories as pyarrow strings": X.assign(c=ints.astype(str).astype("string[pyarrow]")),
        "int categories as string categories": X.assign(c=ints.astype(str).astype("category")),
        "strings as a categorical": X.assign(s=X.s.astype("category")),
        "strings as pyarrow strings": X.assign(s=X.s.astype("string[pyarrow]")),
        "numbers as strings": X.assign(x=X.x.astype(str)),
        "booleans as strings": X.assign(b=X.b.astype(str)),
    }


@pytest.mark.parametrize("method", METHODS)
def test_a_type_change_between_fit_and_predict_gives_the_same_probabilities(method):
    X, y = _table()
    model = _fit(method, X, y)
    reference = _proba(model, X)
    for case, retyped in _retyped(X).items():
        proba = _proba(model, retyped)
        np.testing.assert_allclose(proba, reference, rtol=0, atol=1e-12, err_msg=case)
    # and fitted on the retyped table, the model reads the original one the same way
    strings = _retyped(X)["int categories as string categories"]
    np.testing.assert_allclose(_proba(_fit(method, strings, y), X), reference, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_unused_categories_never_change_a_prediction(method):
    X, y = _table()
    reference = _proba(_fit(method, X, y), X)
    padded = X.assign(
        c=X.c.cat.set_categories([0, 1, 2, 3, 7, 8]),  # 0, 7 and 8 never occur
        s=X.s.astype(pd.CategoricalDtype(["blue", "green", "red", "white"])),
    )
    model = _fit(method, padded, y)
    encoder = getattr(model, "best_estimator_", model).encoder_  # (tuned: the refitted one)
    assert list(encoder.categories_[0]) == [1, 2, 3]
    assert list(encoder.categories_[2]) == ["blue", "red"]
    np.testing.assert_allclose(_proba(model, padded), reference, rtol=0, atol=1e-12)
    np.testing.assert_allclose(_proba(model, X), reference, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_multiindex_columns_are_joined_with_underscores(method):
    X, y = _table()
    reference = _proba(_fit(method, X, y), X)
    wide = X.copy()
    wide.columns = pd.MultiIndex.from_tuples([("cat", "c"), ("num", "x"), ("str", "s"), ("b", "")])
    model = _fit(method, wide, y)
    assert list(model.feature_names_in_) == ["cat_c", "num_x", "str_s", "b_"]
    np.testing.assert_allclose(_proba(model, wide), reference, rtol=0, atol=1e-12)


def _refused_columns() -> dict[str, tuple[object, str]]:
    """A column of each refused type and the start of its message."""
    days = pd.date_range("2020-01-01", periods=N)
    return {
        "dates": (days, "holds dates or times"),
        "tz-aware dates": (days.tz_localize("Europe/Paris"), "holds dates or times"),
        "python dates": (pd.Series([datetime.date(2020, 1, 1)] * N), "holds dates or times"),
        "periods": (pd.period_range("2020-01", periods=N, freq="M"), "holds dates or times"),
        "durations": (pd.to_timedelta(np.arange(N), unit="s"), "holds durations"),
        "complex numbers": (np.linspace(0, 1, N) + 1j, "holds complex numbers"),
        "lists": (pd.Series([[1, 2]] * N), "holds lists"),
        "dicts": (pd.Series([{"a": 1}] * N), "holds dicts"),
        "objects": (pd.Series([object()] * N), "holds values of type object"),
    }


@pytest.mark.parametrize("method", METHODS)
def test_refused_types_name_the_column_at_fit_and_at_predict(method):
    X, y = _table()
    model = _fit(method, X, y)
    for column, message in _refused_columns().values():
        with pytest.raises(ValueError, match=f"Column 'z' {message}"):
            cheap_method(method).fit(X.assign(z=column), y)
        with pytest.raises(ValueError, match=f"Column 'x' {message}"):
            model.predict_proba(X.assign(x=column))
    for labels, kinds in [
        ([1, "a"] * (N // 2), "numbers .* and strings"),
        (pd.Series(["a", 2] * (N // 2)), "strings .* and numbers"),
        (np.array([True, 1] * (N // 2), dtype=object), "booleans .* and numbers"),
    ]:
        with pytest.raises(ValueError, match=f"The target mixes label types.*{kinds}"):
            cheap_method(method).fit(X, labels)


# ------------------------------------------------------------------------ the reading rules
def test_canonical_keys():
    assert [value_key(v)[0] for v in (1, 1.0, np.int8(1), np.float32(1.0), "1")] == ["1"] * 5
    assert value_key(0.5) == ("0.5", "numbers") and value_key(np.float32(0.1))[0] == "0.1"
    assert value_key(True) == ("True", "booleans") and value_key(np.True_)[0] == "True"
    assert value_key(b"red") == ("red", "text")


def _codes(train, test, **kwargs) -> np.ndarray:
    encoder = TabularEncoder(**kwargs).fit(pd.DataFrame({"v": train}))
    return encoder.transform(pd.DataFrame({"v": test}))[:, 0]


def test_values_match_across_types_and_new_values_stay_unseen():
    ints = pd.Categorical([1, 2, 3])
    np.testing.assert_array_equal(_codes(ints, ["3", "1.0", " 2", "01", 2.0]), [2, 0, 1, 0, 1])
    np.testing.assert_array_equal(_codes(ints, ["7", 9, None]), [UNSEEN, UNSEEN, np.nan])
    # strings that write numbers match the numbers; two that write the same number match none
    nominal = {"categorical_features": [0]}
    np.testing.assert_array_equal(_codes(["1.0", "2.5"], [1, 2.5, "2.50"], **nominal), [0, 1, 1])
    np.testing.assert_array_equal(
        _codes(["1.0", "1.00", "2"], [1.0, "1.0", 2], **nominal), [UNSEEN, 0, 2]
    )
    # new categories of the training type are unseen (no information), not refused
    np.testing.assert_array_equal(_codes(["red", "blue"], ["green", "0"]), [UNSEEN, UNSEEN])


def test_true_and_1_are_two_categories():
    values = pd.Series([True, 1, 0, False, 1, True], dtype=object)
    encoder = TabularEncoder().fit(pd.DataFrame({"v": values}))
    assert encoder.categorical_[0]
    assert [(type(c).__name__, c) for c in encoder.categories_[0]] == [
        ("int", 0),
        ("int", 1),
        ("bool", False),
        ("bool", True),
    ]
    np.testing.assert_array_equal(
        encoder.transform(pd.DataFrame({"v": values}))[:, 0], [3, 1, 0, 2, 1, 3]
    )


@pytest.mark.parametrize(
    ("train", "test", "given", "fitted"),
    [
        (pd.Categorical([1, 2, 3]), [True, False, True], "booleans", "numbers"),
        (pd.Categorical([1, 2, 3]), ["one", "two", "one"], "text", "numbers"),
        ([True, False, True], [1, 0, 1], "numbers", "booleans"),
        (["red", "blue", "red"], [1.5, 2.5, 1.5], "numbers", "text"),
    ],
)
def test_a_nominal_column_of_another_type_is_refused(train, test, given, fitted):
    message = f"Column 'v': none of its values .* they are {given} where the model was fitted on "
    message += fitted
    with pytest.raises(ValueError, match=message):
        _codes(train, test)


def test_refusals_are_also_type_errors_for_arrays():
    """scikit-learn's convention for cells that are neither strings nor numbers."""
    X = np.array([[1.0, "a"], [2.0, {"b": 1}]], dtype=object)
    with pytest.raises(TypeError, match=r"Column 1 holds dicts"):
        cheap_method("nb_laplace").fit(X, [0, 1])
    assert issubclass(ColumnTypeError, ValueError)


def test_multiindex_names_that_collide_are_refused():
    X, y = _table()
    X = X[["c", "x"]]
    X.columns = pd.MultiIndex.from_tuples([("a_b", "c"), ("a", "b_c")])
    with pytest.raises(ValueError, match=r"gives the same name twice \(\['a_b_c'\]\)"):
        cheap_method("nb_laplace").fit(X, y)


# ------------------------------------------------------------------ l1l2_nb on wide data
def test_the_l1l2_path_costs_no_python_call_per_predictor(monkeypatch):
    """The λ path evaluates all predictors of a kind at once: as many evaluations of ℓ' for 200
    predictors as for 20 (a per-predictor loop would make 10 times as many)."""
    from repro.methods.vidaurre2012 import stacked

    calls = []
    original = stacked.GaussianStack.dloglik
    monkeypatch.setattr(
        stacked.GaussianStack,
        "dloglik",
        lambda self, v, a: calls.append(1) or original(self, v, a),
    )
    rng = np.random.default_rng(0)
    y = np.arange(40) % 2
    counts = []
    for k in (20, 200):
        X = rng.normal(size=(40, k))
        X[:, 0] += 2.0 * y
        calls.clear()
        cheap_method("l1l2_nb").fit(X, y)
        counts.append(len(calls))
    assert counts[1] <= counts[0] + 10


def test_the_l1l2_path_minimises_each_penalised_objective():
    """Known answer: on a mixed table, every α of the path is the minimiser of
    −ℓ_i(α) + λ·w_i·α over a fine grid of [0, 1]."""
    X, y = _table()
    model = _fit("l1l2_nb", X, y)
    weights = model._penalty_weights()
    grid = np.linspace(0.0, 1.0, 20001)
    path = model.fit_report_["path"]
    for k in np.flatnonzero(model.thresholds_ > 0):
        m = model.variables_[k]
        loglik = m.loglik(grid)
        for lam, alphas in zip(path["lambda"], path["alphas"]):
            brute = grid[np.argmin(lam * weights[k] * grid - loglik)]
            assert alphas[k] == pytest.approx(brute, abs=1e-4), (k, lam)
