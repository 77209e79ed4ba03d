"""hue2024 experiments: the five configs, their jobs and their shared cells, the CR(w) artefact
hook, the figure functions on small synthetic records, a tiny sweep + report end to end, the
committed cells read (not relaunched) by the sweep, and the reports regenerated from them."""

import functools
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run_module
from hydra.core.override_parser.overrides_parser import OverridesParser
from omegaconf import OmegaConf

from repro.cli.finished_cells import cell_from_config, use_sweeper
from repro.config import compose, experiment_config
from repro.datasets import list_datasets, load_dataset
from repro.evaluation.runner import make_cell
from repro.evaluation.store import ResultsStore
from repro.experiments import hue2024 as h
from repro.registry import implemented_methods, make_method
from repro.report.generate import generate_report
from repro.report.papers.hue2024 import figures as f

EXPERIMENTS = ["hue2024_fig1to3", "hue2024_fig4", "hue2024_fig5", "hue2024_fig6"]
EXPERIMENTS += ["hue2024_fig7to11"]
RESULTS = Path(__file__).resolve().parents[2] / "results"


@functools.cache
def _sweeper(experiment):
    """The experiment's sweeper configuration (``hydra.sweeper``), as a dict."""
    cfg = compose([f"experiment={experiment}"], return_hydra_config=True)
    return OmegaConf.to_container(cfg.hydra.sweeper, resolve=True)


def _jobs(experiment, *args):
    """The jobs the repro sweeper gives the experiment (every one, none read first): the
    overrides of each, as a dict."""
    use_sweeper()
    from hydra_plugins.repro_sweeper import FinishedCellsSweeper

    node = {k: v for k, v in _sweeper(experiment).items() if k != "_target_"}
    sweeper = FinishedCellsSweeper(**{**node, "skip_finished": False})
    params = [f"{k}={v}" for k, v in node["params"].items()]
    overrides = OverridesParser.create().parse_overrides([*params, *args])
    (jobs,) = sweeper.split_arguments(overrides, None)
    return [dict(o.partition("=")[::2] for o in job) for job in jobs]


def _runs(experiment):
    """(method, params) of the experiment's runs on one data set."""
    runs = []
    for job in _jobs(experiment, "dataset=iris"):
        job.pop("dataset")
        method = job.pop("method")
        params = OverridesParser.create().parse_overrides([f"{k}={v}" for k, v in job.items()])
        runs.append((method, {o.key_or_group.removeprefix("method."): o.value() for o in params}))
    return runs


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_configs_name_existing_methods_and_offline_datasets(experiment):
    cfg = experiment_config(experiment)
    assert cfg.get("task") is None  # a multirun of the repro sweeper, as the other experiments
    assert cfg["store"] == "hue2024_cells" and cfg["experiment_name"] == experiment
    assert cfg["report"]["sources"] == ["hue2024_cells"]
    assert cfg["artefacts"] == "repro.experiments.hue2024.criterion_artefacts"
    catalog = list_datasets().set_index("name")
    for name in cfg["sweep"]["dataset"]:
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


#: what the hue2024 experiments' own loop ran for Fig. 4 (its runs expanded, then every data set):
#: SNB, and SG.CF at each λ
FIG4_SGCF = {"algorithm": "sg_cf", "p": 0.95, "epsilon": 0.01, "init": "uniform"}
FIG4_RUNS = [("snb_cma", {})] + [
    ("wnb_opt", {**FIG4_SGCF, "lambda_": lam}) for lam in (0.0, 0.1, 0.25, 0.5, 0.75, 1.0)
]


