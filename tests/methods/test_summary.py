"""What a fitted weighted naive Bayes learned (issue 42): ``summary()`` and exact Shapley values,
checked against a brute-force Shapley computation over every coalition of the variables."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from repro.registry import make_method


def _data(n_classes=2, n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "a": rng.normal(size=n),
            "b": rng.normal(size=n),
            "c": pd.Categorical(rng.choice(["u", "v", "w"], size=n)),
        }
    )
    y = (X["a"] + 0.5 * X["b"] + (X["c"] == "u") + rng.normal(scale=0.5, size=n) > 0.5).astype(int)
    if n_classes == 3:
        y = y + (X["b"] > 0.8).astype(int)
    return X, y.to_numpy()


def _output(model, X):
    """The explained output from the model's own probabilities: log-odds of classes_[1] for two
    classes, log-probabilities centred over the classes otherwise (the normaliser cancels)."""
    lp = model.predict_log_proba(X)
    return lp[:, 1] - lp[:, 0] if lp.shape[1] == 2 else lp - lp.mean(axis=1, keepdims=True)


def _brute_force_shapley(model, x: pd.DataFrame, background: pd.DataFrame) -> np.ndarray:
    """φ_k = Σ_S |S|!(K−|S|−1)!/K! (v(S ∪ {k}) − v(S)), v(S) = mean over the background rows
    of the output at x on S and the background row elsewhere (every coalition)."""
    names = list(background.columns)
    K = len(names)

    def value(coalition):
        rows = background.copy()
        for name in coalition:
            rows[name] = x[name].iloc[0]
            if isinstance(background[name].dtype, pd.CategoricalDtype):
                rows[name] = pd.Categorical(rows[name], categories=background[name].cat.categories)
        return _output(model, rows).mean(axis=0)

    phi = []
    for name in names:
        others = [m for m in names if m != name]
        total = 0.0
        for size in range(K):
            for S in itertools.combinations(others, size):
                weight = math.factorial(size) * math.factorial(K - size - 1) / math.factorial(K)
                total = total + weight * (value([*S, name]) - value(list(S)))
        phi.append(total)
    return np.array(phi)


@pytest.mark.parametrize("method", ["nb", "snb_cma", "bma_nb", "nb_gaussian", "fnb", "l1l2_nb"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_shapley_values_are_those_of_every_coalition(method, n_classes):
    X, y = _data(n_classes)
    model = make_method(method).fit(X, y)
    phi = model.shapley_values(X.iloc[:3])
    for i in range(3):
        expected = _brute_force_shapley(model, X.iloc[[i]], X)
        np.testing.assert_allclose(phi[i], expected, rtol=1e-9, atol=1e-9)
    # efficiency: the values add up to the output minus its mean over the training rows
    np.testing.assert_allclose(
        phi.sum(axis=1), _output(model, X.iloc[:3]) - _output(model, X).mean(axis=0), atol=1e-9
    )


def test_importance_is_the_mean_absolute_shapley_value_on_the_training_rows():
    X, y = _data()
    model = make_method("nb").fit(X, y)
    phi = model.shapley_values(X)
    table = model.summary().set_index("variable")
    np.testing.assert_allclose(table.loc[list(X.columns), "importance"], np.abs(phi).mean(axis=0))
    on_half = model.summary(X.iloc[:20]).set_index("variable")
    np.testing.assert_allclose(
        on_half.loc[list(X.columns), "importance_on_data"],
        np.abs(model.shapley_values(X.iloc[:20])).mean(axis=0),
    )
    assert list(model.summary()["importance"]) == sorted(table["importance"], reverse=True)


def test_the_summary_reads_the_partitions():
    x = np.arange(1.0, 21.0)
    X = pd.DataFrame(
        {
            "size": x * 2.0**70,  # an extreme column: bounds shown in the input's units
            "colour": pd.Categorical(np.where(x <= 10, np.where(x % 2, "red", "pink"), "blue")),
            "noise": np.tile([0.0, 1.0], 10),
        }
    )
    y = (x > 10).astype(int)
    table = make_method("nb").fit(X, y).summary().set_index("variable")
    assert table.loc["size", "kind"] == "numeric" and table.loc["size", "model"] == "MODL intervals"
    bound = f"{10.5 * 2.0**70:.6g}"
    assert table.loc["size", "partition"] == f"]-inf, {bound}]; ]{bound}, +inf["
    assert table.loc["colour", "kind"] == "nominal"
    groups = set(table.loc["colour", "partition"].split("; "))
    assert groups in ({"{blue}", "{pink, red}"}, {"{blue}", "{red, pink}"})
    assert table.loc["noise", "n_parts"] == 1 and not table.loc["noise", "selected"]
    assert table.loc["noise", "weight"] == 0 and table.loc["noise", "importance"] == 0
    assert 0 < table.loc["size", "level"] <= 1 and table.loc["size", "selected"]


def test_a_fitted_variable_model_prints_its_parts_not_an_address():
    """``variables_[k]`` and its partition print the intervals or groups (in the units the
    model was fitted in), a long list cut with its count; unfitted, the class name alone."""
    from repro.preprocessing.describe import REPR_CHARS
    from repro.preprocessing.modl.estimators import MODLIntervalPartition
    from repro.preprocessing.variables import EqualFrequencyPartition

    x = np.arange(1.0, 21.0)
    X = pd.DataFrame({"size": x, "colour": pd.Categorical(np.where(x <= 10, "red", "blue"))})
    y = (x > 10).astype(int)
    model = make_method("nb").fit(X, y)
    size, colour = model.variables_
    assert repr(size) == "PartitionModel(MODL intervals: ]-inf, 10.5]; ]10.5, +inf[)"
    assert (
        repr(size.partition) == "MODLIntervalPartition(MODL intervals: ]-inf, 10.5]; ]10.5, +inf[)"
    )
    assert repr(colour) in (
        "PartitionModel(MODL groups: {blue}; {red})",
        "PartitionModel(MODL groups: {red}; {blue})",
    )
    assert repr(MODLIntervalPartition()) == "MODLIntervalPartition()"
    ef = make_method("nb_ef").fit(pd.DataFrame({"v": np.arange(400.0)}), np.arange(400) % 2)
    assert repr(ef.variables_[0]).startswith(
        "PartitionModel(equal-frequency intervals: ]-inf, 39.5]; ]39.5, 79.5]; "
    )
    wide = EqualFrequencyPartition(40).fit(np.arange(400.0), None, 2)  # 40 parts: cut
    text = repr(wide)
    assert text.startswith("EqualFrequencyPartition(equal-frequency intervals: ]-inf, 9.5]; ")
    assert text.endswith("… (40 parts))") and len(text) < REPR_CHARS + 80
