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
  used sets named in ``report.substitutes`` (a paper's set in another form).
- published values: when the config names ``report.reported_tables``, the rows of those tables
  of ``<paths.published>/<paper>/reported.csv`` (paper = ``report.paper``, else the name's
  prefix) against the records, by :func:`repro.report.reproduction.compare_reported`; rows whose
  metric ends in ``_sd`` or ``_ci95`` are not values but the paper's spread of another row.
  *Within the paper's spread*: the means within the range of the published means of their table
  and metric (:func:`repro.report.reproduction.summarize`), and the per-data-set values within
  the published sd or 95% CI of the same cell.
- claims: ``report.claims`` of the config (``claim``, ``verdict`` ∈ :data:`VERDICTS`, ``where``:
  transcribed from a README), else the verdicts that the report generator wrote into the
  experiment's ``REPRODUCTION.md``: a table with ``claim`` and ``holds`` (yes/no) columns, or
  items ``claim: **for|against|not shown**`` under a "Claims" heading (:data:`GENERATED`).
- run date and code revision: the latest ``timestamp`` of the records and its ``git_revision``;
  without records, ``git log -1`` of the folder; without git, "unknown".
- links: the experiment's ``REPRODUCTION.md`` and its figures (PNG, PDF) and tables (``.md``).
- Bayesian comparisons (``report.bayesian: {reference, metric}``): the Bayesian signed-rank test
  of the reference against each other method over the data sets every method ran, rope
  :data:`ROPE` (:func:`repro.stats.bayesian.compare_to_reference`), and baycomp's simplex plot
  against the strongest competitor (the highest P(other better)).
- benchmarks: one row per ``<results>/benchmarks/*.txt``, its headline ratio against its peer
  read by the pattern of :data:`BENCHMARKS` (the last match: the latest run).

Consistency: a config (on the dashboard) without a results folder, or a results folder that no
config names (its ``experiment_name``, ``report.sources`` or a section's ``store``; except
:data:`NOT_EXPERIMENTS`), is a :class:`DashboardError`. No wall-clock time is written: the
output changes only with its inputs. ``dashboard/rows.json`` keeps the rows, so that the report
of one experiment updates its row alone (:func:`update_dashboard`).
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from repro.config import experiment_config, experiment_names, paths
from repro.evaluation.records import read_records
from repro.report.reproduction import compare_reported, read_reported, summarize

PAPERS = ("boulle2007", "wu2015", "vidaurre2012", "hue2024", "elovaara2008")
VERDICTS = ("holds", "does not hold", "partly", "not testable")
#: verdict words of the generated REPRODUCTION.md files → :data:`VERDICTS`
GENERATED = {
    "yes": "holds",
    "no": "does not hold",
    "for": "holds",
    "against": "does not hold",
    "not shown": "not testable",
}
ROPE = 0.01
#: posterior samples of each Bayesian signed-rank test (probabilities shown to 2 decimals)
NSAMPLES = 10000
#: folders of the results folder that are not an experiment's
NOT_EXPERIMENTS = ("benchmarks", "dashboard", "default")
FIGURES = "dashboard"
ROWS = "rows.json"
SPREAD_SUFFIXES = ("_sd", "_ci95")


@dataclass(frozen=True)
class Headline:
    """How a benchmark log states its headline ratio: ``pattern``'s group 1, last match."""

    what: str
    peer: str
    pattern: str


BENCHMARKS = {
    "bench_bma_nb": Headline(
        "bma_nb / nb_laplace fit time, letter 20000×16",
        "nb_laplace",
        r"bma_nb / nb_laplace: letter \S+: ([0-9.]+)",
    ),
    "bench_ffwbw": Headline(
        "growth exponent of the MS(FFWBW) search time in K",
        "linear growth (1)",
        r"growth exponent of search_s in K: ([0-9.]+)",
    ),
    "bench_first_run": Headline(
        "the README's main job in a fresh clone / its second run",
        "the second run",
        r"fresh clone / second run: ([0-9.]+)",
    ),
    "bench_fnb_memory": Headline(
        "fnb_khiops / fnb weight-optimisation CPU time, K = 3000",
        "fnb_khiops",
        r"K = 3000: fnb_khiops / fnb optimisation ([0-9.]+)",
    ),
    "bench_fsnb": Headline(
        "fsNB / snb_acc fit wall time, p = 2000",
        "snb_acc",
        r"^\s*2000\s+([0-9.]+)\s",
    ),
    "bench_histograms": Headline(
        "nb_mdlh / nb_gaussian 10-fold CV wall time on letter",
        "nb_gaussian",
        r"^nb_mdlh(?:\s+\S+){3}\s+([0-9.]+)",
    ),
    "bench_hue2024": Headline(
        "wnb_opt / snb_cma weight time, waveform 5000 + 10k F(2D)",
        "snb_cma",
        r"^\s*wnb_opt\s+\d+(?:\s+\S+){6}\s+([0-9.]+)\s*$",
    ),
    "bench_modl": Headline(
        "fnb_khiops / Khiops fit time, N = 5000, K = 40",
        "Khiops 11",
        r"\{'N': 5000, 'K': 40, .*'ratio': ([0-9.]+)",
    ),
    "bench_snb_scale": Headline(
        "snb_cma preparation CPU per core / the sorting floor, largest K, waveform + F(2D)",
        "one stable argsort per column",
        r"floor = [0-9.]+ serial, ([0-9.]+) per core",
    ),
    "bench_scale": Headline(
        "fnb_khiops (n_jobs=1) / Khiops CPU time, waveform 5000 + 10k F(2D)",
        "Khiops 11",
        r"fnb_khiops n_jobs=1: ours/Khiops CPU ([0-9.]+)",
    ),
}

LAYOUT = [
    "Result records written by `python -m repro` and `repro.evaluate(..., results_dir=...)`:",
    "`results/<experiment>/<dataset>[__params]/<method>[__params].parquet`, one tidy Parquet file",
    "per cell (SPEC §9), plus `<cell>.parts/` checkpoints of unfinished cells and `*.error.json`",
    "for failed cells of a sweep. Git-ignored, except the committed reference outputs of the paper",
    "reproductions (`results/<paper>_*/`: records, tables, figures, REPRODUCTION.md;",
    "`results/hue2024_cells/`, the cell store of the hue2024 experiments;",
    "`results/khiops_agreement/`; `results/benchmarks/`, the printed output of `benchmarks/*.py`)",
    "and this dashboard (`README.md`, `index.html`, `dashboard/`). Files from many machines merge",
    'by concatenation: `repro.evaluation.records.read_records("results/<experiment>")`.',
]


class DashboardError(ValueError):
    """The configs and the results folder disagree, or an input cannot be read."""


# ---------------------------------------------------------------------------------------------
# inputs


def dashboard_configs(names=None) -> dict[str, dict]:
    """Name → composed config of every experiment on the dashboard."""
    out = {}
    for name in names if names is not None else experiment_names():
        cfg = experiment_config(name)
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


def check_consistency(results_dir, configs: dict[str, dict]) -> None:
    """:class:`DashboardError` on a config without results folder or a folder without config."""
    results_dir = Path(results_dir)
    if not results_dir.is_dir():
        raise DashboardError(f"results folder {results_dir} does not exist")
    own = {name: cfg.get("experiment_name", name) for name, cfg in configs.items()}
    missing = sorted(n for n, folder in own.items() if not (results_dir / folder).is_dir())
    known = set(own.values()) | set(NOT_EXPERIMENTS)
    known |= {s for cfg in configs.values() for s in store_names(cfg)}
    orphans = sorted(p.name for p in results_dir.iterdir() if p.is_dir() and p.name not in known)
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


def _records(results_dir: Path, folders: list[str], cache: dict) -> pd.DataFrame | None:
    frames = []
    for folder in folders:
        if folder not in cache:
            try:
                cache[folder] = read_records(results_dir / folder)
            except FileNotFoundError:
                cache[folder] = None
        if cache[folder] is not None:
            frames.append(cache[folder])
    return pd.concat(frames, ignore_index=True) if frames else None


def git_date(folder: Path) -> tuple[str, str]:
    """(date, short revision) of the last commit touching ``folder``; ("unknown", "unknown")."""
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%cs %h", "--", "."],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown", "unknown"
    parts = out.stdout.split()
    return (parts[0], parts[1]) if out.returncode == 0 and len(parts) == 2 else ("unknown",) * 2


def run_of(records: pd.DataFrame | None, folder: Path) -> tuple[str, str, int]:
    """(date, revision, number of revisions) of the latest record, else of git."""
    if records is not None and {"timestamp", "git_revision"} <= set(records.columns):
        stamps = records["timestamp"].dropna()
        if not stamps.empty:
            latest = stamps.max()  # ISO 8601 in UTC: the latest is the largest string
            revision = records.loc[stamps.index[stamps == latest], "git_revision"].dropna()
            revisions = records["git_revision"].dropna().unique()
            revision = str(revision.iloc[0]) if len(revision) else "unknown"
            return str(latest)[:10], revision, len(revisions)
    date, revision = git_date(folder)
    return date, revision, 0


def published_comparison(cfg: dict, name: str, records: pd.DataFrame | None) -> dict | None:
    """Published values compared and within the paper's spread (module docstring), or None."""
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
        return {"published": len(values), "compared": 0, "within": 0, "with_spread": 0}
    methods = cfg["sweep"].get("method") or report.get("methods")
    if methods:
        records = records[records["method"].isin(methods)]
    comparison = compare_reported(values, records)
    done = comparison["reproduced"].notna()
    kinds = summarize(comparison).set_index("kind")
    within, with_spread = 0, 0
    if "means" in kinds.index:
        within += int(kinds.at["means", "within"])
        with_spread += int(kinds.at["means", "compared"])
    keys = ["table", "method", "dataset"]
    for suffix in SPREAD_SUFFIXES:
        rows = reported[reported["metric"].str.endswith(suffix)].copy()
        rows["metric"] = rows["metric"].str[: -len(suffix)]
        width = rows.set_index([*keys, "metric"])["value"]
        for row in comparison[done].itertuples(index=False):
            key = (row.table, row.method, row.dataset, row.metric)
            if key in width.index:
                with_spread += 1
                within += int(abs(row.difference) <= float(width[key]) + 1e-12)
    return {
        "published": len(comparison),
        "compared": int(done.sum()),
        "within": within,
        "with_spread": with_spread,
    }


def _markdown_tables(text: str):
    """Header cells and rows of every Markdown table of ``text``."""
    lines = text.splitlines()
    i = 0
    while i < len(lines) - 1:
        if lines[i].startswith("|") and re.match(r"^\|[-| :]+\|$", lines[i + 1].strip()):
            header = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            yield header, rows
        else:
            i += 1


CLAIM_ITEM = re.compile(r"^(?:\d+\.|-)\s+(.+?):\s+\*\*(for|against|not shown)\*\*")


def generated_claims(text: str, where: str) -> list[dict]:
    """The claims and verdicts a report generator wrote into a REPRODUCTION.md (see above)."""
    claims = []
    for header, rows in _markdown_tables(text):
        lower = [h.lower() for h in header]
        if "claim" in lower and "holds" in lower:
            c, h = lower.index("claim"), lower.index("holds")
            w = lower.index("where") if "where" in lower else None
            for row in rows:
                verdict = GENERATED.get(row[h].lower())
                if verdict is None:
                    raise DashboardError(
                        f"{where}: claim {row[c]!r} has verdict {row[h]!r}; "
                        f"valid: {', '.join(GENERATED)}"
                    )
                place = f"{where}, {row[w]}" if w is not None else where
                claims.append({"claim": row[c], "verdict": verdict, "where": place})
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lower()
            continue
        match = CLAIM_ITEM.match(line)
        if match and "claims" in heading:
            claims.append({"claim": match[1], "verdict": GENERATED[match[2]], "where": where})
    return claims


def experiment_claims(cfg: dict, name: str, folder: Path) -> list[dict]:
    """``report.claims`` of the config, else those generated into its REPRODUCTION.md."""
    listed = (cfg.get("report") or {}).get("claims")
    if listed:
        claims = []
        for item in listed:
            verdict = item.get("verdict")
            if verdict not in VERDICTS:
                raise DashboardError(
                    f"{name}: report.claims entry {item.get('claim')!r} has verdict {verdict!r}; "
                    f"valid: {', '.join(VERDICTS)}"
                )
            claims.append(
                {"claim": str(item["claim"]), "verdict": verdict, "where": item.get("where", "")}
            )
        return claims
    reproduction = folder / "REPRODUCTION.md"
    if not reproduction.is_file():
        return []
    return generated_claims(reproduction.read_text(), f"{folder.name}/REPRODUCTION.md")


def bayesian_comparison(cfg: dict, name: str, records, figures: Path | None) -> dict | None:
    """``report.bayesian``: the reference against each other method (module docstring)."""
    spec = (cfg.get("report") or {}).get("bayesian")
    if not spec or records is None:
        return None
    from repro.stats.bayesian import compare_to_reference, simplex_figure
    from repro.stats.tests import metric_table

    reference, metric = str(spec["reference"]), str(spec["metric"])
    higher = bool(spec.get("higher_is_better", True))
    methods = cfg["sweep"].get("method") or (cfg.get("report") or {}).get("methods")
    table = metric_table(records, metric)
    if methods:
        table = table[[m for m in methods if m in table.columns]]
    table = table.dropna()
    if reference not in table.columns:
        raise DashboardError(
            f"{name}: report.bayesian.reference {reference!r} has no records; "
            f"valid: {', '.join(map(str, table.columns))}"
        )
    result = compare_to_reference(
        table, reference, ROPE, higher_is_better=higher, seed=0, nsamples=NSAMPLES
    )
    rows = [
        {k: (round(float(v), 3) if isinstance(v, float) else v) for k, v in row.items()}
        for row in result.to_dict("records")
    ]
    rival = result.loc[result["p_other_better"].idxmax(), "method"]
    figure = f"{FIGURES}/{name}_{reference}_vs_{rival}.png"
    if figures is not None:
        import matplotlib.pyplot as plt

        fig = simplex_figure(
            table[reference].to_numpy(),
            table[rival].to_numpy(),
            ROPE,
            (reference, str(rival)),
            higher_is_better=higher,
            seed=0,
            nsamples=NSAMPLES,
        )
        fig.suptitle(f"{name}: test {metric}, {len(table)} data sets, rope {ROPE}")
        (figures.parent / figure).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(figures.parent / figure, dpi=80, bbox_inches="tight")
        plt.close(fig)
    return {
        "reference": reference,
        "metric": metric,
        "n_datasets": len(table),
        "rows": rows,
        "figure": figure,
    }


def experiment_row(
    name: str, cfg: dict, results_dir: Path, cache: dict, figures: Path | None = None
) -> dict:
    """One dashboard row (JSON-able); ``figures``: the output folder of the simplex plots."""
    report = cfg.get("report") or {}
    folder_name = cfg.get("experiment_name", name)
    folder = results_dir / folder_name
    stores = store_names(cfg)
    records = _records(results_dir, stores or [folder_name], cache)
    listed = paper_datasets(cfg)
    if records is not None and stores and listed:
        records = records[records["dataset"].isin(listed)]
    used = sorted(map(str, records["dataset"].unique())) if records is not None else []
    paper_list = list(dict.fromkeys([*(listed or used), *report.get("not_offline", [])]))
    published = report.get("published_datasets", len(paper_list))
    substitutes = sorted(
        (set(used) - set(paper_list)) | (set(report.get("substitutes") or []) & set(used))
    )
    date, revision, n_revisions = run_of(records, folder)
    runs = bool(cfg.get("task") or cfg["sweep"])
    command = f"python -m repro.report experiment={name}"
    if runs:
        command = f"python -m repro experiment={name} && {command}"
    links = sorted(
        p.name for p in folder.iterdir() if p.is_file() and p.suffix in (".md", ".png", ".pdf")
    )
    claims = experiment_claims(cfg, name, folder)
    return {
        "experiment": name,
        "paper": name.split("_")[0] if name.split("_")[0] in PAPERS else "",
        "title": str(report.get("title", name)),
        "folder": folder_name,
        "command": command,
        "used": len(used),
        "published": published,
        "substitutes": substitutes,
        "missing": sorted(set(paper_list) - set(used)),
        "values": published_comparison(cfg, name, records),
        "claims": claims,
        "date": date,
        "revision": revision,
        "n_revisions": n_revisions,
        "links": links,
        "bayesian": bayesian_comparison(cfg, name, records, figures),
    }


def benchmark_rows(results_dir) -> list[dict]:
    """One row per ``benchmarks/*.txt``: its headline ratio (:data:`BENCHMARKS`) and date."""
    rows = []
    for path in sorted((Path(results_dir) / "benchmarks").glob("*.txt")):
        headline = BENCHMARKS.get(path.stem)
        if headline is None:
            raise DashboardError(
                f"no headline ratio known for benchmark {path.name}: add it to "
                f"repro.report.dashboard.BENCHMARKS (known: {', '.join(BENCHMARKS)})"
            )
        text = path.read_text()
        found = re.findall(headline.pattern, text, flags=re.MULTILINE)
        if not found:
            raise DashboardError(
                f"{path}: the headline pattern {headline.pattern!r} of BENCHMARKS matches nothing"
            )
        date = re.search(r"\d{4}-\d{2}-\d{2}", text)
        rows.append(
            {
                "benchmark": path.stem,
                "what": headline.what,
                "peer": headline.peer,
                "ratio": float(found[-1]),
                "date": date[0] if date else "unknown",
                "log": f"benchmarks/{path.name}",
            }
        )
    return rows


def collect(results_dir=None, figures_dir=None, configs: dict | None = None) -> dict:
    """Every row of the dashboard (after :func:`check_consistency`); ``figures_dir``: the output
    folder whose ``dashboard/`` receives the simplex plots (None: not drawn); ``configs``:
    :func:`dashboard_configs` (composed when not given)."""
    results_dir = Path(results_dir if results_dir is not None else paths().results)
    configs = configs if configs is not None else dashboard_configs()
    check_consistency(results_dir, configs)
    cache: dict = {}
    figures = Path(figures_dir) / FIGURES if figures_dir is not None else None
    rows = [experiment_row(n, c, results_dir, cache, figures) for n, c in configs.items()]
    return {"experiments": rows, "benchmarks": benchmark_rows(results_dir)}


# ---------------------------------------------------------------------------------------------
# rendering


def _order(rows: list[dict]) -> list[dict]:
    rank = {p: i for i, p in enumerate(PAPERS)}
    return sorted(rows, key=lambda r: (rank.get(r["paper"], len(PAPERS)), r["experiment"]))


def _cells(row: dict) -> dict:
    """The text of a row's cells (shared by Markdown and HTML)."""
    values = row["values"]
    published = "not named" if row["published"] is None else str(row["published"])
    holding = sum(c["verdict"] == "holds" for c in row["claims"])
    revision = row["revision"]
    if row["n_revisions"] > 1:
        revision += f" (+{row['n_revisions'] - 1})"
    return {
        "data sets used / published": f"{row['used']} / {published}",
        "substitutes": str(len(row["substitutes"])),
        "missing": str(len(row["missing"])),
        "published values compared": (
            f"{values['compared']} of {values['published']}" if values else "—"
        ),
        "within the paper's spread": (
            f"{values['within']} of {values['with_spread']}"
            if values and values["with_spread"]
            else "—"
        ),
        "claims checked": str(len(row["claims"])) if row["claims"] else "—",
        "claims holding": str(holding) if row["claims"] else "—",
        "run date": row["date"],
        "code revision": revision,
    }


COLUMNS = [
    "experiment",
    "command",
    "data sets used / published",
    "substitutes",
    "missing",
    "published values compared",
    "within the paper's spread",
    "claims checked",
    "claims holding",
    "run date",
    "code revision",
    "REPRODUCTION.md and figures",
]


def _rel(target: Path, out_dir: Path) -> str:
    return Path(os.path.relpath(target, out_dir)).as_posix()


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|")


def render_markdown(dashboard: dict, results_dir, out_dir) -> str:
    """README.md of the dashboard; links relative to ``out_dir``."""
    results_dir, out_dir = Path(results_dir), Path(out_dir)
    lines = [
        "# results/",
        "",
        "<!-- Generated by `python -m repro.report all` (repro/report/dashboard.py) from the",
        "     experiment configs and the stored records: do not edit by hand. -->",
        "",
        *LAYOUT,
        "",
        "## Dashboard",
        "",
        "One row per experiment config (`conf/experiment/`): the paper tables and figures, then",
        "the other experiments. Counts and sources of each column: `repro/report/dashboard.py`.",
        "The same page in HTML: [index.html](index.html).",
        "",
    ]
    rows = _order(dashboard["experiments"])
    for title, group in (
        ("Paper tables and figures", [r for r in rows if r["paper"]]),
        ("Other experiments", [r for r in rows if not r["paper"]]),
    ):
        if not group:
            continue
        lines += [f"### {title}", "", "| " + " | ".join(COLUMNS) + " |"]
        lines.append("|" + "---|" * len(COLUMNS))
        for row in group:
            folder = results_dir / row["folder"]
            links = ", ".join(f"[{name}]({_rel(folder / name, out_dir)})" for name in row["links"])
            if row["bayesian"]:
                links += f", [Bayesian](#bayesian-{row['experiment']})"
            cells = [
                f"**{row['experiment']}**<br>{_md_escape(row['title'])}",
                f"`{row['command']}`",
                *[_md_escape(v) for v in _cells(row).values()],
                links or "—",
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines += _markdown_claims(rows)
    lines += _markdown_bayesian(rows, out_dir)
    lines += [
        "## Benchmarks",
        "",
        "The latest headline ratio of each benchmark log against its peer (`benchmarks/*.py`).",
        "",
        "| benchmark | ratio | what | peer | date | log |",
        "|---|---|---|---|---|---|",
    ]
    for b in dashboard["benchmarks"]:
        log = _rel(results_dir / b["log"], out_dir)
        lines.append(
            f"| {b['benchmark']} | {b['ratio']:g} | {b['what']} | {b['peer']} | {b['date']} "
            f"| [{b['log']}]({log}) |"
        )
    return "\n".join(lines) + "\n"


def _markdown_claims(rows: list[dict]) -> list[str]:
    lines = ["## Claims checked", ""]
    for row in rows:
        if not row["claims"]:
            continue
        lines += [f"### {row['experiment']}", "", "| claim | verdict | where |", "|---|---|---|"]
        for c in row["claims"]:
            lines.append(
                f"| {_md_escape(c['claim'])} | {c['verdict']} | {_md_escape(c['where'])} |"
            )
        lines.append("")
    return lines


def _markdown_bayesian(rows: list[dict], out_dir: Path) -> list[str]:
    lines = [
        "## Bayesian comparisons",
        "",
        f"Bayesian signed-rank test (rope {ROPE}) of each paper's reference method against the",
        "others over the data sets every method ran (`report.bayesian` of the config), and",
        "baycomp's simplex plot against the strongest competitor.",
        "",
    ]
    for row in rows:
        bayes = row["bayesian"]
        if not bayes:
            continue
        ref = bayes["reference"]
        lines += [
            f'<a id="bayesian-{row["experiment"]}"></a>',
            "",
            f"### {row['experiment']}: {ref} against the others, test {bayes['metric']} "
            f"({bayes['n_datasets']} data sets)",
            "",
            f"| method | P({ref} better) | P(equivalent) | P(method better) |",
            "|---|---|---|---|",
        ]
        for r in bayes["rows"]:
            lines.append(
                f"| {r['method']} | {r['p_reference_better']:.2f} | {r['p_equivalent']:.2f} "
                f"| {r['p_other_better']:.2f} |"
            )
        lines += ["", f"![simplex plot]({bayes['figure']})", ""]
    return lines


def _h(text) -> str:
    return html.escape(str(text), quote=True)


def _inline(text: str) -> str:
    """Escaped text with Markdown's `code` spans as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _h(text))


def render_html(dashboard: dict, results_dir, out_dir) -> str:
    """index.html of the dashboard (static); links relative to ``out_dir``."""
    results_dir, out_dir = Path(results_dir), Path(out_dir)
    rows = _order(dashboard["experiments"])
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        "<title>repro: results dashboard</title>",
        "<!-- Generated by `python -m repro.report all` (repro/report/dashboard.py): "
        "do not edit by hand. -->",
        "<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:3px 5px;vertical-align:top;font-size:90%}"
        "code{font-size:85%}"
        "img.thumb{max-width:120px;max-height:90px;border:1px solid #ddd}</style>",
        "</head>",
        "<body>",
        "<h1>results/</h1>",
        f"<p>{_inline(' '.join(LAYOUT))}</p>",
        '<p>The same page in Markdown: <a href="README.md">README.md</a>.</p>',
        "<h2>Dashboard</h2>",
    ]
    for title, group in (
        ("Paper tables and figures", [r for r in rows if r["paper"]]),
        ("Other experiments", [r for r in rows if not r["paper"]]),
    ):
        if not group:
            continue
        parts += [f"<h3>{_h(title)}</h3>", "<table>"]
        parts.append("<tr>" + "".join(f"<th>{_h(c)}</th>" for c in COLUMNS) + "</tr>")
        for row in group:
            folder = results_dir / row["folder"]
            links = []
            for name in row["links"]:
                href = _h(_rel(folder / name, out_dir))
                if name.endswith(".png"):
                    links.append(
                        f'<a href="{href}"><img class="thumb" src="{href}" alt="{_h(name)}"></a>'
                    )
                else:
                    links.append(f'<a href="{href}">{_h(name)}</a>')
            if row["bayesian"]:
                links.append(f'<a href="#bayesian-{_h(row["experiment"])}">Bayesian</a>')
            cells = [
                f"<b>{_h(row['experiment'])}</b><br>{_h(row['title'])}",
                f"<code>{_h(row['command'])}</code>",
                *[_h(v) for v in _cells(row).values()],
                " ".join(links) or "—",
            ]
            parts.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
    parts.append("<h2>Claims checked</h2>")
    for row in rows:
        if not row["claims"]:
            continue
        parts += [f"<h3>{_h(row['experiment'])}</h3>", "<table>"]
        parts.append("<tr><th>claim</th><th>verdict</th><th>where</th></tr>")
        for c in row["claims"]:
            parts.append(
                f"<tr><td>{_h(c['claim'])}</td><td>{_h(c['verdict'])}</td>"
                f"<td>{_h(c['where'])}</td></tr>"
            )
        parts.append("</table>")
    parts += ["<h2>Bayesian comparisons</h2>", f"<p>Bayesian signed-rank test, rope {ROPE}.</p>"]
    for row in rows:
        bayes = row["bayesian"]
        if not bayes:
            continue
        ref = _h(bayes["reference"])
        parts += [
            f'<h3 id="bayesian-{_h(row["experiment"])}">{_h(row["experiment"])}: {ref} against '
            f"the others, test {_h(bayes['metric'])} ({bayes['n_datasets']} data sets)</h3>",
            "<table>",
            f"<tr><th>method</th><th>P({ref} better)</th><th>P(equivalent)</th>"
            "<th>P(method better)</th></tr>",
        ]
        for r in bayes["rows"]:
            parts.append(
                f"<tr><td>{_h(r['method'])}</td><td>{r['p_reference_better']:.2f}</td>"
                f"<td>{r['p_equivalent']:.2f}</td><td>{r['p_other_better']:.2f}</td></tr>"
            )
        parts += ["</table>", f'<p><img src="{_h(bayes["figure"])}" alt="simplex plot"></p>']
    parts += [
        "<h2>Benchmarks</h2>",
        "<table>",
        "<tr><th>benchmark</th><th>ratio</th><th>what</th><th>peer</th><th>date</th>"
        "<th>log</th></tr>",
    ]
    for b in dashboard["benchmarks"]:
        log = _h(_rel(results_dir / b["log"], out_dir))
        parts.append(
            f"<tr><td>{_h(b['benchmark'])}</td><td>{b['ratio']:g}</td><td>{_h(b['what'])}</td>"
            f"<td>{_h(b['peer'])}</td><td>{_h(b['date'])}</td>"
            f'<td><a href="{log}">{_h(b["log"])}</a></td></tr>'
        )
    parts += ["</table>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------
# writing


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


def write_dashboard(dashboard: dict, results_dir, out_dir) -> list[Path]:
    """Write README.md, index.html and dashboard/rows.json into ``out_dir``; return paths."""
    out_dir = Path(out_dir)
    (out_dir / FIGURES).mkdir(parents=True, exist_ok=True)
    rows = out_dir / FIGURES / ROWS
    rows.write_text(json.dumps(_jsonable(dashboard), indent=1, ensure_ascii=False) + "\n")
    md = out_dir / "README.md"
    md.write_text(render_markdown(dashboard, results_dir, out_dir))
    page = out_dir / "index.html"
    page.write_text(render_html(dashboard, results_dir, out_dir))
    return [md, page, rows]


def generate_dashboard(results_dir=None, out_dir=None) -> list[Path]:
    """``python -m repro.report all``: collect every row, draw, write; return the paths."""
    results_dir = Path(results_dir if results_dir is not None else paths().results)
    out_dir = Path(out_dir) if out_dir is not None else results_dir
    dashboard = collect(results_dir, figures_dir=out_dir)
    return write_dashboard(dashboard, results_dir, out_dir)


def update_dashboard(experiment: str, results_dir=None, configs: dict | None = None) -> list[Path]:
    """After ``python -m repro.report experiment=NAME``: recompute the rows of the experiments
    that read its records or its store (``experiment`` among them), keep the others of
    ``dashboard/rows.json`` (everything when it is missing), write into the results folder."""
    results_dir = Path(results_dir if results_dir is not None else paths().results)
    stored = results_dir / FIGURES / ROWS
    configs = configs if configs is not None else dashboard_configs()
    if experiment not in configs:
        return []
    if not stored.is_file():
        return write_dashboard(collect(results_dir, results_dir, configs), results_dir, results_dir)
    check_consistency(results_dir, configs)
    dashboard = json.loads(stored.read_text())

    def reads(name: str) -> set[str]:
        cfg = configs[name]
        return set(store_names(cfg) or [cfg.get("experiment_name", name)])

    folder = configs[experiment].get("experiment_name", experiment)
    touched = {n for n in configs if reads(n) & (reads(experiment) | {folder})}
    cache: dict = {}
    fresh = {
        n: experiment_row(n, configs[n], results_dir, cache, results_dir / FIGURES) for n in touched
    }
    kept = {r["experiment"]: r for r in dashboard["experiments"] if r["experiment"] in configs}
    missing = set(configs) - set(kept) - touched
    fresh |= {
        n: experiment_row(n, configs[n], results_dir, cache, results_dir / FIGURES) for n in missing
    }
    dashboard = _jsonable(
        {
            "experiments": [fresh.get(n, kept.get(n)) for n in configs],
            "benchmarks": benchmark_rows(results_dir),
        }
    )
    return write_dashboard(dashboard, results_dir, results_dir)
