"""What a record says of its code and libraries (repro.evaluation.working_tree): the dirty flag
read from git's index file against ``git status`` itself as the oracle, on a checkout made
here, through each kind of change; the library versions; both in every record."""

import importlib.metadata
import json
import shutil
import subprocess

import pytest

from repro.evaluation.records import record_frame
from repro.evaluation.working_tree import LIBRARIES, checkout_state, library_versions

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is the oracle")


def _git(root, *args):
    return subprocess.run(
        ["git", "-C", str(root), "-c", "core.fsmonitor=false", *args],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip


def _oracle(root) -> str:
    """git's own answer: tracked changes or untracked .py/.yaml files in the watched parts."""
    status = _git(root, "status", "--porcelain", "--", "repro", "conf", "pyproject.toml")
    lines = [
        ln for ln in status.splitlines() if not ln.startswith("??") or ln.endswith((".py", ".yaml"))
    ]
    return "true" if lines else "false"


@pytest.fixture
def checkout(tmp_path):
    root = tmp_path / "checkout"
    (root / "repro" / "sub").mkdir(parents=True)
    (root / "conf").mkdir()
    (root / "results").mkdir()
    (root / "repro" / "a.py").write_text("A = 1\n")
    (root / "repro" / "sub" / "b.py").write_text("B = 2\n")
    (root / "conf" / "x.yaml").write_text("x: 1\n")
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "results" / "r.txt").write_text("kept\n")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "c")
    return root


def _both(root) -> str:
    mine = checkout_state(root)
    assert mine == _oracle(root)
    return mine


def test_the_dirty_flag_agrees_with_git_through_each_change(checkout):
    root = checkout
    assert _both(root) == "false"
    a = root / "repro" / "a.py"
    a.write_text("A = 1\n")  # same content, a new modification time: clean
    assert _both(root) == "false"
    a.write_text("A = 3\n")  # same size, new content
    assert _both(root) == "true"
    a.write_text("A = 1\n")
    assert _both(root) == "false"
    (root / "results" / "r.txt").write_text("an experiment's new records\n")  # not watched
    assert _both(root) == "false"
    (root / "pyproject.toml").write_text("[project]\nname = 'q'\nversion = '2'\n")
    assert _both(root) == "true"
    _git(root, "checkout", "--", "pyproject.toml")
    assert _both(root) == "false"
    (root / "repro" / "sub" / "new.py").write_text("")  # untracked module
    assert _both(root) == "true"
    (root / "repro" / "sub" / "new.py").unlink()
    (root / "repro" / "notes.txt").write_text("")  # untracked, not code
    assert _both(root) == "false"
    (root / "conf" / "x.yaml").unlink()  # deleted
    assert _both(root) == "true"


def test_an_index_of_version_4_or_no_checkout_is_unknown(checkout, tmp_path):
    _git(checkout, "update-index", "--index-version", "4")
    assert checkout_state(checkout) == "unknown"
    assert checkout_state(tmp_path / "nowhere") == "unknown"


def test_every_record_carries_the_library_versions_and_the_flag():
    versions = json.loads(library_versions())
    assert list(versions) == sorted(LIBRARIES)
    assert versions["numpy"] == importlib.metadata.version("numpy")
    assert versions["scikit-learn"] == importlib.metadata.version("scikit-learn")
    frame = record_frame(
        [("test", "accuracy", 0.5)], experiment="e", method="m", params={}, dataset="d",
        dataset_key="d", seed=0, protocol="cv10", chash="h", n_features=1, n_classes=2,
        n_train=1, n_test=1,
    )  # fmt: skip
    assert frame["libraries"].iloc[0] == library_versions()
    assert frame["git_dirty"].iloc[0] in ("true", "false", "unknown")
