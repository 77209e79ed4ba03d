"""The agreement rules (repro.stats.agreement): hand-computed cases inside and outside each rule."""

import math

import numpy as np
import pytest
from scipy import stats

from repro.stats import agreement as ag
from repro.stats.posthoc import nemenyi_critical_difference


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
    assert nemenyi_critical_difference(k, n) == pytest.approx(cd, abs=2e-3)


def test_win_count_fisher_exact():
    assert ag.win_count(5, 20, 5, 20).agrees
    far = ag.win_count(0, 20, 10, 20)
    # two-sided p = 2·C(30,20)/C(40,20) (the two tables as extreme as this one)
    p = 2 * math.comb(30, 20) / math.comb(40, 20)
    # accepted against 0/20: k = 4 gives p = 2·C(20,4)/C(40,4) = 0.106, k = 5 gives
    # 2·C(20,5)/C(40,5) = 0.047 < 0.05
    assert far.detail.endswith(f"p = {p:.3g}; the test accepts 0–4 of 20")
    # the published counts over 20 that would agree with ours 10/20 (the test is symmetric)
    near = ag.accepted_counts(10, 20, 20)
    assert (far.low, far.high) == (near[0], near[-1]) and 0 not in near and 10 in near
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


# --- every rule's boundaries, texts and statistics (mutation testing: results/mutation/) -------
def test_alpha_must_lie_strictly_between_zero_and_one():
    for alpha in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match=rf"alpha must lie in \(0, 1\), got {alpha!r}"):
            ag.one_split(0.5, np.arange(40), alpha=alpha)
        with pytest.raises(ValueError, match="alpha must lie in"):
            ag.mean_with_sd(0.5, 0.1, 10, runs(0.5, 0.1), alpha=alpha)
        with pytest.raises(ValueError, match="alpha must lie in"):
            ag.mean_over_datasets(0.5, [0.4, 0.6], alpha=alpha)
        with pytest.raises(ValueError, match="alpha must lie in"):
            nemenyi_critical_difference(3, 10, alpha=alpha)
        with pytest.raises(ValueError, match="alpha must lie in"):
            ag.win_count(1, 10, 1, 10, alpha=alpha)
        with pytest.raises(ValueError, match="alpha must lie in"):
            ag.bootstrap_ci([0.1, 0.2, 0.3], alpha=alpha)


def test_values_drop_what_is_not_a_finite_number_and_name_an_empty_sample():
    # None, NaN and ±inf are left out: the mean of the others, 0.6, is the statistic
    one = ag.mean_over_datasets(0.5, [0.5, None, np.nan, 0.7, np.inf, -np.inf])
    assert one.statistic == pytest.approx(0.1)
    assert one.detail.endswith("over 2 data sets")
    for call, name in (
        (lambda: ag.mean_with_sd(0.5, 0.1, 10, [np.nan, None]), "ours"),
        (lambda: ag.one_split(0.5, [np.inf]), "ours_per_split"),
        (lambda: ag.mean_over_datasets(0.5, []), "ours_per_dataset"),
        (lambda: ag.bootstrap_ci([np.nan]), "values"),
    ):
        with pytest.raises(ValueError, match=f"^{name} holds no finite value$"):
            call()


def test_mean_with_sd_at_two_runs_and_without_spread():
    # two runs on each side are enough: ours 0.4, 0.6 (SD √0.02), published 0.5 ± 0.1 over 2
    two = ag.mean_with_sd(0.5, 0.1, 2, [0.4, 0.6])
    assert two.statistic == pytest.approx(0.0, abs=1e-12) and two.agrees
    assert two.rule == ag.RULES["mean_with_sd"] == ag._MEAN_RULE
    assert two.detail == "t = 0.00, p = 1"
    for n_published, ours in ((1, [0.4, 0.6]), (2, [0.4]), (2, [0.4, np.nan])):
        with pytest.raises(ValueError, match="^mean_with_sd needs at least 2 runs on each side$"):
            ag.mean_with_sd(0.5, 0.1, n_published, ours)
    # no spread on either side: agrees exactly when the means are equal
    same = ag.mean_with_sd(0.5, 0.0, 10, [0.5, 0.5, 0.5])
    assert (same.agrees, same.statistic, same.detail) == (True, 0.0, "no spread on either side")
    assert same.rule == ag._MEAN_RULE
    other = ag.mean_with_sd(0.5, 0.0, 10, [0.6, 0.6, 0.6])
    assert (other.agrees, other.statistic) == (False, math.inf)
    # spread on one side only: Welch's t on that side's standard error alone
    # ours 0.48 ± 0.10 over 100 against an exact 0.5: t = −0.02/0.01 = −2, df = 99
    one_side = ag.mean_with_sd(0.50, 0.0, 100, runs(0.48, 0.10))
    assert one_side.statistic == pytest.approx(-2.0, rel=1e-9)
    p = 2 * float(stats.t.sf(2.0, 99))
    assert one_side.agrees is False and one_side.detail == f"t = -2.00, p = {p:.3g}"
    published_only = ag.mean_with_sd(0.48, 0.10, 100, [0.5] * 100)
    assert published_only.statistic == pytest.approx(2.0, rel=1e-9)
    assert published_only.agrees is False


