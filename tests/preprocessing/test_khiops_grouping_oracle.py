"""Khiops 11 as the oracle of the Khiops-variant MODL grouping (issue 11 §1): randomized nominal
variables (2–80 values, 2–6 classes, skewed frequencies, missing values, N from 20 to 5000), and
variables with many rare values (60–80 values, most seen 1 to 3 times: the catch-all part and the
garbage group).

Each case draws one class vector and a few nominal variables; Khiops and
:class:`repro.preprocessing.modl.estimators.MODLGrouper` (``variant="khiops"``, same number of
variables) must give the same parts (sorted class-count rows) and Levels within 1e-6 on every
variable, and ``fnb_khiops`` the same SNB selection and weights (1e-9) as Khiops. Khiops' own
run dominates the time (about 2.5 s per case).
"""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("khiops.sklearn")

from repro.experiments import khiops_grouping as kg  # noqa: E402
from repro.experiments.khiops_agreement import WEIGHT_TOL  # noqa: E402
from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes  # noqa: E402
from repro.methods.khiops.peer import khiops_snb_weights  # noqa: E402

pytestmark = pytest.mark.oracle("khiops")  # skipped with the reason without Khiops

N_CASES = 30
N_VARIABLES = 5
#: rare-value cases where Khiops keeps a garbage group on one variable (J = 5, 2, 3, 2)
RARE_SEEDS = (2, 21, 44, 67)
N_RARE_VARIABLES = 3


def synthetic_case(seed: int):
    """(X, y): N in [20, 5000], J in [2, 6], variables of 2–80 values with Zipf-like frequencies,
    class distributions depending on the value, and about 0–20% missing values."""
    rng = np.random.default_rng(seed)
    n = int(np.exp(rng.uniform(np.log(20), np.log(5000))))
    n_classes = int(rng.integers(2, 7))
    y = _classes(rng, n_classes, n)
    columns = {}
    for k in range(N_VARIABLES):
        n_values = int(rng.integers(2, 81))
        freq = 1.0 / np.arange(1, n_values + 1) ** rng.uniform(0.3, 2.0)
        x = _values(rng, freq, rng.uniform(0.0, 1.5), n_classes, y)
        missing = rng.random(n) < rng.uniform(0.0, 0.2)
        x[missing] = None
        columns[f"x{k}"] = pd.Series(x).astype("category")
    return _frame(columns, y)


def rare_values_case(seed: int):
    """(X, y): N in [150, 700], J in [2, 6], variables of 60–80 values: 2–7 frequent values and
    many rare ones (expected 1.5 to 3.5 occurrences each, at most 70% of the mass), the value
    depending on the class; grouped with a catch-all part, sometimes with a garbage group."""
    rng = np.random.default_rng(1000 + seed)
    n_classes = int(rng.integers(2, 7))
    n = int(rng.integers(150, 700))
    y = _classes(rng, n_classes, n)
    columns = {}
    for k in range(N_RARE_VARIABLES):
        n_values = int(rng.integers(60, 81))
        n_frequent = int(rng.integers(2, 8))
        rare = rng.uniform(1.5, 3.5, n_values - n_frequent) / n
        rare *= min(1.0, 0.7 / rare.sum())
        frequent = rng.uniform(1.0, 5.0, n_frequent)
        frequent *= (1.0 - rare.sum()) / frequent.sum()
        x = _values(rng, np.concatenate([frequent, rare]), rng.uniform(0.5, 2.0), n_classes, y)
        columns[f"x{k}"] = pd.Series(x).astype("category")
    return _frame(columns, y)


def _classes(rng, n_classes: int, n: int) -> np.ndarray:
    """n classes drawn from a Dirichlet(2) prior over ``n_classes`` classes."""
    prior = rng.dirichlet(np.full(n_classes, 2.0))
    return rng.choice(n_classes, size=n, p=prior)


def _values(rng, freq: np.ndarray, tilt_scale: float, n_classes: int, y: np.ndarray):
    """A nominal value for each class of ``y``, drawn from the frequencies ``freq`` tilted by
    class: the value depends on the class through a class-specific normal(0, ``tilt_scale``)
    tilt of the log-frequencies."""
    tilt = rng.normal(0.0, tilt_scale, size=(n_classes, freq.size))
    probs = freq * np.exp(tilt)
    probs /= probs.sum(axis=1, keepdims=True)
    return np.array([f"v{rng.choice(freq.size, p=probs[c])}" for c in y], dtype=object)


def _frame(columns: dict, y: np.ndarray):
    return pd.DataFrame(columns), pd.Series([f"c{c}" for c in y])


def differences(X: pd.DataFrame, y: pd.Series) -> list:
    """What differs between Khiops and us: (variable, Khiops' (parts, Level), ours) of the
    variables grouped differently, then ("weights", Khiops', ours) if the SNB selections of Khiops
    and of ``fnb_khiops`` differ or a weight differs by more than 1e-9 (Khiops prints 10 digits)."""
    classes = sorted(y.unique())
    clf = kg.khiops_fit(X, y)
    theirs, mine = kg.khiops_groupings(X, y, classes, clf), kg.our_groupings(X, y, classes)
    out = [
        (c, theirs[c], mine[c])
        for c in X.columns
        if theirs[c][0] != mine[c][0] or abs(theirs[c][1] - mine[c][1]) > kg.LEVEL_TOL
    ]
    try:
        khiops_weights = khiops_snb_weights(clf, X.columns)
    except StopIteration:  # no informative variable: Khiops builds no SNB
        khiops_weights = {}
    model = KhiopsFractionalNaiveBayes().fit(X, y)
    our_weights = {c: float(w) for c, w in zip(X.columns, model.weights_) if w > 0}
    same = khiops_weights.keys() == our_weights.keys() and all(
        abs(khiops_weights[c] - our_weights[c]) <= WEIGHT_TOL for c in our_weights
    )
    if not same:
        out.append(("weights", khiops_weights, our_weights))
    return out


#: seeds run in the fast suite; the others with ``-m slow`` (all 30 and 200 more seeds agreed when
#: the port landed)
N_FAST_CASES = 12


@pytest.mark.parametrize(
    "seed",
    [pytest.param(s, marks=() if s < N_FAST_CASES else pytest.mark.slow) for s in range(N_CASES)],
)
def test_random_groupings_match_khiops(seed):
    assert not differences(*synthetic_case(seed))


@pytest.mark.parametrize("seed", RARE_SEEDS)
def test_rare_value_groupings_match_khiops(seed):
    X, y = rare_values_case(seed)
    assert all((X[c].value_counts() <= 3).sum() >= 20 for c in X.columns)
    assert not differences(X, y)
