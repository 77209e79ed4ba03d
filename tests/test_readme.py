"""Keep the README true: every command in it is run here or by CI (.ci/run)."""

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_module

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
CI = (ROOT / ".ci" / "run").read_text()


def _blocks(lang):
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _commands():
    cmds = []
    for block in _blocks("bash"):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line:
                cmds.append(line)
    return cmds


SETUP, TESTS, *CLI = _commands()


def test_setup_and_test_commands_are_what_ci_runs():
    install, main_job = (part.strip() for part in SETUP.split("&&"))
    ci_lines = [line.strip() for line in CI.splitlines()]
    assert f"python -m {install}" in ci_lines or install in ci_lines
    assert any(line.startswith(main_job) for line in ci_lines)
    assert TESTS in ci_lines


def _marks(command):
    # a whole paper experiment is long: run on purpose (pytest -m slow)
    long = command.startswith("python -m repro ") and "experiment=" in command
    return [pytest.mark.slow] if long else []


def _git(folder, *args) -> str:
    who = {
        f"GIT_{role}_{key}": "t" for role in ("AUTHOR", "COMMITTER") for key in ("NAME", "EMAIL")
    }
    env = {**who, "PATH": os.environ["PATH"], "HOME": str(folder)}
    proc = subprocess.run(["git", *args], cwd=folder, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("command", [pytest.param(c, marks=_marks(c)) for c in CLI])
def test_cli_command_runs(command, tmp_path):
    """Each command runs; a report command leaves ``git status`` clean: what it writes over the
    committed results is byte for byte what is committed (the copy is a repository of its own,
    with the project's ``.gitignore``)."""
    args = shlex.split(command)
    assert args[:2] == ["python", "-m"]
    # reports read the committed results: work on a copy so the checkout is left untouched
    shutil.copytree(ROOT / "results", tmp_path / "results")
    report = args[2] == "repro.report"
    if report:
        shutil.copy(ROOT / ".gitignore", tmp_path / ".gitignore")
        _git(tmp_path, "init", "-q")
        _git(tmp_path, "add", "-A")
        _git(tmp_path, "commit", "-q", "-m", "the committed results")
    proc = run_module(args[2], *args[3:], cwd=tmp_path, timeout=3600)
    assert proc.returncode == 0, proc.stderr
    if report:
        assert _git(tmp_path, "status", "--porcelain") == "", f"{command} changed the results"
    if args[2:] == ["repro.report", "all"]:
        # it decides every claim again: the committed results/claims.csv is what the rules
        # decide from the committed records today
        committed = pd.read_csv(ROOT / "results" / "claims.csv", keep_default_na=False)
        decided = pd.read_csv(tmp_path / "results" / "claims.csv", keep_default_na=False)
        pd.testing.assert_frame_equal(committed, decided)


def test_python_api_block_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (code,) = _blocks("python")
    namespace = {}
    exec(compile(code, "README.md", "exec"), namespace)
    records = namespace["records"]
    acc = records.query("split == 'test' and metric == 'accuracy'")["value"]
    assert len(acc) == 10 and 0.7 < acc.mean() < 0.8  # NB on pima: about 0.76


def test_the_numbers_the_readme_states_are_current(request):
    """The README's counts that drift: the bundled data sets, the benchmark's committed cells
    and the size of the suite (within 10% of what this run collected, when it is the whole
    suite)."""
    from repro.evaluation.packs import open_pack

    (bundled,) = re.findall(r"the (\d+) bundled benchmark data sets", README)
    assert int(bundled) == len(list((ROOT / "datasets").glob("*.parquet")))
    stated_cells = r"all (\d+) cells, (\d+) data sets × (\d+) methods, are committed"
    cells, sets, methods = map(int, re.search(stated_cells, README).groups())
    entries = list(open_pack(ROOT / "results" / "nb_benchmark" / "packed.parquet").entries)
    assert cells == len(entries) == sets * methods
    assert sets == len({n.split("/")[0] for n in entries})
    (stated,) = re.findall(r"some ([\d,]+) tests", README)
    collected = len(request.session.items)
    if collected < 3000:
        pytest.skip(f"{collected} tests collected: a part of the suite, not the whole")
    assert abs(collected - int(stated.replace(",", ""))) <= 0.1 * collected, collected
