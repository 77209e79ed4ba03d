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

import re
import warnings

#: C0 and C1 control characters, and DEL (newline and tab are handled per output)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
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


def failure_text(exc: BaseException) -> str:
    """What the command line says after ``error:`` for a run that failed: the exception's message;
    its type where the message is empty; for a ``MemoryError`` (numpy's, or a compile's under
    ``ulimit -v``, whose message is empty), that the run is out of memory and what helps."""
    message = str(exc).strip()
    if isinstance(exc, MemoryError):
        detail = f" ({message})" if message else ""
        return (
            f"out of memory{detail}: the run needs more memory than this process may use (a "
            "`ulimit -v`, a container's or a batch job's limit); use fewer rows or variables, "
            "n_jobs=1, or a machine with more memory"
        )
    return message or type(exc).__name__
