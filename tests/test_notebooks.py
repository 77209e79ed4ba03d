"""The notebooks of ``notebooks/``, made from the examples gallery (``examples/plot_*.py``, their
one source) by ``notebooks/sync.py`` with jupytext: each is what the script makes of its example
now (in sync), its code cells hold exactly the example's code, and each runs, its code cells in
order in one fresh Python process (as a Jupyter kernel would run them, without a kernel) from an
empty temporary folder, writing nothing there.

Running a notebook costs what its example costs (3 to 8 s alone): the notebooks of the three
longer examples are ``slow``, as their examples are in ``tests/test_examples.py`` (their code is
executed at every build of the documentation site, and checked here to be the notebook's)."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

EXAMPLES = ROOT / "examples"
NOTEBOOKS = ROOT / "notebooks"
#: the examples that tests/test_examples.py runs only with ``-m slow`` (6 to 8 s each, alone)
SLOW = {"plot_1_quickstart", "plot_2_your_method", "plot_5_parameter_sweep"}

#: runs the code cells of the notebook ``sys.argv[1]`` in order, in one namespace that is the
#: module ``__main__`` (as in a Jupyter kernel: a class defined in a cell is ``__main__.Name``);
#: a cell that raises stops the run with its traceback (the cell named) and exit status 1
DRIVER = r"""
import json, linecache, sys, types

path = sys.argv[1]
cells = [c for c in json.load(open(path, encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
main = types.ModuleType("__main__")
sys.modules["__main__"] = main
for n, cell in enumerate(cells, 1):
    source = "".join(cell["source"])
    name = f"{path}, code cell {n}"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    exec(compile(source, name, "exec"), main.__dict__)
print(f"ran {len(cells)} code cells", file=sys.stderr)
"""


def load_sync():
    """notebooks/sync.py as a module (it is a script, not a part of the package)."""
    spec = importlib.util.spec_from_file_location("notebooks_sync", NOTEBOOKS / "sync.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sync():
    return load_sync()


def code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def run_notebook(path: Path, work: Path) -> subprocess.CompletedProcess:
    """Runs the notebook's code cells with :data:`DRIVER` from the folder ``work``."""
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    return subprocess.run(
        [sys.executable, "-c", DRIVER, str(path)],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_every_example_has_its_notebook_and_it_is_in_sync(sync):
    scripts = sorted(p.stem for p in EXAMPLES.glob("plot_*.py"))
    assert scripts == sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    for script in sync.examples():
        committed = json.loads(sync.target(script).read_text(encoding="utf-8"))
        made = json.loads(sync.text_of(sync.notebook(script)))
        cells = [(c["cell_type"], "".join(c["source"])) for c in committed["cells"]]
        assert cells == [(c["cell_type"], "".join(c["source"])) for c in made["cells"]], (
            f"{sync.target(script).name} is out of date: run python notebooks/sync.py"
        )
        assert all(not c.get("outputs") for c in committed["cells"])  # no outputs committed
    assert sync.stale() == [] and sync.orphans() == []  # byte for byte, nothing left over
    assert sync.main(["--check"]) == 0


def test_the_check_fails_on_a_changed_example_until_resynced(sync, tmp_path, monkeypatch):
    """On a copy: an edited example makes ``--check`` fail (exit status 1) and name the
    notebook; a sync rewrites it with the edit, after which the check passes."""
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    shutil.copytree(NOTEBOOKS, tmp_path / "notebooks", ignore=shutil.ignore_patterns("*.py"))
    (tmp_path / "docs").symlink_to(ROOT / "docs")  # the :doc: links point at docs/ sources
    monkeypatch.setattr(sync, "ROOT", tmp_path)
    monkeypatch.setattr(sync, "EXAMPLES", tmp_path / "examples")
    monkeypatch.setattr(sync, "NOTEBOOKS", tmp_path / "notebooks")
    assert sync.main(["--check"]) == 0
    script = tmp_path / "examples" / "plot_3_sklearn_pipeline.py"
    script.write_text(
        script.read_text(encoding="utf-8").replace("test_size=0.3", "test_size=0.25"),
        encoding="utf-8",
    )
    assert sync.stale() == [tmp_path / "notebooks" / "plot_3_sklearn_pipeline.ipynb"]
    assert sync.main(["--check"]) == 1
    assert sync.main([]) == 0
    assert any("test_size=0.25" in c for c in code_cells(sync.target(script)))
    assert sync.main(["--check"]) == 0
    (tmp_path / "examples" / "plot_6_what_a_model_learned.py").unlink()  # a notebook orphaned
    assert sync.main(["--check"]) == 1


def without_docstring(tree: ast.Module) -> str:
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return ast.dump(ast.Module(body=body, type_ignores=[]))


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("plot_*.py")), ids=lambda p: p.stem)
def test_the_code_cells_are_the_examples_code(script):
    """Every code cell compiles alone, and the cells together are the script's code, statement
    for statement (its docstring and its text comments went into Markdown cells)."""
    cells = code_cells(NOTEBOOKS / f"{script.stem}.ipynb")
    assert len(cells) >= 2
    for cell in cells:
        compile(cell, script.stem, "exec")
    example = ast.parse(script.read_text(encoding="utf-8"))
    assert without_docstring(ast.parse("\n\n".join(cells))) == without_docstring(example)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(p.stem, marks=[pytest.mark.slow] if p.stem in SLOW else [])
        for p in sorted(NOTEBOOKS.glob("*.ipynb"))
    ],
)
def test_the_notebook_runs(name, tmp_path):
    path = NOTEBOOKS / f"{name}.ipynb"
    proc = run_notebook(path, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"ran {len(code_cells(path))} code cells" in proc.stderr
    assert list(tmp_path.iterdir()) == [], "the notebook wrote into its working directory"


def test_a_cell_that_raises_fails_the_run(tmp_path):
    """The runner of the test above stops at the first cell that raises, says which, and fails;
    the names of a cell are seen by the next ones, in ``__main__``."""
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# title"},
            {"cell_type": "code", "metadata": {}, "source": ["class A:\n", "    pass\n"]},
            {"cell_type": "code", "metadata": {}, "source": "print(A.__module__, 'first')"},
            {"cell_type": "code", "metadata": {}, "source": "1 / 0"},
            {"cell_type": "code", "metadata": {}, "source": "print('never')"},
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "broken.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    proc = run_notebook(path, work)
    assert proc.returncode == 1
    assert proc.stdout == "__main__ first\n"
    assert "code cell 3" in proc.stderr and "ZeroDivisionError" in proc.stderr
    assert "ran " not in proc.stderr
