"""wu2015 Table 2 and Figure 3 from stored records (never refits).

Called by ``python -m repro.report experiment=wu2015_table2`` and ``experiment=wu2015_fig3``
(the ``figures:`` entries of ``conf/experiment/wu2015_*.yaml``); both write into the report's
output folder, ``results/<experiment>/`` by default.

:func:`table2` — Table 2 next to the published numbers of ``<paths.published>/wu2015/reported.csv``.
Writes ``table2.md`` (ours | published, error % ± 95% CI and training time in ms per method),
``REPRODUCTION.md`` (that table, the "BMA never underperforms NB" check and the mean absolute
difference to the published errors) and ``table2_side_by_side.csv`` (one row per published
method × data set with our numbers beside them).

- Error: mean test error over the outer repetitions of ``protocol=resample``; ± the half-width of
  the 95% t-interval over repetitions (t_{0.975, R−1}·sd/√R, sd with ddof = 1, R repetitions).
  The paper's errors are single-split numbers (whole numbers of mistakes over a 10% test part),
  so differences of a few points are within its own noise.
- Time: the training time of the final fit, ms (``refit_time`` records of the tuned methods when
  the runner stores them, else ``fit_time``, which for ``*_tuned`` includes the inner-CV tuning
  and is marked with ``*``).
- BMA vs NB: paired over the identical outer splits; "worse" = higher mean error, "significantly
  worse" = paired t-test p < 0.05 (one-sided, H1: error(BMA) − error(NB) > 0).
- ``lymph_binary`` is shown as the paper's ``lymph`` (a labelled substitute).

:func:`table2_density` — the same table for ``experiment=wu2015_table2_density``, the labelled
variant with ``gaussian=density`` (the normal density of the paper's text) for NB and BMA: NB and
BMA with both Gaussians next to the published errors (the default Weka NB/BMA and LR/SVM read
from the stored ``wu2015_table2`` records), the weka − density error paired over the identical
outer splits (two-sided paired t), the BMA-vs-NB check for the density variant and the mean
absolute difference to the published errors per Gaussian. Writes ``table2_density.md``,
``REPRODUCTION.md`` and ``table2_density_side_by_side.csv``.

:func:`fig3` — Figure 3: BMA-NB accuracy against Γ, one line per data set. Two panels as in the
paper: (left) data sets where some Γ > 1 beats every Γ ≤ 1 (a peak: an Occam prior that leaves
some variables out helps), (right) the others, where the best accuracy is reached with Γ ≤ 1 (all
variables kept, BMA = NB). Accuracy = mean test accuracy over the outer repetitions of
``protocol=resample``. Writes ``fig3.png``, ``fig3.pdf`` and ``fig3.csv`` (the plotted means,
with the panel of each data set).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import stats  # noqa: E402

from repro import config  # noqa: E402
from repro.evaluation.guarded import write_text
from repro.report.escape import write_csv
from repro.report.figure_files import save_figure
from repro.report.reproduction import compare_reported, judge, one_split_aggregates  # noqa: E402
from repro.report.tables import to_markdown  # noqa: E402

METHODS = {"bma_nb_tuned": "BMA", "nb_laplace": "NB", "lr_tuned": "LR", "svm_tuned": "SVM"}
#: our data set → the paper's, where we run a labelled substitute
SUBSTITUTES = {"lymph_binary": "lymph"}
PAPER_ORDER = [
    "anneal", "autos", "vote", "sick", "crx", "mushroom", "heart_statlog", "segment", "labor",
    "vowel", "audiology", "iris", "zoo", "lymph", "soybean", "balance_scale", "glass", "hepatitis",
    "haberman",
]  # fmt: skip


# --- Table 2 ---------------------------------------------------------------------------------
def with_paper_dataset(records: pd.DataFrame) -> pd.DataFrame:
    """The records with a ``paper_dataset`` column (the paper's name of each data set)."""
    if "paper_dataset" in records.columns:
        return records
    return records.assign(paper_dataset=records["dataset"].map(lambda d: SUBSTITUTES.get(d, d)))


def summarize(records: pd.DataFrame) -> pd.DataFrame:
    """One row per (method, dataset): error, CI half-width, time (s), repetitions."""
    records = with_paper_dataset(records)
    rows = []
    for (method, dataset), grp in records.groupby(["method", "paper_dataset"]):
        acc = grp.query("split == 'test' and metric == 'accuracy'")
        err = 1.0 - acc.groupby("repetition")["value"].mean()
        r = err.size
        half = stats.t.ppf(0.975, r - 1) * err.std(ddof=1) / np.sqrt(r) if r > 1 else np.nan
        model = grp[grp["split"] == "model"]
        refit = model[model["metric"] == "refit_time"]["value"]
        fit = model[model["metric"] == "fit_time"]["value"]
        time_s, total = (
            (refit.mean(), False) if len(refit) else (fit.mean(), method.endswith("_tuned"))
        )
        rows.append(
            {
                "method": method,
                "dataset": dataset,
                "error": err.mean(),
                "error_ci95": half,
                "fit_time": time_s,
                "time_includes_tuning": total,
                "repetitions": r,
            }
        )
    return pd.DataFrame(rows)


def side_by_side(ours: pd.DataFrame, reported: pd.DataFrame) -> pd.DataFrame:
    """The published numbers (``paper_*`` columns) with ours beside them and ``diff`` = ours −
    paper error, one row per published (method, dataset)."""
    pub = reported.pivot_table(index=["method", "dataset"], columns="metric", values="value")
    pub = pub.add_prefix("paper_").reset_index()
    table = pub.merge(ours, on=["method", "dataset"], how="left")
    table["diff"] = table["error"] - table["paper_error"]
    return table


def _fmt_err(e, ci):
    return "—" if pd.isna(e) else f"{100 * e:.2f} ± {100 * ci:.2f}"


def paper_rows(table: pd.DataFrame):
    """(row label, the rows of ``table`` of that data set by method) in the paper's order, the
    data sets without rows left out; ``lymph`` labelled with its substitute."""
    for dataset in PAPER_ORDER:
        sub = table[table["dataset"] == dataset].set_index("method")
        if not sub.empty:
            yield dataset + (" (lymph_binary)" if dataset == "lymph" else ""), sub


def markdown(table: pd.DataFrame) -> str:
    """The Table 2 layout: data sets in the paper's order, error then time, ours and published."""
    head = [f"{name} ours" for name in METHODS.values()]
    head += [f"{name} paper" for name in METHODS.values()]
    head += [f"{name} ms ours/paper" for name in METHODS.values()]
    rows = {}
    for label, sub in paper_rows(table):
        cells = rows[label] = []
        for m in METHODS:
            cells.append(
                _fmt_err(sub.at[m, "error"], sub.at[m, "error_ci95"]) if m in sub.index else "—"
            )
        for m in METHODS:
            cells.append(_fmt_err(sub.at[m, "paper_error"], sub.at[m, "paper_error_ci95"]))
        for m in METHODS:
            t = sub.at[m, "fit_time"] if m in sub.index else np.nan
            star = "*" if m in sub.index and bool(sub.at[m, "time_includes_tuning"]) else ""
            ours = "—" if pd.isna(t) else f"{1000 * t:.0f}{star}"
            cells.append(f"{ours} / {1000 * sub.at[m, 'paper_fit_time']:.0f}")
    frame = pd.DataFrame(list(rows.values()), index=list(rows), columns=head)
    return to_markdown(frame, index_title="data set").rstrip("\n")


def paired_p(diff: pd.Series, alternative: str) -> float:
    """The paired t-test p-value of the differences ``diff`` ("greater": H1 mean > 0; "two-sided":
    mean ≠ 0); when every difference is the same, 0 if it is what H1 says, else 1."""
    if diff.std(ddof=1) > 0:
        return stats.ttest_1samp(diff, 0.0, alternative=alternative).pvalue
    if alternative == "greater":
        return 1.0 if diff.mean() <= 0 else 0.0
    return 1.0 if diff.mean() == 0 else 0.0


def bma_vs_nb(records: pd.DataFrame) -> pd.DataFrame:
    """Paired comparison of BMA (tuned) and NB over the identical outer splits."""
    records = with_paper_dataset(records)
    acc = records.query("split == 'test' and metric == 'accuracy'")
    rows = []
    for dataset, grp in acc.groupby("paper_dataset"):
        wide = grp.pivot_table(index="repetition", columns="method", values="value")
        if not {"bma_nb_tuned", "nb_laplace"} <= set(wide.columns):
            continue
        wide = wide.dropna(subset=["bma_nb_tuned", "nb_laplace"])
        diff = (1 - wide["bma_nb_tuned"]) - (1 - wide["nb_laplace"])  # > 0: BMA worse
        p = paired_p(diff, "greater")
        rows.append(
            {
                "dataset": dataset,
                "bma_error": 1 - wide["bma_nb_tuned"].mean(),
                "nb_error": 1 - wide["nb_laplace"].mean(),
                "bma_minus_nb": diff.mean(),
                "bma_worse_splits": int((diff > 0).sum()),
                "bma_better_splits": int((diff < 0).sum()),
                "p_bma_worse": p,
            }
        )
    return pd.DataFrame(rows)


def bma_vs_nb_section(duel: pd.DataFrame, heading: str) -> list[str]:
    """The lines of a report's "BMA never underperforms NB?" section: ``heading``, the
    :func:`bma_vs_nb` table, the data sets where BMA is worse and significantly worse."""
    worse = duel[duel["bma_minus_nb"] > 0] if len(duel) else duel
    signif = duel[duel["p_bma_worse"] < 0.05] if len(duel) else duel
    return [
        heading,
        "",
        to_markdown(duel.set_index("dataset"), index_title="dataset").rstrip()
        if len(duel)
        else "(no paired records)",
        "",
        f"BMA has a higher mean error than NB on {len(worse)} of {len(duel)} data sets "
        f"({', '.join(worse['dataset']) if len(worse) else 'none'}); significantly (paired t, "
        f"p < 0.05) on {len(signif)} ({', '.join(signif['dataset']) if len(signif) else 'none'}).",
    ]


def one_split_section(records: pd.DataFrame, reported: pd.DataFrame) -> list[str]:
    """The published errors judged by the one-split rule: each is one train/test split (k/n_test),
    ours 20 splits of the same cell; a published error agrees when it lies in the order-statistics
    prediction interval of one more of our splits ([min, max] of 20: coverage 19/21, 90.5%)."""
    values = reported[(reported["table"] == "Table 2 (left)") & (reported["metric"] == "error")]
    judged = judge(compare_reported(values, records), reported, records)
    done = judged[judged["agrees"].notna()]
    if done.empty:
        return ["## Published errors against our splits", "", "(no comparable cell)"]
    per = done.assign(agrees=done["agrees"].astype(bool)).groupby("method")["agrees"]
    counts = pd.DataFrame({"agree": per.sum(), "judged": per.size()}).rename(index=METHODS)
    outside = done[~done["agrees"].astype(bool)]
    inside = done[done["agrees"].astype(bool)]
    half = float((done["high"] - done["low"]).median()) / 2
    wide = inside[(inside["published"] - inside["reproduced"]).abs() > half]
    together = one_split_aggregates(judged, records)
    together = together.assign(
        method=together["method"].map(lambda m: METHODS.get(m, m)),
        agrees=together["agrees"].map({True: "yes", False: "**no**"}).fillna("—"),
    ).drop(columns="table")
    return [
        "## Published errors against our splits (one-split rule)",
        "",
        "Every published error is one split (k/n_test); ours are 20 splits of the same cell. A "
        "published error agrees when it lies in the prediction interval of one more of our "
        f"splits ([min, max] of 20, coverage 90.5%): **{int(done['agrees'].astype(bool).sum())} "
        f"of {len(done)} agree**.",
        "",
        to_markdown(counts, index_title="method").rstrip(),
        "",
        "Taken together (a shift of every cell the same way, which no per-cell interval can "
        "see): the sign test of how many published errors lie above our median, and the "
        "Kolmogorov–Smirnov test of their percentiles among our splits against the uniform law, "
        "per table and per method. The cells of one data set share one split of the paper, so "
        "they are not independent and the p-values are somewhat too small.",
        "",
        to_markdown(together.set_index("method"), index_title="method").rstrip(),
        "",
        "Inside only through a wide spread (the published error further from our mean than half "
        f"the median interval width over the table, {100 * half:.2f} points; small test parts): "
        + (
            ", ".join(
                f"{METHODS.get(r.method, r.method)} on {r.dataset} ({100 * r.published:.2f} vs our "
                f"mean {100 * r.reproduced:.2f}, interval {100 * r.low:.2f}–{100 * r.high:.2f})"
                for r in wide.itertuples(index=False)
            )
            or "none"
        )
        + ".",
        "",
        "Outside: "
        + (
            ", ".join(
                f"{METHODS.get(r.method, r.method)} on {r.dataset} ({100 * r.published:.2f} vs "
                f"ours {100 * r.reproduced:.2f})"
                for r in outside.itertuples(index=False)
            )
            or "none"
        )
        + ".",
    ]


def gaussian_note(records: pd.DataFrame) -> str:
    """The sentence naming the Gaussian of the NB and BMA records (numeric inputs)."""
    nb = records[records["method"].isin(["nb_laplace", "bma_nb_tuned"])]
    used = sorted(set(gaussian_of(nb))) if len(nb) else []
    names = {
        "weka": "Weka's Gaussian (`gaussian=weka`: weka.estimators.NormalEstimator, the estimator "
        "of the authors' Weka-based code: values rounded to a precision p = the mean gap between "
        "distinct training values, sd ≥ p/6, P(x | y) = the normal mass of the width-p bucket)",
        "density": "the normal density N(μ, σ²) (`gaussian=density`)",
    }
    if not used:
        return "NB and BMA: no records."
    return (
        f"NB and BMA model numeric inputs with {' and '.join(names.get(g, g) for g in used)}. "
        "The other reading is a labelled variant: `python -m repro experiment="
        "wu2015_table2_density` (NB and BMA with the normal density, next to these rows in "
        "`results/wu2015_table2_density/REPRODUCTION.md`)."
    )


def table2_report(
    records: pd.DataFrame, reported: pd.DataFrame, notes=()
) -> tuple[str, str, pd.DataFrame]:
    """(Table 2 Markdown, REPRODUCTION.md text, side-by-side table) of the records; ``notes``
    (the config's ``report.notes``: what was traced) close the text."""
    ours = summarize(records)
    table = side_by_side(ours, reported)
    md = markdown(table)
    duel = bma_vs_nb(records)
    missing = sorted(set(PAPER_ORDER) - set(ours["dataset"]))
    reps = sorted(set(ours["repetitions"]))
    text = [
        "# wu2015 Table 2 — reproduction",
        "",
        f"Outer protocol `resample` ({'/'.join(map(str, reps))} repetitions, 10% test), inner "
        "5-fold CV for Γ (BMA), C × B (LR, SVM). Error % ± 95% CI; time = final fit, ms "
        "(`*` = includes the inner-CV tuning: the runner did not store `refit_time`).",
        "",
        gaussian_note(records),
        "",
        md,
        "",
        f"Not run (not available offline): {', '.join(missing) or 'none'}.",
        "",
        *one_split_section(records, reported),
        "",
        *bma_vs_nb_section(duel, "## BMA never underperforms NB?"),
        "",
        "## Mean absolute difference to the published error (points)",
        "",
        to_markdown(
            table.dropna(subset=["error"])
            .groupby("method")["diff"]
            .apply(lambda d: 100 * d.abs().mean())
            .rename(index=METHODS)
            .rename("mean abs(ours − paper)")
            .to_frame(),
            digits=2,
            index_title="method",
        ).rstrip(),
    ]
    if notes:
        text += ["", "## Notes", "", *[f"- {note}" for note in notes]]
    return md, "\n".join(text) + "\n", table


def table2(records, out_dir, report_cfg) -> list[Path]:
    """Table 2 (``table2.md``), ``REPRODUCTION.md`` and ``table2_side_by_side.csv``; the
    published Table 2 (error, error_ci95 as fractions, fit_time in s) from ``paths.published``."""
    where = report_cfg.get("paths") or config.paths()
    md, report, table = table2_report(
        records, pd.read_csv(where.reported("wu2015")), report_cfg.get("notes", [])
    )
    return write_table_outputs(out_dir, "table2", md, report, table)


def write_table_outputs(out_dir, stem: str, md: str, report: str, table) -> list[Path]:
    """``<stem>.md``, ``REPRODUCTION.md`` and ``<stem>_side_by_side.csv`` under ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [
        out_dir / f"{stem}.md",
        out_dir / "REPRODUCTION.md",
        out_dir / f"{stem}_side_by_side.csv",
    ]
    write_text(paths[0], md + "\n")
    write_text(paths[1], report)
    write_csv(table, paths[2], index=False)
    return paths


# --- Table 2, the density variant -------------------------------------------------------------
#: the methods with a Gaussian (the ``gaussian`` parameter of nb_laplace / bma_nb)
GAUSSIAN_METHODS = {"nb_laplace": "NB", "bma_nb_tuned": "BMA"}
#: the methods without one, shown from the baseline experiment
OTHER_METHODS = {"lr_tuned": "LR", "svm_tuned": "SVM"}
#: the readings of the Gaussian, the default (Weka's NormalEstimator) first
GAUSSIANS = ("weka", "density")


def gaussian_of(records: pd.DataFrame) -> pd.Series:
    """The ``gaussian`` parameter of each record: ``p_gaussian``; "density" where unset (records
    of configurations without the parameter, whose estimators default to the density)."""
    if "p_gaussian" not in records.columns:
        return pd.Series("density", index=records.index, dtype=object)
    values = records["p_gaussian"].astype(object)
    return values.where(values.notna(), "density")


def _with_gaussians(variant: pd.DataFrame, baseline: pd.DataFrame | None) -> pd.DataFrame:
    """The NB/BMA records of both experiments with a ``gaussian`` column, and the LR/SVM records
    of ``baseline`` with gaussian "none"."""
    frames = [variant[variant["method"].isin(GAUSSIAN_METHODS)]]
    if baseline is not None and len(baseline):
        frames.append(baseline[baseline["method"].isin({**GAUSSIAN_METHODS, **OTHER_METHODS})])
    records = pd.concat(frames, ignore_index=True)
    gaussian = gaussian_of(records).where(records["method"].isin(GAUSSIAN_METHODS), "none")
    return records.assign(gaussian=gaussian)


def summarize_gaussians(variant: pd.DataFrame, baseline: pd.DataFrame | None) -> pd.DataFrame:
    """:func:`summarize` rows with a ``gaussian`` column: NB/BMA per Gaussian (from ``variant``,
    the density cells, and ``baseline``, the wu2015_table2 records), LR/SVM ("none")."""
    records = _with_gaussians(variant, baseline)
    frames = [
        summarize(grp.drop(columns="gaussian")).assign(gaussian=g)
        for g, grp in records.groupby("gaussian")
        if g in (*GAUSSIANS, "none")
    ]
    if not frames:
        columns = ["method", "dataset", "gaussian", "error", "error_ci95", "fit_time"]
        return pd.DataFrame(columns=[*columns, "repetitions"])
    return pd.concat(frames, ignore_index=True)


def side_by_side_gaussians(ours: pd.DataFrame, reported: pd.DataFrame) -> pd.DataFrame:
    """One row per published (method, dataset): ``paper_*`` and, per Gaussian g, ``error_g``,
    ``error_ci95_g``, ``fit_time_g``, ``diff_g`` = ours − paper (g = "none" for LR and SVM)."""
    pub = reported.pivot_table(index=["method", "dataset"], columns="metric", values="value")
    table = pub.add_prefix("paper_").reset_index()
    for g in (*GAUSSIANS, "none"):
        sub = ours[ours["gaussian"] == g][["method", "dataset", "error", "error_ci95", "fit_time"]]
        sub = sub.rename(columns={c: f"{c}_{g}" for c in ("error", "error_ci95", "fit_time")})
        table = table.merge(sub, on=["method", "dataset"], how="left")
        table[f"diff_{g}"] = table[f"error_{g}"] - table["paper_error"]
    return table


def _cell(row, column: str, ci: str) -> str:
    return "—" if row is None else _fmt_err(row.get(column), row.get(ci))


def _ms(value) -> str:
    return "—" if value is None or pd.isna(value) else f"{1000 * value:.0f}"


def markdown_gaussians(table: pd.DataFrame) -> str:
    """Data sets in the paper's order: NB and BMA as paper | weka | density, LR and SVM ours |
    paper (error % ± 95% CI), then the NB and BMA training times weka / density / paper (ms)."""
    head = []
    for name in GAUSSIAN_METHODS.values():
        head += [f"{name} paper", *(f"{name} {g}" for g in GAUSSIANS)]
    for name in OTHER_METHODS.values():
        head += [f"{name} ours", f"{name} paper"]
    head += [f"{name} ms weka/density/paper" for name in GAUSSIAN_METHODS.values()]
    rows = {}
    for label, sub in paper_rows(table):
        cells = rows[label] = []
        get = {m: (sub.loc[m] if m in sub.index else None) for m in METHODS}
        for m in GAUSSIAN_METHODS:
            cells.append(_cell(get[m], "paper_error", "paper_error_ci95"))
            cells += [_cell(get[m], f"error_{g}", f"error_ci95_{g}") for g in GAUSSIANS]
        for m in OTHER_METHODS:
            cells.append(_cell(get[m], "error_none", "error_ci95_none"))
            cells.append(_cell(get[m], "paper_error", "paper_error_ci95"))
        for m in GAUSSIAN_METHODS:
            keys = ("fit_time_weka", "fit_time_density", "paper_fit_time")
            cells.append(" / ".join(_ms(None if get[m] is None else get[m].get(k)) for k in keys))
    frame = pd.DataFrame(list(rows.values()), index=list(rows), columns=head)
    return to_markdown(frame, index_title="data set").rstrip("\n")


def weka_vs_density(variant: pd.DataFrame, baseline: pd.DataFrame | None) -> pd.DataFrame:
    """Per (method, dataset): the error with each Gaussian, paired over the identical outer
    splits (same protocol and seed): ``weka_minus_density``, the splits where weka is better /
    worse, and the two-sided paired t-test p-value (1 when the two agree on every split)."""
    if baseline is None or not len(baseline):
        return pd.DataFrame()
    acc = with_paper_dataset(_with_gaussians(variant, baseline))
    acc = acc.query("split == 'test' and metric == 'accuracy' and gaussian != 'none'")
    rows = []
    for (method, dataset), grp in acc.groupby(["method", "paper_dataset"]):
        wide = grp.pivot_table(index="repetition", columns="gaussian", values="value")
        if not set(GAUSSIANS) <= set(wide.columns):
            continue
        wide = wide.dropna(subset=list(GAUSSIANS))
        diff = (1 - wide["weka"]) - (1 - wide["density"])  # < 0: weka better
        p = float(paired_p(diff, "two-sided"))
        rows.append(
            {
                "method": GAUSSIAN_METHODS[method],
                "dataset": dataset,
                "density_error": 1 - wide["density"].mean(),
                "weka_error": 1 - wide["weka"].mean(),
                "weka_minus_density": diff.mean(),
                "weka_better_splits": int((diff < 0).sum()),
                "weka_worse_splits": int((diff > 0).sum()),
                "p_two_sided": p,
            }
        )
    if not rows:
        return pd.DataFrame()
    out = pd.DataFrame(rows)
    order = {d: i for i, d in enumerate(PAPER_ORDER)}
    rank = out["method"].map({n: i for i, n in enumerate(GAUSSIAN_METHODS.values())})
    out = out.assign(_m=rank, _d=out["dataset"].map(order)).sort_values(["_m", "_d"])
    return out.drop(columns=["_m", "_d"]).reset_index(drop=True)


def mean_abs_diff_gaussians(table: pd.DataFrame) -> pd.DataFrame:
    """Mean |ours − paper| in points per method and Gaussian, over the data sets run."""
    rows = []
    for m, name in {**GAUSSIAN_METHODS, **OTHER_METHODS}.items():
        sub = table[table["method"] == m]
        for g in (*GAUSSIANS, "none"):
            d = sub[f"diff_{g}"].dropna()
            if len(d):
                label = name if g == "none" else f"{name} ({g})"
                rows.append(
                    {"method": label, "data sets": len(d), "mean abs": 100 * d.abs().mean()}
                )
    return pd.DataFrame(rows)


def table2_density_report(
    variant: pd.DataFrame, baseline: pd.DataFrame | None, reported: pd.DataFrame, title: str = ""
) -> tuple[str, str, pd.DataFrame]:
    """(Markdown table, REPRODUCTION.md text, side-by-side table) of the density-variant records
    ``variant`` next to the ``baseline`` wu2015_table2 records (None: not found)."""
    ours = summarize_gaussians(variant, baseline)
    table = side_by_side_gaussians(ours, reported)
    md = markdown_gaussians(table)
    density = variant[variant["method"].isin(GAUSSIAN_METHODS)]
    density = density[gaussian_of(density) == "density"]
    duel = bma_vs_nb(density)
    gain = weka_vs_density(variant, baseline)
    mad = mean_abs_diff_gaussians(table)
    reps = sorted(set(ours["repetitions"]))
    missing = sorted(set(PAPER_ORDER) - set(ours[ours["gaussian"] == "density"]["dataset"]))
    no_base = (
        "" if baseline is not None else " Baseline records not found: no Weka NB/BMA, LR, SVM."
    )
    text = [
        f"# {title or 'wu2015 Table 2, variant: the density Gaussian'} — reproduction",
        "",
        "A labelled variant of `wu2015_table2`: NB and BMA with the two Gaussians for numeric "
        "inputs. **weka** (the default, the `wu2015_table2` records) = Weka 3.6's "
        "NormalEstimator, the estimator of the authors' Weka-based code (values rounded to a "
        "precision p = mean gap between distinct training values, N-denominator sd ≥ p/6, "
        "P(x | y) = the normal mass of the width-p bucket of x, floored at 1e-75); **density** "
        "(this experiment, `gaussian=density`) = the normal density N(μ, σ²) of the paper's text "
        "(σ² with ddof 1 plus 1e-9 × the largest class variance). LR and SVM have no Gaussian: "
        "theirs are the `wu2015_table2` numbers. Outer protocol `resample` "
        f"({'/'.join(map(str, reps))} repetitions, 10% test, the same splits in both "
        "experiments), Γ tuned by inner 5-fold CV. Error % ± 95% CI; times = the final fit, ms.",
        "",
        md,
        "",
        f"Not run with the density Gaussian: {', '.join(missing) or 'none'}.{no_base}",
        "",
        "## Weka vs density Gaussian (paired over the outer splits)",
        "",
        to_markdown(gain.set_index("dataset"), index_title="data set").rstrip()
        if len(gain)
        else "(no paired records)",
        "",
        *bma_vs_nb_section(duel, "## BMA never underperforms NB? (density Gaussian)"),
        "",
        "## Mean absolute difference to the published error (points)",
        "",
        to_markdown(mad.set_index("method"), digits=2, index_title="method").rstrip()
        if len(mad)
        else "(no records)",
    ]
    return md, "\n".join(text) + "\n", table


def table2_density(records, out_dir, report_cfg) -> list[Path]:
    """Table 2 with both Gaussians: ``table2_density.md``, ``REPRODUCTION.md`` and
    ``table2_density_side_by_side.csv``. ``records`` are the ``gaussian=density`` NB/BMA cells;
    the Weka NB/BMA and LR/SVM come from ``<paths.results>/<report.baseline>/`` (default
    ``wu2015_table2``), the published numbers from ``paths.published``."""
    from repro.evaluation.store import ResultsStore

    where = report_cfg.get("paths") or config.paths()
    try:
        baseline = ResultsStore(where.results).records(report_cfg.get("baseline", "wu2015_table2"))
    except FileNotFoundError:
        baseline = None
    reported = pd.read_csv(where.reported("wu2015"))
    title = str(report_cfg.get("title", ""))
    md, report, table = table2_density_report(records, baseline, reported, title)
    return write_table_outputs(out_dir, "table2_density", md, report, table)


# --- Figure 3 --------------------------------------------------------------------------------
PANELS = ["peak at Γ > 1", "best with Γ ≤ 1"]


def curves(records: pd.DataFrame) -> pd.DataFrame:
    """Mean test accuracy per (dataset, Γ) with the panel of each data set."""
    acc = records.query("split == 'test' and metric == 'accuracy'")
    mean = acc.groupby(["dataset", "p_gamma"], as_index=False)["value"].mean()
    mean = mean.rename(columns={"p_gamma": "gamma", "value": "accuracy"})
    panel = {}
    for dataset, grp in mean.groupby("dataset"):
        above = grp.loc[grp["gamma"] > 1.0 + 1e-9, "accuracy"].max()
        below = grp.loc[grp["gamma"] <= 1.0 + 1e-9, "accuracy"].max()
        panel[dataset] = PANELS[0] if above > below else PANELS[1]
    mean["panel"] = mean["dataset"].map(panel)
    return mean.sort_values(["panel", "dataset", "gamma"])


def plot_fig3(mean: pd.DataFrame, out_dir) -> list[Path]:
    """The two-panel figure (PNG + PDF) and its data (CSV) of :func:`curves`."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    for ax, panel in zip(axes, PANELS):
        sub = mean[mean["panel"] == panel]
        for dataset, grp in sub.groupby("dataset"):
            ax.plot(grp["gamma"], grp["accuracy"], marker="o", ms=3, label=dataset)
        ax.set_title(f"{panel} ({sub['dataset'].nunique()} data sets)")
        ax.set_xlabel("Γ  (β = Γ^(N+1))")
        ax.set_ylabel("test accuracy")
        ax.grid(alpha=0.3)
        if len(sub):
            ax.legend(fontsize=7, ncol=2)
    fig.suptitle("BMA-NB: effect of Γ (wu2015 Fig. 3, reproduced)")
    return save_with_means(fig, mean, out_dir, "fig3")


def save_with_means(fig, mean: pd.DataFrame, out_dir, name: str) -> list[Path]:
    """``name``.png and .pdf of the figure (closed) and ``name``.csv of its plotted means."""
    fig.tight_layout()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{name}.png", out_dir / f"{name}.pdf", out_dir / f"{name}.csv"]
    for path in paths[:2]:
        save_figure(fig, path, dpi=150)
    plt.close(fig)
    write_csv(mean, paths[2], index=False)
    return paths


def fig3(records, out_dir, report_cfg) -> list[Path]:
    """Figure 3: ``fig3.png``, ``fig3.pdf`` and ``fig3.csv`` (accuracy vs Γ, two panels)."""
    return plot_fig3(curves(records), out_dir)


# --- Figure 2 --------------------------------------------------------------------------------
#: panel → (the varying size, axis label)
FIG2_PANELS = {
    "features": ("K", "number of features K"),
    "training_size": ("N", "training instances N"),
}


def fig2_curves(records: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over the random runs of the test accuracy per (panel, method, K, N), with the
    task (its label says SUBSTITUTE when the offline stand-in ran) and the number of runs."""
    if "panel" not in records.columns:
        raise ValueError("no wu2015 Fig. 2 records (run `python -m repro experiment=wu2015_fig2`)")
    acc = records.query("split == 'test' and metric == 'accuracy'")
    keys = ["task", "panel", "method", "K", "N"]
    out = acc.groupby(keys)["value"].agg(accuracy="mean", sd="std", runs="count").reset_index()
    return out.sort_values(keys, ignore_index=True)


def fig2(records, out_dir, report_cfg) -> list[Path]:
    """Figure 2: accuracy against K (N fixed) and against N (K fixed), one line per method;
    ``fig2.png``, ``fig2.pdf`` and ``fig2.csv`` (the plotted means)."""
    mean = fig2_curves(records)
    tasks = sorted(mean["task"].unique())
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, (panel, (x, label)) in zip(axes, FIG2_PANELS.items()):
        sub = mean[mean["panel"] == panel]
        for method in [m for m in METHODS if m in set(sub["method"])]:
            grp = sub[sub["method"] == method].sort_values(x)
            ax.plot(grp[x], grp["accuracy"], marker="o", ms=3, label=METHODS[method])
        fixed = "N" if x == "K" else "K"
        values = sorted(set(sub[fixed]))
        ax.set_title(f"accuracy vs {x} ({fixed} = {', '.join(map(str, values))})")
        ax.set_xlabel(label)
        ax.set_ylabel("test accuracy")
        ax.grid(alpha=0.3)
        if len(sub):
            ax.legend(fontsize=8)
    runs = int(mean["runs"].max()) if len(mean) else 0
    fig.suptitle(f"wu2015 Fig. 2 — {' / '.join(tasks)} — mean over {runs} run(s)")
    return save_with_means(fig, mean, out_dir, "fig2")
