"""hue2024 Figures 1–11 from the stored records (Hue & Boullé 2024, §4; never refits).

Called by ``python -m repro.report experiment=hue2024_<fig>`` (the ``figures:`` entry of
``conf/experiment/hue2024_*.yaml``). All five experiments read the shared cells of
``results/hue2024_cells/`` (``report.sources``) and pick their configurations by method and
parameters (:class:`Variant`, matched on the records' ``p_<param>`` columns); each writes into
its own ``results/hue2024_<fig>/``: the figures (PNG + PDF), ``<fig>.csv`` (the plotted
per-data-set values and ratios) and ``REPRODUCTION.md`` (the paper's statements of the figure
next to our numbers, from ``<paths.published>/hue2024/reported.csv``).

Quantities, per data set = the mean over the folds (cv10; cv5 above 10⁵ instances):

- ``criterion``: the method's own criterion on the training part (``wnb_opt``: CR(w) of eq. 11
  at its λ, p; ``fnb``: eq. 17), ``cr_eq11``: CR(w) of eq. 11 at λ = 0.25, p = 0.95 of any
  method's weights (the artefact of :func:`repro.experiments.hue2024.criterion_artefacts`; the
  paper's Fig. 9 criterion), ``n_informative``: MODL Level > 0 variables (Table 1's NvInf);
- ``n_selected``: variables with weight > 0; ``time``: the weighting time (everything after the
  MODL preparation: start + optimisation for ``wnb_opt``, the search for ``fnb``, MS(FFWBW) and
  averaging for ``snb_cma``); ``fit_time`` is in the CSV too;
- ``accuracy``, ``auc``, ``compression_rate`` on the test part, ``train_auc`` on the training part.

Ratios are per data set, of the per-data-set means (the paper's "ratios ... w.r.t." plots). A
ratio whose reference is 0 is undefined (NaN), except 0/0 = 1 (both models null). The paper's
"beanplots" are drawn as violins (density), one dot per data set (strip) and a black bar at the
mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from repro.evaluation.guarded import write_text
from repro.report.escape import write_csv
from repro.report.figure_common import save  # noqa: E402
from repro.report.tables import to_markdown  # noqa: E402
from repro.stats.tests import metric_table  # noqa: E402

#: the paper's names of wnb_opt's algorithms (§3.2)
ALGORITHMS = {
    "sg": "SG",
    "am": "AM",
    "sg_cf": "SG.CF",
    "sg_ue": "SG.UE",
    "ug_cf": "UG.CF",
    "ug_ue": "UG.UE",
    "cg_cf": "CG.CF",
    "cg_ue": "CG.UE",
}
#: the parameters of each method a variant is matched on, and their default values
BASE_PARAMS = {
    "wnb_opt": {
        "algorithm": "sg_cf",
        "lambda_": 0.25,
        "p": 0.95,
        "epsilon": 0.01,
        "init": "uniform",
        "normalise_init": False,
    },
    "fnb": {"lambda_": 0.25, "p": 0.95},
    "snb_cma": {},
}
#: (name in the CSV / tables, metric in the records, split)
QUANTITIES = {
    "criterion": ("criterion", "model"),
    "cr_eq11": ("cr_eq11", "model"),
    "n_informative": ("n_informative", "model"),
    "n_selected": ("n_selected", "model"),
    "time": ("weighting_time", "model"),
    "fit_time": ("fit_time", "model"),
    "opt_time": ("optimisation_time", "model"),
    "accuracy": ("accuracy", "test"),
    "auc": ("auc", "test"),
    "compression_rate": ("compression_rate", "test"),
    "train_auc": ("auc", "train"),
}
LABELS = {
    "criterion": "final criterion (train)",
    "cr_eq11": "CR(w), eq. 11 (λ = 0.25, p = 0.95)",
    "n_selected": "number of variables",
    "time": "time (s)",
    "fit_time": "fit time with the preparation (s)",
    "opt_time": "optimisation time without the start (s)",
    "n_informative": "informative variables",
    "accuracy": "test ACC",
    "auc": "test AUC",
    "compression_rate": "test compression",
    "train_auc": "train AUC",
}


@dataclass(frozen=True)
class Variant:
    """A configuration of the paper's figures: ``method`` with ``params`` (overrides of
    :data:`BASE_PARAMS`; every base parameter must match)."""

    label: str
    method: str
    params: dict = field(default_factory=dict)

    def mask(self, records: pd.DataFrame) -> pd.Series:
        keep = records["method"] == self.method
        for name, value in {**BASE_PARAMS.get(self.method, {}), **self.params}.items():
            column = f"p_{name}"
            if column not in records:
                return keep & False
            rows = keep[keep].index  # only the rows still kept: one call per row, not per record
            if rows.empty:
                break
            keep.loc[rows] = _matches(records.loc[rows, column], value)
        return keep


def _matches(values: pd.Series, want) -> np.ndarray:
    """:func:`_same` of every value: once per distinct value where the column has one type (an
    object column may mix ``True`` and ``1``, which hash alike: value by value there)."""
    if values.dtype == object:
        return np.fromiter((_same(v, want) for v in values), dtype=bool, count=len(values))
    codes, uniques = pd.factorize(values, use_na_sentinel=False)
    return np.array([_same(u, want) for u in uniques], dtype=bool)[codes]


def _same(value, want) -> bool:
    if isinstance(want, bool) or isinstance(value, bool | np.bool_):
        return isinstance(value, bool | np.bool_) and bool(value) == want
    if isinstance(want, float):
        try:
            return math.isclose(float(value), want, rel_tol=1e-9, abs_tol=1e-12)
        except (TypeError, ValueError):
            return False
    return value == want


def wnb(label: str, **params) -> Variant:
    return Variant(label, "wnb_opt", params)


SNB = Variant("SNB", "snb_cma")
FNB = Variant("FNB", "fnb")
FIG1_VARIANTS = [wnb(name, algorithm=a, lambda_=1.0) for a, name in ALGORITHMS.items()]
NORMALISED_UG = [
    wnb(f"{ALGORITHMS[a]} (norm. w0)", algorithm=a, lambda_=1.0, normalise_init=True)
    for a in ("ug_cf", "ug_ue")
]
LAMBDAS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0)
PS = (0.95, 0.85, 0.75, 0.65)
EPSILONS = (0.002, 0.01, 0.05)
INIT_VARIANTS = [
    wnb("SG.CF uniform", init="uniform"),
    wnb("SG.CF SNB init", init="snb"),
    wnb("SG.CF FNB init", init="fnb"),
]


# ---------------------------------------------------------------------------------------------
# Records → per-data-set tables
# ---------------------------------------------------------------------------------------------
def labelled(records: pd.DataFrame, variants: list[Variant]) -> pd.DataFrame:
    """The records (metric rows and the ``criterion`` artefacts, as ``model`` rows named by
    their ``quantity``) of the given variants, with their label as ``method``."""
    recs = records
    if "quantity" in records:
        art = records["metric"] == "artefact:criterion"
        recs = records.copy()
        recs.loc[art, "metric"] = recs.loc[art, "quantity"]
        recs.loc[art, "split"] = "model"
    parts = [recs[v.mask(recs)].assign(method=v.label) for v in variants]
    parts = [p for p in parts if len(p)]
    if not parts:
        return recs.iloc[:0]
    return pd.concat(parts, ignore_index=True)


def quantity_table(recs: pd.DataFrame, quantity: str, labels: list[str]) -> pd.DataFrame:
    """Data sets × labels of the per-data-set mean of ``quantity`` (NaN where missing)."""
    metric, split = QUANTITIES[quantity]
    sub = recs[(recs["metric"] == metric) & (recs["split"] == split)]
    if sub.empty:
        return pd.DataFrame(columns=labels, dtype=float)
    return metric_table(sub, metric, split).reindex(columns=labels)


def ratio_table(table: pd.DataFrame, reference: str) -> pd.DataFrame:
    """Each column divided by ``reference``, data set by data set; x/0 = NaN, 0/0 = 1."""
    ref = table[reference]
    out = table.div(ref.where(ref != 0), axis=0)
    both_zero = (table == 0).mul(ref == 0, axis=0)
    return out.mask(both_zero, 1.0)


def complete(tables: dict[str, pd.DataFrame]) -> list[str]:
    """The data sets on which every column of every table has a value."""
    sets = [set(t.dropna().index) for t in tables.values() if len(t)]
    return sorted(set.intersection(*sets)) if sets else []


def long_frame(tables: dict[str, pd.DataFrame], ratios: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """CSV layout: one row per (dataset, variant, quantity) with value and ratio."""
    rows = []
    for quantity, table in tables.items():
        ratio = ratios.get(quantity)
        for dataset, row in table.iterrows():
            for label, value in row.items():
                known = ratio is not None and label in ratio.columns
                r = ratio.loc[dataset, label] if known else np.nan
                rows.append(
                    {
                        "dataset": dataset,
                        "variant": label,
                        "quantity": quantity,
                        "value": value,
                        "ratio": r,
                    }
                )
    return pd.DataFrame(rows, columns=["dataset", "variant", "quantity", "value", "ratio"])


# ---------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------
def beanplot(ax, table: pd.DataFrame, title: str, log: bool = False, ref: float | None = None):
    """Violin (density) + one dot per data set + a black bar at the mean, per column."""
    data = table.melt(var_name="variant", value_name="value", ignore_index=False).dropna()
    if log:
        data = data[data["value"] > 0]
    order = [c for c in table.columns if c in set(data["variant"])]
    if data.empty or not order:
        ax.set_title(f"{title} (no data)")
        return
    kw = {"data": data, "x": "variant", "y": "value", "order": order, "ax": ax}
    sns.violinplot(**kw, inner=None, cut=0, color="#c9b3e6", linewidth=0.6, log_scale=log)
    sns.stripplot(**kw, color="#2e8b57", size=3, jitter=0.15)
    means = data.groupby("variant")["value"].mean().reindex(order)
    for i, mean in enumerate(means):
        ax.hlines(mean, i - 0.3, i + 0.3, color="black", linewidth=2)
    if ref is not None:
        ax.axhline(ref, color="grey", linestyle="--", linewidth=0.8)
    ax.set_title(title)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.tick_params(axis="x", rotation=30)


def panels(specs: list[tuple], out_dir, name: str, ncols: int = 2) -> list[Path]:
    """One figure of beanplots: specs = [(table, title, log, ref)]."""
    nrows = math.ceil(len(specs) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.5 * ncols, 4.2 * nrows), squeeze=False)
    for ax, (table, title, log, ref) in zip(axes.flat, specs):
        beanplot(ax, table, title, log=log, ref=ref)
    for ax in list(axes.flat)[len(specs) :]:
        ax.set_visible(False)
    return save(fig, out_dir, name)


# ---------------------------------------------------------------------------------------------
# Summaries for REPRODUCTION.md
# ---------------------------------------------------------------------------------------------
def ratio_summary(ratios: pd.DataFrame, skip: tuple[str, ...] = ()) -> pd.DataFrame:
    """Per column: data sets, mean, median, min, max of the ratios."""
    rows = []
    for label in ratios.columns:
        if label in skip:
            continue
        col = ratios[label].replace([np.inf, -np.inf], np.nan).dropna()
        rows.append(
            {
                "variant": label,
                "data sets": int(col.size),
                "mean": col.mean(),
                "median": col.median(),
                "min": col.min(),
                "max": col.max(),
            }
        )
    return pd.DataFrame(rows).set_index("variant")


def _md(frame: pd.DataFrame, digits: int = 3, index_title: str = "Method") -> str:
    return to_markdown(frame, digits=digits, index_title=index_title)


def reported_numbers(report_cfg) -> pd.DataFrame | None:
    """The paper's numbers (``<paths.published>/hue2024/reported.csv``), None when absent."""
    where = report_cfg.get("paths") if report_cfg else None
    if where is None:
        return None
    try:
        return pd.read_csv(where.reported("hue2024"))
    except FileNotFoundError:
        return None


