"""vidaurre2012 Tables 1, 2 and 4 from the stored records (Vidaurre, Bielza, Larrañaga 2012, §7).

- Table 1: per §7.1 scenario (DI, CI, DR, CR; protocol ``synthetic``, 100 repetitions) and method,
  mean ± sd over the repetitions of the test error, of the number of selected variables and of
  the number of selected *fully noisy* variables (group V3, columns ``noise*``; counted from the
  ``selected`` artefacts of :func:`repro.experiments.vidaurre2012.selected_variables`).
- Table 2: the same on ``diabetes_q1..q3`` (cv10): mean ± sd over the 10 folds.
- Table 4: Bergmann–Hommel adjusted p-values of every pair of methods over every data set of
  Tables 1–2 (mean test error per data set), uncapped as the paper prints them. The
  paper's Table 3 (StarPlus fMRI) is not obtainable here.

Each writes ``<table>.md`` (ours with the published value in brackets) and ``REPRODUCTION.md``
(every published number next to ours, :func:`repro.report.reproduction.write_reproduction`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from repro import config
from repro.evaluation.guarded import write_text
from repro.report.escape import markdown_names, write_csv
from repro.report.reproduction import judge, write_reproduction
from repro.report.tables import to_markdown
from repro.stats.posthoc import posthoc
from repro.stats.tests import friedman

#: the paper's six methods, its column order and names (Table 4 compares these only)
PAPER_METHODS = {
    "nb_ml": "NB",
    "snb_ml": "SNB",
    "wnb": "WNB",
    "al1l2_nb": "aL1/L2-NB",
    "fsnb": "fsNB",
    "cfs_nb": "CFS+NB",
}
#: variant rows shown after the paper's methods in Tables 1–2 (not the paper's definitions)
VARIANTS = {
    "l1l2_nb": "L1/L2-NB (non-adaptive; in the paper's text only)",
    "fsnb_p1": "fsNB, patience 1 (variant)",
    "fsnb_index": "fsNB, index ties (variant)",
    "nb": "MODL NB (variant, not the paper's)",
    "snb_acc": "SNB(ACC) over MODL (variant, not the paper's)",
}
METHODS = PAPER_METHODS | VARIANTS
SCENARIOS = ["DI", "CI", "DR", "CR"]
DIABETES = ["diabetes_q1", "diabetes_q2", "diabetes_q3"]
NOISE_PREFIX = "noise"
#: methods that do not select (the paper leaves their counts out)
NO_SELECTION = ("nb_ml", "nb", "wnb")


def per_run(records: pd.DataFrame) -> pd.DataFrame:
    """One row per (method, dataset, repetition, fold): test error, n_selected, n_noisy."""
    keys = ["method", "dataset", "repetition", "fold"]
    test = records[(records["split"] == "test") & (records["metric"] == "error")]
    out = test.groupby(keys)["value"].mean().rename("error").to_frame()
    model = records[(records["split"] == "model") & (records["metric"] == "n_selected")]
    out = out.join(model.groupby(keys)["value"].mean().rename("n_selected"))
    art = records[records["metric"] == "artefact:selected"]
    if len(art):
        noisy = art[art["variable"].astype(str).str.startswith(NOISE_PREFIX)]
        counts = noisy.groupby(keys)["selected"].sum().rename("n_noisy_selected")
        out = out.join(counts)
    else:
        out["n_noisy_selected"] = np.nan
    return out.reset_index()


def summary(records: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd (ddof 1) of each per-run quantity per (method, dataset)."""
    runs = per_run(records)
    cols = ["error", "n_selected", "n_noisy_selected"]
    grouped = runs.groupby(["method", "dataset"])[cols]
    mean, sd = grouped.mean(), grouped.std(ddof=1)
    out = mean.join(sd.add_suffix("_sd"))
    out["runs"] = grouped.size()
    return out.reset_index()


def comparison(summ: pd.DataFrame, reported: pd.DataFrame, table: str) -> pd.DataFrame:
    """The published numbers of ``table`` next to ours (the REPRODUCTION.md frame)."""
    pub = reported[reported["table"] == table]
    ours = summ.set_index(["method", "dataset"])
    rows = []
    for r in pub.itertuples(index=False):
        key = (r.method, r.dataset)
        value = ours.at[key, r.metric] if key in ours.index and r.metric in ours else np.nan
        note = "" if pd.notna(value) else "not reproduced (method or data set missing)"
        rows.append(
            {
                "table": table,
                "method": r.method,
                "dataset": r.dataset,
                "metric": r.metric,
                "published": float(r.value),
                "reproduced": float(value),
                "difference": float(value) - float(r.value),
                "note": note,
            }
        )
    return pd.DataFrame(rows)


