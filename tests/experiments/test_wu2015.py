"""wu2015 experiments run end to end on tiny settings (Hydra multirun in a fresh directory), and
their reports (``python -m repro.report experiment=wu2015_*``:
repro/report/papers/wu2015/figures.py)."""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from conftest import run_module
from scipy import stats

from repro.report.papers.wu2015 import figures as wu2015

ROOT = Path(__file__).resolve().parents[2]
WU = ROOT / "experiments" / "wu2015"


def run(args, cwd, timeout=300):
    assert args[0] == "-m"
    proc = run_module(*args[1:], cwd=cwd, timeout=timeout)
    assert proc.returncode == 0, f"{proc.stdout}\n{proc.stderr}"
    return proc


def sweep(tmp_path, experiment: str, datasets: list[str]) -> Path:
    """``python -m repro experiment=<experiment>`` over ``datasets``, 2 outer repetitions, into
    ``tmp_path / "res"`` (returned)."""
    results = tmp_path / "res"
    run(
        ["-m", "repro", f"experiment={experiment}",
         f"hydra.sweeper.params.dataset='{','.join(datasets)}'",
         "protocol.n_repeats=2", f"results_dir={results}", "progress=false"],
        tmp_path,
    )  # fmt: skip
    return results


def _table2(tmp_path, datasets):
    results = sweep(tmp_path, "wu2015_table2", datasets)
    files = sorted((results / "wu2015_table2").rglob("*.parquet"))
    names = {(f.parent.name, f.stem) for f in files}
    methods = ["nb_laplace", "bma_nb_tuned", "lr_tuned", "svm_tuned"]
    # 2 repetitions instead of the experiment's 20: a protocol of its own, in the names
    shrunk = "__protocol=resample,n_repeats=2"
    assert names == {(d, f"{m}{shrunk}") for d in datasets for m in methods}
    rec = pd.concat(pd.read_parquet(f) for f in files)
    assert set(rec["protocol"]) == {"resample,n_repeats=2"}
    acc = rec.query("split == 'test' and metric == 'accuracy'")
    assert len(acc) == 2 * len(datasets) * 4  # 2 repetitions x data sets x 4 methods
    test = rec.query("split == 'test'")
    assert (test["n_test"] / (test["n_test"] + test["n_train"])).between(0.09, 0.11).all()
    printed = run(
        ["-m", "repro.report", "experiment=wu2015_table2", f"results={results}"], tmp_path
    ).stdout
    out = results / "wu2015_table2"
    names = ["table2.md", "REPRODUCTION.md", "table2_side_by_side.csv"]
    for name in names:
        assert str(out / name) in printed.splitlines()
        assert (out / name).stat().st_size > 0
    report = (out / "REPRODUCTION.md").read_text()
    assert report.startswith("# wu2015 Table 2 — reproduction")  # not the generic comparison
    assert "BMA never underperforms NB?" in report
    assert (out / "table2.md").read_text() in report
    side = pd.read_csv(out / "table2_side_by_side.csv")
    assert len(side) == 19 * 4  # every published (method, data set)
    assert set(side.dropna(subset=["error"])["dataset"]) == set(datasets)
    return acc


def test_table2_runs_as_a_multirun_and_reports(tmp_path):
    """Two small numeric data sets (fast: the C x B grids cost 180 fits per outer split)."""
    acc = _table2(tmp_path, ["iris", "haberman"])
    assert acc.query("dataset == 'iris'")["value"].mean() > 0.8


@pytest.mark.slow
def test_table2_on_nominal_data_sets(tmp_path):
    acc = _table2(tmp_path, ["vote", "zoo"])
    assert acc.query("dataset == 'vote'")["value"].min() > 0.8


def test_reported_csv_transcribes_table2():
    rep = pd.read_csv(WU / "reported.csv")
    assert list(rep.columns) == ["method", "dataset", "metric", "value", "table"]
    assert rep["dataset"].nunique() == 19 and rep["method"].nunique() == 4
    assert len(rep) == 19 * 4 * 3
    one = rep.set_index(["method", "dataset", "metric"])["value"]
    assert one["bma_nb_tuned", "vowel", "error"] == pytest.approx(0.3333)
    assert one["svm_tuned", "segment", "fit_time"] == pytest.approx(6.637)
    assert one["nb_laplace", "vote", "error_ci95"] == pytest.approx(0.0342)


