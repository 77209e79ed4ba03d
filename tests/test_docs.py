"""The documentation site as built by ``.ci/run`` (``python -m sphinx -W --keep-going -b html docs
docs/_build/html``, before the suite): every internal link of every page resolves, with its
anchor; no page cites the internal specification; the home page and an API page render in
headless Chromium (skipped, with the reason, without a build or without Chromium)."""

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
    """The link targets (``href``) and the ids of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("href"):
            self.hrefs.append(attrs["href"])
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
