"""Results folders handed over by someone else (issue 46's cases, known answers): a planted
.git is never consulted, a FIFO named like a record does not block a read, a record from the
future is not the run's date, a variant is read from the results folder given, and a name of any
length or character set gives one short file name."""

import os
import shutil
import subprocess
import threading
from pathlib import Path

import pandas as pd
import pytest

from repro.evaluation.records import read_records
from repro.report.dashboard import inputs
from repro.report.dashboard.rows import future_flags
from repro.report.escape import STEM_LIMIT, file_stem, short_label

ROOT = Path(__file__).resolve().parents[2]


def test_a_name_gives_one_short_file_name():
    assert file_stem("snb_cma") == "snb_cma"
    assert file_stem("../../etc/passwd") == "_.._etc_passwd"  # no folder, no leading dot
    long_a, long_b = "m" * 300 + "a", "m" * 300 + "b"
    assert len(file_stem(long_a)) == STEM_LIMIT and file_stem(long_a) != file_stem(long_b)
    assert file_stem(long_a).startswith("m" * 67 + "-")
    assert short_label("x" * 500) == "x" * 59 + "…" and short_label("a\x1b[2Jb\nc") == "ab c"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_named_like_a_record_is_not_read(tmp_path):
    folder = tmp_path / "exp" / "iris"
    folder.mkdir(parents=True)
    pd.DataFrame({"method": ["nb"], "value": [0.9]}).to_parquet(folder / "nb.parquet")
    os.mkfifo(folder / "trap.parquet")
    out = {}
    reader = threading.Thread(target=lambda: out.update(frame=read_records(tmp_path / "exp")))
    reader.daemon = True
    reader.start()
    reader.join(timeout=30)
    assert not reader.is_alive(), "read_records blocked on a FIFO"
    assert out["frame"]["value"].tolist() == [0.9]


def _git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_planted_git_config_runs_nothing(tmp_path, monkeypatch):
    project = tmp_path / "project"
    folder = project / "results" / "exp"
    folder.mkdir(parents=True)
    (folder / "a.txt").write_text("x")
    _git("init", "-q", cwd=project)
    _git("-c", "user.email=a@b", "-c", "user.name=a", "add", ".", cwd=project)
    _git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "m", cwd=project)
    # someone hands over a results folder whose own .git asks git to run a program
    marker = tmp_path / "ran"
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text(
        f"[core]\n\tfsmonitor = touch {marker}\n[gpg]\n\tprogram = touch {marker}\n"
    )
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    monkeypatch.setattr(inputs, "PROJECT", project.resolve())
    date, revision = inputs.git_date(folder)
    assert date != "unknown" and len(revision) >= 7  # the project's own history dates it
    assert not marker.exists()
    # a folder outside the project: no git at all
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert inputs.git_date(outside) == ("unknown", "unknown")


def test_a_record_from_the_future_is_flagged_not_taken_as_the_date(tmp_path):
    records = pd.DataFrame(
        {"timestamp": ["2026-11-20T10:00:00", "2099-01-01T00:00:00"], "git_revision": ["a", "b"]}
    )
    date, revision, n = inputs.run_of(records, tmp_path)
    assert (date, revision, n) == ("2026-11-20", "a", 2)
    (flag,) = future_flags(records)
    assert flag["kind"] == "future date" and flag["note"].startswith("1 records dated after")
    assert future_flags(records.iloc[:1]) == []


def test_variants_are_read_from_the_results_folder_given(tmp_path, monkeypatch):
    """boulle2007_table3's variant (its Khiops-shrink records) is read from ``results=``, not
    from ./results: a copy whose variant holds one data set shows that set only."""
    from repro.report.generate import generate_report

    results = tmp_path / "res"
    shutil.copytree(ROOT / "results" / "boulle2007_table3", results / "boulle2007_table3")
    from repro.evaluation.records import write_atomic
    from repro.evaluation.store import ResultsStore

    variant = ResultsStore(ROOT / "results").records("boulle2007_table3_shrink")
    iris = variant[variant["dataset"] == "iris"].reset_index(drop=True)
    assert iris["method"].nunique() == 7
    write_atomic(iris, results / "boulle2007_table3_shrink" / "iris" / "all.parquet")
    monkeypatch.chdir(ROOT)  # where ./results holds the full variant
    generate_report("boulle2007_table3", results_dir=results, out_dir=tmp_path / "out")
    text = (tmp_path / "out" / "REPRODUCTION.md").read_text()
    per_dataset = text.split("### Per data set")[1]
    rows = [line for line in per_dataset.splitlines() if line.startswith("| ") and "→" in line]
    with_shrink = [r for r in rows if "→ —" not in r.split("|")[2]]
    assert [r.split("|")[1].strip() for r in with_shrink] == ["iris"]


