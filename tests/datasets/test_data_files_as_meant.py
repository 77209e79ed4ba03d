"""Data files read as a user means them (repro.datasets.local): what would be read wrong is
refused with a message naming it, and the usual variants of a CSV file are found and read."""

import gzip

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from repro.datasets.local import data_name, read_table, scan

ROWS = "a,b,class\n1.5,x,yes\n2.5,y,no\n3.5,x,yes\n"


def _write(folder, name, text, encoding="utf-8"):
    path = folder / name
    path.write_bytes(text.encode(encoding))
    return path


def test_the_usual_variants_of_a_csv_file_are_found_and_read(tmp_path):
    _write(tmp_path, "plain.csv", ROWS)
    _write(tmp_path, "tabs.tsv", ROWS.replace(",", "\t"))
    _write(tmp_path, "semi.csv", ROWS.replace(",", ";"))
    (tmp_path / "packed.csv.gz").write_bytes(gzip.compress(ROWS.encode()))
    files = scan(tmp_path)
    assert sorted(files) == ["packed", "plain", "semi", "tabs"]
    assert data_name(tmp_path / "packed.csv.gz") == ("packed", ".csv")
    for name in files:
        X, y = read_table(files[name].path, name)
        assert list(X.columns) == ["a", "b"] and list(y) == ["yes", "no", "yes"]
        assert X["a"].dtype == np.float64 and X["a"].tolist() == [1.5, 2.5, 3.5]


@pytest.mark.parametrize(
    "text, message",
    [
        ("a,class,class\n1,x,y\n", r"names column\(s\) \['class'\] more than once"),
        ("a,b,class,\n1,x,y,\n", "ends its header with a separator ','"),
        ("a,,class\n1,x,y\n", r"column\(s\) \[2\] of the header have no name"),
        ("5.1,3.5,1\n4.9,3.0,0\n", "is numbers .* not column names: add a header line"),
        ("a;b;class\n1,5;x;yes\n2,5;y;no\n", "column 'a' .* holds numbers with decimal commas"),
    ],
)
def test_what_would_be_read_wrong_is_refused_naming_it(tmp_path, text, message):
    path = _write(tmp_path, "d.csv", text)
    with pytest.raises(ValueError, match=message):
        read_table(path, "d")


def test_a_latin1_file_says_it_is_not_utf8(tmp_path):
    path = _write(tmp_path, "d.csv", "café,class\n1,x\n", encoding="latin-1")
    with pytest.raises(ValueError, match=r"is not UTF-8 text \(byte 0xe9 at position 3"):
        read_table(path, "d")


def test_a_parquet_file_with_nested_columns_is_refused(tmp_path):
    table = pa.table({"a": [[1, 2], [3]], "s": [{"x": 1}, {"x": 2}], "class": ["u", "v"]})
    pq.write_table(table, tmp_path / "n.parquet")
    with pytest.raises(ValueError, match=r"nested column\(s\) \['a', 's'\]"):
        read_table(tmp_path / "n.parquet", "n")
    pd.DataFrame({"a": [1.0, 2.0], "class": ["u", "v"]}).to_parquet(tmp_path / "flat.parquet")
    X, y = read_table(tmp_path / "flat.parquet", "flat")
    assert X["a"].tolist() == [1.0, 2.0] and list(y) == ["u", "v"]


def test_a_cell_knows_its_data(tmp_path, monkeypatch):
    """A user's file is part of its cells' identity (its SHA-256 in the configuration hash and
    in every record): an edited file, or one that shadows a bundled name, is computed afresh,
    never served a cell of other data; the bundled files add nothing (their content is the one
    MANIFEST.csv records, tested in test_datasets.py), so their stored cells stay current."""
    from repro.datasets import load_dataset
    from repro.evaluation.cells import DATA_COLUMN, Cell
    from repro.evaluation.protocols import get_protocol
    from repro.evaluation.runner import run_cell
    from repro.registry import make_method

    assert "fingerprint" not in load_dataset("iris").meta
    own = tmp_path / "own"
    own.mkdir()
    rows = "u,class\n" + "".join(f"{i % 7},{'pq'[i % 2]}\n" for i in range(40))
    (own / "mine.csv").write_text(rows)
    (own / "iris.csv").write_text(rows)  # other labels under a bundled name
    monkeypatch.setenv("REPRO_DATA_PATH", str(own))
    bundled = Cell("nb", make_method("nb"), {}, load_dataset("wine"), get_protocol("cv5"))
    assert DATA_COLUMN not in bundled.context
    shadow = Cell("nb", make_method("nb"), {}, load_dataset("iris"), get_protocol("cv5"))
    assert len(shadow.context[DATA_COLUMN]) == 64  # the user's iris, not the bundled one

    def cell():
        ds = load_dataset("mine")
        return Cell("nb", make_method("nb"), {}, ds, get_protocol("cv5"), experiment="e")

    a = cell()
    first = run_cell(a, tmp_path / "res")
    assert set(first[DATA_COLUMN]) == {a.context[DATA_COLUMN]}
    (own / "mine.csv").write_text(rows.replace("p\n", "q\n", 3))  # the user edits the file
    b = cell()
    assert b.hash != a.hash and b.path(tmp_path / "res") == a.path(tmp_path / "res")
    again = run_cell(b, tmp_path / "res")  # computed afresh, not read back, not refused
    assert set(again["config_hash"]) == {b.hash} and set(again[DATA_COLUMN]) == {
        b.context[DATA_COLUMN]
    }
