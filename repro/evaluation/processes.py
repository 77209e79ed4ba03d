"""The processes of a run: SIGTERM handled as Ctrl-C in the main process, and fold workers that
end with the process that started them (even killed with SIGKILL, which runs no clean-up)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, SLURM's ``scancel`` and time limit, Kubernetes), handled as Ctrl-C is:
    every finished fold kept, the lock released, the fold workers stopped (``python -m repro``
    then exits with code 143; Ctrl-C: 130)."""


@contextlib.contextmanager
def terminate_as_interrupt():
    """SIGTERM raises :class:`Terminated` in the main thread for the ``with`` block, unless a
    handler other than the default one is installed (the previous one is restored after)."""

    def terminated(signum, frame):
        raise Terminated(f"terminated by signal {signum}")

    try:
        installed = signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        previous = signal.signal(signal.SIGTERM, terminated) if installed else None
    except ValueError:  # not the main thread: signals stay as they are
        installed = False
    if not installed:  # one yield, outside any except: an error of the block passes through
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


#: seconds between two looks of a fold worker at its parent
PARENT_POLL = 1.0
_watched: set[int] = set()
_watched_guard = threading.Lock()


def end_with_parent(parent: int) -> None:
    """In a fold worker: end this process when process ``parent`` (the run that started it)
    ends, even killed with SIGKILL, which runs no clean-up: a daemon thread looks every
    :data:`PARENT_POLL` seconds whether this process was re-parented. (loky's idle workers
    would otherwise wait 300 s, and busy ones finish their fold, for nobody.)"""
    with _watched_guard:
        if parent in _watched:
            return
        _watched.add(parent)

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    if os.getppid() == parent:
        threading.Thread(target=watch, name="repro-end-with-parent", daemon=True).start()
