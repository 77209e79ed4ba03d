"""CFS+NB (vidaurre2012): Hall's CFS with Weka 3.6's defaults, then naive Bayes on the subset.

(a) Hand-computed values: symmetric uncertainties, merits, the distribution of missing counts,
Fayyad–Irani cut points and their MDL criterion, BestFirst's open list and lookup cache.
(b) Best-first against the exhaustive optimum of the merit on small data sets.
(c) The estimator: selection, weights, the NB on the subset, bad input (SPEC §11).
(d) Weka itself as the oracle (``oracle`` marker): ``weka.attributeSelection.CfsSubsetEval -s
"weka.attributeSelection.BestFirst -D 1 -N 5"`` must print the same subset (and the same number of
evaluated subsets and merit) on bundled data sets with numeric, nominal and missing values, and
``weka.filters.supervised.attribute.Discretize -E`` the same cut points. Skipped when ``java`` or
the jar (``$WEKA_JAR``, default ``/usr/share/java/weka.jar``: Debian package ``weka``) is absent.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro import make_method
from repro.datasets import load_dataset
from repro.methods.plain.nb import GaussianNaiveBayes
from repro.methods.vidaurre2012.cfs import (
    BestFirstOpenList,
    CFSCorrelations,
    best_first_search,
    cfs_correlation,
    cfs_merit,
    cfs_select,
    distribute_missing,
    symmetrical_uncertainty,
)
from repro.methods.vidaurre2012.cfs_nb import CFSNaiveBayes
from repro.preprocessing.mdl_discretization import (
    MDLPartition,
    conditional_entropy,
    entropy,
    fayyad_irani_accepts,
    mdl_cut_points,
)

WEKA_JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))
JAVA = shutil.which("java")
needs_weka = pytest.mark.skipif(
    not (JAVA and WEKA_JAR.is_file()),
    reason=f"Weka oracle: needs `java` and {WEKA_JAR} (Debian: apt-get install weka "
    "default-jre-headless; or set WEKA_JAR)",
)


def bits(*counts) -> float:
    """Entropy in bits of a distribution given by counts (the textbook formula)."""
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c > 0)


def su(h_a, h_b, h_ab) -> float:
    return 2 * (h_a + h_b - h_ab) / (h_a + h_b)


# ---------------------------------------------------------------------------------------------
# A tiny table: class y, attributes a, b, c, d (8 instances)
# ---------------------------------------------------------------------------------------------
Y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
A = np.array([0, 0, 0, 1, 1, 1, 1, 1])  # a×y: (3, 0 | 1, 4)
B = np.array([0, 1, 0, 1, 0, 1, 0, 1])  # independent of y
C = np.array([0, 0, 0, 1, 1, 1, 1, 0])  # c×y: (3, 1 | 1, 3), a×c like a×y
D = np.array([0, 0, 0, 0, 0, 0, 0, 1])  # d×y: (4, 3 | 0, 1)
TOY = [A, B, C, D]
#: hand-computed symmetric uncertainties
SU_AY = su(bits(3, 5), 1.0, bits(3, 1, 4))  # 0.561592
SU_CY = su(1.0, 1.0, bits(3, 1, 1, 3))  # 0.188722
SU_DY = su(bits(1, 7), 1.0, bits(4, 3, 1))  # 0.178710
SU_AD = su(bits(3, 5), bits(1, 7), bits(3, 4, 1))  # 0.123310
SU_AB = su(bits(3, 5), 1.0, bits(2, 1, 2, 3))  # 0.049933
SU_AC = SU_AY


def toy_correlations():
    return CFSCorrelations(TOY, [2, 2, 2, 2], Y, 2, "distribute")


def test_hand_values_of_the_tiny_table():
    assert SU_AY == pytest.approx(0.5615896, abs=1e-6)
    assert SU_CY == pytest.approx(0.1887219, abs=1e-6)
    assert SU_DY == pytest.approx(0.1787102, abs=1e-6)
    assert SU_AD == pytest.approx(0.1233104, abs=1e-6)
    assert SU_AB == pytest.approx(0.0499326, abs=1e-6)


def test_symmetric_uncertainties_of_the_tiny_table():
    corr = toy_correlations()
    class_ = 4
    for (i, j), expected in {
        (0, class_): SU_AY,
        (2, class_): SU_CY,
        (3, class_): SU_DY,
        (0, 3): SU_AD,
        (0, 1): SU_AB,
        (0, 2): SU_AC,
    }.items():
        value = corr.get(i, j)
        assert value.dtype == np.float32  # Weka stores correlations as floats
        assert float(value) == pytest.approx(expected, rel=1e-6)
        assert corr.get(j, i) == value  # one cached value per pair


def test_a_zero_symmetric_uncertainty_is_0_with_the_class_and_1_between_attributes():
    # b is independent of y and of c: SU = 0 up to rounding, hence Weka's tolerance 1e-6
    assert abs(symmetrical_uncertainty(np.array([[2.0, 2.0], [2.0, 2.0]]))) < 1e-12
    assert cfs_correlation(B, 2, Y, 2, involves_class=True) == 0.0
    assert cfs_correlation(B, 2, C, 2, involves_class=False) == 1.0
    corr = toy_correlations()
    assert corr.class_correlation(1) == 0.0 and corr.get(1, 2) == 1.0


def test_symmetrical_uncertainty_is_the_entropy_formula_on_any_table():
    table = np.array([[5.0, 1.0, 0.0], [2.0, 7.0, 3.0]])
    h_rows, h_cols = bits(6, 12), bits(7, 8, 3)
    h_joint = bits(5, 1, 2, 7, 3)
    assert symmetrical_uncertainty(table) == pytest.approx(su(h_rows, h_cols, h_joint), rel=1e-12)
    assert symmetrical_uncertainty(table.T) == pytest.approx(symmetrical_uncertainty(table))
    assert symmetrical_uncertainty(np.array([[4.0, 0.0], [0.0, 4.0]])) == pytest.approx(1.0)
    assert symmetrical_uncertainty(np.array([[3.0, 5.0]])) == 0.0  # one row: H(rows) = 0


def test_missing_counts_are_distributed_as_cfssubseteval_does():
    # rows a ∈ {0, 1, missing}, columns b ∈ {0, 1, missing}, N = 8
    counts = np.array([[2.0, 1.0, 1.0], [0.0, 2.0, 0.0], [1.0, 0.0, 1.0]])
    # missing a (column 0): row shares 4/6, 2/6; missing b (row 0): column shares 3/6, 3/6;
    # both missing: the 5 complete cells' proportions × 1
    expected = np.array(
        [[2 + 2 / 3 + 1 / 2 + 2 / 5, 1 + 1 / 2 + 1 / 5, 0], [1 / 3, 2 + 2 / 5, 0], [0, 0, 0]]
    )
    np.testing.assert_allclose(distribute_missing(counts), expected, rtol=1e-14, atol=1e-15)
    assert distribute_missing(counts).sum() == pytest.approx(8.0)
    # a column that is missing everywhere: nothing to distribute
    all_missing = np.array([[0.0, 0.0, 2.0], [0.0, 0.0, 3.0], [0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(distribute_missing(all_missing), all_missing)


def test_missing_values_in_the_correlations():
    a = np.array([0, 0, 1, -1])  # -1 = missing
    y = np.array([0, 1, 1, 1])
    # the missing a (class 1) goes 2/3 to a=0 and 1/3 to a=1: table (1, 5/3 | 0, 4/3)
    h_a, h_y = bits(8 / 3, 4 / 3), bits(1, 3)
    distributed = su(h_a, h_y, bits(1, 5 / 3, 4 / 3))
    assert float(cfs_correlation(a, 2, y, 2, True)) == pytest.approx(distributed, rel=1e-6)
    separate = su(bits(2, 1, 1), h_y, bits(1, 1, 1, 1))  # "missing" as a third value
    assert float(cfs_correlation(a, 2, y, 2, True, missing="separate")) == pytest.approx(
        separate, rel=1e-6
    )


# ---------------------------------------------------------------------------------------------
# Merit and search
# ---------------------------------------------------------------------------------------------
def test_merits_of_the_tiny_table():
    corr = toy_correlations()
    assert cfs_merit([], corr) == 0.0
    assert cfs_merit([0], corr) == pytest.approx(SU_AY, rel=1e-6)
    assert cfs_merit([0, 2], corr) == pytest.approx((SU_AY + SU_CY) / math.sqrt(2 + 2 * SU_AC))
    assert cfs_merit([0, 3], corr) == pytest.approx((SU_AY + SU_DY) / math.sqrt(2 + 2 * SU_AD))
    assert cfs_merit([0, 1], corr) == pytest.approx(SU_AY / math.sqrt(2 + 2 * SU_AB))
    assert cfs_merit([0, 3], corr) == pytest.approx(0.493904, abs=1e-6)


def test_search_and_locally_predictive_step_on_the_tiny_table():
    # best first: {a} (0.5616) is best; {a, c}, {a, d}, {a, b} are worse. Locally predictive:
    # c (r_cy = .189) is rejected (r_ac = .562 > .189), d (r_dy = .179 ≥ r_ad = .123) is added,
    # b (r_by = 0) is rejected (r_ab = .05 > 0)
    result = cfs_select(TOY, [2, 2, 2, 2], Y, 2)
    assert result.search_selected == [0]
    assert result.merit == pytest.approx(SU_AY, rel=1e-6)
    assert result.selected == [0, 3]
    without = cfs_select(TOY, [2, 2, 2, 2], Y, 2, locally_predictive=False)
    assert without.selected == [0]


def test_bounded_open_list_keeps_weka_order():
    lst = BestFirstOpenList(3)
    for subset, merit in [("a", 0.5), ("b", 0.5), ("c", 0.7), ("d", 0.6), ("e", 0.5), ("f", 0.65)]:
        lst.add(frozenset(subset), merit)
    # equal merits keep their arrival order; the full list drops its last node; a node no
    # better than the last of a full list is not inserted ("e")
    assert [(sorted(s)[0], m) for m, s in lst.nodes] == [("c", 0.7), ("f", 0.65), ("d", 0.6)]


#: merits of the subsets of 3 attributes used to trace BestFirst by hand
TRACE_MERITS = {
    (): 0.0,
    (0,): 0.5,
    (1,): 0.4,
    (2,): 0.3,
    (0, 1): 0.45,
    (0, 2): 0.35,
    (1, 2): 0.38,
    (0, 1, 2): 0.2,
}


def test_best_first_by_hand_with_weka_lookup_cache():
    calls = []

    def evaluate(subset):
        calls.append(tuple(sorted(subset)))
        return TRACE_MERITS[tuple(sorted(subset))]

    # cache 1 × (3 + 1): the 6th insertion ({0,1,2}) empties the cache, so {0,1} is evaluated
    # again when {1} is expanded; {0,1,2} enters the open list twice (from {0,1} and {1,2})
    result = best_first_search(evaluate, 3, max_stale=5, cache_size=1)
    assert (result.selected, result.merit) == ([0], 0.5)
    assert [t["expanded"] for t in result.trace] == [[], [0], [0, 1], [1], [0, 1], [1, 2]]
    assert result.n_evaluations == 8
    assert calls[1:] == [(0,), (1,), (2,), (0, 1), (0, 2), (0, 1, 2), (0, 1), (1, 2)]
    calls.clear()
    assert best_first_search(evaluate, 3, max_stale=5, cache_size=10).n_evaluations == 7
    # one stale expansion allowed: stops after expanding {0}
    short = best_first_search(evaluate, 3, max_stale=1)
    assert [t["expanded"] for t in short.trace] == [[], [0]]


def test_best_first_improvement_must_exceed_1e_5():
    merits = {(): 0.0, (0,): 0.5, (1,): 0.500005, (0, 1): 0.4}
    result = best_first_search(lambda s: merits[tuple(sorted(s))], 2)
    assert result.selected == [0]  # 0.500005 − 0.5 ≤ 1e-5


def _discrete_columns(name):
    d = load_dataset(name)
    model = CFSNaiveBayes().fit(d.X, d.y)
    y = np.searchsorted(model.classes_, d.y)
    codes, n_values, _ = model._discretized(model.encoder_.transform(d.X), y)
    return codes, n_values, y, model.classes_.size


@pytest.mark.parametrize("name", ["iris", "breast_cancer_ljubljana"])
def test_best_first_reaches_the_exhaustive_optimum(name):
    codes, n_values, y, n_classes = _discrete_columns(name)
    corr = CFSCorrelations(codes, n_values, y, n_classes, "distribute")
    k = len(codes)
    subsets = (s for r in range(1, k + 1) for s in itertools.combinations(range(k), r))
    best_merit, best = max((cfs_merit(s, corr), list(s)) for s in subsets)
    result = cfs_select(codes, n_values, y, n_classes)
    assert result.search_selected == best
    assert result.merit == best_merit


# ---------------------------------------------------------------------------------------------
# Fayyad–Irani MDL discretization (Weka's variant)
# ---------------------------------------------------------------------------------------------
def test_entropies_in_bits_as_weka():
    assert entropy([3, 3]) == pytest.approx(1.0)
    assert entropy([1, 6]) == pytest.approx(bits(1, 6))
    assert entropy([0, 0]) == 0.0
    assert conditional_entropy([5, 0], [1, 6]) == pytest.approx(7 / 12 * bits(1, 6))
    np.testing.assert_allclose(entropy(np.array([[3, 3], [4, 0]])), [1.0, 0.0])


def test_two_pure_blocks_give_one_cut_at_the_midpoint():
    # gain 1 bit; k = 2, k1 = k2 = 1: delta = log2(7) − 2; 5 candidate cuts:
    # threshold (log2 5 + log2 7 − 2)/6 = 0.5215 < 1
    x, y = np.arange(1.0, 7.0), np.array([0, 0, 0, 1, 1, 1])
    assert fayyad_irani_accepts([3, 3], [3, 0], [0, 3], 6, 5)
    np.testing.assert_array_equal(mdl_cut_points(x, y, 2), [3.5])


def test_the_mdl_criterion_rejects_a_small_noisy_split():
    # y = 0101: best cut 1.5 (ties with 3.5, the first wins), gain 1 − 3/4·H(1/3) = 0.311 <
    # (log2 3 + log2 7 − (2 − 2·H(1/3)))/4 = 1.057
    gain = 1 - 0.75 * bits(1, 2)
    threshold = (math.log2(3) + math.log2(7) - (2 - 2 * bits(1, 2))) / 4
    assert gain < threshold
    assert not fayyad_irani_accepts([2, 2], [1, 0], [1, 2], 4, 3)
    assert mdl_cut_points(np.arange(1.0, 5.0), np.array([0, 1, 0, 1]), 2).size == 0


def test_equal_entropies_keep_the_leftmost_cut():
    # cuts 5.5 (5,0 | 1,6) and 7.5 (6,1 | 0,5) have the same entropy (7/12·H(1/7)) to the last
    # bit; Weka keeps the first ("<"): gain .655 > (log2 11 + log2 7 − 2 + 2·H(1/7))/12 = .454.
    # The right part (1,0,1,1,1,1,1) is then not split (gain .306 < .887): cuts = [5.5]
    # (with the rightmost tie the answer would be [7.5]; Weka prints 5.5)
    y = np.array([0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1])
    assert conditional_entropy([5, 0], [1, 6]) == conditional_entropy([6, 1], [0, 5])
    np.testing.assert_array_equal(mdl_cut_points(np.arange(1.0, 13.0), y, 2), [5.5])


def test_better_encoding_counts_the_candidate_boundaries():
    # prior (20, 20), cut (15, 5 | 5, 15): gain 1 − H(1/4) = .189; delta = log2 7 + 2·H(1/4) − 2
    # = 4.052: accepted with 1 candidate boundary (.101), rejected with N − 1 = 39 (.233)
    assert fayyad_irani_accepts([20, 20], [15, 5], [5, 15], 40, 1)
    assert not fayyad_irani_accepts([20, 20], [15, 5], [5, 15], 40, 39)
    x = np.repeat([1.0, 2.0], 20)
    y = np.array([0] * 15 + [1] * 5 + [0] * 5 + [1] * 15)
    np.testing.assert_array_equal(mdl_cut_points(x, y, 2), [1.5])
    assert mdl_cut_points(x, y, 2, better_encoding=False).size == 0


def test_missing_and_repeated_values():
    x = np.array([1.0, 1.0, 2.0, np.nan, 3.0, 3.0, np.nan, 4.0])
    y = np.array([0, 0, 0, 1, 1, 1, 0, 1])
    observed = ~np.isnan(x)
    cuts = mdl_cut_points(x, y, 2)
    np.testing.assert_array_equal(cuts, mdl_cut_points(x[observed], y[observed], 2))
    partition = MDLPartition().fit(np.tile(x, 5), np.tile(y, 5), 2)
    np.testing.assert_array_equal(partition.cuts_, [2.5])
    # right-closed intervals, missing → −1
    np.testing.assert_array_equal(
        partition.transform(np.array([2.5, 2.6, np.nan, -1e300])), [0, 1, -1, 0]
    )
    assert partition.n_parts_ == 2
    # cuts only between distinct values; a constant column has none
    assert mdl_cut_points(np.full(6, 2.0), np.array([0, 1, 0, 1, 0, 1]), 2).size == 0


# ---------------------------------------------------------------------------------------------
# The estimator
# ---------------------------------------------------------------------------------------------
def test_registry_and_fitted_attributes():
    model = make_method("cfs_nb")
    assert isinstance(model, CFSNaiveBayes)
    d = load_dataset("iris")
    model.fit(d.X, d.y)
    assert model.fit_report_["selected"] == [2, 3]
    np.testing.assert_array_equal(model.weights_, [0, 0, 1, 1])
    np.testing.assert_array_equal(model.selected_, [False, False, True, True])
    assert model.n_selected_features_ == 2
    report = model.fit_report_
    assert report["n_evaluations"] == 12  # Weka prints "Total number of subsets evaluated: 12"
    assert report["merit"] == pytest.approx(0.887, abs=5e-4)
    assert report["trace"][0]["expanded"] == []
    assert report["n_intervals"] == [4, 3, 4, 3]
    assert len(report["class_correlations"]) == 4


def test_the_naive_bayes_is_gaussian_nb_on_the_selected_variables():
    d = load_dataset("labor")  # numeric and nominal, missing values
    model = CFSNaiveBayes().fit(d.X, d.y)
    cols = model.fit_report_["selected"]
    plain = GaussianNaiveBayes(ddof=0).fit(d.X.iloc[:, cols], d.y)
    np.testing.assert_allclose(
        model.predict_proba(d.X), plain.predict_proba(d.X.iloc[:, cols]), rtol=1e-12
    )
    proba = model.predict_proba(d.X)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)


def test_no_informative_variable_keeps_one_as_weka_does():
    # no MDL cut, every SU is 0: the search selects nothing and the locally predictive step adds
    # the first attribute (nothing in the group to reject it); Weka prints "Selected attributes: 1"
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    y = rng.integers(0, 2, 40)
    model = CFSNaiveBayes().fit(X, y)
    assert model.fit_report_["search_selected"] == []
    assert model.fit_report_["selected"] == [0]
    assert np.allclose(model.predict_proba(X).sum(axis=1), 1.0)


def test_handled_without_error():
    rng = np.random.default_rng(0)
    n = 30
    y = np.array(["p", "q"] * (n // 2))
    X = pd.DataFrame(
        {
            "const": np.ones(n),
            "allnan": np.full(n, np.nan),
            "info": (y == "q") + rng.normal(scale=0.2, size=n),
            "cat": pd.Categorical(np.where(rng.random(n) < 0.5, "u", "v")),
        }
    )
    X.loc[::4, "info"] = np.nan
    model = CFSNaiveBayes().fit(X, y)
    assert 2 in model.fit_report_["selected"]
    X_new = X.copy()
    X_new["cat"] = pd.Categorical(["w"] * n)  # unseen category
    proba = model.predict_proba(X_new)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)
    two = CFSNaiveBayes().fit(np.array([[1.0], [2.0], [3.0], [4.0]]), [0, 0, 1, 1])
    assert two.n_selected_features_ == 1


@pytest.mark.parametrize(
    "params, name",
    [
        ({"max_stale": 0}, "max_stale"),
        ({"max_stale": 2.5}, "max_stale"),
        ({"missing": "drop"}, "missing"),
        ({"locally_predictive": "yes"}, "locally_predictive"),
        ({"lookup_cache_size": -1}, "lookup_cache_size"),
        ({"alpha": 0.0}, "alpha"),
        ({"ddof": 2}, "ddof"),
    ],
)
def test_bad_parameters(params, name):
    d = load_dataset("iris")
    with pytest.raises(ValueError, match=name):
        CFSNaiveBayes(**params).fit(d.X, d.y)


def test_bad_input():
    X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]])
    with pytest.raises(ValueError, match="only one class"):
        CFSNaiveBayes().fit(X, [1, 1, 1, 1])
    with pytest.raises(ValueError, match="missing"):
        CFSNaiveBayes().fit(X, [0, 1, np.nan, 1])
    X_inf = X.copy()
    X_inf[0, 1] = np.inf
    with pytest.raises(ValueError, match="infinite"):
        CFSNaiveBayes().fit(X_inf, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="0 sample"):
        CFSNaiveBayes().fit(np.empty((0, 2)), [])


# ---------------------------------------------------------------------------------------------
# Weka 3.6 as the oracle
# ---------------------------------------------------------------------------------------------
def _quote(value) -> str:
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path: Path, X, y, model: CFSNaiveBayes) -> None:
    """ARFF of (X, y) as ``model`` (fitted) encodes it: nominal columns declare the encoder's
    categories in its order (so value codes agree), numeric ones are ``numeric`` (repr: Java
    parses the same double), missing is ``?``, the class is the last attribute."""
    Z = model.encoder_.transform(X)
    lines = ["@relation cfs_oracle"]
    for k in range(Z.shape[1]):
        if model.encoder_.categorical_[k]:
            values = ",".join(_quote(c) for c in model.encoder_.categories_[k])
            lines.append(f"@attribute x{k} {{{values}}}")
        else:
            lines.append(f"@attribute x{k} numeric")
    lines.append("@attribute class {" + ",".join(_quote(c) for c in model.classes_) + "}")
    lines.append("@data")
    labels = np.asarray(y)
    for r in range(Z.shape[0]):
        row = []
        for k in range(Z.shape[1]):
            v = Z[r, k]
            if np.isnan(v):
                row.append("?")
            elif model.encoder_.categorical_[k]:
                row.append(_quote(model.encoder_.categories_[k][int(v)]))
            else:
                row.append(repr(float(v)))
        row.append(_quote(labels[r]))
        lines.append(",".join(row))
    path.write_text("\n".join(lines) + "\n")


def run_weka(*args: str) -> str:
    done = subprocess.run(
        [JAVA, "-cp", str(WEKA_JAR), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def weka_cfs(path: Path, flags=(), max_stale=5, cache_size=1) -> tuple[list[int], int, float]:
    """(selected 0-based indices, subsets evaluated, merit) printed by Weka's CfsSubsetEval."""
    out = run_weka(
        "weka.attributeSelection.CfsSubsetEval",
        *flags,
        "-i",
        str(path),
        "-s",
        f"weka.attributeSelection.BestFirst -D 1 -N {max_stale} -S {cache_size}",
    )
    selected = re.search(r"Selected attributes:\s*([\d,]*)\s*:\s*(\d+)", out)
    indices = [int(t) - 1 for t in selected.group(1).split(",") if t]
    assert len(indices) == int(selected.group(2))
    n_evaluated = int(re.search(r"Total number of subsets evaluated:\s*(\d+)", out).group(1))
    merit = float(re.search(r"Merit of best subset found:\s*([-\d.]+)", out).group(1))
    return indices, n_evaluated, merit


