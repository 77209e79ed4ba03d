"""vidaurre2012 Figures 1–6 (repro/experiments/vidaurre2012.py and their reports,
repro/report/papers/vidaurre2012/figures_{noise,grid,fsnb}.py): each study run tiny through
``python -m repro`` and ``python -m repro.report``, with properties of the records the figures
rest on."""

from __future__ import annotations

import json
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from repro.datasets import load_dataset
from repro.datasets.vidaurre2012 import (
    TOY_CONTINUOUS_SHIFTS,
    toy_bayes_error,
    toy_error,
    toy_nb_copies_error,
    toy_x1_error,
)
from repro.evaluation.records import read_records
from repro.experiments.vidaurre2012 import (
    FixedAlphaNaiveBayes,
    alpha_grid,
    alpha_scores,
    draw,
    toy_population_errors,
)
from repro.registry import make_method
from repro.report.__main__ import main as report_main


def run_study(python_m, tmp_path, figure: str, *overrides: str) -> pd.DataFrame:
    """Run ``python -m repro experiment=vidaurre2012_<figure>`` with ``overrides`` into
    tmp_path, then its report (``repro.report``'s command line); return the records."""
    experiment = f"vidaurre2012_{figure}"
    results = tmp_path / "results"
    proc = python_m(
        "repro", f"experiment={experiment}", f"results_dir={results}", "progress=false",
        *overrides,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the report's command line, in this process (python -m repro.report costs a start-up)
    assert report_main([f"experiment={experiment}", f"results={results}"]) == 0
    out = results / experiment
    for suffix in ("png", "pdf", "csv"):
        assert (out / f"{figure}.{suffix}").stat().st_size > 0
    text = (out / "REPRODUCTION.md").read_text()
    assert "compared" in text and "## Claims checked" in text
    assert "reproduced to" not in text.replace("*reproduced* to a published", "")
    return read_records(out)


def binomial_bound(p: float, n: int, k: float = 4.0) -> float:
    return k * np.sqrt(p * (1 - p) / n)


# ---------------------------------------------------------------------------------------------
# The evaluation at given α (no subprocess)
# ---------------------------------------------------------------------------------------------
def test_fixed_alpha_nb_is_laplace_nb_and_alpha_zero_removes_a_predictor():
    Xtr, ytr, Xte, yte = draw("vidaurre_toy_irrelevant50", {"n_noise": 4}, 400, 600, 3, 0)
    nb = FixedAlphaNaiveBayes().fit(Xtr, ytr)
    laplace = make_method("nb_laplace").fit(Xtr, ytr)
    # the same tables as nb_laplace, which also smooths the class prior: the log-posteriors
    # differ by the log-prior shift (and a per-row constant)
    shift = laplace.class_log_prior_ - nb.class_log_prior_
    gap = laplace.predict_log_proba(Xte) - nb.predict_log_proba(Xte) - shift
    assert np.ptp(gap, axis=1).max() < 1e-9
    np.testing.assert_array_equal(nb.predict(Xte), laplace.predict(Xte))
    # α = 0 on a predictor = the model without it; α = 1 everywhere = predict
    prefix = np.array([[1, 1, 1, 0, 0, 0, 0], [1] * 7], dtype=float)
    scores = alpha_scores(nb, Xte, yte, prefix)
    three = FixedAlphaNaiveBayes().fit(Xtr.iloc[:, :3], ytr)
    assert scores["error"].iloc[0] == pytest.approx(np.mean(three.predict(Xte.iloc[:, :3]) != yte))
    assert scores["error"].iloc[1] == pytest.approx(np.mean(nb.predict(Xte) != yte))
    log_p = np.log(nb.predict_proba(Xte))[np.arange(yte.size), yte]
    assert scores["log_loss"].iloc[1] == pytest.approx(-log_p.mean())
    # the overall error is the class-frequency weighted mean of the per-class errors
    freq = np.bincount(yte, minlength=3) / yte.size
    per_class = scores[[f"error_class{j}" for j in range(3)]].to_numpy() @ freq
    np.testing.assert_allclose(per_class, scores["error"])
    with pytest.raises(ValueError, match="columns"):
        alpha_scores(nb, Xte, yte, np.ones((1, 3)))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        alpha_scores(nb, Xte, yte, np.full((1, 7), 2.0))


def test_population_surface_corners_are_the_exact_errors_of_eq12():
    corners = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], dtype=float)
    exact = toy_population_errors(corners, tie=0.0)
    assert exact[0] == pytest.approx(467 / 1350)  # all in: the Bayes error
    assert exact[1] == pytest.approx(23 / 45)  # X1 alone
    assert exact[2] == pytest.approx(toy_error((1, 1, 0)))
    # x3 a full copy of x2: NB counts X2 twice, exactly NB with weights (1, 2, 0)
    assert toy_population_errors(corners[:1], tie=1.0)[0] == pytest.approx(toy_error((1, 2, 0)))


