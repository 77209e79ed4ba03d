"""Boullé (2007), Compression-based averaging of selective naive Bayes classifiers (JMLR 8): the
claims of §5.3, §6 (the waveform study), §7.2 (Tables 3 and 4), §8 (the challenge), the abstract
and §9, decided from the records of ``boulle2007_waveform`` (one 70/30 split of a 5000-row sample
of Breiman's generator), ``boulle2007_table3`` (25 of the 30 UCI sets, 10-fold CV),
``boulle2007_table4`` and ``boulle2007_challenge`` (generated stand-ins for the challenge sets).

Comparisons over cross-validated data sets (Tables 3, 4) use the shared rules of
:mod:`repro.report.claims.evidence` (``better``, ``not_worse``, ``best``). "A does not
(significantly) outperform B" is the mirror of ``better``: holds when ``better`` does not hold,
partly when it is partly, does not hold when it holds; "A is the same as B":
``evidence.similar_verdict``. "Always the best" (per data set): no data set where another method is
significantly better (paired t over the folds; "almost always": on fewer than half). A claim of
several parts (methods, criteria, data sets) is their ``evidence.conjunction`` (holds when all
hold, partly when some hold and others fail, does not hold when none holds). "The same / comparable
/ little impact / only slight" (practical equivalence): ``evidence.equivalence`` of the per-data-
set differences, the 90% t interval of their mean inside ± a margin the claim states (``margins``:
criterion → margin; kind ``equivalent``). "With an emphasis on their respective optimised
criterion" (:func:`emphasis`): A's lead over B larger on A's criterion than on B's. "Always" /
"never" / "all": no significant counter-case. The paper's own numbers
(:mod:`repro.report.claims.published`: the means, W/L and ranks of Tables 3 and 4, the numbers of
§5.3 and §6.1) can stand for the records where a rule reads only such aggregates
(:func:`win_totals`, :func:`aggregates_consistent`, :func:`negative_mean`, :func:`emphasis`, the
waveform numbers); rules that need the folds refuse them. Rules this module adds:

- **The waveform study** (one split; the numbers of the paper's waveform sample): the rules
  of :mod:`repro.report.papers.boulle2007.claims_waveform`, served from here by name.
- **Counts of significant wins** (§7.2): the share of wins among significant outcomes against the
  published one, :func:`repro.stats.agreement.win_count` (Fisher); "more than half of the data
  sets" (on average): a majority, wins > half of (methods × criteria × data sets) (the
  binomial p against 1/2 is shown, not decisive). "The domination increases
  with the complexity of the criteria": our win totals ACC < AUC < CR (holds), only ACC < CR
  (partly), else does not hold. "Mean below 0": per data set a one-sample t-test of the folds
  against 0 (≤ 5 data sets: holds when significant below on every data set, partly when more
  below than above, does not hold otherwise; on the paper's numbers: its mean below 0). "The
  aggregations are consistent", per criterion: the best mean, the best average rank and the
  reference's W/L (more wins than losses against every other) name the same method, and the
  Spearman ρ of the means with the average ranks (7 methods) and with the reference's net wins
  (6 methods) are both > 0: holds when both, partly when one (ρ's p is shown, not decisive:
  the paper's own Table 3 has ρ(mean, W−L) = 0.35, p = 0.5, on AUC).
- **Time** (decided on our implementation's times, not the paper's Khiops: the evidence says
  so). Overhead of A over B: per data set r_d = mean fit (or predict) time of A / that of B;
  "negligible" holds when the upper 95% t-bound of the geometric mean of r_d is ≤ 1.1, partly when
  the geometric mean is ≤ 1.1, does not hold otherwise. Complexity O(KN log KN): slope b of
  log(time) on log(KN log KN) over the timing grid (one intercept per code revision); holds
  unless the 95% CI of b lies above 1.
- **The challenge units** (one stand-in × one construction, one stratified split): a difference
  of test BER is significant when |d| > 1.96 √(σ_a² + σ_b²), σ the record's standard error of the
  BER. "Constructed features improve": per stand-in, the paper's constructions' best BER against
  the original's (holds when significantly lower on every stand-in, partly when on more than are
  worse); "never decreases": holds when no unit is significantly worse than the original, does
  not hold otherwise; the guess "agrees" when |guess − test BER| ≤ 1.96 σ on every unit (partly
  on a majority); "not prone to overfitting": the test BER is not significantly above the train
  BER (1.96 σ) on any unit (partly on a minority).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pandas as pd
from scipy import stats

from repro.report.claims import evidence, published
from repro.report.claims.engine import Evidence, Verdict
from repro.report.papers.boulle2007.claims_terms import (
    LOWER,
    MIRROR,
    OUR_TIMES,
    SHORT,
    WAVEFORM,  # noqa: F401  (the waveform study's experiment, used by callers)
    Z,
    expand,
    grade,
    name,
)  # fmt: skip

# the waveform study's rules, named in claims.yaml as rules of this module
from repro.report.papers.boulle2007.claims_waveform import (  # noqa: F401
    always_selected,
    first_selected,
    irrelevant_variables,
    posterior_numbers,
    same_number,
    selected,
    selection,
    soft_vs_map,
    split_best,
    split_best_verdict,
    split_compare,
    split_folds,
    split_none_best,
    split_outcome,
    split_se,
    split_values,
    summary_value,
    weight_peak,
    weight_values,
    weights,
    weights_around,
)
from repro.stats import agreement
from repro.stats.tests import average_ranks, metric_table


def all_of(ev: Evidence, parts) -> Verdict:
    """Conjunction of rules of this module: ``parts`` = [{rule: name, params: {...}}, ...]."""
    results = [globals()[p["rule"]](ev, **(p.get("params") or {})) for p in parts]
    return Verdict(
        evidence.conjunction(r.verdict for r in results),
        " | ".join(f"{r.verdict}: {r.evidence}" for r in results),
    )


# --- cross-validated tables (Tables 3, 4) ----------------------------------------------------
@functools.lru_cache(maxsize=4096)
def compared(ev: Evidence, experiment: str, a: str, b: str, metric: str) -> evidence.Comparison:
    """``evidence.compare`` of the records of ``experiment`` (memoised: claims share them).
    The paper's own numbers (one mean per cell) have no folds to compare: refused."""
    records = no_published(ev.records(experiment), f"{a} vs {b} on {metric}: the paired tests")
    return evidence.compare(records, a, b, metric, metric not in LOWER)


