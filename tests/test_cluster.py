"""Issue 16, beyond one machine (SPEC §12): an existing engine, not our own.

- Hydra's launchers: the joblib launcher and submitit's local executor write the cells of a sweep
  with the records of a serial run (the basic launcher), and report its failing cells the same way
  (exit code 1 and the summary); submitit_slurm (the README's command, and our
  ``hydra/launcher=slurm``) reaches ``sbatch`` with the partition, time and CPUs asked for (a
  stand-in ``sbatch`` on PATH: there is no SLURM here).
- The folds of a cell on a Dask cluster (``backend=dask``): a ``distributed.LocalCluster`` started
  here runs them, from the API and from the README's command, with the records of ``loky``.
- Two workers over one results folder split its cells; ``python -m repro.report`` merges them.

Records are compared without the timing metrics (``*_time``) and the ``timestamp`` column. Every
command of the README's "From a laptop to a cluster" section is run here.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import repro
from repro.evaluation.runner import BACKENDS, check_backend, make_cell, run_cell

ROOT = Path(__file__).resolve().parents[1]
SECTION = (
    (ROOT / "README.md").read_text().split("## From a laptop to a cluster")[1].split("\n## ")[0]
)
JOBLIB_CMD, SLURM_CMD, DASK_CMD = (
    line for line in re.search(r"```sh\n(.*?)```", SECTION, flags=re.S)[1].splitlines() if line
)
#: the launcher sweeps: the README's joblib sweep with zoo added (a class of 4: its cv5 cells
#: fail); submitit's local executor starts two processes per job, so it runs a smaller sweep
SWEEPS = {
    "joblib": {"dataset": "iris,wine,zoo"},
    "submitit_local": {"method": "nb_gaussian", "dataset": "iris,zoo"},
}
#: the tasks joblib sent to a Dask cluster are batches of folds
BATCH = re.compile(r"batch_of__run_split_(\d+)_calls")


def readme_args(command: str, **replace: str) -> list[str]:
    """The arguments of a README command after ``python -m repro``, ``replace`` = {key: value}."""
    args = shlex.split(command)
    assert args[:3] == ["python", "-m", "repro"], command
    out = []
    for arg in args[3:]:
        key = arg.split("=", 1)[0]
        out.append(f"{key}={replace[key]}" if key in replace else arg)
    return out


def run(args, cwd, env=None, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg", **(env or {})},
    )  # fmt: skip


def comparable(records: pd.DataFrame) -> pd.DataFrame:
    """Records without what differs between two runs of a cell: timing metrics, timestamps."""
    kept = records[~records["metric"].str.endswith("_time")].drop(columns=["timestamp"])
    return kept.sort_values(["repetition", "fold", "split", "metric"]).reset_index(drop=True)


def cells(results: Path) -> dict[str, pd.DataFrame]:
    """The cells of a results folder: ``{"<dataset>/<method>.parquet": comparable records}``."""
    files = sorted(results.glob("default/*/*.parquet"))
    return {f"{f.parent.name}/{f.name}": comparable(pd.read_parquet(f)) for f in files}


def assert_same_cells(got: dict, expected: dict) -> None:
    assert sorted(got) == sorted(expected)
    for name, frame in expected.items():
        pd.testing.assert_frame_equal(got[name], frame, obj=name)


def failure_summary(stderr: str, results: Path) -> list[str]:
    """The failed cells of a sweep's summary (the results folder written ``<results>``), and a
    check that each error file it names exists."""
    summary = stderr[re.search(r"\d+ of \d+ cells failed:", stderr).start() :].splitlines()
    files = [line.split("error file: ")[1] for line in summary if "error file: " in line]
    assert files and all(Path(f).is_file() and Path(f).parent.parent == results / "default"
                         for f in files)  # fmt: skip
    return [line.replace(str(results), "<results>") for line in summary if "error file" not in line]


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    """The README's joblib sweep (plus zoo, which fails) with the basic launcher: (proc, folder)."""
    tmp = tmp_path_factory.mktemp("serial")
    args = ["repro", *readme_args(JOBLIB_CMD, **SWEEPS["joblib"])]
    args.remove("hydra/launcher=joblib")
    proc = run([*args, f"results_dir={tmp / 'results'}", "progress=false"], tmp)
    assert proc.returncode == 1, proc.stderr
    return proc, tmp / "results"


