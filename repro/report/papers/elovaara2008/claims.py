"""Elovaara & Myllymäki (2008), MDL-based attribute models in naive Bayes classification: the
claims of §5.2 and §6, decided from the records of ``elovaara2008_fig1`` — 30 × 10-fold CV of
MDLh, MDLg, Shimazaki, EWB-10 and Gaussian on 45 stand-in data sets (the paper names only Iris),
in their default readings: MDL histograms with Kontkanen & Myllymäki's cut-set code, EWB-10 and
Shimazaki with the "column" out-of-range rule (the earlier MDL reading is the separate
experiment ``elovaara2008_fig1_no_cut_set_code``, which no rule reads). Only the data sets where
all five methods have records enter (:func:`complete_datasets`).
Fig. 1 is the ``accuracy`` metric of these records, Fig. 2 the ``log_sum`` metric of the same
runs (experiment ``elovaara2008_fig2`` is a report over them), so every claim is decided once,
from these records.

Comparisons use the shared rules of :mod:`repro.report.claims.evidence` (``better``,
``not_worse``, ``best``: Wilcoxon over the 45 data sets; per data set paired t over the 300
(repetition, fold) pairs, α = 0.05). Rules this module adds:

- **Clearly the best** ("A performs clearly the best", "A is clearly the winner"): holds when A
  is significantly better than every other method (``evidence.better`` holds against each:
  Wilcoxon over the data sets), does not hold otherwise — a best mean without significance is
  not "clearly" best. The paper reports no test, hence no multiplicity correction.
- **Rank by significance** on a data set: 1 + the number of other methods significantly better
  there (paired t over the folds, α = 0.05); methods that no other beats significantly share
  rank 1. "A achieves the highest accuracy on most data sets": A has rank 1 on more than half
  of them — holds; does not hold otherwise. "A is usually second best when it does not win": of
  the data sets where A's rank is not 1, more than half give rank 2 — holds; does not hold
  otherwise ("most", "usually": a strict majority).
- **Differences shrink where R is strong** (R = EWB-10): over data sets, Spearman's ρ between
  R's mean and the spread (largest − smallest mean of the methods named): holds when ρ < 0 with
  two-sided p < 0.05, does not hold otherwise.
- **Where R does poorly**: the data sets of R's lowest means, the lowest ``fraction`` of them
  (⌈fraction · N⌉ sets), handed to the shared rule as its data sets; "dominates" holds when
  ``evidence.best`` holds there (significantly better than each of the group), does not hold
  otherwise.
- **Differences not large** ("differences between them are not large"): every pair practically
  equivalent, ``evidence.equivalence`` of the per-data-set mean differences within ± ``margin``;
  holds when every pair is, does not hold otherwise (the evidence gives each pair's interval).
- **Comparable** ("A reached accuracies comparable with B" on some data sets): practical
  equivalence of the per-data-set mean differences A − B there within ± ``margin``.
- **Rankings close on two metrics**: per data set Kendall's τ between the methods' means on the
  two metrics; holds when the mean τ > 0 and the Wilcoxon signed-rank test of the τs against 0
  has two-sided p < 0.05, does not hold otherwise.
- **Dropped in the rankings**: per data set, a method's rank (1 = best, ties averaged) on
  log-sum minus that on accuracy; a method "drops" when these differences are positive on
  average and the Wilcoxon signed-rank test against 0 has two-sided p < 0.05. "Only A dropped"
  holds when A drops and no other method does, partly when A and others drop, does not hold
  when A does not.
- **Only marginally better** ("A attained only marginally better results than B"): holds when
  A's mean over the data sets is higher without significance (``evidence.better`` partly or
  does not hold), partly when A is significantly better (``better`` holds: better, but not
  only marginally), does not hold when A's mean is not higher.
- **Standard deviations very small** (§5.2, Figs 1–2): per method and data set, the SD over the
  repetitions of the cross-validation run's value (mean accuracy, resp. mean log-sum, of its
  folds); for log-sum, a sum over a fold's instances whose scale is the data set's, relative to
  |mean|. Holds when for every method the median of these SDs over the data sets is at most
  ``bound``, does not hold otherwise; the evidence gives each method's median and largest SD.
- **Time.** ``fit_time`` of each fold (the records' ``model`` split). "A is slower than B" is
  ``evidence.better`` of B over A on it (lower is better), holding only when significant. "It
  took over H hours to run a cross-validation run with A on the larger data sets": per data
  set, the mean over the repetitions of the summed fit times of a run's 10 folds; holds when
  the largest of them exceeds H hours, does not hold otherwise.
"""

