"""The ``max_candidates`` bound of the MDL histogram (repro.preprocessing.histograms.mdl): the exact
search unchanged (reference outputs of the code before the bound), the bounded search exact over
its candidates (exhaustive oracle), its code length within 0.5 % of the exact one on catalog sets,
and the estimators' parameter and report."""

import itertools
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.methods.plain.histogram_nb import MDLDiscretizedNaiveBayes, MDLHistogramNaiveBayes
from repro.preprocessing.histograms.mdl import (
    AUTO_EXACT_LIMIT,
    MAX_CANDIDATES,
    bounded_candidates,
    candidate_cuts,
    mdl_histogram,
    quantile_gaps,
    resolve_bound,
    stochastic_complexity,
)


def _columns():
    rng = np.random.default_rng(5)
    return {
        "normal300": rng.normal(size=300),
        "rounded2k": np.round(rng.normal(size=2000), 2),
        "mix": np.r_[rng.normal(0, 1, 400), rng.normal(4, 0.3, 200)],
        "expo": rng.exponential(size=800),
        "ints": rng.integers(0, 50, 1000).astype(float),
    }


#: (code length, bins) of the exact search before the bound was added (same columns, same seed)
REFERENCE = {
    ("normal300", False): (2073.0066851437277, 599),
    ("normal300", True): (3397.3938853189884, 3),
    ("rounded2k", False): (12703.91244083131, 760),
    ("rounded2k", True): (12991.003068208844, 1279),
    ("mix", False): (4562.645521854564, 1199),
    ("mix", True): (7695.94174730153, 5),
    ("expo", False): (6313.920782962802, 1599),
    ("expo", True): (12050.62785403357, 4),
    ("ints", False): (4062.211142531963, 99),
    ("ints", True): (4062.211142531962, 99),
}


@pytest.mark.parametrize(("name", "cut_set_code"), sorted(REFERENCE))
def test_exact_search_unchanged_and_a_bound_above_e_changes_nothing(name, cut_set_code):
    x = _columns()[name]
    exact = mdl_histogram(x, cut_set_code=cut_set_code)
    sc, k = REFERENCE[(name, cut_set_code)]
    assert exact.sc == pytest.approx(sc, rel=1e-13) and exact.n_bins == k
    assert not exact.bounded and exact.n_candidates == 2 * (exact.n_distinct - 1)
    above = mdl_histogram(x, cut_set_code=cut_set_code, max_candidates=exact.n_candidates)
    assert not above.bounded and above.sc == exact.sc
    np.testing.assert_array_equal(above.edges, exact.edges)


def test_quantile_gaps_known_answer():
    # 10 distinct values, one each: quantiles 2.5, 5, 7.5 of 10 → gaps 2, 4, 7 (+ first, last)
    np.testing.assert_array_equal(quantile_gaps(np.ones(10, int), 5), [0, 2, 4, 7, 8])
    # a heavy tie: value 3 holds 91 of 100: its quantiles fall on one gap
    counts = np.r_[1, 1, 1, 91, 1, 1, 1, 1, 1, 1]
    np.testing.assert_array_equal(quantile_gaps(counts, 6), [0, 3, 8])
    assert bounded_candidates(np.ones(10, int), 18) is None  # E = 18: exact
    idx = bounded_candidates(np.ones(10, int), 10)
    np.testing.assert_array_equal(idx, [0, 1, 2, 5, 6, 9, 10, 15, 16, 17, 18, 19])


def _exhaustive(x, idx, cut_set_code):
    """min over every subset of the bounded candidates of the directly evaluated SC."""
    values, counts = np.unique(x, return_counts=True)
    eps = float(np.min(np.diff(values)) / 2.0)
    pos, _ = candidate_cuts(values, counts, eps)
    pos = pos if idx is None else pos[idx]
    inner = pos[1:-1]
    best = np.inf
    for r in range(inner.size + 1):
        for cuts in itertools.combinations(inner, r):
            edges = np.r_[pos[0], cuts, pos[-1]]
            best = min(best, stochastic_complexity(x, edges, eps, cut_set_code))
    return best


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("cut_set_code", [False, True])
def test_bounded_search_is_the_optimum_over_its_candidates(seed, cut_set_code):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=12), 1 + seed % 2)  # 8-12 distinct values, E = 14-22
    values, counts = np.unique(x, return_counts=True)
    idx = bounded_candidates(counts, 6)
    assert idx is not None and idx.size <= 8
    hist = mdl_histogram(x, cut_set_code=cut_set_code, max_candidates=6)
    assert hist.bounded and hist.n_candidates == idx.size - 2
    oracle = _exhaustive(x, idx, cut_set_code)
    if cut_set_code:  # may also take a histogram finer than the candidates (closed form)
        assert hist.sc <= oracle + 1e-9
    else:
        assert hist.sc == pytest.approx(oracle, rel=1e-12)
    exact = mdl_histogram(x, cut_set_code=cut_set_code)  # the exhaustive oracle's (test_histograms)
    assert hist.sc >= exact.sc - 1e-9
    assert stochastic_complexity(x, hist.edges, hist.epsilon, cut_set_code) == pytest.approx(
        hist.sc, rel=1e-12
    )