# ------------------------------------------------------------------------ Hydra's launchers
@pytest.mark.parametrize("launcher", ["joblib", "submitit_local"])
def test_launcher_sweep_writes_the_cells_of_a_serial_run_and_reports_failures(
    launcher, serial, tmp_path
):
    """The README's joblib sweep under each launcher, zoo added (its 2 cells fail): the other
    cells are written with the records of the basic launcher's run; exit 1 with the summary of
    the failed cells (and their error files) that the basic launcher gives, as the sweep status
    mechanism of ``repro.__main__`` promises."""
    serial_proc, serial_results = serial
    results = tmp_path / "results"
    args = readme_args(JOBLIB_CMD, **SWEEPS[launcher], **{"hydra/launcher": launcher})
    proc = run(["repro", *args, f"results_dir={results}", "progress=false"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    methods = [a.split("=")[1].split(",") for a in args if a.startswith("method=")][0]
    datasets = [a.split("=")[1].split(",") for a in args if a.startswith("dataset=")][0]
    n_cells, n_failed = len(methods) * len(datasets), len(methods)  # zoo's cells fail
    expected = {
        name: frame
        for name, frame in cells(serial_results).items()
        if name.split("/")[0] in datasets and name.split("/")[1].split("__")[0] in methods
    }
    assert len(expected) == n_cells - n_failed
    assert_same_cells(cells(results), expected)
    summary = failure_summary(proc.stderr, results)
    assert summary[0] == f"{n_failed} of {n_cells} cells failed:" and len(summary) == 1 + n_failed
    # the jobs reported to a folder in the sweep's directory (repro.cli.sweep_status), removed since
    assert (results / "default/.multirun").is_dir()
    assert not list((results / "default/.multirun").glob(".status-*"))
    assert set(summary[1:]) <= set(failure_summary(serial_proc.stderr, serial_results)[1:])
    assert all("dataset=zoo" in line for line in summary[1:])
    assert all("ValueError: zoo: stratified 5-fold" in line for line in summary[1:])
    # the launcher did run the jobs: joblib's workers, submitit's jobs (one folder each)
    if launcher == "joblib":
        assert "Joblib.Parallel(n_jobs=-1,backend=loky" in proc.stdout + proc.stderr
    else:
        jobs = list((results / "default/.multirun/.submitit").glob("*/*_result.pkl"))
        assert len(jobs) == n_cells
        logs = "".join(p.read_text() for p in jobs[0].parent.parent.glob("*/*_log.out"))
        # each job ran one cell of the sweep: one line per cell ("computed <cell> on <data set>")
        assert logs.count("computed nb_gaussian on") == len(expected)


def fake_slurm(tmp_path) -> dict:
    """A PATH with a stand-in ``srun`` and an ``sbatch`` that keeps the script it is given and
    fails (there is no SLURM here): the environment of a sweep that stops at submission."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "srun").write_text("#!/bin/sh\nexit 1\n")
    (bin_dir / "sbatch").write_text(
        '#!/bin/sh\ncp "$1" "$SBATCH_COPY"\necho "sbatch: error: no SLURM here" >&2\nexit 1\n'
    )
    for tool in ("srun", "sbatch"):
        (bin_dir / tool).chmod(0o755)
    return {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "SBATCH_COPY": str(tmp_path / "job.sh"),
    }


def test_submitit_slurm_sweep_reaches_sbatch_with_partition_time_and_cpus(tmp_path):
    """The README's SLURM command: one array job over the experiment's cells (its 7 methods; on
    iris alone here: Hydra composes every cell's configuration before launching, 0.2 s each), on
    partition cpu, 120 minutes, 2 CPUs per cell, each running submitit's job."""
    args = [*readme_args(SLURM_CMD), "hydra.sweeper.params.dataset=iris", "progress=false"]
    proc = run(["repro", *args], tmp_path, fake_slurm(tmp_path))
    assert proc.returncode != 0 and "sbatch: error: no SLURM here" in proc.stderr
    script = (tmp_path / "job.sh").read_text()
    for directive in ("--array=0-6%7", "--partition=cpu", "--time=120", "--cpus-per-task=2"):
        assert f"#SBATCH {directive}\n" in script
    assert f"{sys.executable} -u -m submitit.core._submit" in script
    assert str(tmp_path / "results/boulle2007_table3/.multirun/.submitit") in script


def test_our_slurm_launcher_config_extends_submitit_slurm():
    """``hydra/launcher=slurm`` (conf/hydra/launcher/slurm.yaml): submitit_slurm with a job name,
    a 4 h limit, n_jobs CPUs per cell and 8 GB; every key of submitit_slurm still overridable."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.utils import instantiate

    from repro.config import CONF_DIR, register_dataset_configs

    register_dataset_configs()
    GlobalHydra.instance().clear()
    overrides = ["hydra/launcher=slurm", "hydra.launcher.qos=normal", "n_jobs=3"]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=overrides, return_hydra_config=True)
    GlobalHydra.instance().clear()
    launcher = instantiate(cfg.hydra.launcher)  # what Hydra builds for a sweep
    assert type(launcher).__name__ == "SlurmLauncher"
    expected = {"name": "repro", "partition": None, "timeout_min": 240, "cpus_per_task": 3,
                "mem_gb": 8, "qos": "normal", "array_parallelism": 256}  # fmt: skip
    assert {key: launcher.params[key] for key in expected} == expected


# ------------------------------------------------------------------------ Dask for the folds
@pytest.fixture(scope="module")
def local_cluster():
    """Two worker processes of one thread each, on this machine (no network)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local


@pytest.fixture
def cluster(local_cluster):
    """(the cluster, a client of it: the current one while the test runs)."""
    from distributed import Client

    with Client(local_cluster) as client:
        yield local_cluster, client


def folds_run(stream) -> int:
    """The folds in the tasks of a Dask task stream (joblib sends them in batches)."""
    return sum(int(BATCH.fullmatch(task["key"].rsplit("-", 1)[0])[1]) for task in stream.data)


def test_dask_backend_runs_the_folds_on_the_cluster_with_the_records_of_loky(cluster):
    from distributed import get_task_stream

    _, client = cluster
    loky = repro.evaluate("nb_gaussian", "iris", protocol="cv5")
    with get_task_stream(client) as stream:
        dask = repro.evaluate("nb_gaussian", "iris", protocol="cv5", backend="dask")
    workers = set(client.scheduler_info()["workers"])
    assert folds_run(stream) == 5 and {task["worker"] for task in stream.data} <= workers
    pd.testing.assert_frame_equal(comparable(dask), comparable(loky))
    threads = repro.evaluate("nb_gaussian", "iris", protocol="cv5", n_jobs=2, backend="threading")
    pd.testing.assert_frame_equal(comparable(threads), comparable(loky))


def test_dask_backend_from_the_command_line(cluster, tmp_path):
    """The README's Dask command, with the address of the test's cluster: the folds (10, cv10)
    run on its workers, and the cell's records are those of ``loky``."""
    from distributed import get_task_stream

    local, client = cluster
    args = readme_args(DASK_CMD, **{"dask.address": local.scheduler_address})
    with get_task_stream(client) as stream:
        proc = run(["repro", *args, "progress=false"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert folds_run(stream) == 10
    stored = pd.read_parquet(tmp_path / "results/default/iris/nb_gaussian.parquet")
    pd.testing.assert_frame_equal(
        comparable(stored), comparable(repro.evaluate("nb_gaussian", "iris"))
    )


def test_backend_is_checked_and_dask_needs_a_client():
    assert BACKENDS == ("loky", "threading", "dask") and check_backend("dask") == "dask"
    message = r"backend must be one of loky, threading, dask \(.*\), got 'spark'"
    with pytest.raises(ValueError, match=message):
        repro.evaluate("nb_gaussian", "iris", backend="spark")
    with pytest.raises(ValueError, match="backend must be one of"):
        run_cell(make_cell("nb_gaussian", "iris", "cv5"), backend=None)
    # no client (the cluster fixture's is closed after each test): say how to give one
    with pytest.raises(ValueError, match=r"needs a client: .*dask\.address=tcp://HOST:8786"):
        run_cell(make_cell("nb_gaussian", "iris", "cv5"), backend="dask")


# ------------------------------------------------------------------------ one shared folder
def test_two_workers_share_one_results_folder_and_the_report_merges_them(serial, tmp_path, capsys):
    """Two workers on one folder at the same time (two machines): the README's sweep from the
    command line, and the same cells in the opposite order from this process. Every cell is there
    once with the serial run's records, no lock or checkpoint is left, the report reads them all."""
    results = tmp_path / "shared"
    args = ["repro", *readme_args(JOBLIB_CMD), f"results_dir={results}", "progress=false"]
    args.remove("hydra/launcher=joblib")
    worker = subprocess.Popen(
        [sys.executable, "-m", *args], cwd=tmp_path, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    for dataset in ("wine", "iris"):
        for method in ("nb_ef", "nb_gaussian"):
            repro.evaluate(method, dataset, protocol="cv5", results_dir=results)
    out, err = worker.communicate(timeout=300)
    assert worker.returncode == 0, err
    cv5 = "__protocol=cv5.parquet"  # the protocol of the command, not the default cv10
    assert out.count(f"nb_ef{cv5}") == out.count(f"nb_gaussian{cv5}") == 2
    assert_same_cells(cells(results), cells(serial[1]))
    assert not list(results.rglob("*.lock")) and not list(results.rglob("*.parts"))
    from repro.report.__main__ import main as report_main  # python -m repro.report

    capsys.readouterr()
    argv = [
        "compare",
        f"results={results / 'default'}",
        "metric=accuracy",
        f"out={tmp_path / 'cmp'}",
    ]
    assert report_main(argv) == 0
    assert "N = 2 data sets, k = 2 methods" in capsys.readouterr().out
