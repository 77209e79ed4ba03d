"""A run under an address-space limit (``ulimit -v``, RLIMIT_AS) ends in one line, never an abort.

Out of address space, Python raises ``MemoryError`` (the command line says so in one line), but
native code cannot: LLVM, compiling numba's kernels on a machine's first run, calls ``abort()`` on
"LLVM ERROR: out of memory"; glibc aborts when it cannot load ``libgcc_s`` to end a thread; a C++
library dies on ``std::bad_alloc``. None of these can be caught inside the process that dies.

So, when RLIMIT_AS is finite, :func:`supervise` runs the command in a child process (the same
arguments, the same limit) and waits for it: the child's exit code is the command's, and a child
killed by a signal becomes one line saying which signal, under which limit, and what helps. With
no limit (the usual case) nothing changes: the command runs in this process.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

#: set in the child, so that it runs the command itself
CHILD = "REPRO_SUPERVISED_CHILD"


def address_space_limit() -> int | None:
    """This process's soft RLIMIT_AS in bytes, or None when there is none."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def signal_text(returncode: int, limit: int) -> str:
    """The one line for a child that a signal ended (``returncode`` = −signal number)."""
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    return (
        f"the run was ended by {name} under this process's address-space limit (ulimit -v "
        f"{limit / 2**30:.2f} GiB): native code ran out of memory, most often numba compiling "
        "the kernels on a machine's first run, which needs more than later runs (they read the "
        "compiled kernels from the cache); raise or lift the limit (run once without it to "
        "fill the cache), or use fewer rows or variables"
    )


def supervise(module: str, argv: list[str]) -> int | None:
    """Run ``python -m module argv`` in a child when RLIMIT_AS is finite and return the exit code
    to leave with (1 after a line on stderr when a signal ended the child); None when the command
    should run here (no limit, or this is the child)."""
    limit = address_space_limit()
    if limit is None or os.environ.get(CHILD):
        return None
    env = {**os.environ, CHILD: "1"}
    child = subprocess.Popen([sys.executable, "-m", module, *argv], env=env)
    # Ctrl-C reaches the child through the terminal's process group: wait for it to save its
    # folds; a SIGTERM sent to this process is passed on.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda signum, frame: child.send_signal(signum))
    try:
        code = child.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    if code >= 0:
        return code
    if -code in (signal.SIGINT, signal.SIGTERM):
        return 128 - code  # interrupted, as the command would have said itself (130, 143)
    print(f"error: {signal_text(code, limit)}", file=sys.stderr)
    return 1
