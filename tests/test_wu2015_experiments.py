"""wu2015 experiments run end to end on tiny settings (Hydra multirun in a fresh directory)."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
WU = ROOT / "experiments" / "wu2015"


def run(args, cwd, timeout=300):
    proc = subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert proc.returncode == 0, f"{proc.stdout}\n{proc.stderr}"
    return proc


def _table2(tmp_path, datasets):
    results = tmp_path / "res"
    run(
        ["-m", "repro", "experiment=wu2015_table2",
         f"hydra.sweeper.params.dataset='{','.join(datasets)}'",
         "protocol.n_repeats=2", f"results_dir={results}", "progress=false"],
        tmp_path,
    )  # fmt: skip
    files = sorted((results / "wu2015_table2").rglob("*.parquet"))
    names = {(f.parent.name, f.stem) for f in files}
    methods = ["nb_laplace", "bma_nb_tuned", "lr_tuned", "svm_tuned"]
    assert names == {(d, m) for d in datasets for m in methods}
    rec = pd.concat(pd.read_parquet(f) for f in files)
    assert set(rec["protocol"]) == {"resample"}
    acc = rec.query("split == 'test' and metric == 'accuracy'")
    assert len(acc) == 2 * len(datasets) * 4  # 2 repetitions x data sets x 4 methods
    test = rec.query("split == 'test'")
    assert (test["n_test"] / (test["n_test"] + test["n_train"])).between(0.09, 0.11).all()
    report = run([str(WU / "table2.py"), "--results", str(results)], tmp_path).stdout
    assert "BMA never underperforms NB?" in report
    assert (results / "wu2015_table2" / "REPRODUCTION.md").exists()
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


def test_fig3_sweep_and_plot(tmp_path):
    results = tmp_path / "res"
    run(
        ["-m", "repro", "experiment=wu2015_fig3", "hydra.sweeper.params.dataset=iris",
         "protocol.n_repeats=2", f"results_dir={results}", "progress=false"],
        tmp_path,
    )  # fmt: skip
    assert len(list((results / "wu2015_fig3").rglob("*.parquet"))) == 11  # the 11 values of Γ
    run([str(WU / "fig3.py"), "--results", str(results)], tmp_path)
    for ext in ("png", "pdf"):
        assert (results / "wu2015_fig3" / f"fig3.{ext}").stat().st_size > 0


def test_fig2_quick(tmp_path):
    run([str(WU / "fig2.py"), "--quick", "--results", str(tmp_path)], tmp_path)
    rec = pd.read_parquet(tmp_path / "wu2015_fig2" / "records.parquet")
    assert set(rec["panel"]) == {"features", "training_size"}
    assert set(rec["method"]) == {"nb_laplace", "bma_nb_tuned", "lr_tuned", "svm_tuned"}
    assert rec["accuracy"].between(0, 1).all()
    assert (tmp_path / "wu2015_fig2" / "fig2.png").stat().st_size > 0
