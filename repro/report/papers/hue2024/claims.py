"""Hue & Boullé (2024), Fractional Naive Bayes (FNB): the claims of §2.2 and §4 (Figures 1–11)
and of the conclusion, decided from the stored records (never refitted).

Records. The five experiments ``hue2024_fig1to3``, ``hue2024_fig4``, ``hue2024_fig5``,
``hue2024_fig6`` and ``hue2024_fig7to11`` store their cells in one shared folder,
``results/hue2024_cells/`` (:data:`STORE`, their ``report.sources``); a claim's ``experiment``
names the config whose run grid holds the configurations it compares. Every rule reads that
folder and picks the configurations by method and parameters exactly as the figures do
(:class:`repro.report.papers.hue2024.figures.Variant`; labels in :data:`VARIANTS`).

Data sets. The paper's figures are over 124 optimisation problems (54 UCI, 20 AutoML, 50
relational); the records cover the bundled UCI sets only. Every rule drops :data:`SUBSTITUTES`
(abalone19, yeast1: binarized substitutes for the paper's 28- and 10-class sets), so a verdict
rests on the paper's own data sets: 27 of its 124 problems for Fig. 1–3 (the eight optimisers
ran on 29 bundled sets), 29 of 124 for Fig. 4–11 (31 bundled sets). The evidence line says
how many.

Quantities (:data:`QUANTITIES`), one value per fold (cv10), per data set the mean over the
folds: ``criterion`` (the method's own training criterion), ``cr_eq11`` (CR(w) of eq. 11 at
λ = 0.25, p = 0.95 of any method's weights, Fig. 9), ``n_selected`` (weight > 0), ``time`` (the
weighting time: everything after the MODL preparation, the start included), ``opt_time`` (the
optimisation after the start), ``n_iterations``, test ``auc``, ``accuracy``, ``train_auc``.
Direction (:data:`LOWER_IS_BETTER`): less is better for criteria, variables, times and
iterations. Model quantities are compared fold by fold like test metrics. Every claim about
"execution / optimization time" reads ``time`` (the paper also calls FNB's whole search its
"optimization time", §4.5); only "speeds up the convergence of the minimization algorithm"
(§4.4) reads ``opt_time``. Times were measured on 2 shared cores: they are noisy.

Comparisons ("A beats B", "as good as", "the best") use the shared rules of
:mod:`repro.report.claims.evidence` (Wilcoxon over ≥ 6 data sets, per-data-set paired t wins /
losses over the folds, α = 0.05). Rules this module adds:

- **Similar** ("A and B are similar / equivalent / the same"): the weaker verdict of
  ``not_worse(A, B)`` and ``not_worse(B, A)`` (holds > partly > does not hold).
- **Worst** ("A is the least effective / least parsimonious"): the shared ``best`` rule with
  the direction of the quantity reversed.
- **Among the best** ("A is among the best of several"): ``not_worse(A, B)`` against every
  other B, joined by the conjunction rule below.
- **Trend** ("Q decreases when λ increases"): Page's L test (one-sided, α = 0.05; blocks = data
  sets, treatments = the settings in the stated order, values = per-data-set means; a stated
  decrease is tested on −Q). Holds when significant; partly when not significant but the mean
  over data sets moves in the stated direction from the first setting to the last; does not
  hold otherwise.
- **Mean ratio** ("the ratio is around 0.8"): r_d = mean(A) / mean(B) per data set;
  :func:`repro.stats.agreement.mean_over_datasets` (bootstrap 95% CI over data sets of the
  mean of r_d): holds when the published value lies inside the CI; partly when it does not but
  the same test rejects 1 with our mean on the published side of 1 (the stated direction holds,
  not its size); does not hold otherwise.
- **Time ratio** (every claim of a number of times, "the same time", "reduce it by 20%"):
  r_d = mean time of A / mean time of B per data set (``time`` unless the claim names another);
  statistic: the median of r_d over data sets, with its bootstrap percentile 95% CI (9999
  resamples of the data sets, seed 0). Holds when the CI meets the published range [lo, hi]
  (lo = hi for a single number); partly when it does not but the CI lies wholly on the range's
  side of 1 (the direction holds, not the size); does not hold otherwise. "A takes less / more
  time than B" without a number is a comparison (shared rules on ``time``).
- **Equivalence** ("the same quality", "similar", "equivalent", "close to 1", "of the order of
  1", "almost the same"): :func:`repro.report.claims.evidence.equivalence` (the 90% t interval
  of the mean over data sets inside ± a margin stated per claim in ``claims.yaml``, TOST at
  α = 0.05) of r_d − 1 (ratios, r_d as below) or of the per-data-set differences; holds when
  inside, does not hold otherwise (never partly). A significant but tiny difference is
  equivalence; a wide interval is not.
- **Ratios over data sets** ("for most data sets the ratio is between 0.98 and 1.02", "never
  more than 3%"): r_d as above, k of n data sets inside the range (bounds inclusive, exclusive
  where ``strict``). Quantifier "all" (always, never): holds when k = n, does not hold
  otherwise (no counter-case allowed). Quantifier "most" (usually, almost always): a majority,
  holds when k > n/2, does not hold otherwise.
- **Always above** ("the ratios are always greater than 1", :func:`never_below`): no
  significant counter-case: holds when on no data set the per-fold values of A are
  significantly below B's (paired t over the folds), does not hold otherwise.
- **Up to** ("execution time can be 10 to 20 larger", :func:`max_ratio`): the largest r_d
  reaches about the stated X: max r_d ≥ X / 1.5; does not hold otherwise.
- **Times** depend on the implementation (ours: Python/numba; the paper's: Khiops, C++): every
  verdict on a time is a verdict on ours, and its evidence says so.
- **Share kept** ("keeping almost all the initial variables"): per data set the mean over folds
  of n_selected / n_features; "almost all" is a share ≥ 0.9 (``threshold``); over data sets the
  quantifier rule above.
- **The paper's numbers**: :func:`tidy` serves frames of :mod:`repro.report.claims.published`
  (``method`` = a label of :data:`VARIANTS`, ``metric`` = a quantity) as they are, so a rule
  runs on the numbers the paper prints (its text's; its figures give no table).
- **Conjunction** (a sentence of several statements, :func:`all_of`): the parts are the
  sentence's own statements; ``evidence.conjunction`` (holds when every part holds, partly when
  some hold and others fail, does not hold when none holds); the evidence lists every part.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from repro.report.claims import evidence, published
from repro.report.claims.engine import Evidence, Verdict
from repro.report.papers.hue2024 import figures
from repro.stats import agreement
from repro.stats.tests import metric_table

#: the shared cell store of the five hue2024 experiments
STORE = "hue2024_cells"
#: binarized substitutes, not the paper's data sets: left out of every rule
SUBSTITUTES = ("abalone19", "yeast1")
ALPHA = 0.05
#: the paper's optimisation problems (54 UCI + 20 AutoML + 50 relational)
PAPER_PROBLEMS = 124
#: (metric, split) of each quantity in the records
QUANTITIES = {**figures.QUANTITIES, "n_iterations": ("n_iterations", "model")}
LOWER_IS_BETTER = {"criterion", "cr_eq11", "n_selected", "time", "fit_time", "opt_time"}
LOWER_IS_BETTER |= {"n_iterations"}
#: the configurations the claims name: the eight optimisers at λ = 1 (SG.CF, AM, ...), SNB,
#: FNB, SG.CF (λ = 0.25, p = 0.95, ε = 0.01) from the three starts, and the sweeps of Fig. 4–6
VARIANTS = {
    v.label: v for v in [*figures.FIG1_VARIANTS, figures.SNB, figures.FNB, *figures.INIT_VARIANTS]
}
VARIANTS |= {f"lambda={x:g}": figures.wnb(f"lambda={x:g}", lambda_=x) for x in figures.LAMBDAS}
VARIANTS |= {f"p={x:g}": figures.wnb(f"p={x:g}", p=x) for x in figures.PS}
VARIANTS |= {f"eps={x:g}": figures.wnb(f"eps={x:g}", epsilon=x) for x in figures.EPSILONS}

_TIDY: dict[int, tuple[pd.DataFrame, pd.DataFrame]] = {}


def tidy(ev: Evidence) -> pd.DataFrame:
    """The records of :data:`VARIANTS` on the paper's data sets: ``method`` = the label,
    ``metric`` = the quantity name, ``split`` = "test" (so the shared rules read them)."""
    records = ev.records(STORE)
    if published.is_published(records):  # the paper's numbers, already labelled
        out = records.copy()
        if "n_features" not in out:
            out["n_features"] = np.nan
        return out
    cached = _TIDY.get(id(records))
    if cached is not None and cached[0] is records:
        return cached[1]
    needed = {metric for metric, _ in QUANTITIES.values()}
    keep = records["metric"].isin(needed)
    if "quantity" in records:  # the CR(w) artefacts (Fig. 9)
        keep |= (records["metric"] == "artefact:criterion") & records["quantity"].isin(needed)
    recs = figures.labelled(records[keep], list(VARIANTS.values()))
    recs = recs[~recs["dataset"].isin(SUBSTITUTES)]
    parts = []
    for name, (metric, split) in QUANTITIES.items():
        rows = recs[(recs["metric"] == metric) & (recs["split"] == split)]
        parts.append(rows.assign(metric=name, split="test"))
    columns = ["method", "dataset", "repetition", "fold", "split", "metric", "value"]
    out = pd.concat(parts, ignore_index=True)[columns + ["n_features"]]
    _TIDY[id(records)] = (records, out)
    return out


def table(ev: Evidence, labels, quantity: str) -> pd.DataFrame:
    """Data sets × labels of the per-data-set means of ``quantity`` (data sets where all ran)."""
    rows = tidy(ev)
    rows = rows[rows["method"].isin(list(labels)) & (rows["metric"] == quantity)]
    if rows.empty:
        raise ValueError(f"no records of {list(labels)} for {quantity!r}")
    return metric_table(rows, quantity).reindex(columns=list(labels)).dropna()


def coverage(n: int) -> str:
    return f"{n} of the paper's {PAPER_PROBLEMS} problems"


def higher(quantity: str) -> bool:
    return quantity not in LOWER_IS_BETTER


#: the quantities that are times (their verdicts depend on the implementation)
TIMES = {"time", "opt_time", "fit_time"}
#: said of every verdict on a time: the paper's times are Khiops' (C++), ours are not
OUR_IMPLEMENTATION = "times of our implementation (Python/numba), not the paper's Khiops"


def with_coverage(verdict: Verdict, n: int, quantity: str = "") -> Verdict:
    ours = f"; {OUR_IMPLEMENTATION}" if quantity in TIMES else ""
    return Verdict(verdict.verdict, f"{verdict.evidence} [{coverage(n)}{ours}]")


# ---------------------------------------------------------------------------------------------
# Comparisons (the shared rules of repro.report.claims.evidence)
# ---------------------------------------------------------------------------------------------
def better(ev: Evidence, a: str, b: str, quantity: str) -> Verdict:
    """ "a is better than b" on ``quantity`` (its direction: :data:`LOWER_IS_BETTER`)."""
    c = evidence.compare(tidy(ev), a, b, quantity, higher(quantity))
    return with_coverage(Verdict(evidence.better_verdict(c), c.text()), c.n_datasets, quantity)


def not_worse(ev: Evidence, a: str, b: str, quantity: str) -> Verdict:
    """ "a is as good as b" on ``quantity``."""
    c = evidence.compare(tidy(ev), a, b, quantity, higher(quantity))
    return with_coverage(Verdict(evidence.not_worse_verdict(c), c.text()), c.n_datasets, quantity)


def similar(ev: Evidence, a: str, b: str, quantity: str) -> Verdict:
    """ "a and b are similar": the weaker of not_worse(a, b) and not_worse(b, a)."""
    c = evidence.compare(tidy(ev), a, b, quantity, higher(quantity))
    verdict = evidence.similar_verdict(c)
    return with_coverage(Verdict(verdict, c.text()), c.n_datasets, quantity)


def equivalent(
    ev: Evidence, a: str, b: str, quantity: str, margin: float, scale: str = "ratio",
    center: float = 1.0,
) -> Verdict:  # fmt: skip
    """ "a and b are the same / similar / equivalent / close to 1" on ``quantity``: the
    equivalence rule (module docstring) on r_d − ``center`` (``scale`` "ratio", r_d = mean(a) /
    mean(b) per data set; "the ratio is around 0.8": ``center`` 0.8) or on mean(a) − mean(b)
    ("difference"), within ± ``margin``."""
    if scale == "ratio":
        d = ratios(ev, a, b, quantity) - center
        what = f"{quantity} {a}/{b} − {center:g}"
    elif scale == "difference":
        t = table(ev, [a, b], quantity)
        d = t[a] - t[b]
        what = f"{quantity} {a} − {b}"
    else:
        raise ValueError(f"scale must be ratio or difference, got {scale!r}")
    verdict, text = evidence.equivalence(d.to_numpy(), margin)
    return with_coverage(Verdict(verdict, f"{what}: {text}"), len(d), quantity)


def never_below(ev: Evidence, a: str, b: str, quantity: str) -> Verdict:
    """ "the ratio a/b is always greater than 1": no significant counter-case, i.e. on no data
    set is a's ``quantity`` significantly below b's (paired t over the folds, α = 0.05); ratios
    of 1 (the same solution) are no counter-case. Holds when none, does not hold otherwise."""
    c = evidence.compare(tidy(ev), a, b, quantity, higher_is_better=False)
    r = ratios(ev, a, b, quantity)
    counter = c.wins  # data sets where a is significantly lower than b
    text = (
        f"{quantity} {a}/{b}: > 1 on {int((r > 1).sum())}, = 1 on {int((r == 1).sum())}, < 1 on "
        f"{int((r < 1).sum())} of {len(r)} data sets (min {r.min():.4f}); significantly below "
        f"{b} on {counter} (paired t over the folds)"
    )
    verdict = "holds" if counter == 0 else "does not hold"
    return with_coverage(Verdict(verdict, text), len(r), quantity)


def max_ratio(
    ev: Evidence, a: str, b: str, reach: float, quantity: str = "time", factor: float = 1.5
) -> Verdict:
    """ "the ratio a/b can be (up to) ``reach``": the largest per-data-set ratio r_d reaches
    about ``reach``, i.e. max r_d ≥ reach / ``factor``; does not hold otherwise."""
    r = ratios(ev, a, b, quantity)
    top = float(r.max())
    verdict = "holds" if top >= reach / factor else "does not hold"
    text = (
        f"{quantity} {a}/{b}: largest ratio {top:.3f} ({r.idxmax()}) vs the stated {reach:g} "
        f"(reached when ≥ {reach / factor:.3g} = {reach:g}/{factor:g}); median {r.median():.3f}"
    )
    return with_coverage(Verdict(verdict, text), len(r), quantity)


def best_of(ev: Evidence, a: str, others: list[str], quantity: str) -> Verdict:
    """ "a is the best of a + others" on ``quantity`` (the shared ``best`` rule)."""
    v = evidence.best(tidy(ev), a, others, quantity, higher(quantity))
    n = table(ev, [a, *others], quantity).shape[0]
    return with_coverage(v, n)


def worst_of(ev: Evidence, a: str, others: list[str], quantity: str) -> Verdict:
    """ "a is the worst of a + others": ``best`` with the direction of ``quantity`` reversed."""
    v = evidence.best(tidy(ev), a, others, quantity, not higher(quantity))
    n = table(ev, [a, *others], quantity).shape[0]
    text = f"reversed (W/L: {a}'s {quantity} significantly higher/lower); "
    return with_coverage(Verdict(v.verdict, text + v.evidence.replace("best mean", "worst")), n)


def among_best(ev: Evidence, a: str, others: list[str], quantity: str) -> Verdict:
    """ "a is among the best of a + others": not_worse(a, b) for every b, joined by
    :func:`all_of` (holds when a is significantly worse than none)."""
    return all_of(ev, [{"rule": "not_worse", "a": a, "b": b, "quantity": quantity} for b in others])


# ---------------------------------------------------------------------------------------------
# Rules this module adds (the module docstring states each)
# ---------------------------------------------------------------------------------------------
def trend(ev: Evidence, settings: list[str], quantity: str, direction: str) -> Verdict:
    """ "``quantity`` increases / decreases along ``settings``": Page's L test (module
    docstring)."""
    if direction not in ("increasing", "decreasing"):
        raise ValueError(f"direction must be increasing or decreasing, got {direction!r}")
    t = table(ev, settings, quantity)
    sign = 1.0 if direction == "increasing" else -1.0
    page = stats.page_trend_test(sign * t.to_numpy())
    moves = sign * (t[settings[-1]].mean() - t[settings[0]].mean()) > 0
    if page.pvalue < ALPHA:
        verdict = "holds"
    else:
        verdict = "partly" if moves else "does not hold"
    means = ", ".join(f"{s} {t[s].mean():.4g}" for s in settings)
    text = f"{quantity} means {means}; Page L = {page.statistic:.0f}, p = {page.pvalue:.3g}"
    return with_coverage(Verdict(verdict, f"{text} ({direction})"), len(t), quantity)


def ratios(ev: Evidence, a: str, b: str, quantity: str) -> pd.Series:
    """r_d = mean(a) / mean(b) per data set (x/0 dropped, 0/0 = 1)."""
    t = table(ev, [a, b], quantity)
    both_zero = (t[a] == 0) & (t[b] == 0)
    r = t[a] / t[b].where(t[b] != 0)
    return r.mask(both_zero, 1.0).replace([np.inf, -np.inf], np.nan).dropna()


def side(value: float) -> int:
    return int(np.sign(value - 1.0))


def mean_ratio(ev: Evidence, a: str, b: str, quantity: str, published: float) -> Verdict:
    """ "the ratio of a to b is around ``published``": the mean-ratio rule (module docstring)."""
    r = ratios(ev, a, b, quantity)
    inside = agreement.mean_over_datasets(published, r)
    against_one = agreement.mean_over_datasets(1.0, r)
    if inside.agrees:
        verdict = "holds"
    elif against_one.agrees is False and side(r.mean()) == side(published) != 0:
        verdict = "partly"
    else:
        verdict = "does not hold"
    text = f"{quantity} {a}/{b}: mean ratio {r.mean():.4f} (median {r.median():.4f}) vs "
    text += f"{published:g}: {inside.detail}"
    return Verdict(verdict, f"{text} [{coverage(len(r))}]")


def time_ratio(
    ev: Evidence, a: str, b: str, lo: float, hi: float, quantity: str = "time", also: str = ""
) -> Verdict:
    """ "a takes lo–hi times b's time": the time-ratio rule (module docstring); ``also`` names
    another time whose median ratio the evidence shows (it does not enter the verdict)."""
    r = ratios(ev, a, b, quantity)
    low, high = agreement.bootstrap_ci(r.to_numpy(), np.median)
    if low <= hi and high >= lo:
        verdict = "holds"
    elif side(lo) == side(hi) != 0 and side(low) == side(high) == side(lo):
        verdict = "partly"
    else:
        verdict = "does not hold"
    stated = f"{lo:g}" if lo == hi else f"[{lo:g}, {hi:g}]"
    text = f"{quantity} {a}/{b}: median ratio {r.median():.3f}, 95% CI [{low:.3f}, {high:.3f}] "
    text += f"vs {stated}; mean {r.mean():.3f}, max {r.max():.3f} ({r.idxmax()})"
    if also:
        text += f"; {also} median ratio {ratios(ev, a, b, also).median():.3f} (not decisive)"
    return with_coverage(Verdict(verdict, text), len(r), quantity)


def quantifier_verdict(k: int, n: int, quantifier: str) -> str:
    """Quantifier "all" / "most" over data sets (module docstring, "Ratios over data sets"):
    "all" (always, never): holds when k = n (no counter-case); "most" (usually, almost always):
    a majority, holds when k > n/2; does not hold otherwise."""
    if quantifier == "all":
        return "holds" if k == n else "does not hold"
    if quantifier == "most":
        return "holds" if k > n / 2 else "does not hold"
    raise ValueError(f"quantifier must be all or most, got {quantifier!r}")


def ratio_range(
    ev: Evidence,
    a: str,
    b: str,
    quantity: str,
    quantifier: str,
    lo: float = -np.inf,
    hi: float = np.inf,
    strict: bool = False,
) -> Verdict:
    """ "for all / most data sets the ratio a/b lies in [lo, hi]" (module docstring)."""
    r = ratios(ev, a, b, quantity)
    inside = (r > lo) & (r < hi) if strict else (r >= lo) & (r <= hi)
    k, n = int(inside.sum()), len(r)
    bounds = f"({lo:g}, {hi:g})" if strict else f"[{lo:g}, {hi:g}]"
    out = sorted(r[~inside].index)
    text = f"{quantity} {a}/{b} in {bounds} on {k} of {n} data sets ({quantifier}); ratio "
    text += f"min {r.min():.4f}, median {r.median():.4f}, max {r.max():.4f}"
    if out:
        text += f"; outside: {', '.join(out[:6])}{' …' if len(out) > 6 else ''}"
    return Verdict(quantifier_verdict(k, n, quantifier), f"{text} [{coverage(n)}]")


def share_kept(ev: Evidence, a: str, threshold: float, quantifier: str) -> Verdict:
    """ "a keeps almost all the initial variables": share n_selected / n_features ≥
    ``threshold`` on all / most data sets (module docstring, "Share kept")."""
    rows = tidy(ev)
    rows = rows[(rows["method"] == a) & (rows["metric"] == "n_selected")]
    share = (rows["value"] / rows["n_features"]).groupby(rows["dataset"]).mean()
    k, n = int((share >= threshold).sum()), len(share)
    text = f"{a} keeps ≥ {threshold:g} of the variables on {k} of {n} data sets ({quantifier}); "
    text += f"mean share {share.mean():.3f}, median {share.median():.3f}, min {share.min():.3f}"
    return Verdict(quantifier_verdict(k, n, quantifier), f"{text} [{coverage(n)}]")


def all_of(ev: Evidence, parts: list[dict]) -> Verdict:
    """A sentence of several statements: each part is ``{rule: <a rule of this module>, ...its
    params}``; holds when every part holds, does not hold when none does, partly otherwise."""
    results = []
    for part in parts:
        params = dict(part)
        rule = RULES[params.pop("rule")]
        results.append(rule(ev, **params))
    verdict = evidence.conjunction(r.verdict for r in results)
    return Verdict(verdict, " | ".join(f"{r.verdict}: {r.evidence}" for r in results))


#: the rules a part of :func:`all_of` may name
RULES = {
    f.__name__: f
    for f in (
        better,
        not_worse,
        similar,
        equivalent,
        never_below,
        max_ratio,
        best_of,
        worst_of,
        among_best,
        trend,
        mean_ratio,
        time_ratio,
        ratio_range,
        share_kept,
    )
}