def test_fig3_sweep_and_plot(tmp_path, monkeypatch):
    results = sweep(tmp_path, "wu2015_fig3", ["iris"])
    assert len(list((results / "wu2015_fig3").rglob("*.parquet"))) == 11  # the 11 values of Γ
    run(["-m", "repro.report", "experiment=wu2015_fig3", f"results={results}"], tmp_path)
    for ext in ("png", "pdf", "csv"):
        assert (results / "wu2015_fig3" / f"fig3.{ext}").stat().st_size > 0
    assert not (results / "wu2015_fig3" / "REPRODUCTION.md").exists()
    curve = pd.read_csv(results / "wu2015_fig3" / "fig3.csv")
    assert sorted(curve["gamma"]) == pytest.approx([0.5 + 0.1 * i for i in range(11)])
    assert set(curve["dataset"]) == {"iris"}
    # the plotted means are the records' mean test accuracies per Γ (2 outer repetitions)
    records = pd.concat(
        pd.read_parquet(f) for f in sorted((results / "wu2015_fig3").rglob("*.parquet"))
    )
    acc = records.query("split == 'test' and metric == 'accuracy'")
    assert acc.groupby("p_gamma").size().tolist() == [2] * 11
    means = acc.groupby("p_gamma")["value"].mean()
    curve = curve.sort_values("gamma")
    np.testing.assert_allclose(curve["accuracy"], means.to_numpy(), rtol=1e-12)
    # its panel: "better above Γ = 1" when the best accuracy is at some Γ > 1
    above = means[means.index > 1 + 1e-9].max() > means[means.index <= 1 + 1e-9].max()
    assert set(curve["panel"]) == {wu2015.PANELS[0] if above else wu2015.PANELS[1]}
    # and the figure draws those numbers: one line, in the panel of the data set
    drawn = {}

    def keep(fig, mean, out_dir, name):
        drawn[name] = fig
        return []

    monkeypatch.setattr(wu2015, "save_with_means", keep)
    wu2015.fig3(records, tmp_path / "again", {})
    axes = drawn["fig3"].axes
    panel = wu2015.PANELS.index(curve["panel"].iloc[0])
    (line,) = axes[panel].get_lines()
    assert axes[1 - panel].get_lines() == []
    np.testing.assert_allclose(line.get_xdata(), means.index.to_numpy())
    np.testing.assert_allclose(line.get_ydata(), means.to_numpy(), rtol=1e-12)


#: a tiny Figure 2 (seconds): 2 runs, 2 points per panel, small grids
FIG2_TINY = [
    "fig2.source=dna", "fig2.runs=2", "fig2.k_grid=[5,10]", "fig2.n_grid=[60,120]",
    "fig2.k_for_n=10", "fig2.methods.bma_nb_tuned.grid.gamma=[0.8,1.2]",
    "fig2.methods.lr_tuned.grid.C=[1.0]", "fig2.methods.svm_tuned.grid.C=[1.0]",
]  # fmt: skip
FIG2_METHODS = {"nb_laplace", "bma_nb_tuned", "lr_tuned", "svm_tuned"}


