"""Packed results: the record files of an experiment folder folded into one Parquet file.

A sweep writes one file per cell (``<experiment>/<data set>/<stem>.parquet``: concurrent jobs,
resumption and locks need it). :func:`pack_folder` folds the record files of a folder into
``<folder>/packed.parquet`` (:data:`PACK_NAME`) and removes them. The pack holds the union of
their columns, their rows one file after the other, and for each file (an *entry*, named by its
path relative to the folder, ``iris/nb.parquet``) its rows' offset and count and its own Arrow
schema, so that an entry reads back as exactly the frame its file gave (:meth:`Pack.table`).

Readers (:mod:`repro.evaluation.records`) see a packed file where its loose file was:

- a loose file wins over the pack's entry of the same name (a cell recomputed after the pack);
- packing twice changes nothing (no loose file: the pack is not rewritten);
- an interrupted pack loses nothing: the new pack is written to a temporary file and moved into
  place atomically, and only then are the loose files it holds removed (each only when it is
  unchanged since it was read: a file rewritten meanwhile is newer and stays, and wins).

The pack's key-value metadata :data:`META_KEY` is JSON: ``{"format": 1, "schemas": [base64 of
an Arrow schema], "entries": [[name, schema, offset, rows], ...]}``. A pandas frame's schema
names its row count (its RangeIndex); it is stored without it, and put back on reading.
"""

from __future__ import annotations

import base64
import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from repro.evaluation.guarded import refuse_links
from repro.evaluation.locks import cell_lock
from repro.runtime.temporary_files import temporary_beside

#: the file name of a folder's pack
PACK_NAME = "packed.parquet"
#: the key of the pack's table of entries in the Parquet file's metadata
META_KEY = b"repro.pack"
FORMAT = 1
#: how far above a record file its pack may lie (``<experiment>/artefacts/<data set>/<file>``)
PACK_DEPTH = 3
#: the suffix of a running cell's checkpoint folder (never packed)
PARTS_SUFFIX = ".parts"


class PackError(ValueError):
    """A pack file that cannot be read (damaged, or not a pack)."""


@dataclass(frozen=True)
class Entry:
    """One packed file: its name (relative to the pack's folder), the index of its schema, and
    its rows in the pack's table."""

    name: str
    schema: int
    offset: int
    rows: int


class Pack:
    """A pack file: its entries (read from the footer) and, on demand, their tables."""

    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            meta = pq.read_schema(self.path).metadata or {}
            info = json.loads(meta[META_KEY])
        except (OSError, pa.ArrowException, KeyError, ValueError) as exc:
            raise PackError(f"{self.path} is not a readable pack: {exc}") from exc
        if info.get("format") != FORMAT:
            raise PackError(f"{self.path}: pack format {info.get('format')!r}, not {FORMAT}")
        self.schemas = [_schema(text) for text in info["schemas"]]
        self.entries = {e[0]: Entry(*e) for e in info["entries"]}
        self._plain = [schema.remove_metadata() for schema in self.schemas]
        self._table: pa.Table | None = None

    @property
    def folder(self) -> Path:
        return self.path.parent

    def _all(self) -> pa.Table:
        if self._table is None:
            try:
                self._table = pq.read_table(self.path, use_threads=False)
            except (OSError, pa.ArrowException) as exc:
                raise PackError(f"{self.path} is not a readable pack: {exc}") from exc
        return self._table

    def table(self, name: str) -> pa.Table:
        """The table of entry ``name``, as its file held it (columns, types, metadata)."""
        entry = self.entries[name]
        schema = _range_rows(self.schemas[entry.schema], None, entry.rows)
        return self.gather([name]).replace_schema_metadata(schema.metadata)

    def plain_schema(self, name: str) -> pa.Schema:
        """The schema of entry ``name`` without its metadata (what :meth:`gather` gives)."""
        return self._plain[self.entries[name].schema]

    def gather(self, names: list[str], columns: list[str] | None = None) -> pa.Table:
        """The tables of entries ``names`` (all of one schema), one after the other, without
        metadata: ``pa.concat_tables`` of their :meth:`table` with the metadata removed (only
        ``columns`` of it, when given), taken from the pack's table at once rather than entry
        by entry."""
        entries = [self.entries[n] for n in names]
        schema = self._plain[entries[0].schema]
        if any(self._plain[e.schema] != schema for e in entries):
            raise ValueError("gather: entries of different schemas")
        if columns is not None:
            schema = pa.schema([schema.field(c) for c in columns])
        starts = np.array([e.offset for e in entries], dtype=np.int64)
        counts = np.array([e.rows for e in entries], dtype=np.int64)
        total = int(counts.sum())
        rows = self._all().select([f.name for f in schema if f.type != pa.null()])
        if len(entries) == 1 or np.array_equal(starts[1:], (starts + counts)[:-1]):
            rows = rows.slice(int(starts[0]), total)  # one run: no copy
        else:
            within = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
            rows = rows.take(np.repeat(starts, counts) + within)
        columns = []
        for field in schema:
            if field.type == pa.null():
                columns.append(pa.nulls(total))
                continue
            column = rows.column(field.name)
            columns.append(column if column.type == field.type else column.cast(field.type))
        return pa.Table.from_arrays(columns, schema=schema)

    def run(self, names: list[str]) -> pa.Table | None:
        """The pack's table (its union of columns, without metadata) sliced to the rows of the
        entries ``names`` when they lie one after the other in that order; None otherwise."""
        entries = [self.entries[n] for n in names]
        for before, after in zip(entries, entries[1:], strict=False):
            if after.offset != before.offset + before.rows:
                return None
        rows = sum(e.rows for e in entries)
        return self._all().replace_schema_metadata(None).slice(entries[0].offset, rows)

    def config_hashes(self, name: str) -> set:
        """The configuration hashes of entry ``name`` (empty: none recorded)."""
        entry = self.entries[name]
        table = self._all()
        if "config_hash" not in table.column_names:
            return set()
        values = table.column("config_hash").slice(entry.offset, entry.rows)
        return set(values.unique().to_pylist()) - {None}


