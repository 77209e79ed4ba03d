"""vidaurre2012 Figures 1 and 2, naive Bayes with irrelevant and with redundant noise
predictors, and their REPRODUCTION.md, from stored records (never refits).

Called by ``python -m repro.report experiment=vidaurre2012_fig1`` and ``…_fig2`` (the
``figures:`` entry of ``conf/experiment/vidaurre2012_figN.yaml``); each function writes
``figN.png``, ``figN.pdf``, ``figN.csv`` (the plotted numbers) and ``REPRODUCTION.md`` into the
report's folder. The records are those of :mod:`repro.experiments.vidaurre2012`; the reference
values known exactly (eq. (12)) come from :mod:`repro.datasets.vidaurre2012`. How the paper's
observations are compared with ours: :mod:`.vidaurre2012_common`.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from repro.datasets.vidaurre2012 import (  # noqa: E402
    toy_bayes_error,
    toy_nb_copies_error,
    toy_x1_error,
)
from repro.report.papers.vidaurre2012.figures_common import (  # noqa: E402
    COMPARED,
    PAPER,
    claims_section,
    format_test,
    paired_test,
    require_column,
    sizes,
    values_of,
    write_figure,
)
from repro.report.tables import to_markdown  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Figure 1
# ---------------------------------------------------------------------------------------------
WORLD_ORDER = ("base", "irrelevant", "redundant")


def fig1_table(records: pd.DataFrame) -> pd.DataFrame:
    """Per world: test error mean, sd, quartiles over the repetitions."""
    require_column(records, "world", "fig1")
    err = values_of(records, "test", "error")
    rows = []
    for world in [w for w in WORLD_ORDER if w in set(err["world"])]:
        v = err.loc[err["world"] == world, "value"]
        rows.append(
            {
                "world": world,
                "dataset": err.loc[err["world"] == world, "dataset"].iloc[0],
                "n": v.size,
                "mean": v.mean(),
                "sd": v.std(ddof=1),
                "q25": v.quantile(0.25),
                "median": v.median(),
                "q75": v.quantile(0.75),
                "min": v.min(),
                "max": v.max(),
            }
        )
    return pd.DataFrame(rows)


def _fig1_labels(n_noise: int) -> dict:
    return {"base": "NB", "irrelevant": f"NB +{n_noise}irr", "redundant": f"NB +{n_noise}red"}


def fig1(records, out_dir, report_cfg) -> list[Path]:
    """Figure 1: boxplots of NB's test error, with exact reference lines; REPRODUCTION.md."""
    table = fig1_table(records)
    err = values_of(records, "test", "error")
    n_noise = int(err["n_noise"].dropna().iloc[0])
    labels = _fig1_labels(n_noise)
    wide = err.pivot_table(index="repetition", columns="world", values="value")
    worlds = [w for w in WORLD_ORDER if w in wide.columns]
    refs = {
        "Bayes error (X1..X3) 467/1350": (toy_bayes_error(), "tab:green", "--"),
        f"NB, X1 counted {n_noise + 1}×, infinite data": (
            toy_nb_copies_error(n_noise),
            "tab:red",
            ":",
        ),
        "X1 alone 23/45": (toy_x1_error(), "tab:gray", "-."),
    }
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    ax.boxplot([wide[w].dropna() for w in worlds], tick_labels=[labels[w] for w in worlds])
    for name, (value, color, style) in refs.items():
        ax.axhline(value, color=color, ls=style, lw=1.2, label=f"{name} = {value:.4f}")
    ax.set_ylabel("test error")
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title(f"{PAPER} Fig. 1 (compared)\n{sizes(records)}", fontsize=9)
    table["exact_reference"] = table["world"].map(
        {
            "base": toy_bayes_error(),
            "irrelevant": toy_bayes_error(),
            "redundant": toy_nb_copies_error(n_noise),
        }  # fmt: skip
    )
    text = fig1_text(records, table, wide, n_noise, report_cfg)
    return write_figure(out_dir, "fig1", text, table, fig)


