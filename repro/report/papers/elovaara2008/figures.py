"""elovaara2008 Figures 1 and 2 and the check of the paper's claims, from stored records.

Called by ``python -m repro.report experiment=elovaara2008_fig1`` / ``elovaara2008_fig2`` (the
``figures:`` entries of their configs). The paper has no table: its only numbers are the two
figures, so REPRODUCTION.md checks its claims (§5.2, §6) one by one: the sentences of
``experiments/elovaara2008/claims.yaml``, quoted verbatim, each decided by its rule
(:mod:`repro.report.papers.elovaara2008.claims`) on the records of the report.

- Per cross-validation run (a repetition of ``cv10x30``): accuracy = the mean of the 10 fold
  accuracies (§5.1 "report the mean accuracy of the n tests"), log-sum = the sum of the 10 fold
  log-sums (Σ log P(true class | x) over the run's test predictions, natural log). Plotted:
  their means over the runs ("average ... of thirty cross-validation runs").
- Fig. 1: data sets ordered so that EWB-10's accuracy increases; Fig. 2: so that EWB-10's
  log-sum decreases (as the paper words both). Log-sum scales with the data set's size, so
  Fig. 2 has a symmetric-log axis.
- ``report.variants`` ({label: experiment}): stored experiments of other readings of some
  methods (MDLh and MDLg without the cut-set code); their means are drawn dashed and listed in
  ``fig*.csv``/``fig*.md`` as "<method> (<label>)" columns, outside the ranks of the five.

Each writes ``<name>.png/.pdf``, ``<name>.csv`` (the plotted means, the number of runs and each
method's rank per data set), ``<name>.md`` and ``REPRODUCTION.md`` (the claims).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from repro import config
from repro.evaluation.guarded import write_text
from repro.evaluation.store import ResultsStore
from repro.report.claims.engine import Evidence, NoRecords, Verdict, decide, read_claims
from repro.report.escape import write_csv
from repro.report.figure_common import method_labels, save, sweep_plan
from repro.report.tables import to_markdown

#: the experiment whose records decide the claims (Fig. 2 reports the same records)
CLAIMS_EXPERIMENT = "elovaara2008_fig1"

METHODS = ["nb_mdlh", "nb_mdlg", "nb_shimazaki", "nb_ewb10", "nb_gaussian"]
HISTOGRAMS = ["nb_mdlh", "nb_shimazaki", "nb_ewb10"]
MARKERS = {"nb_mdlh": "o", "nb_mdlg": "s", "nb_shimazaki": "^", "nb_ewb10": "v", "nb_gaussian": "D"}
#: the data sets whose attributes are all normal within each class by construction
NORMAL_SETS = ("iris", "CI", "CR", "twonorm", "twonorm_gen", "vidaurre_toy_continuous")
#: generated at full float precision: ε of eq. 16 is tiny and the MDL histograms are the finest
FULL_PRECISION = (
    "CI", "CR", "twonorm", "twonorm_gen", "ring", "waveform", "waveform_noise", "madelon_like",
    "vidaurre_toy_continuous",
)  # fmt: skip


def per_run(records: pd.DataFrame, metric: str) -> pd.DataFrame:
    """One row per (method, dataset, repetition): the run's accuracy (mean over folds) or
    log-sum (sum over folds)."""
    test = records[(records["split"] == "test") & (records["metric"] == metric)]
    how = "sum" if metric == "log_sum" else "mean"
    grouped = test.groupby(["method", "dataset", "repetition"])["value"]
    runs = grouped.agg(how).rename(metric).to_frame()
    runs["folds"] = grouped.size()
    return runs.reset_index()


def complete_runs(records: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The rows of :func:`per_run` whose run has all its folds (as many as the data set's
    fullest run)."""
    runs = per_run(records, metric)
    return runs[runs["folds"] == runs["folds"].groupby(runs["dataset"]).transform("max")]


def run_means(records: pd.DataFrame, metric: str, methods=METHODS) -> pd.DataFrame:
    """Data sets × methods: the mean over complete runs (10 folds) of the per-run value, on the
    data sets where every method has at least one complete run."""
    runs = complete_runs(records, metric)
    table = runs.pivot_table(index="dataset", columns="method", values=metric, aggfunc="mean")
    methods = [m for m in methods if m in table.columns]
    return table[methods].dropna()


def n_runs(records: pd.DataFrame, metric: str) -> pd.Series:
    runs = per_run(records, metric)
    return runs.groupby("dataset")["repetition"].nunique()