def entry_order(name: str) -> tuple[str, ...]:
    """The sort key of an entry name: its path's parts, as readers sort the files of a folder
    (``iris/nb.parquet`` before ``iris-2/nb.parquet``, which sorting the names as text would
    put first)."""
    return PurePosixPath(name).parts


def _schema(text: str) -> pa.Schema:
    return pa.ipc.read_schema(pa.py_buffer(base64.b64decode(text)))


def _stamp(path: Path):
    stat = path.stat()
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _open(path: str, stamp) -> Pack:
    return Pack(Path(path))


def open_pack(path) -> Pack | None:
    """The pack file ``path`` (cached while the file is unchanged); None when there is none;
    :class:`PackError` when it cannot be read."""
    path = Path(path)
    try:
        stamp = _stamp(path)
    except FileNotFoundError:
        return None
    if not path.is_file():
        raise PackError(f"{path} is not a file")
    return _open(str(path), stamp)


def is_pack(path) -> bool:
    return Path(path).name == PACK_NAME


def pack_of(path) -> tuple[Pack, str] | None:
    """(the pack, the entry name) that holds the record file ``path``; None when no pack of a
    folder above it (up to :data:`PACK_DEPTH`) has it."""
    path = Path(path)
    for depth, folder in enumerate(path.parents):
        if depth >= PACK_DEPTH:
            break
        pack = open_pack(folder / PACK_NAME)
        if pack is not None:
            name = path.relative_to(folder).as_posix()
            if name in pack.entries:
                return pack, name
    return None


def packed_entries(folder) -> dict[Path, tuple[Pack, str]]:
    """Path → (pack, entry name) of every packed file under ``folder``: the entries of the
    packs in it (at any depth) and of a pack above it (up to :data:`PACK_DEPTH`)."""
    folder = Path(folder)
    out: dict[Path, tuple[Pack, str]] = {}
    for depth, above in enumerate(folder.parents):
        if depth >= PACK_DEPTH:
            break
        pack = open_pack(above / PACK_NAME)
        if pack is None:
            continue
        prefix = folder.relative_to(above).as_posix() + "/"
        for name in pack.entries:
            if name.startswith(prefix):
                out[above / name] = (pack, name)
    for path in folder.rglob(PACK_NAME):
        if not path.is_file():
            continue
        pack = open_pack(path)
        for name in pack.entries:
            out[path.parent / name] = (pack, name)
    return out


def loose_files(folder) -> list[Path]:
    """The record files of ``folder`` that are not packed (no pack, no checkpoint, no temporary
    file, regular files only)."""
    return sorted(
        p
        for p in Path(folder).rglob("*.parquet")
        if not is_pack(p)
        and not p.name.startswith(".")
        and not p.parent.name.endswith(PARTS_SUFFIX)
        and p.is_file()
    )


@dataclass(frozen=True)
class PackSummary:
    """What :func:`pack_folder` did: the pack, the files folded in, the loose files removed,
    the files left loose (unreadable, or changed while packing), the entries in the pack."""

    path: Path
    packed: int
    removed: int
    left: tuple[str, ...]
    entries: int


