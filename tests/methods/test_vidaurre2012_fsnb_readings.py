"""vidaurre2012 Algorithm 1 (fsNB) under its readings, traced by hand on tiny data sets.

Algorithm 1 is garbled in the paper; :func:`repro.methods.vidaurre2012.stagewise.forward_stagewise`
keeps three readings apart:

- ``step``: the chosen predictor moves by t*·ε (``"t_eps"``, the pseudocode's
  α_i* ← α_i* + t*·ε) or by ε (``"eps"``, §5's "will be updated by ε");
- ``ties``: equal training 0/1 errors go to the lowest training log-loss (``"log_loss"``) or to
  the first (i, t) in index order (``"index"``, the pseudocode's strict ``error < error*``);
- ``patience``: early stopping after k iterations without a lower training error than the best.

The search knows no estimator: it moves α over per-variable log tables ``tables(alphas)``. The
tests below give it columns whose log table is linear in α, ``α·L`` (``L`` rows × J, row = the
instance's code); with α = 0 the table is zero (class-independent: the variable is out). The scores
are S_r = log P(y) + Σ_i α_i·L_i[code_ri] (J = 2 classes), the prediction the first class of
maximal score, the NLL −Σ_r log softmax(S_r)[y_r]. Numbers quoted: ln 2 = 0.693147,
ln(1 + e^−a) for a = 0.5, 1, 1.5, 2, 2.5, 3: 0.474077, 0.313262, 0.201413, 0.126928, 0.078889,
0.048587.
"""

import numpy as np
import pandas as pd
import pytest

from repro.methods.vidaurre2012.stagewise import forward_stagewise
from repro.methods.vidaurre2012.stagewise_nb import ForwardStagewiseNaiveBayes

L1P = {0.5: 0.474077, 1.0: 0.313262, 1.5: 0.201413, 2.0: 0.126928, 2.5: 0.078889, 3.0: 0.048587}
LN2 = np.log(2.0)


class LinearColumn:
    """A variable whose log table at α is α·L (α = 0: zero, the variable out)."""

    def __init__(self, codes, table):
        self.codes = np.asarray(codes, dtype=np.int64)
        self.table = np.asarray(table, dtype=np.float64)

    def tables(self, alphas):
        return np.stack([a * self.table for a in alphas])


def path(result):
    """(variable, t, alpha, errors, n_evaluations) of every visited model after step 0."""
    return [
        (r["variable"], r["t"], r["alpha"], r["errors"], r["n_evaluations"])
        for r in result.trace[1:]
    ]


def nlls(result):
    return [r["nll"] for r in result.trace]


# ---------------------------------------------------------------------------------------------
# Case 1: ties by index and by log-loss choose differently; ε and t·ε differ under log-loss ties.
#
#   y = (0, 1), log P(y) = (ln ½, ln ½): S starts at (0, 0) + const, both rows predicted 0
#   (first class on ties): 1 error (row 1), NLL = 2 ln 2 = 1.386294.
#   variable 0: codes (0, 1), L0 = [[0, 0], [0, 1]]  -> row 1 scores (0, α0): right for α0 > 0
#   variable 1: codes (0, 1), L1 = [[2, 0], [0, 2]]  -> row 0 (2α1, 0), row 1 (0, 2α1)
#   ε = 0.5, v = 2 (t = 1, 2: α = 0.5, 1), patience 1.
#
# Iteration 1: the four candidates all have 0 errors:
#   (0, 1) α0 = .5: NLL = ln 2 + ln(1+e^-.5) = 1.167224      (0, 2) α0 = 1: ln 2 + .313262
#   (1, 1) α1 = .5: 2 ln(1+e^-1) = 0.626523                  (1, 2) α1 = 1: 2 ln(1+e^-2) = 0.253856
#   index ties: (0, 1), the first; log-loss ties: (1, 2), the lowest NLL. n_eval = 4.
# ---------------------------------------------------------------------------------------------


