"""Khiops 11 as the oracle (SPEC §3.3, §4.10): partitions, Levels, informative variables,
fnb_khiops weights and test probabilities on the data sets of the issue.

Protocol of KHIOPS_NOTES §8 (stratified 70/30 split, seed 0, ``n_trees=0, n_pairs=0``), run by
:mod:`repro.experiments.khiops_agreement` (``python -m repro experiment=khiops_agreement``; its
table by ``python -m repro.report experiment=khiops_agreement``). Khiops prints SNB weights with 10
significant digits in the model dictionary and predicts with those printed weights, so
differences up to ~1e-10 are print precision, not algorithm.
"""

import pytest

pytest.importorskip("khiops.sklearn")

from repro.experiments import khiops_agreement as ka  # noqa: E402

pytestmark = pytest.mark.oracle("khiops")  # skipped with the reason without Khiops


#: checked in the fast suite: the first agreement table and the nominal sets named in issue 11
#: (german, autos, census); the other nominal sets run with ``-m slow`` (their comparison is the
#: committed agreement table, results/khiops_agreement/agreement.md)
FAST = (*ka.NUMERIC_DATASETS, "tic_tac_toe", "mushroom", "german", "autos", "census_income_kdd")


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(d, marks=() if d in FAST else pytest.mark.slow, id=d) for d in ka.DATASETS
    ],
)
def run(request):
    return ka.fit_both(request.param)


def test_partitions_and_levels(run):
    ours, diffs = run["ours"], []
    for k, c in enumerate(run["Xtr"].columns):
        vs = run["vars"][c]
        theirs, mine = ka.khiops_partition(vs), ka.our_partition(ours, k)
        if not ka.same_partition(theirs, mine):
            diffs.append((c, theirs, mine))
        # the report prints Levels with 6 significant digits
        assert ours.levels_[k] == pytest.approx(vs.level, rel=1e-5, abs=1e-9), c
    assert not diffs


@pytest.fixture(scope="module")
def row(run):
    return ka.compare(run)


def test_informative_set(row):
    assert row["same_informative"]
    assert row["partitions_identical"] == row["variables"]


def test_weights(run, row):
    """Same selected variables, every weight within 1e-9 (Khiops prints 10 digits)."""
    assert row["selected_differing"] == [] and row["selected_ours"] > 0
    assert row["weights_identical"] == row["selected_khiops"] == row["selected_ours"]
    assert row["max_weight_diff"] <= ka.WEIGHT_TOL
    ours = run["ours"]
    assert {c for c, w in zip(run["Xtr"].columns, ours.weights_) if w > 0} == run["weights"].keys()


def test_probabilities(row):
    assert row["max_proba_diff"] <= ka.PROBA_TOL


def test_partition_comparison_detects_differences():
    """same_partition is not vacuous: a moved bound or a moved value is a difference."""
    assert ka.same_partition([1.5, 2.5], [1.5, 2.5])
    assert not ka.same_partition([1.5, 2.5], [1.5, 2.6])
    assert not ka.same_partition([1.5], None)
    assert ka.same_partition([["a", "b"], ["c"]], [["b", "a", "rare"], ["c"]])
    assert not ka.same_partition([["a", "b"], ["c"]], [["a"], ["b", "c"]])
