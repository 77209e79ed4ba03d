"""boulle2007 Table 3: what the committed records say about the NB and NB(EF) compression-rate gap
(published 30-set means .476 and .401; ours over 25 sets). The causes that can be shown are shown
here; the rest is marked unexplained in experiments/boulle2007/README.md.

CR = 1 − mean test ILF / H(Y), ILF = −ln P(true class) (the paper's §5.2), H(Y) the class
entropy. The paper publishes only the mean over its 30 UCI sets, so a data set's share of the gap
is (ours_d − published mean) / 25: the shares add up to the gap of our 25-set mean.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro import load_dataset
from repro.evaluation.records import read_records

RESULTS = Path(__file__).resolve().parents[2] / "results"
PUBLISHED = {"nb": 0.476, "nb_ef": 0.401}  # Table 3, mean CR over the paper's 30 UCI sets


def mean_cr(experiment: str) -> pd.DataFrame:
    """Data set × method: mean test CR over the 10 folds of the stored records."""
    records = read_records(RESULTS / experiment)
    cr = records[(records["split"] == "test") & (records["metric"] == "compression_rate")]
    return cr.groupby(["dataset", "method"])["value"].mean().unstack("method")


@pytest.fixture(scope="module")
def cr():
    return {"none": mean_cr("boulle2007_table3"), "khiops": mean_cr("boulle2007_table3_shrink")}


def test_shares_add_up_to_the_gap(cr):
    for method, published in PUBLISHED.items():
        ours = cr["khiops"][method]
        shares = (ours - published) / len(ours)
        assert len(ours) == 25
        assert shares.sum() == pytest.approx(ours.mean() - published, abs=1e-12)


def test_khiops_output_shrink_closes_part_of_the_gap(cr):
    """Cause 1: Khiops bounds every NB output, p̂ = (p + 0.5/(J(N+1)))/(1 + 0.5/(N+1)); our
    default does not (the paper's text gives no bound). The same folds with the bound."""
    means = {k: v[["nb", "nb_ef"]].mean() for k, v in cr.items()}
    assert means["none"]["nb"] == pytest.approx(0.2155, abs=5e-5)
    assert means["khiops"]["nb"] == pytest.approx(0.3662, abs=5e-5)
    assert means["none"]["nb_ef"] == pytest.approx(0.0601, abs=5e-5)
    assert means["khiops"]["nb_ef"] == pytest.approx(0.2262, abs=5e-5)
    # the bound caps one test instance's loss at ln((1 + 0.5/(N+1)) · 2J(N+1)) nats: ionosphere
    # (N = 315 training rows, J = 2) at ln(1.00158 · 1264) = ln(1266.0) = 7.1436 nats = 11.0 · H(Y)
    n, j = 315, 2
    cap = np.log((1 + 0.5 / (n + 1)) * 2 * j * (n + 1))
    assert cap == pytest.approx(7.1436, abs=1e-4)


def test_abalone19_substitute_carries_most_of_the_nb_ef_gap(cr):
    """Cause 2: abalone19 (rings = 19 vs rest) stands in for the paper's 28-class Abalone. Its
    class entropy is tiny (32 positives of 4174 rows), so CR divides a few confident errors by
    0.045 nats instead of ≈ 2.8."""
    ds = load_dataset("abalone19")
    counts = np.bincount(pd.factorize(np.asarray(ds.y))[0])
    assert sorted(counts) == [32, 4142]
    p = counts / counts.sum()
    # hand: p = 32/4174 = 0.007667; −p ln p − (1 − p) ln(1 − p) = 0.03735 + 0.00763
    assert -(p * np.log(p)).sum() == pytest.approx(0.0450, abs=1e-4)
    ef = cr["khiops"]["nb_ef"]
    assert ef["abalone19"] == pytest.approx(-2.964, abs=5e-4)
    share = (ef["abalone19"] - PUBLISHED["nb_ef"]) / 25
    assert share == pytest.approx(-0.135, abs=5e-4)  # of the gap −0.175
    assert ef.drop("abalone19").mean() == pytest.approx(0.359, abs=5e-4)


def test_the_five_missing_sets_cannot_close_the_nb_gaps(cr):
    """Not a cause: hepatitis, horsecolic, hypothyroid, sickeuthyroid and thyroid are not
    offline. To bring the 30-set mean to the published one they would need a mean CR above 1,
    the largest CR there is (ILF ≥ 0)."""
    for method, published in PUBLISHED.items():
        for reading in ("none", "khiops"):
            ours = cr[reading][method]
            needed = (30 * published - 25 * ours.mean()) / 5
            assert needed > 1, (method, reading, needed)