def published_lines(reported: pd.DataFrame | None, figure: str) -> list[str]:
    """The paper's stated numbers of one figure (``table`` column), as Markdown bullets."""
    if reported is None:
        return []
    rows = reported[reported["table"] == figure]
    lines = []
    for row in rows.itertuples(index=False):
        note = f" — {row.note}" if isinstance(getattr(row, "note", None), str) else ""
        lines.append(f"- {row.method} / {row.metric}: {row.value:g}{note}")
    return lines


def write_markdown(out_dir, title: str, sections: list[tuple[str, str]]) -> Path:
    """``REPRODUCTION.md``: a title and (heading, body) sections."""
    text = [f"# {title}", ""]
    for heading, body in sections:
        text += [f"## {heading}", "", body.rstrip(), ""]
    path = Path(out_dir) / "REPRODUCTION.md"
    write_text(path, "\n".join(text))
    return path


def datasets_line(datasets: list[str], recs: pd.DataFrame) -> str:
    seen = sorted(set(recs["dataset"]))
    left = sorted(set(seen) - set(datasets))
    line = f"{len(datasets)} data sets with every configuration: {', '.join(datasets)}."
    if left:
        line += f" Left out (not every configuration ran): {', '.join(left)}."
    return line


def _collect(records, variants, quantities):
    recs = labelled(records, variants)
    labels = [v.label for v in variants]
    tables = {q: quantity_table(recs, q, labels) for q in quantities}
    tables = {q: t.dropna(axis=1, how="all") for q, t in tables.items()}
    datasets = complete({q: t for q, t in tables.items() if q in ("criterion", "auc")} or tables)
    tables = {q: t.loc[[d for d in datasets if d in t.index]] for q, t in tables.items()}
    return recs, tables, datasets