def fig1_text(records, table, wide, n_noise, report_cfg=None) -> str:
    labels = _fig1_labels(n_noise)
    shown = table.assign(world=table["world"].map(labels)).set_index("world")
    lines = [
        f"# {PAPER}, Figure 1 — compared",
        "",
        COMPARED,
        "",
        "**What the paper's figure shows.** Boxplots of the test error of naive Bayes over 100 "
        "experiments (N = 1000 training, N_te = 3000 test instances) on the eq. (12) world: "
        "X1..X3 only, + 50 irrelevant predictors, + 50 (fully) redundant predictors. Its one "
        'statement: "both kinds of noisy predictors, but especially the redundant ones, '
        'decrease accuracy".',
        "",
        f"**What ours shows.** {sizes(records)}; naive Bayes over the interpolated tables at "
        "α = 1 (Laplace pseudo-count 1; the paper's MLE is its limit). Irrelevant predictors: "
        'uniform on 3 states; redundant: exact copies of X1 (the paper: "redundant with regard '
        'to the first non-noisy predictor"). The three worlds share y and X1..X3 in each '
        "repetition (paired).",
        "",
        to_markdown(
            shown[["n", "mean", "sd", "q25", "median", "q75", "exact_reference"]],
            digits=4,
            index_title="model",
        ).rstrip(),
        "",
        "Exact references (enumeration of eq. (12), `repro.datasets.vidaurre2012`): Bayes error of "
        f"X1..X3 = 467/1350 = {toy_bayes_error():.4f} (NB's error on infinite data, with or "
        f"without irrelevant predictors); NB counting X1 {n_noise + 1} times on infinite data = "
        f"{toy_nb_copies_error(n_noise):.4f}; X1 alone = 23/45 = {toy_x1_error():.4f}.",
        "",
        "## Paired differences of NB's test error (ours)",
        "",
    ]
    for a, b in (("irrelevant", "base"), ("redundant", "base"), ("redundant", "irrelevant")):
        if {a, b} <= set(wide.columns):
            lines.append(f"- {a} − {b}: {format_test(paired_test(wide[a], wide[b]))}.")
    if "irrelevant" in set(table["world"]):
        irr = table.set_index("world").loc["irrelevant"]
        base = table.set_index("world").loc["base"] if "base" in set(table["world"]) else None
        lines += [
            "",
            "Finite-sample cost (the paper, §4: on infinite data irrelevant predictors do not "
            "increase NB's error; with finite N the small differences of the estimated tables "
            "accumulate): mean NB +irr error − Bayes error = "
            f"{irr['mean'] - toy_bayes_error():+.4f}"
            + (
                f", NB − Bayes error = {base['mean'] - toy_bayes_error():+.4f}."
                if base is not None
                else "."
            ),
        ]
    if "redundant" in set(table["world"]):
        red = table.set_index("world").loc["redundant"]
        lines.append(
            f"NB +red mean error − its infinite-data value {toy_nb_copies_error(n_noise):.4f} = "
            f"{red['mean'] - toy_nb_copies_error(n_noise):+.4f}, against "
            f"{toy_nb_copies_error(n_noise) - toy_bayes_error():+.4f} for the double counting "
            "itself on infinite data (its value − the Bayes error): with finite N the "
            f"estimation noise of X1's table is counted {n_noise + 1} times, and that costs "
            "more."
        )
    lines += ["", *claims_section("vidaurre2012_fig1", report_cfg)]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Figure 2
# ---------------------------------------------------------------------------------------------
FIG2_METRICS = ("error", "error_class0", "error_class1", "error_class2")
CLASS_STYLES = {0: ("--", "class 0 (X1's class)"), 1: ("-.", "class 1"), 2: (":", "class 2")}


def fig2_table(records: pd.DataFrame) -> pd.DataFrame:
    """Per (world, k, metric): repetition 0's value and the mean and sd over repetitions."""
    require_column(records, "n_predictors", "fig2")
    data = records[(records["split"] == "test") & records["metric"].isin(FIG2_METRICS)]
    keys = ["world", "n_predictors", "metric"]
    out = data.groupby(keys)["value"].agg(mean="mean", sd="std", repetitions="count")
    first = data[data["repetition"] == data["repetition"].min()].set_index(keys)["value"]
    return out.assign(repetition0=first).reset_index()


