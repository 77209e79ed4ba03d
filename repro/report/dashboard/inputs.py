"""What the dashboard (:mod:`repro.report.dashboard.build`) reads of each experiment: the configs on
it, their agreement with the results folder, the records of an experiment and of its stores, the
date and code revision of its run, and its published values against the records.
"""

from __future__ import annotations

import importlib
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd

from repro.config import experiment_config, experiment_names, one_hydra, paths
from repro.evaluation.store import ResultsStore
from repro.report.dashboard.points import comparison_points
from repro.report.reproduction import (
    SPREAD_SUFFIXES,
    compare_reported,
    judge,
    read_reported,
    summarize,
)
from repro.report.schema import check_report_section

#: the dashboard's own folder of the output folder (its figures and ``rows.json``)
FIGURES = "dashboard"
#: folders of the results folder that are not an experiment's
NOT_EXPERIMENTS = ("benchmarks", FIGURES, "default", "mutation", "slow_tests")


class DashboardError(ValueError):
    """The configs and the results folder disagree, or an input cannot be read."""


def dashboard_configs(names=None) -> dict[str, dict]:
    """Name → composed config of every experiment on the dashboard."""
    out = {}
    with one_hydra():  # one initialisation for all of them
        for name in names if names is not None else experiment_names():
            cfg = experiment_config(name)
            check_report_section(name, cfg.get("report"))
            if (cfg.get("report") or {}).get("dashboard", True) is not False:
                out[name] = cfg
    return out


def _sections(cfg: dict):
    for key, section in cfg.items():
        if isinstance(section, dict) and key not in ("report", "sweep"):
            yield section


def store_names(cfg: dict) -> list[str]:
    """The results folders a config reads besides its own (``report.sources``, a ``store``)."""
    names = list((cfg.get("report") or {}).get("sources") or [])
    names += [s["store"] for s in _sections(cfg) if isinstance(s.get("store"), str)]
    return list(dict.fromkeys(names))


def present_configs(results_dir, configs: dict[str, dict]) -> tuple[dict[str, dict], list[str]]:
    """(the configs whose results folder, or a store they read, is in ``results_dir``; the names
    of the others)."""
    results_dir = Path(results_dir)

    def present(name: str, cfg: dict) -> bool:
        folders = [cfg.get("experiment_name", name), *store_names(cfg)]
        return any((results_dir / f).is_dir() for f in folders)

    kept = {n: c for n, c in configs.items() if present(n, c)}
    return kept, sorted(set(configs) - set(kept))


def orphan_folders(results_dir, configs: dict[str, dict]) -> list[str]:
    """The folders of ``results_dir`` that no config names (its own folder, a store it reads),
    except :data:`NOT_EXPERIMENTS`: your own runs (``experiment_name=``), or stray folders."""
    results_dir = Path(results_dir)
    known = {cfg.get("experiment_name", name) for name, cfg in configs.items()}
    known |= set(NOT_EXPERIMENTS) | {s for cfg in configs.values() for s in store_names(cfg)}
    return sorted(p.name for p in results_dir.iterdir() if p.is_dir() and p.name not in known)


def check_consistency(results_dir, configs: dict[str, dict], orphans_allowed: bool = False) -> None:
    """:class:`DashboardError` on a config without results folder, or (unless
    ``orphans_allowed``: they are listed as other results) a folder without config."""
    results_dir = Path(results_dir)
    if not results_dir.is_dir():
        raise DashboardError(f"results folder {results_dir} does not exist")
    own = {name: cfg.get("experiment_name", name) for name, cfg in configs.items()}
    missing = sorted(n for n, folder in own.items() if not (results_dir / folder).is_dir())
    orphans = [] if orphans_allowed else orphan_folders(results_dir, configs)
    problems = []
    if missing:
        problems.append(
            f"experiment config(s) with no results folder in {results_dir}: {', '.join(missing)} "
            "(run `python -m repro experiment=NAME` and `python -m repro.report experiment=NAME`, "
            "or set `report.dashboard: false` for a template)"
        )
    if orphans:
        problems.append(
            f"results folder(s) of {results_dir} that no experiment config names: "
            f"{', '.join(orphans)} (valid: the experiments' folders and stores, "
            f"{', '.join(NOT_EXPERIMENTS)})"
        )
    if problems:
        raise DashboardError("; ".join(problems))


def other_results(results_dir, configs: dict[str, dict]) -> list[dict]:
    """One entry per :func:`orphan_folders` folder: its name, its number of record files (loose
    or packed) and the command that compares its methods."""
    store = ResultsStore(results_dir)
    return [
        {
            "folder": name,
            "record_files": len(store.record_files(name)),
            "command": f"python -m repro.report compare results={store.folder(name)} "
            "metric=accuracy",
        }
        for name in orphan_folders(results_dir, configs)
    ]


def paper_datasets(cfg: dict) -> list[str] | None:
    """The config's own list of data sets (see the module docstring), or None."""
    listed = cfg.get("sweep", {}).get("dataset")
    if not listed:
        for section in _sections(cfg):
            listed = section.get("challenge_sets") or section.get("datasets")
            if isinstance(listed, list) and listed:
                break
        else:
            listed = (cfg.get("report") or {}).get("datasets")
    return [str(d) for d in listed] if listed else None


