"""``python -m repro.report all``: the results dashboard (repro.report.dashboard.build) on the
committed results: one row per experiment config and per benchmark, counts checked against values
computed here from the files, the consistency failures, links and figures (in Python, and in
headless Chromium when installed), and the committed results/README.md + index.html up to date."""

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from conftest import ROOT, read_stored, stored_files

from repro.report.__main__ import main
from repro.report.dashboard.benchmarks import BENCHMARKS, benchmark_rows
from repro.report.dashboard.build import collect, update_dashboard, write_dashboard
from repro.report.dashboard.claims import write_claims_csv
from repro.report.dashboard.inputs import (
    DashboardError,
    check_consistency,
    dashboard_configs,
    git_date,
)
from repro.report.dashboard.pages import render_html, render_markdown

RESULTS = ROOT / "results"
CONF = ROOT / "conf" / "experiment"


@pytest.fixture(scope="module")
def configs():
    return dashboard_configs()


@pytest.fixture(scope="module")
def built(tmp_path_factory, configs):
    """The dashboard of the committed results, written into a temporary folder."""
    out = tmp_path_factory.mktemp("dashboard")
    claims = committed_claims()
    dashboard = collect(RESULTS, figures_dir=out, configs=configs, claims=claims)
    write_dashboard(dashboard, RESULTS, out)
    write_claims_csv(claims, out)  # as generate_dashboard does: the pages link it
    return dashboard, out


def committed_claims() -> pd.DataFrame:
    """results/claims.csv, which tests/test_readme.py recomputes from the records when it runs
    ``python -m repro.report all`` (the rows here need not decide every claim again)."""
    return pd.read_csv(RESULTS / "claims.csv", keep_default_na=False)


def row_of(dashboard, name):
    (row,) = [r for r in dashboard["experiments"] if r["experiment"] == name]
    return row


def datasets_with_records(folder: Path) -> set[str]:
    return {p.parent.name for p in stored_files(folder)}


def test_one_row_per_experiment_config_and_benchmark(built):
    dashboard, out = built
    configs = {p.stem for p in CONF.glob("*.yaml")}
    templates = {
        p.stem for p in CONF.glob("*.yaml") if "dashboard: false" in p.read_text()
    }  # example_baselines
    assert templates == {"example_baselines"}
    names = [r["experiment"] for r in dashboard["experiments"]]
    assert sorted(names) == sorted(configs - templates)
    readme = (out / "README.md").read_text()
    rows = re.findall(r"^\| \*\*(\w+)\*\*", readme, flags=re.MULTILINE)
    assert sorted(rows) == sorted(configs - templates)
    logs = sorted(p.stem for p in (RESULTS / "benchmarks").glob("*.txt"))
    assert [b["benchmark"] for b in dashboard["benchmarks"]] == logs
    html_page = (out / "index.html").read_text()
    for name in configs - templates:
        assert f"<b>{name}</b>" in html_page
    for log in logs:
        assert f"benchmarks/{log}.txt" in readme and f"benchmarks/{log}.txt" in html_page


def test_boulle2007_table4_data_sets(built):
    """Two generated stand-ins ran; the paper's ten challenge sets are all missing."""
    row = row_of(built[0], "boulle2007_table4")
    used = datasets_with_records(RESULTS / "boulle2007_table4")
    assert used == {"madelon_like+1000F2D", "waveform_noise+1000F2D"}
    challenge = ["arcene", "dexter", "dorothea", "gisette", "madelon"]
    challenge += ["ada", "gina", "hiva", "nova", "sylva"]
    assert (row["used"], row["published"]) == (2, 10)
    assert row["substitutes"] == sorted(used)
    assert row["missing"] == sorted(challenge)


