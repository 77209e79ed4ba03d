"""Boullé (2007), Compression-based averaging of selective naive Bayes classifiers (JMLR 8): the
claims of §5.3, §6 (the waveform study), §7.2 (Tables 3 and 4), §8 (the challenge), the abstract
and §9, decided from the records of ``boulle2007_waveform`` (one 70/30 split of a 5000-row sample
of Breiman's generator), ``boulle2007_table3`` (25 of the 30 UCI sets, 10-fold CV),
``boulle2007_table4`` and ``boulle2007_challenge`` (generated stand-ins for the challenge sets).

Comparisons over cross-validated data sets (Tables 3, 4) use the shared rules of
:mod:`repro.report.claims.evidence` (``better``, ``not_worse``, ``best``). "A does not
(significantly) outperform B" is the mirror of ``better``: holds when ``better`` does not hold,
partly when it is partly, does not hold when it holds; "A is the same as B":
``evidence.similar_verdict``. "Always the best" (per data set): ``evidence.best``
on each data set alone, on every one ("almost always": all but ⌊N/10⌋). A claim of several parts
(methods, criteria, data sets) is their ``evidence.conjunction``. Rules this module adds:

- **One split** (the waveform study): no folds, so a difference d of a criterion between two
  methods on the test split (n instances) is significant when |d| > t_{0.975, k−1} · SE, with
  SE = SD_k(d) · √(m/n), SD_k(d) the standard deviation of the same paired difference over the
  k = 10 folds of ``boulle2007_table3`` on ``waveform`` (same generator and methods, m = 500 test
  instances per fold). "A better than B" holds when significant in A's favour, else does not
  hold; "not better", "not worse": its mirrors; "the same": no significant difference; "A
  dominates / is the best" on a criterion: holds when significant against every other, partly
  when A has the best value without that, does not hold otherwise (``evidence.best`` on one
  split); "none is the best on all criteria": its mirror.
- **Numbers of the paper's waveform sample** (counts and sets of selected variables, ranks of
  the top models): holds when ours equals the published one; "around/about X": holds when ours,
  rounded at X's last significant digit, equals X (around 10 → nearest ten; 0.5 → one decimal;
  10^1033 → the exponent to the unit). A statement of several such numbers: holds when all
  agree, partly when some do (weights "around 0.5": when most do). A soft selection (BMA, CMA
  weights) "is almost the MAP selection" when rounding every weight to 0 or 1 gives the MAP
  subset; "a group emphasised around V11 between groups around V5 and V17": the largest weight at
  V11 (else does not hold) and V5, V17 above the lowest weight between them and V11 (else partly).
  Our sample is not the paper's: these are exact tests of another sample's statistics.
- **Counts of significant wins** (§7.2): the share of wins among significant outcomes against the
  published one, :func:`repro.stats.agreement.win_count` (Fisher); "more than half of the data
  sets": wins over (methods × criteria × data sets), binomial test against 1/2 (holds when
  significantly above, partly when above, does not hold otherwise). "The domination increases
  with the complexity of the criteria": our win totals ACC < AUC < CR (holds), only ACC < CR
  (partly), else does not hold. "Mean below 0": per data set a one-sample t-test of the folds
  against 0 (≤ 5 data sets: holds when significant below on every data set, partly when more
  below than above, does not hold otherwise). "The aggregations agree": Spearman ρ of the means
  against the average ranks (7 methods) and against the reference's net wins (6 methods), per
  criterion: holds when every ρ is significantly positive (α = 0.05), partly when all are > 0.
- **Time.** Overhead of A over B: per data set r_d = mean fit (or predict) time of A / that of B;
  "negligible" holds when the upper 95% t-bound of the geometric mean of r_d is ≤ 1.1, partly when
  the geometric mean is ≤ 1.1, does not hold otherwise. Complexity O(KN log KN): slope b of
  log(time) on log(KN log KN) over the timing grid (one intercept per code revision); holds
  unless the 95% CI of b lies above 1.
- **The challenge units** (one stand-in × one construction, one stratified split): a difference
  of test BER is significant when |d| > 1.96 √(σ_a² + σ_b²), σ the record's standard error of the
  BER. "Constructed features improve": per stand-in, the paper's constructions' best BER against
  the original's (holds when significantly lower on every stand-in, partly when on more than are
  worse); "never decreases": holds when no unit is significantly worse than the original, partly
  when a minority is; the guess "agrees" when |guess − test BER| ≤ 1.96 σ on every unit (partly
  on a majority); "not prone to overfitting": the test BER is not significantly above the train
  BER (1.96 σ) on any unit (partly on a minority).
"""