def no_published(records: pd.DataFrame, what: str) -> pd.DataFrame:
    """``records``, unless they are the paper's published numbers, which ``what`` needs more
    than (the folds, the times): then a ValueError."""
    if published.is_published(records):
        raise ValueError(f"{what} need the folds, which the paper's published table does not give")
    return records


def cv_text(kind: str, c: evidence.Comparison) -> str:
    """One comparison in short: "SNB(CMA) > NB ACC 0.8397 vs 0.8277, W/L 11/0, p 0.0003"."""
    sym = {"better": ">", "not_better": "≯", "not_worse": "≥", "same": "≈", "equivalent": "≡"}
    p = "" if np.isnan(c.p_wilcoxon) else f", p {c.p_wilcoxon:.2g}"
    return (
        f"{name(c.a)} {sym[kind]} {name(c.b)} {SHORT.get(c.metric, c.metric)} {c.mean_a:.4f} vs "
        f"{c.mean_b:.4f}, W/L {c.wins}/{c.losses}{p}"
    )


def cv_verdict(ev, experiment, kind, a, b, metric, margin=None) -> tuple[str, str]:
    """One comparison by the shared rules; ``kind`` better | not_worse | not_better | same |
    equivalent (``evidence.equivalence`` of the per-data-set differences a − b within ±
    ``margin``)."""
    c = compared(ev, experiment, a, b, metric)
    if kind == "better":
        v = evidence.better_verdict(c)
    elif kind == "not_better":
        v = MIRROR[evidence.better_verdict(c)]
    elif kind == "not_worse":
        v = evidence.not_worse_verdict(c)
    elif kind == "same":
        v = evidence.similar_verdict(c)
    elif kind == "equivalent":
        if margin is None:
            raise ValueError(f"an equivalence of {metric!r} needs its margin (params: margins)")
        t = evidence.paired_means(ev.records(experiment), a, b, metric)
        v, text = evidence.equivalence((t[a] - t[b]).to_numpy(), float(margin))
        return v, f"{cv_text(kind, c)}; {text}"
    else:
        raise ValueError(f"unknown kind of comparison {kind!r}")
    return v, cv_text(kind, c)


