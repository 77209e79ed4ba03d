"""Packed results (``repro.evaluation.packs``): a packed folder reads exactly as its loose files
did (every file, the folder and its subfolders: the frames equal), packing twice changes
nothing, a loose file written after the pack wins, a pack killed at any step loses nothing, and
the runner reads a packed finished cell instead of computing it again."""

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pandas as pd
import pytest

from repro.datasets.dataset import Dataset
from repro.evaluation import runner
from repro.evaluation.packs import PACK_NAME, loose_files, main, pack_folder
from repro.evaluation.records import (
    CorruptFileWarning,
    is_current,
    read_checked,
    read_records,
    write_atomic,
)
from repro.evaluation.store import ResultsStore


def _cell_frame(method: str, dataset: str, n: int, chash: str, **extra) -> pd.DataFrame:
    """A record file's frame with its own columns and types (``extra``: one per file)."""
    frame = pd.DataFrame(
        {
            "repetition": np.zeros(n, dtype=np.int64),
            "fold": np.arange(n, dtype=np.int64),
            "split": "test",
            "metric": "accuracy",
            "value": np.linspace(0.5, 1.0, n),
            "method": method,
            "dataset": dataset,
            "config_hash": chash,
        }
    )
    for column, value in extra.items():
        frame[column] = value
    return frame


@pytest.fixture
def folder(tmp_path):
    """An experiment folder of five files of four schemas: an int, a float, a text, an all-None
    and a boolean column, an artefact file in a deeper folder, and an empty file."""
    root = tmp_path / "results" / "study"
    write_atomic(_cell_frame("nb", "iris", 3, "h1", p_alpha=1), root / "iris" / "nb.parquet")
    write_atomic(_cell_frame("snb", "iris", 4, "h2", p_lambda_=0.5), root / "iris" / "snb.parquet")
    write_atomic(
        _cell_frame("nb", "wine", 2, "h3", p_alpha=2, note=None), root / "wine" / "nb.parquet"
    )
    art = _cell_frame("snb", "iris", 5, "h2", artefact="weights", kept=True)
    write_atomic(art, root / "artefacts" / "iris" / "snb.parquet")
    write_atomic(_cell_frame("fnb", "wine", 0, "h4"), root / "wine" / "fnb.parquet")
    return root


def _reads(root):
    files = loose_files(root)
    return (
        {f: pd.read_parquet(f) for f in files},
        read_records(root),
        {s: read_records(s) for s in {f.parent for f in files}},
    )


def _same_reads(root, files, whole, subfolders):
    for path, frame in files.items():
        pd.testing.assert_frame_equal(read_checked(path), frame, check_exact=True)
        pd.testing.assert_frame_equal(read_records(path), frame, check_exact=True)
    pd.testing.assert_frame_equal(read_records(root), whole, check_exact=True)
    pd.testing.assert_frame_equal(read_records(root.parent), whole, check_exact=True)
    for sub, frame in subfolders.items():
        pd.testing.assert_frame_equal(read_records(sub), frame, check_exact=True)


def test_a_packed_folder_reads_exactly_as_its_loose_files(folder):
    files, whole, subfolders = _reads(folder)
    assert len(files) == 5 and len(whole) == 3 + 4 + 2 + 5
    summary = pack_folder(folder)
    assert (summary.packed, summary.removed, summary.entries) == (5, 5, 5)
    assert not loose_files(folder) and sorted(p.name for p in folder.iterdir()) == [PACK_NAME]
    _same_reads(folder, files, whole, subfolders)
    assert read_checked(folder / "wine" / "nb.parquet")["p_alpha"].dtype == np.int64  # not float
    assert read_checked(folder / "iris" / "nb.parquet", require=("p_lambda_",)) is None
    assert is_current(folder / "iris" / "snb.parquet", "h2")
    assert not is_current(folder / "iris" / "snb.parquet", "h1")
    assert not is_current(folder / "iris" / "lr.parquet", "h2")
    assert ResultsStore(folder.parent).exists(folder / "wine" / "fnb.parquet")


def test_packing_twice_changes_nothing(folder):
    pack_folder(folder)
    pack = folder / PACK_NAME
    before = (pack.read_bytes(), pack.stat().st_mtime_ns)
    again = ResultsStore(folder.parent).pack(folder.name)  # the store's own way to pack
    assert (again.packed, again.removed, again.entries) == (0, 0, 5)
    assert (pack.read_bytes(), pack.stat().st_mtime_ns) == before


def test_a_loose_file_newer_than_the_pack_wins_and_is_packed_next(folder):
    pack_folder(folder)
    newer = _cell_frame("nb", "iris", 3, "h9", p_alpha=7)
    write_atomic(newer, folder / "iris" / "nb.parquet")
    pd.testing.assert_frame_equal(read_checked(folder / "iris" / "nb.parquet"), newer)
    whole = read_records(folder)
    assert len(whole) == 14 and set(whole.loc[whole["dataset"] == "iris", "config_hash"]) >= {"h9"}
    assert "h1" not in set(whole["config_hash"])
    assert pack_folder(folder).packed == 1 and not loose_files(folder)
    pd.testing.assert_frame_equal(read_checked(folder / "iris" / "nb.parquet"), newer)
    pd.testing.assert_frame_equal(read_records(folder), whole)


KILLED = textwrap.dedent(
    """
    import os, signal, sys
    from repro.evaluation import packs
    step = sys.argv[2]
    if step == "replace":  # killed before the new pack is moved into place
        def killed(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)
        packs.os.replace = killed
    else:  # killed after the first loose file is removed
        unlink = packs.Path.unlink
        def killed(self, *args, **kwargs):
            unlink(self, *args, **kwargs)
            if self.suffix == ".parquet":
                os.kill(os.getpid(), signal.SIGKILL)
        packs.Path.unlink = killed
    packs.pack_folder(sys.argv[1])
    """
)