def test_no_write_through_a_planted_link(tmp_path):
    """A dashboard folder, an error file and a checkpoint folder that are links to someone's
    files: refused, or the link itself replaced; the files they point to stay untouched."""
    import json

    from repro.evaluation.cells import write_failure
    from repro.evaluation.guarded import refuse_links, write_text
    from repro.evaluation.records import write_atomic
    from repro.report.dashboard.build import write_dashboard

    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("mine")
    out = tmp_path / "results"
    out.mkdir()
    (out / "dashboard").symlink_to(victim, target_is_directory=True)
    with pytest.raises(ValueError, match=r"dashboard is a symbolic link \(to .*victim\)"):
        write_dashboard({"experiments": []}, out, out)
    assert sorted(p.name for p in victim.iterdir()) == ["keep.txt"]
    # a link as the file itself: replaced by the new file, its target unchanged
    (out / "index.html").symlink_to(victim / "keep.txt")
    write_text(out / "index.html", "<p>new</p>", root=out)
    assert not (out / "index.html").is_symlink() and (victim / "keep.txt").read_text() == "mine"
    # a failed cell's error file planted as a link onto another file
    cell = out / "exp" / "iris"
    cell.mkdir(parents=True)
    (cell / "nb.error.json").symlink_to(victim / "keep.txt")
    write_failure(cell / "nb.error.json", RuntimeError("boom"), method="nb")
    assert json.loads((cell / "nb.error.json").read_text())["error"] == "RuntimeError: boom"
    assert (victim / "keep.txt").read_text() == "mine"
    # a checkpoint folder that is a link: refused
    (cell / "nb.parts").symlink_to(victim, target_is_directory=True)
    with pytest.raises(ValueError, match="nb.parts is a symbolic link"):
        write_atomic(pd.DataFrame({"a": [1]}), cell / "nb.parts" / "r000_f000.parquet")
    assert sorted(p.name for p in victim.iterdir()) == ["keep.txt"]
    # a path that leaves the root named: refused
    with pytest.raises(ValueError, match="is not under"):
        refuse_links(tmp_path / "elsewhere" / "x", out)