def layout(summ: pd.DataFrame, reported: pd.DataFrame, table: str, datasets) -> pd.DataFrame:
    """The paper's layout: rows = quantity × data set, columns = methods; cells
    "ours ± sd (published ± sd)"."""
    pub = reported[reported["table"] == table].set_index(["method", "dataset", "metric"])["value"]
    ours = summ.set_index(["method", "dataset"])
    methods = [
        m for m in METHODS if m in set(summ["method"]) or m in set(pub.index.get_level_values(0))
    ]
    rows = {}
    for metric in ("error", "n_selected", "n_noisy_selected"):
        digits = 3 if metric == "error" else 1
        for d in datasets:
            row = {}
            for m in methods:
                if metric != "error" and m in NO_SELECTION:
                    row[METHODS[m]] = "–"
                    continue
                cell = "—"
                if (m, d) in ours.index and pd.notna(ours.at[(m, d), metric]):
                    mean, sd = ours.at[(m, d), metric], ours.at[(m, d), metric + "_sd"]
                    cell = f"{mean:.{digits}f} ± {sd:.{digits}f}"
                if (m, d, metric) in pub.index:
                    p, psd = pub[(m, d, metric)], pub.get((m, d, metric + "_sd"), np.nan)
                    cell += f" ({p:.{digits}f} ± {psd:.{digits}f})"
                row[METHODS[m]] = cell
            if any(v not in ("—", "–") for v in row.values()):
                rows[f"{metric}: {d}"] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def judged_table(records, reported: pd.DataFrame, report_cfg, table: str) -> pd.DataFrame:
    """Every published number of ``table`` (errors, selected and noisy counts) against our runs,
    judged (:func:`repro.report.reproduction.judge` on the per-run values of :func:`per_run`).
    The dashboard counts the same frame (``report.comparison`` of the Table 1 and 2 configs)."""
    quantities = ["error", "n_selected", "n_noisy_selected"]
    runs = per_run(records).melt(
        id_vars=["method", "dataset"], value_vars=quantities, var_name="metric"
    )
    return judge(
        comparison(summary(records), reported, table),
        reported[reported["table"] == table],
        records,
        published_runs=report_cfg.get("published_runs"),
        standins=report_cfg.get("substitutes") or (),
        per_run=runs,
    )


def _write_table(records, out_dir, report_cfg, table: str, name: str, datasets) -> list[Path]:
    where = report_cfg.get("paths") or config.paths()
    reported = pd.read_csv(where.reported("vidaurre2012"))
    summ = summary(records)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    md = out_dir / f"{name}.md"
    caption = report_cfg.get("caption", table)
    write_text(
        md,
        f"# {caption}\n\nOurs: mean ± sd over the runs (published in brackets).\n\n"
        + to_markdown(layout(summ, reported, table, datasets), index_title="quantity: data set"),
    )
    csv = out_dir / f"{name}_summary.csv"
    write_csv(summ, csv, index=False)
    judged = judged_table(records, reported, report_cfg, table)
    rep = write_reproduction(
        judged,
        out_dir / "REPRODUCTION.md",
        report_cfg.get("title", table),
        missing_datasets=report_cfg.get("not_offline", []),
        substitutions=report_cfg.get("substitutions"),
        notes=list(report_cfg.get("notes", [])),
    )
    return [md, csv, rep]


def table1(records, out_dir, report_cfg) -> list[Path]:
    """``table1.md``, ``table1_summary.csv`` and ``REPRODUCTION.md`` (all of Table 1)."""
    return _write_table(records, out_dir, report_cfg, "Table 1", "table1", SCENARIOS)


def table2(records, out_dir, report_cfg) -> list[Path]:
    """``table2.md``, ``table2_summary.csv`` and ``REPRODUCTION.md`` (all of Table 2)."""
    return _write_table(records, out_dir, report_cfg, "Table 2", "table2", DIABETES)


def error_table(records: pd.DataFrame) -> pd.DataFrame:
    """Mean test error per data set (rows) and method (columns: the paper's six methods, its
    order; the variant rows are left out of Table 4's multiple comparison)."""
    test = records[(records["split"] == "test") & (records["metric"] == "error")]
    wide = test.groupby(["dataset", "method"])["value"].mean().unstack("method")
    return wide[[m for m in PAPER_METHODS if m in wide.columns]].dropna()


def table4(records, out_dir, report_cfg) -> list[Path]:
    """Bergmann–Hommel adjusted p-values (uncapped) of every pair of methods over the data sets
    of ``records`` (the experiments of the report's ``sources``: mean test error, lower is
    better); ``table4.md``, ``table4_pairs.csv`` and ``REPRODUCTION.md``."""
    where = report_cfg.get("paths") or config.paths()
    errors = error_table(records)
    adj = posthoc(errors, correction="bergmann", higher_is_better=False, cap=False)
    stat = friedman(errors, higher_is_better=False)
    reported = pd.read_csv(where.reported("vidaurre2012"))
    pub = reported[reported["table"] == "Table 4"]
    rows = []
    for r in pub.itertuples(index=False):
        a, b = r.method.split(" vs ")
        value = float(adj.at[a, b]) if a in adj.index and b in adj.columns else np.nan
        rows.append(
            {
                "table": "Table 4",
                "method": r.method,
                "dataset": r.dataset,
                "metric": r.metric,
                "published": float(r.value),
                "reproduced": value,
                "difference": value - float(r.value),
                "note": "" if np.isfinite(value) else "method missing",
            }
        )
    comp = pd.DataFrame(rows)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    pairs = out_dir / "table4_pairs.csv"
    write_csv(comp, pairs, index=False)
    md = out_dir / "table4.md"
    shown = (
        comp.set_index("method")[["published", "reproduced"]]
        .rename(columns={"published": "published p", "reproduced": "our p"})
        .map(lambda p: f"{p:.3g}")
    )
    write_text(
        md,
        f"# {report_cfg.get('caption', 'Table 4')}\n\n"
        f"{len(errors)} data sets: {markdown_names(errors.index)}; Friedman χ² = "
        f"{stat['chi2']:.3f}, p = {stat['chi2_pvalue']:.3g}.\n\n"
        + to_markdown(shown, index_title="pair"),
    )
    rep = write_reproduction(
        comp,
        out_dir / "REPRODUCTION.md",
        report_cfg.get("title", "Table 4"),
        missing_datasets=report_cfg.get("not_offline", []),
        notes=list(report_cfg.get("notes", [])),
    )
    return [md, pairs, rep]
