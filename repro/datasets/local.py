"""Data files of a directory: ``<name>.parquet``, ``.arff`` or ``.csv`` (source ``local``).

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

Formats: Parquet keeps its types (strings are nominal). ARFF (liac-arff) maps NUMERIC/REAL/
INTEGER to float64, nominal and STRING to Categorical (nominal keeps its declared levels),
``?`` to NaN. CSV has a header row; ``?`` and empty fields are missing; a column is numeric when
at least half its values are numbers (others are then an error), else nominal (categories
sorted, numerically when all are numbers).
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
FORMATS = (".parquet", ".arff", ".csv")
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


def scan(data_dir) -> dict[str, LocalFile]:
    """Data files in ``data_dir`` by name (file stem); empty when the folder does not exist."""
    folder = Path(data_dir)
    if not folder.is_dir():
        return {}
    by_stem: dict[str, list[Path]] = {}
    for path in folder.iterdir():
        suffix = path.suffix.lower()
        if suffix not in FORMATS or not path.is_file() or path.name.startswith((".", "_")):
            continue
        if path.stem.lower() in RESERVED:
            continue
        by_stem.setdefault(path.stem, []).append(path)
    files = {}
    for stem, paths in sorted(by_stem.items()):
        paths.sort(key=lambda p: FORMATS.index(p.suffix.lower()))
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
    if "class" in columns:
        return "class"
    lower = [c for c in columns if str(c).lower() == "class"]
    return lower[0] if len(lower) == 1 else columns[-1]


def _read_csv(path: Path, name: str) -> pd.DataFrame:
    df = pd.read_csv(path, dtype=str, na_values=CSV_NA, skipinitialspace=True)
    df.columns = [str(c).strip() for c in df.columns]
    for column in df.columns:
        df[column] = df[column].str.strip()
    return df


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
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return pd.read_parquet(path)
    if suffix == ".arff":
        return _read_arff(path, name)
    if suffix == ".csv":
        return _read_csv(path, name)
    raise ValueError(f"data set {name!r}: unsupported file type {path.suffix!r} ({path})")


def read_table(path, name: str, target=None) -> tuple[pd.DataFrame, np.ndarray]:
    """Read one data file into ``(X, y)`` with the project's types (see module doc)."""
    path = Path(path)
    df = _read_any(path, name)
    column = pick_target(df.columns, target, name)
    X = coerce_frame(df.drop(columns=[column]), name, infer_numeric=path.suffix.lower() == ".csv")
    return X, as_labels(df[column].reset_index(drop=True))