def comparisons(ev: Evidence, experiment: str, parts, margins=None) -> Verdict:
    """Conjunction of comparisons ``[kind, a, b, metric]`` (:func:`expand`) by the shared rules;
    ``margins``: criterion → the equivalence margin of the "equivalent" parts."""
    margins = margins or {}
    rows = expand(parts)
    results = [cv_verdict(ev, experiment, *p, margin=margins.get(p[3])) for p in rows]
    n = compared(ev, experiment, *rows[0][1:]).n_datasets
    texts = [t + (f" ({v})" if len(results) > 1 else "") for v, t in results]
    return Verdict(
        evidence.conjunction(v for v, _ in results), f"over {n} data sets: " + "; ".join(texts)
    )


def emphasis(
    ev: Evidence, experiment: str, a: str, b: str, metric_a: str, metric_b: str
) -> Verdict:
    """ "With an emphasis on their respective optimised criterion": per data set, a's lead over
    b on ``metric_a`` (a's criterion) exceeds its lead on ``metric_b`` (b's criterion):
    e_d = (a − b)[metric_a] − (a − b)[metric_b] > 0. Over ≥ 6 data sets: holds when the mean of
    e_d is > 0 and the two-sided Wilcoxon test of e_d is significant, partly when the mean is
    > 0 only, does not hold otherwise; over fewer data sets (or the paper's means, one "data
    set"): holds when every e_d > 0, does not hold otherwise."""
    records = ev.records(experiment)
    if published.is_published(records):
        records = records[records["dataset"] == "mean"]
    ta = evidence.paired_means(records, a, b, metric_a)
    tb = evidence.paired_means(records, a, b, metric_b)
    idx = ta.index.intersection(tb.index)
    e = (ta.loc[idx, a] - ta.loc[idx, b]) - (tb.loc[idx, a] - tb.loc[idx, b])
    mean = float(e.mean())
    if len(e) >= evidence.MIN_WILCOXON:
        p = 1.0 if not np.any(e) else float(stats.wilcoxon(e).pvalue)
        verdict = grade(mean > 0 and p < evidence.ALPHA, mean > 0)
        tail = f", Wilcoxon p = {p:.3g}"
    else:
        verdict = "holds" if bool((e > 0).all()) else "does not hold"
        tail = f", > 0 on {int((e > 0).sum())} of {len(e)}"
    return Verdict(
        verdict,
        f"emphasis: {name(a)} − {name(b)} on {SHORT.get(metric_a, metric_a)} minus on "
        f"{SHORT.get(metric_b, metric_b)}: mean {mean:+.4f} over {len(e)} data set(s){tail}",
    )


def best_each(ev: Evidence, experiment: str, a: str, others, metrics) -> Verdict:
    """ "A is the best on every criterion": ``evidence.best`` per criterion, conjunction."""
    records = ev.records(experiment)
    parts = [evidence.best(records, a, list(others), m, m not in LOWER) for m in metrics]
    text = "; ".join(f"{SHORT.get(m, m)}: {p.verdict} ({best_text(ev, experiment, a, others, m)})"
                     for m, p in zip(metrics, parts))  # fmt: skip
    return Verdict(evidence.conjunction(p.verdict for p in parts), text)


def best_text(ev: Evidence, experiment: str, a: str, others, metric: str) -> str:
    """W/L of ``a`` against each of ``others`` and the best mean (short evidence)."""
    cs = [compared(ev, experiment, a, b, metric) for b in others]
    means = {c.b: c.mean_b for c in cs} | {a: cs[0].mean_a}
    top = (min if metric in LOWER else max)(means, key=means.get)
    wl = ", ".join(f"{name(c.b)} {c.wins}/{c.losses}" for c in cs)
    return f"best mean {name(top)}; W/L {wl}"


