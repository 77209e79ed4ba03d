"""boulle2007 task experiments (waveform study, Table 4 stand-ins, §8 challenge) on tiny settings,
and every figure function of repro.report.papers.boulle2007.figures on the records they write."""

import numpy as np
import pandas as pd
import pytest
from conftest import run_module
from hydra import compose, initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from matplotlib.colors import to_rgba

import repro.report.papers.boulle2007.figures as figures
from repro.config import register_dataset_configs
from repro.evaluation.records import read_records
from repro.experiments.boulle2007 import (
    ber_error_bar,
    challenge_study,
    challenge_test_score,
    construction_label,
    table4_study,
)
from repro.registry import CONF_DIR

WAVEFORM = ["nb", "snb_acc", "snb_auc", "snb_map", "snb_bma", "snb_cma"]


def composed(experiment, overrides):
    register_dataset_configs()
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            return compose("config", overrides=[f"experiment={experiment}", *overrides])
    finally:
        GlobalHydra.instance().clear()


def written(paths, *names):
    got = {p.name for p in paths}
    for name in names:
        for ext in ("png", "pdf"):
            assert f"{name}.{ext}" in got
    assert all(p.stat().st_size > 0 for p in paths)


@pytest.fixture(scope="module")
def waveform_results(tmp_path_factory):
    """One command, as a user runs it: 300 rows, exhaustive MAP/BMA/CMA and ACC, greedy AUC."""
    results = tmp_path_factory.mktemp("wf")
    args = ["repro", "experiment=boulle2007_waveform", "dataset.n_samples=300",
            "waveform.auc_search=greedy", f"results_dir={results}"]  # fmt: skip
    proc = run_module(*args, cwd=results, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return results / "boulle2007_waveform", args, proc.stdout


def test_waveform_study_writes_standard_records(waveform_results):
    root, _, _ = waveform_results
    files = sorted((root / "waveform__n_samples=300").glob("*.parquet"))
    assert sorted(f.stem for f in files) == sorted(WAVEFORM)
    rec = pd.concat(pd.read_parquet(f) for f in files)
    assert set(rec["protocol"]) == {"holdout70"}
    for split in ("train", "test"):
        sub = rec[rec["split"] == split]
        for metric in ("accuracy", "auc", "ilf", "compression_rate"):
            assert len(sub[sub["metric"] == metric]) == len(WAVEFORM), (split, metric)
    test = rec[rec["split"] == "test"]
    assert (test["n_test"] == 90).all() and (test["n_train"] == 210).all()
    assert set(rec.loc[rec["method"] == "snb_map", "p_search"]) == {"exhaustive"}


def test_waveform_artefacts(waveform_results):
    root, _, _ = waveform_results
    art = read_records(root / "artefacts")
    assert set(art["split"]) == {"artefact"}
    weights = art[art["artefact"] == "weights"]
    assert set(weights["method"]) == set(WAVEFORM)
    main = weights[weights["search"].isin(["exhaustive", "greedy", "none"])]
    for method in WAVEFORM:
        w = main[(main["method"] == method)].drop_duplicates("variable_index")
        assert len(w) == 21 and w["value"].between(0, 1).all()
    # hard selections are 0/1; averaging gives soft weights on the informative variables only
    hard = weights[weights["method"].isin(["snb_acc", "snb_auc", "snb_map"])]["value"]
    assert set(hard.unique()) <= {0.0, 1.0}
    cma = weights[weights["method"] == "snb_cma"]
    assert (cma.loc[~cma["informative"].astype(bool), "value"] == 0).all()
    assert (cma.loc[cma["informative"].astype(bool), "value"] > 0).all()
    # the most probable model of the exhaustive enumeration is the SNB(MAP) subset
    top = art[art["artefact"] == "top_models"]
    assert top["rank"].max() == 200
    rank1 = set(top[(top["rank"] == 1) & (top["value"] == 1)]["variable"])
    map_w = weights[(weights["method"] == "snb_map") & (weights["value"] == 1)]
    assert rank1 == set(map_w["variable"])
    assert (top.groupby("rank")["log10_ratio_to_map"].first().diff().dropna() <= 1e-12).all()
    post = art[art["artefact"] == "log_posterior"].sort_values("position")
    assert np.all(np.diff(post["value"].to_numpy()) >= -1e-9)  # sorted by increasing posterior
    summary = art[art["artefact"] == "summary"].set_index("key")
    k = int(summary.loc["n_candidates", "value"])
    assert summary.loc["n_models", "value"] == 2**k
    assert post["value"].iloc[-1] == pytest.approx(summary.loc["log10_map_vs_null", "value"])


def test_waveform_resumes_without_refitting(waveform_results):
    root, args, _ = waveform_results
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*.parquet")}
    proc = run_module(*args, cwd=root, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("already computed") == len(WAVEFORM)
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*.parquet")} == before


def capture_figures(monkeypatch, module) -> dict:
    """name → the matplotlib Figure each figure function of ``module`` draws (read back after
    it is written and closed)."""
    drawn, save = {}, module.save

    def keep(fig, out_dir, name):
        drawn[name] = fig
        return save(fig, out_dir, name)

    monkeypatch.setattr(module, "save", keep)
    return drawn


def dominated(table: pd.DataFrame, method: str) -> bool:
    """Another method at least as good on ACC, AUC and ILF (lower) and better on one."""
    mine = table.loc[method]
    for other in table.index.drop(method):
        theirs = table.loc[other]
        geq = [theirs.accuracy >= mine.accuracy, theirs.auc >= mine.auc, theirs.ilf <= mine.ilf]
        gt = [theirs.accuracy > mine.accuracy, theirs.auc > mine.auc, theirs.ilf < mine.ilf]
        if all(geq) and any(gt):
            return True
    return False


def test_waveform_figures(waveform_results, tmp_path, monkeypatch):
    """Figs 3–8 plot the numbers of the records: weights (3, 7), test means of ACC, AUC, ILF and
    the Pareto view (4, 8), the selected variables of the top models (5), the posterior (6)."""
    root, _, _ = waveform_results
    records = read_records(root)
    cfg = {"methods": WAVEFORM}
    drawn = capture_figures(monkeypatch, figures)
    paths = []
    for name in ("fig3", "fig4", "fig5", "fig6", "fig7", "fig8"):
        paths += getattr(figures, name)(records, tmp_path, cfg)
    written(paths, "fig3", "fig4", "fig5", "fig6", "fig7", "fig8")
    art = records[records["split"] == "artefact"]
    # Figs 3 and 7: one panel per method, a bar per variable, its height the stored weight
    weights = art[art["artefact"] == "weights"]
    panels = {
        "fig3": ["snb_acc", "snb_auc", "snb_map", "snb_bma"],
        "fig7": ["snb_cma", "snb_bma", "snb_map", "snb_auc", "snb_acc"],
    }
    for name, methods in panels.items():
        axes = drawn[name].axes
        assert len(axes) == len(methods)
        for ax, method in zip(axes, methods):
            mine = weights[weights["method"] == method]
            mine = mine[mine["search"] == mine["search"].iloc[0]].sort_values("variable_index")
            bars = ax.patches
            assert [b.get_x() + b.get_width() / 2 for b in bars] == pytest.approx(
                mine["variable_index"].tolist()
            )
            assert [b.get_height() for b in bars] == pytest.approx(mine["value"].tolist())
            assert ax.get_ylabel() == figures.method_labels([method])[0]
    # Figs 4 and 8: the test means of ACC, AUC and ILF per method (bars), ILF/AUC points
    test = records[records["split"] == "test"]
    means = test.groupby(["method", "metric"])["value"].mean().unstack("metric")
    for name, methods in (("fig4", WAVEFORM[:5]), ("fig8", WAVEFORM)):
        axes = drawn[name].axes
        for ax, metric in zip(axes[:3], ["accuracy", "auc", "ilf"]):
            heights = [b.get_height() for b in ax.patches]
            assert heights == pytest.approx(means.loc[methods, metric].tolist(), rel=1e-12)
        points = axes[3].get_lines()
        assert len(points) == len(methods)
        table = means.loc[methods]
        for line, method in zip(points, methods):
            assert line.get_xdata()[0] == pytest.approx(table.loc[method, "ilf"])
            assert line.get_ydata()[0] == pytest.approx(table.loc[method, "auc"])
            filled = to_rgba(line.get_markerfacecolor()) != (1.0, 1.0, 1.0, 1.0)
            assert filled == (not dominated(table, method)), (name, method)
        assert figures.pareto_optimal(table[["accuracy", "auc", "ilf"]]) == {
            m: not dominated(table, m) for m in methods
        }
    # Fig. 5: black where the model of rank r selects variable v
    top = art[(art["artefact"] == "top_models") & (art["method"] == "snb_map")]
    image = drawn["fig5"].axes[0].get_images()[0].get_array()
    n_models = int(top["rank"].max())
    n_var = int(weights.loc[weights["method"] == "snb_map", "variable_index"].max())  # 21
    assert image.shape == (n_models, n_var)
    expected = np.zeros((n_models, n_var))
    for row in top.itertuples():
        expected[int(row.rank) - 1, int(row.variable_index) - 1] = row.value
    np.testing.assert_array_equal(np.asarray(image), expected)
    # Fig. 6: the sorted log posteriors against their percentile
    post = art[(art["artefact"] == "log_posterior") & (art["method"] == "snb_map")]
    post = post.sort_values("position")
    (line,) = drawn["fig6"].axes[0].get_lines()
    np.testing.assert_allclose(line.get_xdata(), 100 * post["fraction"].to_numpy())
    np.testing.assert_allclose(line.get_ydata(), post["value"].to_numpy())


def test_pareto_optimal():
    """A hand case: ILF counts lower; a tie on all three criteria dominates neither method."""
    table = pd.DataFrame(
        {"accuracy": [0.8, 0.7, 0.9], "auc": [0.9, 0.85, 0.8], "ilf": [0.5, 0.6, 0.7]},
        index=["a", "b", "c"],
    )
    assert figures.pareto_optimal(table) == {"a": True, "b": False, "c": True}
    # d equals a on ACC and AUC with a lower ILF: it dominates a (only through ILF); e ties d
    table.loc["d"] = [0.8, 0.9, 0.4]
    table.loc["e"] = [0.8, 0.9, 0.4]
    assert figures.pareto_optimal(table) == {"a": False, "b": False, "c": True, "d": True,
                                             "e": True}  # fmt: skip
    # a higher ILF is worse: f, better than c on ACC and AUC but with a higher ILF, leaves c be
    table.loc["f"] = [0.95, 0.95, 0.9]
    assert figures.pareto_optimal(table)["c"] and figures.pareto_optimal(table)["f"]
    table.loc["g"] = [0.95, 0.95, 0.3]  # better on all three: the only Pareto-optimal method
    assert [m for m, ok in figures.pareto_optimal(table).items() if ok] == ["g"]


def test_challenge_test_score_reproduces_table5():
    """Table 5 rows (test BER, guess, score); σ of the two nearly balanced sets ≈ the binomial
    error bar of their BER on their test sets (41471 and 31532 instances)."""
    for name, n in {"ada": 41471, "gina": 31532}.items():
        ber, guess, _, score = figures.TABLE5_PUBLISHED[name]
        sigma = np.sqrt(ber * (1 - ber) / n)
        assert challenge_test_score(ber, guess, sigma) == pytest.approx(score, abs=3e-4), name
    assert challenge_test_score(0.2, 0.2, 0.01) == 0.2
    assert challenge_test_score(0.2, 0.3, 0.0) == pytest.approx(0.3)


def test_ber_error_bar_by_hand():
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    pred = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1])  # e_1 = 1/4, e_0 = 2/8
    expected = np.sqrt(0.25 * 0.75 / 4 + 0.25 * 0.75 / 8) / 2
    assert ber_error_bar(y, pred) == pytest.approx(expected)
    assert construction_label(10000, 2) == "10k F(2D)"
    assert construction_label(0, 2) == "original"