def test_continuous_twin_has_the_single_predictor_errors_of_eq12():
    d1, d = TOY_CONTINUOUS_SHIFTS
    phi = NormalDist().cdf
    assert 1 - 2 / 3 * phi(d1 / 2) == pytest.approx(toy_x1_error())
    assert 1 - (4 * phi(d / 2) - 1) / 3 == pytest.approx(toy_error((0, 1, 0)))
    ds = load_dataset("vidaurre_toy_continuous", n_samples=30000, tie_x2_x3=0.5, seed=1)
    X, y = ds.X, np.asarray(ds.y)
    assert np.mean(X["x2"] == X["x3"]) == pytest.approx(0.5, abs=0.02)
    np.testing.assert_allclose(X[y == 0].mean(), [d1, 0, 0], atol=0.05)
    np.testing.assert_allclose(X[y == 1].mean(), [0, d, d], atol=0.05)
    assert np.array_equal(y, load_dataset("vidaurre_toy", n_samples=30000, seed=1).y)


# ---------------------------------------------------------------------------------------------
# The studies, end to end
# ---------------------------------------------------------------------------------------------
def test_fig1_large_samples_tend_to_the_exact_errors(python_m, tmp_path):
    n_test = 20000
    rec = run_study(python_m, tmp_path, "fig1", "fig1.repetitions=1", "fig1.n_train=100000",
                    f"fig1.n_test={n_test}")  # fmt: skip
    test = rec.query("split == 'test' and metric == 'error'").set_index("world")["value"]
    assert set(test.index) == {"base", "irrelevant", "redundant"}
    bayes, copies = toy_bayes_error(), toy_nb_copies_error(50)
    assert copies == pytest.approx(11 / 30) and bayes == pytest.approx(467 / 1350)
    assert abs(test["redundant"] - copies) < binomial_bound(copies, n_test)
    assert abs(test["irrelevant"] - bayes) < binomial_bound(bayes, n_test)
    assert abs(test["base"] - bayes) < binomial_bound(bayes, n_test)
    pred = rec.query("split == 'test' and metric == 'predict_error'").set_index("world")["value"]
    pd.testing.assert_series_equal(pred, test, check_names=False)


def test_fig2_prefix_curves(python_m, tmp_path):
    rec = run_study(python_m, tmp_path, "fig2", "fig2.repetitions=2", "fig2.n_noise=4",
                    "fig2.n_train=300", "fig2.n_test=600")  # fmt: skip
    err = rec.query("split == 'test' and metric == 'error'")
    assert sorted(err["n_predictors"].unique()) == list(range(1, 8))
    assert len(err) == 2 * 2 * 7  # worlds × repetitions × k
    wide = err.pivot_table(index=["repetition", "n_predictors"], columns="world", values="value")
    # up to X1..X3 the two worlds are the same model on the same data
    at3 = wide.xs(3, level=1)
    np.testing.assert_array_equal(at3["irrelevant"], at3["redundant"])
    # the overall error is the class-frequency weighted mean of the per-class errors, with the
    # class frequencies of each repetition's test part (drawn again here)
    cls = rec.query("split == 'test' and metric.str.startswith('error_class')", engine="python")
    assert len(cls) == 3 * len(err)
    keys = ["world", "repetition", "n_predictors"]
    per_class = cls.pivot_table(index=keys, columns="metric", values="value")
    overall = err.set_index(keys)["value"].sort_index()
    for (world, r), group in err.groupby(["world", "repetition"]):
        (dataset,), (seed,) = group["dataset"].unique(), group["seed"].unique()
        *_, yte = draw(dataset, {"n_noise": 4}, 300, 600, int(seed), int(r))
        freq = np.bincount(yte, minlength=3) / 600
        assert yte.size == 600 and np.ptp(freq) > 0  # unequal frequencies: the weights matter
        errors = per_class.loc[(world, r), [f"error_class{j}" for j in range(3)]].to_numpy()
        np.testing.assert_allclose(errors @ freq, overall.loc[(world, r)].to_numpy(), rtol=1e-12)


def test_fig3_grid(python_m, tmp_path):
    rec = run_study(python_m, tmp_path, "fig3", "fig3.repetitions=2", "fig3.grid_points=5",
                    "fig3.n_train=300", "fig3.n_test=500")  # fmt: skip
    test = rec.query("split == 'test' and metric == 'error'")
    assert len(test) == 2 * 2 * 25  # panels × repetitions × grid
    corner = test[(test["alpha2"] == 1) & (test["alpha3"] == 1)].set_index(["panel", "repetition"])
    nb = rec.query("split == 'test' and metric == 'nb_error'").set_index(["panel", "repetition"])
    pd.testing.assert_series_equal(corner["value"], nb["value"], check_names=False)
    exact = rec[rec["artefact"] == "population_exact"].set_index(["panel", "alpha2", "alpha3"])
    assert exact.loc[("a", 1.0, 1.0), "value"] == pytest.approx(467 / 1350)
    assert exact.loc[("a", 0.0, 0.0), "value"] == pytest.approx(23 / 45)
    assert exact.loc[("b", 1.0, 1.0), "value"] > exact.loc[("a", 1.0, 1.0), "value"]
    # panel b: the interpolated NB does better than NB (the paper's claim, on the true law)
    assert exact.loc["b", "value"].min() < exact.loc[("b", 1.0, 1.0), "value"] - 0.005
    assert set(rec.query("split == 'test'")["tie"]) == {0.0, 0.5}


