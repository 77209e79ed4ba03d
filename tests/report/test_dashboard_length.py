"""The dashboard's length (issue 44): its first screen (the header, the papers' headlines, the
published-against-reproduced figures) as it was, everything below it in collapsed
``<details>`` whose summary says what is inside and how many; one line for a data set where every
method collapses (the values flagged, and their counts, unchanged); and in headless Chromium
(when installed) the committed page far shorter than the 24,700 px at 1400 px wide it had."""

import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser

import pytest
from conftest import ROOT
from test_dashboard_page import hand_built, records_frame, row

from repro.report.dashboard.headline import dashboard_headline
from repro.report.dashboard.pages import render_html, render_markdown
from repro.report.dashboard.papers import every_method_collapses, flag_lines, paper_flags
from repro.report.dashboard.points import value_flags
from repro.report.paper_data import papers

RESULTS = ROOT / "results"
MAJORITY = {"vowel": 0.091, "wine": 0.4}
#: where the first screen ends: the first paper's section
FIRST_PAPER = '<section class="paper"'


def collapse_flags(accuracies: dict[str, float], dataset: str = "vowel") -> list[dict]:
    """The flags of records where each method has ``accuracies[method]`` on ``dataset``."""
    runs = {(m, dataset, "accuracy"): [a, a] for m, a in accuracies.items()}
    return value_flags(records_frame(runs).assign(params=""), MAJORITY)


def lines_of(*rows: dict) -> list[dict]:
    return flag_lines(list(rows), paper_flags(list(rows)))


def test_every_method_collapsing_on_a_data_set_is_one_line():
    flags = collapse_flags({"a": 0.05, "b": 0.08, "c": 0.09})
    assert [f["methods"] for f in flags] == [3, 3, 3]  # each knows the data set's methods
    (line,) = lines_of(row("boulle2007_table3", flags=flags))
    assert (line["dataset"], line["method"], line["shown"]) == ("vowel", "every method (3)",
                                                                "0.050–0.090")  # fmt: skip
    assert line["note"].startswith("accuracy 0.050–0.090 ≤ the majority rate 0.091 for every "
                                   "method (3): no better than always predicting")  # fmt: skip
    assert line["flags"] == 3 and line["experiments"] == ["boulle2007_table3"]


def test_two_of_three_methods_collapsing_stay_two_lines():
    flags = collapse_flags({"a": 0.05, "b": 0.08, "c": 0.5})
    assert [f["methods"] for f in flags] == [3, 3]
    lines = lines_of(row("boulle2007_table3", flags=flags))
    assert [(x["method"], x["shown"]) for x in lines] == [("a", "0.050"), ("b", "0.080")]
    assert every_method_collapses([row("boulle2007_table3", flags=flags)]) == set()


def test_one_line_only_where_every_experiment_flagging_the_data_set_has_all_collapse():
    every = row("boulle2007_table3", flags=collapse_flags({"a": 0.05, "b": 0.08}))
    some = row("boulle2007_table4", flags=collapse_flags({"a": 0.05, "c": 0.5}))
    assert every_method_collapses([every]) == {"vowel"}
    assert every_method_collapses([every, some]) == set()
    assert len(lines_of(every, some)) == 2  # a (both experiments' 0.050, once) and b
    # the same collapse in two experiments: one line naming both, each method counted once
    again = row("boulle2007_table3_shrink", flags=collapse_flags({"a": 0.05, "b": 0.08}))
    (line,) = lines_of(every, again)
    assert line["method"] == "every method (2)" and line["flags"] == 2
    assert line["experiments"] == ["boulle2007_table3", "boulle2007_table3_shrink"]
    # a single method is no group; flags without ``methods`` (older rows) group nothing
    alone = row("boulle2007_table3", flags=collapse_flags({"a": 0.05}))
    assert lines_of(alone)[0]["method"] == "a"
    old = [{k: v for k, v in f.items() if k != "methods"} for f in every["flags"]]
    assert [x["method"] for x in lines_of(row("boulle2007_table3", flags=old))] == ["a", "b"]
    # other data sets and kinds keep their lines, in their order
    mixed = collapse_flags({"a": 0.05, "b": 0.08}) + collapse_flags({"a": 0.3, "b": 0.9}, "wine")
    mixed += value_flags(None, MAJORITY, standins={"gen"})
    lines = lines_of(row("boulle2007_table3", flags=mixed))
    assert [(x["kind"], x["dataset"], x["method"]) for x in lines] == [
        ("collapse", "vowel", "every method (2)"),
        ("collapse", "wine", "a"),
        ("stand-in", "gen", None),
    ]


