"""``wnb_opt`` (hue2024 §3): every algorithm against known optima — a one-variable criterion
solved by grid search, the convex cases against scipy's L-BFGS-B — and the estimator's contract
(criterion_, trace, initialisations, bad parameters)."""

import numpy as np
import pytest
from scipy.optimize import minimize

from repro.datasets import load_dataset
from repro.methods.core.engine import EncodedData
from repro.methods.hue2024.wnb_opt import ALGORITHMS
from repro.methods.hue2024.wnb_opt_criterion import (
    hue2024_criterion,
    negative_log_likelihood,
    relaxed_criterion,
    stage2_criterion,
)
from repro.registry import make_method

GRID = np.linspace(0.0, 1.0, 20_001)


def one_informative():
    """x0 depends on y, x1 is pure noise (MODL: one part, Level 0): one candidate."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    X = np.c_[y + rng.normal(0, 1.5, 300), rng.normal(size=300)]
    return X, y


def fitted_data(model, X, y, columns):
    """The model's encoded training data of ``columns`` (the optimiser's EncodedData)."""
    Z = model.encoder_.transform(X)
    y_idx = np.searchsorted(model.classes_, y)
    return EncodedData.from_estimator(model, Z, y_idx, columns=columns)


def grid_argmin(fn):
    """The minimiser over :data:`GRID` (step 5e-5), searched coarse to fine: every 20th point,
    then every point within 2e-3 of the coarse minimiser (the criteria are smooth in w; the
    coarse step 1e-3 is finer than any of their basins)."""
    coarse = GRID[::20]
    best = coarse[np.argmin([fn(np.array([w])) for w in coarse])]
    fine = GRID[np.abs(GRID - best) <= 2e-3 + 1e-12]
    values = np.array([fn(np.array([w])) for w in fine])
    return fine[np.argmin(values)], values.min()


def args(data):
    return data.codes, data.offsets, data.table, data.log_prior, data.y


@pytest.mark.parametrize("lam", [0.25, 1.0])
def test_one_variable_against_grid_search(lam):
    X, y = one_informative()
    p, delta = 0.95, 1e-3
    ref = make_method("wnb_opt", algorithm="sg", lambda_=lam, epsilon=1e-8, max_iter=5000)
    ref.fit(X, y)
    assert list(np.flatnonzero(ref.levels_ > 0)) == [0]
    data = fitted_data(ref, X, y, [0])
    b = np.array([ref.variable_costs_[0]])

    def cr(w):
        return hue2024_criterion(w, *args(data), b, lam, p, delta)[0]

    w_star, cr_star = grid_argmin(cr)
    # one stage on CR itself: the global minimiser of the grid
    assert abs(ref.weights_[0] - w_star) <= 1e-3
    assert ref.criterion_ <= cr_star + 1e-9 * abs(cr_star)
    assert ref.criterion_ == pytest.approx(cr(ref.weights_[:1]), rel=1e-12)
    for algorithm in ("sg_cf", "sg_ue", "ug_cf", "ug_ue", "cg_cf", "cg_ue"):
        model = make_method(
            "wnb_opt", algorithm=algorithm, lambda_=lam, epsilon=1e-8, max_iter=20_000
        ).fit(X, y)
        w0 = model.fit_report_["total_prior"]
        assert w0 == 0.5
        # stage 1 minimises C̃R with W₀ = 0.5, stage 2 ĈR with W̃ = the stage-1 weight
        w1, _ = grid_argmin(lambda w, w0=w0: relaxed_criterion(w, *args(data), b, lam, w0)[0])
        assert model.fit_report_["stage1_total"] == pytest.approx(w1, abs=1e-3), algorithm
        w_tilde = model.fit_report_["stage1_total"]
        w2, _ = grid_argmin(
            lambda w, wt=w_tilde: stage2_criterion(w, *args(data), b, lam, wt, p, delta)[0]
        )
        assert model.weights_[0] == pytest.approx(w2, abs=1e-3), algorithm
    # AM: a fixed point w = argmin ĈR with W = w
    am = make_method("wnb_opt", algorithm="am", lambda_=lam, epsilon=1e-8, max_iter=5000)
    w_am = am.fit(X, y).weights_[0]
    w_fixed, _ = grid_argmin(lambda w: stage2_criterion(w, *args(data), b, lam, w_am, p, delta)[0])
    assert w_am == pytest.approx(w_fixed, abs=1e-3)


def lbfgsb_minimum(fn, n):
    """scipy's L-BFGS-B on [0, 1]^n, and the Frank–Wolfe duality gap at its solution x: for a
    convex f, f(x) − min f ≤ ⟨∇f(x), x − s⟩, s the vertex of the box minimising ⟨∇f(x), s⟩."""
    best = minimize(
        fn,
        np.full(n, 0.5),
        jac=True,
        method="L-BFGS-B",
        bounds=[(0, 1)] * n,
        options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10_000},
    )
    grad = fn(best.x)[1]
    return best.fun, float(grad @ best.x - np.minimum(grad, 0).sum())


def test_unpenalised_and_relaxed_problems_match_lbfgsb():
    """The convex problems — λ = 0: CR = F_N; λ > 0: stage 1's C̃R with W₀ = the initial total —
    solved by the algorithms match scipy's L-BFGS-B on the box. Tolerance: the solver's own,
    ε·|f(w_init)| (the accuracy the stage passes to the universal gradient; ε = 1e-6), above;
    below, the optimum itself (L-BFGS-B's value less its duality gap: no value can be lower)."""
    ds = load_dataset("glass")
    X, y = ds.X, ds.y
    eps = 1e-6
    models = {
        a: make_method("wnb_opt", algorithm=a, lambda_=0.0, epsilon=eps, max_iter=20_000).fit(X, y)
        for a in ("sg", "sg_cf", "ug_ue", "cg_cf")
    }
    model = models["sg"]
    cols = list(np.flatnonzero(model.levels_ > 0))
    data = fitted_data(model, X, y, cols)
    init = np.full(len(cols), 0.5)  # the initial weights (W₀ = 0.5 per candidate)

    def fn(w):
        return negative_log_likelihood(w, *args(data))

    best, gap = lbfgsb_minimum(fn, len(cols))
    unpenalised = best
    assert 0 <= gap < 1e-6 * abs(best)
    for name, m in models.items():
        assert best - gap - 1e-12 * best <= m.criterion_ <= best + eps * abs(fn(init)[0]), name
    # λ > 0: the value at the end of stage 1 (its last trace entry) is the minimum of C̃R
    for lam, algorithm in ((1.0, "sg_cf"), (0.25, "ug_ue")):
        m = make_method(
            "wnb_opt", algorithm=algorithm, lambda_=lam, epsilon=eps, max_iter=20_000
        ).fit(X, y)
        assert list(np.flatnonzero(m.levels_ > 0)) == cols
        w0 = m.fit_report_["total_prior"]
        assert w0 == 0.5 * len(cols)
        b = m.variable_costs_[cols]

        def relaxed(w, lam=lam, w0=w0, b=b):
            return relaxed_criterion(w, *args(data), b, lam, w0)

        stage1 = algorithm.split("_")[0]
        value = [e["value"] for e in m.fit_report_["trace"] if e["stage"] == stage1][-1]
        best, gap = lbfgsb_minimum(relaxed, len(cols))
        assert 0 <= gap < 1e-6 * abs(best)
        assert best - gap - 1e-12 * best <= value <= best + eps * abs(relaxed(init)[0]), lam
        assert best > unpenalised + 1  # the penalty is active: another problem than λ = 0


def test_criterion_and_trace_on_a_real_data_set():
    ds = load_dataset("vehicle")
    X, y = ds.X, ds.y
    for algorithm in ALGORITHMS:
        m = make_method("wnb_opt", algorithm=algorithm, lambda_=1.0).fit(X, y)
        cols = np.flatnonzero(m.levels_ > 0)
        assert np.all((m.weights_ >= 0) & (m.weights_ <= 1))
        assert np.all(m.weights_[m.levels_ <= 0] == 0)
        data = fitted_data(m, X, y, list(cols))
        b = m.variable_costs_[cols]
        value = hue2024_criterion(m.weights_[cols], *args(data), b, 1.0, 0.95, 1e-3)[0]
        assert m.criterion_ == pytest.approx(value, rel=1e-12)
        assert m.fit_report_["criterion"] == m.criterion_
        assert m.criterion_ < m.fit_report_["null_criterion"]
        trace = m.fit_report_["trace"]
        assert {"stage", "iteration", "value", "n_nonzero", "time"} <= set(trace[0])
        assert trace[-1]["n_nonzero"] == m.n_selected_features_
        # monotone within a stage (an AM round has its own objective; UG is not monotone)
        for stage in {(r["stage"], r.get("round")) for r in trace} - {("ug", None)}:
            values = [r["value"] for r in trace if (r["stage"], r.get("round")) == stage]
            assert np.all(np.diff(values) <= 1e-9 * abs(values[0])), (algorithm, stage)


def test_strong_regularisation_gives_the_null_model():
    X, y = one_informative()
    for algorithm in ALGORITHMS:
        m = make_method("wnb_opt", algorithm=algorithm, lambda_=20.0).fit(X, y)
        assert m.n_selected_features_ == 0
        assert m.criterion_ == m.fit_report_["null_criterion"]


def test_initialisations_and_normalisation():
    ds = load_dataset("glass")
    X, y = ds.X, ds.y
    for init in ("snb", "fnb"):
        m = make_method("wnb_opt", init=init, lambda_=0.25).fit(X, y)
        assert m.fit_report_["total_prior"] != pytest.approx(0.5 * m.fit_report_["n_candidates"])
        assert np.isfinite(m.criterion_)
    # normalise_init scales w0 = 0.5·ē by CR(0)/CR(w0) when the start is worse than the null
    m = make_method("wnb_opt", algorithm="sg", lambda_=5.0, normalise_init=True).fit(X, y)
    plain = make_method("wnb_opt", algorithm="sg", lambda_=5.0).fit(X, y)
    start_plain = plain.fit_report_["trace"][0]["value"]
    null = plain.fit_report_["null_criterion"]
    assert start_plain > null
    cols = np.flatnonzero(m.levels_ > 0)
    data = fitted_data(m, X, y, list(cols))
    w0 = np.full(cols.size, 0.5 * null / start_plain)
    expected = hue2024_criterion(w0, *args(data), m.variable_costs_[cols], 5.0, 0.95, 1e-3)[0]
    assert m.fit_report_["trace"][0]["value"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"algorithm": "sgcf"}, "algorithm.*sg_cf"),
        ({"lambda_": -1}, "lambda_"),
        ({"p": 1.5}, "p"),
        ({"delta": 0}, "delta"),
        ({"epsilon": 0}, "epsilon"),
        ({"init": "random"}, "init.*uniform"),
        ({"max_iter": 0}, "max_iter"),
    ],
)
def test_bad_parameters(params, match):
    X, y = one_informative()
    with pytest.raises(ValueError, match=match):
        make_method("wnb_opt", **params).fit(X, y)
