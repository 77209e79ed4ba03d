"""The per-user, content-keyed numba cache of the package's kernels (repro.runtime.compilation)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from repro.runtime.compilation import PACKAGE_ROOT, user_cache_dir

#: compiles (or loads) one small kernel and reports where numba cached it and whether it hit
PROBE = """
import json, numpy as np
from repro.methods.core.criteria import softmax_nll
softmax_nll(np.zeros((3, 2)), np.zeros((3, 2)), np.array([0, 1, 0]))
stats = softmax_nll.stats
print(json.dumps({"path": stats.cache_path, "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values())}))
"""


def _probe(package_parent: Path, env: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")} | env
    env["PYTHONPATH"] = str(package_parent)
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=package_parent,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_cache_directory_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "mine"))
    assert user_cache_dir() == tmp_path / "mine" / "numba"
    monkeypatch.delenv("REPRO_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache_dir() == tmp_path / "xdg" / "repro" / "numba"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert user_cache_dir() == Path.home() / ".cache" / "repro" / "numba"


def test_a_fresh_copy_of_the_package_loads_the_kernels_compiled_by_another(tmp_path):
    cache = tmp_path / "cache"
    first = _probe(PACKAGE_ROOT.parent, {"REPRO_CACHE_DIR": str(cache)})
    assert Path(first["path"]).is_relative_to(cache / "numba")  # not the checkout's __pycache__
    assert "methods/core/criteria-" in first["path"]
    assert first["misses"] == 1 and first["hits"] == 0
    # a clone elsewhere: other path, other modification times, same content → a cache hit
    clone = tmp_path / "clone"
    shutil.copytree(PACKAGE_ROOT, clone / "repro", ignore=shutil.ignore_patterns("__pycache__"))
    second = _probe(clone, {"REPRO_CACHE_DIR": str(cache)})
    assert second == {"path": first["path"], "hits": 1, "misses": 0}
    # an edited file is another entry (its content hash changes)
    criteria = clone / "repro" / "methods" / "core" / "criteria.py"
    criteria.write_text(criteria.read_text() + "\n# edited\n")
    third = _probe(clone, {"REPRO_CACHE_DIR": str(cache)})
    assert third["path"] != first["path"] and third["misses"] == 1


def test_numbas_own_cache_setting_wins(tmp_path):
    result = _probe(
        PACKAGE_ROOT.parent,
        {"REPRO_CACHE_DIR": str(tmp_path / "unused"), "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
    )
    assert Path(result["path"]).is_relative_to(tmp_path / "numba")
    assert not (tmp_path / "unused").exists()
