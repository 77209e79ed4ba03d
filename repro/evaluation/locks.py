"""A lock per result file, so that concurrent workers split a sweep's work instead of repeating it.

Two processes that reach the same cell (two sweeps, joblib workers, cluster jobs over one shared
results folder) take turns: the first computes and writes the cell, the second waits and then
reads the cell file; no fold is computed twice and neither trips over the other's checkpoints.

The lock of ``<cell>.parquet`` is the file ``<cell>.lock`` beside it, holding
``<pid> <host> <start time of the process> <random token>``: written to a temporary file first and
hard-linked into place (only one process can create it, and it is never seen empty or half
written; where the file system has no hard links, ``O_CREAT | O_EXCL``). It is removed when its
holder is done (only by its holder: the token). A lock is *stale*, and the next process that
wants it renames it away and takes it, when

- its holder is a process of this host that no longer runs (killed, ``kill -9``, a crashed node
  restarted), or whose pid now belongs to another process (another start time: a reused pid,
  pid 1 again after a container restart on the same host name; for a lock of the older
  ``<pid> <host>`` format, a process that started after the lock was written), or this very
  process, which does not hold it;
- it is empty or unreadable (a disk that filled while it was written, a hand edit).

A lock naming pid 0 is stale too. The processes that break one lock take turns (a ``flock`` in
this host's temporary folder, :func:`breaker_guard_path`), so that none removes a fresh lock taken
after the stale one was broken. A lock of another host cannot be checked that way; its waiter
says which host and process hold it and the command that removes it, for a lock left by a dead
process of another host (``rm <cell>.lock``). A
lock that cannot be created at all (a read-only results folder, a full disk) is not taken: the
work goes on unlocked, as before locks existed.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import secrets
import socket
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import psutil

#: seconds between two looks at a held lock
POLL = 0.2
#: two start times of one process differ by less than this (seconds; /proc counts in ticks)
START_TOLERANCE = 0.05
#: a process that started this many seconds after a lock was written is not its holder
WRITTEN_TOLERANCE = 1.0

_HOST = socket.gethostname()
_held: dict[str, int] = {}  # lock path → thread id of its holder in this process
_mine: set[str] = set()  # the contents of the locks this process holds or is taking
_held_guard = threading.Lock()


def lock_path(path) -> Path:
    """The lock file of a result file: ``<name>.lock`` beside ``<name>.parquet``."""
    return Path(path).with_suffix(".lock")


def process_start(pid: int) -> float | None:
    """The start time of process ``pid`` (seconds since the epoch); None when it does not run."""
    try:
        return psutil.Process(pid).create_time()
    except (psutil.Error, OSError):
        return None


def _owner() -> str:
    """What a new lock of this process holds: pid, host, the process's start time, a token."""
    pid = os.getpid()
    return f"{pid} {_HOST} {process_start(pid) or 0:.2f} {secrets.token_hex(8)}"


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
    except OverflowError:  # not a pid
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def _held_here(content: str) -> bool:
    """Whether a thread of this process holds (or is taking) the lock holding ``content``."""
    with _held_guard:
        return content.strip() in _mine


def is_stale(lock: Path, content: str) -> bool:
    """Whether the lock holding ``content`` was left by a process that no longer runs: an empty
    or damaged lock; a process of this host that is gone, or whose pid another process (another
    start time, or a start after the lock was written) now has; this process, when none of its
    threads holds it. Locks of another host
    are never stale here (their holder cannot be checked)."""
    fields = content.split()
    if len(fields) not in (2, 4) or not fields[0].isdigit():  # empty, torn or damaged
        return True
    pid, host = int(fields[0]), fields[1]
    if host != _HOST:
        return False
    if pid <= 0:  # no process holds a lock as pid 0 (os.kill(0, 0) would test the group)
        return True
    if not pid_alive(pid):
        return True
    if pid == os.getpid():  # a lock of this pid that no thread here holds: left by another
        return not _held_here(content)  # process with this pid (a container restart)
    if len(fields) == 4:  # the holder's start time: a pid now of another process is stale
        try:
            started = float(fields[2])
        except ValueError:
            return True
        now = process_start(pid)
        if now is None:
            return not pid_alive(pid)
        if started > 0:
            return abs(now - started) > START_TOLERANCE
    return _started_after_written(lock, pid)


def _started_after_written(lock: Path, pid: int) -> bool:
    """Whether process ``pid`` started after ``lock`` was last written (a lock of the older
    ``<pid> <host>`` format, without its holder's start time): it cannot be the holder, whose
    pid it reuses. False when either time is unknown (the lock is then waited for)."""
    try:
        written = lock.stat().st_mtime
    except OSError:
        return False
    now = process_start(pid)
    return now is not None and now - written > WRITTEN_TOLERANCE


