"""``python -m repro.report all``: the results dashboard, generated, never hand-written.

Writes ``<out>/README.md``, its static HTML twin ``<out>/index.html`` and the dashboard's own
figures ``<out>/dashboard/*.png`` (``out`` defaults to the results folder), from the experiment
configs (:func:`repro.config.experiment_config`), the stored records
(:func:`repro.evaluation.records.read_records`), the published numbers and the generated
``REPRODUCTION.md`` files. One row per experiment config (``report.dashboard: false`` leaves a
template out), where each column comes from:

- command: ``python -m repro experiment=NAME`` (unless the config has no sweep and no ``task``:
  a report over other experiments' records) then ``python -m repro.report experiment=NAME``.
- data sets: *paper's list* = the config's data-set list (the sweep's ``dataset``, else a
  section's ``challenge_sets`` or ``datasets``, else ``report.datasets``; when it has none, the
  data sets of the records) plus ``report.not_offline``; *published* = its size, or
  ``report.published_datasets`` (null: the paper does not name them). *Used* = the data sets of
  the records (those of a shared store, ``report.sources``, restricted to the paper's list);
  *missing* = paper's list − used; *substitutes* = used − paper's list (stand-ins) plus the
  used sets named in ``report.substitutes`` (a paper's set in another form); *paper_used* = used
  ∩ paper's list, *other_form* = those of them named in ``report.substitutes`` (what a paper's
  claims on its own data rest on).
- published values: when the config names ``report.reported_tables``, the rows of those tables
  of ``<paths.published>/<paper>/reported.csv`` (paper = ``report.paper``, else the name's
  prefix) against the records, by :func:`repro.report.reproduction.compare_reported`; rows whose
  metric ends in ``_sd`` or ``_ci95`` are not values but the paper's spread of another row.
  *Agree by the stated rule*: of the numbers a rule can decide, those that agree
  (:func:`repro.report.reproduction.judge`: a mean over data sets by the bootstrap CI of ours, a
  rank by the Nemenyi critical difference, a W/L count by Fisher's test, a value ± SD over R runs
  by Welch's test on standard errors, a one-split value by our per-split prediction interval);
  numbers on stand-in data are never compared.
- claims: the claims of the papers (``<paths.published>/<paper>/claims.yaml``: the paper's words,
  its section, the experiment that decides it) with the verdict a rule computes from the records
  (:mod:`repro.report.claims`), on the row of that experiment: each claim counted once
  (:mod:`.claims`); ``python -m repro.report all`` writes them all to ``claims.csv``.
- run date and code revision: the latest ``timestamp`` of the records and its ``git_revision``;
  without records, ``git log -1`` of the folder; without git, "unknown".
- links: the experiment's ``REPRODUCTION.md`` and its figures (PNG, PDF) and tables (``.md``).
- Bayesian comparisons (``report.bayesian: {reference, metric}``): the Bayesian signed-rank test
  of the reference against each other method over the data sets every method ran, rope
  :data:`~repro.report.dashboard.bayesian.ROPE` (:func:`repro.stats.bayesian.compare_to_reference`),
  and baycomp's simplex plot against the strongest competitor (the highest P(other better)).
- benchmarks: one row per ``<results>/benchmarks/*.txt``, its headline ratio against its peer
  read by the pattern of :data:`~repro.report.dashboard.benchmarks.BENCHMARKS` (the last match:
  the latest run).

Consistency: a config (on the dashboard) without a results folder, or a results folder that no
config names (its ``experiment_name``, ``report.sources`` or a section's ``store``; except
:data:`~repro.report.dashboard.inputs.NOT_EXPERIMENTS`), is a
:class:`~repro.report.dashboard.inputs.DashboardError`. No wall-clock time is written: the
output changes only with its inputs. ``dashboard/rows.json`` keeps the rows, so that the report
of one experiment updates its row alone (:func:`update_dashboard`).

The pages open with one headline block per paper (:mod:`.papers`: its tables and figures
reproduced, its published numbers within the stated rule, its claims by verdict, its flagged
values), then one figure per paper of the published against the reproduced numbers
(``dashboard/<paper>_published_vs_reproduced.png``), then per paper its experiments, the values
to read with care (:func:`.points.value_flags`: an accuracy at or below the data set's majority
rate, stand-in and substitute data sets), its figures and its claims; the other experiments, the
Bayesian comparisons, the benchmarks, and last the layout of the folder. Below the first screen
(the headlines and the papers' figures), each long part is a collapsed ``<details>`` whose
summary says what it holds and how many, and a data set where every method collapses is one
line of the values to read with care (:func:`.papers.flag_lines`; the counts stay the values').

This module assembles the rows and writes the pages. Its parts: :mod:`.inputs` (the
configs, records, run dates, published values and the consistency check), :mod:`.points`,
:mod:`.papers`, :mod:`.claims`, :mod:`.bayesian`, :mod:`.benchmarks`, and :mod:`.pages`, which
renders the two pages from the jinja2 templates of ``repro/report/templates/``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from repro.cli.arguments import use_config_dirs
from repro.config import config_dirs, paths
from repro.evaluation.guarded import one_set, refuse_links, remove, write_text
from repro.report.claims.engine import claim_files, read_claims
from repro.report.dashboard.benchmarks import benchmark_rows
from repro.report.dashboard.claims import (
    all_claims,
    experiment_claims,
    paper_claims_without_experiment,
    write_claims_csv,
)
from repro.report.dashboard.headline import row_headline
from repro.report.dashboard.inputs import (
    FIGURES,
    check_consistency,
    dashboard_configs,
    other_results,
    present_configs,
    store_names,
)
from repro.report.dashboard.pages import render_html, render_markdown
from repro.report.dashboard.papers import paper_summaries
from repro.report.dashboard.points import majority_rates
from repro.report.dashboard.rows import experiment_row
from repro.report.dashboard.tasks import draw_shared, rows_and_claims, shared_configs
from repro.runtime.shared_tasks import TaskSharing

#: the rows of the last dashboard, in its folder (:func:`update_dashboard`)
ROWS = "rows.json"


def collect(
    results_dir=None,
    figures_dir=None,
    configs: dict | None = None,
    claims=None,
    records_cache: dict | None = None,
) -> dict:
    """Every row of the dashboard (after :func:`check_consistency`); ``figures_dir``: the output
    folder whose ``dashboard/`` receives the simplex plots (None: not drawn); ``configs``:
    :func:`dashboard_configs` (composed when not given); ``claims``: the claims table (decided
    here when not given; False: none yet, see :func:`attach_claims`); ``records_cache``:
    folder → records, shared with the claims."""
    results_dir = Path(results_dir if results_dir is not None else paths().results)
    configs = configs if configs is not None else dashboard_configs()
    check_consistency(results_dir, configs)
    cache: dict = {} if records_cache is None else records_cache
    figures = Path(figures_dir) / FIGURES if figures_dir is not None else None
    if claims is None:
        claims = all_claims(paths().published, results_dir, records_cache=cache)
    table = claims if claims is not False else None
    majority = majority_rates()
    rows = [
        experiment_row(n, c, results_dir, cache, figures, table, majority)
        for n, c in configs.items()
    ]
    return {
        "experiments": rows,
        "benchmarks": benchmark_rows(results_dir),
        "other_results": other_results(results_dir, configs),
        "paper_claims": paper_claims_without_experiment(table) if table is not None else {},
    }


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def write_dashboard(dashboard: dict, results_dir, out_dir, sharing=None) -> list[Path]:
    """Write README.md, index.html and dashboard/rows.json into ``out_dir``, each whole or not
    at all and never through a link (:mod:`repro.evaluation.guarded`); return paths. The papers'
    figures are drawn by the processes of ``sharing`` (a
    :class:`~repro.runtime.shared_tasks.TaskSharing`; None: here)."""
    out_dir = Path(out_dir)
    rows = refuse_links(out_dir / FIGURES / ROWS, out_dir)  # no write through a planted link
    (out_dir / FIGURES).mkdir(parents=True, exist_ok=True)
    write_text(rows, json.dumps(_jsonable(dashboard), indent=1, ensure_ascii=False) + "\n")
    draw_shared(sharing if sharing is not None else TaskSharing(), dashboard, out_dir)
    md = write_text(out_dir / "README.md", render_markdown(dashboard, results_dir, out_dir))
    page = write_text(out_dir / "index.html", render_html(dashboard, results_dir, out_dir))
    remove_unreferenced_figures(out_dir / FIGURES, dashboard_figures(dashboard))
    return [md, page, rows]


def dashboard_figures(dashboard: dict) -> set[str]:
    """The names of the figures of the dashboard's own folder that its pages show: the
    Bayesian simplex plots and the papers' published-against-reproduced figures."""
    paths = [r["bayesian"]["figure"] for r in dashboard["experiments"] if r["bayesian"]]
    paths += [s["figure"] for s in paper_summaries(dashboard) if s["figure"]]
    return {Path(p).name for p in paths}


