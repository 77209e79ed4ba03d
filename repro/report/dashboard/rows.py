"""One row of the dashboard: what an experiment ran, on which data sets, against which published
values, dated by which run, with its Bayesian comparison and its values to read with care
(:mod:`repro.report.dashboard.build` describes every column)."""

from __future__ import annotations

from pathlib import Path

from repro.report.dashboard.bayesian import bayesian_comparison
from repro.report.dashboard.claims import experiment_claims
from repro.report.dashboard.inputs import (
    folder_records,
    future_records,
    paper_datasets,
    published_comparison,
    run_of,
    standins_replace_paper,
    store_names,
)
from repro.report.dashboard.points import majority_rates, value_flags
from repro.report.paper_data import papers


def row_folders(name: str, cfg: dict) -> list[str]:
    """The results folders the row of experiment ``name`` reads (its stores, else its own)."""
    return store_names(cfg) or [cfg.get("experiment_name", name)]


def future_flags(records) -> list[dict]:
    """A flag when records carry timestamps after tomorrow (not taken as the run's date)."""
    n = future_records(records)
    note = f"{n} records dated after tomorrow: a wrong clock; the run's date ignores them"
    return [
        {"kind": "future date", "dataset": "—", "method": None, "value": None, "majority": None,
         "note": note}
    ] if n else []  # fmt: skip


def experiment_row(
    name: str,
    cfg: dict,
    results_dir: Path,
    cache: dict,
    figures: Path | None = None,
    claims=None,
    majority: dict[str, float] | None = None,
) -> dict:
    """One dashboard row (JSON-able); ``figures``: the output folder of the simplex plots;
    ``claims``: the claims table (:func:`~repro.report.dashboard.claims.all_claims`);
    ``majority``: data set → majority rate (:func:`~.points.majority_rates` when not given)."""
    report = cfg.get("report") or {}
    folder_name = cfg.get("experiment_name", name)
    folder = results_dir / folder_name
    stores = store_names(cfg)
    records = folder_records(results_dir, row_folders(name, cfg), cache)
    listed = paper_datasets(cfg)
    if records is not None and stores and listed:
        records = records[records["dataset"].isin(listed)]
    used = sorted(map(str, records["dataset"].unique())) if records is not None else []
    paper_list = list(dict.fromkeys([*(listed or used), *report.get("not_offline", [])]))
    published = report.get("published_datasets", len(paper_list))
    substitutes = sorted(
        (set(used) - set(paper_list)) | (set(report.get("substitutes") or []) & set(used))
    )
    standins = set(used) if standins_replace_paper(cfg) else set(used) - set(paper_list)
    majority = majority if majority is not None else majority_rates()
    date, revision, n_revisions = run_of(records, folder)
    runs = bool(cfg.get("task") or cfg["sweep"])
    command = f"python -m repro.report experiment={name}"
    if runs:
        command = f"python -m repro experiment={name} && {command}"
    links = sorted(
        p.name for p in folder.iterdir() if p.is_file() and p.suffix in (".md", ".png", ".pdf")
    )
    claims = experiment_claims(claims, name) if claims is not None else []
    return {
        "experiment": name,
        "paper": name.split("_")[0] if name.split("_")[0] in papers() else "",
        "title": str(report.get("title", name)),
        "folder": folder_name,
        "command": command,
        "used": len(used),
        "paper_used": len(set(used) & set(paper_list)),
        "other_form": len((set(report.get("substitutes") or []) & set(used)) & set(paper_list)),
        "published": published,
        "substitutes": substitutes,
        "missing": sorted(set(paper_list) - set(used)),
        "values": published_comparison(cfg, name, records),
        "claims": claims,
        "reading": str(report.get("reading") or ""),
        "date": date,
        "revision": revision,
        "n_revisions": n_revisions,
        "links": links,
        "bayesian": bayesian_comparison(cfg, name, records, figures),
        "flags": value_flags(records, majority, standins, set(substitutes) - standins)
        + future_flags(records),
    }