def test_challenge_study_tiny(tmp_path):
    cfg = composed(
        "boulle2007_challenge",
        [f"results_dir={tmp_path}", "challenge.challenge_sets=[ada]",
         "challenge.standins.madelon_like.params.n_samples=200",
         "challenge.standins.waveform_noise.params.n_samples=240",
         "challenge.constructions.f2d_10k.n_features=30",
         "challenge.constructions.f3d_10k.enabled=true",
         "challenge.constructions.f3d_10k.n_features=20", "challenge.guess_folds=3",
         "challenge.timing.n_samples=[100,150]", "challenge.timing.n_constructed=[10,40]"],
    )  # fmt: skip
    out = challenge_study(cfg)
    assert out["missing"] == ["ada"]  # OpenML only, not cached, never downloaded in tests
    root = tmp_path / "boulle2007_challenge"
    rec = read_records(root)
    entries = rec[rec["construction"].notna() & (rec["split"] == "test")]
    assert set(entries["dataset"]) == {"madelon_like", "waveform_noise_0vsrest"}
    assert set(entries["construction"]) == {"original", "30 F(2D)", "20 F(3D)"}
    for metric in ("balanced_error_rate", "balanced_error_rate_threshold", "ber_guess",
                   "ber_guess_threshold", "guess_error", "test_score_threshold"):  # fmt: skip
        assert len(entries[entries["metric"] == metric]) == 6, metric
    v = entries.set_index(["dataset", "construction", "metric"])["value"]
    key = ("madelon_like", "30 F(2D)")
    assert v[(*key, "guess_error")] == pytest.approx(
        abs(v[(*key, "ber_guess")] - v[(*key, "balanced_error_rate")])
    )
    assert set(rec.loc[rec["metric"] == "n_constructed", "value"]) <= {0, 20, 30}
    timing = rec[rec["study"] == "timing"]
    assert len(timing[timing["metric"] == "fit_time"]) == 4
    assert set(timing["n_features"]) == {510, 540}
    paths = figures.table5(rec, tmp_path / "out", {}) + figures.fig12(rec, tmp_path / "out", {})
    written(paths, "fig12")
    md = (tmp_path / "out" / "table5.md").read_text()
    assert "| Overall |" in md and "waveform_noise_0vsrest" in md and "0.1723" in md
    assert (tmp_path / "out" / "table5.tex").read_text().count(r"\begin{tabular}") == 2
    # a stand-in run, said plainly: which set stands for what, nothing compared (5 sets x 4)
    report = (tmp_path / "out" / "REPRODUCTION.md").read_text()
    assert "Stand-in run: no value here is compared with the paper." in report
    assert "`madelon_like`: Madelon's design" in report and "ada, gina, hiva, nova, sylva" in report
    assert "0 of 24 published numbers compared (24 on stand-ins, not compared)" in report
    assert md.count("Stand-in run") == 1


