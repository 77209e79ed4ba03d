"""vidaurre2012's own NB (``nb_ml``) and SNB (``snb_ml``, §3.1): known answers.

The NB is checked against its estimates computed by hand (MLE means and ddof-0 variances, tables
(N_ijk + α)/(N_j + α·M)); the SNB against a brute-force forward selection written here that
refits ``nb_ml`` on every candidate subset and reads its training accuracy.
"""

import numpy as np
import pandas as pd
import pytest

from repro.datasets.vidaurre2012 import scenario_ci, scenario_di
from repro.methods.core.selection import forward_greedy
from repro.methods.vidaurre2012.selective_nb import MLSelectiveNaiveBayes
from repro.registry import display_name, make_method


def test_nb_ml_is_the_maximum_likelihood_naive_bayes_by_hand():
    x = np.array([0.0, 2.0, 4.0, 6.0, 1.0, 5.0])
    c = pd.Categorical(["a", "a", "b", "b", "a", "b"])
    y = np.array([0, 0, 1, 1, 0, 1])
    X = pd.DataFrame({"x": x, "c": c})
    nb = make_method("nb_ml").fit(X, y)
    # class 0: x = 0, 2, 1 -> mean 1, MLE variance 2/3; class 1: 4, 6, 5 -> 5, 2/3
    z = pd.DataFrame({"x": [3.0], "c": pd.Categorical(["a"], categories=["a", "b"])})
    var = 2 / 3
    ll0 = -0.5 * np.log(2 * np.pi * var) - (3 - 1) ** 2 / (2 * var) + np.log((3 + 1) / (3 + 2))
    ll1 = -0.5 * np.log(2 * np.pi * var) - (3 - 5) ** 2 / (2 * var) + np.log((0 + 1) / (3 + 2))
    expected = np.exp([ll0, ll1]) / np.exp([ll0, ll1]).sum()  # equal priors 1/2
    np.testing.assert_allclose(nb.predict_proba(z)[0], expected, rtol=1e-7)
    assert display_name("nb_ml") == "NB (ML)" and display_name("snb_ml") == "SNB"


def _brute_force_snb(X, y, strict=True):
    """Forward selection by refitting nb_ml on each candidate subset (the oracle)."""
    selected, columns = [], list(X.columns)

    def accuracy(cols):
        if not cols:
            return np.mean(y == int(np.argmax(np.bincount(y))))  # the prior's argmax
        return make_method("nb_ml").fit(X[cols], y).score(X[cols], y)

    current = accuracy([])
    while len(selected) < len(columns):
        rest = [c for c in columns if c not in selected]
        scores = [accuracy(selected + [c]) for c in rest]
        best = int(np.argmax(scores))  # ties: the first column
        if (strict and scores[best] <= current + 1e-12) or scores[best] < current - 1e-12:
            break
        selected.append(rest[best])
        current = scores[best]
    return selected, current


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("scenario", [scenario_ci, scenario_di])
@pytest.mark.parametrize("stopping", ["no_rise", "no_decrease"])
def test_snb_ml_equals_the_brute_force_forward_selection(scenario, seed, stopping):
    X, y = scenario(seed=seed, n_samples=120)
    X = X.iloc[:, :8]  # 3 relevant + 5 partly redundant: a small search the oracle can refit
    snb = MLSelectiveNaiveBayes(stopping=stopping).fit(X, y)
    order, accuracy = _brute_force_snb(X, y, strict=stopping == "no_rise")
    assert [X.columns[k] for k in snb.fit_report_["selection_order"]] == order
    assert snb.fit_report_["criterion"] == pytest.approx(accuracy)
    assert snb.score(X, y) == pytest.approx(accuracy)
    np.testing.assert_array_equal(snb.selected_, X.columns.isin(order))
    # n_evaluations: K + (K − 1) + ... over the steps taken, the last (failed) step included
    k, s = X.shape[1], len(order)
    steps = s + (1 if s < k else 0)
    assert snb.fit_report_["n_evaluations"] == sum(k - i for i in range(steps))


def test_strict_stopping_refuses_a_tie_that_no_decrease_accepts():
    # x0 separates the classes perfectly on the training data; x1 = x0 adds nothing: the
    # accuracy stays 1, so "keeps increasing" stops and "does not decrease" adds x1 (and x2)
    y = np.array([0, 0, 0, 1, 1, 1])
    x0 = np.array([0.0, 0.1, 0.2, 1.0, 1.1, 1.2])
    X = pd.DataFrame({"x0": x0, "x1": x0 + 0.05, "x2": x0 - 0.05})
    strict = MLSelectiveNaiveBayes().fit(X, y)
    loose = MLSelectiveNaiveBayes(stopping="no_decrease").fit(X, y)
    assert strict.fit_report_["selection_order"] == [0]
    assert strict.fit_report_["trace"] == [0.5, 1.0]
    assert loose.fit_report_["selection_order"] == [0, 1, 2]


def test_forward_greedy_checks_its_arguments():
    with pytest.raises(ValueError, match="stopping must be one of"):
        forward_greedy(None, "accuracy", "sometimes")
    with pytest.raises(ValueError, match="criterion must be one of"):
        forward_greedy(None, "error", "no_rise")
    with pytest.raises(ValueError, match="stopping"):
        MLSelectiveNaiveBayes(stopping="never").fit(np.zeros((4, 1)), [0, 1, 0, 1])
