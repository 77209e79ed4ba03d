"""The third battery's cases on outputs (issue 46): results folders and records handed over by
someone else, and what the reports write from them. Each test is one case of the issue with its
known verdict: a link planted in an output folder is replaced, never followed; a FIFO does not
block ``compare``; a planted ``.git`` runs nothing; names holding HTML, table bars, newlines, NUL,
LaTeX or formulas reach the Markdown, HTML, LaTeX and CSV files inert, and ANSI escapes never
reach the terminal; a name of any length gives short file names and a drawable figure; a full
disk or a read-only folder leaves the previous report byte-identical with a one-line error."""

from __future__ import annotations

import csv
import errno
import json
import os
import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from conftest import ROOT, can_mount_read_only, markdown_cells, run_module

from repro.evaluation import guarded
from repro.evaluation.records import read_records

#: a name holding every kind of active content the issue lists
HOSTILE = (
    "<script>alert(1)</script><img src=x onerror=alert(2)><svg onload=alert(3)>"
    "|x\n# Injected\x00\x01\x1b[2J\x1b]52;c;ZXZpbA==\x07"
)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class _Tags(HTMLParser):
    """The start tags and attribute names of a text read as HTML."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: Counter = Counter()
        self.attributes: set[str] = set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1
        self.attributes |= {name for name, _ in attrs}


def _tables_keep_their_columns(text: str) -> None:
    """Every row of every Markdown table of ``text`` has as many cells as its header."""
    width = None
    for line in text.splitlines():
        if not line.startswith("|"):
            width = None
        elif width is None:
            width = len(markdown_cells(line))
        else:
            assert len(markdown_cells(line)) == width, line[:200]


def _records(tmp_path: Path, methods: dict, datasets: dict, folder: str = "hostile") -> Path:
    """boulle2007_table4's test accuracies (2 data sets, 10 folds) with methods and data sets
    renamed, one loose Parquet file per cell, as someone else's results folder holds them."""
    frame = read_records(ROOT / "results" / "boulle2007_table4")
    frame = frame[(frame["split"] == "test") & (frame["metric"] == "accuracy")]
    frame = frame[frame["method"].isin(methods)].copy()
    frame["method"] = frame["method"].map(methods)
    frame["dataset"] = frame["dataset"].map(datasets)
    root = tmp_path / folder
    for i, (_, cell) in enumerate(frame.groupby(["dataset", "method"])):
        path = root / f"d{i // len(methods)}" / f"m{i % len(methods)}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        cell.to_parquet(path, index=False)
    return root


