"""``python -m repro.report COMMAND key=value ...`` — small dispatcher.

- ``compare results=DIR metric=NAME [correction=bergmann] ...``: statistical comparison of
  stored records (:mod:`repro.report.compare`).
- ``experiment=NAME [results=DIR] [out=DIR] [paths.KEY=VALUE ...]``: paper tables/figures of one
  experiment (:mod:`repro.report.generate`); ``results`` defaults to ``paths.results``, the
  published numbers come from ``paths.published`` (``conf/paths/default.yaml``).
- ``sweep results=DIR param=NAME metric=M[,M2] [out=DIR]``: a sweep over one parameter drawn,
  the metric against the parameter, one line per method and data set (:mod:`repro.report.sweep`).
- ``calibration results=DIR [out=DIR]``: reliability diagrams and the Brier score and ECE per
  method and data set, from the test-fold probabilities stored with ``store_proba=true``
  (:mod:`repro.report.reliability`).
- ``all [results=DIR] [out=DIR]``: the dashboard, ``README.md`` + ``index.html`` (+ its figures
  in ``dashboard/``) of the results folder (:mod:`repro.report.dashboard.build`); ``out``
  defaults to ``results``, which defaults to ``paths.results``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

USAGE = (
    "usage: python -m repro.report compare results=DIR metric=NAME [correction=...] ...\n"
    "       python -m repro.report experiment=NAME [results=DIR] [out=DIR] [paths.KEY=VALUE ...]\n"
    "       python -m repro.report all [results=DIR] [out=DIR] [complete=false]\n"
    "       python -m repro.report sweep results=DIR param=NAME metric=M[,M2] [out=DIR]\n"
    "       python -m repro.report calibration results=DIR [out=DIR]"
)


HELP = f"""{USAGE}

Reports read stored records and never refit:
  experiment=NAME      the paper's tables, figures, statistics and REPRODUCTION.md of one
                       experiment, into results/NAME/ (python -m repro list experiments)
  all                  the dashboard of a results folder: README.md, index.html, claims.csv, of
                       the experiments it holds (complete=true: all of them must be there)
  compare              statistics over any folder of records (python -m repro.report compare --help)
  sweep                a sweep over one parameter drawn: each metric against the parameter's
                       values (mean of the test folds, ± 1 SE), one line per method and data
                       set, e.g. after python -m repro -m method=fnb +method.max_selected=1,2,4
                       dataset=pima: sweep results=results/default param=max_selected
                       metric=auc,compression_rate
  calibration          reliability diagrams (one per data set, a curve per method) and the
                       Brier score and ECE per method, from the test-fold probabilities stored
                       by python -m repro ... store_proba=true

