"""vidaurre2012 methods: interpolated models, fsNB (Algorithm 1), L1/L2-NB and WNB (issue 12).

Known answers are computed by hand or by an independent brute force written here with numpy.
"""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2_contingency, norm

import repro
from repro.methods.plain.nb import GaussianNaiveBayes
from repro.methods.vidaurre2012.group_lasso import exclusion_threshold, lambda_grid, line_search
from repro.methods.vidaurre2012.regularised_nb import AdaptiveL1L2NaiveBayes, L1L2NaiveBayes
from repro.methods.vidaurre2012.stagewise import aic
from repro.methods.vidaurre2012.stagewise_nb import ForwardStagewiseNaiveBayes
from repro.methods.vidaurre2012.wnb import FerreiraWeightedNaiveBayes, fdh_weight
from repro.preprocessing.interpolation import InterpolatedGaussian, InterpolatedTable
from repro.registry import implemented_methods, make_method

VIDAURRE = ("wnb", "fsnb", "l1l2_nb", "al1l2_nb")


# ---------------------------------------------------------------------------------------------
# Interpolated per-variable models (eq. 13)
# ---------------------------------------------------------------------------------------------
def test_interpolated_table_by_hand():
    # counts n_kj: k=0 -> (3, 1), k=1 -> (1, 3); Laplace a = 1, M = 2
    x = np.array([0, 0, 0, 1, 0, 1, 1, 1], float)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    m = InterpolatedTable(2, alpha=1.0).fit(x, y, 2)
    np.testing.assert_allclose(m.theta1_, [[4 / 6, 2 / 6], [2 / 6, 4 / 6]])
    np.testing.assert_allclose(m.theta0_, [0.5, 0.5])  # (4 + 1)/(8 + 2)
    np.testing.assert_allclose(m.theta([0.5])[0], [[7 / 12, 5 / 12], [5 / 12, 7 / 12]])
    np.testing.assert_allclose(m.theta([0.0])[0], [[0.5, 0.5], [0.5, 0.5]])
    assert m.distance_ == pytest.approx(np.sqrt(4 * (1 / 6) ** 2))
    # ℓ(α) = Σ n_kj log θ_kj(α): 6 log(7/12) + 2 log(5/12) at α = 1/2
    assert m.loglik([0.5])[0] == pytest.approx(6 * np.log(7 / 12) + 2 * np.log(5 / 12))
    # ℓ'(0) = Σ n_kj (θ1 − θ0)/θ0 = (6·(1/6) − 2·(1/6))/(1/2)
    assert m.dloglik([0.0])[0] == pytest.approx((6 / 6 - 2 / 6) / 0.5)
    # log-likelihood rows, missing and unseen values give zero rows
    ll = m.log_likelihood(np.array([0.0, 1.0, np.nan, -1.0]), 0.5)
    np.testing.assert_allclose(
        ll, np.log([[7 / 12, 5 / 12], [5 / 12, 7 / 12], [1, 1], [1, 1]]), atol=1e-15
    )
    # every column of θ(α) is a distribution
    np.testing.assert_allclose(m.theta(np.linspace(0, 1, 5)).sum(axis=1), 1.0)


