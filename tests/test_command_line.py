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
from conftest import ROOT, can_mount_read_only, run_module


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


@pytest.mark.skipif(not can_mount_read_only(), reason="no user namespace to mount read-only")
@pytest.mark.parametrize("multirun", [False, True], ids=["single", "sweep"])
def test_a_read_only_results_folder_is_one_line_naming_results_dir(tmp_path, multirun):
    """A real read-only mount as results_dir: one line naming the folder and results_dir=, exit
    code 1, nothing written (before, a sweep: a 24-line traceback of Hydra's sweeper; a single
    run: "[Errno 30] Read-only file system: '…/default'")."""
    import shlex

    results = tmp_path / "results"
    results.mkdir()
    args = ["-m", "method=nb,nb_gaussian"] if multirun else ["method=nb"]
    args += ["dataset=iris", f"results_dir={results}", "progress=false"]
    script = (f"mount --bind {results} {results} && mount -o remount,bind,ro {results} {results}"
              f" && env PYTHONPATH={ROOT} MPLBACKEND=Agg {shlex.quote(sys.executable)} -m repro "
              + " ".join(map(shlex.quote, args)))  # fmt: skip
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"error: cannot write {results / 'default'}: "), done.stderr
    assert "Read-only file system" in done.stderr
    assert f"give a writable folder with results_dir=DIR (results_dir={results})" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert list(results.iterdir()) == []


@pytest.mark.skipif(not can_mount_read_only(), reason="no user namespace to mount read-only")
def test_a_sweep_of_finished_cells_in_a_read_only_folder_says_where_its_files_go(tmp_path):
    """The cells finished before the folder became read-only: the sweep still needs a folder of
    its own (Hydra writes multirun.yaml there): the line says so, and with hydra.sweep.dir= the
    sweep reads its cells."""
    import shlex

    results = tmp_path / "results"
    args = ["-m", "method=nb,nb_gaussian", "dataset=iris", "protocol=cv5", f"results_dir={results}",
            "progress=false"]  # fmt: skip
    assert repro(tmp_path, *args).returncode == 0
    python = f"env PYTHONPATH={ROOT} MPLBACKEND=Agg {shlex.quote(sys.executable)} -m repro "
    mount = f"mount --bind {results} {results} && mount -o remount,bind,ro {results} {results}"
    sweep = " ".join(map(shlex.quote, args))
    script = (f"{mount} && {python} {sweep}; echo rc=$? >&2; "
              f"{python} {sweep} hydra.sweep.dir={tmp_path / 'sweep'}")  # fmt: skip
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)  # fmt: skip
    first, code = done.stderr.splitlines()[:2]
    assert code == "rc=1", done.stderr
    assert first.startswith(f"error: cannot write {results / 'default' / '.multirun'}: ")
    assert "results_dir=DIR" in first and "hydra.sweep.dir=DIR" in first
    assert done.returncode == 0, done.stderr
    assert "sweep: 2 cells: 0 computed, 2 read, 0 failed" in done.stdout


def _openml_cache(root) -> None:
    """openml-python's own cache of OpenML data set 55 (hepatitis): its description and a
    30-row ARFF file, which ``openml.datasets.get_dataset`` reads without a request."""
    folder = root / "org" / "openml" / "www" / "datasets" / "55"
    folder.mkdir(parents=True)
    (folder / "description.xml").write_text(
        '<oml:data_set_description xmlns:oml="http://openml.org/openml">'
        "<oml:id>55</oml:id><oml:name>hepatitis</oml:name><oml:version>1</oml:version>"
        "<oml:format>ARFF</oml:format><oml:url>http://127.0.0.1:9/55.arff</oml:url>"
        "<oml:default_target_attribute>Class</oml:default_target_attribute>"
        "<oml:status>active</oml:status></oml:data_set_description>"
    )
    rows = [f"{30 + i},{'male' if i % 2 else 'female'},{'DIE' if i % 3 == 0 else 'LIVE'}"
            for i in range(30)]  # fmt: skip
    (folder / "dataset.arff").write_text(
        "@RELATION hepatitis\n@ATTRIBUTE AGE NUMERIC\n@ATTRIBUTE SEX {male,female}\n"
        "@ATTRIBUTE Class {DIE,LIVE}\n@DATA\n" + "\n".join(rows) + "\n"
    )