def fig2(records, out_dir, report_cfg) -> list[Path]:
    """Figure 2: test error (overall and per class) against the number of predictors."""
    table = fig2_table(records)
    worlds = [w for w in ("irrelevant", "redundant") if w in set(table["world"])]
    fig, axes = plt.subplots(2, len(worlds), figsize=(5.2 * len(worlds), 7.4), squeeze=False)
    reps = int(table["repetitions"].max())
    for c, world in enumerate(worlds):
        sub = table[table["world"] == world]
        for r, (col, what) in enumerate(
            (("repetition0", "one experiment (repetition 0)"), ("mean", f"mean of {reps}"))
        ):
            ax = axes[r, c]
            for metric in FIG2_METRICS:
                s = sub[sub["metric"] == metric].sort_values("n_predictors")
                if metric == "error":
                    ax.plot(s["n_predictors"], s[col], "k-", lw=2, label="all test instances")
                else:
                    j = int(metric[-1])
                    style, label = CLASS_STYLES[j]
                    ax.plot(s["n_predictors"], s[col], style, lw=1.3, label=label)
            ax.axvline(3, color="gray", lw=0.8)
            ax.set_xlabel("number of predictors in the model")
            ax.set_ylabel("test error")
            ax.set_ylim(0, 1)
            ax.set_title(f"{world} noise predictors — {what}", fontsize=9)
            ax.grid(alpha=0.3)
            if r == 0 and c == 0:
                ax.legend(fontsize=7)
    fig.suptitle(f"{PAPER} Fig. 2 (compared) — {sizes(records)}", fontsize=9)
    return write_figure(out_dir, "fig2", fig2_text(records, table, report_cfg), table, fig)


def _at(table, world, k, metric, col="mean") -> float:
    s = table[
        (table["world"] == world) & (table["n_predictors"] == k) & (table["metric"] == metric)
    ]
    return float(s[col].iloc[0]) if len(s) else np.nan


def fig2_text(records, table, report_cfg=None) -> str:
    k_max = int(table["n_predictors"].max())
    rows = []
    for world in sorted(set(table["world"])):
        for col in ("repetition0", "mean"):
            for k in (3, k_max):
                rows.append(
                    {
                        "world": world,
                        "values": "repetition 0" if col == "repetition0" else "mean",
                        "k": k,
                        **{m: _at(table, world, k, m, col) for m in FIG2_METRICS},
                    }
                )
    numbers = pd.DataFrame(rows)
    lines = [
        f"# {PAPER}, Figure 2 — compared",
        "",
        COMPARED,
        "",
        "**What the paper's figure shows.** For one experiment of Fig. 1's data, the test error "
        "of NB with the first k predictors (k on the x axis: X1, X2, X3, then up to 50 "
        "irrelevant, left, or redundant copies of X1, right), overall (solid) and for each class "
        "(the other lines). Its statements: the class best discriminated by X1 *decreases* its "
        "error as redundant predictors are added, but the other classes are no longer "
        "distinguishable; irrelevant predictors produce a more uniform and moderate increment "
        "of the error.",
        "",
        f"**What ours shows.** {sizes(records)}; the top row is repetition 0 (the paper's single "
        "experiment), the bottom row the mean over all repetitions. Class 0 is the class X1 "
        "discriminates (θ1 = 0.8 on its first state). Errors at k = 3 (X1..X3) and at "
        f"k = {k_max}:",
        "",
        to_markdown(numbers.set_index("world"), digits=4, index_title="world").rstrip(),
        "",
        "## Changes from k = 3 to k = " + str(k_max) + " (ours, mean over repetitions)",
        "",
    ]
    numbers = []
    if "redundant" in set(table["world"]):
        d = [
            _at(table, "redundant", k_max, f"error_class{j}")
            - _at(table, "redundant", 3, f"error_class{j}")
            for j in range(3)
        ]
        e12 = [_at(table, "redundant", k_max, f"error_class{j}") for j in (1, 2)]
        numbers.append(
            f"Redundant world, per-class error change: class 0 (X1's class) {d[0]:+.4f}, "
            f"class 1 {d[1]:+.4f}, class 2 {d[2]:+.4f}; at k = {k_max} the errors of classes 1 "
            f"and 2 are {e12[0]:.3f} and {e12[1]:.3f}"
        )
    if {"irrelevant", "redundant"} <= set(table["world"]):
        for w in ("irrelevant", "redundant"):
            inc = _at(table, w, k_max, "error") - _at(table, w, 3, "error")
            d = [
                _at(table, w, k_max, f"error_class{j}") - _at(table, w, 3, f"error_class{j}")
                for j in range(3)
            ]
            numbers.append(
                f"{w.capitalize()} world: overall error change {inc:+.4f}; per class "
                + ", ".join(f"{v:+.4f}" for v in d)
                + f" (range {max(d) - min(d):.4f})"
            )
    lines += [f"- {n}." for n in numbers]
    lines += ["", *claims_section("vidaurre2012_fig2", report_cfg)]
    return "\n".join(lines)