def test_interpolated_gaussian_by_hand():
    x = np.array([0.0, 2.0, 4.0, 6.0, np.nan])
    y = np.array([0, 0, 1, 1, 0])
    m = InterpolatedGaussian(ddof=0, var_smoothing=0.0).fit(x, y, 2)
    np.testing.assert_allclose(m.mean1_, [1.0, 5.0])
    np.testing.assert_allclose(m.sd1_, [1.0, 1.0])
    assert (m.mean0_, m.sd0_) == pytest.approx((3.0, np.sqrt(5.0)))
    assert m.distance_ == pytest.approx(np.sqrt(2 * 2.0**2 + 2 * (1 - np.sqrt(5.0)) ** 2))
    # α = 1/2: μ = (2, 4), σ = (1 + √5)/2 for both classes (σ, not σ², is interpolated)
    mean, sd = m.params([0.5])
    np.testing.assert_allclose(mean[0], [2.0, 4.0])
    np.testing.assert_allclose(sd[0], [(1 + np.sqrt(5)) / 2] * 2)
    ll = m.log_likelihood(x, 0.5)
    expected = norm.logpdf(x[:4, None], [2.0, 4.0], (1 + np.sqrt(5)) / 2)
    np.testing.assert_allclose(ll[:4], expected)
    np.testing.assert_array_equal(ll[4], [0.0, 0.0])  # missing value: no information
    # ℓ(α) from the sufficient statistics = the sum of the table entries of the true classes
    for a in (0.0, 0.3, 1.0):
        full = m.log_likelihood(x, a)
        assert m.loglik([a])[0] == pytest.approx(full[np.arange(4), y[:4]].sum())
    # ℓ'(α) = the derivative of ℓ (central difference)
    h = 1e-6
    for a in (0.1, 0.5, 0.9):
        numeric = (m.loglik([a + h])[0] - m.loglik([a - h])[0]) / (2 * h)
        assert m.dloglik([a])[0] == pytest.approx(numeric, rel=1e-6)


def test_constant_column_is_uninformative():
    m = InterpolatedGaussian().fit(np.ones(6), np.array([0, 0, 0, 1, 1, 1]), 2)
    assert not m.informative_
    assert np.all(m.log_likelihood(np.array([1.0, 5.0]), 1.0) == 0)
    assert m.loglik([0.0, 1.0]).tolist() == [0.0, 0.0]


# ---------------------------------------------------------------------------------------------
# fsNB: Algorithm 1 step by step against a brute force
# ---------------------------------------------------------------------------------------------
#: 12 instances, J = 3: X0 nominal and relevant, X1 nominal and noisy, X2 numeric
X12 = pd.DataFrame(
    {
        "a": pd.Categorical(list("pppqpqqqrrrp")),
        "b": pd.Categorical(list("uvuvuvvuuvuv")),
        "c": [0.1, 0.9, 0.4, 1.2, 2.0, 1.1, 2.3, 1.9, 3.1, 2.6, 2.2, 0.7],
    }
)
Y12 = np.array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])


def brute_force_columns(X, y, a=1.0):
    """log P(x_i | y; α) as functions of α, written from the formulas (not the package)."""
    n_classes = y.max() + 1
    funcs = []
    for col in X.columns:
        s = X[col]
        if isinstance(s.dtype, pd.CategoricalDtype):
            codes = s.cat.codes.to_numpy()
            m = len(s.cat.categories)
            counts = np.zeros((m, n_classes))
            np.add.at(counts, (codes, y), 1)
            th1 = (counts + a) / (counts.sum(0) + a * m)
            th0 = (counts.sum(1) + a) / (len(y) + a * m)

            def f(alpha, codes=codes, th1=th1, th0=th0):
                return np.log(alpha * th1 + (1 - alpha) * th0[:, None])[codes]

        else:
            v = s.to_numpy(float)
            mu1 = np.array([v[y == j].mean() for j in range(n_classes)])
            sd1 = np.array([v[y == j].std() for j in range(n_classes)])
            mu0, sd0 = v.mean(), v.std()

            def f(alpha, v=v, mu1=mu1, sd1=sd1, mu0=mu0, sd0=sd0):
                mu = alpha * mu1 + (1 - alpha) * mu0
                sd = alpha * sd1 + (1 - alpha) * sd0
                return norm.logpdf(v[:, None], mu, sd)

        funcs.append(f)
    return funcs


