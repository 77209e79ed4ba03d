"""Data files of a directory: ``<name>.parquet``, ``.arff``, ``.csv`` or ``.tsv`` (source
``local``).

The directory is, in order: the ``data_dir`` argument, the ``REPRO_DATA_DIR`` environment
variable, or the data sets shipped in the package (``repro/datasets/bundled``: package data, a
symlink to the checkout's ``datasets/``). Folders of your own are searched besides it, before it:
those of ``REPRO_DATA_PATH`` (separated like ``PATH``), to which ``--config-dir=DIR`` adds
``DIR/dataset`` (:func:`add_data_path`; an environment variable, so that worker processes see it).
Adding a data set = dropping a file there; its name is the file stem. When one stem has several
formats, Parquet wins over ARFF, ARFF over CSV. ``MANIFEST.csv`` (metadata of the files, see
``datasets/README.md``) and ``OPENML_ONLY.csv`` are read, not loaded as data.

Target: the column given as ``target=``, else the column named ``class`` (exactly, then
ignoring case), else the last column.

Formats: Parquet keeps its types (strings are nominal; nested columns are refused). ARFF
(liac-arff) maps NUMERIC/REAL/INTEGER to float64, nominal and STRING to Categorical (nominal
keeps its declared levels), ``?`` to NaN. CSV (and TSV, ``.tsv``; either may be compressed,
``x.csv.gz``) is UTF-8 with a header row of distinct names, separated by commas (``;`` or tabs
are detected from the header); ``?`` and empty fields are missing; a column is numeric when
at least half its values are numbers (others are then an error), else nominal (categories
sorted, numerically when all are numbers). What would be read wrong is refused, naming it: a
file that is not UTF-8, a duplicate or empty column name (in Parquet too), a trailing separator
(of the header or of the rows), a first line of numbers (no header), numbers with decimal commas.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from .dataset import as_labels, coerce_frame

__all__ = [
    "FORMATS",
    "LocalFile",
    "DATA_PATH_VARIABLE",
    "add_data_path",
    "data_name",
    "file_digest",
    "data_path",
    "default_data_dir",
    "pick_target",
    "read_manifest",
    "read_openml_only",
    "read_table",
    "resolve_data_dir",
    "scan",
]

#: file suffixes read as data, in order of precedence for one stem
FORMATS = (".parquet", ".arff", ".csv", ".tsv")
#: compressions a text file may carry (read by pandas from the file name): ``x.csv.gz``
COMPRESSIONS = (".gz", ".bz2", ".xz")
#: metadata files of the data directory (never data sets)
RESERVED = {"manifest", "openml_only"}
#: strings read as missing in CSV files (besides pandas' defaults such as '' and 'NA')
CSV_NA = ["?"]


def default_data_dir() -> Path:
    """The data sets shipped in the package (``repro/datasets/bundled``, the checkout's
    ``datasets/`` in an editable install)."""
    return (Path(str(resources.files(__package__))) / "bundled").resolve()


def resolve_data_dir(data_dir=None) -> Path:
    """``data_dir`` if given, else ``$REPRO_DATA_DIR``, else :func:`default_data_dir`."""
    if data_dir is not None:
        return Path(data_dir).expanduser()
    env = os.environ.get("REPRO_DATA_DIR")
    return Path(env).expanduser() if env else default_data_dir()


#: environment variable naming folders of one's own data files (separated like PATH)
DATA_PATH_VARIABLE = "REPRO_DATA_PATH"


def data_path() -> list[Path]:
    """The folders of ``$REPRO_DATA_PATH``, in order (searched before the data directory)."""
    text = os.environ.get(DATA_PATH_VARIABLE, "")
    return [Path(p).expanduser() for p in text.split(os.pathsep) if p.strip()]


def add_data_path(folder) -> Path:
    """Put ``folder`` on ``$REPRO_DATA_PATH`` (once); its data files become catalog entries."""
    folder = Path(folder).expanduser().resolve()
    if folder not in data_path():
        os.environ[DATA_PATH_VARIABLE] = os.pathsep.join(map(str, [*data_path(), folder]))
    return folder


@dataclass(frozen=True)
class LocalFile:
    name: str
    path: Path
    shadowed: tuple[Path, ...] = ()  # same stem in a lower-precedence format (ignored)


def data_name(path) -> tuple[str, str]:
    """(data set name, format suffix) of a file: ``iris.csv`` → ("iris", ".csv"),
    ``iris.csv.gz`` → ("iris", ".csv") (a text format may be compressed); the suffix is
    lower-case."""
    path = Path(path)
    name, suffix = path.stem, path.suffix.lower()
    if suffix in COMPRESSIONS and Path(name).suffix.lower() in (".csv", ".tsv"):
        return Path(name).stem, Path(name).suffix.lower()
    return name, suffix


_DIGESTS: dict[tuple, str] = {}


def file_digest(path) -> str:
    """SHA-256 of a file's bytes (memoised by path, size and modification time)."""
    import hashlib

    path = Path(path)
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _DIGESTS:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        _DIGESTS[key] = h.hexdigest()
    return _DIGESTS[key]


