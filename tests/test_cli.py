"""The Hydra command line `python -m repro`, run as a user would (subprocess, fresh directory)."""

from pathlib import Path

import pandas as pd
import pytest
from conftest import run_module

import repro
from repro.registry import ALIASES


def run(args, cwd, check=True):
    proc = run_module("repro", *args, "progress=false", cwd=cwd, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def test_main_job_waveform_accuracy(tmp_path):
    out = run(["method=nb_gaussian", "dataset=waveform"], tmp_path).stdout
    path = tmp_path / "results" / "default" / "waveform" / "nb_gaussian.parquet"
    assert f"records written to {path.relative_to(tmp_path)}" in out
    for column in ["accuracy", "auc", "compression_rate", "balanced_error_rate", "log_sum"]:
        assert column in out
    rec = pd.read_parquet(path)
    acc = rec.query("split == 'test' and metric == 'accuracy'")["value"]
    assert len(acc) == 10 and 0.78 < acc.mean() < 0.83  # NB on waveform: about 0.80


def test_readme_main_job_snb_cma_on_waveform(tmp_path):
    out = run(["method=cma", "dataset=waveform", "n_jobs=2"], tmp_path).stdout
    assert "snb_cma" in out  # the alias resolved to the registry id
    rec = pd.read_parquet(tmp_path / "results/default/waveform/snb_cma.parquet")
    acc = rec.query("split == 'test' and metric == 'accuracy'")["value"].mean()
    auc = rec.query("split == 'test' and metric == 'auc'")["value"].mean()
    assert 0.81 < acc < 0.85 and 0.95 < auc < 0.97  # boulle2007 Fig. 8: SNB(CMA) ≈ 0.83 / 0.96
    # the numbers the main job printed before the restructuring of issue 10 (stop 8)
    assert f"{acc:.4f}" == "0.8316" and f"{auc:.4f}" == "0.9592"
    assert "0.832 ± 0.017" in out and "0.9592 ± 0.0064" in out  # the digits the spread carries


def test_data_path_on_the_command_line(tmp_path):
    """``paths.data=DIR`` makes DIR's files data sets of the run (names and loading)."""
    data = tmp_path / "mydata"
    data.mkdir()
    frame = pd.read_parquet(Path(repro.__file__).parent / "datasets" / "bundled" / "iris.parquet")
    frame.to_parquet(data / "my_iris.parquet")
    out = run(["method=nb_ef", "dataset=my_iris", f"paths.data={data}"], tmp_path).stdout
    rec = pd.read_parquet(tmp_path / "results/default/my_iris/nb_ef.parquet")
    assert rec["n_train"].iloc[0] + rec["n_test"].iloc[0] == 150
    assert "records written to" in out
    missing = run(["method=nb_ef", "dataset=my_iris"], tmp_path, check=False)
    assert missing.returncode == 2 and "Unknown data set" in missing.stderr


def test_multirun_writes_one_file_per_cell_and_resumes(tmp_path):
    args = ["-m", "method=nb_gaussian,nb_ef", "dataset=iris,wine,pima"]
    run(args, tmp_path)
    files = sorted((tmp_path / "results").rglob("*.parquet"))
    assert len(files) == 6
    stamps = {f: f.stat().st_mtime_ns for f in files}
    out = run(args, tmp_path).stdout
    # a sweep prints one line per cell and a closing summary, no per-cell table
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("read ")] == [
        f"read {m} on {d}" for m in ("nb_gaussian", "nb_ef") for d in ("iris", "wine", "pima")
    ]
    assert "sweep: 6 cells: 0 computed, 6 read, 0 failed" in out and "log_sum" not in out
    assert {f: f.stat().st_mtime_ns for f in files} == stamps
    out = run([*args[:2], "dataset=iris", "force=true"], tmp_path).stdout
    assert out.count("computed nb_") == 2 and "sweep: 2 cells: 2 computed, 0 read" in out
    out = run([*args[:2], "dataset=iris", "verbose=true"], tmp_path).stdout
    assert out.count("already computed, read from") == 2 and "log_sum" in out