def test_the_sweepers_jobs_are_the_cells_of_the_runs_on_every_data_set():
    """hue2024_fig4: one job per (data set, method, params), all runs of a data set before the
    next, the same list as its runs × data sets gave before (31 × 7)."""
    datasets = experiment_config("hue2024_fig4")["sweep"]["dataset"]
    jobs = _jobs("hue2024_fig4")
    assert len(jobs) == 31 * 7 == len({tuple(sorted(j.items())) for j in jobs})
    assert [j["dataset"] for j in jobs] == [d for d in datasets for _ in FIG4_RUNS]
    assert jobs[0] == {"dataset": "abalone19", "method": "snb_cma"}  # no parameter of its own
    assert jobs[3] == {
        "dataset": "abalone19",
        "method": "wnb_opt",
        **{f"method.{k}": str(v) for k, v in FIG4_SGCF.items()},
        "method.lambda_": "0.25",
    }
    assert _runs("hue2024_fig4") == FIG4_RUNS  # the values as Hydra reads them: floats
    assert all(isinstance(p["lambda_"], float) for m, p in FIG4_RUNS if m == "wnb_opt")
    fig1 = _runs("hue2024_fig1to3")
    assert len(fig1) == 10 and fig1[-1] == (
        "wnb_opt",
        {
            "lambda_": 1.0,
            "p": 0.95,
            "init": "uniform",
            "normalise_init": True,
            "algorithm": "ug_ue",
        },
    )


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_a_jobs_cell_is_the_cell_of_its_run(experiment):
    """Each job's cell (the common path: Hydra's composition, then ``cell_from_config``) is the
    cell the hue2024 loop made of its run: store hue2024_cells, cv10 with small classes allowed,
    the hook and report keys, seed 0; the same file name and configuration hash."""
    iris = load_dataset("iris")
    protocol = {"name": "cv10", "kind": "kfold", "n_splits": 10, "small_classes": "allow"}
    for job, (method, params) in zip(_jobs(experiment, "dataset=iris"), _runs(experiment)):
        overrides = [f"experiment={experiment}", *(f"{k}={v}" for k, v in job.items())]
        cfg = compose(overrides, return_hydra_config=True)
        cell = cell_from_config(cfg, method, experiment)
        old = make_cell((method, params), iris, protocol, 0, "hue2024_cells")
        assert (cell.path("r"), cell.hash, cell.seed) == (old.path("r"), old.hash, 0)
        assert cell.artefacts is h.criterion_artefacts and "null_criterion" in cell.report_keys


def test_cv5_above_the_threshold():
    """``large_protocol``: cv5 (small classes allowed) above 10⁵ instances, under the file name
    of the experiment's own protocol; here with the threshold lowered to iris' 150 rows."""
    args = ["experiment=hue2024_fig4", "dataset=iris", "method=snb_cma"]
    cells = {}
    for above in (150, 149):
        cfg = compose([*args, f"large_protocol.above={above}"], return_hydra_config=True)
        cells[above] = cell_from_config(cfg, "snb_cma", "hue2024_fig4")
    assert (cells[150].protocol.name, cells[150].protocol.n_splits) == ("cv10", 10)
    large = cells[149].protocol
    assert (large.name, large.n_splits, large.small_classes) == ("cv5", 5, "allow")
    assert cells[149].path("r") == cells[150].path("r") and cells[149].hash != cells[150].hash


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
def sweep(*args, cwd):
    """``python -m repro experiment=hue2024_fig4 ARGS`` (the multirun of its config) on iris."""
    return run_module("repro", "experiment=hue2024_fig4", "hydra.sweeper.params.dataset=iris",
                      *args, "progress=false", cwd=cwd, timeout=600)  # fmt: skip


def _stamps(root: Path) -> dict:
    return {p: p.stat().st_mtime_ns for p in root.rglob("*.parquet")}


