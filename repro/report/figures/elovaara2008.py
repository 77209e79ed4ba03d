"""elovaara2008 Figures 1 and 2 and the check of the paper's claims, from stored records.

Called by ``python -m repro.report experiment=elovaara2008_fig1`` / ``elovaara2008_fig2`` (the
``figures:`` entries of their configs). The paper has no table: its only numbers are the two
figures, so REPRODUCTION.md checks its claims (§5.2, §6) one by one with our numbers.

- Per cross-validation run (a repetition of ``cv10x30``): accuracy = the mean of the 10 fold
  accuracies (§5.1 "report the mean accuracy of the n tests"), log-sum = the sum of the 10 fold
  log-sums (Σ log P(true class | x) over the run's test predictions, natural log). Plotted:
  their means over the runs ("average ... of thirty cross-validation runs").
- Fig. 1: data sets ordered so that EWB-10's accuracy increases; Fig. 2: so that EWB-10's
  log-sum decreases (as the paper words both). Log-sum scales with the data set's size, so
  Fig. 2 has a symmetric-log axis.

Each writes ``<name>.png/.pdf``, ``<name>.csv`` (the plotted means, the number of runs and each
method's rank per data set), ``<name>.md`` and ``REPRODUCTION.md`` (the claims table).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from repro.report.figures.common import method_labels, save
from repro.report.tables import to_markdown

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


def run_means(records: pd.DataFrame, metric: str, methods=METHODS) -> pd.DataFrame:
    """Data sets × methods: the mean over complete runs (10 folds) of the per-run value, on the
    data sets where every method has at least one complete run."""
    runs = per_run(records, metric)
    full = runs["folds"].groupby(runs["dataset"]).transform("max")
    runs = runs[runs["folds"] == full]
    table = runs.pivot_table(index="dataset", columns="method", values=metric, aggfunc="mean")
    methods = [m for m in methods if m in table.columns]
    return table[methods].dropna()


def n_runs(records: pd.DataFrame, metric: str) -> pd.Series:
    runs = per_run(records, metric)
    return runs.groupby("dataset")["repetition"].nunique()


def ordered(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Rows ordered as the paper's figures: EWB-10 increasing (accuracy) or decreasing
    (log-sum)."""
    return table.sort_values("nb_ewb10", ascending=metric != "log_sum", kind="stable")


def ranks(table: pd.DataFrame) -> pd.DataFrame:
    """Rank of each method per data set (1 = best, ties averaged; higher values are better)."""
    return table.rank(axis=1, ascending=False, method="average")


# --- the claims -------------------------------------------------------------------------------
def _spread_trend(table: pd.DataFrame) -> tuple[float, float]:
    """Spearman ρ (and p) between EWB-10's value and the spread (max − min) of the methods."""
    spread = table.max(axis=1) - table.min(axis=1)
    rho, p = stats.spearmanr(table["nb_ewb10"], spread)
    return float(rho), float(p)


