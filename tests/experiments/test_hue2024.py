"""hue2024 experiments: the five configs and their shared cells, the CR(w) artefact hook, the
figure functions on small synthetic records, a tiny sweep + report end to end, and the reports
regenerated from the committed records."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.config import compose, experiment_config
from repro.datasets import list_datasets, load_dataset
from repro.evaluation.runner import make_cell
from repro.experiments import hue2024 as h
from repro.registry import implemented_methods, make_method
from repro.report.figures import hue2024 as f
from repro.report.generate import generate_report

EXPERIMENTS = ["hue2024_fig1to3", "hue2024_fig4", "hue2024_fig5", "hue2024_fig6"]
EXPERIMENTS += ["hue2024_fig7to11"]
RESULTS = Path(__file__).resolve().parents[2] / "results"


def _runs(experiment):
    return h.expand_runs(experiment_config(experiment)["hue2024"]["runs"])


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_configs_name_existing_methods_and_offline_datasets(experiment):
    cfg = experiment_config(experiment)
    assert cfg["task"] == "repro.experiments.hue2024.sweep_study"
    assert cfg["hue2024"]["store"] == "hue2024_cells"
    assert cfg["report"]["sources"] == ["hue2024_cells"]
    catalog = list_datasets().set_index("name")
    for name in cfg["hue2024"]["datasets"]:
        assert bool(catalog.at[name, "offline"]) and "hue2024" in catalog.at[name, "papers"]
    for method, params in _runs(experiment):
        assert method in implemented_methods()
        make_method(method, **params)  # every parameter is one of the method's


def test_the_grids_are_the_papers():
    fig1 = _runs("hue2024_fig1to3")
    assert {p["algorithm"] for _, p in fig1} == set(f.ALGORITHMS)
    assert all(p["lambda_"] == 1.0 and p["init"] == "uniform" for _, p in fig1)
    assert [p["lambda_"] for m, p in _runs("hue2024_fig4") if m == "wnb_opt"] == list(f.LAMBDAS)
    assert [p["p"] for m, p in _runs("hue2024_fig5") if m == "wnb_opt"] == list(f.PS)
    assert [p["epsilon"] for m, p in _runs("hue2024_fig6") if m == "wnb_opt"] == list(f.EPSILONS)
    fig7 = _runs("hue2024_fig7to11")
    assert [p["init"] for m, p in fig7 if m == "wnb_opt"] == ["uniform", "snb", "fnb"]
    assert {m for m, _ in fig7} == {"snb_cma", "fnb", "wnb_opt"}


def test_experiments_share_their_common_cells():
    """SG.CF at λ = 1 (Fig. 1–3 and 4) and at λ = 0.25 (Fig. 4–7), and SNB, are one file each."""
    iris = load_dataset("iris")

    def key(method, params):
        cell = make_cell((method, params), iris, "cv10", 0, "hue2024_cells")
        return cell.path("r"), cell.hash

    cells = {name: {key(m, p) for m, p in _runs(name)} for name in EXPERIMENTS}
    assert len(cells["hue2024_fig1to3"] & cells["hue2024_fig4"]) == 1  # SG.CF λ = 1
    shared = set.intersection(*(cells[n] for n in EXPERIMENTS[1:]))
    assert len(shared) == 2  # SNB and SG.CF λ = 0.25, p = 0.95, ε = 0.01, uniform
    assert {p.name for p, _ in shared} == {"snb_cma.parquet", "wnb_opt.parquet"}


def test_expand_runs_makes_floats_and_drops_duplicates():
    runs = [
        {"method": "wnb_opt", "params": {"lambda_": 1}, "sweep": {"p": [1, 0.5]}},
        {"method": "wnb_opt", "params": {"lambda_": 1.0, "p": 1.0}},
        {"method": "snb_cma"},
    ]
    out = h.expand_runs(runs)
    assert out == [
        ("wnb_opt", {"lambda_": 1.0, "p": 1.0}),
        ("wnb_opt", {"lambda_": 1.0, "p": 0.5}),
        ("snb_cma", {}),
    ]
    assert isinstance(out[0][1]["lambda_"], float)


def test_cv5_above_the_threshold():
    base = {"name": "cv10", "kind": "kfold", "n_splits": 10, "small_classes": "allow"}
    assert h.dataset_protocol(base, 100_000).n_splits == 10
    large = h.dataset_protocol(base, 100_001)
    assert (large.name, large.n_splits, large.small_classes) == ("cv5", 5, "allow")


def test_reference_criterion_is_wnb_opts_own_criterion():
    """For wnb_opt at λ = 0.25, p = 0.95 the hook's CR(w) is the model's ``criterion_``, and its
    null value is ``null_criterion``; for SNB (another preparation) CR is evaluated on Khiops'
    preparation, and its K_inf equals wnb_opt's."""
    ds = load_dataset("wine")
    wnb = make_method("wnb_opt").fit(ds.X, ds.y)
    ours = h.reference_criterion(wnb, ds.X, ds.y)
    assert ours["cr_eq11"] == pytest.approx(wnb.criterion_, rel=1e-12)
    assert ours["cr_eq11_null"] == pytest.approx(wnb.fit_report_["null_criterion"], rel=1e-12)
    assert ours["n_informative"] == wnb.fit_report_["n_candidates"]
    snb = make_method("snb_cma").fit(ds.X, ds.y)
    theirs = h.reference_criterion(snb, ds.X, ds.y)
    assert theirs["n_informative"] == ours["n_informative"]
    assert theirs["cr_eq11_null"] == pytest.approx(ours["cr_eq11_null"], rel=1e-12)
    assert theirs["cr_eq11"] < theirs["cr_eq11_null"]  # SNB's weights beat the null model
    snb.weights_ = np.zeros_like(snb.weights_)
    assert h.reference_criterion(snb, ds.X, ds.y)["cr_eq11"] == pytest.approx(
        theirs["cr_eq11_null"], rel=1e-12
    )