def case1(**kw):
    columns = [
        LinearColumn([0, 1], [[0, 0], [0, 1]]),
        LinearColumn([0, 1], [[2, 0], [0, 2]]),
    ]
    return forward_stagewise(
        columns, np.log([0.5, 0.5]), [0, 1], epsilon=0.5, n_steps=2, patience=1, **kw
    )


def test_case1_t_eps_index_takes_the_first_tied_candidate():
    # it 1: (0, 1) -> α = (.5, 0), 0 errors < 1: improvement, NLL 1.167224, n_eval 4.
    # it 2: candidates (0, 1) α0 = 1 [var 0 has room 1], (1, 1), (1, 2): all 0 errors
    #   (row 0 (2α1, 0), row 1 (0, .5 + 2α1)); the first is (0, 1): α = (1, 0),
    #   NLL = ln 2 + ln(1+e^-1) = 1.006409, n_eval 4 + 3 = 7. No lower error: stall 1 = patience.
    # AIC = 2·NLL/N + 2d/N (N = 2): 1.386294, 2.167224, 2.006409 -> step 0, α = (0, 0).
    r = case1(step="t_eps", ties="index")
    assert path(r) == [(0, 1, 0.5, 0, 4), (0, 1, 1.0, 0, 7)]
    assert nlls(r) == pytest.approx([2 * LN2, LN2 + L1P[0.5], LN2 + L1P[1.0]], abs=1e-6)
    assert [row["d"] for row in r.trace] == [0, 1, 1]
    assert r.stop == "early_stopping" and r.best_step == 0
    np.testing.assert_array_equal(r.alphas, [0.0, 0.0])
    assert r.n_evaluations == 7


def test_case1_t_eps_log_loss_takes_the_lowest_nll():
    # it 1: (1, 2) -> α = (0, 1), 0 errors, NLL = 2 ln(1+e^-2) = 0.253856, n_eval 4.
    # it 2: var 1 is at 1 (no room); var 0: (0, 1) α0 = .5 and (0, 2) α0 = 1, both 0 errors,
    #   NLL = ln(1+e^-2) + ln(1+e^-(2+α0)): .126928 + .078889 = .205817 and
    #   .126928 + .048587 = 0.175515 -> (0, 2): α = (1, 1), d = 2, n_eval 4 + 2 = 6; stall 1.
    # AIC: 1.386294, 0.253856 + 1 = 1.253856, 0.175515 + 2 = 2.175515 -> step 1, α = (0, 1).
    r = case1(step="t_eps", ties="log_loss")
    assert path(r) == [(1, 2, 1.0, 0, 4), (0, 2, 1.0, 0, 6)]
    assert nlls(r) == pytest.approx([2 * LN2, 2 * L1P[2.0], L1P[2.0] + L1P[3.0]], abs=1e-6)
    assert [row["d"] for row in r.trace] == [0, 1, 2]
    assert r.stop == "early_stopping" and r.best_step == 1
    np.testing.assert_array_equal(r.alphas, [0.0, 1.0])


def test_case1_eps_log_loss_moves_the_winner_by_one_eps():
    # it 1: the search picks (1, 2) as above, but variable 1 moves by ε only: α = (0, .5), t = 1;
    #   the recorded model is the one reached: 0 errors, NLL = 2 ln(1+e^-1) = 0.626523, n_eval 4.
    # it 2: (0, 1) α0 = .5: ln(1+e^-1) + ln(1+e^-1.5) = .514675; (0, 2) α0 = 1:
    #   ln(1+e^-1) + ln(1+e^-2) = .440190; (1, 1) α1 = 1: 2 ln(1+e^-2) = .253856 (all 0 errors)
    #   -> (1, 1): α = (0, 1), NLL .253856, n_eval 4 + 3 = 7; stall 1.
    # AIC: 1.386294, .626523 + 1, .253856 + 1 -> step 2, α = (0, 1).
    r = case1(step="eps", ties="log_loss")
    assert path(r) == [(1, 1, 0.5, 0, 4), (1, 1, 1.0, 0, 7)]
    assert nlls(r) == pytest.approx([2 * LN2, 2 * L1P[1.0], 2 * L1P[2.0]], abs=1e-6)
    assert r.best_step == 2
    np.testing.assert_array_equal(r.alphas, [0.0, 1.0])