def assert_same_as_weka(X, y, tmp_path: Path, flags=(), **params) -> CFSNaiveBayes:
    model = CFSNaiveBayes(**params).fit(X, y)
    path = tmp_path / "data.arff"
    write_arff(path, X, y, model)
    selected, n_evaluated, merit = weka_cfs(path, flags, model.max_stale, model.lookup_cache_size)
    report = model.fit_report_
    assert report["selected"] == selected
    assert report["n_evaluations"] == n_evaluated
    assert round(report["merit"], 3) == pytest.approx(merit, abs=1.5e-3)
    return model


#: numeric only (iris, diabetes_q1, glass, sonar), nominal only (vote, zoo, soybean,
#: breast_cancer_ljubljana), both (crx, heart_statlog, german, labor, autos, vowel); missing
#: values in labor, vote, soybean, autos, breast_cancer_ljubljana, breast_w
ORACLE_DATASETS = [
    "iris",
    "diabetes_q1",
    "glass",
    "sonar",
    "vote",
    "zoo",
    "soybean",
    "breast_cancer_ljubljana",
    "crx",
    "heart_statlog",
    "german",
    "labor",
    "autos",
    "vowel",
    "breast_w",
]


@pytest.mark.oracle
@needs_weka
@pytest.mark.parametrize("name", ORACLE_DATASETS)
def test_same_subset_as_weka(name, tmp_path):
    d = load_dataset(name)
    assert_same_as_weka(d.X, d.y, tmp_path)