# --- the figure functions on synthetic records ------------------------------------------------
def _rows(method, params, dataset, values, folds=2):
    """Records of one cell: ``values`` = {(split, metric): value or per-fold list}."""
    rows = []
    p_cols = {f"p_{k}": v for k, v in params.items()}
    for fold in range(folds):
        base = {"method": method, "dataset": dataset, "repetition": 0, "fold": fold, **p_cols}
        for (split, metric), value in values.items():
            v = value[fold] if isinstance(value, list) else value
            rows.append({**base, "split": split, "metric": metric, "value": float(v)})
    return rows


def _wnb_params(**over):
    return {**f.BASE_PARAMS["wnb_opt"], "delta": 0.001, **over}


def _metrics(crit, n_sel, time, auc=0.9, acc=0.8, comp=0.3, n_inf=5, cr=None):
    return {
        ("model", "criterion"): crit,
        ("model", "n_selected"): n_sel,
        ("model", "weighting_time"): time,
        ("model", "fit_time"): 1.0,
        ("test", "auc"): auc,
        ("train", "auc"): auc + 0.02,
        ("test", "accuracy"): acc,
        ("test", "compression_rate"): comp,
        ("artefact", "artefact:criterion"): cr if cr is not None else crit,
        ("artefact", "n_informative_placeholder"): n_inf,
    }


def _with_artefacts(rows):
    """Turn the artefact placeholders into the hook's layout (quantity + value)."""
    out = []
    for row in rows:
        if row["metric"] == "artefact:criterion":
            out.append({**row, "quantity": "cr_eq11"})
        elif row["metric"] == "n_informative_placeholder":
            out.append({**row, "metric": "artefact:criterion", "quantity": "n_informative"})
        else:
            out.append(row)
    return out