from __future__ import annotations

import math
import weakref

import numpy as np
import pandas as pd
from scipy import stats

from repro.report.claims import evidence
from repro.report.claims.engine import Evidence, Verdict
from repro.stats.tests import metric_table, paired_t_wins_losses, rank_table

EXPERIMENT = "elovaara2008_fig1"
METHODS = ["nb_mdlh", "nb_mdlg", "nb_shimazaki", "nb_ewb10", "nb_gaussian"]
NAMES = {
    "nb_mdlh": "MDLh", "nb_mdlg": "MDLg", "nb_shimazaki": "Shimazaki", "nb_ewb10": "EWB-10",
    "nb_gaussian": "Gaussian",
}  # fmt: skip
COLUMNS = ("method", "dataset", "repetition", "fold", "split", "metric", "value")


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def records_of(ev: Evidence, metric: str) -> pd.DataFrame:
    """The records of :data:`EXPERIMENT` on one ``metric`` (``fit_time`` relabelled ``test``),
    the tidy columns only, with plain object columns (fast to slice); cached per ``ev``."""
    cache = _CACHE.setdefault(ev, {})
    if metric not in cache:
        records = ev.records(EXPERIMENT)
        keep = (  # one filter of the wide frame, of the tidy columns only
            records["dataset"].isin(complete_datasets(records)).to_numpy()
            & (records["metric"] == metric).to_numpy()
            & (records["split"] == ("model" if metric == "fit_time" else "test")).to_numpy()
        )
        sub = records.loc[keep, list(COLUMNS)]
        sub = sub.assign(split="test").astype({c: object for c in COLUMNS[:2] + COLUMNS[4:6]})
        cache[metric] = sub.reset_index(drop=True)
    return cache[metric]


def complete_datasets(records: pd.DataFrame) -> list[str]:
    """The data sets where every method of :data:`METHODS` has test records (while a sweep
    runs, the others would enter some comparisons and not others)."""
    test = records.loc[
        (records["split"] == "test") & records["method"].isin(METHODS), ["dataset", "method"]
    ]
    count = test.groupby("dataset")["method"].nunique()
    return sorted(count.index[count == len(METHODS)])


def name(method: str) -> str:
    return NAMES.get(method, method)


def others_of(a: str, methods=None) -> list[str]:
    return [m for m in (methods or METHODS) if m != a]


def significance_ranks(ev: Evidence, metric: str) -> pd.DataFrame:
    """Data sets × methods: 1 + the number of other methods significantly better (paired t)."""
    cache = _CACHE.setdefault(ev, {})
    if ("ranks", metric) not in cache:
        records, ranks = records_of(ev, metric), {}
        for m in METHODS:
            details = paired_t_wins_losses(records, m, metric, evidence.ALPHA).details
            loss = details.assign(loss=details["outcome"] == "loss").groupby("dataset")["loss"]
            ranks[m] = 1 + loss.sum()
        cache[("ranks", metric)] = pd.DataFrame(ranks)
    return cache[("ranks", metric)]