def best_on_every_dataset(
    ev: Evidence, experiment: str, a: str, others, always, almost=()
) -> Verdict:
    """ "A always gets the best results on ``always``, almost always on ``almost``", read as
    "no significant counter-case": a counter-case is a data set where some other method is
    significantly better than A (paired t over the folds). "Always": on no data set; "almost
    always": on fewer than half of them (A the best on most, as "almost always" elsewhere).
    Holds when so, does not hold otherwise (the conjunction over the criteria); the evidence
    also counts the data sets where A has the best mean."""
    records = no_published(ev.records(experiment), "the per-data-set paired tests")
    datasets = sorted(records.loc[records["method"] == a, "dataset"].unique())
    verdicts, texts = [], []
    for metric in list(always) + list(almost):
        higher = metric not in LOWER
        counter, top = [], 0
        for d in datasets:
            cs = [evidence.compare(records, a, b, metric, higher, [d]) for b in others]
            if any(c.losses for c in cs):
                counter.append(d)
            means = {c.b: c.mean_b for c in cs} | {a: cs[0].mean_a}
            top += (max if higher else min)(means, key=means.get) == a
        ok = not counter if metric in always else len(counter) < len(datasets) / 2
        verdicts.append("holds" if ok else "does not hold")
        word = "always" if metric in always else "almost always"
        texts.append(
            f"{SHORT.get(metric, metric)} ({word}): another method significantly better on "
            f"{len(counter)} of {len(datasets)}{' (' + ', '.join(counter) + ')' if counter else ''}"
            f"; best mean on {top}"
        )
    return Verdict(evidence.conjunction(verdicts), "; ".join(texts))


def win_totals(ev, experiment, a, others, metrics) -> dict[str, tuple[int, int, int]]:
    """Per criterion: significant wins, losses of ``a`` over ``others`` and the data sets. On the
    paper's own numbers (:mod:`repro.report.claims.published`) the printed W/L columns, summed
    over the tables given (the data sets: the ``n_datasets`` rows, else NaN)."""
    records = ev.records(experiment)
    if published.is_published(records):
        out = {}
        for m in metrics:
            rows = records[records["metric"] == m]
            wins = rows[(rows["dataset"] == "wins") & rows["method"].isin(list(others))]
            losses = rows[(rows["dataset"] == "losses") & rows["method"].isin(list(others))]
            n = records.loc[records["metric"] == "n_datasets", ["table", "value"]]
            n = int(n.drop_duplicates("table")["value"].sum()) if len(n) else 0
            out[m] = (int(wins["value"].sum()), int(losses["value"].sum()), n)
        return out
    out = {}
    for m in metrics:
        cs = [compared(ev, experiment, a, b, m) for b in others]
        out[m] = (sum(c.wins for c in cs), sum(c.losses for c in cs), cs[0].n_datasets)
    return out


def wins_vs_paper(
    ev: Evidence, experiment: str, a: str, others, metrics, published_wins: int,
    published_losses: int,
) -> Verdict:  # fmt: skip
    """ "Wins about 10 times the losses, and (on average) more than half of the data sets"
    (module docstring): Fisher on the share of wins among significant outcomes against the
    published share; the mean number of wins per (method × criterion) above half the data sets
    (a majority: wins > n/2 over all comparisons; the binomial p is shown, not decisive)."""
    totals = win_totals(ev, experiment, a, others, metrics)
    wins = sum(t[0] for t in totals.values())
    losses = sum(t[1] for t in totals.values())
    n = sum(len(others) * t[2] for t in totals.values())
    share = agreement.win_count(
        published_wins, published_wins + published_losses, wins, wins + losses
    )
    first = "holds" if share.agrees else "does not hold"
    if n == 0:
        raise ValueError("the number of data sets is not known (published: n_datasets rows)")
    p = float(stats.binomtest(wins, n, 0.5).pvalue)
    second = "holds" if wins > n / 2 else "does not hold"
    ratio = wins / losses if losses else float("inf")
    per = wins / (len(others) * len(metrics))
    n_sets = n // (len(others) * len(metrics))
    return Verdict(
        evidence.conjunction([first, second]),
        f"{first}: wins/losses {wins}/{losses} = {ratio:.1f} (paper {published_wins}/"
        f"{published_losses}: {share.detail}); {second}: on average {per:.1f} wins per method "
        f"and criterion of {n_sets} data sets ({wins} of {n} comparisons = {wins / n:.3f}, "
        f"majority > 0.5; binomial vs 1/2 p = {p:.3g}, not decisive)",
    )