def _synthetic_records():
    rows = []
    for d, scale in (("a", 1.0), ("b", 2.0), ("c", 4.0)):
        for alg in f.ALGORITHMS:
            crit = 100 * scale * (1.2 if alg == "am" else 1.0)
            n_sel = 0.0 if (alg == "sg" and d == "c") else (6.0 if alg == "am" else 3.0)
            rows += _rows(
                "wnb_opt", _wnb_params(algorithm=alg, lambda_=1.0), d, _metrics(crit, n_sel, 2.0)
            )
        for lam in f.LAMBDAS[:-1]:  # λ = 1: the SG.CF cell of Fig. 1–3 above
            rows += _rows(
                "wnb_opt", _wnb_params(lambda_=lam), d, _metrics(50 * scale, 2.0, 4.0, auc=0.9)
            )
        for p in f.PS[1:]:
            rows += _rows("wnb_opt", _wnb_params(p=p), d, _metrics(50 * scale, p * 2, 4.0))
        for eps in (0.002, 0.05):
            rows += _rows("wnb_opt", _wnb_params(epsilon=eps), d, _metrics(50 * scale, 2.0, 1.0))
        for init in ("snb", "fnb"):
            rows += _rows(
                "wnb_opt", _wnb_params(init=init), d, _metrics(49 * scale, 1.6, 3.2, auc=0.88)
            )
        rows += _rows("snb_cma", {}, d, _metrics(40 * scale, 4.0, [0.1, 0.3], auc=0.9, cr=60))
        rows += _rows("fnb", {"lambda_": 0.25, "p": 0.95}, d, _metrics(45 * scale, 1.0, 0.2))
    return pd.DataFrame(_with_artefacts(rows))


class _Where:
    def __init__(self, folder):
        self.folder = folder

    def reported(self, paper):
        return self.folder / paper / "reported.csv"


@pytest.fixture
def report_cfg(tmp_path):
    published = tmp_path / "published" / "hue2024"
    published.mkdir(parents=True)
    pd.DataFrame(
        {
            "method": ["data", "data", "wnb_opt_init_fnb"],
            "dataset": ["a", "a", "typical"],
            "metric": ["n_variables", "n_informative", "n_selected_ratio_to_uniform"],
            "value": [10, 4.5, 0.8],
            "table": ["Table 1", "Table 1", "Fig. 7-11 text"],
            "note": ["", "", "§4.4"],
        }
    ).to_csv(published / "reported.csv", index=False)
    return {"title": "t", "paths": _Where(tmp_path / "published")}


def test_variant_matching_on_parameter_columns():
    recs = pd.DataFrame(
        {
            "method": ["wnb_opt", "wnb_opt", "wnb_opt", "snb_cma"],
            "p_algorithm": ["sg_cf", "sg_cf", "ug_cf", np.nan],
            "p_lambda_": [1.0, 0.25, 1.0, np.nan],
            "p_p": 0.95,
            "p_epsilon": 0.01,
            "p_init": ["uniform"] * 3 + [np.nan],
            "p_normalise_init": [False, False, True, np.nan],
        }
    )
    assert f.wnb("x", lambda_=1.0).mask(recs).tolist() == [True, False, False, False]
    normalised = f.wnb("y", algorithm="ug_cf", lambda_=1.0, normalise_init=True)
    assert normalised.mask(recs).tolist() == [False, False, True, False]
    assert f.SNB.mask(recs).tolist() == [False, False, False, True]


def test_ratios_per_dataset():
    table = pd.DataFrame({"ref": [2.0, 0.0, 0.0], "x": [1.0, 0.0, 3.0]}, index=list("abc"))
    ratio = f.ratio_table(table, "ref")
    assert ratio.loc["a", "x"] == 0.5 and ratio.loc["b", "x"] == 1.0  # 0/0: both null models
    assert np.isnan(ratio.loc["c", "x"])