# --- accuracy and log-sum comparisons --------------------------------------------------------
def best_of(ev: Evidence, a: str, metric: str = "accuracy", others=None) -> Verdict:
    """ "A performs clearly the best" / "A is clearly the winner": significantly better than
    every other (module docstring)."""
    records = records_of(ev, metric)
    cs = [evidence.compare(records, a, b, metric) for b in (others or others_of(a))]
    verdicts = [evidence.better_verdict(c) for c in cs]
    beaten = sum(v == "holds" for v in verdicts)
    verdict = "holds" if beaten == len(cs) else "does not hold"
    means = {c.b: c.mean_b for c in cs} | {a: cs[0].mean_a}
    top = max(means, key=means.get)
    return Verdict(
        verdict,
        f"{name(a)} significantly better than {beaten} of {len(cs)} others (best mean: "
        f"{name(top)}); " + "; ".join(c.text() for c in cs),
    )


def wins_most(ev: Evidence, a: str, metric: str = "accuracy") -> Verdict:
    """ "A achieves the highest accuracy on most data sets" (rank by significance)."""
    ranks = significance_ranks(ev, metric)
    firsts = (ranks == 1).sum()
    n = len(ranks)
    verdict = "holds" if firsts[a] > n / 2 else "does not hold"
    counts = ", ".join(f"{name(m)} {int(k)}" for m, k in firsts.sort_values().items())
    return Verdict(verdict, f"not significantly beaten (rank 1) on: {counts} of {n} data sets")


def usually_second(ev: Evidence, a: str, metric: str = "accuracy") -> Verdict:
    """ "A is usually second best when it does not win" (rank by significance)."""
    ranks = significance_ranks(ev, metric)[a]
    rest = ranks[ranks > 1]
    counts = rest.value_counts()
    second = int(counts.get(2, 0))
    verdict = "holds" if len(rest) and second > len(rest) / 2 else "does not hold"
    spread = ", ".join(f"rank {int(r)}: {int(k)}" for r, k in counts.sort_index().items())
    return Verdict(
        verdict,
        f"{name(a)} beaten significantly on {len(rest)} of {len(ranks)} data sets; there "
        f"{spread} (rank 2 on {second} of {len(rest)}, a majority needs > {len(rest) / 2:g})",
    )


def spread_shrinks(
    ev: Evidence, metric: str = "accuracy", methods=None, reference: str = "nb_ewb10"
) -> Verdict:
    """ "Differences between the methods diminish where ``reference`` does well"."""
    methods = list(methods or METHODS)
    table = metric_table(records_of(ev, metric), metric)[methods]
    spread = table.max(axis=1) - table.min(axis=1)
    rho, p = stats.spearmanr(table[reference], spread)
    verdict = "holds" if rho < 0 and p < evidence.ALPHA else "does not hold"
    who = ", ".join(name(m) for m in methods)
    return Verdict(
        verdict,
        f"Spearman ρ({name(reference)} mean {metric}, spread of {who}) = {rho:.2f} "
        f"(p = {p:.2g}) over {len(table)} data sets",
    )


def dominates_where_poor(
    ev: Evidence,
    a: str,
    others,
    reference: str = "nb_ewb10",
    fraction: float = 1 / 3,
    metric: str = "accuracy",
) -> Verdict:
    """ "A dominates the group on sets where ``reference`` performs poorly": evidence.best on
    the ⌈fraction · N⌉ data sets of ``reference``'s lowest means."""
    records = records_of(ev, metric)
    table = metric_table(records, metric)[reference].sort_values()
    sets = list(table.index[: math.ceil(fraction * len(table))])
    v = evidence.best(records, a, list(others), metric, datasets=sets)
    verdict = "holds" if v.verdict == "holds" else "does not hold"
    return Verdict(verdict, f"{len(sets)} sets of lowest {name(reference)} {metric}; {v.evidence}")


def _equivalent(records, a, b, metric, margin, datasets=None) -> tuple[str, str]:
    """Practical equivalence of a and b's per-data-set means (``evidence.equivalence``);
    "not testable" below two shared data sets."""
    table = metric_table(records[records["method"].isin([a, b])], metric)[[a, b]].dropna()
    if datasets is not None:
        table = table.loc[table.index.intersection(list(datasets))]
    if len(table) < 2:
        return "not testable", f"{len(table)} shared data set(s): {', '.join(table.index)}"
    verdict, text = evidence.equivalence(table[a] - table[b], margin)
    return verdict, f"mean {table[a].mean():.4f} vs {table[b].mean():.4f}, {text}"


