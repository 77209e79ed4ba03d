"""The shared criteria of repro.methods.core.criteria on known answers: softmax and log-sum-exp
by hand, the negative log-likelihood as a sum of −log q[n, y_n], and the multi-class AUC of
Provost & Domingos (boulle2007 §5.2) against a brute-force oracle written here (every
positive/negative pair compared, ties one half). Written against the mutants that survived the
mutation run of 2026-11-28 (results/mutation/2026-11-28-method-criteria.md)."""

import math
import warnings

import numpy as np
import pytest

from repro.methods.core.criteria import (
    multiclass_auc,
    rank_auc,
    softmax_nll,
    softmax_row,
    training_auc,
)


def pair_auc(values, positive) -> float:
    """AUC by counting pairs: P(value of a positive > value of a negative), ties one half."""
    pos = [v for v, p in zip(values, positive) if p]
    neg = [v for v, p in zip(values, positive) if not p]
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    return wins / (len(pos) * len(neg))


def softmax_by_hand(S) -> np.ndarray:
    S = np.asarray(S, dtype=float)
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def provost_domingos(y, S) -> float:
    """Σ_j P(c_j)·AUC(c_j vs rest) over the classes present and not alone (two classes: the AUC
    of class 1), on the softmax probabilities, by pair counting."""
    y = np.asarray(y)
    P = softmax_by_hand(S)
    J = P.shape[1]
    if J == 2:
        return pair_auc(P[:, 1], y == 1)
    total = weight = 0.0
    for j in range(J):
        n_j = int((y == j).sum())
        if 0 < n_j < y.size:
            total += n_j * pair_auc(P[:, j], y == j)
            weight += n_j
    return total / weight


# ---------------------------------------------------------------------------------------------
# softmax_row, softmax_nll
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "row, probabilities",
    [
        # the maximum in the middle, at the end, at the start, and tied
        ([0.0, math.log(6.0), math.log(3.0)], [0.1, 0.6, 0.3]),
        ([0.0, math.log(3.0), math.log(6.0)], [0.1, 0.3, 0.6]),
        ([math.log(6.0), math.log(3.0), 0.0], [0.6, 0.3, 0.1]),
        ([math.log(3.0), math.log(3.0), math.log(4.0)], [0.3, 0.3, 0.4]),
    ],
)
def test_softmax_row_by_hand(row, probabilities):
    # log Σ_j exp S_j = log 10 for every row above (1 + 6 + 3, 3 + 3 + 4)
    S = np.array([[7.0, 7.0, 7.0], row, [-1.0, -1.0, -1.0]])
    q = np.full_like(S, -5.0)
    assert softmax_row(S, q, 1) == pytest.approx(math.log(10.0), abs=1e-14)
    np.testing.assert_allclose(q[1], probabilities, rtol=1e-14)
    # only row n is written
    np.testing.assert_array_equal(q[[0, 2]], -5.0)


def test_softmax_row_is_shifted_by_the_maximum():
    # exp(800) overflows: the row must be shifted by its maximum, wherever it is.
    # log(e^800 + e^801) = 801 + log(1 + 1/e); probabilities 1/(1 + e), e/(1 + e)
    e = math.e
    for S, probabilities in (
        ([800.0, 801.0], [1 / (1 + e), e / (1 + e)]),
        ([801.0, 800.0], [e / (1 + e), 1 / (1 + e)]),
    ):
        S = np.array([S])
        q = np.empty_like(S)
        assert softmax_row(S, q, 0) == pytest.approx(801.0 + math.log1p(1 / e), rel=1e-15)
        np.testing.assert_allclose(q[0], probabilities, rtol=1e-14)
    # and very negative rows do not underflow to 0/0: (1, 1/e, e^-100) / z
    S = np.array([[-900.0, -901.0, -1000.0]])
    q = np.empty_like(S)
    z = 1.0 + math.exp(-1.0) + math.exp(-100.0)
    assert softmax_row(S, q, 0) == pytest.approx(-900.0 + math.log(z), rel=1e-15)
    np.testing.assert_allclose(
        q[0], np.array([1.0, math.exp(-1.0), math.exp(-100.0)]) / z, rtol=1e-14
    )