def test_fig1to3_by_hand(tmp_path, report_cfg):
    paths = f.fig1to3(_synthetic_records(), tmp_path, report_cfg)
    names = {p.name for p in paths}
    assert {"fig1.png", "fig2.pdf", "fig3.png", "fig1to3.csv", "REPRODUCTION.md"} <= names
    csv = pd.read_csv(tmp_path / "fig1to3.csv")
    am = csv.query("variant == 'AM' and quantity == 'criterion'").set_index("dataset")
    assert am["ratio"].tolist() == pytest.approx([1.2, 1.2, 1.2])
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "SG: null model (no variable) where SG.CF has one, in the folds of c ×2" in text
    nvinf = pd.read_csv(tmp_path / "table1_nvinf.csv", index_col=0)
    assert nvinf.loc["a", "ours"] == 5 and nvinf.loc["a", "NvInf (paper)"] == 4.5


@pytest.mark.parametrize("name", ["fig4", "fig5", "fig6"])
def test_sweep_figures_by_hand(tmp_path, report_cfg, name):
    paths = getattr(f, name)(_synthetic_records(), tmp_path, report_cfg)
    assert {f"{name}.png", f"{name}.pdf", f"{name}.csv", "REPRODUCTION.md"} <= {
        p.name for p in paths
    }
    csv = pd.read_csv(tmp_path / f"{name}.csv")
    label = {"fig4": "λ = 0.25", "fig5": "p = 0.85", "fig6": "ε = 0.05"}[name]
    time = csv[(csv["quantity"] == "time") & (csv["variant"] == label)]
    # SNB's time is the mean of 0.1 and 0.3 on every data set
    expected = {"fig4": 4.0, "fig5": 4.0, "fig6": 1.0}[name]
    assert time["ratio"].tolist() == pytest.approx([expected / 0.2] * 3)
    assert set(csv["dataset"]) == {"a", "b", "c"}


def test_fig7to11_by_hand(tmp_path, report_cfg):
    paths = f.fig7to11(_synthetic_records(), tmp_path, report_cfg)
    names = {p.name for p in paths}
    assert {f"fig{i}.png" for i in range(7, 12)} <= names and "fig7to11.csv" in names
    csv = pd.read_csv(tmp_path / "fig7to11.csv")
    fnb_init = csv.query(
        "variant == 'SG.CF FNB init' and quantity == 'n_selected' and reference == 'SG.CF uniform'"
    )
    assert fnb_init["ratio"].tolist() == pytest.approx([0.8] * 3)  # 1.6 / 2
    cr = csv.query("variant == 'FNB' and quantity == 'cr_eq11' and reference == 'SNB'")
    assert cr.set_index("dataset")["ratio"].to_dict() == pytest.approx(
        {"a": 45 / 60, "b": 90 / 60, "c": 180 / 60}
    )
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "wnb_opt_init_fnb / n_selected_ratio_to_uniform: 0.8" in text


# --- end to end -------------------------------------------------------------------------------
def test_tiny_sweep_and_report_end_to_end(tmp_path):
    """``sweep_study`` on iris (SNB and SG.CF at λ = 0.25) writes the cells and their CR(w)
    artefacts in the store; a second run reads them; the Fig. 4 report is written from them."""
    results = tmp_path / "results"
    cfg = compose(
        [
            "experiment=hue2024_fig4",
            f"results_dir={results}",
            "hue2024.datasets=[iris]",
            "hue2024.runs.1.sweep.lambda_=[0.25]",
            "progress=false",
        ]
    )
    out = h.sweep_study(cfg)
    assert out == {"store": "hue2024_cells", "cells": 2, "failed": []}
    store = results / "hue2024_cells"
    assert sorted(p.name for p in (store / "iris").glob("*.parquet")) == [
        "snb_cma.parquet",
        "wnb_opt.parquet",
    ]
    art = pd.read_parquet(store / "artefacts" / "iris" / "snb_cma.parquet")
    assert set(art["quantity"]) == {"cr_eq11", "cr_eq11_null", "n_informative"}
    assert len(art) == 3 * 10  # cv10
    stamp = (store / "iris" / "wnb_opt.parquet").stat().st_mtime_ns
    h.sweep_study(cfg)  # resumed: nothing refitted
    assert (store / "iris" / "wnb_opt.parquet").stat().st_mtime_ns == stamp
    written = generate_report("hue2024_fig4", results_dir=results, overrides=[])
    assert (results / "hue2024_fig4" / "fig4.png") in written
    csv = pd.read_csv(results / "hue2024_fig4" / "fig4.csv")
    snb = csv.query("variant == 'SNB'")
    assert (snb["ratio"] == 1.0).all() and set(csv["variant"]) == {"SNB", "λ = 0.25"}