def no_differences(
    ev: Evidence, methods, metric: str = "accuracy", margin: float = 0.02
) -> Verdict:
    """ "Differences between them are not large": every pair practically equivalent."""
    records = records_of(ev, metric)
    parts = []
    for i, a in enumerate(methods):
        for b in methods[i + 1 :]:
            v, text = _equivalent(records, a, b, metric, margin)
            parts.append((v, f"{name(a)} − {name(b)}: {text}"))
    kinds = [v for v, _ in parts if v != "not testable"]
    if not kinds:
        verdict = "not testable"
    else:
        verdict = "holds" if all(v == "holds" for v in kinds) else "does not hold"
    n = sum(v == "holds" for v in kinds)
    return Verdict(
        verdict, f"{n} of {len(parts)} pairs equivalent: " + "; ".join(t for _, t in parts)
    )


def gaussian_well_on_normal(ev: Evidence, a: str, datasets, metric: str = "accuracy") -> Verdict:
    """ "A performs well on sets where the attributes truly are normally distributed":
    evidence.not_worse holds against every other method on ``datasets`` (one statement: the
    methods are not parts of the sentence)."""
    records = records_of(ev, metric)
    parts = [evidence.not_worse(records, a, b, metric, datasets=datasets) for b in others_of(a)]
    verdict = "holds" if all(p.verdict == "holds" for p in parts) else "does not hold"
    return Verdict(verdict, "; ".join(p.evidence for p in parts))


def rankings_close(ev: Evidence, metric: str = "log_sum", to: str = "accuracy") -> Verdict:
    """ "The ranking on set by set basis is close to the ranking on ``to``": Kendall τ."""
    first = metric_table(records_of(ev, metric), metric)[METHODS]
    second = metric_table(records_of(ev, to), to)[METHODS]
    taus = np.array([stats.kendalltau(first.loc[d], second.loc[d])[0] for d in first.index])
    taus = taus[np.isfinite(taus)]
    p = float(stats.wilcoxon(taus).pvalue) if np.any(taus) else 1.0
    verdict = "holds" if taus.mean() > 0 and p < evidence.ALPHA else "does not hold"
    return Verdict(
        verdict,
        f"Kendall τ of the {metric} and {to} rankings per data set: mean {taus.mean():.2f}, "
        f"median {np.median(taus):.2f} over {taus.size} data sets, Wilcoxon p = {p:.2g}",
    )


def only_one_drops(
    ev: Evidence, a: str, metric_from: str = "accuracy", metric_to: str = "log_sum"
) -> Verdict:
    """ "Only A has consistently dropped in the rankings" (from ``metric_from`` to
    ``metric_to``)."""
    before = rank_table(metric_table(records_of(ev, metric_from), metric_from)[METHODS])
    after = rank_table(metric_table(records_of(ev, metric_to), metric_to)[METHODS])
    drop = after - before
    drops, texts = {}, []
    for m in METHODS:
        d = drop[m].to_numpy()
        p = float(stats.wilcoxon(d).pvalue) if np.any(d) else 1.0
        drops[m] = bool(d.mean() > 0 and p < evidence.ALPHA)
        texts.append(f"{name(m)} {before[m].mean():.2f}→{after[m].mean():.2f} (p = {p:.2g})")
    if not drops[a]:
        verdict = "does not hold"
    elif any(drops[m] for m in METHODS if m != a):
        verdict = "partly"
    else:
        verdict = "holds"
    return Verdict(verdict, f"average rank {metric_from}→{metric_to}: " + ", ".join(texts))


