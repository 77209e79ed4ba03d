"""What the reports of vidaurre2012's Figures 1–6 share (:mod:`.vidaurre2012_noise`,
:mod:`.vidaurre2012_grid`, :mod:`.vidaurre2012_fsnb`): the selection of their records, the
paired test behind every verdict, the line on the sizes of a run and the writing of a figure's
files.

The paper prints no number for any of these figures, so every check *compares* the paper's
stated observation with our numbers; nothing is "reproduced" to a published value. The "Claims
checked" section of each figure is :func:`claims_section`: the paper's sentences quoted verbatim
from ``experiments/vidaurre2012/claims.yaml``, each decided by its rule
(:mod:`repro.report.papers.vidaurre2012.claims`, through :mod:`repro.report.claims.engine`) on
the stored records; the figure modules only add the numbers behind them (paired differences, no
verdict).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from repro import config
from repro.evaluation.guarded import write_text
from repro.report.claims.engine import Evidence, Verdict, decide, read_claims
from repro.report.escape import write_csv
from repro.report.figure_common import save

PAPER = "Vidaurre, Bielza, Larrañaga (2012)"
COMPARED = (
    "The paper prints no numbers for this figure (only curves or boxes without values), so "
    "nothing here is *reproduced* to a published number: the paper's observations are "
    "*compared* with ours, one by one."
)


def values_of(records: pd.DataFrame, split: str, metric: str) -> pd.DataFrame:
    """The records of one split and metric."""
    return records[(records["split"] == split) & (records["metric"] == metric)]


def artefacts_of(records: pd.DataFrame, kind: str) -> pd.DataFrame:
    """The artefact rows of one kind (``trace``, ``state``, …); none when there are none."""
    if "artefact" not in records.columns:
        return records.iloc[:0]
    return records[(records["split"] == "artefact") & (records["artefact"] == kind)]


def require_column(records: pd.DataFrame, column: str, figure: str) -> None:
    """A ``ValueError`` that says which study to run when ``column`` is not in the records."""
    if column not in records.columns:
        raise ValueError(
            f"no vidaurre2012 {figure} records (column {column!r} missing): run "
            f"`python -m repro experiment=vidaurre2012_{figure}` first"
        )


def paired_test(worse: np.ndarray, better: np.ndarray) -> dict:
    """Paired comparison of two error samples: mean difference (worse − better), its standard
    error, the repetitions where ``worse`` is higher / lower, and the one-sided paired t-test
    p-value of H1: mean(worse − better) > 0 (1 when every difference is 0)."""
    d = np.asarray(worse, float) - np.asarray(better, float)
    n = d.size
    se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else np.nan
    if n > 1 and d.std(ddof=1) > 0:
        p = float(stats.ttest_1samp(d, 0.0, alternative="greater").pvalue)
    else:
        p = 1.0 if d.mean() <= 0 else 0.0
    return {
        "mean_diff": float(d.mean()),
        "se": se,
        "higher": int((d > 0).sum()),
        "lower": int((d < 0).sum()),
        "n": n,
        "p": p,
    }


def verdict(test: dict, alpha: float = 0.05) -> str:
    """ "for" (significantly higher), "against" (significantly lower) or "not shown"."""
    if test["p"] < alpha:
        return "for"
    flipped = 1.0 - test["p"] if test["n"] > 1 and test["se"] > 0 else 1.0
    return "against" if flipped < alpha and test["mean_diff"] < 0 else "not shown"


def format_test(t: dict) -> str:
    """A :func:`paired_test` in words."""
    return (
        f"mean paired difference {t['mean_diff']:+.4f} (s.e. {t['se']:.4f}), higher in "
        f"{t['higher']}/{t['n']} repetitions, lower in {t['lower']}, one-sided paired t p = "
        f"{t['p']:.2g}"
    )


def write_figure(out_dir, name: str, text: str, table: pd.DataFrame, fig) -> list[Path]:
    """``name``.png and .pdf of ``fig``, ``name``.csv of ``table`` and REPRODUCTION.md."""
    out_dir = Path(out_dir)
    paths = save(fig, out_dir, name)
    csv = out_dir / f"{name}.csv"
    write_csv(table, csv, index=False)
    md = out_dir / "REPRODUCTION.md"
    write_text(md, text.rstrip() + "\n")
    return [*paths, csv, md]


def sizes(records: pd.DataFrame) -> str:
    """The repetitions, training and test sizes and seed of a run, in words."""
    data = records[records["split"] != "artefact"]
    reps = data["repetition"].nunique()
    return (
        f"{reps} repetition(s), N = {int(data['n_train'].iloc[0])} training and "
        f"N_te = {int(data['n_test'].iloc[0])} test instances each "
        f"(seed {int(data['seed'].iloc[0])})"
    )


def claims_section(experiment: str, report_cfg=None) -> list[str]:
    """ "## Claims checked": the claims of ``experiments/vidaurre2012/claims.yaml`` that the
    records of ``experiment`` decide, quoted verbatim, each with its rule's verdict and evidence
    (read from the stored records under ``paths.results``). A rule that cannot decide on these
    records (too few repetitions for its split) says so instead of failing the report."""
    where = (report_cfg or {}).get("paths") or config.paths()
    claims = read_claims(Path(where.published) / "vidaurre2012" / "claims.yaml")
    evidence = Evidence(where.results)
    lines = [
        "## Claims checked",
        "",
        "The paper's sentences on this figure, quoted verbatim from "
        "`experiments/vidaurre2012/claims.yaml`, each decided by its rule "
        "(`repro.report.papers.vidaurre2012.claims`) on the stored records:",
        "",
    ]
    mine = [c for c in claims if c.experiment == experiment]
    for k, claim in enumerate(mine, 1):
        try:
            v = decide(claim, evidence)
        except (ValueError, KeyError, IndexError) as exc:
            v = Verdict("not testable", f"not decidable on these records ({exc})")
        lines.append(f"{k}. {claim.section}: “{claim.quote}” — **{v.verdict}** ({claim.rule}): ")
        lines[-1] += v.evidence + "."
        if claim.note:
            lines.append(f"   Reading: {claim.note}")
    if not mine:
        lines.append("(none)")
    return lines