def folder_records(results_dir: Path, folders: list[str], cache: dict) -> pd.DataFrame | None:
    """The records of ``folders`` of the results folder together (None: none has records);
    ``cache``: folder → records, shared by the rows of one dashboard."""
    frames, store = [], ResultsStore(results_dir)
    for folder in folders:
        if folder not in cache:
            try:
                cache[folder] = store.records(folder)
            except FileNotFoundError:
                cache[folder] = None
        if cache[folder] is not None:
            frames.append(cache[folder])
    return pd.concat(frames, ignore_index=True) if frames else None


#: the repository the package was checked out from (its own git history dates a folder)
PROJECT = Path(__file__).resolve().parents[3]


def git_date(folder: Path) -> tuple[str, str]:
    """(date, short revision) of the last commit touching ``folder``; ("unknown", "unknown").

    git runs in the project's own repository with the folder as a path, never inside the
    folder: a ``.git`` planted in a results folder handed over by someone else (its config can
    name programs git would run: ``core.fsmonitor``, ``gpg.program``) is not consulted, and a
    folder outside the project has no date from git."""
    try:
        relative = Path(folder).resolve().relative_to(PROJECT)
    except ValueError:
        return "unknown", "unknown"
    if not (PROJECT / ".git").exists():
        return "unknown", "unknown"
    command = [
        "git", "-C", str(PROJECT), "-c", "core.fsmonitor=false", "log", "-1",
        "--no-show-signature", "--format=%cs %h", "--", str(relative),
    ]  # fmt: skip
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown", "unknown"
    parts = out.stdout.split()
    return (parts[0], parts[1]) if out.returncode == 0 and len(parts) == 2 else ("unknown",) * 2


def _tomorrow() -> str:
    """Tomorrow's date in UTC, ISO 8601: no record written today is later than it."""
    return (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d")


def future_records(records: pd.DataFrame | None) -> int:
    """How many records carry a timestamp after tomorrow (a clock or a hand set wrong)."""
    if records is None or "timestamp" not in records.columns:
        return 0
    return int((records["timestamp"].dropna().astype(str) > _tomorrow()).sum())


def run_of(records: pd.DataFrame | None, folder: Path) -> tuple[str, str, int]:
    """(date, revision, number of revisions) of the latest record, else of git."""
    if records is not None and {"timestamp", "git_revision"} <= set(records.columns):
        stamps = records["timestamp"].dropna().astype(str)
        stamps = stamps[stamps <= _tomorrow()]  # a record dated in the future is not the date
        if not stamps.empty:
            latest = stamps.max()  # ISO 8601 in UTC: the latest is the largest string
            revision = records.loc[stamps.index[stamps == latest], "git_revision"].dropna()
            revisions = records["git_revision"].dropna().unique()
            revision = str(revision.iloc[0]) if len(revision) else "unknown"
            return str(latest)[:10], revision, len(revisions)
    date, revision = git_date(folder)
    return date, revision, 0


def published_comparison(cfg: dict, name: str, records: pd.DataFrame | None) -> dict | None:
    """Published values compared, on stand-ins, and agreeing by the stated rule (module
    docstring), with each number as a record (``points``: :func:`.points.comparison_points`),
    or None."""
    report = cfg.get("report") or {}
    tables = report.get("reported_tables")
    if not tables:
        return None
    paper = report.get("paper") or name.split("_")[0]
    try:
        reported = read_reported(paths(cfg).reported(str(paper)))
    except FileNotFoundError as err:  # PublishedNumbersNotFound
        raise DashboardError(f"{name}: {err}") from err
    reported = reported[reported["table"].isin(tables)]
    spread = reported["metric"].str.endswith(SPREAD_SUFFIXES)
    values = reported[~spread]
    if records is None:
        return {
            "published": len(values),
            "compared": 0,
            "on_standins": 0,
            "within": 0,
            "with_spread": 0,
            "points": [],
        }
    methods = cfg["sweep"].get("method") or report.get("methods")
    if methods:
        records = records[records["method"].isin(methods)]
    if report.get("comparison"):  # the experiment's own judged frame (module:function)
        module, function = str(report["comparison"]).split(":")
        judged = getattr(importlib.import_module(module), function)
        comparison = pd.concat(
            [judged(records, reported, report, table) for table in tables], ignore_index=True
        )
        comparison = comparison[~comparison["metric"].str.endswith(SPREAD_SUFFIXES)]
    else:
        comparison = judge(
            compare_reported(values, records),
            reported,
            records,
            published_runs=report.get("published_runs"),
            published_table_datasets=report.get("published_table_datasets"),
            standins=report.get("substitutes") or (),
            all_standins=bool(standins_replace_paper(cfg)),
        )
    kinds = summarize(comparison)
    return {
        "published": len(comparison),
        "compared": int(kinds["compared"].sum()),
        "on_standins": int(kinds["on_standins"].sum()),
        "within": int(kinds["agree"].sum()),
        "with_spread": int(kinds["testable"].sum()),
        "points": comparison_points(
            comparison,
            reported,
            published_runs=report.get("published_runs"),
            substitutes=report.get("substitutes") or (),
        ),
    }


def standins_replace_paper(cfg: dict) -> bool:
    """True when a section of the config lists the paper's ``challenge_sets`` and the offline
    ``standins`` run instead (boulle2007's Table 4): every published number is then on
    stand-ins."""
    return any(
        hasattr(section, "get") and section.get("challenge_sets") and section.get("standins")
        for key, section in cfg.items()
        if key != "report"
    )