def test_boulle2007_table3_data_sets_and_values(built):
    row = row_of(built[0], "boulle2007_table3")
    assert row["used"] == len(datasets_with_records(RESULTS / "boulle2007_table3")) == 25
    # the 25 of the sweep + the 5 OpenML-only sets of the paper's Table 1
    assert row["published"] == 30
    assert row["missing"] == ["hepatitis", "horsecolic", "hypothyroid", "sickeuthyroid", "thyroid"]
    reported = pd.read_csv(ROOT / "experiments" / "boulle2007" / "reported.csv")
    table3 = reported[reported["table"] == "Table 3"]
    assert row["values"]["published"] == len(table3) == 78
    assert row["values"]["compared"] == 78  # every method ran on every data set
    # the numbers that agree by their rule: the sum of what REPRODUCTION.md states per kind
    text = (RESULTS / "boulle2007_table3" / "REPRODUCTION.md").read_text()
    kinds = re.findall(r"\*\*(\d+) of (\d+) agree\*\*", text)
    assert len(kinds) == 3  # means, average ranks, W/L counts
    agree, decided = (sum(int(k[i]) for k in kinds) for i in (0, 1))
    assert (row["values"]["within"], row["values"]["with_spread"]) == (agree, decided) != (0, 0)


def test_wu2015_table2_published_values(built):
    """Published errors (one split each) against our 20 per-split errors of the same cell."""
    row = row_of(built[0], "wu2015_table2")
    reported = pd.read_csv(ROOT / "experiments" / "wu2015" / "reported.csv")
    values = reported[~reported["metric"].str.endswith("_ci95")]
    assert row["values"]["published"] == len(values) == 152
    folder = RESULTS / "wu2015_table2"
    acc, split_errors = {}, {}
    for path in stored_files(folder):
        frame = read_stored(path, ["split", "metric", "value"])
        test = frame[(frame["split"] == "test") & (frame["metric"] == "accuracy")]
        acc[(path.stem, path.parent.name)] = 1 - test["value"].mean()
        split_errors[(path.stem, path.parent.name)] = 1 - test["value"].to_numpy()
    errors = reported[reported["metric"] == "error"].set_index(["method", "dataset"])["value"]
    compared = [k for k in errors.index if k in acc]
    assert len(compared) == 14 * 4  # 15 offline sets, lymph_binary is not the paper's lymph
    assert row["values"]["compared"] == len(compared)
    # one published split against our 20: agrees inside [min, max] of our per-split errors
    # (the order-statistics prediction interval of one more split, coverage 19/21)
    within = sum(min(split_errors[k]) <= errors[k] <= max(split_errors[k]) for k in compared)
    assert (row["values"]["within"], row["values"]["with_spread"]) == (within, len(compared))
    assert 0 < within < len(compared)
    assert f"**{within} of {len(compared)} agree**" in (folder / "REPRODUCTION.md").read_text()
    assert row["substitutes"] == ["lymph_binary"]
    assert row["missing"] == ["anneal", "audiology", "hepatitis", "sick"]


def test_run_date_and_revision_from_the_records(built):
    row = row_of(built[0], "boulle2007_table4")
    frames = [
        read_stored(p, ["timestamp", "git_revision"])
        for p in stored_files(RESULTS / "boulle2007_table4")
    ]
    stamps = pd.concat(frames)
    latest = stamps.loc[stamps["timestamp"] == stamps["timestamp"].max()]
    assert row["date"] == stamps["timestamp"].max()[:10] == "2026-11-23"
    assert row["revision"] == latest["git_revision"].iloc[0]


def test_run_date_from_git_without_records(tmp_path):
    """A folder without records: the last commit touching it; outside git: unknown."""
    date, revision = git_date(RESULTS / "benchmarks")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) and re.fullmatch(r"[0-9a-f]{7,}", revision)
    assert git_date(tmp_path) == ("unknown", "unknown")


