"""Release metadata and the light core install.

- LICENSE, CITATION.cff (checked against the required keys and types of the Citation File Format
  1.2.0, as a JSON schema), the version from one place (pyproject.toml, read back through the
  installed metadata), ``py.typed`` and the licence in the wheel;
- ``repro.__all__`` and the ``TYPE_CHECKING`` imports name the lazily loaded public API exactly;
- the cluster packages are an extra: without them, ``backend=dask`` and the launchers of the
  ``cluster`` extra stop with a message naming ``pip install "repro[cluster]"`` (their absence is
  simulated with ``sys.modules[name] = None``);
- the git revision of the records is read from the repository's files, without running git.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import jsonschema
import pytest
import yaml

import repro
from repro import __main__ as cli
from repro.evaluation import extras, records, runner

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
CLUSTER = ("hydra-joblib-launcher", "hydra-submitit-launcher", "distributed")
HINT = 'pip install "repro[cluster]"'


def requirement_name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower()


# ------------------------------------------------------------------------------------ metadata
def test_license_is_the_bsd_3_clause_of_pyproject():
    text = (ROOT / "LICENSE").read_text()
    assert PROJECT["license"] == "BSD-3-Clause"
    assert text.startswith("BSD 3-Clause License\n")
    assert "Copyright (c) 2026, the repro developers" in text
    assert text.count("\n1. Redistributions") == 1 and "\n3. Neither the name" in text


#: the Citation File Format 1.2.0's top-level keys (its schema allows no others) and, as a JSON
#: schema, the required keys and the types of the keys this file uses
CFF_KEYS = {
    "abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi",
    "identifiers", "keywords", "license", "license-url", "message", "preferred-citation",
    "references", "repository", "repository-artifact", "repository-code", "title", "type", "url",
    "version",
}  # fmt: skip
NON_EMPTY = {"type": "string", "minLength": 1}
CFF_SCHEMA = {
    "type": "object",
    "required": ["cff-version", "message", "title", "authors"],
    "propertyNames": {"enum": sorted(CFF_KEYS)},
    "properties": {
        "cff-version": {"const": "1.2.0"},
        "message": NON_EMPTY,
        "title": NON_EMPTY,
        "type": {"enum": ["software", "dataset"]},
        "version": NON_EMPTY,
        "abstract": NON_EMPTY,
        "license": NON_EMPTY,
        "date-released": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
        "keywords": {"type": "array", "minItems": 1, "items": NON_EMPTY},
        "repository-code": {"type": "string", "pattern": "^(https|http|git|ssh)://"},
        "authors": {
            "type": "array",
            "minItems": 1,
            "items": {  # a person (family-names, given-names) or an entity (name)
                "type": "object",
                "anyOf": [{"required": ["name"]}, {"required": ["family-names"]}],
                "properties": {
                    "name": NON_EMPTY,
                    "family-names": NON_EMPTY,
                    "given-names": NON_EMPTY,
                },  # fmt: skip
            },
        },
    },
}


def read_citation() -> dict:
    # as CFF tools read it: YAML 1.2 would read 1.2.0 and an ISO date as strings
    return yaml.load((ROOT / "CITATION.cff").read_text(), Loader=yaml.BaseLoader)


def test_citation_cff_has_the_required_keys_and_types_of_cff_1_2_0():
    citation = read_citation()
    jsonschema.validate(citation, CFF_SCHEMA)
    assert citation["version"] == PROJECT["version"]
    assert citation["license"] == PROJECT["license"]
    assert citation["authors"] == [{"name": "The repro developers"}]
    assert "SPEC" not in (ROOT / "CITATION.cff").read_text()  # users have no spec


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.pop("authors"), "'authors' is a required property"),
        (lambda c: c.update(authors=[{"affiliation": "x"}]), "is not valid under any"),
        (lambda c: c.update({"date-released": "28.11.2026"}), "does not match"),
        (lambda c: c.update({"cff-version": "1.1.0"}), "'1.2.0' was expected"),
        (lambda c: c.update(licence="BSD-3-Clause"), "'licence' is not one of"),
    ],
)
def test_the_citation_schema_refuses_what_cff_1_2_0_refuses(change, message):
    broken = copy.deepcopy(read_citation())
    change(broken)
    with pytest.raises(jsonschema.ValidationError, match=message):
        jsonschema.validate(broken, CFF_SCHEMA)


def test_changelog_follows_keep_a_changelog():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    assert "https://keepachangelog.com/en/1.1.0/" in text
    releases = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert releases and releases[0] == "Unreleased"
    sections = re.findall(r"^### (\w+)", text, flags=re.M)
    assert set(sections) <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert {"Added", "Changed", "Fixed"} <= set(sections)
    assert PROJECT["version"] in text
    assert "SPEC" not in text


def test_version_has_one_source():
    """pyproject.toml's version, read by ``repro.__version__`` from the installed metadata; no
    other copy in the package."""
    assert "version" not in PROJECT.get("dynamic", [])
    assert repro.__version__ == importlib.metadata.version("repro") == PROJECT["version"]
    assert records.package_version() == PROJECT["version"]
    literal = re.compile(rf"""["']{re.escape(PROJECT["version"])}["']|__version__\s*=""")
    copies = [str(p.relative_to(ROOT)) for p in (ROOT / "repro").rglob("*.py")
              if literal.search(p.read_text())]  # fmt: skip
    assert copies == []


def test_the_package_runs_no_git_for_its_revision():
    sources = {p: p.read_text() for p in (ROOT / "repro").rglob("*.py")}
    assert not [p for p, text in sources.items() if "rev-parse" in text]
    assert "subprocess" not in sources[ROOT / "repro" / "evaluation" / "records.py"]


def test_py_typed_is_package_data():
    assert (ROOT / "repro" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["repro"]


def test_wheel_carries_the_licence_py_typed_and_the_cluster_extra(tmp_path):
    """A wheel of pyproject.toml built offline (the package reduced to its ``__init__.py``): the
    licence file and ``py.typed`` inside, the metadata's licence expression and extras."""
    src = tmp_path / "src"
    (src / "repro").mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE", "repro/__init__.py", "repro/py.typed"):
        shutil.copy2(ROOT / name, src / name)
    build = subprocess.run(
        [sys.executable, "-c", "from setuptools import build_meta as b; "
         f"print(b.build_wheel({str(tmp_path / 'wheels')!r}))"],
        cwd=src, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    wheel = zipfile.ZipFile(tmp_path / "wheels" / build.stdout.strip().splitlines()[-1])
    info = f"repro-{PROJECT['version']}.dist-info"
    assert {"repro/py.typed", f"{info}/licenses/LICENSE"} <= set(wheel.namelist())
    metadata = wheel.read(f"{info}/METADATA").decode()
    assert "License-Expression: BSD-3-Clause" in metadata
    assert "Classifier: Typing :: Typed" in metadata
    extras = set(re.findall(r"^Provides-Extra: (\S+)$", metadata, flags=re.M))
    assert {"cluster", "dev", "khiops", "bayes", "docs"} <= extras
    requires = re.findall(r"^Requires-Dist: (.+)$", metadata, flags=re.M)
    core = {requirement_name(r) for r in requires if "extra ==" not in r}
    assert not core & set(CLUSTER) and {"baycomp", "jinja2"} <= core
    for name in CLUSTER:
        assert any(r.startswith(name) and 'extra == "cluster"' in r for r in requires), name
    assert any(r.startswith("repro[cluster]") and 'extra == "dev"' in r for r in requires)


# --------------------------------------------------------------------------- light core install
def test_cluster_packages_are_an_extra_that_dev_installs():
    core = {requirement_name(r) for r in PROJECT["dependencies"]}
    extras = PROJECT["optional-dependencies"]
    assert not core & set(CLUSTER)
    assert {requirement_name(r) for r in extras["cluster"]} == set(CLUSTER)
    assert "repro[cluster]" in extras["dev"]  # the README's pip install -e ".[dev,khiops]"
    assert {"khiops", "bayes", "docs", "dev", "cluster"} <= set(extras)
    assert {"baycomp", "jinja2", "hydra-core", "numba"} <= core


@pytest.fixture
def without(monkeypatch):
    """``without(*modules)``: each import of them fails as when the package is not installed."""

    def hide(*modules):
        for module in modules:
            monkeypatch.setitem(sys.modules, module, None)

    return hide


def test_dask_backend_without_the_extra_names_it(without):
    without("distributed")
    with pytest.raises(ImportError, match=re.escape(HINT)) as info:
        runner.check_backend("dask")
    assert "'distributed'" in str(info.value) and "backend='dask'" in str(info.value)
    with pytest.raises(ImportError, match=re.escape(HINT)):
        repro.evaluate("nb_gaussian", "iris", backend="dask")  # before any fold runs
    with pytest.raises(ImportError, match=re.escape(HINT)):
        cli.dask_client("tcp://127.0.0.1:8786")
    assert runner.check_backend("loky") == "loky"  # the core's backends need nothing more
    assert cli.dask_client(None).__class__.__name__ == "nullcontext"


@pytest.mark.parametrize(
    ("args", "hidden", "distribution"),
    [
        (["hydra/launcher=joblib"], "hydra_plugins.hydra_joblib_launcher", "hydra-joblib-launcher"),
        (["hydra/launcher=submitit_local"], "hydra_plugins.hydra_submitit_launcher",
         "hydra-submitit-launcher"),
        (["hydra/launcher=submitit_slurm"], "hydra_plugins.hydra_submitit_launcher",
         "hydra-submitit-launcher"),
        (["hydra/launcher=slurm", "hydra.launcher.partition=cpu"],
         "hydra_plugins.hydra_submitit_launcher", "hydra-submitit-launcher"),
        (["method=nb_gaussian", "backend=loky,dask"], "distributed", "distributed"),
    ],
)  # fmt: skip
def test_cluster_options_without_the_extra_stop_the_command_line(
    args, hidden, distribution, without, monkeypatch, capsys
):
    cli.check_extras(args)  # installed here (the dev extra)
    without(hidden)
    with pytest.raises(cli.CommandLineError, match=re.escape(HINT)) as info:
        cli.check_extras(args)
    assert f"{distribution!r}, which is not installed" in str(info.value)
    monkeypatch.setattr(sys, "argv", ["repro", "-m", *args, "dataset=iris"])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 2  # before Hydra starts anything
    err = capsys.readouterr().err
    assert err.startswith("error: ") and HINT in err


def test_the_core_options_need_no_extra(without):
    without(*extras.CLUSTER_MODULES)
    cli.check_extras(["hydra/launcher=basic", "backend=loky", "backend=threading", "n_jobs=2"])


# ------------------------------------------------------------------------------ the public API
def type_checking_imports() -> dict[str, str]:
    """name -> module of the imports under ``if TYPE_CHECKING:`` in repro/__init__.py."""
    tree = ast.parse((ROOT / "repro" / "__init__.py").read_text())
    blocks = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    (block,) = blocks
    names = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom):
            names.update({alias.name: node.module for alias in node.names})
    return names


def test_all_and_the_type_checking_imports_are_the_lazy_api():
    lazy = set(repro._API) | set(repro._estimator_classes())
    assert len(repro.__all__) == len(set(repro.__all__))
    assert set(repro.__all__) == lazy
    declared = type_checking_imports()
    assert set(declared) == lazy
    for name, module in declared.items():
        assert getattr(importlib.import_module(module), name) is getattr(repro, name), name
    assert set(repro.__all__) <= set(dir(repro)) and "__version__" in dir(repro)


def test_import_repro_stays_cheap():
    code = (
        "import sys, repro; v = repro.__version__; "
        "print(sorted(m for m in ('numpy', 'pandas', 'sklearn', 'hydra', 'numba') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------- git revision from files
def git(*args, cwd) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=30
    ).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git program")
def test_head_commit_is_read_from_the_repository_files(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    for n in (1, 2):
        (repo / "f.txt").write_text(str(n))
        git("add", "f.txt", cwd=repo)
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", str(n), cwd=repo)
    head = git("rev-parse", "HEAD", cwd=repo)
    assert records._head_commit(repo / ".git") == head  # a loose branch ref
    git("pack-refs", "--all", cwd=repo)
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert records._head_commit(repo / ".git") == head  # packed-refs
    git("worktree", "add", "-q", "--detach", str(tmp_path / "wt"), "HEAD~1", cwd=repo)
    assert (tmp_path / "wt" / ".git").is_file()
    assert records._head_commit(tmp_path / "wt" / ".git") == git("rev-parse", "HEAD~1", cwd=repo)
    git("checkout", "-q", "--detach", "HEAD", cwd=repo)
    assert records._head_commit(repo / ".git") == head  # a detached HEAD
    assert records._head_commit(tmp_path / "none" / ".git") is None


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_records_carry_this_checkouts_revision():
    revision = records.git_revision.__wrapped__()  # not the cached one: HEAD may have moved
    assert revision == records._head_commit(ROOT / ".git")[:12]
    if shutil.which("git"):
        assert records._head_commit(ROOT / ".git") == git("rev-parse", "HEAD", cwd=ROOT)
