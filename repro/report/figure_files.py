"""Figure files that depend on the figure only: the same drawing gives byte-identical PNG and PDF.

Matplotlib stamps a PDF with its creation date, so that every report run would rewrite committed
PDFs that did not change. :func:`save_figure` writes without it (and without the software
version, so that a matplotlib upgrade alone does not rewrite a file either).
"""

from __future__ import annotations

from pathlib import Path

from repro.evaluation.guarded import replace_with

#: metadata keys written as None are left out of the file, by format
_NO_METADATA = {
    "pdf": {"CreationDate": None, "Producer": None, "Creator": None},
    "png": {"Software": None},
}


def save_figure(fig, path, **kwargs) -> Path:
    """``fig.savefig(path, **kwargs)`` without time stamps or version strings in the file,
    written whole or not at all (a temporary file renamed over the old one, so a link at
    ``path`` is replaced, never followed: :func:`repro.evaluation.guarded.replace_with`)."""
    path = Path(path)
    fmt = kwargs.pop("format", None) or path.suffix.lstrip(".").lower() or "png"
    metadata = _NO_METADATA.get(fmt)
    if metadata is not None:
        kwargs["metadata"] = {**metadata, **kwargs.get("metadata", {})}
    with replace_with(path, links=True) as tmp:
        fig.savefig(tmp, format=fmt, **kwargs)
    return path
