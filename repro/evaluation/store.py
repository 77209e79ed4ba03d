"""A results folder and what it holds: the one object every reader and writer of results asks.

A :class:`ResultsStore` is bound to its root folder (``results_dir``). Under it, one folder per
experiment; in it, per cell (:mod:`repro.evaluation.cells` names the files):

- ``<data set>/<stem>.parquet``: the cell's records, written atomically when its folds are done;
- ``<data set>/<stem>.parts/``: the checkpoints of its finished folds while it runs;
- ``artefacts/<data set>/<stem>.parquet``: its artefacts; ``<data set>/<stem>.error.json``: its
  error when it failed;
- ``packed.parquet``: the experiment's finished files folded into one (:mod:`.packs`), read as
  if they were loose (a loose file wins).

A cell is *finished* when its records file (loose or packed) holds every fold of its
configuration, once, with its configuration hash (and its artefacts when it has a hook):
:meth:`ResultsStore.finished`. Records are checked against the record schema when written
(:func:`repro.evaluation.records.check_records`).
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from repro.config import safe_name
from repro.evaluation.cells import Cell, part_path
from repro.evaluation.packs import PackSummary, loose_files, pack_folder, packed_entries
from repro.evaluation.protocols import Split
from repro.evaluation.records import (
    IncompleteCellWarning,
    check_records,
    quarantine_file,
    read_checked,
    read_records,
    stored_exists,
    write_atomic,
)


class ResultsStore:
    """The results folder ``root`` (module docstring)."""

    def __init__(self, root):
        if isinstance(root, ResultsStore):
            root = root.root
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"ResultsStore({str(self.root)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, ResultsStore) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    # -- layout --------------------------------------------------------------------------------
    def folder(self, experiment: str) -> Path:
        """``<root>/<experiment>`` (the name checked: a path never leaves the root)."""
        return self.root / safe_name(experiment, "experiment name", folders=True)

    def cell_file(self, cell: Cell) -> Path:
        return cell.path(self.root)

    def artefact_file(self, cell: Cell) -> Path:
        return cell.artefact_path(self.root)

    def checkpoints(self, cell: Cell) -> Path:
        return cell.parts_path(self.root)

    # -- reading -------------------------------------------------------------------------------
    def exists(self, path) -> bool:
        """True when the record file ``path`` is stored, loose or packed."""
        return stored_exists(path)

    def read(self, path, *, quarantine: bool = False, require=()) -> pd.DataFrame | None:
        """The frame of the record file ``path`` (loose or packed); None when missing or
        unreadable (:func:`~repro.evaluation.records.read_checked`)."""
        return read_checked(path, quarantine=quarantine, require=require)

    def records(self, experiment: str | None = None) -> pd.DataFrame:
        """Every record of an experiment's folder (of the whole root without one); a
        ``FileNotFoundError`` when there are none."""
        return read_records(self.root if experiment is None else self.folder(experiment))

    def record_files(self, experiment: str) -> list[Path]:
        """The record files of an experiment's folder, loose or packed (a pack's entries stand
        for the files it folded), sorted; checkpoints excluded."""
        folder = self.folder(experiment)
        return sorted(set(loose_files(folder)) | set(packed_entries(folder)))

    def finished(self, cell: Cell) -> pd.DataFrame | None:
        """The records of a finished cell, read without its lock (None: not finished, or
        checkpoints beside it; a file of another configuration: :meth:`stored`'s ValueError)."""
        return None if self.checkpoints(cell).exists() else self.stored(cell)

    def stored(self, cell: Cell, force: bool = False, locked: bool = False):
        """The cell's stored records when complete (records, and artefacts if the cell has a
        hook). An unreadable or empty cell file gives None (to recompute), moved aside first when
        ``locked`` (the caller holds the cell's lock and rewrites it); so does a file that lacks
        some of the cell's folds (a merge or an edit gone wrong), whose folds then become the
        checkpoints the computation resumes from (:meth:`resume_from`)."""
        path = self.cell_file(cell)
        if force or not self.exists(path):
            return None
        records = self.read(path, quarantine=locked, require=("config_hash",))
        if records is None:
            return None
        if not len(records):  # written by hand or by a tool gone wrong: nothing to read
            if locked:
                quarantine_file(path, "it holds no records: an empty cell file")
            return None
        stored = set(records["config_hash"])
        if stored != {cell.hash} and cell.data_changed(records):
            return None  # the user's data file changed since: computed afresh, the file replaced
        if stored != {cell.hash}:
            raise ValueError(
                f"{path} holds results of another configuration (config hash {sorted(stored)} "
                f"≠ {cell.hash}: a different protocol, seed, parameters or data set parameters?); "
                "use force=true to recompute it or another experiment_name/results_dir"
            )
        missing, extra = fold_coverage(cell, records)
        if missing or extra:
            if locked:
                self.resume_from(cell, records, missing, extra)
            return None
        if cell.artefacts and not self.exists(self.artefact_file(cell)):
            return None  # artefacts lost: recompute both
        return records

    def saved_folds(self, cell: Cell, splits) -> tuple[dict, dict]:
        """The finished folds of an interrupted run (frames and artefact frames by (rep, fold));
        an unreadable checkpoint is moved aside and its fold recomputed."""
        frames, art_frames = {}, {}
        parts = self.checkpoints(cell)
        for split in splits:
            part, art_part = part_path(parts, split), part_path(parts, split, artefacts=True)
            if not part.exists() or (cell.artefacts and not art_part.exists()):
                continue
            frame = read_checked(part, quarantine=True, require=("config_hash",))
            if frame is None or not len(frame) or frame["config_hash"].iloc[0] != cell.hash:
                continue
            if cell.artefacts:
                art = read_checked(art_part, quarantine=True)
                if art is None:
                    continue
                art_frames[(split.repetition, split.fold)] = art
            frames[(split.repetition, split.fold)] = frame
        return frames, art_frames

    # -- writing -------------------------------------------------------------------------------
    def save_fold(self, cell: Cell, split: Split, frame, artefacts=None) -> None:
        """A finished fold's checkpoint (its artefacts first: a fold part implies them)."""
        parts = self.checkpoints(cell)
        if artefacts is not None:
            write_atomic(artefacts, part_path(parts, split, artefacts=True))
        write_atomic(check_records(frame), part_path(parts, split))

    def save_cell(self, cell: Cell, records: pd.DataFrame, artefacts=None) -> None:
        """A finished cell: its artefacts, then its records, then its checkpoints removed."""
        if artefacts is not None:
            write_atomic(artefacts, self.artefact_file(cell))
        write_atomic(check_records(records), self.cell_file(cell))
        parts = self.checkpoints(cell)
        if parts.exists():
            shutil.rmtree(parts)

    def resume_from(self, cell: Cell, records: pd.DataFrame, missing, extra) -> None:
        """A cell file that lacks folds is a checkpoint, not a result: its folds (each once)
        become the cell's ``.parts`` checkpoints (with their artefacts when the artefact file
        has them), the file is removed, and the cell resumes from them, with an
        :class:`~repro.evaluation.records.IncompleteCellWarning`."""
        path = self.cell_file(cell)
        expected = set(cell.fold_keys())
        records = records.drop_duplicates(["repetition", "fold", "split", "metric"])
        arts = None
        if cell.artefacts:
            arts = self.read(self.artefact_file(cell))
            if arts is not None and not {"repetition", "fold"} <= set(arts.columns):
                arts = None
        kept = 0
        for (rep, fold), frame in records.groupby(["repetition", "fold"], sort=True):
            if (int(rep), int(fold)) not in expected:
                continue
            split = Split(int(rep), int(fold), np.empty(0, int), np.empty(0, int))
            art = None
            if cell.artefacts:
                if arts is None:
                    continue
                art = arts[(arts["repetition"] == rep) & (arts["fold"] == fold)]
                art = art.reset_index(drop=True)
            self.save_fold(cell, split, frame.reset_index(drop=True), art)
            kept += 1
        what = f"lacks {len(missing)} of its {len(expected)} folds ({_fold_label(missing)})"
        if extra:
            what = (f"{what}, and " if missing else "") + (
                f"holds folds that are not the cell's or are there twice ({_fold_label(extra)})"
            )
        warnings.warn(
            f"{path} {what}: it is not a finished cell (a merge or an edit gone wrong?); its "
            f"{kept} folds are kept as checkpoints and the cell is resumed from them",
            IncompleteCellWarning,
            stacklevel=4,
        )
        path.unlink(missing_ok=True)

    def pack(self, experiment: str) -> PackSummary:
        """Fold the finished files of an experiment into its pack (:func:`.packs.pack_folder`)."""
        return pack_folder(self.folder(experiment))


def fold_coverage(cell: Cell, records: pd.DataFrame) -> tuple[list, list]:
    """(the folds of the cell's protocol that ``records`` lack, the (repetition, fold) keys in
    ``records`` that are not folds of the cell or are there twice): both empty for the records
    of a finished cell."""
    expected = cell.fold_keys()
    if not {"repetition", "fold", "split", "metric"} <= set(records.columns):
        return expected, []
    keys = records[["repetition", "fold"]].drop_duplicates()
    present = set(zip(keys["repetition"].astype(int), keys["fold"].astype(int), strict=True))
    missing = [k for k in expected if k not in present]
    extra = sorted(present - set(expected))
    twice = records.duplicated(["repetition", "fold", "split", "metric"])
    if twice.any():
        dup = records.loc[twice, ["repetition", "fold"]].drop_duplicates()
        extra += [(int(r), int(f)) for r, f in zip(dup["repetition"], dup["fold"], strict=True)]
    return missing, extra


def _fold_label(keys) -> str:
    text = ", ".join(f"repetition {r} fold {f}" for r, f in keys[:5])
    return text + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")


def as_store(results) -> ResultsStore:
    """``results`` (a folder, or a store) as a :class:`ResultsStore`."""
    return results if isinstance(results, ResultsStore) else ResultsStore(results)


__all__ = ["ResultsStore", "as_store", "fold_coverage"]
