"""The exit codes of the package's small command lines (``python -m repro.datasets``,
``python -m repro.report``): 0 success, 1 the data or results a command needs are unavailable or
inconsistent, 2 a usage error (a ``ValueError``: an unknown argument, data set or option); an
error is printed as ``error: …`` on stderr. Here, in the lowest layer, so that every command line
may use it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable


def exit_code(command: Callable[[], int], unavailable: tuple[type[Exception], ...]) -> int:
    """``command()``'s exit code, or 1 on an ``unavailable`` error and 2 on any other
    ``ValueError`` (in that order: an ``unavailable`` error may be a ``ValueError``), the error
    printed on stderr; other exceptions propagate."""
    try:
        return command()
    except unavailable as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
