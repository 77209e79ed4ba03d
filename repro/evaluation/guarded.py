"""Writes under a results or output folder that never go through a link and never leave half a
file: results folders are shared between machines and people, and a link planted in one must
not make a run or a report write or delete outside it.

- :func:`refuse_links`: a ``ValueError`` naming the first symbolic link among the folders
  between ``root`` and ``path`` (without ``root``: the file's own folder), or the file itself
  when it is a link that a write would follow;
- :func:`write_text`, :func:`write_bytes`: :func:`refuse_links`, then a temporary file in the same
  folder renamed over the old one (``os.replace``): a kill or a full disk leaves the previous
  file whole, and a link at ``path`` is replaced, its target untouched;
- :func:`replace_with`: the same rename for a file another library writes (a figure);
- :func:`one_set`: the writes and removals (:func:`remove`) of a ``with`` block take effect
  together at its end, so that a report of several files switches from the old set to the new
  one at once: a kill or an error before the end leaves every previous file as it was;
  :func:`held_back` and :func:`adopt` let a second process do part of the set's writes.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from repro.runtime.temporary_files import temporary_beside

#: the writes and removals held back by the innermost :func:`one_set` (None: none open)
_PENDING: ContextVar[list | None] = ContextVar("pending_writes", default=None)


def refuse_links(path, root=None) -> Path:
    """``path`` when no folder between ``root`` and it is a symbolic link (ValueError naming the
    link otherwise); without ``root``, only the file's own folder is checked. ``root`` itself
    may be a link (the user chose it)."""
    path = Path(path)
    if root is None:
        folders = [path.parent]
    else:
        root = Path(root)
        try:
            parts = path.relative_to(root).parts[:-1]
        except ValueError:
            raise ValueError(f"{path} is not under {root}: refusing to write there") from None
        folders = [root.joinpath(*parts[: i + 1]) for i in range(len(parts))]
    for folder in folders:
        if folder.is_symlink():
            raise ValueError(
                f"{folder} is a symbolic link (to {os.readlink(folder)}): refusing to write "
                "through it; remove the link or give a results/output folder without it"
            )
    return path


@contextmanager
def replace_with(path, root=None, *, links: bool = False):
    """Yield a temporary path beside ``path``; on success rename it over ``path``, on error
    remove it (the previous file stays whole). ``links``: allow the folders to be links (a
    folder the caller named itself, not one found in a results folder); a link at ``path`` is
    always replaced, never followed."""
    path = Path(path) if links else refuse_links(path, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_beside(path)
    pending = _PENDING.get()
    held = False
    try:
        yield tmp
        if pending is None:
            os.replace(tmp, path)
        else:  # renamed with the rest of its set (one_set)
            pending.append(("write", tmp, path))
            held = True
    finally:
        if not held and os.path.lexists(tmp):
            os.remove(tmp)


def remove(path) -> None:
    """Delete ``path`` (a file; nothing when it is gone), at the end of the open :func:`one_set`
    if there is one."""
    pending = _PENDING.get()
    if pending is None:
        Path(path).unlink(missing_ok=True)
    else:
        pending.append(("remove", None, Path(path)))


@contextmanager
def one_set():
    """The writes of the block (:func:`write_text`, :func:`write_bytes`, :func:`replace_with`)
    go to their temporary files as they come, and :func:`remove` is noted; only when the block
    ends without an error are the temporaries renamed into place, one after another, and the
    removals done. An error before leaves every previous file untouched and the temporaries
    removed (a kill leaves the previous files too, and hidden ``.*.tmp`` files). Nested blocks
    belong to the outermost one."""
    if _PENDING.get() is not None:
        yield
        return
    with held_back() as pending:
        yield
    _take_effect(pending)


@contextmanager
def held_back():
    """The writes and removals of the block held back, none taking effect: yields their list,
    for :func:`adopt` to hand to the :func:`one_set` they belong to (another process's, whose
    share of the work this block did). An error removes the block's temporaries."""
    pending: list = []
    token = _PENDING.set(pending)
    try:
        yield pending
    except BaseException:
        for kind, tmp, _ in pending:
            if kind == "write" and os.path.lexists(tmp):
                os.remove(tmp)
        raise
    finally:
        _PENDING.reset(token)


def adopt(pending: list) -> None:
    """Writes and removals held back elsewhere (:func:`held_back`): into the open
    :func:`one_set`, or taking effect now when none is open."""
    current = _PENDING.get()
    if current is None:
        _take_effect(pending)
    else:
        current.extend(pending)


def _take_effect(pending: list) -> None:
    for kind, tmp, path in pending:
        if kind == "write":
            os.replace(tmp, path)
    for kind, _, path in pending:
        if kind == "remove":
            path.unlink(missing_ok=True)


def write_bytes(path, data: bytes, root=None) -> Path:
    """``data`` into ``path``, whole or not at all (module docstring)."""
    with replace_with(path, root) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_text(path, text: str, root=None) -> Path:
    """``text`` (UTF-8) into ``path``, whole or not at all (module docstring)."""
    return write_bytes(path, text.encode("utf-8"), root)
