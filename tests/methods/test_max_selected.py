"""``max_selected`` of fnb, wnb_opt and fnb_khiops (repro.methods.khiops.prepared): at most M
variables, the M most important of the uncapped model, their weights re-optimised under the
cap — the weights the same search gives when the other columns carry no information."""

import numpy as np
import pytest

from repro.datasets import load_dataset
from repro.registry import make_method

METHODS = ["fnb", "fnb_khiops", "wnb_opt"]


@pytest.fixture(scope="module")
def data():
    ds = load_dataset("waveform", n_samples=600)
    return ds.X, ds.y


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("cap", [1, 3])
def test_the_cap_keeps_the_most_important_and_re_optimises_their_weights(data, method, cap):
    X, y = data
    uncapped = make_method(method).fit(X, y)
    assert uncapped.n_selected_features_ > cap
    ranking = uncapped.summary()  # most important first
    kept = sorted(X.columns.get_indexer(ranking["variable"].head(cap)))
    capped = make_method(method, max_selected=cap).fit(X, y)
    assert capped.n_selected_features_ <= cap
    assert set(np.flatnonzero(capped.weights_)) <= set(kept)
    assert capped.fit_report_["n_selected_uncapped"] == uncapped.n_selected_features_
    # the oracle: the other columns made constant (no information: not candidates), K unchanged
    blank = X.copy()
    for k in set(range(X.shape[1])) - set(kept):
        blank.iloc[:, k] = 0.0
    alone = make_method(method).fit(blank, y)
    np.testing.assert_array_equal(capped.weights_, alone.weights_)
    assert not np.array_equal(capped.weights_[kept], uncapped.weights_[kept])  # re-optimised


@pytest.mark.parametrize("method", METHODS)
def test_a_cap_above_the_selection_changes_nothing(data, method):
    X, y = data
    uncapped = make_method(method).fit(X, y)
    capped = make_method(method, max_selected=X.shape[1]).fit(X, y)
    np.testing.assert_array_equal(capped.weights_, uncapped.weights_)
    np.testing.assert_array_equal(capped.predict_proba(X), uncapped.predict_proba(X))


@pytest.mark.parametrize("value", [0, -2, 2.5, True, "3"])
def test_a_cap_that_is_not_a_positive_integer_is_refused(data, value):
    X, y = data
    with pytest.raises(ValueError, match="max_selected must be an integer ≥ 1"):
        make_method("fnb", max_selected=value).fit(X, y)