def wins_increase(ev: Evidence, experiment: str, a: str, others, metrics) -> Verdict:
    """ "The domination increases with the complexity of the criteria": win totals increase."""
    totals = win_totals(ev, experiment, a, others, metrics)
    w = [totals[m][0] for m in metrics]
    verdict = grade(all(x < y for x, y in itertools.pairwise(w)), w[0] < w[-1])
    text = ", ".join(f"{SHORT.get(m, m)} {totals[m][0]}/{totals[m][1]}" for m in metrics)
    return Verdict(verdict, f"{name(a)} W/L over {len(others)} methods: {text}")


def negative_mean(ev: Evidence, experiment: str, methods, metric: str) -> Verdict:
    """ "The mean of ``metric`` is below 0" for each of ``methods``: one-sample t over folds."""
    records = ev.records(experiment)
    if published.is_published(records):  # the paper's mean over the data sets
        means = published.summary(records, "mean", metric)
        verdicts = ["holds" if means[m] < 0 else "does not hold" for m in methods]
        text = "; ".join(f"{name(m)} published mean {means[m]:.3f}" for m in methods)
        return Verdict(evidence.conjunction(verdicts), text + " (the paper's means: no folds)")
    test = records[(records["split"] == "test") & (records["metric"] == metric)]
    verdicts, texts = [], []
    for m in methods:
        below = above = 0
        means = []
        for _, g in test[test["method"] == m].groupby("dataset"):
            res = stats.ttest_1samp(g["value"].to_numpy(), 0.0)
            means.append(float(g["value"].mean()))
            if res.pvalue < evidence.ALPHA:
                below += means[-1] < 0
                above += means[-1] > 0
        verdicts.append(grade(below == len(means), np.mean(means) < 0 and below > above))
        texts.append(
            f"{name(m)} mean {np.mean(means):.3f}, significantly below 0 on {below} of "
            f"{len(means)} data sets"
        )
    return Verdict(evidence.conjunction(verdicts), "; ".join(texts))


def aggregate_table(ev: Evidence, experiment: str, reference: str, metric: str):
    """(means, average ranks, reference's net wins W − L against each other method) of
    ``metric``: computed from the folds, or the paper's printed columns."""
    records = ev.records(experiment)
    if published.is_published(records):
        means = published.summary(records, "mean", metric)
        ranks = published.summary(records, "rank", metric)
        net = published.summary(records, "wins", metric) - published.summary(
            records, "losses", metric
        )
        return means, ranks, net.drop(reference, errors="ignore")
    table = metric_table(records[records["split"] == "test"], metric).dropna()
    means = table.mean()
    ranks = average_ranks(table, metric not in LOWER)
    others = [x for x in table.columns if x != reference]
    net = pd.Series(
        {b: (c := compared(ev, experiment, reference, b, metric)).wins - c.losses for b in others}
    )
    return means, ranks, net


def aggregates_consistent(ev: Evidence, experiment: str, reference: str, metrics) -> Verdict:
    """ "Mean, W/L and rank are consistent", per criterion: the three aggregations name the
    same best method (best mean = best average rank = ``reference`` with more wins than losses
    against every other method) and order the methods alike (Spearman ρ of the means with the
    average ranks, over all methods, and with the reference's net wins, over the others, both
    > 0). Holds when both, partly when one, does not hold otherwise; the conjunction over the
    criteria. (ρ's p-value is shown, not decisive: over 6–7 methods a real agreement is rarely
    significant — the paper's own Table 3 gives ρ(mean, W−L) 0.35 on AUC.)"""
    verdicts, texts = [], []
    for m in metrics:
        means, ranks, net = aggregate_table(ev, experiment, reference, m)
        sign = -1 if m in LOWER else 1
        top_mean = (sign * means).idxmax()
        top_rank = ranks.idxmin()
        same_best = top_mean == top_rank == reference and bool((net > 0).all())
        others = list(net.index)
        r1 = stats.spearmanr(sign * means[ranks.index], -ranks)
        r2 = stats.spearmanr(sign * means[others], -net[others])
        alike = r1.statistic > 0 and r2.statistic > 0
        verdicts.append(grade(same_best and alike, same_best or alike))
        texts.append(
            f"{SHORT.get(m, m)}: best mean {name(top_mean)}, best rank {name(top_rank)}, "
            f"{name(reference)} net wins > 0 against {int((net > 0).sum())} of {len(net)}; "
            f"ρ(mean, rank) {r1.statistic:.2f} (p {r1.pvalue:.2g}), ρ(mean, W−L) "
            f"{r2.statistic:.2f} (p {r2.pvalue:.2g})"
        )
    return Verdict(evidence.conjunction(verdicts), "; ".join(texts))