DATASETS = {
    "madelon_like+1000F2D": "=cmd|' /C calc'!A0" + HOSTILE,
    "waveform_noise+1000F2D": "@SUM(1)",
}
METHODS = {
    "nb": HOSTILE,
    "nb_ef": "+1+2<b>",
    "snb_cma": "-x\\input{/etc/passwd}",
    "snb_map": "m" * 300,
}


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """``compare`` (frequentist) of a folder whose every name is hostile: (process, out)."""
    tmp_path = tmp_path_factory.mktemp("compare")
    results = _records(tmp_path, METHODS, DATASETS)
    out = tmp_path / "out"
    done = run_module("repro.report", "compare", f"results={results}", "metric=accuracy",
                      f"out={out}", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done, out


def test_compare_markdown_carries_no_html_heading_or_control_character(compared):
    """Before: the "Data sets" line of compare's Markdown held the raw names (an
    ``<img onerror>``, a newline starting a heading, a NUL)."""
    _, out = compared
    text = (out / "compare_accuracy_bergmann.md").read_text()
    assert _Tags(text).tags == Counter()  # not one tag: every < is an entity
    assert not CONTROL.search(text)
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert [h.split(" (")[0].split(" of ")[0] for h in headings] == [
        "# Comparison", "## Average ranks", "## Friedman test", "## Adjusted p-values",
        "## Pairs sorted by raw p"]  # fmt: skip
    _tables_keep_their_columns(text)
    (line,) = [line for line in text.splitlines() if line.startswith("Data sets (2): ")]
    assert "&lt;img src=x onerror=alert(2)&gt;" in line and "# Injected" in line


def test_compare_csv_cells_are_not_formulas(compared):
    _, out = compared
    for name in ("compare_accuracy_bergmann.csv", "compare_accuracy_bergmann_pairs.csv"):
        with (out / name).open(newline="") as f:
            rows = list(csv.reader(f))
        cells = [c for row in rows for c in row]
        assert len(cells) > 20
        for cell in cells:
            if cell[:1] in ("=", "+", "-", "@"):
                float(cell)  # only a number may start so (a negative z)
    with (out / "compare_accuracy_bergmann.csv").open(newline="") as f:
        header = next(csv.reader(f))
    assert "'+1+2<b>" in header and "'-x\\input{/etc/passwd}" in header


def test_compare_prints_no_escape_sequence(compared):
    done, _ = compared
    assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stdout + done.stderr
    assert "Average ranks:" in done.stdout


def test_a_300_character_name_gives_short_file_names_in_the_bayesian_comparison(tmp_path):
    """Before: "File name too long" from baycomp's simplex plot of a 300-character method."""
    results = _records(tmp_path, {"nb": "m" * 300, "snb_cma": "<b>" + "r" * 300}, DATASETS)
    out = tmp_path / "out"
    done = run_module("repro.report", "compare", f"results={results}", "metric=accuracy",
                      "test=bayesian", "reference=" + "m" * 300, "nsamples=1000", f"out={out}",
                      cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (png,) = out.glob("*.png")
    assert len(png.name.encode()) <= 255 and png.stat().st_size > 1000
    text = (out / "compare_accuracy_bayesian.md").read_text()
    assert _Tags(text).tags == Counter()
    assert f"![{'m' * 59}… vs &lt;b&gt;{'r' * 56}…]({png.name})" in text


def test_a_name_of_2_million_characters_is_skipped_with_one_line(tmp_path):
    """Before: ``compare`` peaked at 4.4 GB reading records whose method name had 2,000,000
    characters (copied into every row). A name longer than 4,096 characters is not a name: the
    file is skipped with a one-line warning naming it, and the rest compared."""
    results = _records(tmp_path, {"nb": "L" * 2_000_000, "nb_ef": "nb_ef", "snb_cma": "snb_cma"},
                       {k: k for k in DATASETS})  # fmt: skip
    done = run_module("repro.report", "compare", f"results={results}", "metric=accuracy",
                      f"out={tmp_path / 'out'}", cwd=tmp_path, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    skipped = [line for line in done.stderr.splitlines() if "2,000,000 characters" in line]
    assert len(skipped) == 2  # one line per file of that method (2 data sets)
    assert all(len(line) < 300 and "(at most 4,096)" in line for line in skipped)
    assert "L" * 100 not in done.stdout + done.stderr


def test_a_name_of_4000_characters_draws_a_cut_label(tmp_path):
    """Before: matplotlib ran out of memory laying out a very long method name (200,000
    characters then; a name is at most 4,096 now, still too long for a label)."""
    long = "L" * 4_000
    results = _records(tmp_path, {"nb": long, "nb_ef": "nb_ef", "snb_cma": "snb_cma"},
                       {k: k for k in DATASETS})  # fmt: skip
    out = tmp_path / "out"
    done = run_module("repro.report", "compare", f"results={results}", "metric=accuracy",
                      f"out={out}", cwd=tmp_path, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    png = out / "compare_accuracy_bergmann_cd.png"
    assert 1000 < png.stat().st_size < 200_000  # a figure of normal size, the label cut


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_named_like_a_record_does_not_block_compare(tmp_path):
    results = _records(tmp_path, {"nb": "nb", "nb_ef": "nb_ef"}, {k: k for k in DATASETS})
    os.mkfifo(results / "trap.parquet")
    os.mkfifo(results / "d0" / "m9.parquet")
    done = run_module("repro.report", "compare", f"results={results}", "metric=accuracy",
                      f"out={tmp_path / 'out'}", cwd=tmp_path, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "accuracy (higher is better); 2 data sets" in done.stdout


def _small_results(tmp_path: Path, name: str = "results") -> Path:
    """A results folder of one cheap experiment (wu2015_fig2), copied."""
    results = tmp_path / name
    shutil.copytree(ROOT / "results" / "wu2015_fig2", results / "wu2015_fig2")
    for path in (results / "wu2015_fig2").iterdir():
        if path.suffix != ".parquet":
            path.unlink()
    return results


@pytest.fixture(scope="module")
def configs():
    """The experiments' configurations of the dashboard, composed once (Hydra)."""
    from repro.report.dashboard import build

    return build.dashboard_configs()


def _report_all(results: Path, out: Path, monkeypatch, configs) -> None:
    """``python -m repro.report all results=... out=...`` in this process, on one core."""
    from repro.report.dashboard import build
    from repro.runtime import shared_tasks

    monkeypatch.setattr(shared_tasks, "allowed_cores", lambda: 1)
    monkeypatch.setattr(build, "shared_configs", lambda sharing: dict(configs))
    with pytest.warns(UserWarning, match="left out of its dashboard"):
        build.generate_dashboard(results, out)


def test_report_all_replaces_planted_links_and_leaves_their_targets(tmp_path, monkeypatch, configs):
    """Before: ``index.html`` planted as a link made ``report all`` overwrite the user's file,
    and a stale dashboard image link removed the file it pointed to."""
    results = _small_results(tmp_path)
    victim = tmp_path / "victim"
    victim.mkdir()
    mine = {"page.html": b"my page", "notes.md": b"my notes", "claims.csv": b"a,b", "pic.png": b"x"}
    for name, data in mine.items():
        (victim / name).write_bytes(data)
    out = tmp_path / "out"
    (out / "dashboard").mkdir(parents=True)
    (out / "index.html").symlink_to(victim / "page.html")
    (out / "README.md").symlink_to(victim / "notes.md")
    (out / "claims.csv").symlink_to(victim / "claims.csv")
    (out / "dashboard" / "stale_figure.png").symlink_to(victim / "pic.png")
    _report_all(results, out, monkeypatch, configs)
    assert {p.name: p.read_bytes() for p in victim.iterdir()} == mine
    for name in ("index.html", "README.md", "claims.csv"):
        assert not (out / name).is_symlink() and (out / name).stat().st_size > 1000
    assert "wu2015_fig2" in (out / "README.md").read_text()


def test_a_planted_git_config_in_a_results_folder_runs_nothing(tmp_path, monkeypatch, configs):
    """Records without a time stamp are dated by git in the project only: a results folder's
    own ``.git/config`` (``core.fsmonitor``, ``gpg.program``) is never obeyed."""
    results = tmp_path / "results"
    records = read_records(ROOT / "results" / "wu2015_fig2").drop(columns=["timestamp"])
    for k, (_, cell) in enumerate(records.groupby("method")):
        (results / "wu2015_fig2" / f"d{k}").mkdir(parents=True)
        cell.to_parquet(results / "wu2015_fig2" / f"d{k}" / "cell.parquet", index=False)
    marker = tmp_path / "ran"
    git = results / "wu2015_fig2" / ".git"
    git.mkdir()
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "config").write_text(
        f"[core]\n\tfsmonitor = touch {marker}\n[gpg]\n\tprogram = touch {marker}\n"
        "[log]\n\tshowSignature = true\n"
    )
    out = tmp_path / "out"
    _report_all(results, out, monkeypatch, configs)
    assert not marker.exists()
    (row,) = [r for r in (out / "README.md").read_text().splitlines() if "**wu2015_fig2**" in r]
    cells = [c.strip() for c in markdown_cells(row)]
    assert cells[1] == "1 / 1" and cells[-3:-1] == ["unknown", "unknown"]  # read; not dated


def _hostile_rows() -> dict:
    rows = json.loads((ROOT / "results" / "dashboard" / "rows.json").read_text())
    for experiment in rows["experiments"]:
        experiment["substitutes"] = [HOSTILE + s for s in experiment["substitutes"]]
        experiment["missing"] = [HOSTILE + s for s in experiment["missing"]]
        for flag in experiment["flags"]:
            flag["dataset"] = HOSTILE + str(flag["dataset"])
            flag["method"] = HOSTILE + str(flag["method"])
        if experiment.get("bayesian"):
            experiment["bayesian"]["reference"] = HOSTILE
            for row in experiment["bayesian"]["rows"]:
                row["method"] = HOSTILE
    for benchmark in rows["benchmarks"]:
        benchmark["what"] = benchmark["peer"] = HOSTILE
    return rows


def test_dashboard_pages_from_hostile_names_carry_no_active_content():
    """Before: ``<script>``, ``<img onerror>`` and ``<svg onload>`` of names were copied raw
    into the Markdown dashboard, and a NUL or an ESC reached both pages."""
    from repro.report.dashboard.pages import render_html, render_markdown

    folder = ROOT / "results"
    clean = json.loads((folder / "dashboard" / "rows.json").read_text())
    rows = _hostile_rows()
    md, html = render_markdown(rows, folder, folder), render_html(rows, folder, folder)
    assert md.count("Injected") > 100  # the hostile names are shown
    assert _Tags(md).tags == _Tags(render_markdown(clean, folder, folder)).tags  # no tag added
    assert not any(line.startswith("# Injected") for line in md.splitlines())
    _tables_keep_their_columns(md)
    page, clean_page = _Tags(html), _Tags(render_html(clean, folder, folder))
    assert page.tags == clean_page.tags and "script" not in page.tags
    assert not [a for a in page.attributes if a.startswith("on")]
    assert not CONTROL.search(md) and not CONTROL.search(html)


def test_latex_tables_drop_control_characters_and_escape_commands():
    from repro.report.tables import to_latex

    frame = pd.DataFrame({"acc\x0c%": [0.9]}, index=["a\x00b\x1b[2J\x0b\\end{document}\x7f"])
    tex = to_latex(frame, caption="c\x00&")
    assert not CONTROL.search(tex)
    assert tex.splitlines()[2] == r"\caption{c\&}"
    assert tex.splitlines()[7] == r"ab[2J\textbackslash{}end\{document\} & 0.9000 \\"
    assert tex.splitlines()[5] == r"Method & acc\% \\"


def _full_disk_at(monkeypatch, k: int) -> list:
    """The ``k``-th temporary file of the writes a link to /dev/full: its write fails with
    ENOSPC as on a full disk. Returns the list of the temporaries asked for."""
    asked = []
    temporary = guarded.temporary_beside

    def full(path):
        tmp = temporary(path)
        if len(asked) == k:
            tmp.symlink_to("/dev/full")
        asked.append(path)
        return tmp

    monkeypatch.setattr(guarded, "temporary_beside", full)
    return asked


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_report_experiment_on_a_full_disk_keeps_the_previous_report(tmp_path, monkeypatch, capsys):
    """Before: a full disk truncated the previous ``table4.md``/``fig10.png`` in place."""
    from repro.report.__main__ import main

    results = tmp_path / "results"
    (results / "boulle2007_table4").mkdir(parents=True)
    shutil.copy(ROOT / "results" / "boulle2007_table4" / "packed.parquet",
                results / "boulle2007_table4")  # fmt: skip
    out = tmp_path / "out"
    args = ["experiment=boulle2007_table4", f"results={results}", f"out={out}"]
    assert main(args) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert {"table4.md", "table4.tex", "fig10.png", "REPRODUCTION.md"} <= set(before)
    capsys.readouterr()
    for k in (0, 2):  # the first write (table4.md) and a figure's
        asked = _full_disk_at(monkeypatch, k)
        assert main(args) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "No space left on device" in err, err
        assert asked[k].name in ("table4.md", "fig10.png", "fig10.pdf", "table4.tex")
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no .tmp left


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_report_all_on_a_full_disk_keeps_the_previous_dashboard(tmp_path, monkeypatch, configs):
    """Before: a full disk truncated the previous ``README.md`` and ``index.html`` in place."""
    results = _small_results(tmp_path)
    out = tmp_path / "out"
    asked = _full_disk_at(monkeypatch, -1)  # none full: the order of the writes
    _report_all(results, out, monkeypatch, configs)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    order = [p.name for p in asked]
    for name in ("README.md", "index.html"):
        _full_disk_at(monkeypatch, order.index(name))
        with pytest.raises(OSError) as err:
            _report_all(results, out, monkeypatch, configs)
        assert err.value.errno == errno.ENOSPC
        after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        assert after == before, name  # every file as it was, no temporary left


@pytest.mark.skipif(not can_mount_read_only(), reason="no user namespace to mount read-only")
def test_a_read_only_output_folder_is_one_line_and_keeps_its_files(tmp_path):
    """A real read-only mount (a user namespace): ``compare`` ends in one line, exit 1, and
    the folder's files stay as they were (before: a 52-line traceback)."""
    results = _records(tmp_path, {"nb": "nb", "nb_ef": "nb_ef"}, {k: k for k in DATASETS})
    out = tmp_path / "out"
    out.mkdir()
    (out / "compare_accuracy_bergmann.md").write_text("previous")
    env = f"PYTHONPATH={ROOT} MPLBACKEND=Agg"
    script = (f"mount --bind {out} {out} && mount -o remount,bind,ro {out} {out} && "
              f"env {env} {shutil.which('python') or 'python'} -m repro.report compare "
              f"results={results} metric=accuracy out={out}")  # fmt: skip
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Read-only file system" in done.stderr
    assert [p.name for p in out.iterdir()] == ["compare_accuracy_bergmann.md"]
    assert (out / "compare_accuracy_bergmann.md").read_text() == "previous"


def test_a_paper_tables_note_carries_no_html_or_heading(tmp_path):
    from repro.report.generate import generate_report

    frame = read_records(ROOT / "results" / "boulle2007_table4")
    frame["dataset"] = frame["dataset"].replace({"madelon_like+1000F2D": HOSTILE})
    results = tmp_path / "results" / "boulle2007_table4"
    for i, (_, cell) in enumerate(frame.groupby(["dataset", "method"])):
        (results / f"d{i}").mkdir(parents=True)
        cell.to_parquet(results / f"d{i}" / "all.parquet", index=False)
    generate_report("boulle2007_table4", tmp_path / "results", tmp_path / "out")
    text = (tmp_path / "out" / "table4.md").read_text()
    assert "Injected" in text
    assert _Tags(text).tags == Counter() and not CONTROL.search(text)
    assert not any(line.startswith("# Injected") for line in text.splitlines())


def test_a_file_name_with_escape_sequences_is_not_printed_raw(tmp_path):
    results = _records(tmp_path, {"nb": "nb", "nb_ef": "nb_ef"}, {k: k for k in DATASETS})
    (results / "d0" / "\x1b[2J\x1b]52;c;ZXZpbA==\x07.parquet").write_bytes(b"not parquet")
    done = run_module("repro.report", "compare", f"results={results}", "metric=accuracy",
                      f"out={tmp_path / 'out'}", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0 and "skipped" in done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr


def test_an_unwritable_folder_is_named_by_the_file_asked_for_not_its_temporary():
    """Before: the one line sometimes named the hidden temporary file that was being written
    (``.table3.tex.<pid>.<hex>.tmp``) instead of the report's file."""
    import errno

    from repro.datasets.exit_codes import unwritable_message
    from repro.runtime.temporary_files import temporary_beside

    target = Path("/reports/boulle2007_table3/table3.tex")
    tmp = temporary_beside(target)
    assert tmp.parent == target.parent and tmp.name.startswith(".table3.tex.")
    message = unwritable_message(OSError(errno.EROFS, "Read-only file system", str(tmp)))
    assert message == (
        f"cannot write {target}: Read-only file system; give a writable folder (out=DIR or "
        "results=DIR)"
    )
    other = unwritable_message(OSError(errno.EACCES, "Permission denied", "/r/.hidden.tmp"))
    assert other.startswith("cannot write /r/.hidden.tmp: Permission denied")
