"""read_records on a folder of files with different schemas: the frame ``pd.concat`` of the
files' frames gives, in sorted file order (it converts once per schema, not per file)."""

import os
import stat

import numpy as np
import pandas as pd
import pytest

from repro.evaluation.records import read_records, write_atomic


def _write(path, frame):
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(path, index=False)


def _cell(method, n, **extra):
    frame = pd.DataFrame(
        {
            "method": [method] * n,
            "fold": np.arange(n),
            "metric": ["accuracy"] * n,
            "value": np.linspace(0.5, 0.9, n),
        }
    )
    for name, value in extra.items():
        frame[name] = [value] * n
    return frame


@pytest.fixture
def folder(tmp_path):
    """Six files in sorted order a/1 < a/2 < a/3 < b/1 < b/2 < c/1, whose schemas alternate (a/1
    and a/3 share one, a/2 between them has another): a bool parameter present or absent, an
    integer parameter in one file and a float one in another, a string column only in the last."""
    files = {
        "a/1.parquet": _cell("snb", 3, p_refit=True),
        "a/2.parquet": _cell("nb", 2),
        "a/3.parquet": _cell("snb", 1, p_refit=False),
        "b/1.parquet": _cell("snb", 3, p_refit=False, p_k=5),
        "b/2.parquet": _cell("nb", 2, p_k=2.5),
        "c/1.parquet": _cell("lr", 1, p_solver="lbfgs"),
    }
    for name, frame in files.items():
        _write(tmp_path / name, frame)
    (tmp_path / "c" / "x.parts").mkdir()
    _write(tmp_path / "c" / "x.parts" / "r000_f000.parquet", _cell("checkpoint", 4))
    return tmp_path, files


def test_equals_pandas_concat_of_the_files_in_sorted_order(folder):
    path, files = folder
    expected = pd.concat([files[k] for k in sorted(files)], ignore_index=True)
    got = read_records(path)
    pd.testing.assert_frame_equal(got, expected)
    # by hand: rows in file order, a missing column is NaN, int and float become float
    assert got["method"].tolist() == (
        ["snb"] * 3 + ["nb"] * 2 + ["snb"] + ["snb"] * 3 + ["nb"] * 2 + ["lr"]
    )
    assert got["p_k"].tolist()[6:11] == [5.0, 5.0, 5.0, 2.5, 2.5]
    assert got["p_k"].iloc[:6].isna().all() and np.isnan(got["p_k"].iloc[11])
    assert got["p_refit"].tolist()[:3] == [True] * 3 and got["p_refit"].iloc[3:5].isna().all()
    assert not got["p_refit"].iloc[5]  # False (a NaN would be truthy)
    assert got["p_solver"].iloc[:11].isna().all() and got["p_solver"].iloc[11] == "lbfgs"
    assert "checkpoint" not in set(got["method"])


def test_one_schema_is_the_plain_concatenation(tmp_path):
    frames = [_cell("nb", 3), _cell("nb", 2)]
    for i, frame in enumerate(frames):
        _write(tmp_path / f"{i}.parquet", frame)
    pd.testing.assert_frame_equal(read_records(tmp_path), pd.concat(frames, ignore_index=True))


def test_a_written_record_file_has_the_permissions_of_the_umask(tmp_path):
    """write_atomic: the permissions of a file the user creates (0o666 less the umask; 0o640
    under umask 027), not the owner-only 0o600 of a mkstemp file; no temporary file is left."""
    previous = os.umask(0o027)
    try:
        write_atomic(_cell("nb", 2), tmp_path / "d" / "nb.parquet")
    finally:
        os.umask(previous)
    mode = stat.S_IMODE((tmp_path / "d" / "nb.parquet").stat().st_mode)
    assert mode == 0o640
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["nb.parquet"]
    pd.testing.assert_frame_equal(read_records(tmp_path), _cell("nb", 2))