def brute_force_fsnb(X, y, n_iter, epsilon=0.025, v=20):
    """Algorithm 1 by exhaustive refits of every candidate model: (i, t, errors, nll, d)."""
    funcs = brute_force_columns(X, y)
    n = len(y)
    prior = np.log(np.bincount(y) / n)
    alphas = np.zeros(len(funcs))

    def evaluate(al):
        S = np.tile(prior, (n, 1)) + sum(f(a) for f, a in zip(funcs, al) if a > 0)
        log_p = S - np.logaddexp.reduce(S, axis=1, keepdims=True)
        return int(np.sum(S.argmax(1) != y)), float(-log_p[np.arange(n), y].sum())

    steps = []
    for _ in range(n_iter):
        best = None
        for i, t in itertools.product(range(len(funcs)), range(1, v + 1)):
            if alphas[i] >= 1 or (t > 1 and alphas[i] + (t - 1) * epsilon >= 1 - 1e-12):
                continue
            trial = alphas.copy()
            trial[i] = min(1.0, alphas[i] + t * epsilon)
            err, nll = evaluate(trial)
            # lowest error, then lowest log-loss (float noise below 1e-9 is a tie), then (i, t)
            if best is None or err < best[0] or (err == best[0] and nll < best[1] - 1e-9):
                best = (err, nll, i, t, trial)
        err, nll, i, t, alphas = best
        d = int(np.sum(alphas > 0))
        steps.append((i, t, err, nll, d, alphas.copy()))
    return steps, evaluate(np.zeros(len(funcs)))


def test_fsnb_path_step_by_step_matches_brute_force():
    model = ForwardStagewiseNaiveBayes(patience=None, var_smoothing=0.0).fit(X12, Y12)
    trace = model.fit_report_["trace"]
    steps, (err0, nll0) = brute_force_fsnb(X12, Y12, n_iter=5)
    assert trace.loc[0, "errors"] == err0 and trace.loc[0, "nll"] == pytest.approx(nll0)
    assert trace.loc[0, "aic"] == pytest.approx(2 * nll0 / 12)
    for k, (i, t, err, nll, d, alphas) in enumerate(steps, start=1):
        row = trace.loc[k]
        assert (row["variable"], row["t"]) == (i, t), k
        assert row["errors"] == err and row["error"] == pytest.approx(err / 12)
        assert row["nll"] == pytest.approx(nll, rel=1e-10)
        assert row["Q"] == pytest.approx(2 * nll / 12)
        assert row["d"] == d
        assert row["aic"] == pytest.approx(2 * nll / 12 + 2 * d / 12)
        np.testing.assert_allclose(row["alphas"], alphas)
    # the relevant nominal predictor first, the numeric one, then the nominal one to the cap
    # α = 0.5 + 20·0.025 = 1, the numeric one again, then the irrelevant one (no loss change)
    assert [(i, t) for i, t, *_ in steps] == [(0, 20), (2, 19), (0, 20), (2, 14), (1, 1)]
    # the fitted model is the recorded one of minimal AIC
    best = int(trace["aic"].to_numpy().argmin())
    assert model.fit_report_["best_step"] == best
    np.testing.assert_allclose(model.alphas_, trace.loc[best, "alphas"])
    assert model.fit_report_["criterion"] == pytest.approx(trace["aic"].min())


def test_fsnb_counts_evaluations_and_runs_to_full_inclusion_without_patience():
    model = ForwardStagewiseNaiveBayes(patience=None, var_smoothing=0.0).fit(X12, Y12)
    trace = model.fit_report_["trace"]
    # first iteration: 3 predictors × v = 20 candidates, each O(N·J)
    assert trace.loc[1, "n_evaluations"] == 60
    assert model.fit_report_["stop"] == "all_included"
    np.testing.assert_allclose(model.fit_report_["alpha_path"][-1], 1.0)
    # with every α = 1 the model is the plain NB (Laplace tables, MLE Gaussians, MLE prior)
    full = ForwardStagewiseNaiveBayes(patience=None, var_smoothing=0.0).fit(X12, Y12)
    full.alphas_ = np.ones(3)
    nb = GaussianNaiveBayes(ddof=0, var_smoothing=0.0, alpha=1.0).fit(X12, Y12)
    np.testing.assert_allclose(full.predict_log_proba(X12), nb.predict_log_proba(X12))
    assert trace["nll"].iloc[-1] == pytest.approx(
        -nb.predict_log_proba(X12)[np.arange(12), Y12].sum()
    )


def test_fsnb_early_stopping():
    model = ForwardStagewiseNaiveBayes(patience=1).fit(X12, Y12)
    trace = model.fit_report_["trace"]
    # training errors 8, 3, 2, then 2: the third iteration does not improve, the search stops
    assert model.fit_report_["stop"] == "early_stopping"
    assert trace["errors"].tolist() == [8, 3, 2, 2]
    longer = ForwardStagewiseNaiveBayes(patience=3).fit(X12, Y12).fit_report_["trace"]
    assert len(longer) == 6 and longer["errors"].tolist()[:4] == [8, 3, 2, 2]