def test_fig2_runs_through_the_runner_and_reports(tmp_path):
    results = tmp_path / "res"
    args = ["-m", "repro", "experiment=wu2015_fig2", *FIG2_TINY, f"results_dir={results}"]
    run([*args, "progress=false"], tmp_path)
    root = results / "wu2015_fig2"
    files = sorted(root.rglob("*.parquet"))
    points = {"features__K=5__N=1000", "features__K=10__N=1000", "training_size__K=10__N=60",
              "training_size__K=10__N=120"}  # fmt: skip
    expected = {(p, m) for p in points for m in FIG2_METHODS}
    assert {(f.parent.name, f.stem) for f in files} == expected
    rec = pd.concat(pd.read_parquet(f) for f in files)
    assert set(rec["dataset"]) == {"dna_ei_vs_ie"} and set(rec["task"]) == {
        "SUBSTITUTE: dna EI vs IE (180 binary indicators)"
    }
    test = rec.query("split == 'test' and metric == 'accuracy'")
    assert len(test) == len(points) * 4 * 2 and set(test["repetition"]) == {0, 1}
    feats = test[test["panel"] == "features"]
    assert (feats["n_train"] == 1000).all() and (feats["n_test"] == 532).all()
    assert set(feats["n_features"]) == {5, 10}
    sizes = test[test["panel"] == "training_size"]
    assert (sizes["n_test"] == 300).all() and set(sizes["n_train"]) == {60, 120}
    assert (sizes["n_features"] == 10).all() and test["value"].between(0.5, 1).all()
    # every method of a panel point is fitted on the same splits (one config hash per cell)
    assert rec.groupby(["dataset_key", "method"])["config_hash"].nunique().eq(1).all()
    assert rec.groupby("dataset_key")["config_hash"].nunique().eq(4).all()
    again = run([*args, "force=false"], tmp_path)  # resumable: nothing refitted
    assert {f: f.stat().st_mtime_ns for f in files} == {
        f: f.stat().st_mtime_ns for f in sorted(root.rglob("*.parquet"))
    }
    assert "accuracy" in again.stdout
    printed = run(["-m", "repro.report", "experiment=wu2015_fig2", f"results={results}"], tmp_path)
    for ext in ("png", "pdf", "csv"):
        assert str(root / f"fig2.{ext}") in printed.stdout.splitlines()
        assert (root / f"fig2.{ext}").stat().st_size > 0
    curve = pd.read_csv(root / "fig2.csv")
    assert len(curve) == len(points) * 4 and (curve["runs"] == 2).all()


def test_fig2_splits():
    from repro.experiments.wu2015 import features_splits, training_size_splits

    y = np.repeat(["a", "b"], [60, 40])
    (first, second) = features_splits(y, 50, runs=2, seed=0)
    for s in (first, second):
        assert s.train.size == 50 and np.bincount(y[s.train] == "b").tolist() == [30, 20]
        assert np.union1d(s.train, s.test).size == 100 and np.intersect1d(s.train, s.test).size == 0
    assert (first.repetition, second.repetition) == (0, 1)
    assert not np.array_equal(first.test, second.test)  # runs differ
    assert np.array_equal(features_splits(y, 50, 2, 0)[1].test, second.test)  # deterministic
    small = training_size_splits(y, 20, n_test=30, runs=2, seed=0)
    large = training_size_splits(y, 60, n_test=30, runs=2, seed=0)
    for a, b in zip(small, large):
        assert np.array_equal(a.test, b.test)  # one test set per run, whatever N
        assert a.train.size == 20 and b.train.size == 60 and a.test.size == 30
        assert np.bincount(y[a.train] == "b").tolist() == [12, 8]
        assert np.intersect1d(b.train, b.test).size == 0
    full = training_size_splits(y, 500, n_test=30, runs=1, seed=0)[0]
    assert full.train.size == 70  # N beyond the pool: the whole pool


def test_fig2_newsgroups_path_and_offline_fallback(monkeypatch):
    import sklearn.datasets

    from repro.experiments import wu2015 as study

    docs = ["space shuttle orbit", "space orbit", "graphics image", "image render image space"]

    def fake_fetch(**kwargs):
        assert kwargs["categories"] == list(study.NEWSGROUPS)
        if not kwargs["download_if_missing"]:
            raise OSError("20 newsgroups not cached")
        return SimpleNamespace(data=docs, target=np.array([1, 1, 0, 0]),
                               target_names=list(study.NEWSGROUPS))  # fmt: skip

    monkeypatch.setattr(sklearn.datasets, "fetch_20newsgroups", fake_fetch)
    ds = study.load_task("newsgroups", k_max=3)
    assert list(ds.X.columns) == ["space", "image", "orbit"]  # most frequent first
    assert ds.X["space"].astype(str).tolist() == ["1", "1", "0", "1"]
    assert ds.y.tolist() == ["sci.space", "sci.space", "comp.graphics", "comp.graphics"]
    assert "SUBSTITUTE" not in ds.meta["notes"]
    offline = study.load_task("auto", k_max=3)  # not cached, no download: the dna substitute
    assert offline.name == "dna_ei_vs_ie" and offline.meta["notes"].startswith("SUBSTITUTE")
    assert offline.n_samples == 1532 and sorted(set(offline.y)) == ["ei", "ie"]
    with pytest.raises(ValueError, match="source must be one of"):
        study.load_task("reuters", k_max=3)