def test_each_claim_counted_once_on_the_row_of_its_experiment(built):
    dashboard = built[0]
    table = committed_claims()
    on_rows = [c for row in dashboard["experiments"] for c in row["claims"]]
    elsewhere = [c for claims in dashboard["paper_claims"].values() for c in claims]
    assert len(on_rows) + len(elsewhere) == len(table)
    listed = [(c["paper"], c["id"]) for c in on_rows + elsewhere]
    assert sorted(listed) == sorted(zip(table["paper"], table["claim_id"]))  # each once
    # elovaara2008's claims are decided on Figure 1's records only: the fig2 row has none
    assert row_of(dashboard, "elovaara2008_fig2")["claims"] == []
    fig1 = row_of(dashboard, "elovaara2008_fig1")["claims"]
    assert len(fig1) == (table["experiment"] == "elovaara2008_fig1").sum() > 0
    # an entry is the paper's section and quote, its verdict, and the evidence
    first = table[table["experiment"] == "elovaara2008_fig1"].iloc[0]
    assert fig1[0]["claim"] == f"{first['section']}: “{first['quote']}”"
    assert fig1[0]["verdict"] == first["verdict"]
    assert fig1[0]["where"].startswith(first["evidence"])
    # claims on stand-in data say so
    standin = table[(table["data"] == "stand-in") & (table["experiment"] != "")].iloc[0]
    (entry,) = [
        c
        for c in row_of(dashboard, standin["experiment"])["claims"]
        if c["id"] == standin["claim_id"]
    ]
    assert entry["where"].endswith("(on stand-in data)")


def test_bayesian_comparison_of_the_reference(built):
    dashboard, out = built
    row = row_of(dashboard, "wu2015_table2")
    bayes = row["bayesian"]
    assert (bayes["reference"], bayes["metric"]) == ("bma_nb_tuned", "accuracy")
    assert [r["method"] for r in bayes["rows"]] == ["nb_laplace", "lr_tuned", "svm_tuned"]
    assert bayes["n_datasets"] == len(datasets_with_records(RESULTS / "wu2015_table2")) == 15
    for r in bayes["rows"]:
        total = r["p_reference_better"] + r["p_equivalent"] + r["p_other_better"]
        assert total == pytest.approx(1, abs=2e-3)  # three probabilities rounded to 3 decimals
    assert (out / bayes["figure"]).stat().st_size > 0
    with_bayes = {r["experiment"] for r in dashboard["experiments"] if r["bayesian"]}
    with_key = {p.stem for p in CONF.glob("*.yaml") if "  bayesian:" in p.read_text()}
    assert with_bayes == with_key


def test_benchmark_headline_ratios(tmp_path):
    """The latest headline of each log, as printed there."""
    ratios = {b["benchmark"]: b["ratio"] for b in benchmark_rows(RESULTS)}
    assert set(ratios) == set(BENCHMARKS)
    assert ratios["bench_histograms"] == 4.9  # nb_mdlh wall / Gaussian, letter
    assert ratios["bench_modl"] == 0.147  # N = 5000, K = 40, not the later N = 20000 run
    assert ratios["bench_scale"] == 0.121  # shape (b), the last of two n_jobs=1 lines
    assert ratios["bench_fsnb"] == 3.69  # p = 2000
    assert ratios["bench_bma_nb"] == 1.20
    assert ratios["bench_grouping"] == 0.197  # census_income_kdd, fnb_khiops / Khiops CPU
    assert ratios["bench_fit_memory"] == 1.94  # snb_cma at 100k F(2D); fnb_khiops 1.68
    assert ratios["bench_busy"] == 1.02  # beside 2 CPU-bound processes; not the policy-off run
    assert ratios["bench_rerun"] == 9.3  # seconds, boulle2007_table3 re-run, 175 cells finished
    assert ratios["bench_report_all"] == 0.41  # report all, packed / loose, wall (the last run)
    text = (RESULTS / "benchmarks" / "bench_snb_scale.txt").read_text()
    per_core = re.findall(r"(\S+) per core \(goal", text)  # one line per K, the largest last
    assert ratios["bench_snb_scale"] == float(per_core[-1])
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "bench_new.txt").write_text("speed-up 3x\n")
    with pytest.raises(DashboardError, match="bench_new.txt.*add it to"):
        benchmark_rows(tmp_path)
    (tmp_path / "benchmarks" / "bench_new.txt").rename(tmp_path / "benchmarks" / "bench_modl.txt")
    with pytest.raises(DashboardError, match="matches nothing"):
        benchmark_rows(tmp_path)


