"""The dashboard's page on hand-built inputs with known answers (seconds): the headline of each
paper, the intervals of the published-against-reproduced figure, the flagged values, the two
pages rendered from the templates, the figures byte-identical, and in headless Chromium (when
installed) the first screen of 1280×800: the five headline blocks, before any figure, with the
verdict colours."""

import json
import re
import shutil
import subprocess
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT

from repro.report.dashboard.build import dashboard_figures, remove_unreferenced_figures
from repro.report.dashboard.pages import render_html, render_markdown
from repro.report.dashboard.papers import (
    VERDICT_COLOURS,
    draw_paper_figures,
    item_experiments,
    panels,
    paper_summaries,
)
from repro.report.dashboard.points import (
    comparison_points,
    value_flags,
)
from repro.report.paper_data import papers
from repro.report.reproduction import compare_reported, judge
from repro.stats import agreement

PAPERS = papers()


def claim(paper, verdict, n):
    return {
        "claim": f"§{n}: “claim {n}”",
        "verdict": verdict,
        "where": f"evidence {n}",
        "id": f"c{n}",
        "paper": paper,
    }


def point(published, reproduced, agrees, low=None, high=None, **kw):
    return {
        "table": "Table 1",
        "kind": kw.get("kind", "value"),
        "method": "a",
        "dataset": kw.get("dataset", "d1"),
        "metric": kw.get("metric", "accuracy"),
        "published": published,
        "reproduced": reproduced,
        "agrees": agrees,
        "rule": "r",
        "low": low,
        "high": high,
        "published_low": None,
        "published_high": None,
        "on_standins": kw.get("on_standins", False),
        "substitute": kw.get("substitute", False),
    }


def row(name, claims=(), values=None, flags=(), used=3, links=()):
    return {
        "experiment": name,
        "paper": name.split("_")[0] if name.split("_")[0] in PAPERS else "",
        "title": f"title of {name}",
        "folder": name,
        "command": f"python -m repro.report experiment={name}",
        "used": used,
        "published": 4,
        "substitutes": [],
        "missing": [],
        "values": values,
        "claims": list(claims),
        "date": "2026-01-01",
        "revision": "abc1234",
        "n_revisions": 1,
        "links": list(links),
        "bayesian": None,
        "flags": list(flags),
    }


COLLAPSE = {
    "kind": "collapse",
    "dataset": "vowel",
    "method": "nb_mdlg",
    "value": 0.09,
    "majority": 0.091,
    "note": "accuracy 0.090 ≤ the majority rate 0.091: a collapse",
}


def hand_built() -> dict:
    """Five papers, one experiment each (boulle2007 also a variant), known counts."""
    boulle_values = {
        "published": 4,
        "compared": 3,
        "on_standins": 1,
        "within": 2,
        "with_spread": 3,
        "points": [
            point(0.80, 0.81, True, 0.78, 0.84),
            point(0.70, 0.60, False, 0.55, 0.65, substitute=True),
            point(3.0, 2.5, True, 1.5, 3.5, kind="rank"),
            point(0.90, 0.95, None, on_standins=True),
            point(0.5, None, None),
        ],
    }
    wu_values = {
        "published": 2,
        "compared": 2,
        "on_standins": 0,
        "within": 1,
        "with_spread": 2,
        "points": [point(0.2, 0.21, True, 0.1, 0.3), point(0.3, 0.5, False, 0.45, 0.55)],
    }
    rows = [
        row(
            "boulle2007_table3",
            [claim("boulle2007", "holds", 1), claim("boulle2007", "partly", 2)],
            boulle_values,
            [COLLAPSE],
            links=["table3.md"],
        ),
        row("boulle2007_table3_shrink", [], dict(boulle_values), [COLLAPSE]),
        row("wu2015_table2", [claim("wu2015", "does not hold", 3)], wu_values),
        row("vidaurre2012_table1", [claim("vidaurre2012", "holds", 4)]),
        row("hue2024_fig4", [claim("hue2024", "partly", 5)]),
        row("elovaara2008_fig1", [claim("elovaara2008", "does not hold", 6)], used=0),
        row("khiops_agreement"),
    ]
    return {
        "experiments": rows,
        "benchmarks": [],
        "paper_claims": {"boulle2007": [claim("boulle2007", "not testable", 7)]},
    }


