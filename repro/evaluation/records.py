"""Tidy result records and their files: the one record writer and reader.

One row per (experiment, method, params, dataset, repetition, fold, split, metric) with ``value``
and the context needed to trust and merge it: sizes, seed, protocol, ``p_<param>`` columns, the
configuration hash, package version, git revision and timestamp (:func:`record_frame`). One
Parquet file per unit of work (a cell: experiment × method+params × data set; or a study's unit);
files from many machines merge by concatenation. A file is *current* when its configuration hash
is the one of the configuration asked for (:func:`is_current`). Writes are atomic (temporary file
+ ``os.replace``). A study's artefacts (weights, visited models, ...) are rows with
``split = "artefact"`` and ``metric = "artefact:<kind>"`` (:func:`artefact_frame`).

A file that cannot be read (truncated, emptied, overwritten: a disk full, a copy cut short) is
never fatal: :func:`read_checked` gives None for it, and the runner, which then recomputes it,
first moves it aside (:func:`quarantine_file`: ``<name>.corrupt``, with a
:class:`CorruptFileWarning`); :func:`read_records` skips it with the same warning.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from repro.config import jsonable
from repro.evaluation.guarded import refuse_links
from repro.evaluation.metrics import PROBA_FLOOR
from repro.evaluation.packs import PARTS_SUFFIX, PackError, loose_files, pack_of, packed_entries
from repro.evaluation.working_tree import library_versions, tree_state
from repro.runtime.temporary_files import temporary_beside

#: the record schema, declared once: a record's key (one value per key), its value, and the
#: context every record carries (types as stored), checked on write by :func:`check_records`;
#: besides them a record has its ``p_<param>`` columns and a study's own context columns
KEY_COLUMNS = ("experiment", "method", "dataset", "repetition", "fold", "split", "metric")
VALUE_COLUMN = "value"
COLUMN_KINDS = {
    "experiment": "text", "method": "text", "dataset": "text", "repetition": "integer",
    "fold": "integer", "split": "text", "metric": "text", "value": "number",
    "n_train": "integer", "n_test": "integer", "params": "text", "seed": "integer",
    "protocol": "text", "config_hash": "text", "version": "text", "git_revision": "text",
    "proba_floor": "number", "dataset_key": "text", "n_features": "integer",
    "n_classes": "integer", "timestamp": "text",
}  # fmt: skip
#: the columns of a record file (records and artefacts alike): a Parquet file with none of them
#: in a results folder is someone else's, skipped with a warning by :func:`read_records`
RECORD_COLUMNS = ("method", "dataset", "metric")


def check_records(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` when it is a frame of records (:data:`COLUMN_KINDS`: every column present and
    of its kind); else a ValueError naming the column, what it should be and what it is."""
    checks = {
        "text": pd.api.types.is_string_dtype,
        "integer": pd.api.types.is_integer_dtype,
        "number": pd.api.types.is_float_dtype,
    }
    missing = [c for c in COLUMN_KINDS if c not in frame.columns]
    if missing:
        raise ValueError(
            f"records without the column(s) {missing} (a record has {list(COLUMN_KINDS)})"
        )
    for column, kind in COLUMN_KINDS.items():
        dtype = frame[column].dtype
        if len(frame) and not checks[kind](dtype):
            raise ValueError(f"record column {column!r} must hold {kind} values, not {dtype}")
    return frame