def marginally_better(ev: Evidence, a: str, b: str, metric: str = "accuracy") -> Verdict:
    """ "A attained only marginally better results when compared with B"."""
    records = records_of(ev, metric)
    c = evidence.compare(records, a, b, metric)
    diff = metric_table(records[records["method"].isin([a, b])], metric)
    diff = diff[a] - diff[b]
    if c.mean_a <= c.mean_b:
        verdict = "does not hold"
    elif evidence.better_verdict(c) == "holds":
        verdict = "partly"
    else:
        verdict = "holds"
    return Verdict(
        verdict,
        f"{c.text()}; per-data-set difference median {diff.median():+.4f}, higher on "
        f"{int((diff > 0).sum())} of {diff.size}",
    )


def comparable_then_better(
    ev: Evidence, a: str, b: str, normal, metric: str = "accuracy", margin: float = 0.01
):
    """ "On normal data A is comparable with B, and in other cases it performed better": two
    parts — A and B practically equivalent on ``normal`` (within ± ``margin``), evidence.better
    on the other data sets; conjunction."""
    records = records_of(ev, metric)
    rest = sorted(set(records["dataset"]) - set(normal))
    comparable, text = _equivalent(records, a, b, metric, margin, datasets=normal)
    on_rest = evidence.better(records, a, b, metric, datasets=rest)
    verdict = evidence.conjunction((comparable, on_rest.verdict))
    return Verdict(
        verdict,
        f"comparable on the normal sets: {text} — {comparable}; better on the others: "
        f"{on_rest.evidence} — {on_rest.verdict}",
    )


def sd_small(ev: Evidence, metric: str = "accuracy", bound: float = 0.01) -> Verdict:
    """ "Standard deviation values were very small for all classifiers" (module docstring)."""
    records = records_of(ev, metric)
    runs = records.groupby(["method", "dataset", "repetition"])["value"].mean()
    sd = runs.groupby(["method", "dataset"]).std(ddof=1)
    relative = metric == "log_sum"
    if relative:
        sd = sd / runs.groupby(["method", "dataset"]).mean().abs()
    sd = sd.dropna()
    if sd.empty:
        return Verdict("not testable", "fewer than two repetitions: no standard deviation")
    medians = sd.groupby("method").median()
    verdict = "holds" if (medians <= bound).all() else "does not hold"
    kind = "relative SD (SD/|mean|)" if relative else "SD"
    texts = ", ".join(
        f"{name(m)} {medians[m]:.4f} (max {sd[m].max():.4f}, {sd[m].idxmax()})"
        for m in medians.index
    )
    n = runs.index.get_level_values("repetition").nunique()
    return Verdict(
        verdict,
        f"{kind} of the CV-run {metric} over {n} repetitions, median over "
        f"{sd.index.get_level_values('dataset').nunique()} data sets: {texts}; bound {bound:g}",
    )


# --- time ------------------------------------------------------------------------------------
def slower(ev: Evidence, a: str, b: str) -> Verdict:
    """ "A was even worse [slower] than B": evidence.better of B over A on fit_time."""
    c = evidence.compare(records_of(ev, "fit_time"), b, a, "fit_time", False)
    verdict = "holds" if evidence.better_verdict(c) == "holds" else "does not hold"
    return Verdict(verdict, f"faster: {c.text()} (s per fold)")


def cv_run_hours(ev: Evidence, a: str, hours: float) -> Verdict:
    """ "It took over H hours to run a cross-validation run with A on the larger data sets"."""
    times = records_of(ev, "fit_time")
    times = times[times["method"] == a]
    runs = times.groupby(["dataset", "repetition"])["value"].sum().groupby("dataset").mean()
    top = runs.sort_values().tail(3)
    verdict = "holds" if top.iloc[-1] > hours * 3600 else "does not hold"
    slowest = ", ".join(f"{d} {s:.1f} s" for d, s in top[::-1].items())
    return Verdict(
        verdict, f"{name(a)} fit time per 10-fold CV run, slowest: {slowest}; bound {hours:g} h"
    )
