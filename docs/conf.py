"""Sphinx configuration of the repro documentation site.

Built offline (no intersphinx), warnings as errors, by ``.ci/run``::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The examples gallery (``examples/`` at the repository root) is executed at build time by
sphinx-gallery; every example writes only into a temporary folder.

The formulas are typeset by MathJax 3, served with the site: the ``sphinx-mathjax-offline``
package (the ``docs`` extra) ships MathJax's files, points ``mathjax_path`` at
``_static/mathjax/tex-chtml.js`` and copies them into the build, so that the pages show their
formulas without a network (``sphinx.ext.mathjax`` alone loads MathJax from a CDN).
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("MPLBACKEND", "Agg")

import repro  # noqa: E402

project = "repro"
author = "the repro authors"
copyright = "the repro authors, BSD-3-Clause"  # noqa: A001
version = release = repro.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax from the site itself, not from a CDN (the docs extra)
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "**/*.ipynb", "auto_examples/*.md5", "auto_examples/*.py"]
templates_path = ["_templates"]

# -- MyST (Markdown pages) -------------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# -- autodoc / autosummary / numpydoc ----------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False, "show-inheritance": False}
autodoc_typehints = "none"
autodoc_member_order = "bysource"
# the docstrings are short prose, not all in numpydoc sections: render them as they are
numpydoc_show_class_members = False
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = True
# numpydoc also parses a class docstring as it is (before the hook below renames its sections)
warnings.filterwarnings("ignore", "Unknown section Attributes \\(after Fit\\)", UserWarning)

#: an attribute name written bare in a docstring (``weights_``, ``fit_report_``) reads in
#: reStructuredText as a reference to a target of that name: shown as code instead
_BARE_ATTRIBUTE = re.compile(r"(?<![\w`*|:<])([A-Za-z]\w*_)(?![\w`])")
#: "|S∅|" (an absolute value) reads as a substitution
_BARS = re.compile(r"\|([^|\s`]+)\|")


_LITERALS = re.compile(r"(``.*?``|`[^`]*`_{0,2})")


def _before_numpydoc(app, what, name, obj, options, lines):
    """ "Attributes (after fit)" read as numpydoc's "Attributes" section."""
    for i, line in enumerate(lines):
        if line.strip() == "Attributes (after fit)" and i + 1 < len(lines):
            line = line.replace("Attributes (after fit)", "Attributes")
            lines[i + 1] = lines[i + 1].replace("-" * 22, "-" * 10)
        lines[i] = line


def _clean_docstring(app, what, name, obj, options, lines):
    """Docstrings are plain prose for the developers: the few reStructuredText surprises they
    hold are rendered as meant, without touching the package."""
    literal_indent = None  # the indentation of the paragraph that opened a literal block
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None and stripped and indent <= literal_indent:
            literal_indent = None
        if literal_indent is None and stripped and not stripped.startswith(".."):
            parts = _LITERALS.split(line)
            for j in range(0, len(parts), 2):  # outside inline literals and roles
                parts[j] = _BARE_ATTRIBUTE.sub(r"``\1``", parts[j])
                parts[j] = _BARS.sub(r"\\|\1\\|", parts[j])
            line = "".join(parts)
        if literal_indent is None and stripped.endswith("::"):
            literal_indent = indent
        lines[i] = line


# -- sphinx-gallery ------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r".*\.py$",  # execute every example
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "plot_gallery": "True",
    "reference_url": {"repro": None},
    "abort_on_example_error": True,
    "matplotlib_animations": False,
    "write_computation_times": False,
}

# -- HTML ----------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"repro {version}"
html_static_path = ["_static"]
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "icon_links": [],
}
html_sidebars = {"index": []}
html_show_sourcelink = False
html_copy_source = False

#: the dashboard screenshot (docs/_static/dashboard.png) is added by hand; the reports page
#: shows it only when it is there, so that a build without it does not warn


def _dashboard_image(app, docname, source):
    """The screenshot on the reports page, only when the file is there."""
    if docname != "user_guide/reports":
        return
    image = (
        "```{raw} html\n"
        '<img src="../_static/dashboard.png" alt="The results dashboard, results/index.html" '
        'style="max-width: 100%; border: 1px solid #ccc;">\n'
        "```\n"
        if (DOCS / "_static" / "dashboard.png").is_file()
        else ""
    )
    source[0] = source[0].replace("<!-- dashboard-image -->", image)


def setup(app):
    # sphinx-mathjax-offline does not say it is safe for parallel builds (so that `sphinx -j N`
    # warns, an error with -W): it is, it only sets mathjax_path and copies files at the end
    mathjax_offline = app.extensions["sphinx-mathjax-offline"]
    mathjax_offline.parallel_read_safe = mathjax_offline.parallel_write_safe = True
    app.connect("autodoc-process-docstring", _before_numpydoc, priority=100)
    app.connect("autodoc-process-docstring", _clean_docstring, priority=900)
    app.connect("source-read", _dashboard_image)