@pytest.mark.parametrize("multirun", [False, True], ids=["single", "sweep"])
def test_openml_prints_no_log_lines_of_its_own(tmp_path, multirun):
    """An OpenML data set not in repro's cache, read through openml-python (from its local
    cache: no network; a request would meet a closed port): openml's INFO lines ("No config
    file found at …", "pickle write hepatitis") printed through Hydra's logger as
    ``[<date>][HYDRA] …`` before; nothing now, and the cell runs."""
    import re

    _openml_cache(tmp_path / "openml")
    env = {"OPENML_CACHE_DIR": str(tmp_path / "openml"), "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
           "REPRO_OPENML_CACHE": str(tmp_path / "repro_cache"), "REPRO_OFFLINE": "0",
           "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"}  # fmt: skip
    args = ["-m"] if multirun else []
    args += ["method=nb", "dataset=hepatitis", "protocol=cv5", "progress=false"]
    proc = run_module("repro", *args, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "repro_cache" / "55.parquet").is_file()  # read through openml
    lines = (proc.stdout + proc.stderr).splitlines()
    hydra_own = re.compile(r"^\[[\d :,-]+\]\[HYDRA\] (Launching \d+ jobs locally|\t#\d+ : )")
    for line in lines:
        assert not re.match(r"^\[\d{4}-\d\d-\d\d", line) or hydra_own.match(line), line
        assert not re.search(r"\[(INFO|WARNING)\]|pickle write|No config file found", line), line


def test_an_openml_warning_is_one_line_and_its_info_lines_are_dropped(capsys):
    """Under a root logger configured as Hydra's (``[<date>][HYDRA] MESSAGE``): openml's INFO
    lines, of its loggers or of the root logger called from its code, print nothing; its
    warning prints as ``warning: MESSAGE (openml)``, as the package's warnings do; other
    records are left to the root logger; and all is as before afterwards."""
    import io
    import logging

    import openml

    from repro.datasets.openml_source import _quiet_openml

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("[%(asctime)s][HYDRA] %(message)s"))
    root = logging.getLogger()
    saved_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    request = logging.LogRecord("root", logging.INFO, os.path.join(os.path.dirname(
        openml.__file__), "_api_calls.py"), 1, "Starting [get] request", None, None)  # fmt: skip
    try:
        with _quiet_openml():
            logging.getLogger("openml.datasets.dataset").info("pickle write hepatitis")
            logging.getLogger("openml.config").info("No config file found at x")
            root.handle(request)
            logging.getLogger("openml.datasets.functions").warning("Failed to download\nparquet")
            logging.getLogger("repro.other").info("kept")
        logging.getLogger("openml.datasets.dataset").info("after")
    finally:
        root.removeHandler(handler)
        root.setLevel(saved_level)
    assert capsys.readouterr().err == "warning: Failed to download parquet (openml)\n"
    lines = out.getvalue().splitlines()
    assert [line.split("[HYDRA] ")[1] for line in lines] == ["kept", "after"]


def test_ctrl_c_while_starting_is_one_line_not_a_traceback(tmp_path):
    """SIGINT while the command line is still importing (before: a KeyboardInterrupt traceback
    from inside scipy's or Hydra's imports, exit -2, at 0.3-0.9 s after the start): one line and
    exit 130. The signal is sent by the process to itself once the module is imported, so the
    test does not depend on timing."""
    code = (
        "import os, signal, time\nimport repro.__main__\n"
        "os.kill(os.getpid(), signal.SIGINT)\ntime.sleep(30)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 130
    assert done.stderr == "interrupted while starting: nothing was computed\n"