# ---------------------------------------------------------------------------------------------
# Figures 1–3
# ---------------------------------------------------------------------------------------------
def fig1to3(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 1 (criterion and variables of the eight optimisers), Fig. 2 (variables, log scale),
    Fig. 3 (ratios to SG.CF of criterion, variables and time, AM excluded as in the paper; the
    UG runs with the normalised start beside them), Table 1's NvInf next to ours."""
    variants = FIG1_VARIANTS + NORMALISED_UG
    recs, tables, datasets = _collect(records, variants, ["criterion", "n_selected", "time"])
    eight = [v.label for v in FIG1_VARIANTS if v.label in tables["criterion"].columns]
    ratios = {q: ratio_table(tables[q], "SG.CF") for q in ("criterion", "n_selected", "time")}
    out = Path(out_dir)
    written = panels(
        [
            (tables["criterion"][eight], "Fig. 1: final criterion CR(w), λ = 1", False, None),
            (tables["n_selected"][eight], "Fig. 1: final number of variables", False, None),
        ],
        out,
        "fig1",
        ncols=1,
    )
    written += panels(
        [(tables["n_selected"][eight], "Fig. 2: final number of variables (log)", True, None)],
        out,
        "fig2",
        ncols=1,
    )
    others = [c for c in ratios["criterion"].columns if c not in ("SG.CF", "AM")]
    written += panels(
        [
            (ratios["criterion"][others], "Fig. 3: criterion / SG.CF", False, 1.0),
            (ratios["n_selected"][others], "Fig. 3: number of variables / SG.CF", False, 1.0),
            (ratios["time"][others], "Fig. 3: time / SG.CF (log)", True, 1.0),
        ],
        out,
        "fig3",
        ncols=1,
    )
    csv = out / "fig1to3.csv"
    write_csv(long_frame(tables, ratios), csv, index=False)
    written.append(csv)
    nvinf = nvinf_comparison(informative_counts(records), reported_numbers(report_cfg))
    nv_csv = out / "table1_nvinf.csv"
    write_csv(nvinf, nv_csv)
    written.append(nv_csv)
    written.append(
        write_markdown(
            out,
            report_cfg.get("title", "hue2024 Figures 1–3"),
            fig1to3_sections(tables, ratios, datasets, recs, nvinf, report_cfg),
        )
    )
    return written


def null_folds(recs: pd.DataFrame, datasets: list[str], reference: str = "SG.CF") -> pd.Series:
    """Per variant: the folds (of ``datasets``) where it ends with no variable (the null model)
    and ``reference`` does not, as "dataset ×count" text ("" when none)."""
    rows = recs[
        (recs["metric"] == "n_selected")
        & (recs["split"] == "model")
        & recs["dataset"].isin(datasets)
    ]
    wide = rows.pivot_table(
        index=["dataset", "repetition", "fold"], columns="method", values="value"
    )
    out = {}
    for label in wide.columns:
        null = (wide[label] == 0) & (wide[reference] > 0) if reference in wide else wide[label] == 0
        counts = null[null].groupby(level="dataset").size()
        out[label] = ", ".join(f"{d} ×{n}" for d, n in counts.items())
    return pd.Series(out, dtype=object)


def fig1to3_sections(tables, ratios, datasets, recs, nvinf, report_cfg):
    eight = [v.label for v in FIG1_VARIANTS if v.label in tables["criterion"]]
    crit = tables["criterion"][eight]
    best = crit.eq(crit.min(axis=1), axis=0).sum().rename("data sets with the lowest criterion")
    rank = crit.rank(axis=1).mean().rename("mean rank of the criterion among the eight")
    summary = pd.concat(
        [
            rank,
            best,
            ratio_summary(ratios["criterion"])["mean"].rename("mean criterion / SG.CF"),
            ratio_summary(ratios["n_selected"])["mean"].rename("mean #variables / SG.CF"),
            ratio_summary(ratios["time"])["median"].rename("median time / SG.CF"),
            tables["n_selected"].mean().rename("mean #variables"),
        ],
        axis=1,
    )
    folds = null_folds(recs, datasets)
    lines = [
        f"- {label}: null model (no variable) where SG.CF has one, in the folds of {text}"
        for label, text in folds.items()
        if text
    ] or ["- no method ends with the null model in a fold where SG.CF does not"]
    sections = [
        ("Data", datasets_line(datasets, recs) + " cv10, cv5 above 10⁵ instances."),
        ("The optimisers (λ = 1, p = 0.95, w0 = 0.5)", _md(summary)),
        ("Criterion ratios to SG.CF", _md(ratio_summary(ratios["criterion"], ("SG.CF",)), 4)),
        ("Variable-number ratios to SG.CF", _md(ratio_summary(ratios["n_selected"], ("SG.CF",)))),
        ("Time ratios to SG.CF", _md(ratio_summary(ratios["time"], ("SG.CF",)))),
        ("Null models", "\n".join(lines)),
        (
            "Table 1: informative variables (NvInf) against ours",
            "Ours: MODL Level > 0 of the Khiops preparation of each training fold, mean over the "
            "folds (every data set of the stored cells); the paper's Table 1 gives the same "
            "quantity (also a mean over folds: 10.6, 0.3, ...). "
            + nvinf_summary(nvinf)
            + "\n\n"
            + _md(nvinf, 2, "dataset"),
        ),
    ]
    published = published_lines(reported_numbers(report_cfg), "Fig. 1-3 text")
    if published:
        sections.append(("The paper's numbers (§4.2)", "\n".join(published)))
    sections.append(
        ("The claims", "Checked one by one in experiments/hue2024/README.md (for or against).")
    )
    return sections


#: bundled sets whose target differs from the paper's (binarized substitutes): NvInf not comparable
SUBSTITUTES = ("abalone19", "yeast1")


def nvinf_summary(nvinf: pd.DataFrame) -> str:
    """How many comparable data sets (not :data:`SUBSTITUTES`) have our NvInf equal to the
    paper's (|difference| < 0.05), within 1 variable, and the largest difference."""
    if "difference" not in nvinf:
        return ""
    diff = nvinf["difference"].drop(list(SUBSTITUTES), errors="ignore").dropna()
    if diff.empty:
        return ""
    exact, close = int((diff.abs() < 0.05).sum()), int((diff.abs() <= 1.0).sum())
    worst = diff.abs().idxmax()
    return (
        f"On the {diff.size} comparable data sets (binarized substitutes {', '.join(SUBSTITUTES)} "
        f"left out): equal on {exact}, within one variable on {close}; largest difference "
        f"{diff[worst]:+.1f} ({worst})."
    )


def informative_counts(records: pd.DataFrame) -> pd.Series:
    """Per data set, the mean over folds of the informative variables (MODL Level > 0) of the
    training parts: the ``n_informative`` artefacts of any cell (the same for every method)."""
    if "quantity" not in records:
        return pd.Series(dtype=float, name="ours")
    rows = records[
        (records["metric"] == "artefact:criterion") & (records["quantity"] == "n_informative")
    ]
    per_fold = rows.groupby(["dataset", "repetition", "fold"])["value"].mean()
    return per_fold.groupby("dataset").mean().rename("ours")


def nvinf_comparison(ours: pd.Series, reported: pd.DataFrame | None) -> pd.DataFrame:
    """Per bundled data set of Table 1: ours (mean over folds), the paper's Nv and NvInf."""
    out = pd.DataFrame({"ours": ours})
    if reported is not None:
        table1 = reported[reported["table"] == "Table 1"]
        wide = table1.pivot_table(index="dataset", columns="metric", values="value")
        for metric, name in (("n_variables", "Nv (paper)"), ("n_informative", "NvInf (paper)")):
            if metric in wide:
                out[name] = wide[metric].reindex(out.index)
        if "NvInf (paper)" in out:
            out["difference"] = out["ours"] - out["NvInf (paper)"]
    return out


# ---------------------------------------------------------------------------------------------
# Figures 4–6: sweeps of SG.CF against SNB
# ---------------------------------------------------------------------------------------------
SWEEP_QUANTITIES = ["train_auc", "auc", "n_selected", "compression_rate", "time", "accuracy"]


def _sweep(records, out_dir, report_cfg, name, parameter, values, symbol, panels_spec, fixed):
    variants = [SNB] + [wnb(f"{symbol} = {v:g}", **{parameter: v}, **fixed) for v in values]
    recs, tables, datasets = _collect(records, variants, [*SWEEP_QUANTITIES, "fit_time"])
    ratios = {q: ratio_table(t, "SNB") for q, t in tables.items() if "SNB" in t}
    sweep_cols = [v.label for v in variants[1:] if v.label in tables["auc"].columns]
    out = Path(out_dir)
    written = panels(
        [
            (
                ratios[q][sweep_cols],
                f"{LABELS[q]} / SNB" + (" (log)" if log else ""),
                log,
                1.0,
            )
            for q, log in panels_spec
        ],
        out,
        name,
    )
    csv = out / f"{name}.csv"
    write_csv(long_frame(tables, ratios), csv, index=False)
    written.append(csv)
    sections = [("Data", datasets_line(datasets, recs) + " cv10, cv5 above 10⁵ instances.")]
    for q in SWEEP_QUANTITIES:
        if q in ratios:
            sections.append((f"{LABELS[q]}: ratio to SNB", _md(ratio_summary(ratios[q], ("SNB",)))))
    means = pd.DataFrame({LABELS[q]: tables[q].mean() for q in SWEEP_QUANTITIES if q in tables})
    sections.append(("Means over the data sets (not ratios)", _md(means, 4)))
    published = published_lines(reported_numbers(report_cfg), f"Fig. {name[3:]} text")
    if published:
        sections.append(("The paper's numbers", "\n".join(published)))
    sections.append(
        ("The claims", "Checked one by one in experiments/hue2024/README.md (for or against).")
    )
    written.append(write_markdown(out, report_cfg.get("title", name), sections))
    return written


def fig4(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 4: train and test AUC of SG.CF / SNB per λ (p = 0.95); variables, compression, time."""
    spec = [("train_auc", False), ("auc", False), ("n_selected", True)]
    spec += [("compression_rate", False), ("time", True)]
    return _sweep(records, out_dir, report_cfg, "fig4", "lambda_", LAMBDAS, "λ", spec, {})


def fig5(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 5: variables, test AUC and compression of SG.CF / SNB per p (λ = 0.25)."""
    spec = [("n_selected", True), ("auc", False), ("compression_rate", False), ("time", True)]
    return _sweep(records, out_dir, report_cfg, "fig5", "p", PS, "p", spec, {})


def fig6(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 6: test AUC and time of SG.CF / SNB per ε (λ = 0.25, p = 0.95)."""
    spec = [("auc", False), ("time", True), ("n_selected", True), ("compression_rate", False)]
    return _sweep(records, out_dir, report_cfg, "fig6", "epsilon", EPSILONS, "ε", spec, {})


# ---------------------------------------------------------------------------------------------
# Figures 7–11: initialisations, FNB alone, FNB vs SNB
# ---------------------------------------------------------------------------------------------
FINAL_QUANTITIES = ["criterion", "cr_eq11", "n_selected", "time", "opt_time", "fit_time"]
FINAL_QUANTITIES += ["accuracy", "auc", "compression_rate", "n_informative"]


def fig7to11(records, out_dir, report_cfg) -> list[Path]:
    """Fig. 7–8 (SG.CF from SNB / FNB starts, ratios to the uniform start), Fig. 9–10 (FNB,
    SG.CF FNB init, SG.CF uniform: ratios to SNB), Fig. 11 (FNB vs SNB: test AUC, variables)."""
    variants = [SNB, FNB, *INIT_VARIANTS]
    recs, tables, datasets = _collect(records, variants, FINAL_QUANTITIES)
    out = Path(out_dir)
    init = [v.label for v in INIT_VARIANTS]
    to_uniform = {
        q: ratio_table(t.reindex(columns=init), "SG.CF uniform") for q, t in tables.items()
    }
    final = ["SNB", "FNB", "SG.CF FNB init", "SG.CF uniform"]
    to_snb = {q: ratio_table(t.reindex(columns=final), "SNB") for q, t in tables.items()}
    inits = init[1:]
    written = panels(
        [
            (to_uniform["criterion"][inits], "Fig. 7: train criterion / uniform", False, 1.0),
            (to_uniform["n_selected"][inits], "Fig. 7: number of variables / uniform", False, 1.0),
            (to_uniform["time"][inits], "Fig. 7: time with the start / uniform (log)", True, 1.0),
            (
                to_uniform["opt_time"][inits],
                "Fig. 7: time without the start / uniform (log)",
                True,
                1.0,
            ),
        ],
        out,
        "fig7",
        ncols=1,
    )
    written += panels(
        [
            (to_uniform["accuracy"][inits], "Fig. 8: test ACC / uniform", False, 1.0),
            (to_uniform["auc"][inits], "Fig. 8: test AUC / uniform", False, 1.0),
        ],
        out,
        "fig8",
        ncols=1,
    )
    three = final[1:]
    written += panels(
        [
            (to_snb["cr_eq11"][three], "Fig. 9: CR(w) eq. 11 / SNB", False, 1.0),
            (to_snb["n_selected"][three], "Fig. 9: number of variables / SNB (log)", True, 1.0),
            (to_snb["time"][three], "Fig. 9: time / SNB (log)", True, 1.0),
        ],
        out,
        "fig9",
        ncols=1,
    )
    written += panels(
        [
            (to_snb["auc"][three], "Fig. 10: test AUC / SNB", False, 1.0),
            (to_snb["accuracy"][three], "Fig. 10: test ACC / SNB", False, 1.0),
            (to_snb["compression_rate"][three], "Fig. 10: test compression / SNB", False, 1.0),
        ],
        out,
        "fig10",
        ncols=1,
    )
    written += fig11_scatter(tables, out)
    csv = out / "fig7to11.csv"
    frame = pd.concat(
        [
            long_frame({q: t.reindex(columns=init) for q, t in tables.items()}, to_uniform).assign(
                reference="SG.CF uniform"
            ),
            long_frame({q: t.reindex(columns=final) for q, t in tables.items()}, to_snb).assign(
                reference="SNB"
            ),
        ],
        ignore_index=True,
    )
    write_csv(frame, csv, index=False)
    written.append(csv)
    sections = [("Data", datasets_line(datasets, recs) + " cv10, cv5 above 10⁵ instances.")]
    for q in ("criterion", "n_selected", "time", "opt_time", "accuracy", "auc"):
        sections.append(
            (
                f"Fig. 7–8: {LABELS[q]}, ratio to the uniform start",
                _md(ratio_summary(to_uniform[q], ("SG.CF uniform",)), 4),
            )
        )
    for q in ("cr_eq11", "n_selected", "time", "auc", "accuracy", "compression_rate"):
        sections.append(
            (f"Fig. 9–10: {LABELS[q]}, ratio to SNB", _md(ratio_summary(to_snb[q], ("SNB",)), 4))
        )
    means = pd.DataFrame({LABELS.get(q, q): tables[q].mean() for q in FINAL_QUANTITIES})
    sections.append(("Means over the data sets (not ratios)", _md(means, 4)))
    published = published_lines(reported_numbers(report_cfg), "Fig. 7-11 text")
    if published:
        sections.append(("The paper's numbers", "\n".join(published)))
    sections.append(
        ("The claims", "Checked one by one in experiments/hue2024/README.md (for or against).")
    )
    written.append(write_markdown(out, report_cfg.get("title", "hue2024 Figures 7–11"), sections))
    return written


def fig11_scatter(tables: dict[str, pd.DataFrame], out: Path) -> list[Path]:
    """Fig. 11: FNB against SNB, test AUC and number of variables, one dot per data set."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 5))
    for ax, q, log in ((axes[0], "auc", False), (axes[1], "n_selected", True)):
        t = tables[q][["SNB", "FNB"]].dropna()
        ax.scatter(t["SNB"], t["FNB"], s=18, color="#2e8b57")
        for dataset, row in t.iterrows():
            ax.annotate(dataset, (row["SNB"], row["FNB"]), fontsize=6, alpha=0.7)
        if len(t):
            lo, hi = float(t.min().min()), float(t.max().max())
            ax.plot([lo, hi], [lo, hi], color="grey", linestyle="--", linewidth=0.8)
        if log:
            ax.set_xscale("symlog", linthresh=1)
            ax.set_yscale("symlog", linthresh=1)
        ax.set_xlabel(f"SNB {LABELS[q]}")
        ax.set_ylabel(f"FNB {LABELS[q]}")
        ax.set_title(f"Fig. 11: {LABELS[q]}")
    return save(fig, out, "fig11")