def test_headline_of_each_paper():
    summaries = {s["paper"]: s for s in paper_summaries(hand_built())}
    assert list(summaries) == list(PAPERS)
    boulle = summaries["boulle2007"]
    # Table 3 and Fig. 9 of the paper's 15 tables and figures
    assert (boulle["items_reproduced"], boulle["items_total"]) == (2, 15)
    missing = [i["item"] for i in boulle["items"] if not i["reproduced"]]
    assert "Fig. 1" in missing and "Table 3" not in missing and "Fig. 9" not in missing
    # the variant's numbers (the same published table) are not counted twice
    assert boulle["variants"] == ["boulle2007_table3_shrink"]
    assert boulle["numbers"] == {
        "published": 4,
        "compared": 3,
        "on_standins": 1,
        "with_spread": 3,
        "within": 2,
    }
    # the claims of its rows and the one no experiment decides
    assert boulle["claims"] == {"holds": 1, "partly": 1, "does not hold": 0, "not testable": 1}
    assert boulle["n_claims"] == 3
    # the collapse of both rows, once, with both experiments
    (flag,) = boulle["flags"]
    assert flag["experiments"] == ["boulle2007_table3", "boulle2007_table3_shrink"]
    assert boulle["figure"] == "dashboard/boulle2007_published_vs_reproduced.png"
    # no records for elovaara2008_fig1: its Fig. 1 is not reproduced; no published numbers
    elovaara = summaries["elovaara2008"]
    assert (elovaara["items_reproduced"], elovaara["items_total"]) == (0, 2)
    assert elovaara["figure"] is None and not elovaara["has_published"]
    assert summaries["vidaurre2012"]["items_total"] == 10  # Table 3 (StarPlus) not offline


def test_paper_items_name_existing_experiments():
    """Every experiment named by an item exists; the paper configs that recreate no item are
    the five variants."""
    configs = {p.stem for p in (ROOT / "conf" / "experiment").glob("*.yaml")}
    named = {e for paper in PAPERS for e in item_experiments(paper)}
    assert named <= configs
    papers = {c for c in configs if c.split("_")[0] in PAPERS}
    assert papers - named == {
        "boulle2007_table3_shrink",
        "wu2015_table2_density",
        "wu2015_fig3_density",
        "elovaara2008_fig1_no_cut_set_code",
        "elovaara2008_fig1_mdlh_tail",
    }


def records_frame(values: dict) -> pd.DataFrame:
    """Test records: (method, dataset, metric) → the values of its (repetition, fold) runs."""
    rows = [
        {
            "method": m,
            "dataset": d,
            "metric": metric,
            "split": "test",
            "repetition": 0,
            "fold": i,
            "value": v,
        }
        for (m, d, metric), vs in values.items()
        for i, v in enumerate(vs)
    ]
    return pd.DataFrame(rows)


def test_comparison_points_carry_the_interval_of_each_rule():
    rng = np.random.default_rng(0)
    runs = {}
    for d in ("d1", "d2", "d3", "d4", "d5"):
        for m, shift in (("a", 0.0), ("b", 0.05 if d == "d5" else -0.05)):  # b wins on d5
            runs[(m, d, "accuracy")] = 0.8 + shift + 0.02 * rng.standard_normal(10)
    runs[("a", "s", "error")] = np.linspace(0.1, 0.3, 20)  # one-split rule
    runs[("a", "t", "error")] = 0.2 + 0.01 * rng.standard_normal(10)  # mean ± SD rule
    records = records_frame(runs)
    reported = pd.DataFrame(
        [
            ("a", "mean", "accuracy", 0.81, "T1"),
            ("b", "mean", "accuracy", 0.74, "T1"),
            ("a", "rank", "accuracy", 1.2, "T1"),
            ("b", "rank", "accuracy", 1.8, "T1"),
            ("a", "s", "error", 0.25, "T2"),
            ("a", "s", "error_ci95", 0.05, "T2"),
            ("a", "t", "error", 0.21, "T3"),
            ("a", "t", "error_sd", 0.02, "T3"),
        ],
        columns=["method", "dataset", "metric", "value", "table"],
    )
    values = reported[~reported["metric"].str.endswith(("_sd", "_ci95"))]
    judged = judge(compare_reported(values, records), reported, records, published_runs={"T3": 5})
    points = comparison_points(judged, reported, published_runs={"T3": 5})
    by = {(p["method"], p["dataset"], p["metric"]): p for p in points}
    assert len(points) == 6
    per_a = [np.mean(runs[("a", d, "accuracy")]) for d in ("d1", "d2", "d3", "d4", "d5")]
    per_b = [np.mean(runs[("b", d, "accuracy")]) for d in ("d1", "d2", "d3", "d4", "d5")]
    # a is the reference (the table's first method, no W/L rows): its mean is a composition
    # check only, drawn with our mean's bootstrap CI and not counted
    mean = by[("a", "mean", "accuracy")]
    assert (mean["low"], mean["high"]) == pytest.approx(agreement.bootstrap_ci(per_a))
    assert mean["agrees"] is None
    # b: the paper's a − b = 0.07 against our paired differences; the bar is 0.81 − their CI
    mean = by[("b", "mean", "accuracy")]
    low, high = agreement.bootstrap_ci(np.subtract(per_a, per_b))
    assert (mean["low"], mean["high"]) == pytest.approx((0.81 - high, 0.81 - low))
    assert mean["agrees"] == (low <= 0.07 <= high)
    # ranks: ours ± 1.96 SE, the per-data-set ranks' SD over √5 on both sides
    rank = by[("a", "rank", "accuracy")]
    assert [a > b for a, b in zip(per_a, per_b, strict=True)] == [True] * 4 + [False]
    se = np.std([1, 1, 1, 1, 2], ddof=1) * np.sqrt(2 / 5)  # ranks of a: mean 1.2, SD 0.447
    assert rank["reproduced"] == pytest.approx(1.2)
    assert (rank["low"], rank["high"]) == pytest.approx((1.2 - 1.959964 * se, 1.2 + 1.959964 * se))
    split = by[("a", "s", "error")]
    assert (split["low"], split["high"]) == (0.1, 0.3)  # [min, max] of 20 splits
    assert split["agrees"] is True and split["kind"] == "value"
    sd = by[("a", "t", "error")]
    ours = runs[("a", "t", "error")]
    half = 1.959963984540054 * ours.std(ddof=1) / np.sqrt(10)
    assert sd["low"] == pytest.approx(ours.mean() - half)
    assert sd["high"] == pytest.approx(ours.mean() + half)
    half = 1.959963984540054 * 0.02 / np.sqrt(5)
    assert (sd["published_low"], sd["published_high"]) == pytest.approx((0.21 - half, 0.21 + half))


