"""The exit codes of the package's small command lines (``python -m repro.datasets``,
``python -m repro.report``): 0 success, 1 the data or results a command needs are unavailable or
inconsistent, 2 a usage error (a ``ValueError``: an unknown argument, data set or option); an
error is printed as ``error: …`` on stderr. Here, in the lowest layer, so that every command line
may use it.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable

from repro.runtime.temporary_files import target_of

#: the errors of a folder that cannot be written: reported in one line, exit code 1
UNWRITABLE = (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT)


def unwritable_message(err: OSError) -> str | None:
    """One line for an error of writing into a folder (read-only, no permission, full disk),
    naming the file; None for any other error."""
    if err.errno not in UNWRITABLE:
        return None
    where = target_of(err.filename) if err.filename else "the output folder"
    return f"cannot write {where}: {err.strerror}; give a writable folder (out=DIR or results=DIR)"


def exit_code(command: Callable[[], int], unavailable: tuple[type[Exception], ...]) -> int:
    """``command()``'s exit code, or 1 on an ``unavailable`` error or a folder that cannot be
    written (:func:`unwritable_message`), 2 on any other ``ValueError`` (in that order: an
    ``unavailable`` error may be a ``ValueError``), the error printed on stderr in one line;
    other exceptions propagate."""
    try:
        return command()
    except unavailable as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        message = unwritable_message(err)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        return 1