def test_fig2_curves_average_the_runs(tmp_path):
    rows = []
    points = [("features", 5, 100, [0.8, 0.9]), ("training_size", 5, 50, [0.6, 0.7])]
    for panel, k, n, accs in points:
        for rep, acc in enumerate(accs):
            base = {"task": "t", "panel": panel, "method": "nb_laplace", "K": k, "N": n}
            rows.append({**base, "repetition": rep, "split": "test", "metric": "accuracy",
                         "value": acc})  # fmt: skip
    curve = wu2015.fig2_curves(pd.DataFrame(rows)).set_index("panel")
    assert curve.at["features", "accuracy"] == pytest.approx(0.85)
    assert curve.at["training_size", "sd"] == pytest.approx(np.std([0.6, 0.7], ddof=1))
    paths = wu2015.fig2(pd.DataFrame(rows), tmp_path, {})
    assert [p.name for p in paths] == ["fig2.png", "fig2.pdf", "fig2.csv"]
    with pytest.raises(ValueError, match="no wu2015 Fig. 2 records"):
        wu2015.fig2_curves(pd.DataFrame(rows).drop(columns="panel"))


def _records(accuracies: dict) -> pd.DataFrame:
    """Hand-made records: {(method, dataset): [test accuracy per repetition]} + a fit_time."""
    rows = []
    for (method, dataset), values in accuracies.items():
        for rep, value in enumerate(values):
            base = {"method": method, "dataset": dataset, "repetition": rep, "fold": 0}
            rows.append({**base, "split": "test", "metric": "accuracy", "value": value})
            rows.append({**base, "split": "model", "metric": "fit_time", "value": 0.01})
    return pd.DataFrame(rows)


def test_table2_summary_error_and_t_interval():
    """3 repetitions at accuracies 0.9, 0.8, 1.0: error 0.1, sd 0.1, t_{0.975,2}·sd/√3."""
    rec = _records({("nb_laplace", "iris"): [0.9, 0.8, 1.0]})
    (row,) = wu2015.summarize(rec).to_dict("records")
    assert row["error"] == pytest.approx(0.1)
    assert row["error_ci95"] == pytest.approx(stats.t.ppf(0.975, 2) * 0.1 / np.sqrt(3))
    assert row["error_ci95"] == pytest.approx(0.2484, abs=1e-4)  # 4.303 * 0.1 / 1.732
    assert row["repetitions"] == 3 and row["fit_time"] == pytest.approx(0.01)
    assert not row["time_includes_tuning"]  # untuned: fit_time is the final fit
    tuned = wu2015.summarize(_records({("bma_nb_tuned", "lymph_binary"): [0.9, 0.8]}))
    assert tuned.loc[0, "dataset"] == "lymph"  # shown under the paper's name
    assert bool(tuned.loc[0, "time_includes_tuning"])  # no refit_time stored


def test_bma_vs_nb_flags_the_data_set_where_bma_is_worse(tmp_path):
    rec = _records(
        {
            ("bma_nb_tuned", "iris"): [0.80, 0.70, 0.75, 0.80],  # BMA worse on every split
            ("nb_laplace", "iris"): [0.90, 0.85, 0.90, 0.95],
            ("bma_nb_tuned", "vote"): [0.95, 0.95, 0.90, 1.00],  # BMA better
            ("nb_laplace", "vote"): [0.90, 0.85, 0.90, 0.95],
        }
    )
    duel = wu2015.bma_vs_nb(rec).set_index("dataset")
    assert duel.at["iris", "bma_minus_nb"] == pytest.approx(0.1375)
    assert duel.at["iris", "bma_worse_splits"] == 4 and duel.at["iris", "p_bma_worse"] < 0.05
    assert duel.at["vote", "bma_minus_nb"] < 0 and duel.at["vote", "p_bma_worse"] > 0.5
    paths = wu2015.table2(rec, tmp_path, {})
    assert [p.name for p in paths] == ["table2.md", "REPRODUCTION.md", "table2_side_by_side.csv"]
    report = (tmp_path / "REPRODUCTION.md").read_text()
    assert "BMA has a higher mean error than NB on 1 of 2 data sets (iris)" in report
    assert "significantly (paired t, p < 0.05) on 1 (iris)" in report


