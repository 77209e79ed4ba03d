"""``python -m repro.report experiment=NAME``: tables, figures, statistics and REPRODUCTION.md.

Reads the stored records of an experiment (never refits) and follows the ``report:`` section of
its config ``conf/experiment/NAME.yaml``::

    report:
      paper: boulle2007                 # <paths.published>/<paper>/reported.csv → REPRODUCTION.md
      title: "Boullé (2007), Table 3"
      tables:                           # paper-layout tables (Markdown + LaTeX)
        - name: table3
          metrics: [accuracy, auc, compression_rate]
          reference: snb_cma            # W/L by paired t-test over folds
          caption: "..."
      figures:                          # functions (records, out_dir, report_cfg) -> [paths]
        - repro.report.papers.boulle2007.figures:fig9
      stats:                            # Friedman + post-hoc + CD diagram per entry
        - {metric: auc, correction: bergmann}
      substitutions: {madelon: madelon_like (generated stand-in)}
      not_offline: [hepatitis]          # the paper's data sets that are not available here
      caveat: "..."                     # first sentence of REPRODUCTION.md (optional)
      variants: {label: experiment}     # stored experiments of the same cells, side by side
      variant_label: "..."              # this experiment's label among them
      variant_metrics: [compression_rate]  # and their per-data-set means
      published_runs: {Table 1: 100}    # the runs a published SD is over, per table
      published_table_datasets: {Table 3: 30}  # the data sets a table's means, ranks, W/L are over
      notes: ["..."]                    # closing notes of REPRODUCTION.md
      sources: [experiment, ...]        # read these experiments' records instead of its own

Without ``report.caveat``, an experiment section of the config that lists both the paper's
``challenge_sets`` and the offline ``standins`` (boulle2007_table4) gets the caveat
"N stand-ins replace the paper's M ... sets" (:func:`standin_caveat`), so the comparison of its
aggregates is never read as one over the paper's data.

Records are read from ``<results_dir>/<experiment_name>/`` (``results_dir`` = ``paths.results``
of ``conf/paths/default.yaml`` unless given) and everything is written there (or into ``out_dir``).
A report written into the default results folder then updates its row of the dashboard
(``results/README.md``, ``results/index.html``:
:func:`repro.report.dashboard.build.update_dashboard`);
when the dashboard cannot be made (e.g. a results folder without its config), a warning says why.
The published numbers come from ``paths.published`` (default: the copy shipped in the package); a
``paper:`` whose ``reported.csv`` is missing is an error, raised before anything is written.
"""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path

import pandas as pd

from repro.config import experiment_config, paths
from repro.evaluation.guarded import one_set, write_text
from repro.evaluation.store import ResultsStore
from repro.report.escape import markdown_cell, markdown_names
from repro.report.reproduction import (
    compare_reported,
    judge,
    one_split_aggregates,
    per_dataset_side_by_side,
    read_reported,
    write_reproduction,
)
from repro.report.schema import check_report_section
from repro.report.tables import comparison_table, to_latex, to_markdown


def _load_function(spec: str):
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def standin_caveat(cfg) -> str | None:
    """The caveat of an experiment whose section lists ``challenge_sets`` and ``standins``."""
    for key, section in cfg.items():
        if not hasattr(section, "get") or key == "report":
            continue
        sets, standins = section.get("challenge_sets"), section.get("standins")
        if sets and standins:
            return (
                f"{len(standins)} stand-ins ({', '.join(standins)}, generated offline) replace "
                f"the paper's {len(sets)} challenge sets ({', '.join(sets)}): the aggregates "
                f"below are over {len(standins)} other data sets, not over the paper's "
                f"{len(sets)}, and compare different data."
            )
    return None


#: the report of an experiment whose config has no ``report:`` section (one of your own): the
#: mean test accuracy, AUC and compression rate of each method on each data set
DEFAULT_REPORT = {
    "tables": [{"name": "summary", "metrics": ["accuracy", "auc", "compression_rate"]}],
}


def generate_report(
    experiment: str, results_dir=None, out_dir=None, overrides: list[str] = ()
) -> list[Path]:
    """Write the experiment's tables, figures, statistics and REPRODUCTION.md; return paths.

    ``overrides``: Hydra overrides of the experiment's configuration (``paths.published=DIR``).
    The files switch from the old report to the new one as one set (:func:`one_set`: a kill
    or an error before the end leaves the previous report as it was); then the dashboard's rows
    of the experiment are refreshed (their own set), when the report is the results folder's.
    """
    cfg = experiment_config(experiment, overrides)
    where = paths(cfg)
    with one_set():
        written = _write_report(experiment, cfg, where, results_dir, out_dir)
    if results_dir is None and out_dir is None and Path(where.results) == Path(paths().results):
        written += _refresh_dashboard(experiment, where.results)
    return written