def claims(acc: pd.DataFrame, logsum: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims (§5.2, §6), each with our number and whether it holds."""
    rows = []

    def add(claim, number, holds, where):
        rows.append({"claim": claim, "where": where, "ours": number, "holds": holds})

    recorded = [d for d in acc.index if d not in FULL_PRECISION]
    for metric, table in (("accuracy", acc), ("log-sum", logsum)):
        if table.empty:
            continue
        sub = ranks(table.loc[[d for d in recorded if d in table.index]])
        if len(sub):
            wins = int((sub["nb_mdlg"] == sub.min(axis=1)).sum())
            add(
                f"MDLg is best on most data sets ({metric}; the {len(sub)} sets recorded at a "
                "precision, without the full-precision generated ones)",
                f"MDLg best on {wins} of {len(sub)}; average ranks "
                + ", ".join(
                    f"{m.replace('nb_', '')} {v:.2f}"
                    for m, v in sub.mean(axis=0).sort_values().items()
                ),
                wins > len(sub) / 2,
                "§5.2 (our split)",
            )
        r = ranks(table)
        n = len(table)
        first = int((r["nb_mdlg"] == r.min(axis=1)).sum())
        second = int(((r["nb_mdlg"] > r.min(axis=1)) & (r["nb_mdlg"] <= 2.0)).sum())
        avg = r.mean(axis=0).sort_values()
        add(
            f"MDLg is best on most data sets ({metric})",
            f"MDLg best on {first} of {n}; average ranks "
            + ", ".join(f"{m.replace('nb_', '')} {v:.2f}" for m, v in avg.items()),
            first > n / 2,
            "§5.2, Figs. 1–2",
        )
        add(
            f"MDLg is usually second when it does not win ({metric})",
            f"second on {second} of the {n - first} others",
            (n - first) > 0 and second > (n - first) / 2,
            "§5.2",
        )
        rho, p = _spread_trend(table)
        add(
            f"Differences between methods shrink where EWB-10 does well ({metric})",
            f"Spearman ρ(EWB-10 value, max − min of the methods) = {rho:.2f} (p = {p:.2g})",
            rho < 0 and p < 0.05,
            "§5.2",
        )
    if not acc.empty:
        diff = acc["nb_mdlh"] - acc["nb_ewb10"]
        wins = int((diff > 0).sum())
        add(
            "MDLh only marginally better than EWB-10 (accuracy)",
            f"mean MDLh − EWB-10 = {100 * diff.mean():+.2f} points, MDLh higher on {wins} of "
            f"{len(diff)} (median {100 * diff.median():+.2f})",
            bool(0 <= diff.mean() <= 0.02),
            "§6",
        )
        third = ordered(acc, "accuracy").iloc[: max(len(acc) // 3, 1)]
        h = third[HISTOGRAMS]
        best = int((h["nb_mdlh"] == h.max(axis=1)).sum())
        add(
            "MDLh dominates the histogram methods where EWB-10 does poorly (accuracy)",
            f"MDLh best of MDLh/Shimazaki/EWB-10 on {best} of the {len(h)} sets with the lowest "
            "EWB-10 accuracy",
            best > len(h) / 2,
            "§5.2",
        )
        normal = [d for d in NORMAL_SETS if d in acc.index]
        if normal:
            r = ranks(acc.loc[normal])
            add(
                "Gaussian does well where the attributes are normal, e.g. Iris (accuracy)",
                "Gaussian's rank: "
                + ", ".join(f"{d} {r.at[d, 'nb_gaussian']:.1f}" for d in normal),
                bool(r["nb_gaussian"].mean() <= 2.0),
                "§5.2",
            )
        if "iris" in acc.index:
            gap = acc.at["iris", "nb_mdlg"] - acc.at["iris", "nb_gaussian"]
            add(
                "MDLg comparable with Gaussian on normal data (Iris), better elsewhere",
                f"iris: MDLg − Gaussian = {100 * gap:+.2f} points; MDLg higher on "
                f"{int((acc['nb_mdlg'] > acc['nb_gaussian']).sum())} of {len(acc)} sets",
                bool(abs(gap) <= 0.02 and (acc["nb_mdlg"] > acc["nb_gaussian"]).mean() > 0.5),
                "§6",
            )
    if not acc.empty and not logsum.empty:
        common = acc.index.intersection(logsum.index)
        ra, rl = ranks(acc.loc[common]), ranks(logsum.loc[common])
        ga, gl = ra["nb_gaussian"].mean(), rl["nb_gaussian"].mean()
        drops = {m: rl[m].mean() - ra[m].mean() for m in METHODS if m in ra}
        worst = max(drops, key=drops.get)
        add(
            "Only the Gaussian drops in the ranking from accuracy to log-sum",
            f"Gaussian's average rank {ga:.2f} (accuracy) → {gl:.2f} (log-sum); largest drop: "
            f"{worst.replace('nb_', '')} ({drops[worst]:+.2f})",
            bool(gl > ga and worst == "nb_gaussian"),
            "§5.2",
        )
        tau = np.mean(
            [stats.kendalltau(ra.loc[d], rl.loc[d]).statistic for d in common if len(ra.columns)]
        )
        add(
            "Set-by-set ranking on log-sum close to that on accuracy",
            f"mean Kendall τ between the two rankings per data set = {tau:.2f}",
            bool(tau > 0.5),
            "§5.2",
        )
    return pd.DataFrame(rows)


# --- figures ----------------------------------------------------------------------------------
def _draw(records, out_dir, report_cfg, metric: str, name: str, ylabel: str) -> list[Path]:
    methods = [m for m in report_cfg.get("methods") or METHODS if m in set(records["method"])]
    table = ordered(run_means(records, metric, methods), metric)
    fig, ax = plt.subplots(figsize=(max(8.0, 0.28 * len(table) + 3), 4.5))
    x = np.arange(len(table))
    for method, label in zip(methods, method_labels(methods)):
        ax.plot(x, table[method], marker=MARKERS.get(method, "."), ms=4, lw=1, label=label)
    ax.set_xticks(x, table.index, rotation=75, ha="right", fontsize=7)
    ax.set_ylabel(ylabel)
    if metric == "log_sum":
        ax.set_yscale("symlog", linthresh=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    runs = n_runs(records, metric).reindex(table.index)
    ax.set_title(
        f"{ylabel} of {int(runs.min())}–{int(runs.max())} runs of 10-fold CV, "
        f"{len(table)} data sets (ordered by EWB-10)",
        fontsize=9,
    )
    written = save(fig, out_dir, name)
    out_dir = Path(out_dir)
    frame = table.join(runs.rename("runs")).join(ranks(table).add_prefix("rank_"))
    csv = out_dir / f"{name}.csv"
    frame.to_csv(csv, index_label="dataset")
    shown = table.rename(columns=dict(zip(methods, method_labels(methods))))
    shown["runs"] = runs
    md = out_dir / f"{name}.md"
    avg = ranks(table).mean(axis=0).rename(index=dict(zip(methods, method_labels(methods))))
    md.write_text(
        f"# {report_cfg.get('title', name)}\n\n{ylabel}, mean over the runs (ordered by EWB-10)."
        f"\n\n{to_markdown(shown, index_title='dataset', digits=4)}\n"
        f"\nAverage rank over the {len(table)} data sets (1 = best):\n\n"
        f"{to_markdown(avg.to_frame('average rank'), index_title='method', digits=2)}"
    )
    rep = write_claims(records, out_dir / "REPRODUCTION.md", report_cfg)
    return [*written, csv, md, rep]


def write_claims(records: pd.DataFrame, path: Path, report_cfg) -> Path:
    """REPRODUCTION.md: the paper has no table, so its claims are checked one by one."""
    methods = [m for m in report_cfg.get("methods") or METHODS if m in set(records["method"])]
    acc = run_means(records, "accuracy", methods)
    logsum = run_means(records, "log_sum", methods)
    runs = n_runs(records, "accuracy").reindex(acc.index)
    table = claims(acc, logsum)
    table["holds"] = table["holds"].map({True: "yes", False: "no"})
    lines = [
        f"# Reproduction: {report_cfg.get('title', 'elovaara2008')}",
        "",
        "The paper prints no number: its results are two figures (accuracy and log-sum per data "
        "set) whose data sets are not named except Iris. Nothing can be compared value by value; "
        "the claims of §5.2 and §6 are checked one by one with our numbers below "
        "(experiments/elovaara2008/README.md discusses them).",
        "",
        f"{len(acc)} data sets with every method; runs of 10-fold CV per data set: "
        f"{int(runs.min())} to {int(runs.max())} (the paper: 30). "
        + ", ".join(f"{d} ({int(r)})" for d, r in runs.items()),
        "",
        "## Claims",
        "",
        to_markdown(table.set_index("claim"), index_title="claim"),
        "",
        "Average ranks, Friedman test and Bergmann–Hommel adjusted p-values: "
        "compare_accuracy_bergmann.md (elovaara2008_fig1), compare_log_sum_bergmann.md "
        "(elovaara2008_fig2), with their CD diagrams.",
    ]
    for note in report_cfg.get("notes", []):
        lines.append(f"\n- {note}")
    path.write_text("\n".join(lines) + "\n")
    return path


def fig1(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 1: average classification accuracy of thirty 10-fold CV runs."""
    return _draw(records, out_dir, report_cfg, "accuracy", "fig1", "Accuracy")


def fig2(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 2: average log-sum of thirty 10-fold CV runs."""
    return _draw(records, out_dir, report_cfg, "log_sum", "fig2", "Log-sum")
