"""Numba's on-disk cache of the package's kernels: one per user, keyed by source content.

Numba caches a compiled kernel beside its source (``__pycache__``), keyed by the file's path and
modification time: every fresh clone, every checkout that touches a file and every read-only
installation compiles again (about 12 s of CPU for the kernels of SNB(CMA)). Here the kernels of
``repro`` are cached in a per-user directory instead, under the file's path inside the package and
a hash of its content, so that an installed package and every clone of the same code compile once
per machine and per Python/numba version, and an edited file gets its own entry.

The directory is ``$REPRO_CACHE_DIR/numba`` when set, else ``$XDG_CACHE_HOME/repro/numba``, else
``~/.cache/repro/numba``. Numba's own settings win: with ``NUMBA_CACHE_DIR`` or
``NUMBA_CACHE_LOCATOR_CLASSES`` set, or a directory that cannot be written, numba's default
locators are used. Kernels call only kernels of this package, so a content key per file is as
safe as numba's own (numba does not follow callees either).

:func:`use_user_cache` registers the locator; the ``repro.methods`` and ``repro.preprocessing``
packages call it before any of their modules defines a kernel.

:func:`numba_threads` runs parallel kernels on a given number of numba's threads and restores the
caller's count (the MS(FFWBW) passes, the MODL preparation of blocks of variables).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
import tempfile
import warnings
from functools import cache
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # repro/


def user_cache_dir() -> Path:
    """Where the kernels are cached (see the module docstring)."""
    if os.environ.get("REPRO_CACHE_DIR"):
        return Path(os.environ["REPRO_CACHE_DIR"]) / "numba"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "repro" / "numba"


@cache
def _content_hash(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _locator_class():
    from numba.core import caching

    class PackageContentLocator(caching._CacheLocator):
        """Cache files of a ``repro`` kernel in :func:`user_cache_dir`, under the source file's
        path in the package and its content hash (the stamp numba checks is that hash)."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file  # (read by numba's warning about an uncachable kernel)
            self._lineno = py_func.__code__.co_firstlineno
            self._stamp = _content_hash(py_file)
            relative = Path(py_file).resolve().relative_to(PACKAGE_ROOT)
            version = f"py{sys.version_info.major}{sys.version_info.minor}"
            self._cache_path = str(
                user_cache_dir() / version / relative.parent / f"{relative.stem}-{self._stamp}"
            )

        def ensure_cache_path(self):
            os.makedirs(self._cache_path, exist_ok=True)
            tempfile.TemporaryFile(dir=self._cache_path).close()

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return self._stamp

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                Path(py_file).resolve().relative_to(PACKAGE_ROOT)
            except ValueError:
                return None  # not a kernel of this package
            locator = cls(py_func, py_file)
            try:
                locator.ensure_cache_path()
            except OSError:
                return None  # not writable: numba's default locators
            return locator

    return PackageContentLocator


@cache
def use_user_cache() -> bool:
    """Put the per-user, content-keyed locator first in numba's list (once per process); False
    when numba's own settings are in force (NUMBA_CACHE_DIR, NUMBA_CACHE_LOCATOR_CLASSES)."""
    if os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES"):
        return False
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    impl._locator_classes.insert(0, _locator_class())
    _recover_damaged_entries(caching.IndexDataCacheFile)
    return True


#: what a damaged (truncated, half-written) cache file raises when numba unpickles it
DAMAGE = (EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, ImportError)


def _recover_damaged_entries(cache_file_class) -> None:
    """Make numba treat a damaged cache entry as missing: the entry's index and data files are
    set aside (renamed ``*.damaged``) with one warning, and the kernel compiled afresh, instead of
    every run failing with "pickle data was truncated" (a disk that filled, a kill while numba
    wrote). Wraps ``IndexDataCacheFile.load`` (numba's private API; a test checks it is there)."""
    load = cache_file_class.load
    if getattr(load, "_repro_recovers", False):
        return

    def recovering_load(self, key):
        try:
            return load(self, key)
        except DAMAGE as exc:
            set_aside = []
            base = self._index_name.removesuffix(".nbi")  # <base>.nbi and <base>.<n>.nbc
            for path in Path(self._cache_path).glob(f"{base}.*"):
                if path.suffix in (".nbi", ".nbc"):
                    path.replace(path.with_name(path.name + ".damaged"))
                    set_aside.append(path.name)
            warnings.warn(
                f"numba's cache of a kernel was damaged ({type(exc).__name__}: {exc}); set aside "
                f"{', '.join(sorted(set(set_aside))) or 'nothing'} in {self._cache_path}: it is "
                "compiled again",
                RuntimeWarning,
                stacklevel=2,
            )
            return None

    recovering_load._repro_recovers = True
    cache_file_class.load = recovering_load


@contextlib.contextmanager
def numba_threads(n_threads: int):
    """Run the parallel kernels of the block on ``n_threads`` of numba's threads (at most
    NUMBA_NUM_THREADS, at least 1), the caller's thread count restored after."""
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(min(max(1, int(n_threads)), numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(previous)