def _write_report(experiment, cfg, where, results_dir, out_dir) -> list[Path]:
    check_report_section(experiment, cfg.get("report"))
    report = cfg.get("report") or DEFAULT_REPORT
    name = cfg.get("experiment_name", experiment)
    store = ResultsStore(results_dir if results_dir is not None else where.results)
    source = store.folder(name)
    out = Path(out_dir) if out_dir is not None else source
    sources = report.get("sources")  # a report over other experiments' stored records
    if sources:
        records = pd.concat([store.records(s) for s in sources], ignore_index=True)
    else:
        records = store.records(name)
    methods = (
        cfg["sweep"].get("method") or report.get("methods") or sorted(records["method"].unique())
    )
    datasets = cfg["sweep"].get("dataset") or sorted(records["dataset"].unique())
    records = records[records["method"].isin(methods)]
    missing = sorted(set(datasets) - set(records["dataset"]) | set(report.get("not_offline", [])))
    paper = report.get("paper")
    reported = read_reported(where.reported(str(paper))) if paper else None
    written = []
    out.mkdir(parents=True, exist_ok=True)
    for spec in report.get("tables", []):
        table = comparison_table(
            records,
            list(spec["metrics"]),
            reference=spec.get("reference"),
            methods=[m for m in methods if m in set(records["method"])],
        )
        caption = spec.get("caption", spec["name"])
        names = table.attrs["datasets"]  # names from records: inert Markdown
        note = f"\n{len(names)} data sets: {markdown_names(names)}.\n"
        if table.attrs["incomplete"]:
            note += (
                f"Left out (not every method ran): {markdown_names(table.attrs['incomplete'])}.\n"
            )
        for metric, cells in table.attrs["holes"].items():
            named = markdown_names(f"{d} ({m})" for d, m in cells)
            note += (
                f"Left out of {markdown_cell(metric)} (a method without a value there): {named}.\n"
            )
        if missing:
            note += f"Missing here: {markdown_names(missing)}.\n"
        md = out / f"{spec['name']}.md"
        write_text(md, f"# {caption}\n\n{to_markdown(table)}{note}")
        tex = out / f"{spec['name']}.tex"
        write_text(tex, to_latex(table, caption=caption, label=f"tab:{name}:{spec['name']}"))
        written += [md, tex]
    for spec in report.get("figures", []):
        written += list(
            _load_function(spec)(records, out, {**report, "methods": methods, "paths": where})
        )
    for spec in report.get("stats", []):
        from repro.report.compare import compare_records

        written += list(
            compare_records(
                records,
                metric=spec["metric"],
                correction=spec.get("correction", "bergmann"),
                out=out,
                higher_is_better=spec.get("higher_is_better"),
            )
        )
    if reported is not None:
        tables = report.get("reported_tables")

        def published_comparison(recs):
            comparison = compare_reported(reported, recs)
            return comparison[comparison["table"].isin(tables)] if tables else comparison

        comparison = judge(
            published_comparison(records),
            reported,
            records,
            published_runs=report.get("published_runs"),
            published_table_datasets=report.get("published_table_datasets"),
            standins=report.get("substitutes") or (),
            all_standins=standin_caveat(cfg) is not None,
        )
        variant_records = {}
        if report.get("variants"):
            variant_records = {report.get("variant_label", name): records}
            for label, other in report["variants"].items():
                try:
                    recs = store.records(other)  # the results folder given
                except FileNotFoundError:  # not run here: the report goes on without it
                    warnings.warn(
                        f"no records of the variant {other} in {store.root}", stacklevel=2
                    )
                    continue
                variant_records[label] = recs[recs["method"].isin(methods)]
        written.append(
            write_reproduction(
                comparison,
                out / "REPRODUCTION.md",
                report.get("title", name),
                missing_datasets=missing,
                substitutions=report.get("substitutions"),
                caveat=report.get("caveat") or standin_caveat(cfg),
                variants={k: published_comparison(v) for k, v in variant_records.items()},
                per_dataset={
                    metric: per_dataset_side_by_side(variant_records, metric)
                    for metric in report.get("variant_metrics", [])
                    if variant_records
                },
                notes=list(report.get("notes", [])),
                aggregates=one_split_aggregates(comparison, records),
            )
        )
    return written


def _refresh_dashboard(experiment: str, results) -> list[Path]:
    """The dashboard's rows of ``experiment`` recomputed; a warning when it cannot be made."""
    from repro.report.dashboard.build import update_dashboard
    from repro.report.dashboard.inputs import DashboardError

    try:
        return update_dashboard(experiment, results)
    except DashboardError as err:
        warnings.warn(f"results dashboard not regenerated: {err}", stacklevel=3)
        return []