def breaker_guard_path(lock: Path) -> Path:
    """The file whose ``flock`` serialises the breakers of ``lock``: in this host's temporary
    folder (every process that may break a lock runs on the holder's host, see :func:`is_stale`),
    named by the lock's absolute path, so that nothing is left in the results folder."""
    digest = hashlib.sha256(os.path.abspath(lock).encode()).hexdigest()[:24]
    return Path(tempfile.gettempdir()) / f"repro-lock-breakers-{os.getuid()}" / f"{digest}.guard"


@contextlib.contextmanager
def _one_breaker(lock: Path):
    """Hold the exclusive ``flock`` of :func:`breaker_guard_path` (released by the kernel if
    its holder dies, so it is never stale); yields False where it cannot be taken."""
    guard = breaker_guard_path(lock)
    try:
        guard.parent.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(guard, os.O_CREAT | os.O_RDWR, 0o600)
    except OSError:
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(fd)  # releases the flock


def break_stale(lock: Path, content: str) -> None:
    """Remove the stale lock that held ``content``, unless it holds something else by now.

    The breakers of one lock take turns (:func:`_one_breaker`): each reads the lock again under
    the guard and renames it away only while it still holds ``content``. Nothing else can
    replace a lock that exists (it is created by a hard link or ``O_EXCL``) and its dead holder
    no longer releases it, so the lock renamed is the stale one: a breaker never removes a live
    lock taken meanwhile (unserialised, a breaker that renamed a fresh lock away could fail to
    put it back when a third process created one in between, and two processes held the cell).
    """
    with _one_breaker(lock) as serialised:
        if _read(lock) != content:
            return  # broken by another breaker, and maybe taken, meanwhile
        grave = lock.with_name(f"{lock.name}.stale-{uuid.uuid4().hex[:8]}")
        try:
            os.rename(lock, grave)
        except FileNotFoundError:
            return
        if not serialised and _read(grave) != content:  # no guard on this host (an unwritable
            with contextlib.suppress(FileExistsError, FileNotFoundError):  # temporary folder):
                os.link(grave, lock)  # give back a fresh lock renamed by mistake
        grave.unlink(missing_ok=True)


def _create(lock: Path, content: str) -> bool | None:
    """Create the lock holding ``content``: True when taken, False when held, None when it
    cannot be created (a read-only folder, a full disk: nothing is left behind). The content is
    written to a temporary file hard-linked into place, so the lock is never seen empty."""
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    tmp = lock.with_name(f".{lock.name}.{secrets.token_hex(6)}.tmp")
    try:
        tmp.write_text(content + "\n")
        try:
            os.link(tmp, lock)
            return True
        except FileExistsError:
            return False
        except OSError:  # no hard links here: create it exclusively, then write it
            return _create_exclusive(lock, content)
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _create_exclusive(lock: Path, content: str) -> bool | None:
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    except OSError:
        return None
    try:
        with os.fdopen(fd, "w") as f:
            f.write(content + "\n")
    except OSError:  # a full disk: leave no empty lock behind
        lock.unlink(missing_ok=True)
        return None
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
    start, owner = time.monotonic(), _owner()
    with _held_guard:
        _mine.add(owner)
    try:
        with _holding(lock, key, me, owner, start, timeout, what or path) as taken:
            yield taken
    finally:
        with _held_guard:
            _mine.discard(owner)


@contextlib.contextmanager
def _holding(lock: Path, key: str, me: int, owner: str, start: float, timeout, what):
    told = False
    while True:
        taken = _create(lock, owner)
        if taken is not False:
            break
        content = _read(lock)
        if content is None:  # released meanwhile
            continue
        if is_stale(lock, content):
            print(f"removing the stale lock {lock} ({content.strip()!r})", file=sys.stderr)
            break_stale(lock, content)
            continue
        if not told:
            holder = content.split()
            who = f"process {holder[0]} on {holder[1]}" if len(holder) >= 2 else "another process"
            hint = f"; if that process no longer runs, `rm {lock}` frees the cell"
            if len(holder) >= 2 and holder[1] == _HOST:  # checked: alive, and its holder
                hint = f"; if it no longer computes this cell, `rm {lock}` frees it"
            print(f"waiting for {what}: {who} computes it{hint}", file=sys.stderr)
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
        if (_read(lock) or "").strip() == owner:
            lock.unlink(missing_ok=True)