def test_fig4_continuous_grid(python_m, tmp_path):
    rec = run_study(python_m, tmp_path, "fig4", "fig4.repetitions=1", "fig4.grid_points=3",
                    "fig4.n_train=300", "fig4.n_test=400", "fig4.population=2000")  # fmt: skip
    assert set(rec["dataset"].dropna()) == {"vidaurre_toy_continuous"}
    test = rec.query("split == 'test' and metric == 'error'")
    corner = test[(test["alpha2"] == 1) & (test["alpha3"] == 1)].set_index("panel")["value"]
    nb = rec.query("split == 'test' and metric == 'nb_error'").set_index("panel")["value"]
    pd.testing.assert_series_equal(corner, nb, check_names=False)
    large = rec[rec["artefact"] == "population_large_sample"]
    assert len(large) == 2 * 9 and large["value"].between(0, 1).all()


def test_fig5_curves_start_at_the_fsnb_state(python_m, tmp_path):
    rec = run_study(python_m, tmp_path, "fig5", "fig5.repetitions=2", "fig5.n_train=300",
                    "fig5.n_test=500", "fig5.grid_points=11", "fig5.step=1")  # fmt: skip
    train = rec.query("split == 'train' and metric == 'error'")
    assert set(train["role"]) == {"relevant", "irrelevant"}
    assert sorted(train["alpha"].unique()) == pytest.approx(np.linspace(0, 1, 11))
    state = rec[rec["artefact"] == "state"]
    for r in (0, 1):
        Xtr, ytr, _, _ = draw("vidaurre_toy_irrelevant50", {"n_noise": 12}, 300, 500, 0, r)
        params = json.loads(rec["params"].dropna().iloc[0])
        fsnb = make_method("fsnb", **params).fit(Xtr, ytr)
        alphas = fsnb.fit_report_["alpha_path"][1]
        mine = state[state["repetition"] == r].set_index("variable")["value"]
        np.testing.assert_allclose(mine[list(Xtr.columns)], alphas)
        rel = train[(train["repetition"] == r) & (train["role"] == "relevant")]
        assert alphas[list(Xtr.columns).index(rel["variable"].iloc[0])] == 0  # auto: still out
        # at α = 0 the relevant predictor's curve is fsNB's model after one step
        at0 = rel[rel["alpha"] == 0]["value"].iloc[0]
        assert at0 == pytest.approx(fsnb.fit_report_["trace"]["error"].iloc[1])


def test_fig6_trace_and_aic(python_m, tmp_path):
    rec = run_study(python_m, tmp_path, "fig6", "fig6.repetitions=2", "fig6.n_train=300",
                    "fig6.n_test=500")  # fmt: skip
    trace = rec[rec["artefact"] == "trace"]
    assert set(trace["repetition"]) == {0, 1}
    # AIC = Q + 2d/N, Q = 2·log-loss, recomputed from the trace's columns
    np.testing.assert_allclose(trace["aic"], trace["Q"] + 2 * trace["d"] / trace["n_train"])
    np.testing.assert_allclose(trace["Q"], 2 * trace["log_loss"])
    np.testing.assert_allclose(trace["penalty"], 2 * trace["d"] / 300)
    assert (trace["step"] == trace.groupby("repetition").cumcount()).all()
    Xtr, ytr, Xte, yte = draw("vidaurre_toy_irrelevant50", {"n_noise": 12}, 300, 500, 0, 0)
    fsnb = make_method("fsnb", **json.loads(rec["params"].dropna().iloc[0])).fit(Xtr, ytr)
    rep0 = trace[trace["repetition"] == 0].sort_values("step")
    np.testing.assert_allclose(rep0["train_error"], fsnb.fit_report_["trace"]["error"])
    selected = rec.query("split == 'test' and metric == 'error' and repetition == 0")["value"]
    assert selected.iloc[0] == pytest.approx(np.mean(fsnb.predict(Xte) != yte))
    assert selected.iloc[0] == pytest.approx(rep0["test_error"].iloc[fsnb.fit_report_["best_step"]])
    path_min = rec.query("metric == 'path_min_error' and repetition == 0")["value"].iloc[0]
    assert path_min == pytest.approx(rep0["test_error"].min())


def test_alpha_grid_shape():
    grid = alpha_grid(3)
    assert grid.shape == (9, 3) and (grid[:, 0] == 1).all()
    assert grid[-1].tolist() == [1, 1, 1] and grid[0].tolist() == [1, 0, 0]