def test_the_pages_show_one_line_and_count_every_value():
    dashboard = hand_built()
    flags = collapse_flags({"a": 0.05, "b": 0.08, "c": 0.09})
    for r in dashboard["experiments"][:2]:  # boulle2007_table3 and its variant
        r["flags"] = flags
    page = render_html(dashboard, ROOT, ROOT)
    readme = render_markdown(dashboard, ROOT, ROOT)
    assert re.findall(r"<tr><td>vowel</td><td>(.*?)</td>", page) == ["every method (3)"]
    assert '<a href="#flags-boulle2007">3 values flagged</a>' in page  # values, not lines
    assert "Values to read with care (3, shown in 1 lines:" in page
    assert re.findall(r"^\| vowel \| (.*?) \|", readme, flags=re.MULTILINE) == ["every method (3)"]
    assert "| [3](#flags-boulle2007) |" in readme
    assert dashboard_headline(dashboard).endswith("; 6 values flagged")  # 3 in each of 2 rows


class Skeleton(HTMLParser):
    """Each start tag (``tag#id.class``) with the ``<details>`` it is inside (None: none) and
    the id of the ``<h2>`` or section before it."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, str | None, str]] = []
        self.open: list[str] = []  # the summaries of the details the parser is inside
        self.where, self.summary, self.summaries = "", None, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("h2", "section", "footer") and attrs.get("id"):
            self.where = attrs["id"]
        name = tag + (f"#{attrs['id']}" if "id" in attrs else "")
        name += f".{attrs['class']}" if "class" in attrs else ""
        self.tags.append((name, self.open[-1] if self.open else None, self.where))
        if tag == "details":
            self.open.append("")
        if tag == "summary":
            self.summary = ""

    def handle_data(self, data):
        if self.summary is not None:
            self.summary += data

    def handle_endtag(self, tag):
        if tag == "summary":
            self.summaries.append(re.sub(r"\s+", " ", self.summary).strip())
            self.open[-1] = self.summaries[-1]
            self.summary = None
        if tag == "details":
            self.open.pop()


#: the first screen of the hand-built dashboard (before the first paper's section), tag by
#: tag, as the page had it before its long parts were collapsed
FIRST_SCREEN = {
    "main": 1, "header": 1, "h1": 1, "p.lede": 2, "span.legend": 1, "span.badge": 11, "a": 9,
    "section#headlines.headlines": 1, "h2": 5, "p.ref": 5, "div.stat": 15, "span.n": 15,
    "span.what": 15, "div.bar": 5, "span": 7, "span.badges": 5, "div.flagged": 1,
    "article#headline-boulle2007.headline": 1, "article#headline-wu2015.headline": 1,
    "article#headline-vidaurre2012.headline": 1, "article#headline-hue2024.headline": 1,
    "article#headline-elovaara2008.headline": 1, "h2#published-vs-reproduced": 1,
    "div.gallery": 1, "figure#figure-boulle2007": 1, "img": 2, "figcaption": 5, "b": 5,
    "figure#figure-wu2015": 1, "figure#figure-vidaurre2012.nofigure": 1,
    "figure#figure-hue2024.nofigure": 1, "figure#figure-elovaara2008.nofigure": 1,
}  # fmt: skip


def first_screen(page: str) -> str:
    return page.split("<body>")[1].split(FIRST_PAPER)[0]


def test_first_screen_unchanged_and_open():
    page = render_html(hand_built(), ROOT, ROOT)
    skeleton = Skeleton(first_screen(page))
    assert dict(Counter(name for name, _, _ in skeleton.tags)) == FIRST_SCREEN
    assert "<details" not in first_screen(page)
    # the committed page: the headlines of every paper, then the figure of each, all open
    committed = (RESULTS / "index.html").read_text()
    top = Skeleton(first_screen(committed))
    ids = [n.split("#")[1].split(".")[0] for n, _, _ in top.tags if "#" in n]
    assert ids == ["headlines", *(f"headline-{p}" for p in papers()), "published-vs-reproduced",
                   *(f"figure-{p}" for p in papers())]  # fmt: skip
    assert "<details" not in first_screen(committed)


#: the parts below the first screen that stay open: short tables of their own heading
OPEN = {"other-experiments", "other-results"}


def test_the_long_parts_are_collapsed_with_a_summary_of_what_they_hold():
    page = (RESULTS / "index.html").read_text()
    rest = Skeleton(FIRST_PAPER + page.split(FIRST_PAPER, 1)[1])
    long_parts = [t for t in rest.tags if t[0] in ("table", "div.gallery")]
    assert len(long_parts) > 30
    for name, inside, where in long_parts:
        assert inside is not None or where in OPEN, (name, where)
    assert not re.search(r"<details[^>]* open", page)  # collapsed
    summaries = rest.summaries
    experiments = [s for s in summaries if s.startswith("Experiments (")]
    assert len(experiments) == len(papers())
    assert all(re.match(r"Experiments \(\d+\): data sets", s) for s in experiments)
    assert sum(s.startswith("Claims (") for s in summaries) == len(papers())
    assert any(re.match(r"Figures \(\d+\)$", s) for s in summaries)
    assert any(re.match(r"Benchmarks \(\d+\)", s) for s in summaries)
    flags = [s for s in summaries if s.startswith("Values to read with care (")]
    counts = [int(re.match(r"Values to read with care \((\d+)", s)[1]) for s in flags]
    # the summary counts the values, as the headline's link does
    linked = [int(n) for n in re.findall(r'<a href="#flags-\w+">(\d+) values? flagged</a>', page)]
    assert counts == linked
    # each flag link lands on its collapsed table
    for p in re.findall(r'<a href="#flags-(\w+)">', page):
        assert f'<details class="flags" id="flags-{p}">' in page
    # one line for abalone19 where every method of boulle2007's Table 3 collapses (seven rows of
    # flags before), the values still counted one by one
    lines = re.findall(r"<tr><td>abalone19</td><td>every method \((\d+)\)</td>", page)
    assert lines and all(int(n) > 1 for n in lines)


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no chromium, chromium-browser or google-chrome on PATH (Debian: chromium)")


HEIGHT = """<script>
window.addEventListener('load', () => {
  const pre = document.createElement('pre');
  pre.id = 'height';
  pre.textContent = document.documentElement.scrollHeight;
  document.body.appendChild(pre);
});
</script>
</body>"""


def test_committed_page_is_short_at_1400_px_in_chromium(tmp_path):
    browser = chromium()
    text = (RESULTS / "index.html").read_text().replace("</body>", HEIGHT)
    # a copy whose relative links are those of results/ (its figures load, and take their room)
    page = tmp_path / "index.html"
    page.write_text(text.replace("<head>", f'<head>\n<base href="{RESULTS.as_uri()}/">', 1))
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--allow-file-access-from-files", "--window-size=1400,900",
         "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    found = re.search(r'<pre id="height">(\d+)</pre>', dom.stdout)
    assert found, dom.stderr[-2000:]
    assert int(found[1]) < 8000  # 25,251 px before the long parts were collapsed; 4,408 after