def relevant_and_irrelevant(n=300, seed=0, numeric=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    informative = np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n))
    cols = {f"noise{k}": rng.integers(0, 3, n) for k in range(5)}
    cols = {"relevant": informative, **cols}
    X = pd.DataFrame(cols)
    if numeric:
        X = X.astype(float) + rng.normal(0, 0.3, X.shape)
    else:
        X = X.astype("category")
    return X, y


@pytest.mark.parametrize("numeric", [False, True])
def test_fsnb_selects_the_relevant_predictor_first(numeric):
    X, y = relevant_and_irrelevant(numeric=numeric)
    model = ForwardStagewiseNaiveBayes().fit(X, y)
    trace = model.fit_report_["trace"]
    assert trace.loc[1, "feature"] == "relevant"
    assert model.selected_[0] and np.argmax(model.alphas_) == 0
    assert model.score(X, y) > 0.7


def test_aic():
    assert aic(30.0, 2, 100) == pytest.approx(0.6 + 0.04)


# ---------------------------------------------------------------------------------------------
# L1/L2-NB: the exclusion threshold
# ---------------------------------------------------------------------------------------------
def contingency_data(seed=1, n=200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    x = np.where(rng.random(n) < 0.3, y, rng.integers(0, 3, n)).astype(float)
    return x, y


def test_exclusion_threshold_of_a_table_is_pearsons_chi2():
    x, y = contingency_data()
    m = InterpolatedTable(3, alpha=1e-9).fit(x, y, 3)  # a → 0: the MLE of the paper
    table = np.zeros((3, 3))
    np.add.at(table, (x.astype(int), y), 1)
    chi2 = chi2_contingency(table, correction=False)[0]
    assert m.dloglik([0.0])[0] == pytest.approx(chi2, rel=1e-6)
    assert exclusion_threshold(m, 1.0) == pytest.approx(chi2, rel=1e-6)  # adaptive
    assert exclusion_threshold(m, m.distance_) == pytest.approx(chi2 / m.distance_, rel=1e-6)


def check_threshold(model, weight):
    lam = exclusion_threshold(model, weight)
    assert lam > 0
    below, above = line_search(model, [lam * (1 - 1e-6) * weight, lam * (1 + 1e-6) * weight])
    assert below > 0 and above == 0.0
    far_below, far_above = line_search(model, [0.5 * lam * weight, 2 * lam * weight])
    assert far_below > below and far_above == 0.0
    return lam


@pytest.mark.parametrize("weight", ["plain", "adaptive"])
def test_threshold_separates_in_and_out_for_tables(weight):
    x, y = contingency_data()
    m = InterpolatedTable(3, alpha=1.0).fit(x, y, 3)
    w = m.distance_ if weight == "plain" else 1.0
    lam = check_threshold(m, w)
    assert lam == pytest.approx(m.dloglik([0.0])[0] / w)  # concave ℓ: the slope at 0


def test_threshold_for_gaussians_mean_shift_and_scale_change():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 100)
    shift = np.where(y == 1, 0.4, 0.0) + rng.normal(0, 1, 200)
    m = InterpolatedGaussian().fit(shift, y, 2)
    check_threshold(m, 1.0)
    check_threshold(m, m.distance_)
    # same means, different spreads: ℓ need not be concave, the threshold is a supremum
    scale = rng.normal(0, np.where(y == 1, 3.0, 0.3))
    m = InterpolatedGaussian().fit(scale, y, 2)
    check_threshold(m, 1.0)


def test_line_search_minimises_the_penalised_objective():
    x, y = contingency_data()
    m = InterpolatedTable(3).fit(x, y, 3)
    grid = np.linspace(0, 1, 100001)
    for c in (0.0, 1.0, 5.0, 20.0):
        a = line_search(m, [c])[0]
        brute = grid[np.argmin(c * grid - m.loglik(grid))]
        assert a == pytest.approx(brute, abs=2e-5)


