"""Khiops 11 as the oracle of the Khiops-variant MODL grouping (issue 11 §1): randomized nominal
variables (2–80 values, 2–6 classes, skewed frequencies, missing values, N from 20 to 5000).

Each case draws one class vector and :data:`N_VARIABLES` nominal variables; Khiops and
:class:`repro.preprocessing.discretizers.MODLGrouper` (``variant="khiops"``, same number of
variables) must give the same parts (class counts) and Levels within 1e-6.
"""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("khiops.sklearn")

from repro.experiments import khiops_grouping as kg  # noqa: E402

pytestmark = pytest.mark.oracle

N_CASES = 12
N_VARIABLES = 5


def synthetic_case(seed: int):
    """(X, y): N in [20, 5000], J in [2, 6], variables of 2–80 values with Zipf-like frequencies,
    class distributions depending on the value, and about 0–20% missing values."""
    rng = np.random.default_rng(seed)
    n = int(np.exp(rng.uniform(np.log(20), np.log(5000))))
    n_classes = int(rng.integers(2, 7))
    prior = rng.dirichlet(np.full(n_classes, 2.0))
    y = rng.choice(n_classes, size=n, p=prior)
    columns = {}
    for k in range(N_VARIABLES):
        n_values = int(rng.integers(2, 81))
        freq = 1.0 / np.arange(1, n_values + 1) ** rng.uniform(0.3, 2.0)
        # the value depends on the class through a class-specific tilt of the frequencies
        tilt = rng.normal(0.0, rng.uniform(0.0, 1.5), size=(n_classes, n_values))
        probs = freq * np.exp(tilt)
        probs /= probs.sum(axis=1, keepdims=True)
        x = np.array([f"v{rng.choice(n_values, p=probs[c])}" for c in y], dtype=object)
        missing = rng.random(n) < rng.uniform(0.0, 0.2)
        x[missing] = None
        columns[f"x{k}"] = pd.Series(x).astype("category")
    return pd.DataFrame(columns), pd.Series([f"c{c}" for c in y])


def ported_path(x: pd.Series, n_classes: int) -> bool:
    """The Khiops paths already ported: two classes (``TwoClassesGroup``) or at most three
    values (``SmallSourceNumberGroup``). ``MultipleClassesGroup`` (reliable sub-groups) and
    ``MultipleClassesGroupWithGarbageSearch`` are not (KWGrouperMODL.cpp)."""
    return n_classes == 2 or x.nunique(dropna=False) <= 3


def differences(seed: int, ported: bool) -> list:
    X, y = synthetic_case(seed)
    classes = sorted(y.unique())
    cols = [c for c in X.columns if ported_path(X[c], len(classes)) == ported]
    if not cols:
        return []
    theirs, mine = kg.khiops_groupings(X, y, classes), kg.our_groupings(X, y, classes)
    return [
        (c, theirs[c], mine[c])
        for c in cols
        if theirs[c][0] != mine[c][0] or abs(theirs[c][1] - mine[c][1]) > kg.LEVEL_TOL
    ]


@pytest.mark.parametrize("seed", range(N_CASES))
def test_random_groupings_match_khiops(seed):
    assert not differences(seed, ported=True)


@pytest.mark.xfail(
    reason="three or more classes and more than three values: reliable sub-groups, garbage group"
    " search and post-optimisation of KWGrouperMODL.cpp not ported yet (issue 11 §1)",
    strict=False,
)
@pytest.mark.parametrize("seed", range(N_CASES))
def test_random_multiclass_groupings_match_khiops(seed):
    assert not differences(seed, ported=False)