def test_tiny_sweep_and_report_end_to_end(tmp_path):
    """The Fig. 4 sweep on iris (SNB and SG.CF at λ = 0.25) writes the cells and their CR(w)
    artefacts in the store; a second run reads them; the Fig. 4 report is written from them."""
    results = tmp_path / "results"
    args = ["hydra.sweeper.runs.1.sweep.lambda_=[0.25]", f"results_dir={results}"]
    proc = sweep(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "sweep: 2 cells: 2 computed, 0 read, 0 failed" in proc.stdout
    store = results / "hue2024_cells"
    assert sorted(p.name for p in (store / "iris").glob("*.parquet")) == [
        "snb_cma.parquet",
        "wnb_opt.parquet",
    ]
    art = pd.read_parquet(store / "artefacts" / "iris" / "snb_cma.parquet")
    assert set(art["quantity"]) == {"cr_eq11", "cr_eq11_null", "n_informative"}
    assert len(art) == 3 * 10  # cv10
    records = pd.read_parquet(store / "iris" / "wnb_opt.parquet")
    assert {"n_candidates", "null_criterion", "converged"} <= set(records["metric"])
    stamps = _stamps(store)
    proc = sweep(*args, cwd=tmp_path)  # resumed: nothing refitted, nothing launched
    assert "sweep: 2 cells: 0 computed, 2 read, 0 failed" in proc.stdout
    assert "Launching" not in proc.stdout + proc.stderr and _stamps(store) == stamps
    written = generate_report("hue2024_fig4", results_dir=results, overrides=[])
    assert (results / "hue2024_fig4" / "fig4.png") in written
    csv = pd.read_csv(results / "hue2024_fig4" / "fig4.csv")
    snb = csv.query("variant == 'SNB'")
    assert (snb["ratio"] == 1.0).all() and set(csv["variant"]) == {"SNB", "λ = 0.25"}


def test_a_failing_cell_is_recorded_and_the_sweep_goes_on(tmp_path):
    """A cell that fails is summarised with its error file, in the store; the bound
    (``hydra.sweeper.exclude``) leaves SNB out of this sweep, which computes nothing."""
    results = tmp_path / "results"
    runs = "hydra.sweeper.runs=[{method:snb_cma},{method:wnb_opt,params:{algorithm:nosuch}}]"
    proc = sweep(runs, "hydra.sweeper.exclude=[{method:snb_cma}]", f"results_dir={results}",
                 cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 1
    assert "left out by the sweep's bound (hydra.sweeper.exclude): 1 cell(s)" in proc.stdout
    assert "1 of 1 cells failed" in proc.stderr and "nosuch" in proc.stderr
    (error,) = (results / "hue2024_cells" / "iris").glob("wnb_opt.*.error.json")
    assert error.name in proc.stderr
    assert not list(results.rglob("*.parquet"))


# --- the committed records --------------------------------------------------------------------
COMMITTED = (RESULTS / "hue2024_cells").is_dir()


@pytest.mark.skipif(not COMMITTED, reason="no committed hue2024 cells")
def test_rerunning_a_committed_sweep_reads_every_cell_and_launches_none(tmp_path):
    """``python -m repro experiment=hue2024_fig4`` on iris, on a copy of the committed cells
    (packed: ``hue2024_cells/packed.parquet``): the 7 cells (SNB, SG.CF at 6 λ) are read before
    the launch, no file is touched or written; the bound (``hydra.sweeper.exclude``) leaves out
    the runs it names."""
    shutil.copytree(RESULTS / "hue2024_cells", tmp_path / "hue2024_cells")
    before = _stamps(tmp_path)
    proc = sweep(f"results_dir={tmp_path}", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "sweep: 7 cells: 0 computed, 7 read, 0 failed" in proc.stdout
    assert "Launching" not in proc.stdout + proc.stderr
    read = re.findall(r"^read (\S+) on iris", proc.stdout, re.MULTILINE)
    assert read[:3] == ["snb_cma", "wnb_opt__lambda_=0.0", "wnb_opt__lambda_=0.1"]
    assert read[3] == "wnb_opt"  # λ = 0.25: the paper's final settings, wnb_opt's defaults
    assert _stamps(tmp_path) == before
    bound = "hydra.sweeper.exclude=[{method:snb_cma},{method.lambda_:[0.0,0.1]}]"
    proc = sweep(f"results_dir={tmp_path}", bound, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "left out by the sweep's bound (hydra.sweeper.exclude): 3 cell(s)" in proc.stdout
    assert "sweep: 4 cells: 0 computed, 4 read, 0 failed" in proc.stdout
    assert "read snb_cma" not in proc.stdout and _stamps(tmp_path) == before


@pytest.mark.skipif(not COMMITTED, reason="no committed hue2024 cells")
def test_committed_figure_values_are_those_of_the_committed_cells():
    """A sample of the committed fig7to11.csv, recomputed from two committed cells by hand: the
    mean over the folds of SNB's and SG.CF's test AUC and SG.CF's number of variables on iris."""
    store, cells = ResultsStore(RESULTS), RESULTS / "hue2024_cells" / "iris"
    snb = store.read(cells / "snb_cma.parquet")  # loose or packed, as the reports read them
    sgcf = store.read(cells / "wnb_opt.parquet")

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
