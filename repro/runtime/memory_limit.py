"""A run under an address-space limit (``ulimit -v``, RLIMIT_AS) ends in one line, never an abort.

Out of address space, Python raises ``MemoryError`` (the command line says so in one line), but
native code cannot: LLVM, compiling numba's kernels on a machine's first run, calls ``abort()`` on
"LLVM ERROR: out of memory"; glibc aborts when it cannot load ``libgcc_s`` to end a thread; a C++
library dies on ``std::bad_alloc``. None of these can be caught inside the process that dies.

So, when RLIMIT_AS is finite, :func:`supervise` runs the command in a child process (the same
arguments, the same limit, allocators that reserve less address space: :data:`LEAN_ALLOCATORS`)
and waits for it: the child's exit code is the command's, and a child killed by a signal
becomes one line saying which signal, under which limit, and what helps. The
child's stderr is passed on as it comes (:class:`StderrRelay`), except the lines native code
prints as it dies (:data:`NATIVE_ABORT`: "LLVM ERROR: out of memory", "terminate called after
throwing an instance of 'std::bad_alloc'", CPython's "Fatal Python error" and the stacks it dumps
after it), which are held back: dropped when a signal ends the child (its one line says what
happened), printed when it exits on its own. With no limit (the usual case) nothing changes: the
command runs in this process.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import threading

#: set in the child, so that it runs the command itself
CHILD = "REPRO_SUPERVISED_CHILD"
#: the child's allocators, set unless the user set them: address space, not memory, is what
#: the limit counts, and pyarrow's jemalloc pool and glibc's per-thread arenas reserve much of it
#: (a cold compile of snb_cma on iris under ulimit -v 1.2-2.2 GB: killed by SIGABRT or SIGSEGV,
#: or crawling for minutes, with them; fitted in 16 s at 1.2 GB without them). Neither changes
#: a number of the results.
LEAN_ALLOCATORS = {"ARROW_DEFAULT_MEMORY_POOL": "system", "MALLOC_ARENA_MAX": "2"}
#: the starts of the lines native code prints as it aborts (held back by :class:`StderrRelay`)
NATIVE_ABORT = (
    b"LLVM ERROR",
    b"Allocation failed",
    b"Buffer allocation",
    b"terminate called",
    b"  what():",
    b"libgcc_s.so",
)
#: seconds the relay goes on reading after the child ended (what it wrote last, not a grandchild
#: that holds the pipe)
RELAY_GRACE = 5.0
#: after this line CPython dumps every thread's stack before it aborts: all of it is held back
FATAL = b"Fatal Python error"


class StderrRelay:
    """Passes a child's stderr on to ``out`` (a binary stream) as it comes, holding back the lines
    of :data:`NATIVE_ABORT`, and everything from a :data:`FATAL` line on, in ``held``. A partial
    line that may still become one of them waits for the rest of it; any other text (a progress
    bar's ``\r`` updates) goes out at once."""

    def __init__(self, out):
        self.out = out
        self.held = bytearray()
        self._line = bytearray()  # the start of the current line, not yet decided
        self._passing = False  # the current line goes out
        self._holding = False  # the current line is held back
        self._fatal = False  # a FATAL line came: everything after it is held back

    @staticmethod
    def _marked(start: bytes) -> bool:
        return start.startswith((FATAL, *NATIVE_ABORT))

    @staticmethod
    def _undecided(start: bytes) -> bool:
        return any(m.startswith(start) for m in (FATAL, *NATIVE_ABORT))

    def feed(self, data: bytes) -> None:
        while data:
            end = data.find(b"\n")
            piece, data = (data, b"") if end < 0 else (data[: end + 1], data[end + 1 :])
            self._piece(piece, complete=end >= 0)
        self.out.flush()

    def _piece(self, piece: bytes, complete: bool) -> None:
        if self._fatal or self._holding:
            self.held += piece
        elif self._passing:
            self.out.write(piece)
        else:
            self._line += piece
            start = bytes(self._line)
            if self._marked(start):
                self._fatal = start.startswith(FATAL)
                self.held += start
                self._line.clear()
                self._holding = True
            elif complete or not self._undecided(start):
                self.out.write(start)
                self._line.clear()
                self._passing = True
        if complete:
            self._passing = self._holding = False

    def close(self) -> None:
        """End of the stream: a partial line left undecided is passed on."""
        if self._line:
            self.out.write(bytes(self._line))
            self._line.clear()
        self.out.flush()


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


def _end_with_this_process() -> None:
    """In the child, before it runs: SIGTERM when its parent, the supervisor, ends (even killed
    by SIGKILL: a batch system's time limit), so that no run goes on for nobody; it keeps its
    finished folds as on any SIGTERM. Linux's ``prctl(PR_SET_PDEATHSIG)``; elsewhere nothing."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def supervise(module: str, argv: list[str]) -> int | None:
    """Run ``python -m module argv`` in a child when RLIMIT_AS is finite and return the exit code
    to leave with (1 after a line on stderr when a signal ended the child); None when the command
    should run here (no limit, or this is the child)."""
    limit = address_space_limit()
    if limit is None or os.environ.get(CHILD):
        return None
    env = {**LEAN_ALLOCATORS, **os.environ, CHILD: "1"}
    child = subprocess.Popen(
        [sys.executable, "-m", module, *argv],
        env=env,
        stderr=subprocess.PIPE,
        bufsize=0,
        preexec_fn=_end_with_this_process if sys.platform == "linux" else None,
    )
    # Ctrl-C reaches the child through the terminal's process group: wait for it to save its
    # folds; a SIGTERM sent to this process is passed on.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda signum, frame: child.send_signal(signum))
    relay = StderrRelay(sys.stderr.buffer)

    def relay_all() -> None:
        while data := os.read(child.stderr.fileno(), 65536):
            relay.feed(data)
        relay.close()

    # read in a thread: a process the child started may hold its stderr open after it ends
    reader = threading.Thread(target=relay_all, name="repro-stderr-relay", daemon=True)
    reader.start()
    try:
        code = child.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    reader.join(timeout=RELAY_GRACE)
    if code < 0 and -code in (signal.SIGINT, signal.SIGTERM):
        return 128 - code  # interrupted, as the command would have said itself (130, 143)
    if code >= 0:
        if relay.held:  # it ended on its own: what it printed is the user's to read
            sys.stderr.buffer.write(bytes(relay.held))
            sys.stderr.flush()
        return code
    print(f"error: {signal_text(code, limit)}", file=sys.stderr)
    return 1