def scan(data_dir) -> dict[str, LocalFile]:
    """Data files in ``data_dir`` by name (file stem); empty when the folder does not exist."""
    folder = Path(data_dir)
    if not folder.is_dir():
        return {}
    by_stem: dict[str, list[Path]] = {}
    for path in folder.iterdir():
        stem, suffix = data_name(path)
        if suffix not in FORMATS or not path.is_file() or path.name.startswith((".", "_")):
            continue
        if stem.lower() in RESERVED:
            continue
        by_stem.setdefault(stem, []).append(path)
    files = {}
    for stem, paths in sorted(by_stem.items()):
        paths.sort(key=lambda p: FORMATS.index(data_name(p)[1]))
        files[stem] = LocalFile(stem, paths[0], tuple(paths[1:]))
    return files


def _read_meta_csv(path: Path) -> pd.DataFrame | None:
    if not path.is_file():
        return None
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _metadata_file(data_dir, filename: str) -> Path:
    """``data_dir/filename`` if present, else the bundled one (project metadata)."""
    local = Path(data_dir) / filename
    return local if local.is_file() else default_data_dir() / filename


def _opt_int(text: str):
    text = (text or "").strip()
    return int(text) if text.lstrip("-").isdigit() else None


def _opt_float(text: str):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _papers(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in (text or "").split(";") if p.strip())


def read_manifest(data_dir) -> dict[str, dict]:
    """MANIFEST.csv rows by name, typed (ints, floats, papers as a tuple, ``origin`` = source)."""
    df = _read_meta_csv(_metadata_file(data_dir, "MANIFEST.csv"))
    if df is None:
        return {}
    rows = {}
    for rec in df.to_dict("records"):
        rows[rec["name"]] = {
            "name": rec["name"],
            "file": rec.get("file", ""),
            "n": _opt_int(rec.get("n_instances")),
            "n_numeric": _opt_int(rec.get("n_numeric")),
            "n_categorical": _opt_int(rec.get("n_categorical")),
            "n_classes": _opt_int(rec.get("n_classes")),
            "majority_pct": _opt_float(rec.get("majority_pct")),
            "n_rows_with_missing": _opt_int(rec.get("n_rows_with_missing")),
            "status": rec.get("status", ""),
            "origin": rec.get("source", ""),
            "papers": _papers(rec.get("papers")),
            "openml_id": _opt_int(rec.get("openml_id")),
            "notes": rec.get("notes", ""),
            "sha256": rec.get("sha256", ""),
        }
    return rows