def method_runs(records: pd.DataFrame, metric: str, methods=METHODS) -> pd.DataFrame:
    """Data sets × methods: the number of complete runs (:func:`complete_runs`) each method's
    mean is over (a method run on a prefix of the repetitions has fewer)."""
    runs = complete_runs(records, metric)
    table = runs.groupby(["dataset", "method"])["repetition"].nunique().unstack("method")
    return table.reindex(columns=[m for m in methods if m in table.columns])


def prefix_note(records: pd.DataFrame, datasets, methods, metric: str = "accuracy") -> str:
    """ "" when every method has the same number of runs on each of ``datasets``, else the
    methods with fewer runs than the data set's most: "MDLh: 3 runs (repetitions 0–2) on 42
    data sets" (a prefix of the repetitions; the others' means are over all their runs)."""
    counts = method_runs(records, metric, methods).reindex(index=list(datasets))
    if counts.empty:
        return ""
    most = counts.max(axis=1)
    runs = complete_runs(records, metric)
    parts = []
    for method in counts.columns:
        short = counts.index[counts[method] < most]
        if not len(short):
            continue
        reps = runs[(runs["method"] == method) & runs["dataset"].isin(short)]["repetition"]
        n = sorted(set(counts.loc[short, method].astype(int)))
        span = f"repetitions {int(reps.min())}–{int(reps.max())}" if len(reps) else "none"
        n_text = "–".join(str(k) for k in (n[0], n[-1])) if len(n) > 1 else str(n[0])
        parts.append(f"{method_labels([method])[0]}: {n_text} runs ({span}) on {len(short)} sets")
    return "; ".join(parts)