def test_lambda_grid():
    grid = lambda_grid(10.0, 4, 1e-2)
    np.testing.assert_allclose(grid, [10.0, 1.0, 0.1, 0.0])
    assert lambda_grid(0.0, 5, 1e-3).tolist() == [0.0]


@pytest.mark.parametrize("cls", [L1L2NaiveBayes, AdaptiveL1L2NaiveBayes])
def test_l1l2_path_and_thresholds(cls):
    X, y = relevant_and_irrelevant(seed=2)
    model = cls(n_lambdas=20).fit(X, y)
    path = model.fit_report_["path"]
    assert len(path) == 20 and path["lambda"].iloc[-1] == 0.0
    assert path["d"].iloc[0] == 0  # λ_max: every predictor out
    assert path["lambda"].iloc[0] == pytest.approx(model.thresholds_.max())
    assert np.all(np.diff(path["d"].to_numpy()) >= 0)  # predictors enter as λ decreases
    best = int(path["aic"].to_numpy().argmin())
    assert model.lambda_ == path["lambda"].iloc[best]
    np.testing.assert_allclose(model.alphas_, path["alphas"].iloc[best])
    # the relevant predictor has the largest threshold and is selected
    assert np.argmax(model.thresholds_) == 0 and model.selected_[0]
    # per predictor: α = 0 exactly when λ is above its threshold
    weights = model._penalty_weights()
    for i, lam_i in enumerate(model.thresholds_):
        alphas = path["alphas"].map(lambda a, i=i: a[i]).to_numpy()
        lams = path["lambda"].to_numpy()
        assert np.all(alphas[lams > lam_i * (1 + 1e-9)] == 0)
        assert np.all(alphas[lams < lam_i * (1 - 1e-9)] > 0)
        assert weights[i] > 0


def test_adaptive_penalty_is_unit_free():
    X, y = relevant_and_irrelevant(seed=4, numeric=True)
    a = AdaptiveL1L2NaiveBayes().fit(X, y)
    b = AdaptiveL1L2NaiveBayes().fit(X * 1000.0, y)
    np.testing.assert_allclose(a.thresholds_, b.thresholds_, rtol=1e-6)
    np.testing.assert_allclose(a.alphas_, b.alphas_, atol=1e-8)


# ---------------------------------------------------------------------------------------------
# WNB
# ---------------------------------------------------------------------------------------------
def test_wnb_weight_by_hand():
    # P(Y) = (1/2, 1/2); P(Y | X=0) = (1, 0), P(Y | X=1) = (1/2, 1/2), P(Y | X=2) = (0, 1)
    assert fdh_weight([[2, 0], [1, 1], [0, 2]]) == pytest.approx(1.0)
    # three states that identify three equiprobable classes: sqrt(3·(4/9 + 2/9)) = sqrt(2) > 1
    assert fdh_weight(np.eye(3) * 4) == pytest.approx(np.sqrt(2.0))
    # irrelevant: every P(Y | X=k) equals P(Y); an unseen state is left out
    assert fdh_weight([[1, 2], [2, 4], [0, 0]]) == 0.0


def test_wnb_estimator_weights_and_posterior_by_hand():
    X = pd.DataFrame({"a": pd.Categorical([0, 0, 1, 1, 2, 2]), "b": pd.Categorical([0, 1] * 3)})
    y = np.array([0, 0, 0, 1, 1, 1])
    model = FerreiraWeightedNaiveBayes().fit(X, y)
    # b: counts (2,1) and (1,2) → diffs ±1/6 → sqrt(4/36) = 1/3
    np.testing.assert_allclose(model.weights_, [1.0, 1 / 3])
    # posterior of x = (a=0, b=1) by hand: π_j Π_i P(x_i | j)^{w_i}, Laplace tables
    pa = np.array([3 / 6, 1 / 6])  # P(a=0 | y): (2+1)/(3+3), (0+1)/(3+3)
    pb = np.array([2 / 5, 3 / 5])  # P(b=1 | y): (1+1)/(3+2), (2+1)/(3+2)
    score = 0.5 * pa**1.0 * pb ** (1 / 3)
    np.testing.assert_allclose(
        model.predict_proba(X.iloc[[0]].assign(b=pd.Categorical([1], categories=[0, 1])))[0],
        score / score.sum(),
    )


