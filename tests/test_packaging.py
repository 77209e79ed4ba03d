"""A non-editable install works: the wheel ships the configs, the papers' published numbers and the
offline data sets, and runs outside the checkout.

The wheel is built from a copy of the package sources (no stale ``build/`` of the checkout) and
installed into a fresh virtual environment that sees the dependencies but not the checkout. The
dependencies are this interpreter's: ``--system-site-packages`` gives the base interpreter's site
directories only, so a ``.pth`` file adds the running interpreter's (when the test suite itself
runs in a virtual environment, its packages are not the base interpreter's). Directories named in
a ``.pth`` file do not have their own ``.pth`` files read: an editable install of the checkout
there stays invisible.
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import read_stored

from repro.config import Paths, PublishedNumbersNotFound, compose, paths

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "repro", "conf", "datasets", "experiments")
TABLE3 = ROOT / "results" / "boulle2007_table3"


def test_paths_config_and_its_overrides(tmp_path, monkeypatch):
    """conf/paths/default.yaml: nulls are the checkout's copies (editable install); the old
    ``results_dir`` key still works; the paths config wins over $REPRO_DATA_DIR."""
    monkeypatch.delenv("REPRO_DATA_DIR", raising=False)
    default = paths()
    assert default == Paths(Path("results"), ROOT / "datasets", ROOT / "experiments")
    assert default.reported("wu2015") == ROOT / "experiments" / "wu2015" / "reported.csv"
    assert paths(compose([f"paths.results={tmp_path}"])).results == tmp_path
    assert paths(compose([f"results_dir={tmp_path}"])).results == tmp_path
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path))
    assert paths().data == tmp_path
    cfg = compose([f"paths.data={tmp_path / 'd'}", f"paths.published={tmp_path / 'p'}"])
    assert paths(cfg).data == tmp_path / "d"
    with pytest.raises(PublishedNumbersNotFound, match="no file .*/p/boulle2007/reported.csv"):
        paths(cfg).reported("boulle2007")


def site_dirs() -> list[str]:
    """The running interpreter's site directories (where the dependencies are installed)."""
    dirs = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return [d for d in dict.fromkeys(dirs) if Path(d).is_dir()]


def run(args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python of a fresh venv holding the installed wheel, the names in the wheel)."""
    tmp = tmp_path_factory.mktemp("packaging")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=skip)
        else:
            shutil.copy2(ROOT / name, src / name)
    build = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "-w", str(tmp / "wheels"), str(src)])  # fmt: skip
    assert build.returncode == 0, build.stderr
    (wheel,) = (tmp / "wheels").glob("repro-*.whl")

    venv = tmp / "venv"
    made = run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    install = run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
                   "--ignore-installed", str(wheel)])  # fmt: skip
    assert install.returncode == 0, install.stderr
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    (Path(purelib.stdout.strip()) / "outer_site_dirs.pth").write_text("\n".join(site_dirs()))
    return python, set(zipfile.ZipFile(wheel).namelist())


def isolated_env(tmp_path) -> dict:
    """No PYTHONPATH, no REPRO_DATA_DIR: only what the venv holds."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "MPLBACKEND": "Agg"}


def test_wheel_ships_configs_published_numbers_and_data_sets(installed):
    _, names = installed
    conf = [f"repro/conf/{p.relative_to(ROOT / 'conf')}" for p in (ROOT / "conf").rglob("*.yaml")]
    published = [f"repro/published/{p.parent.name}/reported.csv"
                 for p in (ROOT / "experiments").glob("*/reported.csv")]  # fmt: skip
    data = [f"repro/datasets/bundled/{p.name}" for p in (ROOT / "datasets").glob("*.parquet")]
    data += ["repro/datasets/bundled/MANIFEST.csv", "repro/datasets/bundled/OPENML_ONLY.csv"]
    assert len(conf) > 30 and len(published) == 4 and len(data) == 45 + 2
    assert set(conf + published + data) <= names
    # data directories are not packages: no code of experiments/ (e.g. a script) is shipped
    data_dirs = ("repro/published/", "repro/conf/", "repro/datasets/bundled/")
    assert not [n for n in names if n.startswith(data_dirs) and n.endswith(".py")]


def test_locations_are_inside_the_installed_package(installed, tmp_path):
    python, _ = installed
    code = (
        "import pandas, repro; from repro.config import paths; p = paths();"
        "print(pandas.__file__, repro.__file__, p.data, p.published, p.results, sep='\\n')"
    )
    out = run([python, "-c", code], cwd=tmp_path, env=isolated_env(tmp_path))
    assert out.returncode == 0, out.stderr
    dependency, module, data, published, results = out.stdout.splitlines()
    assert dependency == pd.__file__  # the dependencies of the interpreter running the tests
    venv = str(python.parent.parent)
    assert module.startswith(venv)  # the installed copy, not the checkout
    assert data.startswith(venv) and data.endswith("repro/datasets/bundled")
    assert published.startswith(venv) and (Path(published) / "boulle2007" / "README.md").is_file()
    assert results == "results"  # conf/paths/default.yaml: relative to the working directory


