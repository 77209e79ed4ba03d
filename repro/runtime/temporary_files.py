"""The hidden temporary file beside a file being replaced, and the file it stands for.

Every output is written to ``.<name>.<pid>.<12 hex>.tmp`` in the same folder and renamed over
``<name>`` when whole (:mod:`repro.evaluation.guarded`, :func:`repro.evaluation.records.
write_atomic`): a kill or a full disk leaves the previous file. An error while writing names
the temporary file; :func:`target_of` gives the file a user asked for, to name in a message.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

#: the name of a temporary file of :func:`temporary_beside`; group 1 is the target's name
TEMPORARY = re.compile(r"^\.(.+)\.\d+\.[0-9a-f]{12}\.tmp$")


def temporary_beside(path: Path) -> Path:
    """A unique hidden name beside ``path`` for the file that will replace it."""
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")


def target_of(filename) -> str:
    """``filename``, or the file it is the temporary of (same folder)."""
    path = Path(os.fsdecode(filename))
    match = TEMPORARY.match(path.name)
    return str(path.with_name(match.group(1))) if match else str(filename)
