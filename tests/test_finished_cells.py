"""A sweep reads its finished cells before the launch (repro.cli.finished_cells, the sweeper of
conf/hydra/sweeper/repro.yaml) and launches only the others; the configurations it reads them
with are Hydra's (repro.cli.sweep_configs)."""

import hashlib
import re
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_module
from omegaconf import OmegaConf

from repro.cli.finished_cells import excluded_jobs
from repro.cli.sweep_configs import job_configs
from repro.config import compose
from repro.evaluation.records import config_hash

GRID = ["-m", "method=nb_gaussian,nb_ef", "dataset=iris,wine"]


def run(args, cwd, check=True):
    proc = run_module("repro", *args, "progress=false", cwd=cwd, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def launched(proc) -> list[str]:
    """The overrides of the jobs Hydra launched (its ``#N : ...`` log lines)."""
    text = proc.stdout + proc.stderr
    return re.findall(r"\t#\d+ : (.*)", text)


def files(root: Path) -> dict:
    """Every file under ``root`` but the sweeps' own folders: its bytes' digest and mtime."""
    return {
        p.relative_to(root): (hashlib.sha1(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".multirun" not in p.parts
    }


def read_lines(out: str) -> list[str]:
    """The ``read ...`` lines without their time."""
    return [re.sub(r", [\d.]+ s\)", ")", ln) for ln in out.splitlines() if ln.startswith("read ")]


def test_a_finished_sweep_launches_no_job_and_changes_no_file(tmp_path):
    first = run(GRID, tmp_path)
    assert len(launched(first)) == 4
    before = files(tmp_path / "results")
    again = run(GRID, tmp_path)
    assert launched(again) == [] and "Launching" not in again.stdout + again.stderr
    assert files(tmp_path / "results") == before  # byte-identical, not even rewritten
    assert "sweep: 4 cells: 0 computed, 4 read, 0 failed" in again.stdout
    # the lines of the launcher's path (every job launched), in the same order
    slow = run([*GRID, "hydra.sweeper.skip_finished=false"], tmp_path)
    assert len(launched(slow)) == 4
    assert read_lines(again.stdout) == read_lines(slow.stdout)
    assert [ln.split(":")[0] for ln in read_lines(again.stdout)] == [
        f"read {m} on {d}" for m in ("nb_gaussian", "nb_ef") for d in ("iris", "wine")
    ]


def test_the_sweeps_bound_leaves_its_cells_out(tmp_path):
    """hydra.sweeper.exclude: nb_ef on wine is not launched (and said so); the other three are."""
    proc = run([*GRID, "hydra.sweeper.exclude=[{method:nb_ef,dataset:wine}]"], tmp_path)
    assert launched(proc) == [
        "method=nb_gaussian dataset=iris progress=False",
        "method=nb_gaussian dataset=wine progress=False",
        "method=nb_ef dataset=iris progress=False",
    ]
    assert "left out by the sweep's bound (hydra.sweeper.exclude): 1 cell(s): " in proc.stdout
    assert not (tmp_path / "results" / "default" / "wine" / "nb_ef.parquet").exists()
    assert (tmp_path / "results" / "default" / "iris" / "nb_ef.parquet").exists()
    # a list of values leaves out every combination; a malformed entry stops before any job
    both = run(
        [*GRID, "hydra.sweeper.exclude=[{method:[nb_ef,nb_gaussian],dataset:wine}]"], tmp_path
    )
    assert "2 cell(s)" in both.stdout and len(launched(both)) == 0  # iris cells: read, finished
    bad = run([*GRID, "hydra.sweeper.exclude=[nb_ef]"], tmp_path, check=False)
    assert bad.returncode != 0 and "hydra.sweeper.exclude must be a list of" in bad.stderr


def test_excluded_jobs_by_hand():
    jobs = [["method=a", "dataset=x"], ["method=a", "dataset=y"], ["method=b", "dataset=x"]]
    assert excluded_jobs(jobs, []) == (jobs, [])
    assert excluded_jobs(jobs, [{"dataset": "x"}]) == ([jobs[1]], [jobs[0], jobs[2]])
    kept, dropped = excluded_jobs(jobs, [{"method": ["a", "c"], "dataset": "y"}, {"method": "b"}])
    assert kept == [jobs[0]] and dropped == [jobs[1], jobs[2]]
    for bad in ([{}], ["method=a"], [{"method": "a"}, 3]):
        with pytest.raises(ValueError, match="hydra.sweeper.exclude must be a list of"):
            excluded_jobs(jobs, bad)


def test_a_half_finished_sweep_computes_exactly_the_others(tmp_path):
    run(["-m", "method=nb_gaussian,nb_ef", "dataset=iris"], tmp_path)
    proc = run(GRID, tmp_path)
    assert launched(proc) == [
        "method=nb_gaussian dataset=wine progress=False",
        "method=nb_ef dataset=wine progress=False",
    ]
    out = proc.stdout
    assert out.count("computed nb_") == 2 and "computed nb_ef on wine" in out
    assert [ln.split(":")[0] for ln in read_lines(out)] == [
        "read nb_gaussian on iris",
        "read nb_ef on iris",
    ]
    assert "sweep: 4 cells: 2 computed, 2 read, 0 failed" in out


def test_a_changed_configuration_is_not_skipped(tmp_path):
    """Another parameter value is another cell: computed, the finished one read."""
    run(["method=nb_ef", "dataset=iris"], tmp_path)
    proc = run(["-m", "method=nb_ef", "method.n_bins=3,10", "dataset=iris"], tmp_path)
    default = OmegaConf.load(Path(__file__).parents[1] / "conf/method/nb_ef.yaml").n_bins
    assert default == 10
    assert launched(proc) == ["method=nb_ef method.n_bins=3 dataset=iris progress=False"]
    assert "computed nb_ef__n_bins=3 on iris" in proc.stdout
    assert "read nb_ef on iris" in proc.stdout


def test_a_file_of_another_configuration_fails_as_before(tmp_path):
    """A records file whose configuration hash is not the cell's is launched, and its job fails
    with the runner's message and an error file."""
    run(GRID, tmp_path)
    path = tmp_path / "results/default/wine/nb_ef.parquet"
    frame = pd.read_parquet(path)
    frame["config_hash"] = "0123456789ab"
    frame.to_parquet(path)
    proc = run(GRID, tmp_path, check=False)
    assert launched(proc) == ["method=nb_ef dataset=wine progress=False"]
    assert proc.returncode == 1 and "1 of 4 cells failed" in proc.stderr
    assert "holds results of another configuration" in proc.stderr
    (error,) = (tmp_path / "results/default/wine").glob("nb_ef.*.error.json")
    assert "another configuration" in error.read_text()


def test_a_corrupt_record_is_quarantined_and_recomputed(tmp_path):
    run(GRID, tmp_path)
    path = tmp_path / "results/default/iris/nb_gaussian.parquet"
    good = pd.read_parquet(path)
    path.write_bytes(path.read_bytes()[:100])  # a copy cut short
    proc = run(GRID, tmp_path)
    assert launched(proc) == ["method=nb_gaussian dataset=iris progress=False"]
    assert "computed nb_gaussian on iris" in proc.stdout
    assert (path.parent / "nb_gaussian.parquet.corrupt").is_file()
    again = pd.read_parquet(path)
    test = "split == 'test' and metric == 'accuracy'"
    assert again.query(test)["value"].tolist() == good.query(test)["value"].tolist()


def test_a_finished_cell_clears_its_old_error_file(tmp_path):
    """As its job did, a cell read before the launch removes the error file that a failed run of
    the same overrides left beside it (named from them: ``<method>.<hash>.error.json``)."""
    run(GRID, tmp_path)
    bad = ["-m", "method=nb_ef", "method.n_bins=0", "dataset=iris"]
    failed = run([*bad, "n_jobs=1", "timeout=60"], tmp_path, False)
    (error,) = (tmp_path / "results/default/iris").glob("nb_ef.*.error.json")
    assert failed.returncode == 1 and "n_bins must be" in error.read_text()
    # named from what the cell computes: n_jobs, timeout and progress are not in the name
    assert error.name == f"nb_ef.{config_hash({'overrides': sorted(bad[1:])})}.error.json"
    overrides = ["method=nb_ef", "dataset=iris"]  # the job's, as Hydra has them, but progress
    name = f"nb_ef.{config_hash({'overrides': sorted(overrides)})}.error.json"
    moved = error.rename(error.with_name(name))  # as if the job of GRID had failed
    proc = run(GRID, tmp_path)
    assert launched(proc) == [] and not moved.exists()


def test_the_joblib_launcher_gets_only_the_pending_cells(tmp_path):
    pytest.importorskip("hydra_plugins.hydra_joblib_launcher")
    run(["-m", "method=nb_gaussian", "dataset=iris,wine"], tmp_path)
    proc = run([*GRID, "hydra/launcher=joblib", "hydra.launcher.n_jobs=2"], tmp_path)
    log = proc.stdout + proc.stderr
    assert "Joblib.Parallel(n_jobs=2," in log and "is launching 2 jobs" in log
    assert sorted(launched(proc)) == [
        "method=nb_ef dataset=iris progress=False",
        "method=nb_ef dataset=wine progress=False",
    ]
    assert "sweep: 4 cells: 2 computed, 2 read, 0 failed" in proc.stdout


def test_your_own_method_data_set_and_experiment_are_read_again(tmp_path):
    """``--config-dir=DIR``: the cells of a method, a data set and an experiment of DIR are read
    back without a job."""
    conf = tmp_path / "myconf"
    for folder in ("method", "experiment", "dataset"):
        (conf / folder).mkdir(parents=True)
    rows = [f"{x},{2 * x + (x % 3)},{'ab'[x % 2]}" for x in range(40)]
    (conf / "dataset" / "mydata.csv").write_text("u,v,class\n" + "\n".join(rows) + "\n")
    (conf / "mynb.py").write_text(
        "from sklearn.naive_bayes import GaussianNB\n\n\nclass MyNB(GaussianNB):\n    pass\n"
    )
    (conf / "method" / "mine.yaml").write_text("_target_: mynb.MyNB\nvar_smoothing: 1.0e-9\n")
    (conf / "experiment" / "my_study.yaml").write_text(
        "# @package _global_\nexperiment_name: my_study\nhydra:\n  mode: MULTIRUN\n"
        "  sweeper:\n    params:\n      method: mine,nb_gaussian\n      dataset: iris,mydata\n"
    )
    args = ["--config-dir=myconf", "experiment=my_study"]
    assert len(launched(run(args, tmp_path))) == 4
    proc = run(args, tmp_path)
    assert launched(proc) == [] and "sweep: 4 cells: 0 computed, 4 read" in proc.stdout
    assert "read mine on mydata" in proc.stdout


@pytest.mark.parametrize(
    "grid",
    [
        {"method": ["nb_gaussian", "nb_ef"], "dataset": ["iris", "wine", "waveform"]},
        # the method and its parameter change the same part: composed together
        {"method": ["nb_ef"], "method.n_bins": ["3", "5"], "dataset": ["iris", "pima"]},
        {"dataset": ["waveform"], "dataset.n_samples": ["300", "600"], "seed": ["0", "1"]},
        {"experiment": ["boulle2007_table3"], "method": ["nb", "snb_cma"], "dataset": ["led"]},
    ],
)
def test_job_configs_are_hydras(grid):
    """Each job's configuration, assembled from a composition per swept value, is the one
    Hydra composes for the job (its choices too)."""
    keys = list(grid)
    jobs = [
        [f"{k}={v}" for k, v in zip(keys, values, strict=True)]
        for values in __import__("itertools").product(*grid.values())
    ]
    calls = []

    def hydra(job):
        calls.append(job)
        return compose(job, return_hydra_config=True)

    configs = job_configs(hydra, jobs)
    assert len(calls) < len(jobs) or len(jobs) <= 4
    for job, config in zip(jobs, configs, strict=True):
        whole = compose(job, return_hydra_config=True)
        expected = OmegaConf.to_container(whole, resolve=False)
        choices = expected.pop("hydra")["runtime"]["choices"]
        assert OmegaConf.to_container(config.config, resolve=False) == expected
        assert config.choices == choices and config.overrides == job


def test_job_configs_keep_the_keys_asked_for_and_what_they_refer_to():
    jobs = [["method=nb_ef", "dataset=iris"], ["method=nb_ef", "dataset=wine"]]
    (config, _) = job_configs(lambda job: compose(job, return_hydra_config=True), jobs, ["seed"])
    assert set(config.config) == {"seed"}
    (config, _) = job_configs(
        lambda job: compose(job, return_hydra_config=True), jobs, ["results_dir", "method"]
    )
    assert set(config.config) == {"results_dir", "paths", "method"}  # ${paths.results}
    assert config.config.results_dir == "results"


def test_job_configs_of_a_job_that_does_not_compose_is_none():
    jobs = [["method=nb_ef", "dataset=iris"], ["method=nb_ef", "dataset=nosuch"]]
    configs = job_configs(lambda job: compose(job, return_hydra_config=True), jobs)
    assert configs[0] is not None and configs[1] is None


def test_job_configs_of_jobs_of_other_keys_are_composed_apart():
    """Jobs of several key lists (a sweep's runs) are one grid per list, in the jobs' order."""
    jobs = [["seed=1"], ["seed=1", "n_jobs=2"], ["seed=2"]]
    configs = job_configs(lambda job: compose(job, return_hydra_config=True), jobs, ["seed"])
    assert [(c.config.seed, c.overrides) for c in configs] == [
        (1, jobs[0]),
        (1, jobs[1]),
        (2, jobs[2]),
    ]


def test_a_cell_at_or_below_the_majority_rate_says_so_on_its_console_line():
    """iris: three classes of 50, majority rate 1/3; folds at 0.30 are flagged, at 0.95 not."""
    import numpy as np
    import pandas as pd

    from repro.cli.finished_cells import majority_flag

    y = np.repeat([0, 1, 2], 50)
    records = pd.DataFrame({"split": ["test"] * 2 + ["train"], "metric": ["accuracy"] * 3,
                            "value": [0.30, 1 / 3, 0.99]})  # fmt: skip
    assert majority_flag(records, y) == (
        " — at or below the majority rate: accuracy 0.317 ≤ 0.333, the share of the largest "
        "class (no better than always predicting it)"
    )
    assert majority_flag(records.assign(value=[0.95, 0.96, 0.99]), y) == ""
    assert majority_flag(records.assign(value=1 / 3), y).startswith(" — at or below")  # "at"
    # pima, 500 of 768 in the largest class (0.65104): bma_nb with gamma=1.5 predicts it on every
    # fold, whose stratified mean is 0.65106: flagged, as the dashboard flags it
    pima = np.repeat([0, 1], [500, 268])
    assert majority_flag(records.assign(value=[0.65106, 0.65106, 1.0]), pima) != ""
    assert majority_flag(records.assign(value=[0.652, 0.652, 1.0]), pima) == ""