@pytest.mark.parametrize("where", [0, 1, 2])
def test_softmax_row_finds_the_maximum_in_every_column(where):
    # one score 800 above the others: exp(800) overflows unless the shift is that score;
    # q = one-hot (e^-800 underflows to 0), log Σ = 800 (+ log(1 + 2e^-800) = 800 in doubles)
    S = np.zeros((1, 3))
    S[0, where] = 800.0
    q = np.empty_like(S)
    assert softmax_row(S, q, 0) == 800.0
    np.testing.assert_array_equal(q[0], np.eye(3)[where])


def test_softmax_row_of_one_class():
    # J = 1: q = 1, log Σ = the score itself
    S = np.array([[2.5], [-4.0]])
    q = np.zeros_like(S)
    assert softmax_row(S, q, 1) == -4.0
    assert q[1, 0] == 1.0


def test_softmax_nll_by_hand():
    # rows: probabilities (.1, .6, .3), (.3, .3, .4), (.6, .3, .1), shifted by large constants;
    # labels 1, 2, 2: nll = −log .6 − log .4 − log .1
    S = np.array(
        [
            [0.0, math.log(6.0), math.log(3.0)],
            [500.0 + math.log(3.0), 500.0 + math.log(3.0), 500.0 + math.log(4.0)],
            [math.log(6.0) - 700.0, math.log(3.0) - 700.0, -700.0],
        ]
    )
    q = np.empty_like(S)
    nll = softmax_nll(S, q, np.array([1, 2, 2]))
    expected = -math.log(0.6) - math.log(0.4) - math.log(0.1)
    assert nll == pytest.approx(expected, rel=1e-13)
    np.testing.assert_allclose(q, [[0.1, 0.6, 0.3], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]], rtol=1e-13)


def test_softmax_nll_of_no_row_is_zero():
    S = np.empty((0, 3))
    assert softmax_nll(S, np.empty_like(S), np.empty(0, dtype=np.int64)) == 0.0


# ---------------------------------------------------------------------------------------------
# rank_auc: Mann–Whitney with ties one half
# ---------------------------------------------------------------------------------------------
def test_rank_auc_by_hand():
    # positives 3, 5; negatives 1, 4: pairs (3>1), (3<4), (5>1), (5>4): 3 of 4
    values = np.array([3.0, 1.0, 5.0, 4.0])
    positive = np.array([True, False, True, False])
    assert rank_auc(values, positive, 2) == 0.75
    assert rank_auc(values, ~positive, 2) == 0.25
    # perfect separation and its reverse
    assert rank_auc(np.array([1.0, 2.0, 3.0]), np.array([False, True, True]), 2) == 1.0
    assert rank_auc(np.array([1.0, 2.0, 3.0]), np.array([True, False, False]), 1) == 0.0


@pytest.mark.parametrize(
    "values, positive",
    [
        # ties at the start, in the middle, at the end, all tied
        ([1, 1, 2, 3, 3, 3], [1, 0, 1, 0, 1, 1]),
        ([0, 2, 2, 2, 5, 7], [0, 1, 0, 1, 1, 0]),
        ([4, 1, 4, 1, 9, 9], [1, 0, 0, 1, 1, 0]),
        ([2, 2, 2, 2], [1, 0, 0, 1]),
        ([3, 1, 2], [1, 0, 0]),
    ],
)
def test_rank_auc_with_ties_equals_pair_counting(values, positive):
    values = np.array(values, dtype=float)
    positive = np.array(positive, dtype=bool)
    expected = pair_auc(values, positive)
    assert rank_auc(values, positive, int(positive.sum())) == pytest.approx(expected, abs=1e-15)


def test_rank_auc_random_ties_equal_pair_counting():
    rng = np.random.default_rng(7)
    for n in (2, 3, 5, 11, 40):
        values = rng.integers(0, 4, n).astype(float)
        positive = np.zeros(n, dtype=bool)
        positive[rng.permutation(n)[: rng.integers(1, n)]] = True
        got = rank_auc(values, positive, int(positive.sum()))
        assert got == pytest.approx(pair_auc(values, positive), abs=1e-14)