def test_mean_with_sd_detail_and_level():
    inside = ag.mean_with_sd(0.50, 0.10, 100, runs(0.48, 0.10))
    p = float(stats.t.sf(math.sqrt(2), 198)) * 2  # df = 198 (equal SDs)
    assert inside.detail == f"t = -1.41, p = {p:.3g}"
    # p ≈ 0.159: agrees at α = 0.05 and 0.15, not at α = 0.16
    assert ag.mean_with_sd(0.50, 0.10, 100, runs(0.48, 0.10), alpha=0.15).agrees
    assert ag.mean_with_sd(0.50, 0.10, 100, runs(0.48, 0.10), alpha=0.16).agrees is False


def test_one_split_texts_statistic_and_level():
    ours = np.arange(40) / 40
    res = ag.one_split(0.5, ours)
    assert res.rule == ag.RULES["one_split"] == ag._SPLIT_RULE
    assert res.detail == (
        "percentile 0.512; our 95.1% prediction interval [0.0000, 0.9750] over 40 splits"
    )
    # below all, above all, equal to the largest (mid-rank)
    assert ag.one_split(-1.0, ours).statistic == 0.0
    assert ag.one_split(2.0, ours).statistic == 1.0
    assert ag.one_split(0.975, ours).statistic == pytest.approx(39.5 / 40)
    # α = 0.2 over 40 splits: k = ⌊0.2·41/2⌋ = 4, [x_(4), x_(37)] = [0.075, 0.9], 33/41
    wide = ag.one_split(0.075, ours, alpha=0.2)
    assert wide.agrees and ag.one_split(0.074, ours, alpha=0.2).agrees is False
    assert ag.one_split(0.9, ours, alpha=0.2).agrees
    assert ag.one_split(0.901, ours, alpha=0.2).agrees is False
    assert "80.5% prediction interval [0.0750, 0.9000] over 40 splits" in wide.detail
    # two splits: the smallest interval there is, [min, max], coverage 1/3
    two = ag.one_split(0.5, [0.4, 0.6])
    assert two.agrees and "33.3% prediction interval [0.4000, 0.6000] over 2 splits" in two.detail
    single = ag.one_split(0.5, [0.4])
    assert (single.statistic, single.rule, single.detail) == (
        pytest.approx(math.nan, nan_ok=True), ag._SPLIT_RULE, "one split: no interval",
    )  # fmt: skip
    assert math.isnan(single.statistic)


def test_mean_over_datasets_texts_and_interval():
    ours = np.linspace(0.70, 0.90, 21)
    low, high = ag.bootstrap_ci(ours, np.mean, 0.05, 0)
    res = ag.mean_over_datasets(0.79, ours)
    assert res.rule == ag.RULES["mean_over_datasets"] == ag._DATASETS_RULE
    assert res.detail == f"difference +0.0100, our 95% CI [{low:.4f}, {high:.4f}] over 21 data sets"
    # the interval's ends belong to it; a wider level (α = 0.5) gives a narrower interval
    assert ag.mean_over_datasets(low, ours).agrees and ag.mean_over_datasets(high, ours).agrees
    narrow = ag.bootstrap_ci(ours, np.mean, 0.5, 0)
    assert low < narrow[0] < narrow[1] < high
    assert ag.mean_over_datasets(narrow[0] - 1e-4, ours, alpha=0.5).agrees is False
    assert ag.mean_over_datasets(narrow[0] - 1e-4, ours, alpha=0.05).agrees
    # the seed is the resampling's: another seed, another (close) interval
    assert ag.bootstrap_ci(ours, np.mean, 0.05, 1) != (low, high)
    assert ag.mean_over_datasets(0.79, ours, seed=1).detail != res.detail
    one = ag.mean_over_datasets(0.8, [0.7])
    assert (one.agrees, one.statistic, one.rule, one.detail) == (
        None, pytest.approx(-0.1), ag._DATASETS_RULE, "one data set",
    )  # fmt: skip