from __future__ import annotations

import functools
import itertools
import math
from decimal import Decimal

import numpy as np
import pandas as pd
from scipy import stats

from repro.report.claims import evidence
from repro.report.claims.engine import Evidence, Verdict
from repro.stats import agreement
from repro.stats.tests import average_ranks, metric_table

ORDER = ("holds", "partly", "does not hold")
MIRROR = {"holds": "does not hold", "partly": "partly", "does not hold": "holds"}
#: criteria where lower is better
LOWER = {"ilf", "error", "balanced_error_rate", "balanced_error_rate_threshold", "fit_time"}
NAMES = {
    "snb_cma": "SNB(CMA)", "snb_bma": "SNB(BMA)", "snb_map": "SNB(MAP)", "snb_auc": "SNB(AUC)",
    "snb_acc": "SNB(ACC)", "nb": "NB", "nb_ef": "NB(EF)",
}  # fmt: skip
SHORT = {"accuracy": "ACC", "auc": "AUC", "compression_rate": "CR", "ilf": "ILF"}
WAVEFORM = "boulle2007_waveform"
NOISE = ("boulle2007_table3", "waveform")  # the folds that give the one-split noise
Z = float(stats.norm.ppf(1 - evidence.ALPHA / 2))


def name(method: str) -> str:
    return NAMES.get(method, method)


def grade(holds: bool, partly: bool) -> str:
    """ "holds" when ``holds``, else "partly" when ``partly``, else "does not hold"."""
    return "holds" if holds else "partly" if partly else "does not hold"