def test_table4_study_tiny(tmp_path):
    cfg = composed(
        "boulle2007_table4",
        [f"results_dir={tmp_path}", "table4.challenge_sets=[madelon]",
         "table4.methods=[snb_cma,nb,nb_ef]", "table4.standins.madelon_like.n_samples=120",
         "table4.standins.waveform_noise.n_samples=150", "table4.construction.n_features=15",
         "protocol.n_splits=3", "progress=false"],
    )  # fmt: skip
    out = table4_study(cfg)
    assert out["missing"] == ["madelon"]
    assert out["datasets"] == ["madelon_like+15F2D", "waveform_noise+15F2D"]
    rec = read_records(tmp_path / "boulle2007_table4")
    assert set(rec["method"]) == {"snb_cma", "nb", "nb_ef"}
    assert set(rec["n_features"]) == {515, 55}
    assert rec.query("split == 'test' and metric == 'accuracy'").shape[0] == 2 * 3 * 3
    written(figures.fig10(rec, tmp_path / "out", {"methods": ["snb_cma", "nb", "nb_ef"]}), "fig10")


@pytest.mark.slow
def test_full_challenge_study(tmp_path):
    proc = run_module("repro", "experiment=boulle2007_challenge", f"results_dir={tmp_path}",
                      "n_jobs=2", cwd=tmp_path, timeout=14400)  # fmt: skip
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_full_table4_study(tmp_path):
    proc = run_module("repro", "experiment=boulle2007_table4", f"results_dir={tmp_path}",
                      "n_jobs=2", "progress=false", cwd=tmp_path, timeout=6 * 3600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