def test_a_failing_cell_is_recorded_and_the_sweep_goes_on(tmp_path, monkeypatch):
    results = tmp_path / "results"
    cfg = compose(
        [
            "experiment=hue2024_fig6",
            f"results_dir={results}",
            "hue2024.datasets=[iris]",
            "hue2024.runs.1.sweep.epsilon=[0.01]",
            "progress=false",
        ]
    )
    real = h.run_cell

    def failing(cell, **kw):
        if cell.method_id == "snb_cma":
            raise RuntimeError("boom")
        return real(cell, **kw)

    monkeypatch.setattr(h, "run_cell", failing)
    out = h.sweep_study(cfg)
    assert out["failed"] == ["snb_cma on iris"]
    error = json.loads((results / "hue2024_cells" / "iris" / "snb_cma.error.json").read_text())
    assert error["error"] == "RuntimeError: boom"
    assert (results / "hue2024_cells" / "iris" / "wnb_opt.parquet").exists()


# --- the committed records --------------------------------------------------------------------
COMMITTED = (RESULTS / "hue2024_cells").is_dir()


@pytest.mark.skipif(not COMMITTED, reason="no committed hue2024 cells")
def test_committed_figure_values_are_those_of_the_committed_cells():
    """A sample of the committed fig7to11.csv, recomputed from two committed cells by hand: the
    mean over the folds of SNB's and SG.CF's test AUC and SG.CF's number of variables on iris."""
    cells = RESULTS / "hue2024_cells" / "iris"
    snb = pd.read_parquet(cells / "snb_cma.parquet")
    sgcf = pd.read_parquet(cells / "wnb_opt.parquet")

    def mean(records, split, metric):
        rows = records[(records["split"] == split) & (records["metric"] == metric)]
        assert len(rows) == 10  # cv10
        return rows["value"].mean()

    csv = pd.read_csv(RESULTS / "hue2024_fig7to11" / "fig7to11.csv")
    iris = csv[(csv["dataset"] == "iris") & (csv["reference"] == "SNB")]
    value = iris.set_index(["variant", "quantity"])["value"]
    assert value[("SNB", "auc")] == pytest.approx(mean(snb, "test", "auc"), rel=1e-12)
    assert value[("SG.CF uniform", "auc")] == pytest.approx(mean(sgcf, "test", "auc"), rel=1e-12)
    n_sel = mean(sgcf, "model", "n_selected")
    assert value[("SG.CF uniform", "n_selected")] == pytest.approx(n_sel, rel=1e-12)
    ratio = iris.set_index(["variant", "quantity"])["ratio"]
    assert ratio[("SG.CF uniform", "auc")] == pytest.approx(
        mean(sgcf, "test", "auc") / mean(snb, "test", "auc"), rel=1e-12
    )


@pytest.mark.slow
@pytest.mark.skipif(not COMMITTED, reason="no committed hue2024 cells")
@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_reports_regenerate_from_the_committed_records(tmp_path, experiment):
    """Each report is written again from results/hue2024_cells into a temporary folder (about a
    minute each: it reads every stored cell); its CSV equals the committed one (the report never
    refits)."""
    name = experiment.removeprefix("hue2024_")
    generate_report(experiment, results_dir=RESULTS, out_dir=tmp_path, overrides=[])
    ours = pd.read_csv(tmp_path / f"{name}.csv")
    committed = pd.read_csv(RESULTS / experiment / f"{name}.csv")
    pd.testing.assert_frame_equal(ours, committed)