def test_value_flags_collapses_stand_ins_and_substitutes():
    runs = {
        ("nb", "vowel", "accuracy"): [0.09, 0.09],  # at vowel's majority rate: a collapse
        ("snb", "vowel", "accuracy"): [0.6, 0.7],
        ("nb", "big+1000F2D", "accuracy"): [0.95, 0.97],  # below its base set's rate 0.99
        ("nb", "unknown", "accuracy"): [0.01, 0.01],  # no known rate: no flag
        ("nb", "vowel", "auc"): [0.01, 0.01],  # not an accuracy
    }
    records = records_frame(runs).assign(params="")
    majority = {"vowel": 0.091, "big": 0.99}
    flags = value_flags(records, majority, standins={"big+1000F2D"}, substitutes={"vowel"})
    kinds = [(f["kind"], f["dataset"], f["method"]) for f in flags]
    assert kinds == [
        ("stand-in", "big+1000F2D", None),
        ("substitute", "vowel", None),
        ("collapse", "big+1000F2D", "nb"),
        ("collapse", "vowel", "nb"),
    ]
    assert flags[-1]["value"] == 0.09 and flags[-1]["majority"] == 0.091
    assert "0.090 ≤ the majority rate 0.091" in flags[-1]["note"]
    # two configurations of one method: the label names the parameter in which they differ
    two = records_frame({("w", "vowel", "accuracy"): [0.05]}).assign(params='{"p": 1, "q": 0}')
    two = pd.concat([two, two.assign(params='{"p": 2, "q": 0}', value=0.5)])
    (flag,) = value_flags(two, majority)
    assert flag["method"] == "w p=1"


class Order(HTMLParser):
    """The ids of the headline blocks and the first image, in the order of the page."""

    def __init__(self):
        super().__init__()
        self.events, self.styles = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article" and "headline" in (attrs.get("class") or ""):
            self.events.append(attrs["id"])
        if tag == "img":
            self.events.append("img")
        if "style" in attrs:
            self.styles.append(attrs["style"])


def write_hand_built(out: Path) -> dict:
    dashboard = hand_built()
    (out / "boulle2007_table3").mkdir(parents=True)
    (out / "boulle2007_table3" / "table3.md").write_text("table\n")
    draw_paper_figures(dashboard, out)
    (out / "index.html").write_text(render_html(dashboard, out, out))
    (out / "README.md").write_text(render_markdown(dashboard, out, out))
    return dashboard