# ---------------------------------------------------------------------------------------------
# multiclass_auc, training_auc: Provost & Domingos on the softmax probabilities
# ---------------------------------------------------------------------------------------------
def test_two_classes_by_hand():
    # log-odds of class 1: −1, 2, 0, 3 → P(class 1) ordered the same; y = 0, 1, 1, 0:
    # positives 2, 0 vs negatives −1, 3: (2>−1), (2<3), (0>−1), (0<3) → 1/2
    S = np.array([[0.0, -1.0], [0.0, 2.0], [0.0, 0.0], [0.0, 3.0]])
    y = np.array([0, 1, 1, 0])
    assert training_auc(y, S) == 0.5
    # the AUC of class 1, not of class 0 (y = 1, 0, 0, 1: the complementary pairs)
    assert training_auc(1 - y, S) == 0.5
    assert training_auc(np.array([0, 1, 0, 1]), S) == 1.0
    assert training_auc(np.array([1, 0, 1, 0]), S) == 0.0


def test_two_classes_with_one_row_of_a_class():
    # log-odds of class 1: 0, 1, 2 (increasing P(class 1)); a single row of class 0 or of class 1
    S = np.array([[0.0, 0.0], [0.0, 1.0], [0.0, 2.0]])
    # y = 0, 1, 1: the negative (0) below both positives (1, 2): AUC 1
    assert training_auc(np.array([0, 1, 1]), S) == 1.0
    # y = 1, 0, 0: the positive (0) below both negatives: AUC 0
    assert training_auc(np.array([1, 0, 0]), S) == 0.0
    # y = 1, 0, 1: positives 0, 2 vs negative 1: 1/2
    assert training_auc(np.array([1, 0, 1]), S) == 0.5