def pack_folder(folder) -> PackSummary:
    """Fold the loose record files of ``folder`` into its pack (module docstring)."""
    folder = refuse_links(Path(folder))
    if not folder.is_dir():
        raise ValueError(f"no results folder {folder} to pack")
    path = folder / PACK_NAME
    with cell_lock(path, what=f"pack {path}"):
        _remove_stale_temporaries(folder)
        files = loose_files(folder)
        old = open_pack(path)
        tables: dict[str, pa.Table] = {}
        stamps, left = {}, []
        for file in files:
            name = file.relative_to(folder).as_posix()
            try:
                stamp = _stamp(file)
                with pq.ParquetFile(file) as parquet:
                    tables[name] = parquet.read(use_threads=False)
                stamps[name] = (file, stamp)
            except (OSError, pa.ArrowException):
                left.append(name)  # damaged: left for the readers' warning and the runner
        if not tables:
            count = len(old.entries) if old is not None else 0
            return PackSummary(path, 0, 0, tuple(left), count)
        if old is not None:
            for name in old.entries:
                tables.setdefault(name, old.table(name))
        _write_pack({n: tables[n] for n in sorted(tables)}, path)
        removed = 0
        for name, (file, stamp) in stamps.items():
            try:
                if _stamp(file) == stamp:
                    file.unlink()
                    removed += 1
                else:
                    left.append(name)  # rewritten while packing: newer than its entry
            except FileNotFoundError:
                pass
        _remove_empty_folders(folder)
        return PackSummary(path, len(stamps), removed, tuple(left), len(tables))


def _write_pack(tables: dict[str, pa.Table], path: Path) -> None:
    """Write the pack of ``tables`` (name → table), their rows in the order in which a reader
    lists their files (sorted as paths, :func:`entry_order`): reading a folder whole is a slice
    of the pack's table, not a gather row by row."""
    schemas: list[bytes] = []
    entries, plain, offset = [], [], 0
    for name in sorted(tables, key=entry_order):
        table = tables[name]
        key = _range_rows(table.schema, table.num_rows, None).serialize().to_pybytes()
        if key not in schemas:
            schemas.append(key)
        entries.append([name, schemas.index(key), offset, table.num_rows])
        offset += table.num_rows
        plain.append(table.replace_schema_metadata(None))
    union = pa.concat_tables(plain, promote_options="permissive")
    info = {
        "format": FORMAT,
        "schemas": [base64.b64encode(s).decode() for s in schemas],
        "entries": entries,
    }
    union = union.replace_schema_metadata({META_KEY: json.dumps(info)})
    tmp = temporary_beside(path)
    try:
        # zstd 19: about as small as brotli, read several times faster (a report reads every pack)
        pq.write_table(union, tmp, compression="zstd", compression_level=19, row_group_size=1 << 20)
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _pandas_meta(schema: pa.Schema):
    meta = schema.metadata or {}
    return json.loads(meta[b"pandas"]) if b"pandas" in meta else None


def _plain_range(rows: int | None):
    return [{"kind": "range", "name": None, "start": 0, "stop": rows, "step": 1}]


def _range_rows(schema: pa.Schema, old: int | None, new: int | None) -> pa.Schema:
    """``schema`` with its pandas RangeIndex of ``old`` rows given ``new`` rows (None: written
    without its length, as a pack stores it); other schemas unchanged."""
    pandas = _pandas_meta(schema)
    if pandas is None or pandas.get("index_columns") != _plain_range(old):
        return schema
    pandas["index_columns"] = _plain_range(new)
    return schema.with_metadata({**schema.metadata, b"pandas": json.dumps(pandas).encode()})


def _remove_stale_temporaries(folder: Path) -> None:
    """Temporary packs of an interrupted pack (the caller holds the pack's lock)."""
    for tmp in folder.glob(f".{PACK_NAME}.*.tmp"):
        tmp.unlink(missing_ok=True)


def _remove_empty_folders(folder: Path) -> None:
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
        if not sub.is_symlink() and not any(sub.iterdir()):
            try:
                sub.rmdir()
            except OSError:  # filled meanwhile by a running sweep
                pass


__all__ = [
    "PACK_NAME",
    "Entry",
    "Pack",
    "PackError",
    "PackSummary",
    "is_pack",
    "loose_files",
    "open_pack",
    "pack_folder",
    "pack_of",
    "packed_entries",
]


def main(argv=None) -> int:
    """``python -m repro.evaluation.packs FOLDER...``: pack each experiment folder."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m repro.evaluation.packs",
        description="Fold the finished result files of experiment folders into one packed "
        "file each (read exactly as the loose files were; a loose file written later wins).",
    )
    parser.add_argument(
        "folders", nargs="+", type=Path, help="experiment folders, e.g. results/nb_benchmark"
    )
    args = parser.parse_args(argv)
    for folder in args.folders:
        if not folder.is_dir():
            parser.error(f"{folder} is not a folder (give experiment folders of a results folder)")
    for folder in args.folders:
        summary = pack_folder(folder)
        left = f", {len(summary.left)} left loose" if summary.left else ""
        print(
            f"{folder}: {summary.packed} files packed, {summary.removed} removed{left}; "
            f"{summary.entries} in {summary.path.name}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