def remove_unreferenced_figures(folder, shown: set[str]) -> list[Path]:
    """Delete the PNG files of the dashboard's folder that the page no longer shows (``shown``:
    their names; a plot of a comparison that changed its rival): the folder holds what the page
    links, nothing else."""
    stale = [p for p in Path(folder).glob("*.png") if p.name not in shown]
    for path in stale:
        remove(path)
    return stale


#: the modules the helper process of ``report all`` imports while this one composes configs
HELPER_MODULES = ("repro.report.dashboard.tasks",)


def generate_dashboard(results_dir=None, out_dir=None, complete: bool = False) -> list[Path]:
    """``python -m repro.report all``: collect every row, draw, write; return the paths.

    The rows are the experiments whose records the results folder holds (a warning names the
    others); ``complete``: every experiment must be there (a DashboardError otherwise), as for
    the committed results of the package. The rows and the claims are tasks that this process
    and, where it may use two cores or more, a second one share (:mod:`.tasks`; the second
    starts while this one composes the configurations): the same pages, in about half the wall
    time."""
    results_dir = Path(results_dir if results_dir is not None else paths().results)
    out_dir = Path(out_dir) if out_dir is not None else results_dir
    own = [f"--config-dir={d}" for d in config_dirs()]  # the helper learns them as this did
    with TaskSharing(HELPER_MODULES, use_config_dirs, (own,)) as sharing:
        configs, absent = shared_configs(sharing), []
        if not complete:
            configs, absent = present_configs(results_dir, configs)
            if absent:
                warnings.warn(
                    f"experiments without results in {results_dir}, left out of its dashboard: "
                    f"{', '.join(absent)}",
                    stacklevel=2,
                )
        # before the claims, which read every record; your own folders (experiment_name=) are
        # listed as other results, but the package's committed results (complete) have none
        check_consistency(results_dir, configs, orphans_allowed=not complete)
        every_claim = [c for path in claim_files(paths().published) for c in read_claims(path)]
        with one_set():  # the old dashboard stays whole until the new one is (figures too)
            rows, claims = rows_and_claims(
                sharing, results_dir, out_dir / FIGURES, configs, every_claim
            )
            if absent:  # the claims of the experiments shown, and those no experiment decides
                keep = (claims["experiment"] == "") | claims["experiment"].isin(list(configs))
                claims = claims[keep].reset_index(drop=True)
            dashboard = {
                "experiments": rows,
                "benchmarks": benchmark_rows(results_dir),
                "other_results": other_results(results_dir, configs),
            }
            attach_claims(dashboard, claims)
            written = write_dashboard(dashboard, results_dir, out_dir, sharing)
            written.append(write_claims_csv(claims, out_dir))
    return written