def linked_results(tmp_path, leave_out=()) -> Path:
    """A results folder of symbolic links to the committed folders (without ``leave_out``)."""
    results = tmp_path / "results"
    results.mkdir()
    for folder in RESULTS.iterdir():
        if folder.is_dir() and folder.name not in leave_out and folder.name != "dashboard":
            (results / folder.name).symlink_to(folder, target_is_directory=True)
    return results


def test_a_config_without_results_fails_only_when_the_dashboard_must_be_complete(tmp_path, capsys):
    results = linked_results(tmp_path, leave_out=("wu2015_fig2",))
    argv = ["all", f"results={results}", f"out={tmp_path / 'out'}", "complete=true"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "config(s) with no results folder" in err and "wu2015_fig2" in err
    assert not (tmp_path / "out").exists()
    assert main(["all", "nosuch=1"]) == 2


def test_the_dashboard_of_a_folder_shows_the_experiments_it_holds(tmp_path):
    """Issue 27: a folder of your own runs (here one experiment's records) gets its dashboard."""
    results = tmp_path / "mine"
    results.mkdir()
    (results / "khiops_agreement").symlink_to(RESULTS / "khiops_agreement")
    with pytest.warns(UserWarning, match="left out of its dashboard: .*wu2015_table2"):
        assert main(["all", f"results={results}", f"out={tmp_path / 'out'}"]) == 0
    page = (tmp_path / "out" / "README.md").read_text()
    assert "**khiops_agreement**" in page and "**wu2015_table2**" not in page


def test_a_results_folder_without_config_fails(tmp_path, configs):
    results = linked_results(tmp_path)
    (results / "nosuch_fig9").mkdir()
    # the main job's folder is not an experiment's: allowed (CI made it before the suite)
    (results / "default").mkdir(exist_ok=True)
    with pytest.raises(DashboardError, match=r"no experiment config names: nosuch_fig9 \("):
        check_consistency(results, configs)
    (results / "nosuch_fig9").rmdir()
    check_consistency(results, configs)  # hue2024_cells: the store its configs name


def test_the_report_of_an_experiment_refreshes_the_dashboard(tmp_path, monkeypatch):
    """generate_report into the default results folder calls the dashboard's update; here the
    folder holds one experiment, so the dashboard is refused with a warning, the report kept."""
    from repro.report.generate import generate_report

    shutil.copytree(RESULTS / "vidaurre2012_fig6", tmp_path / "results" / "vidaurre2012_fig6",
                    ignore=shutil.ignore_patterns("*.md", "*.png", "*.pdf", "*.csv"))  # fmt: skip
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="dashboard not regenerated: experiment config"):
        written = generate_report("vidaurre2012_fig6")
    assert Path("results", "vidaurre2012_fig6", "REPRODUCTION.md") in written
    assert not (tmp_path / "results" / "README.md").exists()


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.targets, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.targets += [attrs[k] for k in ("href", "src") if k in attrs]
        if "id" in attrs:
            self.ids.add(attrs["id"])


def test_every_link_resolves(built):
    _, out = built
    parser = Links()
    parser.feed((out / "index.html").read_text())
    assert len(parser.targets) > 100
    for target in parser.targets:
        if target.startswith("#"):
            assert target[1:] in parser.ids, target
        else:
            assert (out / target).is_file(), target
    readme = (out / "README.md").read_text()
    targets = re.findall(r"(?<!\\)\]\(([^)\s]+)\)", readme)  # an escaped \] is no link
    assert len(targets) > 100
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', readme))
    for target in targets:
        if target.startswith("#"):
            assert target[1:] in anchors, target
        else:
            assert (out / target).is_file(), target