def read_openml_only(data_dir) -> dict[str, dict]:
    """OPENML_ONLY.csv rows by name: papers, paper_shape, openml_id (None if uncertain), note."""
    df = _read_meta_csv(_metadata_file(data_dir, "OPENML_ONLY.csv"))
    if df is None:
        return {}
    return {
        rec["name"]: {
            "name": rec["name"],
            "papers": _papers(rec.get("papers")),
            "paper_shape": rec.get("paper_shape", ""),
            "openml_id": _opt_int(rec.get("openml_id")),
            "openml_note": rec.get("openml_note", ""),
        }
        for rec in df.to_dict("records")
    }


# --------------------------------------------------------------------------------------------
# Reading one file
# --------------------------------------------------------------------------------------------
def pick_target(columns, target, name: str):
    """The target column: ``target`` if given (must exist), else ``class``, else the last."""
    columns = list(columns)
    if target is not None:
        if target not in columns:
            raise ValueError(
                f"data set {name!r}: target column {target!r} not found; columns: {columns}"
            )
        return target
    if not columns:
        raise ValueError(f"data set {name!r} has no columns")
    lower = [c for c in columns if str(c).lower() == "class"]
    if len(lower) > 1:
        raise ValueError(
            f"data set {name!r} has several class columns {lower} (names that differ only in "
            "case): the others would become features, copies of the target; rename or drop them"
        )
    if "class" in columns:
        return "class"
    return lower[0] if lower else columns[-1]


def _header(path: Path, name: str, sep: str | None) -> tuple[list[str], str]:
    """The header fields of a CSV/TSV file and its separator (``sep``, else "," or, when the
    header holds none, ";" or a tab), checked: UTF-8, no empty or duplicate name, not a line
    of numbers."""
    import bz2
    import csv
    import gzip
    import lzma

    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}.get(path.suffix.lower(), open)
    try:
        with opener(path, "rt", encoding="utf-8", newline="") as fh:
            first = fh.readline()
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"data set {name!r}: {path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
            f"position {exc.start} of its first line); save it as UTF-8, e.g. "
            f"`iconv -f latin1 -t utf-8 {path.name} > {path.stem}.utf8.csv`"
        ) from exc
    if sep is None:
        sep = next((c for c in (",", ";", "\t") if c in first), ",")
    fields = [f.strip() for f in next(csv.reader([first], delimiter=sep), [])]
    if not fields or fields == [""]:
        raise ValueError(f"data set {name!r}: {path} has no header line (column names)")
    if fields[-1] == "" and len(fields) > 1:
        raise ValueError(
            f"data set {name!r}: {path} ends its header with a separator {sep!r} (an empty last "
            "column, which would become the target): remove the trailing separators"
        )
    empty = [i + 1 for i, f in enumerate(fields) if f == ""]
    if empty:
        raise ValueError(f"data set {name!r}: {path}: column(s) {empty} of the header have no name")
    duplicates = sorted({f for f in fields if fields.count(f) > 1})
    if duplicates:
        raise ValueError(
            f"data set {name!r}: {path} names column(s) {duplicates} more than once; give each "
            "column its own name (a second target column would otherwise become a feature)"
        )
    if pd.to_numeric(pd.Series(fields), errors="coerce").notna().all():
        raise ValueError(
            f"data set {name!r}: the first line of {path} is numbers ({first.strip()[:60]!r}), "
            "not column names: add a header line"
        )
    return fields, sep


#: a number written with a decimal comma ("3,5", "-0,25")
DECIMAL_COMMA = r"^-?\d+,\d+$"