# --- Table 2, the density variant (experiment=wu2015_table2_density) ---------------------------
def test_table2_density_runs_as_a_multirun_and_reports(tmp_path):
    """NB and BMA with method.gaussian=density: the parameter reaches bma_nb through
    bma_nb_tuned, enters the file names and records (the default, weka, does not), and the report
    puts the variant next to the paper."""
    results = sweep(tmp_path, "wu2015_table2_density", ["iris"])
    out = results / "wu2015_table2_density"
    files = sorted(p.name for p in (out / "iris").glob("*.parquet"))
    stems = ["bma_nb_tuned__gaussian=density", "nb_laplace__gaussian=density"]
    assert len(files) == 2 and all(f.startswith(s) for f, s in zip(files, stems)), files
    rec = pd.concat(pd.read_parquet(out / "iris" / f) for f in files)
    assert set(rec["p_gaussian"]) == {"density"}
    run(["-m", "repro.report", "experiment=wu2015_table2_density", f"results={results}"], tmp_path)
    report = (out / "REPRODUCTION.md").read_text()
    assert "BMA never underperforms NB? (density Gaussian)" in report
    assert (out / "table2_density.md").read_text() in report
    side = pd.read_csv(out / "table2_density_side_by_side.csv")
    assert len(side) == 19 * 4 and set(side.dropna(subset=["error_density"])["dataset"]) == {"iris"}


def test_table2_density_puts_both_gaussians_next_to_the_paper(tmp_path):
    base = _records(
        {
            ("nb_laplace", "zoo"): [0.9, 1.0, 0.9, 1.0],
            ("bma_nb_tuned", "zoo"): [1.0, 1.0, 0.9, 1.0],
            ("lr_tuned", "zoo"): [0.95] * 4,
            ("svm_tuned", "zoo"): [0.90] * 4,
        }
    )
    base = base.assign(
        p_gaussian=base["method"].map({"nb_laplace": "weka", "bma_nb_tuned": "weka"})
    )
    density = _records(
        {
            ("nb_laplace", "zoo"): [0.75, 0.80, 0.70, 0.75],
            ("bma_nb_tuned", "zoo"): [0.70, 0.70, 0.75, 0.75],
        }
    ).assign(p_gaussian="density")
    reported = pd.read_csv(WU / "reported.csv")
    md, text, table = wu2015.table2_density_report(density, base, reported)
    table = table.set_index(["method", "dataset"])
    nb = table.loc[("nb_laplace", "zoo")]
    assert nb["error_density"] == pytest.approx(0.25) and nb["error_weka"] == pytest.approx(0.05)
    assert nb["paper_error"] == 0 and nb["diff_weka"] == pytest.approx(0.05)
    assert table.loc[("lr_tuned", "zoo"), "error_none"] == pytest.approx(0.05)
    assert pd.isna(table.loc[("lr_tuned", "zoo"), "error_weka"])  # LR has no Gaussian
    (zoo,) = [line for line in md.splitlines() if line.startswith("| zoo |")]
    assert zoo.startswith("| zoo | 0.00 ± 0.00 | 5.00 ± ") and "| 25.00 ± " in zoo
    gain = wu2015.weka_vs_density(density, base).set_index(["method", "dataset"])
    assert gain.loc[("NB", "zoo"), "weka_minus_density"] == pytest.approx(-0.2)
    assert gain.loc[("NB", "zoo"), "weka_better_splits"] == 4
    assert gain.loc[("BMA", "zoo"), "p_two_sided"] < 0.05
    mad = wu2015.mean_abs_diff_gaussians(table.reset_index()).set_index("method")["mean abs"]
    assert mad["NB (density)"] == pytest.approx(25.0) and mad["NB (weka)"] == pytest.approx(5.0)
    # the duel is the variant's: density BMA 27.5 vs NB 25.0 (split diffs 5, 10, −5, 0 points)
    assert "BMA has a higher mean error than NB on 1 of 1 data sets (zoo)" in text
    assert "significantly (paired t, p < 0.05) on 0 (none)" in text
    # table2_density reads the baseline records from <paths.results>/<report.baseline>/
    (tmp_path / "res" / "wu2015_table2" / "zoo").mkdir(parents=True)
    base.to_parquet(tmp_path / "res" / "wu2015_table2" / "zoo" / "records.parquet")
    where = SimpleNamespace(results=tmp_path / "res", reported=lambda paper: WU / "reported.csv")
    paths = wu2015.table2_density(density, tmp_path / "out", {"paths": where, "title": "T"})
    names = ["table2_density.md", "REPRODUCTION.md", "table2_density_side_by_side.csv"]
    assert [p.name for p in paths] == names
    report = (tmp_path / "out" / "REPRODUCTION.md").read_text()
    assert report.startswith("# T — reproduction") and "| NB (density) | 1 | 25.00 |" in report
    assert "Baseline records not found" not in report
    where = SimpleNamespace(results=tmp_path / "none", reported=lambda paper: WU / "reported.csv")
    wu2015.table2_density(density, tmp_path / "out2", {"paths": where})
    assert "Baseline records not found" in (tmp_path / "out2" / "REPRODUCTION.md").read_text()


