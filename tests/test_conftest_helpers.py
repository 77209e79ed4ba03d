"""The shared helpers of tests/conftest.py: the subprocess tests run the checkout, not an installed
copy of the package (:func:`conftest.run_module` puts the repository root on the child's
``PYTHONPATH``); the Khiops oracle tests skip with a reason where Khiops is absent."""

import re
from pathlib import Path

import pytest
from conftest import ROOT, run_module


def test_python_m_repro_through_the_helper_imports_the_checkout(tmp_path):
    """``python -m repro --help`` from a folder outside the checkout, with the interpreter's verbose
    import trace (``PYTHONVERBOSE``): every ``repro/__init__`` and ``repro/__main__`` the child
    loads lies in this checkout."""
    proc = run_module("repro", "--help", cwd=tmp_path, env={"PYTHONVERBOSE": "1"}, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "usage: python -m repro" in proc.stdout
    # "# code object from <path>" or "# <pyc> matches <path>": the source file of each module
    pattern = r"(?:code object from|matches) '?([^'\n]*[/\\]repro[/\\](__init__|__main__)\.py)"
    loaded = re.findall(pattern, proc.stderr)
    assert {name for _, name in loaded} == {"__init__", "__main__"}, proc.stderr[-2000:]
    for path, _ in loaded:
        assert Path(path).resolve().is_relative_to(ROOT), path
    assert not Path(tmp_path).resolve().is_relative_to(ROOT)


class _Item:
    """A stand-in for a collected test carrying ``marks``."""

    def __init__(self, *marks):
        self.marks = marks

    def iter_markers(self, name):
        return (m for m in self.marks if m.name == name)


def test_khiops_oracle_tests_skip_with_the_reason_without_the_binaries(tmp_path, monkeypatch):
    """Without ``khiops_env`` on ``PATH`` a test marked ``oracle("khiops")`` is skipped, with the
    reason, before its fixtures run; a Weka oracle test and an unmarked one are left alone."""
    import conftest

    khiops, weka = pytest.mark.oracle("khiops").mark, pytest.mark.oracle.mark
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no khiops_env
    with pytest.raises(pytest.skip.Exception, match="Khiops oracle: the Khiops binaries are not"):
        conftest.pytest_runtest_setup(_Item(khiops))
    conftest.pytest_runtest_setup(_Item(weka))
    conftest.pytest_runtest_setup(_Item())