def test_case1_eps_index_equals_t_eps_index_when_the_winner_has_t_1():
    # index ties pick (0, 1) at both iterations: t* = 1, so ε and t*·ε are the same move.
    a, b = case1(step="eps", ties="index"), case1(step="t_eps", ties="index")
    assert path(a) == path(b) == [(0, 1, 0.5, 0, 4), (0, 1, 1.0, 0, 7)]
    assert nlls(a) == pytest.approx(nlls(b), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Case 2: the error only drops at t = 2, so ε and t·ε take different paths (either tie rule).
#
#   y = (0, 0, 1), log P(y) = (ln ⅔, ln ⅓): margin ln 2 = .693147 for class 0.
#   variable 0: codes (0, 0, 1), L = [[0, 0], [0, 1]]: row 2 scores (ln ⅔, ln ⅓ + α), right iff
#   α > ln 2. ε = 0.5, v = 2.  Rows 0, 1: NLL ln(3/2) = .405465 each; row 2: ln(2 + e^α) − α:
#   α = 0: ln 3 = 1.098612, α = .5: .794376, α = 1: .551444. Totals 1.909543, 1.605307, 1.362375.
#   Start: 1 error (row 2).  Iteration 1: (0, 1) α = .5: 1 error; (0, 2) α = 1: 0 errors -> the
#   strict winner (0, 2), n_eval 2.
# ---------------------------------------------------------------------------------------------


def case2(**kw):
    column = LinearColumn([0, 0, 1], [[0, 0], [0, 1]])
    return forward_stagewise(
        [column], np.log([2 / 3, 1 / 3]), [0, 0, 1], epsilon=0.5, n_steps=2, **kw
    )


@pytest.mark.parametrize("ties", ["index", "log_loss"])
@pytest.mark.parametrize("patience", [1, 2, None])
def test_case2_t_eps_jumps_to_the_winning_multiple(ties, patience):
    # it 1: (0, 2): α = 1, 0 errors, NLL 1.362375, n_eval 2; no room left: all included.
    r = case2(step="t_eps", ties=ties, patience=patience)
    assert path(r) == [(0, 2, 1.0, 0, 2)]
    assert nlls(r) == pytest.approx([1.909543, 1.362375], abs=1e-6)
    assert r.stop == "all_included"


@pytest.mark.parametrize("ties", ["index", "log_loss"])
def test_case2_eps_moves_one_step_and_patience_decides_whether_it_goes_on(ties):
    # it 1: (0, 2) wins but α moves to .5 (t = 1): the model reached has 1 error (not lower than
    #   the best, 1): stall 1. NLL 1.605307, n_eval 2.
    # patience 1: stop. patience 2: it 2: (0, 1) α = 1 (room 1: one candidate): 0 errors,
    #   NLL 1.362375, n_eval 3; then all included.
    # AIC (N = 3, d = 0, 1, 1): 1.273028, 1.736871, 1.574917 -> step 0 in both.
    one = case2(step="eps", ties=ties, patience=1)
    assert path(one) == [(0, 1, 0.5, 1, 2)]
    assert nlls(one) == pytest.approx([1.909543, 1.605307], abs=1e-6)
    assert one.stop == "early_stopping" and one.best_step == 0
    two = case2(step="eps", ties=ties, patience=2)
    assert path(two) == [(0, 1, 0.5, 1, 2), (0, 1, 1.0, 0, 3)]
    assert nlls(two) == pytest.approx([1.909543, 1.605307, 1.362375], abs=1e-6)
    assert two.stop == "all_included"
    assert [row["aic"] for row in two.trace] == pytest.approx([1.273028, 1.736871, 1.574917], 1e-5)


# ---------------------------------------------------------------------------------------------
# Case 3: patience. An iteration without improvement (a tie taken by index) comes between two
# improvements; patience 1 stops there, patience ≥ 2 goes on.
#
#   y = (0, 1, 1), log P(y) = (ln ⅔, ln ⅓): a row is predicted 1 iff its class-1 push > ln 2.
#   variable 0 (X): codes (0, 1, 2), L = [[0, 0], [0, 4], [0, .6]]
#   variable 1 (Z): codes (0, 0, 1), L = [[0, 0], [0, .6]]
#   ε = 0.5, v = 1 (one candidate per variable: α + .5), ties by index, step t·ε (= ε here).
#   Row 0 is always right (no push); row 1 is right iff 4·αX > ln 2 (any αX > 0);
#   row 2 iff .6·(αX + αZ) > ln 2, i.e. αX + αZ > 1.155 (αX + αZ = 1.5 or more).
#   Start: 2 errors (rows 1, 2).
#   it 1: X .5 -> 1 error (row 2: .3); Z .5 -> 2 errors. (0, 1): α = (.5, 0), n_eval 2. stall 0.
#   it 2: X 1 -> 1 error (row 2: .6); Z .5 -> 1 error (.6): a tie -> the first, X:
#         α = (1, 0), n_eval 4; not lower than 1: stall 1.
#   it 3: X has no room; Z .5 -> row 2 .9 > ln 2: 0 errors. α = (1, .5), n_eval 5. stall 0.
#   it 4: Z 1 -> 0 errors. α = (1, 1), n_eval 6. stall 1; no room left.
# ---------------------------------------------------------------------------------------------


def case3(patience, **kw):
    columns = [
        LinearColumn([0, 1, 2], [[0, 0], [0, 4], [0, 0.6]]),
        LinearColumn([0, 0, 1], [[0, 0], [0, 0.6]]),
    ]
    return forward_stagewise(
        columns, np.log([2 / 3, 1 / 3]), [0, 1, 1], epsilon=0.5, n_steps=1,
        patience=patience, ties="index", **kw,
    )  # fmt: skip


FULL_CASE3 = [(0, 1, 0.5, 1, 2), (0, 1, 1.0, 1, 4), (1, 1, 0.5, 0, 5), (1, 1, 1.0, 0, 6)]


def test_case3_patience_1_stops_at_the_first_iteration_without_improvement():
    r = case3(1)
    assert path(r) == FULL_CASE3[:2]
    assert r.stop == "early_stopping" and r.n_evaluations == 4


@pytest.mark.parametrize("patience", [2, 5, None])
def test_case3_longer_patience_reaches_the_second_improvement(patience):
    r = case3(patience)
    assert path(r) == FULL_CASE3
    # at it 4 the stall is 1: patience 2 or more runs on until no variable has room
    assert r.stop == "all_included" and r.n_evaluations == 6
    np.testing.assert_array_equal(r.alpha_path[-1], [1.0, 1.0])


def test_case3_eps_and_t_eps_agree_with_v_1():
    assert path(case3(None, step="eps")) == path(case3(None, step="t_eps")) == FULL_CASE3


# ---------------------------------------------------------------------------------------------
# The estimator: the readings reach the search, and on a tiny nominal data set they end in
# different models.
#
#   x0 = (a, a, b, b) = y (perfect), x1 = (a, b, a, b) (independent of y); y = (0, 0, 1, 1).
#   Laplace tables (a = 1): θ^(1)(x0 = a | 0) = 3/4, (a | 1) = 1/4; θ^(0)(a) = 1/2; x1: 1/2 all.
#   θ(α) = α·θ^(1) + (1 − α)/2: each row's right-class probability is (1 + α/2)/2 from x0, x1
#   changes nothing. Start: equal scores, every row predicted 0: 2 errors, NLL 4 ln 2 = 2.772589.
#   it 1: every x0 candidate (t = 1..20, α = .025..0.5) has 0 errors; x1's have 2. n_eval 40.
#     index: (x0, 1), α0 = .025, NLL = −4 ln .50625 = 2.722899.
#     log-loss: (x0, 20), α0 = .5, NLL = −4 ln .625 = 1.880015.
#   it 2: no lower error possible: stall 1 = patience. index: (x0, 1) α0 = .05, NLL 2.673818;
#     log-loss: (x0, 20) α0 = 1, NLL = −4 ln .75 = 1.150728. n_eval 40 + 40 = 80.
#   AIC (N = 4): index 1.386294, 1.861449, 1.836909 -> step 0, nothing selected;
#     log-loss 1.386294, 1.440007, 1.075364 -> step 2, x0 at α = 1.
# ---------------------------------------------------------------------------------------------

X4 = pd.DataFrame({"x0": pd.Categorical(list("aabb")), "x1": pd.Categorical(list("abab"))})
Y4 = np.array([0, 0, 1, 1])


@pytest.mark.parametrize(
    "ties, ts, alphas, nll, aic, best",
    [
        ("index", [1, 1], [0.025, 0.05], [2.722899, 2.673818], [1.861449, 1.836909], 0),
        ("log_loss", [20, 20], [0.5, 1.0], [1.880015, 1.150728], [1.440007, 1.075364], 2),
    ],
)
def test_estimator_tie_readings_on_a_nominal_data_set(ties, ts, alphas, nll, aic, best):
    model = ForwardStagewiseNaiveBayes(patience=1, ties=ties).fit(X4, Y4)
    trace = model.fit_report_["trace"]
    assert list(trace["feature"][1:]) == ["x0", "x0"]
    assert list(trace["t"][1:]) == ts
    assert list(trace["alpha"][1:]) == pytest.approx(alphas)
    assert list(trace["errors"]) == [2, 0, 0]
    assert list(trace["n_evaluations"]) == [0, 40, 80]
    assert list(trace["nll"]) == pytest.approx([4 * LN2, *nll], abs=1e-6)
    assert list(trace["aic"]) == pytest.approx([4 * LN2 / 2, *aic], abs=1e-6)
    assert model.fit_report_["best_step"] == best
    assert model.fit_report_["stop"] == "early_stopping"
    assert model.n_selected_features_ == (0 if best == 0 else 1)


def test_estimator_step_eps_moves_by_eps():
    # as the log-loss case above, but x0 moves by ε: α0 = .025 then .05 (t = 1)
    model = ForwardStagewiseNaiveBayes(patience=1, step="eps").fit(X4, Y4)
    trace = model.fit_report_["trace"]
    assert list(trace["t"][1:]) == [1, 1]
    assert list(trace["alpha"][1:]) == pytest.approx([0.025, 0.05])
    assert list(trace["nll"][1:]) == pytest.approx([2.722899, 2.673818], abs=1e-6)


@pytest.mark.parametrize(
    "params, name, choices",
    [
        ({"step": "t"}, "step", "'t_eps' or 'eps'"),
        ({"step": None}, "step", "'t_eps' or 'eps'"),
        ({"ties": "first"}, "ties", "'log_loss' or 'index'"),
    ],
)
def test_invalid_readings_are_refused(params, name, choices):
    with pytest.raises(ValueError, match=rf"^{name} must be {choices}, got"):
        ForwardStagewiseNaiveBayes(**params).fit(X4, Y4)
    with pytest.raises(ValueError, match=rf"^{name} must be {choices}, got"):
        forward_stagewise([LinearColumn([0, 1], [[0, 0], [0, 1]])], [0.0, 0.0], [0, 1], **params)


def test_readings_are_estimator_parameters():
    model = ForwardStagewiseNaiveBayes(step="eps", ties="index")
    params = model.get_params()
    assert params["step"] == "eps" and params["ties"] == "index"
