"""What the command lines print besides their results: each warning as one line.

``python -m repro`` and ``python -m repro.report`` print a warning
as ``warning: <message> (<category>)``, its line breaks folded: not Python's two lines with
the file, the line number and the source line of the library that raised it.
"""

from __future__ import annotations

import warnings


def one_line(message, category, filename, lineno, file=None, line=None) -> str:
    """A warning as one line (the signature of :func:`warnings.formatwarning`)."""
    text = " ".join(part.strip() for part in str(message).splitlines() if part.strip())
    return f"warning: {text} ({category.__name__})\n"


def print_warnings_as_one_line() -> None:
    """Make this process print every warning as :func:`one_line` writes it."""
    warnings.formatwarning = one_line