def config_hash(payload: dict) -> str:
    """Short stable hash of a JSON-able configuration."""
    text = json.dumps(jsonable(payload), sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


@functools.lru_cache(maxsize=1)
def git_revision() -> str:
    """The checkout's ``HEAD`` (12 hex digits) when this package is the ``repro/`` folder of a git
    checkout (an editable install), else ``"unknown"`` (an installed wheel, a copy, no git). Read
    from the repository's files (``HEAD``, the branch's ref or ``packed-refs``; a ``git worktree``
    too): no ``git`` program is run."""
    try:
        sha = _head_commit(Path(__file__).resolve().parents[2] / ".git")
    except (OSError, UnicodeDecodeError):
        return "unknown"
    return sha[:12] if sha else "unknown"


def _head_commit(dot_git: Path) -> str | None:
    """The full hex name of the commit ``HEAD`` names in the repository ``dot_git`` (a ``.git``
    folder, or the ``gitdir:`` file of a worktree); None when there is none."""
    if dot_git.is_file():  # a worktree: "gitdir: <its folder in the main repository>"
        text = dot_git.read_text().strip()
        if not text.startswith("gitdir:"):
            return None
        dot_git = (dot_git.parent / text.removeprefix("gitdir:").strip()).resolve()
    if not (dot_git / "HEAD").is_file():
        return None
    common = dot_git  # refs live in the main repository's folder (a worktree's "commondir")
    if (dot_git / "commondir").is_file():
        common = (dot_git / (dot_git / "commondir").read_text().strip()).resolve()
    head = (dot_git / "HEAD").read_text().strip()
    for _ in range(5):  # a symbolic ref may name another one
        if not head.startswith("ref:"):
            return head if _is_sha(head) else None
        ref = head.removeprefix("ref:").strip()
        for folder in (dot_git, common):
            if (folder / ref).is_file():
                head = (folder / ref).read_text().strip()
                break
        else:  # a packed ref: "<sha> <ref>" lines
            packed = common / "packed-refs"
            lines = packed.read_text().splitlines() if packed.is_file() else []
            found = [ln.split()[0] for ln in lines if ln.endswith(f" {ref}") and ln[:1] != "#"]
            return found[0] if found and _is_sha(found[0]) else None
    return None


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def package_version() -> str:
    """The installed distribution's version (``"unknown"`` when run from an uninstalled copy)."""
    try:
        return importlib.metadata.version("repro")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def param_columns(params: dict) -> dict:
    """``p_<name>`` columns; non-scalar values are stored as JSON text."""
    cols = {}
    for name, value in params.items():
        value = jsonable(value)
        if isinstance(value, list | dict):
            value = json.dumps(value, sort_keys=True)
        cols[f"p_{name}"] = value
    return cols


def record_frame(
    rows,
    *,
    experiment: str,
    method: str,
    params: dict,
    dataset: str,
    dataset_key: str,
    seed: int,
    protocol: str,
    chash: str,
    n_features: int,
    n_classes: int,
    n_train: int,
    n_test: int,
    repetition: int = 0,
    fold: int = 0,
    extra: dict | None = None,
) -> pd.DataFrame:
    """Tidy records of one fit from ``(split, metric, value)`` triples and their context;
    ``extra`` adds study columns (constructions, panel points, ...) before the timestamp."""
    frame = pd.DataFrame(list(rows), columns=["split", "metric", "value"])
    frame["value"] = frame["value"].astype(float)
    frame.insert(0, "repetition", int(repetition))
    frame.insert(1, "fold", int(fold))
    frame["n_train"] = int(n_train)
    frame["n_test"] = int(n_test)
    context = {
        "experiment": experiment,
        "method": method,
        "params": json.dumps(jsonable(params), sort_keys=True, default=str),
        "dataset": dataset,
        "seed": int(seed),
        "protocol": protocol,
        **param_columns(params),
        "config_hash": chash,
        "version": package_version(),
        "git_revision": git_revision(),
        "git_dirty": tree_state(),
        "libraries": library_versions(),
        "proba_floor": PROBA_FLOOR,
        "dataset_key": dataset_key,
    }
    for col, value in context.items():
        frame[col] = value
    frame["n_features"] = int(n_features)
    frame["n_classes"] = int(n_classes)
    for col, value in (extra or {}).items():
        frame[col] = value
    frame["timestamp"] = pd.Timestamp.now(tz="UTC").isoformat(timespec="seconds")
    return frame


ARTEFACT_SPLIT = "artefact"


def artefact_frame(kind: str, rows: list[dict], **context) -> pd.DataFrame:
    """Artefact rows of one ``kind`` (free columns, a float ``value``) with their context."""
    frame = pd.DataFrame(rows)
    frame.insert(0, "artefact", kind)
    for col, value in context.items():
        frame[col] = value
    frame["split"] = ARTEFACT_SPLIT
    frame["metric"] = f"artefact:{kind}"
    if "value" not in frame:
        frame["value"] = np.nan
    frame["value"] = frame["value"].astype(float)
    return frame


def unit_hash(method, params, dataset_key, seed, protocol, extra=None) -> str:
    """Configuration hash of a unit of work identified by its data set *key* and protocol *name*
    (with ``extra``: the study's hashed context). The hash of every non-cell unit (challenge
    entries, timing points, Khiops agreement) and of the waveform study's cells."""
    payload = {
        "method": method,
        "params": params,
        "dataset": dataset_key,
        "seed": seed,
        "protocol": protocol,
        **(extra or {}),
    }
    return config_hash(payload)


class CorruptFileWarning(UserWarning):
    """A result or checkpoint file that cannot be read: moved aside (quarantined) or skipped."""


class IncompleteCellWarning(CorruptFileWarning):
    """A cell file that lacks some of its folds (or holds some twice): not a finished cell; its
    folds become checkpoints and the cell is resumed."""


#: what reading a damaged Parquet file raises (pyarrow: ArrowInvalid, OSError "Corrupt snappy")
READ_ERRORS = (pa.ArrowException, OSError, ValueError, KeyError)


def quarantine_file(path, reason) -> Path | None:
    """Move an unreadable file aside to ``<name>.corrupt`` (``.corrupt-2``, ... when taken),
    out of the way of readers and of its recomputation, with a :class:`CorruptFileWarning`.
    Returns the new path (None when the file is already gone)."""
    path = Path(path)
    target, n = path.with_name(f"{path.name}.corrupt"), 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{n}")
    try:
        os.rename(path, target)
    except FileNotFoundError:
        return None
    warnings.warn(
        f"{path} is unreadable ({reason}); moved aside to {target.name}, and what it held is "
        "recomputed",
        CorruptFileWarning,
        stacklevel=2,
    )
    return target


def read_checked(path, *, quarantine: bool = False, require=()) -> pd.DataFrame | None:
    """The frame stored in ``path``; None when it is missing or unreadable (a damaged Parquet
    file, or one without the ``require`` columns), moved aside by :func:`quarantine_file` when
    ``quarantine`` (only the process that then rewrites it should: it holds the cell's lock)."""
    path = Path(path)
    try:
        frame = pd.read_parquet(path)
        missing = [c for c in require if c not in frame.columns]
        if missing:
            raise KeyError(f"not a record file: no column {missing}")
    except FileNotFoundError:
        packed = _packed_table(path)
        if packed is None or not set(require) <= set(packed.column_names):
            return None
        return packed.to_pandas()
    except READ_ERRORS as exc:
        if quarantine:
            quarantine_file(path, f"{type(exc).__name__}: {exc}")
        return None
    return frame


def is_current(path, chash: str) -> bool:
    """True when ``path`` exists, is readable and was computed with configuration hash
    ``chash``."""
    path = Path(path)
    if not path.exists():
        found = _pack_of(path)
        return found is not None and found[0].config_hashes(found[1]) == {chash}
    try:
        stored = pd.read_parquet(path, columns=["config_hash"])["config_hash"]
    except FileNotFoundError:
        return False
    except READ_ERRORS:
        return False
    return bool(len(stored)) and stored.iloc[0] == chash


def stored_exists(path) -> bool:
    """True when the record file ``path`` exists, loose or packed (:mod:`.packs`)."""
    path = Path(path)
    return path.exists() or _pack_of(path) is not None


def _pack_of(path: Path):
    """:func:`~repro.evaluation.packs.pack_of`, with a damaged pack warned about and taken
    for none (its cells are recomputed, written loose)."""
    try:
        return pack_of(path)
    except PackError as exc:
        warnings.warn(f"{exc}; its records are not read", CorruptFileWarning, stacklevel=3)
        return None


def _packed_table(path: Path) -> pa.Table | None:
    found = _pack_of(path)
    return None if found is None else found[0].table(found[1])


def write_atomic(frame: pd.DataFrame, path: Path) -> None:
    """Write a Parquet file so that readers never see a partial file: a temporary file of a
    unique name beside it, then ``os.replace``. The file gets the permissions of any file the
    user creates (the umask's), not ``mkstemp``'s owner-only ones: a results folder shared on a
    cluster stays readable by the group."""
    path = refuse_links(path)  # a planted link as the cell's folder (e.g. ``.parts``): refused
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_beside(path)
    try:
        # zstd, and no second copy of the schema (pandas' metadata already names the types):
        # half the size of a small cell file, read as the same frame
        frame.to_parquet(tmp, index=False, compression="zstd", store_schema=False)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def is_checkpoint(path) -> bool:
    """True for a file of a running cell's checkpoint folder (not a result file)."""
    return Path(path).parent.name.endswith(PARTS_SUFFIX)


def read_records(path) -> pd.DataFrame:
    """All records under a file or directory (``**/*.parquet``, checkpoints excluded).

    In a directory, an unreadable file is skipped with a :class:`CorruptFileWarning` (the runner
    recomputes it on its next visit); an unreadable single file is a ``ValueError``. The frame is
    the one ``pd.concat`` of the files' frames gives, in sorted file order (a folder holds
    thousands of small files: they are read as Arrow tables and converted once per schema,
    :func:`concat_tables_as_pandas`)."""
    path = Path(path)
    if path.is_file():
        try:
            return pd.read_parquet(path)
        except READ_ERRORS as exc:
            raise ValueError(f"{path} is not a readable result file: {exc}") from exc
    if not path.exists() and (packed := _packed_table(path)) is not None:
        return packed.to_pandas()
    # regular files only: a FIFO or device named like a record would block or stream for ever
    loose = loose_files(path)
    try:
        packed = packed_entries(path)
    except PackError as exc:
        warnings.warn(f"{exc}; its records are not read", CorruptFileWarning, stacklevel=2)
        packed = {}
    files = sorted(set(loose) | set(packed))  # a loose file wins over its packed entry
    if not files:
        raise FileNotFoundError(f"No result records (*.parquet) under {path}")
    loose = set(loose)
    items: list = []  # in file order: a loose file's table, or (pack, entry name, file)
    mistyped: dict[pa.Schema, list[str]] = {}
    for file in files:
        try:
            if file in loose:
                with pq.ParquetFile(file) as parquet:  # a third of read_table's time per file
                    table = parquet.read(use_threads=False)
                schema = table.schema
            else:
                pack, name = packed[file]
                table, schema = (pack, name, file), pack.plain_schema(name)
        except FileNotFoundError:  # packed meanwhile: its new pack holds it
            table = _packed_table(file)
            if table is None:
                continue
            schema = table.schema
        except READ_ERRORS:
            warnings.warn(
                f"skipped {file}: not a readable Parquet file (a damaged result file; running "
                "its cell again recomputes it)",
                CorruptFileWarning,
                stacklevel=2,
            )
            continue
        if not set(RECORD_COLUMNS) & set(schema.names):  # another program's file
            warnings.warn(
                f"skipped {file}: not a record file (none of the columns "
                f"{', '.join(RECORD_COLUMNS)})",
                CorruptFileWarning,
                stacklevel=2,
            )
            continue
        if schema not in mistyped:  # a pack's entries share a few schemas
            mistyped[schema] = mistyped_columns(schema)
        wrong = mistyped[schema]
        if wrong:
            warnings.warn(
                f"skipped {file}: record column(s) of the wrong type ({'; '.join(wrong)})",
                CorruptFileWarning,
                stacklevel=2,
            )
            continue
        if isinstance(table, pa.Table) and (long := overlong_name(table)):
            warnings.warn(f"skipped {file}: {long}", CorruptFileWarning, stacklevel=2)
            continue
        items.append(_named_rows(table, file) if isinstance(table, pa.Table) else table)
    if not items:
        raise FileNotFoundError(f"No readable result records (*.parquet) under {path}")
    return concat_tables_as_pandas(items)


def _arrow_kind_ok(kind: str, dtype: pa.DataType) -> bool:
    if pa.types.is_null(dtype):  # a column with no value at all
        return True
    if pa.types.is_dictionary(dtype):
        dtype = dtype.value_type
    if kind == "text":
        return pa.types.is_string(dtype) or pa.types.is_large_string(dtype)
    # integer and number: a number either way (artefact files store counts as floats, NaN where
    # a row has none); what breaks a reader is text where a number belongs, and the reverse
    return pa.types.is_floating(dtype) or pa.types.is_integer(dtype)


def mistyped_columns(schema: pa.Schema) -> list[str]:
    """The columns of :data:`COLUMN_KINDS` in ``schema`` that do not hold their kind (text, or a
    number for "integer" and "number"), each as "name: kind expected, type found" (a record file
    written by another program, or by hand)."""
    return [
        f"{name}: {kind} expected, {schema.field(name).type} found"
        for name, kind in COLUMN_KINDS.items()
        if name in schema.names and not _arrow_kind_ok(kind, schema.field(name).type)
    ]


#: the columns a record cannot go without (:func:`_named_rows`)
NAME_COLUMNS = ("method", "dataset")


#: the longest method or data set name a record may carry (a longer one is not a name: a file
#: from elsewhere, whose name copied into every row of a frame would take gigabytes)
MAX_NAME = 4096


def overlong_name(table: pa.Table) -> str | None:
    """What is wrong with ``table``'s method or data set names when one is longer than
    :data:`MAX_NAME` characters, else None."""
    import pyarrow.compute as pc

    for column in NAME_COLUMNS:
        if column not in table.column_names or not len(table):
            continue
        values = table.column(column)
        if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
            continue
        longest = pc.max(pc.utf8_length(values)).as_py() or 0
        if longest > MAX_NAME:
            return f"a {column} name of {longest:,} characters (at most {MAX_NAME:,})"
    return None


def _named_rows(table: pa.Table, file) -> pa.Table:
    """``table`` without the rows whose method or data set name is missing (a warning names
    the file and the count): a record of nothing cannot be compared or labelled."""
    import pyarrow.compute as pc

    keep = None
    for column in NAME_COLUMNS:
        if column in table.column_names and table.column(column).null_count:
            valid = pc.is_valid(table.column(column))
            keep = valid if keep is None else pc.and_(keep, valid)
    if keep is None:
        return table
    dropped = len(table) - pc.sum(keep).as_py()
    warnings.warn(
        f"skipped {dropped} records of {file} without a method or data set name",
        CorruptFileWarning,
        stacklevel=3,
    )
    return table.filter(keep)


def concat_tables_as_pandas(tables: list) -> pd.DataFrame:
    """``pd.concat([t.to_pandas() for t in tables], ignore_index=True)``, converted to pandas
    once per distinct schema rather than once per table: the tables of one schema are
    concatenated by Arrow, the groups by pandas (which fills a column a group lacks with NaN and
    finds the common dtype, as it does table by table), and the rows put back in table order.

    An item may also be a packed entry ``(pack, name, file)``, standing for its table as
    :meth:`~repro.evaluation.packs.Pack.table` gives it less the rows without a method or data
    set name (:func:`_named_rows`): the entries of one schema are taken from their pack at once
    (:meth:`~repro.evaluation.packs.Pack.gather`), not one by one."""
    if tables and all(_in_pack(item, tables[0][0]) for item in tables):
        frame = _pack_run_frame(tables[0][0], [name for _, name, _ in tables])
        if frame is not None:
            return frame
    groups: dict[pa.Schema, list[int]] = {}
    for i, item in enumerate(tables):
        if isinstance(item, pa.Table):
            schema = item.schema.remove_metadata()
        else:
            schema = item[0].plain_schema(item[1])
        groups.setdefault(schema, []).append(i)
    frames, order = [], []
    for members in groups.values():
        table, counts = _group_table(tables, members)
        if len(groups) == 1:
            return table.to_pandas()
        frames.append(table.to_pandas())
        order.append(np.repeat(members, counts))
    out = pd.concat(frames, ignore_index=True)
    rank = np.argsort(np.concatenate(order), kind="stable")
    if np.array_equal(rank, np.arange(len(rank))):
        return out
    return out.take(rank).reset_index(drop=True)


def _group_table(items: list, members: list[int]) -> tuple[pa.Table, list[int]]:
    """The items ``members`` (of one schema) as one table without metadata, and the rows each
    gave; the packed entries that follow each other in one pack gathered at once."""
    parts, counts = [], []
    i = 0
    while i < len(members):
        item = items[members[i]]
        if isinstance(item, pa.Table):
            parts.append(item.replace_schema_metadata(None))
            counts.append(item.num_rows)
            i += 1
            continue
        pack, j = item[0], i
        while j < len(members) and _in_pack(items[members[j]], pack):
            j += 1
        run = [items[m] for m in members[i:j]]
        table = pack.gather([name for _, name, _ in run])
        if any(c in table.column_names and table.column(c).null_count for c in NAME_COLUMNS):
            for _, name, file in run:  # rows without a name: dropped file by file, each named
                kept = _named_rows(pack.table(name), file).replace_schema_metadata(None)
                parts.append(kept)
                counts.append(kept.num_rows)
        else:
            parts.append(table)
            counts.extend(pack.entries[name].rows for _, name, _ in run)
        i = j
    return pa.concat_tables(parts), counts


#: Arrow types whose pandas column a table gives alone as the concatenation of tables gives it
#: (a number or a text; an integer column with a missing value is a float column either way)
_SAME_ALONE = (pa.int64(), pa.float64(), pa.string(), pa.large_string())


def _pack_run_frame(pack, names: list[str]) -> pd.DataFrame | None:
    """The frame of the packed entries ``names`` when their rows lie in that order in the pack
    (a folder read whole: :meth:`~repro.evaluation.packs.Pack.run`), taken from the pack's
    table column by column, with no reordering of rows: a column of one Arrow type among
    :data:`_SAME_ALONE` (bool where every entry has it) converts as it stands; any other (no
    value at all in some entries, a boolean some lack) as ``pd.concat`` of the entries' groups
    makes it. None when the rows do not lie so, or some lack a method or data set name."""
    table = pack.run(names)
    if table is None:
        return None
    if any(c in table.column_names and table.column(c).null_count for c in NAME_COLUMNS):
        return None
    groups: dict[pa.Schema, list[str]] = {}
    for name in names:
        groups.setdefault(pack.plain_schema(name), []).append(name)
    columns = list(dict.fromkeys(f.name for schema in groups for f in schema))
    out, rank = {}, None
    for column in columns:
        kinds = {
            pa.string() if t == pa.large_string() else t
            for t in (s.field(column).type for s in groups if column in s.names)
        }
        every = all(column in s.names for s in groups)
        (kind,) = kinds if len(kinds) == 1 else (None,)
        if kind in _SAME_ALONE or (kind == pa.bool_() and every):
            values = table.column(column).to_pandas()
            # an integer column some entries lack (even with no rows) is a float column
            out[column] = values if every or kind != pa.int64() else values.astype(np.float64)
            continue
        if rank is None:  # file-order position of each row of the groups one after another
            rows = {n: pack.entries[n].rows for n in names}
            start = dict(zip(names, np.cumsum([0, *rows.values()])[:-1], strict=True))
            where = [np.arange(rows[n]) + start[n] for m in groups.values() for n in m]
            rank = np.argsort(np.concatenate(where), kind="stable")
        parts = [
            pack.gather(members, columns=[column]).to_pandas()
            if column in schema.names
            else _lacking(column, sum(pack.entries[n].rows for n in members))
            for schema, members in groups.items()
        ]
        joined = pd.concat(parts, ignore_index=True)[column]
        out[column] = joined.take(rank).reset_index(drop=True)
    return pd.DataFrame(out)


def _lacking(column: str, rows: int) -> pd.DataFrame:
    """A frame of ``rows`` rows without ``column`` (but with another: ``pd.concat`` passes
    over a frame of no column and no row, not over one of no row that lacks ``column``)."""
    return pd.DataFrame({f"not {column}": np.zeros(rows)})


def _in_pack(item, pack) -> bool:
    return not isinstance(item, pa.Table) and item[0] is pack


#: the metrics of a cell's summary: the predictive ones on the test split, model size and time
SUMMARY_METRICS = (
    "accuracy",
    "auc",
    "compression_rate",
    "balanced_error_rate",
    "log_sum",
    "n_selected",
    "fit_time",
)


def summarize(records: pd.DataFrame, metrics=None) -> pd.DataFrame:
    """Numbers, one row per (method, data set): ``<metric>_mean``, ``<metric>_sd`` (over folds;
    0 for one fold) of each metric (test split; times and model size from the model rows) and
    ``folds``. :func:`format_summary` prints it."""
    metrics = list(metrics or SUMMARY_METRICS)
    rows_of = records[records["split"].isin(["test", "model"])]
    rows = []
    for (method, dataset), grp in rows_of.groupby(["method", "dataset"], sort=False):
        row = {"method": method, "dataset": dataset}
        for metric in metrics:
            values = grp.loc[grp["metric"] == metric, "value"].astype(float)
            if len(values):
                row[f"{metric}_mean"] = float(values.mean())
                row[f"{metric}_sd"] = float(values.std(ddof=1)) if len(values) > 1 else 0.0
        test = grp[grp["split"] == "test"]
        row["folds"] = int(test[["repetition", "fold"]].drop_duplicates().shape[0])
        rows.append(row)
    return pd.DataFrame(rows)


def meaningful(mean: float, sd: float) -> str:
    """``mean ± sd`` with the digits the spread carries: sd to two significant digits and the
    mean to the same decimal place (``0.832 ± 0.017``); a constant integer prints as one
    (``19``); a constant value with four significant digits."""
    if not np.isfinite(mean):
        return str(mean)
    if not np.isfinite(sd) or sd == 0:
        if float(mean).is_integer():
            return str(int(mean))
        return f"{mean:.4g}"
    decimals = max(0, 1 - int(np.floor(np.log10(abs(sd)))))
    return f"{mean:.{decimals}f} ± {sd:.{decimals}f}"


def format_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """The table of :func:`summarize` as text: one ``mean ± sd`` column per metric."""
    out = summary[["method", "dataset"]].copy()
    for column in summary.columns:
        if column.endswith("_mean"):
            metric = column[: -len("_mean")]
            out[metric] = [
                meaningful(m, s) if pd.notna(m) else ""
                for m, s in zip(summary[column], summary[f"{metric}_sd"], strict=True)
            ]
    out["folds"] = summary["folds"]
    return out
