"""The work of ``python -m repro.report all`` as tasks that two processes share
(:class:`~repro.runtime.shared_tasks.TaskSharing`): composing the configurations,
the rows and claims (each folder of records read by one process only), the papers' figures.

A task is a set of experiments whose rows read a common folder (the five hue2024 figures and
their store; elovaara2008's Fig. 1 and Fig. 2), with the claims these experiments decide; one
more task decides the claims of no experiment on the dashboard. Tasks go largest first, by the
bytes of the record files they read. Each process keeps the folders it has read for its next
tasks (a claim may read another experiment's folder). The result is the one the tasks give one
after the other in a single process: the rows in the configurations' order, the claims in the
order of their files, the figures and the warnings those of a serial run.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from repro.config import experiment_names
from repro.evaluation.guarded import adopt, held_back
from repro.evaluation.store import ResultsStore
from repro.report.claims.engine import COLUMNS, Claim, Evidence, claim_row
from repro.report.dashboard.inputs import dashboard_configs
from repro.report.dashboard.papers import draw_paper_figure, paper_figure_jobs
from repro.report.dashboard.points import majority_rates
from repro.report.dashboard.rows import experiment_row, row_folders


@dataclass(frozen=True)
class Task:
    """Experiments (name → config) whose rows read a common folder, and the claims to decide
    (their index in the claims table, the claim)."""

    configs: dict
    claims: tuple[tuple[int, Claim], ...]


@dataclass(frozen=True)
class Done:
    """What a task gives: rows by experiment, claim rows by index, the writes it held back
    (:func:`~repro.evaluation.guarded.held_back`), its warnings (message, category)."""

    rows: dict
    claims: dict
    pending: list
    warned: list


def reading_groups(configs: dict) -> list[list[str]]:
    """The experiments of ``configs`` in groups whose rows read a common results folder
    (connected by :func:`~.rows.row_folders`), each in the configurations' order."""
    parent = {name: name for name in configs}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    reader: dict[str, str] = {}
    for name, cfg in configs.items():
        for folder in row_folders(name, cfg):
            if folder in reader:
                parent[root(name)] = root(reader[folder])
            else:
                reader[folder] = name
    groups: dict[str, list[str]] = {}
    for name in configs:
        groups.setdefault(root(name), []).append(name)
    return list(groups.values())


def folder_bytes(results_dir: Path, folder: str) -> int:
    """The bytes of the record files of ``<results_dir>/<folder>`` (0: none)."""
    path = ResultsStore(results_dir).folder(folder)
    return sum(p.stat().st_size for p in path.rglob("*.parquet") if p.is_file())


def dashboard_tasks(configs: dict, claims: list[Claim], results_dir) -> list[Task]:
    """The tasks of ``configs`` and ``claims`` (module docstring), largest first."""
    sized = []
    for group in reading_groups(configs):
        folders = {f for name in group for f in row_folders(name, configs[name])}
        size = sum(folder_bytes(results_dir, f) for f in folders)
        mine = tuple((i, c) for i, c in enumerate(claims) if c.experiment in group)
        sized.append((size, Task({n: configs[n] for n in group}, mine)))
    rest = tuple((i, c) for i, c in enumerate(claims) if c.experiment not in configs)
    sized.sort(key=lambda item: -item[0])  # stable: ties keep the configurations' order
    return [task for _, task in sized] + [Task({}, rest)]


def run_task(task: Task, common: tuple, cache: dict) -> Done:
    """The rows and claims of ``task``; ``common``: (results folder, figures folder, majority
    rates); ``cache``: folder → records of this process."""
    results_dir, figures, majority = common
    with warnings.catch_warnings(record=True) as caught, held_back() as pending:
        warnings.simplefilter("always")
        rows = {
            name: experiment_row(name, cfg, results_dir, cache, figures, None, majority)
            for name, cfg in task.configs.items()
        }
        evidence = Evidence(results_dir, cache)
        decided = {index: claim_row(claim, evidence) for index, claim in task.claims}
    return Done(rows, decided, pending, [(str(w.message), w.category) for w in caught])


def say_done(task: Task, finished: int, total: int) -> None:
    """``report all: rows and claims k/n (names)`` on stderr, from either process."""
    names = ", ".join(task.configs) or "the claims of no experiment shown"
    print(f"report all: rows and claims {finished}/{total} ({names})", file=sys.stderr, flush=True)


def rows_and_claims(sharing, results_dir, figures, configs: dict, claims: list[Claim]):
    """(the rows of ``configs`` in their order, the claims table of ``claims`` in theirs):
    the tasks shared by ``sharing``; the figures' writes go to the open
    :func:`~repro.evaluation.guarded.one_set`, the warnings are raised here."""
    tasks = dashboard_tasks(configs, claims, results_dir)
    where = "this process and a second one" if sharing.helped else "this process"
    print(
        f"report all: {len(configs)} experiments and {len(claims)} claims, "
        f"{len(tasks)} tasks shared by {where}",
        file=sys.stderr,
        flush=True,
    )
    common = (Path(results_dir), figures, majority_rates())
    rows, decided = {}, {}
    for done in sharing.run(run_task, tasks, common, say_done):
        adopt(done.pending)
        for message, category in done.warned:
            warnings.warn(message, category, stacklevel=2)
        rows.update(done.rows)
        decided.update(done.claims)
    table = pd.DataFrame([decided[i] for i in sorted(decided)], columns=COLUMNS)
    return [rows[name] for name in configs], table


def compose_task(names: list[str], common=None, kept=None) -> dict:
    """The dashboard's configurations of the experiments ``names``."""
    return dashboard_configs(names)


def shared_configs(sharing) -> dict:
    """:func:`~.inputs.dashboard_configs` of every experiment, in their order, one task per
    experiment: the second process takes its share once it has started."""
    composed: dict = {}
    for part in sharing.run(compose_task, [[name] for name in experiment_names()]):
        composed.update(part)
    return composed


def draw_task(job: tuple, common=None, kept=None) -> list:
    """Draw one paper's figure (:func:`~.papers.draw_paper_figure`); its writes held back."""
    with held_back() as pending:
        draw_paper_figure(*job)
    return pending


def draw_shared(sharing, dashboard: dict, out_dir) -> None:
    """The papers' figures of ``dashboard`` into ``<out_dir>/dashboard/``, shared by the
    processes of ``sharing``, their writes into the open one_set."""
    for pending in sharing.run(draw_task, paper_figure_jobs(dashboard, out_dir)):
        adopt(pending)
