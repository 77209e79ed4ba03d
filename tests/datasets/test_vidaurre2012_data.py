"""vidaurre2012's synthetic worlds (repro.datasets.vidaurre2012): the eq. (12) toy world and its
exact quantities, and the §7.1 scenarios DI, DR, CI, CR.

Known answers: the eq. (12) errors worked out by hand from the printed CPTs (below); the structure
of each scenario checked on large samples with tests whose bounds are generous for the sample
size (independence: p-value > 1e-4, i.e. a seeded sample would have to be a 1-in-10⁴ accident;
dependence: p-value < 1e-12; proportions within 6 binomial standard deviations).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from repro.datasets import get_entry, load_dataset
from repro.datasets.generators import GENERATORS
from repro.datasets.vidaurre2012 import (
    SD,
    TOY_CPTS,
    VIDAURRE_CATALOG,
    _copy_neighbours,
    scenario_ci,
    scenario_columns,
    scenario_cr,
    scenario_di,
    scenario_dr,
    toy,
    toy_bayes_error,
    toy_error,
    toy_irrelevant,
    toy_joint,
    toy_nb_copies_error,
    toy_redundant,
    toy_x1_error,
)

SCENARIOS = {"DI": scenario_di, "DR": scenario_dr, "CI": scenario_ci, "CR": scenario_cr}
BIG = 60_000


def _codes(X: pd.DataFrame) -> np.ndarray:
    return X.apply(lambda c: c.cat.codes).to_numpy()


def _independence_p(a, b) -> float:
    """Chi-square test of independence of two discrete samples (codes)."""
    table = pd.crosstab(a, b).to_numpy()
    return stats.chi2_contingency(table)[1]


def _close(value: float, expected: float, n: int, k: float = 6.0) -> bool:
    """A proportion within k binomial standard deviations of its expectation."""
    return abs(value - expected) <= k * np.sqrt(expected * (1 - expected) / n) + 1e-12


# ------------------------------------------------------------------------------------------------
# eq. (12): exact quantities
# ------------------------------------------------------------------------------------------------
def test_eq12_cpts_are_the_printed_ones():
    """Θ1 column 1 = (.8, .1, .1), the others 1/3 (printed 0.33); Θ2 = Θ3 with columns
    (1/3, 1/3, 1/3), (.3, .1, .6), (.3, .6, .1); every column a distribution."""
    np.testing.assert_allclose(TOY_CPTS[0][:, 0], [0.8, 0.1, 0.1])
    np.testing.assert_allclose(TOY_CPTS[0][:, 1:], 1 / 3)
    np.testing.assert_allclose(TOY_CPTS[1], TOY_CPTS[2])
    np.testing.assert_allclose(TOY_CPTS[1][:, 1], [0.3, 0.1, 0.6])
    np.testing.assert_allclose(TOY_CPTS[1][:, 2], [0.3, 0.6, 0.1])
    np.testing.assert_allclose(TOY_CPTS.sum(axis=1), 1.0)


def test_eq12_joint_marginals_by_hand():
    """P(y) = 1/3; P(X1 = 0) = (0.8 + 1/3 + 1/3)/3 = 22/45; P(X2 = 1) = (1/3 + .1 + .6)/3 =
    31/90."""
    joint = toy_joint()
    assert joint.shape == (3, 3, 3, 3) and joint.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(joint.sum(axis=(1, 2, 3)), 1 / 3)
    assert joint.sum(axis=(0, 2, 3))[0] == pytest.approx(22 / 45)
    assert joint.sum(axis=(0, 1, 3))[1] == pytest.approx(31 / 90)


def test_eq12_x1_alone_by_hand():
    """X1 alone: X1 = 0 → class 0 (0.8 > 1/3), else a tie of classes 1 and 2 (1/3 each, beating
    0.1): accuracy (0.8 + 1/3 + 1/3)/3 = 22/45, error 23/45."""
    assert toy_x1_error() == pytest.approx(float(Fraction(23, 45)), abs=1e-12)


def test_eq12_bayes_error_by_hand():
    """Bayes error with X1..X3. P(y, x) = (1/3) θ1 θ2 θ3. With X1 = 0, class 0 has 0.8/27 in each
    of the 9 (x2, x3) cells; classes 1/2 have (1/9)·θ2θ3, largest (1/9)(.6·.6) = 0.04 in cells
    (1, 1) (class 2) and (2, 2) (class 1), the next .18/9 = 0.02 < 0.8/27: correct mass
    7·0.8/27 + 2·0.04 = 7.76/27. With X1 = 1 (or 2), class 0 has only 0.1/27; classes 1/2 win
    every cell with max(θθ)/9: .09, .18, .18, .18, .36, .06, .18, .06, .36 → 1.65/9 = 4.95/27.
    Accuracy (7.76 + 2·4.95)/27 = 17.66/27, error 9.34/27 = 467/1350."""
    assert toy_bayes_error() == pytest.approx(float(Fraction(467, 1350)), abs=1e-12)
    assert toy_error((1, 1, 1)) == toy_bayes_error()


def test_eq12_bayes_error_of_x1_x2_by_hand():
    """A sub-case: X1 and X2 only. X1 = 0: class 0 has (1/3)(.8)(1/3) = .8/9 per x2 cell against
    at most (1/9)(.6) for classes 1/2: 3·.8/9 = .8/3. X1 = 1 or 2: classes 1/2 win with
    (1/9)·max(θ2) = (.3 + .6 + .6)/9 = 1.5/9 each. Accuracy .8/3 + 3/9 = 0.6, error 2/5."""
    assert toy_error((1, 1, 0)) == pytest.approx(0.4, abs=1e-12)


def test_eq12_nb_with_copies_of_x1_by_hand():
    """NB counting X1 51 times on infinite data (true CPTs): X1 = 0 → class 0 always (2.4⁵¹
    overwhelms X2, X3), mass 0.8/3; X1 = 1, 2 → class 0 is out ((0.3)⁵¹) and classes 1/2 are
    decided by X2, X3 as in the Bayes rule: 2·4.95/27. Accuracy 0.8/3 + 9.9/27 = 19/30, error
    11/30. A single copy already gives that rule (2.4² · (1/9) > .36/3 in the worst cell)."""
    assert toy_nb_copies_error(50) == pytest.approx(float(Fraction(11, 30)), abs=1e-12)
    assert toy_nb_copies_error(1) == pytest.approx(11 / 30, abs=1e-12)
    assert toy_nb_copies_error(0) == pytest.approx(toy_bayes_error(), abs=1e-12)
    assert toy_bayes_error() < toy_nb_copies_error(50) < toy_x1_error()


def test_eq12_printed_033_gives_the_same_numbers():
    """The printed CPTs with 0.33 (columns summing to 0.99), normalised, are ours."""
    printed = np.where(np.isclose(TOY_CPTS, 1 / 3), 0.33, TOY_CPTS)
    normalised = printed / printed.sum(axis=1, keepdims=True)
    assert toy_bayes_error(normalised) == pytest.approx(467 / 1350, abs=1e-12)


def _toy_rule_error(X: pd.DataFrame, y: np.ndarray, weights) -> float:
    """Test error of argmax_j Σ_i w_i log θ_i[x_i, j] (equal priors, first index on ties)."""
    codes = _codes(X[["x1", "x2", "x3"]])
    score = sum(w * np.log(TOY_CPTS[i][codes[:, i], :]) for i, w in enumerate(weights))
    return float((score.argmax(axis=1) != y).mean())


def test_toy_samples_agree_with_the_enumeration():
    """On 90 000 draws: frequencies of each X_i given y within 6 sd of eq. (12); the Bayes rule's
    error within 6 sd of 467/1350; NB on X1 + its 50 copies (toy_redundant) within 6 sd of 11/30
    (ties between classes 1 and 2 have equal mass, so any tie-breaking has this error)."""
    n = 90_000
    X, y = toy(n_samples=n, seed=5)
    codes = _codes(X)
    for i in range(3):
        for j in range(3):
            nj = int((y == j).sum())
            freq = np.bincount(codes[y == j, i], minlength=3) / nj
            for k in range(3):
                assert _close(freq[k], TOY_CPTS[i][k, j], nj), (i, j, k)
    assert _close(_toy_rule_error(X, y, (1, 1, 1)), 467 / 1350, n)
    Xr, yr = toy_redundant(n_samples=n, seed=5)
    assert _close(_toy_rule_error(Xr, yr, (51, 1, 1)), 11 / 30, n)


# ------------------------------------------------------------------------------------------------
# Toy generators
# ------------------------------------------------------------------------------------------------
def test_toy_variants_shapes_and_shared_core():
    base = load_dataset("vidaurre_toy")
    irr = load_dataset("vidaurre_toy_irrelevant50")
    red = load_dataset("vidaurre_toy_redundant50")
    assert base.X.shape == (4000, 3) and irr.X.shape == red.X.shape == (4000, 53)
    assert list(irr.X.columns) == ["x1", "x2", "x3"] + [f"noise{k}" for k in range(1, 51)]
    for ds in (base, irr, red):
        assert ds.categorical.all() and ds.n_classes == 3 and set(ds.y) == {0, 1, 2}
        assert ds.meta["papers"] == ["vidaurre2012"]
        np.testing.assert_array_equal(ds.y, base.y)  # same y, x1..x3 for the same seed
        pd.testing.assert_frame_equal(ds.X[["x1", "x2", "x3"]], base.X)


def test_toy_redundant_copies_are_exact_copies_of_x1():
    X, _ = toy_redundant(n_samples=500, seed=3, n_noise=7)
    assert X.shape == (500, 10)
    for k in range(1, 8):
        assert (X[f"noise{k}"] == X["x1"]).all()


def test_toy_irrelevant_columns_are_independent_of_y():
    """50 chi-square tests (4 dof) on 60 000 draws, each p > 1e-4; they are uniform on 3 states."""
    X, y = toy_irrelevant(n_samples=BIG, seed=11)
    codes = _codes(X)
    for k in range(3, 53):
        assert _independence_p(codes[:, k], y) > 1e-4, X.columns[k]
        assert _close(np.mean(codes[:, k] == 0), 1 / 3, BIG)
    assert _independence_p(codes[:, 0], y) < 1e-12  # x1 is not


def test_toy_tie_x2_x3():
    X, _ = toy(n_samples=20_000, seed=2, tie_x2_x3=1.0)
    assert (X["x2"] == X["x3"]).all()
    X0, y0 = toy(n_samples=20_000, seed=2)
    Xh, yh = toy(n_samples=20_000, seed=2, tie_x2_x3=0.5)
    np.testing.assert_array_equal(y0, yh)
    assert (X0["x2"] == Xh["x2"]).all()
    # P(x2 = x3) = 0.5 + 0.5·P(independent x2 = x3); only tied rows changed
    changed = X0["x3"] != Xh["x3"]
    assert (Xh.loc[changed, "x3"] == Xh.loc[changed, "x2"]).all()
    assert np.mean(Xh["x2"] == Xh["x3"]) > 0.5 + 0.5 * np.mean(X0["x2"] == X0["x3"]) - 0.02


# ------------------------------------------------------------------------------------------------
# §7.1 scenarios
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenario_shape_names_types_classes(name):
    ds = load_dataset(name)
    groups = scenario_columns()
    assert ds.X.shape == (3300, 20)  # one repetition: N = 300 + N_te = 3000
    assert list(ds.X.columns) == groups["relevant"] + groups["partial"] + groups["noise"]
    assert ds.n_classes == 3 and set(ds.y) == {0, 1, 2}
    discrete = name.startswith("D")
    assert ds.categorical.all() if discrete else not ds.categorical.any()
    if discrete:
        assert all(list(ds.X[c].cat.categories) == ["0", "1", "2"] for c in ds.X)
    entry = get_entry(name)
    assert entry.source == "generator" and entry.papers == ("vidaurre2012",)
    assert GENERATORS[name].func is VIDAURRE_CATALOG[name]["func"]


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenario_determinism(name):
    f = SCENARIOS[name]
    X1, y1 = f(n_samples=700, seed=4)
    X2, y2 = f(n_samples=700, seed=4)
    pd.testing.assert_frame_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X3, _ = f(n_samples=700, seed=5)
    assert not X1.equals(X3)
    # n_noise only adds columns: the first ones are unchanged
    Xs, ys = f(n_samples=700, seed=4, n_noise=3)
    pd.testing.assert_frame_equal(Xs, X1.iloc[:, :13])
    np.testing.assert_array_equal(ys, y1)


def test_irrelevant_and_redundant_scenarios_share_all_but_the_noise():
    for a, b in (("DI", "DR"), ("CI", "CR")):
        Xa, ya = SCENARIOS[a](n_samples=500, seed=9)
        Xb, yb = SCENARIOS[b](n_samples=500, seed=9)
        np.testing.assert_array_equal(ya, yb)
        pd.testing.assert_frame_equal(Xa.iloc[:, :10], Xb.iloc[:, :10])
        assert not Xa.iloc[:, 10:].equals(Xb.iloc[:, 10:])


def test_di_groups():
    """DI: relevant and partial columns depend on y, the 10 noise columns do not; the partial
    columns share one CPT (homogeneity over the 7 within each class), depend on their neighbours
    given y and are independent given y at distance ≥ 3 (copies have length one)."""
    X, y = scenario_di(n_samples=BIG, seed=1)
    codes = _codes(X)
    for k in range(10):
        assert _independence_p(codes[:, k], y) < 1e-12, X.columns[k]
    for k in range(10, 20):
        assert _independence_p(codes[:, k], y) > 1e-4, X.columns[k]
    for j in range(3):
        rows = y == j
        part = codes[rows, 3:10]
        table = np.stack([np.bincount(part[:, m], minlength=3) for m in range(7)])
        assert stats.chi2_contingency(table)[1] > 1e-4  # the same CPT for the 7
        assert _independence_p(part[:, 1], part[:, 2]) < 1e-12  # neighbours
        assert _independence_p(part[:, 0], part[:, 3]) > 1e-4  # distance 3


def test_dr_noise_are_09_copies_of_one_relevant_predictor():
    """DR: each noise column equals one relevant column (the same for all ten, noise_source
    "shared") on ≥ 90 % of the rows (0.9 + 0.1·chance); with noise_source="each" each picks its
    own."""
    X, y = scenario_dr(n_samples=BIG, seed=2)
    codes = _codes(X)
    sources = set()
    for k in range(10, 20):
        agree = [np.mean(codes[:, k] == codes[:, i]) for i in range(3)]
        src = int(np.argmax(agree))
        sources.add(src)
        assert agree[src] >= 0.9 - 6 * np.sqrt(0.09 / BIG)
        assert sorted(agree)[1] < 0.8  # not bound to the others
    assert len(sources) == 1
    Xe, _ = scenario_dr(n_samples=5000, seed=2, noise_source="each")
    ce = _codes(Xe)
    picks = {
        int(np.argmax([np.mean(ce[:, k] == ce[:, i]) for i in range(3)])) for k in range(10, 20)
    }
    assert len(picks) > 1


def test_ci_groups_and_gaussian_parameters():
    """CI: within-class sd ``SD`` (calibrated, module docstring) for every column; class means
    of relevant columns in (−2, 2); noise columns have one mean for all classes (one-way ANOVA
    p > 1e-4), relevant ones not."""
    X, y = scenario_ci(n_samples=BIG, seed=3)
    A = X.to_numpy()
    for k in range(20):
        groups = [A[y == j, k] for j in range(3)]
        for g in groups:  # partial columns copy draws of the same class distribution: SD too
            assert abs(g.std() - SD) < 0.02, (X.columns[k], g.std())
        p = stats.f_oneway(*groups).pvalue
        if k >= 10:
            assert p > 1e-4, X.columns[k]
        else:
            assert all(-2 - 0.05 < g.mean() < 2 + 0.05 for g in groups)
    for k in range(3):  # relevant: distinct class means (U(−2, 2) draws)
        assert stats.f_oneway(*[A[y == j, k] for j in range(3)]).pvalue < 1e-12


def test_cr_noise_are_noisy_09_copies_of_one_relevant_predictor():
    X, _ = scenario_cr(n_samples=BIG, seed=3)
    A = X.to_numpy()
    sources = set()
    for k in range(10, 20):
        near = [np.mean(np.abs(A[:, k] - A[:, i]) < 0.5) for i in range(3)]  # 5 noise sd
        src = int(np.argmax(near))
        sources.add(src)
        assert near[src] >= 0.9 - 6 * np.sqrt(0.09 / BIG)
        bound = np.abs(A[:, k] - A[:, src]) < 0.5
        # redundant_noise_sd: median |difference| of N(0, 0.1²) is 0.6745·0.1 (robust to the few
        # own draws that fall within 0.5 of the source)
        mad = np.median(np.abs(A[bound, k] - A[bound, src])) / stats.norm.ppf(0.75)
        assert abs(mad - 0.1) < 0.01
    assert len(sources) == 1


def test_copy_neighbours_mechanism():
    """The V2 copying on a matrix whose column k holds k: which neighbour each entry copies."""
    rng = np.random.default_rng(0)
    own = np.tile(np.arange(7), (4000, 1))
    out = _copy_neighbours(rng, own, None, None, 1.0)
    assert (out[:, 0] == 1).all() and (out[:, 6] == 5).all()  # ends: their V2 neighbour
    for k in range(1, 6):
        assert set(np.unique(out[:, k])) == {k - 1, k + 1}
        assert _close(np.mean(out[:, k] == k + 1), 0.5, 4000)
    left, right = np.full(4000, -1), np.full(4000, 99)
    out = _copy_neighbours(rng, own, left, right, 1.0)
    assert set(np.unique(out[:, 0])) == {-1, 1} and set(np.unique(out[:, 6])) == {5, 99}
    out = _copy_neighbours(rng, own, None, None, 0.5)
    assert _close(np.mean(out == own), 0.5, own.size)
    assert (_copy_neighbours(rng, own, None, None, 0.0) == own).all()


def test_adjacent_neighbours_copy_v1_and_v3():
    X, _ = scenario_di(n_samples=4000, seed=6, neighbours="adjacent", copy_prob=1.0)
    c = _codes(X)
    # partial1 copies relevant3 or partial2's own draw; on about half the rows relevant3
    assert np.mean(c[:, 3] == c[:, 2]) > 0.45
    assert np.mean(c[:, 9] == c[:, 10]) > 0.45  # partial7 and noise1


def test_partial_group_parameters_default_to_the_relevant_ones():
    """V2's own Dirichlet peak / mean range: None (default) draws V2 like V1 ("similarly
    generated", §7.1), the same data as passing V1's value; another value changes only V2's
    parameters in the continuous world (same labels, V1 and V3)."""
    for f, key, same in (
        (scenario_di, "partial_peak", 3.5),
        (scenario_ci, "partial_mean_range", 2.0),
    ):
        X0, y0 = f(seed=4, n_samples=500)
        X1, y1 = f(seed=4, n_samples=500, **{key: same})
        pd.testing.assert_frame_equal(X0, X1)
        np.testing.assert_array_equal(y0, y1)
    X0, y0 = scenario_ci(seed=4, n_samples=500)
    X2, y2 = scenario_ci(seed=4, n_samples=500, partial_mean_range=0.0)
    np.testing.assert_array_equal(y0, y2)
    cols = scenario_columns()
    keep = cols["relevant"] + cols["noise"]
    pd.testing.assert_frame_equal(X0[keep], X2[keep])
    # mean range 0: V2 carries no class information (one mean for all classes)
    A, BIGY = scenario_ci(seed=5, n_samples=BIG, partial_mean_range=0.0)
    for name in cols["partial"]:
        assert stats.f_oneway(*[A[name].to_numpy()[BIGY == j] for j in range(3)]).pvalue > 1e-4


@pytest.mark.parametrize(
    ("name", "params", "match"),
    [
        ("DI", {"dirichlet_peak": 0}, "DI.*dirichlet_peak"),
        ("DR", {"partial_peak": -1.0}, "DR.*partial_peak"),
        ("CI", {"partial_mean_range": -1.0}, "CI.*partial_mean_range"),
        ("DR", {"copy_prob": 1.5}, r"DR.*copy_prob must be a number in \[0.0, 1.0\]"),
        ("DI", {"neighbours": "left"}, r"DI.*neighbours must be one of \['within', 'adjacent'\]"),
        ("CR", {"noise_source": "all"}, "CR.*noise_source"),
        ("CI", {"sd": 0.0}, "CI.*sd"),
        ("CR", {"redundant_noise_sd": -1}, "redundant_noise_sd"),
        ("DI", {"n_noise": -1}, "DI.*n_noise must be an integer >= 0"),
        ("CI", {"n_samples": 0}, "CI.*n_samples"),
        ("vidaurre_toy", {"seed": -1}, "vidaurre_toy.*seed"),
        ("vidaurre_toy_irrelevant50", {"noise_states": 1}, "noise_states"),
        ("vidaurre_toy_redundant50", {"tie_x2_x3": 2}, "tie_x2_x3"),
    ],
)
def test_bad_parameters(name, params, match):
    with pytest.raises(ValueError, match=match):
        load_dataset(name, **params)
