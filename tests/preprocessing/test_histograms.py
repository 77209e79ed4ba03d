"""MDL and Shimazaki–Shinomoto histograms (repro.preprocessing.histograms) against known answers."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn.datasets import load_iris

from repro.preprocessing.histograms import mdl
from repro.preprocessing.histograms.complexity import (
    log_parametric_complexity,
    log_parametric_complexity_at,
    log_r2,
)
from repro.preprocessing.histograms.mdl import (
    candidate_cuts,
    grid_size,
    mdl_histogram,
    prediscretisation_epsilon,
    stochastic_complexity,
)
from repro.preprocessing.histograms.shimazaki import shimazaki_bins, shimazaki_cost


def test_r2_oracles():
    expected = [2.0, 2.5, 2.888888889, 3.21875, 3.5104, 3.774691358]
    got = [math.exp(log_r2(n)) for n in range(1, 7)]
    np.testing.assert_allclose(got, expected, rtol=1e-9)


def test_log_r_10_100_oracle():
    assert log_parametric_complexity(10, 100)[-1] == pytest.approx(15.9633242245, abs=1e-9)


def _multinomial_r(k, n):
    """R(K, n) by summing the maximised likelihood over every count vector (the definition)."""
    total = 0.0
    for counts in itertools.product(range(n + 1), repeat=k - 1):
        last = n - sum(counts)
        if last < 0:
            continue
        h = (*counts, last)
        coef = math.factorial(n) / math.prod(math.factorial(c) for c in h)
        total += coef * math.prod((c / n) ** c for c in h if c)
    return total


@pytest.mark.parametrize(("k", "n"), [(3, 4), (4, 5), (5, 3)])
def test_recurrence_equals_the_definition(k, n):
    assert math.exp(log_parametric_complexity(k, n)[-1]) == pytest.approx(_multinomial_r(k, n))


def test_log_r_is_stable_for_large_n_and_k():
    log_r = log_parametric_complexity(1000, 10**6)
    assert np.all(np.isfinite(log_r)) and np.all(np.diff(log_r) > 0)
    # K = 2 asymptotics: R(2, n) ≈ sqrt(pi n / 2) + 2/3
    assert math.exp(log_r[1]) == pytest.approx(math.sqrt(math.pi * 1e6 / 2) + 2 / 3, rel=1e-6)


@pytest.mark.parametrize(("k", "n"), [(3, 4), (4, 5), (5, 3), (1, 7), (2, 1)])
def test_closed_form_sum_equals_the_definition(k, n):
    assert math.exp(log_parametric_complexity_at(k, n)) == pytest.approx(_multinomial_r(k, n))


@pytest.mark.parametrize("n", [1, 2, 50, 1000])
def test_closed_form_sum_equals_the_recurrence_and_log_r_is_concave(n):
    log_r = log_parametric_complexity(5000, n)
    for k in (2, 3, 100, 5000):
        assert log_parametric_complexity_at(k, n) == pytest.approx(log_r[k - 1], rel=1e-10)
    # the ratio R(K)/R(K − 1) falls with K: what lets the extra-cut check look at two ends only
    assert np.all(np.diff(log_r, 2) < 0)


def test_epsilon_and_candidates_merge_runs_of_equal_values():
    x = np.array([3.0, 1.0, 1.0, 2.0, 3.0, 3.0])
    assert prediscretisation_epsilon(x) == 0.5
    values, counts = np.unique(x, return_counts=True)
    pos, cum = candidate_cuts(values, counts, 0.5)
    np.testing.assert_allclose(pos, [0.75, 1.25, 1.75, 2.25, 2.75, 3.25])
    np.testing.assert_array_equal(cum, [0, 2, 2, 3, 3, 6])
    # a million heavily tied values: E = 2(V − 1) candidates, however large n
    ties = np.repeat(np.arange(5.0), 200_000)
    assert mdl_histogram(ties).edges.size <= 2 * 5


def _exhaustive(x, eps, cut_set_code):
    """min SC over every subset of the grid of eq. 11 (every cut set of the model class)."""
    values = np.unique(x)
    cells = grid_size(values, eps)
    low = values[0] - eps / 2
    grid = low + eps * np.arange(1, cells + 1)
    ends = (low, low + (cells + 1) * eps)
    best = np.inf
    for r in range(grid.size + 1):
        for sub in itertools.combinations(grid, r):
            edges = np.r_[ends[0], sub, ends[1]]
            best = min(best, stochastic_complexity(x, edges, eps, cut_set_code))
    return best


@pytest.mark.parametrize("cut_set_code", [False, True])
def test_dp_equals_exhaustive_search_over_all_cut_sets(cut_set_code):
    rng = np.random.default_rng(0)
    for _ in range(8):
        n_values = int(rng.integers(2, 5))
        values = np.sort(rng.choice(np.arange(0, 6), n_values, replace=False)).astype(float)
        x = np.repeat(values, rng.integers(1, 9, n_values))
        h = mdl_histogram(x, cut_set_code=cut_set_code)
        assert grid_size(values, h.epsilon) <= 10
        best = _exhaustive(x, h.epsilon, cut_set_code)
        assert h.sc == pytest.approx(best, rel=1e-12)
        assert stochastic_complexity(x, h.edges, h.epsilon, cut_set_code) == pytest.approx(h.sc)
        assert h.gap == 0.0 and h.counts.sum() == x.size


@pytest.mark.parametrize("cut_set_code", [False, True])
def test_hull_search_equals_the_layered_programme(cut_set_code):
    rng = np.random.default_rng(1)
    for trial in range(40):
        n = int(rng.integers(5, 150))
        x = np.round(rng.normal(size=n) * rng.choice([1, 3, 10, 30]))
        if trial % 4 == 0:
            x = rng.normal(size=n)
        if np.unique(x).size < 2:
            continue
        ref = mdl_histogram(x, cut_set_code=cut_set_code, search="layered")
        for tolerance in (0.0, 4.0, np.inf):  # how thin the starting penalties are: speed only
            fast = mdl_histogram(x, cut_set_code=cut_set_code, ladder_tolerance=tolerance)
            assert fast.sc == pytest.approx(ref.sc, rel=1e-12)
            assert fast.gap == 0.0


def test_extra_cuts_checked_at_the_two_ends_equal_the_full_stretch():
    """Histograms with more bins than candidates (the cut-set code falls again past E/2): the
    check at the two ends of the stretch (used when it is long) agrees with the check of every K."""
    rng = np.random.default_rng(4)
    for _ in range(30):
        x = np.round(rng.uniform(0, 1, int(rng.integers(3, 40))), int(rng.integers(1, 3)))
        values, counts = np.unique(x, return_counts=True)
        if values.size < 2:
            continue
        full = mdl_histogram(x, cut_set_code=True)
        ends = mdl._more_cuts_than_candidates(
            values, counts, full.epsilon, np.array([0.0, 1.0]), np.array([x.size]), np.inf, 0
        )
        every = mdl._more_cuts_than_candidates(
            values, counts, full.epsilon, np.array([0.0, 1.0]), np.array([x.size]), np.inf
        )
        assert ends[2] == pytest.approx(every[2], rel=1e-12)


def test_cut_set_code_on_unrounded_data_is_coarse_and_cheap_in_memory():
    """Full-precision values: E is about 10⁸ grid cells, the code charges log binom(E, K − 1), so
    the histogram is coarse; the extra-cut check no longer builds arrays of size E (it did)."""
    x = np.random.default_rng(5).normal(size=2000)
    h = mdl_histogram(x, cut_set_code=True)
    assert grid_size(np.unique(x), h.epsilon) > 10**7
    assert 2 <= h.n_bins <= 20
    assert stochastic_complexity(x, h.edges, h.epsilon, True) == pytest.approx(h.sc)


def test_unrounded_continuous_data_give_the_finest_histogram():
    """With ε = half the smallest gap (eq. 16) of full-precision data, every value gets its own
    ε-wide bin: the likelihood gain log(gap/ε) per value outweighs the complexity."""
    x = np.random.default_rng(2).normal(size=300)
    h = mdl_histogram(x)
    assert h.n_bins == 2 * 300 - 1
    rounded = np.round(x, 1)
    assert mdl_histogram(rounded).n_bins < 2 * np.unique(rounded).size - 1


def test_max_bins_caps_the_histogram():
    x = np.round(np.random.default_rng(3).normal(size=500) * 10)
    assert mdl_histogram(x, max_bins=3).n_bins <= 3


def test_mdl_histogram_bad_input():
    with pytest.raises(ValueError, match="at least one non-missing"):
        mdl_histogram(np.array([np.nan]))
    with pytest.raises(ValueError, match="finite"):
        mdl_histogram(np.array([1.0, np.inf]))
    with pytest.raises(ValueError, match="max_bins must be an integer ≥ 1"):
        mdl_histogram(np.array([1.0, 2.0]), max_bins=0)
    with pytest.raises(ValueError, match=r"search must be one of \['hull', 'layered'\]"):
        mdl_histogram(np.array([1.0, 2.0]), search="greedy")
    one = mdl_histogram(np.array([4.0, 4.0]))
    assert one.n_bins == 1 and one.edges.tolist() == [3.5, 4.5]


def test_shimazaki_cost_by_hand():
    x = np.array([0.0, 1, 2, 3, 4, 10])
    # N = 1: δ = 10, counts [6]: (2·6 − 0)/100
    assert shimazaki_cost(x, 1) == pytest.approx(0.12)
    # N = 2: δ = 5, counts [5, 1], mean 3, biased variance 4: (6 − 4)/25
    assert shimazaki_cost(x, 2) == pytest.approx(0.08)
    # N = 5: δ = 2, counts [2, 2, 1, 0, 1], mean 1.2, variance 0.56: (2.4 − 0.56)/4
    assert shimazaki_cost(x, 5) == pytest.approx(0.46)
    costs = [shimazaki_cost(x, n) for n in range(1, 11)]
    assert shimazaki_bins(x, max_bins=10) == 1 + int(np.argmin(costs))


def _exact_shimazaki_bins(values: list[Fraction], n_max: int) -> int:
    """argmin_N (2k̄ − v)/δ² with every bin index ⌊(x − lo)·N/span⌋ computed in rationals (a value
    on an edge opens the next bin; the maximum falls in the last bin); the first N on ties."""
    lo, span = min(values), max(values) - min(values)
    best, best_n = None, 1
    for n in range(1, n_max + 1):
        counts = [0] * n
        for v in values:
            counts[min(int((v - lo) * n / span), n - 1)] += 1
        mean = Fraction(sum(counts), n)
        var = sum((c - mean) ** 2 for c in counts) / n
        cost = (2 * mean - var) / (span / n) ** 2
        if best is None or cost < best:
            best, best_n = cost, n
    return best_n


@pytest.mark.parametrize("column", range(4))
def test_shimazaki_bins_on_iris_equal_the_exact_rational_search(column):
    """iris is recorded at 0.1: many values sit exactly on an edge, where (x − lo)/δ rounds
    either way in floating point; the edge rule must give the exact-arithmetic bins."""
    X, y = load_iris(return_X_y=True)
    for rows in [np.ones(y.size, bool), y == 0, y == 1, y == 2]:
        x = X[rows, column]
        exact = [Fraction(str(v)) for v in x]
        n_max = max(
            1, min(200, x.size, math.ceil(np.ptp(x) / np.min(np.diff(np.unique(x))) - 1e-9) + 1)
        )
        assert shimazaki_bins(x) == _exact_shimazaki_bins(exact, n_max)
        assert shimazaki_bins(x * 1e300) == shimazaki_bins(x)  # and at every scale


def test_shimazaki_bins_on_a_lattice_are_not_finer_than_the_lattice():
    x = np.repeat(np.arange(16.0), 50)
    assert shimazaki_bins(x, max_bins=200) <= 16  # one bin per lattice point at the finest
    # binary values: N = 2 is allowed; C(1) = 2n = 200 > C(2) = 4n − (90 − 10)² < 0
    assert shimazaki_bins(np.r_[np.zeros(90), np.ones(10)]) == 2
    assert shimazaki_bins(np.ones(5)) == 1


def test_a_grid_finer_than_float64_resolves_is_refused_clearly():
    """Values 1e-12 apart beside ±1e12 (issue 46): the grid of step ε has collided points in
    float64; it was scipy's gammaln TypeError (E beyond int64) or infinite densities."""
    from repro.preprocessing.histograms.mdl import mdl_histogram

    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(size=50) * 1e-12, [1e12, -1e12]])
    for code in (True, False):
        with pytest.raises(ValueError, match="finer than float64 resolves across that range"):
            mdl_histogram(x, cut_set_code=code)
    wide = np.concatenate([rng.normal(size=50) * 1e-3, [1e3, -1e3]])  # representable: fitted
    assert np.all(np.diff(mdl_histogram(wide).edges) > 0)
