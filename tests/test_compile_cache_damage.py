"""A damaged numba cache entry (truncated by a full disk or a kill) is set aside with one
warning and compiled again, instead of failing every run (repro.runtime.compilation)."""

import pickle

import numba
import pytest
from numba.core import caching

from repro.runtime.compilation import use_user_cache


def test_the_hook_finds_its_target_in_numba():
    use_user_cache()
    assert getattr(caching.IndexDataCacheFile.load, "_repro_recovers", False)


def test_a_truncated_index_is_set_aside_and_read_as_a_miss(tmp_path):
    use_user_cache()
    cache_file = caching.IndexDataCacheFile(str(tmp_path), "kernel-1", source_stamp=(1.0, 2))
    index = tmp_path / "kernel-1.nbi"
    whole = pickle.dumps(numba.__version__) + pickle.dumps(((1.0, 2), {"key": "kernel-1.0.nbc"}))
    index.write_bytes(whole[:-7])  # cut while numba wrote it
    (tmp_path / "kernel-1.0.nbc").write_bytes(b"\x80\x04partial")
    (tmp_path / "other-2.nbi").write_bytes(b"left alone")
    with pytest.warns(RuntimeWarning, match="numba's cache of a kernel was damaged"):
        assert cache_file.load("key") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "kernel-1.0.nbc.damaged", "kernel-1.nbi.damaged", "other-2.nbi",
    ]  # fmt: skip
    assert cache_file.load("key") is None  # now simply missing: compiled again, no warning
