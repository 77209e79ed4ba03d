"""The agreement rules that replaced rules which could not fail (repro.stats.agreement): the
paired difference of means, one method's rank on standard errors, W/L over the paper's own
denominator with the accepted range, and the aggregate test of one-split values. Each on
hand-computed cases inside and outside."""

import math

import numpy as np
import pytest

from repro.stats import agreement as ag
from repro.stats.posthoc import nemenyi_critical_difference


def test_paired_difference_cancels_the_offset_of_other_data_sets():
    # Our sets are easier than the paper's: every method +0.03 (the composition offset), and the
    # method trails the reference by exactly 0.02 on every set, as in the paper (0.80 − 0.78).
    ref = np.array([0.83, 0.88, 0.93, 0.78, 0.73])  # mean 0.83 (paper's 0.80)
    method = ref - 0.02  # mean 0.81 (paper's 0.78)
    paired = ag.paired_difference(0.78, 0.80, method, ref)
    # constant differences: the bootstrap interval is the point 0.02 itself
    assert paired.agrees and paired.statistic == pytest.approx(0.0)
    assert (paired.low, paired.high) == pytest.approx((0.78, 0.78))
    # the absolute mean: the spread over sets is wide (0.71–0.91), our interval [0.75, 0.87]
    # holds 0.78, so the composition check cannot see the 0.03 offset at all
    assert ag.mean_over_datasets(0.78, method).agrees
    # a paper difference of 0.021 against our constant 0.02: outside (the rule can fail at .001)
    assert ag.paired_difference(0.779, 0.80, method, ref).agrees is False


def test_paired_difference_interval_by_hand():
    ref = np.array([0.9, 0.8])
    method = np.array([0.8, 0.8])  # differences 0.1 and 0.0
    # the bootstrap means of two values take {0, 0.05, 0.1}: the 95% interval is [0, 0.1]
    inside = ag.paired_difference(0.75, 0.85, method, ref)  # paper 0.10: the interval's end
    assert inside.agrees and inside.detail == (
        "reference − this: paper +0.1000, ours +0.0500, 95% CI [+0.0000, +0.1000] over 2 paired "
        "data sets"
    )
    assert (inside.low, inside.high) == pytest.approx((0.75, 0.85))
    assert ag.paired_difference(0.74, 0.85, method, ref).agrees is False  # paper 0.11
    assert ag.paired_difference(0.86, 0.85, method, ref).agrees is False  # paper −0.01
    # pairs with a missing value are left out; one pair left: no interval
    one = ag.paired_difference(0.75, 0.85, [0.8, np.nan], [0.9, 0.8])
    assert one.agrees is None and one.detail == "one data set"
    with pytest.raises(ValueError, match="paired"):
        ag.paired_difference(0.75, 0.85, [0.8], [0.9, 0.8])


def test_rank_with_se_is_a_two_sample_test_on_standard_errors():
    ranks = np.array([1, 2, 3, 2, 2, 1, 3, 2.0])  # mean 2, SD √(4/7) = 0.7559
    se = math.sqrt(4 / 7) * math.sqrt(1 / 8 + 1 / 30)  # paper over 30 sets: 0.30079
    outside = ag.rank_with_se(2.9, ranks, 30)
    assert outside.statistic == pytest.approx(-0.9 / se)  # z = −2.99, p = 0.0028
    assert outside.agrees is False
    # the Nemenyi critical difference for 7 methods over 30 sets, 1.64, would have accepted it
    assert abs(2.9 - 2.0) < nemenyi_critical_difference(7, 30)
    inside = ag.rank_with_se(2.5, ranks, 30)  # z = −1.66, p = 0.097
    assert inside.agrees and inside.statistic == pytest.approx(-0.5 / se)
    # the accepted interval: 2 ± 1.95996·SE
    assert (inside.low, inside.high) == pytest.approx((2 - 1.959964 * se, 2 + 1.959964 * se))
    # without the paper's count, ours on both sides: SE = 0.7559·√(2/8) = 0.378
    assert ag.rank_with_se(2.5, ranks).statistic == pytest.approx(-0.5 / (math.sqrt(4 / 7) / 2))
    assert ag.rank_with_se(2.0, [2.0, 2.0]).agrees  # no spread: equal or not
    assert ag.rank_with_se(2.1, [2.0, 2.0]).agrees is False
    assert ag.rank_with_se(2.0, [2.0]).agrees is None


def test_win_count_over_the_papers_denominator_prints_the_accepted_range():
    # the paper's 10 of 30 against our counts over 25 sets: Fisher accepts 3 to 15
    assert ag.accepted_counts(10, 30, 25) == list(range(3, 16))
    res = ag.win_count(10, 30, 9, 25)
    assert res.agrees and res.detail.endswith("the test accepts 3–15 of 25")
    assert ag.win_count(10, 30, 2, 25).agrees is False
    assert ag.win_count(10, 30, 16, 25).agrees is False
    # 0 of 20: k = 4 gives p = 2·C(20,4)/C(40,4) = 0.106, k = 5 gives 2·C(20,5)/C(40,5) = 0.047
    assert ag.accepted_counts(0, 20, 20) == [0, 1, 2, 3, 4]
    assert 2 * math.comb(20, 4) / math.comb(40, 4) > 0.05 > 2 * math.comb(20, 5) / math.comb(40, 5)


def test_one_split_aggregate_sees_a_shift_no_cell_sees():
    ours = [np.arange(10.0)] * 8  # each cell: 0, 1, ..., 9; median 4.5
    # every published value at 8.5, inside each cell's [min, max]: each cell agrees alone
    assert all(ag.one_split(8.5, o).agrees for o in ours)
    shifted = ag.one_split_aggregate([8.5] * 8, ours)
    # 8 of 8 above the median: sign test p = 2·(1/2)^8 = 0.0078; 9 of 10 of ours below 8.5:
    # every percentile 0.9, KS D = 0.9
    assert shifted.agrees is False and shifted.statistic == pytest.approx(0.9)
    assert shifted.detail.startswith(
        "8 of 8 published values above our median, 0 below (sign test p = 0.0078)"
    )
    # published values j + 0.5, j = 0..9: percentiles 0.1, 0.2, ..., 1.0, KS D = 0.1; 5 above
    # the median 4.5, 4 below, one equal to it (neither): sign test p = 1
    spread = ag.one_split_aggregate(np.arange(10) + 0.5, [np.arange(10.0)] * 10)
    assert spread.agrees and spread.statistic == pytest.approx(0.1)
    assert spread.detail.startswith("5 of 10 published values above our median, 4 below")
    assert ag.one_split_aggregate([1.0], [np.arange(3.0)]).agrees is None
    with pytest.raises(ValueError, match="2 published values for 1 cells"):
        ag.one_split_aggregate([1.0, 2.0], [np.arange(3.0)])