@pytest.mark.parametrize("step", ["replace", "unlink"])
def test_a_pack_killed_in_the_middle_loses_nothing(folder, step):
    files, whole, subfolders = _reads(folder)
    proc = subprocess.run([sys.executable, "-c", KILLED, str(folder), step], capture_output=True)
    assert proc.returncode == -9, proc.stderr.decode()
    left = loose_files(folder)
    assert len(left) == (5 if step == "replace" else 4)
    assert (folder / PACK_NAME).exists() == (step == "unlink")
    _same_reads(folder, files, whole, subfolders)
    summary = pack_folder(folder)  # done again: it completes
    assert summary.entries == 5 and not loose_files(folder)
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    _same_reads(folder, files, whole, subfolders)


def test_a_damaged_pack_is_warned_about_not_fatal(folder):
    pack_folder(folder)
    (folder / PACK_NAME).write_bytes(b"not a parquet file")
    with pytest.warns(CorruptFileWarning, match="not a readable pack"):
        assert read_checked(folder / "iris" / "nb.parquet") is None
    with pytest.warns(CorruptFileWarning), pytest.raises(FileNotFoundError):
        read_records(folder)


def test_the_runner_reads_a_packed_finished_cell_without_computing_it(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 20)
    X = pd.DataFrame({"x": rng.normal(size=40) + (y == "b")})
    cell = runner.make_cell("nb_gaussian", Dataset("toy", X, y, {"source": "test"}), "cv5")
    first, computed = runner.cell_records(cell, tmp_path)
    assert computed
    pack_folder(tmp_path / cell.experiment)
    assert not cell.path(tmp_path).exists()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again, computed = runner.cell_records(cell, tmp_path)
    assert not computed and not cell.path(tmp_path).exists()
    pd.testing.assert_frame_equal(again, first)


def test_the_pack_command(folder, capsys):
    assert main([str(folder)]) == 0
    assert f"{folder}: 5 files packed, 5 removed; 5 in {PACK_NAME}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([str(folder / "nowhere")])
    assert "is not a folder" in capsys.readouterr().err


def test_a_cell_file_of_the_wrong_kind_is_refused_when_written(tmp_path):
    cell = runner.make_cell("nb_gaussian", "iris", "cv5")
    frame = runner.run_cell(cell)
    store = ResultsStore(tmp_path)
    with pytest.raises(ValueError, match="record column 'fold' must hold integer"):
        store.save_cell(cell, frame.assign(fold=frame["fold"].astype(str)))
    with pytest.raises(ValueError, match=r"without the column\(s\) \['config_hash'\]"):
        store.save_cell(cell, frame.drop(columns="config_hash"))
    assert not os.path.exists(store.cell_file(cell))


@pytest.mark.parametrize("seed", range(6))
def test_a_pack_of_mixed_schemas_reads_as_pandas_concat_of_its_files(tmp_path, seed):
    """Random record files, each with its own extra columns (integers with and without a
    missing value, numbers, text, booleans, all-None, a file with no rows), in folders sorted
    differently as text and as paths (``a`` / ``a-b``): packed, the folder, each subfolder and
    each file read exactly as ``pd.concat`` of the files in sorted order (the oracle); so too
    once a loose file newer than its entry is mixed in."""
    rng = np.random.default_rng(seed)
    root = tmp_path / "study"
    kinds = {
        "p_int": lambda n: np.arange(n, dtype=np.int64),
        "p_float": lambda n: rng.normal(size=n),
        "p_text": lambda n: [f"t{i}" for i in range(n)],
        "p_bool": lambda n: rng.random(n) < 0.5,
        "p_none": lambda n: [None] * n,
        "p_gap": lambda n: [None if i % 2 else float(i) for i in range(n)],
    }
    for folder in ("a", "a-b", "b"):
        for method in ("nb", "snb", "wnb"):
            n = int(rng.integers(1, 4))
            extra = {k: f(n) for k, f in kinds.items() if rng.random() < 0.5}
            frame = _cell_frame(method, folder, n, f"h{seed}", **extra)
            write_atomic(frame, root / folder / f"{method}.parquet")
        p_int = {"p_int": np.zeros(0, dtype=np.int64)} if rng.random() < 0.5 else {}
        empty = _cell_frame("lr", folder, 0, f"h{seed}", **p_int)
        write_atomic(empty, root / folder / "lr.parquet")
    files = loose_files(root)
    oracle = {f: pd.read_parquet(f) for f in files}
    whole = pd.concat([oracle[f] for f in files], ignore_index=True)
    subs = {
        s: pd.concat([oracle[f] for f in files if f.parent == s], ignore_index=True)
        for s in {f.parent for f in files}
    }
    pack_folder(root)
    _same_reads(root, oracle, whole, subs)
    # a cell recomputed after the pack: the folder mixes a loose file with packed entries of
    # schemas that no longer lie one after the other (read by the general path)
    newer = root / "a-b" / "snb.parquet"
    write_atomic(_cell_frame("snb", "a-b", 2, "new", p_float=[0.25, 0.5]), newer)
    oracle[newer] = pd.read_parquet(newer)
    whole = pd.concat([oracle[f] for f in files], ignore_index=True)
    subs[newer.parent] = pd.concat(
        [oracle[f] for f in files if f.parent == newer.parent], ignore_index=True
    )
    _same_reads(root, oracle, whole, subs)
