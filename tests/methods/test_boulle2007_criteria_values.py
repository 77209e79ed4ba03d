"""boulle2007's selection prior, criterion (4) and model weights (§3.3, §3.4, §4.3, §6.2) on
known answers: l(M) = log(K + 1) + log C(K + K_m − 1, K_m) with the binomials counted by hand
(math.comb), P(M|D) ∝ exp(−cost) and c(M) = 1 − cost(M)/cost(M_0) evaluated in double precision
in the test. Written against the mutants that survived the mutation run of 2026-11-28
(results/mutation/2026-11-28-method-criteria.md)."""

import math

import numpy as np
import pytest

from repro.methods.boulle2007.criteria import (
    bma_model_weights,
    cma_model_weights,
    map_cost,
    selection_prior_cost,
)


def prior_by_hand(K: int, km: int) -> float:
    """l(M) of boulle2007 §3.3 with the exact integer binomial (combinations with replacement)."""
    return math.log(K + 1) + math.log(math.comb(K + km - 1, km))


# ---------------------------------------------------------------------------------------------
# The selection prior l(M) and criterion (4)
# ---------------------------------------------------------------------------------------------
def test_prior_of_a_single_variable():
    # K = 1: two equiprobable sizes (0 or 1), then C(0, 0) = C(1, 1) = 1 subset: l(M) = log 2.
    assert selection_prior_cost(1, 0) == pytest.approx(math.log(2), abs=1e-14)
    assert selection_prior_cost(1, 1) == pytest.approx(math.log(2), abs=1e-14)
    np.testing.assert_allclose(selection_prior_cost(1, np.array([0, 1])), [math.log(2)] * 2)


def test_prior_refuses_no_variable_with_its_message():
    with pytest.raises(ValueError, match="n_variables must be"):
        selection_prior_cost(0, 0)
    with pytest.raises(ValueError, match="n_selected must lie in"):
        selection_prior_cost(2, -1)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16])
def test_prior_of_small_integer_counts(dtype):
    # Counts K_m stored in a small integer type (a compact selection record) are numbers, not
    # modular integers: K + K_m − 1 = 299 for K = 200, K_m = 100 (it would wrap to 43 in uint8).
    K = 200
    km = np.array([0, 1, 100, 120], dtype=dtype)
    expected = [prior_by_hand(K, int(k)) for k in km]
    np.testing.assert_allclose(selection_prior_cost(K, km), expected, rtol=1e-13)


def test_prior_by_exact_binomials():
    # every K_m of K = 7, against log of the exact integer binomial
    K = 7
    costs = selection_prior_cost(K, np.arange(K + 1))
    np.testing.assert_allclose(costs, [prior_by_hand(K, km) for km in range(K + 1)], rtol=1e-13)
    # a distribution: C(K + K_m − 1, K_m) multisets of size K_m share 1/(K + 1), so
    # Σ_Km C(K + K_m − 1, K_m) · exp(−l(M)) = Σ_Km 1/(K + 1) = 1
    sizes = np.exp(-costs) * np.array([math.comb(K + km - 1, km) for km in range(K + 1)])
    assert sizes.sum() == pytest.approx(1.0, abs=1e-13)


def test_map_cost_adds_the_prior_to_the_data_cost():
    # criterion (4): log(K + 1) + log C(K + K_m − 1, K_m) + nll; K = 4, K_m = 2: log 5 + log 10
    assert map_cost(3.25, 4, 2) == pytest.approx(math.log(50) + 3.25, abs=1e-13)
    assert isinstance(map_cost(np.float32(1.5), 4, 0), float)


# ---------------------------------------------------------------------------------------------
# BMA weights exp(cost_min − cost_m) and CMA coefficients 1 − cost/cost(M_0)
# ---------------------------------------------------------------------------------------------
def test_bma_weights_are_computed_in_double_precision():
    # costs exactly representable in float32; the weights exp(−Δ) in float64 (exp(−1) in float32
    # is off by about 1e-8 relative)
    cost = np.array([3.0, 4.0, 5.5], dtype=np.float32)
    expected = np.exp(-np.array([0.0, 1.0, 2.5]))
    w = bma_model_weights(cost)
    assert w.dtype == np.float64
    np.testing.assert_allclose(w, expected, rtol=1e-15)


def test_bma_weights_of_integer_costs():
    # unsigned integer costs: exp(min − cost) must not wrap around (1 − 3 is −2, not 254)
    w = bma_model_weights(np.array([3, 1, 2], dtype=np.uint8))
    np.testing.assert_allclose(w, np.exp([-2.0, 0.0, -1.0]), rtol=1e-15)


def test_bma_keep_is_read_as_truth_values():
    # a 0/1 (or any non-zero) keep vector is a mask, not a list of indices
    cost = np.array([10.0, 11.0, 12.0, 25.0])
    expected = [1.0, 0.0, math.exp(-2.0), math.exp(-15.0)]
    np.testing.assert_allclose(bma_model_weights(cost, np.array([1, 0, 1, 1])), expected)
    np.testing.assert_allclose(bma_model_weights(cost, np.array([1.0, 0.0, 2.0, 1.0])), expected)
    # the best kept model has weight 1 even when a dropped one is cheaper
    np.testing.assert_allclose(
        bma_model_weights(cost, np.array([0, 1, 1, 0])), [0.0, 1.0, math.exp(-1.0), 0.0]
    )
    np.testing.assert_array_equal(bma_model_weights(cost, np.zeros(4)), np.zeros(4))


def test_cma_coefficients_are_computed_in_double_precision():
    # c = 1 − cost/cost(M_0) = 1 − 1/7, 1 − 3/7 in float64, whatever the dtype of the costs
    cost = np.array([1.0, 3.0, 7.0, 9.0], dtype=np.float32)
    c = cma_model_weights(cost, 7.0)
    assert c.dtype == np.float64
    np.testing.assert_allclose(c, [6 / 7, 4 / 7, 0.0, 0.0], rtol=1e-15)


def test_cma_keep_is_read_as_truth_values():
    cost = np.array([10.0, 11.0, 12.0, 25.0])
    # c = 1 − cost/20 = .5, .45, .4, −.25 → 0 (a model worse than the null model is ignored)
    expected = [0.5, 0.0, 0.4, 0.0]
    np.testing.assert_allclose(
        cma_model_weights(cost, 20.0, np.array([1.0, 0.0, 1.0, 1.0])), expected
    )
    np.testing.assert_allclose(cma_model_weights(cost, 20.0, np.array([2, 0, 1, 1])), expected)
    np.testing.assert_array_equal(cma_model_weights(cost, 20.0, np.zeros(4, bool)), np.zeros(4))
