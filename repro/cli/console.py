"""What the command lines print besides their results: text safe for a terminal, and each
warning as one line.

- :func:`terminal_text`: ANSI escape sequences and other control characters removed (newlines
  and tabs kept): a name from a record (or a record file's name) cannot clear a screen or write
  to the clipboard;
- ``python -m repro`` and ``python -m repro.report`` print a warning as
  ``warning: <message> (<category>)`` (:func:`one_line`), its line breaks folded, through
  :func:`terminal_text`: not Python's two lines with the file, the line number and the source
  line of the library that raised it.
"""

from __future__ import annotations

import errno
import os
import re
import sys
import warnings

from repro.runtime.memory_limit import address_space_limit

#: C0 and C1 control characters, and DEL (newline and tab are handled per output)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: the shared library an ``OSError`` of a failed load names ("…shared object file 'lib….so'…")
SHARED_OBJECT = re.compile(r"shared object file '?([\w.+-]+\.so[\w.]*)")
#: ANSI escape sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), and two-byte ones
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def terminal_text(text) -> str:
    """``text`` without ANSI escape sequences or other control characters (newlines and tabs
    kept): what a record holds cannot clear a screen or write to the clipboard."""
    return CONTROL.sub("", ANSI.sub("", str(text)))


def one_line(message, category, filename, lineno, file=None, line=None) -> str:
    """A warning as one line (the signature of :func:`warnings.formatwarning`)."""
    lines = terminal_text(message).splitlines()
    text = " ".join(part.strip() for part in lines if part.strip())
    return f"warning: {text} ({category.__name__})\n"


def print_warnings_as_one_line() -> None:
    """Make this process print every warning as :func:`one_line` writes it."""
    warnings.formatwarning = one_line


def drop_unraisable_memory_errors() -> None:
    """Print nothing for a ``MemoryError`` Python can only report as "Exception ignored in …"
    (a generator or finaliser that ran out of memory while the run unwinds under a ``ulimit -v``):
    the run's own one-line error says it; other unraisable exceptions print as before."""
    default = sys.unraisablehook

    def hook(unraisable):
        if not isinstance(unraisable.exc_value, MemoryError):
            default(unraisable)

    sys.unraisablehook = hook


def leave(exc: BaseException, code: int) -> None:
    """Exit with ``code`` after a failed run. Out of memory, the interpreter's shutdown cannot run
    either (hundreds of "Exception ignored … MemoryError" lines, or an abort): the streams are
    flushed and the process ends at once, as the one-line error has said all there is."""
    if out_of_memory_cause(exc) is not None:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed or full stream: nothing more can be said
                pass
        os._exit(code)
    sys.exit(code)


#: what follows "out of memory" (a constant: said even when too little is left to word more)
OUT_OF_MEMORY_ADVICE = (
    ": the run needs more memory than this process may use (a `ulimit -v`, a container's or a "
    "batch job's limit); use fewer rows or variables, n_jobs=1, or a machine with more memory"
)


#: a library's words for a thread it could not start (pyarrow's pool: "Failed to launch worker
#: thread: Resource temporarily unavailable", at 0.8 GB): under an address-space limit, memory
NO_THREAD = re.compile(r"(?i)(launch|start|create)\w* (worker )?thread|can't start new thread")


def out_of_memory_cause(exc: BaseException) -> str | None:
    """Why ``exc`` (or an exception it was raised from) is the process running out of memory:
    the message of a ``MemoryError`` (often "") or of an ``OSError`` ENOMEM; for a shared library
    that did not load under an address-space limit (numba's ``libllvmlite.so`` at 1.7 GB,
    whatever the message says about permissions), which library; a thread that could not be
    started under such a limit (:data:`NO_THREAD`); None when it is not memory."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, MemoryError):
            return str(exc).strip()
        if getattr(exc, "errno", None) == errno.ENOMEM:
            return exc.strerror or ""
        library = SHARED_OBJECT.search(str(exc)) if isinstance(exc, OSError) else None
        if library and address_space_limit() is not None:
            return f"{library.group(1)} did not load"
        if address_space_limit() is not None and NO_THREAD.search(str(exc)):
            return "a thread could not be started"  # its stack is address space too
        exc = exc.__cause__ or exc.__context__
    return None


def failure_text(exc: BaseException, where: str | None = None) -> str:
    """What the command line says after ``error:`` for a run that failed: the exception's message;
    its type where the message is empty; out of memory (numpy's ``MemoryError``, a compile's under
    ``ulimit -v`` whose message is empty, a library that could not be loaded under the limit),
    that the run (``where``: "method on data set") is out of memory, and what helps, on one line."""
    cause = out_of_memory_cause(exc)
    if cause is not None:
        limit = address_space_limit()
        details = [cause] if cause else []
        if limit is not None:
            details.append(f"ulimit -v {limit / 2**30:.2f} GiB")
        detail = f" ({'; '.join(details)})" if details else ""
        return f"{where + ': ' if where else ''}out of memory{detail}{OUT_OF_MEMORY_ADVICE}"
    return str(exc).strip() or type(exc).__name__
