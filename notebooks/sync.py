"""Make the notebooks of this folder from the examples gallery, their one source.

Each ``examples/plot_*.py`` (a sphinx-gallery script) becomes ``notebooks/plot_*.ipynb``:

- the script's docstring becomes the first Markdown cell;
- every ``# %%`` starts a new cell; the comment lines right after it are the text of the
  gallery, and become a Markdown cell; the code after them becomes a code cell;
- the text is reStructuredText in the scripts and Markdown in the notebooks: titles, ``.. math::``
  blocks, ``:math:`` and the other roles are rewritten (:func:`rst_to_markdown`).

jupytext splits the script at its ``# %%`` markers (its "percent" format) and writes the
notebook; the notebooks hold no outputs (run them to see them). Edit the scripts, never the
notebooks, then, from the repository root::

    python notebooks/sync.py            # rewrites the notebooks that differ
    python notebooks/sync.py --check    # only says which differ (exit status 1 if any)

(``pip install -e ".[dev]"`` brings jupytext.) ``tests/test_notebooks.py`` fails while a notebook
differs from what this script makes of its example, and runs the notebooks.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
NOTEBOOKS = ROOT / "notebooks"

#: the metadata of every notebook: a Python 3 kernel, nothing else (no jupytext pairing)
METADATA = {
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}
#: reStructuredText title underlines and the Markdown heading level each stands for
_UNDERLINES = {"=": "#", "-": "##", "~": "###", "^": "####"}
_ROLE = re.compile(r":(\w+):`([^`]+)`")


def examples() -> list[Path]:
    """The gallery's scripts, sorted."""
    return sorted(EXAMPLES.glob("plot_*.py"))


def target(script: Path) -> Path:
    """Where the notebook of ``script`` goes."""
    return NOTEBOOKS / f"{script.stem}.ipynb"


def _role(match: re.Match) -> str:
    role, text = match.groups()
    if role == "math":
        return f"${text}$"
    label = re.sub(r"\s*<[^>]*>$", "", text)  # "text <target>" -> "text"
    if role == "doc":  # a page of the documentation site, as its source file in docs/
        page = label.lstrip("/")
        source = next(
            (
                f"docs/{page}{s}"
                for s in (".md", ".rst")
                if (ROOT / "docs" / f"{page}{s}").is_file()
            ),
            f"docs/{page}",
        )
        return f"[{page}](../{source})"
    if label.startswith("~"):  # ":class:`~a.b.C`" shows "C"
        label = label[1:].rsplit(".", 1)[-1]
    return f"`{label}`"


def rst_to_markdown(text: str) -> str:
    """The reStructuredText of the gallery's text as Markdown: titles (underlined with ``=``,
    ``-``, ``~``, ``^``) as ``#`` headings, ``.. math::`` blocks as ``$$`` blocks, ``:math:`x```
    as ``$x$``, ``:doc:`page``` as a link to the page's source in ``docs/``, the other roles
    (``:func:``, ``:class:``, ...) and ````literals```` as code."""
    lines, out, i = text.splitlines(), [], 0
    while i < len(lines):
        line = lines[i]
        after = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            line.strip()
            and after
            and after[0] in _UNDERLINES
            and set(after) == {after[0]}
            and len(after) >= len(line.rstrip())
        ):
            out.append(f"{_UNDERLINES[after[0]]} {line.strip()}")
            i += 2
            continue
        if line.strip() == ".. math::":
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                block.append(lines[i].strip())
                i += 1
            formula = "\n".join(block).strip("\n")
            out += ["$$", formula, "$$"]
            if i < len(lines):
                out.append("")
            continue
        out.append(line)
        i += 1
    markdown = "\n".join(out)
    markdown = _ROLE.sub(_role, markdown)
    return re.sub(r"``([^`]+)``", r"`\1`", markdown).strip("\n")


def _split_text(source: str) -> tuple[str, str]:
    """(the comment block that opens a cell, the code after it): the gallery's text, then the
    code."""
    lines = source.splitlines()
    n = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    text = "\n".join(re.sub(r"^# ?", "", line) for line in lines[:n])
    return text, "\n".join(lines[n:]).strip("\n")


def notebook(script: Path) -> nbformat.NotebookNode:
    """The notebook of one sphinx-gallery script (cells without outputs)."""
    source = script.read_text(encoding="utf-8")
    split = jupytext.reads(
        source, fmt={"extension": ".py", "format_name": "percent", "comment_magics": False}
    )
    relative = script.relative_to(ROOT).as_posix()
    cells = [
        nbformat.v4.new_markdown_cell(
            f"*Made from [`{relative}`](../{relative}) by `python notebooks/sync.py`: edit the "
            "script, not this notebook. It runs from any folder of the repository checkout.*"
        )
    ]
    for k, cell in enumerate(split.cells):
        if cell.cell_type != "code":
            raise ValueError(f"{relative}: a {cell.cell_type} cell: write `# %%` cells only")
        text, code = "", cell.source.strip("\n")
        if k == 0:  # before the first "# %%": the docstring (and maybe code)
            tree = ast.parse(code)
            docstring = ast.get_docstring(tree, clean=True)
            if docstring is None:
                raise ValueError(f"{relative}: no docstring (a gallery script opens with one)")
            text = docstring
            code = "\n".join(code.splitlines()[tree.body[0].end_lineno :]).strip("\n")
        else:
            text, code = _split_text(code)
        if text.strip():
            cells.append(nbformat.v4.new_markdown_cell(rst_to_markdown(text)))
        if code.strip():
            cells.append(nbformat.v4.new_code_cell(code))
    for i, cell in enumerate(cells):  # fixed ids: the same script makes the same file
        cell["id"] = f"cell-{i}"
    return nbformat.v4.new_notebook(cells=cells, metadata=METADATA)


def text_of(nb: nbformat.NotebookNode) -> str:
    """The file's text (nbformat's JSON, one space of indentation, a final newline)."""
    return nbformat.writes(nb) + "\n"


def stale() -> list[Path]:
    """The notebooks that differ from what their examples make now, or are missing."""
    return [
        target(script)
        for script in examples()
        if not target(script).is_file()
        or target(script).read_text(encoding="utf-8") != text_of(notebook(script))
    ]


def orphans() -> list[Path]:
    """Notebooks of this folder whose example is gone."""
    made = {target(script) for script in examples()}
    return sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p not in made)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Make notebooks/plot_*.ipynb from examples/plot_*.py (their one source)."
    )
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a notebook differs"
    )
    args = parser.parse_args(argv)
    differ, extra = stale(), orphans()
    if args.check:
        for path in differ:
            print(f"out of date: {path.relative_to(ROOT)} (run python notebooks/sync.py)")
        for path in extra:
            print(f"no example for {path.relative_to(ROOT)} (delete it)")
        return 1 if differ or extra else 0
    for script in examples():
        if target(script) in differ:
            target(script).write_text(text_of(notebook(script)), encoding="utf-8")
            print(f"wrote {target(script).relative_to(ROOT)}")
    for path in extra:
        path.unlink()
        print(f"deleted {path.relative_to(ROOT)} (its example is gone)")
    if not differ and not extra:
        print("the notebooks are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