def as_list(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def expand(parts) -> list[tuple]:
    """``[kind, a, b, metric]`` rows, each of a, b, metric a name or a list (all combinations)."""
    out = []
    for kind, a, b, metric in parts:
        for x, y, m in itertools.product(as_list(a), as_list(b), as_list(metric)):
            out.append((kind, x, y, m))
    return out


def all_of(ev: Evidence, parts) -> Verdict:
    """Conjunction of rules of this module: ``parts`` = [{rule: name, params: {...}}, ...]."""
    results = [globals()[p["rule"]](ev, **(p.get("params") or {})) for p in parts]
    return Verdict(
        evidence.conjunction(r.verdict for r in results), "; ".join(r.evidence for r in results)
    )


# --- cross-validated tables (Tables 3, 4) ----------------------------------------------------
@functools.lru_cache(maxsize=4096)
def compared(ev: Evidence, experiment: str, a: str, b: str, metric: str) -> evidence.Comparison:
    """``evidence.compare`` of the records of ``experiment`` (memoised: claims share them)."""
    return evidence.compare(ev.records(experiment), a, b, metric, metric not in LOWER)


def cv_text(kind: str, c: evidence.Comparison) -> str:
    """One comparison in short: "SNB(CMA) > NB ACC 0.8397 vs 0.8277, W/L 11/0, p 0.0003"."""
    sym = {"better": ">", "not_better": "≯", "not_worse": "≥", "same": "≈"}[kind]
    p = "" if np.isnan(c.p_wilcoxon) else f", p {c.p_wilcoxon:.2g}"
    return (
        f"{name(c.a)} {sym} {name(c.b)} {SHORT.get(c.metric, c.metric)} {c.mean_a:.4f} vs "
        f"{c.mean_b:.4f}, W/L {c.wins}/{c.losses}{p}"
    )


def cv_verdict(ev, experiment, kind, a, b, metric) -> tuple[str, str]:
    """One comparison by the shared rules; ``kind`` better | not_worse | not_better | same."""
    c = compared(ev, experiment, a, b, metric)
    if kind == "better":
        v = evidence.better_verdict(c)
    elif kind == "not_better":
        v = MIRROR[evidence.better_verdict(c)]
    elif kind == "not_worse":
        v = evidence.not_worse_verdict(c)
    elif kind == "same":
        v = evidence.similar_verdict(c)
    else:
        raise ValueError(f"unknown kind of comparison {kind!r}")
    return v, cv_text(kind, c)


def comparisons(ev: Evidence, experiment: str, parts) -> Verdict:
    """Conjunction of comparisons ``[kind, a, b, metric]`` (:func:`expand`) by the shared rules."""
    results = [cv_verdict(ev, experiment, *p) for p in expand(parts)]
    n = compared(ev, experiment, *expand(parts)[0][1:]).n_datasets
    texts = [t + (f" ({v})" if len(results) > 1 else "") for v, t in results]
    return Verdict(
        evidence.conjunction(v for v, _ in results), f"over {n} data sets: " + "; ".join(texts)
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
    """ "A always gets the best results on ``always``, almost always on ``almost``":
    ``evidence.best`` on each data set alone; "always" = on every data set, "almost always" =
    on all but ⌊N/10⌋ of them (conjunction over criteria)."""
    records = ev.records(experiment)
    datasets = sorted(records.loc[records["method"] == a, "dataset"].unique())
    verdicts, texts = [], []
    for metric in list(always) + list(almost):
        per = {d: evidence.best(records, a, list(others), metric, metric not in LOWER, [d])
               for d in datasets}  # fmt: skip
        counts = {v: sum(p.verdict == v for p in per.values()) for v in ORDER}
        misses = 0 if metric in always else len(datasets) // 10
        verdicts.append(
            grade(counts["holds"] >= len(datasets) - misses, counts["does not hold"] <= misses)
        )
        texts.append(
            f"{SHORT.get(metric, metric)}: best (significant) on {counts['holds']}, best mean "
            f"only on {counts['partly']}, not best on {counts['does not hold']} of {len(datasets)}"
        )
    return Verdict(evidence.conjunction(verdicts), "; ".join(texts))


def win_totals(ev, experiment, a, others, metrics) -> dict[str, tuple[int, int, int]]:
    """Per criterion: significant wins, losses of ``a`` over ``others`` and the data sets."""
    out = {}
    for m in metrics:
        cs = [compared(ev, experiment, a, b, m) for b in others]
        out[m] = (sum(c.wins for c in cs), sum(c.losses for c in cs), cs[0].n_datasets)
    return out


def wins_vs_paper(
    ev: Evidence, experiment: str, a: str, others, metrics, published_wins: int,
    published_losses: int,
) -> Verdict:  # fmt: skip
    """ "Wins about 10 times the losses, and more than half of the data sets" (module
    docstring): Fisher on the share of wins among significant outcomes; binomial test of the
    wins over all comparisons against 1/2."""
    totals = win_totals(ev, experiment, a, others, metrics)
    wins = sum(t[0] for t in totals.values())
    losses = sum(t[1] for t in totals.values())
    n = sum(len(others) * t[2] for t in totals.values())
    share = agreement.win_count(
        published_wins, published_wins + published_losses, wins, wins + losses
    )
    first = "holds" if share.agrees else "does not hold"
    p = float(stats.binomtest(wins, n, 0.5).pvalue)
    second = ("holds" if p < evidence.ALPHA else "partly") if wins > n / 2 else "does not hold"
    return Verdict(
        evidence.conjunction([first, second]),
        f"wins/losses {wins}/{losses} (paper {published_wins}/{published_losses}: "
        f"{share.detail}); wins {wins} of {n} comparisons = {wins / n:.3f} of the data sets "
        f"(binomial vs 1/2: p = {p:.3g})",
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


def aggregates_consistent(ev: Evidence, experiment: str, reference: str, metrics) -> Verdict:
    """ "Mean, W/L and rank are consistent": Spearman ρ per criterion (module docstring)."""
    records = ev.records(experiment)
    verdicts, texts = [], []
    for m in metrics:
        table = metric_table(records[records["split"] == "test"], m).dropna()
        means = table.mean()
        ranks = average_ranks(table, m not in LOWER)
        others = [x for x in table.columns if x != reference]
        net = pd.Series(
            {b: (c := compared(ev, experiment, reference, b, m)).wins - c.losses for b in others}
        )
        sign = -1 if m in LOWER else 1
        r1 = stats.spearmanr(sign * means, -ranks)
        r2 = stats.spearmanr(sign * means[others], -net)
        rhos = [(r1.statistic, r1.pvalue), (r2.statistic, r2.pvalue)]
        verdicts.append(
            grade(all(r > 0 and p < evidence.ALPHA for r, p in rhos), all(r > 0 for r, _ in rhos))
        )
        texts.append(
            f"{SHORT.get(m, m)}: ρ(mean, rank) {r1.statistic:.2f} (p {r1.pvalue:.2g}), "
            f"ρ(mean, W−L) {r2.statistic:.2f} (p {r2.pvalue:.2g})"
        )
    return Verdict(evidence.conjunction(verdicts), "; ".join(texts))


def time_overhead(
    ev: Evidence, experiment: str, a: str, b: str, metric: str = "fit_time", bound: float = 1.1
) -> Verdict:
    """ "A's overhead over B is negligible": geometric mean of per-data-set time ratios."""
    records = ev.records(experiment)
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
        f"code revisions differ on {mixed} data sets",
    )


# --- one split (the waveform study) ----------------------------------------------------------
def split_values(ev: Evidence, experiment: str) -> pd.DataFrame:
    """Methods × criteria table of the test split, with the split's size in ``n_test``."""
    records = ev.records(experiment)
    test = records[records["split"] == "test"]
    table = test.pivot_table(index="method", columns="metric", values="value")
    return table.assign(n_test=test.groupby("method")["n_test"].first())


def split_se(ev: Evidence, a: str, b: str, metric: str, n_test: float) -> tuple[float, float]:
    """(SE of the difference a − b on a split of ``n_test``, critical t) from the folds of
    :data:`NOISE` (module docstring)."""
    experiment, dataset = NOISE
    records = ev.records(experiment)
    sub = records[
        (records["split"] == "test") & (records["metric"] == metric)
        & (records["dataset"] == dataset) & records["method"].isin([a, b])
    ]  # fmt: skip
    wide = sub.pivot_table(index=["repetition", "fold"], columns="method", values="value")
    diff = (wide[a] - wide[b]).dropna()
    m = float(sub["n_test"].mean())
    crit = float(stats.t.ppf(1 - evidence.ALPHA / 2, diff.size - 1))
    return float(diff.std(ddof=1)) * math.sqrt(m / n_test), crit


def split_outcome(ev: Evidence, table, a: str, b: str, metric: str) -> tuple[int, str]:
    """+1 (a significantly better), −1 (worse) or 0 on the split, and the numbers."""
    va, vb = float(table.loc[a, metric]), float(table.loc[b, metric])
    se, crit = split_se(ev, a, b, metric, float(table.loc[a, "n_test"]))
    d = (vb - va) if metric in LOWER else (va - vb)
    sig = abs(va - vb) > crit * se
    text = f"{name(a)} {SHORT.get(metric, metric)} {va:.4f} vs {name(b)} {vb:.4f} (SE {se:.4f})"
    return (int(np.sign(d)) if sig else 0), text


def split_compare(ev: Evidence, experiment: str, parts) -> Verdict:
    """Conjunction of one-split comparisons ``[kind, a, b, metric]`` (better | not_worse |
    not_better | same)."""
    table = split_values(ev, experiment)
    verdicts, texts = [], []
    for kind, a, b, metric in expand(parts):
        outcome, text = split_outcome(ev, table, a, b, metric)
        better = "holds" if outcome > 0 else "does not hold"
        worse = "holds" if outcome < 0 else "does not hold"
        v = {
            "better": better,
            "not_better": MIRROR[better],
            "not_worse": MIRROR[worse],
            "same": "holds" if outcome == 0 else "does not hold",
        }[kind]
        verdicts.append(v)
        texts.append(f"{text}: {'win' if outcome > 0 else 'loss' if outcome else 'tie'} ({v})")
    return Verdict(evidence.conjunction(verdicts), "one split: " + "; ".join(texts))


def split_best_verdict(ev: Evidence, table, a: str, others, metric: str) -> tuple[str, str]:
    """``evidence.best`` on one split: significant against every other, else best value."""
    outcomes = [split_outcome(ev, table, a, b, metric)[0] for b in others]
    values = table.loc[[a, *others], metric]
    top = values.idxmin() if metric in LOWER else values.idxmax()
    v = grade(all(o > 0 for o in outcomes), top == a)
    wins = sum(o > 0 for o in outcomes)
    return v, f"{SHORT.get(metric, metric)} best {name(top)}, {name(a)} wins {wins}/{len(others)}"


def split_best(ev: Evidence, experiment: str, a: str, others, metrics) -> Verdict:
    """ "A dominates the others on every criterion" on one split (conjunction of criteria)."""
    table = split_values(ev, experiment)
    results = [split_best_verdict(ev, table, a, others, m) for m in metrics]
    return Verdict(evidence.conjunction(v for v, _ in results), "; ".join(t for _, t in results))


def split_none_best(ev: Evidence, experiment: str, methods, metrics) -> Verdict:
    """ "None of ``methods`` is the best on all ``metrics``": the mirror of :func:`split_best`
    for the method that comes closest."""
    table = split_values(ev, experiment)
    found = []
    for a in methods:
        others = [b for b in methods if b != a]
        found.append(
            evidence.conjunction(split_best_verdict(ev, table, a, others, m)[0] for m in metrics)
        )
    strongest = min(found, key=ORDER.index)
    values = table.loc[list(methods)]
    tops = ", ".join(
        f"{SHORT.get(m, m)} {name(values[m].idxmin() if m in LOWER else values[m].idxmax())}"
        for m in metrics
    )
    return Verdict(MIRROR[strongest], f"best value per criterion: {tops}")


# --- the waveform sample's numbers -----------------------------------------------------------
def weights(ev: Evidence, method: str, experiment=WAVEFORM, search="exhaustive") -> pd.Series:
    """Variable → weight of ``method`` (artefact ``weights``; ACC/AUC: the ``search`` run)."""
    records = ev.records(experiment)
    w = records[(records["artefact"] == "weights") & (records["method"] == method)]
    if w["search"].nunique() > 1:
        w = w[w["search"] == search]
    return w.sort_values("variable_index").set_index("variable")["value"]


def selected(ev: Evidence, method: str) -> list[str]:
    w = weights(ev, method)
    return list(w.index[w > 0])


def same_number(ours: float, published) -> bool:
    """Equal at the published number's last significant digit ("around 10" → tens)."""
    place = Decimal(str(published)).normalize().as_tuple().exponent
    return round(float(ours), -int(place)) == float(published)


def irrelevant_variables(ev: Evidence, experiment: str, variables, nb_count: int) -> Verdict:
    """The MODL-irrelevant variables are ``variables`` and NB uses the ``nb_count`` others."""
    records = ev.records(experiment)
    w = records[(records["artefact"] == "weights") & (records["method"] == "nb")]
    ours = sorted(w.loc[w["informative"].astype(str) == "False", "variable"])
    n_nb = len(selected(ev, "nb"))
    ok = set(ours) == set(variables) and n_nb == nb_count
    return Verdict(
        "holds" if ok else "does not hold",
        f"irrelevant: {', '.join(ours)} (paper {', '.join(variables)}); NB uses {n_nb} "
        f"(paper {nb_count})",
    )


def selection(
    ev: Evidence, experiment: str, method: str, count=None, variables=None, subset_of=None,
    fewer_than=None,
) -> Verdict:  # fmt: skip
    """Selected variables of ``method``: their number (= ``count``), the set (= ``variables``),
    a subset of each of ``subset_of``'s selections, fewer than each of ``fewer_than``'s."""
    ev.records(experiment)
    ours = selected(ev, method)
    checks, texts = [], [f"{name(method)} selects {len(ours)}: {' '.join(ours)}"]
    if count is not None:
        checks.append(len(ours) == count)
        texts.append(f"paper {count}")
    if variables is not None:
        checks.append(set(ours) == set(variables))
        texts.append(f"paper {' '.join(variables)}")
    for other in subset_of or []:
        missing = sorted(set(ours) - set(selected(ev, other)), key=ours.index)
        checks.append(not missing)
        texts.append(f"not in {name(other)}'s: {' '.join(missing) or 'none'}")
    for other in fewer_than or []:
        n = len(selected(ev, other))
        checks.append(len(ours) < n)
        texts.append(f"{name(other)} {n}")
    verdict = grade(all(checks), any(checks))
    return Verdict(verdict, "; ".join(texts))


def soft_vs_map(ev: Evidence, experiment: str, method: str, same: bool) -> Verdict:
    """Is the soft selection of ``method`` (weights rounded to 0/1) the MAP subset (``same``)?"""
    ev.records(experiment)
    w = weights(ev, method)
    hard = weights(ev, "snb_map")
    rounded = (w >= 0.5).astype(float)
    equal = bool((rounded == hard.reindex(w.index)).all())
    gap = float((w - hard.reindex(w.index)).abs().mean())
    return Verdict(
        "holds" if equal == same else "does not hold",
        f"{name(method)} weights rounded {'=' if equal else '≠'} SNB(MAP) subset; mean |w − a| "
        f"{gap:.3f}; largest off-MAP weight {float(w[hard.reindex(w.index) == 0].max()):.3f}",
    )


def weights_around(ev: Evidence, experiment: str, method: str, value: float) -> Verdict:
    """Every informative variable's weight is "around ``value``" (:func:`same_number`)."""
    ev.records(experiment)
    w = weights(ev, method)
    w = w[w > 0]
    ok = [same_number(x, value) for x in w]
    verdict = "holds" if all(ok) else "partly" if np.mean(ok) > 0.5 else "does not hold"
    off = ", ".join(f"{v} {x:.3f}" for v, x, k in zip(w.index, w, ok) if not k)
    return Verdict(
        verdict,
        f"{name(method)}: {sum(ok)} of {len(ok)} weights round to {value:g} "
        f"(range {w.min():.3f}–{w.max():.3f}){'; not: ' + off if off else ''}",
    )


def weight_peak(ev: Evidence, experiment: str, method: str, peak: str, sides) -> Verdict:
    """The weights peak at ``peak``; each of ``sides`` rises above the lowest weight between it
    and the peak (two lesser groups around them)."""
    ev.records(experiment)
    w = weights(ev, method)
    w = w[w > 0]
    names = list(w.index)
    checks = [w.idxmax() == peak]
    texts = [f"largest {w.idxmax()} {w.max():.3f}"]
    for s in sides:
        i, j = sorted((names.index(s), names.index(peak)))
        valley = w.iloc[i + 1 : j].min()
        checks.append(bool(w[s] > valley))
        texts.append(f"{s} {w[s]:.3f} vs valley {valley:.3f}")
    verdict = "holds" if all(checks) else "partly" if checks[0] else "does not hold"
    return Verdict(verdict, "; ".join(texts))


def summary_value(ev: Evidence, key: str) -> float:
    records = ev.records(WAVEFORM)
    s = records[(records["artefact"] == "summary") & (records["key"] == key)]
    return float(s["value"].iloc[0])


def posterior_numbers(ev: Evidence, experiment: str, values: dict) -> Verdict:
    """Summary statistics of the exhaustive posterior (``key: published``), each "around" its
    published value (:func:`same_number`); ``log10_map_vs_null`` also needs the null model to be
    the least probable one."""
    ev.records(experiment)
    ok, texts = [], []
    for key, published in values.items():
        ours = summary_value(ev, key)
        ok.append(same_number(ours, published))
        texts.append(f"{key} {ours:.2f} (paper {published})")
        if key == "log10_map_vs_null":
            worst = summary_value(ev, "log10_map_vs_worst")
            ok.append(worst == ours)
            texts.append(f"null model least probable: {worst == ours}")
    verdict = grade(all(ok), any(ok))
    return Verdict(verdict, "; ".join(texts))


def first_selected(ev: Evidence, experiment: str, variable: str, rank: int, times) -> Verdict:
    """``variable`` first enters the ``rank``-th most probable model, ``times`` (about) less
    probable than the MAP model."""
    records = ev.records(experiment)
    s = records[(records["artefact"] == "summary") & (records["key"] == "first_rank")]
    row = s[s["variable"] == variable].iloc[0]
    ours_rank, ratio = int(row["value"]), 10 ** float(row["log10_map_over_model"])
    ok = [ours_rank == rank, same_number(ratio, times)]
    verdict = grade(all(ok), any(ok))
    return Verdict(
        verdict,
        f"{variable} first in model {ours_rank} (paper {rank}), {ratio:.3g} times less probable "
        f"than the MAP (paper about {times})",
    )


def always_selected(ev: Evidence, experiment: str, variables, n_top: int = 200) -> Verdict:
    """The variables selected by every one of the ``n_top`` most probable models."""
    records = ev.records(experiment)
    top = records[(records["artefact"] == "top_models") & (records["rank"] <= n_top)]
    share = top.groupby("variable")["value"].mean()
    ours = sorted(share.index[share == 1], key=lambda v: int(v[1:]))
    in_map = set(ours) <= set(selected(ev, "snb_map"))
    verdict = "holds" if set(ours) == set(variables) else "does not hold"
    return Verdict(
        verdict,
        f"in all {top['rank'].nunique()} top models: {' '.join(ours)} (paper "
        f"{' '.join(variables)}); all MAP variables: {in_map}",
    )


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
    verdict = "holds" if not worse else "partly" if len(worse) < n / 2 else "does not hold"
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
        f"{revs.shape[1]} revisions): b = {coef[0]:.2f}, 95% CI [{low:.2f}, {high:.2f}]",
    )