def test_pages_open_with_the_headlines_and_colour_the_verdicts(tmp_path):
    write_hand_built(tmp_path)
    page = (tmp_path / "index.html").read_text()
    order = Order()
    order.feed(page)
    first_image = order.events.index("img")
    assert order.events[:first_image] == [f"headline-{p}" for p in PAPERS]
    for colour in VERDICT_COLOURS.values():
        assert any(colour in s for s in order.styles)
    assert "2 / 15" in page and "tables and figures reproduced" in page
    # the collapse with its note in the same table row
    (flag_row,) = re.findall(r"<tr><td>vowel</td>.*?</tr>", page, flags=re.DOTALL)
    assert "0.090" in flag_row and "a collapse" in flag_row
    # a paper without published numbers says so in place of its figure
    assert re.search(r'id="figure-elovaara2008" class="nofigure">.*prints no numbers', page)
    assert "<script" not in page and "http" not in page.split("<body>")[1]  # no external asset
    readme = (tmp_path / "README.md").read_text()
    headline = [line for line in readme.splitlines() if line.startswith("| [")]
    assert [re.match(r"\| \[(\w+)\]", line)[1] for line in headline] == list(PAPERS)
    assert headline[0].startswith("| [boulle2007](#paper-boulle2007) | 2 / 15 | 2 / 3 ")
    assert "🟢 1 holds · 🟠 1 partly · ⚪ 1 not testable" in headline[0]
    assert "| vowel | nb_mdlg | 0.090 | accuracy 0.090 ≤ the majority rate 0.091" in readme
    assert readme.index("## Published against reproduced") > readme.index(headline[-1])
    assert readme.index("## About this folder") > readme.index("## Benchmarks")
    # the figures of the dashboard's folder: the three papers with compared numbers
    assert dashboard_figures(hand_built()) == {
        "boulle2007_published_vs_reproduced.png",
        "wu2015_published_vs_reproduced.png",
    }


def test_paper_figure_is_deterministic(tmp_path):
    dashboard = hand_built()
    first = draw_paper_figures(dashboard, tmp_path / "a")
    second = draw_paper_figures(dashboard, tmp_path / "b")
    assert [p.name for p in first] == [
        "boulle2007_published_vs_reproduced.png",
        "wu2015_published_vs_reproduced.png",
    ]
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes()
        assert b"Software" not in a.read_bytes() and b"Creation" not in a.read_bytes()
    # one panel per metric of the values, then the ranks; points without a value left out
    points = [p for p in hand_built()["experiments"][0]["values"]["points"] if p["reproduced"]]
    assert list(panels(points)) == ["accuracy", "average ranks"]
    (tmp_path / "a" / "dashboard" / "old_vs_b.png").write_bytes(b"png")
    stale = remove_unreferenced_figures(tmp_path / "a" / "dashboard", dashboard_figures(dashboard))
    assert stale == [tmp_path / "a" / "dashboard" / "old_vs_b.png"]


def test_templates_are_package_data():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "report/templates/*.j2" in pyproject["tool"]["setuptools"]["package-data"]["repro"]
    names = {p.name for p in (ROOT / "repro" / "report" / "templates").glob("*.j2")}
    assert names == {"dashboard.html.j2", "dashboard.md.j2"}


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no chromium, chromium-browser or google-chrome on PATH (Debian: chromium)")


def screenshot(page: Path, png: Path, width: int = 1280, height: int = 800) -> None:
    """``page`` as Chromium shows it in a window of ``width`` × ``height`` (the first screen)."""
    subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--allow-file-access-from-files", f"--window-size={width},{height}",
         f"--screenshot={png}", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip


def verdict_pixels(png: Path) -> dict[str, int]:
    """Per verdict, the pixels of the PNG in its colour (exactly)."""
    from PIL import Image

    pixels = np.asarray(Image.open(png).convert("RGB")).reshape(-1, 3)
    out = {}
    for verdict, colour in VERDICT_COLOURS.items():
        rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        out[verdict] = int(np.all(pixels == rgb, axis=1).sum())
    return out


def test_first_screen_in_chromium_shows_the_headlines(tmp_path):
    browser = chromium()
    write_hand_built(tmp_path)
    page = tmp_path / "index.html"
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,800",
         "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    order = Order()
    order.feed(dom)
    assert order.events[: len(PAPERS)] == [f"headline-{p}" for p in PAPERS]
    png = tmp_path / "first_screen.png"
    screenshot(page, png)
    from PIL import Image

    assert Image.open(png).size == (1280, 800)
    counts = verdict_pixels(png)
    # every verdict's badge (a few hundred pixels each) on the first screen
    assert all(n > 200 for n in counts.values()), counts
    # and not in an empty page of the same size (the count is of the badges)
    (tmp_path / "blank.html").write_text("<html><body></body></html>")
    screenshot(tmp_path / "blank.html", tmp_path / "blank.png")
    assert set(verdict_pixels(tmp_path / "blank.png").values()) == {0}


def test_rows_json_round_trip_renders_the_same(tmp_path):
    """The pages of the rows stored in rows.json are those of the rows (update_dashboard)."""
    dashboard = hand_built()
    stored = json.loads(json.dumps(dashboard))
    assert render_html(stored, tmp_path, tmp_path) == render_html(dashboard, tmp_path, tmp_path)
