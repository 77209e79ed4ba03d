"""A non-editable install works: the Hydra configs ship inside the package (repro/conf)."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_ships_configs_and_runs_outside_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(wheels), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = wheels.glob("repro-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    configs = {
        f"repro/conf/{p.relative_to(ROOT / 'conf')}" for p in (ROOT / "conf").rglob("*.yaml")
    }
    assert configs and configs <= names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, timeout=300
    )
    env = {"REPRO_DATA_DIR": str(ROOT / "datasets"), "PATH": "/usr/bin:/bin"}
    where = subprocess.run(
        [python, "-c", "import repro; print(repro.__file__)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert str(venv) in where  # the installed copy, not the checkout
    run = subprocess.run(
        [python, "-m", "repro", "method=nb_ef", "dataset=iris", "progress=false"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "results" / "default" / "iris" / "nb_ef.parquet").exists()