def test_table2_report_names_the_gaussian_of_nb_and_bma():
    """The NB/BMA records say which Gaussian they used; records without the parameter are the
    density (the estimators' own default)."""
    rec = _records({("nb_laplace", "iris"): [0.9, 0.8]})
    assert "normal density" in wu2015.gaussian_note(rec)
    assert "Weka's Gaussian" in wu2015.gaussian_note(rec.assign(p_gaussian="weka"))


def test_one_split_section_lists_cells_inside_only_through_a_wide_spread():
    """Four cells of 20 splits: two wide (errors 0.10..0.29), two narrow (0.200..0.219). The
    median width of the [min, max] intervals is (0.19 + 0.019) / 2 = 0.1045, half 0.05225: a
    published 0.28 on a wide cell is inside but 0.085 from our mean 0.195 (listed), 0.20 is
    0.005 from it (not listed); 0.30 on a narrow cell is outside, 0.21 inside and near."""
    errors = {
        "a": 0.10 + np.arange(20) / 100,
        "b": 0.10 + np.arange(20) / 100,
        "c": 0.20 + np.arange(20) / 1000,
        "d": 0.20 + np.arange(20) / 1000,
    }
    rows = [
        {"method": "nb_laplace", "dataset": d, "repetition": r, "fold": 0, "split": "test",
         "metric": "error", "value": float(v)}
        for d, values in errors.items() for r, v in enumerate(values)
    ]  # fmt: skip
    records = pd.DataFrame(rows)
    published = {"a": 0.28, "b": 0.20, "c": 0.30, "d": 0.21}
    reported = pd.DataFrame(
        [("nb_laplace", d, m, v if m == "error" else 0.05, "Table 2 (left)")
         for d, v in published.items() for m in ("error", "error_ci95")],
        columns=["method", "dataset", "metric", "value", "table"],
    )  # fmt: skip
    text = "\n".join(wu2015.one_split_section(records, reported))
    assert "**3 of 4 agree**" in text
    assert "median interval width over the table, 5.23 points" in text  # 5.225
    assert "NB on a (28.00 vs our mean 19.50, interval 10.00–29.00)." in text
    assert "NB on b" not in text.split("Inside only")[1].split("Outside")[0]
    assert "Outside: NB on c (30.00 vs ours 20.95)." in text
    # taken together: every published value lies above our median (0.195, 0.195, 0.2095,
    # 0.2095): sign test p = 2·(1/2)^4 = 0.125, not significant over 4 cells
    assert "| all | 4 | yes | 4 of 4 published values above our median, 0 below (sign test " in text
    assert "p = 0.12)" in text
