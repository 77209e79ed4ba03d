"""evidence.equivalence: a ROPE on the 90% t interval of the mean paired difference (TOST at 5%),
on hand-computed cases inside, outside and across the margin."""

import numpy as np
import pytest

from repro.report.claims.evidence import equivalence


def test_inside_margin_holds_with_the_hand_computed_interval():
    # mean 0.0003, sd 0.0011547, n 4: se 0.00057735, t(0.95, 3) = 2.35336, half 0.0013587:
    # 90% CI [-0.001059, +0.001659], inside ±0.01
    d = [0.0013, -0.0007, 0.0013, -0.0007]
    verdict, text = equivalence(d, 0.01)
    assert verdict == "holds"
    assert "[-0.001059, +0.001659]" in text and "equivalent" in text


def test_the_margin_decides_at_the_interval_end():
    # the same interval: upper end +0.001659, so a margin of 0.00166 holds and 0.00165 does not
    d = [0.0013, -0.0007, 0.0013, -0.0007]
    assert equivalence(d, 0.00166)[0] == "holds"
    verdict, text = equivalence(d, 0.00165)
    assert verdict == "does not hold" and "crosses the margin" in text


def test_outside_margin_does_not_hold():
    # mean 0.05, sd 0.000816: CI [0.04904, 0.05096], wholly above 0.01
    verdict, text = equivalence([0.049, 0.051, 0.05, 0.05], 0.01)
    assert verdict == "does not hold" and "different" in text


def test_interval_across_the_margin_is_not_equivalence():
    # mean 0.01, sd 0.011547: CI 0.01 ± 2.35336 * 0.0057735 = [-0.003587, +0.02359]
    verdict, text = equivalence([0.0, 0.02, 0.0, 0.02], 0.01)
    assert verdict == "does not hold"
    assert "[-0.003587, +0.02359]" in text


def test_significant_but_tiny_difference_is_equivalent():
    # the hue2024 case: criterion ratios .902 / .902 / .903, differences of 0.03% over 29 sets,
    # significant by a t-test yet well inside ±1%
    d = np.full(29, 0.0003) + np.linspace(-1e-4, 1e-4, 29)
    assert equivalence(d, 0.01)[0] == "holds"


def test_bad_input_names_what_is_wrong():
    with pytest.raises(ValueError, match="≥ 2 differences"):
        equivalence([0.1], 0.01)
    with pytest.raises(ValueError, match="margin"):
        equivalence([0.1, 0.2], 0)


def test_equivalence_ci_is_equivalence_from_the_mean_and_its_se():
    # the first case above from its mean 0.0003, se 0.00057735 and 3 degrees of freedom
    from repro.report.claims.evidence import equivalence_ci

    d = [0.0013, -0.0007, 0.0013, -0.0007]
    se = float(np.std(d, ddof=1) / np.sqrt(4))
    verdict, text = equivalence_ci(float(np.mean(d)), se, 3, 0.01, over="over 4 data sets")
    assert (verdict, text) == equivalence(d, 0.01)
    with pytest.raises(ValueError, match="margin"):
        equivalence_ci(0.0, 0.1, 3, -1.0)
