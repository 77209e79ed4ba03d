"""A lock per result file, so that concurrent workers split a sweep's work instead of repeating it.

Two processes that reach the same cell (two sweeps, joblib workers, cluster jobs over one shared
results folder) take turns: the first computes and writes the cell, the second waits and then
reads the cell file; no fold is computed twice and neither trips over the other's checkpoints.

The lock of ``<cell>.parquet`` is the file ``<cell>.lock`` beside it, created atomically
(``O_CREAT | O_EXCL``: only one process can create it) and holding ``<pid> <host>``. It is removed
when its holder is done. A lock is *stale* when its holder is a process of this host that no longer
runs (killed, ``kill -9``, a crashed node restarted): the next process that wants it renames it
away (an atomic rename: one process wins) and takes it. A lock of another host cannot be checked
that way; its waiter says which host and process hold it, and a lock left by a dead process of
another host is removed by hand (``rm <cell>.lock``). A lock that cannot be created at all (a
read-only results folder) is not taken: the work goes on unlocked, as before locks existed.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
import uuid
from pathlib import Path

#: seconds between two looks at a held lock
POLL = 0.2
#: an unreadable (empty, half-written) lock older than this is stale, whoever wrote it
UNREADABLE_STALE_AFTER = 60.0

_HOST = socket.gethostname()
_held: dict[str, int] = {}  # lock path → thread id of its holder in this process
_held_guard = threading.Lock()


def lock_path(path) -> Path:
    """The lock file of a result file: ``<name>.lock`` beside ``<name>.parquet``."""
    return Path(path).with_suffix(".lock")


def _owner() -> str:
    return f"{os.getpid()} {_HOST}"


def _read(lock: Path) -> str | None:
    try:
        return lock.read_text()
    except FileNotFoundError:
        return None
    except OSError:
        return ""


def pid_alive(pid: int) -> bool:
    """True when process ``pid`` of this host runs (a zombie counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def is_stale(lock: Path, content: str) -> bool:
    """Whether the lock holding ``content`` was left by a process that no longer runs."""
    fields = content.split()
    if len(fields) != 2 or not fields[0].isdigit():  # being written, or damaged
        try:
            return time.time() - lock.stat().st_mtime > UNREADABLE_STALE_AFTER
        except FileNotFoundError:
            return False
    pid, host = int(fields[0]), fields[1]
    return host == _HOST and not pid_alive(pid)


def _break(lock: Path, content: str) -> None:
    """Remove the stale lock that held ``content`` (unless another process took it meanwhile)."""
    grave = lock.with_name(f"{lock.name}.stale-{uuid.uuid4().hex[:8]}")
    try:
        os.rename(lock, grave)
    except FileNotFoundError:
        return  # another waiter removed it first
    if _read(grave) != content:  # a fresh lock taken in between: give it back
        with contextlib.suppress(FileExistsError, FileNotFoundError):
            os.link(grave, lock)
    grave.unlink(missing_ok=True)


def _create(lock: Path) -> bool | None:
    """Create the lock: True when taken, False when held, None when it cannot be created."""
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    except OSError:
        return None
    with os.fdopen(fd, "w") as f:
        f.write(_owner() + "\n")
    return True


@contextlib.contextmanager
def cell_lock(path, *, timeout: float | None = None, what: str | None = None):
    """Hold the lock of result file ``path`` for the ``with`` block; waits while another
    process holds it (``timeout`` seconds at most: ``TimeoutError``). Re-entrant within a
    thread. Yields True when the lock is held, False when it could not be created."""
    lock = lock_path(path)
    key, me = os.path.abspath(lock), threading.get_ident()
    with _held_guard:
        reentrant = _held.get(key) == me
    if reentrant:
        yield True
        return
    start, told = time.monotonic(), False
    while True:
        taken = _create(lock)
        if taken is not False:
            break
        content = _read(lock)
        if content is None:  # released meanwhile
            continue
        if is_stale(lock, content):
            print(f"removing the stale lock {lock} ({content.strip()!r})", file=sys.stderr)
            _break(lock, content)
            continue
        if not told:
            holder = content.split()
            who = f"process {holder[0]} on {holder[1]}" if len(holder) == 2 else "another process"
            print(f"waiting for {what or path}: {who} computes it", file=sys.stderr)
            told = True
        if timeout is not None and time.monotonic() - start > timeout:
            raise TimeoutError(f"{lock} is held by {content.strip()!r} (waited {timeout} s)")
        time.sleep(POLL)
    if not taken:  # cannot be created: unlocked
        yield False
        return
    with _held_guard:
        _held[key] = me
    try:
        yield True
    finally:
        with _held_guard:
            _held.pop(key, None)
        if (_read(lock) or "").strip() == _owner():
            lock.unlink(missing_ok=True)