def time_overhead(
    ev: Evidence, experiment: str, a: str, b: str, metric: str = "fit_time", bound: float = 1.1
) -> Verdict:
    """ "A's overhead over B is negligible": geometric mean of per-data-set time ratios."""
    records = no_published(ev.records(experiment), "the measured times")
    times = records[(records["split"] == "model") & (records["metric"] == metric)]
    table = times.groupby(["dataset", "method"])["value"].mean().unstack("method")
    logs = np.log(table[a] / table[b]).dropna()
    gm = float(np.exp(logs.mean()))
    upper = float(np.exp(logs.mean() + stats.t.ppf(0.975, logs.size - 1) * logs.sem()))
    verdict = grade(upper <= bound, gm <= bound)
    revs = times.groupby(["dataset", "method"])["git_revision"].first().unstack("method")
    mixed = int((revs[a] != revs[b]).sum())
    return Verdict(
        verdict,
        f"{metric} {name(a)}/{name(b)} over {logs.size} data sets: geometric mean {gm:.2f} "
        f"(95% upper {upper:.2f}), median {float(np.exp(logs.median())):.2f}; bound {bound:g}; "
        f"code revisions differ on {mixed} data sets; {OUR_TIMES}",
    )


def train_comparisons(ev: Evidence, experiment: str, parts) -> Verdict:
    """:func:`comparisons` on the training folds (the fit of the data) instead of the test
    folds."""
    records = ev.records(experiment)
    train = records[records["split"] == "train"].assign(split="test")
    v = comparisons(Evidence(ev.results_dir, cache={experiment: train}), experiment, parts)
    return Verdict(v.verdict, "train folds, " + v.evidence)


# --- the challenge (one split per unit) ------------------------------------------------------
def units(ev: Evidence, experiment: str, metric: str) -> pd.DataFrame:
    """Stand-in × construction table of the test ``metric``, its SE, the train value, the guess."""
    records = ev.records(experiment)
    records = records[records["study"].isna()]
    suffix = metric.removeprefix("balanced_error_rate")
    keys = {
        "test": ("test", metric), "se": ("test", "ber_error_bar" + suffix),
        "train": ("train", metric), "guess": ("test", "ber_guess" + suffix),
    }  # fmt: skip
    cols = {}
    for k, (split, m) in keys.items():
        sub = records[(records["split"] == split) & (records["metric"] == m)]
        cols[k] = sub.set_index(["dataset", "construction"])["value"]
    return pd.DataFrame(cols)


def ber_outcome(t: pd.DataFrame, dataset: str, a: str, b: str) -> int:
    """+1 when construction a's BER is significantly below b's on ``dataset``, −1 above, 0."""
    x, y = t.loc[(dataset, a)], t.loc[(dataset, b)]
    if abs(x["test"] - y["test"]) <= Z * math.hypot(x["se"], y["se"]):
        return 0
    return 1 if x["test"] < y["test"] else -1


def construction_improves(ev: Evidence, experiment: str, constructions, metric: str) -> Verdict:
    """Per stand-in, the best of ``constructions`` against ``original`` (module docstring)."""
    t = units(ev, experiment, metric)
    wins = losses = 0
    texts = []
    datasets = sorted(t.index.get_level_values(0).unique())
    for d in datasets:
        best = min(constructions, key=lambda c: t.loc[(d, c), "test"])
        o = ber_outcome(t, d, best, "original")
        wins, losses = wins + (o > 0), losses + (o < 0)
        texts.append(
            f"{d}: original {t.loc[(d, 'original'), 'test']:.4f}, {best} "
            f"{t.loc[(d, best), 'test']:.4f} ({'win' if o > 0 else 'loss' if o else 'tie'})"
        )
    verdict = "holds" if wins == len(datasets) else "partly" if wins > losses else "does not hold"
    return Verdict(verdict, f"{metric}: " + "; ".join(texts))