def ordered(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Rows ordered as the paper's figures: EWB-10 increasing (accuracy) or decreasing
    (log-sum)."""
    return table.sort_values("nb_ewb10", ascending=metric != "log_sum", kind="stable")


def ranks(table: pd.DataFrame) -> pd.DataFrame:
    """Rank of each method per data set (1 = best, ties averaged; higher values are better)."""
    return table.rank(axis=1, ascending=False, method="average")


# --- variants --------------------------------------------------------------------------------
def variant_column(method: str, label: str) -> str:
    """The column of ``method`` under another reading ``label`` in fig*.csv / fig*.md."""
    return f"{method} ({label})"


def _paths(report_cfg):
    return (report_cfg or {}).get("paths") or config.paths()


def variant_means(report_cfg, metric: str) -> pd.DataFrame:
    """Data sets × "<method> (<label>)": the per-run means of the stored experiments of
    ``report.variants`` ({label: experiment}); an experiment without records is left out."""
    frames = []
    for label, experiment in ((report_cfg or {}).get("variants") or {}).items():
        try:
            records = ResultsStore(_paths(report_cfg).results).records(experiment)
        except FileNotFoundError:
            continue
        means = run_means(records, metric, sorted(set(records["method"])))
        frames.append(means.rename(columns=lambda m, lab=label: variant_column(m, lab)))
    return pd.concat(frames, axis=1) if frames else pd.DataFrame()


# --- the claims --------------------------------------------------------------------------------
class RecordsEvidence(Evidence):
    """The claims' evidence from records in hand: those of :data:`CLAIMS_EXPERIMENT` (the
    report's own records; Fig. 2 reads the same ones)."""

    def __init__(self, records: pd.DataFrame, experiment: str = CLAIMS_EXPERIMENT):
        super().__init__(".")
        self._cache[experiment] = records

    def records(self, experiment: str) -> pd.DataFrame:
        if experiment not in self._cache:
            raise NoRecords(f"no records of {experiment} in this report")
        return self._cache[experiment]


def claims_lines(records: pd.DataFrame, report_cfg=None) -> list[str]:
    """ "## Claims": the claims of ``experiments/elovaara2008/claims.yaml``, quoted verbatim
    with their section, each with its rule's verdict and evidence on ``records``; the claims no
    rule can decide with the reason. A rule that cannot decide on these records says so instead
    of failing the report."""
    path = Path(_paths(report_cfg).published) / "elovaara2008" / "claims.yaml"
    evidence = RecordsEvidence(records)
    rows = []
    for claim in read_claims(path):
        if claim.experiment not in (None, CLAIMS_EXPERIMENT):
            continue
        try:
            v = decide(claim, evidence)
        except (ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
            v = Verdict("not testable", f"not decidable on these records ({exc})")
        rows.append((claim, v))
    counts = pd.Series([v.verdict for _, v in rows]).value_counts()
    lines = [
        "## Claims",
        "",
        "The paper's sentences, quoted verbatim from `experiments/elovaara2008/claims.yaml`, each "
        "decided by its rule (`repro.report.papers.elovaara2008.claims`) on the records of "
        f"{CLAIMS_EXPERIMENT} (the default readings: MDL histograms with the cut-set code, "
        "EWB-10 and Shimazaki with the column out-of-range rule): "
        + ", ".join(f"{k} {int(n)}" for k, n in counts.items())
        + ".",
        "",
    ]
    for k, (claim, v) in enumerate(rows, 1):
        rule = f" ({claim.rule})" if claim.rule else ""
        lines.append(
            f"{k}. {claim.section}: “{claim.quote}” — **{v.verdict}**{rule}: {v.evidence}."
        )
        if claim.note and claim.rule:
            lines.append(f"   Reading: {claim.note}")
    return lines


# --- figures ----------------------------------------------------------------------------------
def _draw(records, out_dir, report_cfg, metric: str, name: str, ylabel: str) -> list[Path]:
    methods = [m for m in report_cfg.get("methods") or METHODS if m in set(records["method"])]
    table = ordered(run_means(records, metric, methods), metric)
    extra = variant_means(report_cfg, metric).reindex(table.index)
    extra = extra.loc[:, extra.notna().any()] if not extra.empty else extra
    fig, ax = plt.subplots(figsize=(max(8.0, 0.28 * len(table) + 3), 4.5))
    x = np.arange(len(table))
    for method, label in zip(methods, method_labels(methods)):
        ax.plot(x, table[method], marker=MARKERS.get(method, "."), ms=4, lw=1, label=label)
    for column in extra.columns:
        method, _, rest = column.partition(" (")
        label = f"{method_labels([method])[0]} ({rest}"
        ax.plot(x, extra[column], ls="--", lw=0.8, marker=MARKERS.get(method, "."), ms=3,
                mfc="none", label=label)  # fmt: skip
    ax.set_xticks(x, table.index, rotation=75, ha="right", fontsize=7)
    ax.set_ylabel(ylabel)
    if metric == "log_sum":
        ax.set_yscale("symlog", linthresh=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    runs = n_runs(records, metric).reindex(table.index)
    prefix = prefix_note(records, table.index, methods, metric)
    ax.set_title(
        f"{ylabel} of {int(runs.min())}–{int(runs.max())} runs of 10-fold CV"
        + (f" ({prefix})" if prefix else "")
        + f", {len(table)} data sets (ordered by EWB-10)",
        fontsize=9,
    )
    written = save(fig, out_dir, name)
    out_dir = Path(out_dir)
    per_method = method_runs(records, metric, methods).reindex(table.index)
    short = per_method.columns[(per_method.lt(runs, axis=0)).any()]
    frame = table.join(runs.rename("runs")).join(per_method[short].add_prefix("runs_"))
    frame = frame.join(ranks(table).add_prefix("rank_")).join(extra)
    csv = out_dir / f"{name}.csv"
    write_csv(frame, csv, index_label="dataset")
    shown = table.rename(columns=dict(zip(methods, method_labels(methods))))
    shown["runs"] = runs
    shown = shown.join(extra)
    md = out_dir / f"{name}.md"
    avg = ranks(table).mean(axis=0).rename(index=dict(zip(methods, method_labels(methods))))
    variants = (
        '\n\nColumns "<method> (<label>)": another reading of the method, from its own '
        "stored experiment (report.variants), outside the ranks: "
        + "; ".join(f"{k}: {v}" for k, v in (report_cfg.get("variants") or {}).items())
        + "."
        if len(extra.columns)
        else ""
    )
    prefix = f" Fewer runs (a prefix of the repetitions): {prefix}." if prefix else ""
    write_text(
        md,
        f"# {report_cfg.get('title', name)}\n\n{ylabel}, mean over the runs (ordered by EWB-10)."
        f"{prefix}{variants}\n\n{to_markdown(shown, index_title='dataset', digits=4)}\n"
        f"\nAverage rank over the {len(table)} data sets (1 = best; the five methods):\n\n"
        f"{to_markdown(avg.to_frame('average rank'), index_title='method', digits=2)}",
    )
    rep = write_claims(records, out_dir / "REPRODUCTION.md", report_cfg)
    return [*written, csv, md, rep]


def write_claims(records: pd.DataFrame, path: Path, report_cfg) -> Path:
    """REPRODUCTION.md: the paper has no table, so its claims are checked one by one
    (:func:`claims_lines`), after the runs per data set and the variants' means."""
    methods = [m for m in report_cfg.get("methods") or METHODS if m in set(records["method"])]
    acc = run_means(records, "accuracy", methods)
    runs = n_runs(records, "accuracy").reindex(acc.index)
    lines = [
        f"# Reproduction: {report_cfg.get('title', 'elovaara2008')}",
        "",
        "The paper prints no number: its results are two figures (accuracy and log-sum per data "
        "set) whose data sets are not named except Iris. Nothing can be compared value by value; "
        "the claims of §5.2 and §6 are checked one by one below "
        "(experiments/elovaara2008/README.md discusses them).",
        "",
        f"{len(acc)} data sets with every method; runs of 10-fold CV per data set: "
        f"{int(runs.min()) if len(runs) else 0} to {int(runs.max()) if len(runs) else 0} "
        "(the paper: 30). " + ", ".join(f"{d} ({int(r)})" for d, r in runs.items()),
        "",
        *_prefix_lines(records, acc.index, methods),
        *incomplete_lines(records, acc.index, methods, report_cfg),
        *_variant_lines(records, acc, report_cfg),
        *claims_lines(records, report_cfg),
        "",
        "Average ranks, Friedman test and Bergmann–Hommel adjusted p-values: "
        "compare_accuracy_bergmann.md (elovaara2008_fig1), compare_log_sum_bergmann.md "
        "(elovaara2008_fig2), with their CD diagrams.",
    ]
    for note in report_cfg.get("notes", []):
        lines.append(f"\n- {note}")
    write_text(path, "\n".join(lines) + "\n")
    return path


def incomplete_lines(records: pd.DataFrame, complete, methods, report_cfg) -> list[str]:
    """The data sets of the sweep (:data:`CLAIMS_EXPERIMENT`'s, or ``report.datasets``) left
    out of the figures and claims, each with the methods it lacks: those its bound
    (``hydra.sweeper.exclude``) leaves out, and those without a complete run yet (as
    :func:`run_means` counts them, :func:`complete_runs`)."""
    plan_cfg = {"datasets": report_cfg.get("datasets"), "exclude": report_cfg.get("exclude")}
    datasets, bound = sweep_plan(plan_cfg, methods, CLAIMS_EXPERIMENT)
    full = complete_runs(records, "accuracy")
    done, complete = set(zip(full["method"], full["dataset"])), set(complete)
    left, unfinished = [], []
    for d in datasets:
        if d in complete:
            continue
        out = [m for m in methods if (m, d) in bound]
        todo = [m for m in methods if (m, d) not in bound and (m, d) not in done]
        if out:
            left.append(f"{d} ({', '.join(method_labels(out))})")
        if todo:
            unfinished.append(f"{d} ({', '.join(method_labels(todo))})")
    lines = []
    if left:
        lines.append(
            f"Left out by the sweep's bound (hydra.sweeper.exclude), {len(left)} data set(s): "
            + "; ".join(left)
            + "."
        )
    if unfinished:
        lines.append(
            f"Not finished, {len(unfinished)} data set(s), with the methods still to run "
            "(the sweep resumes them): " + "; ".join(unfinished) + "."
        )
    if lines:
        lines.append(
            "The figures, ranks and claims cover only the data sets with every method above."
        )
    return [x for line in lines for x in (line, "")]


def _prefix_lines(records: pd.DataFrame, datasets, methods) -> list[str]:
    """The methods whose means are over fewer runs (a prefix of the repetitions)."""
    note = prefix_note(records, datasets, methods)
    if not note:
        return []
    return [
        f"Fewer runs (a prefix of the repetitions, the same folds as the others' first runs): "
        f"{note}; their means, ranks and tests are over those runs.",
        "",
    ]


def _variant_runs(report_cfg, metric: str):
    """(label, per-run values of the variant's experiment) for each of ``report.variants``
    with records (:func:`per_run`, complete runs only)."""
    for label, experiment in ((report_cfg or {}).get("variants") or {}).items():
        try:
            records = ResultsStore(_paths(report_cfg).results).records(experiment)
        except FileNotFoundError:
            continue
        yield label, complete_runs(records, metric)


def _variant_lines(records: pd.DataFrame, acc: pd.DataFrame, report_cfg) -> list[str]:
    """ "## Readings": each variant's mean accuracy beside the default's, per method, over the
    data sets and runs (repetitions) both readings have: the same folds."""
    ours = complete_runs(records, "accuracy")
    ours = ours[ours["dataset"].isin(acc.index)]
    keys = ["dataset", "repetition"]
    rows = []
    for label, theirs in _variant_runs(report_cfg, "accuracy"):
        for method in sorted(set(theirs["method"])):
            if method not in acc.columns:
                continue
            a = ours[ours["method"] == method].set_index(keys)["accuracy"]
            b = theirs[theirs["method"] == method].set_index(keys)["accuracy"]
            both = pd.concat([a, b], axis=1, join="inner").dropna()
            if both.empty:
                continue
            means = both.groupby(level="dataset").mean()  # per data set, then over data sets
            n_reps = both.groupby(level="dataset").size()
            reps = (
                f"{n_reps.min()}"
                if n_reps.min() == n_reps.max()
                else (f"{n_reps.min()}–{n_reps.max()}")
            )
            d, v = means.iloc[:, 0].mean(), means.iloc[:, 1].mean()
            rows.append(
                f"| {method_labels([method])[0]} | {label} | {len(means)} | {reps} | {d:.4f} | "
                f"{v:.4f} | {v - d:+.4f} |"
            )
    if not rows:
        return []
    lines = [
        "## Readings",
        "",
        "Mean accuracy over the data sets and runs where both readings ran (the same folds; "
        "the default of this experiment; the variants are their own stored experiments, "
        "report.variants):",
        "",
        "| method | reading | data sets | runs | default | variant | variant − default |",
        "|---|---|---|---|---|---|---|",
    ]
    return [*lines, *rows, ""]


def variant(records, out_dir, report_cfg) -> list[Path]:
    """The report of a variant experiment (elovaara2008_fig1_no_cut_set_code): per data set,
    its methods' mean accuracy and log-sum beside those of :data:`CLAIMS_EXPERIMENT`'s default
    reading (``variant.csv``, ``variant.md``, ``REPRODUCTION.md``)."""
    out_dir = Path(out_dir)
    try:
        default = ResultsStore(_paths(report_cfg).results).records(CLAIMS_EXPERIMENT)
    except FileNotFoundError:
        default = records.iloc[:0]
    methods = sorted(set(records["method"]))
    parts = []
    for metric in ("accuracy", "log_sum"):
        ours = run_means(records, metric, methods).add_suffix(f" {metric} (this reading)")
        base = run_means(default[default["method"].isin(methods)], metric, methods)
        parts += [ours, base.add_suffix(f" {metric} (default)")]
    table = pd.concat(parts, axis=1).sort_index()
    csv = out_dir / "variant.csv"
    write_csv(table, csv, index_label="dataset")
    runs = n_runs(records, "accuracy")
    base_runs = n_runs(default[default["method"].isin(methods)], "accuracy")
    base_runs = base_runs.reindex(runs.index).dropna()
    base_text = (
        f" (the default's: {int(base_runs.min())}–{int(base_runs.max())} runs)"
        if len(base_runs) and (base_runs.min() != runs.min() or base_runs.max() != runs.max())
        else ""
    )
    body = to_markdown(table, index_title="dataset", digits=4)
    title = report_cfg.get("title", "variant")
    md = out_dir / "variant.md"
    write_text(md, f"# {title}\n\nMeans over the runs of 10-fold CV.\n\n{body}")
    rep = out_dir / "REPRODUCTION.md"
    write_text(
        rep,
        f"# Reproduction: {title}\n\nA labelled variant of {CLAIMS_EXPERIMENT}: the same "
        "cells under another reading of the methods (conf/experiment/"
        f"{report_cfg.get('experiment', 'elovaara2008_fig1_no_cut_set_code')}.yaml). "
        f"{len(runs)} data sets, {int(runs.min()) if len(runs) else 0}–"
        f"{int(runs.max()) if len(runs) else 0} runs each{base_text}. The paper's claims are "
        f"decided on the default reading ({CLAIMS_EXPERIMENT}'s REPRODUCTION.md); per data set, "
        f"this reading beside the default:\n\n{body}\n",
    )
    return [csv, md, rep]


def fig1(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 1: average classification accuracy of thirty 10-fold CV runs."""
    return _draw(records, out_dir, report_cfg, "accuracy", "fig1", "Accuracy")


def fig2(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 2: average log-sum of thirty 10-fold CV runs."""
    return _draw(records, out_dir, report_cfg, "log_sum", "fig2", "Log-sum")
