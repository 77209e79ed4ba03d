"""Metrics against the oracle values of SPEC §5.1."""

import numpy as np
import pytest

from repro.evaluation import metrics

Y = np.array([0, 0, 1, 1, 2, 2, 2, 0, 1, 2])
P = np.array(
    [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.2, .3, .5], [.1, .2, .7], [.3, .3, .4],
     [.2, .2, .6], [.5, .1, .4], [.3, .3, .4], [.25, .25, .5]]
)  # fmt: skip
PRIOR = np.array([0.3, 0.3, 0.4])


def test_auc_provost_domingos_oracle():
    assert metrics.auc(Y, P) == pytest.approx(0.915476190, abs=1e-9)


def test_ilf_compression_logsum_oracle():
    assert metrics.ilf(Y, P) == pytest.approx(0.754414413, abs=1e-9)
    assert metrics.ilf(Y, np.tile(PRIOR, (10, 1))) == pytest.approx(1.088899975, abs=1e-9)
    assert metrics.compression_rate(Y, P, PRIOR) == pytest.approx(0.307177491, abs=1e-9)
    assert metrics.log_sum(Y, P) == pytest.approx(-7.544144, abs=1e-6)


def test_accuracy_error_ber_by_hand():
    # argmax: 0,0(tie->first),1,2,2,2,2,0,2,2 -> correct: 1,1,1,0,1,1,1,1,0,1 = 8/10
    m = metrics.predictive_metrics(Y, P, PRIOR)
    assert m["accuracy"] == pytest.approx(0.8)
    assert m["error"] == pytest.approx(0.2)
    # recalls: class0 3/3, class1 1/3, class2 4/4 -> BER = (0 + 2/3 + 0)/3
    assert m["balanced_error_rate"] == pytest.approx(2 / 9)


def test_auc_binary_and_absent_class():
    y = np.array([0, 1, 1, 0])
    p = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
    # pairs (pos, neg): (.8,.1) (.8,.7) (.4,.1) (.4,.7) -> 3/4
    assert metrics.auc(y, p) == pytest.approx(0.75)
    # class 2 absent from the test part: weighted mean over present classes only
    p3 = np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.5, 0.4, 0.1], [0.3, 0.6, 0.1]])
    expected = 0.5 * 0.75 + 0.5 * 0.75  # AUC(0 vs rest) = 3/4, AUC(1 vs rest) = 3/4
    assert metrics.auc(y, p3) == pytest.approx(expected)


def test_perfect_and_null_model_compression():
    y = np.array([0, 1, 0, 1])
    perfect = np.eye(2)[y]
    assert metrics.compression_rate(y, perfect, [0.5, 0.5]) == pytest.approx(1.0, abs=1e-12)
    null = np.full((4, 2), 0.5)
    assert metrics.compression_rate(y, null, [0.5, 0.5]) == pytest.approx(0.0)
    # a confident wrong model compresses worse than the null model: CR < 0, finite
    wrong = np.eye(2)[1 - y]
    cr = metrics.compression_rate(y, wrong, [0.5, 0.5])
    assert np.isfinite(cr) and cr < 0


def test_auc_absent_class_keeps_the_unequal_class_frequencies():
    """Class 3 absent from the fold, the three others at frequencies 3/6, 2/6, 1/6: the AUC is
    Σ_j P(c_j)·AUC(c_j vs rest) with those frequencies, not the plain mean of the three AUCs."""
    y = np.array([0, 0, 0, 1, 1, 2])
    p = np.array(
        [[.6, .2, .1, .1], [.5, .1, .3, .1], [.2, .3, .4, .1], [.3, .22, .38, .1],
         [.1, .5, .3, .1], [.4, .25, .25, .1]]
    )  # fmt: skip
    # class 0 (rows 0-2: .6 .5 .2) vs rest (.3 .1 .4): 3 + 3 + 1 of 9 pairs won -> 7/9
    # class 1 (rows 3-4: .22 .5) vs rest (.2 .1 .3 .25): 2 + 4 of 8 -> 3/4
    # class 2 (row 5: .25) vs rest (.1 .3 .4 .38 .3): 1 of 5 -> 1/5
    expected = 3 / 6 * 7 / 9 + 2 / 6 * 3 / 4 + 1 / 6 * 1 / 5  # = 121/180
    assert expected == pytest.approx(121 / 180)
    assert metrics.auc(y, p) == pytest.approx(121 / 180, abs=1e-12)
    assert metrics.auc(y, p) != pytest.approx((7 / 9 + 3 / 4 + 1 / 5) / 3, abs=1e-3)