def _read_csv(path: Path, name: str, sep: str | None = None) -> pd.DataFrame:
    """A CSV (or TSV) file as text columns (module docstring), its header checked
    (:func:`_header`); a column whose values are numbers with decimal commas is refused."""
    fields, sep = _header(path, name, sep)
    df = pd.read_csv(path, dtype=str, na_values=CSV_NA, skipinitialspace=True, sep=sep)
    if not isinstance(df.index, pd.RangeIndex):  # pandas took the first column as the index
        raise ValueError(
            f"data set {name!r}: the rows of {path} have one field more than its header "
            f"({len(fields)} names), which would shift every column by one and make the target "
            f"empty: remove the separator {sep!r} at the end of the rows (or name the column)"
        )
    df.columns = [str(c).strip() for c in df.columns]
    for column in df.columns:
        df[column] = df[column].str.strip()
    for column in df.columns:
        values = df[column].dropna()
        if len(values) and values.str.fullmatch(DECIMAL_COMMA).mean() > 0.5:
            raise ValueError(
                f"data set {name!r}: column {column!r} of {path} holds numbers with decimal "
                f"commas (e.g. {values.iloc[0]!r}); write them with decimal points (and the "
                "columns separated by commas) so they are read as numbers"
            )
    return df


def _read_parquet(path: Path, name: str) -> pd.DataFrame:
    """A Parquet file; nested (struct, list, map) columns are refused, naming them."""
    import pyarrow.parquet as pq

    schema = pq.read_schema(path)
    duplicates = sorted({n for n in schema.names if schema.names.count(n) > 1})
    if duplicates:
        raise ValueError(
            f"data set {name!r}: {path} names column(s) {duplicates} more than once; give each "
            "column its own name (a second target column would otherwise become a feature)"
        )
    nested = [f.name for f in schema if pa_nested(f.type)]
    if nested:
        raise ValueError(
            f"data set {name!r}: {path} has nested column(s) {nested} (struct, list or map): "
            "flatten them into one column per value"
        )
    return pd.read_parquet(path)


def pa_nested(kind) -> bool:
    """True for an Arrow struct, list or map type."""
    import pyarrow.types as t

    return t.is_struct(kind) or t.is_list(kind) or t.is_large_list(kind) or t.is_map(kind)


def _read_arff(path: Path, name: str) -> pd.DataFrame:
    import arff  # liac-arff

    with open(path, encoding="utf-8") as fh:
        try:
            data = arff.load(fh)
        except arff.ArffException as exc:
            raise ValueError(f"data set {name!r}: cannot parse ARFF file {path}: {exc}") from exc
    names = [a[0] for a in data["attributes"]]
    rows = data["data"]
    columns = {}
    for j, (attr, kind) in enumerate(data["attributes"]):
        values = [row[j] for row in rows]
        if isinstance(kind, list):  # nominal: declared levels
            levels = [str(v) for v in kind]
            columns[attr] = pd.Categorical(
                [None if v is None else str(v) for v in values], categories=levels
            )
        elif str(kind).upper() in ("NUMERIC", "REAL", "INTEGER"):
            columns[attr] = np.array([np.nan if v is None else v for v in values], dtype=float)
        elif str(kind).upper() == "STRING":
            columns[attr] = pd.Series(values, dtype=object)
        else:
            raise ValueError(
                f"data set {name!r}: ARFF attribute {attr!r} has unsupported type {kind!r}"
            )
    return pd.DataFrame(columns, columns=names)


def _read_any(path: Path, name: str) -> pd.DataFrame:
    suffix = data_name(path)[1]
    if suffix == ".parquet":
        return _read_parquet(path, name)
    if suffix == ".arff":
        return _read_arff(path, name)
    if suffix == ".csv":
        return _read_csv(path, name)
    if suffix == ".tsv":
        return _read_csv(path, name, sep="\t")
    raise ValueError(
        f"data set {name!r}: unsupported file type {path.suffix!r} ({path}); valid: "
        f"{', '.join(FORMATS)} (text ones also compressed: {', '.join(COMPRESSIONS)})"
    )


def read_table(path, name: str, target=None) -> tuple[pd.DataFrame, np.ndarray]:
    """Read one data file into ``(X, y)`` with the project's types (see module doc)."""
    path = Path(path)
    df = _read_any(path, name)
    column = pick_target(df.columns, target, name)
    text = data_name(path)[1] in (".csv", ".tsv")
    X = coerce_frame(df.drop(columns=[column]), name, infer_numeric=text)
    return X, as_labels(df[column].reset_index(drop=True))