CHECK = """<script>
window.addEventListener('load', () => {
  const images = [...document.images];
  const bad = images.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src);
  const pre = document.createElement('pre');
  pre.id = 'imagecheck';
  pre.textContent = JSON.stringify({n: images.length, bad: bad});
  document.body.appendChild(pre);
});
</script>
</body>"""


def test_headless_browser_loads_every_figure(built):
    browser = next(
        (
            shutil.which(b)
            for b in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(b)
        ),
        None,
    )
    if browser is None:
        pytest.skip("no chromium, chromium-browser or google-chrome on PATH (Debian: chromium)")
    _, out = built
    page = out / "browser_check.html"  # beside index.html: the same relative links
    page.write_text((out / "index.html").read_text().replace("</body>", CHECK))
    proc = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
         "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    found = re.search(r'<pre id="imagecheck">(.*?)</pre>', proc.stdout)
    assert found, proc.stderr[-2000:]
    result = json.loads(found[1].replace("&quot;", '"'))
    # every PNG of the experiments' folders (in the galleries), the simplex plots and the
    # papers' published-against-reproduced figures
    folders = {r["folder"] for r in built[0]["experiments"]}
    pngs = sum(len(list((RESULTS / f).glob("*.png"))) for f in folders)
    pngs += len(list((out / "dashboard").glob("*.png")))
    assert result["n"] == pngs
    assert result["bad"] == []


def test_committed_dashboard_is_up_to_date(built):
    dashboard, out = built
    assert (RESULTS / "README.md").read_text() == render_markdown(dashboard, RESULTS, RESULTS)
    assert (RESULTS / "index.html").read_text() == render_html(dashboard, RESULTS, RESULTS)
    stored = json.loads((RESULTS / "dashboard" / "rows.json").read_text())
    assert stored == json.loads((out / "dashboard" / "rows.json").read_text())
    for row in dashboard["experiments"]:
        if row["bayesian"]:
            assert (RESULTS / row["bayesian"]["figure"]).is_file()


def test_update_recomputes_one_row_to_the_full_result(built, configs, tmp_path):
    """The report of one experiment (generate_report's hook) rewrites the same dashboard."""
    dashboard, out = built
    results = linked_results(tmp_path)
    (results / "dashboard").mkdir()
    shutil.copy(out / "dashboard" / "rows.json", results / "dashboard" / "rows.json")
    written = update_dashboard("vidaurre2012_fig1", results, configs)
    assert [p.name for p in written] == ["README.md", "index.html", "rows.json"]
    assert (results / "README.md").read_text() == render_markdown(dashboard, RESULTS, RESULTS)
    assert (results / "index.html").read_text() == render_html(dashboard, RESULTS, RESULTS)
    assert update_dashboard("example_baselines", results, configs) == []  # not on it


def test_figures_the_page_no_longer_shows_are_removed(tmp_path):
    from repro.report.dashboard.build import remove_unreferenced_figures

    for name in ("kept_vs_a.png", "old_vs_b.png"):
        (tmp_path / name).write_bytes(b"png")
    (tmp_path / "rows.json").write_text("{}")
    assert remove_unreferenced_figures(tmp_path, {"kept_vs_a.png"}) == [tmp_path / "old_vs_b.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept_vs_a.png", "rows.json"]