def test_report_from_the_wheel_writes_reproduction(installed, tmp_path):
    """``python -m repro.report experiment=boulle2007_table3`` from the wheel writes the committed
    REPRODUCTION.md and table3.md again, byte for byte (published numbers from package data)."""
    python, _ = installed
    outputs = ("*.md", "*.tex", "*.png", "*.pdf", "*.csv")
    copy = tmp_path / "results" / "boulle2007_table3"
    shutil.copytree(TABLE3, copy, ignore=shutil.ignore_patterns(*outputs))
    # its REPRODUCTION.md shows the Khiops-shrink variant beside it (report.variants)
    shrink = TABLE3.parent / "boulle2007_table3_shrink"
    shutil.copytree(shrink, copy.parent / shrink.name, ignore=shutil.ignore_patterns(*outputs))
    proc = run([python, "-m", "repro.report", "experiment=boulle2007_table3"], cwd=tmp_path,
               env=isolated_env(tmp_path))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    for name in ("REPRODUCTION.md", "table3.md", "table3.tex", "compare_auc_bergmann.md"):
        assert (copy / name).read_text() == (TABLE3 / name).read_text(), name


def test_main_job_from_the_wheel_reads_the_bundled_data(installed, tmp_path):
    """``python -m repro method=nb_ef dataset=iris`` without REPRO_DATA_DIR: iris comes from the
    wheel and the cell equals the committed one of boulle2007_table3 (same configuration)."""
    python, _ = installed
    proc = run([python, "-m", "repro", "method=nb_ef", "dataset=iris", "progress=false"],
               cwd=tmp_path, env=isolated_env(tmp_path))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    ours = pd.read_parquet(tmp_path / "results" / "default" / "iris" / "nb_ef.parquet")
    committed = read_stored(TABLE3 / "iris" / "nb_ef.parquet")  # loose or packed
    assert ours["config_hash"].iloc[0] == committed["config_hash"].iloc[0]
    keys = ["repetition", "fold", "split", "metric"]
    both = ours.merge(committed, on=keys, suffixes=("", "_committed"))
    both = both[~both["metric"].str.endswith("_time")]
    assert len(both) == len(committed[~committed["metric"].str.endswith("_time")]) > 0
    assert set(both["n_train"] + both["n_test"]) == {150}
    np.testing.assert_allclose(both["value"], both["value_committed"], rtol=1e-12, atol=1e-12)


def test_your_own_method_and_experiment_from_your_own_folder(installed, tmp_path):
    """Issue 27, the README's recipe from the installed wheel in a folder outside the checkout:
    a class and its config in ``myconf/method/``, a data file in ``myconf/dataset/``, an
    experiment in ``myconf/experiment/``; run, report and dashboard of that folder."""
    python, _ = installed
    conf = tmp_path / "myconf"
    (conf / "method").mkdir(parents=True)
    (conf / "experiment").mkdir()
    (conf / "dataset").mkdir()
    rows = [f"{x},{2 * x + (x % 3)},{'ab'[x % 2]}" for x in range(40)]
    (conf / "dataset" / "mydata.csv").write_text("u,v,class\n" + "\n".join(rows) + "\n")
    (tmp_path / "mynb.py").write_text(
        "from sklearn.naive_bayes import GaussianNB\n\n\nclass MyNB(GaussianNB):\n    pass\n"
    )
    (conf / "method" / "mine.yaml").write_text("_target_: mynb.MyNB\nvar_smoothing: 1.0e-9\n")
    (conf / "experiment" / "my_study.yaml").write_text(
        "# @package _global_\n# My study: my NB against Gaussian NB.\nexperiment_name: my_study\n"
        "hydra:\n  mode: MULTIRUN\n  sweeper:\n    params:\n      method: mine,nb_gaussian\n"
        "      dataset: iris,mydata\n"
    )
    env = isolated_env(tmp_path)

    def repro(*args, module="repro"):
        proc = run([python, "-m", module, *args], cwd=tmp_path, env=env)
        assert proc.returncode == 0, proc.stderr
        return proc

    repro("--config-dir=myconf", "method=mine", "dataset=mydata", "progress=false")
    mine = pd.read_parquet(tmp_path / "results/default/mydata/mine.parquet")
    assert set(mine["n_train"] + mine["n_test"]) == {40}  # the 40 rows of the file
    repro("--config-dir", "myconf", "experiment=my_study", "progress=false")
    repro("--config-dir=myconf", "experiment=my_study", module="repro.report")
    summary = (tmp_path / "results/my_study/summary.md").read_text()
    assert "| mine |" in summary and "2 data sets: iris, mydata." in summary
    records = pd.read_parquet(tmp_path / "results/my_study/mydata/mine.parquet")
    assert set(records["method"]) == {"mine"}
    repro("--config-dir=myconf", "all", module="repro.report")
    page = (tmp_path / "results" / "README.md").read_text()
    assert "**my_study**" in page and "**boulle2007_table3**" not in page
