"""The house rules of the package layout (DEVELOPERS' guide, issue 10), checked on the source.

- no module imports from a layer above its own (lazy imports inside functions included);
- no private name (leading underscore) is imported from another module;
- ``repro/methods/core`` imports no sibling folder, and a paper family imports only ``core``,
  ``plain`` and the families it builds on (:data:`FAMILY_IMPORTS`);
- ``repro/report/papers/<paper>/`` holds one paper's report code (figures, tables, claim rules):
  a paper folder imports no other paper's folder, and the generic report modules (everything
  else of ``repro/report``: the claims engine, ``figure_common``, the dashboard, ...) import no
  paper folder (the configs name a paper's functions by string);
- no file is over 700 lines, except the numba kernel modules (:data:`KERNEL_MODULES`).
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "repro"

#: layer of each part of the package, lowest first: a module may import its own layer or below
LAYERS = {
    "repro.runtime.compilation": 0,  # numba's cache settings, below every module with a kernel
    "repro.runtime.cores": 0,  # n_jobs on the cores this process may use; threads on a busy machine
    "repro.runtime.shared_tasks": 0,  # tasks shared by this process and a spawned helper
    "repro.runtime.memory_limit": 0,  # a run under `ulimit -v` in a child: an abort is one line
    "repro.runtime.temporary_files": 0,  # the temporary file beside an output, and its target
    "repro.cli.console": 0,  # what the command lines print besides results (warnings, one line)
    "repro.datasets": 0,
    "repro.preprocessing": 0,
    "repro.stats": 0,
    "repro.config": 1,
    "repro.registry": 2,
    "repro.cli.arguments": 2,  # the checks and lists of the command lines (reads the registry)
    "repro.cli.parameters": 2,  # a method's parameters as the command line lists them
    "repro.methods": 3,
    "repro.evaluation": 4,
    "repro.experiments": 5,
    "repro.report": 5,
    "repro.__main__": 6,
    "repro.cli.sweep_status": 6,  # how the jobs of the command line's sweeps report (its callback)
    "repro.cli.sweep_configs": 6,  # the configurations of a sweep's jobs, composed by parts
    "repro.cli.finished_cells": 6,  # a job's cell, and the finished cells of a sweep read first
    "repro": 7,  # the package's API facade (repro/__init__.py)
}


def layer(module: str) -> int:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in LAYERS:
            return LAYERS[key]
    raise KeyError(module)


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def is_module(dotted: str) -> bool:
    rel = Path(*dotted.split("."))
    root = PACKAGE.parent
    return (root / rel).with_suffix(".py").exists() or (root / rel / "__init__.py").exists()


def imports(path: Path):
    """(imported module, imported names) of every import statement, lazy ones included;
    ``from repro import config`` imports the module ``repro.config``."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = []
            for alias in node.names:
                if is_module(f"{node.module}.{alias.name}"):
                    yield f"{node.module}.{alias.name}", []
                else:
                    names.append(alias.name)
            if names:
                yield node.module, names
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "conf" not in p.parts)


def test_layers_cover_the_package():
    assert SOURCES
    for path in SOURCES:
        layer(module_name(path))  # every module belongs to a layer


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_no_import_runs_back_up_and_no_private_name_crosses(path):
    me = module_name(path)
    for module, names in imports(path):
        if module != "repro" and not module.startswith("repro."):
            continue
        assert layer(module) <= layer(me), f"{me} (layer {layer(me)}) imports {module}"
        if module != me:
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{me} imports private name(s) {private} from {module}"


#: the folders of ``repro/methods/`` a folder may import (besides itself)
FAMILY_IMPORTS = {
    "core": set(),
    "plain": {"core"},
    "boulle2007": {"core", "plain"},
    "wu2015": {"core", "plain"},
    "vidaurre2012": {"core", "plain"},
    "khiops": {"core", "plain"},
    "hue2024": {"core", "plain", "boulle2007", "khiops"},  # CMA weights, MS(FFWBW), Khiops' MODL
    "baselines": {"core", "plain"},  # AODE, TAN, HNB, WANBIA, MANB on the MODL variable models
}

#: compiled kernels: long by nature (one function per loop of Khiops' optimisers)
KERNEL_MODULES = {
    "repro/preprocessing/modl/kernels.py",
    "repro/preprocessing/modl/grouping_kernels.py",
}


def family(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["repro", "methods"] else None


def test_methods_folders_are_the_families():
    folders = {p.name for p in (PACKAGE / "methods").iterdir() if (p / "__init__.py").exists()}
    assert folders == set(FAMILY_IMPORTS)
    loose = [p.name for p in (PACKAGE / "methods").glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"every method module belongs to a folder: {loose}"


@pytest.mark.parametrize(
    "path",
    sorted((PACKAGE / "methods").rglob("*.py")),
    ids=lambda p: str(p.relative_to(PACKAGE.parent)),
)
def test_a_family_imports_only_core_plain_and_what_it_builds_on(path):
    me = family(module_name(path))
    if me is None:
        return
    for module, _ in imports(path):
        other = family(module)
        if other is not None and other != me:
            assert other in FAMILY_IMPORTS[me], f"{module_name(path)} imports {module}"


REPORT_PAPERS = PACKAGE / "report" / "papers"


def report_paper(module: str) -> str | None:
    """The paper folder of ``repro.report.papers.<paper>...`` (None for any other module)."""
    parts = module.split(".")
    return parts[3] if len(parts) > 3 and parts[:3] == ["repro", "report", "papers"] else None


def test_report_papers_folders_are_packages_with_no_loose_module():
    folders = [p for p in REPORT_PAPERS.iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert folders
    assert all((p / "__init__.py").exists() for p in folders), folders
    loose = [p.name for p in REPORT_PAPERS.glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"every paper's report module belongs to its folder: {loose}"


REPORT_SOURCES = sorted((PACKAGE / "report").rglob("*.py"))


@pytest.mark.parametrize("path", REPORT_SOURCES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_a_report_paper_imports_no_other_paper_and_generic_report_code_no_paper(path):
    me = report_paper(module_name(path))
    for module, _ in imports(path):
        other = report_paper(module)
        if me is None:
            assert other is None and module != "repro.report.papers", (
                f"{module_name(path)} (generic report code) imports {module}"
            )
        elif other is not None:
            assert other == me, f"{module_name(path)} imports another paper's {module}"


def test_files_are_small():
    sizes = {
        str(p.relative_to(PACKAGE.parent)): len(p.read_text().splitlines())
        for p in SOURCES
        if str(p.relative_to(PACKAGE.parent)) not in KERNEL_MODULES
    }
    large = {k: v for k, v in sizes.items() if v > 700}
    assert not large, large


#: the modules at the top of ``repro/``: the API facade, the command line's entry point, the
#: configuration and the registry; every other module lives in the folder of its job
TOP_LEVEL = {"__init__.py", "__main__.py", "config.py", "registry.py"}


def test_the_top_of_the_package_holds_only_the_facade_and_the_entry_points():
    assert {p.name for p in PACKAGE.glob("*.py")} == TOP_LEVEL


def test_every_figure_goes_through_the_one_undated_writer():
    """No ``savefig`` call outside :mod:`repro.report.figure_files` (a PDF written elsewhere
    carries its creation date, and a regenerated report leaves ``git status`` dirty)."""
    writer = PACKAGE / "report" / "figure_files.py"
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == writer:
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Attribute) and node.attr in ("savefig", "print_figure"):
                calls.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert calls == []
    assert "savefig" in writer.read_text()
