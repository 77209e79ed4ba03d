"""What a record says of the code and libraries that computed it, besides the package version
and the git revision (:func:`repro.evaluation.records.git_revision`).

- :func:`library_versions`: the versions of the libraries that decide the numbers (numpy,
  scipy, scikit-learn, numba, pandas), as JSON text, the record column ``libraries``.
- :func:`tree_state`: ``"false"`` when the package's code and configuration in this checkout
  (``repro/``, ``conf/``, ``pyproject.toml``) are those of its git index, ``"true"`` when a file
  differs from it, is missing or is new (a ``.py`` or ``.yaml`` file the index does not list),
  ``"unknown"`` outside a git checkout (an installed wheel) or for an index this reader does not
  know (version 4); the record column ``git_dirty``. Read from git's index file as git reads it
  (size and modification time first, the content's blob hash where they differ): no ``git``
  program runs. Changes staged but not committed are not seen (that needs git's object store).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import struct
from pathlib import Path

#: the distributions whose versions a record carries
LIBRARIES = ("numpy", "scipy", "scikit-learn", "numba", "pandas")
#: the parts of a checkout whose state :func:`tree_state` reports (folders end in "/")
WATCHED = ("repro/", "conf/", "pyproject.toml")
#: the files a new, untracked one of which makes the tree dirty
WATCHED_SUFFIXES = (".py", ".yaml")


@functools.cache
def library_versions() -> str:
    """``{"numba": "0.61.2", ...}`` as JSON text (sorted keys; "absent" for one not
    installed)."""
    found = {}
    for name in LIBRARIES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "absent"
    return json.dumps(found, sort_keys=True)


def _watched(path: str) -> bool:
    return any(path.startswith(w) if w.endswith("/") else path == w for w in WATCHED)


def index_entries(index: bytes) -> list[tuple[str, int, int, int, bytes, int]] | None:
    """``(path, mtime s, mtime ns, size, blob sha1, flags)`` of each entry of a git index file
    (versions 2 and 3); None for another version or a file that is not an index."""
    if len(index) < 12 or index[:4] != b"DIRC":
        return None
    version, count = struct.unpack(">II", index[4:12])
    if version not in (2, 3):
        return None
    out, pos = [], 12
    for _ in range(count):
        if pos + 62 > len(index):
            return None
        _, _, mtime_s, mtime_ns = struct.unpack(">IIII", index[pos : pos + 16])
        size = struct.unpack(">I", index[pos + 36 : pos + 40])[0]
        sha = index[pos + 40 : pos + 60]
        flags = struct.unpack(">H", index[pos + 60 : pos + 62])[0]
        head = 62
        extended = 0
        if version == 3 and flags & 0x4000:
            extended = struct.unpack(">H", index[pos + 62 : pos + 64])[0]
            head = 64
        end = index.index(b"\0", pos + head)
        path = index[pos + head : end].decode("utf-8", "surrogateescape")
        out.append((path, mtime_s, mtime_ns, size, sha, flags | (extended << 16)))
        pos += (head + len(path.encode("utf-8", "surrogateescape")) + 8) & ~7
    return out


def _blob_sha1(path: Path) -> bytes:
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).digest()


def _changed(root: Path, entry) -> bool:
    path, mtime_s, mtime_ns, size, sha, flags = entry
    if (flags >> 12) & 0x3:  # a merge stage: a conflict
        return True
    if flags & (0x8000 | (0x4000 << 16)):  # assume-unchanged, skip-worktree: git skips it too
        return False
    file = root / path
    try:
        st = file.lstat()
    except OSError:
        return True  # deleted
    if st.st_size == size and int(st.st_mtime) == mtime_s and st.st_mtime_ns % 10**9 == mtime_ns:
        return False  # git's own quick check
    if size and st.st_size != size:  # 0: a "racily clean" entry git smudged, content decides
        return True
    return _blob_sha1(file) != sha


def checkout_state(root: Path) -> str:
    """:func:`tree_state` of the checkout at ``root`` (its ``.git`` a folder)."""
    index_file = root / ".git" / "index"
    try:
        entries = index_entries(index_file.read_bytes())
    except OSError:
        return "unknown"
    if entries is None:
        return "unknown"
    watched = [e for e in entries if _watched(e[0])]
    if any(_changed(root, e) for e in watched):
        return "true"
    listed = {e[0] for e in entries}
    for top in (w for w in WATCHED if w.endswith("/")):
        for folder, dirs, files in os.walk(root / top):
            dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
            for name in files:
                if name.endswith(WATCHED_SUFFIXES):
                    rel = (Path(folder) / name).relative_to(root).as_posix()
                    if rel not in listed:
                        return "true"
    return "false"


@functools.cache
def tree_state() -> str:
    """Whether this package's checkout differs from its git index ("true", "false",
    "unknown"; see the module docstring). Found once per process."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").is_dir() or not (root / "repro").is_dir():
        return "unknown"  # an installed wheel, a copy, a worktree's ".git" file
    try:
        return checkout_state(root)
    except (OSError, ValueError, UnicodeDecodeError, struct.error):
        return "unknown"


__all__ = [
    "LIBRARIES",
    "WATCHED",
    "checkout_state",
    "index_entries",
    "library_versions",
    "tree_state",
]