def attach_claims(dashboard: dict, claims: pd.DataFrame) -> dict:
    """Put the claims table into the rows of :func:`collect` (``claims=False``): each
    experiment's claims and the papers' claims without an experiment."""
    for row in dashboard["experiments"]:
        row["claims"] = experiment_claims(claims, row["experiment"])
    dashboard["paper_claims"] = paper_claims_without_experiment(claims)
    return dashboard


def update_dashboard(experiment: str, results_dir=None, configs: dict | None = None) -> list[Path]:
    """After ``python -m repro.report experiment=NAME``: recompute the rows of the experiments
    that read its records or its store (``experiment`` among them), keep the others of
    ``dashboard/rows.json`` (everything when it is missing), write into the results folder, the
    files (figures too) switched from the old to the new all at once (:func:`one_set`)."""
    with one_set():
        return _refreshed(experiment, results_dir, configs)


def _refreshed(experiment: str, results_dir, configs: dict | None) -> list[Path]:
    results_dir = Path(results_dir if results_dir is not None else paths().results)
    stored = results_dir / FIGURES / ROWS
    configs = configs if configs is not None else dashboard_configs()
    if experiment not in configs:
        return []
    if not stored.is_file():
        return write_dashboard(collect(results_dir, results_dir, configs), results_dir, results_dir)
    check_consistency(results_dir, configs, orphans_allowed=True)
    dashboard = json.loads(stored.read_text())

    def reads(name: str) -> set[str]:
        cfg = configs[name]
        return set(store_names(cfg) or [cfg.get("experiment_name", name)])

    folder = configs[experiment].get("experiment_name", experiment)
    touched = {n for n in configs if reads(n) & (reads(experiment) | {folder})}
    cache: dict = {}  # every folder read once, by the claims and the rows
    kept = {r["experiment"]: r for r in dashboard["experiments"] if r["experiment"] in configs}
    missing = set(configs) - set(kept) - touched
    claims = all_claims(paths().published, results_dir, touched | missing, records_cache=cache)
    majority = majority_rates()
    fresh = {
        n: experiment_row(
            n, configs[n], results_dir, cache, results_dir / FIGURES, claims, majority
        )
        for n in touched | missing
    }
    dashboard = _jsonable(
        {
            "experiments": [fresh.get(n, kept.get(n)) for n in configs],
            "benchmarks": benchmark_rows(results_dir),
            "other_results": other_results(results_dir, configs),
            "paper_claims": paper_claims_without_experiment(claims),
        }
    )
    return write_dashboard(dashboard, results_dir, results_dir)


