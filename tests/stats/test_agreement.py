"""The agreement rules (repro.stats.agreement): hand-computed cases inside and outside each rule."""

import math

import numpy as np
import pytest

from repro.stats import agreement as ag


def runs(mean: float, sd: float, n: int = 100) -> np.ndarray:
    """n values alternating mean ± d with sample SD exactly ``sd``."""
    d = sd * math.sqrt((n - 1) / n)
    return np.where(np.arange(n) % 2 == 0, mean + d, mean - d)


def test_mean_with_sd_uses_standard_errors_not_sds():
    # published 0.50 ± 0.10 over 100 runs; ours 100 runs with SD 0.10:
    # SE of the difference = √(0.01/100 + 0.01/100) = 0.014142
    inside = ag.mean_with_sd(0.50, 0.10, 100, runs(0.48, 0.10))
    assert inside.statistic == pytest.approx(-0.02 / 0.0141421356, rel=1e-6)  # t = −1.414
    assert inside.agrees  # p ≈ 0.159
    outside = ag.mean_with_sd(0.50, 0.10, 100, runs(0.47, 0.10))
    assert outside.statistic == pytest.approx(-2.1213203, rel=1e-6)
    assert outside.agrees is False  # p ≈ 0.035, although |diff| = 0.03 < the SD 0.10
    # the vidaurre2012 CFS+NB DI case: 0.166 ± 0.18 published, ours 0.076 ± 0.03
    far = ag.mean_with_sd(0.166, 0.18, 100, runs(0.076, 0.03))
    assert far.statistic == pytest.approx(-0.09 / math.sqrt(0.18**2 / 100 + 0.03**2 / 100))
    assert far.agrees is False


def test_mean_with_sd_refuses_single_runs():
    with pytest.raises(ValueError, match="at least 2 runs"):
        ag.mean_with_sd(0.5, 0.1, 1, runs(0.5, 0.1))


def test_one_split_prediction_interval():
    ours = np.arange(40) / 40  # 0, 0.025, ..., 0.975; k = ⌊0.05·41/2⌋ = 1: [min, max], 39/41
    assert ag.one_split(0.5, ours).statistic == pytest.approx(20.5 / 40)  # 20 below, 1 equal
    assert ag.one_split(0.5, ours).agrees
    assert ag.one_split(0.0, ours).agrees  # the smallest value is inside [x_(1), x_(40)]
    assert ag.one_split(-0.001, ours).agrees is False
    assert ag.one_split(0.976, ours).agrees is False
    assert "95.1% prediction interval [0.0000, 0.9750]" in ag.one_split(0.5, ours).detail
    # 79 splits: k = ⌊0.05·80/2⌋ = 2, the interval [x_(2), x_(78)] covers 76/80 = 95%
    ours = np.arange(79, dtype=float)
    assert ag.one_split(1.0, ours).agrees and ag.one_split(0.0, ours).agrees is False
    assert ag.one_split(77.0, ours).agrees and ag.one_split(78.0, ours).agrees is False
    # 20 splits (wu2015): [min, max], coverage 19/21 = 90.5%, stated
    assert "90.5% prediction interval" in ag.one_split(0.5, np.linspace(0, 1, 20)).detail
    assert ag.one_split(0.5, [0.4]).agrees is None


def test_mean_over_datasets_bootstrap_interval():
    assert ag.mean_over_datasets(0.8, [0.8] * 5).agrees
    assert ag.mean_over_datasets(0.81, [0.8] * 5).agrees is False
    ours = np.linspace(0.70, 0.90, 21)  # mean 0.80, SE ≈ 0.0136
    inside = ag.mean_over_datasets(0.79, ours)
    assert inside.agrees and inside.statistic == pytest.approx(0.01)
    outside = ag.mean_over_datasets(0.85, ours)  # 3.7 SE away
    assert outside.agrees is False and outside.statistic == pytest.approx(-0.05)
    assert ag.mean_over_datasets(0.85, ours).detail == outside.detail  # seeded
    assert ag.mean_over_datasets(0.8, [0.8]).agrees is None


@pytest.mark.parametrize(
    ("k", "n", "cd"),
    # Demšar (2006) Table 5(a): q_0.05 = 2.569 (k = 4), 2.949 (k = 7), 3.164 (k = 10)
    [
        (4, 14, 2.569 * math.sqrt(4 * 5 / 84)),
        (7, 25, 2.949 * math.sqrt(7 * 8 / 150)),
        (10, 30, 3.164 * math.sqrt(10 * 11 / 180)),
    ],
)
def test_nemenyi_critical_difference_matches_demsar(k, n, cd):
    assert ag.nemenyi_critical_difference(k, n) == pytest.approx(cd, abs=2e-3)


def test_average_rank_against_the_critical_difference():
    cd = ag.nemenyi_critical_difference(7, 25)  # 1.80
    assert ag.average_rank(3.0, 3.0 + cd - 0.01, 7, 25).agrees
    assert ag.average_rank(3.0, 3.0 + cd + 0.01, 7, 25).agrees is False


def test_win_count_fisher_exact():
    assert ag.win_count(5, 20, 5, 20).agrees
    far = ag.win_count(0, 20, 10, 20)
    # two-sided p = 2·C(30,20)/C(40,20) (the two tables as extreme as this one)
    assert far.detail.endswith(f"p = {2 * math.comb(30, 20) / math.comb(40, 20):.3g}")
    assert far.agrees is False
    with pytest.raises(ValueError, match="published count 21"):
        ag.win_count(21, 20, 0, 20)


def test_alpha_is_checked():
    with pytest.raises(ValueError, match="alpha"):
        ag.one_split(0.5, np.arange(40), alpha=1.5)


def test_bootstrap_ci_is_seeded_and_brackets_the_statistic():
    values = np.linspace(0.0, 1.0, 21)
    low, high = ag.bootstrap_ci(values, np.median)
    assert low < 0.5 < high and (low, high) == ag.bootstrap_ci(values, np.median)
    assert ag.bootstrap_ci([0.3] * 4) == (0.3, 0.3)
