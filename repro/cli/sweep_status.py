"""How the jobs of a sweep (``python -m repro -m``) tell its main process how they ended.

Each job writes ``<job number>.json`` (its overrides, and its error and error file when it
failed) into the folder named by ``$REPRO_SWEEP_STATUS``, and each finished cell read before the
launch (:mod:`repro.cli.finished_cells`) ``read-<number>.json``; the main process reads the folder
when the launcher returns (:func:`sweep_summary`) and prints the failed cells.

Where the folder is: the main process first makes one in the system's temporary directory
(:func:`status_folder`), then, when the multirun starts, the Hydra callback
:class:`SweepStatusFolder` moves it into the sweep's own directory
(``${results_dir}/${experiment_name}/.multirun/.status-<random>``), before any job is launched,
so that the jobs inherit that path. The sweep directory is where submitit keeps the jobs it
sends to a SLURM cluster, so it is on a file system that the cluster's nodes share: their
statuses reach the summary as those of this machine's launchers (basic, joblib, submitit_local)
do. Both folders are removed when the sweep ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

from hydra.core.hydra_config import HydraConfig
from hydra.experimental.callback import Callback

#: environment variable naming the folder where the jobs of a sweep report their status
SWEEP_STATUS = "REPRO_SWEEP_STATUS"


def report_job_status(**failure) -> None:
    """Tell the sweep's main process how this job ended (a file in ``$REPRO_SWEEP_STATUS``)."""
    if not os.environ.get(SWEEP_STATUS):
        return
    job = HydraConfig.get().job
    payload = {"job": job.num, "overrides": list(HydraConfig.get().overrides.task), **failure}
    _write_report(str(job.num), payload)


def report_read_cell(number: int, overrides, seconds: float) -> None:
    """Tell the sweep's summary of a finished cell read before the launch (no job of its own):
    ``read-<number>.json``, ``number`` its place in the sweep."""
    if not os.environ.get(SWEEP_STATUS):
        return
    payload = {"job": f"read-{number}", "overrides": list(overrides), "cached": True,
               "seconds": seconds}  # fmt: skip
    _write_report(f"read-{number}", payload)


def _write_report(name: str, payload: dict) -> None:
    folder = os.environ[SWEEP_STATUS]
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{name}.json").write_text(json.dumps(payload))
    except OSError:  # a full disk, a folder this machine cannot write: kept in memory, where
        _unwritten.setdefault(folder, []).append(payload)  # a job of this process is summarised


#: the reports that could not be written, by status folder (jobs run in this process)
_unwritten: dict[str, list[dict]] = {}


def sweep_reports(folder) -> list[dict]:
    """The reports of a sweep's jobs (overrides; ``error`` when failed; ``cached`` and
    ``seconds`` of a cell)."""
    reports = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            reports.append(json.loads(path.read_text()))
        except (OSError, ValueError):
            continue
    seen = {r.get("job") for r in reports}
    reports += [r for r in _unwritten.get(str(folder), []) if r.get("job") not in seen]
    return reports


def sweep_summary(folder) -> tuple[int, list[dict]]:
    """(jobs reported, the failed ones) of a sweep's status folder."""
    reports = sweep_reports(folder)
    return len(reports), [r for r in reports if "error" in r]


class SweepStatusFolder(Callback):
    """Hydra callback (``hydra.callbacks.sweep_status`` in ``conf/config.yaml``): at the start
    of a multirun, the status folder becomes ``<sweep dir>/.status-<random>`` (absolute), unless
    that directory cannot be written (the temporary folder stays). A sweep directory that may
    not be written (a read-only results folder, another user's) ends the sweep there with one
    line naming ``results_dir=`` and exit code 1: Hydra's sweeper, which creates the directory
    and writes its ``multirun.yaml`` next, would fail on it with a traceback."""

    def on_multirun_start(self, config, **kwargs) -> None:
        if not os.environ.get(SWEEP_STATUS):
            return  # not started by ``python -m repro``: nobody reads a summary
        sweep_dir = Path(config.hydra.sweep.dir)
        folder = sweep_dir.resolve() / f".status-{uuid.uuid4().hex[:12]}"
        try:
            folder.mkdir(parents=True)
        except OSError as exc:
            # Hydra's sweeper creates the sweep directory and writes multirun.yaml in it next:
            # a folder that may not be written is said here, in one line
            from repro.cli.arguments import sweep_folder_error

            text = sweep_folder_error(exc, sweep_dir, config.get("results_dir", sweep_dir))
            if text is not None:
                print(f"error: {text}", file=sys.stderr, flush=True)
                sys.exit(1)
            return
        os.environ[SWEEP_STATUS] = str(folder)


@contextlib.contextmanager
def status_folder():
    """The sweep's status folder for ``python -m repro``: sets ``$REPRO_SWEEP_STATUS`` to a new
    temporary folder, yields a function that returns the folder in force (the callback may have
    moved it), removes every folder it was and restores the variable."""
    try:
        folders = [tempfile.mkdtemp(prefix="repro-sweep-")]
    except OSError:  # a full disk: the reports of this process's jobs stay in memory
        folders = [os.path.join(tempfile.gettempdir(), f"repro-sweep-{uuid.uuid4().hex[:12]}")]
    _unwritten.clear()
    previous = os.environ.get(SWEEP_STATUS)
    os.environ[SWEEP_STATUS] = folders[0]

    def current() -> str:
        folder = os.environ.get(SWEEP_STATUS, folders[0])
        if folder not in folders:
            folders.append(folder)
        return folder

    try:
        yield current
    finally:
        current()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        _unwritten.clear()
        if previous is None:
            os.environ.pop(SWEEP_STATUS, None)
        else:
            os.environ[SWEEP_STATUS] = previous
