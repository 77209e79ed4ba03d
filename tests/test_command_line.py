"""The command line explains itself (issue 27): ``--help``, ``list``, one-line errors with the
valid choices and a did-you-mean, typed values named by their key, your own method and
experiment from your own folder, and Ctrl-C ending with the command that resumes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT, run_module


def repro(cwd, *args, timeout=300):
    return run_module("repro", *args, cwd=cwd, timeout=timeout)


def test_help_lists_what_matters_and_points_to_the_lists(tmp_path):
    proc = repro(tmp_path, "--help")
    assert proc.returncode == 0
    for text in ("method=", "dataset=", "protocol=", "experiment=", "n_jobs=", "results_dir=",
                 "-m ", "--config-dir", "python -m repro list methods"):  # fmt: skip
        assert text in proc.stdout
    assert "powered by Hydra" not in proc.stdout


def test_version_is_the_package_s_not_hydra_s(tmp_path):
    import importlib.metadata

    proc = repro(tmp_path, "--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"repro {importlib.metadata.version('repro')}"
    assert "Hydra" not in proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("what", "row"),
    [
        ("methods", "snb_cma "),
        ("datasets", "iris "),
        ("experiments", "wu2015_table2 "),
        ("protocols", "cv10 "),
    ],
)
def test_list_prints_one_line_per_name_with_a_description(tmp_path, what, row):
    proc = repro(tmp_path, "list", what)
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in proc.stdout.splitlines() if x.startswith(row)]
    assert len(line.split(maxsplit=1)[1]) > 5  # a description follows the name
    assert "SPEC" not in proc.stdout


def test_the_protocol_line_says_what_the_protocol_does(tmp_path):
    lines = repro(tmp_path, "list", "protocols").stdout.splitlines()
    (cv5,) = [x for x in lines if x.startswith("cv5 ")]
    assert "stratified 5-fold cross-validation × 1" in cv5


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["protocol=cv1"], ["Unknown protocol 'cv1'. Did you mean 'cv10'", "cv5, holdout70"]),
        (["experiment=wu2015_tabel2"], ["Did you mean 'wu2015_table2'", "vidaurre2012_table1"]),
        (["metod=nb"], ["Unknown key 'metod'. Did you mean 'method'?", "+KEY=VALUE"]),
        (["n_jobs=two"], ["n_jobs must be an integer ≥ 1, or -1 (one per core), got 'two'"]),
        (["force=maybe"], ["force must be true or false, got 'maybe'"]),
        (["list", "method"], ["Unknown list 'method'. Did you mean 'methods'?"]),
    ],
)
def test_a_wrong_value_gets_one_or_two_lines_naming_it(tmp_path, args, expected):
    proc = repro(tmp_path, *args)
    assert proc.returncode == 2
    for text in expected:
        assert text in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 2
    assert "Traceback" not in proc.stderr and "search path" not in proc.stderr.lower()


def test_ctrl_c_keeps_the_finished_folds_and_says_how_to_resume(tmp_path):
    """SIGINT during a 30 × 10-fold run: one line naming the resuming command, exit 130, the
    finished folds' checkpoints kept (resuming from them: tests/reliability)."""
    args = ["method=nb_gaussian", "dataset=letter", "protocol=cv10x30", "progress=false"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "repro", *args],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    parts = tmp_path / "results/default/letter/nb_gaussian__protocol=cv10x30.parts"
    deadline = time.time() + 120
    # finished checkpoints only: a fold being written is a hidden temporary file beside them
    while time.time() < deadline and not (
        parts.is_dir() and len(list(parts.glob("*.parquet"))) >= 2
    ):
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "every finished fold is kept" in err
    assert f"python -m repro {' '.join(args)}" in err
    assert "Traceback" not in err
    kept = len(list(parts.glob("*.parquet")))
    assert kept >= 2


def test_the_report_command_explains_itself(tmp_path):
    top = run_module("repro.report", "--help", cwd=tmp_path)
    assert top.returncode == 0 and "experiment=NAME" in top.stdout and "compare" in top.stdout
    compare = run_module("repro.report", "compare", "--help", cwd=tmp_path)
    assert compare.returncode == 0
    for key in ("results", "metric", "methods", "correction", "reference", "rope", "out"):
        assert f"\n  {key} " in compare.stdout
    typo = run_module("repro.report", "compare", "results=x", "metic=auc", cwd=tmp_path)
    assert typo.returncode == 2
    assert "unknown argument(s) ['metic']. Did you mean 'metric'?" in typo.stderr