def test_an_unwritable_folder_is_one_line(capsys, monkeypatch):
    import errno

    from repro.datasets.exit_codes import exit_code
    from repro.report import __main__ as report_main
    from repro.report import generate

    def read_only():
        raise PermissionError(errno.EROFS, "Read-only file system", "/shared/results/t.md")

    assert exit_code(read_only, ()) == 1
    assert capsys.readouterr().err == (
        "error: cannot write /shared/results/t.md: Read-only file system; give a writable folder "
        "(out=DIR or results=DIR)\n"
    )
    monkeypatch.setattr(generate, "generate_report", lambda *a, **k: read_only())
    assert report_main.main(["experiment=boulle2007_table3"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write /shared/results/t.md" in err

    def other():  # an error that is not about writing still propagates
        raise OSError(errno.ENOENT, "No such file")

    with pytest.raises(OSError):
        exit_code(other, ())


def test_another_programs_parquet_file_is_skipped_with_a_warning(tmp_path):
    from repro.evaluation.records import CorruptFileWarning

    folder = tmp_path / "exp" / "iris"
    folder.mkdir(parents=True)
    pd.DataFrame({"method": ["nb"], "dataset": ["iris"], "metric": ["accuracy"], "value": [0.9]})\
        .to_parquet(folder / "nb.parquet")  # fmt: skip
    pd.DataFrame({"x": [1, 2]}).to_parquet(folder / "unrelated.parquet")
    message = r"unrelated.parquet: not a record file \(none of the columns method, dataset"
    with pytest.warns(CorruptFileWarning, match=message):
        frame = read_records(tmp_path / "exp")
    assert frame["value"].tolist() == [0.9] and "x" not in frame


def test_overrides_are_read_with_hydras_grammar(tmp_path, monkeypatch):
    """Quoted names, choice(...) sweeps and non-ASCII names are checked as Hydra reads them."""
    import unicodedata

    from repro.__main__ import CommandLineError, choice_names, resolve_overrides

    assert choice_names("method='nb_gaussian'") == ("method", ["nb_gaussian"], None)
    assert choice_names("method=cma,nb") == ("method", ["cma", "nb"], "simple")
    assert choice_names("method=choice(nb,cma)") == ("method", ["nb", "cma"], "choice")
    assert choice_names("dataset=dé") == ("dataset", ["dé"], None)  # Hydra's lexer refuses it
    assert choice_names("method.alpha=1") is None and choice_names("dataset=range(1,3)") is None
    assert resolve_overrides(["method='cma'"]) == ["method=snb_cma"]
    with pytest.raises(CommandLineError, match="Unknown method 'nb_gausian'. Did you mean"):
        resolve_overrides(["method=choice(nb_gaussian,nb_gausian)"])
    own = tmp_path / "own"
    own.mkdir()
    (own / "dé.csv").write_text("a,class\n1,x\n2,y\n")
    monkeypatch.setenv("REPRO_DATA_PATH", str(own))
    decomposed = unicodedata.normalize("NFD", "dé")  # typed with a combining accent
    assert resolve_overrides([f"dataset={decomposed}"]) == ["dataset='dé'"]
    assert resolve_overrides(["dataset=iris,'dé'"]) == ["dataset=iris,'dé'"]


def test_records_without_a_name_are_skipped_with_a_warning(tmp_path):
    from repro.evaluation.records import CorruptFileWarning

    folder = tmp_path / "exp"
    folder.mkdir()
    pd.DataFrame(
        {"method": ["nb", None, "snb"], "dataset": ["iris", "iris", None], "metric": ["a"] * 3,
         "value": [0.9, 0.8, 0.7]}
    ).to_parquet(folder / "r.parquet")  # fmt: skip
    with pytest.warns(CorruptFileWarning, match=r"skipped 2 records of .*r.parquet without a "):
        frame = read_records(folder)
    assert frame["value"].tolist() == [0.9]


def test_checking_a_data_set_name_reads_no_data_file(tmp_path, monkeypatch):
    """The command line checks ``dataset=`` against the catalog's names: no file of
    REPRO_DATA_PATH is read for it (a 0.67 GB file there made ``dataset=iris`` take 31 s)."""
    from repro.__main__ import resolve_overrides
    from repro.datasets import entries, local

    own = tmp_path / "own"
    own.mkdir()
    (own / "huge.csv").write_text("a,class\n1,x\n")
    monkeypatch.setenv("REPRO_DATA_PATH", str(own))

    def refuse(*args, **kwargs):
        raise AssertionError("a data file was read to check a name")

    monkeypatch.setattr(local, "read_table", refuse)
    monkeypatch.setattr(entries, "_file_stats", refuse)
    assert resolve_overrides(["dataset=iris,huge"]) == ["dataset=iris,huge"]


def test_a_record_file_of_the_wrong_types_is_skipped_naming_the_column(tmp_path):
    from repro.evaluation.records import CorruptFileWarning

    folder = tmp_path / "exp" / "iris"
    folder.mkdir(parents=True)
    good = {"method": ["nb"], "dataset": ["iris"], "metric": ["accuracy"], "value": [0.9]}
    pd.DataFrame(good).to_parquet(folder / "nb.parquet")
    pd.DataFrame({**good, "method": ["nb_ef"], "value": ["0.8x"]}).to_parquet(
        folder / "nb_ef.parquet"
    )  # text where the value belongs: "agg function failed" inside pandas before
    pd.DataFrame({**good, "method": ["snb"], "fold": [1.0]}).to_parquet(folder / "snb.parquet")
    with pytest.warns(CorruptFileWarning, match=r"nb_ef.parquet: record column\(s\) of the wrong "
                      r"type \(value: number expected, (large_)?string found\)"):  # fmt: skip
        frame = read_records(tmp_path / "exp")
    assert frame["method"].tolist() == ["nb", "snb"]  # a count stored as a float reads


def test_error_files_nested_too_deep_or_not_objects_are_failures_not_tracebacks(tmp_path):
    from repro.report.leaderboard import failures

    folder = tmp_path / "exp" / "iris"
    folder.mkdir(parents=True)
    (folder / "nb.abc.error.json").write_text("[" * 100_000 + "]" * 100_000)  # RecursionError
    (folder / "nb_ef.abc.error.json").write_text("[1, 2]")  # AttributeError: list.get
    (folder / "snb.abc.error.json").write_text('{"error": "boom\\nmore", "status": "DNF"}')
    table = failures(tmp_path / "exp")
    assert table[["method", "status", "error"]].values.tolist() == [
        ["nb", "failed", ""],
        ["nb_ef", "failed", ""],
        ["snb", "dnf", "boom"],
    ]