#: catalog sets with a column of many distinct values; its first 2000 values, bound 2048
#: (spambase, spiky, is the worst: 0.22 %; 0.74 % at 1024)
CATALOG = ["waveform", "twonorm", "ring", "phoneme_elena", "abalone19", "spambase", "CI"]


@pytest.mark.parametrize("name", CATALOG)
def test_bounded_code_length_within_half_a_percent_of_the_exact_one(name):
    from repro.datasets import load_dataset

    X = load_dataset(name).X.select_dtypes("number")
    column = max(X.columns, key=lambda c: X[c].nunique())
    x = X[column].to_numpy(float)[:2000]
    exact = mdl_histogram(x, cut_set_code=True)
    bounded = mdl_histogram(x, cut_set_code=True, max_candidates=2048)
    assert bounded.bounded and not exact.bounded and exact.n_candidates > 2048
    assert exact.sc - 1e-9 <= bounded.sc <= exact.sc * 1.005


def _wide(n, d=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = pd.DataFrame(rng.normal(size=(n, d)) + 0.3 * y[:, None], columns=list("abc")[:d])
    X["c"] = np.round(X["c"])  # few distinct values: never bounded
    return X, y


@pytest.mark.parametrize("cls", [MDLHistogramNaiveBayes, MDLDiscretizedNaiveBayes])
def test_estimators_bound_and_report(cls):
    X, y = _wide(600)
    exact = cls().fit(X, y)
    assert exact.max_candidates == "auto" and exact.fit_report_["mdl_bounded_variables"] == 0
    same = cls(max_candidates=10**6).fit(X, y)
    np.testing.assert_array_equal(same.predict_proba(X), exact.predict_proba(X))
    bounded = cls(max_candidates=64).fit(X, y)
    report = bounded.fit_report_["mdl_candidates"]
    assert len(report) == 3 and bounded.fit_report_["mdl_bounded_variables"] == 2
    per_hist = report[0]
    assert len(per_hist) == (2 if cls is MDLHistogramNaiveBayes else 1)
    for c in per_hist:
        assert c["bounded"] and c["n_candidates"] <= 64 < c["n_exact_candidates"]
        assert c["n_exact_candidates"] == 2 * (c["n_distinct"] - 1)
    assert not any(c["bounded"] for c in report[2])
    assert bounded.score(X, y) > 0.5
    with pytest.raises(ValueError, match="max_candidates"):
        cls(max_candidates=1).fit(X, y)


def test_auto_is_exact_up_to_its_limit_and_bounded_beyond():
    assert resolve_bound(AUTO_EXACT_LIMIT, "auto") is None
    assert resolve_bound(AUTO_EXACT_LIMIT + 2, "auto") == MAX_CANDIDATES
    assert resolve_bound(10, 8) == 8 and resolve_bound(10, None) is None
    # the largest column of the package's experiments: adult's fnlwgt, V = 28,523 → exact
    assert 2 * (28523 - 1) <= AUTO_EXACT_LIMIT
    x = np.random.default_rng(1).normal(size=40000)  # E = 79,998: bounded, in well under a second
    auto = mdl_histogram(x, cut_set_code=True, max_candidates="auto")
    fixed = mdl_histogram(x, cut_set_code=True, max_candidates=MAX_CANDIDATES)
    assert auto.bounded and auto.n_candidates <= MAX_CANDIDATES and auto.sc == fixed.sc
    small = np.round(x[:3000], 3)
    assert not mdl_histogram(small, max_candidates="auto").bounded
    for bad in (1, 2.5, "exact", True):
        with pytest.raises(
            ValueError, match="max_candidates must be an integer ≥ 2, 'auto' or None"
        ):
            mdl_histogram(small, max_candidates=bad)


@pytest.mark.slow
def test_elovaara2008_records_unchanged_by_the_default(tmp_path):
    """A committed elovaara2008 cell (MDLg on iris, 300 folds: about 20 s) re-run: the default
    (no bound) gives its records again."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiments"))
    from test_stored_records import RESULTS, assert_same_files

    from repro.config import experiment_config
    from repro.evaluation.runner import make_cell, run_cell

    cfg = experiment_config("elovaara2008_fig1")
    cell = make_cell("nb_mdlg", "iris", cfg["protocol"], int(cfg["seed"]), "elovaara2008_fig1")
    run_cell(cell, tmp_path)
    assert_same_files(tmp_path, RESULTS, [cell.path(tmp_path).relative_to(tmp_path)])