@pytest.mark.oracle
@needs_weka
@pytest.mark.parametrize(
    "flags, params",
    [
        (["-M"], {"missing": "separate"}),
        (["-L"], {"locally_predictive": False}),
        ([], {"max_stale": 2}),
        ([], {"lookup_cache_size": 3}),
    ],
)
def test_same_subset_as_weka_with_other_options(flags, params, tmp_path):
    d = load_dataset("autos")  # numeric and nominal attributes, both with missing values
    assert_same_as_weka(d.X, d.y, tmp_path, flags, **params)


def _edge_case(kind: str):
    rng = np.random.default_rng(0)
    n = 60
    y = rng.integers(0, 2, n).astype(str)
    if kind == "tiny_table":
        return pd.DataFrame({"a": A, "b": B, "c": C, "d": D}).astype("category"), Y.astype(str)
    if kind == "no_informative_variable":
        return pd.DataFrame(rng.normal(size=(40, 3)), columns=list("abc")), y[:40]
    X = pd.DataFrame(
        {
            "a": rng.normal(size=n),
            "const": 1.0,
            "allnan": np.nan,
            "info": (y == "1") + rng.normal(scale=0.3, size=n),
            "cat": pd.Categorical(rng.integers(0, 3, n).astype(str)),
            "catconst": pd.Categorical(["z"] * n),
        }
    )
    X["dup"] = X["info"]
    if kind == "missing":
        for c in X.columns:
            X.loc[rng.random(n) < 0.2, c] = np.nan
    return X, y


