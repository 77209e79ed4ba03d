"""Text from records made inert for each kind of output a person opens.

Method and data-set names, parameters and notes come from records, and records come from
results folders that other people hand over: a name may hold ``<script>``, a ``|`` or a newline
that breaks a Markdown table, a LaTeX command, a spreadsheet formula or a terminal escape
sequence. Every writer passes such text through the function of its kind:

- :func:`markdown_cell`: one line, ``|`` escaped, ``<``/``>``/``&`` as HTML entities (so no raw
  HTML reaches a Markdown viewer), control characters dropped;
- :func:`markdown_code`: text inside a Markdown code span (shown literally, so no entities):
  one line, backticks replaced, ``|`` escaped for a table;
- :func:`latex_text`: every LaTeX special character escaped, control characters dropped;
- :func:`csv_cell` / :func:`csv_frame`: a text cell that a spreadsheet would read as a formula
  (first character ``=``, ``+``, ``-``, ``@``, tab or carriage return, and not a number) gets a
  leading apostrophe (the OWASP rule);
- :func:`terminal_text`: ANSI escape sequences and other control characters removed (newlines
  and tabs kept);
- :func:`file_stem`: a name as one short, safe file-name part (a long or odd one hashed);
- :func:`short_label`: a name cut to a length a figure can draw.
"""

from __future__ import annotations

import hashlib
import os
import re

import pandas as pd

from repro.cli.console import ANSI as ANSI  # the terminal's rules live with the console
from repro.cli.console import CONTROL
from repro.cli.console import terminal_text as terminal_text
from repro.evaluation.guarded import write_text

#: what starts a spreadsheet formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: LaTeX's special characters and their escapes (the rest of the text is kept)
LATEX = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
    "τ": r"$\tau$", "Γ": r"$\Gamma$", "δ": r"$\delta$", "σ": r"$\sigma$", "±": r"$\pm$",
    "−": r"$-$",
}  # fmt: skip


def markdown_cell(text) -> str:
    """``text`` as one inert Markdown table cell: control characters dropped, line breaks as
    spaces, ``&``, ``<``, ``>`` as entities, ``|`` escaped."""
    text = CONTROL.sub("", str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", r"\|")


def markdown_names(names) -> str:
    """Names from records as one inert line of Markdown prose, comma-separated
    (:func:`markdown_cell` of each: no raw HTML, no line break that could start a heading)."""
    return ", ".join(markdown_cell(n) for n in names)


def markdown_code(text) -> str:
    """``text`` for a Markdown code span (entities would show literally there): control
    characters dropped, line breaks as spaces, backticks as apostrophes, ``|`` escaped."""
    text = CONTROL.sub("", str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    return text.replace("`", "'").replace("|", r"\|")


def latex_text(text) -> str:
    """``text`` with every LaTeX special character escaped and control characters dropped."""
    text = CONTROL.sub("", str(text).replace("\n", " "))
    return "".join(LATEX.get(c, c) for c in text)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_cell(value):
    """``value``, with a leading apostrophe when it is text a spreadsheet would run as a formula;
    numbers (and text that is a number, such as "-0.5") are kept."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


def csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with :func:`csv_cell` applied to every text cell, the index and the column
    names (a copy; numeric columns untouched)."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object or pd.api.types.is_string_dtype(out[column]):
            out[column] = out[column].map(csv_cell)
    out.index = out.index.map(csv_cell)
    if isinstance(out.columns, pd.MultiIndex):
        out.columns = pd.MultiIndex.from_tuples(
            [tuple(csv_cell(c) for c in col) for col in out.columns], names=out.columns.names
        )
    else:
        out.columns = [csv_cell(c) for c in out.columns]
    return out


def write_csv(frame: pd.DataFrame, path, **kwargs):
    """``frame.to_csv(path, **kwargs)`` with every text cell made inert (:func:`csv_frame`); a
    file path is written whole or not at all (:func:`repro.evaluation.guarded.write_text`)."""
    if isinstance(path, str | os.PathLike):
        return write_text(path, csv_frame(frame).to_csv(**kwargs))
    return csv_frame(frame).to_csv(path, **kwargs)


def say(*parts, **kwargs) -> None:
    """``print`` of :func:`terminal_text` of each part (for text that holds names from records)."""
    print(*(terminal_text(p) for p in parts), **kwargs)


#: the longest file-name part made from a name (file systems allow 255 bytes for a whole name)
STEM_LIMIT = 80
#: the longest label a figure draws
LABEL_LIMIT = 60


def file_stem(name) -> str:
    """``name`` as one file-name part: characters other than letters, digits, ``.``, ``_``,
    ``+``, ``-`` become ``_``; a leading dot is dropped; a part longer than
    :data:`STEM_LIMIT` keeps its first characters and ends in a hash of the whole name, so two
    long names stay apart and none gives "File name too long"."""
    text = str(name)
    stem = re.sub(r"[^A-Za-z0-9_.+-]+", "_", text).lstrip(".") or "_"
    if len(stem) <= STEM_LIMIT:
        return stem
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{stem[: STEM_LIMIT - 13]}-{digest}"


def short_label(name, limit: int = LABEL_LIMIT) -> str:
    """``name`` without control characters, cut to ``limit`` characters with an ellipsis."""
    text = terminal_text(name).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"