Keys: results=DIR (default: results), out=DIR (default: the results folder; compare:
compare/<results name>), paths.published=DIR (the papers' numbers), --config-dir=DIR (your own
experiments, as for python -m repro)."""


class NoRecords(FileNotFoundError):
    """The report of an experiment asked for before its run: it has no result records."""


def printed(paths) -> int:
    """Print the written ``paths``, one a line; exit code 0."""
    for p in paths:
        print(p)
    return 0


def dashboard_main(args: list[str]) -> int:
    """``all [results=DIR] [out=DIR]``: write the dashboard; 1 on inconsistent inputs."""
    from repro.datasets.exit_codes import exit_code
    from repro.report.compare_command import parse_overrides
    from repro.report.dashboard.build import generate_dashboard
    from repro.report.dashboard.headline import dashboard_headline
    from repro.report.dashboard.inputs import DashboardError

    def write() -> int:
        kv = parse_overrides(args)
        unknown = [k for k in kv if k not in ("results", "out", "complete")]
        if unknown:
            raise ValueError(
                f"unknown argument(s) {unknown}; valid: results, out, complete\n{USAGE}"
            )
        complete = kv.get("complete", "false").lower()
        if complete not in ("true", "false"):
            raise ValueError(f"complete must be true or false, got {kv['complete']!r}")
        written = generate_dashboard(kv.get("results"), kv.get("out"), complete == "true")
        printed(written)
        rows = [Path(p) for p in written if Path(p).name == "rows.json"]
        print(dashboard_headline(json.loads(rows[0].read_text())))
        return 0

    return exit_code(write, (DashboardError,))


def experiment_main(args: list[str]) -> int:
    """``experiment=NAME [results=DIR] [out=DIR] [paths.KEY=VALUE ...]``: one experiment's report;
    1 when its published numbers or its records are missing."""
    from repro.config import PublishedNumbersNotFound
    from repro.datasets.exit_codes import exit_code
    from repro.report.compare_command import parse_overrides
    from repro.report.dashboard.build import experiment_headline
    from repro.report.generate import generate_report

    def write() -> int:
        kv = parse_overrides(args)
        overrides = [f"{k}={v}" for k, v in kv.items() if k.startswith("paths.")]
        known = ("experiment", "results", "out")
        unknown = [k for k in kv if k not in known and not k.startswith("paths.")]
        if unknown:
            raise ValueError(f"unknown argument(s) {unknown}\n{USAGE}")
        try:
            paths = generate_report(kv["experiment"], kv.get("results"), kv.get("out"), overrides)
        except FileNotFoundError as err:
            if isinstance(err, PublishedNumbersNotFound) or "No result records" not in str(err):
                raise
            hint = f"run `python -m repro experiment={kv['experiment']}` first"
            raise NoRecords(f"{err}; {hint}") from err
        printed(paths)
        headline = experiment_headline(kv["experiment"], paths, kv.get("results"), overrides)
        if headline:
            print(headline)
        return 0

    return exit_code(write, (PublishedNumbersNotFound, NoRecords))


def sweep_main(args: list[str]) -> int:
    """``sweep results=DIR param=NAME metric=M[,M2] [out=DIR]``: the figure and table of a sweep
    over one parameter, then the best value per method, data set and metric."""
    from repro.datasets.exit_codes import exit_code
    from repro.evaluation.records import read_records
    from repro.report.compare_command import parse_overrides
    from repro.report.escape import file_stem, say, write_csv
    from repro.report.figure_files import save_figure
    from repro.report.sweep import best_values, sweep_figure, sweep_table

    def write() -> int:
        kv = parse_overrides(args)
        unknown = [k for k in kv if k not in ("results", "param", "metric", "out")]
        missing = [k for k in ("results", "param", "metric") if not kv.get(k)]
        if unknown or missing:
            raise ValueError(
                f"sweep: unknown {unknown}, missing {missing}; valid: results, param, metric, "
                f"out\n{USAGE}"
            )
        from repro.evaluation.predictions import with_prediction_metrics

        metrics = [m.strip() for m in kv["metric"].split(",") if m.strip()]
        records = with_prediction_metrics(read_records(kv["results"]))
        table = sweep_table(records, kv["param"], metrics)
        out = Path(kv.get("out") or kv["results"])
        stem = file_stem(f"sweep_{kv['param']}_{'_'.join(metrics)}")
        import matplotlib.pyplot as plt

        fig = sweep_figure(table, kv["param"])
        figure = save_figure(fig, out / f"{stem}.png", dpi=100)
        plt.close(fig)
        csv = out / f"{stem}.csv"
        write_csv(table, csv, index=False)
        printed([figure, csv])
        for row in best_values(table).itertuples(index=False):
            say(f"best {kv['param']} for {row.metric} of {row.method} on {row.dataset}: "
                f"{row.value} ({row.mean:.4f} ± {row.se:.4f}, {row.n_folds} folds)")  # fmt: skip
        return 0

    return exit_code(write, ())


def calibration_main(args: list[str]) -> int:
    """``calibration results=DIR [out=DIR]``: the reliability diagrams and the calibration table
    of the stored predictions, then the best-calibrated method of each data set."""
    from repro.datasets.exit_codes import exit_code
    from repro.evaluation.records import read_records
    from repro.report.compare_command import parse_overrides
    from repro.report.escape import say, write_csv
    from repro.report.reliability import calibration_figures, calibration_table, cell_predictions

    def write() -> int:
        kv = parse_overrides(args)
        unknown = [k for k in kv if k not in ("results", "out")]
        if unknown or not kv.get("results"):
            raise ValueError(
                f"calibration: unknown {unknown}{'' if kv.get('results') else ', missing results'}"
                f"; valid: results, out\n{USAGE}"
            )
        predictions = cell_predictions(read_records(kv["results"]))
        table = calibration_table(predictions)
        out = Path(kv.get("out") or kv["results"])
        csv = out / "calibration.csv"
        write_csv(table, csv, index=False)
        printed([*calibration_figures(predictions, out), csv])
        ece = table[table["metric"] == "ece"].sort_values(["dataset", "mean"], kind="stable")
        for dataset, grp in ece.groupby("dataset", sort=True):
            best = grp.iloc[0]
            say(
                f"best calibrated on {dataset}: {best['method']} (ECE {best['mean']:.4f} ± "
                f"{best['se']:.4f} over {best['n_folds']} folds; {len(grp)} method(s))"
            )
        return 0

    return exit_code(write, ())


def main(argv: list[str] | None = None) -> int:
    from repro.cli.arguments import UsageError, split_config_dirs, use_config_dirs
    from repro.cli.console import print_warnings_as_one_line

    if argv is None:  # the command line, not a call from Python (a test, a notebook)
        print_warnings_as_one_line()
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        use_config_dirs(args)
        args = split_config_dirs(args)[1]
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args[:1] != ["compare"] and any(a in ("--help", "-h") for a in args):
        print(HELP)
        return 0
    if args and args[0] == "compare":
        from repro.report.compare_command import main as compare_main

        return compare_main(args[1:])
    if args and args[0] == "all":
        return dashboard_main(args[1:])
    if args and args[0] == "sweep":
        return sweep_main(args[1:])
    if args and args[0] == "calibration":
        return calibration_main(args[1:])
    if any(a.lstrip("+").startswith("experiment=") for a in args):
        return experiment_main(args)
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