def test_report_all_shared_by_two_processes_writes_what_one_process_writes(
    tmp_path, monkeypatch, capsys
):
    """``report all`` shares its tasks with a second process (two cores or more): the pages,
    rows, figures and claims are byte for byte those of one process, and the claims those of
    the experiments shown (the claims no experiment decides among them)."""
    import multiprocessing

    from repro.config import paths
    from repro.report.dashboard.claims import all_claims
    from repro.runtime import shared_tasks

    results = tmp_path / "mine"
    results.mkdir()
    # vidaurre2012_table4 reads table1's and table2's records: one task with them
    shown = ["wu2015_fig2", "boulle2007_table4", *(f"vidaurre2012_table{k}" for k in (1, 2, 4))]
    for folder in shown:
        (results / folder).symlink_to(RESULTS / folder)
    outputs = {}
    for cores in (2, 1):
        monkeypatch.setattr(shared_tasks, "allowed_cores", lambda cores=cores: cores)
        out = tmp_path / f"out{cores}"
        with pytest.warns(UserWarning, match="left out of its dashboard"):
            assert main(["all", f"results={results}", f"out={out}"]) == 0
        outputs[cores] = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        assert not multiprocessing.active_children()  # the second process ended with the run
    assert outputs[2] == outputs[1]
    said = capsys.readouterr()
    claims = pd.read_csv(tmp_path / "out1" / "claims.csv", keep_default_na=False)["verdict"]
    headline = said.out.splitlines()[-1]
    assert headline.startswith(f"dashboard of {len(shown)} experiments: ")
    for verdict, n in claims.value_counts().items():
        assert f"{n} {verdict}" in headline
    assert "report all: 5 experiments and 222 claims" in said.err  # progress
    assert any(p.suffix == ".png" for p in outputs[2])  # figures drawn by either process
    expected = all_claims(paths().published, results, set(shown))
    written = pd.read_csv(tmp_path / "out2" / "claims.csv", keep_default_na=False)
    pd.testing.assert_frame_equal(written, expected.astype(written.dtypes.to_dict()))
    assert set(written["experiment"]) == {"", *shown}


def test_a_benchmark_headline_is_dated_by_the_run_that_printed_it(tmp_path):
    """A log appended to by two runs: the ratio and the date are the second run's."""
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "bench_report_all.txt").write_text(
        "# run (2026-11-01, 2 cores)\nbest wall 3 s / 4 s = ratio 0.75\n"
        "# run (2026-12-04, 2 cores)\nbest wall 1 s / 4 s = ratio 0.25\n"
        "# a note written later, dated 2027-01-01, with no headline\n"
    )
    (row,) = benchmark_rows(tmp_path)
    assert (row["ratio"], row["date"]) == (0.25, "2026-12-04")


def test_your_own_runs_are_listed_as_other_results_not_refused(tmp_path, monkeypatch):
    """A folder no experiment config names (``experiment_name=my_runs``) is listed under "Other
    results" with its record files and the command that compares them; the package's own
    dashboard (``complete=true``) still refuses a stray folder."""
    from repro.report.dashboard import build
    from repro.runtime import shared_tasks

    monkeypatch.setattr(shared_tasks, "allowed_cores", lambda: 1)
    results = tmp_path / "results"
    (results / "my_runs" / "iris").mkdir(parents=True)
    (results / "wu2015_fig2").symlink_to(RESULTS / "wu2015_fig2")
    cell = stored_files(RESULTS / "wu2015_fig2")[0]
    read_stored(cell).to_parquet(results / "my_runs" / "iris" / "nb.parquet", index=False)
    out = tmp_path / "out"
    with pytest.warns(UserWarning, match="left out of its dashboard"):
        build.generate_dashboard(results, out)
    rows = json.loads((out / "dashboard" / "rows.json").read_text())
    assert rows["other_results"] == [{
        "folder": "my_runs", "record_files": 1,
        "command": f"python -m repro.report compare results={results / 'my_runs'} metric=accuracy",
    }]  # fmt: skip
    text = (out / "README.md").read_text()
    assert "## Other results" in text and "| my_runs | 1 |" in text
    assert "other-results" in (out / "index.html").read_text()
    with pytest.raises(DashboardError, match="no experiment config names: my_runs"):
        build.generate_dashboard(results, tmp_path / "strict", complete=True)