def test_two_classes_with_a_class_absent_is_nan():
    # AUC undefined (no pair): NaN, returned without dividing 0 by 0 (no RuntimeWarning, and no
    # ZeroDivisionError in the compiled kernel)
    S = np.array([[0.0, 1.0], [0.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(training_auc(np.array([0, 0]), S))
        assert math.isnan(training_auc(np.array([1, 1]), S))


def test_three_classes_by_hand():
    # probabilities (rows): class of each row y = 0, 0, 1, 2
    P = np.array(
        [
            [0.5, 0.25, 0.25],
            [0.25, 0.5, 0.25],
            [0.25, 0.25, 0.5],
            [0.5, 0.25, 0.25],
        ]
    )
    y = np.array([0, 0, 1, 2])
    # class 0 (weight 2): positives .5, .25 vs negatives .25, .5 → (1 + .5 + .5 + 0)/4 = .5
    # class 1 (weight 1): positive .25 vs .25, .5, .25 → (.5 + 0 + .5)/3 = 1/3
    # class 2 (weight 1): positive .25 vs .25, .25, .5 → (.5 + .5 + 0)/3 = 1/3
    expected = (2 * 0.5 + 1 / 3 + 1 / 3) / 4
    assert training_auc(y, np.log(P)) == pytest.approx(expected, abs=1e-15)
    assert training_auc(y, np.log(P) + 40.0) == pytest.approx(expected, abs=1e-15)


def test_three_classes_weights_only_the_classes_present():
    # class 1 never occurs: Σ over classes 0 and 2 with weights 2/4, 2/4
    S = np.log(np.array([[0.6, 0.1, 0.3], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4], [0.1, 0.5, 0.4]]))
    y = np.array([0, 2, 0, 2])
    # class 0: positives .6, .3 vs .2, .1 → 1; class 2: positives .6, .4 vs .3, .4 → (1+1+1+.5)/4
    expected = 0.5 * 1.0 + 0.5 * 0.875
    assert training_auc(y, S) == pytest.approx(expected, abs=1e-15)
    assert training_auc(y, S) == pytest.approx(provost_domingos(y, S), abs=1e-15)


def test_three_classes_one_class_only_is_nan():
    # no class has both positives and negatives: no pair, NaN without a division by zero
    S = np.zeros((3, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(training_auc(np.array([2, 2, 2]), S))
        assert math.isnan(training_auc(np.array([0, 0, 0]), S))


def test_scores_are_normalised_per_row_before_ranking():
    # unnormalised log-scores: the raw column 0 ranks row 1 above row 0 (5 > 1), its softmax
    # probability does not (e^5/(e^5 + 2e^6) < e/(e + 2)): AUC(class 0) is 1 on the
    # probabilities (0 on the raw scores)
    S = np.array([[1.0, 0.0, 0.0], [5.0, 6.0, 6.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0]])
    y = np.array([0, 1, 1, 2])
    expected = provost_domingos(y, S)
    assert training_auc(y, S) == pytest.approx(expected, abs=1e-15)
    P = softmax_by_hand(S)
    assert P[0, 0] > P[1, 0] and S[0, 0] < S[1, 0]


@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_training_auc_equals_pair_counting(n_classes):
    rng = np.random.default_rng(10 + n_classes)
    n = 30
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)  # every class present
    # a small grid of scores: many rows tie exactly
    S = rng.integers(-2, 3, (n, n_classes)).astype(float)
    assert training_auc(y, S) == pytest.approx(provost_domingos(y, S), abs=1e-13)


def test_training_auc_accepts_lists_and_non_contiguous_arrays():
    S = np.array([[0.0, -1.0, 0.5], [0.0, 2.0, 0.1], [1.0, 0.0, 0.0], [0.0, 3.0, 1.0]])
    y = [0, 1, 2, 0]
    expected = provost_domingos(y, S)
    assert training_auc(y, S.tolist()) == pytest.approx(expected, abs=1e-15)
    assert training_auc(np.array(y), np.asfortranarray(S)) == pytest.approx(expected, abs=1e-15)
    wide = np.zeros((4, 6))
    wide[:, ::2] = S
    assert training_auc(np.array(y), wide[:, ::2]) == pytest.approx(expected, abs=1e-15)
    assert isinstance(training_auc(np.array(y), S), float)


@pytest.mark.parametrize("dtype, tiny", [(np.float32, 2.0**-30), (np.float16, 2.0**-14)])
def test_low_precision_scores_are_ranked_in_double_precision(dtype, tiny):
    # row 0: log-odds 1 − tiny, row 1: log-odds 1 (both scores exact in the low precision, their
    # difference is not: it rounds to 1). In double precision P(class 1) of row 0 < row 1, so
    # y = 1, 0 gives AUC 0 and y = 0, 1 gives 1 (a tie, 1/2, if the softmax ran in low precision)
    S = np.array([[tiny, 1.0], [0.0, 1.0]], dtype=dtype)
    assert float(S[0, 0]) == tiny
    assert training_auc(np.array([1, 0]), S) == 0.0
    assert training_auc(np.array([0, 1]), S) == 1.0


def test_labels_of_any_integer_like_dtype():
    # 0/1 labels given as booleans or floats are the classes 0 and 1 (AUC of class 1 as above)
    S = np.array([[0.0, 0.0], [0.0, 1.0], [0.0, 2.0]])
    assert training_auc(np.array([False, True, True]), S) == 1.0
    assert training_auc(np.array([True, False, True]), S) == 0.5
    assert training_auc(np.array([1.0, 0.0, 1.0]), S) == 0.5
    S3 = np.log(np.array([[0.6, 0.1, 0.3], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4], [0.1, 0.5, 0.4]]))
    assert training_auc(np.array([0.0, 2.0, 0.0, 2.0]), S3) == pytest.approx(0.9375, abs=1e-15)


def test_multiclass_auc_is_training_auc():
    # the compiled kernel on int64 labels and a C-contiguous float matrix gives the same number
    S = np.array([[0.0, -1.0, 0.5], [0.0, 2.0, 0.1], [1.0, 0.0, 0.0], [0.0, 3.0, 1.0]])
    y = np.array([0, 1, 2, 0], dtype=np.int64)
    assert multiclass_auc(y, S) == pytest.approx(provost_domingos(y, S), abs=1e-15)