def test_auc_with_one_class_present_is_nan():
    y = np.array([1, 1, 1])
    assert np.isnan(metrics.auc(y, np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])))
    assert np.isnan(metrics.auc(y, np.full((3, 3), 1 / 3)))


def test_predictive_metrics_names_each_criterion_by_its_value():
    """The nine criteria of a split under their record names, each the value of its own
    function (the oracle values above; Brier and ECE by hand below)."""
    m = metrics.predictive_metrics(Y, P, PRIOR)
    assert list(m) == list(metrics.PREDICTIVE_METRICS)
    assert m["auc"] == pytest.approx(0.915476190, abs=1e-9)
    assert m["ilf"] == pytest.approx(0.754414413, abs=1e-9)
    assert m["compression_rate"] == pytest.approx(0.307177491, abs=1e-9)
    assert m["log_sum"] == pytest.approx(-7.544144, abs=1e-6)
    # Brier, row by row: .14 .56 .38 .78 .14 .54 .24 .42 .74 .375 → 4.315 / 10
    assert m["brier"] == pytest.approx(0.4315, abs=1e-12)
    # ECE: the confidences .7 (2 rows, both right), .4 (3, two right), .5 (4, three right) and
    # .6 (1, right) fall in four bins of 1/15: (2·.3 + 3·(2/3 − .4) + 4·.25 + 1·.4) / 10 = .28
    assert m["ece"] == pytest.approx(0.28, abs=1e-12)
    assert set(metrics.ADDED_METRICS) <= set(m)


def test_brier_score_by_hand():
    from repro.evaluation.metrics import brier_score

    proba = np.array([[0.8, 0.2], [0.4, 0.6], [1.0, 0.0]])
    y = np.array([0, 0, 1])
    # (0.04 + 0.04) + (0.36 + 0.36) + (1 + 1) = 2.8, over 3 rows
    assert brier_score(y, proba) == pytest.approx(2.8 / 3)
    three = np.array([[0.5, 0.3, 0.2]])
    assert brier_score(np.array([2]), three) == pytest.approx(0.25 + 0.09 + 0.64)


def test_expected_calibration_error_by_hand():
    from repro.evaluation.metrics import expected_calibration_error, reliability_table

    # confidences 0.9, 0.9, 0.6, 0.55 with 4 bins: ]0.75, 1] holds two (both right: |1 − 0.9|),
    # ]0.5, 0.75] two (one right: |0.5 − 0.575|) → ECE = (2·0.1 + 2·0.075)/4 = 0.0875
    proba = np.array([[0.9, 0.1], [0.1, 0.9], [0.6, 0.4], [0.45, 0.55]])
    y = np.array([0, 1, 1, 1])
    count, confidence, accuracy = reliability_table(y, proba, n_bins=4)
    np.testing.assert_allclose(count, [2, 2])
    np.testing.assert_allclose(confidence, [0.575, 0.9])
    np.testing.assert_allclose(accuracy, [0.5, 1.0])
    assert expected_calibration_error(y, proba, n_bins=4) == pytest.approx(0.0875)
    assert expected_calibration_error(np.array([0, 1]), np.eye(2)) == 0.0  # certain and right


def test_ber_of_a_fold_missing_a_predicted_class_is_quiet_and_counts_the_classes_present():
    """y has classes 0 and 1, one row predicted as class 2: recalls 1/2 and 1, BER 1/4, and no
    scikit-learn warning per fold (200 of them in a wu2015 run)."""
    import warnings

    from repro.evaluation.metrics import balanced_error_rate

    y = np.array([0, 0, 1, 1])
    proba = np.eye(3)[[0, 2, 1, 1]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert balanced_error_rate(y, proba) == 0.25