def test_bootstrap_ci_is_scipys_percentile_interval_of_9999_resamples():
    """The documented interval: scipy's percentile bootstrap, 9999 resamples, generator seeded
    with ``seed``, level 1 − α."""
    values = np.random.default_rng(5).random(25)  # 25 distinct values: every resample counts
    for alpha, seed in ((0.05, 0), (0.2, 3)):
        ci = stats.bootstrap(
            (values,), np.mean, confidence_level=1 - alpha, n_resamples=9999,
            method="percentile", random_state=np.random.default_rng(seed),
        ).confidence_interval  # fmt: skip
        assert ag.bootstrap_ci(values, np.mean, alpha, seed) == (ci.low, ci.high)
    assert ag.bootstrap_ci(values) == ag.bootstrap_ci(values, np.mean, 0.05, 0)  # the defaults
    assert ag.bootstrap_ci([2.0, 2.0], np.sum) == (4.0, 4.0)  # constant: the statistic itself
    assert ag.bootstrap_ci([0.3]) == (0.3, 0.3)  # one value: itself (no resampling)


def test_nemenyi_needs_two_methods_and_one_data_set():
    for k, n in ((1, 10), (3, 0)):
        with pytest.raises(
            ValueError, match=rf"need k >= 2 methods and n >= 1 data sets, got k={k}, n={n}"
        ):
            nemenyi_critical_difference(k, n)
    # k = 2: q_0.05 = 1.960 (Demšar Table 5(a)), N = 1: CD = 1.960·√(2·3/6) = 1.960
    assert nemenyi_critical_difference(2, 1) == pytest.approx(1.95996, abs=1e-4)
    # α = 0.10, k = 4: q_0.10 = 2.291
    assert nemenyi_critical_difference(4, 14, alpha=0.10) == pytest.approx(
        2.291 * math.sqrt(4 * 5 / 84), abs=2e-3
    )


def test_win_count_statistic_text_bounds():
    res = ag.win_count(3, 10, 5, 12)
    assert (res.statistic, res.rule) == (2.0, ag.RULES["win_count"])
    p = stats.fisher_exact([[3, 7], [5, 7]]).pvalue
    assert res.detail.startswith(f"paper 3/10 vs ours 5/12, p = {p:.3g}; the test accepts 0–")
    assert res.agrees
    assert ag.win_count(0, 20, 20, 20).agrees is False and ag.win_count(20, 20, 20, 20).agrees
    for args, message in (((-1, 20, 0, 20), "published count -1 is not in \\[0, 20\\]"),
                          ((0, 20, 21, 20), "ours count 21 is not in \\[0, 20\\]"),
                          ((0, 20, -1, 20), "ours count -1")):  # fmt: skip
        with pytest.raises(ValueError, match=message):
            ag.win_count(*args)
    # p = 2·C(30,20)/C(40,20) ≈ 0.0004 agrees only at a level under it
    assert ag.win_count(0, 20, 10, 20, alpha=1e-4).agrees


def test_rules_name_each_test():
    assert set(ag.RULES) == {
        "mean_with_sd", "one_split", "paired_difference", "mean_over_datasets", "rank_with_se",
        "win_count", "one_split_aggregate",
    }  # fmt: skip
    assert ag.RULES["mean_with_sd"] == (
        "Welch t-test of the two means (standard errors, not SDs), two-sided, α = 0.05"
    )
    assert ag.RULES["mean_over_datasets"].startswith("data-set composition check, not counted")
    assert "paired differences" in ag.RULES["paired_difference"]
    assert "standard errors" in ag.RULES["rank_with_se"]
    assert "paper's and our data sets" in ag.RULES["win_count"]
    assert ag.ALPHA == 0.05


def test_a_p_value_equal_to_alpha_agrees():
    """The rules agree when p ≥ α: at α = p itself the published number agrees."""
    ours = runs(0.48, 0.10)
    p = stats.ttest_ind_from_stats(
        ours.mean(), ours.std(ddof=1), 100, 0.50, 0.10, 100, equal_var=False
    ).pvalue
    assert ag.mean_with_sd(0.50, 0.10, 100, ours, alpha=float(p)).agrees
    assert ag.mean_with_sd(0.50, 0.10, 100, ours, alpha=float(p) * (1 + 1e-9)).agrees is False
    p = stats.fisher_exact([[3, 7], [9, 3]]).pvalue
    assert ag.win_count(3, 10, 9, 12, alpha=float(p)).agrees
    assert ag.win_count(3, 10, 9, 12, alpha=float(p) * (1 + 1e-9)).agrees is False


def test_one_split_k_at_78_splits():
    """78 splits: k = ⌊0.05·79/2⌋ = 1 (not ⌊0.05·80/2⌋ = 2): the interval is [min, max]."""
    ours = np.arange(78, dtype=float)
    assert ag.one_split(0.0, ours).agrees and ag.one_split(77.0, ours).agrees
    assert "97.5% prediction interval [0.0000, 77.0000] over 78 splits" in (
        ag.one_split(0.0, ours).detail
    )
