"""Published vs reproduced numbers: ``<paths.published>/<paper>/reported.csv`` against records.

``reported.csv`` columns: ``method`` (registry id), ``dataset`` (a catalog name, or one of the
aggregates ``mean``, ``rank``, ``wins``, ``losses`` of a table's summary rows), ``metric`` (record
metric name, in the records' units: accuracies as fractions, not percentages), ``value``,
``table`` (e.g. "Table 3"); an optional ``note``, and an optional ``role``: "calibration" marks a
number that a reconstruction's parameters were set on (shown, never counted as agreement). The
reproduced value of a data-set row is the mean of the metric over the test folds; aggregates are
recomputed, as the paper does, over the data sets on which every method of the table ran
(:func:`comparison_table`): the mean of the per-data-set means, the average rank, and the
wins/losses of the table's reference method (the one method without ``wins`` rows) by paired
t-tests over the folds.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from repro.evaluation.guarded import write_text
from repro.report.tables import LOWER_IS_BETTER, comparison_table, to_markdown
from repro.stats import agreement
from repro.stats.tests import rank_table

#: aggregate rows of a paper table (the ``dataset`` column): the summary statistics of
#: :func:`repro.report.tables.comparison_table` over the data sets every method ran on
AGGREGATES = ("mean", "rank", "wins", "losses")
REQUIRED = ("method", "dataset", "metric", "value", "table")


def read_reported(path) -> pd.DataFrame:
    """The published numbers of a paper, checked for the required columns."""
    reported = pd.read_csv(path)
    missing = [c for c in REQUIRED if c not in reported.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; required: {list(REQUIRED)}")
    return reported


def wl_reference(group: pd.DataFrame) -> str | None:
    """The reference method of a table's published rows: the one method without ``wins`` rows
    (the others' W/L are against it); None when there is not exactly one."""
    with_wins = set(group.loc[group["dataset"] == "wins", "method"])
    candidates = [m for m in dict.fromkeys(group["method"]) if m not in with_wins]
    return candidates[0] if len(candidates) == 1 else None


def _aggregates(group: pd.DataFrame, records: pd.DataFrame) -> tuple[dict, dict]:
    """(method, statistic, metric) -> reproduced value for a table's aggregate rows, and metric
    -> the note of its aggregates (the data sets they are over). Each metric's aggregates are
    over the data sets on which every method has a value of it: a cell whose folds all lack it
    (NaN) leaves its data set out of that metric's aggregates, and the note says which."""
    ran = set(records.loc[records["split"] == "test", "method"])
    methods = [m for m in dict.fromkeys(group["method"]) if m in ran]
    rows = group[group["dataset"].isin(AGGREGATES)]
    if rows.empty or not methods:
        return {}, {}
    reference = wl_reference(group)
    reference = reference if reference in methods else None
    known = set(records["metric"])
    metrics = [m for m in dict.fromkeys(rows["metric"]) if m in known]
    n_methods = len(dict.fromkeys(group["method"]))
    out, notes = {}, {}
    test = records[(records["split"] == "test") & records["method"].isin(methods)]
    for metric in metrics:
        means = test[test["metric"] == metric].groupby(["dataset", "method"])["value"].mean()
        wide = means.unstack("method").reindex(columns=methods)
        valueless = sorted(wide.index[wide.isna().any(axis=1) & wide.notna().any(axis=1)])
        subset = records[~records["dataset"].isin(valueless)]
        try:
            table = comparison_table(subset, [metric], reference=reference, methods=methods)
        except ValueError as exc:  # no data set left on which every method has a value
            notes[metric] = f"not reproduced ({exc})"
            continue
        for method, label in zip(methods, table.index, strict=True):
            out[(method, "mean", metric)] = table.loc[label, (metric, "Mean")]
            out[(method, "rank", metric)] = table.loc[label, (metric, "Rank")]
            wl = table.loc[label, (metric, "W/L")] if (metric, "W/L") in table.columns else ""
            if wl:
                wins, losses = (int(v) for v in wl.split("/"))
                out[(method, "wins", metric)], out[(method, "losses", metric)] = wins, losses
        note = f"over {len(table.attrs['datasets'])} data sets"
        if valueless:
            note += f" (left out, a method has no {metric} there: {', '.join(valueless)})"
        if len(methods) < n_methods:
            note += f", {len(methods)} of {n_methods} methods (ranks not comparable)"
        notes[metric] = note
    return out, notes


def compare_reported(reported: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """One row per published number with the reproduced value and the difference. A data set's
    value is the mean over its test folds that have one; the note says when some lack it."""
    test = records[records["split"] == "test"]
    counts = test.groupby(["method", "dataset", "metric"])["value"].agg(["mean", "count", "size"])
    rows = []
    for table, group in reported.groupby("table", sort=False):
        aggregates, agg_notes = _aggregates(group, records)
        for row in group.itertuples(index=False):
            key = (row.method, row.dataset, row.metric)
            if row.dataset in AGGREGATES:
                value = float(aggregates.get(key, np.nan))
                note = agg_notes.get(row.metric, "")
                if key not in aggregates and not note.startswith("not reproduced"):
                    note = "not reproduced (no method or metric)"
            elif key in counts.index:
                mean, n, size = counts.loc[key]
                value, note, n, size = float(mean), "", int(n), int(size)
                if n == 0:
                    note = f"not reproduced (no {row.metric} on any of the {size} folds)"
                elif n < size:
                    note = f"mean over {n} of {size} folds (n = {n}; the others have no value)"
            else:
                value, note = np.nan, "not reproduced (data set or method missing)"
            rows.append(
                {
                    "table": table,
                    "method": row.method,
                    "dataset": row.dataset,
                    "metric": row.metric,
                    "published": float(row.value),
                    "reproduced": value,
                    "difference": value - float(row.value),
                    "note": note,
                }
            )
    return pd.DataFrame(rows)


#: suffixes of the reported.csv rows that give the paper's spread of another row's value
SPREAD_SUFFIXES = ("_sd", "_ci95")


def judge(
    comparison: pd.DataFrame,
    reported: pd.DataFrame,
    records: pd.DataFrame,
    *,
    published_runs: dict | None = None,
    published_table_datasets: dict | None = None,
    standins=(),
    all_standins: bool = False,
    per_run: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """``comparison`` with the verdict of a stated rule per published number
    (:mod:`repro.stats.agreement`): columns ``rule``, ``agrees`` (True, False, None = the rule
    cannot decide or the number is not counted), ``detail`` and ``low``/``high`` (the interval,
    in the published number's units, inside which it agrees; NaN where the rule has none).

    - a table's mean over data sets of a method: the paper's difference to the table's
      reference method (the one without W/L rows, else the table's first method) against the
      bootstrap 95% CI of our paired per-data-set differences (``paired_difference``); the
      absolute mean's bootstrap CI (``mean_over_datasets``) is printed beside it as a check of
      the data sets' composition and not counted (the reference's own mean has only that);
    - an average rank: the two-sample z-test on the ranks' standard errors, over the paper's
      number of data sets (``published_table_datasets[table]``) and ours (``rank_with_se``);
    - a count of wins or losses: Fisher's exact test over the paper's data sets
      (``published_table_datasets[table]``; when not given, our number, said in the detail) and
      ours, with the range of our counts the test accepts;
    - a value published with an SD over R runs (``published_runs[table]``): Welch's test of the
      two means on their standard errors, ours over our runs (repetitions × folds);
    - a value published from one split with a 95% CI (``_ci95`` rows): where it falls among our
      per-split values (prediction interval);
    - a value the reconstruction was calibrated on (``role`` "calibration" in ``reported``):
      shown, not counted ("calibrated, not evidence");
    - a value published without its spread: compared only (``agrees`` None).

    Rows on stand-in data (``dataset`` in ``standins``, or every row when ``all_standins``) are
    never judged: rule "on stand-ins". Our runs are the test records' (repetition, fold) values,
    or ``per_run`` (long: method, dataset, metric, value) for quantities that are not test
    metrics (e.g. counts of selected variables). A published SD row itself is not judged.
    """
    context = _Context(
        comparison=comparison,
        reported=reported,
        test=records[records["split"] == "test"],
        per_run=per_run,
        published_runs=published_runs or {},
        published_table_datasets=published_table_datasets or {},
        standins=set(standins),
        all_standins=all_standins,
    )
    out = comparison.copy()
    judged = [context.judge_row(row) for row in comparison.itertuples(index=False)]
    out["rule"] = [j[0] for j in judged]
    out["agrees"] = [j[1] for j in judged]
    out["detail"] = [j[2] for j in judged]
    out["low"] = [np.nan if j[3] is None else j[3] for j in judged]
    out["high"] = [np.nan if j[4] is None else j[4] for j in judged]
    out["composition"] = [
        context.composition.get((r.table, r.method, r.metric)) if r.dataset == "mean" else None
        for r in comparison.itertuples(index=False)
    ]
    return out


#: the rule of a number the reconstruction was calibrated on (not counted)
CALIBRATED = "calibrated, not evidence"


class _Context:
    """What :func:`judge` needs to decide one row (the tables' per-data-set values, the spreads
    and run counts of the published numbers)."""

    def __init__(
        self,
        *,
        comparison,
        reported,
        test,
        per_run,
        published_runs,
        published_table_datasets,
        standins,
        all_standins,
    ):
        self.comparison, self.reported, self.test = comparison, reported, test
        long = test if per_run is None else per_run
        self.runs = long.groupby(["method", "dataset", "metric"])["value"]
        self.published_runs, self.published_table_datasets = (
            published_runs,
            published_table_datasets,
        )
        self.standins, self.all_standins = standins, all_standins
        self.spread = {}
        for suffix in SPREAD_SUFFIXES:
            rows = reported[reported["metric"].str.endswith(suffix)]
            for r in rows.itertuples(index=False):
                self.spread[(r.table, r.method, r.dataset, r.metric[: -len(suffix)])] = (
                    suffix,
                    r.value,
                )
        self.calibrated = set()
        if "role" in reported.columns:
            rows = reported[reported["role"].astype(str).str.strip() == "calibration"]
            self.calibrated = set(
                zip(rows["table"], rows["method"], rows["dataset"], rows["metric"])
            )
        self._per_dataset: dict = {}
        #: (table, method, metric) → whether the published mean lies in our CI (not counted)
        self.composition: dict = {}

    def per_dataset(self, table: str, metric: str) -> pd.DataFrame:
        """Our per-data-set means (rows) of the table's methods (columns, the table's order) over
        the data sets on which every one of them has a value."""
        key = (table, metric)
        if key not in self._per_dataset:
            rows = self.comparison[
                (self.comparison["table"] == table) & (self.comparison["metric"] == metric)
            ]
            ran = set(self.test["method"])
            methods = [m for m in dict.fromkeys(rows["method"]) if m in ran]
            sub = self.test[self.test["method"].isin(methods) & (self.test["metric"] == metric)]
            per = sub.groupby(["dataset", "method"])["value"].mean().unstack("method")
            self._per_dataset[key] = per.reindex(columns=methods).dropna()
        return self._per_dataset[key]

    def reference(self, table: str) -> str | None:
        """The table's reference method: the one without W/L rows, else its first method."""
        group = self.reported[self.reported["table"] == table]
        methods = list(dict.fromkeys(group["method"]))
        return wl_reference(group) or (methods[0] if methods else None)

    def published_mean(self, table: str, method: str, metric: str) -> float | None:
        rows = self.comparison[
            (self.comparison["table"] == table)
            & (self.comparison["method"] == method)
            & (self.comparison["dataset"] == "mean")
            & (self.comparison["metric"] == metric)
        ]
        return float(rows["published"].iloc[0]) if len(rows) else None

    def judge_row(self, row):
        if np.isnan(row.reproduced):
            return "", None, "", None, None
        if self.all_standins or row.dataset in self.standins:
            return "on stand-ins", None, "not the paper's data", None, None
        if str(row.metric).endswith(SPREAD_SUFFIXES):
            return "the paper's spread of a value", None, "", None, None
        if (row.table, row.method, row.dataset, row.metric) in self.calibrated:
            return CALIBRATED, None, "the reconstruction's parameters were set on it", None, None
        if row.dataset in AGGREGATES:
            return self._aggregate(row)
        return self._value(row)

    def _aggregate(self, row):
        per = self.per_dataset(row.table, row.metric)
        if row.method not in per.columns or len(per) == 0:
            return "", None, "", None, None
        n = len(per)
        n_pub = self.published_table_datasets.get(row.table)
        if row.dataset == "mean":
            composition = agreement.mean_over_datasets(row.published, per[row.method].to_numpy())
            self.composition[(row.table, row.method, row.metric)] = composition.agrees
            inside = "inside" if composition.agrees else "outside"
            check = f"data-set composition check (not counted): published mean {inside} our CI"
            ref = self.reference(row.table)
            pub_ref = self.published_mean(row.table, ref, row.metric) if ref else None
            if ref == row.method or ref not in per.columns or pub_ref is None:
                return composition.rule, None, composition.detail, composition.low, composition.high
            a = agreement.paired_difference(
                row.published, pub_ref, per[row.method].to_numpy(), per[ref].to_numpy()
            )
            detail = f"{a.detail} (reference {ref}); {check} [{composition.low:.4f}, "
            detail += f"{composition.high:.4f}]"
            return a.rule, a.agrees, detail, a.low, a.high
        if row.dataset == "rank":
            ranks = rank_table(per, higher_is_better=row.metric not in LOWER_IS_BETTER)
            a = agreement.rank_with_se(row.published, ranks[row.method].to_numpy(), n_pub)
            return a.rule, a.agrees, a.detail, a.low, a.high
        count = int(round(row.published))
        a = agreement.win_count(
            count, int(n_pub) if n_pub else max(n, count), int(row.reproduced), n
        )
        detail = (
            a.detail if n_pub else f"{a.detail} (the paper's number of data sets not given: ours)"
        )
        return a.rule, a.agrees, detail, a.low, a.high

    def _value(self, row):
        key = (row.table, row.method, row.dataset, row.metric)
        if (row.method, row.dataset, row.metric) not in self.runs.groups:
            return "compared only (no per-run values)", None, "", None, None
        ours = self.runs.get_group((row.method, row.dataset, row.metric)).dropna().to_numpy()
        if key in self.spread:
            suffix, width = self.spread[key]
            if suffix == "_ci95":
                a = agreement.one_split(row.published, ours)
                return a.rule, a.agrees, a.detail, a.low, a.high
            n_runs = self.published_runs.get(row.table)
            if n_runs and ours.size >= 2:
                a = agreement.mean_with_sd(row.published, width, int(n_runs), ours)
                return a.rule, a.agrees, a.detail, a.low, a.high
            detail = f"published SD {width:g} over an unknown number"
            return "no run count published", None, detail, None, None
        return "compared only (no spread published)", None, "", None, None


def one_split_aggregates(judged: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """The aggregate test of the one-split values of ``judged`` (:func:`judge`), per table and
    per table × method (:func:`repro.stats.agreement.one_split_aggregate`): columns table,
    method ("all" for the table), cells, above, agrees, detail. Stand-ins are left out."""
    rows = judged[judged["rule"] == agreement.RULES["one_split"]]
    test = records[records["split"] == "test"]
    runs = test.groupby(["method", "dataset", "metric"])["value"]
    out = []
    for table, group in rows.groupby("table", sort=False):
        parts = [("all", group), *group.groupby("method", sort=False)]
        for method, sub in parts:
            ours = [
                runs.get_group((r.method, r.dataset, r.metric)).dropna().to_numpy()
                for r in sub.itertuples(index=False)
            ]
            a = agreement.one_split_aggregate(sub["published"].to_numpy(), ours)
            out.append(
                {
                    "table": table,
                    "method": method,
                    "cells": len(sub),
                    "agrees": a.agrees,
                    "detail": a.detail,
                }
            )
    return pd.DataFrame(out, columns=["table", "method", "cells", "agrees", "detail"])


#: how the opening summary groups the published numbers: aggregate rows by kind, the rest as
#: per-data-set values
KINDS = (
    ("means", ("mean",)),
    ("average ranks", ("rank",)),
    ("W/L counts", ("wins", "losses")),
)


def summarize(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per kind of number (means, average ranks, W/L counts, per-data-set values): how many were
    published, compared (stand-ins left out), run on stand-ins, decidable by their rule
    (``testable``) and agreeing by it (``agree``; :func:`judge`), with the median and max
    |difference| of the compared ones. A comparison that was not judged counts as compared
    only."""
    if "agrees" not in comparison:  # not judged: every number compared only
        comparison = comparison.assign(rule="compared only", agrees=None)
    rows = []
    kinds = [*KINDS, ("per-data-set values", None)]
    aggregate = comparison["dataset"].isin(AGGREGATES)
    for label, datasets in kinds:
        mask = comparison["dataset"].isin(datasets) if datasets else ~aggregate
        sub = comparison[mask]
        if sub.empty:
            continue
        standin = sub["rule"] == "on stand-ins"
        done = sub[sub["reproduced"].notna() & ~standin]
        diff = done["difference"].abs()
        decided = done["agrees"].map(lambda v: v is not None and not pd.isna(v))
        rows.append(
            {
                "kind": label,
                "published": len(sub),
                "compared": len(done),
                "on_standins": int(standin.sum()),
                "testable": int(decided.sum()),
                "agree": int(done.loc[decided, "agrees"].astype(bool).sum()),
                "calibrated": int((done["rule"] == CALIBRATED).sum()),
                "composition_inside": _count(done, "composition", True),
                "composition_checked": _count(done, "composition", None),
                "median_abs_difference": float(diff.median()) if len(done) else np.nan,
                "max_abs_difference": float(diff.max()) if len(done) else np.nan,
                "rules": "; ".join(sorted(set(done.loc[decided, "rule"]))),
            }
        )
    return pd.DataFrame(rows)


def _by_metric(comparison: pd.DataFrame) -> str:
    """ "; by metric: error 17 of 48, n_selected 9 of 28" for the per-data-set values judged by a
    rule, when they are of several metrics (empty otherwise)."""
    values = comparison[~comparison["dataset"].isin(AGGREGATES)]
    decided = values[values["agrees"].map(lambda v: v is not None and not pd.isna(v))]
    if decided["metric"].nunique() < 2:
        return ""
    parts = [
        f"{metric} {int(group['agrees'].astype(bool).sum())} of {len(group)}"
        for metric, group in decided.groupby("metric", sort=False)
    ]
    return "; by metric: " + ", ".join(parts)


def _count(frame: pd.DataFrame, column: str, value) -> int:
    """Rows of ``frame`` whose ``column`` is ``value`` (None: is True or False)."""
    if column not in frame:
        return 0
    known = frame[column].map(lambda v: isinstance(v, bool | np.bool_))
    if value is None:
        return int(known.sum())
    return int((known & (frame[column] == value)).sum())


def rank_agreement(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per table and metric: Spearman's ρ between the published and reproduced average ranks of
    the methods (1 = the same ordering), over the methods with both."""
    rows = []
    ranks = comparison[(comparison["dataset"] == "rank") & comparison["reproduced"].notna()]
    for (table, metric), group in ranks.groupby(["table", "metric"], sort=False):
        rho = (
            float(stats.spearmanr(group["published"], group["reproduced"]).statistic)
            if len(group) >= 3
            else np.nan
        )
        rows.append({"table": table, "metric": metric, "n_methods": len(group), "spearman": rho})
    return pd.DataFrame(rows, columns=["table", "metric", "n_methods", "spearman"])


def _summary_lines(comparison: pd.DataFrame) -> list[str]:
    done = comparison["reproduced"].notna()
    if not done.any():
        return [f"{len(comparison)} published numbers; none compared yet (no reproduced value)."]
    lines = [
        f"{int(done.sum())} of {len(comparison)} published numbers have a reproduced value. Each "
        "is judged by the rule of its kind (the `rule` and `detail` columns below; a value on "
        "stand-in data is never compared), by kind:",
        "",
    ]
    for row in summarize(comparison).itertuples(index=False):
        text = f"- {row.kind}: {row.compared} of {row.published} compared"
        if row.on_standins:
            text += f" ({row.on_standins} on stand-ins, not compared)"
        if row.compared:
            text += (
                f"; median |difference| {row.median_abs_difference:.4f}, "
                f"max {row.max_abs_difference:.4f}"
            )
        if row.testable:
            text += f"; **{row.agree} of {row.testable} agree** ({row.rules})"
        if row.kind == "per-data-set values" and row.testable:
            text += _by_metric(comparison)
        if row.calibrated:
            text += f"; {row.calibrated} calibrated on (the reconstruction's targets), not counted"
        if row.composition_checked:
            text += (
                f"; data-set composition check (absolute means, not counted): "
                f"{row.composition_inside} of {row.composition_checked} inside our CI"
            )
        if row.kind == "average ranks":
            agreement_rows = rank_agreement(comparison).dropna()
            several = agreement_rows["table"].nunique() > 1
            if not agreement_rows.empty:
                text += "; order of the methods, Spearman ρ published vs reproduced: " + ", ".join(
                    f"{f'{r.table} ' if several else ''}{r.metric} {r.spearman:.2f}"
                    for r in agreement_rows.itertuples(index=False)
                )
        lines.append(text + ".")
    return lines


def aggregate_lines(aggregates: pd.DataFrame) -> list[str]:
    """The Markdown section of :func:`one_split_aggregates`' table."""
    shown = aggregates.assign(
        agrees=aggregates["agrees"].map({True: "yes", False: "**no**"}).fillna("—")
    )
    return [
        "## One-split values taken together",
        "",
        "Each one-split value is judged alone above; taken together, the published values of a "
        "table should fall where draws of our per-split values would "
        f"({agreement.RULES['one_split_aggregate']}). "
        "The cells of one data set share its split, so they are not independent: a failure here "
        "overstates the evidence somewhat, a pass does not.",
        "",
        to_markdown(shown.set_index("table")),
        "",
    ]


def variants_side_by_side(variants: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The published numbers next to the reproduced value of each variant (label → the
    :func:`compare_reported` frame of one stored experiment): one row per published number of
    the first variant, one column per variant."""
    labels = list(variants)
    keys = ["table", "method", "dataset", "metric"]
    out = variants[labels[0]][[*keys, "published"]].copy()
    for label in labels:
        values = variants[label].set_index(keys)["reproduced"]
        out[label] = values.reindex(pd.MultiIndex.from_frame(out[keys])).to_numpy()
    return out


def per_dataset_side_by_side(variants: dict[str, pd.DataFrame], metric: str) -> pd.DataFrame:
    """Per data set (rows) and method: the mean test ``metric`` of each variant (label → the
    records of one stored experiment) as ``"a → b"``, in the variants' order."""
    means = {
        label: rec[(rec["split"] == "test") & (rec["metric"] == metric)]
        .groupby(["dataset", "method"])["value"]
        .mean()
        .unstack("method")
        for label, rec in variants.items()
    }
    first = next(iter(means.values()))
    out = pd.DataFrame(index=first.index, columns=first.columns, dtype=object)
    for method in first.columns:
        for dataset in first.index:
            parts = [
                f"{m.at[dataset, method]:.3f}"
                if dataset in m.index and method in m.columns and pd.notna(m.at[dataset, method])
                else "—"
                for m in means.values()
            ]
            out.at[dataset, method] = " → ".join(parts)
    return out


def _variant_lines(variants: dict, per_dataset: dict) -> list[str]:
    labels = " / ".join(f"“{label}”" for label in variants)
    lines = [
        "## Variants side by side",
        "",
        f"The same cells run as {labels} (stored experiments named in the report configuration).",
        "",
    ]
    for table, group in variants_side_by_side(variants).groupby("table", sort=False):
        shown = group.drop(columns="table").set_index("method")
        lines += [f"### {table}", "", to_markdown(shown, digits=4), ""]
    for metric, table in per_dataset.items():
        lines += [f"### Per data set: test {metric}, {' → '.join(variants)}", ""]
        lines += [to_markdown(table), ""]
    return lines


def write_reproduction(
    comparison: pd.DataFrame,
    path,
    title: str,
    missing_datasets: list[str] = (),
    substitutions: dict | None = None,
    caveat: str | None = None,
    variants: dict[str, pd.DataFrame] | None = None,
    per_dataset: dict[str, pd.DataFrame] | None = None,
    notes: list[str] = (),
    aggregates: pd.DataFrame | None = None,
) -> Path:
    """REPRODUCTION.md: published vs reproduced, differences, missing and substituted data.

    Opens with ``caveat`` (e.g. that stand-ins replace the paper's data sets) when given, then
    a summary per kind of number (:func:`summarize`). ``variants`` (label → comparison frame of
    a stored experiment, this one among them) adds the variants side by side, ``per_dataset``
    (metric → :func:`per_dataset_side_by_side`) their per-data-set values, ``notes`` a list,
    ``aggregates`` (:func:`one_split_aggregates`) the aggregate test of the one-split values.
    """
    path = Path(path)
    lines = [f"# Reproduction: {title}", ""]
    if caveat:
        lines += [f"**{caveat}**", ""]
    lines += _summary_lines(comparison)
    lines.append("")
    if aggregates is not None and len(aggregates):
        lines += aggregate_lines(aggregates)
    if missing_datasets:
        lines += ["## Data sets missing here", "", ", ".join(sorted(missing_datasets)), ""]
    if substitutions:
        lines += ["## Substitutions", ""]
        lines += [f"- {a}: {b}" for a, b in substitutions.items()]
        lines.append("")
    for table, group in comparison.groupby("table", sort=False):
        columns = ["dataset", "metric", "published", "reproduced", "difference"]
        if "agrees" in group:
            group = group.assign(
                agrees=group["agrees"].map({True: "yes", False: "**no**"}).fillna("—")
            )
            columns += ["agrees", "detail"]
        shown = group.set_index("method")[[*columns, "note"]]
        lines += [f"## {table}", "", to_markdown(shown, digits=4), ""]
    if variants:
        lines += _variant_lines(variants, per_dataset or {})
    if notes:
        lines += ["## Notes", "", *[f"- {note}" for note in notes], ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, "\n".join(lines))
    return path