@pytest.mark.oracle
@needs_weka
@pytest.mark.parametrize(
    "kind", ["tiny_table", "no_informative_variable", "constant_and_duplicate", "missing"]
)
def test_same_subset_as_weka_on_edge_cases(kind, tmp_path):
    X, y = _edge_case(kind)
    assert_same_as_weka(X, y, tmp_path)


def weka_cut_points(path: Path) -> dict[str, list[float]]:
    """Cut points of every numeric attribute after Weka's supervised Discretize -E (printed
    with 6 decimals in the interval labels '(a-b]')."""
    out = run_weka("weka.filters.supervised.attribute.Discretize", "-E", "-c", "last", "-i", path)
    cuts = {}
    for line in out.splitlines():
        m = re.match(r"@attribute (x\d+) \{(.*)\}$", line)
        if m and ("inf" in m.group(2) or "All" in m.group(2)):
            found = re.findall(r"-(-?[0-9.]+(?:[Ee]-?[0-9]+)?)\]", m.group(2))
            cuts[m.group(1)] = [float(v) for v in found]
    return cuts


@pytest.mark.oracle
@needs_weka
@pytest.mark.parametrize("name", ["iris", "diabetes_q1", "labor", "autos", "crx", "glass"])
def test_same_cut_points_as_weka_discretize(name, tmp_path):
    d = load_dataset(name)
    model = CFSNaiveBayes().fit(d.X, d.y)
    path = tmp_path / "data.arff"
    write_arff(path, d.X, d.y, model)
    weka = weka_cut_points(path)
    ours = {f"x{k}": c for k, c in enumerate(model.cut_points_) if c is not None}
    assert weka.keys() == ours.keys()
    for key, cuts in ours.items():
        assert len(cuts) == len(weka[key]), key
        np.testing.assert_allclose(cuts, weka[key], rtol=1e-9, atol=5.1e-7)
