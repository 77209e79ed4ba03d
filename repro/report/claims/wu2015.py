"""Wu, Sanner & Oliveira (2015), Bayesian Model Averaging Naive Bayes (BMA-NB): the claims of
its "Experimental Results" and "Conclusion", decided from the records of ``wu2015_table2`` (NB
and BMA with Weka's NormalEstimator, the default), ``wu2015_table2_density`` (the labelled variant
with the normal density, reported beside the default verdict), ``wu2015_fig2``
(the dna EI-vs-IE stand-in for 20 Newsgroups) and ``wu2015_fig3`` (BMA-NB at fixed Γ).

Data sets. The Table 2 and Fig. 3 rules drop :data:`STAND_INS` (``lymph_binary``, a binarised
substitute for the paper's 4-class lymph): they decide on the paper's data sets that run offline
(14 of its 19). In ``wu2015_fig2`` every point of a panel (one K or one N) is a "data set" of
the shared rules, its random runs the folds.

Comparisons of accuracy use the shared rules of :mod:`repro.report.claims.evidence` (``better``,
``not_worse``, ``best``; per-data-set wins/losses = paired t over the outer splits, α = 0.05).
Rules this module adds:

- **Every data set** ("A *never* underperforms B", "A is *always* faster than B"): holds when A
  has no significant loss (resp. a significant win) on every data set; partly when it has a
  loss (resp. a data set without a win) but the shared over-data-sets rule still finds A not
  worse (resp. better: ``evidence.not_worse_verdict`` / ``better_verdict`` holds or partly);
  does not hold otherwise. The claim is decided on the default (Weka) rows; a ``variant``
  experiment (the density Gaussian) is decided by the same rule and shown in the evidence.
- **Conjunction** ("A, B and C each beat D"): ``evidence.conjunction`` of its parts.
- **Counts of wins** ("BMA twice outperforms LR"): our significant wins against the published
  count, :func:`repro.stats.agreement.win_count` (Fisher, α = 0.05): holds when it agrees.
  "A outperforms C even more often [than B]": holds when A's significant wins over C outnumber
  those over B, does not hold otherwise.
- **Times.** A fit's time is the final fit's: ``refit_time`` where the method is tuned (what the
  paper's Table 2 (right) reports: its BMA times are 1–6 × NB's, impossible if they included the
  55 inner fits of the Γ grid), else ``fit_time``; per data set the mean over the outer splits.
  "A is faster than B" claims are accuracy claims on this time (lower is better): the shared
  paired t / Wilcoxon rules. Ratios r_d = mean time of the slower-claimed method / mean time
  of the other, per data set:
  "A is up to X times slower than B" holds when max_d r_d ≤ X, partly when the median ≤ X <
  the max, does not hold when the median > X;
  "A is up to X times faster than B (on D)" holds when the largest r_d (r_D when D is named)
  ≥ X, partly when it is > 1 but < X (faster, not by X), does not hold when ≤ 1;
  "a fairly constant X times slow-down, no matter the data set or feature set size" holds when
  the "up to X times slower" rule holds and r_d is correlated (Spearman, two-sided α = 0.05)
  with neither the training size nor the number of features, partly when one of the two
  conditions fails, does not hold when both do.
- **Figure 3's panels.** A data set is in the left panel ("a peak at Γ > 1") when the best
  Γ > 1 (mean accuracy) is significantly more accurate than the best Γ ≤ 1 (paired t over the
  outer splits, α = 0.05), else in the right one. "The right panel's sets have few features and
  much data" holds when every right-panel K/|D| (features over instances) is below every
  left-panel one, partly when the right panel's median K/|D| is the lower one, does not hold
  otherwise. "A matches B on a panel" holds when A has no significant win or loss on any of
  its data sets, partly when the significant differences are on fewer than half of them, does
  not hold otherwise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from repro.report.claims import evidence
from repro.report.claims.engine import Evidence, Verdict
from repro.stats import agreement
from repro.stats.tests import paired_t_wins_losses

#: labelled substitutes that stand in for a paper's data set (dropped by the Table 2/Fig. 3 rules)
STAND_INS = ("lymph_binary",)
NAMES = {"bma_nb_tuned": "BMA", "nb_laplace": "NB", "lr_tuned": "LR", "svm_tuned": "SVM"}
ORDER = ("holds", "partly", "does not hold")
TIME = "final_fit_time"


# --- records ---------------------------------------------------------------------------------
def paper_records(ev: Evidence, experiment: str, panel=None, min_size=None) -> pd.DataFrame:
    """The records of ``experiment`` without :data:`STAND_INS`; for ``wu2015_fig2`` the points
    of ``panel`` (K, or N, at least ``min_size``), each point a data set."""
    records = ev.records(experiment)
    records = records[~records["dataset"].isin(STAND_INS)]
    if panel is None:
        return records
    size = "K" if panel == "features" else "N"
    keep = records["panel"] == panel
    if min_size is not None:
        keep &= records[size] >= min_size
    return records[keep].assign(dataset=records.loc[keep, size].map(lambda v: f"{size}={v}"))


def final_fit_times(records: pd.DataFrame) -> pd.DataFrame:
    """Tidy records of the final fit's time (``refit_time`` where stored, else ``fit_time``) as
    a ``test`` metric :data:`TIME`, so that the shared rules compare it (lower is better)."""
    keys = ["method", "dataset", "repetition", "fold"]
    model = records[records["split"] == "model"]
    fit = model[model["metric"] == "fit_time"].set_index(keys)["value"]
    refit = model[model["metric"] == "refit_time"].set_index(keys)["value"]
    value = refit.reindex(fit.index).fillna(fit)
    return value.rename("value").reset_index().assign(split="test", metric=TIME)


def mean_times(records: pd.DataFrame) -> pd.DataFrame:
    """Data sets × methods table of the mean final fit time (s) over the outer splits."""
    times = final_fit_times(records)
    return times.groupby(["dataset", "method"])["value"].mean().unstack("method")


def loss_sets(records, a, b, metric="accuracy", higher_is_better=True) -> list[str]:
    """The data sets where ``a`` is significantly worse than ``b`` (paired t over folds)."""
    sub = records[records["method"].isin([a, b])]
    details = paired_t_wins_losses(sub, a, metric, evidence.ALPHA, higher_is_better).details
    return sorted(details.loc[details["outcome"] == "loss", "dataset"])


# --- accuracy claims -------------------------------------------------------------------------
def never_worse(
    ev: Evidence, experiment: str, a: str, b: str, metric: str = "accuracy", variant=None
) -> Verdict:
    """ "A *never* underperforms B": the every-data-set rule (module docstring) on losses, on
    ``experiment``; ``variant``: another experiment of A and B (a labelled reading) decided by
    the same rule, its verdict appended to the evidence (the claim counts once)."""
    main = _never_worse(ev, experiment, a, b, metric)
    if variant is None:
        return main
    other = _never_worse(ev, variant, a, b, metric)
    return Verdict(
        main.verdict, f"{main.evidence}; variant {variant}: {other.verdict} ({other.evidence})"
    )


def _never_worse(ev: Evidence, experiment: str, a: str, b: str, metric: str) -> Verdict:
    records = paper_records(ev, experiment)
    c = evidence.compare(records, a, b, metric)
    losses = loss_sets(records, a, b, metric)
    if not losses:
        verdict = "holds"
    elif evidence.not_worse_verdict(c) != "does not hold":
        verdict = "partly"
    else:
        verdict = "does not hold"
    where = f"; significantly worse on {', '.join(losses)}" if losses else ""
    return Verdict(verdict, c.text() + where)


def pairwise(
    ev: Evidence,
    experiment: str,
    pairs,
    kind: str = "better",
    metric: str = "accuracy",
    panel=None,
    min_size=None,
) -> Verdict:
    """ "A is better than B" (``kind="better"``, evidence.better) or "A is as good as B"
    (``kind="not_worse"``, evidence.not_worse) for every ``[A, B]`` of ``pairs``; conjunction."""
    rule = {"better": evidence.better, "not_worse": evidence.not_worse}[kind]
    records = paper_records(ev, experiment, panel, min_size)
    parts = [rule(records, a, b, metric) for a, b in pairs]
    return Verdict(
        evidence.conjunction(p.verdict for p in parts), "; ".join(p.evidence for p in parts)
    )


def best_of(ev: Evidence, experiment: str, a: str, others, metric: str = "accuracy") -> Verdict:
    """ "A offers the best performance": evidence.best."""
    return evidence.best(paper_records(ev, experiment), a, list(others), metric)


def win_count_vs_paper(
    ev: Evidence, experiment: str, a: str, b: str, published: int, n_published: int
) -> Verdict:
    """ "A outperforms B <published> times" (of the paper's ``n_published`` data sets): our
    significant wins against it, agreement.win_count (Fisher): holds when it agrees."""
    c = evidence.compare(paper_records(ev, experiment), a, b, "accuracy")
    agree = agreement.win_count(published, n_published, c.wins, c.n_datasets)
    verdict = "holds" if agree.agrees else "does not hold"
    return Verdict(verdict, f"{c.text()}; paper {published}/{n_published}: {agree.detail}")


def more_wins_than(ev: Evidence, experiment: str, a: str, b: str, than: str) -> Verdict:
    """ "A outperforms B even more often [than ``than``]": significant wins over B outnumber
    those over ``than``."""
    records = paper_records(ev, experiment)
    cb = evidence.compare(records, a, b, "accuracy")
    ct = evidence.compare(records, a, than, "accuracy")
    verdict = "holds" if cb.wins > ct.wins else "does not hold"
    return Verdict(
        verdict,
        f"{NAMES.get(a, a)} wins {cb.wins} vs {NAMES.get(b, b)}, {ct.wins} vs "
        f"{NAMES.get(than, than)} (of {cb.n_datasets} data sets, paired t)",
    )


def sometimes_not_worse(ev: Evidence, experiment: str, a: str, others) -> Verdict:
    """ "Sometimes A performs as well as or better than B or C": holds when on at least one data
    set A has no significant loss against at least one of ``others``."""
    records = paper_records(ev, experiment)
    counts = {}
    for b in others:
        c = evidence.compare(records, a, b, "accuracy")
        counts[b] = c.n_datasets - c.losses
    verdict = "holds" if any(counts.values()) else "does not hold"
    text = ", ".join(f"{NAMES.get(b, b)} on {n}" for b, n in counts.items())
    return Verdict(verdict, f"{NAMES.get(a, a)} not significantly worse than {text} data sets")


# --- time claims -----------------------------------------------------------------------------
def ratios(ev: Evidence, experiment: str, slow: str, fast: str) -> pd.Series:
    """Per data set: mean final fit time of ``slow`` / that of ``fast``."""
    times = mean_times(paper_records(ev, experiment))
    return (times[slow] / times[fast]).dropna().sort_values()


def ratio_text(r: pd.Series, slow: str, fast: str) -> str:
    return (
        f"final-fit time {NAMES.get(slow, slow)}/{NAMES.get(fast, fast)} over {r.size} data "
        f"sets: min {r.min():.2f} ({r.idxmin()}), median {r.median():.2f}, "
        f"max {r.max():.2f} ({r.idxmax()})"
    )


def slower_up_to(ev: Evidence, experiment: str, a: str, b: str, factor: float) -> Verdict:
    """ "A is up to X times slower than B": max ratio ≤ X holds, median ≤ X partly."""
    r = ratios(ev, experiment, a, b)
    if r.max() <= factor:
        verdict = "holds"
    elif r.median() <= factor:
        verdict = "partly"
    else:
        verdict = "does not hold"
    tuned = ev.records(experiment)
    tuned = tuned[(tuned["metric"] == "fit_time") & ~tuned["dataset"].isin(STAND_INS)]
    with_tuning = tuned.groupby(["dataset", "method"])["value"].mean().unstack("method")
    median_tuning = float((with_tuning[a] / with_tuning[b]).median())
    return Verdict(
        verdict,
        f"{ratio_text(r, a, b)}; bound {factor:g} (with the inner-CV tuning in the time: "
        f"median {median_tuning:.0f})",
    )


def faster_up_to(
    ev: Evidence, experiment: str, a: str, b: str, factor: float, dataset=None
) -> Verdict:
    """ "A is up to X times faster than B (on ``dataset``)": ratio T_B/T_A reaches X."""
    r = ratios(ev, experiment, b, a)
    value = float(r[dataset]) if dataset else float(r.max())
    if value >= factor:
        verdict = "holds"
    elif value > 1:
        verdict = "partly"
    else:
        verdict = "does not hold"
    where = f"on {dataset}: {value:.2f}; " if dataset else ""
    return Verdict(verdict, f"{where}{ratio_text(r, b, a)}; claimed {factor:g}")


def always_faster(ev: Evidence, experiment: str, a: str, others) -> Verdict:
    """ "A is *always* faster than B and C": the every-data-set rule on wins (final fit time,
    lower is better, paired t over the splits), for each of ``others`` (conjunction)."""
    times = final_fit_times(paper_records(ev, experiment))
    verdicts, texts = [], []
    for b in others:
        c = evidence.compare(times, a, b, TIME, higher_is_better=False)
        if c.wins == c.n_datasets:
            verdicts.append("holds")
        elif evidence.better_verdict(c) != "does not hold":
            verdicts.append("partly")
        else:
            verdicts.append("does not hold")
        ms = f"mean {1000 * c.mean_a:.1f} vs {1000 * c.mean_b:.1f} ms"
        texts.append(
            f"{NAMES.get(a, a)} vs {NAMES.get(b, b)}: {ms}, faster (significantly) on "
            f"{c.wins}, slower on {c.losses} of {c.n_datasets}"
        )
    return Verdict(evidence.conjunction(verdicts), "; ".join(texts))


def constant_slowdown(ev: Evidence, experiment: str, a: str, b: str, factor: float) -> Verdict:
    """ "A fairly constant X times slow-down (no matter what dataset size or feature set
    size)": "up to X times slower" and no significant Spearman correlation of the ratio with
    the training size or with the number of features."""
    r = ratios(ev, experiment, a, b)
    sizes = paper_records(ev, experiment).groupby("dataset")[["n_train", "n_features"]].first()
    sizes = sizes.loc[r.index]
    bound = r.max() <= factor
    tests = {k: stats.spearmanr(r.to_numpy(), sizes[k].to_numpy()) for k in sizes.columns}
    constant = [bool(t.pvalue >= evidence.ALPHA) for t in tests.values()]
    failed = (not bound) + (not all(constant))
    verdict = ORDER[min(failed, 2)]
    corr = ", ".join(
        f"ρ(ratio, {k}) = {t.statistic:.2f} (p = {t.pvalue:.2g})" for k, t in tests.items()
    )
    return Verdict(verdict, f"{ratio_text(r, a, b)}; bound {factor:g}; {corr}")


# --- Figure 3 --------------------------------------------------------------------------------
def fig3_panels(ev: Evidence, experiment: str = "wu2015_fig3") -> pd.Series:
    """Panel of each data set (module docstring): "left" or "right"."""
    records = paper_records(ev, experiment)
    acc = records[(records["split"] == "test") & (records["metric"] == "accuracy")]
    panels = {}
    for dataset, grp in acc.groupby("dataset"):
        wide = grp.pivot_table(index=["repetition", "fold"], columns="p_gamma", values="value")
        means = wide.mean()
        above = means[means.index > 1.0 + 1e-9].idxmax()
        below = means[means.index <= 1.0 + 1e-9].idxmax()
        diff = wide[above] - wide[below]
        p = stats.ttest_rel(wide[above], wide[below]).pvalue if np.ptp(diff) > 0 else 1.0
        significant = diff.mean() > 0 and (p < evidence.ALPHA or np.ptp(diff) == 0)
        panels[dataset] = "left" if significant else "right"
    return pd.Series(panels, name="panel")


def fig3_right_few_features(ev: Evidence, experiment: str = "wu2015_fig3") -> Verdict:
    """ "All of the problems in Figure 3(right) have small numbers of features and large
    amounts of data": every right K/|D| below every left K/|D| holds, lower median partly."""
    panels = fig3_panels(ev, experiment)
    sizes = (
        paper_records(ev, experiment)
        .groupby("dataset")[["n_train", "n_test", "n_features"]]
        .first()
    )
    ratio = (sizes["n_features"] / (sizes["n_train"] + sizes["n_test"])).loc[panels.index]
    left, right = ratio[panels == "left"], ratio[panels == "right"]
    if left.empty or right.empty:
        return Verdict("does not hold", f"one panel is empty: left {list(left.index)}")
    if right.max() < left.min():
        verdict = "holds"
    elif right.median() < left.median():
        verdict = "partly"
    else:
        verdict = "does not hold"
    return Verdict(
        verdict,
        f"K/|D| right panel ({right.size} sets) median {right.median():.3f}, max "
        f"{right.max():.3f} ({right.idxmax()}); left ({', '.join(left.index)}) median "
        f"{left.median():.3f}, min {left.min():.3f} ({left.idxmin()})",
    )


def fig3_panel_vs_nb(
    ev: Evidence,
    experiment: str,
    panel: str,
    kind: str,
    a: str = "bma_nb_tuned",
    b: str = "nb_laplace",
    fig3: str = "wu2015_fig3",
) -> Verdict:
    """On the data sets of a Fig. 3 ``panel``: ``kind`` "matches" (A matches B, module
    docstring) or "better" (evidence.better), from ``experiment``'s records."""
    panels = fig3_panels(ev, fig3)
    sets = list(panels.index[panels == panel])
    records = paper_records(ev, experiment)
    c = evidence.compare(records, a, b, "accuracy", datasets=sets)
    text = f"{panel} panel: {', '.join(sets)}; {c.text()}"
    if kind == "better":
        return Verdict(evidence.better_verdict(c), text)
    differ = c.wins + c.losses
    if differ == 0:
        verdict = "holds"
    elif differ < c.n_datasets / 2:
        verdict = "partly"
    else:
        verdict = "does not hold"
    return Verdict(verdict, text)
