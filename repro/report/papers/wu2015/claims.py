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

- **Every data set** ("A *never* underperforms B", "A is *always* faster than B"): the strict
  reading, no significant counter-case. "Never underperforms": holds when A has no significant
  loss (paired t over the outer splits) on any data set, does not hold otherwise (the evidence
  names the data sets of the losses). "Always faster": holds when A is significantly slower on
  no data set and faster over the data sets (``evidence.better_verdict`` holds: Wilcoxon over
  ≥ 6 data sets), does not hold otherwise. The claim is decided on the default (Weka) rows; a
  ``variant`` experiment (the density Gaussian) is decided by the same rule and shown in the
  evidence.
- **Conjunction** ("A, B and C each beat D"): ``evidence.conjunction`` of its parts.
- **Counts of wins** ("BMA twice outperforms LR"): our significant wins against the published
  count, :func:`repro.stats.agreement.win_count` (Fisher, α = 0.05): holds when it agrees.
  "A outperforms C even more often [than B]": holds when A's significant wins over C outnumber
  those over B, does not hold otherwise.
- **Times.** A fit's time is the final fit's: ``refit_time`` where the method is tuned (what the
  paper's Table 2 (right) reports: its BMA times are 1–6 × NB's, impossible if they included the
  55 inner fits of the Γ grid), else ``fit_time``; per data set the mean over the outer splits.
  Every time claim is decided on *our* implementations (our BMA-NB and NB, scikit-learn's
  liblinear LR and SVM), not on the authors' Weka/Java Liblinear ones, and its evidence says so:
  the ratios compare implementations as much as algorithms.
  "A is faster than B" claims are accuracy claims on this time (lower is better): the shared
  paired t / Wilcoxon rules. Ratios r_d = mean time of the slower-claimed method / mean time
  of the other, per data set. "Up to X" is read as "the largest ratio is about X", within a
  stated tolerance factor τ (``tolerance``, 1.5 unless the claim says otherwise):
  "A is up to X times slower than B" holds when X/τ ≤ max_d r_d ≤ τ·X, does not hold otherwise;
  "A is up to X times faster than B (on D)" holds when the largest r_d (r_D when D is named)
  ≥ X/τ, does not hold otherwise;
  "a fairly constant X times slow-down, no matter the data set or feature set size": the
  sentence's three parts — the slow-down is up to about X (the "up to X times slower" rule: the
  paper's own Table 2 has a median ratio of 2.6 and a largest of 5.8, so X is its bound, not its
  typical value); it is fairly constant whatever the data set size, and whatever the feature set
  size: split the data sets at the median size (training instances, resp. features), the median
  ratio of the larger half lies within a factor τ of the smaller half's (a trend test such as
  Spearman's would reject the paper's own Table 2, ρ(ratio, |D|) = 0.53, p = 0.02, where
  sizes spanning 140× move the typical slow-down by 1.3×: "fairly constant", not "uncorrelated")
  — ``evidence.conjunction``;
  "about as expensive to train as NB": every r_d (BMA/NB) ≤ ``factor`` (one order of
  magnitude: the same cost up to a constant, the paper's sense of "linear time like NB");
  "a fraction of the time [of B]": A significantly faster than B over the data sets
  (``evidence.better_verdict`` holds on the time), for each B named (conjunction).
- **Figure 3's panels.** A data set is in the left panel ("a peak at Γ > 1") when the best
  Γ > 1 (mean accuracy) is significantly more accurate than the best Γ ≤ 1 (paired t over the
  outer splits, α = 0.05), else in the right one. "The right panel's sets have few features and
  much data" holds when every right-panel K/|D| (features over instances) is below every
  left-panel one ("all of the problems"), does not hold otherwise. "For many of these problems
  A was better than B": A has a significant win (paired t) on more than half of the panel's
  data sets. "A matches B on a panel" is practical
  equivalence (``evidence.equivalence``): the 90% t-interval of the mean per-data-set accuracy
  difference A − B over the panel's data sets inside ± ``margin`` holds, otherwise does not
  hold.
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
    verdict = "does not hold" if losses else "holds"
    where = (
        f"; significantly worse on {len(losses)} of {c.n_datasets}: {', '.join(losses)}"
        if losses
        else f"; significantly worse on none of {c.n_datasets}"
    )
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
    (``kind="not_worse"``, evidence.not_worse) for every ``[A, B]`` of ``pairs``; conjunction.
    A pair is better only when the shared rule finds it significant (ahead without significance
    does not hold), as "a *significant* improvement" reads."""
    rule = {"better": evidence.better, "not_worse": evidence.not_worse}[kind]
    records = paper_records(ev, experiment, panel, min_size)
    parts = [rule(records, a, b, metric) for a, b in pairs]
    verdicts = [p.verdict for p in parts]
    return Verdict(evidence.conjunction(verdicts), "; ".join(p.evidence for p in parts))


def best_of(ev: Evidence, experiment: str, a: str, others, metric: str = "accuracy") -> Verdict:
    """ "A offers the best performance": evidence.best."""
    return evidence.best(paper_records(ev, experiment), a, list(others), metric)


def seems_best(
    ev: Evidence, experiment: str, a: str, others, edging: str, metric: str = "accuracy"
) -> Verdict:
    """ "A *seems* to offer the best performance, edging out B": two parts — A has the best
    mean and no other method is significantly better than A over the data sets (Wilcoxon; the
    hedged "seems" asks no significance of A's lead); A's mean is above B's (``edging``: a narrow
    lead, no significance asked). Conjunction."""
    records = paper_records(ev, experiment)
    cs = [evidence.compare(records, a, b, metric) for b in others]
    means = {c.b: c.mean_b for c in cs} | {a: cs[0].mean_a}
    top = max(means, key=means.get)
    beaten = [c.b for c in cs if evidence.better_verdict(c.mirrored()) == "holds"]
    best = "holds" if top == a and not beaten else "does not hold"
    edge = next(c for c in cs if c.b == edging)
    edges = "holds" if edge.mean_a > edge.mean_b else "does not hold"
    text = (
        f"best: best mean {top}, significantly better than {NAMES.get(a, a)}: "
        f"{', '.join(beaten) or 'none'} — {best}; edging out {NAMES.get(edging, edging)}: "
        f"mean {edge.mean_a:.4f} vs {edge.mean_b:.4f} — {edges}; " + "; ".join(c.text() for c in cs)
    )
    return Verdict(evidence.conjunction((best, edges)), text)


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
#: said in the evidence of every time claim (module docstring, "Times")
OURS = "our implementations (not the authors' Weka/Java Liblinear)"
#: "up to X" within this factor of X unless a claim states its own
TOLERANCE = 1.5


def ratios(ev: Evidence, experiment: str, slow: str, fast: str) -> pd.Series:
    """Per data set: mean final fit time of ``slow`` / that of ``fast``."""
    times = mean_times(paper_records(ev, experiment))
    return (times[slow] / times[fast]).dropna().sort_values()


def ratio_text(r: pd.Series, slow: str, fast: str) -> str:
    return (
        f"final-fit time {NAMES.get(slow, slow)}/{NAMES.get(fast, fast)} over {r.size} data "
        f"sets ({OURS}): min {r.min():.2f} ({r.idxmin()}), median {r.median():.2f}, "
        f"max {r.max():.2f} ({r.idxmax()})"
    )


def about(value: float, factor: float, tolerance: float) -> bool:
    """``value`` is "about ``factor``": within [factor/tolerance, factor·tolerance]."""
    return factor / tolerance <= value <= factor * tolerance


def slower_up_to(
    ev: Evidence, experiment: str, a: str, b: str, factor: float, tolerance: float = TOLERANCE
) -> Verdict:
    """ "A is up to X times slower than B": the largest ratio is about X (module docstring)."""
    r = ratios(ev, experiment, a, b)
    verdict = "holds" if about(r.max(), factor, tolerance) else "does not hold"
    tuned = ev.records(experiment)
    tuned = tuned[(tuned["metric"] == "fit_time") & ~tuned["dataset"].isin(STAND_INS)]
    with_tuning = tuned.groupby(["dataset", "method"])["value"].mean().unstack("method")
    median_tuning = float((with_tuning[a] / with_tuning[b]).median())
    return Verdict(
        verdict,
        f"{ratio_text(r, a, b)}; claimed up to {factor:g}, the largest must lie in "
        f"[{factor / tolerance:.3g}, {factor * tolerance:.3g}] (with the inner-CV tuning in "
        f"the time: median {median_tuning:.0f})",
    )


def faster_up_to(
    ev: Evidence,
    experiment: str,
    a: str,
    b: str,
    factor: float,
    dataset=None,
    tolerance: float = TOLERANCE,
) -> Verdict:
    """ "A is up to X times faster than B (on ``dataset``)": ratio T_B/T_A reaches X/τ."""
    r = ratios(ev, experiment, b, a)
    value = float(r[dataset]) if dataset else float(r.max())
    verdict = "holds" if value >= factor / tolerance else "does not hold"
    where = f"on {dataset}: {value:.2f}; " if dataset else f"largest {value:.2f}; "
    return Verdict(
        verdict,
        f"{where}{ratio_text(r, b, a)}; claimed {factor:g}, reached when ≥ "
        f"{factor / tolerance:.3g} (X/{tolerance:g})",
    )


def _faster(times: pd.DataFrame, a: str, b: str) -> tuple[str, str]:
    c = evidence.compare(times, a, b, TIME, higher_is_better=False)
    slower_on = loss_sets(times, a, b, TIME, higher_is_better=False)
    if slower_on:
        verdict = "does not hold"
    else:
        verdict = "holds" if evidence.better_verdict(c) == "holds" else "does not hold"
    p = "" if np.isnan(c.p_wilcoxon) else f", Wilcoxon p = {c.p_wilcoxon:.3g}"
    text = (
        f"{NAMES.get(a, a)} vs {NAMES.get(b, b)}: mean {1000 * c.mean_a:.1f} vs "
        f"{1000 * c.mean_b:.1f} ms, significantly faster on {c.wins}, slower on {c.losses} of "
        f"{c.n_datasets}{p}" + (f" (slower on {', '.join(slower_on)})" if slower_on else "")
    )
    return verdict, text


def always_faster(ev: Evidence, experiment: str, a: str, others) -> Verdict:
    """ "A is *always* faster than B and C": for each of ``others`` (the sentence's parts), no
    data set where A is significantly slower (final fit time, paired t over the splits) and A
    faster over the data sets (Wilcoxon); conjunction."""
    times = final_fit_times(paper_records(ev, experiment))
    parts = [_faster(times, a, b) for b in others]
    return Verdict(
        evidence.conjunction(v for v, _ in parts),
        f"{OURS}: " + "; ".join(f"{t} — {v}" for v, t in parts),
    )


def fraction_of_time(ev: Evidence, experiment: str, a: str, others) -> Verdict:
    """ "A takes a fraction of the time to train [of B, C]": A significantly faster than each
    of ``others`` over the data sets (evidence.better_verdict holds on the final fit time, lower
    is better); conjunction."""
    times = final_fit_times(paper_records(ev, experiment))
    verdicts, texts = [], []
    for b in others:
        c = evidence.compare(times, a, b, TIME, higher_is_better=False)
        verdicts.append("holds" if evidence.better_verdict(c) == "holds" else "does not hold")
        r = ratios(ev, experiment, a, b)
        texts.append(f"{c.text()}; median ratio {r.median():.2f} — {verdicts[-1]}")
    return Verdict(evidence.conjunction(verdicts), f"{OURS}: " + "; ".join(texts))


def as_expensive(ev: Evidence, experiment: str, a: str, b: str, factor: float = 10) -> Verdict:
    """ "A is about as expensive to train as B": every ratio T_A/T_B ≤ ``factor``."""
    r = ratios(ev, experiment, a, b)
    verdict = "holds" if r.max() <= factor else "does not hold"
    return Verdict(verdict, f"{ratio_text(r, a, b)}; bound {factor:g} on every data set")


def halves(r: pd.Series, size: pd.Series) -> tuple[float, float]:
    """Median ratio on the data sets of the smaller and of the larger half by ``size`` (the
    median data set, for an odd count, in neither)."""
    order = size.loc[r.index].sort_values(kind="stable").index
    half = len(order) // 2
    return float(r[order[:half]].median()), float(r[order[len(order) - half :]].median())


def constant_slowdown(
    ev: Evidence, experiment: str, a: str, b: str, factor: float, tolerance: float = TOLERANCE
) -> Verdict:
    """ "A fairly constant X times slow-down (no matter what dataset size or feature set
    size)": three parts (module docstring): up to about X; the median ratio of the larger half
    of the data sets by training size, then by number of features, within a factor τ of the
    smaller half's."""
    r = ratios(ev, experiment, a, b)
    sizes = paper_records(ev, experiment).groupby("dataset")[["n_train", "n_features"]].first()
    parts = [
        (
            f"up to about {factor:g} (largest in [{factor / tolerance:.3g}, "
            f"{factor * tolerance:.3g}])",
            "holds" if about(r.max(), factor, tolerance) else "does not hold",
        )
    ]
    for k, label in (("n_train", "data set size"), ("n_features", "feature set size")):
        small, large = halves(r, sizes[k])
        ok = about(large / small, 1.0, tolerance)
        parts.append(
            (
                f"no matter the {label}: median ratio {small:.2f} on the smaller half by {k}, "
                f"{large:.2f} on the larger (factor {large / small:.2f}, bound {tolerance:g})",
                "holds" if ok else "does not hold",
            )
        )
    text = "; ".join(f"{label} — {v}" for label, v in parts)
    return Verdict(evidence.conjunction(v for _, v in parts), f"{ratio_text(r, a, b)}; {text}")


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
    amounts of data": every right K/|D| below every left K/|D| holds."""
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
    verdict = "holds" if right.max() < left.min() else "does not hold"
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
    margin: float = 0.01,
) -> Verdict:
    """On the data sets of a Fig. 3 ``panel``: ``kind`` "matches" (A and B practically
    equivalent in accuracy within ± ``margin``, evidence.equivalence on the per-data-set mean
    differences) or "better" ("for many of these problems A was better than B": A significantly
    better, paired t over the splits, on more than half of them), from ``experiment``'s
    records."""
    panels = fig3_panels(ev, fig3)
    sets = list(panels.index[panels == panel])
    records = paper_records(ev, experiment)
    c = evidence.compare(records, a, b, "accuracy", datasets=sets)
    text = f"{panel} panel: {', '.join(sets)}; {c.text()}"
    if kind == "better":
        won = c.wins > c.n_datasets / 2
        return Verdict(
            "holds" if won else "does not hold",
            f"{text}; significantly better on {c.wins} of {c.n_datasets} (many: > half)",
        )
    sub = records[
        records["method"].isin([a, b])
        & (records["split"] == "test")
        & (records["metric"] == "accuracy")
        & records["dataset"].isin(sets)
    ]
    table = sub.groupby(["dataset", "method"])["value"].mean().unstack("method")[[a, b]].dropna()
    verdict, eq = evidence.equivalence(table[a] - table[b], margin)
    return Verdict(verdict, f"{text}; accuracy {NAMES.get(a, a)} − {NAMES.get(b, b)}: {eq}")