def test_wnb_discretizes_numeric_predictors_with_modl():
    X, y = relevant_and_irrelevant(seed=5, numeric=True)
    model = FerreiraWeightedNaiveBayes().fit(X, y)
    assert model.weights_[0] > 0.5
    assert np.sum(model.weights_[1:] == 0) >= 4  # MODL puts noise in one interval: weight 0
    ef = FerreiraWeightedNaiveBayes(discretizer="equal_frequency").fit(X, y)
    assert np.all(ef.weights_[1:] > 0)  # unsupervised bins: noise gets a weight
    assert ef.fit_report_["n_parts"][0] == 10


# ---------------------------------------------------------------------------------------------
# Mixed data, missing values, registry and bad input
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", VIDAURRE)
def test_mixed_data_with_missing_and_unseen_values(method):
    rng = np.random.default_rng(6)
    n = 120
    y = rng.integers(0, 2, n)
    X = pd.DataFrame(
        {
            "num": y + rng.normal(0, 0.7, n),
            "cat": pd.Categorical(np.where(rng.random(n) < 0.7, y, 1 - y).astype(str)),
            "const": np.ones(n),
        }
    )
    X.loc[::7, "num"] = np.nan
    X["cat"] = X["cat"].cat.add_categories(["z"])
    X.loc[::11, "cat"] = np.nan
    model = make_method(method).fit(X, y)
    Xt = X.copy()
    Xt.loc[:3, "cat"] = "z"  # declared but unseen in training
    proba = model.predict_proba(Xt)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)
    assert model.score(X, y) > 0.7
    assert not model.selected_[2]  # a constant column is never used
    assert model.n_selected_features_ == int(model.selected_.sum())
    assert hasattr(model, "alphas_") or method == "wnb"


def test_registered_and_exported():
    assert set(VIDAURRE) <= set(implemented_methods())
    assert repro.ForwardStagewiseNaiveBayes is ForwardStagewiseNaiveBayes
    assert repro.FerreiraWeightedNaiveBayes is FerreiraWeightedNaiveBayes
    assert type(make_method("al1l2_nb")) is AdaptiveL1L2NaiveBayes


@pytest.mark.parametrize(
    ("method", "params", "name"),
    [
        ("fsnb", {"epsilon": 0.0}, "epsilon"),
        ("fsnb", {"epsilon": 1.5}, "epsilon"),
        ("fsnb", {"n_steps": 0}, "n_steps"),
        ("fsnb", {"patience": 0}, "patience"),
        ("fsnb", {"alpha": 0.0}, "alpha"),
        ("fsnb", {"ddof": 2}, "ddof"),
        ("l1l2_nb", {"n_lambdas": 1}, "n_lambdas"),
        ("al1l2_nb", {"lambda_min_ratio": 1.0}, "lambda_min_ratio"),
        ("l1l2_nb", {"var_smoothing": -1.0}, "var_smoothing"),
        ("wnb", {"discretizer": "mdlp"}, "discretizer"),
        ("wnb", {"n_bins": 0}, "n_bins"),
    ],
)
def test_bad_parameters_name_themselves(method, params, name):
    with pytest.raises(ValueError, match=name):
        make_method(method, **params).fit(X12, Y12)


@pytest.mark.parametrize("method", VIDAURRE)
def test_unknown_parameter_is_named(method):
    with pytest.raises(ValueError, match="Unknown parameter.*'eps'"):
        make_method(method, eps=0.1)


@pytest.mark.parametrize("method", VIDAURRE)
def test_extreme_values_and_an_all_missing_column(method):
    X = np.array(
        [[1e300, -1e-300, np.nan], [2e300, 1e-300, np.nan], [-1e300, 3e-300, np.nan]] * 2
        + [[-3e300, 4e-300, np.nan]] * 2
    )
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = make_method(method).fit(X, y)
        proba = model.predict_proba(X)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)
    assert not model.selected_[2]
