"""The documentation site as built by ``.ci/run`` (``python -m sphinx -W --keep-going -b html docs
docs/_build/html``, before the suite): every internal link of every page resolves, with its
anchor; no page cites the internal specification; the pages with formulas load MathJax from the
site itself (``sphinx-mathjax-offline``, the ``docs`` extra), not from a CDN, and no page loads a
script from the network; the home page and an API page render in headless Chromium, and the
formulas of a page are typeset there (skipped, with the reason, without a build or without
Chromium)."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import ROOT

DOCS = ROOT / "docs"
HTML = DOCS / "_build" / "html"

pytestmark = pytest.mark.skipif(
    not (HTML / "index.html").is_file(),
    reason="docs/_build/html/index.html is absent: build the site first "
    "(python -m sphinx -W --keep-going -b html docs docs/_build/html, as .ci/run does)",
)


class Page(HTMLParser):
    """The link targets (``href``), the ids, the scripts (``src``) and the number of formulas
    (elements of class ``math``, as Sphinx writes them for MathJax) of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs, self.ids, self.scripts, self.formulas = [], set(), [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("href"):
            self.hrefs.append(attrs["href"])
        if tag == "script" and attrs.get("src"):
            self.scripts.append(attrs["src"])
        if "math" in (attrs.get("class") or "").split():
            self.formulas += 1
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def internal_html_target(href: str) -> tuple[str, str] | None:
    """(path, anchor) of a link to a local HTML page (path "" for the same page), None for any
    other link (another scheme or host, a file that is not a page)."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    if parts.path and not parts.path.endswith(".html"):
        return None
    return unquote(parts.path), unquote(parts.fragment)


@pytest.fixture(scope="module")
def pages() -> dict[Path, Page]:
    return {path: parse(path) for path in sorted(HTML.rglob("*.html"))}


def test_the_site_has_its_parts(pages):
    names = {p.relative_to(HTML).as_posix() for p in pages}
    for required in (
        "index.html",
        "getting_started.html",
        "user_guide/methods/boulle2007.html",
        "user_guide/metrics.html",
        "user_guide/extending.html",
        "api/index.html",
        "api/generated/repro.make_method.html",
        "api/generated/repro.CMASelectiveNaiveBayes.html",
        "auto_examples/index.html",
        "auto_examples/plot_1_quickstart.html",
    ):
        assert required in names, required
    # the gallery offers every example as a script and as a notebook
    downloads = {p.name for p in (HTML / "_downloads").rglob("*") if p.is_file()}
    for example in (ROOT / "examples").glob("*.py"):
        assert {example.name, f"{example.stem}.ipynb"} <= downloads, example.name


def test_every_internal_link_resolves(pages):
    checked = 0
    for path, page in pages.items():
        for href in page.hrefs:
            target = internal_html_target(href)
            if target is None:
                continue
            file, anchor = target
            resolved = (path.parent / file).resolve() if file else path
            where = f"{path.relative_to(HTML)}: {href}"
            assert resolved.is_file(), where
            assert HTML.resolve() in resolved.parents or resolved == HTML.resolve(), where
            if anchor:
                ids = pages[resolved].ids if resolved in pages else parse(resolved).ids
                assert anchor in ids, where
            checked += 1
    assert checked > 1000  # the navigation alone links every page from every page


def test_no_page_cites_the_internal_specification(pages):
    sources = [*DOCS.rglob("*.md"), *DOCS.rglob("*.rst"), *(ROOT / "examples").rglob("*.py")]
    for path in [*pages, *(p for p in sources if "_build" not in p.parts)]:
        assert "SPEC §" not in path.read_text(encoding="utf-8"), path


def is_remote(url: str) -> bool:
    """An address on another host (``https://...``, ``//cdn...``), not a file of the site."""
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc)


#: a page with formulas, typeset in headless Chromium below
FORMULAS_PAGE = "user_guide/methods/boulle2007.html"


def test_pages_with_formulas_load_mathjax_from_the_site(pages):
    """Offline, a formula shows as raw TeX unless MathJax comes with the site: every page with
    formulas loads it by a relative path, to a file of the build, with MathJax's fonts beside
    it; and no page of the site loads any script from the network."""
    with_formulas = {p: page for p, page in pages.items() if page.formulas}
    assert HTML / FORMULAS_PAGE in with_formulas
    assert len(with_formulas) >= 5  # the user guide's method pages, statistics, metrics...
    for path, page in with_formulas.items():
        mathjax = [src for src in page.scripts if "mathjax" in src.lower()]
        where = path.relative_to(HTML)
        assert mathjax, f"{where}: {page.formulas} formulas and no MathJax script"
        for src in mathjax:
            assert not is_remote(src), f"{where}: MathJax from the network: {src}"
            resolved = (path.parent / unquote(urlsplit(src).path)).resolve()
            assert resolved.is_file(), f"{where}: {src} is not in the build"
            assert HTML.resolve() in resolved.parents, f"{where}: {src} is outside the site"
    # tex-chtml.js loads its fonts from output/chtml/fonts/woff-v2 beside it
    fonts = HTML / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2"
    assert len(list(fonts.glob("*.woff"))) > 10, fonts
    remote = {
        f"{p.relative_to(HTML)}: {src}"
        for p, page in pages.items()
        for src in page.scripts
        if is_remote(src)
    }
    assert remote == set()


def browser() -> str:
    found = next(
        (
            shutil.which(b)
            for b in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(b)
        ),
        None,
    )
    if found is None:
        pytest.skip("no chromium, chromium-browser or google-chrome on PATH (Debian: chromium)")
    return found


def rendered_dom(page: Path) -> str:
    """The DOM of ``page`` after headless Chromium loaded it and ran its scripts."""
    proc = subprocess.run(
        [browser(), "--headless", "--no-sandbox", "--disable-gpu",
         "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom",
         page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0 and "<html" in proc.stdout, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize(
    "page, title, heading",
    [
        ("index.html", "repro", "repro"),
        ("api/generated/repro.make_method.html", "repro.make_method", "repro.make_method"),
    ],
)
def test_page_renders_in_headless_chromium(page, title, heading):
    dom = rendered_dom(HTML / page)
    assert re.search(rf"<title>{re.escape(title)} [—-]", dom), dom[:2000]
    assert re.search(rf"<h1>{re.escape(heading)}<a ", dom), dom[:2000]
    # the theme's script ran: it sets the colour theme that the built file leaves empty
    assert re.search(r'<html [^>]*data-theme="(light|dark)"', dom)
    assert 'data-theme="' not in (HTML / page).read_text(encoding="utf-8").split("<head>")[0]


def test_formulas_are_typeset_in_headless_chromium(pages):
    """MathJax, from the site's own files (the browser is offline), replaces every formula of
    the page by its typeset form (an ``mjx-container``), and none is a TeX error."""
    page = HTML / FORMULAS_PAGE
    dom = rendered_dom(page)
    expected = pages[page].formulas
    assert expected > 10
    assert len(re.findall(r"<mjx-container\b", dom)) == expected, dom[:2000]
    assert "<mjx-merror" not in dom  # MathJax's rendering of a TeX error
