"""The third battery's cases on inputs and state (issue 46): data files a user hands over, locks
left by other processes, the command line's values read with Hydra's own grammar and the
listing of a folder that holds a large file; each test is one case with its expected verdict
(refused, naming the column, the file or the value and why; or read as meant)."""

import os
import socket
import time

import pandas as pd
import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import run_module

from repro.cli.arguments import UsageError, check_top_level
from repro.datasets import entries, list_datasets
from repro.datasets.local import read_table
from repro.evaluation.locks import cell_lock, is_stale, lock_path

ROWS = "a,b,class\n1.5,x,yes\n2.5,y,no\n3.5,x,yes\n"


# ------------------------------------------------------------------------------ data files
def test_an_edited_csv_is_computed_afresh_on_the_command_line(tmp_path):
    """The same command after the user edits the file: the cell is recomputed on the new
    content (other records), not read back as finished."""
    own = tmp_path / "own"
    own.mkdir()
    rows = "u,class\n" + "".join(f"{i % 5},{'pq'[i % 2]}\n" for i in range(30))
    (own / "mine.csv").write_text(rows)
    args = ("method=nb", "dataset=mine", "protocol=cv5", f"results_dir={tmp_path / 'res'}")
    env = {"REPRO_DATA_PATH": str(own)}
    first = run_module("repro", *args, "progress=false", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    cell = tmp_path / "res" / "default" / "mine" / "nb__protocol=cv5.parquet"
    before = pd.read_parquet(cell)
    (own / "mine.csv").write_text(rows.replace(",q\n", ",p\n", 6))  # six labels changed
    again = run_module("repro", *args, "progress=false", cwd=tmp_path, env=env)
    assert again.returncode == 0, again.stderr
    assert "already computed" not in again.stdout + again.stderr
    after = pd.read_parquet(cell)
    assert before["data_sha256"].nunique() == after["data_sha256"].nunique() == 1
    assert before["data_sha256"].iloc[0] != after["data_sha256"].iloc[0]
    assert before["config_hash"].iloc[0] != after["config_hash"].iloc[0]


def test_rows_ending_in_a_separator_are_refused_not_shifted(tmp_path):
    """A separator at the end of every row but not of the header: pandas took the first column
    as the index, every column moved by one and the target was the empty last field ("the
    target has 3 missing values")."""
    path = tmp_path / "d.csv"
    path.write_text("a,b,class\n1.5,x,yes,\n2.5,y,no,\n3.5,x,yes,\n")
    message = (
        r"the rows of .*d.csv have one field more than its header \(3 names\).* remove the "
        "separator ',' at the end of the rows"
    )
    with pytest.raises(ValueError, match=message):
        read_table(path, "d")
    path.write_text(ROWS)
    X, y = read_table(path, "d")
    assert list(X.columns) == ["a", "b"] and list(y) == ["yes", "no", "yes"]


def test_a_parquet_file_naming_a_column_twice_is_refused_naming_it(tmp_path):
    """Two ``class`` columns in a Parquet file: pyarrow's "Multiple matches for
    FieldRef.Name(class)" and its schema dump, without the file's name."""
    arrays = [pa.array([1.0, 2.0]), pa.array(["u", "v"]), pa.array(["u", "v"])]
    pq.write_table(
        pa.Table.from_arrays(arrays, names=["a", "class", "class"]), tmp_path / "d.parquet"
    )
    with pytest.raises(ValueError, match=r"d.parquet names column\(s\) \['class'\] more than once"):
        read_table(tmp_path / "d.parquet", "d")


def test_class_columns_that_differ_only_in_case_are_refused(tmp_path):
    """``class`` and ``Class``: the second became a feature, a copy of the target (accuracy
    1.000); with ``target=`` the user says which one is meant."""
    path = tmp_path / "d.csv"
    path.write_text("a,class,Class\n1,u,u\n2,v,v\n3,u,u\n")
    with pytest.raises(ValueError, match=r"several class columns \['class', 'Class'\]"):
        read_table(path, "d")
    X, y = read_table(path, "d", target="Class")
    assert list(X.columns) == ["a", "class"] and list(y) == ["u", "v", "u"]


def test_listing_does_not_read_a_large_file_in_full(tmp_path, monkeypatch):
    """``python -m repro list datasets`` read every file of REPRO_DATA_PATH without a manifest
    row in full (a 0.3 GB CSV: 40 s, 2.4 GB, and "? rows" in the end): a file above the limit is
    listed unread, a small one is still counted."""
    own = tmp_path / "own"
    own.mkdir()
    (own / "small.csv").write_text(ROWS)
    (own / "large.csv").write_text(ROWS + "4.5,y,no\n" * 200)
    monkeypatch.setenv("REPRO_DATA_PATH", str(own))
    monkeypatch.setattr(entries, "LIST_READ_LIMIT", 1000)
    table = list_datasets().set_index("name")
    assert table.loc["small", "n"] == 3 and table.loc["small", "n_classes"] == 2
    assert pd.isna(table.loc["large", "n"])
    assert table.loc["large", "status"].startswith("user (not read for the list: 0 MB;")
    assert "`python -m repro.datasets show large` reads it" in table.loc["large", "status"]


# ------------------------------------------------------------------------------ cell locks
def test_an_old_lock_of_a_pid_started_after_it_was_written_is_stale(tmp_path):
    """A lock of the older ``<pid> <host>`` format (no start time) naming a live process that
    started after the lock was written (pid 1 again after a container restart): not its
    holder, so stale; it was waited on for ever. Written after that process started: held."""
    parent = os.getppid()
    started = psutil.Process(parent).create_time()
    lock = tmp_path / "x.lock"
    lock.write_text(f"{parent} {socket.gethostname()}\n")
    os.utime(lock, (started - 3600, started - 3600))
    assert is_stale(lock, lock.read_text())
    os.utime(lock, (time.time(), time.time()))
    assert not is_stale(lock, lock.read_text())


def test_a_live_lock_of_this_host_says_how_to_remove_it(tmp_path, capsys):
    """The waiter of a lock held by a live process of this host said only who holds it."""
    parent = os.getppid()
    path = tmp_path / "x.parquet"
    started = psutil.Process(parent).create_time()
    lock_path(path).write_text(f"{parent} {socket.gethostname()} {started:.2f} cafe\n")
    with pytest.raises(TimeoutError), cell_lock(path, timeout=0.3, what="x"):
        pass
    err = capsys.readouterr().err
    assert f"waiting for x: process {parent} on {socket.gethostname()} computes it" in err
    assert f"if it no longer computes this cell, `rm {lock_path(path)}` frees it" in err


# ------------------------------------------------------------------------------ command line
@pytest.mark.parametrize(
    "arg",
    [
        "protocol='cv5'",
        "protocol=choice(cv5,cv10)",
        "seed='1'",
        "seed=range(0,3)",
        "n_jobs=choice(1,2)",
        "force=True",
        "experiment='wu2015_fig2'",
        "method=glob(nb_*)",
    ],
)
def test_values_read_with_hydras_grammar_pass(arg):
    """Quoted values and sweeps of the other keys were split on commas: ``protocol='cv5'`` was
    "Unknown protocol "'cv5'"", ``seed=range(0,3)`` "got 'range(0'"."""
    check_top_level([arg])


@pytest.mark.parametrize(
    "arg, message",
    [
        ("protocol=choice(cv5,cvx)", "Unknown protocol 'cvx'. Did you mean"),
        ("seed=range(0,5000000000)", "seed must be an integer from 0 to .* got '4999999999'"),
        ("seed=choice(1,1.5)", "seed must be an integer .* got '1.5'"),
        ("seed=[1,2]", r"seed must be an integer .* got '\[1,2\]' \(seed=\[1,2\]\)"),
        ("experiment=choice(wu2015_fig2,wu2015_figx)", "Unknown experiment 'wu2015_figx'"),
        ("method=[nb,nb_typo]", r"method= takes a name .* not '\[nb,nb_typo\]'"),
        ("method=range(1,3)", r"method= takes a name .* not 'range\(1,3\)'"),
        ("protocol=interval(0,1)", r"protocol= takes a name .* not 'interval\(0,1\)'"),
        ("experiment=null", "experiment= takes a name .* not 'null'"),
    ],
)
def test_values_read_with_hydras_grammar_are_refused_naming_them(arg, message):
    """Each was a name check skipped (a Hydra dump or a traceback: "Could not load
    'method/nb_typo'", "Config group override must be a string or a list. Got int") or a
    message about a fragment of the value."""
    with pytest.raises(UsageError, match=message):
        check_top_level([arg])


def test_a_list_of_methods_is_one_line_not_hydras_dump(tmp_path):
    result = run_module("repro", "-m", "method=[nb,nb_typo]", "dataset=iris", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        "error: method= takes a name (method=NAME) or, with -m, names to sweep (method=a,b or "
        "method=choice(a,b)), not '[nb,nb_typo]'"
    ]


# ------------------------------------------------------------------------------ records
def test_records_without_a_git_revision_are_dated_by_git_not_a_traceback(tmp_path):
    """Records without ``git_revision`` (written by another program): the dashboard's run date
    falls back to git (a folder outside the project: unknown), no KeyError."""
    from repro.report.dashboard import inputs

    records = pd.DataFrame({"timestamp": ["2026-11-20T10:00:00"], "method": ["nb"]})
    assert inputs.run_of(records, tmp_path) == ("unknown", "unknown", 0)