def test_parameter_sweep_and_failed_cell_recorded(tmp_path):
    run(["-m", "method=nb_ef", "method.n_bins=3,5", "dataset=iris"], tmp_path)
    names = sorted(p.name for p in (tmp_path / "results/default/iris").glob("*.parquet"))
    assert names == ["nb_ef__n_bins=3.parquet", "nb_ef__n_bins=5.parquet"]
    proc = run(["-m", "method=nb_ef", "method.n_bins=0", "dataset=iris,wine"], tmp_path, False)
    assert proc.stderr.count("cell failed") == 2
    errors = list((tmp_path / "results").rglob("*.error.json"))
    assert len(errors) == 2 and "n_bins must be" in errors[0].read_text()
    assert proc.returncode == 1 and "2 of 2 cells failed" in proc.stderr  # issue 15


def test_a_failed_cell_leaves_its_error_beside_the_results_of_its_data_set(tmp_path):
    """With generator parameters, the folder is the cell's own (issue 25: not ``waveform/``)."""
    args = ["-m", "method=nb_ef", "method.n_bins=3,0", "dataset=waveform", "dataset.n_samples=300"]
    proc = run(args, tmp_path, check=False)
    assert proc.returncode == 1 and "1 of 2 cells failed" in proc.stderr
    folder = tmp_path / "results" / "default" / "waveform__n_samples=300"
    (error,) = folder.glob("*.error.json")
    assert error.name.startswith("nb_ef.") and "n_bins must be" in error.read_text()
    assert (folder / "nb_ef__n_bins=3.parquet").is_file()  # the results it lies beside
    assert sorted(p.name for p in (tmp_path / "results" / "default").iterdir()) == [
        ".multirun",
        "waveform__n_samples=300",
    ]
    listed = proc.stderr.split("error file: ")[1].splitlines()[0]
    assert (tmp_path / listed).resolve() == error.resolve()


def test_generator_parameters_make_their_own_cell(tmp_path):
    run(["method=nb_gaussian", "dataset=waveform", "dataset.n_samples=600"], tmp_path)
    rec = pd.read_parquet(tmp_path / "results/default/waveform__n_samples=600/nb_gaussian.parquet")
    assert (rec["n_train"] + rec["n_test"] == 600).all()
    assert (rec["dataset"] == "waveform").all()


def test_aliases_resolve():
    assert ALIASES["cma"] == "snb_cma"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["method=nb_gausian", "dataset=iris"], 2, "Did you mean 'nb_gaussian'"),
        (["method=nb_gaussian", "dataset=irsi"], 2, "Did you mean 'iris'"),
        (["method=nb_gaussian", "dataset=lymph_binary"], 1, "at least 10 instances of every"),
        (["method=nb_gaussian", "+method.gamma=1", "dataset=iris"], 1, "valid parameters: alpha"),
        (["method=nb_gaussian", "method.gamma=1", "dataset=iris"], 2, "Could not override"),
        (["method=nb_gaussian", "method.alpha=-2", "dataset=iris"], 1, "finite number > 0, got -2"),
    ],
)
def test_bad_command_lines_fail_cleanly(tmp_path, args, code, message):
    proc = run(args, tmp_path, check=False)
    assert proc.returncode == code, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.oracle
def test_khiops_agreement_experiment_and_its_table(tmp_path):
    """``python -m repro experiment=khiops_agreement`` writes one record unit per data set;
    ``python -m repro.report experiment=khiops_agreement`` the Markdown table from them."""
    pytest.importorskip("khiops.sklearn")
    results = tmp_path / "res"
    run(["experiment=khiops_agreement", "khiops_agreement.datasets=[wine]",
         f"results_dir={results}"], tmp_path)  # fmt: skip
    rec = pd.read_parquet(results / "khiops_agreement" / "wine" / "fnb_khiops.parquet")
    agreement = rec[rec["split"] == "agreement"].set_index("metric")["value"]
    assert agreement["same_informative"] == 1 and agreement["max_weight_diff"] <= 1e-9
    assert (rec["n_train"] == 124).all() and (rec["n_features"] == 13).all()
    args = ["experiment=khiops_agreement", f"results={results}"]
    proc = run_module("repro.report", *args, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = (results / "khiops_agreement" / "agreement.md").read_text()
    assert text.startswith("# fnb_khiops vs Khiops 11")
    # n_train, variables, nominal, informative, same_informative, partitions, counts, Levels
    assert "| wine | 124 | 13 | 0 | 13 | True | 13 | 13 | 13 |" in text
    assert "Totals over 1 data sets and 13 variables (0 nominal): partitions identical 13," in text
