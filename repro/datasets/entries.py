"""The catalog: data set names → one source each, with metadata.

Sources, in order of precedence when two claim a name (one name → one source):

1. ``local``     files in the folders of ``$REPRO_DATA_PATH`` (your own, e.g. ``--config-dir``'s
                 ``dataset/``; the first folder wins a name), then in the data directory
                 (``local.py``); a file named like a generator or an OpenML entry replaces it;
2. ``generator`` ``generators.GENERATORS`` (waveform, waveform_noise, led, led17, twonorm_gen,
                 madelon_like; vidaurre2012's DI, DR, CI, CR, vidaurre_toy* from
                 ``vidaurre2012.py``);
3. ``sklearn``   ``sklearn_source.SKLEARN`` (breast_cancer, iris_sklearn, ...);
4. ``openml``    every row of OPENML_ONLY.csv, and every MANIFEST.csv row whose file is absent;
                 rows without a (certain) OpenML id are listed with status ``unavailable``.

MANIFEST.csv and OPENML_ONLY.csv are read from the data directory, else from the repository's
``datasets/`` folder. The catalog is rebuilt on every call (a directory listing and two small
CSV files), so a file dropped into the data directory is seen at once.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from . import local, openml_source
from .dataset import Dataset
from .generators import GENERATORS
from .sklearn_source import SKLEARN

__all__ = ["SOURCES", "Entry", "catalog", "get_entry", "list_datasets", "load_dataset"]

SOURCES = ("local", "generator", "sklearn", "openml")
#: keyword arguments of load_dataset understood for every source
COMMON_PARAMS = ("data_dir", "cache_dir")
#: extra parameters of file-backed sources
SOURCE_PARAMS = {"local": ("target",), "openml": ("target", "download"), "sklearn": ()}
#: statistics of an entry (of its default sample or file)
_STATS = ("n", "n_numeric", "n_categorical", "n_classes", "majority_pct")
#: columns of :func:`list_datasets`
LIST_COLUMNS = ["name", "source", *_STATS, "status", "papers", "openml_id", "offline", "notes"]


@dataclass(frozen=True)
class Entry:
    """One catalog entry. Statistics describe the default sample / the file (None = unknown)."""

    name: str
    source: str
    n: int | None = None
    n_numeric: int | None = None
    n_categorical: int | None = None
    n_classes: int | None = None
    majority_pct: float | None = None
    status: str = ""
    papers: tuple[str, ...] = ()
    openml_id: int | None = None
    notes: str = ""
    path: Path | None = None
    params: dict = field(default_factory=dict)  # generator defaults
    extra: dict = field(default_factory=dict)  # origin, sha256, paper_shape, ...

    def offline(self, cache_dir=None) -> bool:
        """Usable without network: generated, bundled, a local file, or in the OpenML cache."""
        if self.source in ("generator", "sklearn"):
            return True
        if self.source == "local":
            return self.path is not None and self.path.is_file()
        return self.openml_id is not None and openml_source.is_cached(self.openml_id, cache_dir)

    def allowed_params(self) -> tuple[str, ...]:
        if self.source == "generator":
            return tuple(self.params)
        return SOURCE_PARAMS[self.source]

    def as_dict(self) -> dict:
        d = asdict(self)
        d["papers"] = list(self.papers)
        d["path"] = str(self.path) if self.path else None
        return d


# --------------------------------------------------------------------------------------------
# Building the catalog
# --------------------------------------------------------------------------------------------
#: a paper shape "N × K × J" (optionally followed by "; ...") or "N, K=.., C=.."
_SHAPE = re.compile(r"^\s*(\d+)\s*(?:×\s*(\d+)\s*×|,\s*K=(\d+),\s*C=)\s*(\d+)\s*(?:;|$)")


def _local_entries(data_dir: Path, manifest: dict) -> dict[str, Entry]:
    entries = {}
    for name, f in local.scan(data_dir).items():
        row = manifest.get(name)
        notes = row["notes"] if row else ""
        if f.shadowed:
            ignored = ", ".join(p.name for p in f.shadowed)
            notes = f"{notes} (also found, ignored: {ignored})".strip()
        if row and row["file"] == f.path.name:
            stats = {k: row[k] for k in _STATS}
            extra = {k: row[k] for k in ("origin", "sha256", "n_rows_with_missing")}
            entries[name] = Entry(
                name,
                "local",
                **stats,
                status=row["status"],
                papers=row["papers"],
                openml_id=row["openml_id"],
                notes=notes,
                path=f.path,
                extra=extra,
            )
        else:
            entries[name] = Entry(name, "local", status="user", notes=notes, path=f.path)
    return entries


def _generator_entries() -> dict[str, Entry]:
    return {
        name: Entry(
            name,
            "generator",
            n=spec.n,
            n_numeric=spec.n_numeric,
            n_categorical=spec.n_categorical,
            n_classes=spec.n_classes,
            majority_pct=spec.majority_pct,
            status="generated",
            papers=spec.papers,
            notes=spec.notes,
            params=dict(spec.defaults),
        )
        for name, spec in GENERATORS.items()
    }


def _sklearn_entries() -> dict[str, Entry]:
    return {
        name: Entry(
            name,
            "sklearn",
            n=spec.n,
            n_numeric=spec.n_numeric,
            n_categorical=0,
            n_classes=spec.n_classes,
            majority_pct=spec.majority_pct,
            status=spec.status,
            papers=spec.papers,
            notes=spec.notes,
        )
        for name, spec in SKLEARN.items()
    }


def _openml_entry(name, openml_id, papers, notes, status, stats, extra, cache_dir) -> Entry:
    if openml_id is None:
        status = "unavailable"
    elif openml_source.is_cached(openml_id, cache_dir):
        cached = openml_source.read_cache_meta(openml_id, cache_dir)
        stats = {**stats, **{k: cached[k] for k in _STATS if k in cached}}
    return Entry(
        name,
        "openml",
        **stats,
        status=status,
        papers=papers,
        openml_id=openml_id,
        notes=notes,
        extra=extra,
    )


def _openml_entries(data_dir: Path, manifest: dict, cache_dir) -> dict[str, Entry]:
    entries = {}
    for name, row in local.read_openml_only(data_dir).items():
        stats = {}
        m = _SHAPE.match(row["paper_shape"])
        if m:  # the paper's shape "N × K × J": instances and classes only (types unknown)
            stats = {"n": int(m.group(1)), "n_classes": int(m.group(4))}
        notes = row["openml_note"] or f"paper shape {row['paper_shape']}"
        extra = {"paper_shape": row["paper_shape"]}
        entries[name] = _openml_entry(
            name, row["openml_id"], row["papers"], notes, "openml", stats, extra, cache_dir
        )
    for name, row in manifest.items():
        note = f"local file {row['file']} absent; the OpenML version may differ: {row['notes']}"
        extra = {"origin": row["origin"], "manifest_status": row["status"]}
        entries.setdefault(
            name,
            _openml_entry(
                name, row["openml_id"], row["papers"], note, "openml", {}, extra, cache_dir
            ),
        )
    return entries


def catalog(data_dir=None, cache_dir=None) -> dict[str, Entry]:
    """All entries by name; the first source in :data:`SOURCES` order wins a name."""
    folder = local.resolve_data_dir(data_dir)
    manifest = local.read_manifest(folder)
    merged: dict[str, Entry] = {}
    own = [_local_entries(f, {}) for f in local.data_path() if f.resolve() != folder.resolve()]
    for entries in (
        *own,
        _local_entries(folder, manifest),
        _generator_entries(),
        _sklearn_entries(),
        _openml_entries(folder, manifest, cache_dir),
    ):
        for name, entry in entries.items():
            if name in merged:
                winner = merged[name]
                if winner.source == "local" and entry.source != "openml":
                    replaced = f"file {entry.path}" if entry.path else f"{entry.source} entry"
                    note = f"{winner.notes} (replaces the {replaced})".strip()
                    merged[name] = replace(winner, notes=note)
                continue
            merged[name] = entry
    return dict(sorted(merged.items()))


def _unknown(kind: str, value: str, valid, hint: str = "") -> ValueError:
    valid = sorted(valid)
    close = difflib.get_close_matches(value, valid, n=3)
    did = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    return ValueError(f"Unknown {kind} {value!r}.{did} Valid: {', '.join(valid)}.{hint}")


def get_entry(name: str, data_dir=None, cache_dir=None) -> Entry:
    """The catalog entry of ``name`` (exact, else case-insensitive); ``ValueError`` if unknown."""
    entries = catalog(data_dir, cache_dir)
    if not isinstance(name, str):
        raise ValueError(f"data set name must be a string, got {name!r}")
    if name in entries:
        return entries[name]
    folded = [n for n in entries if n.lower() == name.lower()]
    if len(folded) == 1:
        return entries[folded[0]]
    folder = local.resolve_data_dir(data_dir)
    raise _unknown(
        "data set",
        name,
        entries,
        f" (add one by dropping {name}.parquet/.arff/.csv into {folder}, or into DIR/dataset/"
        " with --config-dir=DIR)",
    )


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------
def _check_params(entry: Entry, params: dict) -> None:
    allowed = entry.allowed_params()
    for key in params:
        if key not in allowed:
            hint = difflib.get_close_matches(key, allowed, n=1)
            did = f" Did you mean {hint[0]!r}?" if hint else ""
            listed = ", ".join(allowed + COMMON_PARAMS)
            raise ValueError(
                f"data set {entry.name!r} ({entry.source}) has no parameter {key!r}.{did} "
                f"Allowed: {listed}."
            )


def data_fingerprint(entry: Entry) -> str | None:
    """The content of a local data file that is not the package's own (a user's file, or a
    bundled one edited in place): its SHA-256, which becomes part of the identity of the cells
    computed on it (an edited file is computed afresh); None for the bundled files whose content
    is the one recorded in MANIFEST.csv, for generated and for OpenML data."""
    if entry.source != "local" or entry.path is None:
        return None
    digest = local.file_digest(entry.path)
    return None if digest == entry.extra.get("sha256") else digest


def load_dataset(name: str, *, data_dir=None, cache_dir=None, **params) -> Dataset:
    """Load a catalog data set as a :class:`Dataset`.

    Parameters
    ----------
    name : str
        Catalog name (``list_datasets()``).
    data_dir : path, optional
        Folder of local data files (default ``$REPRO_DATA_DIR`` or the repository's
        ``datasets/``).
    cache_dir : path, optional
        OpenML cache folder (default ``$REPRO_OPENML_CACHE`` or ``~/.cache/repro/openml``).
    **params
        Generator parameters (``n_samples``, ``seed``, ``noise``, ``n_noise``, ``flip``, ...),
        or ``target=`` (local/openml: the class column), ``download=`` (openml).

    Raises
    ------
    ValueError
        Unknown name or parameter, out-of-range parameter, unusable data.
    DatasetUnavailableError
        An OpenML data set that is neither cached nor downloadable here.
    """
    entry = get_entry(name, data_dir, cache_dir)
    _check_params(entry, params)
    meta = {k: v for k, v in entry.as_dict().items() if k not in ("params", "extra", *_STATS)}
    meta.update(entry.extra)
    if entry.source == "generator":
        effective = {**entry.params, **params}
        X, y = GENERATORS[entry.name].func(**params)
        meta["params"] = effective
    elif entry.source == "sklearn":
        X, y = SKLEARN[entry.name].func()
        meta["params"] = {}
    elif entry.source == "local":
        X, y = local.read_table(entry.path, entry.name, params.get("target"))
        meta["params"] = dict(params)
        meta["format"] = local.data_name(entry.path)[1].lstrip(".")
        fingerprint = data_fingerprint(entry)
        if fingerprint:
            meta["fingerprint"] = fingerprint
    else:
        X, y, cached = openml_source.load_openml(
            entry.name,
            entry.openml_id,
            cache_dir,
            params.get("target"),
            params.get("download", True),
            entry.notes,
        )
        meta.update(cached)
        meta["params"] = dict(params)
    return Dataset(entry.name, X, np.asarray(y), meta)  # validated there


# --------------------------------------------------------------------------------------------
# Listing
# --------------------------------------------------------------------------------------------
_FILE_STATS: dict[tuple, dict] = {}
#: a local file larger than this (bytes) is not read to fill its row of the listing (a 0.3 GB
#: CSV took 40 s and 2.4 GB of memory); ``python -m repro.datasets show NAME`` reads it
LIST_READ_LIMIT = 64 * 2**20


def _file_stats(entry: Entry) -> dict:
    """Statistics of a local file without MANIFEST row (memoised by path, size, mtime); a file
    above :data:`LIST_READ_LIMIT` is not read (status ``not read: ...``)."""
    st = entry.path.stat()
    key = (str(entry.path), st.st_size, st.st_mtime_ns)
    if st.st_size > LIST_READ_LIMIT:
        return {
            "status": f"user (not read for the list: {st.st_size / 2**20:.0f} MB; "
            f"`python -m repro.datasets show {entry.name}` reads it)"
        }
    if key not in _FILE_STATS:
        try:
            X, y = local.read_table(entry.path, entry.name)
            _FILE_STATS[key] = Dataset(entry.name, X, np.asarray(y)).summary()  # validated
        except (ValueError, OSError) as exc:
            _FILE_STATS[key] = {"status": f"error: {exc}"}
    return _FILE_STATS[key]


def list_datasets(data_dir=None, cache_dir=None) -> pd.DataFrame:
    """The catalog as a table, one row per entry (columns :data:`LIST_COLUMNS`), by name.

    ``offline`` is True when the data can be loaded without network. Local files without a
    MANIFEST.csv row are read once to fill their statistics (status ``error: ...`` if unusable).
    """
    rows = []
    for entry in catalog(data_dir, cache_dir).values():
        row = {c: getattr(entry, c) for c in LIST_COLUMNS if hasattr(entry, c)}
        if entry.source == "local" and entry.n is None:
            stats = _file_stats(entry)
            row.update({k: v for k, v in stats.items() if k in LIST_COLUMNS})
        row["papers"] = ";".join(entry.papers)
        row["offline"] = entry.offline(cache_dir)
        rows.append(row)
    df = pd.DataFrame(rows, columns=LIST_COLUMNS)
    for c in ("n", "n_numeric", "n_categorical", "n_classes", "openml_id"):
        df[c] = pd.array(df[c].astype("float64"), dtype="Int64")
    df["majority_pct"] = df["majority_pct"].astype("float64")
    df["offline"] = df["offline"].astype(bool)
    return df
