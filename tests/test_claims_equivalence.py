import numpy as np
import pytest

from repro.report.claims.evidence import equivalence


def test_inside_margin_holds():
    # mean 0.0003, sd 0.001, n 4: 90% CI 0.0003 ± 2.353*0.0005 = [-0.00088, 0.00148] ⊂ ±0.01
    d = [0.0013, -0.0007, 0.0013, -0.0007]
    assert np.isclose(np.std(d, ddof=1), 0.0011547, atol=1e-6)
    assert equivalence(d, 0.01)[0] == "holds"


def test_outside_margin_does_not_hold():
    # mean 0.05, tiny spread: CI wholly above 0.01
    assert equivalence([0.049, 0.051, 0.05, 0.05], 0.01)[0] == "does not hold"


def test_straddling_margin_is_partly():
    # mean 0.01, sd 0.01: CI [−0.0018, 0.0218] crosses +0.01
    assert equivalence([0.0, 0.02, 0.0, 0.02], 0.01)[0] == "partly"


def test_significant_but_tiny_difference_is_equivalent():
    # the hue2024 case: ratios .902/.902/.903 — differences of 0.03% over 29 sets
    d = np.full(29, 0.0003) + np.linspace(-1e-4, 1e-4, 29)
    assert equivalence(d, 0.01)[0] == "holds"


def test_bad_input():
    with pytest.raises(ValueError):
        equivalence([0.1], 0.01)
    with pytest.raises(ValueError):
        equivalence([0.1, 0.2], 0)
