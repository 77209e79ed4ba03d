"""Shared test helpers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_module(
    module: str, *args: str, env: dict | None = None, timeout: float = 120, cwd: Path = ROOT
):
    """``python -m module args`` in a subprocess run from ``cwd`` (default the checkout; the
    package importable through ``PYTHONPATH``, matplotlib without display), ``env`` added to this
    process' environment."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def stored_files(folder) -> list[Path]:
    """The record files under ``folder``, loose or packed (a pack's entries stand for the files
    it folded), sorted; checkpoints excluded."""
    from repro.evaluation.store import ResultsStore

    folder = Path(folder)
    return ResultsStore(folder.parent).record_files(folder.name)


def read_stored(path, columns=None):
    """The frame of the record file ``path``, loose or packed (as ``pd.read_parquet`` read the
    file before it was packed); only ``columns`` when given."""
    from repro.evaluation.records import read_records

    frame = read_records(path)
    return frame if columns is None else frame[list(columns)]


def can_mount_read_only() -> bool:
    """A read-only mount in a user namespace works here (``unshare -rm``; root ignores a
    folder's permissions, so chmod 0o555 cannot make a folder read-only for the tests)."""
    import shutil
    import tempfile

    if shutil.which("unshare") is None:
        return False
    with tempfile.TemporaryDirectory() as d:
        script = f"mount --bind {d} {d} && mount -o remount,bind,ro {d} {d}"
        done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True)
    return done.returncode == 0


def markdown_cells(line: str) -> list[str]:
    """The cells of a Markdown table row, split on the bars that are not escaped."""
    out, cell, escaped = [], "", False
    for c in line.strip()[1:-1]:
        if c == "|" and not escaped:
            out.append(cell)
            cell = ""
        else:
            cell += c
        escaped = c == "\\" and not escaped
    return [*out, cell]


@pytest.fixture
def python_m():
    """:func:`run_module`: ``python_m("repro.report", "compare", ...)``."""
    return run_module


def khiops_oracle_missing() -> str | None:
    """Why the Khiops oracle cannot run here (None when it can): the Python package ``khiops``
    or the Khiops binaries (``khiops_env`` on ``PATH``) are absent."""
    from repro.methods.khiops.peer import khiops_missing

    return khiops_missing()


def pytest_runtest_setup(item):
    """A test marked ``oracle("khiops")`` (a module's ``pytestmark`` included) is skipped, with the
    reason, where Khiops cannot run, before its fixtures fit anything (they would error)."""
    if any("khiops" in mark.args for mark in item.iter_markers("oracle")):
        why = khiops_oracle_missing()
        if why:
            pytest.skip(f"Khiops oracle: {why}")


#: cheap settings of the tuned methods for tests over every registered method (the tests check
#: the interface and the input handling, not the tuning grid)
CHEAP = {
    "lr_tuned": {"grid": {"C": [0.1, 1.0]}, "inner_cv": 2},
    "svm_tuned": {"grid": {"C": [0.1, 1.0]}, "inner_cv": 2},
    "bma_nb_tuned": {"grid": {"gamma": [0.5, 1.0]}, "inner_cv": 2},
}


def cheap_method(name: str, **params):
    """``make_method(name)`` with the :data:`CHEAP` settings of the tuned methods."""
    from repro.registry import make_method

    return make_method(name, **{**CHEAP.get(name, {}), **params})


#: tests of a minute or more each, run first: pytest-xdist hands tests out in collection order,
#: and one of them met last would end the suite on one worker while the other idles
HEAVY_FIRST = (
    "tests/test_readme.py::test_cli_command_runs[python -m repro.report all]",
    "tests/test_readme.py::test_cli_command_runs[python -m repro.report experiment=",
    "tests/report/test_dashboard.py::",
    "tests/methods/test_fnb.py::test_fnb_and_fnb_khiops_on_the_same_data",
)


def pytest_collection_modifyitems(session, config, items):
    """The :data:`HEAVY_FIRST` tests at the front in that order, the others in theirs."""

    def rank(item) -> int:
        found = (i for i, h in enumerate(HEAVY_FIRST) if item.nodeid.startswith(h))
        return next(found, len(HEAVY_FIRST))

    items.sort(key=rank)