def never_worse_constructed(ev: Evidence, experiment: str, constructions, metric: str) -> Verdict:
    """No unit of ``constructions`` has a BER significantly above the original's."""
    t = units(ev, experiment, metric)
    outcomes = {}
    for d in sorted(t.index.get_level_values(0).unique()):
        for c in constructions:
            outcomes[f"{d} {c}"] = ber_outcome(t, d, c, "original")
    worse = [k for k, o in outcomes.items() if o < 0]
    better = [k for k, o in outcomes.items() if o > 0]
    n = len(outcomes)
    verdict = "holds" if not worse else "does not hold"  # "never": no significant counter-case
    return Verdict(
        verdict,
        f"{metric} vs original over {n} units: significantly lower {len(better)}, higher "
        f"{len(worse)}{' (' + ', '.join(worse) + ')' if worse else ''}",
    )


def guess_agrees(ev: Evidence, experiment: str, constructions, metric: str) -> Verdict:
    """The CV guess is within 1.96 σ of the test BER on every unit (partly: a majority)."""
    t = units(ev, experiment, metric)
    t = t[t.index.get_level_values(1).isin(constructions)]
    err = (t["guess"] - t["test"]).abs()
    ok = err <= Z * t["se"]
    verdict = "holds" if ok.all() else "partly" if ok.mean() > 0.5 else "does not hold"
    return Verdict(
        verdict,
        f"|guess − test {metric}| within 1.96σ on {int(ok.sum())} of {ok.size} units; errors "
        f"{err.min():.4f}–{err.max():.4f}, σ {t['se'].min():.4f}–"
        f"{t['se'].max():.4f}",
    )


def train_test_gap(ev: Evidence, experiment: str, constructions, metric: str) -> Verdict:
    """The test BER is not significantly (1.96 σ) above the train BER on any unit."""
    t = units(ev, experiment, metric)
    t = t[t.index.get_level_values(1).isin(constructions)]
    gap = t["test"] - t["train"]
    over = gap > Z * t["se"]
    verdict = "holds" if not over.any() else "partly" if over.mean() < 0.5 else "does not hold"
    worst = gap.idxmax()
    return Verdict(
        verdict,
        f"test − train {metric} significant on {int(over.sum())} of {over.size} units; largest "
        f"{gap.max():.4f} ({' '.join(worst)}, σ {t.loc[worst, 'se']:.4f})",
    )


def time_slope(ev: Evidence, experiment: str, metric: str = "search_time") -> Verdict:
    """Slope of log(time) on log(KN log KN) over the timing grid, one intercept per revision."""
    records = ev.records(experiment)
    g = records[(records["study"] == "timing") & (records["metric"] == metric)]
    kn = (g["n_features"] * g["n_train"]).to_numpy(dtype=float)
    x = np.log(kn * np.log(kn))
    revs = pd.get_dummies(g["git_revision"]).to_numpy(dtype=float)
    design = np.column_stack([x, revs])
    y = np.log(g["value"].to_numpy(dtype=float))
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    dof = len(y) - design.shape[1]
    resid = y - design @ coef
    cov = (resid @ resid / dof) * np.linalg.inv(design.T @ design)
    se = float(np.sqrt(cov[0, 0]))
    low, high = coef[0] - stats.t.ppf(0.975, dof) * se, coef[0] + stats.t.ppf(0.975, dof) * se
    return Verdict(
        "does not hold" if low > 1 else "holds",
        f"{metric} ∝ (KN log KN)^b over {len(y)} fits (N {int(g['n_train'].min())}–"
        f"{int(g['n_train'].max())}, K {int(g['n_features'].min())}–{int(g['n_features'].max())}, "
        f"{revs.shape[1]} revisions): b = {coef[0]:.2f}, 95% CI [{low:.2f}, {high:.2f}]; "
        f"{OUR_TIMES}",
    )