def experiment_headline(experiment: str, written, results_dir=None, overrides=()) -> str | None:
    """The headline of ``python -m repro.report experiment=NAME`` (:func:`.headline.row_headline`):
    its dashboard row as the report just wrote it (``written``: the report's paths, the
    dashboard's ``rows.json`` among them when the report refreshed it), else computed from the
    records (no figure drawn); None for an experiment the dashboard leaves out, or records of
    which no dashboard row can be made (a part of a run)."""
    from repro.config import experiment_config

    cfg = experiment_config(experiment, list(overrides))
    if (cfg.get("report") or {}).get("dashboard", True) is False:
        return None
    stored = [Path(p) for p in written if Path(p).name == ROWS and Path(p).parent.name == FIGURES]
    if stored:
        rows = json.loads(stored[0].read_text())["experiments"]
        found = [r for r in rows if r["experiment"] == experiment]
        if found:
            return row_headline(found[0])
    where = paths(cfg)
    results_dir = Path(results_dir if results_dir is not None else where.results)
    cache: dict = {}
    try:  # a part of a run (a few data sets, a test's tiny sweep) may have no row to show
        claims = all_claims(where.published, results_dir, {experiment}, records_cache=cache)
        return row_headline(experiment_row(experiment, cfg, results_dir, cache, None, claims))
    except Exception:  # noqa: BLE001 (the report is written; only its summary line is missing)
        return None
